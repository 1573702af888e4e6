"""Staff create competitions and matches through the API, and assign who records each."""

import pytest

from matches.models import Assignment, Competition, Match
from matches.records import record_export
from matches.selectors import assigned_referee
from tests.support.builders import PLAYERS
from tests.support.logins import REFEREE, api, login

LAG = {"type": "lag", "A": {"distance": 90}, "B": {"distance": 150}}


def post(key, path, body):
    return api(key).post(f"/api/{path}", body, format="json")


def match_body(**fields):
    return {"id": "cup-2026-b-1", "competition": "cup-2026", "players": PLAYERS, **fields}


# -- Competitions --------------------------------------------------------------------------


def test_staff_create_a_competition_with_its_ruleset(staff):
    body = {"id": "cup-2027", "name": "Cup 2027", "ruleset": {"target": 40, "best_of": 5}}

    answer = post(staff.key, "competitions/", body)

    assert answer.status_code == 201
    assert answer.json() == {"id": "cup-2027"}
    competition = Competition.objects.get(pk="cup-2027")
    assert (competition.name, competition.ruleset) == ("Cup 2027", {"target": 40, "best_of": 5})


def test_a_competition_without_an_id_gets_one_made_from_its_name(staff):
    answer = post(staff.key, "competitions/", {"name": "Winter Cup"})

    assert answer.status_code == 201
    assert answer.json()["id"].startswith("winter-cup-")
    assert Competition.objects.get(pk=answer.json()["id"]).name == "Winter Cup"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"id": "cup 2027"}, "id"),
        ({"id": "cup-2027", "ruleset": {"target": 0}}, "ruleset.target"),
        ({"id": "cup-2027", "ruleset": {"tagret": 40}}, "ruleset"),
        ({"id": "cup-2027", "name": "x" * 201}, "name"),
    ],
)
def test_a_competition_the_rules_refuse_is_a_422_naming_the_field(staff, body, field):
    answer = post(staff.key, "competitions/", body)

    assert answer.status_code == 422
    assert answer.json()["field"].startswith(field)
    assert not Competition.objects.exists()


def test_a_competition_id_taken_already_is_a_422(match, staff):
    answer = post(staff.key, "competitions/", {"id": "cup-2026"})

    assert answer.status_code == 422
    assert answer.json()["field"] == "id"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"id": 2027}, "id"),
        ({"name": ["Cup"]}, "name"),
        ({"ruleset": [60]}, "ruleset"),
        ({"id": "cup-2027", "rules": {}}, "rules"),
    ],
)
def test_a_competition_body_not_of_its_shape_is_a_400(staff, body, field):
    answer = post(staff.key, "competitions/", body)

    assert answer.status_code == 400
    assert answer.json()["field"] == field


# -- Matches ---------------------------------------------------------------------------------


def test_staff_create_a_match_whose_referee_may_then_record_it(match, staff, referee):
    answer = post(staff.key, "matches/", match_body(referee=REFEREE))

    assert answer.status_code == 201
    assert answer.json() == {"id": "cup-2026-b-1"}
    created = Match.objects.get(pk="cup-2026-b-1")
    assert assigned_referee(created) == referee.user
    assert Assignment.objects.get(match=created).assigned_by == "federation"
    recorded = post(referee.key, "matches/cup-2026-b-1/events", {"expected_seq": 0, "event": LAG})
    assert recorded.status_code == 201


def test_the_officiating_referee_is_text_of_the_record_and_not_the_login(match, staff, referee):
    body = match_body(referee=REFEREE, referee_name="I. Petrenko", stage="Group B", table="3")

    post(staff.key, "matches/", body)

    header = record_export("cup-2026-b-1")["match"]
    assert header["referee"] == {"name": "I. Petrenko"}
    assert (header["stage"], header["table"]) == ("Group B", "3")


def test_a_match_without_an_id_gets_one_and_nobody_records_it_yet(match, staff):
    answer = post(staff.key, "matches/", {"competition": "cup-2026", "players": PLAYERS})

    assert answer.status_code == 201
    created = Match.objects.get(pk=answer.json()["id"])
    assert created.id.startswith("cup-2026-")
    assert assigned_referee(created) is None


def test_an_unknown_referee_username_is_a_422_and_stores_no_match(match, staff):
    answer = post(staff.key, "matches/", match_body(referee="nobody-by-that-name"))

    assert answer.status_code == 422
    assert answer.json() == {
        "error": "no login 'nobody-by-that-name'",
        "field": "referee",
        "code": "no_login",
        "params": {"username": "'nobody-by-that-name'"},
    }
    assert not Match.objects.filter(pk="cup-2026-b-1").exists()


def test_a_match_of_an_unknown_competition_is_a_404_naming_it(staff):
    answer = post(staff.key, "matches/", match_body())

    assert answer.status_code == 404
    assert answer.json()["field"] == "competition"


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"players": {"A": PLAYERS["A"], "B": PLAYERS["A"]}}, "players.B.federation_id"),
        ({"players": {"A": {"name": ""}, "B": PLAYERS["B"]}}, "players.A.name"),
        ({"balls": {"A": "white", "B": "white"}}, "balls.B"),
        ({"ruleset": {"best_of": 4}}, "ruleset.best_of"),
        ({"date": "29/11/2026"}, "date"),
        ({"id": "cup-2026-a-3"}, "id"),
    ],
)
def test_a_match_the_rules_refuse_is_a_422_naming_the_field(match, staff, fields, field):
    answer = post(staff.key, "matches/", match_body(**fields))

    assert answer.status_code == 422
    assert answer.json()["field"] == field
    assert Match.objects.count() == 1


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"players": [PLAYERS["A"], PLAYERS["B"]]}, "players"),
        ({"players": {"A": PLAYERS["A"]}}, "players.B"),
        ({"players": {**PLAYERS, "C": PLAYERS["A"]}}, "players.C"),
        ({"players": {"A": "Olena", "B": PLAYERS["B"]}}, "players.A"),
        ({"referee": 7}, "referee"),
        ({"balls": {"A": 1}}, "balls.A"),
        ({"umpire": "x"}, "umpire"),
    ],
)
def test_a_match_body_not_of_its_shape_is_a_400_naming_the_field(match, staff, fields, field):
    answer = post(staff.key, "matches/", match_body(**fields))

    assert answer.status_code == 400
    assert answer.json()["field"] == field


# -- Assigning the referee ------------------------------------------------------------------


def assign(key, match_id, username):
    return api(key).put(f"/api/matches/{match_id}/referee", {"username": username}, format="json")


def test_staff_change_a_matchs_referee_and_the_first_may_no_longer_record(match, staff, referee):
    other = login("marchetti-ref")

    answer = assign(staff.key, match.id, "marchetti-ref")

    assert answer.status_code == 200
    assert answer.json()["referee"] == "marchetti-ref"
    assert answer.json()["assigned_by"] == "federation"
    body = {"expected_seq": 0, "event": LAG}
    assert post(referee.key, f"matches/{match.id}/events", body).status_code == 403
    assert post(other.key, f"matches/{match.id}/events", body).status_code == 201


def test_assigning_nobody_takes_the_match_from_its_referee(match, staff, referee):
    answer = assign(staff.key, match.id, None)

    assert answer.status_code == 200
    assert answer.json()["referee"] is None
    assert assigned_referee(match) is None
    assert Assignment.objects.filter(match=match).count() == 2


def test_assigning_an_unknown_username_is_a_422_and_changes_nothing(match, staff, referee):
    answer = assign(staff.key, match.id, "nobody-by-that-name")

    assert answer.status_code == 422
    assert answer.json()["field"] == "username"
    assert assigned_referee(match) == referee.user


def test_assigning_the_referee_of_an_unknown_match_is_a_404(db, staff):
    assert assign(staff.key, "cup-2026-z-9", "federation").status_code == 404


def test_an_assignment_body_without_username_is_a_400(match, staff):
    answer = api(staff.key).put(f"/api/matches/{match.id}/referee", {}, format="json")

    assert answer.status_code == 400
    assert answer.json() == {"error": "is required", "field": "username"}

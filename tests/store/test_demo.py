"""The demo that `make run` loads."""

import pytest
from django.contrib.auth import authenticate, get_user_model
from django.core.management import call_command

from matches import demo, services
from matches.models import Assignment, Competition, Entry, Event, Match
from matches.records import archive_verify
from matches.selectors import assigned_referee
from replay.projections.states import match_state

DEMO_LINES = [
    "demo match 'demo-live-1' under way: Olena Kovalenko v Marco Marchetti",
    "  live board  http://127.0.0.1:8000/matches/demo-live-1/",
    "  console     http://127.0.0.1:8000/referee/matches/demo-live-1/",
    "  overlay     http://127.0.0.1:8000/matches/demo-live-1/overlay/",
    "  hall        http://127.0.0.1:8000/competitions/demo-live/hall/",
    "demo logins, for this machine only (log in at http://127.0.0.1:8000/login/):",
    "  demo-referee / demo-referee-pass  (records match demo-live-1)",
    "  demo-staff / demo-staff-pass  (records and amends any match, finished too)",
]


@pytest.fixture
def debug(settings):
    """Debug on, as `make run` has it."""
    settings.DEBUG = True


@pytest.mark.django_db
def test_demo_loads_a_verified_round_robin_once(capsys):
    call_command("load_demo", matches=4)
    call_command("load_demo", matches=4)

    played = Match.objects.filter(competition_id="demo-cup", events__isnull=False).distinct()
    assert played.count() == 4
    assert all(problems == [] for problems in archive_verify().values())
    assert "no demo loaded" in capsys.readouterr().out


@pytest.mark.django_db
def test_the_demo_competition_is_named_its_players_entered_and_every_pair_has_one_match():
    call_command("load_demo", matches=4)

    cup = Competition.objects.get(pk="demo-cup")
    entrants = {entry.player.pk for entry in Entry.objects.filter(competition=cup)}
    pairs = [
        frozenset(pair)
        for pair in Match.objects.filter(competition=cup).values_list("player_a", "player_b")
    ]
    assert cup.name == "Demo Cup 2026"
    assert len(entrants) == 6
    assert len(pairs) == len(set(pairs))  # no pair twice
    assert set(pairs) == {frozenset((a, b)) for a in entrants for b in entrants if a != b}
    scheduled = Match.objects.filter(competition=cup, events__isnull=True)
    assert scheduled.count() == 15 - 4
    last_played = max(m.date for m in Match.objects.filter(competition=cup, events__isnull=False))
    assert all(match.date > last_played for match in scheduled)


@pytest.mark.django_db
def test_by_default_the_demo_plays_the_whole_round_robin_and_schedules_nothing():
    call_command("load_demo")

    matches = Match.objects.filter(competition_id="demo-cup")
    assert matches.count() == 15
    assert not matches.filter(events__isnull=True).exists()


@pytest.mark.django_db
def test_with_debug_on_the_demo_prints_the_logins_and_the_pages_of_a_match_under_way(debug, capsys):
    call_command("load_demo", matches=2)

    out = capsys.readouterr().out.splitlines()
    assert out[-len(DEMO_LINES) :] == DEMO_LINES


@pytest.mark.django_db
def test_the_demo_referee_logs_in_and_is_assigned_the_match_and_the_staff_login_is_staff(debug):
    call_command("load_demo", matches=2)

    referee = authenticate(username="demo-referee", password="demo-referee-pass")
    staff = authenticate(username="demo-staff", password="demo-staff-pass")
    assert referee is not None and not referee.is_staff
    assert staff is not None and staff.is_staff
    assert assigned_referee(Match.objects.get(pk="demo-live-1")) == referee


@pytest.mark.django_db
def test_the_demo_match_has_game_one_under_way_with_every_ball_on_the_table(debug):
    call_command("load_demo", matches=2)

    state = match_state(Match.objects.get(pk="demo-live-1"))
    assert state["status"] == "playing"
    assert state["games"][0]["score"] == {"A": 15, "B": 4}
    assert state["next"]["player"] == "A" and not state["next"]["ball_in_hand"]
    assert all(position is not None for position in state["positions"].values())


@pytest.mark.django_db
def test_a_second_run_keeps_the_demo_and_prints_the_same_logins(debug, capsys):
    call_command("load_demo", matches=2)
    first = capsys.readouterr().out.splitlines()[-len(DEMO_LINES) :]
    events = Event.objects.filter(match_id="demo-live-1").count()

    call_command("load_demo", matches=2)

    assert capsys.readouterr().out.splitlines()[-len(DEMO_LINES) :] == first
    assert Event.objects.filter(match_id="demo-live-1").count() == events == len(demo.OPENING)
    assert Assignment.objects.filter(match_id="demo-live-1").count() == 1
    assert get_user_model().objects.filter(username__startswith="demo-").count() == 2


@pytest.mark.django_db
def test_a_second_run_gives_the_demo_logins_back_their_passwords_and_the_match(debug):
    call_command("load_demo", matches=2)
    referee = get_user_model().objects.get(username="demo-referee")
    referee.set_password("changed")
    referee.save()
    services.referee_assign(match_id="demo-live-1", username=None, by="federation")

    call_command("load_demo", matches=2)

    assert authenticate(username="demo-referee", password="demo-referee-pass") == referee
    assert assigned_referee(Match.objects.get(pk="demo-live-1")) == referee


@pytest.mark.django_db
def test_a_second_run_keeps_the_demo_logins_sessions(debug):
    call_command("load_demo", matches=2)
    users = get_user_model().objects
    sessions = {user.username: user.get_session_auth_hash() for user in users.all()}

    call_command("load_demo", matches=2)

    assert {user.username: user.get_session_auth_hash() for user in users.all()} == sessions


@pytest.mark.django_db
def test_with_debug_off_the_demo_makes_no_login_unless_asked(capsys):
    call_command("load_demo", matches=2)
    assert "pass --demo-logins" in capsys.readouterr().out
    assert not get_user_model().objects.filter(username__startswith="demo-").exists()
    assert not Match.objects.filter(pk="demo-live-1").exists()

    call_command("load_demo", matches=2, demo_logins=True)

    assert capsys.readouterr().out.splitlines()[-len(DEMO_LINES) :] == DEMO_LINES

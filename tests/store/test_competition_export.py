"""A competition's document (competition.json) and the names of its zip, beside the records."""

from matches import services
from matches.domain.notation import RECORD_FORMAT
from matches.models import Competition
from matches.records import (
    COMPETITION_DOCUMENT,
    COMPETITION_FORMAT,
    competition_export,
    competition_record_name,
)
from tests.support.builders import new_match, open_game

# Olena again, by her federation id: one player of the document, not two.
PLAYERS_LATER = {
    "A": {"name": "Late Comer"},
    "B": {"name": "Olena Kovalenko", "federation_id": "UA-101"},
}


def test_a_competitions_document_lists_its_players_schedule_and_unplayed_matches(db):
    new_match("cup-b-2", target=40)
    services.match_create(id="cup-a-1", competition="cup", players=PLAYERS_LATER, date="2026-03-01")
    open_game("cup-b-2")
    services.player_enter(competition_id="cup", player={"name": "Entered Alone"}, by="staff")

    export = competition_export(Competition.objects.get(pk="cup"))

    document = export.document
    assert (document["format"], document["record_format"]) == (COMPETITION_FORMAT, RECORD_FORMAT)
    assert (document["id"], document["name"]) == ("cup", "Cup")
    assert [m.id for m in export.matches] == [e["match"] for e in document["schedule"]]
    assert {e["match"]: e["status"] for e in document["schedule"]} == {
        "cup-b-2": "playing",
        "cup-a-1": "scheduled",
    }
    assert document["unplayed"] == ["cup-a-1"]
    assert [p["name"] for p in document["players"]] == [
        "Entered Alone",
        "Late Comer",
        "Marco Marchetti",
        "Olena Kovalenko",
    ]


def test_each_schedule_entry_names_the_record_the_zip_holds_for_it(db):
    new_match("cup-a-1")

    export = competition_export(Competition.objects.get(pk="cup"))

    assert COMPETITION_DOCUMENT == "competition.json"
    assert [e["record"] for e in export.document["schedule"]] == ["matches/cup-a-1.json"]
    assert competition_record_name("cup-a-1") == "matches/cup-a-1.json"

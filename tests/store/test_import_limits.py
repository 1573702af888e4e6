"""Sizes with limits: an oversized text or match is refused whole, and imports go on past it."""

import io
import json

import pytest
from django.core.management import CommandError, call_command

from matches import services
from matches.domain.errors import Refused
from matches.domain.notation import LONGEST, MAX_EVENTS
from matches.domain.simulator import simulate_match
from matches.models import Event, Match
from matches.records import record_import
from tests.support.builders import BY, new_match, open_game, play


def test_a_reason_longer_than_its_limit_is_refused_and_nothing_is_stored(db):
    match = new_match()
    seq = open_game(match.id)
    seq = play(match.id, seq)

    with pytest.raises(Refused) as refused:
        services.shot_retract(
            match_id=match.id, expected_seq=seq, by=BY, shot=seq, reason="x" * 50_000_000
        )

    assert (refused.value.field, refused.value.seq) == ("reason", seq + 1)
    assert f"at most {LONGEST['reason']} characters" in refused.value.message
    assert Event.objects.filter(match=match).count() == seq


def test_a_record_with_more_events_than_a_match_may_have_is_refused_before_storing(db):
    record = simulate_match(1)
    filler = {"type": "intermission", "minutes": 5}
    record["events"] = [filler] * (MAX_EVENTS + 1)

    with pytest.raises(Refused) as refused:
        record_import(record)

    assert refused.value.field == "events"
    assert f"at most {MAX_EVENTS} events" in refused.value.message
    assert not Match.objects.exists()


def test_import_matches_goes_on_past_unreadable_files_and_refused_records(db, tmp_path):
    good, refused, unreadable = tmp_path / "good.json", tmp_path / "bad.json", tmp_path / "x.json"
    good.write_text(json.dumps(simulate_match(1)), encoding="utf-8")
    bad_record = simulate_match(2)
    bad_record["events"][0]["type"] = "match_won"
    refused.write_text(json.dumps(bad_record), encoding="utf-8")
    unreadable.write_bytes(b"\xff\xfe not text")
    out, err = io.StringIO(), io.StringIO()

    with pytest.raises(CommandError, match="1 of 4 imported"):
        call_command(
            "import_matches",
            str(refused),
            str(unreadable),
            str(tmp_path / "none"),
            str(good),
            stdout=out,
            stderr=err,
        )

    assert Match.objects.filter(pk="sim-1").exists()
    assert "sim-1 created" in out.getvalue()
    lines = err.getvalue().splitlines()
    assert [line.split(":")[0] for line in lines] == [
        str(refused),
        str(unreadable),
        str(tmp_path / "none"),
    ]
    assert "seq 1, type: unknown event type 'match_won'" in lines[0]

"""The anchor: a forger who rewrites an event and its chain, or a header column, is caught."""

import io
import json

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from matches.chain import event_hash, header_hash
from matches.immutability import EVENTS_TABLE, triggers_lifted
from matches.models import Event, Match
from matches.records import record_import
from matches.simulator import simulate_match
from tests.support.cast import new_match, open_game, play


@pytest.fixture
def two_imported(db):
    """Two imported matches."""
    for seed in (1, 2):
        record_import(simulate_match(seed))
    return ["sim-1", "sim-2"]


def anchor_file(tmp_path):
    out = io.StringIO()
    call_command("archive_anchor", stdout=out, stderr=io.StringIO())
    path = tmp_path / "anchor.json"
    path.write_text(out.getvalue(), encoding="utf-8")
    return path


def verify(*args):
    """Run verify_archive; return (its output, its errors, whether it failed)."""
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("verify_archive", *args, stdout=out, stderr=err)
    except CommandError:
        return out.getvalue(), err.getvalue(), True
    return out.getvalue(), err.getvalue(), False


def forge(match_id, seq, change):
    """Rewrite event `seq` of a match and compute every hash after it anew, as a forger would."""
    match = Match.objects.get(pk=match_id)
    previous = header_hash(match.header())
    rows = list(Event.objects.filter(match=match).order_by("seq"))
    with triggers_lifted(), connection.cursor() as cursor:
        for row in rows:
            data = row.data
            if row.seq == seq:
                data = change(dict(data))
            body = {"seq": row.seq, **{k: v for k, v in data.items()}, "at": row.at}
            body["by"] = row.recorded_by
            digest = event_hash(previous, body)
            cursor.execute(
                f"UPDATE {EVENTS_TABLE} SET data = %s, type = %s, hash = %s WHERE id = %s",
                [json.dumps(data), data["type"], digest, row.id],
            )
            previous = digest


def test_a_rewritten_event_with_its_chain_recomputed_passes_the_chain_but_not_the_anchor(
    two_imported, tmp_path
):
    anchor = anchor_file(tmp_path)
    forge("sim-1", 5, lambda event: {**event, "contacts": [{"ball": "white", "hit": "cushion"}]})

    _, _, chain_failed = verify()
    _, errors, anchor_failed = verify("--anchor", str(anchor))

    assert not chain_failed  # the forger recomputed the chain: alone, it proves nothing
    assert anchor_failed
    assert "sim-1: event seq" in errors and "another hash" in errors
    assert "sim-2" not in errors


def test_a_changed_competition_or_date_column_is_caught_by_the_anchor(two_imported, tmp_path):
    anchor = anchor_file(tmp_path)
    Match.objects.filter(pk="sim-2").update(stage="Final", date="2020-01-01")

    _, errors, failed = verify("--anchor", str(anchor))

    assert failed
    assert "sim-2: its header" in errors


def test_an_archive_that_grew_since_its_anchor_still_extends_it(db, tmp_path):
    match = new_match()
    seq = play(match.id, open_game(match.id))
    anchor = anchor_file(tmp_path)
    play(match.id, seq)
    new_match("cup-a-2")

    output, errors, failed = verify("--anchor", str(anchor))

    assert not failed, errors
    assert "1 anchored matches checked, 0 failing" in output


def test_an_altered_anchor_is_refused(two_imported, tmp_path):
    path = anchor_file(tmp_path)
    anchor = json.loads(path.read_text(encoding="utf-8"))
    anchor["matches"][0]["seq"] -= 1
    path.write_text(json.dumps(anchor), encoding="utf-8")

    with pytest.raises(CommandError, match="digest: does not match the anchor"):
        call_command("verify_archive", "--anchor", str(path), stdout=io.StringIO())


def test_a_deleted_match_is_reported_missing(two_imported, tmp_path):
    anchor = anchor_file(tmp_path)
    with triggers_lifted(), connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {EVENTS_TABLE} WHERE match_id = %s", ["sim-2"])
        cursor.execute("DELETE FROM matches_match WHERE id = %s", ["sim-2"])

    _, errors, failed = verify("--anchor", str(anchor))

    assert failed
    assert "sim-2: the match is missing from the archive" in errors


def test_an_event_appended_by_a_database_writer_passes_until_compared_with_an_earlier_anchor(
    db, tmp_path
):
    match = new_match()
    seq = play(match.id, open_game(match.id))
    anchor = anchor_file(tmp_path)
    forged = {"type": "match_forfeited", "player": "B", "reason": "left the hall"}
    at = "2026-11-30T12:00:00.000Z"
    previous = Event.objects.get(match=match, seq=seq).hash
    digest = event_hash(previous, {"seq": seq + 1, **forged, "at": at, "by": "petrenko"})
    with connection.cursor() as cursor:  # no trigger stops an INSERT: the log only grows
        cursor.execute(
            f"INSERT INTO {EVENTS_TABLE} (match_id, seq, type, data, recorded_at, at, "
            "recorded_by, command_digest, hash) VALUES (%s, %s, %s, %s, %s, %s, %s, '', %s)",
            [match.id, seq + 1, forged["type"], json.dumps(forged), "2026-11-30 12:00:00", at]
            + ["petrenko", digest],
        )

    _, _, chain_failed = verify()
    output, errors, anchor_failed = verify("--anchor", str(anchor))

    assert not chain_failed and not anchor_failed, errors  # the chain is whole: nothing to fail
    assert f"{match.id}: event seq {seq + 1} added since the anchor" in output.splitlines()

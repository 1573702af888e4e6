"""The anchor: a forger who rewrites an event and its chain, or a header column, is caught."""

import io
import json

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from matches import services, store
from matches.anchor import anchor_digest
from matches.domain.chain import event_hash, header_hash, log_event_hash, positions_of
from matches.domain.simulator import simulate_match
from matches.immutability import EVENTS_TABLE, triggers_lifted
from matches.models import Competition, Entry, Event, Match
from matches.records import record_import
from matches.services.competition_log import competition_seal
from tests.support.builders import new_match, open_game, play


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
    assert "1 anchored matches and 1 competition log checked, 0 failing" in output


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


# -- Competitions' logs ------------------------------------------------------------------


def forge_log(competition, seq, change):
    """Rewrite event `seq` of a competition's log and compute every hash after it anew."""
    rows = list(Event.objects.filter(competition=competition).order_by("seq"))
    matches = store.competition_match_events(competition.pk)
    positions = positions_of([row.pk for row in rows], matches, competition.id_offset)
    previous = competition_seal(competition)
    with triggers_lifted(), connection.cursor() as cursor:
        for row, position in zip(rows, positions, strict=True):
            data = change(dict(row.data)) if row.seq == seq else row.data
            body = {"seq": row.seq, **data, "at": row.at, "by": row.recorded_by}
            digest = log_event_hash(previous, body, row.hash_version, position)
            cursor.execute(
                f"UPDATE {EVENTS_TABLE} SET data = %s, hash = %s WHERE id = %s",
                [json.dumps(data), digest, row.id],
            )
            previous = digest


def test_a_log_event_rewritten_with_its_chain_recomputed_passes_the_chain_but_not_the_anchor(
    groups_drawn, tmp_path
):
    anchor = anchor_file(tmp_path)
    forge_log(groups_drawn, 3, lambda event: {**event, "seed": 8})

    _, _, chain_failed = verify()
    _, errors, anchor_failed = verify("--anchor", str(anchor))

    assert not chain_failed  # the forger recomputed the chain: alone, it proves nothing
    assert anchor_failed
    assert "competition euro: event seq 9 has another hash: an earlier event changed" in errors


def test_the_last_event_of_a_log_deleted_is_named_by_an_earlier_anchor(groups_drawn, tmp_path):
    anchor = anchor_file(tmp_path)
    last = Event.objects.get(competition=groups_drawn, seq=9)
    with triggers_lifted(), connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {EVENTS_TABLE} WHERE id = %s", [last.pk])

    _, _, chain_failed = verify()
    _, errors, anchor_failed = verify("--anchor", str(anchor))

    assert not chain_failed  # nothing after it to miss it
    assert anchor_failed
    assert errors.splitlines() == [
        "competition euro: event seq 9 is missing",
        "competition euro: the global ids of its events up to seq 9 changed",
    ]


def test_changed_stages_break_the_seal_in_place_and_against_the_anchor(groups_drawn, tmp_path):
    anchor = anchor_file(tmp_path)
    stages = groups_drawn.stages
    stages[0]["name"] = "Pools"
    Competition.objects.filter(pk="euro").update(stages=stages)

    _, plain, _ = verify()
    _, errors, failed = verify("--anchor", str(anchor))

    assert plain.startswith("competition euro seq 1: hash does not match the chain")
    assert failed and "competition euro: its seal (ruleset or stages) changed" in errors


def test_a_match_s_event_given_another_global_id_is_named_by_an_earlier_anchor(db, tmp_path):
    match = new_match()
    seq = play(match.id, open_game(match.id))
    anchor = anchor_file(tmp_path)
    first = Event.objects.get(match=match, seq=1)
    with triggers_lifted(), connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {EVENTS_TABLE} SET id = %s WHERE id = %s", [first.pk + 1000, first.pk]
        )

    _, _, chain_failed = verify()
    _, errors, anchor_failed = verify("--anchor", str(anchor))

    assert not chain_failed  # a match's chain is the notation's: it covers no global id
    assert anchor_failed
    assert errors.splitlines() == [
        f"{match.id}: the global ids of its events up to seq {seq} changed"
    ]


def test_an_anchor_of_version_1_is_still_read_and_pins_the_matches_alone(groups_drawn, tmp_path):
    match = new_match()
    play(match.id, open_game(match.id))
    path = anchor_file(tmp_path)
    anchor = json.loads(path.read_text(encoding="utf-8"))
    older = {"format": "carambole.anchor/1", "made_at": anchor["made_at"]}
    older["matches"] = [{k: v for k, v in m.items() if k != "ids"} for m in anchor["matches"]]
    older["digest"] = anchor_digest(older)
    path.write_text(json.dumps(older), encoding="utf-8")
    forge_log(groups_drawn, 3, lambda event: {**event, "seed": 8})

    output, errors, failed = verify("--anchor", str(path))

    assert not failed, errors
    assert f"{len(older['matches'])} anchored matches checked, 0 failing" in output.splitlines()


def test_a_log_that_grew_since_its_anchor_and_a_new_competition_are_listed(groups_drawn, tmp_path):
    anchor = anchor_file(tmp_path)
    services.player_withdraw(
        competition_id="euro",
        player_key_=Entry.objects.get(competition=groups_drawn, seed=8).player_id,
        reason="left",
        by="director",
    )
    new_match("cup-a-9")

    output, errors, failed = verify("--anchor", str(anchor))

    assert not failed, errors
    lines = output.splitlines()
    assert "competition euro: event seq 10 added since the anchor" in lines
    assert "1 competition(s) added since the anchor" in lines

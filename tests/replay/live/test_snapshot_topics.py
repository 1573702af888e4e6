"""The hall's and the standings' sockets share the board's path: one read per change per
process however many watch, a reconnect with `?version=`, and what a client sends answered
from the last read, within its allowance."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async

from matches import services
from replay.live import resumes
from replay.live.hall import HallSnapshots
from replay.live.standings import StandingsSnapshots
from replay.projections import projector
from tests.support.builders import QUIET, open_game
from tests.support.league import league, shot, win
from tests.support.sockets import closed_with, connect, message, watching

pytestmark = pytest.mark.usefixtures("projector_forgotten", "event_db")


def counted_reads(monkeypatch: pytest.MonkeyPatch, source: type) -> list[str]:
    """Count the reads of a topic's source, each by its competition."""
    reads: list[str] = []
    read = source.read

    def counting(self: Any) -> Any:
        reads.append(self.competition_id)
        return read(self)

    monkeypatch.setattr(source, "read", counting)
    return reads


def a_league_played() -> list[str]:
    matches = league()
    win(matches[0], "B")
    projector.catch_up()
    return matches


def a_hall() -> str:
    matches = league()
    services.tables_set(competition_id="cup", names=["1"], by="federation")
    services.match_assign_table(match_id=matches[0], table="1", by="federation")
    open_game(matches[0])
    return matches[0]


def test_three_viewers_of_the_standings_in_one_process_share_one_read_per_version(monkeypatch):
    matches = a_league_played()
    reads = counted_reads(monkeypatch, StandingsSnapshots)

    async def scenario() -> None:
        viewers = [await connect("/ws/competitions/cup/") for _ in range(3)]
        firsts = [await message(viewer) for viewer in viewers]
        assert len({first["version"] for first in firsts}) == 1
        assert reads == ["cup"]  # the first viewer's; the others were sent the same

        await database_sync_to_async(win)(matches[1], "A")
        await database_sync_to_async(projector.catch_up)()
        pushed = [await message(viewer) for viewer in viewers]

        assert {message["version"] for message in pushed} == {pushed[0]["version"]}
        assert pushed[0]["version"] > firsts[0]["version"]
        # One read per version told (the projector commits one per catch-up), not per viewer.
        assert len(reads) <= 1 + 3
        for viewer in viewers:
            await viewer.disconnect()

    watching(scenario)


def test_a_viewer_that_reconnects_with_the_version_it_has_is_sent_nothing_until_a_newer_one():
    matches = a_league_played()

    async def scenario() -> None:
        first = await connect("/ws/competitions/cup/")
        had = (await message(first))["version"]
        await first.disconnect()

        again = await connect(f"/ws/competitions/cup/?version={had}")
        assert await again.receive_nothing(timeout=0.3)
        older = await connect(f"/ws/competitions/cup/?version={had - 1}")
        assert (await message(older))["version"] == had

        await database_sync_to_async(win)(matches[1], "A")
        await database_sync_to_async(projector.catch_up)()
        newer = await message(again)
        assert newer["type"] == "standings" and newer["version"] > had
        await again.disconnect()
        await older.disconnect()

    watching(scenario)


@pytest.mark.parametrize("query", ["version=", "version=-1", "version=1&version=2", "version=x"])
def test_a_bad_version_is_closed_with_4400(query):
    a_league_played()

    async def scenario() -> None:
        viewer = await connect(f"/ws/competitions/cup/?{query}")
        assert await closed_with(viewer) == 4400
        await viewer.disconnect()

    watching(scenario)


@pytest.mark.parametrize("path", ["/ws/competitions/cup/", "/ws/competitions/cup/hall/"])
def test_what_a_client_sends_is_answered_with_the_whole_snapshot_without_a_read(monkeypatch, path):
    a_hall()
    projector.catch_up()
    hall_reads = counted_reads(monkeypatch, HallSnapshots)
    standings_reads = counted_reads(monkeypatch, StandingsSnapshots)

    async def scenario() -> None:
        viewer = await connect(path)
        first = await message(viewer)
        before = len(hall_reads) + len(standings_reads)

        await viewer.send_to(text_data="anything at all")
        again = await message(viewer)

        assert again == first
        assert len(hall_reads) + len(standings_reads) == before
        await viewer.disconnect()

    watching(scenario)


@pytest.mark.parametrize("path", ["/ws/competitions/cup/", "/ws/competitions/cup/hall/"])
def test_a_snapshot_client_that_sends_past_its_allowance_is_closed_with_4429(monkeypatch, path):
    monkeypatch.setattr(resumes, "EVERY_SECONDS", 3600.0)  # no refill within the test
    a_hall()

    async def scenario() -> None:
        viewer = await connect(path)
        await message(viewer)
        for _ in range(resumes.BURST):
            await viewer.send_to(text_data="{}")
            await message(viewer)  # answered, each
        await viewer.send_to(text_data="{}")
        assert await closed_with(viewer) == resumes.TOO_MANY_MESSAGES

    watching(scenario)


def test_the_halls_version_grows_with_its_matches_events_and_never_goes_back():
    match_id = a_hall()

    async def scenario() -> None:
        viewer = await connect("/ws/competitions/cup/hall/")
        versions = [(await message(viewer))["version"]]
        seq = await database_sync_to_async(shot)(match_id, 3, QUIET)
        await database_sync_to_async(shot)(match_id, seq, QUIET)
        while len(versions) < 3:
            versions.append((await message(viewer))["version"])
        assert versions == sorted(versions) and versions[-1] > versions[0] > 0
        await viewer.disconnect()

    watching(scenario)

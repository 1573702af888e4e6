"""`/ws/competitions/{id}/`: the standings on connect, then each new version as it commits."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from replay.projections import projector
from tests.support.league import flip, league, win
from tests.support.sockets import WAIT_S, connect, message, watching

pytestmark = pytest.mark.usefixtures("projector_forgotten", "event_db")


def played_and_caught_up(step, *args):
    """Record with a service, then catch the read models up (as the worker would)."""
    result = step(*args)
    projector.catch_up()
    return result


def test_a_viewer_gets_the_standings_on_connect_and_the_flip_as_a_new_version():
    watching(viewer_sees_the_flip)


async def viewer_sees_the_flip() -> None:
    cup = await database_sync_to_async(league)()
    seq = await database_sync_to_async(played_and_caught_up)(win, cup[0], "B")
    viewer = await connect("/ws/competitions/cup/")
    try:
        first = await message(viewer)
        assert first["type"] == "standings" and first["version"] > 0
        assert first["standings"]["version"] == first["version"]
        assert first["standings"]["rows"][0]["match_points"] == 2

        await database_sync_to_async(played_and_caught_up)(flip, cup[0], seq)

        pushed = await message(viewer)
        assert pushed["version"] > first["version"]
        leader = pushed["standings"]["rows"][0]
        assert leader["player"] != first["standings"]["rows"][0]["player"]
        assert leader["change"] == 1
    finally:
        await viewer.disconnect()


def test_a_viewer_that_reconnects_gets_the_latest_version_at_once():
    watching(viewer_reconnects)


async def viewer_reconnects() -> None:
    cup = await database_sync_to_async(league)()
    seq = await database_sync_to_async(played_and_caught_up)(win, cup[0], "B")
    await database_sync_to_async(played_and_caught_up)(flip, cup[0], seq)

    viewer = await connect("/ws/competitions/cup/")
    try:
        latest = await message(viewer)
        assert latest["version"] == (await database_sync_to_async(latest_version)())
        assert await viewer.receive_nothing(timeout=0.3)
    finally:
        await viewer.disconnect()


def latest_version() -> int:
    from replay.queries.standings_reader import standings_get

    return standings_get("cup")["version"]


def test_an_unknown_competition_closes_the_socket_with_4404():
    watching(unknown_competition)


async def unknown_competition() -> None:
    viewer = await connect("/ws/competitions/nope/")
    try:
        closed = await viewer.receive_output(timeout=WAIT_S)
        assert closed == {"type": "websocket.close", "code": 4404}
    finally:
        # Gone, as a browser goes once closed: the consumer stops its receive from the
        # channel layer itself. Left to the end of the event loop, which cancels every task
        # at once, channels_redis's receive could wait forever (twice in whole-suite runs).
        await viewer.disconnect()


def test_a_competition_in_stages_sends_its_stages_and_ranking_and_each_new_version():
    watching(viewer_follows_the_stages)


def drawn_championship() -> None:
    from matches import services
    from tests.support.championships import championship

    championship()
    services.stage_draw(competition_id="euro", stage_id="groups", by="director")
    projector.catch_up()


async def stages_message(viewer: WebsocketCommunicator) -> dict[str, Any]:
    while True:  # the standings come too, in their own message
        got = await message(viewer)
        if got["type"] == "stages":
            return got


async def viewer_follows_the_stages() -> None:
    await database_sync_to_async(drawn_championship)()
    viewer = await connect("/ws/competitions/euro/")
    try:
        first = await stages_message(viewer)
        assert [stage["id"] for stage in first["stages"]] == ["groups", "ko"]
        assert first["ranking"]["version"] == first["version"]
        assert first["error"] is None  # the fold is whole
        group = first["stages"][0]["groups"][0]
        assert [row["played"] for row in group["standings"]] == [0, 0, 0, 0]

        await database_sync_to_async(played_and_caught_up)(win, "euro-groups-A1", "A")

        # Each version as it commits, newer each time, until the one that counts the win.
        versions = [first["version"]]
        played = 0
        while played < 2:
            pushed = await stages_message(viewer)
            versions.append(pushed["version"])
            group = pushed["stages"][0]["groups"][0]
            played = sum(row["played"] for row in group["standings"])
        assert versions == sorted(set(versions))
    finally:
        await viewer.disconnect()

"""`/ws/competitions/{id}/hall/`: the hall on connect, then only the table that changed;
a console's heartbeat counts from a login that may record the match."""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from carambole.asgi import application
from matches import services
from replay.live.hall import HallSnapshots
from replay.models import ConsoleActivity
from tests.support.browser import make_user
from tests.support.builders import BY, new_match, open_game, play
from tests.support.sockets import WAIT_S, connect, message, watching

pytestmark = pytest.mark.usefixtures("projector_forgotten", "event_db")


def three_tables() -> None:
    for index in (1, 2, 3):
        new_match(f"cup-a-{index}")
    services.tables_set(competition_id="cup", names=["1", "2", "3"], by="federation")
    for index in (1, 2, 3):
        services.match_assign_table(match_id=f"cup-a-{index}", table=str(index), by="federation")
        open_game(f"cup-a-{index}")


def test_an_event_on_one_table_sends_that_table_alone():
    watching(one_table_moves)


async def one_table_moves() -> None:
    await database_sync_to_async(three_tables)()
    viewer = await connect("/ws/competitions/cup/hall/")
    try:
        first = await message(viewer)
        assert first["type"] == "hall"
        assert [card["table"] for card in first["tables"]] == ["1", "2", "3"]
        assert all(card["match"]["seq"] == 3 for card in first["tables"])

        await database_sync_to_async(play)("cup-a-2", 3)

        pushed = await message(viewer)
        assert pushed["type"] == "table" and pushed["card"]["table"] == "2"
        assert pushed["card"]["match"]["seq"] == 4 and pushed["card"]["match"]["due"] == "B"
        assert pushed["card"]["version"] != first["tables"][1]["version"]
        assert await viewer.receive_nothing(timeout=0.5)
    finally:
        await viewer.disconnect()


def test_an_unknown_competition_closes_with_4404():
    watching(unknown)


async def unknown() -> None:
    viewer = WebsocketCommunicator(application, "/ws/competitions/nope/hall/")
    try:
        await viewer.connect(timeout=WAIT_S)
        closed = await viewer.receive_output(timeout=WAIT_S)
        assert closed == {"type": "websocket.close", "code": 4404}
    finally:
        await viewer.disconnect()  # as a client does: a socket left open outlives its loop


def session_of(username: str, staff: bool = False) -> str:
    user = make_user(username, "password", staff=staff)
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


def test_a_heartbeat_from_the_referee_counts_and_from_a_viewer_not():
    watching(heartbeats)


async def heartbeats() -> None:
    await database_sync_to_async(three_tables)()
    referee = await database_sync_to_async(session_of)(BY)
    stranger = await database_sync_to_async(session_of)("stranger")
    await database_sync_to_async(services.referee_assign)(
        match_id="cup-a-1", username=BY, by="federation"
    )
    hall = await connect("/ws/competitions/cup/hall/")
    await message(hall)
    for cookie in ("", stranger):
        viewer = await connect("/ws/matches/cup-a-1/?after=3", cookie)
        await viewer.send_to(text_data=json.dumps({"type": "heartbeat"}))
        # The socket reads its messages in turn: closed, it has read the heartbeat.
        await viewer.disconnect(timeout=WAIT_S)
    count = database_sync_to_async(ConsoleActivity.objects.count)
    assert await count() == 0

    console = await connect("/ws/matches/cup-a-1/?after=3", referee)
    try:
        await console.send_to(text_data=json.dumps({"type": "heartbeat"}))
        pushed = await message(hall)
        assert pushed["type"] == "table" and pushed["card"]["table"] == "1"
        assert await count() == 1
        # A heartbeat is never answered as an error, and a second one at once is not kept.
        await console.send_to(text_data=json.dumps({"type": "heartbeat"}))
        assert await console.receive_nothing(timeout=0.5)
    finally:
        await console.disconnect()
        await hall.disconnect()


def test_a_hall_read_again_with_nothing_changed_has_no_change_to_send():
    new_match("cup-a-1")
    services.tables_set(competition_id="cup", names=["1"], by="federation")
    services.match_assign_table(match_id="cup-a-1", table="1", by="federation")
    open_game("cup-a-1")
    hall = HallSnapshots("cup")

    first = hall.read()
    again = hall.read()

    assert [json.loads(text)["type"] for text in first.changed] == ["hall"]
    assert again.changed == ()
    whole = json.loads(again.parts[0].text)
    assert whole["version"] == first_version(first) > 0
    assert [card["table"] for card in whole["tables"]] == ["1"] and whole["waiting"] == []


def first_version(snapshot: Any) -> int:
    return int(json.loads(snapshot.parts[0].text)["version"])

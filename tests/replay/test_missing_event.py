"""A match whose middle event was deleted is unreadable on every page, never a 500.

As with a corrupt row: the match's own pages say so naming the missing seq, the API
refuses it (422), the socket closes with 4400 after an error naming it, and the lists
show the other matches and mark that one unreadable.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from websockets.sync.client import connect as websocket

from carambole.asgi import application
from carambole.caches import clear_every_cache
from matches.domain.errors import Refused
from matches.immutability import EVENTS_TABLE, triggers_lifted
from replay.live.hub import stop_hubs_here
from replay.live.stream import Stream
from replay.projections import projector
from tests.support.builders import QUIET, seven_events_and_another
from tests.support.servers import server

MATCH_ID = "cup-a-1"
MISSING = 4  # the first shot: a shot's seq is what the replay looks its time up by
NAMED = f"seq {MISSING}: the stored event is missing"
WAIT_S = 30.0

# The match's own pages: each says the match cannot be shown and names the missing seq.
OWN_PAGES = {
    f"/matches/{MATCH_ID}/": 200,
    f"/matches/{MATCH_ID}/overlay/": 200,
    f"/matches/{MATCH_ID}/replay/": 200,
    f"/matches/{MATCH_ID}/replay/?view=live&seq=5": 200,
    f"/referee/matches/{MATCH_ID}/": 200,
    f"/matches/{MATCH_ID}/record.json": 422,
    "/competitions/cup/records.zip": 422,
    f"/api/matches/{MATCH_ID}": 422,
    f"/api/matches/{MATCH_ID}/state": 422,
    f"/api/matches/{MATCH_ID}/state?upto=2": 422,
    f"/api/matches/{MATCH_ID}/events": 422,
    f"/api/matches/{MATCH_ID}/export": 422,
}
# The pages that list matches: the match is there, marked unreadable, the others shown.
LISTS = [
    "/",
    "/live.json",
    "/archive/",
    "/archive/export.csv",
    "/competitions/cup/",
    "/players/UA-101/",
    "/players/UA-101/?versus=IT-202",
    "/api/matches/",
]
# What reads the competition as a whole: it answers, counting what can be read.
WHOLE = [
    "/competitions/cup/standings.csv",
    "/competitions/cup/history/",
    "/api/competitions/cup/standings",
]


def a_match_with_its_first_shot_deleted() -> None:
    """Seven events of one match (its first shot deleted by a database writer), and another."""
    seven_events_and_another(MATCH_ID)
    with triggers_lifted(), connection.cursor() as cursor:
        cursor.execute(
            f"DELETE FROM {EVENTS_TABLE} WHERE match_id = %s AND seq = %s", [MATCH_ID, MISSING]
        )
    clear_every_cache()


@pytest.fixture
def staff_client(db):
    client = Client(raise_request_exception=False)
    client.force_login(get_user_model().objects.create_user("federation", is_staff=True))
    return client


def test_every_page_and_api_read_of_the_match_names_the_missing_event(staff_client):
    a_match_with_its_first_shot_deleted()

    for path, status in OWN_PAGES.items():
        response = staff_client.get(path)
        body = response.content.decode("utf-8", errors="replace")
        assert (path, response.status_code) == (path, status)
        assert NAMED in body or json.loads(body)["seq"] == MISSING, path
    judged = staff_client.post(
        f"/api/matches/{MATCH_ID}/judge", QUIET, content_type="application/json"
    )
    recorded = staff_client.post(
        f"/api/matches/{MATCH_ID}/events",
        {"expected_seq": 7, "event": {"type": "shot", **QUIET}},
        content_type="application/json",
    )
    assert [(r.status_code, r.json()["seq"]) for r in (judged, recorded)] == [(422, MISSING)] * 2


def test_the_lists_mark_the_match_unreadable_once_the_projector_meets_the_gap(staff_client):
    a_match_with_its_first_shot_deleted()
    for path in LISTS + WHOLE:
        assert staff_client.get(path).status_code == 200, path  # before the projector runs again

    projector.rebuild()

    for path in LISTS:
        body = staff_client.get(path).content.decode("utf-8")
        assert "unreadable" in body and "cup-a-2" in body, path
    for path in WHOLE:
        assert staff_client.get(path).status_code == 200, path


@pytest.mark.usefixtures("event_db")
@pytest.mark.parametrize("after", [0, MISSING - 2], ids=["from the start", "from before the gap"])
def test_the_matchs_socket_says_which_event_is_missing_and_closes_with_4400(after):
    a_match_with_its_first_shot_deleted()

    async def scenario() -> list[dict]:
        viewer = WebsocketCommunicator(application, f"/ws/matches/{MATCH_ID}/?after={after}")
        try:
            connected, _ = await viewer.connect(timeout=WAIT_S)
            assert connected
            outputs = []
            while not outputs or outputs[-1]["type"] != "websocket.close":
                outputs.append(await viewer.receive_output(timeout=WAIT_S))
            return outputs
        finally:
            await viewer.disconnect()
            await stop_hubs_here()

    *sent, closed = async_to_sync(scenario)()

    assert [json.loads(output["text"]) for output in sent] == [
        {"type": "error", "error": "the stored event is missing", "field": None, "seq": MISSING}
    ]
    assert closed["code"] == 4400


def test_a_stream_opened_before_the_gap_refuses_to_read_past_it(db):
    a_match_with_its_first_shot_deleted()
    stream = Stream.open(MATCH_ID, MISSING - 2)  # a viewer resuming from before the gap

    with pytest.raises(Refused) as refused:
        stream.read(100)

    assert (refused.value.seq, refused.value.message) == (MISSING, "the stored event is missing")


@pytest.mark.slow
@pytest.mark.usefixtures("event_db")
def test_a_served_carambole_shows_the_replay_of_the_match_as_unreadable_not_a_500():
    a_match_with_its_first_shot_deleted()

    with server(None) as port:
        base = f"http://127.0.0.1:{port}"
        try:
            with urllib.request.urlopen(
                f"{base}/matches/{MATCH_ID}/replay/", timeout=WAIT_S
            ) as page:
                status, body = page.status, page.read().decode("utf-8")
        except urllib.error.HTTPError as error:  # the 500 it answered before
            status, body = error.code, error.read().decode("utf-8", errors="replace")
        with websocket(f"ws://127.0.0.1:{port}/ws/matches/{MATCH_ID}/", proxy=None) as socket_:
            said = json.loads(socket_.recv(timeout=WAIT_S))
            deadline = time.monotonic() + WAIT_S
            while socket_.close_code is None and time.monotonic() < deadline:
                try:
                    socket_.recv(timeout=max(deadline - time.monotonic(), 0.01))
                except Exception:
                    break

    assert status == 200
    assert NAMED in body and "cannot be replayed" in body
    assert (said["type"], said["seq"]) == ("error", MISSING)
    assert socket_.close_code == 4400

"""Real servers: uvicorn processes sharing a database and Redis, watched by real websockets.

Slow (seconds each); CI runs them with its Redis, and a missing Redis fails there.
"""

from __future__ import annotations

import json
import os
import socket
import time
from contextlib import closing
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as websocket

from bench.churn import FIRST, churn
from matches import services
from replay.api.tokens import token_issue
from replay.live.resumes import BURST, TOO_MANY_MESSAGES
from tests.support.builders import QUIET, new_match, open_game, play
from tests.support.servers import free_port, own_redis, post_event, server, serving

WAIT_S = 30.0  # the longest a test waits for one message that must come
DROP_S = 60.0  # the longest a test waits for a server to drop a client that answers no ping
# Servers that read the store for what they were not told only this rarely: a message that
# arrives within WAIT_S came through the channel layer.
RARE_HEAD_S = 600
pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("event_db")]
# Sockets opened and closed while a server's memory is read: 8,000 in CI, 2,000 in `make
# test` (about 10 s); `make bench` opens and closes 20,000 (bench/churn.py).
CHURN_CYCLES = 8_000 if os.getenv("CI") == "true" else 2_000


# -- Clients ----------------------------------------------------------------------------


def viewer(port: int, match_id: str, after: int) -> ClientConnection:
    return websocket(f"ws://127.0.0.1:{port}/ws/matches/{match_id}/?after={after}", proxy=None)


def next_event(socket_: ClientConnection, timeout: float = WAIT_S) -> dict[str, Any]:
    """Return the next event message (skipping heads), failing after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        sent = json.loads(socket_.recv(timeout=max(deadline - time.monotonic(), 0.01)))
        if sent["type"] == "event":
            return sent


def drained(socket_: ClientConnection, quiet: float = WAIT_S) -> tuple[int, int | None]:
    """Return how many events a socket receives until the server closes it, and the code.

    A server that never closes it is given until `quiet` seconds pass with no message.
    """
    events = 0
    try:
        while True:
            events += json.loads(socket_.recv(timeout=quiet))["type"] == "event"
    except ConnectionClosed as closed:
        return events, closed.rcvd.code if closed.rcvd is not None else None
    except TimeoutError:
        return events, None


def dropped(raw: socket.socket, timeout: float = DROP_S) -> bool:
    """Return whether the server ends a raw connection within `timeout` s (read what it sent)."""
    deadline = time.monotonic() + timeout
    try:
        while (left := deadline - time.monotonic()) > 0:
            raw.settimeout(left)
            if not raw.recv(65536):
                return True
    except ConnectionResetError:
        return True  # aborted
    except TimeoutError:
        pass
    return False


def staff_token() -> str:
    return token_issue("federation", staff=True).key


def record_through_api(port: int, key: str, match_id: str, expected_seq: int) -> tuple[int, float]:
    """Record a shot through `POST /api/matches/{id}/events`; return the status and seconds."""
    body = {"expected_seq": expected_seq, "event": {"type": "shot", **QUIET}}
    posted = post_event(f"http://127.0.0.1:{port}/api/matches/{match_id}/events", key, body)
    return posted.status, posted.seconds


def a_match() -> tuple[str, int]:
    match = new_match("cup-live-1")
    return match.id, play(match.id, open_game(match.id))


# -- Tests ------------------------------------------------------------------------------


@pytest.mark.journey  # two servers and Redis
def test_a_viewer_of_one_server_gets_a_shot_recorded_through_another(redis_url):
    match_id, head = a_match()
    key = staff_token()
    # Two processes, as production runs several: they share the database and the layer.
    with (
        server(redis_url, head_seconds=RARE_HEAD_S) as one,
        server(redis_url, head_seconds=RARE_HEAD_S) as other,
    ):
        with viewer(one, match_id, after=0) as watching:
            assert [next_event(watching)["seq"] for _ in range(head)] == list(range(1, head + 1))
            status, _ = record_through_api(other, key, match_id, head)
            assert status == 201
            pushed = next_event(watching)
    assert pushed["seq"] == head + 1
    assert pushed["event"]["type"] == "shot" and pushed["event"]["by"] == "federation"


@pytest.mark.journey  # two servers and Redis
def test_a_hall_viewer_of_one_server_gets_the_card_of_a_shot_recorded_through_another(
    redis_url,
):
    match_id, head = a_match()
    services.tables_set(competition_id="cup", names=["1"], by="federation")
    services.match_assign_table(match_id=match_id, table="1", by="federation")
    key = staff_token()
    with (
        server(redis_url, head_seconds=RARE_HEAD_S) as one,
        server(redis_url, head_seconds=RARE_HEAD_S) as other,
    ):
        address = f"ws://127.0.0.1:{one}/ws/competitions/cup/hall/"
        with websocket(address, proxy=None) as hall:
            first = json.loads(hall.recv(timeout=WAIT_S))
            assert first["type"] == "hall" and first["tables"][0]["match"]["seq"] == head
            status, _ = record_through_api(other, key, match_id, head)
            assert status == 201
            pushed = json.loads(hall.recv(timeout=WAIT_S))
    assert pushed["type"] == "table" and pushed["card"]["match"]["seq"] == head + 1
    assert pushed["version"] > first["version"]


@pytest.mark.journey  # Redis stopped and started again
def test_with_redis_stopped_recording_answers_at_once_and_viewers_catch_up_when_it_is_back():
    match_id, head = a_match()
    key = staff_token()
    port = free_port()
    url = f"redis://127.0.0.1:{port}/0"
    with own_redis(port) as redis:
        with server(url, head_seconds=2) as one, server(url, head_seconds=2) as other:
            with viewer(one, match_id, after=head) as watching:
                redis.terminate()
                redis.wait(timeout=10)
                # Answered, not left waiting on Redis (the request gives up after its timeout).
                status, _ = record_through_api(other, key, match_id, head)
                assert status == 201
                with own_redis(port):
                    assert next_event(watching)["seq"] == head + 1
                    status, _ = record_through_api(other, key, match_id, head + 1)
                    assert status == 201
                    assert next_event(watching)["seq"] == head + 2


@pytest.mark.journey  # a viewer left unread until the server's ping closes it
def test_a_viewer_that_does_not_read_is_closed_by_the_servers_ping_and_others_go_on():
    match_id, head = a_match()
    key = staff_token()
    ping = ("--ws-ping-interval", "1", "--ws-ping-timeout", "2")
    with server(None, 15, *ping) as port:
        with closing(socket.create_connection(("127.0.0.1", port))) as deaf:
            # A client that completes the handshake, then never reads (nor answers a ping).
            deaf.sendall(
                f"GET /ws/matches/{match_id}/?after={head} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n".encode()
            )
            assert deaf.recv(1024).startswith(b"HTTP/1.1 101")
            with viewer(port, match_id, after=head) as watching:
                seq, started = head, time.monotonic()
                while time.monotonic() - started < 6:
                    status, _ = record_through_api(port, key, match_id, seq)
                    seq += 1
                    assert status == 201
                    assert next_event(watching)["seq"] == seq
                    time.sleep(0.3)
            assert dropped(deaf), "the server still holds a client that answers no ping"


def test_a_socket_flooding_resume_is_sent_a_bounded_number_of_events_and_closed_with_4429():
    match_id = new_match("cup-live-1").id
    head = open_game(match_id)
    for _ in range(27):
        head = play(match_id, head)
    key = staff_token()
    with server(None, head_seconds=RARE_HEAD_S) as port:
        with viewer(port, match_id, after=head) as flooding:
            for _ in range(300):
                try:
                    flooding.send(json.dumps({"type": "resume", "after": 0}))
                except ConnectionClosed:
                    break
            events, code = drained(flooding)
        # At most BURST resumes are taken (one more, had the server taken seconds), each
        # sending the log at most once; merged while one is served, most send nothing.
        assert code == TOO_MANY_MESSAGES
        assert events <= (BURST + 1) * head, events
        with viewer(port, match_id, after=head) as honest:
            honest.send(json.dumps({"type": "resume", "after": head - 2}))
            assert [next_event(honest)["seq"] for _ in range(2)] == [head - 1, head]
            status, _ = record_through_api(port, key, match_id, head)
            assert status == 201
            assert next_event(honest)["seq"] == head + 1


def test_an_unknown_path_is_refused_and_an_id_with_a_nul_closes_with_4404_logging_no_error():
    match_id, _ = a_match()
    with serving(None) as served:
        address = f"ws://127.0.0.1:{served.port}"
        for path in ("/ws/nope/", "/", "/ws/matches/", f"/ws/matches/{match_id}/extra/"):
            with pytest.raises(InvalidStatus) as refused:
                websocket(address + path, proxy=None).close()
            assert refused.value.response.status_code == 403, path
        for match in (f"{match_id}%00", "%00", "cup%00live-1"):
            with websocket(f"{address}/ws/matches/{match}/?after=0", proxy=None) as nul:
                assert drained(nul) == (0, 4404), match
        with viewer(served.port, match_id, after=0) as known:
            assert next_event(known)["seq"] == 1
        log = served.log()
    assert "Traceback" not in log, log[-3000:]


@pytest.mark.journey  # thousands of sockets opened and closed
def test_a_servers_memory_stays_flat_while_boards_halls_and_standings_sockets_come_and_go(
    redis_url,
):
    match_id, head = a_match()
    with serving(redis_url, head_seconds=RARE_HEAD_S) as served:
        assert served.process is not None
        paths = [f"/ws/matches/{match_id}/?after={head - 1}"]
        paths += ["/ws/competitions/cup/hall/", "/ws/competitions/cup/"]
        figures = churn(served.port, served.process.pid, paths, CHURN_CYCLES)
    # Within 20% of where it was after the first thousand, however many came and went.
    assert figures["cycles"] == CHURN_CYCLES and len(figures["rss_mb"]) == CHURN_CYCLES // FIRST
    assert figures["last_mb"] <= 1.2 * figures["first_mb"], figures["rss_mb"]

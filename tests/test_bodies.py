"""Bodies are bounded before they are read: `BoundedBodies`, then uvicorn serving it.

The served tests speak HTTP/1.1 on a raw socket where they must send less than they
declare: a 413 that arrives while most of a body was never sent proves that the server
did not wait for it (nor write it anywhere). Those are slow: each starts a server.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import re
import socket
import time
from collections.abc import Iterator
from typing import Any, NamedTuple

import pytest

from carambole.bodies import BoundedBodies
from matches.models import Event
from replay.api.tokens import token_issue
from tests.support.builders import QUIET, new_match, open_game
from tests.support.servers import Uvicorn, serving

WAIT_S = 30.0  # the longest a test waits for an answer that must come
API_LIMIT = 64 * 1024
HUGE = 512 * 1024 * 1024


class Answer(NamedTuple):
    status: int
    headers: dict[str, list[str]]
    body: bytes
    ended: bool = False  # the server closed the connection after its answer

    def header(self, name: str) -> str:
        return ", ".join(self.headers.get(name.lower(), []))


# -- The wrapper, in-process ---------------------------------------------------------------


def run_wrapped(path: str, headers: list[tuple[bytes, bytes]], messages: list[dict]) -> Any:
    """Call BoundedBodies around an application that reads the body; return what happened."""
    seen: dict[str, Any] = {"received": 0, "sent": [], "app": None}
    given = iter(messages)

    async def receive() -> dict:
        seen["received"] += 1
        return next(given)

    async def send(message: dict) -> None:
        seen["sent"].append(message)

    async def app(scope: dict, receive: Any, send: Any) -> None:
        first = await receive()
        seen["app"] = (dict(scope["headers"]), first["body"], first["more_body"])

    scope = {"type": "http", "path": path, "headers": headers}
    asyncio.run(BoundedBodies(app)(scope, receive, send))
    return seen


def test_a_declared_length_past_the_limit_is_refused_without_reading_a_byte():
    seen = run_wrapped("/api/matches/m/events", [(b"content-length", b"536870912")], [])

    start, body = seen["sent"]
    assert (start["status"], seen["received"], seen["app"]) == (413, 0, None)
    assert (b"connection", b"close") in start["headers"]
    assert body["body"] == b'{"error":"the body is larger than 65536 bytes","field":null}'


def test_a_chunked_body_within_the_limit_is_handed_on_whole_with_its_length():
    pieces = [b'{"a":', b" 1", b"}"]
    messages = [{"type": "http.request", "body": p, "more_body": True} for p in pieces]
    messages.append({"type": "http.request", "body": b"", "more_body": False})

    seen = run_wrapped("/api/x", [(b"transfer-encoding", b"chunked")], messages)

    headers, body, more = seen["app"]
    assert (body, more) == (b'{"a": 1}', False)
    assert headers == {b"content-length": b"8"}


def test_a_chunked_body_is_refused_once_it_passes_the_limit_and_read_no_further():
    kib = {"type": "http.request", "body": b" " * 1024, "more_body": True}

    seen = run_wrapped("/api/x", [], [kib] * 100)

    assert (seen["sent"][0]["status"], seen["received"], seen["app"]) == (413, 65, None)


def test_a_page_form_has_djangos_limit_for_form_fields(settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    end = {"type": "http.request", "body": b"", "more_body": False}

    refused = run_wrapped("/login/", [(b"content-length", b"1001")], [])
    read = run_wrapped("/login/", [(b"content-length", b"1000")], [end])

    assert refused["sent"][0]["status"] == 413
    assert read["app"] is not None


# -- Served -----------------------------------------------------------------------------


@pytest.fixture
def bodies_server() -> Iterator[Uvicorn]:
    with serving(None) as server:
        yield server


def exchange(port: int, head: str, sent: bytes) -> Answer:
    """Send a request's head and this much of its body, then read the answer to its end."""
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT_S) as raw:
        # One write: the head and what is sent of the body reach the server together.
        raw.sendall(head.replace("\n", "\r\n").encode() + b"\r\n" + sent)
        received = b""
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            chunk = raw.recv(65536)
            if not chunk:
                break
            received += chunk
            if complete(received):
                break
        answer = parse(received)
        if answer.header("connection") == "close":
            answer = answer._replace(ended=closed_by_server(raw))
    return answer


def closed_by_server(raw: socket.socket) -> bool:
    """Return whether the server ends this connection within WAIT_S (sending nothing more)."""
    try:
        return raw.recv(1) == b""
    except ConnectionResetError:
        return True  # closed with what the client sent still unread: a reset
    except TimeoutError:
        return False


def complete(received: bytes) -> bool:
    head, found, body = received.partition(b"\r\n\r\n")
    length = re.search(rb"(?im)^content-length: *(\d+)", head)
    return bool(found and length and len(body) >= int(length.group(1)))


def parse(received: bytes) -> Answer:
    head, _, body = received.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers: dict[str, list[str]] = {}
    for line in lines:
        name, _, value = line.partition(":")
        headers.setdefault(name.strip().lower(), []).append(value.strip())
    return Answer(int(status_line.split()[1]), headers, body)


def chunked(*pieces: bytes) -> bytes:
    return b"".join(b"%x\r\n%s\r\n" % (len(piece), piece) for piece in pieces)


def a_match_and_a_staff_token() -> tuple[str, int, str]:
    match = new_match("cup-bodies-1")
    return match.id, open_game(match.id), token_issue("federation", staff=True).key


@pytest.mark.slow
@pytest.mark.usefixtures("event_db")
def test_an_api_body_past_the_limit_is_refused_as_it_arrives_and_one_within_is_read_chunked(
    bodies_server,
):
    match_id, seq, key = a_match_and_a_staff_token()
    head = (
        f"POST /api/matches/{match_id}/events HTTP/1.1\nHost: 127.0.0.1\n"
        f"Authorization: Token {key}\nContent-Type: application/json\n"
    )
    body = json.dumps({"expected_seq": seq, "event": {"type": "shot", **QUIET}}).encode()

    # 1 KiB of the 512 MB declared: the rest is never sent.
    declared = exchange(bodies_server.port, f"{head}Content-Length: {HUGE}\n", b"{" + b" " * 1023)
    # 65 chunks of 1 KiB, one past the limit, and no last chunk: the body never ends.
    endless = exchange(
        bodies_server.port, f"{head}Transfer-Encoding: chunked\n", chunked(*[b" " * 1024] * 65)
    )
    # The event itself in three chunks, and the last, empty one.
    valid = exchange(
        bodies_server.port,
        f"{head}Transfer-Encoding: chunked\nConnection: close\n",
        chunked(body[:10], body[10:20], body[20:], b""),
    )

    refused = {"error": f"the body is larger than {API_LIMIT} bytes", "field": None}
    assert (declared.status, json.loads(declared.body)) == (413, refused)
    assert declared.header("connection") == "close"
    assert declared.ended, "the server kept the connection to read the rest of the body"
    assert (endless.status, json.loads(endless.body)) == (413, refused)
    assert endless.ended
    assert (valid.status, json.loads(valid.body).get("seq")) == (201, seq + 1), valid.body
    assert Event.objects.filter(match_id=match_id).count() == seq + 1


@pytest.mark.slow
@pytest.mark.usefixtures("event_db")
def test_a_page_form_sent_chunked_works_and_one_past_the_limit_is_a_plain_413_page(bodies_server):
    connection = http.client.HTTPConnection("127.0.0.1", bodies_server.port, timeout=WAIT_S)
    connection.request("GET", "/login/")
    page = connection.getresponse()
    page.read()
    cookies = " ".join(page.headers.get_all("Set-Cookie") or [])
    token = re.search(r"csrftoken=([^;]+)", cookies).group(1)
    form = f"csrfmiddlewaretoken={token}&language=uk&next=/archive/".encode()

    connection.request(
        "POST",
        "/i18n/setlang/",
        body=iter([form[:20], form[20:]]),
        headers={
            "Cookie": f"csrftoken={token}",
            "Content-Type": "application/x-www-form-urlencoded",
        },
    )
    switched = connection.getresponse()
    switched.read()
    connection.close()
    too_large = exchange(
        bodies_server.port,
        "POST /i18n/setlang/ HTTP/1.1\nHost: 127.0.0.1\nCookie: django_language=uk\n"
        f"Content-Type: application/x-www-form-urlencoded\nContent-Length: {HUGE}\n",
        b"language=uk&next=" + b"x" * 1000,
    )

    assert switched.status == 302
    assert switched.headers["Location"] == "/archive/"
    # The language's cookie as a production server sets it (debug off: HTTPS behind the proxy).
    cookie = next(c for c in switched.headers.get_all("Set-Cookie") if "django_language" in c)
    assert cookie.startswith("django_language=uk;")
    assert "SameSite=Lax" in cookie
    assert "Secure" in cookie
    assert too_large.status == 413
    assert too_large.header("content-type").startswith("text/html")
    assert "<h1>" in too_large.body.decode()
    assert 'lang="uk"' in too_large.body.decode()

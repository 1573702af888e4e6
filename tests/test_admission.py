"""New sockets within bounds: a burst then a rate per address (4429), a cap per process (1013);
a login that may record is never refused."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from asgiref.testing import ApplicationCommunicator
from django.core import signing
from django.db import OperationalError
from django.test import Client

from carambole import admission, browsers, descriptors
from carambole.admission import Admission, Buckets
from carambole.asgi import application
from tests.support.browser import make_user
from tests.support.logins import REFEREE

WAIT_S = 30
PASSWORD = "chalk the cue, then break"
VIEWER = "203.0.113.7"
NEIGHBOUR = "203.0.113.8"


# -- The buckets ----------------------------------------------------------------------------


def test_an_address_opens_its_burst_at_once_then_as_many_a_second_as_its_rate():
    buckets = Buckets()
    burst = [buckets.take(VIEWER, 0.0, 3, 4) for _ in range(4)]

    # Four a second: a token every quarter of a second, half of one after an eighth.
    assert burst == [True, True, True, False]
    assert buckets.take(VIEWER, 0.125, 3, 4) is False
    assert buckets.take(VIEWER, 0.25, 3, 4) is True
    assert buckets.take(VIEWER, 0.25, 3, 4) is False


def test_an_address_past_its_burst_leaves_every_other_address_its_own():
    buckets = Buckets()
    for _ in range(3):
        buckets.take(VIEWER, 0.0, 3, 1)

    assert buckets.take(VIEWER, 0.0, 3, 1) is False
    assert [buckets.take(NEIGHBOUR, 0.0, 3, 1) for _ in range(3)] == [True, True, True]


def test_a_bucket_full_again_is_forgotten():
    buckets = Buckets()
    buckets.take("192.0.2.1", 0.0, 2, 1)
    buckets.take("192.0.2.2", 1.0, 2, 1)
    assert len(buckets) == 2

    # Two seconds fill a bucket of two from empty: the first address's is full by then.
    buckets.take("192.0.2.3", 2.0, 2, 1)
    assert len(buckets) == 2


def test_the_table_keeps_at_most_its_addresses_the_least_recently_seen_left_out():
    buckets = Buckets(most=2)
    for address in ("192.0.2.1", "192.0.2.2", "192.0.2.3"):
        buckets.take(address, 0.0, 1, 1)

    assert len(buckets) == 2
    # Left out, the first comes back with a full burst; the last has spent its own.
    assert buckets.take("192.0.2.1", 0.0, 1, 1) is True
    assert buckets.take("192.0.2.3", 0.0, 1, 1) is False


# -- The sockets ----------------------------------------------------------------------------


async def held(scope: dict, receive: Any, send: Any) -> None:
    """A socket that is accepted and stays open until its client leaves."""
    await receive()
    await send({"type": "websocket.accept"})
    while (await receive())["type"] != "websocket.disconnect":
        pass


def socket_from(app: Any, address: str, path: str = "/ws/", cookie: str = "") -> Any:
    headers = [(b"cookie", cookie.encode())] if cookie else []
    scope = {
        "type": "websocket",
        "path": path,
        "query_string": b"",
        "headers": headers,
        "subprotocols": [],
        "client": (address, 50_000),
    }
    return ApplicationCommunicator(app, scope)


async def opened(socket: Any) -> list[dict]:
    """Connect; return what the server answers: the accept, and the close of a refusal."""
    await socket.send_input({"type": "websocket.connect"})
    answers = [await socket.receive_output(timeout=WAIT_S)]
    if not await socket.receive_nothing(timeout=0.05):
        answers.append(await socket.receive_output(timeout=WAIT_S))
    return answers


async def leave(sockets: list[Any]) -> None:
    for socket in sockets:
        await socket.send_input({"type": "websocket.disconnect", "code": 1000})
        await socket.wait(timeout=WAIT_S)


ACCEPTED = [{"type": "websocket.accept"}]


def refused(refusal: admission.Refusal) -> list[dict]:
    close = {"type": "websocket.close", "code": refusal.code, "reason": refusal.reason}
    return [{"type": "websocket.accept"}, close]


@pytest.fixture
def bounds(settings) -> Any:
    """A burst of 2 per address, then one a second; 3 sockets a process."""
    settings.SOCKETS_PER_ADDRESS_BURST = 2
    settings.SOCKETS_PER_ADDRESS_PER_SECOND = 1
    settings.SOCKETS_PER_PROCESS = 3
    return settings


def frozen(app: Any) -> Admission:
    """Admit sockets into `app` with a clock that never moves: no token comes back."""
    return Admission(app, clock=lambda: 0.0)


def answers_to(addresses: Sequence[str], cookie: str = "") -> list[list[dict]]:
    """Open a socket from each address in turn, through a gate whose clock never moves;
    return what each was answered (the accepted ones then leave)."""

    async def scenario() -> list[list[dict]]:
        gate = frozen(held)
        sockets = [socket_from(gate, address, cookie=cookie) for address in addresses]
        answers = [await opened(socket) for socket in sockets]
        accepted = zip(sockets, answers, strict=True)
        await leave([socket for socket, answer in accepted if answer == ACCEPTED])
        return answers

    return asyncio.run(scenario())


def test_past_its_burst_an_address_is_accepted_and_closed_with_4429(bounds):
    assert answers_to([VIEWER] * 3) == [
        ACCEPTED,
        ACCEPTED,
        refused(admission.TOO_MANY_SOCKETS),
    ]


def test_past_the_cap_a_socket_is_closed_with_1013_until_one_of_the_open_ones_leaves(bounds):
    async def scenario() -> tuple[list[list[dict]], list[dict]]:
        gate = frozen(held)
        sockets = [socket_from(gate, address) for address in ("a", "b", "c", "d")]
        answers = [await opened(socket) for socket in sockets]
        await leave(sockets[:1])
        again = socket_from(gate, "e")
        answer = await opened(again)
        await leave([*sockets[1:3], again])
        return answers, answer

    answers, after_one_left = asyncio.run(scenario())
    assert answers == [ACCEPTED, ACCEPTED, ACCEPTED, refused(admission.SERVER_FULL)]
    assert after_one_left == ACCEPTED


@pytest.mark.parametrize("setting", [0, 5000])
def test_a_process_holds_no_more_sockets_than_its_descriptors_leave_room_for(
    bounds, monkeypatch, setting
):
    bounds.SOCKETS_PER_PROCESS = setting
    monkeypatch.setattr(descriptors, "room", lambda: 2)

    assert answers_to(("a", "b", "c")) == [ACCEPTED, ACCEPTED, refused(admission.SERVER_FULL)]


def test_with_both_bounds_off_one_address_opens_as_many_sockets_as_it_likes(bounds):
    bounds.SOCKETS_PER_ADDRESS_PER_SECOND = 0
    bounds.SOCKETS_PER_PROCESS = 0

    assert answers_to([VIEWER] * 5) == [ACCEPTED] * 5


def test_a_socket_within_the_bounds_reads_no_session(bounds, monkeypatch):
    def read(cookie: str) -> bool:
        raise AssertionError("a session was read")

    monkeypatch.setattr(admission, "records", read)

    assert answers_to([VIEWER] * 2, cookie="sessionid=abc") == [ACCEPTED, ACCEPTED]


@pytest.mark.parametrize(
    "cookie",
    ["sessionid=made-up", "sessionid=made-up; carambole_logins=forged:signature"],
)
def test_a_refused_socket_reads_no_session_unless_a_login_was_made_in_its_browser(
    bounds, monkeypatch, cookie
):
    def read(cookie: str) -> bool:
        raise AssertionError("a session was read")

    monkeypatch.setattr(admission, "records", read)

    assert answers_to([VIEWER] * 3, cookie=cookie)[-1] == refused(admission.TOO_MANY_SOCKETS)


def test_a_session_that_cannot_be_read_is_refused_as_a_viewers_socket_is(bounds, monkeypatch):
    def unreadable(cookie: str) -> bool:
        raise OperationalError("the database is away")

    monkeypatch.setattr(admission, "records", unreadable)
    logins = signing.dumps([REFEREE], salt=browsers.LOGINS.salt)
    cookie = f"sessionid=abc; {browsers.LOGINS.cookie}={logins}"

    assert answers_to([VIEWER] * 3, cookie=cookie)[-1] == refused(admission.TOO_MANY_SOCKETS)


def logged_in_cookie(username: str, staff: bool = False) -> str:
    """Log in through the login page, as a browser does; return the cookies it was given."""
    make_user(username, PASSWORD, staff=staff)
    browser = Client()
    answer = browser.post("/login/", {"username": username, "password": PASSWORD})
    assert answer.status_code == 302
    return "; ".join(f"{name}={cookie.value}" for name, cookie in browser.cookies.items())


@pytest.mark.usefixtures("event_db", "match")
def test_staff_and_a_referee_are_let_in_past_both_bounds_and_another_login_is_not(bounds, referee):
    cookies = {
        "staff": logged_in_cookie("federation-desk", staff=True),
        "referee": logged_in_cookie(referee.username),
        "another login": logged_in_cookie("spectator"),
    }
    bounds.SOCKETS_PER_PROCESS = 2

    async def scenario() -> dict[str, list[list[dict]]]:
        gate = frozen(held)
        # A hall's viewers behind one address: its burst spent, and the process full.
        sockets = [socket_from(gate, VIEWER) for _ in range(2)]
        answers = [await opened(socket) for socket in sockets]
        by_login: dict[str, list[list[dict]]] = {}
        for number, (who, cookie) in enumerate(cookies.items()):
            # From that address, then from one of its own (its burst whole, the process full).
            tried = [socket_from(gate, VIEWER, cookie=cookie)]
            tried.append(socket_from(gate, f"198.51.100.{number}", cookie=cookie))
            by_login[who] = [await opened(socket) for socket in tried]
            sockets += tried
            answers += by_login[who]
        await leave([s for s, a in zip(sockets, answers, strict=True) if a == ACCEPTED])
        return by_login

    by_login = async_to_sync(scenario)()
    assert by_login["staff"] == [ACCEPTED, ACCEPTED]
    assert by_login["referee"] == [ACCEPTED, ACCEPTED]
    assert by_login["another login"] == [
        refused(admission.TOO_MANY_SOCKETS),
        refused(admission.SERVER_FULL),
    ]


def test_refusals_are_logged_a_line_a_minute_at_most(bounds, caplog):
    bounds.SOCKETS_PER_ADDRESS_PER_SECOND = 0
    clock = [0.0]

    async def scenario() -> None:
        gate = Admission(held, clock=lambda: clock[0])
        sockets = [socket_from(gate, address) for address in ("a", "b", "c")]
        for socket in sockets:
            await opened(socket)
        for moment in (0.0, 30.0, 59.0, 60.0):
            clock[0] = moment
            await opened(socket_from(gate, "d"))
        await leave(sockets)

    asyncio.run(scenario())
    said = [record.getMessage() for record in caplog.records if record.name == admission.__name__]
    assert said == [
        "live sockets refused: 0 too many from one address (4429), 1 past this process's cap "
        "of 3 (1013); 3 open",
        "live sockets refused: 0 too many from one address (4429), 3 past this process's cap "
        "of 3 (1013); 3 open",
    ]


@pytest.mark.parametrize(
    "path",
    [
        "/ws/matches/cup-2026-a-3/?after=0",
        "/ws/competitions/cup-2026/hall/",
        "/ws/competitions/cup-2026/",
        "/ws/anything/else/",
    ],
)
def test_every_socket_the_site_serves_is_bounded(bounds, monkeypatch, path):
    gate = application.application_mapping["websocket"]
    assert isinstance(gate, Admission)
    monkeypatch.setattr(gate, "clock", lambda: 0.0)
    address = "192.0.2.99"
    while gate.buckets.take(address, 0.0, 2, 1):
        pass  # the address's burst spent

    async def scenario() -> list[dict]:
        return await opened(socket_from(application, address, path))

    assert asyncio.run(scenario()) == refused(admission.TOO_MANY_SOCKETS)

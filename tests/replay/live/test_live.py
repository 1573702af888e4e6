"""`/ws/matches/{id}/?after=SEQ`: stored events in order, then each commit (README: live)."""

from __future__ import annotations

import asyncio
import gc
import json
import random
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
import redis
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from channels_redis.core import RedisChannelLayer
from django.db import connections

from carambole.asgi import application
from matches import services, store
from matches.domain.fold import fold
from matches.domain.render import SCOREBOARD
from matches.domain.simulator import simulate_match
from matches.models import Event, Match
from matches.records import record_import
from replay.live import announce
from replay.live import hub as live_hub
from replay.live import resumes as live_resumes
from replay.live import viewer as live_viewer
from replay.live.notices import group_of, notice
from replay.live.stream import Stream
from tests.support.builders import BY, CAROM_A, QUIET, UPPER_HALF, new_match, open_game, play
from tests.support.hanging_layer import WAIT_S, HangingLayer, wait_for
from tests.support.sockets import watching

pytestmark = pytest.mark.usefixtures("event_db")

HUB_STOP_S = 120.0  # the longest a test waits for a hub nobody watches to stop


# -- Helpers --------------------------------------------------------------------------


async def connect(path: str, app: Any = application, **headers: str) -> WebsocketCommunicator:
    """Return a communicator connected to `path` (asserting the socket was accepted)."""
    viewer = WebsocketCommunicator(
        app, path, headers=[(k.encode(), v.encode()) for k, v in headers.items()]
    )
    connected, _ = await viewer.connect(timeout=WAIT_S)
    assert connected
    return viewer


async def watch(match_id: str, after: int | None = None) -> WebsocketCommunicator:
    query = "" if after is None else f"?after={after}"
    return await connect(f"/ws/matches/{match_id}/{query}")


async def message(viewer: WebsocketCommunicator) -> dict[str, Any]:
    return json.loads(await viewer.receive_from(timeout=WAIT_S))


async def events_until(viewer: WebsocketCommunicator, seq: int) -> list[dict[str, Any]]:
    """Return the event messages a viewer receives up to the one of `seq` (heads skipped)."""
    received: list[dict[str, Any]] = []
    while not received or received[-1]["seq"] < seq:
        sent = await message(viewer)
        if sent["type"] == "event":
            received.append(sent)
    return received


async def closed_with(viewer: WebsocketCommunicator) -> int:
    """Return the code a viewer's socket was closed with."""
    while True:
        output = await viewer.receive_output(timeout=WAIT_S)
        if output["type"] == "websocket.close":
            return output.get("code", 1000)


async def until(condition: Callable[[], Any], what: str, seconds: float = WAIT_S) -> None:
    """Return once `condition()` is truthy, on the event loop; fail after `seconds`.

    A liveness limit, not a speed: what must come comes within it on a loaded machine too.
    """
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.01)


async def all_live(match_id: str, count: int) -> None:
    """Wait until this loop's hub pushes a match to `count` viewers, each past its catch-up.

    A socket is accepted before its catch-up: a viewer that cannot read proves nothing else.
    """

    def live() -> bool:
        feed = live_hub.hub_here().feeds.get(("match", match_id))
        return feed is not None and sum(viewer.live for viewer in feed.viewers) == count

    await until(live, f"{count} viewers of {match_id} never all went live")


async def hubs_stopped(loop: asyncio.AbstractEventLoop) -> None:
    """Wait until a loop's hub has stopped and let go of the layer (nobody watches)."""
    await until(
        lambda: not live_hub.hubs_of(loop), "the hub did not stop once nobody watched", HUB_STOP_S
    )


def live_buffers(layer: RedisChannelLayer) -> list[str]:
    """Return the hub channels a layer keeps a buffer of."""
    return [c for c in layer.receive_buffer if c.endswith(live_hub.CHANNEL_MARK)]


def seqs(messages: list[dict[str, Any]]) -> list[int]:
    return [sent["seq"] for sent in messages]


record = sync_to_async(play)


def live_scoreboard(match_id: str, seq: int) -> dict[str, Any]:
    """Return the scoreboard a message of `seq` must carry, by a cold fold of the store."""
    match = Match.objects.get(pk=match_id)
    events = store.load_facts(match)
    state = fold(match.header(), events, upto=seq, view="live")
    board = {key: state[key] for key in SCOREBOARD}
    event = events[seq - 1]
    shot = {"shot": seq, "shot_amended": event.get("shot")}.get(event["type"])
    rulings = {entry["seq"]: entry["ruling"] for entry in state["shots"]}
    board["ruling"] = rulings.get(shot)
    return board


def a_match_with_shots(shots: int = 3, match_id: str = "cup-a-1") -> tuple[str, int]:
    """Return a match with its first game open and `shots` shots played, and its last seq."""
    match = new_match(match_id)
    seq = open_game(match.id)
    for number in range(shots):
        seq = play(match.id, seq, CAROM_A if number % 2 == 0 else QUIET)
    return match.id, seq


# -- Catch-up and live push --------------------------------------------------------------


def test_a_viewer_gets_every_event_after_its_seq_from_the_store_in_order():
    match_id, head = a_match_with_shots(4)

    async def scenario():
        viewer = await watch(match_id, after=2)
        assert seqs(await events_until(viewer, head)) == list(range(3, head + 1))
        assert await viewer.receive_nothing(timeout=0.2)
        await viewer.disconnect()

    watching(scenario)


def test_a_viewer_without_after_gets_the_whole_log():
    match_id, head = a_match_with_shots(2)

    async def scenario():
        viewer = await watch(match_id)
        assert seqs(await events_until(viewer, head)) == list(range(1, head + 1))
        await viewer.disconnect()

    watching(scenario)


def test_each_message_carries_the_event_as_a_record_writes_it():
    match_id, head = a_match_with_shots(3)
    records = [event.as_record() for event in Event.objects.filter(match=match_id)]

    async def scenario():
        viewer = await watch(match_id, after=0)
        received = await events_until(viewer, head)
        assert [sent["event"] for sent in received] == records
        assert all(sent["type"] == "event" for sent in received)
        await viewer.disconnect()

    watching(scenario)


def test_each_state_is_the_scoreboard_of_the_live_view_at_its_seq_amendments_included():
    match_id, seq = a_match_with_shots(3)
    # B misses (ball in hand for A), A places and caroms; then the referee amends B's miss
    # into a quiet shot and retracts A's carom.
    seq = play(match_id, seq, {"contacts": [{"ball": "yellow", "hit": "cushion"}]})
    seq = services.ball_place(
        match_id=match_id, expected_seq=seq, by=BY, ball="white", pos=UPPER_HALF, reason="in_hand"
    ).seq
    seq = play(match_id, seq, CAROM_A)
    seq = services.ruling_amend(
        match_id=match_id, expected_seq=seq, by=BY, shot=7, reason="video", facts=QUIET
    ).seq
    seq = services.shot_retract(
        match_id=match_id, expected_seq=seq, by=BY, shot=9, reason="entered twice"
    ).seq

    async def scenario():
        viewer = await watch(match_id, after=0)
        received = await events_until(viewer, seq)
        await viewer.disconnect()
        return received

    received: list[dict[str, Any]] = []

    async def keep():
        received.extend(await scenario())

    watching(keep)
    for sent in received:
        assert sent["state"] == live_scoreboard(match_id, sent["seq"]), sent["seq"]
    by_seq = {sent["seq"]: sent["state"]["ruling"] for sent in received}
    assert by_seq[7]["fouls"] == ["miss"]  # as recorded
    assert by_seq[10] == {**by_seq[10], "fouls": [], "ball_in_hand": False}  # 7, amended
    assert by_seq[11] is None  # a retraction rules nothing
    assert by_seq[1] is None and by_seq[8] is None  # nor a lag, nor a placement


def test_events_committed_after_connecting_are_pushed_once_each_in_order():
    match_id, head = a_match_with_shots(1)

    async def scenario():
        viewer = await watch(match_id, after=head)
        seq = head
        for facts in (CAROM_A, QUIET, CAROM_A, QUIET):
            seq = await record(match_id, seq, facts)
        assert seqs(await events_until(viewer, seq)) == list(range(head + 1, seq + 1))
        assert await viewer.receive_nothing(timeout=0.2)
        await viewer.disconnect()

    watching(scenario)


def test_a_message_stays_a_couple_of_kilobytes_however_long_the_match():
    longest = simulate_match(3, ruleset={"best_of": 15, "target": 20})
    match_id = record_import(longest).match_id
    head = len(longest["events"])

    async def scenario():
        viewer = await watch(match_id, after=0)
        texts = []
        while len(texts) < head:
            texts.append(await viewer.receive_from(timeout=WAIT_S))
        await viewer.disconnect()
        states = [json.dumps(json.loads(text)["state"]) for text in texts]
        assert max(len(state) for state in states) <= 2048
        assert all("shots" not in json.loads(state) for state in states)
        assert max(len(text) for text in texts) <= 3072

    watching(scenario)


# -- Resume, gaps and the clock ---------------------------------------------------------


def test_resume_sends_the_range_again_from_the_store_then_goes_on_live():
    match_id, head = a_match_with_shots(3)

    async def scenario():
        viewer = await watch(match_id, after=head)
        await viewer.send_json_to({"type": "resume", "after": 2})
        assert seqs(await events_until(viewer, head)) == list(range(3, head + 1))
        seq = await record(match_id, head, QUIET)
        assert seqs(await events_until(viewer, seq)) == [seq]
        await viewer.disconnect()

    watching(scenario)


def test_the_clock_tells_every_viewer_the_head(settings):
    settings.LIVE_HEAD_SECONDS = 1
    match_id, head = a_match_with_shots(1)

    async def scenario():
        viewers = [await watch(match_id, after=head), await watch(match_id, after=0)]
        await events_until(viewers[1], head)
        for viewer in viewers:
            assert await message(viewer) == {"type": "head", "seq": head}
            await viewer.disconnect()

    watching(scenario)


def test_a_client_that_sees_a_gap_gets_the_range_by_resume(settings):
    settings.LIVE_HEAD_SECONDS = 1
    match_id, seq = a_match_with_shots(1)

    async def scenario():
        viewer = await watch(match_id, after=seq)
        have = seq
        newest = seq
        for _ in range(3):
            newest = await record(match_id, newest, QUIET)
        # The client's last messages were lost: it notices at the next head.
        while (sent := await message(viewer))["type"] != "head":
            pass
        assert sent["seq"] == newest > have
        await viewer.send_json_to({"type": "resume", "after": have})
        assert seqs(await events_until(viewer, newest)) == list(range(have + 1, newest + 1))
        await viewer.disconnect()

    watching(scenario)


def test_resumes_asked_while_one_is_served_are_merged_into_one_from_the_lowest_after(
    monkeypatch,
):
    match_id, head = a_match_with_shots(4)
    release = threading.Event()
    read = Stream.read

    def held(stream, limit):  # only resumes read here: nothing is recorded meanwhile
        release.wait(WAIT_S)
        return read(stream, limit)

    monkeypatch.setattr(Stream, "read", held)

    async def scenario():
        viewer = await watch(match_id, after=head)
        await all_live(match_id, 1)
        for after in (head - 2, 2, 3, head - 1, 2):
            await viewer.send_json_to({"type": "resume", "after": after})
        await viewer.send_to(text_data="not json")  # answered once all before it are read
        assert (await message(viewer))["type"] == "error"
        release.set()
        # The first, then one from the lowest after asked while it was served: not six.
        expected = [*range(head - 1, head + 1), *range(3, head + 1)]
        assert seqs(await events_until(viewer, head)) == expected[:2]
        assert seqs(await events_until(viewer, head)) == expected[2:]
        assert await viewer.receive_nothing(timeout=0.5)
        await viewer.disconnect()

    watching(scenario)


def test_a_client_that_sends_past_its_allowance_is_closed_with_4429(monkeypatch):
    monkeypatch.setattr(live_resumes, "EVERY_SECONDS", 3600.0)  # no refill within the test
    match_id, head = a_match_with_shots(1)

    async def scenario():
        viewer = await watch(match_id, after=head)
        for _ in range(live_resumes.BURST - 1):
            await viewer.send_json_to({"type": "resume", "after": head})  # nothing to send
        await viewer.send_to(text_data="not json")
        assert (await message(viewer))["type"] == "error"  # the tenth: still answered
        await viewer.send_json_to({"type": "resume", "after": 0})
        assert await closed_with(viewer) == live_resumes.TOO_MANY_MESSAGES

    watching(scenario)


# -- Refusals ----------------------------------------------------------------------------


def test_an_unknown_match_is_accepted_then_closed_with_4404():
    new_match("cup-a-1")

    async def scenario():
        viewer = await watch("no-such-match", after=0)
        assert await closed_with(viewer) == 4404

    watching(scenario)


@pytest.mark.parametrize(
    "query", ["after=x", "after=-1", "after=1.5", "after=", "after=1&after=2", "after=%D9%A3"]
)
def test_a_bad_after_is_closed_with_4400(query):
    match_id, _ = a_match_with_shots(1)

    async def scenario():
        viewer = await connect(f"/ws/matches/{match_id}/?{query}")
        assert await closed_with(viewer) == 4400

    watching(scenario)


def test_an_after_past_the_last_event_is_closed_with_4400():
    match_id, head = a_match_with_shots(1)

    async def scenario():
        viewer = await watch(match_id, after=head + 1)
        assert await closed_with(viewer) == 4400

    watching(scenario)


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("not json", None),
        ("[1, 2]", None),
        ('{"after": 1}', "type"),
        ('{"type": "subscribe", "after": 1}', "type"),
        ('{"type": "resume"}', "after"),
        ('{"type": "resume", "after": -1}', "after"),
        ('{"type": "resume", "after": "1"}', "after"),
        ('{"type": "resume", "after": true}', "after"),
        ('{"type": "resume", "after": 1.0}', "after"),
        ('{"type": "resume", "after": 1, "upto": 3}', "upto"),
        ('{"type": "resume", "after": 1, "pad": "' + "x" * 2000 + '"}', None),
    ],
)
def test_a_malformed_client_message_is_answered_and_the_socket_stays_open(text, field):
    match_id, head = a_match_with_shots(2)

    async def scenario():
        viewer = await watch(match_id, after=head)
        await viewer.send_to(text_data=text)
        answer = await message(viewer)
        assert answer["type"] == "error" and answer["error"]
        assert answer["field"] == field
        await viewer.send_json_to({"type": "resume", "after": head - 1})
        assert seqs(await events_until(viewer, head)) == [head]
        await viewer.disconnect()

    watching(scenario)


def test_a_binary_client_message_is_answered_and_the_socket_stays_open():
    match_id, head = a_match_with_shots(1)

    async def scenario():
        viewer = await watch(match_id, after=head)
        await viewer.send_to(bytes_data=b'{"type": "resume", "after": 0}')
        assert (await message(viewer))["type"] == "error"
        seq = await record(match_id, head, QUIET)
        assert seqs(await events_until(viewer, seq)) == [seq]
        await viewer.disconnect()

    watching(scenario)


def test_a_resume_past_the_last_event_is_answered_and_the_viewer_stays_live():
    match_id, head = a_match_with_shots(1)

    async def scenario():
        viewer = await watch(match_id, after=head)
        await viewer.send_json_to({"type": "resume", "after": head + 5})
        answer = await message(viewer)
        assert answer == {"type": "error", "error": answer["error"], "field": "after"}
        seq = await record(match_id, head, QUIET)
        assert seqs(await events_until(viewer, seq)) == [seq]
        await viewer.disconnect()

    watching(scenario)


# -- Who may connect ---------------------------------------------------------------------


@pytest.mark.parametrize("origin", [None, "http://localhost:8000", "https://127.0.0.1"])
def test_programs_without_origin_and_pages_of_an_allowed_host_connect(origin):
    match_id, head = a_match_with_shots(1)
    headers = {} if origin is None else {"origin": origin}

    async def scenario():
        viewer = await connect(f"/ws/matches/{match_id}/?after=0", **headers)
        assert seqs(await events_until(viewer, head)) == list(range(1, head + 1))
        await viewer.disconnect()

    watching(scenario)


@pytest.mark.parametrize(
    "origin", ["https://evil.example", "null", "http://localhost.evil.example"]
)
def test_a_page_of_another_host_is_refused(origin):
    match_id, _ = a_match_with_shots(1)

    async def scenario():
        viewer = WebsocketCommunicator(
            application, f"/ws/matches/{match_id}/", headers=[(b"origin", origin.encode())]
        )
        connected, _ = await viewer.connect(timeout=WAIT_S)
        assert not connected
        await viewer.disconnect()  # the refusing consumer waits for the client to go

    watching(scenario)


# -- Order, losses and slow viewers ------------------------------------------------------


def test_viewers_joining_while_shots_are_recorded_each_see_every_seq_once_in_order():
    match_id, head = a_match_with_shots(2)
    shots = 30
    finished = threading.Event()

    def referee() -> int:
        seq = head
        try:
            for number in range(shots):
                seq = play(match_id, seq, CAROM_A if number % 3 == 0 else QUIET)
                time.sleep(0.005)  # viewers join between shots, and during them
        finally:
            connections.close_all()
            finished.set()
        return seq

    async def scenario():
        chance = random.Random(8)
        recording = asyncio.ensure_future(sync_to_async(referee, thread_sensitive=False)())
        viewers = []
        while not finished.is_set() and len(viewers) < 12:
            viewers.append(await watch(match_id, after=chance.randint(0, head)))
            await asyncio.sleep(chance.uniform(0, 0.02))
        last = await recording
        for viewer in viewers:
            received = await events_until(viewer, last)
            numbers = seqs(received)
            assert numbers == list(range(numbers[0], last + 1))
            assert received[-1]["state"] == await sync_to_async(live_scoreboard)(match_id, last)
            await viewer.disconnect()

    watching(scenario)


@pytest.mark.parametrize("lost", [0.7, 1.0])
def test_viewers_converge_on_the_store_when_notices_are_lost(settings, monkeypatch, lost):
    """Notices (in this process or through the channel layer) dropped: the clock catches up."""
    settings.LIVE_HEAD_SECONDS = 1
    match_id, head = a_match_with_shots(1)
    chance = random.Random(5)
    heard = live_hub.Hub.heard

    def lossy(hub, topic, position):
        if chance.random() >= lost:
            heard(hub, topic, position)

    monkeypatch.setattr(live_hub.Hub, "heard", lossy)

    async def scenario():
        viewers = [await watch(match_id, after=after) for after in (0, head, head)]
        seq = head
        for number in range(10):
            seq = await record(match_id, seq, CAROM_A if number % 2 else QUIET)
        board = await sync_to_async(live_scoreboard)(match_id, seq)
        for viewer in viewers:
            received = await events_until(viewer, seq)
            assert seqs(received) == list(range(received[0]["seq"], seq + 1))
            assert received[-1]["state"] == board
            await viewer.disconnect()

    watching(scenario)


class StalledSends:
    """Let one socket (header `x-stalled`) connect, then never take what it is sent."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):
        if (b"x-stalled", b"1") not in scope["headers"]:
            return await self.app(scope, receive, send)

        async def stalled(message):
            if message["type"] == "websocket.send":
                await asyncio.Event().wait()  # a server applying back-pressure, forever
            await send(message)

        return await self.app(scope, receive, stalled)


def test_a_stalled_viewer_does_not_delay_the_others_and_is_closed(monkeypatch):
    monkeypatch.setattr(live_viewer, "STALL_SECONDS", 0.5)
    monkeypatch.setattr(live_hub, "CLOCK_SECONDS", 0.1)
    match_id, head = a_match_with_shots(1)
    app = StalledSends(application)

    async def scenario():
        path = f"/ws/matches/{match_id}/?after={head}"
        stalled = await connect(path, app=app, **{"x-stalled": "1"})
        others = [await connect(path, app=app) for _ in range(10)]
        seq = head
        for _ in range(5):
            seq = await record(match_id, seq, QUIET)
            for viewer in others:
                assert seqs(await events_until(viewer, seq)) == [seq]
        assert await closed_with(stalled) == live_viewer.TOO_SLOW
        for viewer in others:
            await viewer.disconnect()

    watching(scenario)


def test_a_viewer_whose_outbox_fills_up_is_closed_at_once(monkeypatch):
    monkeypatch.setattr(live_viewer, "OUTBOX_LIMIT", 3)
    match_id, head = a_match_with_shots(1)
    app = StalledSends(application)

    async def scenario():
        path = f"/ws/matches/{match_id}/?after={head}"
        stalled = await connect(path, app=app, **{"x-stalled": "1"})
        other = await connect(path, app=app)
        await all_live(match_id, 2)
        seq = head
        for _ in range(5):  # one the server holds, three queued behind it, one too many
            seq = await record(match_id, seq, QUIET)
            assert seqs(await events_until(other, seq)) == [seq]
        assert await closed_with(stalled) == live_viewer.TOO_SLOW
        await other.disconnect()

    watching(scenario)


def test_a_hub_started_again_and_again_on_one_event_loop_keeps_no_channel_layer_behind(
    settings, redis_url
):
    """Each time nobody watched and then someone did, a layer of the hub's own stayed alive
    as long as the loop, and the buffer of its channel with it."""
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [redis_url], "prefix": "live-layers"},
        }
    }
    match_id, head = a_match_with_shots(1)

    def layers() -> list[RedisChannelLayer]:
        gc.collect()
        return [found for found in gc.get_objects() if isinstance(found, RedisChannelLayer)]

    async def scenario():
        counts = []
        for _ in range(5):
            viewer = await watch(match_id, after=head)
            await all_live(match_id, 1)
            await viewer.disconnect()
            await hubs_stopped(asyncio.get_running_loop())  # it let go of everything
            counts.append(len(layers()))
        assert counts == counts[:1] * 5  # none more each time
        assert not [channel for layer in layers() for channel in live_buffers(layer)]

    watching(scenario)


def test_a_notice_that_reaches_a_stopped_hubs_channel_is_not_kept_by_the_next_hub(
    settings, redis_url
):
    """Every hub of the process reads one Redis list: a late notice to a stopped hub's
    channel was kept in a buffer of its own by the next hub, for as long as the process."""
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [redis_url], "prefix": "live-strays"},
        }
    }
    match_id, head = a_match_with_shots(1)

    async def scenario():
        loop = asyncio.get_running_loop()
        viewer = await watch(match_id, after=head)
        await all_live(match_id, 1)
        first = live_hub.hub_here()
        await until(lambda: first.channel, "the hub never listened")
        await viewer.disconnect()
        await hubs_stopped(loop)
        layer = get_channel_layer()
        await layer.send(first.channel, notice(("match", match_id), head))  # late: nobody listens

        viewer = await watch(match_id, after=head)
        await all_live(match_id, 1)
        await until(
            lambda: first.channel in layer.receive_buffer, "the next hub never read the notice"
        )
        await viewer.disconnect()
        await hubs_stopped(loop)
        assert not live_buffers(layer)

    watching(scenario)


def test_a_hub_hears_the_layer_while_a_socket_of_its_process_waits_for_its_own_messages(
    settings, monkeypatch, redis_url
):
    """channels_redis reads a process's channels under one lock, a Redis list per kind of
    name: a hub's channel of a kind of its own waited, unread, until whoever held the lock
    (a hall's or a standings' socket) was sent something (the board beside the hall)."""
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [redis_url], "prefix": "live-one-read"},
        }
    }
    settings.LIVE_HEAD_SECONDS = 3600  # no clock to catch up: the notice alone must come
    # Recorded by another process: nothing told here, its notice comes through Redis.
    monkeypatch.setattr(announce, "tell_hubs", lambda topic, position=0: None)
    monkeypatch.setattr(announce, "shared_layer", lambda: False)
    match_id, head = a_match_with_shots(1)

    async def scenario():
        layer = get_channel_layer()
        socket = asyncio.ensure_future(layer.receive(await layer.new_channel()))
        await until(
            lambda: layer.receive_lock is not None and layer.receive_lock.locked(),
            "the socket never read the layer",
        )
        try:
            viewer = await watch(match_id, after=head)
            await all_live(match_id, 1)
            hub = live_hub.hub_here()
            group = "live-one-read:group:" + group_of(("match", match_id))
            with redis.Redis.from_url(redis_url) as members:
                await until(
                    lambda: hub.channel and members.zscore(group, hub.channel) is not None,
                    "the hub never joined the match's group",
                )
            seq = await record(match_id, head, QUIET)
            elsewhere = {**notice(("match", match_id), seq), "origin": "another-process"}
            await layer.group_send(group_of(("match", match_id)), elsewhere)

            assert seqs(await events_until(viewer, seq)) == [seq]
            await viewer.disconnect()
        finally:
            socket.cancel()

    watching(scenario)


def test_recording_answers_at_once_when_the_channel_layer_hangs(monkeypatch):
    monkeypatch.setattr(announce, "shared_layer", lambda: True)
    monkeypatch.setattr(announce, "get_channel_layer", HangingLayer)
    monkeypatch.setattr(HangingLayer, "callers", [])
    monkeypatch.setattr(announce, "publisher", announce.Publisher())
    match_id, seq = a_match_with_shots(1)
    recorded: list[int] = []

    def referee() -> None:
        try:
            head = seq
            for _ in range(3):
                head = play(match_id, head, QUIET)
                recorded.append(head)
        finally:
            connections.close_all()

    recording = threading.Thread(target=referee, name="referee")
    recording.start()
    recording.join(timeout=60)  # a recording that waited on the layer would wait forever

    assert not recording.is_alive() and recorded == [seq + 1, seq + 2, seq + 3]
    assert Event.objects.filter(match=match_id).count() == seq + 3
    wait_for(lambda: HangingLayer.callers, "the notice handed to the layer")
    assert set(HangingLayer.callers) == {"live-publisher"}

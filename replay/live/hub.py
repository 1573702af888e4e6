"""One server process's live push: a feed per topic watched, its channel and its clock.

A topic is what a socket watches: a match's events, a competition's hall, its standings
(`notices.Topic`). A hub lives on one event loop (one per server process) while anyone
watches, and keeps one feed per topic watched: one subscription to the channel layer,
one read of the store and one encoding per change, and the same message handed to every
viewer of the topic in this process. Told that a topic changed (directly by a commit or
the projector in this process, or by another process's notice on the channel layer),
its feed reads what is new. The clock reads every feed again every `LIVE_HEAD_SECONDS`
whether or not a notice came (one read per topic, however many watch it), tells a
match's viewers its head, and closes viewers that do not keep up.

Two kinds of feed, one mechanism:
- `EventFeed`, a match's: a stream of events, each `seq` once and in order, from the
  `after` a viewer asks for (read from the store until the viewer meets the live push);
- `SnapshotFeed`, a hall's or standings': the latest read, sent whole to a viewer that
  joins (each part only if newer than the `version` it had) and, to the viewers that
  have the one before, as what changed.
What a topic reads is its own module's: `stream` (a match), `hall`, `standings`.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from channels.layers import BaseChannelLayer, InMemoryChannelLayer, get_channel_layer
from django.conf import settings
from django.db import Error as DatabaseError
from django.db import connections

from matches.domain.errors import Refused
from matches.selectors import check_id
from replay.live.messages import error_message, head_message
from replay.live.notices import Topic, group_of, read_notice
from replay.live.resumes import TOO_MANY_MESSAGES
from replay.live.stream import Stream
from replay.live.viewer import INTERNAL_ERROR, TOO_SLOW, Message, Viewer, outgoing

logger = logging.getLogger(__name__)

CHUNK = 100  # events per read of the store; a long catch-up goes out a chunk at a time
FAN_OUT_STEP = 64  # viewers handed a message between two turns of the event loop
CLOCK_SECONDS = 1.0  # how often the clock looks for viewers that do not keep up
# Ends every hub's channel name. Its kind (before the "!") is the layer's own, as every
# socket's: channels_redis reads each kind of a process's channels from a list of its own,
# under one lock for all of them, and whoever holds the lock reads only its kind. A hub's
# channel of another kind waited, unread, until a socket holding the lock was sent something.
CHANNEL_MARK = ".live-hub"
LAYER_SECONDS = 2.0  # the longest a hub waits for the channel layer
RETRY_SECONDS = (0.5, 10.0)  # the first and the longest pause after the layer failed

T = TypeVar("T")

_hubs: dict[asyncio.AbstractEventLoop, Hub] = {}
_stopping: set[Hub] = set()  # stopped, still letting go of the layer and the threads
_hubs_lock = threading.Lock()


def hub_here() -> Hub:
    """Return the hub of the running event loop, starting one if there is none."""
    loop = asyncio.get_running_loop()
    with _hubs_lock:
        hub = _hubs.get(loop)
        if hub is None:
            hub = _hubs[loop] = Hub(loop)
            hub.start()
    return hub


def tell_hubs(topic: Topic, position: int = 0) -> None:
    """Tell every hub of this process that a topic changed, up to `position` (any thread)."""
    with _hubs_lock:
        hubs = list(_hubs.items())
    for loop, hub in hubs:
        try:
            loop.call_soon_threadsafe(hub.heard, topic, position)
        except RuntimeError:  # its event loop has closed
            with _hubs_lock:
                if _hubs.get(loop) is hub:
                    del _hubs[loop]


def shared_layer() -> bool:
    """Return whether the channel layer reaches other processes (the in-memory one does not)."""
    layer = get_channel_layer()
    return layer is not None and not isinstance(layer, InMemoryChannelLayer)


# -- What a snapshot topic reads ------------------------------------------------------------


@dataclass(frozen=True)
class Part:
    """One message of a snapshot, and the version it is at: a viewer that joins with
    `?version=` that version or a later one is not sent it (None: always sent)."""

    text: str
    version: int | None = None


@dataclass(frozen=True)
class Snapshot:
    """A topic as read once: the parts a joining viewer is sent, and what the viewers that
    had the snapshot before are sent (the same, or only what changed)."""

    parts: tuple[Part, ...]
    changed: tuple[str, ...]


class Snapshots(Protocol):
    """A snapshot topic's reads, in the hub's thread: `read` returns the topic if it changed
    since the last read (the first read always), else None."""

    def read(self) -> Snapshot | None: ...


# -- Feeds ----------------------------------------------------------------------------------


class Feed:
    """One topic as this process pushes it: its viewers, and its reads, one at a time."""

    def __init__(self, hub: Hub, topic: Topic) -> None:
        self.hub = hub
        self.topic = topic
        self.viewers: set[Viewer] = set()
        self.cursor = 0  # the position of the last change pushed
        self.waiting = 0  # viewers waiting for the feed to open
        self._reading = True  # opening is its first read: a change told meanwhile waits
        self._again = False
        self.opening = hub.spawn(self._open_once())

    async def _open_once(self) -> None:
        try:
            await self.open()
        finally:
            self._reading = False
        if self._again:  # told of a change while opening
            self.hub.spawn(self.advance())

    async def open(self) -> None:
        """Read the topic for the first time (NotFound for an unknown one)."""
        raise NotImplementedError

    def opened(self) -> bool:
        return self.opening.done() and not self.opening.cancelled()

    def stale(self, position: int) -> bool:
        """Return whether a change up to `position` may be news to this feed."""
        return True

    async def advance(self) -> None:
        """Read and push what changed, in order; one read at a time, again if told meanwhile."""
        if self._reading:
            self._again = True
            return
        self._reading = True
        try:
            while True:
                self._again = False
                try:
                    more = await self.push_changes()
                except Exception as error:
                    logger.warning("live: %s cannot be read (%s); retried later", self.topic, error)
                    return
                if not self._again and not more:
                    return
        finally:
            self._reading = False

    async def push_changes(self) -> bool:
        """Read once and push what is new; return whether there may be more to read."""
        raise NotImplementedError

    async def fan_out(self, position: int, messages: tuple[Message, ...]) -> None:
        """Hand the messages of one change (the same objects) to every viewer, letting the
        server write to the first ones while the loop goes on to the others."""
        self.cursor = position
        viewers = tuple(self.viewers)
        for first in range(0, len(viewers), FAN_OUT_STEP):
            if first:
                await asyncio.sleep(0)
            for viewer in viewers[first : first + FAN_OUT_STEP]:
                viewer.push(position, messages)


class EventFeed(Feed):
    """A match's feed: its events from the store, with the live state at its cursor."""

    def __init__(self, hub: Hub, topic: Topic) -> None:
        self._stream: Stream | None = None  # used in the hub's feed thread only
        super().__init__(hub, topic)

    @property
    def match_id(self) -> str:
        return self.topic[1]

    async def open(self) -> None:
        """Place the feed at the match's last event."""
        self._stream = await self.hub.in_thread(self.hub.feed_thread, Stream.open, self.match_id)
        self.cursor = self._stream.seq

    def stale(self, position: int) -> bool:
        return position > self.cursor

    async def push_changes(self) -> bool:
        messages = await self.hub.in_thread(self.hub.feed_thread, self._read)
        for seq, text in messages:
            await self.fan_out(seq, (outgoing(text),))
        return len(messages) == CHUNK

    def _read(self) -> list[tuple[int, str]]:
        """Read the events after the cursor (in the feed thread)."""
        if self._stream is None:
            self._stream = Stream.open(self.match_id, self.cursor)
        try:
            return self._stream.read(CHUNK)
        except BaseException:
            self._stream = None  # opened again from the cursor next time, folded afresh
            raise


class SnapshotFeed(Feed):
    """A hall's or standings' feed: the latest snapshot read, and its viewers."""

    def __init__(self, hub: Hub, topic: Topic, source: Callable[[str], Snapshots]) -> None:
        self._source_of = source
        self._source: Snapshots | None = None
        self.snapshot = Snapshot((), ())
        super().__init__(hub, topic)

    async def open(self) -> None:
        self._source, first = await self.hub.in_thread(self.hub.snapshot_thread, self._first)
        self.snapshot, self.cursor = first, 1

    def _first(self) -> tuple[Snapshots, Snapshot]:
        source = self._source_of(self.topic[1])
        first = source.read()
        assert first is not None  # a first read always has what it read
        return source, first

    async def push_changes(self) -> bool:
        assert self._source is not None  # opened
        read = await self.hub.in_thread(self.hub.snapshot_thread, self._source.read)
        if read is not None:
            # Kept before it goes out: a viewer that joins meanwhile gets it whole.
            self.snapshot = read
            if read.changed:
                changed = tuple(outgoing(text) for text in read.changed)
                await self.fan_out(self.cursor + 1, changed)
        return False

    def parts_after(self, version: int | None) -> tuple[Message, ...]:
        """Return the snapshot as sent to a viewer that has `version` (None: all of it)."""
        return tuple(
            outgoing(part.text)
            for part in self.snapshot.parts
            if version is None or part.version is None or part.version > version
        )


class Hub:
    """The live push of one event loop: feeds by topic, the channel layer, the clock."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.feeds: dict[Topic, Feed] = {}
        # Live pushes never wait behind a viewer's long catch-up, nor a match's behind a
        # hall's read: a thread each.
        self.feed_thread = ThreadPoolExecutor(1, thread_name_prefix="live-feeds")
        self.catch_up_thread = ThreadPoolExecutor(1, thread_name_prefix="live-catch-up")
        self.snapshot_thread = ThreadPoolExecutor(1, thread_name_prefix="live-snapshots")
        self.layer: BaseChannelLayer | None = None
        self.channel = ""
        self._tasks: set[asyncio.Task[Any]] = set()
        self._clock: asyncio.Task[None] | None = None
        self._listener: asyncio.Task[None] | None = None
        self.stopped = asyncio.Event()

    def start(self) -> None:
        self._clock = self.spawn(self._keep_time())
        if shared_layer():
            # The process's layer, as every consumer's. One made for each hub lived as long
            # as the event loop (channels_redis wraps the loop's `close` with each layer
            # used on it): a few kilobytes kept each time nobody watched and then someone did.
            self.layer = get_channel_layer()
            self._listener = self.spawn(self._listen())

    # -- Viewers ---------------------------------------------------------------------

    async def _enter(self, topic: Topic, make: Callable[[], Feed]) -> Feed:
        """Return the topic's feed, opened, with one more viewer about to join it."""
        feed = self.feeds.get(topic)
        if feed is None:
            feed = self.feeds[topic] = make()
            self.spawn(self._join(topic))
        feed.waiting += 1
        try:
            await asyncio.shield(feed.opening)
        except BaseException:
            feed.waiting -= 1
            self._forget_if_idle(feed)
            raise
        feed.waiting -= 1
        return feed

    async def watch(self, match_id: str, viewer: Viewer, after: int) -> None:
        """Send a viewer the events after `after` from the store, then each new one.

        Raises NotFound for an unknown match and Refused for an `after` past its end.
        """
        # An id no match can have (a NUL, which PostgreSQL cannot even be asked about) is
        # unknown like any other, before a feed or a group is made for it.
        check_id(match_id, "id", "match")
        topic = ("match", match_id)
        feed = await self._enter(topic, lambda: EventFeed(self, topic))
        assert isinstance(feed, EventFeed)
        self._add(feed, viewer)
        try:
            await self.catch_up(feed, viewer, after)
        except BaseException:
            self.leave(viewer)
            raise

    async def follow(
        self,
        topic: Topic,
        source: Callable[[str], Snapshots],
        viewer: Viewer,
        version: int | None,
    ) -> None:
        """Send a viewer a topic's snapshot (what is newer than `version`), then each change.

        Raises NotFound for an unknown topic. Joining costs no read once a viewer of this
        process watches the topic: the feed's last snapshot is sent.
        """
        feed = await self._enter(topic, lambda: SnapshotFeed(self, topic, source))
        assert isinstance(feed, SnapshotFeed)
        # No await from here on: the next change the feed pushes is news to this viewer.
        for message in feed.parts_after(version):
            viewer.post(message)
        viewer.last, viewer.live = feed.cursor, True
        self._add(feed, viewer)

    def resend(self, viewer: Viewer) -> None:
        """Send a snapshot's viewer the whole of it again (its client asked), without a read."""
        feed = viewer.feed
        if isinstance(feed, SnapshotFeed) and not viewer.closed:
            for message in feed.parts_after(None):
                viewer.post(message)

    def _add(self, feed: Feed, viewer: Viewer) -> None:
        viewer.feed, viewer.on_close = feed, self.leave
        feed.viewers.add(viewer)

    def allowed(self, viewer: Viewer) -> bool:
        """Return whether a viewer's client may send one more message; close it if not."""
        if viewer.allowance.spend(self.loop.time()):
            return True
        watched = viewer.feed.topic if viewer.feed is not None else "a topic"
        logger.info("live: a viewer of %s sends too many messages; closed", watched)
        viewer.close(TOO_MANY_MESSAGES)
        return False

    def resume(self, viewer: Viewer, after: int) -> None:
        """Serve a viewer's resume in turn: at once, or merged into the one that waits."""
        feed = viewer.feed
        if isinstance(feed, EventFeed) and not viewer.closed and viewer.resumes.ask(after):
            self.spawn(self._serve_resumes(feed, viewer, after))

    async def _serve_resumes(self, feed: EventFeed, viewer: Viewer, after: int | None) -> None:
        """Serve a viewer's resume, then the one that waited meanwhile, until none waits."""
        try:
            while after is not None and not viewer.closed:
                try:
                    await self.catch_up(feed, viewer, after)
                except Refused as error:  # an `after` past the end: still live where it was
                    viewer.post(outgoing(error_message(error)))
                after = viewer.resumes.serve_waiting()
        except Exception:
            logger.exception("live: a resume of %s could not be served", feed.match_id)
            viewer.close(INTERNAL_ERROR)  # not live any more: its client reconnects
        finally:
            viewer.resumes.clear()

    async def catch_up(self, feed: EventFeed, viewer: Viewer, after: int) -> None:
        """Send the events after `after` from the store until the viewer meets the live push."""
        if after == feed.cursor:
            viewer.last, viewer.live = after, True  # the feed pushes the rest, in order
            return
        # Opened before the viewer leaves the live push: an `after` past the end is
        # refused with the viewer still live where it was.
        stream = await self.in_thread(self.catch_up_thread, Stream.open, feed.match_id, after)
        viewer.live, viewer.last = False, after
        while not viewer.closed:
            messages = await self.in_thread(self.catch_up_thread, stream.read, CHUNK)
            for seq, text in messages:
                viewer.send_event(seq, outgoing(text))
            await viewer.flushed()
            # No await from this test to going live: whatever the feed pushes next is new.
            if len(messages) < CHUNK and viewer.last >= feed.cursor:
                viewer.live = True
                return

    def leave(self, viewer: Viewer) -> None:
        """Forget a viewer (its socket closed, or it did not keep up)."""
        viewer.stop()
        feed = viewer.feed
        if feed is None:
            return
        feed.viewers.discard(viewer)
        self._forget_if_idle(feed)

    def _forget_if_idle(self, feed: Feed) -> None:
        if feed.viewers or feed.waiting or self.feeds.get(feed.topic) is not feed:
            return
        del self.feeds[feed.topic]
        self.spawn(self._retire(feed.topic))

    async def _retire(self, topic: Topic) -> None:
        """Leave a topic's group; stop the hub if nobody watches anything any more."""
        await self._leave_group(topic)
        if not self.feeds:
            await self.stop()

    # -- Changes -----------------------------------------------------------------------

    def heard(self, topic: Topic, position: int) -> None:
        """Catch a topic's feed up: it changed, up to `position` (told on the event loop)."""
        feed = self.feeds.get(topic)
        if feed is not None and feed.stale(position):
            self.spawn(feed.advance())  # while it opens: once open

    async def _keep_time(self) -> None:
        """Every second close viewers that do not keep up; every head period, catch up."""
        head_seconds = float(settings.LIVE_HEAD_SECONDS)
        next_head = self.loop.time() + head_seconds
        while True:
            await asyncio.sleep(min(CLOCK_SECONDS, head_seconds))
            now = self.loop.time()
            self._drop_laggards(now)
            if now >= next_head:
                next_head = now + head_seconds
                await self._tick()

    async def _tick(self) -> None:
        """Read every feed's topic again, then tell each match's viewers its head."""
        for feed in list(self.feeds.values()):
            if not feed.opened():
                continue
            await feed.advance()
            if isinstance(feed, EventFeed):
                head = outgoing(head_message(feed.cursor))
                for viewer in tuple(feed.viewers):
                    if viewer.live:
                        viewer.post(head)
        if self.layer is not None:
            # Group membership expires, and a restarted Redis has forgotten it.
            await self._join_all()
            _drop_strays(self.layer)

    def _drop_laggards(self, now: float) -> None:
        for feed in list(self.feeds.values()):
            for viewer in tuple(feed.viewers):
                if viewer.closed:
                    self.leave(viewer)
                elif viewer.stalled(now):
                    logger.info("live: a viewer of %s does not read; closed", feed.topic)
                    viewer.close(TOO_SLOW)

    # -- The channel layer: one notice per process -------------------------------------

    async def _listen(self) -> None:
        """Hear other processes' notices on this hub's channel."""
        assert self.layer is not None
        self.channel = await self.layer.new_channel() + CHANNEL_MARK
        await self._join_all()
        pause = RETRY_SECONDS[0]
        while True:
            try:
                message = await self.layer.receive(self.channel)
            except Exception as error:
                logger.warning("live: channel layer unreadable (%s); the clock catches up", error)
                await asyncio.sleep(pause)
                pause = min(pause * 2, RETRY_SECONDS[1])
                await self._join_all()
                continue
            pause = RETRY_SECONDS[0]
            heard = read_notice(message)
            if heard is not None:
                self.heard(*heard)

    async def _join(self, topic: Topic) -> None:
        if self.layer is None or not self.channel:
            return  # the listener joins every group once it has its channel
        try:
            await asyncio.wait_for(
                self.layer.group_add(group_of(topic), self.channel), LAYER_SECONDS
            )
        except Exception as error:
            logger.warning("live: cannot join %s's group (%s); the clock catches up", topic, error)

    async def _join_all(self) -> None:
        for topic in list(self.feeds):
            await self._join(topic)

    async def _leave_group(self, topic: Topic) -> None:
        if self.layer is None or not self.channel:
            return
        try:
            await asyncio.wait_for(
                self.layer.group_discard(group_of(topic), self.channel), LAYER_SECONDS
            )
        except Exception as error:  # it expires from the group anyway
            logger.info("live: cannot leave %s's group (%s)", topic, error)

    # -- Housekeeping --------------------------------------------------------------------

    async def in_thread(
        self, executor: ThreadPoolExecutor, read: Callable[..., T], *args: Any
    ) -> T:
        """Run a read of the store in one of the hub's threads."""
        return await self.loop.run_in_executor(executor, _with_connection, read, *args)

    def spawn(self, coroutine: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
        """Run a coroutine in the background, holding on to it until it ends."""
        task = self.loop.create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._ended)
        return task

    def _ended(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled():
            error = task.exception()
            # A refusal (an unknown match) is the waiting viewer's to answer.
            if error is not None and not isinstance(error, Refused):
                logger.error("live: a background task failed", exc_info=error)

    async def stop(self) -> None:
        """Stop the clock and the listener, let go of the layer and the threads."""
        with _hubs_lock:
            if _hubs.get(self.loop) is not self:
                return  # stopped already
            del _hubs[self.loop]
            _stopping.add(self)
        try:
            await self._let_go()
        finally:
            with _hubs_lock:
                _stopping.discard(self)
            self.stopped.set()

    async def _let_go(self) -> None:
        for task in (self._clock, self._listener):
            if task is not None:
                task.cancel()
        for topic in list(self.feeds):  # stopped with viewers still there
            await self._leave_group(topic)
        self.feeds.clear()
        # What is under way (a read, leaving a group) ends before its connections close.
        others = self._tasks - {asyncio.current_task()}
        if others:
            await asyncio.wait(others, timeout=LAYER_SECONDS)
        # The layer's connections on this loop are the layer's to keep (the next hub's, the
        # standings sockets'): channels_redis closes them when the loop closes. But it keeps
        # the buffer of a channel whose receive was cancelled while reading Redis, and of a
        # stopped hub's channel that a late notice reached: dropped here.
        if self.layer is not None:
            _drop_strays(self.layer)
        for executor in (self.feed_thread, self.catch_up_thread, self.snapshot_thread):
            executor.submit(connections.close_all)
            executor.shutdown(wait=False)


def _drop_strays(layer: BaseChannelLayer) -> None:
    """Drop the layer's buffers of hub channels that no running hub listens on.

    Every hub of the process shares the layer, so one Redis list: a notice to a stopped
    hub's channel (a commit's, sent as the hub stopped; a group it was still in) is read by
    the next hub's receive and kept in a buffer of its own, with nobody to read it.
    """
    buffers = getattr(layer, "receive_buffer", None)
    if not isinstance(buffers, dict):
        return
    with _hubs_lock:
        listening = {hub.channel for hub in _hubs.values() if hub.layer is layer}
    for channel in list(buffers):
        if channel.endswith(CHANNEL_MARK) and channel not in listening:
            buffers.pop(channel, None)


def _with_connection(read: Callable[..., T], *args: Any) -> T:
    """Run a read on the thread's own connection, kept open while the hub lives.

    Opening one per read (CONN_MAX_AGE=0) would cost each push more than the read
    itself; a connection that failed is dropped, and the next read opens another.
    """
    try:
        return read(*args)
    except DatabaseError:
        connections.close_all()
        raise


def hubs_of(loop: asyncio.AbstractEventLoop) -> list[Hub]:
    """Return an event loop's hubs: the running one, and any stopped one still letting go."""
    with _hubs_lock:
        return [
            hub for hub in (_hubs.get(loop), *_stopping) if hub is not None and hub.loop is loop
        ]


async def stop_hubs_here() -> None:
    """Stop the running loop's hubs, and wait until they let go (tests; a server stopping)."""
    for hub in hubs_of(asyncio.get_running_loop()):
        for feed in list(hub.feeds.values()):
            for viewer in tuple(feed.viewers):
                viewer.stop()
        await hub.stop()
        await hub.stopped.wait()

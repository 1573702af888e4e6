// The live feeds: a match's events applied once and in order, a gap asked for again, a
// dropped socket opened again with a longer wait each time, a 4404 the end.

import "./globals.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import { connectLive, feedReader, liveUrl } from "../../replay/static/replay/live.js";
import { reconnecting, FIRST_DELAY, LONGEST_DELAY } from "../../replay/static/replay/socket.js";
import { standingsUrl } from "../../replay/static/replay/standings.js";

const location = { protocol: "http:", host: "example.test:8000" };

/** A stand-in server's side: each socket opened, what it was sent, and the timers asked for. */
function fakeNetwork() {
  const sockets = [];
  const timers = [];
  class FakeSocket {
    static OPEN = 1;

    constructor(url) {
      this.url = url;
      this.sent = [];
      this.readyState = 0;
      this.listeners = {};
      sockets.push(this);
    }

    addEventListener(type, listener) {
      (this.listeners[type] ||= []).push(listener);
    }

    fire(type, event) {
      for (const listener of this.listeners[type] || []) listener(event);
    }

    send(text) {
      this.sent.push(JSON.parse(text));
    }

    close() {
      this.drop(1000);
    }

    open() {
      this.readyState = 1;
      this.fire("open", {});
    }

    push(message) {
      this.fire("message", { data: typeof message === "string" ? message : JSON.stringify(message) });
    }

    drop(code = 1006) {
      this.readyState = 3;
      this.fire("close", { code });
    }
  }
  return {
    sockets,
    timers,
    options: {
      location,
      WebSocketClass: FakeSocket,
      setTimer: (callback, delay) => timers.push({ callback, delay }) - 1,
      clearTimer: (index) => {
        timers[index].cleared = true;
      },
    },
    last: () => sockets[sockets.length - 1],
    fireTimer() {
      const timer = timers.find((entry) => !entry.fired && !entry.cleared);
      timer.fired = true;
      timer.callback();
    },
  };
}

const event = (seq) => ({ type: "event", seq, event: {}, state: {} });

test("the feed's address is the match's, after the last seq shown, on the page's scheme", () => {
  assert.equal(liveUrl("cup 1/a", 4, location), "ws://example.test:8000/ws/matches/cup%201%2Fa/?after=4");
  assert.equal(liveUrl("m", 0, { protocol: "https:", host: "h" }), "wss://h/ws/matches/m/?after=0");
  assert.equal(standingsUrl("open-2026", location), "ws://example.test:8000/ws/competitions/open-2026/");
  assert.equal(
    standingsUrl("open-2026", location, 41),
    "ws://example.test:8000/ws/competitions/open-2026/?version=41",
  );
});

test("each seq is applied once and in order, a duplicate or an old one ignored", () => {
  const applied = [];
  const reader = feedReader({ after: 2, onEvent: (m) => applied.push(m.seq), resume: () => true });
  for (const seq of [1, 2, 3, 3, 4, 2, 5]) reader.handle(event(seq));
  assert.deepEqual(applied, [3, 4, 5]);
  assert.equal(reader.last(), 5);
});

test("a gap asks for the range again once, from the last seq applied, and fills in order", () => {
  const applied = [];
  const asked = [];
  const reader = feedReader({ after: 2, onEvent: (m) => applied.push(m.seq), resume: (from) => asked.push(from) });
  for (const seq of [3, 5, 6, 7]) reader.handle(event(seq)); // 4 was lost
  assert.deepEqual(applied, [3]);
  assert.deepEqual(asked, [3], "one resume for the gap, not one per message after it");
  for (const seq of [4, 5, 6, 7]) reader.handle(event(seq));
  assert.deepEqual(applied, [3, 4, 5, 6, 7]);
});

test("a head beyond the last seq asks again, even after a resume that got no answer", () => {
  const asked = [];
  const heads = [];
  const reader = feedReader({ after: 5, onHead: (seq) => heads.push(seq), resume: (from) => asked.push(from) });
  reader.handle({ type: "head", seq: 5 });
  assert.deepEqual(asked, [], "nothing is missing");
  reader.handle(event(7));
  reader.handle({ type: "head", seq: 7 });
  reader.handle({ type: "head", seq: 7 });
  assert.deepEqual(asked, [5, 5, 5]);
  assert.deepEqual(heads, [5, 7, 7]);
});

test("a resume that could not be sent is asked again at the next gap", () => {
  let up = false;
  const asked = [];
  const reader = feedReader({ after: 0, resume: (from) => up && asked.push(from) });
  reader.handle(event(2));
  up = true;
  reader.handle(event(3));
  assert.deepEqual(asked, [0]);
});

test("connectLive follows over the socket: resumes on it, reopens from the last seq, tells its status", () => {
  const network = fakeNetwork();
  const applied = [];
  const statuses = [];
  const feed = connectLive("cup-1", {
    after: 2, onEvent: (m) => applied.push(m.seq), onStatus: (s) => statuses.push(s), ...network.options,
  });
  const first = network.last();
  assert.equal(first.url, "ws://example.test:8000/ws/matches/cup-1/?after=2");
  first.open();
  first.push(event(3));
  first.push("not JSON"); // skipped, not thrown
  first.push(event(5));
  assert.deepEqual(first.sent, [{ type: "resume", after: 3 }]);
  first.push(event(4));
  first.push(event(5));
  assert.deepEqual(applied, [3, 4, 5]);

  first.drop();
  assert.deepEqual(statuses, ["live", "reconnecting"]);
  assert.equal(network.timers[0].delay, FIRST_DELAY);
  network.fireTimer();
  const second = network.last();
  assert.equal(second.url, "ws://example.test:8000/ws/matches/cup-1/?after=5");
  second.open();
  second.push(event(7)); // a gap on the new socket is asked for there
  assert.deepEqual(second.sent, [{ type: "resume", after: 5 }]);
  assert.deepEqual(statuses, ["live", "reconnecting", "live"]);

  feed.close();
  assert.deepEqual(statuses.at(-1), "closed");
  assert.equal(network.sockets.length, 2, "a feed closed on purpose is not opened again");
});

test("a dropped socket waits 1 s, 2 s, 4 s, ... at most 10 s, and 1 s again once it opened", () => {
  const network = fakeNetwork();
  reconnecting(() => "ws://h/x", network.options);
  for (let i = 0; i < 6; i += 1) {
    network.last().drop();
    network.fireTimer();
  }
  assert.deepEqual(network.timers.map((t) => t.delay), [1000, 2000, 4000, 8000, LONGEST_DELAY, LONGEST_DELAY]);
  network.last().open();
  network.last().drop();
  assert.equal(network.timers.at(-1).delay, FIRST_DELAY);
});

test("a socket refused for a bound (4429, 1013) waits longer each time, though it opened", () => {
  const network = fakeNetwork();
  reconnecting(() => "ws://h/x", network.options);
  for (const code of [4429, 1013, 4429, 1013, 4429, 4429]) {
    network.last().open();
    network.last().drop(code);
    network.fireTimer();
  }
  assert.deepEqual(network.timers.map((t) => t.delay), [1000, 2000, 4000, 8000, LONGEST_DELAY, LONGEST_DELAY]);
  network.last().open();
  network.last().drop();
  assert.equal(network.timers.at(-1).delay, FIRST_DELAY);
});

test("a close with 4404 ends the feed: nothing to follow, no reopening", () => {
  const network = fakeNetwork();
  const statuses = [];
  reconnecting(() => "ws://h/x", { ...network.options, onStatus: (s) => statuses.push(s) });
  network.last().drop(4404);
  assert.deepEqual(statuses, ["closed"]);
  assert.equal(network.timers.length, 0);
});

test("closing while a reopening waits cancels it", () => {
  const network = fakeNetwork();
  const socket = reconnecting(() => "ws://h/x", network.options);
  network.last().drop();
  socket.close();
  assert.equal(network.timers[0].cleared, true);
  assert.equal(socket.send("{}"), false);
});

test("a void notice reaches the page as such, never as an event or a gap", () => {
  const voids = [];
  const asked = [];
  const applied = [];
  const reader = feedReader({
    after: 5,
    onEvent: (m) => applied.push(m.seq),
    onVoid: (m) => voids.push(m.replacement),
    resume: (from) => asked.push(from),
  });
  reader.handle({ type: "void", match: "euro-ko-1-1", replacement: { id: "euro-ko-1-1-r2" } });
  assert.deepEqual(voids, [{ id: "euro-ko-1-1-r2" }]);
  assert.deepEqual(applied, []);
  assert.deepEqual(asked, []);
});

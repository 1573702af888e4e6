// The console's queue: submissions kept until the server has them, sent in order, one at
// a time, retried with the same key, paused by a conflict or a refusal.

import "./globals.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import { SubmissionQueue, storageKeyOf } from "../../replay/static/replay/queue.js";

function memoryStorage() {
  const kept = new Map();
  return {
    kept,
    getItem: (key) => (kept.has(key) ? kept.get(key) : null),
    setItem: (key, value) => kept.set(key, String(value)),
  };
}

/** A queue whose sends wait for the test to answer them: `answer(reply)` settles the oldest. */
function queueWith({ storage = memoryStorage(), now = () => Date.parse("2026-05-01T10:00:00Z") } = {}) {
  const sends = [];
  const timers = [];
  const recorded = [];
  const queue = new SubmissionQueue({
    storage, storageKey: storageKeyOf("cup-1"), now,
    send: (item, body) => new Promise((resolve, reject) => sends.push({ item, body, resolve, reject })),
    onRecorded: (item) => recorded.push(item.key),
    setTimer: (callback, delay) => timers.push({ callback, delay }),
    clearTimer: () => {},
  });
  const settle = async () => {
    for (let i = 0; i < 5; i += 1) await Promise.resolve();
  };
  return {
    queue, sends, timers, recorded, storage,
    async answer(status, body = {}, retryAfter = null) {
      sends.find((s) => !s.done).done = true;
      sends.filter((s) => s.done).at(-1).resolve({ status, body, retryAfter });
      await settle();
    },
    async unreachable() {
      const send = sends.find((s) => !s.done);
      send.done = true;
      send.reject(new Error("offline"));
      await settle();
    },
  };
}

const shot = (player) => ({ type: "shot", player, contacts: [] });

test("submissions are sent one at a time, in order, each expecting the seq after the one before", async () => {
  const q = queueWith();
  const first = q.queue.add(shot("A"), { head: 7 });
  const second = q.queue.add(shot("B"), { head: 7 });
  assert.equal(q.sends.length, 1, "the second waits for the first's answer");
  assert.deepEqual(q.sends[0].body, { expected_seq: 7, event: shot("A") });
  await q.answer(201, { seq: 7, at: "2026-05-01T10:00:00Z" });
  assert.equal(q.sends.length, 2);
  assert.deepEqual(q.sends[1].body.expected_seq, 8);
  await q.answer(201, { seq: 8 });
  assert.deepEqual(q.recorded, [first.key, second.key]);
  assert.equal(q.queue.length, 0);
});

test("the queue survives a reload: what waits is read back from storage", () => {
  const storage = memoryStorage();
  const q = queueWith({ storage });
  q.queue.add(shot("A"), { head: 3 });
  const again = queueWith({ storage });
  assert.equal(again.queue.length, 1);
  assert.equal(again.queue.items[0].expected_seq, 3);
});

test("a network failure retries the same key and body after 1 s, 2 s, 4 s ...", async () => {
  const q = queueWith();
  const item = q.queue.add(shot("A"), { head: 1 });
  await q.unreachable();
  assert.equal(q.timers.at(-1).delay, 1000);
  q.timers.at(-1).callback();
  await q.unreachable();
  assert.equal(q.timers.at(-1).delay, 2000);
  q.timers.at(-1).callback();
  assert.equal(q.sends.length, 3);
  assert.ok(q.sends.every((s) => s.item.key === item.key));
  assert.deepEqual(q.sends[2].body, q.sends[0].body);
});

test("a 503 waits the Retry-After it gives, at most 60 s", async () => {
  const q = queueWith();
  q.queue.add(shot("A"), { head: 1 });
  await q.answer(503, {}, 5);
  assert.equal(q.timers.at(-1).delay, 5000);
  q.timers.at(-1).callback();
  await q.answer(429, {}, 600);
  assert.equal(q.timers.at(-1).delay, 60000);
});

test("a 409 pauses the queue until the referee resends after the new head", async () => {
  const q = queueWith();
  const first = q.queue.add(shot("A"), { head: 4 });
  q.queue.add(shot("B"), { head: 4 });
  await q.answer(409, { error: "expected seq 4, head is 6", seq: 6 });
  assert.deepEqual(q.queue.paused, {
    reason: "conflict", key: first.key, status: 409, error: "expected seq 4, head is 6", field: null, seq: 6,
  });
  assert.equal(q.sends.length, 1, "nothing is sent while paused");
  q.queue.resend(first.key, 6);
  assert.deepEqual(q.queue.items.map((i) => i.expected_seq), [6, 7]);
  assert.equal(q.sends.at(-1).item.key, first.key, "the same key: the 409 stored nothing under it");
});

test("a refusal or a lost login pauses; dropping an item moves the next ones a seq back", async () => {
  const q = queueWith();
  const first = q.queue.add(shot("A"), { head: 1 });
  q.queue.add(shot("B"), { head: 1 });
  await q.answer(422, { error: "no such ball", field: "event.contacts" });
  assert.equal(q.queue.paused.reason, "refused");
  assert.equal(q.queue.paused.field, "event.contacts");
  q.queue.drop(first.key);
  assert.equal(q.queue.paused, null);
  assert.deepEqual(q.queue.items.map((i) => i.expected_seq), [1]);
  await q.answer(403, {});
  assert.equal(q.queue.paused.reason, "login");
});

test("a submission that waited carries when it was confirmed; the server's stamp refused, it goes without", async () => {
  let clock = Date.parse("2026-05-01T10:00:00Z");
  const q = queueWith({ now: () => clock });
  q.queue.add(shot("A"), { head: 1 });
  await q.unreachable();
  clock += 30000;
  q.timers.at(-1).callback();
  assert.equal(q.sends[1].body.event.confirmed_at, "2026-05-01T10:00:00.000Z");
  await q.answer(422, { error: "confirmed_at too early", field: "confirmed_at" });
  assert.equal("confirmed_at" in q.sends[2].body.event, false);
});

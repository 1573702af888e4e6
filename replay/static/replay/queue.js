// The console's submissions, kept in the browser until the server has them.
//
// Every submission is an event with the seq it expects to follow and an idempotency
// key made once, when the referee confirms it, and kept with it: a resend after a
// timeout carries the same key and body, so the server answers the first answer again
// and never records twice. The queue is saved after every change (localStorage: it
// survives a reload and a browser restart) and sent in order, one at a time. A network
// failure waits 1 s, 2 s, 4 s, ... at most 15 s and tries again; a 409 (another console
// recorded first) or a refusal pauses the queue until the referee resends or drops.

const DELAYS = [1000, 2000, 4000, 8000, 15000];

/** Return a new idempotency key: 32 random hex digits (plain HTTP has no randomUUID). */
export function newKey() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Return the localStorage key of a match's queue. */
export function storageKeyOf(matchId) {
  return `carambole.console.queue.${matchId}`;
}

/**
 * A match's waiting submissions, sent in order.
 *
 * send(item) → Promise<{status, body}>, rejecting when the server was not reached;
 * onChange(queue) after any change; onRecorded(item, body) after each 201.
 * paused: null, or {reason: "conflict" | "refused" | "login", key, status, error, seq}.
 */
export class SubmissionQueue {
  constructor({ storage, storageKey, send, onChange, onRecorded, delays = DELAYS,
    setTimer = setTimeout, clearTimer = clearTimeout }) {
    this.storage = storage;
    this.storageKey = storageKey;
    this.send = send;
    this.onChange = onChange || (() => {});
    this.onRecorded = onRecorded || (() => {});
    this.delays = delays;
    // Called bare: the browser's setTimeout refuses any other `this` than the window.
    this.setTimer = (callback, delay) => setTimer(callback, delay);
    this.clearTimer = (timer) => clearTimer(timer);
    this.sending = false;
    this.failures = 0; // network failures in a row: 0 while the server answers
    this.timer = null;
    const saved = this.load();
    this.items = saved.items;
    this.paused = saved.paused;
  }

  load() {
    try {
      const saved = JSON.parse(this.storage.getItem(this.storageKey) || "null");
      if (saved && Array.isArray(saved.items)) return { items: saved.items, paused: saved.paused || null };
    } catch {
      // An unreadable queue is no queue: nothing can be sent from it anyway.
    }
    return { items: [], paused: null };
  }

  save() {
    this.storage.setItem(this.storageKey, JSON.stringify({ items: this.items, paused: this.paused }));
    this.onChange(this);
  }

  get length() {
    return this.items.length;
  }

  /** Return the seq the next submission expects: after the last waiting one, else `head`. */
  nextExpected(head) {
    const last = this.items[this.items.length - 1];
    return last ? last.expected_seq + 1 : head;
  }

  /** Keep an event to send after the match's `head` (and after what waits); send it. */
  add(event, { head, label = "" } = {}) {
    const item = {
      key: newKey(), expected_seq: this.nextExpected(head), event, label,
      created_at: new Date().toISOString(),
    };
    this.items.push(item);
    this.save();
    this.flush();
    return item;
  }

  /** Send what waits now, unless paused or already sending. */
  flush() {
    if (this.timer) {
      this.clearTimer(this.timer);
      this.timer = null;
    }
    if (this.sending || this.paused || !this.items.length) return;
    this.sendFirst();
  }

  async sendFirst() {
    const item = this.items[0];
    this.sending = true;
    this.onChange(this);
    let answer;
    try {
      answer = await this.send(item);
    } catch {
      answer = null;
    }
    this.sending = false;
    if (this.items[0] !== item) {
      // Dropped while it was on its way: the answer no longer decides anything here.
      this.onChange(this);
      this.flush();
      return;
    }
    if (!answer || answer.status >= 500 || answer.status === 429) {
      this.retryLater();
      return;
    }
    this.failures = 0;
    const body = answer.body || {};
    if (answer.status === 201 || answer.status === 200) {
      this.items.shift();
      this.save();
      this.onRecorded(item, body);
      this.flush();
      return;
    }
    const reason = answer.status === 409 ? "conflict"
      : answer.status === 401 || answer.status === 403 ? "login" : "refused";
    this.paused = {
      reason, key: item.key, status: answer.status, error: body.error || "",
      field: body.field || null, seq: typeof body.seq === "number" ? body.seq : null,
    };
    this.save();
  }

  retryLater() {
    const delay = this.delays[Math.min(this.failures, this.delays.length - 1)];
    this.failures += 1;
    this.onChange(this);
    this.timer = this.setTimer(() => {
      this.timer = null;
      this.flush();
    }, delay);
  }

  /** Send the first waiting item again after `seq`, the others after it in turn; resume. */
  resend(key, seq) {
    const index = this.items.findIndex((item) => item.key === key);
    if (index !== 0) return;
    const shift = seq - this.items[0].expected_seq;
    // The same key: a 409 stored nothing under it, so the new body is its first.
    for (const item of this.items) item.expected_seq += shift;
    this.paused = null;
    this.save();
    this.flush();
  }

  /** Drop a waiting item; the ones after it expect one seq less. */
  drop(key) {
    const index = this.items.findIndex((item) => item.key === key);
    if (index < 0) return;
    this.items.splice(index, 1);
    for (const item of this.items.slice(index)) item.expected_seq -= 1;
    if (this.paused && this.paused.key === key) this.paused = null;
    this.save();
    this.flush();
  }

  /** Try again after a pause whose cause is gone (a new login). */
  resume() {
    this.paused = null;
    this.save();
    this.flush();
  }
}

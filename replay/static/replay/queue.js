// The console's submissions, kept in the browser until the server has them.
//
// Every submission is an event with the seq it expects to follow and an idempotency
// key made once, when the referee confirms it, and kept with it: a resend after a
// timeout carries the same key and body, so the server answers the first answer again
// and never records twice. The queue is saved after every change (localStorage: it
// survives a reload and a browser restart) and sent in order, one at a time. A network
// failure waits 1 s, 2 s, 4 s, ... at most 15 s and tries again; so does a server that
// answers but cannot record now (a 5xx: its database out of reach, a 503; a 429), waiting
// the Retry-After it gives instead (at most 60 s), and resending the same key and body. A
// 409 (another console recorded first) or a refusal pauses the queue until the referee
// resends or drops.
//
// A submission that waited keeps the time it was confirmed: sent more than STAMP_AFTER_MS
// after the Confirm (offline, retried, behind others), its event carries `confirmed_at`,
// on the server's clock as this browser last measured it (from the `at` of an answer, which
// errs early by the answer's trip: never after the server's own `at`). Sent sooner, the
// server's `at` is the time near enough and the event is as it always was. If the server
// refuses the stamp (a clock that jumped) or says the key went with the unstamped body (a
// first try that arrived though its answer was lost), the event goes again without it.

const DELAYS = [1000, 2000, 4000, 8000, 15000];
const LONGEST_RETRY_AFTER_MS = 60000; // a server's Retry-After beyond this is not waited out
const STAMP_AFTER_MS = 2000;
const CLOCK_KEY = "carambole.clock-offset"; // shared by every match's queue in this browser
const UNSTAMPED_WHEN = ["confirmed_at", "Idempotency-Key"]; // the field of a 422 that says so

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
 * send(item, body) → Promise<{status, body, retryAfter}>, rejecting when the server was
 * not reached (retryAfter: the seconds of a Retry-After header, else null);
 * body is what to POST: {expected_seq, event}. onChange(queue) after any change;
 * onRecorded(item, body) after each 201.
 * paused: null, or {reason: "conflict" | "refused" | "login", key, status, error, seq}.
 */
export class SubmissionQueue {
  constructor({ storage, storageKey, send, onChange, onRecorded, delays = DELAYS,
    setTimer = setTimeout, clearTimer = clearTimeout, now = () => Date.now() }) {
    this.now = now;
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
    // ms from this browser's clock to the server's (short, never long): measured by any
    // match's queue, kept for all of them, so a match's first stamp is on the server's clock.
    this.offset = this.loadOffset(saved.offset);
  }

  load() {
    try {
      const saved = JSON.parse(this.storage.getItem(this.storageKey) || "null");
      if (saved && Array.isArray(saved.items)) {
        const offset = Number.isFinite(saved.offset) ? saved.offset : 0;
        return { items: saved.items, paused: saved.paused || null, offset };
      }
    } catch {
      // An unreadable queue is no queue: nothing can be sent from it anyway.
    }
    return { items: [], paused: null, offset: 0 };
  }

  loadOffset(fallback) {
    const kept = Number(this.storage.getItem(CLOCK_KEY));
    return this.storage.getItem(CLOCK_KEY) !== null && Number.isFinite(kept) ? kept : fallback;
  }

  save() {
    const saved = { items: this.items, paused: this.paused, offset: this.offset };
    this.storage.setItem(this.storageKey, JSON.stringify(saved));
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
    const now = this.now();
    const item = {
      key: newKey(), expected_seq: this.nextExpected(head), event, label,
      created_at: new Date(now).toISOString(),
      confirmed_at: new Date(now + this.offset).toISOString(), tries: 0,
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

  /** Return what an item sends now: its event, stamped once it has waited (see above). */
  bodyOf(item) {
    const waited = this.now() - Date.parse(item.created_at) > STAMP_AFTER_MS;
    const stamped = Boolean(item.confirmed_at) && (item.stamped ?? waited);
    const event = stamped ? { ...item.event, confirmed_at: item.confirmed_at } : item.event;
    return { expected_seq: item.expected_seq, event };
  }

  async sendFirst() {
    const item = this.items[0];
    this.sending = true;
    const sent = this.bodyOf(item);
    // Once sent stamped, always: a resend must be the same body, or its key is refused.
    if ("confirmed_at" in sent.event) item.stamped = true;
    item.tries = (item.tries || 0) + 1;
    this.save();
    let answer;
    try {
      answer = await this.send(item, sent);
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
      this.retryLater(answer ? answer.retryAfter : null);
      return;
    }
    this.failures = 0;
    const body = answer.body || {};
    if (answer.status === 201 || answer.status === 200) {
      // Only a first try's answer: a resend may be answered the first answer, `at` and all.
      const at = Date.parse(body.at);
      if (item.tries === 1 && Number.isFinite(at)) {
        this.offset = at - this.now();
        this.storage.setItem(CLOCK_KEY, String(this.offset));
      }
      this.items.shift();
      this.save();
      this.onRecorded(item, body);
      this.flush();
      return;
    }
    if (answer.status === 422 && item.stamped && UNSTAMPED_WHEN.includes(body.field)) {
      item.stamped = false;
      this.save();
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

  /** Send again later: after `retryAfter` seconds when the server said so, else backing off. */
  retryLater(retryAfter = null) {
    const asked = Number.isFinite(retryAfter) && retryAfter >= 0;
    const delay = asked ? Math.min(retryAfter * 1000, LONGEST_RETRY_AFTER_MS)
      : this.delays[Math.min(this.failures, this.delays.length - 1)];
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

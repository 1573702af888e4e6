// A shot as the referee taps it: the contacts in order, the called fouls, where balls stopped.
//
// Each tap names what the moving ball hit: another ball, a pin, a cushion, or off the
// table. The moving ball starts as the cue ball; a ball that is hit becomes the moving
// one (the ricochet and the pins after it take no extra tap); tapping the moving-ball
// chips picks another ball that is already moving (the cue ball again, for a kiss).

import { constants } from "./constants.js";
import { geometry } from "./table.js";

/** Return the fouls the referee calls, in the rulebook's order (matches/domain/rules/shot.py's). */
export function calledFouls() {
  return constants().called_fouls;
}

/** A shot being built; `facts()` is what the notation calls shot facts. */
export class ShotDraft {
  constructor(own) {
    this.own = own;
    this.clear();
  }

  clear() {
    this.history = []; // each tap's undo: the draft as it was before it
    this.empty();
  }

  /** Take every tap away; Undo brings them back. Return whether there was one. */
  clearTaps() {
    if (this.isEmpty()) return false;
    this.remember();
    this.empty();
    return true;
  }

  empty() {
    this.struck = this.own;
    this.contacts = [];
    this.called = [];
    this.rest = {};
    this.sameTime = false;
    this.actor = this.own;
  }

  /**
   * Load recorded facts (an amendment starts from the shot as it stands), as if tapped:
   * Undo takes them back one tap at a time, the latest first, as in a new shot.
   */
  load(facts) {
    this.clear();
    const struck = facts.struck || this.own;
    const contacts = (facts.contacts || []).map((contact) => ({ ...contact }));
    const called = [...(facts.called || [])];
    const rest = { ...(facts.rest || {}) };
    const taps = []; // the draft before each tap, in the order tapped
    const before = (fields) => taps.push({
      struck, contacts: [], called: [], rest: {}, sameTime: false, actor: struck, ...fields,
    });
    if (struck !== this.own) before({ struck: this.own, actor: this.own });
    contacts.forEach((contact, index) => {
      const done = contacts.slice(0, index);
      if (contact.same_time && index) before({ contacts: done, actor: contact.ball });
      const sameTime = Boolean(contact.same_time && index);
      const pins = contact.hit === "pins" ? contact.pins : [null];
      pins.forEach((pin, count) => {
        const partial = count ? [...done, { ...contact, pins: pins.slice(0, count) }] : done;
        before({ contacts: partial, actor: contact.ball, sameTime: sameTime && !count });
      });
    });
    const last = { contacts, actor: null };
    called.forEach((code, index) => before({ ...last, called: called.slice(0, index) }));
    Object.keys(rest).forEach((ball, index) => before({
      ...last, called, rest: Object.fromEntries(Object.entries(rest).slice(0, index)),
    }));
    Object.assign(this, { struck, contacts, called, rest });
    this.actor = this.movingBalls().filter((ball) => !this.offBalls().has(ball)).pop() || this.struck;
    this.history = taps.map((fields) => JSON.stringify(
      fields.actor === null ? { ...fields, actor: this.actor } : fields,
    ));
  }

  snapshot() {
    return JSON.stringify({
      struck: this.struck, contacts: this.contacts, called: this.called, rest: this.rest,
      sameTime: this.sameTime, actor: this.actor,
    });
  }

  remember() {
    this.history.push(this.snapshot());
  }

  /** Undo the latest tap; return whether there was one. */
  undo() {
    const previous = this.history.pop();
    if (!previous) return false;
    Object.assign(this, JSON.parse(previous));
    return true;
  }

  /** Return the balls moving so far: the struck one and every ball something hit. */
  movingBalls() {
    const moving = [this.struck];
    for (const contact of this.contacts) {
      for (const ball of [contact.ball, contact.hit]) {
        if (geometry().balls.includes(ball) && !moving.includes(ball)) moving.push(ball);
      }
    }
    return moving;
  }

  /** Return the balls that left the table. */
  offBalls() {
    return new Set(this.contacts.filter((c) => c.hit === "off").map((c) => c.ball));
  }

  /** Return the pins already down (a pin falls once). */
  fallenPins() {
    return new Set(this.contacts.flatMap((c) => (c.hit === "pins" ? c.pins : [])));
  }

  setStruck(ball) {
    if (this.contacts.length) return; // the struck ball opens the shot
    this.remember();
    this.struck = ball;
    this.actor = ball;
  }

  setActor(ball) {
    if (!this.movingBalls().includes(ball) || this.offBalls().has(ball)) return false;
    this.remember();
    this.actor = ball;
    return true;
  }

  toggleSameTime() {
    if (!this.contacts.length) return;
    this.remember();
    this.sameTime = !this.sameTime;
  }

  push(contact) {
    if (this.sameTime) contact.same_time = true;
    this.sameTime = false;
    this.contacts.push(contact);
  }

  /** The moving ball hit another ball; that ball moves on. */
  hitBall(ball) {
    if (ball === this.actor || this.offBalls().has(this.actor)) return false;
    this.remember();
    this.push({ ball: this.actor, hit: ball });
    this.actor = ball;
    return true;
  }

  /** The moving ball knocked a pin; a pin knocked with the previous one joins that contact. */
  hitPin(pin) {
    if (this.fallenPins().has(pin) || this.offBalls().has(this.actor)) return false;
    this.remember();
    const last = this.contacts[this.contacts.length - 1];
    if (last && last.hit === "pins" && last.ball === this.actor && !this.sameTime) {
      last.pins.push(pin);
    } else {
      this.push({ ball: this.actor, hit: "pins", pins: [pin] });
    }
    return true;
  }

  hitCushion() {
    if (this.offBalls().has(this.actor)) return false;
    this.remember();
    this.push({ ball: this.actor, hit: "cushion" });
    return true;
  }

  /** The moving ball left the table: the cue ball (or another moving one) moves on. */
  leftTable() {
    if (this.offBalls().has(this.actor)) return false;
    this.remember();
    this.push({ ball: this.actor, hit: "off" });
    const still = this.movingBalls().filter((ball) => !this.offBalls().has(ball));
    this.actor = still.includes(this.struck) ? this.struck : still[0] || this.actor;
    return true;
  }

  toggleCalled(code) {
    this.remember();
    this.called = this.called.includes(code)
      ? this.called.filter((c) => c !== code)
      : calledFouls().filter((c) => c === code || this.called.includes(c));
  }

  setRest(ball, point) {
    this.remember();
    if (point) this.rest[ball] = point;
    else delete this.rest[ball];
  }

  isEmpty() {
    return !this.contacts.length && !this.called.length && !Object.keys(this.rest).length
      && this.struck === this.own;
  }

  /** Return the shot facts of the notation (struck only when it is not the own ball). */
  facts() {
    const facts = { contacts: this.contacts.map((contact) => ({ ...contact })) };
    if (this.struck !== this.own) facts.struck = this.struck;
    if (this.called.length) facts.called = [...this.called];
    if (Object.keys(this.rest).length) facts.rest = { ...this.rest };
    return facts;
  }
}

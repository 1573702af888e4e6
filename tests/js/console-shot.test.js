// A shot as the referee taps it: an amendment's recorded facts are taken back tap by tap.

import "./globals.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import { ShotDraft } from "../../replay/static/replay/console-shot.js";

const RECORDED = {
  struck: "yellow",
  contacts: [
    { ball: "yellow", hit: "white" },
    { ball: "white", hit: "red", same_time: true },
    { ball: "red", hit: "pins", pins: ["left", "center"] },
  ],
  called: ["feet"],
  rest: { white: [300, 500] },
};

/** Return the facts after each Undo, until there is none left to take back. */
function undoneOneByOne(draft) {
  const seen = [];
  while (draft.undo()) seen.push(draft.facts());
  return seen;
}

test("an amendment's facts are undone one tap at a time, the latest first", () => {
  const draft = new ShotDraft("white");
  draft.load(RECORDED);
  assert.deepEqual(draft.facts(), RECORDED);
  const [first, second] = RECORDED.contacts;

  assert.deepEqual(undoneOneByOne(draft), [
    { struck: "yellow", contacts: RECORDED.contacts, called: ["feet"] }, // the rest
    { struck: "yellow", contacts: RECORDED.contacts }, // the called foul
    { struck: "yellow", contacts: [first, second, { ball: "red", hit: "pins", pins: ["left"] }] },
    { struck: "yellow", contacts: [first, second] }, // the left pin
    { struck: "yellow", contacts: [first] }, // the red, at the same time
    { struck: "yellow", contacts: [first] }, // "at the same time" itself
    { struck: "yellow", contacts: [] }, // the white
    { contacts: [] }, // the wrong ball struck
  ]);
});

test("undoing an amendment's last pin lets the pin be tapped again as it was", () => {
  const draft = new ShotDraft("white");
  draft.load({ contacts: [{ ball: "white", hit: "pins", pins: ["top"] }] });

  draft.undo();

  assert.equal(draft.actor, "white");
  assert.equal(draft.hitPin("top"), true);
  assert.deepEqual(draft.facts(), { contacts: [{ ball: "white", hit: "pins", pins: ["top"] }] });
});

test("after undoing the simultaneous contact, at the same time is on again", () => {
  const draft = new ShotDraft("white");
  draft.load({
    contacts: [{ ball: "white", hit: "yellow" }, { ball: "white", hit: "red", same_time: true }],
  });

  draft.undo();

  assert.equal(draft.sameTime, true);
  assert.equal(draft.actor, "white");
  draft.undo();
  assert.equal(draft.sameTime, false);
});

test("Clear takes every tap away and Undo brings them back", () => {
  const draft = new ShotDraft("white");
  draft.hitBall("yellow");
  draft.hitBall("red");

  assert.equal(draft.clearTaps(), true);
  assert.deepEqual(draft.facts(), { contacts: [] });
  assert.equal(draft.clearTaps(), false); // nothing left to clear
  draft.undo();
  assert.deepEqual(draft.facts().contacts, [
    { ball: "white", hit: "yellow" },
    { ball: "yellow", hit: "red" },
  ]);
});

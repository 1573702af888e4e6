// The bracket's drawing: the line from a match to the one its winner goes on to, and which
// round a phone's strip of rounds shows.

import "./globals.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import { joiningPath, roundShown } from "../../replay/static/replay/bracket.js";

test("a line leaves a match's right edge at its middle and meets the next match's left edge", () => {
  const from = { left: 0, right: 200, top: 100, bottom: 160 };
  const to = { left: 240, right: 440, top: 40, bottom: 100 };
  assert.equal(joiningPath(from, to), "M200 130 H220 V70 H240");
});

test("a strip of rounds shows the round nearest its start, never one it does not have", () => {
  assert.equal(roundShown(0, 320, 4), 1);
  assert.equal(roundShown(330, 320, 4), 2);
  assert.equal(roundShown(170, 320, 4), 2);
  assert.equal(roundShown(5000, 320, 4), 4);
  assert.equal(roundShown(0, 0, 4), 1);
});

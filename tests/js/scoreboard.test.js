// The last shot a board and an overlay show: the last that stands, of a game played.

import "./globals.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import { lastStanding } from "../../replay/static/replay/scoreboard.js";

const shot = (seq, game, marks = {}) => ({ seq, game, player: "A", retracted: false, ...marks });

test("the last shot is the newest one", () => {
  assert.equal(lastStanding([shot(4, 1), shot(5, 1)], [{ game: 1 }]).seq, 5);
});

test("after a retraction the last shot is the one before it", () => {
  const shots = [shot(4, 1), shot(5, 1, { retracted: true })];
  assert.equal(lastStanding(shots, [{ game: 1 }]).seq, 4);
});

test("a void game's shots are passed over, and no shot standing is none", () => {
  const games = [{ game: 1 }, { game: 2, flags: ["void_game"] }];
  assert.equal(lastStanding([shot(4, 1), shot(9, 2)], games).seq, 4);
  assert.equal(lastStanding([shot(4, 1, { retracted: true })], games), null);
});

// The hall's words for a match: its round, then its players.

import "./globals.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import { matchWords, placeWords } from "../../replay/static/replay/hall.js";

const players = { A: "Olena Kovalenko", B: "Marco Marchetti" };

test("a round robin's match says its round as its stage is written", () => {
  assert.equal(matchWords({ players, place: { text: "Round 2" } }), "Round 2 · Olena Kovalenko — Marco Marchetti");
});

test("a group's match says its group and round", () => {
  assert.equal(placeWords({ group: "B", round: 3 }), "Group B · round 3");
});

test("a knockout's rounds are named from the end, and the match for third place is not the final", () => {
  assert.equal(placeWords({ round: 3, rounds: 3 }), "Final");
  assert.equal(placeWords({ round: 2, rounds: 3 }), "Semi-final");
  assert.equal(placeWords({ round: 1, rounds: 3 }), "Quarter-final");
  assert.equal(placeWords({ round: 1, rounds: 4 }), "Round 1");
  assert.equal(placeWords({ third_place: true }), "Third-place match");
});

test("a match without a place says its players alone", () => {
  assert.equal(matchWords({ players, place: null }), "Olena Kovalenko — Marco Marchetti");
});

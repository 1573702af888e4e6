// The words of the pages' scripts: events, fouls, pins, a shot's name, the console's taps.

import "./globals.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import { eventInWords, foulName, pinsInWords, shotName, shotNumbers } from "../../replay/static/replay/words.js";
import { findShots } from "../../replay/static/replay/console-panels.js";
import { contactInWords, describe } from "../../replay/static/replay/console-words.js";
import { fixture } from "./globals.js";

const names = { A: "Kovalenko", B: "Marchetti" };

test("every foul the referee calls has words of its own", () => {
  for (const code of fixture("constants.json").called_fouls) {
    assert.notEqual(foulName(code), code, `${code} has no words`);
  }
  assert.equal(foulName("no_such_foul"), "no_such_foul");
});

test("the pins that fell are counted in words", () => {
  assert.equal(pinsInWords([]), "");
  assert.equal(pinsInWords(["center"]), "the red pin alone");
  assert.equal(pinsInWords(["top"]), "1 white pin");
  assert.equal(pinsInWords(["center", "top", "left"]), "the red pin and 2 white pins");
  assert.equal(pinsInWords(["center", "top", "bottom", "left", "right"]), "the whole figure");
});

test("a shot is named by its number, with its game where the page does not show it", () => {
  assert.equal(shotName(1), "shot 1");
  assert.equal(shotName(48, 2), "shot 48 (game 2)");
});

test("an event that is not a shot is said in words, a correction naming its shot", () => {
  assert.equal(eventInWords({ type: "game_started", game: 2, breaker: "B" }, names), "Game 2 started: Marchetti breaks");
  assert.equal(
    eventInWords({ type: "shot_retracted", shot: 9, reason: "typo" }, names, { game: 1, number: 3 }),
    "Shot 3 (game 1) retracted: typo");
  // Without its number, the shot is named by its event, never by a seq read as a number.
  assert.equal(eventInWords({ type: "shot_amended", shot: 9, reason: "video" }, names),
    "The shot of event 9 amended: video");
  assert.equal(eventInWords({ type: "foul", code: "feet", player: "A" }, names),
    "Foul outside a stroke (foot off the floor) by Kovalenko");
  assert.equal(eventInWords({ type: "intermission", minutes: 5 }, names), "Intermission: 5 min");
  assert.equal(eventInWords({ type: "shot" }, names), "");
});

test("the console says a submission and its taps in words", () => {
  const event = {
    type: "shot", player: "A",
    contacts: [{ ball: "white", hit: "yellow" }, { ball: "yellow", hit: "pins", pins: ["center", "left"], same_time: true }],
  };
  // Event 12 is the match's ninth shot: named by its number, as every page names it.
  const numberOf = (seq) => ({ 12: 9, 13: 10 })[seq];
  assert.equal(describe(event, names, 12, numberOf), "Shot 9 by Kovalenko: white → yellow, yellow → centre pin+left pin (=)");
  assert.equal(contactInWords({ ball: "red", hit: "off" }), "red → off the table");
  assert.equal(describe({ type: "shot", player: "B", contacts: [] }, names, 13, numberOf), "Shot 10 by Marchetti: no contact");
  assert.equal(describe({ type: "lag" }, names, 1, numberOf), "Lag played");
  assert.equal(describe({ type: "shot_retracted", shot: 12, reason: "twice" }, names, 14, numberOf),
    "Shot 9 retracted: twice");
});

test("a shot's number is its place among the match's shots, a retracted one counted", () => {
  const shots = [
    { seq: 4, game: 1, player: "A", ruling: { points: 0 } },
    { seq: 5, game: 1, player: "B", ruling: { points: 0 }, retracted: true },
    { seq: 7, game: 1, player: "B", ruling: { points: 0 } },
  ];
  assert.deepEqual([...shotNumbers(shots)], [[4, 1], [5, 2], [7, 3]]);
  // The console's finder takes a shot's number, not its seq.
  assert.deepEqual(findShots(shots, names, { query: "3" }).map((shot) => shot.seq), [7]);
  assert.deepEqual(findShots(shots, names, { query: "4" }), []);
});

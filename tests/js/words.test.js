// The words of the pages' scripts: events, fouls, pins, a shot's name, the console's taps.

import "./globals.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import { eventInWords, foulName, pinsInWords, shotName } from "../../replay/static/replay/words.js";
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

test("a shot is named by its seq, with its game where the page does not show it", () => {
  assert.equal(shotName(48), "shot 48");
  assert.equal(shotName(48, 2), "shot 48 (game 2)");
});

test("an event that is not a shot is said in words, a correction naming its shot", () => {
  assert.equal(eventInWords({ type: "game_started", game: 2, breaker: "B" }, names), "Game 2 started: Marchetti breaks");
  assert.equal(eventInWords({ type: "shot_retracted", shot: 9, reason: "typo" }, names, { game: 1 }),
    "Shot 9 (game 1) retracted: typo");
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
  assert.equal(describe(event, names, 12), "Shot 12 by Kovalenko: white → yellow, yellow → centre pin+left pin (=)");
  assert.equal(contactInWords({ ball: "red", hit: "off" }), "red → off the table");
  assert.equal(describe({ type: "shot", player: "B", contacts: [] }, names, 3), "Shot 3 by Marchetti: no contact");
  assert.equal(describe({ type: "lag" }, names, 1), "Lag played");
});

// The tables a Python function and a script must agree on (tests/fixtures/scripts/): the
// board's moment and a shot's points (replay/web/board_context.py, scoreboard.js), a ruling and a shot
// in words (replay/presentation/sentences.py, words.js), a player's key (player_keys.py, player-key.js).
// tests/replay/test_script_fixtures.py checks the Python side against the same cases.

import "./globals.js";
import { fixture } from "./globals.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import { momentOf, shotPoints } from "../../replay/static/replay/scoreboard.js";
import { rulingInWords, shotInWords } from "../../replay/static/replay/words.js";
import { playerKey } from "../../replay/static/replay/player-key.js";

const board = fixture("board.json");
for (const entry of board.moments) {
  test(`the board's moment as Python says it: ${entry.name}`, () => {
    const lastEvent = entry.last_event_type ? { type: entry.last_event_type } : null;
    assert.deepEqual(momentOf(entry.state, board.names, lastEvent), entry.moment);
  });
}
for (const entry of board.points) {
  test(`a shot's points as Python gives them: ${entry.name}`, () => {
    assert.deepEqual(shotPoints(entry.shot), entry.points);
  });
}

const sentences = fixture("sentences.json");
for (const entry of sentences.rulings) {
  test(`a ruling in the words Python writes: ${entry.name}`, () => {
    assert.equal(rulingInWords(entry.ruling, sentences.names, entry.player), entry.words);
  });
}
for (const entry of sentences.shots) {
  test(`a shot in the words Python writes: ${entry.name}`, () => {
    assert.equal(shotInWords(entry.shot, sentences.names, sentences.games), entry.words);
  });
}

for (const entry of fixture("player_keys.json")) {
  test(`a player's key as Python writes it: ${entry.name}`, () => {
    assert.equal(playerKey(entry.federation_id, entry.pk), entry.key);
  });
}

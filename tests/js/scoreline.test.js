// The score line shared by the board, the overlay and the console.

import "./globals.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import { drawScoreLine, rulesLine, scoreLine } from "../../replay/static/replay/scoreline.js";
import { Element } from "./dom.js";

const game = (n, a, b, flags = []) => ({ game: n, score: { A: a, B: b }, winner: null, end: null, flags });

test("the score line shows the current game's points, the games won, who is due", () => {
  const state = {
    status: "playing", games: [game(1, 60, 20), game(2, 14, 33)], games_won: { A: 1, B: 0 },
    next: { player: "B", game: 2 }, winner: null,
  };
  assert.deepEqual(scoreLine(state), {
    A: { score: 14, games: 1, due: false, winner: false },
    B: { score: 33, games: 0, due: true, winner: false },
  });
});

test("before the first game the points are 0; a void game's never show; the winner is marked", () => {
  assert.deepEqual(scoreLine({ status: "lag", games: [], next: null }).A, { score: 0, games: 0, due: false, winner: false });
  const finished = {
    status: "finished", games: [game(1, 60, 2), game(2, 0, 0, ["void_game"])], games_won: { A: 1, B: 0 },
    next: null, winner: "A",
  };
  assert.deepEqual(scoreLine(finished).A, { score: 60, games: 1, due: false, winner: true });
});

test("a page may name the game shown and the player due (the console's own)", () => {
  const state = { status: "playing", games: [game(1, 60, 2), game(2, 0, 0)], games_won: { A: 1, B: 0 }, next: { player: "A" } };
  const line = scoreLine(state, { game: state.games[0], due: null });
  assert.equal(line.A.score, 60);
  assert.equal(line.A.due, false);
});

test("the rules line names the game, the target and the best of", () => {
  assert.equal(rulesLine(game(2, 0, 0), { target: 60, bestOf: 3 }), "Game 2 · to 60 · best of 3");
  assert.equal(rulesLine(null, { target: 60 }), "to 60");
});

test("drawing the line fills each player's box and marks who is due", () => {
  const boxes = {};
  for (const player of ["A", "B"]) {
    const box = new Element("div");
    box.setAttribute("class", "player due");
    const score = new Element("span");
    score.className = "score";
    const games = new Element("span"); // as the board has it: a label, then the value
    games.className = "games";
    const label = new Element("span");
    label.className = "label";
    label.textContent = "games";
    const value = new Element("span");
    value.className = "value";
    games.append(label, value);
    box.append(score, games);
    boxes[player] = box;
  }
  drawScoreLine((p) => boxes[p], {
    A: { score: 7, games: 1, due: false, winner: true }, B: { score: 30, games: 0, due: true, winner: false },
  }, { games: ".games .value" });
  assert.equal(boxes.A.querySelector(".score").textContent, "7");
  assert.equal(boxes.B.querySelector(".games .value").textContent, "0");
  assert.equal(boxes.B.querySelector(".games").textContent, "games0", "the label stays");
  assert.equal(boxes.A.className, "player winner");
  assert.equal(boxes.B.className, "player due");
});

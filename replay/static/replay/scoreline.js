// The score line, as the board, the overlay and the console show it: each player's points
// in the game and games won, who is due, who won; and the line of the match's rules.
// The page's markup carries it: per player a box (data-player="A" | "B") holding a
// `.score` and a `.games` (on the board, the games' value is a `.value` inside it).

import { currentGame } from "./scoreboard.js";

const PLAYERS = ["A", "B"];

/**
 * Return the score line of a state: {A: {score, games, due, winner}, B: {...}}.
 *
 * game: the game whose points show (default: the one being played or last played);
 * due: the player marked due (default: the state's next player).
 */
export function scoreLine(state, { game = currentGame(state), due = state.next ? state.next.player : null } = {}) {
  const won = state.games_won || {};
  const line = {};
  for (const player of PLAYERS) {
    line[player] = {
      score: game ? game.score[player] : 0,
      games: won[player] ?? 0,
      due: due === player,
      winner: state.winner === player,
    };
  }
  return line;
}

/** Return the line of the rules: "Game 2 · to 60 · best of 3" (no game before the first). */
export function rulesLine(game, { target, bestOf = null }) {
  const parts = [];
  if (game) parts.push(interpolate(gettext("Game %s"), [game.game]));
  parts.push(interpolate(gettext("to %s"), [target]));
  // "best of" takes the count's form in Ukrainian («до 1 партії», «до 5 партій»).
  if (bestOf !== null) parts.push(interpolate(ngettext("best of %s", "best of %s", bestOf), [bestOf]));
  return parts.join(" · ");
}

function setText(node, text) {
  if (node && node.textContent !== String(text)) node.textContent = text;
}

/**
 * Show a score line in the boxes of the players: boxOf(player) → its element; score,
 * games: where in a box its points and its games won are (selectors).
 */
export function drawScoreLine(boxOf, line, { score = ".score", games = ".games" } = {}) {
  for (const player of PLAYERS) {
    const box = boxOf(player);
    setText(box.querySelector(score), line[player].score);
    setText(box.querySelector(games), line[player].games);
    box.classList.toggle("due", line[player].due);
    box.classList.toggle("winner", line[player].winner);
  }
}

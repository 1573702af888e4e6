// The stream overlay: the score line, live over the match's websocket.

import { connectLive } from "./live.js";
import { currentGame, momentOf, pointsOf, shotPoints } from "./scoreboard.js";

const data = JSON.parse(document.getElementById("board-data").textContent);
const names = data.names;
const $ = (selector) => document.querySelector(selector);

function lastPoints(points) {
  if (!points) return "";
  if (!points.points) return gettext("Last shot: no points");
  const parts = { points: points.points, name: names[points.to] };
  return interpolate(points.foul ? gettext("Last shot: foul, %(points)s to %(name)s")
    : gettext("Last shot: %(points)s to %(name)s"), parts, true);
}

function draw(state, lastEvent, points) {
  const game = currentGame(state);
  for (const player of ["A", "B"]) {
    $(`[data-testid="score-${player}"]`).textContent = game ? game.score[player] : 0;
    $(`[data-testid="games-${player}"]`).textContent = state.games_won[player];
    const side = $(`.side[data-player="${player}"]`);
    side.classList.toggle("due", Boolean(state.next && state.next.player === player));
    side.classList.toggle("winner", state.winner === player);
  }
  const rules = [];
  if (game) rules.push(interpolate(gettext("Game %s"), [game.game]));
  rules.push(interpolate(gettext("to %s"), [data.target]));
  $("#rules").textContent = rules.join(" · ");
  const moment = momentOf(state, names, lastEvent);
  $("#moment").dataset.moment = moment.face;
  $("#moment").textContent = moment.text;
  if (points !== undefined) $("#last-points").textContent = lastPoints(points);
}

let state = data.state;
let lastShot = data.lastShot ? { seq: data.lastShot.seq, player: data.lastShot.player } : null;
document.body.dataset.seq = data.seq;
draw(state, data.lastEvent, shotPoints(data.lastShot));

connectLive(data.match, {
  after: data.seq,
  onEvent(message) {
    const previous = state;
    state = message.state;
    const event = message.event;
    let points;
    if (event.type === "shot" && state.ruling) {
      lastShot = { seq: message.seq, player: event.player || (previous.next && previous.next.player) };
      points = pointsOf(state.ruling, lastShot.player);
    } else if (event.type === "shot_amended" || event.type === "shot_retracted") {
      // The strip tells the last shot: corrected, it says what it gives now; another, nothing.
      const latest = lastShot && event.shot === lastShot.seq && event.type === "shot_amended";
      points = latest && state.ruling ? pointsOf(state.ruling, lastShot.player) : null;
      if (!latest) lastShot = null;
    }
    draw(state, event, points);
    document.body.dataset.seq = message.seq;
  },
  onStatus(status) {
    const node = $("#connection");
    node.dataset.connection = status;
    node.title = status === "live" ? gettext("Live") : gettext("Reconnecting…");
  },
});

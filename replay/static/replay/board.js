// The live board: the page's first paint comes from the server; from then on each event
// of the websocket updates it in place. Each message's `state` is the truth for the
// scoreboard and the table; the shots of the game are kept here, and fetched again
// from the API only when a correction (an amendment, a retraction) changes earlier ones.

import { drawTable } from "./table.js";
import { eventInWords, rulingInWords, shotInWords } from "./words.js";
import { connectLive } from "./live.js";
import { currentGame, momentOf, zoneOf } from "./scoreboard.js";

const CORRECTIONS = new Set(["shot_amended", "shot_retracted"]);

const data = JSON.parse(document.getElementById("board-data").textContent);
const names = data.names;
let state = data.state;
let shots = data.shots; // the shots of the current game, oldest first, as the state lists them
let lastShot = data.lastShot;
let lastEvent = data.lastEvent;
let fallen = lastShot && currentGame(state) && lastShot.game === currentGame(state).game
  ? lastShot.ruling.pins : [];

const $ = (selector) => document.querySelector(selector);

function setText(selector, text) {
  const node = $(selector);
  if (node && node.textContent !== String(text)) node.textContent = text;
}

function drawScore() {
  const game = currentGame(state);
  for (const player of ["A", "B"]) {
    setText(`[data-testid="score-${player}"]`, game ? game.score[player] : 0);
    setText(`[data-testid="games-${player}"]`, state.games_won[player]);
    const row = $(`.scoreline .player[data-player="${player}"]`);
    row.classList.toggle("due", Boolean(state.next && state.next.player === player));
    row.classList.toggle("winner", state.winner === player);
  }
  const rules = [];
  if (game) rules.push(interpolate(gettext("Game %s"), [game.game]));
  rules.push(interpolate(gettext("to %s"), [data.target]));
  rules.push(interpolate(gettext("best of %s"), [data.bestOf]));
  setText("#rules", rules.join(" · "));
}

function drawMoment() {
  const moment = momentOf(state, names, lastEvent);
  const node = $("#moment");
  node.dataset.moment = moment.face;
  setText("#moment", moment.text);
}

function gameResult(game) {
  if (game.flags.includes("void_game")) return gettext("void: the match was already decided");
  if (game.flags.includes("needs_review")) return gettext("under review");
  if (!game.winner) return gettext("in play");
  const name = names[game.winner];
  return game.end === "forfeit" ? interpolate(gettext("%s (forfeit)"), [name]) : name;
}

function drawGames() {
  const body = $("#games tbody");
  const rows = state.games.map((game) => {
    const row = document.createElement("tr");
    row.dataset.game = game.game;
    for (const text of [game.game, game.score.A, game.score.B, gameResult(game)]) {
      const cell = document.createElement("td");
      cell.textContent = text;
      row.appendChild(cell);
    }
    return row;
  });
  if (!rows.length) {
    const row = document.createElement("tr");
    row.className = "none";
    const cell = document.createElement("td");
    cell.colSpan = 4;
    cell.textContent = gettext("No game started yet");
    row.appendChild(cell);
    rows.push(row);
  }
  body.replaceChildren(...rows);
}

function drawShots() {
  const game = currentGame(state);
  setText("#shots-title", game
    ? interpolate(gettext("Shots of game %s"), [game.game]) : gettext("Shots"));
  const items = shots.slice().reverse().map((shot) => {
    const item = document.createElement("li");
    item.dataset.seq = shot.seq;
    item.dataset.player = shot.player;
    if (shot.retracted) item.className = "retracted";
    else if (shot.void) item.className = "void";
    item.textContent = shotInWords(shot, names);
    return item;
  });
  if (!items.length) {
    const item = document.createElement("li");
    item.className = "none";
    item.textContent = gettext("No shot in this game yet");
    items.push(item);
  }
  $("#shots").replaceChildren(...items);
}

function drawLast() {
  setText("#last-ruling", lastShot
    ? shotInWords({ ...lastShot, void: false, retracted: false }, names)
    : gettext("No shot yet"));
}

function drawBoard() {
  drawScore();
  drawMoment();
  drawLast();
  drawGames();
  drawShots();
  drawTable($("#table"), {
    positions: state.positions, balls: data.balls, names, fallen,
    zone: zoneOf(state.next), pinPitch: data.pinPitch,
    legend: $(".table-legend"),
  });
}

/** Fetch the shots again from the amended state at the head (after a correction). */
async function refetchShots() {
  try {
    const answer = await fetch(`/api/matches/${encodeURIComponent(data.match)}/state`,
      { headers: { Accept: "application/json" } });
    if (!answer.ok) return;
    const full = await answer.json();
    const game = currentGame(state);
    shots = full.shots.filter((shot) => game && shot.game === game.game);
    const standing = full.shots.filter((shot) => !shot.retracted);
    lastShot = standing.length ? standing[standing.length - 1] : null;
    drawShots();
  } catch {
    // The list waits for the next correction or reload; the scoreboard is already right.
  }
}

function apply(message) {
  const previous = state;
  const event = message.event;
  state = message.state;
  lastEvent = event;
  const game = currentGame(state);
  if (event.type === "shot" && state.ruling) {
    const player = event.player || (previous.next && previous.next.player);
    const shot = {
      seq: message.seq, game: game ? game.game : null, player, ruling: state.ruling,
      original: null, amended: false, void: false, retracted: false,
    };
    if (shots.length && game && shots[0].game !== game.game) shots = [];
    shots = shots.filter((entry) => entry.seq !== shot.seq).concat([shot]);
    lastShot = shot;
    fallen = state.ruling.pins;
  } else if (event.type === "game_started") {
    shots = [];
    fallen = [];
  }
  drawBoard();
  if (event.type === "shot_amended") {
    const amended = shots.find((entry) => entry.seq === event.shot);
    const words = amended && state.ruling ? rulingInWords(state.ruling, names, amended.player) : "";
    setText("#last-ruling", [eventInWords(event, names), words].filter(Boolean).join(" — "));
  } else if (event.type === "shot_retracted" || event.type === "foul") {
    setText("#last-ruling", eventInWords(event, names));
  }
  if (CORRECTIONS.has(event.type)) refetchShots();
  document.body.dataset.seq = message.seq;
}

function showStatus(status) {
  const node = $("#connection");
  node.dataset.connection = status;
  node.textContent = {
    live: gettext("Live"),
    reconnecting: gettext("Reconnecting…"),
    closed: gettext("Not live: reload the page"),
  }[status] || status;
}

document.body.dataset.seq = data.seq;
drawBoard();
connectLive(data.match, { after: data.seq, onEvent: apply, onStatus: showStatus });

// The live board: the page's first paint comes from the server; from then on each event
// of the websocket updates it in place. Each message's `state` is the truth for the
// scoreboard and the table; the shots of the game are kept here, and fetched again
// from the API only when a correction (an amendment, a retraction) changes earlier ones.

import { drawTable, lastKnown } from "./table.js";
import { eventInWords, rulingInWords, shotInWords, shotName } from "./words.js";
import { api } from "./api.js";
import { connectLive } from "./live.js";
import { currentGame, isVoidGame, lastStanding, momentOf, zoneOf } from "./scoreboard.js";
import { drawScoreLine, rulesLine, scoreLine } from "./scoreline.js";

const CORRECTIONS = new Set(["shot_amended", "shot_retracted"]);

let data; // the page's board-data: the server's first paint of the board
let names;
let state;
let shots; // the shots of the current game, oldest first, as the state lists them
let lastShot; // the last shot of a game played (a void game's count for nothing)
let lastEvent;
let fallen;
let known; // where each ball was last seen, for one that moved without a rest
// The same after each event this page has shown: a retracted shot moved nothing, so what
// was known before it is known again.
let knownAfter;
// Every shot's game, player and number (its place among the match's shots) by seq, in log
// order: to name a shot, and a corrected shot of an earlier game.
let played;
let correction = null; // the correction just applied, {event, words}, to say until the next event

const $ = (selector) => document.querySelector(selector);

function setText(selector, text) {
  const node = $(selector);
  if (node && node.textContent !== String(text)) node.textContent = text;
}

function drawScore() {
  drawScoreLine((player) => $(`.scoreline .player[data-player="${player}"]`), scoreLine(state),
    { games: ".games .value" });
  setText("#rules", rulesLine(currentGame(state), { target: data.target, bestOf: data.bestOf }));
}

function drawMoment() {
  const moment = momentOf(state, names, lastEvent);
  const node = $("#moment");
  node.dataset.moment = moment.kind;
  setText("#moment", moment.text);
}

function gameResult(game) {
  if (isVoidGame(game)) return gettext("void: the match was already decided");
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
    // A void game was never played: no score of its own.
    const voided = isVoidGame(game);
    if (voided) row.className = "void";
    const scores = voided ? ["—", "—"] : [game.score.A, game.score.B];
    for (const text of [game.game, ...scores, gameResult(game)]) {
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
    item.id = `shot-${shot.seq}`;
    item.dataset.seq = shot.seq;
    item.dataset.player = shot.player;
    if (shot.retracted) item.className = "retracted";
    else if (shot.void) item.className = "void";
    const part = (name, text) => {
      const span = document.createElement("span");
      span.className = name;
      span.textContent = text;
      return span;
    };
    // As the server paints it: its number, who played it, what it did.
    const entry = played.get(shot.seq);
    item.append(part("shot-seq", shotName(entry ? entry.number : "?")), " ",
      part("shot-who", names[shot.player] || shot.player), " ",
      part("shot-what", shotInWords(shot, names, state.games)));
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

/** Return the last shot in words, as the server paints it (a void one scored nothing). */
function lastInWords() {
  if (!lastShot) return gettext("No shot yet");
  return lastShot.void ? shotInWords(lastShot, names, state.games)
    : rulingInWords(lastShot.ruling, names, lastShot.player);
}

function drawLast() {
  const words = lastInWords();
  const node = $("#last-ruling");
  if (node.textContent !== words || node.children.length) node.textContent = words;
}

/** Say which shot a correction changed, linked to its line: in the list, else on the replay. */
function drawCorrection({ event, words }) {
  const listed = shots.some((entry) => entry.seq === event.shot);
  const shot = played.get(event.shot);
  const link = document.createElement("a");
  link.href = listed ? `#shot-${event.shot}`
    : `/matches/${encodeURIComponent(data.match)}/replay/?seq=${event.shot}`;
  link.textContent = eventInWords(event, names, {
    game: listed || !shot ? null : shot.game, number: shot ? shot.number : null,
  });
  const node = $("#last-ruling");
  node.replaceChildren(link);
  if (words) node.append(` — ${words}`);
}

function drawBoard() {
  if (connectionStatus !== "connecting") showStatus();
  drawScore();
  drawMoment();
  drawLast();
  drawGames();
  drawShots();
  drawTheTable();
}

function drawTheTable() {
  drawTable($("#table"), {
    positions: state.positions, balls: data.balls, names, fallen, known,
    zone: zoneOf(state.next), pinPitch: data.pinPitch,
    legend: $(".table-legend"),
  });
}

/** Return the last shot of a game played, and the pins it knocked while it is the latest. */
function lastOf(all) {
  const standing = all.filter((shot) => !shot.retracted);
  const last = lastStanding(all, state.games);
  const latest = standing[standing.length - 1];
  const game = currentGame(state);
  const down = last && last === latest && game && last.game === game.game ? last.ruling.pins : [];
  return { last, down };
}

/** Fetch the shots again from the amended state at the head (after a correction). */
async function refetchShots() {
  try {
    const answer = await api(`/api/matches/${encodeURIComponent(data.match)}/state`);
    if (answer.status !== 200 || !answer.body) return;
    const full = answer.body;
    const game = currentGame(state);
    shots = full.shots.filter((shot) => game && shot.game === game.game);
    ({ last: lastShot, down: fallen } = lastOf(full.shots));
    // After a retraction the last shot is the one before it, as a reload shows.
    if (correction && correction.event.type === "shot_retracted") correction.words = lastInWords();
    drawShots();
    if (correction) drawCorrection(correction); // its shot may be a line of the list now
    drawTheTable();
  } catch {
    // The list waits for the next correction or reload; the scoreboard is already right.
  }
}

function apply(message) {
  const previous = state;
  const event = message.event;
  state = message.state;
  lastEvent = event;
  const before = event.type === "shot_retracted" ? knownAfter.get(event.shot - 1) : null;
  known = lastKnown(before || known, state.positions, event);
  knownAfter.set(message.seq, known);
  const game = currentGame(state);
  if (event.type === "shot" && state.ruling) {
    const player = event.player || (previous.next && previous.next.player);
    const shot = {
      seq: message.seq, game: game ? game.game : null, player, ruling: state.ruling,
      original: null, amended: false, void: false, retracted: false,
    };
    if (shots.length && game && shots[0].game !== game.game) shots = [];
    shots = shots.filter((entry) => entry.seq !== shot.seq).concat([shot]);
    const number = played.has(shot.seq) ? played.get(shot.seq).number : played.size + 1;
    played.set(shot.seq, { game: shot.game, player, number });
    lastShot = shot;
    fallen = state.ruling.pins;
  } else if (event.type === "game_started") {
    shots = [];
    fallen = []; // the break: every pin stands again
  }
  drawBoard();
  correction = null;
  if (event.type === "shot_amended") {
    const amended = played.get(event.shot);
    correction = {
      event, words: amended && state.ruling ? rulingInWords(state.ruling, names, amended.player) : "",
    };
  } else if (event.type === "shot_retracted") {
    correction = { event, words: "" };
  }
  if (correction) {
    drawCorrection(correction);
  } else if (event.type === "foul") {
    setText("#last-ruling", eventInWords(event, names));
  }
  if (CORRECTIONS.has(event.type)) refetchShots();
  document.body.dataset.seq = message.seq;
}

let connectionStatus = "connecting";

/** Say whether the board follows the match: "Live", or for a finished one "Final result". */
function showStatus(status = connectionStatus) {
  connectionStatus = status;
  const node = $("#connection");
  // A finished match is not live, though the board still follows it (a correction shows).
  const finished = status === "live" && state.status === "finished";
  node.dataset.connection = status;
  node.dataset.finished = String(finished);
  node.textContent = finished ? gettext("Final result") : {
    live: gettext("Live"),
    reconnecting: gettext("Reconnecting…"),
    closed: gettext("Not live: reload the page"),
  }[status] || status;
}

/** Start the board: draw the server's first paint (`board-data`) again, then follow it live. */
export function start() {
  data = JSON.parse(document.getElementById("board-data").textContent);
  ({ names, state, shots, lastShot, lastEvent, fallen, known } = data);
  knownAfter = new Map([[data.seq, known]]);
  played = new Map(data.played.map(
    ([seq, game, player], index) => [seq, { game, player, number: index + 1 }]));
  document.body.dataset.seq = data.seq;
  drawBoard();
  return connectLive(data.match, { after: data.seq, onEvent: apply, onStatus: showStatus });
}

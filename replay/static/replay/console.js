// The referee's console: record a match shot by shot, fast, and never lose a shot to the Wi-Fi.
//
// The page starts from the state the server rendered into it (or a newer one this browser
// kept), follows the live feed, and sends every submission through the queue (queue.js):
// online it leaves at once, offline it waits, survives a reload and leaves in order when
// the server is back. The preview asks the engine (POST .../judge) before each confirm.

import { connectLive } from "./live.js";
import { ballName, drawTable, geometry, onSurface, pointFromEvent } from "./table.js";
import { eventInWords, foulName } from "./words.js";
import { SubmissionQueue, storageKeyOf } from "./queue.js";
import { ShotDraft, calledFouls } from "./console-shot.js";
import { eventFromForm } from "./console-forms.js";
import { momentOf, nextPlayerAfter, unknownBalls } from "./console-moments.js";
import { api as callApi } from "./api.js";
import { describe } from "./console-words.js";
import { renderQueue } from "./console-queue-view.js";
import { FIND_PAGE, gameStarted, latestShot, renderCorrect, renderGame } from "./console-panels.js";
import { registerServiceWorker } from "./console-offline.js";
import { renderShotPanel } from "./console-shot-view.js";
import { currentGame } from "./scoreboard.js";
import { drawScoreLine, scoreLine } from "./scoreline.js";
import { zoneRefusal } from "./console-place.js";
import { renderSignOff, wireSignOff } from "./console-sign-off.js";

const SVG = "http://www.w3.org/2000/svg";
// The page's console-setup and what follows from it, set once by start().
let setup;
let root;
let header;
let matchId;
let names;
let cueBalls; // {A: "white", B: "yellow"}
let STATE_KEY;
let HINTED_KEY;
let queue;
const $ = (selector) => root.querySelector(selector);
const $$ = (selector) => Array.from(root.querySelectorAll(selector));

let state;
let online = true;
let liveStatus = "live";
let tab = null;
let shownMoment = null;
let amending = null; // {seq, number, game, player, ruling, facts}: the shot being amended
// The seqs of the shots seen recorded since the full state came (the live feed's messages
// and the answers to this console carry no list of shots): to number the shots after them.
const seenShots = new Set();
let draft;
let restBall = null; // the ball the referee armed under "Came to rest", or one armed for them
let placePos = null;
let placeDefaultsAt = -1;
let preview = { state: "empty", key: null }; // the engine's latest answer, and what it judged
let consequences = null; // what an amendment would change beyond its match: {state, key, said}
let asked = null; // the key of the facts whose ruling is being asked for
let unjudged = null; // facts last confirmable with no ruling to read (offline, waiting)
let previewTimer = null;
let refreshTimer = null;
let findShown = FIND_PAGE;
let voided = null; // {replacement}: a decision voided the match, and nothing more is recorded

// -- The server ------------------------------------------------------------------------

function api(path, options) {
  return callApi(path, options, setOnline);
}

function setOnline(value) {
  if (online === value) return;
  online = value;
  if (online) queue.flush();
  render();
}

const newQueue = () => new SubmissionQueue({
  storage: window.localStorage,
  storageKey: storageKeyOf(matchId),
  send: (item, body) => api(`${setup.api}/events`, {
    method: "POST", timeout: 10000, headers: { "Idempotency-Key": item.key }, body,
  }),
  onChange: () => {
    if (queue.paused && queue.paused.reason === "conflict") scheduleRefresh(0);
    render();
  },
  onRecorded: (item, body) => {
    if (item.event.type === "shot" && typeof body.seq === "number") seenShots.add(body.seq);
    // A ball in hand placed: the shot is what comes next, one tap fewer on a phone. Not
    // before it is recorded: a placement refused is tried again on the Place tab.
    if (item.event.type === "ball_placed" && item.event.reason === "in_hand" && tab === "place") {
      tab = "shot";
    }
    if (typeof body.seq === "number" && body.state && body.seq >= state.seq) {
      // The answer carries the scoreboard; the shots and stats come with the full state.
      applyState({ ...body.state, seq: body.seq });
      scheduleRefresh();
    }
    showDone(labelOf(item, body.seq));
  },
});

// -- The state ---------------------------------------------------------------------------

function newestState(rendered) {
  try {
    const kept = JSON.parse(window.localStorage.getItem(STATE_KEY) || "null");
    if (kept && kept.seq > rendered.seq) return kept;
  } catch {
    // A kept state that cannot be read is simply not newer.
  }
  return rendered;
}

function applyState(next) {
  if (typeof next.seq !== "number" || next.seq < state.seq) return;
  state = { ...state, ...next };
  try {
    window.localStorage.setItem(STATE_KEY, JSON.stringify(state));
  } catch {
    // Storage full: the page still works, it reopens offline from an older state.
  }
  render();
}

function scheduleRefresh(delay = 150) {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(refresh, delay);
}

/** Fetch the full state (the live feed's carries no list of shots). */
async function refresh() {
  try {
    const answer = await api(`${setup.api}/state`);
    if (answer.status === 200) applyState(answer.body);
  } catch {
    // Offline: the live feed's reconnect asks again.
  }
}

/** Return who is due to shoot, after what waits in the queue (the server cannot say yet). */
function duePlayer() {
  let player = state.next ? state.next.player : null;
  for (const item of queue.items) {
    // One the match shows already (recorded, its answer not back yet) moves no turn again.
    if (item.expected_seq >= state.seq) player = nextPlayerAfter(item.event, player);
  }
  return player;
}

// -- Submitting ------------------------------------------------------------------------

function submit(event) {
  if (refusedAsVoid()) return;
  const seq = queue.nextExpected(state.seq) + 1;
  queue.add(event, { head: state.seq, label: describe(event, names, seq, shotNumberAt) });
  render();
}

/**
 * Return a submission in words, a shot named by the number it gets (or got) once recorded
 * at `seq`.
 */
function labelOf(item, seq = item.expected_seq + 1) {
  return describe(item.event, names, seq, shotNumberAt);
}

/**
 * Return the number of the shot recorded (or to be recorded) at `seq`: its place among the
 * match's shots, those of the full state, those seen since and those waiting before it.
 */
function shotNumberAt(seq) {
  const shots = new Set([...(state.shots || []).map((shot) => shot.seq), ...seenShots]);
  for (const item of queue.items) {
    if (item.event.type === "shot") shots.add(item.expected_seq + 1);
  }
  return [...shots].filter((shot) => shot < seq).length + 1;
}

function confirmShot() {
  // Enter reaches here as the button does: the same rule, whatever the button shows.
  if (refusedAsVoid() || !mayConfirm()) return;
  if (amending) {
    const reason = $("#amend-reason").value.trim();
    if (!reason) {
      showError(gettext("Give a reason for the amendment."));
      $("#amend-reason").focus();
      return;
    }
    submit({ type: "shot_amended", shot: amending.seq, facts: draft.facts(), reason });
    stopAmending();
  } else {
    const player = duePlayer();
    submit({ type: "shot", player, ...draft.facts() });
  }
  draft.clear();
  restBall = null;
  resetDraftFor();
  render();
}

function resetDraftFor() {
  if (amending || !draft.isEmpty()) return;
  const player = duePlayer();
  const own = cueBalls[player] || cueBalls.A;
  if (draft.own !== own) {
    draft = new ShotDraft(own);
  }
}

async function startAmending(shot) {
  // The facts in force: those of the amendment in force, else the shot's own.
  const source = shot.amended_by || shot.seq;
  try {
    const answer = await api(`${setup.api}/events?after=${source - 1}`);
    if (answer.status !== 200) throw new Error(answer.body && answer.body.error);
    const event = answer.body.events[0];
    draft = new ShotDraft(cueBalls[shot.player]);
    restBall = null;
    draft.load(event.type === "shot_amended" ? event.facts : event);
    amending = {
      seq: shot.seq, number: shotNumberAt(shot.seq), game: shot.game, player: shot.player,
      ruling: shot.ruling, facts: JSON.stringify(draft.facts()),
    };
    $("#amend-reason").value = "";
    showError("");
    chooseTab("shot");
  } catch {
    showError(gettext("Amending a shot needs the server: its facts could not be read."));
  }
}

function stopAmending() {
  amending = null;
  restBall = null;
  draft = new ShotDraft(cueBalls[duePlayer()] || cueBalls.A);
  render();
}

// -- The preview -------------------------------------------------------------------------
//
// A ruling is shown, and Confirm enabled beside it, only for exactly the facts shown: each
// answer is kept with the key of what it judged (the match's seq, the shot amended, the
// facts), and a draft whose key differs shows "Asking the engine…" until its own arrives.

/** Return the key of what a preview judges now: the match's seq, the shot amended, the facts. */
function factsKey() {
  return JSON.stringify([state.seq, amending && amending.seq, draft.facts()]);
}

/** Return the preview that needs no engine (offline, waiting, nothing to judge), or null. */
function previewWithoutEngine() {
  if (!online) return { state: "offline" };
  if (queue.length && !amending) {
    // Going out now: the shot before is judged first, then this one, in the match as it
    // will stand. Held (paused, or the server out of reach): no ruling can come meanwhile.
    return queue.paused || queue.failures ? { state: "waiting" } : { state: "sending" };
  }
  if (!amending && !(state.next && state.status === "playing" && gameStarted(state))) return { state: "idle" };
  if (!amending && draft.isEmpty()) return { state: "empty" };
  return null;
}

/** Return the preview of the facts shown: the engine's answer for them, or why there is none. */
function shownPreview() {
  const local = previewWithoutEngine();
  if (local) return local;
  return preview.key === factsKey() ? preview : { state: "loading" };
}

/** Return whether Confirm may record the facts shown now. */
function mayConfirm(shown = shownPreview()) {
  if (!amending && !(duePlayer() && state.status !== "finished")) return false;
  // An amendment may empty the contacts (a miss), but it must change something.
  if (amending ? JSON.stringify(draft.facts()) === amending.facts : draft.isEmpty()) return false;
  if (shown.state === "ok" || shown.state === "offline" || shown.state === "waiting") return true;
  // Confirmable a moment ago with no ruling to read (offline, waiting): the same facts stay
  // so while their ruling is asked for; a tap changes the facts and disables it.
  return shown.state === "loading" && unjudged === JSON.stringify([amending && amending.seq, draft.facts()]);
}

/** Ask the engine for the ruling of the facts shown, unless it has it or is asked already. */
function askEngine() {
  const shown = shownPreview();
  if (shown.state === "offline" || shown.state === "waiting") {
    unjudged = JSON.stringify([amending && amending.seq, draft.facts()]);
  } else if (shown.state !== "loading") {
    unjudged = null;
  }
  const key = factsKey();
  if (shown.state !== "loading" || asked === key) return;
  asked = key;
  clearTimeout(previewTimer);
  previewTimer = setTimeout(() => runPreview(key), 120);
}

async function runPreview(key) {
  if (key !== factsKey() || preview.key === key) {
    if (asked === key) asked = null;
    return; // changed meanwhile: the facts shown now are asked for in their turn
  }
  const body = draft.facts();
  if (amending) body.shot = amending.seq;
  let answer = null;
  try {
    answer = await api(`${setup.api}/judge`, { method: "POST", body, timeout: 5000 });
  } catch {
    // Not reached: the console is offline now, and says so.
  }
  if (asked === key) asked = null;
  if (answer && key === factsKey()) {
    preview = answer.status === 200 ? { state: "ok", ruling: answer.body, key }
      : { state: "error", error: (answer.body && answer.body.error) || String(answer.status),
        field: answer.body && answer.body.field, key };
    if (preview.state === "ok" && amending) askConsequences(key);
  }
  renderShot();
}

/** Ask what an amendment would change beyond its match (the group, the draw, the ranking)
 * for the facts shown, before it is confirmed; nothing is recorded. */
async function askConsequences(key) {
  if (queue.length) return; // the match will stand otherwise once the queue is recorded
  consequences = { state: "loading", key };
  const reason = $("#amend-reason").value.trim() || gettext("preview");
  const event = { type: "shot_amended", shot: amending.seq, facts: draft.facts(), reason };
  let answer = null;
  try {
    answer = await api(`${setup.api}/events/preview`, {
      method: "POST", body: { expected_seq: state.seq, event }, timeout: 5000,
    });
  } catch {
    // Not reached: the console says it is offline; the amendment can still be confirmed.
  }
  if (key !== factsKey()) return;
  consequences = answer && answer.status === 200
    ? { state: "ok", key, said: answer.body.said || [],
      disputes: ((answer.body.slots || {}).disputes || []).length }
    : { state: "error", key };
  renderShot();
}

// -- Drawing -----------------------------------------------------------------------------

function render() {
  resetDraftFor();
  const moment = momentOf(state, names, lastEventOf(), cueBalls);
  const momentKey = `${moment.kind}:${moment.tab}`;
  if (momentKey !== shownMoment) {
    shownMoment = momentKey;
    if (!amending) tab = moment.tab;
  }
  if (!tab) tab = moment.tab;
  root.dataset.moment = moment.kind;
  root.dataset.pending = String(queue.length);
  root.dataset.online = String(online && liveStatus !== "reconnecting");
  root.dataset.seq = String(state.seq);
  renderScoreline(moment);
  renderQueue(root, { queue, state, online, labelOf });
  renderTabs();
  renderTable();
  renderShot();
  renderPlace();
  renderGame(root, state);
  renderCorrectTab();
  renderSignOff(root, { state, names, online, waiting: queue.length > 0 });
  renderVoid();
}

/** Say that a decision voided the match, with a link to its replacement, and refuse every
 * tap from then on: no control of the console is left to press. */
function renderVoid() {
  if (!voided) return;
  root.dataset.void = "true";
  const notice = $("#void-notice");
  const replacement = voided.replacement;
  notice.replaceChildren(
    gettext("This match was voided by a decision on a dispute: nothing more can be recorded in it."),
    " ",
  );
  if (replacement) {
    const link = document.createElement("a");
    link.href = `/referee/matches/${encodeURIComponent(replacement.id)}/`;
    link.textContent = interpolate(gettext("Record its replacement, %s"), [
      `${replacement.players.A} — ${replacement.players.B}`,
    ]);
    notice.append(link);
  } else {
    notice.append(gettext("Its replacement is made once both its players are settled."));
  }
  notice.hidden = false;
  for (const control of $$(".controls button, .controls input, .controls select, .controls textarea")) {
    control.disabled = true;
  }
}

/** Return whether the match is void, saying so where the tap's answer would show. */
function refusedAsVoid() {
  if (!voided) return false;
  showError(gettext("This match was voided by a decision on a dispute: nothing more can be recorded in it."));
  return true;
}

function renderCorrectTab() {
  renderCorrect(root, { state, names, amending, shown: findShown, onAmend: startAmending });
}

/** A new search of the shots to amend: its first page, from the shots in hand (no fetch). */
function findChanged() {
  findShown = FIND_PAGE;
  renderCorrectTab();
}

function lastEventOf() {
  // An intermission is the match's moment until the next event, whatever it is.
  const pause = (state.intermissions || []).find((entry) => entry.seq === state.seq);
  return pause ? { type: "intermission", minutes: pause.minutes } : null;
}

function renderScoreline(moment) {
  // The game under way, or the last one played (never a void one after the match).
  const game = (state.games || []).find((g) => state.next && g.game === state.next.game)
    || currentGame(state);
  const due = duePlayer();
  for (const player of ["A", "B"]) {
    const box = $(`.player[data-player="${player}"]`);
    box.querySelector(".swatch").className = `swatch ${cueBalls[player]}`;
    box.querySelector(".name").textContent = names[player];
  }
  drawScoreLine((player) => $(`.player[data-player="${player}"]`),
    scoreLine(state, { game, due: state.status === "playing" ? due : null }));
  $("#moment-title").textContent = moment.title;
  $("#moment").textContent = moment.detail;
  const unknown = unknownBalls(state);
  const note = $("#unknown-balls");
  noteUnknownHint(unknown);
  note.hidden = !unknownHintDue(unknown);
  note.textContent = interpolate(gettext("Position unknown: %s. Tap where it lies when you record its rest or placement."),
    [unknown.map(ballName).join(", ")]);
  const connection = $("#connection");
  const down = !online || liveStatus === "reconnecting";
  connection.dataset.state = down ? "offline" : "live";
  connection.textContent = down ? gettext("Offline: submissions wait here") : gettext("Live");
  const pending = $("#pending");
  pending.hidden = !queue.length;
  pending.textContent = interpolate(ngettext("%s waiting", "%s waiting", queue.length), [queue.length]);
  for (const node of $$("[data-name-of]")) node.textContent = names[node.dataset.nameOf];
}

/**
 * Return the seq at which the hint on unknown positions first showed in each game: kept
 * with the match, so a reload keeps it.
 */
function hintedAt() {
  try {
    return JSON.parse(window.localStorage.getItem(HINTED_KEY) || "{}") || {};
  } catch {
    return {}; // a record that cannot be read: the hint shows once more
  }
}

/** Return the game under way whose positions a hint may speak of, or null. */
function hintedGame() {
  const under = state.status === "playing" && state.next && gameStarted(state) && !state.next.break;
  return under ? String(state.next.game) : null;
}

/** Note that the hint on unknown positions first shows now, unless it has in this game. */
function noteUnknownHint(unknown) {
  const game = hintedGame();
  const hinted = hintedAt();
  if (!unknown.length || game === null || hinted[game] !== undefined) return;
  hinted[game] = state.seq;
  try {
    window.localStorage.setItem(HINTED_KEY, JSON.stringify(hinted));
  } catch {
    // Storage full: the hint may show again after a reload, nothing worse.
  }
}

/**
 * Return whether the hint on unknown positions shows now: once per game, from the moment
 * a ball's place is first unknown in it until the next event (the table's legend says it
 * all along).
 */
function unknownHintDue(unknown) {
  const game = hintedGame();
  return Boolean(unknown.length) && game !== null && hintedAt()[game] === state.seq;
}

function renderTabs() {
  for (const node of $$("[data-tab]")) {
    node.setAttribute("aria-selected", String(node.dataset.tab === tab));
  }
  for (const panel of $$("[data-panel]")) panel.hidden = panel.dataset.panel !== tab;
}

/** Say under the table what a tap on it does now: which ball it places, or that none is armed. */
function renderTableHint() {
  const hint = $("#table-hint");
  const ball = tab === "shot" ? armedRestBall() : null;
  hint.textContent = tab === "place" ? gettext("Tap the table where the ball is placed.")
    : tab !== "shot" ? ""
      : ball ? restHint(ball)
        : gettext("Pick a ball under “Came to rest”, then tap the table where it stopped.");
}

/** Return "tap where the white/yellow/red ball stopped" whole, each language its way. */
function restHint(ball) {
  return {
    white: gettext("Tap the table where the white ball stopped."),
    yellow: gettext("Tap the table where the yellow ball stopped."),
    red: gettext("Tap the table where the red ball stopped."),
  }[ball];
}

/** Return the ball a tap on the table marks at rest: the one armed, else the cue ball until
 * it has a rest; null when none is. */
function armedRestBall() {
  return restBall || (draft.rest[draft.own] ? null : draft.own);
}

function chooseTab(name) {
  tab = name;
  render();
}

function renderTable() {
  const svg = $("#table");
  const next = state.next || {};
  const last = (state.shots || []).filter((shot) => !shot.retracted).pop();
  // The pins stand again for the next game: the last shot's fallen pins belong to its own.
  const sameGame = last && (!state.next || last.game === state.next.game);
  let zone = null;
  if (tab === "place" && (next.ball_in_hand || next.break)) zone = next.break ? "lower" : next.zone || "any";
  drawTable(svg, {
    positions: state.positions || {}, balls: cueBalls, names,
    fallen: sameGame && last.ruling ? last.ruling.pins : [], zone,
    pinPitch: header.ruleset && header.ruleset.pin_pitch, legend: $("#table-legend"),
  });
  const surface = svg.querySelector("g.surface");
  const marks = tab === "place" ? (placePos ? { [selectedPlaceBall() || "white"]: placePos } : {})
    : tab === "shot" ? draft.rest : {};
  for (const [ball, at] of Object.entries(marks)) {
    const mark = document.createElementNS(SVG, "circle");
    mark.setAttribute("class", `mark mark-${ball}`);
    mark.setAttribute("data-mark", ball);
    mark.setAttribute("cx", at[0]);
    mark.setAttribute("cy", at[1]);
    mark.setAttribute("r", geometry().ballRadius);
    surface.appendChild(mark);
  }
  renderTableHint();
}

/** Draw the shot panel and its preview; ask the engine for the facts shown if it must. */
function renderShot() {
  const shown = shownPreview();
  const player = amending ? amending.player : duePlayer();
  renderShotPanel(root, {
    draft, amending, player, names, cueBalls, restBall: armedRestBall(), preview: shown,
    confirmable: mayConfirm(shown),
    unchanged: Boolean(amending) && JSON.stringify(draft.facts()) === amending.facts,
    consequences: consequences && consequences.key === factsKey() ? consequences : null,
  });
  askEngine();
}

function selectedPlaceBall() {
  const chosen = $("#place-form").querySelector("input[name=ball]:checked");
  return chosen ? chosen.value : null;
}

function renderPlace() {
  const form = $("#place-form");
  const next = state.next || {};
  if (placeDefaultsAt !== state.seq) {
    placeDefaultsAt = state.seq;
    placePos = null;
    const ball = cueBalls[next.player];
    if (ball) form.querySelector(`input[name=ball][value=${ball}]`).checked = true;
    form.elements.reason.value = next.break ? "break" : next.ball_in_hand ? "in_hand" : "respot";
  }
  const where = { lower: gettext("in the lower half"), upper: gettext("in the upper half") }[next.zone]
    || gettext("in either half");
  $("#place-hint").textContent = next.break
    ? gettext("The break: the breaker's ball anywhere in the lower half.")
    : next.ball_in_hand ? interpolate(gettext("Ball in hand for %(name)s: place it %(where)s."),
      { name: names[next.player], where }, true)
      : gettext("Re-place a ball that left the table, on its spot.");
  $("#place-pos").textContent = placePos
    ? interpolate(gettext("%(x)s, %(y)s mm"), { x: Math.round(placePos[0]), y: Math.round(placePos[1]) }, true)
    : gettext("tap the table");
}

// -- Messages ------------------------------------------------------------------------------

function showError(message) {
  const box = $("#form-error");
  box.textContent = message;
  box.hidden = !message;
  $("#form-done").hidden = true;
}

function showDone(message) {
  const box = $("#form-done");
  box.textContent = interpolate(gettext("Recorded: %s"), [message]);
  box.hidden = false;
  $("#form-error").hidden = true;
}

// -- Taps and keys ---------------------------------------------------------------------

function tapped(change) {
  return (...args) => {
    if (refusedAsVoid() || change(...args) === false) return;
    showError("");
    renderShot();
    renderTable();
  };
}

const hitBall = tapped((ball) => draft.hitBall(ball));
const hitPin = tapped((pin) => draft.hitPin(pin));
const setActor = tapped((ball) => draft.setActor(ball));
const undoTap = tapped(() => draft.undo());
const clearShot = tapped(() => draft.clearTaps());

/** Send one confirmation of the result (online only), then read the state again. */
async function confirmResult(body) {
  try {
    return await api(`${setup.api}/confirmations`, { method: "POST", timeout: 10000, body });
  } catch {
    return { status: 0, body: { error: gettext("Not sent: the server cannot be reached.") } };
  }
}

function confirmed(answer, role) {
  if (answer.status === 201) {
    const who = role === "referee" ? gettext("the referee") : names[role];
    showDone(interpolate(gettext("the result, confirmed by %s"), [who]));
    applyState({ ...answer.body.state, seq: answer.body.seq });
    scheduleRefresh(0);
  } else {
    const sent = answer.body || {};
    showError(sent.field ? `${sent.error} (${sent.field})` : sent.error || String(answer.status));
  }
}

function wire() {
  wireSignOff(root, { current: () => state, send: confirmResult, after: confirmed });
  for (const node of $$("[data-tab]")) node.addEventListener("click", () => chooseTab(node.dataset.tab));
  for (const node of $$("[data-hit]")) {
    node.addEventListener("click", tapped(() => {
      const hit = node.dataset.hit;
      if (hit === "cushion") return draft.hitCushion();
      if (hit === "off") return draft.leftTable();
      return draft.hitBall(hit);
    }));
  }
  for (const node of $$("button[data-pin]")) node.addEventListener("click", () => hitPin(node.dataset.pin));
  for (const node of $$("[data-actor]")) node.addEventListener("click", () => setActor(node.dataset.actor));
  for (const node of $$("[data-struck]")) {
    node.addEventListener("click", tapped(() => draft.setStruck(node.dataset.struck)));
  }
  $("#same-time").addEventListener("click", tapped(() => draft.toggleSameTime()));
  $("#undo-tap").addEventListener("click", undoTap);
  $("#clear-shot").addEventListener("click", clearShot);
  $("#confirm-shot").addEventListener("click", confirmShot);
  $("#cancel-amend").addEventListener("click", stopAmending);
  for (const chip of $$("[data-rest]")) {
    chip.addEventListener("click", () => {
      // Arming, never a toggle: a tap on the ball armed already (the console arms the next
      // one after each mark) keeps it armed, and the next tap on the table is its rest.
      restBall = chip.dataset.rest;
      renderShot();
      renderTableHint();
    });
  }
  const fouls = $("#called-fouls");
  for (const code of calledFouls()) {
    const toggle = document.createElement("button");
    toggle.type = "button";
    toggle.className = "chip";
    toggle.dataset.called = code;
    toggle.textContent = foulName(code);
    toggle.addEventListener("click", tapped(() => draft.toggleCalled(code)));
    fouls.append(toggle);
  }
  const codes = $("#foul-code");
  for (const code of calledFouls()) codes.append(new Option(foulName(code), code));
  $("#table").addEventListener("click", tableTapped);
  for (const form of $$("form.event-form")) form.addEventListener("submit", (event) => formSent(event, form));
  $("#place-form").addEventListener("change", () => renderTable());
  $("#find-shot").addEventListener("input", findChanged);
  $("#find-game").addEventListener("change", findChanged);
  $("#find-more").addEventListener("click", () => {
    findShown += FIND_PAGE;
    renderCorrectTab();
  });
  document.addEventListener("keydown", keyPressed);
  window.addEventListener("online", () => setOnline(true));
  window.addEventListener("offline", () => setOnline(false));
}

function tableTapped(event) {
  if (refusedAsVoid()) return;
  const point = pointFromEvent($("#table"), event);
  if (!onSurface(point)) return;
  if (tab === "place") {
    // A tap outside the zone is refused here, in words, not queued for the server to refuse.
    const refusal = placeRefusal(point);
    placePos = refusal ? null : point;
    showError(refusal);
    renderPlace();
  } else if (tab === "shot") {
    const ball = armedRestBall();
    if (!ball) {
      // Every ball marked and none armed: the tap is not dropped in silence.
      showError(gettext("Pick a ball under “Came to rest”, then tap the table where it stopped."));
      return;
    }
    showError("");
    draft.setRest(ball, point);
    // The next tap marks the next ball that has no rest yet.
    restBall = geometry().balls.find((b) => !draft.rest[b]) || null;
    renderShot();
  }
  renderTable();
}

/** Return why the Place form's ball may not go at `point`, or "" (unknown while items wait). */
function placeRefusal(point) {
  if (queue.length) return ""; // the state is behind what waits: the server decides
  const chosen = { ball: selectedPlaceBall(), reason: $("#place-form").elements.reason.value };
  return zoneRefusal(state.next, chosen, point, cueBalls);
}

function formSent(event, form) {
  event.preventDefault();
  if (refusedAsVoid()) return;
  let recorded;
  try {
    recorded = eventFromForm(form.id, new FormData(form), {
      pos: placePos, shot: latestShot(state) ? latestShot(state).seq : null,
    });
  } catch (error) {
    showError(error.message);
    return;
  }
  if (form.id === "place-form" && placeRefusal(placePos)) {
    // The ball or the reason changed since the tap: the same rule, before anything is queued.
    showError(placeRefusal(placePos));
    return;
  }
  if (recorded.type.endsWith("_forfeited")
    && !window.confirm(eventInWords(recorded, names) + "?")) return;
  showError("");
  submit(recorded);
  if (form.id === "retract-form" || form.id === "foul-form" || form.id === "forfeit-form") form.reset();
  if (form.id === "place-form") placePos = null;
  render();
}

const KEYS = {
  w: () => hitBall("white"), y: () => hitBall("yellow"), r: () => hitBall("red"),
  W: () => setActor("white"), Y: () => setActor("yellow"), R: () => setActor("red"),
  8: () => hitPin("top"), 4: () => hitPin("left"), 5: () => hitPin("center"),
  6: () => hitPin("right"), 2: () => hitPin("bottom"),
  c: () => $('[data-hit="cushion"]').click(), x: () => $('[data-hit="off"]').click(),
  s: () => $("#same-time").click(), Backspace: undoTap, Escape: clearShot, Enter: confirmShot,
};
const TAB_KEYS = { q: "shot", p: "place", g: "game", k: "correct", o: "other" };

function keyPressed(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target.closest && target.closest("input, select, textarea, summary")) return;
  const key = event.key.length === 1 && !event.shiftKey ? event.key.toLowerCase() : event.key;
  if (TAB_KEYS[key]) {
    chooseTab(TAB_KEYS[key]);
  } else if (tab === "shot" && KEYS[key]) {
    if (key === "Enter" && target.closest && target.closest("button")) return; // the button's own
    KEYS[key]();
  } else {
    return;
  }
  event.preventDefault();
}

// -- Start -------------------------------------------------------------------------------

// Every 15 s the console tells the server it is there (the hall flags a quiet table).
const HEARTBEAT_MS = 15000;

function follow() {
  const live = connectLive(matchId, {
    after: state.seq,
    onEvent: (message) => {
      if (message.event && message.event.type === "shot") seenShots.add(message.seq);
      // This console's own event comes back here too, after its answer brought the scoreboard.
      if (message.seq > state.seq) {
        state = { ...state, ...message.state, seq: message.seq };
        render();
        scheduleRefresh();
      }
    },
    onHead: (seq) => {
      if (seq > state.seq) scheduleRefresh();
    },
    onVoid: (message) => {
      voided = message;
      render();
    },
    onStatus: (status) => {
      liveStatus = status;
      if (status === "live") {
        live.send(JSON.stringify({ type: "heartbeat" }));
        queue.flush();
        scheduleRefresh();
      }
      render();
    },
  });
  setInterval(() => live.send(JSON.stringify({ type: "heartbeat" })), HEARTBEAT_MS);
}

/** Start the console of the page's match (`console-setup`): draw it, follow it, send what waits. */
export function start() {
  setup = JSON.parse(document.getElementById("console-setup").textContent);
  root = document.getElementById("console");
  header = setup.match;
  matchId = header.id;
  names = { A: header.players.A.name, B: header.players.B.name };
  cueBalls = header.balls;
  STATE_KEY = `carambole.console.state.${matchId}`;
  HINTED_KEY = `carambole.console.hinted.${matchId}`;
  state = newestState(setup.state);
  online = navigator.onLine !== false;
  draft = new ShotDraft(cueBalls.A);
  queue = newQueue();
  wire();
  resetDraftFor();
  render();
  follow();
  queue.flush();
  registerServiceWorker(root);
}

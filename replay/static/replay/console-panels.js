// The console's Game and Correct tabs, filled from the match state.

import { rulingInWords, shotNumbers } from "./words.js";
import { button } from "./console-queue-view.js";

export const FIND_PAGE = 40; // shots listed at a time in the Correct tab, and per "Show more"

/** Return the latest shot not retracted, or null. */
export function latestShot(state) {
  const shots = (state.shots || []).filter((shot) => !shot.retracted);
  return shots[shots.length - 1] || null;
}

/** Return whether the game that is due has started. */
export function gameStarted(state) {
  return (state.games || []).some((game) => state.next && game.game === state.next.game);
}

/** Fill the Game tab: the lag form only before game 1, the next game and its breaker. */
export function renderGame(root, state) {
  const $ = (selector) => root.querySelector(selector);
  // The lag decides game 1 only: once a game has started it is history.
  $("#lag-form").hidden = state.status !== "lag";
  const form = $("#start-form");
  const next = state.next;
  if (form.dataset.at !== String(state.seq)) {
    form.dataset.at = String(state.seq);
    form.elements.game.value = next ? next.game : (state.games || []).length + 1;
    const breaker = next && !gameStarted(state) ? next.player : null;
    for (const radio of form.querySelectorAll("input[name=breaker]")) radio.checked = radio.value === breaker;
  }
}

/** Return a shot of the Correct tab's list in words: its number, its game, who, the ruling. */
function shotLine(shot, names, number) {
  return interpolate(gettext("Shot %(number)s, game %(game)s, %(name)s: %(words)s"), {
    number, game: shot.game, name: names[shot.player],
    words: rulingInWords(shot.ruling, names, shot.player) + (shot.amended ? ` (${gettext("amended")})` : ""),
  }, true);
}

/**
 * Return the shots to amend that the finder asks for, newest first.
 *
 * shots: the state's, every shot in log order; game: "" or a game's number; query: a
 * shot's number (its place among the shots), or words of its line.
 */
export function findShots(shots, names, { game = "", query = "" } = {}) {
  const wanted = query.trim();
  const numbers = shotNumbers(shots);
  let found = shots.filter((shot) => !shot.retracted && (!game || String(shot.game) === game));
  if (/^\d+$/.test(wanted)) {
    found = found.filter((shot) => numbers.get(shot.seq) === Number(wanted));
  } else if (wanted) {
    const words = wanted.toLocaleLowerCase();
    found = found.filter((shot) => shotLine(shot, names, numbers.get(shot.seq))
      .toLocaleLowerCase().includes(words));
  }
  return found.reverse();
}

/** Offer each game of the match in the finder, keeping the one chosen. */
function renderGameChoice(select, state) {
  const games = (state.games || []).map((game) => game.game);
  if (select.dataset.games === games.join(",")) return;
  select.dataset.games = games.join(",");
  const chosen = select.value;
  select.replaceChildren(new Option(gettext("every game"), ""),
    ...games.map((game) => new Option(interpolate(gettext("game %(game)s"), { game }, true), String(game))));
  select.value = games.map(String).includes(chosen) ? chosen : "";
}

/**
 * Fill the Correct tab: the latest shot to undo, and the shots to amend (onAmend(shot)).
 *
 * Every shot of the match can be found, from the shots of the state in hand (no fetch):
 * the finder's game and shot number or words choose them, `shown` of them are listed.
 */
export function renderCorrect(root, { state, names, amending, shown, onAmend }) {
  const $ = (selector) => root.querySelector(selector);
  const latest = latestShot(state);
  const numbers = shotNumbers(state.shots || []);
  $("#retract-what").textContent = latest
    ? interpolate(gettext("Shot %(number)s, game %(game)s: %(words)s"), {
      number: numbers.get(latest.seq), game: latest.game,
      words: rulingInWords(latest.ruling, names, latest.player),
    }, true)
    : gettext("No shot to undo.");
  $("#retract-form").querySelector("button").disabled = !latest;
  renderGameChoice($("#find-game"), state);
  const game = $("#find-game").value;
  const query = $("#find-shot").value;
  const shots = state.shots || [];
  const list = $("#shot-list");
  const signature = JSON.stringify([state.seq, game, query, shown, amending && amending.seq]);
  // A full state brings a new list of shots (an amendment or a retraction changes one in
  // place, at the same seq once the live feed told it first): the list is drawn again then.
  if (list.dataset.signature === signature && list.shotsDrawn === shots) return;
  list.dataset.signature = signature;
  list.shotsDrawn = shots;
  const found = findShots(shots, names, { game, query });
  const listed = found.slice(0, shown);
  $("#find-count").textContent = found.length
    ? interpolate(ngettext("%(listed)s of %(count)s shot", "%(listed)s of %(count)s shots", found.length),
      { listed: listed.length, count: found.length }, true)
    : gettext("No shot found: try another number, other words or every game.");
  const more = $("#find-more");
  more.hidden = listed.length >= found.length;
  more.textContent = interpolate(gettext("Show %s more"), [Math.min(FIND_PAGE, found.length - listed.length)]);
  list.replaceChildren();
  for (const shot of listed) {
    const item = document.createElement("li");
    item.dataset.seq = String(shot.seq);
    if (amending && amending.seq === shot.seq) item.setAttribute("aria-current", "true");
    const words = document.createElement("span");
    words.textContent = shotLine(shot, names, numbers.get(shot.seq));
    item.append(words, button(gettext("Amend"), "amend", () => onAmend(shot)));
    list.append(item);
  }
}

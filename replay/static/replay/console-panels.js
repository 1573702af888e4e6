// The console's Game and Correct tabs, filled from the match state.

import { rulingInWords } from "./words.js";
import { button } from "./console-queue-view.js";

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

/** Fill the Correct tab: the latest shot to undo, the shots to amend (onAmend(shot)). */
export function renderCorrect(root, { state, names, amending, onAmend }) {
  const $ = (selector) => root.querySelector(selector);
  const latest = latestShot(state);
  $("#retract-what").textContent = latest
    ? interpolate(gettext("Shot %(seq)s: %(words)s"), { seq: latest.seq, words: rulingInWords(latest.ruling, names, latest.player) }, true)
    : gettext("No shot to undo.");
  $("#retract-form").querySelector("button").disabled = !latest;
  const list = $("#shot-list");
  const shown = (state.shots || []).filter((shot) => !shot.retracted).slice(-40).reverse();
  const signature = shown.map((shot) => `${shot.seq}:${shot.amended}`).join(",") + (amending ? amending.seq : "");
  if (list.dataset.signature === signature) return;
  list.dataset.signature = signature;
  list.replaceChildren();
  for (const shot of shown) {
    const item = document.createElement("li");
    const words = document.createElement("span");
    words.textContent = interpolate(gettext("Shot %(seq)s, game %(game)s, %(name)s: %(words)s"), {
      seq: shot.seq, game: shot.game, name: names[shot.player],
      words: rulingInWords(shot.ruling, names, shot.player) + (shot.amended ? ` (${gettext("amended")})` : ""),
    }, true);
    item.append(words, button(gettext("Amend"), "amend", () => onAmend(shot)));
    list.append(item);
  }
}

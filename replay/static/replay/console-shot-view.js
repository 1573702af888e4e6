// The console's shot panel drawn from the draft: what may be tapped, the contacts, the preview.
//
// The view: draft, amending, player, names, cueBalls, restBall; preview, the preview of the
// facts shown ({state, ruling, error, field}); confirmable, whether Confirm may record them;
// unchanged, an amendment whose facts are still those in force.

import { rulingInWords } from "./words.js";
import { contactInWords } from "./console-words.js";

/** Return "NAME plays the white/yellow ball" whole, so that each language inflects the ball its way. */
function playsWith(ball) {
  return ball === "white" ? gettext("%(name)s plays the white ball") : gettext("%(name)s plays the yellow ball");
}

/** Draw the shot panel: the moving ball, what may be tapped, the contacts so far, the fouls. */
export function renderShotPanel(root, view) {
  const { draft, amending, player, names, cueBalls, restBall } = view;
  const $ = (selector) => root.querySelector(selector);
  const $$ = (selector) => Array.from(root.querySelectorAll(selector));
  const name = names[player] || "";
  $("#shot-who").textContent = amending
    ? interpolate(gettext("Amending shot %(number)s (game %(game)s) by %(name)s"),
      { number: amending.number, game: amending.game, name }, true)
    : player ? interpolate(playsWith(cueBalls[player]), { name }, true)
      : gettext("No shot is due");
  const moving = draft.movingBalls();
  const off = draft.offBalls();
  for (const chip of $$("[data-actor]")) {
    const ball = chip.dataset.actor;
    chip.disabled = !moving.includes(ball) || off.has(ball);
    chip.setAttribute("aria-pressed", String(draft.actor === ball));
  }
  for (const chip of $$("[data-struck]")) chip.setAttribute("aria-pressed", String(draft.struck === chip.dataset.struck));
  for (const tap of $$("[data-hit]")) {
    const hit = tap.dataset.hit;
    tap.disabled = off.has(draft.actor) || hit === draft.actor;
  }
  const own = draft.own;
  for (const role of $$("[data-role-of]")) {
    const ball = role.dataset.roleOf;
    role.textContent = ball === own ? gettext("cue ball") : ball === "red" ? "" : gettext("opponent's ball");
  }
  const fallen = draft.fallenPins();
  for (const pin of $$("button[data-pin]")) pin.disabled = off.has(draft.actor) || fallen.has(pin.dataset.pin);
  $("#same-time").setAttribute("aria-pressed", String(draft.sameTime));
  $("#same-time").disabled = !draft.contacts.length;
  const contacts = $("#contacts");
  contacts.replaceChildren();
  for (const contact of draft.contacts) {
    const item = document.createElement("li");
    item.textContent = contactInWords(contact);
    contacts.append(item);
  }
  // Nothing to undo or clear: the Confirm has the whole width.
  $("#undo-tap").hidden = !draft.history.length;
  $("#clear-shot").hidden = draft.isEmpty();
  if (!draft.contacts.length) {
    const item = document.createElement("li");
    item.className = "none";
    item.textContent = gettext("No contact yet: tap what the moving ball hit, in order.");
    contacts.append(item);
  } else if (draft.sameTime) {
    // "At the same time" waits for the next contact: said where the taps are read.
    const item = document.createElement("li");
    item.className = "same-time";
    item.textContent = gettext("the next contact at the same time as the last");
    contacts.append(item);
  }
  contacts.scrollLeft = contacts.scrollWidth; // the latest tap in sight
  $("#called-count").textContent = draft.called.length ? `(${draft.called.length})` : "";
  for (const toggle of $$("[data-called]")) {
    toggle.setAttribute("aria-pressed", String(draft.called.includes(toggle.dataset.called)));
  }
  for (const chip of $$("[data-rest]")) {
    const ball = chip.dataset.rest;
    chip.setAttribute("aria-pressed", String(restBall === ball));
    chip.classList.toggle("set", Boolean(draft.rest[ball]));
  }
  renderPreviewBox(root, view);
}

/** Return what a ruling gave: "foul", "points" (to the shooter) or "nothing"; "" with none. */
function verdictOf(ruling) {
  if (!ruling) return "";
  if ((ruling.fouls && ruling.fouls.length) || ruling.scorer === "opponent") return "foul";
  return ruling.points > 0 ? "points" : "nothing";
}

/** Draw the preview (the ruling in words, or why there is none) and enable the confirm. */
function renderPreviewBox(root, { preview, amending, player, names, confirmable, unchanged, consequences }) {
  const $ = (selector) => root.querySelector(selector);
  const box = $("#preview");
  box.dataset.state = preview.state;
  // A foul is not a success: the box says which it is, and is coloured so.
  box.dataset.verdict = preview.state === "ok" ? verdictOf(preview.ruling) : "";
  const words = {
    empty: "",
    idle: gettext("No shot is due: the console shows the preview once a game is under way."),
    offline: gettext("No preview while offline: the shot is judged when the server has it."),
    waiting: gettext("No preview while submissions are waiting: the shot is judged when they are recorded."),
    loading: gettext("Asking the engine…"),
    sending: gettext("Recording the submission before; then the engine judges this shot…"),
    ok: preview.ruling ? rulingInWords(preview.ruling, names, preview.ruling.player || player) : "",
    error: preview.field ? interpolate(gettext("Refused: %(error)s (field %(field)s)"), { error: preview.error, field: preview.field }, true)
      : interpolate(gettext("Refused: %s"), [preview.error]),
  }[preview.state];
  box.textContent = words || "";
  const compare = $("#amend-compare");
  compare.hidden = !amending;
  $("#cancel-amend").hidden = !amending;
  if (amending) {
    $("#amend-original").textContent = rulingInWords(amending.ruling, names, amending.player);
    $("#amend-preview").textContent = preview.state === "ok" ? words : "—";
  }
  $("#amend-unchanged").hidden = !unchanged;
  renderConsequences(root, amending && !unchanged ? consequences : null);
  $("#confirm-shot").disabled = !confirmable;
}

/** Draw what an amendment would change beyond its match (the preview's sentences), before
 * it is confirmed: a started match it would dispute stands out. */
export function renderConsequences(root, consequences) {
  const box = root.querySelector("#amend-consequences");
  const list = root.querySelector("#amend-consequence-list");
  if (!box || !list) return;
  const state = consequences ? consequences.state : "none";
  box.dataset.state = state;
  box.hidden = state === "none";
  const lines = state === "ok" ? consequences.said : [];
  const words = {
    loading: [gettext("Working out what it changes…")],
    ok: lines.length ? lines : [gettext("Nothing beyond this match's result.")],
    error: [gettext("What it changes cannot be worked out now.")],
  }[state] || [];
  box.dataset.disputes = String(state === "ok" && consequences.disputes > 0);
  list.replaceChildren(...words.map((line) => {
    const item = document.createElement("li");
    item.textContent = line;
    return item;
  }));
}

// Staff's forms on a competition's page: enter a player (with a seed in a competition in
// stages), seed them all by the rating, schedule the round robin, draw a stage or undo its draw, withdraw a player,
// set the hall's tables, assign a referee, each through the API (api.js: the session's login and its CSRF token). A
// refusal is shown with the field it names; what is stored shows once the page is loaded
// again, with a sentence saying what was done (kept for the page loaded again).

import { api } from "./api.js";

/** Where a sentence waits while the page is loaded again (this tab's session storage). */
export const SAID_KEY = "carambole.staff.said";

/** Return a form's filled fields as an object (empty optional fields left out). */
function fieldsOf(form) {
  const fields = {};
  for (const [name, value] of new FormData(form)) {
    if (value !== "") fields[name] = name === "seed" ? Number(value) : value;
  }
  return fields;
}

/** Return the names a tables' field lists, one a line, blank lines left out. */
export function tableNames(text = "") {
  return text.split("\n").map((line) => line.trim()).filter((line) => line !== "");
}

/** Return the call a staff form makes: [method, url, body]. */
export function callOf(action, fields, competitionId) {
  const competition = encodeURIComponent(competitionId);
  const calls = {
    enter: (f) => ["POST", `/api/competitions/${competition}/players`, f],
    "round-robin": (f) => ["POST", `/api/competitions/${competition}/round-robin`, f],
    draw: ({ stage, ...f }) => [
      "POST", `/api/competitions/${competition}/stages/${encodeURIComponent(stage)}/draw`, f,
    ],
    // A body, though empty, carries the session's CSRF token.
    undo: ({ stage }) => [
      "DELETE", `/api/competitions/${competition}/stages/${encodeURIComponent(stage)}/draw`, {},
    ],
    withdraw: ({ player, reason }) => [
      "POST", `/api/competitions/${competition}/players/${encodeURIComponent(player)}/withdrawal`,
      { reason },
    ],
    tables: (f) => ["POST", `/api/competitions/${competition}/tables`, { tables: tableNames(f.tables) }],
    seeds: (f) => ["POST", `/api/competitions/${competition}/seeds`, { order: "rating", ...f }],
    referee: (f) => [
      "PUT",
      `/api/matches/${encodeURIComponent(f.match)}/referee`,
      { username: f.username },
    ],
  };
  return calls[action](fields);
}

/** Return the text of a form's chosen option in `name`'s select, or "". */
function chosen(form, name) {
  const select = form.elements[name];
  return select && select.selectedOptions[0] ? select.selectedOptions[0].textContent.trim() : "";
}

/** Return the sentence that says what a staff form did. */
export function doneWords(action, fields, form) {
  const stage = form ? form.dataset.stageName : "";
  const words = {
    enter: () => interpolate(gettext("Entered: %s."), [fields.name]),
    seeds: () => gettext("Every player is seeded by the rating."),
    "round-robin": () => gettext("The round robin is scheduled: its matches are in the schedule."),
    draw: () => interpolate(gettext("%s is drawn: its matches are made."), [stage]),
    undo: () => interpolate(gettext("The draw of %s is undone: its matches are removed."), [stage]),
    withdraw: () => interpolate(gettext("Withdrawn: %s."), [form ? chosen(form, "player") : fields.player]),
    referee: () => interpolate(gettext("%s is the referee of %s."), [
      fields.username, form ? chosen(form, "match") : fields.match,
    ]),
  };
  return words[action] ? words[action]() : gettext("Done.");
}

/**
 * Show what the last staff form did before this page was loaded: a staff form's sentence
 * in the staff's status line (scrolled to, where the form was); the competition just
 * created, in the line under the page's title, above its stages as stored.
 */
function showSaid(result, head = document.querySelector("[data-created]")) {
  let said = null;
  try {
    said = JSON.parse(window.sessionStorage.getItem(SAID_KEY) || "null");
    window.sessionStorage.removeItem(SAID_KEY);
  } catch {
    return; // no storage in this browser: the page as loaded says what is stored
  }
  if (!said || !said.text) return;
  const line = said.created ? head : result;
  if (!line) return;
  line.hidden = false;
  line.className = `${line.className.split(" ")[0]} done`;
  line.textContent = said.text;
  // The staff's heading at the top of the screen, the sentence under it.
  if (!said.created) (line.closest("section") || line).scrollIntoView({ block: "start" });
}

async function submit(form, section, result) {
  const [method, url, body] = callOf(form.dataset.action, fieldsOf(form), section.dataset.competition);
  const answer = await api(url, { method, body });
  const sent = answer.body || {};
  if (answer.status < 200 || answer.status > 299) {
    const field = sent.field ? ` (${sent.field})` : "";
    result.textContent = interpolate(gettext("Refused: %s"), [`${sent.error || answer.status}${field}`]);
    result.className = "staff-result refused";
    return;
  }
  result.className = "staff-result done";
  if (form.dataset.action === "tables") {
    // What was stored, shown back in the form and in words: the page stays as it is.
    const names = (sent.tables || []).map((card) => card.table);
    form.elements.tables.value = names.join("\n");
    result.textContent = names.length
      ? interpolate(gettext("The tables are saved: %s."), [names.join(", ")])
      : gettext("The tables are saved: none.");
    return;
  }
  const done = doneWords(form.dataset.action, fieldsOf(form), form);
  result.textContent = done;
  if (form.dataset.action === "referee") return;
  try {
    window.sessionStorage.setItem(SAID_KEY, JSON.stringify({ text: done }));
    // The page loaded again scrolls to the sentence, not back to where this form was.
    window.history.scrollRestoration = "manual";
  } catch {
    // No storage: the page loaded again shows what is stored, without the sentence.
  }
  window.location.reload();
}

/** Return a form's status line, made at its end. */
function statusLine(form) {
  const line = document.createElement("p");
  line.className = "staff-result";
  line.dataset.result = "";
  line.setAttribute("role", "status");
  form.append(line);
  return line;
}

/** Wire the staff's forms of a competition's page (`section`: its #staff). */
export function start(section = document.getElementById("staff")) {
  if (!section) return;
  const result = section.querySelector(":scope > [data-result]");
  for (const form of section.querySelectorAll("form[data-action]")) {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      // What cannot be taken back (an undone draw, a withdrawal) is asked again first.
      if (form.dataset.confirm && !window.confirm(form.dataset.confirm)) return;
      // Each form answers beside its button, where the eyes are: a refusal at the top of
      // the staff's section could be a screen away on a phone. What a reload shows comes
      // under the section's heading (`showSaid`).
      const said = form.querySelector("[data-result]") || statusLine(form);
      submit(form, section, said).catch(() => {
        said.className = "staff-result refused";
        said.textContent = gettext("Not sent: the server cannot be reached.");
      });
    });
  }
  showSaid(result); // once every form answers
}

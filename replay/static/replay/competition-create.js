// The staff's form on the competitions' page: a new competition, played as one round robin,
// as groups then a knockout, or as a knockout, each stage with its own match length. The
// form's fields become the body of `POST /api/competitions/` (README, "Competitions and standings");
// a refusal is shown with the field it names, and a competition created opens its page,
// where its players are entered and its stages drawn.

import { api } from "./api.js";
import { SAID_KEY } from "./competition-staff.js";

const STAGES = {
  "round-robin": [],
  "groups-knockout": ["groups", "knockout"],
  knockout: ["knockout"],
};

/** Return the ruleset overrides named `prefix` + target and best_of, as numbers. */
function rulesetOf(fields, prefix = "") {
  const ruleset = {};
  for (const key of ["target", "best_of"]) {
    const value = fields[`${prefix}${key}`];
    if (value !== undefined && value !== "") ruleset[key] = Number(value);
  }
  return ruleset;
}

/** Return one stage of the body: its shape, from the form's fields of that stage. */
function stageOf(kind, fields, twoStages) {
  const stage = kind === "groups"
    ? { id: "groups", kind, groups: Number(fields.groups || 1) }
    : { id: "ko", kind: "knockout", third_place: fields.third_place === "on" };
  if (kind === "groups" && twoStages) stage.advance = Number(fields.advance || 1);
  if (kind === "knockout") {
    if (fields.size) stage.size = Number(fields.size);
    if (twoStages) {
      stage.from = "groups";
      if (fields.direct) stage.direct = Number(fields.direct);
    }
  }
  const ruleset = rulesetOf(fields, `${kind}_`);
  if (Object.keys(ruleset).length) stage.ruleset = ruleset;
  return stage;
}

/** Return the body of `POST /api/competitions/` that the form's fields describe. */
export function bodyOf(fields) {
  const body = { name: fields.name };
  if (fields.id) body.id = fields.id;
  const ruleset = rulesetOf(fields);
  if (Object.keys(ruleset).length) body.ruleset = ruleset;
  const kinds = STAGES[fields.format] || [];
  if (kinds.length) {
    body.stages = kinds.map((kind) => stageOf(kind, fields, kinds.length > 1));
  }
  return body;
}

/** Show the fieldsets of the stages the chosen format has, and only those. */
function showStages(form) {
  const kinds = STAGES[form.elements.format.value] || [];
  for (const fieldset of form.querySelectorAll("fieldset[data-stage]")) {
    fieldset.hidden = !kinds.includes(fieldset.dataset.stage);
    fieldset.disabled = fieldset.hidden;
  }
  const direct = form.elements.direct;
  if (direct) direct.closest("label").hidden = !kinds.includes("groups");
}

/** Wire the form of the competitions' page (`section`: its #create). */
export function start(section = document.getElementById("create")) {
  if (!section) return;
  const form = section.querySelector("form[data-create]");
  const result = section.querySelector("[data-result]");
  form.elements.format.addEventListener("change", () => showStages(form));
  showStages(form);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const fields = Object.fromEntries(new FormData(form));
    let answer;
    try {
      answer = await api("/api/competitions/", { method: "POST", body: bodyOf(fields) });
    } catch {
      result.className = "staff-result refused";
      result.textContent = gettext("Not sent: the server cannot be reached.");
      return;
    }
    const sent = answer.body || {};
    if (answer.status !== 201) {
      const field = sent.field ? ` (${sent.field})` : "";
      result.className = "staff-result refused";
      result.textContent = interpolate(gettext("Refused: %s"), [`${sent.error || answer.status}${field}`]);
      return;
    }
    try {
      // Said on the competition's page, above its stages as stored (competition-staff.js).
      const name = sent.name || fields.name;
      const text = bodyOf(fields).stages
        ? interpolate(gettext("Created: %s. Its stages are shown as stored."), [name])
        : interpolate(gettext("Created: %s."), [name]);
      window.sessionStorage.setItem(SAID_KEY, JSON.stringify({ text, created: true }));
    } catch {
      // No storage: the page shows what is stored, without the sentence.
    }
    window.location.assign(`/competitions/${encodeURIComponent(sent.id)}/`);
  });
}

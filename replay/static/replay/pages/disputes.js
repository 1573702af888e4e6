// A competition's open disputes (staff): each decision's form sent through the API, asked
// again first (a decision is final), the page loaded again once it is recorded.

import { api } from "../api.js";

/** Return the body of a decision from its form's fields: a replacement's referee, if named,
 * only with a void (left out, the voided match's). */
export function decisionOf(fields) {
  const decision = { keep: fields.get("keep") === "true", reason: fields.get("reason") || "" };
  const referee = (fields.get("referee") || "").trim();
  if (!decision.keep && referee) decision.referee = referee;
  return decision;
}

function start(section = document.getElementById("disputes")) {
  if (!section) return;
  const result = section.querySelector("[data-result]");
  const competition = encodeURIComponent(section.dataset.competition);
  for (const form of section.querySelectorAll("form[data-decision]")) {
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      if (!window.confirm(form.dataset.confirm)) return;
      const slot = encodeURIComponent(form.closest("[data-slot]").dataset.slot);
      const url = `/api/competitions/${competition}/slots/${slot}/decision`;
      try {
        const answer = await api(url, { method: "POST", body: decisionOf(new FormData(form)) });
        if (answer.status >= 200 && answer.status < 300) {
          window.location.reload();
          return;
        }
        const sent = answer.body || {};
        result.className = "staff-result refused";
        const why = sent.field ? `${sent.field}: ${sent.error}` : sent.error || answer.status;
        result.textContent = interpolate(gettext("Refused: %s"), [why]);
      } catch {
        result.className = "staff-result refused";
        result.textContent = gettext("Not sent: the server cannot be reached.");
      }
    });
  }
}

start();

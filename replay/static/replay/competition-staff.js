// Staff's forms on a competition's page: enter a player, schedule the round robin, assign
// a referee, each through the API (the session's login and its CSRF token). A refusal is
// shown with the field it names; what is stored shows once the page is loaded again.

const section = document.getElementById("staff");
const result = section.querySelector("[data-result]");
const csrf = section.querySelector("input[name=csrfmiddlewaretoken]").value;
const competition = encodeURIComponent(section.dataset.competition);

/** Return a form's filled fields as an object (empty optional fields left out). */
function fieldsOf(form) {
  const fields = {};
  for (const [name, value] of new FormData(form)) {
    if (value !== "") fields[name] = value;
  }
  return fields;
}

const ACTIONS = {
  enter: (f) => ["POST", `/api/competitions/${competition}/players`, f],
  "round-robin": (f) => ["POST", `/api/competitions/${competition}/round-robin`, f],
  referee: (f) => [
    "PUT",
    `/api/matches/${encodeURIComponent(f.match)}/referee`,
    { username: f.username },
  ],
};

async function submit(form) {
  const [method, url, body] = ACTIONS[form.dataset.action](fieldsOf(form));
  const answer = await fetch(url, {
    method,
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
    body: JSON.stringify(body),
  });
  const sent = await answer.json().catch(() => ({}));
  if (!answer.ok) {
    const field = sent.field ? ` (${sent.field})` : "";
    result.textContent = interpolate(gettext("Refused: %s"), [`${sent.error || answer.status}${field}`]);
    result.className = "staff-result refused";
    return;
  }
  result.className = "staff-result done";
  result.textContent = gettext("Done.");
  if (form.dataset.action !== "referee") window.location.reload();
}

for (const form of section.querySelectorAll("form[data-action]")) {
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    submit(form).catch(() => {
      result.className = "staff-result refused";
      result.textContent = gettext("Not sent: the server cannot be reached.");
    });
  });
}

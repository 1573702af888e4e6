// Signing a finished match's result off at the table: the referee confirms, then each
// player with the PIN the federation gave them (checked by the server, never kept here).
// Online only: a PIN is checked when it is sent, so nothing of it waits in the queue.

const ROLES = ["referee", "A", "B"];

/** Return who the sign-off names, in words: "the referee, Kovalenko". */
function whoConfirmed(by, names) {
  return by.map((role) => (role === "referee" ? gettext("the referee") : names[role])).join(", ");
}

/** Show the sign-off section once the match is finished (hidden otherwise). */
export function renderSignOff(root, { state, names, online, waiting }) {
  const section = root.querySelector("#sign-off");
  if (!section) return;
  const confirmed = state.confirmed || { head: 0, by: [], complete: false };
  section.hidden = state.status !== "finished";
  if (section.hidden) return;
  const said = section.querySelector("#sign-off-said");
  said.textContent = confirmed.complete
    ? gettext("The result is signed off by the referee and both players.")
    : confirmed.by.length
      ? interpolate(gettext("Confirmed by %s; waiting for the others."), [whoConfirmed(confirmed.by, names)])
      : gettext("Nobody has confirmed the result yet.");
  for (const role of ROLES) {
    const form = section.querySelector(`form[data-role="${role}"]`);
    const done = confirmed.by.includes(role);
    form.dataset.done = String(done);
    for (const control of form.querySelectorAll("input, button")) {
      control.disabled = done || !online || waiting;
    }
  }
}

/** Wire the sign-off forms: `send(body)` posts one confirmation, `after(answer)` follows. */
export function wireSignOff(root, { current, send, after }) {
  for (const form of root.querySelectorAll("#sign-off form[data-role]")) {
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const state = current();
      const role = form.dataset.role;
      const body = { expected_seq: state.seq, role, confirms: (state.confirmed || {}).head };
      if (role !== "referee") body.pin = form.elements.pin.value;
      const answer = await send(body);
      form.reset(); // a PIN, right or wrong, is not left on the screen
      after(answer, role);
    });
  }
}

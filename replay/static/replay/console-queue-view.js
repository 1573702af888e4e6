// The console's queue panel: the submissions waiting, and the referee's choice after a pause.

/**
 * Show what waits in the queue, and why it is paused, with a resend and a drop for each.
 *
 * labelOf(item): the item in words, a shot named by the seq it gets if recorded where it waits.
 */
export function renderQueue(root, { queue, state, online, labelOf }) {
  const $ = (selector) => root.querySelector(selector);
  const panel = $("#queue-panel");
  panel.hidden = !queue.length;
  if (!queue.length) return;
  const paused = queue.paused;
  panel.dataset.paused = paused ? paused.reason : "";
  let title = interpolate(ngettext("%s submission waiting to be sent", "%s submissions waiting to be sent",
    queue.length), [queue.length]);
  let why = online ? gettext("Sending…") : gettext("The server cannot be reached. They leave in order when it is back; nothing is recorded twice.");
  if (paused && paused.reason === "conflict") {
    title = gettext("Another console recorded first");
    why = interpolate(gettext("The match is now at event %(seq)s; the table and score show it as it stands. Resend the first waiting submission after it, or drop it."),
      { seq: paused.seq ?? state.seq }, true);
  } else if (paused && paused.reason === "login") {
    title = gettext("Log in again to send");
    why = gettext("The server did not accept this login. The submissions stay here; log in again in another tab, then resend.");
  } else if (paused) {
    title = gettext("The server refused a submission");
    why = paused.field ? interpolate(gettext("%(error)s (field %(field)s)"), { error: paused.error, field: paused.field }, true)
      : paused.error;
  }
  $("#queue-title").textContent = title;
  $("#queue-why").textContent = why;
  const list = $("#queue-items");
  // Rebuilt only when it changes: a button replaced under the referee's finger loses the tap.
  const signature = JSON.stringify([queue.items.map((item) => [item.key, item.expected_seq]), paused, state.seq]);
  if (list.dataset.signature === signature) return;
  list.dataset.signature = signature;
  list.replaceChildren();
  queue.items.forEach((item, index) => {
    const entry = document.createElement("li");
    entry.dataset.key = item.key;
    const words = document.createElement("span");
    const label = labelOf(item);
    words.textContent = interpolate(gettext("%(label)s — after event %(seq)s"),
      { label, seq: item.expected_seq }, true);
    entry.append(words);
    if (paused && index === 0 && paused.reason !== "refused") {
      const after = paused.reason === "conflict" ? (paused.seq ?? state.seq) : item.expected_seq;
      entry.append(button(interpolate(gettext("Resend after event %s"), [after]), "resend",
        () => queue.resend(item.key, after)));
    }
    if (paused) {
      entry.append(button(gettext("Drop"), "drop", () => {
        if (window.confirm(interpolate(gettext("Drop “%s”? It will not be recorded."), [label]))) queue.drop(item.key);
      }));
    }
    list.append(entry);
  });
}

/** Return a small button that calls `onClick`. */
export function button(label, action, onClick) {
  const node = document.createElement("button");
  node.type = "button";
  node.className = `small ${action}`;
  node.dataset.action = action;
  node.textContent = label;
  node.addEventListener("click", onClick);
  return node;
}

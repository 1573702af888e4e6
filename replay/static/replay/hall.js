// A competition's hall, live: /ws/competitions/{id}/hall/ sends the whole hall on connect
// ({"type": "hall", ...}) and then each table whose card changed ({"type": "table",
// "card": {...}}): only that table's card is drawn again. A table whose match is under
// review, or whose console has been quiet for the hall's quiet_seconds (worked out here
// from active_at and the server's clock), stands out in colour and in words; so does a
// table with a match called to it. Staff call a waiting match to a free table through the
// API, and take a called match off its table again (it waits for a table once more); a
// called match links to its referee's console, and each call or cancel is said in the
// page's status line.

import { api } from "./api.js";
import { reconnecting, socketUrl } from "./socket.js";

const UNDER_WAY = ["lag", "playing", "review"];

/** Return the websocket address of a competition's hall, with the page's scheme. */
export function hallUrl(competitionId, location = window.location) {
  return socketUrl(`/ws/competitions/${encodeURIComponent(competitionId)}/hall/`, location);
}

/** Return whether a card's console is quiet at `now` (ms, the server's clock). */
export function isQuiet(card, now, quietSeconds) {
  const match = card.match;
  if (!match || !UNDER_WAY.includes(match.status)) return false;
  if (!match.active_at) return true;
  return now - Date.parse(match.active_at) > quietSeconds * 1000;
}

/** Return whether staff may call a match to the table: nothing under way there, none called. */
export function isFree(card) {
  return !card.next && (!card.match || !UNDER_WAY.includes(card.match.status));
}

/** Return a match's round in words: "Round 2", "Group A · round 2", "Semi-final"; or "". */
export function placeWords(place) {
  if (!place) return "";
  if (place.text) return place.text;
  if (place.third_place) return gettext("Third-place match");
  if (place.group) {
    return place.round
      ? interpolate(gettext("Group %s · round %s"), [place.group, place.round])
      : interpolate(gettext("Group %s"), [place.group]);
  }
  const fromTheEnd = place.rounds ? place.rounds - place.round : -1;
  if (fromTheEnd === 0) return gettext("Final");
  if (fromTheEnd === 1) return gettext("Semi-final");
  if (fromTheEnd === 2) return gettext("Quarter-final");
  return interpolate(gettext("Round %s"), [place.round]);
}

/** Return a match as a choice or a call names it: its round, then its players. */
export function matchWords(match) {
  const players = `${match.players.A} — ${match.players.B}`;
  const round = placeWords(match.place);
  return round ? `${round} · ${players}` : players;
}

function element(tag, className, text) {
  const made = document.createElement(tag);
  if (className) made.className = className;
  if (text !== undefined) made.textContent = text;
  return made;
}

function statusWords(match) {
  return {
    lag: gettext("Lag"),
    playing: gettext("Playing"),
    review: gettext("Under review"),
    finished: gettext("Finished"),
    void: gettext("Void"),
  }[match.status] || match.status;
}

function side(match, player) {
  const row = element("div", `side side-${player}`);
  if (match.due === player) row.classList.add("due");
  const name = element("span", "name", match.players[player]);
  if (match.due === player) {
    name.append(element("span", "visually-hidden", ` (${gettext("to shoot")})`));
  }
  if (match.winner === player) row.classList.add("winner");
  row.append(
    name,
    element("span", "games", interpolate(gettext("games %s"), [match.games_won[player]])),
    element("span", "score", String(match.score[player])),
  );
  row.querySelector(".games").title = gettext("Games won");
  row.querySelector(".score").title = gettext("This game's score");
  return row;
}

/** Return what a void match's card says of it: a decision replaced it, and by what. */
function replacedBy(match) {
  const line = element("p", "replaced");
  const replacement = match.replacement;
  if (!replacement) {
    line.textContent = gettext("Voided by a decision: its replacement waits for its players.");
    return line;
  }
  line.append(element("span", "", gettext("Voided by a decision; replaced by") + " "));
  const link = element("a", "", `${replacement.players.A} — ${replacement.players.B}`);
  link.href = `/matches/${encodeURIComponent(replacement.id)}/`;
  line.append(link);
  return line;
}

/** Draw one table's card. */
function cardOf(card, hall) {
  const article = element("article", "table-card");
  article.dataset.table = card.table;
  article.dataset.version = card.version;
  const head = element("header", "card-head");
  head.append(element("h2", "table-name", interpolate(gettext("Table %s"), [card.table])));
  const flag = element("span", "flag");
  head.append(flag);
  article.append(head);
  const match = card.match;
  if (match) {
    article.dataset.match = match.id;
    article.dataset.status = match.status;
    article.append(side(match, "A"), side(match, "B"));
    const meta = element("p", "card-meta");
    const parts = [statusWords(match)];
    if (match.game) parts.push(interpolate(gettext("game %s"), [match.game]));
    if (match.due) parts.push(interpolate(gettext("%s to shoot"), [match.players[match.due]]));
    meta.append(element("span", "", parts.join(" · ") + " · "));
    const board = element("a", "", gettext("board"));
    board.href = `/matches/${encodeURIComponent(match.id)}/`;
    meta.append(board);
    article.append(meta);
    if (match.status === "void") article.append(replacedBy(match));
  } else {
    article.append(element("p", "no-match", gettext("No match at this table")));
  }
  if (card.next) {
    const next = element("p", "next-match");
    next.append(element("span", "next-label", gettext("Next:") + " "));
    if (hall.staff) {
      // The called match, a tap from the console its referee records it on.
      const link = element("a", "console-link", matchWords(card.next));
      link.href = `/referee/matches/${encodeURIComponent(card.next.id)}/`;
      link.title = gettext("Open its console");
      next.append(link);
    } else {
      next.append(element("span", "", matchWords(card.next)));
    }
    article.append(next);
    if (hall.staff) article.append(uncallForm(card, hall));
  }
  if (hall.staff && isFree(card) && hall.waiting.length) article.append(callForm(card, hall));
  return article;
}

/** Say in the hall's status line what a staff action did. */
function said(hall, text) {
  if (hall.said) hall.said.textContent = text;
}

/** Send a staff action and show its refusal, if any, beside its button; say what it did. */
async function act(button, error, path, options, done) {
  button.disabled = true;
  error.textContent = "";
  try {
    const answer = await api(path, options);
    if (answer.status >= 400) error.textContent = answer.body ? answer.body.error : String(answer.status);
    else done();
  } catch {
    error.textContent = gettext("The server could not be reached: try again.");
  } finally {
    button.disabled = false;
  }
}

/** The button that takes the match called next off the table: it waits for a table again. */
function uncallForm(card, hall) {
  const form = element("form", "uncall");
  const button = element("button", "", gettext("Cancel the call"));
  button.type = "submit";
  button.setAttribute(
    "aria-label",
    interpolate(gettext("Cancel the call of %s to table %s"), [matchWords(card.next), card.table]),
  );
  const error = element("span", "call-error");
  error.setAttribute("role", "alert");
  form.append(button, error);
  form.addEventListener("submit", (submitted) => {
    submitted.preventDefault();
    const words = matchWords(card.next);
    act(button, error, `/api/matches/${encodeURIComponent(card.next.id)}/table`, {
      method: "PUT",
      body: { table: null },
    }, () => said(hall, interpolate(gettext("Call cancelled: %s waits for a table."), [words])));
  });
  return form;
}

function callForm(card, hall) {
  const form = element("form", "call-next");
  const label = element("label", "visually-hidden", interpolate(gettext("Match to call to table %s"), [card.table]));
  const select = element("select");
  select.name = "match";
  select.id = `call-${card.table}`;
  label.htmlFor = select.id;
  for (const waiting of hall.waiting) {
    const option = element("option", "", matchWords(waiting));
    option.value = waiting.id;
    select.append(option);
  }
  const button = element("button", "", gettext("Call next"));
  button.type = "submit";
  const error = element("span", "call-error");
  error.setAttribute("role", "alert");
  form.append(label, select, button, error);
  form.addEventListener("submit", (submitted) => {
    submitted.preventDefault();
    const words = select.selectedOptions[0] ? select.selectedOptions[0].textContent : "";
    act(
      button,
      error,
      `/api/competitions/${encodeURIComponent(hall.competition)}/tables/${encodeURIComponent(card.table)}/call`,
      { method: "POST", body: { match: select.value } },
      () => said(hall, interpolate(gettext("Called to table %s: %s."), [card.table, words])),
    );
  });
  return form;
}

/** Mark a drawn card quiet, under review, called or free, in colour and in words. */
function flagCard(article, card, now, quietSeconds) {
  const match = card.match;
  const quiet = isQuiet(card, now, quietSeconds);
  const review = Boolean(match && match.status === "review");
  article.classList.toggle("quiet", quiet);
  article.classList.toggle("review", review);
  article.classList.toggle("free", isFree(card));
  article.classList.toggle("called", Boolean(card.next));
  const words = [];
  if (review) words.push(gettext("Under review"));
  if (quiet) words.push(gettext("Console quiet"));
  if (!words.length && card.next) words.push(gettext("Match called"));
  if (!words.length && isFree(card)) words.push(gettext("Free"));
  const flag = article.querySelector(".flag");
  flag.textContent = words.join(" · ");
}

/** Follow the hall of the page's competition, live. */
export function start(root = document.getElementById("hall")) {
  const competitionId = root.dataset.competition;
  const staff = root.dataset.staff === "true";
  const status = document.querySelector("[data-status]");
  // Where a staff action is said: not redrawn with the cards, so it stays while they change.
  const saidLine = document.querySelector("[data-said]");
  let hall = { ...JSON.parse(document.getElementById("hall-data").textContent), staff, said: saidLine };
  let offset = Date.parse(hall.now) - Date.now(); // the server's clock less this browser's
  const cards = new Map();

  const serverNow = () => Date.now() + offset;
  const flagAll = () => {
    for (const card of hall.tables) {
      const drawn = cards.get(card.table);
      if (drawn) flagCard(drawn, card, serverNow(), hall.quiet_seconds);
    }
  };
  const drawAll = () => {
    root.replaceChildren();
    cards.clear();
    if (!hall.tables.length) {
      const empty = element("p", "empty", gettext("This competition has no tables yet."));
      if (staff) {
        // The tables are set on the competition's page, in the staff's form.
        const set = element("a", "", gettext("Set its tables"));
        set.href = `/competitions/${encodeURIComponent(competitionId)}/#tables`;
        empty.append(" ", set);
      }
      root.append(empty);
    }
    for (const card of hall.tables) {
      const drawn = cardOf(card, hall);
      cards.set(card.table, drawn);
      root.append(drawn);
    }
    flagAll();
  };
  const drawOne = (card) => {
    const index = hall.tables.findIndex((known) => known.table === card.table);
    if (index < 0) return;
    if (hall.tables[index].version === card.version && cards.has(card.table)) return;
    hall.tables[index] = card;
    const drawn = cardOf(card, hall);
    const old = cards.get(card.table);
    if (old) old.replaceWith(drawn);
    else root.append(drawn);
    cards.set(card.table, drawn);
    flagCard(drawn, card, serverNow(), hall.quiet_seconds);
  };

  // The tables in order and the matches waiting: what every card is drawn beside.
  const outlineOf = (shown) => JSON.stringify([shown.tables.map((card) => card.table), shown.waiting]);

  const apply = (message) => {
    if (message.now) offset = Date.parse(message.now) - Date.now();
    if (message.type === "hall") {
      // The whole hall (on every connect): only the cards that changed are drawn again.
      const same = outlineOf(message) === outlineOf(hall) && cards.size === hall.tables.length;
      if (same) {
        hall = { ...message, staff, said: saidLine, tables: [...hall.tables] };
        for (const card of message.tables) drawOne(card);
      } else {
        hall = { ...message, staff, said: saidLine };
        drawAll();
      }
    } else if (message.type === "table") {
      drawOne(message.card);
    }
  };
  const showStatus = (state) => {
    status.className = `live-status ${state}`;
    status.textContent = {
      live: gettext("Live"),
      reconnecting: gettext("Reconnecting…"),
      closed: gettext("Not live"),
    }[state];
  };

  drawAll();
  setInterval(flagAll, 1000);
  return reconnecting(() => hallUrl(competitionId), { onMessage: apply, onStatus: showStatus });
}

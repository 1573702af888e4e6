// A competition's standings, live: /ws/competitions/{id}/ sends them on connect and at
// each new version ({"type": "standings", "version": v, "standings": {...}}). The table
// is drawn again with each player's move since the previous version, and the history of
// what changed is taken again from the competition's history page. A dropped socket is
// opened again after 1 s, 2 s, 4 s, ... at most 10 s, with ?version= the version shown:
// the server sends at once what is newer. A competition in stages also gets {"type": "stages", "version": v,
// ...} at each new version of its stages: its groups, bracket and ranking are drawn again.

import { playerKey } from "./player-key.js";
import { reconnecting, socketUrl } from "./socket.js";

let section = null;
// The label of each column, as the server wrote it in the table's head: a phone shows it
// beside the value (the row stacked), so the page never needs its own words for them.
let labels = [];

/**
 * Return the websocket address of a competition's standings, with the page's scheme; with
 * the version the page shows, the server sends only what is newer.
 */
export function standingsUrl(competitionId, location = window.location, version = 0) {
  const path = `/ws/competitions/${encodeURIComponent(competitionId)}/`;
  return socketUrl(version > 0 ? `${path}?version=${version}` : path, location);
}

/** Return the oldest version the page shows: the standings', and the stages' if live. */
function shownVersion() {
  const versions = [Number(section.dataset.version || 0)];
  const stages = document.getElementById("stages");
  if (stages && !stages.dataset.at) versions.push(Number(stages.dataset.version || 0));
  return Math.min(...versions);
}

/**
 * Return an average as the page writes its numbers: three decimals, in the page's language
 * (a decimal comma in Ukrainian, as the rows the server drew).
 */
export function averageText(average, lang = document.documentElement.lang) {
  const format = { minimumFractionDigits: 3, maximumFractionDigits: 3, useGrouping: false };
  return new Intl.NumberFormat(lang || "en", format).format(average);
}

function cell(text, className) {
  const td = document.createElement("td");
  td.textContent = text;
  if (className) td.className = className;
  return td;
}

function labelled(cells) {
  cells.forEach((td, i) => {
    if (labels[i]) td.dataset.label = labels[i];
  });
  return cells;
}

/** Return the cell of a row's move: ▲n up, ▼n down, empty when it stayed or is new. */
function moveCell(change) {
  const td = cell("", "move");
  if (!change) return td;
  const mark = document.createElement("span");
  const places = Math.abs(change);
  mark.className = change > 0 ? "up" : "down";
  mark.textContent = `${change > 0 ? "▲" : "▼"}${places}`;
  const text = change > 0
    ? ngettext("up %s place", "up %s places", places)
    : ngettext("down %s place", "down %s places", places);
  mark.title = interpolate(text, [places]);
  td.append(mark);
  return td;
}

function playerCell(row) {
  const td = cell("", "player");
  const link = document.createElement("a");
  const key = playerKey(row.player_id, row.player_key);
  link.href = section.dataset.playerUrl.replace("KEY", encodeURIComponent(key));
  link.textContent = row.player;
  td.append(link);
  return td;
}

function drawRows(rows, previous) {
  const body = section.querySelector("[data-rows]");
  const drawn = rows.map((row) => {
    const tr = document.createElement("tr");
    tr.dataset.player = row.player_key;
    const before = previous.get(String(row.player_key));
    if (row.change || (before !== undefined && before !== JSON.stringify(row))) {
      tr.className = "changed";
    }
    tr.append(...labelled([
      cell(row.rank, "rank"),
      moveCell(row.change),
      playerCell(row),
      cell(row.played, "minor"),
      cell(row.won, "minor"),
      cell(row.lost, "minor"),
      cell(row.match_points, "score match-points"),
      cell(`${row.games_won}–${row.games_lost}`, "score minor"),
      cell(`${row.points_for}–${row.points_against}`, "score minor"),
      cell(averageText(row.average), "score minor"),
    ]));
    return tr;
  });
  body.replaceChildren(...drawn);
}

function drawMeta(standings) {
  const pending = ngettext(
    "%s match not counted yet (in play or under review)",
    "%s matches not counted yet (in play or under review)",
    standings.pending,
  );
  section.querySelector("[data-pending]").textContent = interpolate(pending, [standings.pending]);
  section.querySelector("[data-version-text]").textContent = interpolate(
    gettext("version %s"),
    [standings.version],
  );
  section.dataset.version = standings.version;
}

/** Fetch the history page again and show its list in place of the one shown. */
async function refreshHistory() {
  const shown = document.querySelector("[data-history]");
  if (!shown) return; // a competition in stages: its draw's history comes with its stages
  const answer = await fetch(section.dataset.historyUrl, { headers: { Accept: "text/html" } });
  if (!answer.ok) return;
  const page = new DOMParser().parseFromString(await answer.text(), "text/html");
  const fresh = page.querySelector("[data-history]");
  if (fresh) shown.replaceChildren(...fresh.childNodes);
}

function showStatus(state) {
  const status = section.querySelector("[data-status]");
  status.className = `live-status ${state}`;
  status.textContent = {
    live: gettext("Live"),
    reconnecting: gettext("Reconnecting…"),
    closed: gettext("Not live"),
  }[state];
}

let shownRows = new Map();

/** Open in `fresh` each group's "More columns" the viewer opened in `shown`. */
function keepOpen(shown, fresh) {
  for (const opened of shown.querySelectorAll("details.more-columns[open]")) {
    const same = fresh.querySelector(`details.more-columns[data-group="${CSS.escape(opened.dataset.group)}"]`);
    if (same) same.open = true;
  }
}

/** Draw a competition's stages again (groups, bracket, ranking) when their version grew:
 * the page is asked for again and its #stages put in place of the one shown. A view as of
 * a version (?at=V) stays as it stood. */
async function refreshStages(version) {
  const shown = document.getElementById("stages");
  if (!shown || shown.dataset.at || version <= Number(shown.dataset.version || 0)) return;
  const answer = await fetch(window.location.pathname, { headers: { Accept: "text/html" } });
  if (!answer.ok) return;
  const page = new DOMParser().parseFromString(await answer.text(), "text/html");
  const fresh = page.getElementById("stages");
  const now = document.getElementById("stages");
  if (fresh && Number(fresh.dataset.version) > Number(now.dataset.version || 0)) {
    keepOpen(now, fresh);
    now.replaceWith(document.importNode(fresh, true));
    document.dispatchEvent(new CustomEvent("stages-drawn"));
  }
}

function apply(message) {
  if (message.type === "stages") {
    refreshStages(message.version).catch(() => {});
    return;
  }
  if (message.type !== "standings" || message.version <= Number(section.dataset.version || 0)) {
    return;
  }
  // A competition in stages shows no table of its own (its stages rank it): only the
  // version is kept, and the history of what changed taken again.
  if (section.querySelector("[data-rows]")) {
    drawRows(message.standings.rows, shownRows);
    drawMeta(message.standings);
  }
  section.dataset.version = message.standings.version;
  shownRows = new Map(message.standings.rows.map((r) => [String(r.player_key), JSON.stringify(r)]));
  refreshHistory().catch(() => {});
}

/** Follow the standings of the page's competition (`section`: its #standings), live. */
export function start(shown = document.getElementById("standings")) {
  if (!shown) return null;
  section = shown;
  labels = [...section.querySelectorAll("thead th")].map((th) => th.dataset.label || "");
  const competitionId = section.dataset.competition;
  return reconnecting(() => standingsUrl(competitionId, window.location, shownVersion()), {
    onMessage: apply,
    onStatus: showStatus,
  });
}

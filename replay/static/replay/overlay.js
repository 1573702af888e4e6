// The stream overlay: the score line, live over the match's websocket.

import { api } from "./api.js";
import { connectLive } from "./live.js";
import { currentGame, lastStanding, momentOf, pointsOf, shotPoints } from "./scoreboard.js";
import { drawScoreLine, rulesLine, scoreLine } from "./scoreline.js";

const $ = (selector) => document.querySelector(selector);

/** Return the strip's words for the last shot's points ({points, to, foul}), or "". */
export function lastPoints(points, names) {
  if (!points) return "";
  if (!points.points) return gettext("Last shot: no points");
  const parts = { points: points.points, name: names[points.to] };
  return interpolate(points.foul ? gettext("Last shot: foul, %(points)s to %(name)s")
    : gettext("Last shot: %(points)s to %(name)s"), parts, true);
}

function draw(data, state, lastEvent, points) {
  drawScoreLine((player) => $(`.side[data-player="${player}"]`), scoreLine(state));
  $("#rules").textContent = rulesLine(currentGame(state), { target: data.target });
  const moment = momentOf(state, data.names, lastEvent);
  $("#moment").dataset.moment = moment.kind;
  $("#moment").textContent = moment.text;
  if (points !== undefined) $("#last-points").textContent = lastPoints(points, data.names);
}

/** Return the last shot that stands in the match now, null for none, undefined unknown. */
async function lastStandingNow(match) {
  try {
    const answer = await api(`/api/matches/${encodeURIComponent(match)}/state`);
    if (answer.status !== 200 || !answer.body) return undefined;
    return lastStanding(answer.body.shots, answer.body.games);
  } catch {
    return undefined; // the strip waits for the next shot or a reload
  }
}

/** Start the overlay: draw the page's `board-data` again, then follow the match live. */
export function start() {
  const data = JSON.parse(document.getElementById("board-data").textContent);
  let state = data.state;
  let lastShot = data.lastShot ? { seq: data.lastShot.seq, player: data.lastShot.player } : null;
  document.body.dataset.seq = data.seq;
  draw(data, state, data.lastEvent, shotPoints(data.lastShot));

  return connectLive(data.match, {
    after: data.seq,
    onEvent(message) {
      const previous = state;
      state = message.state;
      const event = message.event;
      let points;
      if (event.type === "shot" && state.ruling) {
        lastShot = { seq: message.seq, player: event.player || (previous.next && previous.next.player) };
        points = pointsOf(state.ruling, lastShot.player);
      } else if (event.type === "shot_amended" || event.type === "shot_retracted") {
        // The last shot that stands now (the one before a retracted one, an amended one as
        // amended) is in the match's state alone: asked for, as a reload would paint it.
        const asOf = message.seq;
        lastStandingNow(data.match).then((shot) => {
          if (shot === undefined || Number(document.body.dataset.seq) !== asOf) return;
          lastShot = shot ? { seq: shot.seq, player: shot.player } : null;
          draw(data, state, event, shotPoints(shot));
        });
      }
      draw(data, state, event, points);
      document.body.dataset.seq = message.seq;
    },
    onStatus(status) {
      const node = $("#connection");
      node.dataset.connection = status;
      node.title = status === "live" ? gettext("Live") : gettext("Reconnecting…");
    },
  });
}

// Every moment of a match has a kind: what the console says the match is waiting for.
//
// momentOf(state, names, lastEvent, balls) → {kind, title, detail, tab}: kind is one of lag, break,
// playing, between, intermission, review, forfeit, finished; tab is the console's tab
// the referee most likely needs next.

import { currentGame } from "./scoreboard.js";

const OTHER = { A: "B", B: "A" };

function gameOf(state, number) {
  return (state.games || []).find((game) => game.game === number) || null;
}

/** Return the moment of a match: its kind, a title and a line of detail, in words. */
export function momentOf(state, names, lastEvent = null, balls = {}) {
  const name = (player) => names[player] || player;
  const next = state.next;
  if (state.status === "lag") {
    const lags = state.lags || [];
    const last = lags[lags.length - 1];
    let detail = gettext("Record the lag, or start game 1 with the breaker drawn by lot.");
    if (last && last.winner) {
      detail = interpolate(gettext("%s won the lag and chooses who breaks game 1."), [name(last.winner)]);
    } else if (last) {
      detail = gettext("The lag must be played again.");
    }
    return { kind: "lag", title: gettext("Lag"), detail, tab: "game" };
  }
  if (state.status === "review") {
    return {
      kind: "review", title: gettext("Under review"),
      detail: gettext("An amendment left a finished game short of its target: amend a shot to resolve it."),
      tab: "correct",
    };
  }
  if (state.status === "finished") {
    // Decided by the last game played (a void one after it was not played).
    const last = currentGame(state);
    const forfeit = Boolean(last && last.end === "forfeit");
    const winner = state.winner ? name(state.winner) : "";
    const games = state.games_won || {};
    // The winner's games first, as the board and the standings write a result.
    const detail = interpolate(gettext("%(winner)s wins the match, %(won)s–%(lost)s in games."),
      { winner, won: games[state.winner] ?? 0, lost: games[OTHER[state.winner]] ?? 0 }, true);
    return forfeit
      ? { kind: "forfeit", title: gettext("Forfeit"), detail, tab: "correct" }
      : { kind: "finished", title: gettext("Match finished"), detail, tab: "correct" };
  }
  if (!next) {
    return { kind: "review", title: gettext("Under review"), detail: "", tab: "correct" };
  }
  const game = gameOf(state, next.game);
  if (lastEvent && lastEvent.type === "intermission") {
    const detail = game
      ? interpolate(gettext("A pause of %(minutes)s minutes; then %(name)s plays."),
        { minutes: lastEvent.minutes, name: name(next.player) }, true)
      : interpolate(gettext("A pause of %(minutes)s minutes before game %(game)s."),
        { minutes: lastEvent.minutes, game: next.game }, true);
    return { kind: "intermission", title: gettext("Intermission"), detail, tab: game ? "shot" : "game" };
  }
  if (!game) {
    const previous = gameOf(state, next.game - 1);
    let detail = interpolate(gettext("Game %(game)s: %(name)s breaks."),
      { game: next.game, name: name(next.player) }, true);
    if (previous && previous.winner) {
      const how = previous.end === "forfeit" ? gettext("%(name)s won game %(game)s by forfeit.")
        : gettext("%(name)s won game %(game)s.");
      detail = `${interpolate(how, { name: name(previous.winner), game: previous.game }, true)} ${detail}`;
    }
    return { kind: "between", title: gettext("Between games"), detail, tab: "game" };
  }
  if (next.break) {
    const placed = Boolean((state.positions || {})[balls[next.player]]);
    return {
      kind: "break", title: interpolate(gettext("Break of game %s"), [next.game]),
      detail: placed ? interpolate(gettext("%s breaks: record the break."), [name(next.player)])
        : interpolate(gettext("%s breaks: place the ball in the lower half, then record the break."),
          [name(next.player)]),
      tab: placed ? "shot" : "place",
    };
  }
  const detail = next.ball_in_hand
    ? interpolate(gettext("%s plays with ball in hand."), [name(next.player)])
    : interpolate(gettext("%s to play."), [name(next.player)]);
  return { kind: "playing", title: interpolate(gettext("Game %s"), [next.game]), detail, tab: "shot" };
}

/** Return the balls whose position is unknown (never an invented position). */
export function unknownBalls(state) {
  return Object.entries(state.positions || {}).filter(([, at]) => !at).map(([ball]) => ball);
}

/** Return who plays after a shot or a foul recorded offline, when the server cannot say. */
export function nextPlayerAfter(event, player) {
  if (event.type === "shot") return OTHER[player];
  if (event.type === "foul" && event.player === player) return OTHER[player];
  if (event.type === "game_started") return event.breaker;
  return player;
}

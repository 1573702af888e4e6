// The scoreboard of a match for viewers: its current game, its moment, the ball-in-hand
// zone, a shot's points. The twin of replay/web/board_context.py: the same sentences, so the page
// reads the same before and after the script takes over.

const OTHER = { A: "B", B: "A" };

/**
 * Return the game being played or last played, or null before the first.
 *
 * A void game (started after an amendment decided the match earlier) was never played:
 * the match's last game is the one before it.
 */
export function currentGame(state) {
  const played = (state.games || []).filter((game) => !isVoidGame(game));
  return played.length ? played[played.length - 1] : null;
}

/** Return whether a game is void: started after the match was decided. */
export function isVoidGame(game) {
  return Boolean(game && game.flags && game.flags.includes("void_game"));
}

/**
 * Return the last shot that stands, of a game played, or null: the board's and the overlay's
 * "last shot", as a fresh load paints it. A retracted shot never happened; a void game's
 * shots counted for nothing.
 */
export function lastStanding(shots, games) {
  const voided = new Set((games || []).filter(isVoidGame).map((game) => game.game));
  const shown = shots.filter((shot) => !shot.retracted && !voided.has(shot.game));
  return shown.length ? shown[shown.length - 1] : null;
}

/** Return the half where the ball in hand (or the break's ball) goes, "any", or null. */
export function zoneOf(next) {
  if (!next || !(next.ball_in_hand || next.break)) return null;
  return next.zone || "any";
}

/** Return who receives a ruling's points: its player, or the opponent after a foul. */
export function receiverOf(ruling, player) {
  return ruling.scorer === "opponent" ? OTHER[player] : player;
}

/** Return who received a shot's points and how many: {points, to, foul}. */
export function pointsOf(ruling, player) {
  if (!ruling) return null;
  const to = receiverOf(ruling, player);
  return { points: ruling.points, to: ruling.points ? to : null, foul: ruling.fouls.length > 0 };
}

/** Return what a shot of the state gave: a void one scored nothing, whatever its ruling. */
export function shotPoints(shot) {
  if (!shot) return null;
  const points = pointsOf(shot.ruling, shot.player);
  return shot.void ? { ...points, points: 0, to: null } : points;
}

/**
 * Return the moment of the match for a viewer: {kind, text}.
 *
 * Kinds: lag, break, playing, between, intermission, review, forfeit, finished.
 * lastEvent: the event just applied (an intermission shows only as an event).
 */
export function momentOf(state, names, lastEvent = null) {
  const name = (player) => names[player] || player;
  const next = state.next;
  const won = state.games_won || { A: 0, B: 0 };
  const review = { kind: "review", text: gettext("Under review: the referee is checking a game's result") };
  if (state.status === "lag") return { kind: "lag", text: gettext("Lag: the players decide who breaks") };
  if (state.status === "review") return review;
  if (state.status === "finished") {
    const last = currentGame(state);
    if (last && last.end === "forfeit") {
      return {
        kind: "forfeit",
        text: interpolate(gettext("%(winner)s wins the match: %(loser)s forfeited"),
          { winner: name(state.winner), loser: name(OTHER[state.winner]) }, true),
      };
    }
    return {
      kind: "finished",
      // The winner's games first, as the standings write a result.
      text: interpolate(gettext("%(winner)s wins the match %(won)s–%(lost)s"),
        { winner: name(state.winner), won: won[state.winner], lost: won[OTHER[state.winner]] }, true),
    };
  }
  if (!next) return review;
  const due = name(next.player);
  const current = currentGame(state);
  if (next.game !== current.game) {
    if (lastEvent && lastEvent.type === "intermission") {
      return {
        kind: "intermission",
        text: interpolate(gettext("Intermission before game %(game)s"), { game: next.game }, true),
      };
    }
    const parts = {
      game: current.game, winner: name(current.winner), loser: name(OTHER[current.winner]),
      // The winner's points first, as for the match.
      won: current.score[current.winner || "A"], lost: current.score[OTHER[current.winner || "A"]],
      next: next.game, breaker: due,
    };
    if (current.end === "forfeit") {
      return {
        kind: "forfeit",
        text: interpolate(gettext(
          "Game %(game)s to %(winner)s: %(loser)s forfeited. Next: game %(next)s, %(breaker)s breaks",
        ), parts, true),
      };
    }
    return {
      kind: "between",
      text: interpolate(gettext(
        "Game %(game)s to %(winner)s, %(won)s–%(lost)s. Next: game %(next)s, %(breaker)s breaks",
      ), parts, true),
    };
  }
  if (next.break) {
    return {
      kind: "break",
      text: interpolate(gettext("Game %(game)s: %(name)s breaks from the lower half"),
        { game: next.game, name: due }, true),
    };
  }
  if (next.ball_in_hand) {
    const sentence = {
      lower: gettext("%s to play, with ball in hand in the lower half"),
      upper: gettext("%s to play, with ball in hand in the upper half"),
    }[next.zone] || gettext("%s to play, with ball in hand in either half");
    return { kind: "playing", text: interpolate(sentence, [due]) };
  }
  return { kind: "playing", text: interpolate(gettext("%s to play"), [due]) };
}

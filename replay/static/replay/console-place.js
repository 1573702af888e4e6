// Where a ball may be placed: the half the rules give the ball in hand, checked before it is sent.
//
// The engine's rule (matches/domain/rules/table.py `in_half`, matches/domain/rules/placement.py `check_placement`): at
// the break, and with ball in hand, the due player's ball lies wholly in its half, its
// centre at least one ball radius from the centre line. A re-spot and the offender's ball
// put on its spot are not zoned; what else the engine refuses (an overlap) it says itself.

import { geometry } from "./table.js";

/** Return whether a ball at `point` lies wholly in the `half` ("lower" or "upper"). */
export function inHalf(point, half) {
  const { ballRadius: BALL_RADIUS, centreLine: CENTRE_LINE } = geometry();
  return half === "lower" ? point[1] <= CENTRE_LINE - BALL_RADIUS : point[1] >= CENTRE_LINE + BALL_RADIUS;
}

/**
 * Return why a ball may not be placed at `point`, in words, or "" when the zone allows it.
 *
 * next: the state's `next` ({player, zone, ball_in_hand}); ball, reason: the Place form's;
 * balls: each player's ball ({A: "white", B: "yellow"}).
 */
export function zoneRefusal(next, { ball, reason }, point, balls) {
  if (!point || !next || !next.zone || reason === "respot" || ball !== balls[next.player]) return "";
  if (inHalf(point, next.zone)) return "";
  if (!next.ball_in_hand) {
    // The break, or the break position again after balls in contact.
    return gettext("Not there: at the break the ball goes wholly in the lower half, clear of the centre line.");
  }
  return next.zone === "lower"
    ? gettext("Not there: the ball in hand goes wholly in the lower half, clear of the centre line.")
    : gettext("Not there: the ball in hand goes wholly in the upper half, clear of the centre line.");
}

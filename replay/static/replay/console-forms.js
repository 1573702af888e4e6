// The console's forms turned into events of the notation (everything but a shot).
//
// Each builder takes the form's FormData and returns the event, or throws an Error whose
// message names what is missing, in the page's language.

function text(data, name) {
  return String(data.get(name) || "").trim();
}

function needed(value, message) {
  if (value === "" || value === null || value === undefined) throw new Error(message);
  return value;
}

function whole(data, name, message) {
  const raw = text(data, name);
  const number = Number(raw);
  if (raw === "" || !Number.isFinite(number)) throw new Error(message);
  return number;
}

function withReason(event, data, required = false) {
  const reason = text(data, "reason");
  if (required) needed(reason, gettext("Give a reason."));
  if (reason) event.reason = reason;
  return event;
}

/**
 * Return one player's lag result from the form, or null when a winner makes it needless.
 *
 * With a winner, a distance and a fault are each optional; without one, the rules decide
 * the lag from the distances, so both are needed.
 */
function lagResult(data, player, winner) {
  const result = {};
  if (text(data, `${player}-distance`) !== "" || !winner) {
    result.distance = whole(data, `${player}-distance`, winner
      ? interpolate(gettext("Give the distance of player %s's ball."), [player])
      : gettext("Choose who won the lag, or give both distances."));
  }
  const fault = text(data, `${player}-fault`);
  if (fault) result.fault = fault;
  return Object.keys(result).length ? result : null;
}

function lagEvent(data) {
  const winner = text(data, "winner");
  const event = { type: "lag" };
  if (winner) event.winner = winner;
  for (const player of ["A", "B"]) {
    const result = lagResult(data, player, winner);
    if (result) event[player] = result;
  }
  if (data.get("collision")) event.collision = true;
  return event;
}

/** Return the event a console form records, from the form's id and its data. */
export function eventFromForm(formId, data, extra = {}) {
  switch (formId) {
    case "lag-form":
      return lagEvent(data);
    case "start-form":
      return {
        type: "game_started",
        game: whole(data, "game", gettext("Give the game's number.")),
        breaker: needed(text(data, "breaker"), gettext("Choose who breaks.")),
      };
    case "intermission-form":
      return { type: "intermission", minutes: whole(data, "minutes", gettext("Give the minutes.")) };
    case "place-form":
      return {
        type: "ball_placed",
        ball: needed(text(data, "ball"), gettext("Choose the ball.")),
        pos: needed(extra.pos, gettext("Tap the table where the ball is placed.")),
        reason: needed(text(data, "reason"), gettext("Choose why the ball is placed.")),
      };
    case "retract-form":
      return withReason(
        { type: "shot_retracted", shot: needed(extra.shot, gettext("There is no shot to undo.")) },
        data, true);
    case "respot-form":
      return withReason({ type: "balls_respotted" }, data);
    case "foul-form":
      return withReason({
        type: "foul",
        player: needed(text(data, "player"), gettext("Choose who committed the foul.")),
        code: needed(text(data, "code"), gettext("Choose the foul.")),
      }, data);
    case "forfeit-form":
      return withReason({
        type: needed(text(data, "type"), gettext("Choose what is forfeited.")),
        player: needed(text(data, "player"), gettext("Choose who forfeits.")),
      }, data);
    default:
      throw new Error(`unknown form ${formId}`);
  }
}

// Rulings and events in words, in the page's language (Django's JavaScript catalogue).
//
// A ruling is that of the notation: valid, first_contact, carom, pins, pin_points,
// carom_points, fouls, foul_points, scorer ("shooter" | "opponent" | null), points,
// ball_in_hand. Whose shot it was comes from `player` ("A" | "B"): the preview
// endpoint's answer carries it; a state's shot entry and a shot event carry it beside.

import { isVoidGame, receiverOf } from "./scoreboard.js";

/** Return the name of a foul code in the page's language. */
export function foulName(code) {
  const words = {
    wrong_ball: gettext("wrong ball"),
    miss: gettext("miss"),
    red_first: gettext("red ball first"),
    pins_first: gettext("pins first"),
    cue_pins: gettext("pins with the cue ball"),
    off_table: gettext("ball off the table"),
    balls_moving: gettext("balls still moving"),
    not_tip: gettext("not with the tip"),
    double_hit: gettext("double hit"),
    cleaning: gettext("touched to clean"),
    displaced: gettext("ball or pin displaced"),
    contact_push: gettext("ball in contact pushed"),
    feet: gettext("foot off the floor"),
    placement: gettext("ball touched before it was placed"),
    jump: gettext("jumped over the pins"),
    touched: gettext("ball or pin touched"),
    push_shot: gettext("push shot"),
  };
  return words[code] || code;
}

/** Return the pins that fell in words: "the red pin alone", "2 white pins", ... or "". */
export function pinsInWords(pins) {
  const fallen = pins || [];
  const whites = fallen.filter((pin) => pin !== "center").length;
  const red = fallen.includes("center");
  if (red && whites === 4) return gettext("the whole figure");
  if (red && whites === 0) return gettext("the red pin alone");
  if (red) {
    return interpolate(
      ngettext("the red pin and %s white pin", "the red pin and %s white pins", whites),
      [whites],
    );
  }
  if (whites) return interpolate(ngettext("%s white pin", "%s white pins", whites), [whites]);
  return "";
}

/** Return the carom in words ("kiss carom", "ricochet") or "". */
export function caromInWords(carom) {
  if (carom === "kiss") return gettext("kiss carom");
  if (carom === "ricochet") return gettext("ricochet");
  return "";
}

/** Return what the shot obtained (carom and pins) in words, or "". */
export function obtainedInWords(ruling) {
  const carom = caromInWords(ruling.carom);
  const pins = pinsInWords(ruling.pins);
  if (carom && pins) return interpolate(gettext("%(carom)s and %(pins)s"), { carom, pins }, true);
  return carom || pins;
}

function capitalised(text) {
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

/** Return what a shot did without the points it would have scored (a void shot scores none). */
function doneInWords(ruling) {
  const obtained = obtainedInWords(ruling);
  if (ruling.fouls && ruling.fouls.length) {
    const fouls = ruling.fouls.map(foulName).join(", ");
    return obtained
      ? interpolate(gettext("Foul (%(fouls)s) with %(obtained)s"), { fouls, obtained }, true)
      : interpolate(gettext("Foul (%(fouls)s)"), { fouls }, true);
  }
  return obtained ? capitalised(obtained) : gettext("Valid shot, no points");
}

/**
 * Return a ruling in words: "Ricochet and the red pin alone: 11 to Kovalenko",
 * "Foul (pins with the cue ball): 2 to Marchetti".
 *
 * names: {A: "Kovalenko", B: "Marchetti"}; player: who played the shot
 * (default: ruling.player, as the preview endpoint gives it).
 */
export function rulingInWords(ruling, names = {}, player = ruling && ruling.player) {
  if (!ruling) return "";
  const what = doneInWords(ruling);
  if (!(ruling.fouls && ruling.fouls.length) && !obtainedInWords(ruling)) return what;
  const scorer = receiverOf(ruling, player);
  const name = (scorer && names[scorer]) || scorer;
  let sentence;
  if (!ruling.points || !name) {
    sentence = interpolate(gettext("%(what)s: no points"), { what }, true);
  } else {
    sentence = interpolate(
      gettext("%(what)s: %(points)s to %(name)s"), { what, points: ruling.points, name }, true,
    );
  }
  if (ruling.fouls && ruling.fouls.length && ruling.ball_in_hand) {
    sentence = interpolate(gettext("%s, with ball in hand"), [sentence]);
  }
  return sentence;
}

/**
 * Return how every page names a shot: by its number, its place among the match's shots in
 * log order ("shot 1" is the first; retracted and void ones count), with its game beside it
 * ("shot 48 (game 2)") where the game is not obvious.
 */
export function shotName(number, game = null) {
  if (game === null || game === undefined) {
    return interpolate(gettext("shot %(number)s"), { number }, true);
  }
  return interpolate(gettext("shot %(number)s (game %(game)s)"), { number, game }, true);
}

/**
 * Return each shot's number by its seq, from shots in log order (a match state's `shots`,
 * retracted and void ones too): its place among them, the first 1.
 */
export function shotNumbers(shots) {
  return new Map(shots.map((shot, index) => [shot.seq, index + 1]));
}

/** Return the shot a correction names: by its number when known, else by its event. */
function correctedShot(seq, { game = null, number = null } = {}) {
  if (number) return shotName(number, game);
  return interpolate(gettext("the shot of event %(seq)s"), { seq }, true);
}

/** Return whether a shot is void because its game started after the match was decided. */
export function inVoidGame(shot, games = []) {
  return isVoidGame(games.find((entry) => entry.game === shot.game));
}

/**
 * Return a shot entry of the match state in words, marking a void, retracted or amended one.
 *
 * A void shot scored nothing: its words claim no points and say why it is void, from its
 * game in `games` (the state's): the match was already decided, or the game already won.
 */
export function shotInWords(shot, names = {}, games = []) {
  if (shot.void && !shot.retracted) {
    const done = doneInWords(shot.ruling);
    return inVoidGame(shot, games)
      ? interpolate(gettext("%s (void: the match was already decided)"), [done])
      : interpolate(gettext("%s (void: the game was already won)"), [done]);
  }
  const words = rulingInWords(shot.ruling, names, shot.player);
  if (shot.retracted) return interpolate(gettext("%s (retracted)"), [words]);
  if (shot.amended) return interpolate(gettext("%s (amended)"), [words]);
  return words;
}

/**
 * Return an event that is not a shot in words (the board's line for it), or "".
 *
 * A correction names its shot as shotName does, by `number` (its place among the match's
 * shots; without it, by its event); `game`: the shot's game, where the page does not make
 * it obvious.
 */
export function eventInWords(event, names = {}, { game = null, number = null } = {}) {
  const name = (player) => names[player] || player;
  switch (event.type) {
    case "lag":
      return gettext("Lag played");
    case "game_started":
      return interpolate(gettext("Game %(game)s started: %(name)s breaks"),
        { game: event.game, name: name(event.breaker) }, true);
    case "ball_placed":
      return {
        white: gettext("The white ball was placed"),
        yellow: gettext("The yellow ball was placed"),
        red: gettext("The red ball was placed"),
      }[event.ball] || "";
    case "shot_amended":
      return interpolate(gettext("%(shot)s amended: %(reason)s"),
        { shot: capitalised(correctedShot(event.shot, { game, number })),
          reason: event.reason || "" }, true);
    case "shot_retracted":
      return interpolate(gettext("%(shot)s retracted: %(reason)s"),
        { shot: capitalised(correctedShot(event.shot, { game, number })),
          reason: event.reason || "" }, true);
    case "balls_respotted":
      return gettext("Balls in contact: put back in the break position");
    case "foul":
      return interpolate(gettext("Foul outside a stroke (%(foul)s) by %(name)s"),
        { foul: foulName(event.code), name: name(event.player) }, true);
    case "intermission":
      return interpolate(gettext("Intermission: %s min"), [event.minutes]);
    case "game_forfeited":
      return interpolate(gettext("%s forfeits the game"), [name(event.player)]);
    case "match_forfeited":
      return interpolate(gettext("%s forfeits the match"), [name(event.player)]);
    default:
      return "";
  }
}

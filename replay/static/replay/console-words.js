// The console's own words: a submission, a tapped contact, a ball, a pin.

import { ballName } from "./table.js";
import { eventInWords } from "./words.js";

/**
 * Return a submission in words, for the queue's list and "Recorded": a shot named by its
 * number (its place among the match's shots), a correction naming its shot so too.
 *
 * numberOf(seq): the number of the shot recorded (or to be recorded) at that seq.
 */
export function describe(event, names, seq, numberOf) {
  if (event.type !== "shot") {
    const number = event.shot ? numberOf(event.shot) : null;
    return eventInWords(event, names, { number }) || event.type;
  }
  const taps = (event.contacts || []).map(contactInWords).join(", ") || gettext("no contact");
  return interpolate(gettext("Shot %(number)s by %(name)s: %(taps)s"),
    { number: numberOf(seq), name: names[event.player] || event.player, taps }, true);
}

/** Return one tapped contact in words: "white → yellow". */
export function contactInWords(contact) {
  const what = contact.hit === "pins" ? contact.pins.map(pinWord).join("+")
    : contact.hit === "cushion" ? gettext("cushion")
      : contact.hit === "off" ? gettext("off the table") : ballName(contact.hit);
  return `${ballName(contact.ball)} → ${what}${contact.same_time ? " (=)" : ""}`;
}

export function pinWord(pin) {
  return {
    center: gettext("centre pin"), top: gettext("top pin"), bottom: gettext("bottom pin"),
    left: gettext("left pin"), right: gettext("right pin"),
  }[pin] || pin;
}

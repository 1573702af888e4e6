// The console's own words: a submission, a tapped contact, a ball, a pin.

import { ballName } from "./table.js";
import { eventInWords } from "./words.js";

/** Return a submission in words, a shot named by its seq: for the queue's list and "Recorded". */
export function describe(event, names, seq) {
  if (event.type !== "shot") return eventInWords(event, names) || event.type;
  const taps = (event.contacts || []).map(contactInWords).join(", ") || gettext("no contact");
  return interpolate(gettext("Shot %(seq)s by %(name)s: %(taps)s"),
    { seq, name: names[event.player] || event.player, taps }, true);
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

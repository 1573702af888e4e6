// The key of a player's page, /players/{key}/, written as replay/queries/player_keys.py
// writes it (its docstring gives the rule; a browser test compares the two on awkward ids):
// the federation id with `~`, `/`, control characters and line separators escaped as
// `~u` and four hex digits, and a space at either end too; `~N` for a player without one.
// The character classes are the notation's own, given by the page (constants.js).

import { constants } from "./constants.js";

let patterns = null;

function compiled() {
  if (patterns === null) {
    const { not_in_an_id: control, spaces } = constants().player_key;
    patterns = {
      always: new RegExp(`[~/${control}]`, "g"),
      atAnEnd: new RegExp(`^[${spaces}]|[${spaces}]$`, "g"),
    };
  }
  return patterns;
}

function escaped(character) {
  return `~u${character.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/** Return the key of a player's page: their federation id (escaped), else `~` and their row. */
export function playerKey(federationId, pk) {
  if (!federationId) return `~${pk}`;
  if (federationId === "." || federationId === "..") return federationId.replace(/\./g, escaped);
  const { always, atAnEnd } = compiled();
  return federationId.replace(always, escaped).replace(atAnEnd, escaped);
}

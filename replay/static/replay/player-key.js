// The key of a player's page, /players/{key}/, written as replay/pages/player_keys.py
// writes it (its docstring gives the rule; a browser test compares the two on awkward ids):
// the federation id with `~`, `/`, control characters and line separators escaped as
// `~u` and four hex digits, and a space at either end too; `~N` for a player without one.

const ALWAYS_ESCAPED = /[~/\x00-\x1f\x7f-\x9f\u2028\u2029]/g;
const SPACE_AT_AN_END =
  /^[ \xa0\u1680\u2000-\u200a\u202f\u205f\u3000\ufeff]|[ \xa0\u1680\u2000-\u200a\u202f\u205f\u3000\ufeff]$/g;

function escaped(character) {
  return `~u${character.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/** Return the key of a player's page: their federation id (escaped), else `~` and their row. */
export function playerKey(federationId, pk) {
  if (!federationId) return `~${pk}`;
  if (federationId === "." || federationId === "..") return federationId.replace(/\./g, escaped);
  return federationId.replace(ALWAYS_ESCAPED, escaped).replace(SPACE_AT_AN_END, escaped);
}

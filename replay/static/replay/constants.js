// The numbers and rules a script shares with the Python side, given by the page: the
// templates' {% script_constants %} writes them as JSON (json_script), so no script
// keeps a copy of the table's geometry, the called fouls or the player key's rule.

const ELEMENT_ID = "carambole-constants";
let given = null;

/** Return the page's constants: {table, called_fouls, player_key}, read once. */
export function constants() {
  if (given === null) given = JSON.parse(document.getElementById(ELEMENT_ID).textContent);
  return given;
}

/** Use these constants instead of the page's (a test's own, or a page without the tag). */
export function useConstants(value) {
  given = value;
}

// What a page gives its scripts, for the tests: Django's JavaScript catalogue (gettext,
// ngettext, interpolate, here in English: each message is its own translation) and the
// constants the templates write (tests/fixtures/scripts/constants.json, which a pytest
// test compares with what the pages are given). Imported first by every test file.

import { readFileSync } from "node:fs";
import { useConstants } from "../../replay/static/replay/constants.js";

globalThis.gettext = (message) => message;
globalThis.ngettext = (singular, plural, count) => (count === 1 ? singular : plural);
// As Django's djangojs catalogue writes it.
globalThis.interpolate = (format, values, named) => (named
  ? format.replace(/%\(\w+\)s/g, (match) => String(values[match.slice(2, -2)]))
  : format.replace(/%s/g, () => String(values.shift())));

/** Return a shared fixture table of tests/fixtures/scripts/ (JSON). */
export function fixture(name) {
  return JSON.parse(readFileSync(new URL(`../fixtures/scripts/${name}`, import.meta.url), "utf-8"));
}

useConstants(fixture("constants.json"));

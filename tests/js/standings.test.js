// The standings a competition's socket redraws: numbers written as the server wrote them.

import "./globals.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import { averageText } from "../../replay/static/replay/standings.js";

test("an average on a Ukrainian page has a decimal comma, as the rows the server drew", () => {
  assert.equal(averageText(4.1225, "uk"), "4,123");
});

test("an average on an English page has a decimal point and three decimals", () => {
  assert.equal(averageText(4, "en"), "4.000");
});

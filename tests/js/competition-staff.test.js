// The staff's forms on a competition's page: the calls they make.

import "./globals.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import { callOf, doneWords, tableNames } from "../../replay/static/replay/competition-staff.js";

test("the tables are one a line, trimmed, blank lines left out", () => {
  assert.deepEqual(tableNames("1\n 2 \n\nShow table\n"), ["1", "2", "Show table"]);
  assert.deepEqual(tableNames(""), []);
});

test("the tables' form sets every table of the competition at once", () => {
  assert.deepEqual(callOf("tables", { tables: "1\n2" }, "cup"), [
    "POST", "/api/competitions/cup/tables", { tables: ["1", "2"] },
  ]);
  assert.deepEqual(callOf("tables", {}, "cup"), ["POST", "/api/competitions/cup/tables", { tables: [] }]);
});

test("each staff action is said in a sentence naming what it did", () => {
  assert.equal(doneWords("enter", { name: "Olena Kovalenko" }), "Entered: Olena Kovalenko.");
  assert.equal(doneWords("seeds", {}), "Every player is seeded by the rating.");
  assert.equal(doneWords("referee", { username: "bianchi", match: "cup-1" }), "bianchi is the referee of cup-1.");
  assert.equal(doneWords("withdraw", { player: "7" }), "Withdrawn: 7.");
});

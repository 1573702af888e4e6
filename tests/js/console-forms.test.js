// The console's lag form as the event it records: who won first, distances optional then.

import "./globals.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import { eventFromForm } from "../../replay/static/replay/console-forms.js";

/** Return the lag form's data as a FormData holding `fields`, the rest left empty. */
function lagForm(fields) {
  const data = new FormData();
  const empty = { "A-distance": "", "A-fault": "", "B-distance": "", "B-fault": "" };
  for (const [name, value] of Object.entries({ ...empty, ...fields })) data.append(name, value);
  return data;
}

test("a lag given its winner alone records the winner and nothing measured", () => {
  assert.deepEqual(eventFromForm("lag-form", lagForm({ winner: "B" })), { type: "lag", winner: "B" });
});

test("a lag given its winner keeps what was measured and the faults called", () => {
  const data = lagForm({ winner: "A", "A-distance": "95", "B-fault": "long_cushion" });

  assert.deepEqual(eventFromForm("lag-form", data), {
    type: "lag", winner: "A", A: { distance: 95 }, B: { fault: "long_cushion" },
  });
});

test("a lag without a winner records both distances for the rules to decide it", () => {
  const data = lagForm({ "A-distance": "120", "B-distance": "95", collision: "on" });

  assert.deepEqual(eventFromForm("lag-form", data), {
    type: "lag", A: { distance: 120 }, B: { distance: 95 }, collision: true,
  });
});

test("a lag with neither a winner nor both distances asks for one or the other", () => {
  assert.throws(() => eventFromForm("lag-form", lagForm({ "A-distance": "120" })),
    { message: "Choose who won the lag, or give both distances." });
  assert.throws(() => eventFromForm("lag-form", lagForm({})),
    { message: "Choose who won the lag, or give both distances." });
});

test("a distance that is not a number is refused, a winner given or not", () => {
  assert.throws(() => eventFromForm("lag-form", lagForm({ winner: "A", "B-distance": "far" })),
    { message: "Give the distance of player B's ball." });
});

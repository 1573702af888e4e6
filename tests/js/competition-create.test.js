// The staff's form that creates a competition: its fields become the body of the API's call.

import "./globals.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import { bodyOf } from "../../replay/static/replay/competition-create.js";

test("a round robin is a competition without stages", () => {
  assert.deepEqual(bodyOf({ name: "League", format: "round-robin", target: "40" }), {
    name: "League", ruleset: { target: 40 },
  });
});

test("groups then a knockout: the knockout takes the groups' qualifiers, each its own length", () => {
  const fields = {
    name: "Euro", id: "euro", target: "60", best_of: "3", format: "groups-knockout",
    groups: "2", advance: "2", groups_target: "", groups_best_of: "",
    size: "", direct: "", third_place: "on", knockout_target: "80", knockout_best_of: "5",
  };
  assert.deepEqual(bodyOf(fields), {
    name: "Euro", id: "euro", ruleset: { target: 60, best_of: 3 },
    stages: [
      { id: "groups", kind: "groups", groups: 2, advance: 2 },
      { id: "ko", kind: "knockout", third_place: true, from: "groups", ruleset: { target: 80, best_of: 5 } },
    ],
  });
});

test("a knockout alone takes the entries, and seeds who skip the groups go with it", () => {
  assert.deepEqual(bodyOf({ name: "Cup", format: "knockout", size: "16" }), {
    name: "Cup", stages: [{ id: "ko", kind: "knockout", third_place: false, size: 16 }],
  });
  const fields = { name: "World", format: "groups-knockout", groups: "4", advance: "1", direct: "4" };
  assert.deepEqual(bodyOf(fields).stages[1], {
    id: "ko", kind: "knockout", third_place: false, from: "groups", direct: 4,
  });
});

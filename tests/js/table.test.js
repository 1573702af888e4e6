// The table drawn to scale: the rules' millimetres as they are, turned over once, the
// balls where the state puts them (or last known), the pins that fell, the ball-in-hand zone.

import "./globals.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import { newDocument } from "./dom.js";
import {
  drawTable, geometry, lastKnown, onSurface, pinPositions, RAIL,
} from "../../replay/static/replay/table.js";
import { inHalf } from "../../replay/static/replay/console-place.js";

const names = { A: "Kovalenko", B: "Marchetti" };
const balls = { A: "white", B: "yellow" };

function drawn(view) {
  const body = newDocument();
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  body.append(svg);
  drawTable(svg, { balls, names, ...view });
  return { svg, legend: body.querySelector("ul.table-legend") };
}

test("the table's geometry is the rules' (the page's constants)", () => {
  const table = geometry();
  assert.equal(table.width, 1420);
  assert.equal(table.length, 2840);
  assert.equal(table.centreLine, 1420);
  assert.equal(table.ballRadius, 30.75);
  assert.deepEqual(table.balls, ["white", "yellow", "red"]);
});

test("the drawing keeps the rules' coordinates, the breaking end at the bottom", () => {
  const { svg } = drawn({ positions: { white: [300, 400], yellow: [710, 2000], red: [710, 2130] } });
  assert.equal(svg.getAttribute("viewBox"), `${-RAIL} ${-RAIL} ${1420 + 2 * RAIL} ${2840 + 2 * RAIL}`);
  assert.equal(svg.querySelector("g.surface").getAttribute("transform"), "translate(0 2840) scale(1 -1)");
  const white = svg.querySelector("circle[data-ball=white]");
  assert.equal(white.getAttribute("cx"), "300");
  assert.equal(white.getAttribute("cy"), "400");
  assert.equal(white.getAttribute("r"), "30.75");
  assert.equal(white.getAttribute("data-player"), "A");
  assert.equal(white.querySelector("title").textContent, "white ball: Kovalenko");
  assert.equal(svg.querySelector("circle[data-ball=red]").getAttribute("data-player"), null);
  assert.equal(svg.querySelectorAll("[data-spot]").length, 4, "the centre spot is under the red pin");
});

test("the pins stand where the pitch puts them; those that fell are marked", () => {
  assert.deepEqual(pinPositions(80), { center: [710, 1420], top: [710, 1500], bottom: [710, 1340], left: [630, 1420], right: [790, 1420] });
  assert.deepEqual(pinPositions().top, [710, 1420 + 71.5]);
  const { svg } = drawn({ positions: {}, fallen: ["left", "center"], pinPitch: 80 });
  const pins = svg.querySelectorAll("g.pin");
  assert.deepEqual(pins.map((pin) => pin.getAttribute("data-pin")), ["center", "top", "bottom", "left", "right"]);
  assert.deepEqual(svg.querySelectorAll("g[data-fallen=true]").map((pin) => pin.getAttribute("data-pin")), ["center", "left"]);
  assert.equal(svg.querySelector("g[data-pin=left] circle.pin-body").getAttribute("cx"), "630");
  assert.equal(svg.querySelector("g[data-pin=left] title").textContent, "Pin left: fell on the last shot");
});

test("a ball with no position is drawn where it was last known, unconfirmed, or not at all", () => {
  const { svg, legend } = drawn({
    positions: { white: null, yellow: null, red: [710, 2130] }, known: { white: [500, 600] },
  });
  const white = svg.querySelector("circle[data-ball=white]");
  assert.equal(white.getAttribute("data-confirmed"), "false");
  assert.equal(white.getAttribute("class"), "ball unconfirmed");
  assert.equal(svg.querySelector("circle[data-ball=yellow]"), null);
  const items = legend.querySelectorAll("li");
  assert.deepEqual(items.map((item) => item.className), ["unconfirmed", "unknown", ""]);
  assert.equal(items[1].textContent, "yellow ball: Marchetti — position unknown");
});

test("the ball-in-hand zone covers its half, or both for either", () => {
  const lower = drawn({ positions: {}, zone: "lower" }).svg.querySelectorAll("rect.zone");
  assert.deepEqual(lower.map((r) => [r.getAttribute("y"), r.getAttribute("height")]), [["0", "1420"]]);
  const upper = drawn({ positions: {}, zone: "upper" }).svg.querySelectorAll("rect.zone");
  assert.deepEqual(upper.map((r) => r.getAttribute("y")), ["1420"]);
  assert.equal(drawn({ positions: {}, zone: "any" }).svg.querySelectorAll("rect.zone").length, 2);
  assert.equal(drawn({ positions: {} }).svg.querySelectorAll("rect.zone").length, 0);
});

test("a ball keeps its last known place until a break, a re-spot or a fall off the table", () => {
  const before = { white: [100, 200], yellow: [300, 400], red: [710, 2130] };
  const moved = lastKnown(before, { white: null, yellow: [310, 410], red: null },
    { type: "shot", contacts: [{ ball: "white", hit: "red" }, { ball: "red", hit: "off" }] });
  assert.deepEqual(moved, { white: [100, 200], yellow: [310, 410], red: null });
  assert.deepEqual(lastKnown(before, { white: null, yellow: null, red: null }, { type: "game_started" }),
    { white: null, yellow: null, red: null });
});

test("a ball's centre is on the surface no nearer a cushion than its radius; a placement in its half", () => {
  assert.ok(onSurface([30.75, 30.75]));
  assert.ok(!onSurface([30, 100]));
  assert.ok(!onSurface([710, 2840 - 30]));
  assert.ok(inHalf([710, 1420 - 30.75], "lower"));
  assert.ok(!inHalf([710, 1420 - 30], "lower"));
  assert.ok(inHalf([710, 1451], "upper"));
});

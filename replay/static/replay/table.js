// The five-pins table (the rules' section 1) drawn to scale as SVG, in millimetres.
//
// Coordinates are those of the rules: x across the table (0 at the left long cushion),
// y along it (0 at the bottom short cushion, where the break is played). The drawing
// keeps them as they are (a ball's cx and cy are its position in mm) and turns the
// table over once, so the breaking end is at the bottom of the screen.

import { constants } from "./constants.js";

// The table's numbers are the rules' (matches/domain/rules/table.py), given by the page; what
// follows is the drawing's own. Pins are drawn larger than they are (10 mm), where the
// pitch puts them: at a phone's scale a pin to size is a pixel or two. Two marks still
// leave a ball's width between them.
export const PIN_MARK = 15;
export const RAIL = 70; // the cushion rail drawn around the playing surface

let measured = null;

/**
 * Return the table's geometry in mm: {width, length, centreLine, ballRadius, balls, pins,
 * spots: {name: [x, y]}, pinPitch (the default ruleset's)}.
 */
export function geometry() {
  if (measured === null) {
    const table = constants().table;
    measured = {
      width: table.width, length: table.length, centreLine: table.length / 2,
      ballRadius: table.ball_diameter / 2, balls: table.balls, pins: table.pins,
      spots: table.spots, pinPitch: table.pin_pitch,
    };
  }
  return measured;
}

const SVG = "http://www.w3.org/2000/svg";
const COLOURS = { white: "#fbfaf4", yellow: "#f2c230", red: "#c8102e" };

/** Return where each pin stands for a pin pitch, {name: [x, y]}. */
export function pinPositions(pitch = geometry().pinPitch) {
  const [x, y] = geometry().spots.centre;
  return {
    center: [x, y],
    top: [x, y + pitch],
    bottom: [x, y - pitch],
    left: [x - pitch, y],
    right: [x + pitch, y],
  };
}

function el(name, attributes = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

function titled(node, text) {
  el("title", {}, node).textContent = text;
  return node;
}

/** Return the word for a ball's colour in the page's language. */
export function ballName(ball) {
  const words = { white: gettext("white"), yellow: gettext("yellow"), red: gettext("red") };
  return words[ball] || ball;
}

/** Return the owner of each cue ball as {ball: player}, from {player: ball}. */
function owners(balls) {
  const found = {};
  for (const [player, ball] of Object.entries(balls || {})) found[ball] = player;
  return found;
}

/**
 * Draw the table into an <svg>: cloth, centre line, spots, pins, balls, the ball-in-hand zone.
 *
 * view: {positions: {white: [x, y] | null, ...}, balls: {A: "white", B: "yellow"},
 *        names: {A: "...", B: "..."}, fallen: ["left", ...], zone: "lower" | "upper" | "any",
 *        pinPitch: 71.5, legend: an element to list the balls in (optional),
 *        known: where each ball was last known to be, as lastKnown answers (optional)}.
 * A ball whose position is null is drawn where it was last known, marked as not confirmed;
 * with no known position it is not drawn, and the legend says its position is unknown.
 */
export function drawTable(svg, view = {}) {
  const { width: TABLE_WIDTH, length: TABLE_LENGTH, centreLine: CENTRE_LINE } = geometry();
  const positions = view.positions || {};
  const known = view.known || {};
  const fallen = new Set(view.fallen || []);
  const ownerOf = owners(view.balls);
  const names = view.names || {};
  svg.replaceChildren();
  svg.setAttribute(
    "viewBox",
    `${-RAIL} ${-RAIL} ${TABLE_WIDTH + 2 * RAIL} ${TABLE_LENGTH + 2 * RAIL}`,
  );
  svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
  svg.classList.add("table");
  if (!svg.hasAttribute("role")) svg.setAttribute("role", "img");
  titled(svg, gettext("The table"));

  el("rect", {
    class: "rail", x: -RAIL, y: -RAIL, rx: 28,
    width: TABLE_WIDTH + 2 * RAIL, height: TABLE_LENGTH + 2 * RAIL,
  }, svg);
  // The rules' coordinates, turned over: y grows up the screen from the breaking end.
  const surface = el("g", {
    class: "surface", transform: `translate(0 ${TABLE_LENGTH}) scale(1 -1)`,
  }, svg);
  el("rect", { class: "cloth", x: 0, y: 0, width: TABLE_WIDTH, height: TABLE_LENGTH }, surface);

  if (view.zone) {
    const lower = { x: 0, y: 0, width: TABLE_WIDTH, height: CENTRE_LINE };
    const upper = { ...lower, y: CENTRE_LINE };
    const halves = view.zone === "lower" ? [lower] : view.zone === "upper" ? [upper] : [lower, upper];
    for (const half of halves) {
      titled(el("rect", { class: "zone", "data-zone": view.zone, ...half }, surface),
        gettext("Ball in hand: placed in this half"));
    }
  }

  el("line", {
    class: "centre-line", x1: 0, y1: CENTRE_LINE, x2: TABLE_WIDTH, y2: CENTRE_LINE,
  }, surface);
  for (const [name, [x, y]] of Object.entries(geometry().spots)) {
    if (name === "centre") continue; // the centre pin stands there
    el("circle", { class: "spot", "data-spot": name, cx: x, cy: y, r: 9 }, surface);
  }

  const pins = el("g", { class: "pins" }, surface);
  for (const [name, [x, y]] of Object.entries(pinPositions(view.pinPitch || geometry().pinPitch))) {
    const down = fallen.has(name);
    const pin = el("g", {
      class: `pin pin-${name}${down ? " fallen" : ""}`, "data-pin": name,
      "data-fallen": down ? "true" : "false",
    }, pins);
    if (down) el("circle", { class: "pin-ring", cx: x, cy: y, r: PIN_MARK + 12 }, pin);
    el("circle", { class: "pin-body", cx: x, cy: y, r: PIN_MARK }, pin);
    titled(pin, down ? interpolate(gettext("Pin %s: fell on the last shot"), [pinName(name)])
      : interpolate(gettext("Pin %s"), [pinName(name)]));
  }

  const balls = el("g", { class: "balls" }, surface);
  for (const ball of geometry().balls) {
    const confirmed = Boolean(positions[ball]);
    const at = positions[ball] || known[ball];
    if (!at) continue;
    const player = ownerOf[ball];
    const circle = el("circle", {
      class: confirmed ? "ball" : "ball unconfirmed", "data-ball": ball,
      "data-confirmed": confirmed ? "true" : "false", cx: at[0], cy: at[1], r: geometry().ballRadius,
      fill: COLOURS[ball],
    }, balls);
    if (player) circle.setAttribute("data-player", player);
    const label = ballLabel(ball, player, names);
    titled(circle, confirmed ? label
      : interpolate(gettext("%s — last known position, not confirmed"), [label]));
  }
  drawLegend(view.legend || legendAfter(svg), view);
}

/** Return the balls a shot sent off the table (a correction, recorded later, moves none). */
function sentOff(event) {
  const off = new Set();
  if (!event || event.type !== "shot") return off;
  for (const contact of event.contacts || []) {
    if (contact.hit === "off") off.add(contact.ball);
  }
  return off;
}

/**
 * Return where each ball was last known to be once an event is applied, {ball: [x, y] | null}.
 *
 * The state says null for a ball that moved without a rest position (the notation): for the
 * drawing, such a ball stays where it was last known (`known`, this function's answer for
 * the event before). A ball in hand for a break, and a ball that left the table, are
 * nowhere until placed. positions: the state's after the event.
 */
export function lastKnown(known, positions, event) {
  const off = sentOff(event);
  const inHand = event && (event.type === "game_started" || event.type === "balls_respotted");
  const found = {};
  for (const ball of geometry().balls) {
    const at = (positions || {})[ball];
    found[ball] = at || (inHand || off.has(ball) ? null : (known || {})[ball] || null);
  }
  return found;
}

/** Return the name of a pin in the page's language. */
export function pinName(pin) {
  const words = {
    center: gettext("red (centre)"), top: gettext("top"), bottom: gettext("bottom"),
    left: gettext("left"), right: gettext("right"),
  };
  return words[pin] || pin;
}

function ballLabel(ball, player, names) {
  if (!player) return interpolate(gettext("%s ball"), [ballName(ball)]);
  const who = names[player] || player;
  return interpolate(gettext("%(ball)s ball: %(player)s"), { ball: ballName(ball), player: who }, true);
}

function legendAfter(svg) {
  const next = svg.nextElementSibling;
  if (next && next.classList.contains("table-legend")) return next;
  const list = document.createElement("ul");
  list.className = "table-legend";
  svg.after(list);
  return list;
}

/** List the balls under the table: colour, owner, and "position unknown" where it is. */
export function drawLegend(list, view = {}) {
  if (!list) return;
  const ownerOf = owners(view.balls);
  const names = view.names || {};
  const positions = view.positions || {};
  list.replaceChildren();
  for (const ball of geometry().balls) {
    const item = document.createElement("li");
    item.dataset.ball = ball;
    const swatch = document.createElement("span");
    swatch.className = `swatch ${ball}`;
    swatch.setAttribute("aria-hidden", "true");
    const text = document.createElement("span");
    text.textContent = ballLabel(ball, ownerOf[ball], names);
    if (!positions[ball]) {
      const guessed = Boolean((view.known || {})[ball]);
      item.classList.add(guessed ? "unconfirmed" : "unknown");
      const note = document.createElement("em");
      note.className = "position-unknown";
      note.textContent = guessed ? gettext("last known position, not confirmed")
        : gettext("position unknown");
      text.append(" — ", note);
    }
    item.append(swatch, text);
    list.appendChild(item);
  }
}

/** Return the point of the playing surface under a pointer or touch event, [x, y] in mm. */
export function pointFromEvent(svg, event) {
  const surface = svg.querySelector("g.surface") || svg;
  const touch = event.touches && event.touches[0] ? event.touches[0] : event;
  const point = svg.createSVGPoint();
  point.x = touch.clientX;
  point.y = touch.clientY;
  const local = point.matrixTransform(surface.getScreenCTM().inverse());
  return [Math.round(local.x * 10) / 10, Math.round(local.y * 10) / 10];
}

/** Return whether a point lies on the playing surface where a ball's centre may be. */
export function onSurface([x, y]) {
  const { width: TABLE_WIDTH, length: TABLE_LENGTH, ballRadius: BALL_RADIUS } = geometry();
  return x >= BALL_RADIUS && x <= TABLE_WIDTH - BALL_RADIUS
    && y >= BALL_RADIUS && y <= TABLE_LENGTH - BALL_RADIUS;
}

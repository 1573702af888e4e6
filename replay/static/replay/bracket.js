// A knockout's bracket on a competition's page: the lines that join each match to the
// match its winner goes on to, a player's path through the rounds lit up when pointed at
// or focused, and on a phone one round at a time, picked with the round's button or by
// swiping (the bracket scrolls inside itself, never the page). Drawn again whenever the
// stages are (`stages-drawn`, sent by standings.js) and when the window changes size.

const SVG = "http://www.w3.org/2000/svg";

/** Return the path of the line from one match's right edge to the next match's left edge
 * (boxes relative to the bracket): across half the gap, up or down, across the rest. */
export function joiningPath(from, to) {
  const startX = from.right;
  const startY = (from.top + from.bottom) / 2;
  const endX = to.left;
  const endY = (to.top + to.bottom) / 2;
  const middle = (startX + endX) / 2;
  return `M${startX} ${startY} H${middle} V${endY} H${endX}`;
}

/** Return the round a strip of rounds shows (1 for the first): the one nearest its start. */
export function roundShown(scrollLeft, width, rounds) {
  if (width <= 0) return 1;
  return Math.min(rounds, Math.max(1, Math.round(scrollLeft / width) + 1));
}

function boxIn(element, frame) {
  const box = element.getBoundingClientRect();
  return {
    left: box.left - frame.left,
    right: box.right - frame.left,
    top: box.top - frame.top,
    bottom: box.bottom - frame.top,
  };
}

/** Draw the lines of one bracket (none while it shows one round at a time). */
function drawLines(bracket) {
  bracket.querySelector(":scope > svg.bracket-lines")?.remove();
  if (bracket.scrollWidth > bracket.clientWidth + 1) return; // a strip: one round in sight
  const frame = bracket.getBoundingClientRect();
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("class", "bracket-lines");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("width", String(bracket.scrollWidth));
  svg.setAttribute("height", String(bracket.scrollHeight));
  for (const match of bracket.querySelectorAll(".bracket-match[data-fed-by]")) {
    for (const source of match.dataset.fedBy.split(" ").filter(Boolean)) {
      const from = bracket.querySelector(`.bracket-match[data-outcome="${CSS.escape(source)}"]`);
      if (!from) continue;
      const line = document.createElementNS(SVG, "path");
      line.setAttribute("d", joiningPath(boxIn(from, frame), boxIn(match, frame)));
      line.dataset.from = source;
      svg.append(line);
    }
  }
  bracket.prepend(svg);
}

function lightPath(bracket, player) {
  for (const line of bracket.querySelectorAll(".bracket-line[data-player]")) {
    line.classList.toggle("on-path", player !== null && line.dataset.player === player);
  }
}

function followRounds(bracket) {
  const tabs = bracket.previousElementSibling;
  if (!tabs?.classList.contains("bracket-tabs")) return;
  const buttons = [...tabs.querySelectorAll("button[data-round]")];
  const mark = () => {
    const shown = roundShown(bracket.scrollLeft, bracket.clientWidth, buttons.length);
    for (const button of buttons) {
      if (Number(button.dataset.round) === shown) button.setAttribute("aria-current", "true");
      else button.removeAttribute("aria-current");
    }
  };
  for (const button of buttons) {
    button.addEventListener("click", () => {
      const round = bracket.querySelector(`.bracket-round[data-round="${button.dataset.round}"]`);
      if (!round) return;
      // Measured on the screen: the bracket may be shifted out of the page's column.
      const left = round.getBoundingClientRect().left - bracket.getBoundingClientRect().left;
      bracket.scrollTo({ left: bracket.scrollLeft + left, behavior: "smooth" });
    });
  }
  bracket.addEventListener("scroll", mark, { passive: true });
  mark();
}

/** Wire every bracket in `root`: its lines, its players' paths, its rounds on a phone. */
export function wire(root = document) {
  for (const bracket of root.querySelectorAll(".bracket")) {
    drawLines(bracket);
    followRounds(bracket);
    const light = (event) => {
      const line = event.target.closest?.(".bracket-line[data-player]");
      lightPath(bracket, line ? line.dataset.player : null);
    };
    bracket.addEventListener("pointerover", light);
    bracket.addEventListener("focusin", light);
    bracket.addEventListener("pointerleave", () => lightPath(bracket, null));
    bracket.addEventListener("focusout", () => lightPath(bracket, null));
  }
}

/** Wire the page's brackets now, after each new drawing of the stages, and on a resize. */
export function start() {
  wire();
  document.addEventListener("stages-drawn", () => wire());
  let pending = null;
  window.addEventListener("resize", () => {
    clearTimeout(pending);
    pending = setTimeout(() => document.querySelectorAll(".bracket").forEach(drawLines), 100);
  });
}

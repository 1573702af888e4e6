"""What a viewer reads off the live board and what a referee does on the console, in a browser.

The board and console are read through the attributes they publish for this (the DOM
contract of the pages): `[data-testid="score-A"]`, `circle.ball[data-ball]` with `cx`
and `cy` in millimetres, `document.body.dataset.seq`, `#connection[data-connection]`
on the board; `#console[data-seq]` and `[data-pending]`, the contact buttons
(`[data-hit]`, `[data-pin]`), `[data-rest]` and `#confirm-shot` on the console.
"""

from __future__ import annotations

from collections.abc import Sequence

from selenium.common.exceptions import (
    NoSuchElementException,
    StaleElementReferenceException,
    TimeoutException,
)
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from matches import services
from tests.support.browser import log_in, make_user, wait_until
from tests.support.builders import new_match, open_game

# Where a point of the playing surface (mm) lies on the screen, from the SVG's own
# transform, as an offset from the centre of the drawing (where Selenium aims).
SCREEN_OFFSET = """
const svg = arguments[0];
const surface = svg.querySelector("g.surface") || svg;
const point = svg.createSVGPoint();
point.x = arguments[1];
point.y = arguments[2];
const screen = point.matrixTransform(surface.getScreenCTM());
const box = svg.getBoundingClientRect();
return [screen.x - (box.left + box.width / 2), screen.y - (box.top + box.height / 2)];
"""
# Each value `document.body.dataset.seq` takes, kept on the page from now on.
WATCH_SEQ = """
window.seqsSeen = [];
new MutationObserver(() => window.seqsSeen.push(Number(document.body.dataset.seq)))
  .observe(document.body, {attributes: true, attributeFilter: ["data-seq"]});
"""


# What the console shows, to say why a wait failed.
SHOWN = """
const root = document.getElementById("console");
if (!root) return document.title;
const text = (id) => (document.getElementById(id) || {}).textContent || "";
return {...root.dataset, preview: text("preview"), error: text("form-error"),
        queue: document.getElementById("queue-panel").hidden ? "" : text("queue-panel"),
        contacts: text("contacts")};
"""


# -- The board --------------------------------------------------------------------------


def score(board: WebDriver, player: str) -> str:
    return board.find_element(By.CSS_SELECTOR, f'[data-testid="score-{player}"]').text.strip()


def ball_at(board: WebDriver, ball: str) -> tuple[float, float] | None:
    """Return where the board draws a ball (mm), None when it draws none."""
    found = board.find_elements(By.CSS_SELECTOR, f'circle.ball[data-ball="{ball}"]')
    if not found or found[0].get_attribute("cx") in (None, ""):
        return None
    return float(found[0].get_attribute("cx")), float(found[0].get_attribute("cy"))


def board_seq(board: WebDriver) -> int:
    return int(board.execute_script("return document.body.dataset.seq") or 0)


def connection(board: WebDriver) -> str:
    return board.find_element(By.ID, "connection").get_attribute("data-connection") or ""


def watch_seq(board: WebDriver) -> None:
    """Keep every seq the board shows from now on in `window.seqsSeen`."""
    board.execute_script(WATCH_SEQ)


def seqs_seen(board: WebDriver) -> list[int]:
    return board.execute_script("return window.seqsSeen")


# -- The console ------------------------------------------------------------------------


def console_ready(console: WebDriver, seq: int) -> None:
    """Wait until the console shows the match at `seq` (failing, say what it shows)."""
    try:
        wait_until(
            console,
            lambda d: d.find_elements(By.CSS_SELECTOR, f'#console[data-seq="{seq}"]'),
            f"the console at seq {seq}",
        )
    except TimeoutException as error:
        raise TimeoutException(f"{error.msg}\n  console: {console.execute_script(SHOWN)}") from None


def pending(console: WebDriver) -> int:
    return int(console.find_element(By.ID, "console").get_attribute("data-pending") or 0)


def tap(console: WebDriver, selector: str) -> None:
    """Tap a button of the console, once it can be tapped."""
    button = wait_until(
        console,
        lambda d: next(
            (b for b in d.find_elements(By.CSS_SELECTOR, selector) if b.is_enabled()), None
        ),
        f"{selector} to tap",
    )
    console.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()


def tap_table(console: WebDriver, point: Sequence[float]) -> None:
    """Tap the console's table drawing where the point (mm) of the playing surface is."""
    svg = console.find_element(By.ID, "table")
    console.execute_script("arguments[0].scrollIntoView({block: 'center'})", svg)
    dx, dy = console.execute_script(SCREEN_OFFSET, svg, *point)
    ActionChains(console).move_to_element_with_offset(svg, round(dx), round(dy)).click().perform()


def record_shot(
    console: WebDriver,
    hits: Sequence[str],
    rest: dict[str, Sequence[float]] | None = None,
) -> None:
    """Tap each contact (`yellow`, `pin:left`, `cushion`...), where balls rest, then confirm."""
    for hit in hits:
        kind, _, name = hit.partition(":")
        tap(console, f'button[data-pin="{name}"]' if kind == "pin" else f'button[data-hit="{hit}"]')
    for ball, point in (rest or {}).items():
        tap(console, f'button[data-rest="{ball}"]')
        tap_table(console, point)
    tap(console, "#confirm-shot")


def open_console(served, driver: WebDriver, match_id: str) -> WebDriver:
    """Open the console of a new match whose game 1 A is about to break, for its referee."""
    new_match(match_id)
    referee = make_user("petrenko")
    services.referee_assign(match_id=match_id, username="petrenko", by="federation")
    open_game(match_id)
    log_in(driver, served, referee)
    driver.get(f"{served.url}/referee/matches/{match_id}/")
    wait_until(driver, lambda d: d.find_element(By.ID, "console").get_attribute("data-seq") == "3")
    return driver


# What breaks the layout, as the page lays itself out: each problem in words.
PROBLEMS = """
const problems = [];
const width = document.documentElement.clientWidth;
if (document.documentElement.scrollWidth > width) problems.push("the page scrolls sideways");
// What a box scrolls within itself (a bracket's rounds on a phone) is reached by scrolling
// that box, not the page: the box itself is checked, not what it holds.
const inScroller = (node) => {
  for (let up = node.parentElement; up && up !== document.body; up = up.parentElement) {
    if (["auto", "scroll"].includes(getComputedStyle(up).overflowX)) return true;
  }
  return false;
};
for (const node of document.querySelectorAll("body *")) {
  // The skip link waits off the screen until a keyboard reaches it, as it should.
  if (node.closest("svg, [hidden], .skip-link, .visually-hidden")) continue;
  const box = node.getBoundingClientRect();
  if (!box.width || !box.height) continue;
  const text = [...node.childNodes]
    .some((child) => child.nodeType === 3 && child.textContent.trim());
  const size = parseFloat(getComputedStyle(node).fontSize);
  if (text && size < 14) problems.push(`${node.tagName}.${node.className} is ${size} px`);
  if ((box.right > width + 1 || box.left < -1) && !inScroller(node)) {
    problems.push(`${node.tagName}.${node.className} is cut off`);
  }
}
const blocks = [...document.querySelectorAll(arguments[0])]
  .map((node) => [node, node.getBoundingClientRect()]);
for (const [a, boxA] of blocks) for (const [b, boxB] of blocks) {
  if (a === b || a.contains(b) || b.contains(a)) continue;
  const overlap = Math.min(boxA.right, boxB.right) - Math.max(boxA.left, boxB.left) > 1
    && Math.min(boxA.bottom, boxB.bottom) - Math.max(boxA.top, boxB.top) > 1;
  if (overlap) problems.push(`${a.className || a.id} overlaps ${b.className || b.id}`);
}
const table = document.querySelector("svg.table");
if (table) {
  const box = table.getBoundingClientRect();
  if (box.width > width || box.height > window.innerHeight) {
    problems.push("the table is larger than the screen");
  }
  if (box.width < 150) problems.push(`the table is ${box.width} px wide`);
}
return problems;
"""


def broken_words(driver: WebDriver, selector: str) -> list[str]:
    """Return each word of the elements `selector` finds that the page breaks over two
    lines: a word on one line has one box, "Kowal-" above "ski" has two."""
    return driver.execute_script(BROKEN_WORDS, selector)


BROKEN_WORDS = """
const broken = [];
for (const element of document.querySelectorAll(arguments[0])) {
  const text = element.firstChild;
  for (const word of text.textContent.matchAll(/\\S+/g)) {
    const range = document.createRange();
    range.setStart(text, word.index);
    range.setEnd(text, word.index + word[0].length);
    if (range.getClientRects().length > 1) broken.push(word[0]);
  }
}
return broken;
"""


def text_of(driver: WebDriver, selector: str) -> str:
    """Return an element's text, or "" while the page is being loaded again."""
    try:
        return driver.find_element(By.CSS_SELECTOR, selector).text
    except (StaleElementReferenceException, NoSuchElementException):
        return ""

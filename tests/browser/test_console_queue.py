"""The console's queue (queue.js) on its own, in the browser: order, keys, pauses, storage."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any

import pytest
from selenium.webdriver.common.by import By

from matches.domain.notation import utc_time
from matches.models import Event
from tests.support.browser import go_offline, go_online, wait_until
from tests.support.pages import open_console

# Journeys: the console's queue through drops, refusals and a server's clock (its logic
# alone runs under Node in tests/js).
pytestmark = pytest.mark.journey

MATCH = "cup-queue-1"
QUEUE_WAIT_S = 40.0  # the network back, the queue's backoff waits at most 15 s between tries

# Runs in the page: imports queue.js, plays `scenario` against a fake server, returns a log.
HARNESS = """
const [scenario, done] = [arguments[0], arguments[arguments.length - 1]];
import("/static/replay/queue.js").then(async ({ SubmissionQueue }) => {
  const kept = new Map();
  const storage = { getItem: (k) => kept.get(k) ?? null, setItem: (k, v) => kept.set(k, v) };
  const sent = [];
  let answers = [];
  const queues = [];
  // Until every queue made is quiet: nothing on its way, no retry due, nothing left to
  // send but what a pause holds (a down answer is followed by a retry, then by a 201).
  const quiet = (q) => !q.sending && !q.timer && (!q.length || q.paused);
  const settle = async () => {
    const deadline = Date.now() + 20000;
    do {
      await new Promise((resolve) => setTimeout(resolve, 5));
    } while (!queues.every(quiet) && Date.now() < deadline);
  };
  // The queue's clock, which a scenario moves on by hand: {t} in ms since 1970.
  const clock = { t: Date.parse("2026-03-09T10:00:00.000Z") };
  // Each wait the queue asks for, in ms; waited out in 10 ms at most.
  const waits = [];
  const setTimer = (callback, delay) => {
    waits.push(delay);
    return setTimeout(callback, Math.min(delay, 10));
  };
  const make = (storageKey = "q") => queues[queues.push(new SubmissionQueue({
    storage, storageKey, delays: [10], now: () => clock.t, setTimer,
    send: async (item, body) => {
      sent.push({ key: item.key, ...body });
      const answer = answers.shift() || { status: 201, body: {} };
      if (answer === "down") throw new TypeError("Failed to fetch");
      return answer;
    },
  })) - 1];
  const log = {};
  try {
    const play = new Function("make", "answers", "settle", "log", "sent", "clock", "waits",
      `return (async () => { ${scenario} })();`);
    await play(make, (list) => { answers = list; }, settle, log, sent, clock, waits);
    done({ log, sent });
  } catch (error) {
    done({ error: String(error) });
  }
});
"""


@pytest.fixture
def page(served, chromium):
    # The harness plays each scenario with `new Function`, which the pages' policy forbids
    # (rightly: no page of the site evaluates a string); the queue is the test's subject here.
    chromium.execute_cdp_cmd("Page.setBypassCSP", {"enabled": True})
    chromium.get(f"{served.url}/login/")
    yield chromium
    chromium.execute_cdp_cmd("Page.setBypassCSP", {"enabled": False})


def run(page: Any, scenario: str) -> dict[str, Any]:
    result = page.execute_async_script(HARNESS, scenario)
    assert "error" not in result, result.get("error")
    return result


def test_submissions_leave_in_order_each_after_the_one_before(page):
    result = run(
        page,
        """
        const queue = make();
        queue.add({ type: "shot", n: 1 }, { head: 7 });
        queue.add({ type: "shot", n: 2 }, { head: 7 });
        await settle();
        log.left = queue.length;
        """,
    )
    assert [s["event"]["n"] for s in result["sent"]] == [1, 2]
    assert [s["expected_seq"] for s in result["sent"]] == [7, 8]
    assert result["log"]["left"] == 0


def test_a_resend_after_a_network_failure_carries_the_same_key_and_body(page):
    result = run(
        page,
        """
        answers(["down", "down"]);
        const queue = make();
        queue.add({ type: "shot" }, { head: 3 });
        await settle(); await settle(); await settle();
        log.left = queue.length;
        """,
    )
    first, *resends = result["sent"]
    assert len(resends) == 2
    assert all(resend == first for resend in resends)
    assert result["log"]["left"] == 0


def test_a_server_that_cannot_record_now_gets_the_same_key_and_body_after_its_retry_after(page):
    result = run(
        page,
        """
        // The console's own call of the API, given a 503 as the server sends one.
        const { api } = await import("/static/replay/api.js");
        const fetched = window.fetch;
        window.fetch = async () => new Response(
          JSON.stringify({ error: "the database cannot be reached", field: null }),
          { status: 503, headers: { "Retry-After": "2", "Content-Type": "application/json" } });
        const unavailable = await api("/api/matches/m/events", { method: "POST", body: {} });
        window.fetch = fetched;
        log.unavailable = unavailable;
        answers([
          unavailable,
          { status: 503, body: null },  // no Retry-After: the backoff's wait
          { status: 201, body: { seq: 4 } },
        ]);
        const queue = make();
        queue.add({ type: "shot" }, { head: 3 });
        await settle(); await settle(); await settle();
        log.left = queue.length;
        log.paused = queue.paused;
        log.waits = waits;
        """,
    )
    first, *resends = result["sent"]
    assert len(resends) == 2
    assert all(resend == first for resend in resends)
    log = result.pop("log")
    assert log.pop("unavailable") == {
        "status": 503,
        "body": {"error": "the database cannot be reached", "field": None},
        "retryAfter": 2,
    }
    assert log == {"left": 0, "paused": None, "waits": [2000, 10]}


def test_a_conflict_pauses_until_the_referee_resends_after_the_current_seq(page):
    result = run(
        page,
        """
        answers([{ status: 409, body: { error: "stale", seq: 9 } }]);
        const queue = make();
        const first = queue.add({ type: "shot", n: 1 }, { head: 7 });
        queue.add({ type: "shot", n: 2 }, { head: 7 });
        await settle();
        log.paused = queue.paused;
        log.sentWhilePaused = sent.length;
        queue.resend(first.key, 9);
        await settle();
        log.left = queue.length;
        """,
    )
    assert result["log"]["paused"]["reason"] == "conflict"
    assert result["log"]["paused"]["seq"] == 9
    assert result["log"]["sentWhilePaused"] == 1
    assert [s["expected_seq"] for s in result["sent"]] == [7, 9, 10]
    assert result["sent"][0]["key"] == result["sent"][1]["key"]
    assert result["log"]["left"] == 0


def test_a_dropped_submission_is_not_sent_and_the_next_takes_its_place(page):
    result = run(
        page,
        """
        answers([{ status: 422, body: { error: "wrong half", field: "pos" } }]);
        const queue = make();
        const first = queue.add({ type: "ball_placed", n: 1 }, { head: 4 });
        queue.add({ type: "shot", n: 2 }, { head: 4 });
        await settle();
        log.paused = queue.paused;
        queue.drop(first.key);
        await settle();
        """,
    )
    assert result["log"]["paused"]["reason"] == "refused"
    assert result["log"]["paused"]["field"] == "pos"
    assert [(s["event"]["n"], s["expected_seq"]) for s in result["sent"]] == [(1, 4), (2, 4)]


def test_the_queue_is_read_back_from_storage_as_it_was_left(page):
    result = run(
        page,
        """
        answers(["down", "down", "down", "down", "down"]);
        const queue = make();
        queue.add({ type: "shot", n: 1 }, { head: 2 });
        queue.add({ type: "shot", n: 2 }, { head: 2 });
        const again = make();
        log.items = again.items.map((item) => [item.event.n, item.expected_seq, item.key]);
        log.keys = queue.items.map((item) => item.key);
        """,
    )
    assert [item[:2] for item in result["log"]["items"]] == [[1, 2], [2, 3]]
    assert [item[2] for item in result["log"]["items"]] == result["log"]["keys"]


def test_a_submission_that_waited_carries_when_it_was_confirmed_on_the_servers_clock(page):
    result = run(
        page,
        """
        // The server's clock is 5 s behind this browser's: its answer says so.
        answers([{ status: 201, body: { seq: 3, at: "2026-03-09T09:59:55.000Z" } }]);
        const queue = make();
        queue.add({ type: "shot", n: 1 }, { head: 2 });
        await settle();
        answers(["down"]);
        clock.t += 1000;
        queue.add({ type: "shot", n: 2 }, { head: 3 });  // confirmed at 10:00:01, mine
        clock.t += 2500;  // tried again 2.5 s later, and the server is back
        await settle();
        """,
    )
    first, second, resent = result["sent"]
    assert "confirmed_at" not in first["event"]
    assert "confirmed_at" not in second["event"]  # sent at once: the server's at will do
    assert resent["event"] == {"type": "shot", "n": 2, "confirmed_at": "2026-03-09T09:59:56.000Z"}
    assert resent["key"] == second["key"]


def test_the_servers_clock_measured_by_one_match_stamps_the_first_shot_of_the_next(page):
    result = run(
        page,
        """
        // The server's clock is 5 s behind this browser's, as one match's answer says.
        answers([{ status: 201, body: { seq: 3, at: "2026-03-09T09:59:55.000Z" } }]);
        make("match-1").add({ type: "shot", n: 1 }, { head: 2 });
        await settle();
        answers(["down"]);
        const next = make("match-2");  // another match's console, later, in this browser
        next.add({ type: "shot", n: 1 }, { head: 0 });  // confirmed at 10:00:00, mine
        clock.t += 3000;
        await settle();
        """,
    )
    resent = result["sent"][-1]
    assert resent["event"]["confirmed_at"] == "2026-03-09T09:59:55.000Z"


def test_a_stamp_the_server_refuses_is_dropped_and_the_event_sent_again_without_it(page):
    result = run(
        page,
        """
        answers([
          "down",
          { status: 422, body: { error: "later than at", field: "confirmed_at", seq: 3 } },
          { status: 201, body: { seq: 3 } },
          // The first try of this one arrived without the stamp, its answer lost.
          { status: 422, body: { error: "another command", field: "Idempotency-Key", seq: 4 } },
        ]);
        const queue = make();
        queue.add({ type: "shot", n: 1 }, { head: 2 });
        queue.add({ type: "shot", n: 2 }, { head: 2 });
        clock.t += 3000;  // before the first try again
        await settle(); await settle(); await settle();
        log.paused = queue.paused;
        log.left = queue.length;
        """,
    )
    stamps = [("confirmed_at" in s["event"], s["event"]["n"]) for s in result["sent"]]
    assert stamps == [(False, 1), (True, 1), (False, 1), (True, 2), (False, 2)]
    assert result["log"] == {"paused": None, "left": 0}


def test_a_shot_confirmed_offline_reaches_the_server_with_the_time_it_was_confirmed(
    served, chromium
):
    open_console(served, chromium, MATCH)
    console = chromium.find_element(By.ID, "console")
    go_offline(chromium)
    chromium.find_element(By.CSS_SELECTOR, '[data-hit="yellow"]').click()
    confirm = chromium.find_element(By.ID, "confirm-shot")
    wait_until(chromium, lambda d: confirm.is_enabled(), "Confirm enabled")

    before = datetime.now(UTC).replace(microsecond=0)
    confirm.click()
    wait_until(chromium, lambda d: console.get_attribute("data-pending") == "1", "one pending")
    after = datetime.now(UTC)
    time.sleep(2.5)  # longer than a submission sent at once may take
    go_online(chromium)
    wait_until(
        chromium, lambda d: console.get_attribute("data-pending") == "0", "sent", QUEUE_WAIT_S
    )

    shot = Event.objects.get(match_id=MATCH, seq=4).as_record()
    confirmed = utc_time(shot["confirmed_at"])
    assert before <= confirmed <= after < utc_time(shot["at"])
    chromium.get(f"{served.url}/matches/{MATCH}/replay/?seq=4")
    moment = chromium.find_element(By.ID, "moment")
    wait_until(chromium, lambda d: "confirmed at the table at" in moment.text, moment.text)

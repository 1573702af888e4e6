"""The console's queue (queue.js) on its own, in the browser: order, keys, pauses, storage."""

from __future__ import annotations

from typing import Any

import pytest

# Runs in the page: imports queue.js, plays `scenario` against a fake server, returns a log.
HARNESS = """
const [scenario, done] = [arguments[0], arguments[arguments.length - 1]];
import("/static/replay/queue.js").then(async ({ SubmissionQueue }) => {
  const kept = new Map();
  const storage = { getItem: (k) => kept.get(k) ?? null, setItem: (k, v) => kept.set(k, v) };
  const sent = [];
  let answers = [];
  const settle = () => new Promise((resolve) => setTimeout(resolve, 30));
  const make = () => new SubmissionQueue({
    storage, storageKey: "q", delays: [10],
    send: async (item) => {
      sent.push({ key: item.key, expected_seq: item.expected_seq, event: item.event });
      const answer = answers.shift() || { status: 201, body: {} };
      if (answer === "down") throw new TypeError("Failed to fetch");
      return answer;
    },
  });
  const log = {};
  try {
    const play = new Function("make", "answers", "settle", "log", "sent",
      `return (async () => { ${scenario} })();`);
    await play(make, (list) => { answers = list; }, settle, log, sent);
    done({ log, sent });
  } catch (error) {
    done({ error: String(error) });
  }
});
"""


@pytest.fixture
def page(served, chromium):
    chromium.get(f"{served.url}/login/")
    return chromium


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

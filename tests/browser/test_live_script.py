"""live.js in a browser, on a stand-in socket: each seq once, a gap resumed, a drop reconnected."""

from __future__ import annotations

import pytest

from tests.support.browser import wait_until

# A WebSocket stand-in the test drives: `sockets` lists each one opened, with its URL,
# what the page sent on it, and `push`/`drop` to play the server.
FAKE_SOCKETS = """
const done = arguments[arguments.length - 1];
window.sockets = [];
window.WebSocket = class {
  static OPEN = 1;
  constructor(url) {
    this.url = url; this.sent = []; this.readyState = 0; this.listeners = {};
    window.sockets.push(this);
    setTimeout(() => { this.readyState = 1; this.fire("open", {}); }, 10);
  }
  addEventListener(type, listener) { (this.listeners[type] ||= []).push(listener); }
  fire(type, event) { for (const listener of this.listeners[type] || []) listener(event); }
  send(text) { this.sent.push(JSON.parse(text)); }
  close() { this.drop(1000); }
  push(message) { this.fire("message", { data: JSON.stringify(message) }); }
  drop(code = 1006) { this.readyState = 3; this.fire("close", { code }); }
};
window.applied = [];
window.statuses = [];
import("/static/replay/live.js").then(({ connectLive }) => {
  window.feed = connectLive("cup-1", {
    after: 2,
    onEvent: (message) => window.applied.push(message.seq),
    onStatus: (status) => window.statuses.push(status),
  });
  done("ready");
});
"""
EVENT = "sockets[sockets.length - 1].push({type: 'event', seq: arguments[0], event: {}, state: {}})"


def socket_count(browser) -> int:
    return browser.execute_script("return sockets.length")


def test_live_applies_each_seq_once_and_in_order_and_resumes_a_gap(served, chromium):
    chromium.get(f"{served.url}/static/replay/table.css")
    assert chromium.execute_async_script(FAKE_SOCKETS) == "ready"
    wait_until(chromium, lambda d: d.execute_script("return statuses") == ["live"], "live")
    assert chromium.execute_script("return sockets[0].url").endswith("/ws/matches/cup-1/?after=2")

    for seq in (2, 3, 3, 5):  # 2 it had, 3 twice, then 4 lost
        chromium.execute_script(EVENT, seq)

    assert chromium.execute_script("return applied") == [3]
    assert chromium.execute_script("return sockets[0].sent") == [{"type": "resume", "after": 3}]
    for seq in (4, 5):  # the range again, from the server
        chromium.execute_script(EVENT, seq)
    assert chromium.execute_script("return applied") == [3, 4, 5]

    chromium.execute_script("sockets[0].push({type: 'head', seq: 7})")
    assert chromium.execute_script("return sockets[0].sent[1]") == {"type": "resume", "after": 5}


@pytest.mark.journey  # a dropped network and its return
def test_live_reconnects_after_a_drop_from_its_last_seq_and_says_so(served, chromium):
    chromium.get(f"{served.url}/static/replay/table.css")
    chromium.execute_async_script(FAKE_SOCKETS)
    wait_until(chromium, lambda d: d.execute_script("return statuses") == ["live"], "live")
    chromium.execute_script(EVENT, 3)

    chromium.execute_script("sockets[0].drop()")

    assert chromium.execute_script("return statuses") == ["live", "reconnecting"]
    wait_until(chromium, lambda d: socket_count(d) == 2, "a new socket after a second")
    assert chromium.execute_script("return sockets[1].url").endswith("?after=3")
    wait_until(chromium, lambda d: d.execute_script("return statuses")[-1] == "live", "live again")

    chromium.execute_script("sockets[1].drop(4404)")  # the match is gone: no retry

    assert chromium.execute_script("return statuses")[-1] == "closed"
    chromium.execute_script("return new Promise((resolve) => setTimeout(resolve, 1500))")
    assert socket_count(chromium) == 2

"""The browser harness itself: a page opens, speaks the browser's language, goes offline."""

from __future__ import annotations

from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

import tests.support.browser as harness
from tests.support.browser import go_offline, go_online, log_in, make_user, wait_until
from tests.support.builders import new_match, open_game

# Opens the match's live socket from the page and keeps what happens to it on `window`.
OPEN_SOCKET = """
const socket = new WebSocket(`ws://${location.host}/ws/matches/${arguments[0]}/?after=0`);
window.socketLog = [];
socket.onopen = () => window.socketLog.push("open");
socket.onclose = (event) => window.socketLog.push(`close ${event.code}`);
window.addEventListener("offline", () => window.socketLog.push("offline"));
window.addEventListener("online", () => window.socketLog.push("online"));
socket.onmessage = (message) => {
  const sent = JSON.parse(message.data);
  if (sent.type === "event") window.socketLog.push(`event ${sent.seq}`);
};
"""
NEW_SOCKET = """
const done = arguments[arguments.length - 1];
const socket = new WebSocket(`ws://${location.host}/ws/matches/${arguments[0]}/?after=0`);
socket.onopen = () => { done("open"); socket.close(); };
socket.onerror = () => done("error");
"""
FETCH_HOME = """
const done = arguments[arguments.length - 1];
fetch("/").then((answer) => done(answer.status), (error) => done(error.name));
"""


def test_the_home_page_opens_in_the_browser_with_its_title(served, chromium):
    chromium.get(served.url + "/")

    assert chromium.title == "carambole — five-pins carom billiards"
    assert chromium.find_element(By.TAG_NAME, "h1").text == "carambole"


def test_a_browser_set_to_ukrainian_gets_the_page_in_ukrainian(served, chromium_uk):
    chromium_uk.get(served.url + "/")

    assert chromium_uk.find_element(By.TAG_NAME, "html").get_attribute("lang") == "uk"
    assert "Зустрічі" in chromium_uk.find_element(By.CSS_SELECTOR, "nav.site").text


def test_a_browser_logged_in_through_its_cookie_is_that_user_on_the_server(served, chromium):
    user = make_user("petrenko", "a-demo-password", staff=True)
    log_in(chromium, served, user)

    chromium.get(served.url + "/admin/")

    assert "petrenko" in chromium.find_element(By.ID, "user-tools").text.lower()


def test_offline_fails_new_requests_and_sockets_but_leaves_an_open_socket_delivering(
    served, chromium
):
    match = new_match("cup-browser-1")
    chromium.get(served.url + "/")
    chromium.execute_script(OPEN_SOCKET, match.id)
    wait_until(chromium, lambda d: "open" in d.execute_script("return socketLog"), "socket open")

    go_offline(chromium)
    open_game(match.id)

    wait_until(
        chromium,
        lambda d: "event 3" in d.execute_script("return socketLog"),
        "the shots recorded while offline, pushed through the socket opened before",
    )
    assert chromium.execute_script("return navigator.onLine") is False
    assert chromium.execute_async_script(FETCH_HOME) == "TypeError"
    assert chromium.execute_async_script(NEW_SOCKET, match.id) == "error"
    go_online(chromium)
    assert chromium.execute_async_script(FETCH_HOME) == 200
    assert chromium.execute_async_script(NEW_SOCKET, match.id) == "open"
    assert "close" not in " ".join(chromium.execute_script("return socketLog"))
    assert chromium.execute_script("return socketLog")[-1] == "online"


@pytest.mark.journey  # the server stopped and started again
def test_a_stopped_server_comes_back_on_the_same_address(served, chromium):
    chromium.get(served.url + "/")
    served.stop()
    assert chromium.execute_async_script(FETCH_HOME) == "TypeError"

    served.start()

    assert chromium.execute_async_script(FETCH_HOME) == 200


def test_without_chromium_a_browser_test_skips_and_under_ci_fails(monkeypatch):
    monkeypatch.setattr(harness, "CHROMIUM", Path("/nonexistent/chromium"))
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="/nonexistent/chromium is missing"):
        harness.require_chromium()

    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI=true but the browser tests cannot run"):
        harness.require_chromium()

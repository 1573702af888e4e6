"""Pages in a real browser: Debian's headless Chromium driven by Selenium, against uvicorn.

The browser tests (tests/browser/, each marked `slow` and `browser`) use these. The
browser is never downloaded: Selenium is given `/usr/bin/chromium` and its driver, so
Selenium Manager never runs. Without Chromium the tests skip, and fail under `CI=true`.

A test gets `served` (uvicorn on the test database, which `event_db` really commits to)
and `chromium` (a browser window; `browsers()` opens more, each with cookies of its own).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import pytest
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from selenium import webdriver
from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.wait import WebDriverWait

from matches import services
from tests.support.servers import Uvicorn

# Debian's, or whichever the PATH names first.
CHROMIUM = Path(shutil.which("chromium") or "/usr/bin/chromium")
CHROMEDRIVER = Path(shutil.which("chromedriver") or "/usr/bin/chromedriver")
WINDOW = (1280, 800)
WAIT_S = 60.0  # the longest a test waits for a page to show what it must (a busy machine)
# The server reads the store for what it was not told of every this many seconds: a shot
# recorded by the test itself (not through the server) reaches the pages within it.
HEAD_SECONDS = 1
LOG_SHOWN = 4000  # characters of the server's log shown with a failing test

T = TypeVar("T")


# -- The server -------------------------------------------------------------------------


@contextmanager
def serving(**environ: str) -> Iterator[Uvicorn]:
    """Serve carambole with uvicorn on the test database, `environ` added to its settings.

    It signs with the suite's key, so a session made here (`log_in`) is good there, and
    its cookies are not `Secure`: the browser speaks plain HTTP to it. Redis when
    `REDIS_URL` is set, else the server's own in-memory channel layer.
    """
    server = Uvicorn(
        os.getenv("REDIS_URL"),
        HEAD_SECONDS,
        environ={"SECRET_KEY": settings.SECRET_KEY, "SECURE_COOKIES": "0", **environ},
    )
    try:
        server.start()
        yield server
    finally:
        # Shown by pytest with a failing test's output: what the server said meanwhile.
        print(f"-- uvicorn on {server.url} logged:\n{server.log()[-LOG_SHOWN:]}")
        server.close()


@pytest.fixture
def served(event_db) -> Iterator[Uvicorn]:
    """Serve carambole (`serving`); `stop()` and `start()` it at will."""
    with serving() as server:
        yield server


# -- The browser ------------------------------------------------------------------------


def chromium_options(language: str = "en", size: tuple[int, int] = WINDOW) -> Any:
    """Return the options of a headless Chromium that asks for pages in `language`."""
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in (
        "--headless=new",
        "--no-sandbox",  # as root in a container
        "--disable-dev-shm-usage",  # a container's /dev/shm is small
        "--no-proxy-server",  # loopback only, whatever the environment says
        # Nothing fetched from anywhere but the server under test: no updates, no sync.
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-default-apps",
        "--no-first-run",
        "--disable-gpu",
        f"--lang={language}",
        f"--window-size={size[0]},{size[1]}",
    ):
        options.add_argument(argument)
    # Accept-Language, as a browser set to that language sends it.
    options.add_experimental_option("prefs", {"intl.accept_languages": language})
    return options


def chromium_missing() -> str | None:
    """Return why no browser can run here, or None."""
    for binary in (CHROMIUM, CHROMEDRIVER):
        if not os.access(binary, os.X_OK):
            return f"{binary} is missing (Debian: apt-get install chromium chromium-driver)"
    return None


def require_chromium() -> None:
    """Skip the test when no browser can run here; fail it instead under `CI=true`."""
    missing = chromium_missing()
    if missing:
        if os.getenv("CI") == "true":
            pytest.fail(f"CI=true but the browser tests cannot run: {missing}")
        pytest.skip(missing)


@pytest.fixture
def browsers() -> Iterator[Callable[..., WebDriver]]:
    """Open browsers with `browsers(language="en", size=(w, h))`; all quit after the test.

    Each is a browser of its own (cookies, storage), as two people at two screens.
    """
    require_chromium()
    opened: list[WebDriver] = []

    def open_browser(language: str = "en", size: tuple[int, int] = WINDOW) -> WebDriver:
        driver = webdriver.Chrome(
            service=Service(str(CHROMEDRIVER)), options=chromium_options(language, size)
        )
        opened.append(driver)
        driver.set_page_load_timeout(30)
        return driver

    try:
        yield open_browser
    finally:
        for driver in opened:
            driver.quit()


@pytest.fixture
def chromium(browsers) -> WebDriver:
    """A headless Chromium asking for English pages, 1280 by 800."""
    return browsers()


@pytest.fixture
def chromium_uk(browsers) -> WebDriver:
    """A headless Chromium whose user reads Ukrainian (`Accept-Language: uk`)."""
    return browsers("uk")


# -- Helpers ----------------------------------------------------------------------------


def make_user(username: str, password: str | None = None, *, staff: bool = False) -> Any:
    """Create a login with this password (none usable without one)."""
    return services.login_ensure(username, staff=staff, password=password)


def log_in(driver: WebDriver, server: Uvicorn, user: Any) -> None:
    """Give the browser a session of `user` on `server`, as logging in would.

    The session is made here and stored in the shared database; the server reads it
    with the same key. The browser must be on the site to take its cookie.
    """
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    driver.get(f"{server.url}/static/")  # any page of the site, small
    driver.add_cookie(
        {"name": settings.SESSION_COOKIE_NAME, "value": session.session_key, "path": "/"}
    )


def log_in_with_password(driver: WebDriver, server: Uvicorn, username: str, password: str) -> None:
    """Log in through the login page, as a referee does; return on the page it leads to."""
    driver.get(f"{server.url}/login/")
    submit_login(driver, username, password)


def submit_login(driver: WebDriver, username: str, password: str) -> None:
    """Fill in and send the login page the browser shows; wait for the page it leads to."""
    driver.find_element(By.ID, "id_username").send_keys(username)
    driver.find_element(By.ID, "id_password").send_keys(password)
    driver.find_element(By.CSS_SELECTOR, "form.login [type=submit]").click()
    wait_until(driver, lambda d: "/login/" not in d.current_url, f"{username} logged in")


# What chromedriver answers when the page is replaced while it is read (a form's answer
# loading): like a stale element, nothing to fail on; the next poll reads the new page.
BETWEEN_PAGES = ("unhandled inspector error", "Cannot find context", "target frame detached")


def wait_until(
    driver: WebDriver,
    condition: Callable[[WebDriver], T],
    message: str = "",
    timeout: float = WAIT_S,
) -> T:
    """Return the first truthy value of `condition(driver)`, failing after `timeout` s.

    A poll that meets the page between two loads (`BETWEEN_PAGES`) counts as not yet.
    Failing, the message says what was awaited, on which page, and what the page's
    console logged as errors.
    """

    def polled(polled_driver: WebDriver) -> Any:
        try:
            return condition(polled_driver)
        except WebDriverException as error:
            if any(words in (error.msg or "") for words in BETWEEN_PAGES):
                return False
            raise

    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.1).until(polled)
    except TimeoutException:
        errors = [entry["message"] for entry in driver.get_log("browser") if is_error(entry)]
    raise TimeoutException(
        f"{message} (waited {timeout} s on {driver.current_url})"
        + "".join(f"\n  page error: {error}" for error in errors)
    )


def is_error(entry: dict[str, Any]) -> bool:
    """Return whether a browser log entry is an error worth showing (not the missing icon)."""
    return entry["level"] == "SEVERE" and "favicon.ico" not in entry["message"]


def go_offline(driver: WebDriver) -> None:
    """Cut this browser's new requests off the network, as a hall's Wi-Fi that drops.

    Through DevTools' network emulation (`Network.emulateNetworkConditions`, offline),
    in Debian's Chromium 156: every new request fails at once (fetch rejects with a
    TypeError, a navigation shows the browser's offline page), a new websocket fails
    (`error`, then `close` 1006), `navigator.onLine` turns false and the page gets an
    `offline` event. But a websocket already open is NOT cut: it stays open and keeps
    delivering what the server sends. A page that must notice a dead network through
    its socket needs the server gone: `served.stop()` (every connection drops), then
    `served.start()` on the same address.
    """
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd(
        "Network.emulateNetworkConditions",
        {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1},
    )


def go_online(driver: WebDriver) -> None:
    """Give the page its network back (`online` event; sockets must reconnect themselves)."""
    driver.execute_cdp_cmd(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1},
    )

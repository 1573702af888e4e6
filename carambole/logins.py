"""Password logins, throttled: counted before any hash, hashed off the threads that serve matches.

Every password check of the site (the login page, the admin's) goes through
`ThrottledModelBackend`. It counts the attempt per address and per account first
(`carambole.throttle`), so an attempt past a limit costs no hash at all; then it hashes
on `PASSWORD_CHECKS_AT_ONCE` threads of the process's own, at the lowest CPU priority,
so six clients sending wrong passwords share what the recording of matches leaves
over instead of taking it from it.

A browser that logged in to an account before is held to that account's limit on its
own (`carambole.browsers`): a stranger who fails for a referee's account, or from the
hall's own network, locks out other strangers, not the referee's tablet.
"""

from __future__ import annotations

import datetime
import logging
import os
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.hashers import make_password, verify_password
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext, ngettext

from carambole import browsers, throttle

log = logging.getLogger(__name__)
T = TypeVar("T")

_SUCCEEDED = "_carambole_login_succeeded"


class Busy(Exception):
    """Every password-check thread stayed busy for PASSWORD_CHECK_WAIT_SECONDS: 503."""

    retry_after = 5


class ThrottledModelBackend(ModelBackend):
    """Django's username and password backend, throttled, hashing on the checks' threads."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> Any:
        users = get_user_model()
        if username is None:
            username = kwargs.get(users.USERNAME_FIELD)
        if username is None or password is None:
            return None
        counted = throttle.attempt_or_pass(*_subjects(request, username))  # past a limit: raises
        user = _checked(users, username, password)
        if user is None or not self.user_can_authenticate(user):
            # Refused here for every backend: Django's own, after this one, is there for the
            # sessions it logged in before and must not hash the password a second time.
            raise PermissionDenied
        counted.take_back()
        if request is not None:
            setattr(request, _SUCCEEDED, user.get_username())
        return user

    async def aauthenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> Any:
        # ModelBackend's own would check the password unthrottled, on the event loop's thread.
        return await sync_to_async(self.authenticate)(request, username, password, **kwargs)


def _subjects(request: HttpRequest | None, username: str) -> list[tuple[throttle.Limit, str]]:
    """Return what this attempt counts against: its address and account, or its own browser.

    A browser that logged in to the account before is held to the account's limit on its
    own: neither a stranger's failures for the account nor those of its address (a hall's
    network, shared by everyone in it) refuse it.
    """
    if request is None:
        return [(throttle.LOGIN_ACCOUNT, username)]
    known = browsers.LOGINS.subject(request, username)
    if known is not None:
        return [(throttle.LOGIN_ACCOUNT, known)]
    return [
        (throttle.LOGIN_ADDRESS, throttle.address_of(request)),
        (throttle.LOGIN_ACCOUNT, username),
    ]


def _checked(users: Any, username: str, password: str) -> Any:
    """Return the user whose password this is, or None, as ModelBackend checks it."""
    try:
        user = users._default_manager.get_by_natural_key(username)
    except users.DoesNotExist:
        # Hash once all the same: an unknown name takes as long as a known one (#20760).
        hashed(make_password, password)
        return None
    correct, outdated = hashed(verify_password, password, user.password)
    if not correct:
        return None
    if outdated:  # a hash of older settings: stronger now, as Django's own check does
        user.password = hashed(make_password, password)
        user.save(update_fields=["password"])
    return user


# -- The checks' threads --------------------------------------------------------------------

_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def hashed(function: Callable[..., T], *arguments: Any) -> T:
    """Run a password hash on the checks' threads; raise Busy if none frees up in time."""
    future = _checks().submit(function, *arguments)
    try:
        return future.result(timeout=settings.PASSWORD_CHECK_WAIT_SECONDS)
    except TimeoutError:
        future.cancel()  # still queued: never computed
        raise Busy from None


def _checks() -> ThreadPoolExecutor:
    """Return this process's password-check threads, started at the first login."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(
                max_workers=settings.PASSWORD_CHECKS_AT_ONCE,
                thread_name_prefix="password-check",
                initializer=_yield_the_cpu,
            )
        return _pool


def _yield_the_cpu() -> None:
    """Give this thread the lowest CPU priority: any thread serving a match goes first.

    On Linux a priority is each thread's own (its id names it); elsewhere the bound of
    PASSWORD_CHECKS_AT_ONCE is what keeps the cores free.
    """
    if sys.platform != "linux":
        return
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)
    except OSError as error:
        log.warning("password checks keep their priority: %s", error)


# -- Answers --------------------------------------------------------------------------------


class Refusals:
    """Answer a refused login with a page saying when to try again; remember a good one."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        username = getattr(request, _SUCCEEDED, None)
        if username is not None and response.status_code < 400:
            browsers.LOGINS.remember(request, response, username)
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, throttle.TooManyAttempts):
            return refusal(request, 429, exception.retry_after, too_many(exception.retry_after))
        if isinstance(exception, Busy):
            said = gettext("The server is checking many logins at once. Try again in a moment.")
            return refusal(request, 503, exception.retry_after, said)
        return None


def refusal(request: HttpRequest, status: int, retry_after: int, said: str) -> HttpResponse:
    """Return the page of a login refused for `retry_after` seconds, with Retry-After."""
    until = timezone.now() + datetime.timedelta(seconds=retry_after)
    if until.second or until.microsecond:  # the page says a minute: the next one, never early
        until = until.replace(second=0, microsecond=0) + datetime.timedelta(minutes=1)
    response = render(
        request,
        "registration/refused.html",
        {"said": said, "until": until, "retry_after": retry_after},
        status=status,
    )
    response["Retry-After"] = str(retry_after)
    add_never_cache_headers(response)
    return response


def too_many(retry_after: int) -> str:
    """Say, in the user's language, when a throttled login may try again."""
    if retry_after < 120:
        return ngettext(
            "Too many failed logins. Try again in %(count)d second.",
            "Too many failed logins. Try again in %(count)d seconds.",
            retry_after,
        ) % {"count": retry_after}
    minutes = -(-retry_after // 60)
    return ngettext(
        "Too many failed logins. Try again in %(count)d minute.",
        "Too many failed logins. Try again in %(count)d minutes.",
        minutes,
    ) % {"count": minutes}

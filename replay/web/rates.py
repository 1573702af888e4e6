"""Costly pages limited per address for anonymous visitors (carambole.throttle): past the
rate a page saying when to come back, 429, or 503 while the counts cannot be kept."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import add_never_cache_headers
from django.utils.translation import ngettext

from carambole import throttle

View = Callable[..., HttpResponse]


def costly_read(view: View) -> View:
    """Count an anonymous visitor's request against their address's costly reads first."""

    @functools.wraps(view)
    def limited(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return _refusal(request) or view(request, *args, **kwargs)

    return limited


def costly_read_as_of(view: View) -> View:
    """The same for a page asked as of a version (`?at=V`, a fold of the log up to it);
    the page as of now costs no fold and is not counted."""

    @functools.wraps(view)
    def limited(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        refused = _refusal(request) if "at" in request.GET else None
        return refused or view(request, *args, **kwargs)

    return limited


def _refusal(request: HttpRequest) -> HttpResponse | None:
    """Count an anonymous visitor's request; return the refusal past the rate, else None."""
    if request.user.is_authenticated:
        return None
    try:
        throttle.rate(throttle.COSTLY_READ_ADDRESS, throttle.address_of(request))
    except throttle.TooManyAttempts as refused:
        return _refused(request, 429, refused.retry_after)
    except throttle.CountingAway as away:
        return _refused(request, 503, away.retry_after)
    return None


def _refused(request: HttpRequest, status: int, retry_after: int) -> HttpResponse:
    """Answer a page that says, in the visitor's language, when to try again."""
    if status == 429:
        said = ngettext(
            "Too many requests from your address: try again in %(count)d second.",
            "Too many requests from your address: try again in %(count)d seconds.",
            retry_after,
        )
    else:
        said = ngettext(
            "Requests cannot be counted just now: try again in %(count)d second.",
            "Requests cannot be counted just now: try again in %(count)d seconds.",
            retry_after,
        )
    context = {"said": said % {"count": retry_after}}
    response = render(request, "replay/rate_refused.html", context, status=status)
    response["Retry-After"] = str(retry_after)
    add_never_cache_headers(response)
    return response

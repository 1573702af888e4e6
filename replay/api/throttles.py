"""Rates per address on the API's costly answers, counted by carambole.throttle: 429 past
the rate, 503 while the counts cannot be kept; both with Retry-After.

- `PreviewRate`: every preview of an event's consequences.
- `AsOfRate`: an anonymous read as of a version (`?at=`); a login's is not counted.
"""

from __future__ import annotations

from typing import Any

from rest_framework import exceptions, status
from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle

from carambole import throttle


class TooManyRequests(exceptions.APIException):
    """An address past its rate: 429, with Retry-After (DRF sets it from `wait`)."""

    status_code = status.HTTP_429_TOO_MANY_REQUESTS
    default_code = "throttled"

    def __init__(self, what: str, wait: int) -> None:
        super().__init__(f"too many {what} from this address: try again in {wait} s")
        self.wait = wait


class CountingAway(exceptions.APIException):
    """Redis did not answer, and what must be counted is not served uncounted: 503."""

    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_code = "unavailable"

    def __init__(self) -> None:
        self.wait = throttle.CountingAway.retry_after
        super().__init__(f"requests cannot be counted just now: try again in {self.wait} s")


class AddressRate(BaseThrottle):
    """Count each request against its address's limit; refuse past it, or while Redis is away."""

    limit: throttle.Limit
    what: str

    def allow_request(self, request: Request, view: Any) -> bool:
        try:
            throttle.rate(self.limit, throttle.address_of(request))
        except throttle.TooManyAttempts as refused:
            raise TooManyRequests(self.what, refused.retry_after) from None
        except throttle.CountingAway:
            raise CountingAway from None
        return True


class PreviewRate(AddressRate):
    """Previews per address (`PREVIEWS_PER_MINUTE`): each folds a competition's draw twice."""

    limit = throttle.PREVIEW_ADDRESS
    what = "previews"


class AsOfRate(AddressRate):
    """Anonymous reads as of a version (`?at=`) per address (`COSTLY_READS_PER_MINUTE`,
    with the match sheets): each folds the competition's log up to the version."""

    limit = throttle.COSTLY_READ_ADDRESS
    what = "costly reads"

    def allow_request(self, request: Request, view: Any) -> bool:
        if "at" not in request.query_params or request.user.is_authenticated:
            return True
        return super().allow_request(request, view)

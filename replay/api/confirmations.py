"""A result signed off: by the referee, and by each player with their PIN."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from carambole import browsers, throttle
from matches import services
from matches.domain.competition_log import player_key
from matches.domain.notation import MAX_EVENTS
from matches.domain.state import CONFIRMING_ROLES
from matches.selectors import assigned_referee_id, match_get
from matches.services.pins import WrongPin
from replay.api import schema
from replay.api.permissions import MayRecord
from replay.api.serializers import Body, Choice, Text, Whole
from replay.api.throttles import CountingAway
from replay.api.views import IDEMPOTENCY_HEADER, checked, username


class ConfirmationBody(Body):
    expected_seq = Whole(
        min_value=0, max_value=MAX_EVENTS, help_text="the seq of the match's last event"
    )
    role = Choice(
        choices=list(CONFIRMING_ROLES), help_text="who confirms: the referee, or player A or B"
    )
    confirms = Whole(
        min_value=1,
        max_value=MAX_EVENTS,
        help_text="the event the result stands at, as the confirming person saw it "
        "(the state's confirmed.head)",
    )
    pin = Text(
        required=False,
        allow_blank=False,
        max_length=32,
        help_text="a player's PIN (A and B only): checked, never stored",
    )


class TooManyPins(exceptions.APIException):
    """A player (or an address) past its limit of wrong PINs: 429, with Retry-After."""

    status_code = status.HTTP_429_TOO_MANY_REQUESTS
    default_code = "throttled"

    def __init__(self, wait: int) -> None:
        super().__init__(f"too many wrong PINs: try again in {wait} s")
        self.wait = wait


class ConfirmationsView(APIView):
    permission_classes = [MayRecord]

    @extend_schema(
        operation_id="result_confirm",
        summary="Confirm a finished match's result: the referee, or a player with their PIN",
        tags=["events"],
        parameters=[schema.MATCH_ID, schema.IDEMPOTENCY_KEY, schema.REPLAYED],
        request=ConfirmationBody,
        responses={
            201: schema.Recorded,
            **schema.errors(400, 401, 403, 404, 409, 413, 422, 429, 503),
        },
    )
    def post(self, request: Request, id: str) -> Response:
        try:
            self.check_object_permissions(request, id)
        except PermissionDenied:
            match_get(id)  # a match that does not exist is a 404, not a 403
            raise
        body: dict[str, Any] = checked(ConfirmationBody, request.data)
        counted = throttle.Counted()
        holder = None
        if body["role"] != "referee":
            holder = pin_holder(match_get(id).players[body["role"]])
            counted = pin_attempt(request, holder, id)
        try:
            recorded = services.result_confirm(
                match_id=id,
                by=username(request),
                idempotency_key=request.headers.get(IDEMPOTENCY_HEADER),
                **body,
            )
        except WrongPin:
            raise  # a failure: it stays counted
        except Exception:
            counted.take_back()  # refused for another reason: no wrong PIN to count
            raise
        counted.take_back()
        headers = {"Idempotent-Replayed": "true"} if recorded.replayed else None
        response = Response(
            {"seq": recorded.seq, "at": recorded.at, "state": recorded.state},
            status=status.HTTP_201_CREATED,
            headers=headers,
        )
        if holder is not None:  # the player's right PIN, typed on this browser
            browsers.PINS.remember(request, response, holder)
        return response


def pin_holder(player: Mapping[str, Any]) -> str:
    """Return how the throttle and a browser's cookie name a player: a digest of their key."""
    return hashlib.sha256(player_key(player).encode()).hexdigest()[:16]


def pin_attempt(request: Request, holder: str, match_id: str) -> throttle.Counted:
    """Count a PIN's attempt against its player and address, or raise the API's 429 or 503.

    The player's own tablets are held to the player's limit on their own: the console of
    the match being confirmed (its assigned referee's login), and a browser on which the
    player confirmed before. A stranger's wrong PINs for the player, or from the hall's
    network, never refuse the player's right PIN there.
    """
    known = browsers.PINS.subject(request, holder)
    if request.user.pk is not None and request.user.pk == assigned_referee_id(match_id):
        subjects = [(throttle.PIN_PLAYER, f"{holder}\nconsole of {match_id}")]
    elif known is not None:
        subjects = [(throttle.PIN_PLAYER, known)]
    else:
        subjects = [
            (throttle.PIN_PLAYER, holder),
            (throttle.PIN_ADDRESS, throttle.address_of(request)),
        ]
    try:
        return throttle.attempt(*subjects)
    except throttle.TooManyAttempts as refused:
        raise TooManyPins(refused.retry_after) from None
    except throttle.CountingAway:  # a PIN unthrottled is a million guesses an hour
        raise CountingAway from None

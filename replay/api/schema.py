"""The OpenAPI description of what the API answers: its shapes (the notation) and its errors.

These serializers only describe; the views answer with what the projections and the
records give. The schema test fuzzes the API against this description.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular import openapi
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse
from rest_framework import serializers

from matches.domain.events import KINDS
from matches.domain.rules import BALLS, FOULS, PINS, PLAYERS
from replay.api.serializers import Body, slug_pattern
from replay.queries.listing import STATUSES as LISTED_STATUSES


class AutoSchema(openapi.AutoSchema):
    """drf-spectacular's, saying what the views refuse: a body's fields, and no other."""

    def _map_basic_serializer(self, serializer: Any, direction: Any) -> dict[str, Any]:
        # drf-spectacular types its own module but leaves this method unannotated.
        mapped: dict[str, Any] = super()._map_basic_serializer(serializer, direction)  # type: ignore[no-untyped-call]
        if isinstance(serializer, Body):
            mapped["additionalProperties"] = False
        return mapped


STATUSES = ("lag", "playing", "finished", "review")


class Error(serializers.Serializer[dict[str, Any]]):
    error = serializers.CharField(help_text="what was refused, in words")
    field = serializers.CharField(
        allow_null=True, help_text="the field to blame (a path such as contacts[2].hit), or null"
    )
    seq = serializers.IntegerField(
        required=False,
        help_text="the event to blame; in a 409, the match's current seq",
    )


class Created(serializers.Serializer[dict[str, Any]]):
    id = serializers.CharField()


class Ruling(serializers.Serializer[dict[str, Any]]):
    valid = serializers.BooleanField()
    first_contact = serializers.ChoiceField(
        choices=("opponent", "red", "pins", "none"), allow_null=True
    )
    carom = serializers.ChoiceField(choices=("kiss", "ricochet"), allow_null=True)
    pins = serializers.ListField(child=serializers.ChoiceField(choices=PINS))
    pin_points = serializers.IntegerField()
    carom_points = serializers.IntegerField()
    fouls = serializers.ListField(child=serializers.ChoiceField(choices=FOULS))
    foul_points = serializers.IntegerField()
    scorer = serializers.ChoiceField(choices=("shooter", "opponent"), allow_null=True)
    points = serializers.IntegerField()
    ball_in_hand = serializers.BooleanField()


class Preview(Ruling):
    player = serializers.ChoiceField(choices=PLAYERS, help_text="whose shot was judged")


class Game(serializers.Serializer[dict[str, Any]]):
    game = serializers.IntegerField()
    breaker = serializers.ChoiceField(choices=PLAYERS)
    score = serializers.DictField(child=serializers.IntegerField())
    winner = serializers.ChoiceField(choices=PLAYERS, allow_null=True)
    shots = serializers.IntegerField()
    end = serializers.ChoiceField(choices=("target", "forfeit"), allow_null=True)
    flags = serializers.ListField(
        child=serializers.ChoiceField(choices=("void_shots", "void_game", "needs_review"))
    )


class Next(serializers.Serializer[dict[str, Any]]):
    game = serializers.IntegerField()
    player = serializers.ChoiceField(choices=PLAYERS)
    ball_in_hand = serializers.BooleanField()
    zone = serializers.ChoiceField(choices=("lower", "upper"), allow_null=True)


class ShotEntry(serializers.Serializer[dict[str, Any]]):
    seq = serializers.IntegerField()
    game = serializers.IntegerField(allow_null=True)
    player = serializers.ChoiceField(choices=PLAYERS)
    ruling = Ruling()
    original = Ruling(allow_null=True, help_text="the first ruling, when the shot was amended")
    amended = serializers.BooleanField()
    void = serializers.BooleanField()
    retracted = serializers.BooleanField()


class Scoreboard(serializers.Serializer[dict[str, Any]]):
    """The part of the match state a live message carries: it does not grow with the match."""

    status = serializers.ChoiceField(choices=STATUSES)
    winner = serializers.ChoiceField(choices=PLAYERS, allow_null=True)
    games_won = serializers.DictField(child=serializers.IntegerField())
    games = Game(many=True)
    next = Next(allow_null=True, help_text="who shoots next; null in the lag and once decided")
    positions = serializers.DictField(
        child=serializers.ListField(child=serializers.FloatField(), allow_null=True),
        help_text="each ball's [x, y] in mm, or null where unknown",
    )


class MatchState(Scoreboard):
    shots = ShotEntry(many=True)
    stats = serializers.DictField(child=serializers.DictField(), help_text="per player")
    seq = serializers.IntegerField(help_text="the last event folded")


class RecordedScoreboard(Scoreboard):
    ruling = Ruling(
        allow_null=True,
        help_text="the ruling of the shot recorded, or the new ruling of the shot amended; "
        "null for any other event",
    )


class Referee(serializers.Serializer[dict[str, Any]]):
    name = serializers.CharField()
    username = serializers.CharField(required=False)


class RecordHeader(serializers.Serializer[dict[str, Any]]):
    id = serializers.CharField()
    competition = serializers.CharField()
    stage = serializers.CharField(required=False)
    table = serializers.CharField(required=False)
    date = serializers.DateField(required=False)
    referee = Referee(required=False, help_text="the officiating referee (not a login)")
    players = serializers.DictField(child=serializers.DictField())
    balls = serializers.DictField(child=serializers.ChoiceField(choices=BALLS))
    ruleset = serializers.DictField(help_text="the full ruleset in force")


class MatchDetail(serializers.Serializer[dict[str, Any]]):
    match = RecordHeader()
    state = MatchState()


class RecordedEvent(serializers.Serializer[dict[str, Any]]):
    """An event as a record writes it: its own fields, and seq, at, by and hash."""

    seq = serializers.IntegerField()
    type = serializers.ChoiceField(choices=tuple(KINDS))
    at = serializers.CharField(help_text="when it was recorded: ISO 8601 in UTC with Z")
    confirmed_at = serializers.CharField(
        required=False,
        help_text="when the referee confirmed it at the table, where that differs from at "
        "(it waited in a queue offline): ISO 8601 in UTC to the millisecond, never after at",
    )
    by = serializers.CharField(help_text="the username of who recorded it")
    hash = serializers.CharField(help_text="SHA-256 chaining it to the event before")


class Events(serializers.Serializer[dict[str, Any]]):
    events = RecordedEvent(many=True)


class Change(serializers.Serializer[dict[str, Any]]):
    before = serializers.JSONField(required=False)
    after = serializers.JSONField()


class Consequences(serializers.Serializer[dict[str, Any]]):
    """What an event would change (the README's preview), each where it changes."""

    ruling = Change(required=False, help_text="the shot's ruling (an amendment: before, after)")
    match = Change(required=False, help_text="status, winner and games won")
    groups = Change(required=False, help_text="each group whose places change, by place")
    slots = serializers.JSONField(
        required=False,
        help_text="before and after: each slot whose holder changes (its place, its match if "
        "made, started or not); moves: the matches not started whose players would follow; "
        "disputes: the started matches that would be disputed",
    )
    ranking = Change(required=False, help_text="the final ranking's rows that change")
    said = serializers.ListField(
        child=serializers.CharField(), help_text="the same in sentences, in the request's language"
    )


class Recorded(serializers.Serializer[dict[str, Any]]):
    seq = serializers.IntegerField(help_text="the new event's seq")
    at = serializers.CharField(help_text="when it was recorded: the event's at")
    state = RecordedScoreboard(
        help_text="the scoreboard after it, as a live message carries it: the rest of the "
        "match state (shots, stats, fouls, lags) is GET /api/matches/{id}/state away"
    )


class Record(serializers.Serializer[dict[str, Any]]):
    format = serializers.ChoiceField(choices=("carambole.match/1",))
    match = RecordHeader()
    events = RecordedEvent(many=True)


class MatchItem(serializers.Serializer[dict[str, Any]]):
    """One match of the list: its header's names and the archive's summary of it."""

    id = serializers.CharField()
    competition = serializers.CharField()
    date = serializers.DateField(allow_null=True)
    stage = serializers.CharField(allow_null=True)
    table = serializers.CharField(allow_null=True)
    players = serializers.DictField(
        child=serializers.DictField(), help_text="A and B as the match's record names them"
    )
    status = serializers.ChoiceField(
        choices=LISTED_STATUSES,
        help_text="scheduled before the first event; unreadable when a stored event cannot "
        "be folded; else the match state's",
    )
    games_won = serializers.DictField(child=serializers.IntegerField())
    winner = serializers.ChoiceField(choices=PLAYERS, allow_null=True)
    seq = serializers.IntegerField(help_text="the seq of its last event (0: none yet)")
    url = serializers.URLField(help_text="the match itself: GET /api/matches/{id}")


class Matches(serializers.Serializer[dict[str, Any]]):
    matches = MatchItem(many=True)
    next = serializers.URLField(allow_null=True, help_text="the next page, or null at the last")


class Assignment(serializers.Serializer[dict[str, Any]]):
    match = serializers.CharField()
    referee = serializers.CharField(allow_null=True, help_text="the login that may record")
    assigned_by = serializers.CharField()
    assigned_at = serializers.DateTimeField()


class TableAssignment(serializers.Serializer[dict[str, Any]]):
    match = serializers.CharField()
    table = serializers.CharField(allow_null=True, help_text="the table's name; null: none")
    assigned_by = serializers.CharField()
    assigned_at = serializers.DateTimeField()


class Token(serializers.Serializer[dict[str, Any]]):
    prefix = serializers.CharField(help_text="the key's first 8 characters")
    user = serializers.CharField()
    created_at = serializers.DateTimeField()
    revoked_at = serializers.DateTimeField(allow_null=True)
    revoked_by = serializers.CharField()


class Tokens(serializers.Serializer[dict[str, Any]]):
    tokens = Token(many=True)


class Me(serializers.Serializer[dict[str, Any]]):
    username = serializers.CharField(help_text="the login the credentials are of")
    staff = serializers.BooleanField(help_text="whether it may do what the federation does")


WHY = {
    400: "the body or query is not the expected JSON shape: not JSON, a wrong type, an "
    "unknown field",
    401: "no credentials, or a token that is not valid",
    403: "a login not allowed to do this (or a session without its CSRF token)",
    404: "no such match, competition, token or path",
    409: "someone else was first: a stale expected_seq (seq is the match's current one), "
    "or a table with a match called already (field names what)",
    413: "the body is larger than the limit (API_MAX_BODY_BYTES, 64 KiB unless set)",
    422: "well-formed, but the rules or the match refuse it; field (and seq) name why",
    429: "too many requests from this address: Retry-After says how many seconds to wait",
    503: "the counts of the throttle cannot be kept just now (Redis does not answer): "
    "Retry-After says how many seconds to wait",
}


def errors(*codes: int) -> dict[int, Any]:
    """Return the documented error answers of an operation."""
    return {code: OpenApiResponse(Error, description=WHY[code]) for code in codes}


MATCH_ID = OpenApiParameter(
    "id",
    str,
    OpenApiParameter.PATH,
    description="the match's id",
    pattern=slug_pattern(),
    examples=[OpenApiExample("a match", value="cup-2026-a-3")],
)
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    {"type": "string", "maxLength": 200},
    OpenApiParameter.HEADER,
    description="a key of the client's, scoped to the match: the same key with the same "
    "body answers as the first time and records nothing; with another body, a 422",
)
REPLAYED = OpenApiParameter(
    "Idempotent-Replayed",
    {"type": "string", "enum": ["true"]},
    OpenApiParameter.HEADER,
    description="present when this is the first answer to the same command, sent again",
    response=[201],
)
TOKEN_PREFIX = OpenApiParameter(
    "prefix",
    str,
    OpenApiParameter.PATH,
    description="the token's first 8 characters",
    pattern="^[A-Za-z0-9_-]{8}$",
)

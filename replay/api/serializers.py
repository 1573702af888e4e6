"""What the API reads: request bodies and query strings, checked for their JSON shape.

A body of the wrong shape (not an object, a field of the wrong JSON type, an unknown
field) is a 400 here, naming the field. What is inside the shapes (a pin that does
not exist, a name too long, a shot by the wrong player) is for the notation and the
services to judge: a 422 naming the field as they do.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.validators import ProhibitNullCharactersValidator
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.validators import ProhibitSurrogateCharactersValidator

from matches.domain.errors import EXCERPT, excerpt
from matches.domain.fold import VIEWS
from matches.domain.notation import FEDERATION_ID_RULE, LONGEST, MAX_EVENTS
from matches.record_schema import FEDERATION_ID, SLUG
from replay.queries.listing import MAX_PAGE, STATUSES
from replay.queries.search import PER_PAGE

MESSAGES = {"required": "is required", "null": "must not be null"}
UNCHECKED = (ProhibitNullCharactersValidator, ProhibitSurrogateCharactersValidator)


class Text(serializers.CharField):
    """A JSON string, taken as sent: no number turned into text, no space trimmed."""

    default_error_messages = {**MESSAGES, "invalid": "must be a string"}

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("trim_whitespace", False)
        kwargs.setdefault("allow_blank", True)
        super().__init__(**kwargs)
        # What text may hold (no NUL, no lone surrogate) is the notation's to say: a 422.
        self.validators = [v for v in self.validators if not isinstance(v, UNCHECKED)]

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return data


class Whole(serializers.IntegerField):
    """A JSON integer (not a string, a float or a boolean) within its range."""

    default_error_messages = {
        **MESSAGES,
        "invalid": "must be a whole number",
        "min_value": "must be at least {min_value}",
        "max_value": "must be at most {max_value}",
    }

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return data


class Digits(serializers.IntegerField):
    """A whole number in a query string: digits only (no sign, no point), within its range."""

    default_error_messages = {
        **MESSAGES,
        "invalid": "must be a whole number",
        "max_string_length": "must be a whole number",
        "min_value": "must be at least {min_value}",
        "max_value": "must be at most {max_value}",
    }

    def to_internal_value(self, data: Any) -> int:
        if not isinstance(data, str) or not data.isascii() or not data.isdigit():
            self.fail("invalid")
        return super().to_internal_value(data)


class Seq(Digits):
    """A `seq` in a query string: from 0 to the most events a match holds."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(min_value=0, max_value=MAX_EVENTS, **kwargs)


class Object(serializers.DictField):
    """A JSON object; what its keys hold is checked by the notation."""

    default_error_messages = {**MESSAGES, "not_a_dict": "must be an object"}


class List(serializers.ListField):
    default_error_messages = {**MESSAGES, "not_a_list": "must be a list"}


class Choice(serializers.ChoiceField):
    default_error_messages = {**MESSAGES, "invalid_choice": "must be one of {choices}"}

    def fail(self, key: str, **kwargs: Any) -> Any:
        if key == "invalid_choice":
            kwargs["choices"] = ", ".join(str(choice) for choice in self.choices)
        return super().fail(key, **kwargs)


class Body(serializers.Serializer[dict[str, Any]]):
    """A JSON object with these fields and no other."""

    default_error_messages = {**MESSAGES, "invalid": "must be a JSON object"}

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            for key in data:
                if key not in self.fields:
                    known = ", ".join(self.fields)
                    raise serializers.ValidationError(
                        {str(key)[:EXCERPT]: [f"unknown field {excerpt(key)}; expected {known}"]}
                    )
        return super().to_internal_value(data)


SLUG_HELP = "a slug: letters, digits, - _ . (at most 100 characters)"


@extend_schema_field(
    {
        "type": "object",
        "properties": {
            "name": {"type": "string", "maxLength": LONGEST["name"]},
            "federation_id": {
                "type": "string",
                "maxLength": LONGEST["federation_id"],
                "pattern": FEDERATION_ID,
                "description": FEDERATION_ID_RULE,
            },
        },
        "required": ["name"],
        "description": "identified by federation_id when given, else by name; other keys "
        "are kept as written",
    }
)
class PlayerField(Object):
    """A player as a record names them."""


class Players(Body):
    """The two players, A and B."""

    A = PlayerField()
    B = PlayerField()


# -- Bodies ----------------------------------------------------------------------------


class CompetitionBody(Body):
    """A new competition, with its ruleset overrides."""

    id = Text(required=False, help_text=f"{SLUG_HELP}; generated from the name when absent")
    name = Text(required=False, help_text=f"at most {LONGEST['name']} characters")
    ruleset = Object(
        required=False,
        help_text="overrides of the default ruleset (target, best_of, side_pin, "
        "center_with_others, center_alone, kiss_carom, ricochet_carom, foul, red_first, "
        "cumulative_fouls, pin_pitch)",
    )
    stages = List(
        child=Object(),
        required=False,
        help_text="its stages, played in order: each a groups stage (id, "
        "groups, advance, from, direct, ruleset) or a knockout (id, size, from, direct, "
        "third_place, ruleset); absent: one round robin of its entrants",
    )


class MatchBody(Body):
    """A new match: its players, their balls, its ruleset and the login that records it."""

    id = Text(required=False, help_text=f"{SLUG_HELP}; generated when absent")
    competition = Text(help_text="the competition's id")
    players = Players()
    balls = Object(
        child=Text(),
        required=False,
        help_text='each player\'s cue ball; default {"A": "white", "B": "yellow"}',
    )
    ruleset = Object(required=False, help_text="overrides of the competition's ruleset")
    referee = Text(
        required=False,
        allow_null=True,
        help_text="the username of the login allowed to record the match (an unknown "
        "username is a 422 and nothing is stored); null or absent: nobody yet",
    )
    referee_name = Text(
        required=False, help_text="the officiating referee the record names (text, exported)"
    )
    stage = Text(required=False, help_text=f"at most {LONGEST['stage']} characters")
    table = Text(required=False, help_text=f"at most {LONGEST['table']} characters")
    date = Text(required=False, help_text="YYYY-MM-DD")


class EventBody(Body):
    """An event to record after the match's last one."""

    expected_seq = Whole(
        min_value=0,
        max_value=MAX_EVENTS,
        help_text="the seq of the match's last event (0 before the first): the new "
        "event follows it, or the answer is a 409 naming the current one",
    )
    event = Object(
        help_text="an event as the notation writes it, with its type; a shot may omit "
        "player (it is whoever is due). seq, at, by and hash are set by the server"
    )


class JudgeBody(Body):
    """Shot facts to judge, recording nothing; with `shot`, as an amendment of that shot."""

    struck = Text(required=False, allow_null=True, help_text="white, yellow or red")
    contacts = List(child=Object(), required=False, help_text="the contacts, in order")
    called = List(child=Text(), required=False, help_text="fouls the referee called")
    rest = Object(required=False, help_text="where balls came to rest, [x, y] in mm")
    shot = Whole(
        required=False,
        min_value=1,
        max_value=MAX_EVENTS,
        help_text="the seq of a recorded shot: judge these facts as an amendment of it",
    )

    FACTS = ("struck", "contacts", "called", "rest")


class RefereeBody(Body):
    """The login allowed to record the match."""

    username = Text(
        allow_null=True,
        help_text="the login allowed to record the match; null: nobody",
    )


# -- Query strings -----------------------------------------------------------------------


class StateQuery(serializers.Serializer[dict[str, Any]]):
    upto = Seq(required=False, help_text="the state after this event (default: the last)")
    view = Choice(
        choices=VIEWS,
        default="amended",
        help_text="amended: every amendment applied; live: as viewers saw it then",
    )


class EventsQuery(serializers.Serializer[dict[str, Any]]):
    after = Seq(required=False, default=0, help_text="only the events after this seq")


class MatchesQuery(serializers.Serializer[dict[str, Any]]):
    competition = Text(required=False, help_text="only this competition's matches (its id)")
    status = Choice(
        choices=STATUSES,
        required=False,
        help_text="only the matches in this state: scheduled (no event yet), lag, playing, "
        "finished, review (a game needs review after an amendment) or unreadable",
    )
    page = Digits(
        min_value=1,
        max_value=MAX_PAGE,
        required=False,
        default=1,
        help_text=f"{PER_PAGE} matches a page, from 1; a page past the last is empty",
    )


class TokensQuery(serializers.Serializer[dict[str, Any]]):
    user = Text(required=False, help_text="only this user's tokens")


def slug_pattern() -> str:
    """Return the pattern of a match or competition id, as OpenAPI writes it."""
    return SLUG

"""The one error of carambole: what was refused, the field to blame, and the event's `seq`.

The notation, the rules and the services raise it; the commands, the API and the
websockets show `as_dict()`. A refusal raised `because` a code of `matches.domain.refusals`
carries that code and its parameters too, so that it can be said in any language.
Pure Python: no Django.
"""

from __future__ import annotations

from typing import Any, Self, overload

from matches.domain.refusals import TEXTS

EXCERPT = 40  # the most characters of what was sent that an error message quotes


def excerpt(value: Any) -> str:
    """Return a value as an error message quotes it: its repr, cut to a short excerpt."""
    text = repr(value)
    return text if len(text) <= EXCERPT else f"{text[: EXCERPT - 1]}…"


@overload
def join_field(prefix: str | None, name: str) -> str: ...


@overload
def join_field(prefix: str | None, name: str | None) -> str | None: ...


def join_field(prefix: str | None, name: str | None) -> str | None:
    """Return the path of a field inside another (`contacts` + `[2].hit`, `match` + `players`)."""
    if not prefix:
        return name
    if not name:
        return prefix
    return f"{prefix}{name}" if name.startswith("[") else f"{prefix}.{name}"


class Refused(ValueError):
    """Input that carambole refuses; `field` names the culprit, `seq` the event to blame."""

    status = 422

    def __init__(
        self,
        message: str,
        field: str | None = None,
        seq: int | None = None,
        *,
        code: str | None = None,
        params: dict[str, str | int] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.field = field or None
        self.seq = seq
        self.code = code
        self.params = dict(params or {})

    @classmethod
    def because(
        cls, code: str, field: str | None = None, seq: int | None = None, **params: str | int
    ) -> Self:
        """Return the refusal `code` names, its English text filled in with `params`."""
        return cls(TEXTS[code] % params, field, seq, code=code, params=params)

    def __str__(self) -> str:
        where = [f"seq {self.seq}"] if self.seq is not None else []
        if self.field:
            where.append(self.field)
        return f"{', '.join(where)}: {self.message}" if where else self.message

    def at(self, seq: int) -> Refused:
        """Return this error blaming event `seq`, unless an event is named already."""
        if self.seq is None:
            self.seq = seq
        return self

    def as_dict(self) -> dict[str, Any]:
        """Return the error as the interfaces show it: {"error", "field"}, `seq` if known, and
        `code` and `params` when the refusal has a code."""
        error: dict[str, Any] = {"error": self.message, "field": self.field}
        if self.seq is not None:
            error["seq"] = self.seq
        if self.code is not None:
            error["code"] = self.code
            error["params"] = self.params
        return error


class NotFound(Refused):
    """A competition, match or event that does not exist."""

    status = 404


class Conflict(Refused):
    """An append that expected another `seq` to follow: someone else recorded first."""

    status = 409

    def __init__(self, current_seq: int) -> None:
        stale = Refused.because("stale_seq", "expected_seq", current_seq, current=current_seq)
        super().__init__(
            stale.message, stale.field, stale.seq, code=stale.code, params=stale.params
        )
        self.current_seq = current_seq

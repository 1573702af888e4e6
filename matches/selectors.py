"""Reads of the write side that the services, the views and the commands share."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import connection

from matches import store
from matches.domain.competition_log import replacement_id
from matches.domain.errors import NotFound, Refused, excerpt
from matches.domain.events import parse_event
from matches.domain.fold import decide, state_after
from matches.domain.notation import SLUG, parse_shot
from matches.domain.state import Corrections
from matches.domain.transitions import judged
from matches.models import Assignment, Competition, Match


def check_id(value: Any, field: str, what: str) -> str:
    """Return an id that may name a stored competition or match, before any query asks.

    Every stored id is a slug: other text names nothing, and some of it (a NUL, a lone
    surrogate) a database cannot even be asked about.
    """
    if not isinstance(value, str):
        raise Refused.because("not_match_id" if what == "match" else "not_competition_id", field)
    if not SLUG.match(value):
        raise NotFound.because(
            "no_match" if what == "match" else "no_competition", field, id=excerpt(value)
        )
    return value


def competition_get(competition_id: Any, field: str = "id") -> Competition:
    """Return a competition, or refuse naming the field that holds its id."""
    check_id(competition_id, field, "competition")
    found = Competition.objects.filter(pk=competition_id).first()
    if found is None:
        raise NotFound.because("no_competition", field, id=excerpt(competition_id))
    return found


def match_get(match_id: Any) -> Match:
    """Return a match with its competition, or refuse naming the id."""
    found = Match.objects.select_related("competition").filter(pk=str(match_id)).first()
    if found is None:
        raise NotFound.because("no_match", "id", id=excerpt(match_id))
    return found


def assigned_referee(match: Match | str) -> Any:
    """Return the login assigned to record a match (the latest assignment), or None."""
    latest = Assignment.objects.filter(match=match).select_related("user").last()
    return latest.user if latest is not None else None


def replacement_of(match: Match) -> Match | None:
    """Return the match that replaces a void one, once made (None for any other)."""
    if match.status != Match.Status.VOID:
        return None
    return Match.objects.filter(pk=replacement_id(match.pk)).first()


def assigned_username(match: Match | str) -> str | None:
    """Return the username of the login assigned to record a match (or a match's id), or None."""
    found = assigned_referee(match)
    return found.get_username() if found is not None else None


def assigned_referee_id(match: Match | str) -> Any:
    """Return the primary key of the login assigned to record a match (or a match's id), or None.

    One row read by a plain statement: the permission to record asks it on every request.
    """
    with connection.cursor() as cursor:
        cursor.execute(ASSIGNED_SQL, [match.pk if isinstance(match, Match) else str(match)])
        found = cursor.fetchone()
    return found[0] if found is not None else None


ASSIGNED_SQL = (
    f"SELECT {Assignment._meta.get_field('user').column} FROM {Assignment._meta.db_table} "
    f"WHERE {Assignment._meta.get_field('match').column} = %s "
    f"ORDER BY {Assignment._meta.pk.column} DESC LIMIT 1"
)


def events_after(match: Match, after: int = 0) -> list[dict[str, Any]]:
    """Return a match's events after `seq` `after` as a record writes them (seq, at, by, hash)."""
    return [event.as_record() for event in store.load_events(match, after)]


def shot_preview(match: Match, facts: Mapping[str, Any], shot: int | None = None) -> dict[str, Any]:
    """Return the ruling shot facts would get, recording nothing, and whose shot it is.

    As the player who is due, in the match as it stands (refused as recording the shot
    would be); with `shot`, the `seq` of a recorded shot, as that shot's player in that
    shot's context: the match as amended up to just before it (an amendment's preview).
    """
    header = match.header()
    events = store.load_facts(match)
    now = state_after(header, events)
    if shot is None:
        try:
            event = decide(now, parse_event({"type": "shot", **facts}, header, now.seq + 1))
        except Refused as error:
            # The preview's body has no `type`: blame the match as it stands, not a field.
            if error.field == "type":
                error.field = None
            raise
        player, context = event["player"], now
    else:
        recorded = now.shot_index.get(shot)
        if recorded is None:
            raise Refused.because("not_a_shot", "shot", shot=shot)
        if recorded["retracted"]:
            raise Refused.because("shot_retracted", "shot", shot=shot)
        player = recorded["player"]
        # What the fold folds an amended shot into: the events before it, every correction known.
        context = state_after(header, events[: shot - 1], Corrections.of(events))
    own = header.ball_of(player)
    ruling = judged(context, parse_shot(facts, own), own).ruling
    return {"player": player, **ruling.as_dict()}

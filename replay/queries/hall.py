"""A competition's hall: each table with the match at it, the match called next, and when
its console was last heard (the hall page and `GET /api/competitions/{id}/tables`)."""

from __future__ import annotations

import hashlib
import json
import re
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.utils import timezone

from matches import store
from matches.domain.competition_log import fold_competition_log, replacement_id
from matches.domain.draws import group_plan
from matches.models import Competition, Match, Table, TableAssignment
from matches.selectors import competition_get
from matches.services.competition_log import log_read, stages_of
from replay.models import ConsoleActivity
from replay.projections.states import match_state

UNDER_WAY = ("lag", "playing", "review")
# The stage a round robin's match is scheduled with (`round_robin_create`).
ROUND_ROBIN_ROUND = re.compile(r"Round ([0-9]+)")


def hall_get(competition: Competition | str) -> dict[str, Any]:
    """Return the hall: every table in order with its card, the matches waiting for a table,
    the server's clock and the quiet limit (the page works quiet tables out from them)."""
    if not isinstance(competition, Competition):
        competition = competition_get(competition)
    tables = list(Table.objects.filter(competition=competition))
    latest: dict[str, TableAssignment] = {}
    for row in TableAssignment.objects.filter(match__competition=competition).order_by(
        "match_id", "-assigned_at", "-id"
    ):
        latest.setdefault(row.match_id, row)
    matches = {
        match.pk: match
        for match in store.with_last_event(Match.objects.filter(competition=competition))
    }
    heard = {
        row.match_id: row.at
        for row in ConsoleActivity.objects.filter(match__competition=competition)
    }
    at_table: dict[int, list[tuple[TableAssignment, Any]]] = {}
    for match_id, row in latest.items():
        if row.table_id is not None:
            at_table.setdefault(row.table_id, []).append((row, matches[match_id]))
    places = _places(competition, list(matches.values()))
    cards = [_card(table, at_table.get(table.pk, []), heard, places, matches) for table in tables]
    placed = {match_id for match_id, row in latest.items() if row.table_id is not None}
    waiting = [
        _players(match, places)
        for match in sorted(matches.values(), key=lambda m: (m.date or m.created_at.date(), m.pk))
        if match.head == 0 and match.status != Match.Status.VOID and match.pk not in placed
    ]
    return {
        "competition": competition.pk,
        "name": competition.name,
        # The newest event of the competition's log or of its matches': never goes back.
        "version": max(
            [store.competition_log_newest(competition.pk)]
            + [match.last_id for match in matches.values()]
        ),
        "now": _iso(timezone.now()),
        "quiet_seconds": settings.HALL_QUIET_SECONDS,
        "tables": cards,
        "waiting": waiting,
    }


def table_names(competition: Competition | str) -> list[str]:
    """Return the names of a competition's tables, in the hall's order."""
    return list(Table.objects.filter(competition=competition).values_list("name", flat=True))


def table_of_match(hall: dict[str, Any], match_id: str) -> dict[str, Any] | None:
    """Return the card of the table whose match (now or called next) is `match_id`."""
    for card in hall["tables"]:
        for key in ("match", "next"):
            if card[key] is not None and card[key]["id"] == match_id:
                return card  # type: ignore[no-any-return]
    return None


def _card(
    table: Table,
    assigned: list[tuple[TableAssignment, Any]],
    heard: dict[str, datetime],
    places: dict[str, dict[str, Any]],
    matches: dict[str, Any],
) -> dict[str, Any]:
    started = [(row, match) for row, match in assigned if match.head > 0]
    called = sorted(
        ((row, match) for row, match in assigned if match.head == 0 and match.status != "void"),
        key=lambda pair: (pair[0].assigned_at, pair[0].pk),
    )
    playing = [(row, match) for row, match in started if match.status in UNDER_WAY]
    # The match under way (the latest put there), else the last one finished there.
    shown = max(
        playing or started, key=lambda pair: (pair[0].assigned_at, pair[0].pk), default=None
    )
    now = None if shown is None else _now(shown[1], heard, places, matches)
    following = _players(called[0][1], places) if called else None
    if now is None and following is not None:
        active = heard.get(following["id"])
        following["active_at"] = None if active is None else _iso(active)
    card = {"table": table.name, "order": table.order, "match": now, "next": following}
    return {**card, "version": version_of(card)}


def version_of(card: dict[str, Any]) -> str:
    """Return a card's version: it differs whenever anything the card shows does."""
    text = json.dumps(card, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.blake2s(text.encode(), digest_size=8).hexdigest()


def _players(match: Any, places: dict[str, dict[str, Any]]) -> dict[str, Any]:
    return {
        "id": match.pk,
        "players": {side: match.players[side]["name"] for side in ("A", "B")},
        "stage": match.stage,
        "place": places.get(match.pk),
    }


def _places(competition: Competition, matches: list[Match]) -> dict[str, dict[str, Any]]:
    """Return where each match stands in its competition, for the hall's words: its round.

    A stage's match: its group and round in the group ({"group", "round"}), or its round
    in the knockout and the knockout's rounds ({"round", "rounds"}; {"third_place": true}
    for the match for third place). A round robin's match: its round ({"round"}). Any
    other match: its stage as written ({"text"}).
    """
    stages = {stage.id: stage for stage in stages_of(competition)}
    draws = (
        fold_competition_log([entry.event for entry in log_read(competition.pk)]).draws
        if stages
        else {}
    )
    rounds_in_group: dict[tuple[str, str], dict[str, int]] = {}
    places: dict[str, dict[str, Any]] = {}
    for match in matches:
        stage = stages.get(match.stage_id)
        draw = draws.get(match.stage_id, {})
        if stage is None or not draw:
            numbered = ROUND_ROBIN_ROUND.fullmatch(match.stage)
            if numbered and not stages:
                places[match.pk] = {"round": int(numbered[1])}  # in the page's language
            elif match.stage:
                places[match.pk] = {"text": match.stage}
        elif match.group:
            key = (match.stage_id, match.group)
            if key not in rounds_in_group:
                members = len(draw.get("groups", {}).get(match.group, []))
                plan = group_plan(competition.pk, match.stage_id, match.group, members)
                rounds_in_group[key] = {g.id.rsplit("-", 1)[1]: g.round for g in plan}
            found = rounds_in_group[key].get(match.slot)
            places[match.pk] = {"group": match.group, "round": found}
        elif match.slot == "3rd":
            places[match.pk] = {"third_place": True}
        elif match.slot:
            rounds = int(draw["size"]).bit_length() - 1 if draw.get("size") else 0
            places[match.pk] = {"round": int(match.slot.split("-")[0]), "rounds": rounds}
    return places


def _now(
    match: Any,
    heard: dict[str, datetime],
    places: dict[str, dict[str, Any]],
    matches: dict[str, Any],
) -> dict[str, Any]:
    # As of the head read with the hall's matches: an event committed since is not folded
    # into a card that shows the seq before it (its next read shows both).
    state = match_state(match, upto=match.head, view="live")
    games = state["games"]
    last = games[-1] if games else None
    upcoming = state.get("next") or {}
    event = store.load_events(match, after=match.head - 1, limit=1)
    last_at = store.parse_time(event[0].at) if event else None
    moments = [moment for moment in (last_at, heard.get(match.pk)) if moment is not None]
    return {
        **_players(match, places),
        "status": "void" if match.status == Match.Status.VOID else state["status"],
        "winner": state["winner"],
        "games_won": state["games_won"],
        "game": None if last is None else last["game"],
        "score": {"A": 0, "B": 0} if last is None else last["score"],
        "due": upcoming.get("player"),
        "seq": match.head,
        "active_at": _iso(max(moments)) if moments else None,
        "replacement": _replacement(match, matches, places),
    }


def _replacement(
    match: Any, matches: dict[str, Any], places: dict[str, dict[str, Any]]
) -> dict[str, Any] | None:
    """Return the match that replaces a void one, once made (None for any other)."""
    if match.status != Match.Status.VOID:
        return None
    found = matches.get(replacement_id(match.pk))
    return None if found is None else _players(found, places)


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")

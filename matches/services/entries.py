"""A competition's entrants, their seeds, and the round robin that pairs them: staff actions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date, timedelta
from typing import Any

from django.db import transaction

from matches.domain.draws import pairings
from matches.domain.errors import Refused
from matches.domain.notation import expect_federation_id
from matches.models import (
    FEDERATION_ID_LENGTH,
    NAME_LENGTH,
    USERNAME_LENGTH,
    Competition,
    Entry,
    Event,
    Match,
)
from matches.selectors import competition_get
from matches.services.championships import seeded_enter, staged
from matches.services.competition_log import PLAYERS_SEEDED, log_append
from matches.services.competitions import (
    check_text,
    day_of,
    match_create,
    player_of,
    referee_assign,
)
from matches.services.ids import match_id_free

MAX_ENTRANTS = 128


def player_enter(
    *, competition_id: str, player: Mapping[str, Any], by: str, seed: Any = None
) -> Entry:
    """Enter a player in a competition: found by federation id when given, else by name.

    Entering the same player twice changes nothing and returns the first entry. In a
    competition with stages the seed is required, and entering again with another seed
    changes it until the first draw (`championships.seeded_enter`).
    """
    check_text(by, "by", USERNAME_LENGTH, required=True)
    competition = competition_get(competition_id)
    if not isinstance(player, Mapping):
        raise Refused.because("not_object", "player")
    name = check_text(player.get("name"), "name", NAME_LENGTH, required=True)
    entry: dict[str, Any] = {"name": name}
    federation_id = player.get("federation_id")
    if federation_id is not None:
        check_text(federation_id, "federation_id", FEDERATION_ID_LENGTH)  # valid Unicode too
        entry["federation_id"] = expect_federation_id(federation_id, "federation_id")
    with transaction.atomic():
        competition_lock(competition)
        if Entry.objects.filter(competition=competition).count() >= MAX_ENTRANTS:
            raise Refused.because("too_many_players", "player", most=MAX_ENTRANTS)
        found = player_of(entry, "")
        existing = Entry.objects.filter(competition=competition, player=found).first()
        if competition.stages is None:
            if seed is not None:
                raise Refused.because("seed_without_stages", "seed")
            if existing is not None:
                return existing
            return Entry.objects.create(competition=competition, player=found, entered_by=by)
        if seed is None:
            raise Refused.because("seed_required", "seed")
        if existing is None:
            existing = Entry(competition=competition, player=found, entered_by=by)
        return seeded_enter(competition, existing, seed, by)


def players_seed(
    *, competition_id: str, players: Sequence[Any], by: str, source: Mapping[str, Any]
) -> list[Entry]:
    """Seed every player entered, strongest first, in one event of the competition's log
    (`players_seeded`, saying where the order came from: `source`), until the first draw.

    `players`: the key of each entrant, each once. Seeds are 1, 2, 3, ... in that order.
    """
    check_text(by, "by", USERNAME_LENGTH, required=True)
    competition = staged(competition_id)
    with transaction.atomic():
        competition_lock(competition)
        if Event.objects.filter(competition=competition, type="stage_drawn").exists():
            raise Refused.because("entries_closed", "players")
        entries = {
            entry.player_id: entry
            for entry in Entry.objects.select_related("player").filter(competition=competition)
        }
        if sorted(players, key=str) != sorted(entries, key=str):
            raise Refused.because("seed_order_incomplete", "players")
        ordered = [entries[key] for key in players]
        # Two at once: every seed is cleared before any is given (each is unique).
        Entry.objects.filter(competition=competition).update(seed=None)
        for seed, entry in enumerate(ordered, start=1):
            entry.seed = seed
            entry.save(update_fields=["seed"])
        seeds = [{"player": entry.player.as_record(), "seed": entry.seed} for entry in ordered]
        log_append(competition, [{"type": PLAYERS_SEEDED, "seeds": seeds, **source}], by)
    return ordered


def round_robin_create(
    *,
    competition_id: str,
    by: str,
    first_date: date | str | None = None,
    referee: str | None = None,
) -> list[Match]:
    """Schedule a match between every two entrants not paired yet, one round a day.

    Rounds by the circle method, so no one plays twice on a day; a pair that already has
    a match in the competition (either way round) is skipped, so generating again after
    entering more players adds only their matches. All or nothing.
    """
    check_text(by, "by", USERNAME_LENGTH, required=True)
    competition = competition_get(competition_id)
    if competition.stages is not None:
        raise Refused.because("draw_stages_instead", "stages")
    start = day_of(first_date, "first_date")
    created = []
    with transaction.atomic():
        competition_lock(competition)
        entrants = [
            entry.player
            for entry in Entry.objects.filter(competition=competition).select_related("player")
        ]
        if len(entrants) < 2:
            raise Refused.because("round_robin_too_few", "players")
        paired = {
            frozenset(pair)
            for pair in Match.objects.filter(competition=competition).values_list(
                "player_a_id", "player_b_id"
            )
        }
        for round_number, a, b in pairings(len(entrants)):
            one, two = entrants[a], entrants[b]
            if frozenset((one.pk, two.pk)) in paired:
                continue
            header = {"A": one.as_record(), "B": two.as_record()}
            match = match_create(
                competition=competition.pk,
                players=header,
                id=match_id_free(f"{competition.pk}-r{round_number}-{one.pk}-{two.pk}"),
                stage=f"Round {round_number}",
                date=start + timedelta(days=round_number - 1) if start else None,
            )
            if referee is not None:
                referee_assign(match_id=match.pk, username=referee, by=by)
            created.append(match)
    return created


def competition_lock(competition: Competition) -> None:
    """Hold a competition's entrants and pairs until this transaction ends.

    Two round robins (or entries) sent at once then run one after the other, the second
    seeing what the first stored, as if sent later: a pair is never scheduled twice and a
    player never entered twice. PostgreSQL locks the row (matches may still be added to the
    competition meanwhile); SQLite has one writer at a time anyway.
    """
    locked = Competition.objects.select_for_update(no_key=True).filter(pk=competition.pk)
    list(locked.values_list("pk", flat=True))

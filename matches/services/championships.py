"""Competitions in stages on the store: read as of a version, entered, drawn, settled.

`championship_at` folds a competition's log and its stage matches' logs up to a global
id (the newest when none is given) into a `Championship`; the staff actions append to
the competition's log (`competition_log.log_append`) under the log lock and create the
matches the draw or a settled slot makes playable, each exactly once (its id is fixed
by its place in the stage).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from django.db import IntegrityError, transaction

from matches import store
from matches.domain.championship import Championship
from matches.domain.championship_draws import draw_event
from matches.domain.competition_log import Played, fold_competition_log, player_key
from matches.domain.draws import group_plan
from matches.domain.errors import NotFound, Refused, excerpt
from matches.domain.fold import evolve, state_after
from matches.domain.readback import event_data
from matches.domain.render import result_of, shown_of, status
from matches.domain.rules.ranking import Result
from matches.domain.stages import Stage
from matches.domain.state import MatchState
from matches.models import USERNAME_LENGTH, Competition, Entry, Event, Match
from matches.selectors import competition_get
from matches.services.commands import match_forfeit
from matches.services.competition_log import (
    DRAW_UNDONE,
    PLAYER_WITHDRAWN,
    log_append,
    log_read,
    stages_of,
)
from matches.services.competitions import check_text, day_of, match_create, referee_assign


class StateClash(Refused):
    """What the competition's state refuses (409): a second draw, an undo once a match has
    begun, a second withdrawal."""

    status = 409


@dataclass(frozen=True)
class AsOf:
    """A competition's stages as of a version: the fold, and the version it stands at."""

    championship: Championship
    version: int


def championship_at(competition: Competition, at: int | None = None) -> AsOf:
    """Fold a competition's log and its stage matches' events with global id ≤ `at`.

    The version is the newest of those events that changed anything the stages show:
    an event of the competition's log, or one that changed a match's status, winner or
    games won.
    """
    played, changed = _played(competition, at)
    return championship_of(competition, played, changed, at)


def championship_of(
    competition: Competition, played: dict[str, Played], changed: int, at: int | None = None
) -> AsOf:
    """Fold a competition's log (global ids ≤ `at`) with what its stage matches count for.

    `changed` is the newest event that changed what the matches show: the projector
    gives it, and `played`, from the summaries it keeps, so it folds no match again.
    """
    logged = log_read(competition.pk, at)
    competition_log = fold_competition_log(
        [entry.event for entry in logged], [entry.id for entry in logged]
    )
    version = logged[-1].id if logged else 0
    championship = Championship(competition.pk, stages_of(competition), competition_log, played)
    return AsOf(championship, max(version, changed))


def _played(competition: Competition, at: int | None) -> tuple[dict[str, Played], int]:
    matches = {
        match.pk: match
        for match in Match.objects.filter(competition=competition).exclude(stage_id="")
    }
    events = Event.objects.filter(match_id__in=list(matches)).order_by("match_id", "seq")
    if at is not None:
        events = events.filter(id__lte=at)
    folds: dict[str, tuple[MatchState, int]] = {}
    for event_id, match_id, seq, data in events.values_list("id", "match_id", "seq", "data_text"):
        if match_id not in folds:  # a match's first event starts it: a change shown
            state = evolve(MatchState(matches[match_id].header()), event_data(data, seq))
            folds[match_id] = (state, event_id)
            continue
        state, changed = folds[match_id]
        before = shown_of(state)
        state = evolve(state, event_data(data, seq))
        folds[match_id] = (state, event_id if shown_of(state) != before else changed)
    played = {}
    newest = 0
    for match_id, match in matches.items():
        keys = (player_key(match.players["A"]), player_key(match.players["B"]))
        if match_id not in folds:
            played[match_id] = Played("scheduled", Result(keys))
            continue
        state, changed = folds[match_id]
        newest = max(newest, changed)
        shown = status(state)
        winner = state.winner if shown == "finished" else None
        played[match_id] = Played(shown, result_of(state, keys), winner, changed)
    return played, newest


# -- Staff actions -----------------------------------------------------------------------


def seeded_enter(competition: Competition, entry: Entry, seed: Any, by: str) -> Entry:
    """Give a player entered in a competition with stages their seed, in its log.

    Seeds are required and unique; entering again with another seed changes it, until
    the first draw closes the entries. The caller holds the competition's lock.
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or not 1 <= seed <= 10_000:
        raise Refused.because("seed_out_of_range", "seed")
    if Event.objects.filter(competition=competition, type="stage_drawn").exists():
        raise Refused.because("entries_closed", "player")
    taken = Entry.objects.filter(competition=competition, seed=seed).exclude(pk=entry.pk).first()
    if taken is not None:
        raise Refused.because("seed_taken", "seed", seed=seed, player=excerpt(taken.player.name))
    if entry.seed != seed:
        entry.seed = seed
        entry.save()
        record = entry.player.as_record()
        log_append(competition, [{"type": "player_entered", "player": record, "seed": seed}], by)
    return entry


def player_withdraw(*, competition_id: str, player_key_: int, reason: Any, by: str) -> Entry:
    """Withdraw a player (staff, with a reason): ranked last in his group, never qualifying."""
    check_text(by, "by", USERNAME_LENGTH, required=True)
    reason = check_text(reason, "reason", 500, required=True)
    competition = staged(competition_id)
    with transaction.atomic():
        entry = (
            Entry.objects.select_for_update()
            .select_related("player")
            .filter(competition=competition, player_id=player_key_)
            .first()
        )
        if entry is None:
            raise Refused.because("not_entered", "player", player=player_key_)
        if entry.withdrawn:
            raise StateClash.because("withdrawn_already", "player")
        entry.withdrawn = True
        entry.save(update_fields=["withdrawn"])
        event = {"type": PLAYER_WITHDRAWN, "player": entry.player.as_record(), "reason": reason}
        log_append(competition, [event], by)
        _forfeit_unplayed(competition, player_key_, f"withdrawn: {reason}", by)
    return entry


def _forfeit_unplayed(competition: Competition, player: int, reason: str, by: str) -> None:
    """Record a match forfeit of a withdrawn player's every unfinished match; what he
    played stands."""
    own = Match.objects.filter(competition=competition).exclude(stage_id="")
    for match in own.filter(player_a_id=player) | own.filter(player_b_id=player):
        state = state_after(match.header(), store.load_facts(match))
        if state.winner is not None:
            continue  # played: his result stands
        side = "A" if match.player_a_id == player else "B"
        match_forfeit(
            match_id=match.pk, expected_seq=state.seq, by=by, player=side, reason=reason, staff=True
        )


def stage_draw(
    *,
    competition_id: str,
    stage_id: str,
    by: str,
    first_date: date | str | None = None,
    referee: str | None = None,
) -> list[Match]:
    """Draw a stage (staff): its groups or bracket, in the log, and the matches it makes.

    A group's matches are created by the draw; a knockout's where both slots are settled.
    """
    check_text(by, "by", USERNAME_LENGTH, required=True)
    competition = staged(competition_id)
    start = day_of(first_date, "first_date")
    with transaction.atomic():
        store.lock_log()
        stage = _stage(competition, stage_id)
        championship = championship_at(competition).championship
        if stage.id in championship.log.draws:
            raise StateClash.because("stage_drawn", "stage", stage=stage.id)
        if len(championship.log.entrants) < 2:
            raise Refused.because("draw_too_few", "players")
        event = draw_event(championship, stage)
        if start is not None:  # the knockout's later rounds are created later, on their day
            event["first_date"] = start.isoformat()
        log_append(competition, [event], by)
        championship.log.apply(event)
        created = []
        if stage.kind == "groups":
            for group in event["groups"]:
                created.extend(_group_matches(competition, championship, stage, group, start))
        created.extend(settle(competition, championship))
        if referee is not None:
            for match in created:
                referee_assign(match_id=match.pk, username=referee, by=by)
    return created


def stage_draw_undo(*, competition_id: str, stage_id: str, by: str) -> None:
    """Undo a stage's draw (staff) while none of its matches has an event."""
    check_text(by, "by", USERNAME_LENGTH, required=True)
    competition = staged(competition_id)
    with transaction.atomic():
        store.lock_log()
        stage = _stage(competition, stage_id)
        competition_log = fold_competition_log([entry.event for entry in log_read(competition.pk)])
        if stage.id not in competition_log.draws:
            raise StateClash.because("stage_not_drawn", "stage", stage=stage.id)
        later = [
            s.id
            for s in stages_of(competition)
            if s.source == stage.id and s.id in competition_log.draws
        ]
        if later:
            raise StateClash(f"stage {later[0]} is drawn from it: undo that draw first", "stage")
        matches = Match.objects.filter(competition=competition, stage_id=stage.id)
        started = Event.objects.filter(match__in=matches).values_list("match_id", flat=True)
        first = started.first()
        if first is not None:
            raise StateClash(f"match {first} has begun: the draw stands", "stage")
        log_append(competition, [{"type": DRAW_UNDONE, "stage": stage.id}], by)
        for match in matches:
            match.assignments.all().delete()
        matches.delete()


def settle(
    competition: Competition, championship: Championship, stored: Collection[str] | None = None
) -> list[Match]:
    """Create every match both of whose slots are settled and that is not stored: a
    knockout's, or the replacement of a voided match in a group drawn from another stage.

    Each id is fixed by its place in the stage: two settlers at once create it once, the
    second finding it stored (or its insert refused) and moving on. `stored`: the ids of
    the competition's stage matches, when the caller knows them.
    """
    if stored is None:
        stored = set(
            Match.objects.filter(competition=competition)
            .exclude(stage_id="")
            .values_list("pk", flat=True)
        )
    created = []
    for playable in championship.playable():
        if playable.id in stored:
            continue
        a, b = playable.players
        decision = championship.log.replacing(playable.id)
        voided = Match.objects.get(pk=decision["match"]) if decision is not None else None
        try:
            with transaction.atomic():
                match = match_create(
                    competition=competition.pk,
                    players={"A": a.record(), "B": b.record()},
                    ruleset=playable.stage.ruleset,
                    id=playable.id,
                    stage=voided.stage if voided else f"{playable.stage.id} {playable.slot}",
                    date=voided.date
                    if voided
                    else _day_of_round(championship.log.draws[playable.stage.id], playable.slot),
                    stage_id=playable.stage.id,
                    group=playable.group,
                    slot=playable.slot,
                )
                if decision is not None and decision.get("referee"):
                    _replacement_referee_assign(match, decision)
        except (Refused, IntegrityError):
            if not Match.objects.filter(pk=playable.id).exists():
                raise
            continue  # another settler created it first
        created.append(match)
    return created


def _replacement_referee_assign(match: Match, decision: dict[str, Any]) -> None:
    """Let the referee a decision named (or the voided match's) record its replacement,
    assigned in the name of who decided."""
    decided_by = (
        Event.objects.filter(pk=decision.get("version", 0))
        .values_list("recorded_by", flat=True)
        .first()
    )
    referee_assign(match_id=match.pk, username=decision["referee"], by=decided_by or "decision")


def _day_of_round(draw: dict[str, Any], slot: str) -> date | None:
    """Return the day of a knockout match from its draw's first day: a round a day, the
    third-place match on the final's day (None when the draw named no day)."""
    if not draw.get("first_date"):
        return None
    rounds = int(draw["size"]).bit_length() - 1
    round_number = rounds if slot == "3rd" else int(slot.split("-", 1)[0])
    return date.fromisoformat(draw["first_date"]) + timedelta(days=round_number - 1)


def _group_matches(
    competition: Competition,
    championship: Championship,
    stage: Stage,
    group: str,
    start: date | None,
) -> list[Match]:
    members = championship.members(stage.id, group)
    entrants = championship.log.entrants
    created = []
    for planned in group_plan(competition.pk, stage.id, group, len(members)):
        a, b = members[planned.a], members[planned.b]
        assert a is not None and b is not None  # a group's slots are settled when drawn
        created.append(
            match_create(
                competition=competition.pk,
                players={"A": entrants[a].record(), "B": entrants[b].record()},
                ruleset=stage.ruleset,
                id=planned.id,
                stage=f"{stage.id} {group} round {planned.round}",
                date=start + timedelta(days=planned.round - 1) if start else None,
                stage_id=stage.id,
                group=group,
                slot=planned.id.rsplit("-", 1)[1],
            )
        )
    return created


def staged(competition_id: str) -> Competition:
    """Return a competition with stages, or refuse naming `stages`."""
    competition = competition_get(competition_id)
    if competition.stages is None:
        raise Refused("the competition has no stages", "stages")
    return competition


def _stage(competition: Competition, stage_id: Any) -> Stage:
    found = next((stage for stage in stages_of(competition) if stage.id == stage_id), None)
    if found is None:
        raise NotFound(f"no stage {excerpt(stage_id)}", "stage")
    return found


def stage_shapes(competition: Competition) -> list[dict[str, Any]]:
    """Return each stage of a competition as its words need it: id, kind, its groups (a
    groups stage's count as written) and its rounds (a knockout's, once drawn, else 0)."""
    stages = stages_of(competition)
    if not stages:
        return []
    draws = fold_competition_log([entry.event for entry in log_read(competition.pk)]).draws
    shapes = []
    for stage in stages:
        size = draws.get(stage.id, {}).get("size")
        shapes.append(
            {
                "id": stage.id,
                "kind": stage.kind,
                "groups": stage.groups if stage.kind == "groups" else 0,
                "rounds": int(size).bit_length() - 1 if size else 0,
            }
        )
    return shapes

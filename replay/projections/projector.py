"""The projector: catches the read models up from the global log, with its cursor.

It reads the events committed after its cursor, in the log's one order, and folds each
match they touch on from where its summary stands (a `Batch`). Then each read model of
`READ_MODELS`, in that order, writes the batch: a new version of a competition's
standings for each event that changed what they count, the archive summaries, the
competitions in stages and the players' ratings. Then its process manager
(`knockouts`) makes the matches the competitions' settled slots need. All of it in the
transaction that moves the cursor. The cursor's row is locked for that transaction: run
twice at once, the second finds nothing left to do.

Versions follow events, not runs: an event that changes a counted result (or the
pending count) makes the version its global id, whether it is read alone or in a
batch of thousands, so a rebuild from the log writes exactly the versions, rows and
changes the incremental path wrote.

A competition whose read model cannot be written (its fold, settling or writing raises)
never stops the projector: its work is rolled back to a savepoint, the error is kept as
its `ReadModelFault` (`faults`), and every other competition and the cursor go on.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import partial

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from carambole.caches import Cache
from matches import store
from matches.domain.errors import Refused
from matches.domain.fold import evolve, state_after
from matches.domain.readback import folding
from matches.domain.render import result_of, shown_of, status
from matches.domain.rules import average
from matches.domain.rules.ranking import Result
from matches.domain.state import MatchState
from matches.models import Match
from matches.store import LoggedEvent
from replay.models import MatchSummary, ProjectorCursor
from replay.projections.cursors import position_of
from replay.projections.faults import faults_delete
from replay.projections.knockouts import matches_make
from replay.projections.log import Batch, Change, ReadModel, voided_match
from replay.projections.ratings_writer import RATINGS, counts, ratings_catch_up
from replay.projections.signals import standings_committed
from replay.projections.stages_writer import STAGES
from replay.projections.standings_writer import STANDINGS

NAME = "projector"
BATCH_EVENTS = 2000


@dataclass
class Caught:
    """What one catch-up did: the events it read and the versions it wrote."""

    events: int = 0
    versions: dict[str, int] = field(default_factory=dict)


# Each match folded to its last event, by its id and that event's hash (which seals the
# header and every event before it): the next event of a match in play folds onto it,
# without reading its log again.
match_folds: Cache[tuple[str, str], MatchState] = Cache("projector match folds", 256)


# -- Catching up ----------------------------------------------------------------------


def catch_up(*, progress: Callable[[int], object] | None = None, scheduled: bool = False) -> Caught:
    """Apply every event committed after the cursor to the read models, batch by batch.

    With `scheduled`, matches without an event yet get their summary too (the sweep, a
    rebuild): no event announces a match being scheduled.
    """
    caught = Caught()
    while True:
        with transaction.atomic():
            rows = store.log_after(_locked_cursor(), BATCH_EVENTS)
            if rows:
                batch = _batch(rows)
                written = {model.name: model.write(batch) for model in READ_MODELS}
                matches_make(batch)
                _move(batch.position)
                heard = _newest(written.values())
                if heard:
                    transaction.on_commit(partial(_announce_all, heard))
            # A short batch reached the head: what commits later is announced on its own.
            done = len(rows) < BATCH_EVENTS
            if done and scheduled:
                _summarise_scheduled()
        if rows:
            caught.events += len(rows)
            caught.versions.update(written[STANDINGS.name])
            if progress is not None:
                progress(len(rows))
        if done:
            return caught


def rebuild(*, progress: Callable[[int], object] | None = None) -> Caught:
    """Rebuild every read model from the events alone, in one transaction."""
    with transaction.atomic():
        _locked_cursor()
        for model in READ_MODELS:
            model.empty()
        faults_delete()
        _move(0)
        clear_caches()
        caught = catch_up(progress=progress, scheduled=True)
        ratings_catch_up()
        return caught


def position() -> int:
    """Return the id of the last event the read models include."""
    return position_of(NAME) or 0


def head() -> int:
    """Return the id of the newest event in the log (0 when empty)."""
    return store.log_head()


def hold() -> None:
    """Lock the cursor until the caller's transaction ends: no other projector runs meanwhile."""
    _locked_cursor()


def clear_caches() -> None:
    """Empty the read models' caches in this process (a rebuild, a test's own database)."""
    for model in READ_MODELS:
        model.clear_cache()


def _newest(written: Iterable[Mapping[str, int]]) -> dict[str, int]:
    """Return each competition's newest version among what the read models wrote."""
    newest: dict[str, int] = {}
    for versions in written:
        for key, version in versions.items():
            newest[key] = max(newest.get(key, 0), version)
    return newest


def _announce_all(versions: dict[str, int]) -> None:
    standings_committed.send(sender=catch_up, versions=versions)


def _locked_cursor() -> int:
    """Return the cursor's position, its row locked until the transaction ends (made on
    first use)."""
    found = position_of(NAME, locked=True)
    if found is None:
        try:
            with transaction.atomic():
                ProjectorCursor.objects.create(name=NAME)
        except IntegrityError:
            pass  # another projector made it first
        found = position_of(NAME, locked=True)
    assert found is not None  # made above, or by the projector that made it first
    return found


def _move(position: int) -> None:
    ProjectorCursor.objects.filter(name=NAME).update(position=position, updated_at=timezone.now())


def _summarise_scheduled() -> None:
    """Give each match without a summary yet (no event so far) its scheduled one."""
    missing = list(Match.objects.filter(summary__isnull=True))
    if missing:
        MatchSummary.objects.bulk_create([new_summary(match) for match in missing])


# -- One batch ------------------------------------------------------------------------


def _batch(rows: list[LoggedEvent]) -> Batch:
    """Fold on the matches these events touch: their summaries as they stand after them,
    each event that changed a counted result, and the matches that counted in the rating
    before (the summaries are stored by `SUMMARIES`, once the standings have read them as
    they were)."""
    by_match: dict[str, list[LoggedEvent]] = {}
    for row in rows:
        if row.match_id is not None:  # a competition's own log: no summary or standings
            by_match.setdefault(row.match_id, []).append(row)
    summaries, matches = _read_touched(list(by_match))
    for summarised in summaries.values():
        summarised.match = matches[summarised.match_id]
    counted = {match_id for match_id, summarised in summaries.items() if counts(summarised)}
    changes: list[Change] = []
    new: list[MatchSummary] = []
    touched: dict[str, MatchSummary] = {}
    for match_id, events in by_match.items():
        summary = summaries.get(match_id)
        if summary is None:
            summary = new_summary(matches[match_id])
            new.append(summary)
        touched[match_id] = summary
        changes.extend(_advance(matches[match_id], summary, events))
    for row in rows:
        voided = voided_match(row)
        if voided is not None:
            changes.extend(_void(row, voided, touched, counted))
    changes.sort(key=lambda change: change.event.id)
    return Batch(rows, rows[-1].id, changes, touched, new, counted)


def _read_touched(match_ids: list[str]) -> tuple[dict[str, MatchSummary], dict[str, Match]]:
    """Return the summaries and the matches of a batch's matches, by match id."""
    summaries: dict[str, MatchSummary] = {}
    matches: dict[str, Match] = {}
    most = connection.features.max_query_params or len(match_ids) or 1
    for start in range(0, len(match_ids), most):
        some = match_ids[start : start + most]
        chosen = ", ".join(["%s"] * len(some))
        summaries.update(
            (row.match_id, row)
            for row in MatchSummary.objects.raw(f"{SUMMARIES_SQL} ({chosen})", some)
        )
        matches.update(
            (row.pk, row) for row in Match.objects.raw(f"{MATCHES_SQL} ({chosen})", some)
        )
    return summaries, matches


# Raw statements, their columns converted by the ORM: a recompute reads these once a shot on
# the embedded venue, holding SQLite's one write lock, and `in_bulk` took the ORM 0.9 ms
# to build the two statements against 0.55 ms for the whole read this way.
SUMMARIES_SQL = f"SELECT * FROM {MatchSummary._meta.db_table} WHERE match_id IN"
MATCHES_SQL = f"SELECT * FROM {Match._meta.db_table} WHERE id IN"


def _summaries_write(batch: Batch) -> dict[str, int]:
    """Store the summaries a batch touched: the new ones made, the others updated."""
    MatchSummary.objects.bulk_create(batch.new)
    made = {id(summary) for summary in batch.new}
    for summary in batch.summaries.values():
        if id(summary) not in made:
            # One UPDATE each: `bulk_update`'s CASE over every field cost more than folding.
            summary.save(update_fields=SUMMARY_FIELDS)
    return {}


def _summaries_empty() -> None:
    MatchSummary.objects.all().delete()


SUMMARIES = ReadModel("summaries", _summaries_write, _summaries_empty, match_folds.clear)

# Every read model, in the order each batch writes them: the standings read the summaries
# as they were before the batch, the stages as they are after it.
READ_MODELS: tuple[ReadModel, ...] = (STANDINGS, SUMMARIES, STAGES, RATINGS)


SUMMARY_FIELDS = [
    "status",
    "games_won_a",
    "games_won_b",
    "points_a",
    "points_b",
    "average_a",
    "average_b",
    "own_points_a",
    "own_points_b",
    "shots_a",
    "shots_b",
    "winner",
    "winner_player",
    "needs_review",
    "confirmed_by",
    "amendments",
    "retractions",
    "seq",
    "event_id",
    "head_hash",
    "result_event_id",
    "result",
    "shown_event_id",
    "updated_at",
]


def _void(
    row: LoggedEvent, match_id: str, summaries: dict[str, MatchSummary], counted: set[str]
) -> list[Change]:
    """Count a match a decision voided for nothing: its summary reads void from then on
    (noted in `counted` when it counted in the rating before)."""
    summary = summaries.get(match_id)
    if summary is None:
        summary = MatchSummary.objects.filter(match_id=match_id).first()
        if summary is None:
            return []
        summaries[match_id] = summary
        if counts(summary):
            counted.add(match_id)
    before = Result.from_json(summary.result) if summary.result else None
    summary.status = "void"
    summary.result, summary.winner, summary.winner_player_id = None, "", None
    summary.needs_review = False
    summary.result_event_id = summary.shown_event_id = row.id
    summary.updated_at = timezone.now()
    if before is None:
        return []
    return [Change(row, summary.competition_id, summary, before, None)]


def new_summary(match: Match) -> MatchSummary:
    """Return a match's summary before its first event (not saved): what the sweep stores."""
    return MatchSummary(
        match=match,
        competition_id=match.competition_id,
        player_a_id=match.player_a_id,
        player_b_id=match.player_b_id,
        player_a_name=match.players["A"]["name"],
        player_b_name=match.players["B"]["name"],
        date=match.date,
        stage=match.stage,
    )


def _shot_named(state: MatchState, event: LoggedEvent) -> tuple[int | None, int | None]:
    """Return the game and the number of the shot an amendment or retraction names (None
    and None for other events)."""
    if event.type not in ("shot_amended", "shot_retracted"):
        return None, None
    named: int | None = event.fact().get("shot")
    shot = state.shot_index.get(named) if named is not None else None
    if shot is None or named is None:
        return None, None
    return shot["game"], state.shot_number(named)


def _advance(match: Match, summary: MatchSummary, events: list[LoggedEvent]) -> list[Change]:
    """Fold a match on by its new events; return each event that changed its result."""
    players = (match.player_a_id, match.player_b_id)
    before = Result.from_json(summary.result) if summary.result else None
    changes = []
    last = events[-1]
    # What the stages show of the match before these events (nothing before its first).
    shown = (
        (summary.status, summary.winner or None, summary.games_won_a, summary.games_won_b)
        if summary.seq
        else None
    )
    try:
        with folding():
            state = _fold_at(match, summary, events[0])
            for event in events:
                if state.seq < event.seq:
                    if event.seq != state.seq + 1:  # events the cursor passed without a summary
                        facts = store.load_facts(match)[: event.seq - 1]
                        state = state_after(match.header(), facts)
                    state = evolve(state, event.fact())
                now = shown_of(state)
                if now != shown:
                    summary.shown_event_id, shown = event.id, now
                summary.amendments += event.type == "shot_amended"
                summary.retractions += event.type == "shot_retracted"
                after = result_of(state, players)
                if after != before:
                    game, number = _shot_named(state, event)
                    change = Change(
                        event, match.competition_id, summary, before, after, game, number
                    )
                    changes.append(change)
                    summary.result_event_id = event.id
                    before = after
    except Refused:
        # A row changed behind the store's back: the match is shown as unreadable and
        # counts for nothing until it is repaired (verify_archive names the row).
        summary.status = "unreadable"
        summary.shown_event_id = last.id
        if before is not None:
            changes.append(Change(last, match.competition_id, summary, before, None))
            summary.result_event_id = last.id
        summary.result = None
    else:
        _describe(summary, state, match)
        summary.result = before.as_json() if before is not None else None
        match_folds.set((match.pk, last.hash), state)
    summary.seq, summary.event_id, summary.head_hash = last.seq, last.id, last.hash
    summary.updated_at = timezone.now()
    return changes


def _fold_at(match: Match, summary: MatchSummary, first: LoggedEvent) -> MatchState:
    """Return the match as it stood after the summary's last event, or after `first`.

    The match's cached fold at the summary's last event (taken out: folding on changes
    it); else one fold of the log up to and including the first new event, as seen then:
    folding an amendment onto the state before it would fold the match twice.
    """
    cached = match_folds.pop((match.pk, summary.head_hash)) if summary.seq else None
    if cached is not None:
        return cached
    # A match new to the summaries (a rebuild reads every one so) needs no read of its log.
    events = store.load_facts(match)[: summary.seq] if summary.seq else []
    if first.seq == summary.seq + 1:
        events.append(first.fact())
    return state_after(match.header(), events)


def _describe(summary: MatchSummary, state: MatchState, match: Match) -> None:
    summary.status = status(state)
    won = state.games_won()
    summary.games_won_a, summary.games_won_b = won["A"], won["B"]
    games = [game for game in state.games if not game.void]
    summary.points_a = sum(game.score["A"] for game in games)
    summary.points_b = sum(game.score["B"] for game in games)
    summary.average_a, summary.average_b = (
        average(state.stats[side]["points"], state.stats[side]["shots"]) for side in "AB"
    )
    summary.own_points_a, summary.own_points_b = (state.stats[side]["points"] for side in "AB")
    summary.shots_a, summary.shots_b = (state.stats[side]["shots"] for side in "AB")
    summary.winner = state.winner or ""
    summary.winner_player_id = {"A": match.player_a_id, "B": match.player_b_id}.get(
        state.winner or ""
    )
    summary.needs_review = summary.status == "review"
    summary.confirmed_by = ",".join(state.confirmed_by())

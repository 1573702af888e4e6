"""The write side's tables: competitions, players, match headers and the append-only events."""

from __future__ import annotations

from functools import cached_property
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone

from matches.domain.header import Header
from matches.domain.notation import LONGEST
from matches.domain.readback import event_data
from matches.domain.rules import Ruleset

# The longest texts each column holds: the models' max_length and the services' checks
# share these numbers, so an over-long value is refused (422) before the database sees it.
ID_LENGTH = 100  # a competition's or a match's slug (notation.SLUG allows as many)
NAME_LENGTH = LONGEST["name"]  # a competition's, a player's or a referee's name
FEDERATION_ID_LENGTH = LONGEST["federation_id"]
STAGE_LENGTH = LONGEST["stage"]
TABLE_LENGTH = LONGEST["table"]
USERNAME_LENGTH = LONGEST["username"]  # who recorded an event; Django's own is as long
IDEMPOTENCY_KEY_LENGTH = 200
STAGE_ID_LENGTH = LONGEST["stage_id"]
SLOT_LENGTH = LONGEST["slot"]


class ImmutableEventError(Exception):
    """Raised when code tries to change or delete a recorded event."""


class Competition(models.Model):
    id = models.SlugField(primary_key=True, max_length=ID_LENGTH)
    name = models.CharField(max_length=NAME_LENGTH)
    ruleset = models.JSONField(default=dict, help_text="overrides of the default ruleset")
    # Its stages as written (README, "Competitions and standings"), checked by
    # `matches.domain.stages.parse_stages`;
    # null for a competition of one round robin, as before stages.
    stages = models.JSONField(null=True, blank=True)
    # How far an import moved the global ids of the competition's log and its matches'
    # events from those its log's hashes cover (`matches.domain.chain.Position`): 0 where recorded.
    id_offset = models.BigIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    name = models.CharField(max_length=NAME_LENGTH)
    federation_id = models.CharField(
        max_length=FEDERATION_ID_LENGTH, null=True, blank=True, unique=True
    )

    class Meta:
        constraints = [
            # A player without a federation id is known by name alone.
            models.UniqueConstraint(
                fields=["name"],
                condition=models.Q(federation_id__isnull=True),
                name="player_name_unique_without_federation_id",
            )
        ]

    def __str__(self) -> str:
        return self.name

    def as_record(self) -> dict[str, Any]:
        entry: dict[str, Any] = {"name": self.name}
        if self.federation_id:
            entry["federation_id"] = self.federation_id
        return entry


class Entry(models.Model):
    """A player entered in a competition by staff: a round robin pairs the entrants."""

    competition = models.ForeignKey(Competition, on_delete=models.PROTECT, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    entered_by = models.CharField(max_length=USERNAME_LENGTH)
    entered_at = models.DateTimeField(default=timezone.now)
    # 1 is the strongest: required in a competition with stages, unique in it.
    seed = models.PositiveIntegerField(null=True, blank=True)
    withdrawn = models.BooleanField(default=False)

    class Meta:
        ordering = ["competition", "entered_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["competition", "player"], name="entry_unique_player"),
            models.UniqueConstraint(
                fields=["competition", "seed"],
                condition=models.Q(seed__isnull=False),
                name="entry_unique_seed",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.competition_id}: {self.player}"


class Match(models.Model):
    class Status(models.TextChoices):
        LAG = "lag"
        PLAYING = "playing"
        FINISHED = "finished"
        REVIEW = "review"
        VOID = "void"  # a decision on a dispute voided it: its record stays, counted nowhere

    id = models.SlugField(primary_key=True, max_length=ID_LENGTH)
    competition = models.ForeignKey(Competition, on_delete=models.PROTECT, related_name="matches")
    stage = models.CharField(max_length=STAGE_LENGTH, blank=True)
    table = models.CharField(max_length=TABLE_LENGTH, blank=True)
    date = models.DateField(null=True, blank=True)
    player_a = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    player_b = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    # The players as this match's record names them: the header the hash chain seals.
    players = models.JSONField()
    ball_a = models.CharField(max_length=6, default="white")
    ball_b = models.CharField(max_length=6, default="yellow")
    ruleset = models.JSONField(help_text="the full ruleset in force")
    # The officiating referee as the record names them: text, part of the match as it
    # happened, exported; never a login (who may record is an Assignment).
    referee_name = models.CharField(max_length=NAME_LENGTH, blank=True)
    referee_username = models.CharField(max_length=USERNAME_LENGTH, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.LAG)
    # Its place in a competition's stages, empty outside them: the
    # stage's id, the group's letter, and the match's place in the stage (`A3`, `2-1`, `3rd`).
    stage_id = models.CharField(max_length=STAGE_ID_LENGTH, blank=True)
    group = models.CharField(max_length=1, blank=True)
    slot = models.CharField(max_length=SLOT_LENGTH, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "matches"

    def __str__(self) -> str:
        return f"{self.id}: {self.player_a} v {self.player_b}"

    def header(self) -> Header:
        """Return what the events are judged against and what the hash chain seals."""
        return header_of(self.players, self.ball_a, self.ball_b, self.ruleset)


# The columns of a match's header, in the order `header_of` takes them.
HEADER_COLUMNS = ("players", "ball_a", "ball_b", "ruleset")


def header_of(players: Any, ball_a: str, ball_b: str, ruleset: Any) -> Header:
    """Return the header of a match from its columns (`Match.header`, or a plain read)."""
    return Header(
        players=players, balls={"A": ball_a, "B": ball_b}, ruleset=Ruleset.from_overrides(ruleset)
    )


class Assignment(models.Model):
    """Who may record a match: every change is a new row, with who made it and when.

    The latest row of a match stands; a row without a user takes the match from
    whoever had it. Never exported: logins are not part of the match as it happened.
    """

    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="assignments")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="assignments",
    )
    assigned_by = models.CharField(max_length=USERNAME_LENGTH)
    assigned_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["match", "assigned_at", "id"]

    def __str__(self) -> str:
        return f"{self.match_id}: {self.user or 'nobody'} (by {self.assigned_by})"


class Table(models.Model):
    """A table of a competition's hall, by name, in the order the hall shows them."""

    competition = models.ForeignKey(Competition, on_delete=models.PROTECT, related_name="tables")
    name = models.CharField(max_length=TABLE_LENGTH)
    order = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["competition", "order", "id"]
        constraints = [
            models.UniqueConstraint(fields=["competition", "name"], name="table_unique_name"),
        ]

    def __str__(self) -> str:
        return f"{self.competition_id}: {self.name}"


class TableAssignment(models.Model):
    """Which table a match is played at: every change is a new row, with who made it and when.

    The latest row of a match stands; a row without a table takes the match off its table.
    Never exported, as a referee's login is not: the record's `table` is the one its
    match was at when its first event was recorded (`Match.table`).
    """

    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="table_assignments")
    table = models.ForeignKey(
        Table, on_delete=models.PROTECT, null=True, blank=True, related_name="assignments"
    )
    assigned_by = models.CharField(max_length=USERNAME_LENGTH)
    assigned_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["match", "assigned_at", "id"]

    def __str__(self) -> str:
        return f"{self.match_id}: {self.table or 'no table'} (by {self.assigned_by})"


class Event(models.Model):
    """One immutable fact of a match, or of a competition's log; the database refuses
    UPDATE and DELETE too.

    A competition's log (its entries, draws, withdrawals: see the README) is kept in
    the same table, with `competition` set instead of `match`, so that both take their
    place in the one global order and are refused the same changes.
    """

    id = models.BigAutoField(primary_key=True)  # the global order of the whole log
    # No index of its own: UNIQUE(match, seq) leads with the match and serves every lookup.
    match = models.ForeignKey(
        Match, on_delete=models.PROTECT, related_name="events", db_index=False, null=True
    )
    competition = models.ForeignKey(
        Competition, on_delete=models.PROTECT, related_name="log", db_index=False, null=True
    )
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=20)
    # The event (its type and its own fields) as JSON text, kept exactly as written:
    # key order and numbers as parsed (PostgreSQL's jsonb would reorder keys and
    # normalise numbers). It parses straight into what the fold reads.
    data_text = models.TextField(db_column="data")
    recorded_at = models.DateTimeField()
    at = models.CharField(max_length=40, help_text="recorded_at exactly as the hash chain saw it")
    recorded_by = models.CharField(max_length=USERNAME_LENGTH)
    idempotency_key = models.CharField(max_length=IDEMPOTENCY_KEY_LENGTH, null=True, blank=True)
    command_digest = models.CharField(max_length=64, blank=True)
    hash = models.CharField(max_length=64)
    # What `hash` covers (`matches.domain.chain.HASH_VERSIONS`): 1, as the notation hashes a
    # match's event (every match's, and a log's recorded before 2); 2, an event of a
    # competition's log whose hash also covers its global ids. A default in the database:
    # the store's plain INSERTs of a match's events leave it out.
    hash_version = models.PositiveSmallIntegerField(db_default=1)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "seq"], name="event_unique_match_seq"),
            models.UniqueConstraint(
                fields=["match", "idempotency_key"],
                condition=models.Q(idempotency_key__isnull=False),
                name="event_unique_match_idempotency_key",
            ),
            models.UniqueConstraint(
                fields=["competition", "seq"],
                condition=models.Q(competition__isnull=False),
                name="event_unique_competition_seq",
            ),
            # Each event is of one log: a match's or a competition's.
            models.CheckConstraint(
                condition=models.Q(match__isnull=False, competition__isnull=True)
                | models.Q(match__isnull=True, competition__isnull=False),
                name="event_of_one_log",
            ),
        ]
        ordering = ["match", "seq"]

    def __str__(self) -> str:
        return f"{self.match_id}#{self.seq} {self.type}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise ImmutableEventError("a recorded event cannot be changed; record a correction")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        raise ImmutableEventError("a recorded event cannot be deleted")

    @cached_property
    def data(self) -> dict[str, Any]:
        """Return the event as stored, or refuse a row that is no JSON object, naming it."""
        return event_data(self.data_text, self.seq)

    def as_record(self) -> dict[str, Any]:
        """Return the event as a match record writes it, with seq, at, by and hash."""
        return {
            "seq": self.seq,
            **self.data,
            "at": self.at,
            "by": self.recorded_by,
            "hash": self.hash,
        }

    def as_fact(self) -> dict[str, Any]:
        """Return the event as the fold reads it."""
        return dict(self.data)


class PinShown(models.Model):
    """A player's PIN shown to staff (a page or the command line): who saw it and when.

    Each new PIN is made at random and shown once (`services.pins`); only its keyed
    digest is kept, and the player's newest is their PIN. A row without one is a showing
    of the PIN worked out from the secret key, as PINs were before they were issued. Each
    showing is kept, so a PIN that confirmed a result falsely can be traced to whoever
    was shown it.
    """

    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="pins_shown")
    shown_to = models.CharField(max_length=USERNAME_LENGTH)
    shown_at = models.DateTimeField(default=timezone.now)
    digest = models.CharField(max_length=64, null=True, blank=True)

    class Meta:
        ordering = ["player", "shown_at", "id"]

    def __str__(self) -> str:
        return f"{self.player}: PIN shown to {self.shown_to} at {self.shown_at}"

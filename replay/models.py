"""Tables of the read side: API tokens, and the read models the projector keeps from the log.

The projector (`replay.projections.projector`) is the only writer of the read models; each of them
can be rebuilt from the events alone (`manage.py rebuild_projections`).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from matches.models import (
    NAME_LENGTH,
    STAGE_LENGTH,
    USERNAME_LENGTH,
    Competition,
    Match,
    Player,
)

PREFIX_LENGTH = 8


class ApiToken(models.Model):
    """A key a program sends as `Authorization: Token <key>`; only its SHA-256 is kept.

    A user may hold several (a tablet and a hall scoreboard, one each). Revoking one
    keeps its row, with who revoked it and when; the key itself is never stored.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    # The key's first characters: they name a token in lists and revocations, and prove nothing.
    prefix = models.CharField(max_length=PREFIX_LENGTH, unique=True)
    digest = models.CharField(max_length=64, unique=True, help_text="SHA-256 of the key, hex")
    created_at = models.DateTimeField(default=timezone.now)
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.CharField(max_length=USERNAME_LENGTH, blank=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        state = "revoked" if self.revoked_at else "valid"
        return f"{self.prefix}… of {self.user} ({state})"

    @property
    def revoked(self) -> bool:
        return self.revoked_at is not None


class MatchSummary(models.Model):
    """One match as the archive lists it, computed from its events up to `event_id`.

    Kept by the projector in the same transaction as its cursor. The players and the
    competition are copied from the header so the archive can search without joins.
    """

    match = models.OneToOneField(
        Match, on_delete=models.CASCADE, primary_key=True, related_name="summary"
    )
    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="summaries")
    player_a = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    player_b = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    player_a_name = models.CharField(max_length=NAME_LENGTH)
    player_b_name = models.CharField(max_length=NAME_LENGTH)
    date = models.DateField(null=True, blank=True)
    stage = models.CharField(max_length=STAGE_LENGTH, blank=True)
    # lag, playing, finished, review; "scheduled" before the first event, "unreadable"
    # when a stored event cannot be folded (a corrupt row).
    status = models.CharField(max_length=12, default="scheduled")
    games_won_a = models.PositiveSmallIntegerField(default=0)
    games_won_b = models.PositiveSmallIntegerField(default=0)
    points_a = models.PositiveIntegerField(default=0)  # the sum of A's game scores
    points_b = models.PositiveIntegerField(default=0)
    average_a = models.FloatField(default=0.0)  # points from own shots / counted shots
    average_b = models.FloatField(default=0.0)
    # What the averages are made of, so that a career average is the points of every
    # counted shot over those shots (not a mean of the matches' averages).
    own_points_a = models.PositiveIntegerField(default=0)  # points from A's own shots
    own_points_b = models.PositiveIntegerField(default=0)
    shots_a = models.PositiveIntegerField(default=0)  # A's counted shots
    shots_b = models.PositiveIntegerField(default=0)
    winner = models.CharField(max_length=1, blank=True)  # "A", "B" or "" while undecided
    winner_player = models.ForeignKey(
        Player, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    needs_review = models.BooleanField(default=False)
    # Who has signed the result as it stands off: "referee,A,B" once all three have.
    confirmed_by = models.CharField(max_length=20, blank=True, default="")
    amendments = models.PositiveIntegerField(default=0)  # shot_amended events in the log
    retractions = models.PositiveIntegerField(default=0)
    seq = models.PositiveIntegerField(default=0)  # the match's last event folded in
    event_id = models.BigIntegerField(default=0)  # the global id it is computed up to
    head_hash = models.CharField(max_length=64, blank=True)  # the hash of event `seq`
    # The global id of the newest event that changed what the standings count of this
    # match (its result, or whether it is counted): the standings' version derives from it.
    result_event_id = models.BigIntegerField(default=0)
    # What the standings count of this match (a matches.domain.rules.ranking.Result, as
    # JSON), null when it has no event yet.
    result = models.JSONField(null=True, blank=True)
    # The global id of the newest event that changed what a competition's stages show of
    # this match (its status, winner or games won; its first event starts it).
    shown_event_id = models.BigIntegerField(default=0)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-date", "match_id"]
        indexes = [
            models.Index(fields=["competition", "date"], name="summary_competition_date"),
            models.Index(fields=["player_a", "date"], name="summary_player_a_date"),
            models.Index(fields=["player_b", "date"], name="summary_player_b_date"),
            models.Index(fields=["date"], name="summary_date"),
            models.Index(fields=["status", "date"], name="summary_status_date"),
        ]
        verbose_name_plural = "match summaries"

    def __str__(self) -> str:
        return f"{self.match_id}: {self.player_a_name} v {self.player_b_name} ({self.status})"


class Standings(models.Model):
    """A competition's standings table as of `version` (the API's shape in `rows`).

    One row per competition, the latest version; each version's difference from the
    one before is a StandingsChange. Written only forwards: never twice, never back.
    """

    competition = models.OneToOneField(
        Competition, on_delete=models.CASCADE, primary_key=True, related_name="standings"
    )
    version = models.BigIntegerField(default=0)
    pending = models.PositiveIntegerField(default=0)
    rows = models.JSONField(default=list)
    computed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name_plural = "standings"

    def __str__(self) -> str:
        return f"{self.competition_id} v{self.version}"


class StagesView(models.Model):
    """A competition in stages as of `version`: each stage and the final ranking.

    `stages` and `ranking` are the API's shapes (`GET …/stages`, `…/ranking`
    rows); `position` is the projector's cursor they were computed at, so a reader
    knows them current while no event of the competition is newer.
    """

    competition = models.OneToOneField(
        Competition, on_delete=models.CASCADE, primary_key=True, related_name="stages_view"
    )
    version = models.BigIntegerField(default=0)
    position = models.BigIntegerField(default=0)
    stages = models.JSONField(default=list)
    ranking = models.JSONField(default=list)
    computed_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.competition_id} stages v{self.version}"


class ReadModelFault(models.Model):
    """A read model of a competition the projector could not write: what raised, and at
    which event (`replay.projections.faults`).

    The projector goes on with every other competition and moves its cursor; this
    competition's read model keeps its last good state until an event lets it be written
    again, which deletes the row. A fold of the log like the rest: `event` is the newest
    event of the competition the projector tried to take in, `at` when that event was
    recorded (not when the projector met it), so a rebuild writes the same row.
    """

    STAGES = "stages"
    STANDINGS = "standings"
    PARTS = [(STAGES, "stages and ranking"), (STANDINGS, "standings")]

    competition = models.ForeignKey(
        Competition, on_delete=models.CASCADE, related_name="read_model_faults"
    )
    part = models.CharField(max_length=12, choices=PARTS)
    event = models.BigIntegerField()  # the global id of the event it stopped at
    at = models.DateTimeField()  # when that event was recorded
    # The exception's class, its module named unless a builtin: KeyError,
    # matches.domain.errors.Refused.
    error = models.CharField(max_length=200)
    message = models.TextField(blank=True)  # what it said, cut to MESSAGE_LENGTH

    class Meta:
        ordering = ["competition", "part"]
        constraints = [
            models.UniqueConstraint(fields=["competition", "part"], name="read_model_fault_unique")
        ]

    def __str__(self) -> str:
        return f"{self.competition_id} {self.part} stopped at {self.event}: {self.error}"


class StandingsChange(models.Model):
    """What one new version of a competition's standings changed, and which event did it."""

    competition = models.ForeignKey(
        Competition, on_delete=models.CASCADE, related_name="standings_changes"
    )
    version = models.BigIntegerField()
    previous = models.BigIntegerField(default=0)  # the version before (0: none)
    pending = models.PositiveIntegerField(default=0)
    # {"cause": {...the event...}, "results": [...], "moves": [...], "points": [...]}
    changes = models.JSONField(default=dict)
    computed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["competition", "-version"]
        constraints = [
            # The last word of the guarded write: a version is written once.
            models.UniqueConstraint(
                fields=["competition", "version"], name="standings_change_unique_version"
            )
        ]

    def __str__(self) -> str:
        return f"{self.competition_id} v{self.previous} -> v{self.version}"


class ProjectorCursor(models.Model):
    """How far a projector has read the global log: the id of the last event it applied.

    Updated in the same transaction as the read models it keeps, so the two never disagree.
    """

    name = models.CharField(max_length=50, primary_key=True)
    position = models.BigIntegerField(default=0)
    updated_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.name} at {self.position}"


class RatedMatch(models.Model):
    """A match the rating counts, as the projector last read its summary: its day (its
    date, else the day of its last event), its players and who won."""

    match = models.OneToOneField(
        Match, on_delete=models.CASCADE, primary_key=True, related_name="rated"
    )
    day = models.DateField()
    player_a = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    player_b = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    a_won = models.BooleanField()

    class Meta:
        indexes = [models.Index(fields=["day"], name="rated_match_day")]


class PlayerRating(models.Model):
    """A player's Glicko-2 rating after a day they played (`matches.domain.rating`): each day
    with a counted match of theirs has one row, every other day is worked out from the
    latest row before it."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    day = models.DateField()
    rating = models.FloatField()
    deviation = models.FloatField()
    volatility = models.FloatField()
    matches = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "day"], name="player_rating_day_unique")
        ]
        indexes = [models.Index(fields=["day"], name="player_rating_day")]


class ConsoleActivity(models.Model):
    """When a console last said it was there (a heartbeat from a login that may record the
    match): the hall marks a table whose console has gone quiet. Not part of any record."""

    match = models.OneToOneField(
        Match, on_delete=models.CASCADE, primary_key=True, related_name="console_activity"
    )
    at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.match_id} at {self.at}"

"""The match state: a pure fold of a match's events, and the legality of a new event.

`fold(header, events, upto, view)` rebuilds the state of `notation.md` from the
events alone. `check_log(header, events)` replays a whole log as it was
recorded, refusing the first event that broke the game as it stood then; the
services use `MatchFold.check` for one new event. No Django, no I/O.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from matches.notation import Header, NotationError, decode_shot, overlaps, parse_shot
from matches.rules import (
    BALL_DIAMETER,
    BALL_RADIUS,
    CENTRE_LINE,
    PINS,
    SPOTS,
    LagResult,
    Ruleset,
    Ruling,
    Shot,
    decide_lag,
    judge,
)

PLAYERS = ("A", "B")
VIEWS = ("amended", "live")
CORRECTIONS = ("shot_amended", "shot_retracted")


def other(player: str) -> str:
    """Return the other player."""
    return "B" if player == "A" else "A"


def half_of(position: Sequence[float] | None) -> str | None:
    """Return the half a ball lies in ("lower", "upper"), "line" across it, None if unknown."""
    if position is None:
        return None
    y = position[1]
    if abs(y - CENTRE_LINE) < BALL_RADIUS:
        return "line"
    return "lower" if y < CENTRE_LINE else "upper"


def in_hand_zone(offender_position: Sequence[float] | None) -> str | None:
    """Return the half for the incoming ball: opposite the offender's ball (section 11)."""
    half = half_of(offender_position)
    if half is None:
        return None
    if half == "line":
        return "lower"
    return "upper" if half == "lower" else "lower"


def in_half(position: Sequence[float], half: str) -> bool:
    """Return whether a ball lies wholly in one half, no part over the centre line."""
    y = position[1]
    if half == "lower":
        return y <= CENTRE_LINE - BALL_RADIUS
    return y >= CENTRE_LINE + BALL_RADIUS


# -- Corrections ----------------------------------------------------------------


@dataclass
class Corrections:
    """The amendments and retractions in force, by the `seq` of the shot they correct."""

    amendments: dict[int, tuple[int, Mapping[str, Any], str | None]] = field(default_factory=dict)
    retractions: dict[int, tuple[int, str | None]] = field(default_factory=dict)

    @classmethod
    def of(cls, events: Sequence[Mapping[str, Any]]) -> Corrections:
        corrections = cls()
        for seq, event in enumerate(events, start=1):
            if event["type"] in CORRECTIONS:
                corrections.note(seq, event)
        return corrections

    def note(self, seq: int, event: Mapping[str, Any]) -> bool:
        """Record a correction unless a later one of the same shot is known; return if new."""
        if event["type"] not in CORRECTIONS:
            return False
        shot = event["shot"]
        if event["type"] == "shot_amended":
            known = self.amendments.get(shot)
            if known is None or known[0] < seq:
                self.amendments[shot] = (seq, event["facts"], event.get("reason"))
                return True
        elif event["type"] == "shot_retracted" and shot not in self.retractions:
            self.retractions[shot] = (seq, event.get("reason"))
            return True
        return False


# -- Games and players ------------------------------------------------------------


@dataclass
class Game:
    number: int
    breaker: str
    score: dict[str, int] = field(default_factory=lambda: {"A": 0, "B": 0})
    winner: str | None = None
    shots: int = 0
    end: str | None = None
    void: bool = False
    void_shots: bool = False
    closed_by_next: bool = False  # a later game started while this one was recorded open
    reached_as_recorded: bool = False  # reached the target with the rulings first recorded
    recorded_score: dict[str, int] = field(default_factory=lambda: {"A": 0, "B": 0})

    @property
    def decided(self) -> bool:
        return self.winner is not None

    @property
    def needs_review(self) -> bool:
        return (
            not self.decided and not self.void and (self.closed_by_next or self.reached_as_recorded)
        )

    def as_dict(self) -> dict[str, Any]:
        flags = []
        if self.void_shots:
            flags.append("void_shots")
        if self.void:
            flags.append("void_game")
        if self.needs_review:
            flags.append("needs_review")
        return {
            "game": self.number,
            "breaker": self.breaker,
            "score": dict(self.score),
            "winner": self.winner,
            "shots": self.shots,
            "end": self.end,
            "flags": flags,
        }


def _new_stats() -> dict[str, Any]:
    return {
        "shots": 0,
        "points": 0,
        "points_received": 0,
        "fouls": 0,
        "foul_points_conceded": 0,
        "caroms": {"kiss": 0, "ricochet": 0},
        "pins": {pin: 0 for pin in PINS},
        "best_shot": None,
        "average": 0.0,
    }


# A ruling, the balls the shot moved, and the ruling as the state shows it (shared:
# read it, never change it).
Judged = tuple[Ruling, frozenset[str], dict[str, Any]]
_RULINGS: dict[Ruleset, dict[tuple[Any, ...], Judged]] = {}
MAX_RULINGS = 100_000
MAX_RULESETS = 64


def _rulings_under(ruleset: Ruleset) -> dict[tuple[Any, ...], Judged]:
    """Return the memo of rulings under one ruleset, shared by every fold."""
    rulings = _RULINGS.get(ruleset)
    if rulings is None or len(rulings) > MAX_RULINGS:
        if len(_RULINGS) > MAX_RULESETS:
            _RULINGS.clear()
        rulings = _RULINGS[ruleset] = {}
    return rulings


# -- The fold ------------------------------------------------------------------------


class MatchFold:
    """The running state of one match; `apply` folds one event, `check` judges a new one."""

    def __init__(self, header: Header, corrections: Corrections | None = None) -> None:
        self.header = header
        self.ruleset = header.ruleset
        self.corrections = corrections or Corrections()
        self.seq = 0
        self.lags: list[dict[str, Any]] = []
        self.late_starts = {"A": 0, "B": 0}
        self.lag_winner: str | None = None
        self.lag_repeat = False
        self.games: list[Game] = []
        self.winner: str | None = None
        self.due: str | None = None
        self.in_hand: str | None = None  # "break", "foul" or "respot"
        self.offender: str | None = None
        self.no_score_next = False
        self.positions: dict[str, list[float] | None] = {"white": None, "yellow": None, "red": None}
        self.shots: list[dict[str, Any]] = []
        self.shot_index: dict[int, dict[str, Any]] = {}
        self.events: list[Mapping[str, Any]] = []
        self.outside_fouls: list[dict[str, Any]] = []
        self.intermissions: list[dict[str, Any]] = []
        self.stats = {p: _new_stats() for p in PLAYERS}
        self.rulings = _rulings_under(self.ruleset)

    @classmethod
    def replay(
        cls,
        header: Header,
        events: Sequence[Mapping[str, Any]],
        corrections: Corrections | None = None,
    ) -> MatchFold:
        """Return the fold of these events, with these corrections (default: their own)."""
        fold = cls(header, Corrections.of(events) if corrections is None else corrections)
        for event in events:
            fold.apply(event)
        return fold

    # -- Where the match stands --

    @property
    def game(self) -> Game | None:
        return self.games[-1] if self.games else None

    def game_open(self) -> bool:
        game = self.game
        return game is not None and not game.decided and not game.void and game.end is None

    def majority(self) -> int:
        return self.ruleset.best_of // 2 + 1

    def games_won(self) -> dict[str, int]:
        won = {"A": 0, "B": 0}
        for game in self.games:
            if game.winner and not game.void:
                won[game.winner] += 1
        return won

    def zone(self) -> str | None:
        if self.in_hand in ("break", "respot"):
            return "lower"
        if self.in_hand == "foul" and self.offender is not None:
            return in_hand_zone(self.positions[self.header.ball_of(self.offender)])
        return None

    # -- Folding one event --

    def apply(self, event: Mapping[str, Any]) -> None:
        """Fold one event that was legal when it was recorded."""
        self.seq += 1
        self.events.append(event)
        APPLY[event["type"]](self, event)

    def _apply_lag(self, event: Mapping[str, Any]) -> None:
        a, b = (LagResult(event[p]["distance"], event[p].get("fault")) for p in PLAYERS)
        decision = decide_lag(a, b, event.get("collision", False), self.late_starts)
        for player, result in (("A", a), ("B", b)):
            if result.fault == "late_start":
                self.late_starts[player] += 1
        self.lag_winner, self.lag_repeat = decision.winner, decision.winner is None
        self.lags.append({"seq": self.seq, "winner": decision.winner, "reason": decision.reason})

    def _apply_game_started(self, event: Mapping[str, Any]) -> None:
        previous = self.game
        if previous is not None and not previous.decided and previous.end is None:
            previous.closed_by_next = True
        game = Game(
            number=len(self.games) + 1, breaker=event["breaker"], void=self.winner is not None
        )
        self.games.append(game)
        breaker_ball = self.header.ball_of(game.breaker)
        self.positions = {"white": None, "yellow": None, "red": list(SPOTS["red"])}
        self.positions[self.header.ball_of(other(game.breaker))] = list(SPOTS["top"])
        self.positions[breaker_ball] = None
        self.due, self.in_hand, self.offender, self.no_score_next = (
            game.breaker,
            "break",
            None,
            False,
        )

    def _apply_ball_placed(self, event: Mapping[str, Any]) -> None:
        self.positions[event["ball"]] = [float(v) for v in event["pos"]]

    def _apply_balls_respotted(self, event: Mapping[str, Any]) -> None:
        # Section 9: the three balls back in the break position; the next shot cannot score.
        due = self.due or "A"
        self.positions = {"white": None, "yellow": None, "red": list(SPOTS["red"])}
        self.positions[self.header.ball_of(other(due))] = list(SPOTS["top"])
        self.in_hand, self.offender, self.no_score_next = "respot", None, True

    def _apply_shot(self, event: Mapping[str, Any]) -> None:
        seq, game = self.seq, self.games[-1] if self.games else None
        player = event.get("player") or self.due or "A"
        own = self.header.balls[player]
        amendment = self.corrections.amendments.get(seq) if self.corrections.amendments else None
        # Stored events were checked when they were recorded (`check`, `check_log`).
        recorded = decode_shot(event, own)
        shot = decode_shot(amendment[1], own) if amendment else recorded
        ruling, moved, ruling_dict = self._judge(shot, own)
        entry: dict[str, Any] = {
            "seq": seq,
            "game": game.number if game else None,
            "player": player,
            "ruling": ruling_dict,
            "original": None,
            "amended": False,
            "void": False,
            "retracted": False,
        }
        first = ruling
        if amendment:
            first, _, entry["original"] = self._judge(recorded, own)
            entry.update(amended=True, amended_by=amendment[0], reason=amendment[2])
        if seq in self.corrections.retractions:
            retraction, reason = self.corrections.retractions[seq]
            entry.update(retracted=True, retracted_by=retraction, reason=reason)
            self._add_shot(entry)
            return
        self.no_score_next = False
        if game is None or game.void or game.winner is not None or game.end is not None:
            # Played after the game (or the match) was decided: kept, void, scores nothing.
            entry["void"] = True
            if game is not None:
                game.void_shots = game.void_shots or not game.void
        else:
            added = self._score_shot(game, player, ruling, first)
            self._count_shot(player, seq, ruling, added)
            game.shots += 1
        entry["score"] = dict(game.score) if game else None
        self._add_shot(entry)
        self._move_balls(moved, shot.rest)
        self.due = "B" if player == "A" else "A"
        if ruling.ball_in_hand:
            self.in_hand, self.offender = "foul", player
        else:
            self.in_hand = self.offender = None

    def _judge(self, shot: Shot, own: str) -> Judged:
        """Return a shot's ruling (also as a dict) and the balls it moved.

        The same strokes recur all match long and from match to match: each is
        judged once per ruleset (rest positions never change a ruling).
        """
        key = (shot.struck, shot.contacts, shot.called, own, self.no_score_next)
        judged = self.rulings.get(key)
        if judged is None:
            ruling = judge(shot, own, self.ruleset, self.no_score_next)
            moved = frozenset(shot.balls_that_moved(own))
            judged = self.rulings[key] = (ruling, moved, ruling.as_dict())
        return judged

    def _add_shot(self, entry: dict[str, Any]) -> None:
        self.shots.append(entry)
        self.shot_index[entry["seq"]] = entry

    def _score_shot(self, game: Game, player: str, ruling: Ruling, recorded: Ruling) -> int:
        """Score a shot; return the points it added (a score is cut at the target)."""
        receiver = player if ruling.scorer == "shooter" else other(player)
        added = self._award(game, receiver, ruling.points) if ruling.points else 0
        if recorded is ruling and not self.corrections.amendments:
            return added  # as recorded is as amended: the game's score tells it all
        recorded_receiver = player if recorded.scorer == "shooter" else other(player)
        score = game.recorded_score
        score[recorded_receiver] = min(
            self.ruleset.target, score[recorded_receiver] + recorded.points
        )
        if score[recorded_receiver] >= self.ruleset.target:
            game.reached_as_recorded = True
        return added

    def _award(self, game: Game, player: str, points: int) -> int:
        """Add points to a game score, cut at the target; reaching it wins the game."""
        before = game.score[player]
        game.score[player] = min(self.ruleset.target, before + points)
        if game.score[player] >= self.ruleset.target and not game.decided:
            self._win_game(game, player, "target")
        return game.score[player] - before

    def _win_game(self, game: Game, player: str, end: str) -> None:
        game.winner, game.end = player, end
        if self.winner is None and self.games_won()[player] >= self.majority():
            self.winner = player

    def _count_shot(self, player: str, seq: int, ruling: Ruling, added: int) -> None:
        """Count a shot in the stats; points are those the scores took (cut at the target)."""
        mine, theirs = self.stats[player], self.stats[other(player)]
        mine["shots"] += 1
        if ruling.fouls:
            mine["fouls"] += 1
            mine["foul_points_conceded"] += added
            theirs["points_received"] += added
        elif ruling.points:
            mine["points"] += added
            if ruling.carom:
                mine["caroms"][ruling.carom] += 1
            for pin in ruling.pins:
                mine["pins"][pin] += 1
            best = mine["best_shot"]
            if best is None or ruling.points > best["points"]:
                mine["best_shot"] = {"seq": seq, "points": ruling.points}

    def _move_balls(self, moved: frozenset[str], rest: Mapping[str, Any] | None) -> None:
        # A ball that moved is where the shot says it came to rest, or somewhere unknown.
        rest, positions = rest or {}, self.positions
        for ball in moved:
            positions[ball] = rest.get(ball)

    def _apply_shot_amended(self, event: Mapping[str, Any]) -> None:
        self._apply_correction(event)

    def _apply_shot_retracted(self, event: Mapping[str, Any]) -> None:
        self._apply_correction(event)

    def _apply_correction(self, event: Mapping[str, Any]) -> None:
        # Known in advance (a replay with its corrections), it is in force already; applied
        # one event at a time, the shot it names and all that followed are folded again.
        if self.corrections.note(self.seq, event):
            refolded = MatchFold.replay(self.header, self.events, self.corrections)
            self.__dict__.update(refolded.__dict__)

    def _apply_foul(self, event: Mapping[str, Any]) -> None:
        player, game = event["player"], self.game
        entry = {
            "seq": self.seq,
            "game": game.number if game else None,
            "player": player,
            "code": event["code"],
            "points": self.ruleset.foul,
            "void": not self.game_open(),
        }
        self.outside_fouls.append(entry)
        if entry["void"] or game is None:
            return
        # The foul takes the offender's turn if it was his; the other plays from hand.
        if self.due == player:
            self.due = other(player)
        self.in_hand, self.offender = "foul", player
        added = self._award(game, other(player), self.ruleset.foul)
        self.stats[player]["fouls"] += 1
        self.stats[player]["foul_points_conceded"] += added
        self.stats[other(player)]["points_received"] += added

    def _apply_intermission(self, event: Mapping[str, Any]) -> None:
        self.intermissions.append({"seq": self.seq, "minutes": event.get("minutes", 5)})

    def _apply_game_forfeited(self, event: Mapping[str, Any]) -> None:
        if self.game_open():
            assert self.game is not None
            self._win_game(self.game, other(event["player"]), "forfeit")

    def _apply_match_forfeited(self, event: Mapping[str, Any]) -> None:
        winner = other(event["player"])
        if self.game_open():
            assert self.game is not None
            self._win_game(self.game, winner, "forfeit")
        # Refusing to continue: as many more games as the opponent needs, credited to him.
        while self.winner is None:
            last = self.game
            breaker = other(last.breaker) if last else winner
            game = Game(number=len(self.games) + 1, breaker=breaker)
            self.games.append(game)
            self._win_game(game, winner, "forfeit")

    # -- Legality of a new event --

    def check(self, event: Mapping[str, Any]) -> dict[str, Any]:
        """Return the event as it will be stored (a shot names its player), or raise."""
        seq = self.seq + 1
        try:
            checked: dict[str, Any] = getattr(self, f"_check_{event['type']}")(dict(event))
        except NotationError as error:
            error.seq = seq
            raise
        return checked

    def _check_lag(self, event: dict[str, Any]) -> dict[str, Any]:
        if self.games:
            raise NotationError("the lag comes before the first game", "type")
        return event

    def _check_game_started(self, event: dict[str, Any]) -> dict[str, Any]:
        self._refuse_after_match()
        expected = len(self.games) + 1
        if event["game"] != expected:
            raise NotationError(f"expected game {expected}", "game")
        if self.game_open():
            raise NotationError(f"game {expected - 1} is still being played", "game")
        if self.game is None and self.lag_repeat:
            raise NotationError("the last lag must be repeated before game 1", "type")
        if self.game is not None and event["breaker"] != other(self.game.breaker):
            raise NotationError(
                f"game {expected} is broken by {other(self.game.breaker)}", "breaker"
            )
        return event

    def _check_shot(self, event: dict[str, Any]) -> dict[str, Any]:
        self._refuse_outside_game()
        assert self.due is not None
        if event.get("player") is None:
            event["player"] = self.due
        elif event["player"] != self.due:
            raise NotationError(f"it is {self.due}'s shot", "player")
        own = self.header.ball_of(event["player"])
        shot = parse_shot(_facts(event), own)
        # A ball that did not move is still where it was: nothing may come to rest on it.
        still = {
            b: p for b, p in self.positions.items() if p and b not in shot.balls_that_moved(own)
        }
        for ball, position in (shot.rest or {}).items():
            for other_ball, placed in still.items():
                if overlaps(position, placed):
                    raise NotationError(f"overlaps the {other_ball} ball", f"rest.{ball}")
        return event

    def _check_shot_amended(self, event: dict[str, Any]) -> dict[str, Any]:
        shot = self._corrected_shot(event)
        parse_shot(event["facts"], self.header.ball_of(shot["player"]), prefix="facts")
        return event

    def _check_shot_retracted(self, event: dict[str, Any]) -> dict[str, Any]:
        shot = self._corrected_shot(event)
        latest = [s for s in self.shots if not s["retracted"]][-1]
        if shot["seq"] != latest["seq"]:
            raise NotationError(
                f"only the latest shot (seq {latest['seq']}) can be retracted", "shot"
            )
        if any(e["type"] == "game_started" for e in self.events[shot["seq"] :]):
            raise NotationError("a game has started since that shot", "shot")
        return event

    def _corrected_shot(self, event: dict[str, Any]) -> dict[str, Any]:
        target = event["shot"]
        shot = self.shot_index.get(target)
        if shot is None:
            raise NotationError(f"seq {target} is not a shot", "shot")
        if shot["retracted"]:
            raise NotationError(f"the shot at seq {target} was retracted", "shot")
        return shot

    def _check_ball_placed(self, event: dict[str, Any]) -> dict[str, Any]:
        self._refuse_outside_game()
        ball, position, reason = event["ball"], event["pos"], event["reason"]
        assert self.due is not None
        due_ball = self.header.ball_of(self.due)
        # With ball in hand, the incoming ball is in the referee's hand, not on the table.
        lifted = due_ball if self.in_hand == "foul" else None
        for other_ball, placed in self.positions.items():
            if other_ball in (ball, lifted) or placed is None:
                continue
            if overlaps(position, placed):
                raise NotationError(f"overlaps the {other_ball} ball", "pos")
        if reason == "respot":
            return event
        if reason == "break" and self.in_hand not in ("break", "respot"):
            raise NotationError("no break position to take", "reason")
        if reason == "in_hand" and self.in_hand != "foul":
            raise NotationError(f"{self.due} has no ball in hand", "reason")
        if reason == "in_hand" and ball == self.header.ball_of(other(self.due)):
            # The incoming player may have the offender's ball put on the top spot instead,
            # or on the bottom spot when the red covers the top one (section 11).
            spot = "bottom" if self._red_covers("top") else "top"
            if not _on_spot(position, spot):
                raise NotationError(f"the offender's ball goes on the {spot} spot", "pos")
            return event
        if ball != due_ball:
            raise NotationError(f"the ball in hand is {self.due}'s {due_ball} ball", "ball")
        zone = self.zone()
        if zone is not None and not in_half(position, zone):
            raise NotationError(f"must be placed in the {zone} half", "pos")
        return event

    def _red_covers(self, spot: str) -> bool:
        red = self.positions["red"]
        return red is not None and math.dist(red, SPOTS[spot]) < BALL_DIAMETER

    def _check_balls_respotted(self, event: dict[str, Any]) -> dict[str, Any]:
        self._refuse_outside_game()
        return event

    def _check_foul(self, event: dict[str, Any]) -> dict[str, Any]:
        self._refuse_outside_game()
        return event

    def _check_intermission(self, event: dict[str, Any]) -> dict[str, Any]:
        self._refuse_after_match()
        return event

    def _check_game_forfeited(self, event: dict[str, Any]) -> dict[str, Any]:
        self._refuse_outside_game()
        return event

    def _check_match_forfeited(self, event: dict[str, Any]) -> dict[str, Any]:
        self._refuse_after_match()
        return event

    def _refuse_after_match(self) -> None:
        if self.winner is not None:
            raise NotationError("the match is over", "type")

    def _refuse_outside_game(self) -> None:
        self._refuse_after_match()
        if self.game is None:
            raise NotationError("no game has started", "type")
        if not self.game_open():
            raise NotationError(f"game {self.game.number} is over", "type")

    # -- The state --

    def state(self, detached: bool = True) -> dict[str, Any]:
        """Return the match state as `notation.md` spells it.

        Detached (the default), it no longer changes as the fold goes on; a fold about
        to be dropped can hand over its own lists instead.
        """
        copied = _copies if detached else list
        games = [game.as_dict() for game in self.games]
        review = any(game.needs_review for game in self.games)
        if review:
            status = "review"
        elif self.winner is not None:
            status = "finished"
        elif not self.games:
            status = "lag"
        else:
            status = "playing"
        return {
            "status": status,
            "winner": self.winner,
            "games_won": self.games_won(),
            "games": games,
            "next": self._next(),
            "positions": {
                ball: ([float(p[0]), float(p[1])] if p else None)
                for ball, p in self.positions.items()
            },
            # Copies: a state once returned must not change as the fold goes on.
            "shots": copied(self.shots),
            "stats": self._stats(),
            "fouls": copied(self.outside_fouls),
            "lags": copied(self.lags),
            "intermissions": copied(self.intermissions),
            "seq": self.seq,
        }

    def _next(self) -> dict[str, Any] | None:
        game = self.game
        if game is None or self.winner is not None:
            return None
        if not self.game_open():
            # The next shot is the next game's break: the same shape as once it has started.
            return {
                "game": game.number + 1,
                "player": other(game.breaker),
                "ball_in_hand": False,
                "zone": "lower",
                "break": True,
            }
        return {
            "game": game.number,
            "player": self.due,
            "ball_in_hand": self.in_hand == "foul",
            "zone": self.zone(),
            "break": self.in_hand == "break",
        }

    def _stats(self) -> dict[str, Any]:
        stats = {}
        for player, counted in self.stats.items():
            entry = {**counted, "caroms": dict(counted["caroms"]), "pins": dict(counted["pins"])}
            entry["average"] = (
                round(counted["points"] / counted["shots"], 3) if counted["shots"] else 0.0
            )
            stats[player] = entry
        return stats


APPLY = {
    kind: getattr(MatchFold, f"_apply_{kind}")
    for kind in (
        "lag",
        "game_started",
        "ball_placed",
        "balls_respotted",
        "shot",
        "shot_amended",
        "shot_retracted",
        "foul",
        "intermission",
        "game_forfeited",
        "match_forfeited",
    )
}


def _copies(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [dict(entry) for entry in entries]


def _facts(event: Mapping[str, Any]) -> dict[str, Any]:
    return {k: event[k] for k in ("struck", "contacts", "called", "rest") if k in event}


def _on_spot(position: Sequence[float], spot: str) -> bool:
    x, y = SPOTS[spot]
    return abs(position[0] - x) <= BALL_RADIUS and abs(position[1] - y) <= BALL_RADIUS


# -- The two views, and checking a whole log ------------------------------------------


def fold(
    header: Header,
    events: Sequence[Mapping[str, Any]],
    upto: int | None = None,
    view: str = "amended",
) -> dict[str, Any]:
    """Return the match state after events 1..upto, amended (every correction) or live."""
    if view not in VIEWS:
        raise ValueError(f"view must be one of {VIEWS}")
    shown = events if upto is None else events[:upto]
    corrections = Corrections.of(events if view == "amended" else shown)
    return MatchFold.replay(header, shown, corrections).state(detached=False)


def check_log(header: Header, events: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Return the events as stored (shots name their player), refusing the first illegal one.

    Each event is judged against the match as it stood when it was recorded: the
    events before it, with the corrections recorded before it.
    """
    checked: list[dict[str, Any]] = []
    running = MatchFold(header)
    for event in events:
        event = running.check(event)
        checked.append(event)
        running.apply(event)  # a correction folds again the shots it changes
    return checked

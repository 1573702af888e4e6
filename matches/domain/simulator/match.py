"""One simulated match, the referee's side: decide each event, have the fold check it."""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime, timedelta
from typing import Any

from matches.domain.fold import decide, evolve
from matches.domain.header import Header, parse_header
from matches.domain.notation import RECORD_FORMAT
from matches.domain.rules import (
    BALL_RADIUS,
    CENTRE_LINE,
    PLAYERS,
    SPOTS,
    TABLE_LENGTH,
    TABLE_WIDTH,
    covers,
    latest_in_force,
    next_breaker,
    offender_spot,
    other,
    overlaps,
    respot_spot,
)
from matches.domain.simulator.shots import ShotBuilder, amended, weighted
from matches.domain.state import MatchState

DEFAULT_PLAYERS: tuple[dict[str, str], ...] = (
    {"name": "Olena Kovalenko", "federation_id": "UA-101"},
    {"name": "Marco Marchetti", "federation_id": "IT-202"},
    {"name": "Lucía Fernández", "federation_id": "AR-303"},
    {"name": "Tomasz Nowak", "federation_id": "PL-404"},
    {"name": "Ana Popescu", "federation_id": "RO-505"},
    {"name": "Dmytro Shevchuk", "federation_id": "UA-606"},
    {"name": "Giulia Rossi", "federation_id": "IT-707"},
    {"name": "Pablo Gómez", "federation_id": "AR-808"},
)
REFEREES = (
    ("I. Petrenko", "petrenko"),
    ("S. Bianchi", "bianchi"),
    ("M. Kowalski", "kowalski"),
)

# Fouls a referee calls during a stroke, and outside one (touching or moving a ball).
OUTSIDE_CALLS = ("touched", "displaced", "placement", "cleaning")
LAG_FAULT_WEIGHTS = (("long_cushion", 4), ("red_or_pins", 3), ("crossed", 2), ("late_start", 1))
# No ball comes to rest on the pin cross: this far beyond the outer pins' centres.
PIN_MARGIN = BALL_RADIUS + 20.0
MAX_EVENTS = 5000


class SimulationError(RuntimeError):
    """The simulator produced an event the fold refused: a bug in the simulator."""


def simulate_match(
    seed: int,
    *,
    ruleset: Mapping[str, Any] | None = None,
    players: Sequence[Mapping[str, Any] | str] | None = None,
    balls: Mapping[str, str] | None = None,
    match_id: str | None = None,
    competition: str = "simulated",
    stage: str = "",
    table: str = "1",
    day: date | None = None,
    amend_rate: float = 0.015,
    retract_rate: float = 0.004,
    outside_foul_rate: float = 0.006,
    respot_rate: float = 0.006,
    forfeit_rate: float = 0.02,
    lag_rate: float = 0.85,
) -> dict[str, Any]:
    """Return a complete match record (carambole.match/1) of random but legal play.

    Rates are per shot (amend, retract, outside foul, balls in contact re-spotted)
    or per match (forfeit, lag rather than lots).
    """
    rng = random.Random(seed)
    pair = _two_players(players, rng)
    match: dict[str, Any] = {
        "id": match_id or f"sim-{seed}",
        "competition": competition,
        "date": (day or day_of(rng)).isoformat(),
        "players": {"A": pair[0], "B": pair[1]},
        "balls": dict(balls or {"A": "white", "B": "yellow"}),
        "ruleset": dict(ruleset or {}),
    }
    if stage:
        match["stage"] = stage
    if table:
        match["table"] = table
    referee_name, username = rng.choice(REFEREES)
    match["referee"] = {"name": referee_name, "username": username}
    _, header = parse_header(match)
    simulation = _Simulation(
        rng,
        header,
        referee=username,
        start=datetime.fromisoformat(match["date"]).replace(hour=10, tzinfo=UTC)
        + timedelta(minutes=rng.randrange(0, 480, 15)),
        rates={
            "amend": amend_rate,
            "retract": retract_rate,
            "outside_foul": outside_foul_rate,
            "respot": respot_rate,
        },
    )
    simulation.play(lag=rng.random() < lag_rate, forfeit=rng.random() < forfeit_rate)
    return {"format": RECORD_FORMAT, "match": match, "events": simulation.record_events()}


def player_entry(player: Mapping[str, Any] | str) -> dict[str, Any]:
    return {"name": player} if isinstance(player, str) else dict(player)


def _two_players(
    players: Sequence[Mapping[str, Any] | str] | None, rng: random.Random
) -> list[dict[str, Any]]:
    if players is None:
        return [dict(p) for p in rng.sample(DEFAULT_PLAYERS, 2)]
    if len(players) != 2:
        raise ValueError("a match needs exactly two players")
    return [player_entry(p) for p in players]


def day_of(rng: random.Random) -> date:
    return date(2026, 1, 5) + timedelta(days=rng.randrange(330))


# -- Geometry -------------------------------------------------------------------


def _clear_of_pins(position: Sequence[float], pin_pitch: float) -> bool:
    return math.dist(position, SPOTS["centre"]) > pin_pitch + PIN_MARGIN


# -- One match --------------------------------------------------------------------


class _Simulation:
    """The referee's side of a simulated match: decide each event, have the fold check it."""

    def __init__(
        self,
        rng: random.Random,
        header: Header,
        referee: str,
        start: datetime,
        rates: Mapping[str, float],
    ) -> None:
        self.rng = rng
        self.header = header
        self.referee = referee
        self.clock = start
        self.rates = rates
        self.state = MatchState(header)
        self.facts: list[dict[str, Any]] = []
        self.times: list[datetime] = []
        self.in_force: dict[int, dict[str, Any]] = {}  # shot seq -> facts in force
        self.skill = {p: rng.uniform(0.35, 0.8) for p in PLAYERS}
        self.shots_played = 0
        self.forfeit_at: int | None = None
        self.forfeit_kind = ""

    # -- Recording --

    def emit(self, event: dict[str, Any], seconds: float) -> None:
        """Have the fold check one event, then keep it and fold it."""
        if len(self.facts) >= MAX_EVENTS:
            raise SimulationError(f"no winner after {MAX_EVENTS} events")
        try:
            checked = decide(self.state, event)
        except ValueError as error:  # Refused: the simulator broke a rule
            raise SimulationError(f"refused {event}: {error}") from error
        self.facts.append(checked)
        self.clock += timedelta(seconds=seconds)
        self.times.append(self.clock)
        self.state = evolve(self.state, checked)  # a correction folds again what it changes

    def record_events(self) -> list[dict[str, Any]]:
        return [
            {**fact, "at": _iso(at), "by": self.referee}
            for fact, at in zip(self.facts, self.times, strict=True)
        ]

    # -- The match --

    def play(self, lag: bool, forfeit: bool) -> None:
        if forfeit:
            # A player walks out at some point of the match: the game, or the whole match.
            self.forfeit_at = self.rng.randrange(5, 70)
            self.forfeit_kind = "game" if self.rng.random() < 0.6 else "match"
        breaker = self.lag() if lag else self.rng.choice(PLAYERS)
        while self.state.winner is None:
            game = self.state.game
            number = len(self.state.games) + 1
            if game is not None:
                breaker = next_breaker(game.breaker)
                if number - 1 in (2, 4) and self.rng.random() < 0.8:
                    # The pause before a deciding game (after games 2 and 4).
                    minutes = self.rng.choice((5, 5, 5, 4, 3))
                    self.emit({"type": "intermission", "minutes": minutes}, minutes * 60)
            self.emit({"type": "game_started", "game": number, "breaker": breaker}, 60)
            if self.rng.random() < 0.95:
                self.place(self.header.ball_of(breaker), "break", "lower")
            while self.state.game_open():
                self.turn()

    def lag(self) -> str:
        """Play lags until one is decided; return the breaker the winner chooses."""
        for attempt in range(12):
            event: dict[str, Any] = {"type": "lag"}
            faults = 0
            for player in PLAYERS:
                result: dict[str, Any] = {"distance": round(self.rng.uniform(8.0, 420.0), 1)}
                if attempt < 8 and self.rng.random() < 0.07:
                    result["fault"] = weighted(self.rng, LAG_FAULT_WEIGHTS)
                    faults += 1
                event[player] = result
            if not faults and attempt < 8 and self.rng.random() < 0.03:
                event["collision"] = True
            self.emit(event, 90)
            if not self.state.lag_repeat:
                break
        winner = self.state.lag_winner
        if winner is None:
            raise SimulationError("the lag was never decided")
        return winner if self.rng.random() < 0.75 else other(winner)

    def turn(self) -> None:
        """Play one turn: perhaps an incident, then a shot and what follows it."""
        if self.forfeit_at is not None and self.shots_played >= self.forfeit_at:
            self.forfeit()
            return
        if self.rng.random() < self.rates["outside_foul"]:
            self.outside_foul()
            if not self.state.game_open():
                return
        player = self.state.due
        assert player is not None
        facts = self.shot_facts(player)
        seq = len(self.facts) + 1
        self.emit({"type": "shot", "player": player, **facts}, self.rng.uniform(15, 50))
        self.in_force[seq] = facts
        self.shots_played += 1
        if not self.state.game_open():
            return
        if self.rng.random() < self.rates["retract"]:
            reason = self.rng.choice(("entered twice", "entered by mistake", "wrong table"))
            self.emit({"type": "shot_retracted", "shot": seq, "reason": reason}, 20)
            return  # the same player is due again
        if self.rng.random() < self.rates["amend"]:
            self.amend()
            if not self.state.game_open():
                return
        latest = self.latest_shot()
        if self.state.in_hand == "foul":
            self.ball_in_hand(_off_table(self.in_force[latest]))
        elif self.rng.random() < self.rates["respot"]:
            # Section 9: the balls are in contact, back to the break position.
            self.emit({"type": "balls_respotted", "reason": "contact"}, 30)
            self.place(self.header.ball_of(self.state.due or "A"), "break", "lower")

    def latest_shot(self) -> int:
        latest = latest_in_force(self.state.shots)
        assert latest is not None
        return latest

    def forfeit(self) -> None:
        game = self.state.game
        assert game is not None
        # The player behind in the game is the one who walks out.
        leaver = "A" if game.score["A"] < game.score["B"] else "B"
        if self.forfeit_kind == "match":
            event = {"type": "match_forfeited", "player": leaver, "reason": "refused to continue"}
        else:
            event = {"type": "game_forfeited", "player": leaver, "reason": "left without leave"}
        self.forfeit_at = None
        self.emit(event, 120)

    def outside_foul(self) -> None:
        due = self.state.due
        assert due is not None
        offender = due if self.rng.random() < 0.6 else other(due)
        code = self.rng.choice(OUTSIDE_CALLS)
        event: dict[str, Any] = {"type": "foul", "player": offender, "code": code}
        if self.rng.random() < 0.5:
            event["reason"] = f"{code} between shots"
        self.emit(event, 30)
        if self.state.game_open():
            self.ball_in_hand(set())

    # -- Placements --

    def ball_in_hand(self, off: set[str]) -> None:
        """Re-place the balls that left the table, then the incoming ball in its half."""
        due = self.state.due
        assert due is not None
        incoming, offender = self.header.ball_of(due), self.header.ball_of(other(due))
        if "red" in off:
            self.respot("red", "red")
        if offender in off:
            # The shooter's ball goes to the short-cushion spot away from the incoming ball.
            spot = "top" if self.rng.random() < 0.7 else "bottom"
            self.respot(offender, spot)
        elif self.rng.random() < 0.08 and self.spot_offender(offender):
            pass  # the incoming player chose to have the offender's ball on its spot
        if incoming in off or self.rng.random() < 0.95:
            self.place(incoming, "in_hand", self.state.zone())

    def spot_offender(self, offender: str) -> bool:
        positions = self.state.positions
        spot = offender_spot(positions["red"])
        if any(covers(p, spot) for b, p in positions.items() if b != offender):
            return False
        self.emit(
            {
                "type": "ball_placed",
                "ball": offender,
                "pos": list(SPOTS[spot]),
                "reason": "in_hand",
            },
            10,
        )
        return True

    def respot(self, ball: str, wanted: str) -> None:
        others = {b: p for b, p in self.state.positions.items() if b != ball}
        spot = respot_spot(wanted, others)
        if spot is not None:
            pos = list(SPOTS[spot])
            self.emit({"type": "ball_placed", "ball": ball, "pos": pos, "reason": "respot"}, 10)

    def place(self, ball: str, reason: str, zone: str | None) -> None:
        half = zone or self.rng.choice(("lower", "upper"))
        others = [p for b, p in self.state.positions.items() if b != ball and p is not None]
        low, high = (
            (BALL_RADIUS + 1, CENTRE_LINE - BALL_RADIUS - 1)
            if half == "lower"
            else (CENTRE_LINE + BALL_RADIUS + 1, TABLE_LENGTH - BALL_RADIUS - 1)
        )
        if reason == "break":
            low, high = 150.0, 900.0  # a break is set up near the breaker's end
        position = self.free_position(others, low, high)
        self.emit({"type": "ball_placed", "ball": ball, "pos": position, "reason": reason}, 10)

    def free_position(
        self, others: Sequence[Sequence[float]], low: float = 0.0, high: float = TABLE_LENGTH
    ) -> list[float]:
        """Return a spot for a ball inside [low, high] along the table, touching nothing."""
        low, high = max(low, BALL_RADIUS + 1), min(high, TABLE_LENGTH - BALL_RADIUS - 1)
        for _ in range(1000):
            position = [
                round(self.rng.uniform(BALL_RADIUS + 1, TABLE_WIDTH - BALL_RADIUS - 1), 1),
                round(self.rng.uniform(low, high), 1),
            ]
            if _clear_of_pins(position, self.header.ruleset.pin_pitch) and not any(
                overlaps(position, p) for p in others
            ):
                return position
        raise SimulationError("no free place for a ball")

    # -- Shots --

    def shot_facts(self, player: str) -> dict[str, Any]:
        """Return the facts of one plausible shot by this player."""
        cue = self.header.ball_of(player)
        shot = ShotBuilder(self.rng, cue, self.skill[player])
        facts = shot.facts()
        if self.rng.random() < 0.9:
            facts["rest"] = self.rest_positions(shot.moved(), shot.off)
        return facts

    def rest_positions(self, moved: set[str], off: set[str]) -> dict[str, list[float]]:
        still = [p for b, p in self.state.positions.items() if b not in moved and p is not None]
        rest: dict[str, list[float]] = {}
        for ball in sorted(moved - off):
            rest[ball] = self.free_position(still + list(rest.values()))
        return rest

    def amend(self) -> None:
        """Correct one recent shot of this game with new facts and a reason."""
        game = self.state.game
        assert game is not None
        recent = [
            s
            for s in self.state.shots
            if s["game"] == game.number and not s["retracted"] and not s["void"]
        ][-5:]
        if not recent:
            return
        target = recent[-1] if self.rng.random() < 0.7 else self.rng.choice(recent)
        seq = target["seq"]
        own = self.header.ball_of(target["player"])
        facts, reason = amended(self.rng, self.in_force[seq], own, self.skill[target["player"]])
        self.emit({"type": "shot_amended", "shot": seq, "facts": facts, "reason": reason}, 60)
        self.in_force[seq] = facts


def _off_table(facts: Mapping[str, Any]) -> set[str]:
    return {c["ball"] for c in facts.get("contacts", []) if c["hit"] == "off"}


def _iso(moment: datetime) -> str:
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")

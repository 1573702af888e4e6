"""Legal logs drawn at random for the laws' tests: each event asked of the fold as it comes."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from matches.domain.errors import Refused
from matches.domain.fold import decide, evolve
from matches.domain.header import Header, parse_header
from matches.domain.rules import BALLS, CALLED_FOULS, PINS, other
from matches.domain.state import MatchState

PROPERTY = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
CORRECTIONS = ("shot_amended", "shot_retracted")


@st.composite
def shot_facts(draw: st.DrawFn, own: str) -> dict[str, Any]:
    """Draw legal facts: only moving balls act, a pin falls once, none acts after leaving."""
    struck = draw(st.sampled_from([own, own, own, *BALLS]))
    moving, gone, fallen = {struck}, set(), set()
    contacts: list[dict[str, Any]] = []
    for index in range(draw(st.integers(0, 6))):
        active = sorted(moving - gone)
        if not active:
            break
        ball = draw(st.sampled_from(active))
        kind = draw(st.sampled_from(["ball", "ball", "pins", "cushion", "off"]))
        targets = [b for b in BALLS if b != ball and b not in gone]
        standing = [p for p in PINS if p not in fallen]
        contact: dict[str, Any] = {"ball": ball, "hit": "cushion"}
        if kind == "ball" and targets:
            contact["hit"] = draw(st.sampled_from(targets))
            moving.add(contact["hit"])
        elif kind == "pins" and standing:
            knocked = draw(st.lists(st.sampled_from(standing), min_size=1, unique=True))
            contact.update(hit="pins", pins=knocked)
            fallen.update(knocked)
        elif kind == "off":
            contact["hit"] = "off"
            gone.add(ball)
        if index and draw(st.booleans()):
            contact["same_time"] = True
        contacts.append(contact)
    facts: dict[str, Any] = {"contacts": contacts}
    if struck != own or draw(st.booleans()):
        facts["struck"] = struck
    called = draw(st.lists(st.sampled_from(CALLED_FOULS), max_size=2, unique=True))
    if called:
        facts["called"] = called
    return facts


def header_for(ruleset: dict[str, Any], balls: dict[str, str] | None = None) -> Header:
    _, parsed = parse_header(
        {
            "players": {"A": {"name": "Ann"}, "B": {"name": "Bea"}},
            "balls": balls or {"A": "white", "B": "yellow"},
            "ruleset": ruleset,
        }
    )
    return parsed


rulesets = st.fixed_dictionaries(
    {
        "target": st.integers(4, 20),
        "best_of": st.sampled_from([1, 3, 5]),
        "cumulative_fouls": st.booleans(),
        "center_alone": st.sampled_from([8, 10]),
        "foul": st.integers(0, 3),
    }
)


@st.composite
def legal_logs(draw: st.DrawFn) -> tuple[Header, list[dict[str, Any]]]:
    """Draw a legal log by asking the fold, event by event, what may come next."""
    balls = draw(st.sampled_from([{"A": "white", "B": "yellow"}, {"A": "yellow", "B": "white"}]))
    header = header_for(draw(rulesets), balls)
    states = [MatchState(header)]
    events: list[dict[str, Any]] = []

    def record(event: dict[str, Any]) -> bool:
        try:
            checked = decide(states[-1], event)
        except Refused:
            return False
        states.append(evolve(states.pop(), checked))
        events.append(checked)
        return True

    if draw(st.booleans()):
        record({"type": "lag", "A": {"distance": 100}, "B": {"distance": 200}})
    for _ in range(draw(st.integers(1, 40))):
        running = states[-1]
        if running.winner is not None:
            break
        if not running.game_open() and running.all_games_played():
            break  # a game is under review: only an amendment or a forfeit may follow
        if not running.game_open():
            last = running.game
            breaker = other(last.breaker) if last else draw(st.sampled_from(["A", "B"]))
            assert record(
                {"type": "game_started", "game": len(running.games) + 1, "breaker": breaker}
            )
            continue
        kind = draw(
            st.sampled_from(["shot"] * 8 + ["foul", "respot", "amend", "retract", "forfeit"])
        )
        due = running.due
        if kind == "shot":
            facts = draw(shot_facts(header.ball_of(due)))
            player = draw(st.sampled_from([due, None]))
            assert record({"type": "shot", **({"player": player} if player else {}), **facts})
        elif kind == "foul":
            player = draw(st.sampled_from(["A", "B"]))
            assert record(
                {"type": "foul", "player": player, "code": draw(st.sampled_from(CALLED_FOULS))}
            )
        elif kind == "respot":
            assert record({"type": "balls_respotted"})
        elif kind == "amend" and running.shots:
            target = draw(st.sampled_from(running.shots))
            facts = draw(shot_facts(header.ball_of(target["player"])))
            accepted = record(
                {"type": "shot_amended", "shot": target["seq"], "facts": facts, "reason": "r"}
            )
            assert accepted or target["retracted"]
        elif kind == "retract" and running.shots:
            target = draw(st.sampled_from(running.shots))
            record({"type": "shot_retracted", "shot": target["seq"], "reason": "r"})
        elif kind == "forfeit" and draw(st.integers(0, 3)) == 0:
            which = draw(st.sampled_from(["game_forfeited", "match_forfeited"]))
            assert record({"type": which, "player": draw(st.sampled_from(["A", "B"]))})
    return header, events

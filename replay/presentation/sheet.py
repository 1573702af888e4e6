"""The official match sheet: what a finished match's sheet says, in the active language.

One fold of the match as amended, event by event, gives each game's score shot by shot;
the log's envelope gives who recorded each correction, and its last hash the head the
printed sheet can be checked against. `sheet_pdf` draws what this module says.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from matches.domain.fold import evolve
from matches.domain.readback import folding
from matches.domain.render import status
from matches.domain.rules import Ruleset
from matches.domain.state import CONFIRMING_ROLES, Corrections, MatchState
from matches.models import Match
from matches.store import ENVELOPE_KEYS, StoredEvent, fact_of, parse_time
from replay.presentation.sentences import foul_name, ruling_in_words, shot_in_words, shot_name
from replay.presentation.stage_words import games_in_words


class NotFinished(Exception):
    """Raised for a match whose record, folded, has no winner: it has no sheet."""


@dataclass(frozen=True)
class Side:
    """One player as the sheet names them: A or B, name, federation id, ball, games won."""

    letter: str
    name: str
    federation_id: str
    ball: str
    games_won: int


@dataclass(frozen=True)
class Line:
    """One line of a game's progression: a shot, a foul between shots or a forfeit."""

    seq: int
    player: str
    what: str
    score_a: int
    score_b: int
    corrected: bool = False  # amended, retracted or void: the line is printed set apart


@dataclass(frozen=True)
class GameSheet:
    """One game: who broke, its lines, its final score and how it ended."""

    number: int
    title: str
    lines: list[Line]
    score_a: int
    score_b: int
    outcome: str


@dataclass(frozen=True)
class Correction:
    """An amended or retracted shot: the ruling before and after, who corrected it and why."""

    shot: str
    kind: str
    before: str
    after: str
    by: str
    at: str
    seq: int
    reason: str


@dataclass(frozen=True)
class Sheet:
    """Everything a match sheet prints, its words already in the sheet's language."""

    match_id: str
    title: str
    facts: list[tuple[str, str]]  # (label, value): competition, stage, table, referee, ...
    sides: tuple[Side, Side]
    games: list[GameSheet]
    corrections: list[Correction]
    result: str
    head_seq: int
    head_hash: str
    replay_url: str
    signed: list[str] = field(default_factory=list)  # each confirmation of the result, in words
    unsigned: list[str] = field(default_factory=list)  # who has not confirmed it yet
    # (whose signature, their name): the lines the referee and both players sign on paper
    signatures: list[tuple[str, str]] = field(default_factory=list)


def is_finished(match: Match) -> bool:
    """Return whether a match is over and counted: the only kind that has a sheet."""
    return match.status == Match.Status.FINISHED


def match_sheet(match: Match, logged: Sequence[StoredEvent], stage: str, replay_url: str) -> Sheet:
    """Return the sheet of a finished match from its stored events, in the active language."""
    header = match.header()
    facts = [
        entry.data if ENVELOPE_KEYS.isdisjoint(entry.data) else fact_of(entry.data)
        for entry in logged
    ]
    names = {player: str(entry.get("name", player)) for player, entry in match.players.items()}
    with folding():
        state, games = _progression(MatchState(header, Corrections.of(facts)), facts, names)
    if status(state) != "finished" or state.winner is None:
        raise NotFinished(match.id)
    won = state.games_won()
    sides = (
        _side("A", match.players["A"], match.ball_a, won["A"]),
        _side("B", match.players["B"], match.ball_b, won["B"]),
    )
    return Sheet(
        match_id=match.id,
        title=_("%(a)s v %(b)s") % {"a": names["A"], "b": names["B"]},
        facts=_facts(match, stage, header.ruleset, logged),
        sides=sides,
        games=games,
        corrections=_corrections(state, logged, names),
        result=_result(state.winner, names, won),
        head_seq=len(logged),
        head_hash=logged[-1].hash if logged else "",
        replay_url=replay_url,
        signed=_signed(state, logged, names),
        unsigned=[
            role_name(role, names) for role in CONFIRMING_ROLES if role not in state.confirmed_by()
        ],
        signatures=[
            (_("Referee"), referee_of(match, logged)),
            (_("Player A"), names["A"]),
            (_("Player B"), names["B"]),
        ],
    )


def role_name(role: str, names: Mapping[str, str]) -> str:
    """Return who a role of the sign-off is: the referee, or a player by name."""
    return _("the referee") if role == "referee" else names.get(role, role)


def _signed(
    state: MatchState, logged: Sequence[StoredEvent], names: Mapping[str, str]
) -> list[str]:
    """Return each confirmation of the result as it stands: who, recorded by which login, when."""
    head = state.result_head()
    return [
        _("%(who)s, recorded by %(login)s at %(at)s")
        % {
            "who": role_name(entry["role"], names),
            "login": logged[entry["seq"] - 1].by,
            "at": _minute(logged[entry["seq"] - 1].at),
        }
        for entry in state.confirmations
        if entry["confirms"] == head
    ]


def _side(letter: str, player: Mapping[str, Any], ball: str, games_won: int) -> Side:
    balls = {"white": _("white"), "yellow": _("yellow")}
    return Side(
        letter=letter,
        name=str(player.get("name", letter)),
        federation_id=str(player.get("federation_id") or "—"),
        ball=balls.get(ball, ball),
        games_won=games_won,
    )


def referee_of(match: Match, logged: Sequence[StoredEvent]) -> str:
    """Return who officiated: the record's referee, else the login named for the match,
    else the login that recorded its first event (at the table's console)."""
    return match.referee_name or match.referee_username or (logged[0].by if logged else "—")


def played_on(match: Match, logged: Sequence[StoredEvent]) -> str:
    """Return the day the match was played (ISO): its date, else its first event's day."""
    if match.date:
        return match.date.isoformat()
    if not logged:
        return "—"
    return timezone.localtime(parse_time(logged[0].at)).date().isoformat()


def _facts(
    match: Match, stage: str, ruleset: Ruleset, logged: Sequence[StoredEvent]
) -> list[tuple[str, str]]:
    """Return the sheet's heading facts: where, when, who officiated and under which rules."""
    return [
        (_("Competition"), match.competition.name),
        (_("Stage"), stage or "—"),
        (_("Table"), match.table or "—"),
        (_("Referee"), referee_of(match, logged)),
        (_("Date"), played_on(match, logged)),
        (_("Match"), match.id),
        (_("Ruleset"), ruleset_in_words(ruleset)),
    ]


def ruleset_in_words(ruleset: Ruleset) -> str:
    """Return the ruleset in force as the sheet prints it: target, best of, points of each kind."""
    return _(
        "%(games)s; side pin %(side_pin)s, red pin with others %(center_with_others)s, "
        "red pin alone %(center_alone)s, kiss carom %(kiss_carom)s, ricochet "
        "%(ricochet_carom)s; foul %(foul)s, red ball first %(red_first)s"
    ) % {**ruleset.as_dict(), "games": games_in_words(ruleset.target, ruleset.best_of)}


def _progression(
    state: MatchState, facts: Sequence[Mapping[str, Any]], names: Mapping[str, str]
) -> tuple[MatchState, list[GameSheet]]:
    """Return the match folded as amended, and each game's lines with the score after each.

    Every correction is known to the fold from the start, so no event folds the match
    again: each shot is ruled as amended where it stands, and the score after it is the
    game's score as the sheet prints it.
    """
    lines: dict[int, list[Line]] = {}
    for seq, event in enumerate(facts, start=1):
        state = evolve(state, event)
        line = _line(state, seq, event, names)
        if line is not None and state.game is not None:
            lines.setdefault(state.game.number, []).append(line)
    games = [
        GameSheet(
            number=game.number,
            title=_("Game %(game)s: %(name)s breaks")
            % {"game": game.number, "name": names.get(game.breaker, game.breaker)},
            lines=lines.get(game.number, []),
            score_a=game.score["A"],
            score_b=game.score["B"],
            outcome=_outcome(game.winner, game.end, game.void, names),
        )
        for game in state.games
    ]
    return state, games


def _line(
    state: MatchState, seq: int, event: Mapping[str, Any], names: Mapping[str, str]
) -> Line | None:
    """Return the line an event adds to its game's progression, or None for one that adds none."""
    game = state.game
    score = game.score if game is not None else {"A": 0, "B": 0}
    kind = event["type"]
    if kind == "shot":
        shot = state.shot_index[seq]
        player = shot["player"]
        corrected = bool(shot["amended"] or shot["retracted"] or shot["void"])
        if corrected:
            games = [{"game": g.number, "flags": ["void_game"] * g.void} for g in state.games]
            what = shot_in_words(shot, names, games)
        else:
            what = ruling_in_words(shot["ruling"], names, player)
        return Line(seq, names.get(player, player), what or "—", score["A"], score["B"], corrected)
    if kind == "foul":
        foul = state.outside_fouls[-1]
        player = foul["player"]
        what = _("Foul between shots (%(foul)s)") % {"foul": foul_name(foul["code"])}
        if foul["void"]:
            what = _("%s (void: the game was already won)") % (what,)
        return Line(seq, names.get(player, player), what, score["A"], score["B"], foul["void"])
    if kind in ("game_forfeited", "match_forfeited"):
        player = event["player"]
        what = _("Game forfeited") if kind == "game_forfeited" else _("Match forfeited")
        if event.get("reason"):
            what = f"{what}: {event['reason']}"
        return Line(seq, names.get(player, player), what, score["A"], score["B"])
    return None


def _outcome(winner: str | None, end: str | None, void: bool, names: Mapping[str, str]) -> str:
    """Return how a game ended, in words."""
    if void:
        return _("Void: the match was already decided")
    if winner is None:
        return _("Not decided")
    name = names.get(winner, winner)
    if end == "forfeit":
        return _("Won by %(name)s by forfeit") % {"name": name}
    return _("Won by %(name)s") % {"name": name}


def _corrections(
    state: MatchState, logged: Sequence[StoredEvent], names: Mapping[str, str]
) -> list[Correction]:
    """Return every amended or retracted shot, with the correction's author, time and reason."""
    found = []
    for number, shot in enumerate(state.shots, start=1):
        if not (shot["amended"] or shot["retracted"]):
            continue
        by_seq = shot.get("retracted_by") or shot.get("amended_by")
        correction = logged[by_seq - 1] if by_seq else None
        player = shot["player"]
        before = ruling_in_words(shot["original"] or shot["ruling"], names, player)
        found.append(
            Correction(
                shot=shot_name(number, shot["game"]),
                kind=_("retracted") if shot["retracted"] else _("amended"),
                before=before,
                after=_("no shot")
                if shot["retracted"]
                else ruling_in_words(shot["ruling"], names, player),
                by=correction.by if correction else "",
                at=_minute(correction.at) if correction else "",
                seq=by_seq or 0,
                reason=shot.get("reason") or _("no reason given"),
            )
        )
    return found


def _minute(at: str) -> str:
    """Return a recorded time (ISO 8601 in UTC) to the minute, as a sheet prints it."""
    return f"{at[:10]} {at[11:16]} UTC" if len(at) >= 16 else at


def _result(winner: str, names: Mapping[str, str], won: Mapping[str, int]) -> str:
    """Return the match's result in one sentence: the winner and the games won."""
    games = ngettext(
        "%(name)s wins the match, %(won)s game to %(lost)s",
        "%(name)s wins the match, %(won)s games to %(lost)s",
        won[winner],
    )
    loser = "B" if winner == "A" else "A"
    return games % {"name": names.get(winner, winner), "won": won[winner], "lost": won[loser]}

"""What an event would change, before it is recorded: the preview.

The event is checked as recording would check it (`services.event_preview`: 409 on a
stale `expected_seq`, 422 on an illegal event) and stored nowhere. For a match of a
competition in stages, its consequences are the difference of two folds of the current
projection (the match summaries the projector keeps: never a full recompute), one with
the match as it stands and one with the event folded in: the group's places, the slots'
holders, the matches whose players would move or that would be disputed, the ranking.
Nothing is kept between previews: each is folded from what is stored when it is asked, so
the same request gives the same answer, and recording the event then gives what it said.
A draw that cannot be folded (its log holds what the fold cannot take) refuses the
preview with a 409 naming `competition` and the error, never a traceback.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import DatabaseError

from matches import services
from matches.domain.championship import Championship
from matches.domain.competition_log import Played, fold_competition_log, place_id
from matches.domain.consequences import Consequences, consequences
from matches.domain.render import ruling_of, status
from matches.domain.state import MatchState
from matches.models import Match
from matches.services.competition_log import log_read, stages_of
from matches.services.corrections import played_of
from replay.projections.faults import described
from replay.projections.stages_writer import stage_matches
from replay.queries.championships import DrawUnfolded

logger = logging.getLogger(__name__)


def preview(*, match_id: str, expected_seq: Any, event: Mapping[str, Any]) -> dict[str, Any]:
    """Return what recording `event` after `expected_seq` would change: `ruling`, `match`,
    `groups`, `slots`, `ranking`, each `{"before", "after"}`, present where it changes."""
    previewed = services.event_preview(match_id=match_id, expected_seq=expected_seq, event=event)
    match, before, after = previewed.match, previewed.before, previewed.after
    answer: dict[str, Any] = {}
    ruling = _ruling(before, after, previewed.event)
    if ruling is not None:
        answer["ruling"] = ruling
    was, now = _shown(before), _shown(after)
    if was != now:
        players = [match.players["A"]["name"], match.players["B"]["name"]]
        answer["match"] = {"before": was, "after": now, "players": players}
    if match.stage_id and match.competition.stages is not None:
        try:
            found, folded = _consequences(match, played_of(match, before), played_of(match, after))
            answer.update(_views(found, folded))
        except DatabaseError:
            raise  # the database's trouble, not the log's
        except Exception as raised:
            raise _unfolded(match, raised) from raised
    return answer


def _unfolded(match: Match, raised: Exception) -> DrawUnfolded:
    """Return the refusal of a preview whose draw cannot be folded (409), naming why."""
    name, message = described(raised)
    logger.warning("no preview of %s: its draw cannot be folded: %s: %s", match.pk, name, message)
    return DrawUnfolded(
        f"the draw of competition {match.competition_id} cannot be folded now ({name}: "
        f"{message}): no consequence can be previewed until an event repairs it",
        "competition",
    )


def _ruling(
    before: MatchState, after: MatchState, event: Mapping[str, Any]
) -> dict[str, Any] | None:
    """Return the ruling of the shot the event is (after) or amends (before and after)."""
    now = ruling_of(after, event)
    if now is None:
        return None
    if event["type"] != "shot_amended":
        return {"after": now}
    entry = before.shot_index.get(event["shot"])
    was = entry["ruling"] if entry is not None else None
    return None if was == now else {"before": was, "after": now}


def _shown(state: MatchState) -> dict[str, Any]:
    return {"status": status(state), "winner": state.winner, "games_won": state.games_won()}


def _consequences(
    match: Match, was: Played, now: Played
) -> tuple[Consequences, tuple[Championship, Championship]]:
    """Fold the competition twice, from what is stored now: with the match as it stands and
    with the event's result (the second fold ranks again only the groups it changes)."""
    competition = match.competition
    summarised = stage_matches(competition.pk)
    logged = log_read(competition.pk)
    competition_log = fold_competition_log(
        [entry.event for entry in logged], [entry.id for entry in logged]
    )
    stages = stages_of(competition)
    played = summarised.played
    folded_before = Championship(competition.pk, stages, competition_log, {**played, match.pk: was})
    folded_after = Championship(
        competition.pk, stages, competition_log, {**played, match.pk: now}, folded_before
    )
    found = consequences(folded_before, folded_after, summarised.headers)
    return found, (folded_before, folded_after)


def _views(found: Consequences, folded: tuple[Championship, Championship]) -> dict[str, Any]:
    """Return the consequences as the preview shows them: names, not keys."""
    before, after = folded
    names = {key: entrant.name for key, entrant in after.log.entrants.items()}
    rounds = {
        stage.id: max((p.round for p in after.knockout_places(stage.id)), default=0)
        for stage in after.stages
        if stage.kind == "knockout" and stage.id in after.log.draws
    }

    def round_of(place: str) -> dict[str, int]:
        """Return a knockout place's round and the rounds of its stage (a group: none)."""
        stage_id, _, numbers = place.partition("-")
        if stage_id not in rounds:
            return {}
        return {"round": int(numbers.split("-")[0]), "rounds": rounds[stage_id]}

    def name(key: str | None) -> str | None:
        return names.get(key, key) if key is not None else None

    views: dict[str, Any] = {}
    if found.groups:
        views["groups"] = {
            side: [
                {
                    "stage": change.stage,
                    "group": change.group,
                    "places": [
                        name(key) for key in (change.before if side == "before" else change.after)
                    ],
                }
                for change in found.groups
            ]
            for side in ("before", "after")
        }
    if found.slots or found.moves or found.disputes:
        views["slots"] = {
            side: [
                {
                    "slot": change.slot,
                    "place": change.place,
                    "match": change.match,
                    "started": change.started,
                    "holder": name(change.before if side == "before" else change.after),
                }
                for change in found.slots
            ]
            for side in ("before", "after")
        }
        views["slots"]["moves"] = [
            {
                "match": move.match,
                "place": move.place,
                **round_of(move.place),
                "before": [name(key) for key in move.before],
                "after": [name(key) for key in move.after],
            }
            for move in found.moves
        ]
        views["slots"]["disputes"] = [
            {
                **dispute.view(names),
                **(
                    round_of(place_id(*placed)) if (placed := after.place_of(dispute.match)) else {}
                ),
                "players": [name(key) for key in _played_keys(after, dispute.match)],
            }
            for dispute in found.disputes
        ]
    if found.ranking is not None:
        views["ranking"] = _ranking_change(*found.ranking)
    return views


def _ranking_change(
    before: Sequence[Mapping[str, Any]], after: Sequence[Mapping[str, Any]]
) -> dict[str, list[Mapping[str, Any]]]:
    """Return the rows of the players whose row changes, before and after."""
    was = {row["player"]: row for row in before}
    changed = [row for row in after if was.get(row["player"]) != row]
    players = {row["player"] for row in changed}
    return {
        "before": [row for row in before if row["player"] in players],
        "after": changed,
    }


def _played_keys(championship: Championship, match_id: str) -> tuple[str, str]:
    played = championship.played_of(match_id)
    if played is None:
        return ("", "")
    a, b = played.result.players
    return (str(a), str(b))

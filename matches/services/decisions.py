"""Staff's decisions on disputes (README, "Competitions and standings": disputes).

A started match whose slot is held, as amended, by another than its player is disputed;
staff answer each dispute once, as an event of the competition's log: keep the match as
played, or void it (its record stays, its status reads void, it counts nowhere) and make
its replacement with the slot's holders as amended. Voiding a match leaves the place's
winner undecided again, so every started match its winner fed is disputed in turn. A
place in a group drawn from another stage is one player's across the group: voided, each
of its matches begun is, each replaced, and its matches not begun follow.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from matches import store
from matches.domain.championship import Championship
from matches.domain.competition_log import Dispute, place_id, replacement_id
from matches.domain.consequences import consequences
from matches.domain.errors import Refused, excerpt
from matches.models import USERNAME_LENGTH, Match
from matches.selectors import assigned_username, competition_get
from matches.services import corrections
from matches.services.championships import settle
from matches.services.competition_log import log_append
from matches.services.competitions import check_text
from matches.signals import tables_changed

REASON_LENGTH = 500


class StateClash(Refused):
    """What the competition's state refuses (409): a decision on a slot with no open dispute."""

    status = 409


DISPUTE_DECIDED = "dispute_decided"


def dispute_decide(
    *, competition_id: str, slot: str, keep: Any, reason: Any, by: str, referee: Any = None
) -> dict[str, Any]:
    """Answer a slot's open dispute (staff), as an event of the competition's log.

    Kept, the match stands as played. Voided (`keep` false), its record stays, its status
    reads void and it counts nowhere; its replacement (`{id}-r2`, `-r3`, ...) is made with
    the slot's holders as amended, at once when both are settled and free, else once they
    are (a holder who plays another match whose dispute waits: by that decision). Every
    started match fed by its winner is then disputed in turn. Return the decision as
    logged, with the replacement made (or None). `referee`, the username of the login who
    may record the replacement: by default, the voided match's.
    """
    if not isinstance(keep, bool):
        raise Refused("must be true (keep the match as played) or false (void it)", "keep")
    check_text(reason, "reason", REASON_LENGTH, required=True)
    check_text(by, "by", USERNAME_LENGTH, required=True)
    _referee_check(referee, keep)
    competition = competition_get(competition_id)
    if competition.stages is None:
        raise Refused("the competition has no stages", "stages")
    with transaction.atomic():
        store.lock_log()
        championship = corrections.folded_now(competition)
        dispute = next((d for d in championship.disputes() if d.slot == slot), None)
        if dispute is None:
            raise StateClash(f"no open dispute on slot {excerpt(str(slot))}", "slot")
        disputed = Match.objects.get(pk=dispute.match)
        decision: dict[str, Any] = {
            "type": DISPUTE_DECIDED,
            "slot": dispute.slot,
            "match": dispute.match,
            "keep": keep,
            "reason": reason,
            "as_played": dispute.as_played,
            "as_amended": dispute.as_amended,
            # What the history names the match by: its place and its players.
            "place": _place_of(championship, dispute),
            "players": [disputed.players["A"]["name"], disputed.players["B"]["name"]],
        }
        if not keep:
            decision["replacement"] = replacement_id(dispute.match)
            decision["referee"] = referee if referee is not None else assigned_username(disputed)
            # A place in a group drawn from another stage: each of its matches begun goes.
            others = [m for m in _begun(championship, dispute.slot) if m != dispute.match]
            if others:
                decision["voided"] = {match_id: replacement_id(match_id) for match_id in others}
            Match.objects.filter(pk__in=[dispute.match, *others]).update(status=Match.Status.VOID)
        log_append(competition, [decision], by)
        refolded = corrections.folded_now(competition)
        # A place a void match held is free again: the players of a match not begun follow.
        fed = corrections.fed_matches(competition)
        headers = {match_id: corrections.header_keys(m) for match_id, m in fed.items()}
        found = consequences(championship, refolded, headers, ranking=False)
        cause = {"type": DISPUTE_DECIDED, "slot": dispute.slot, "match": dispute.match}
        for move in found.moves:
            corrections.move(fed[move.match], move.players, cause, by)
        if not keep:  # the hall shows the void and its replacement
            transaction.on_commit(
                lambda: tables_changed.send_robust(sender=Match, competition_id=competition.pk)
            )
        # The replacement, and any that waited for this decision (its holder played the
        # match just decided), are made now, in the same write.
        created = settle(competition, refolded)
        made = next((m for m in created if m.pk == decision.get("replacement")), None)
    return {**decision, "made": made.pk if made is not None else None}


def _place_of(championship: Championship, dispute: Dispute) -> str:
    """Return what the history names a disputed match's place by: a knockout's `ko-1-3`, a
    group's of a stage drawn from another's `second-B`."""
    placed = championship.place_of(dispute.match)
    if placed is not None:
        return place_id(*placed)
    for stage in championship.stages:
        for group, slots in championship.log.draws.get(stage.id, {}).get("groups", {}).items():
            if stage.source and dispute.slot in slots:
                return f"{stage.id}-{group}"
    return ""


def _begun(championship: Championship, slot: str) -> list[str]:
    """Return the matches begun, and counting, of a place in a group drawn from another
    stage's (none for a knockout's slot)."""
    return [
        match_id
        for match_id, _ in championship.position_matches(slot)
        if championship.begun(match_id) is not None
    ]


def _referee_check(referee: Any, keep: bool) -> None:
    """Refuse a decision's referee that is no login's username, or named for a match kept."""
    if referee is None:
        return
    if keep:
        raise Refused("only a match voided has a replacement to referee", "referee")
    check_text(referee, "referee", USERNAME_LENGTH, required=True)
    if not get_user_model().objects.filter(username=referee).exists():
        raise Refused(f"no login {excerpt(referee)}", "referee")

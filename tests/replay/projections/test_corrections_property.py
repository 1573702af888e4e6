"""Any sequence of results, amendments, retractions and decisions in a championship in
stages: the read model is the fold at its cursor and a rebuild gives it again; in each
view, as played and as amended, no slot has two holders; no started match ever changes
players; a dispute is answered at most once; and the preview of each correction is what
recording it then gives."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matches import services
from matches.domain.competition_log import player_key
from matches.domain.errors import Refused
from matches.models import Event, Match
from replay.projections import projector
from replay.queries.previews import preview
from tests.support.builders import BY, CAROM_A, QUIET
from tests.support.caches import answered_alike, clear_all_caches
from tests.support.championship_shapes import correction, play_on, seq_of
from tests.support.championships import championship
from tests.support.league import CAROM_B, win
from tests.support.stages import folded, open_slots_hold_no_one_twice, stored

EXAMPLES = itertools.count()
STATS: Counter[str] = Counter()


def checked_preview(match: Match, event: dict[str, Any]) -> None:
    """Record a correction as staff, and check that its preview said what it then gives."""
    seq = seq_of(match.pk)
    projector.catch_up()
    said = answered_alike(lambda: preview(match_id=match.pk, expected_seq=seq, event=event))
    services.event_record(match_id=match.pk, expected_seq=seq, event=event, by="jury", staff=True)
    projector.catch_up()
    _version, views, ranking = stored(match.competition_id)
    for group in (said.get("groups") or {}).get("after", []):
        shown = next(g for g in views[0]["groups"] if g["name"] == group["group"])
        if shown["settled"]:
            assert [row["player"] for row in shown["standings"]] == group["places"]
    disputed = {
        d["slot"] for r in views[1].get("rounds", []) for m in r for d in m.get("disputes") or []
    }
    for dispute in (said.get("slots") or {}).get("disputes", []):
        assert dispute["slot"] in disputed
    rows = {row["player"]: row for row in ranking}
    for row in (said.get("ranking") or {}).get("after", []):
        assert rows[row["player"]] == row
    for move in (said.get("slots") or {}).get("moves", []):
        moved = Match.objects.get(pk=move["match"])
        assert [moved.players["A"]["name"], moved.players["B"]["name"]] == move["after"]
    STATS["corrections"] += 1
    STATS["moves"] += len((said.get("slots") or {}).get("moves", []))
    STATS["disputes"] += len((said.get("slots") or {}).get("disputes", []))


def unrecorded_preview(rng: random.Random, match: Match) -> None:
    """Preview a correction or a next shot of any match, left unrecorded: asked twice and
    with nothing cached, it says the same."""
    seq = seq_of(match.pk)
    event = correction(rng, match) if seq else None
    if event is None:
        event = {"type": "shot", "facts": rng.choice([CAROM_A, CAROM_B, QUIET])}
    try:
        answered_alike(lambda: preview(match_id=match.pk, expected_seq=seq, event=event))
    except Refused:
        STATS["previews refused"] += 1
    else:
        STATS["previews"] += 1


def both_views_hold_no_one_twice(views: list[dict]) -> None:
    """As played (`players`) and as amended (`holders`), no player holds two places of a round."""
    open_slots_hold_no_one_twice(views)
    for stage in views:
        for games in stage.get("rounds") or []:
            for key in ("players", "holders"):
                named = [p for m in games if m.get(key) for p in m[key] if p]
                assert len(named) == len(set(named)), (key, named)


def rebuilt() -> None:
    """Empty every cache and rebuild the read models from the log."""
    clear_all_caches()
    projector.rebuild()


def act(
    rng: random.Random, competition: str, action: str, knockout: list[Match], groups: list[Match]
) -> None:
    """Take one step of the sequence; what the draw refuses is counted, not raised."""
    try:
        if action == "start" and knockout:
            match = rng.choice(knockout)
            if not seq_of(match.pk):
                services.lag_record(
                    match_id=match.pk,
                    expected_seq=0,
                    by=BY,
                    a={"distance": 90},
                    b={"distance": 150},
                )
        elif action == "finish" and knockout:
            match = rng.choice(knockout)
            if not seq_of(match.pk):
                win(match.pk, rng.choice("AB"))
        elif action == "correct":
            match = rng.choice(groups)
            event = correction(rng, match)
            if event is not None:
                checked_preview(match, event)
        elif action == "preview":
            unrecorded_preview(rng, rng.choice(groups + knockout))
        elif action == "rebuild":
            projector.rebuild()
        elif action == "play_on":
            play_on(rng.choice(groups))
        elif action == "decide":
            folded_now = folded(competition)
            disputes = [
                d
                for r in folded_now[1][1].get("rounds", [])
                for m in r
                for d in m.get("disputes") or []
            ]
            if disputes:
                STATS["decisions"] += 1
                services.dispute_decide(
                    competition_id=competition,
                    slot=rng.choice(disputes)["slot"],
                    keep=rng.random() < 0.5,
                    reason="the jury",
                    by="chief",
                )
    except Refused as refused:
        # What the draw refuses: a first event while a slot is unsettled, a late amendment.
        assert refused.field in ("slot", "event", "shot", "facts", "match"), refused
        STATS[f"refused {refused.field}"] += 1


@settings(
    max_examples=max(4, settings.default.max_examples // 25),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(seed=st.integers(0, 2**32 - 1))
def test_any_sequence_of_corrections_and_decisions_keeps_both_views_single_and_rebuilds(
    db, projector_forgotten, django_capture_on_commit_callbacks, seed
):
    competition = f"euro{next(EXAMPLES)}"
    rng = random.Random(seed)
    with django_capture_on_commit_callbacks(execute=True):
        championship(competition)
        services.stage_draw(competition_id=competition, stage_id="groups", by="director")
        for match in Match.objects.filter(competition_id=competition, stage_id="groups"):
            win(match.pk, rng.choice("AB"))
        services.stage_draw(competition_id=competition, stage_id="ko", by="director")
    projector.catch_up()
    started: dict[str, tuple[str, str]] = {}
    for _step in range(14):
        knockout = list(
            Match.objects.filter(competition_id=competition, group="")
            .exclude(stage_id="")
            .exclude(status=Match.Status.VOID)
        )
        groups = list(Match.objects.filter(competition_id=competition).exclude(group=""))
        action = rng.choices(
            ["start", "finish", "correct", "preview", "play_on", "decide", "rebuild"],
            weights=[2, 2, 5, 3, 3, 3, 1],
        )[0]
        with django_capture_on_commit_callbacks(execute=True):  # states kept as served
            act(rng, competition, action, knockout, groups)
        for match in Match.objects.filter(competition_id=competition, group="").exclude(
            stage_id=""
        ):
            if seq_of(match.pk):
                players = (player_key(match.players["A"]), player_key(match.players["B"]))
                assert started.setdefault(match.pk, players) == players  # never changed
        projector.catch_up()
        version, views, ranking = stored(competition)
        assert (version, views, ranking) == folded(competition)
        both_views_hold_no_one_twice(views)
        decided = Counter(
            (e.data["slot"], e.data["match"], e.data["as_amended"])
            for e in Event.objects.filter(competition_id=competition, type="dispute_decided")
        )
        assert all(count == 1 for count in decided.values())
    # Caught up with the folds and tables the projector kept, and rebuilt from nothing.
    answered_alike(lambda: stored(competition), cold=rebuilt)

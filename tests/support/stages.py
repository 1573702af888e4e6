"""A competition's stages two ways, to compare: as the projector stored them, and as the
fold gives them at the projector's position; and a law every knockout keeps."""

from __future__ import annotations

from matches.models import Competition
from matches.services.championships import championship_at
from replay.models import StagesView


def stored(competition: str = "euro") -> tuple[int, list, list]:
    view = StagesView.objects.get(pk=competition)
    return view.version, view.stages, view.ranking


def folded(competition: str = "euro") -> tuple[int, list, list]:
    position = StagesView.objects.get(pk=competition).position
    as_of = championship_at(Competition.objects.get(pk=competition), position)
    return as_of.version, as_of.championship.views(), as_of.championship.ranking()


def open_slots_hold_no_one_twice(views: list[dict]) -> None:
    """In every round, and among a stage's undecided matches, a player is in one place."""
    for stage in views:
        if stage["kind"] != "knockout" or not stage["drawn"]:
            continue
        undecided = []
        for games in stage["rounds"]:
            named = [p for m in games if m["players"] for p in m["players"] if p]
            assert len(named) == len(set(named)), (stage["id"], named)
            undecided += [
                p
                for m in games
                if m["players"] and m["status"] != "bye" and not m["winner"]
                for p in m["players"]
                if p
            ]
        assert len(undecided) == len(set(undecided)), undecided

"""A competition's stages as its creator writes them, checked: the shape the README gives.

```json
"stages": [
  {"id": "groups", "kind": "groups", "groups": 8, "advance": 2},
  {"id": "ko", "kind": "knockout", "from": "groups", "size": 16,
   "ruleset": {"best_of": 5}, "third_place": false}
]
```

Each refusal names its field (`stages[1].from`). What the shape alone decides is checked
here: a stage fed by another knows its players (the source's groups times its `advance`,
plus `direct`), so its `size`, `third_place`, `groups` and `advance` must fit them; a
stage of the entries is checked at its draw, once its entries are known. A stage's
`ruleset` overrides the competition's key by key; the matches it creates are created
with the result.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from matches.domain.draws import (
    GROUP_NAMES,
    LARGEST_KNOCKOUT,
    check_groups_fit,
    check_knockout_fits,
    check_places,
)
from matches.domain.errors import Refused, excerpt
from matches.domain.notation import expect_list, expect_object, expect_whole
from matches.domain.rules.ruleset import Ruleset

KINDS = ("groups", "knockout")
MAX_STAGES = 8
STAGE_ID = re.compile(r"^[a-z0-9][a-z0-9_]{0,19}\Z")  # a slug without "-" or ":"
KEYS = {
    "groups": frozenset(("id", "kind", "groups", "advance", "from", "direct", "ruleset")),
    "knockout": frozenset(("id", "kind", "size", "from", "direct", "third_place", "ruleset")),
}


@dataclass(frozen=True)
class Stage:
    """One stage: a groups stage (`groups`, `advance`) or a knockout (`size`, `third_place`).

    `source` is the stage whose qualifiers it takes (`from`), None for the entries;
    `direct` the entries seeded 1 to N who join it without playing the source.
    """

    id: str
    kind: str
    ruleset: dict[str, Any] = field(default_factory=dict)  # its own overrides, as written
    source: str | None = None
    direct: int = 0
    groups: int = 1
    advance: int | None = None  # None: nobody goes on from it
    size: int | None = None  # None: the smallest power of two the players fill
    third_place: bool = False

    def ruleset_under(self, competition: Mapping[str, Any] | None) -> Ruleset:
        """Return the ruleset of the stage's matches: the competition's, overridden by its own."""
        return Ruleset.from_overrides({**(competition or {}), **self.ruleset})


def parse_stages(value: Any, competition_ruleset: Mapping[str, Any] | None = None) -> list[Stage]:
    """Return a competition's stages, checked in order, or refuse naming the field."""
    written = expect_list(value, "stages")
    if not 1 <= len(written) <= MAX_STAGES:
        raise Refused.because("stage_count", "stages", most=MAX_STAGES)
    stages: list[Stage] = []
    for index, entry in enumerate(written):
        stage = _stage(entry, f"stages[{index}]", stages, competition_ruleset)
        _check_counts(stage, f"stages[{index}]", stages)
        stages.append(stage)
    return stages


def _stage(
    value: Any, where: str, before: list[Stage], competition_ruleset: Mapping[str, Any] | None
) -> Stage:
    written = expect_object(value, where)
    kind = written.get("kind")
    if kind not in KINDS:
        raise Refused.because(
            "unknown_stage_kind", f"{where}.kind", value=excerpt(kind), choices=", ".join(KINDS)
        )
    for key in written:
        if key not in KEYS[kind]:
            raise Refused.because(
                "unknown_stage_key", f"{where}.{key}", name=excerpt(key), kind=kind
            )
    stage_id = written.get("id")
    if not isinstance(stage_id, str) or not STAGE_ID.match(stage_id):
        raise Refused.because("not_stage_id", f"{where}.id")
    if any(stage.id == stage_id for stage in before):
        raise Refused.because("stage_id_taken", f"{where}.id", stage=stage_id)
    ruleset = dict(expect_object(written.get("ruleset", {}), f"{where}.ruleset"))
    Ruleset.from_overrides({**(competition_ruleset or {}), **ruleset}, f"{where}.ruleset")
    source = _source(written.get("from"), f"{where}.from", before)
    direct = 0
    if "direct" in written:
        if source is None:
            raise Refused.because("direct_without_from", f"{where}.direct")
        direct = expect_whole(written["direct"], f"{where}.direct", 1, 10_000)
    if kind == "groups":
        advance = written.get("advance")
        return Stage(
            stage_id,
            kind,
            ruleset,
            source,
            direct,
            groups=expect_whole(written.get("groups"), f"{where}.groups", 1, len(GROUP_NAMES)),
            advance=None if advance is None else expect_whole(advance, f"{where}.advance", 1, 64),
        )
    size = written.get("size")
    if size is not None:
        check_places(size, f"{where}.size")
    third_place = written.get("third_place", False)
    if not isinstance(third_place, bool):
        raise Refused.because("not_boolean", f"{where}.third_place")
    return Stage(stage_id, kind, ruleset, source, direct, size=size, third_place=third_place)


def _check_counts(stage: Stage, where: str, before: list[Stage]) -> None:
    """Refuse what the shape alone shows cannot be drawn, naming the field.

    A stage fed by another knows its players before any entry: the source's groups times
    its `advance`, plus `direct`. A stage of the entries learns them at its draw.
    """
    if stage.kind == "knockout" and stage.third_place and (stage.size or 4) < 4:
        raise Refused.because(
            "third_place_too_small",
            f"{where}.third_place",
            size=stage.size or 0,  # given: no size passes the check above
        )
    if stage.source is None:
        return
    source = next(earlier for earlier in before if earlier.id == stage.source)
    if stage.direct and source.source is not None:
        raise Refused(
            f"only a stage fed by a stage of the entries takes entries directly; stage "
            f"{source.id} is fed by stage {source.source}",
            f"{where}.direct",
        )
    sent = source.groups * (source.advance or 0)
    players = sent + stage.direct
    if stage.kind == "groups":
        check_groups_fit(stage.groups, stage.advance, players, where)
        return
    if players > LARGEST_KNOCKOUT and stage.direct and sent < LARGEST_KNOCKOUT:
        raise Refused(
            f"must be at most {LARGEST_KNOCKOUT - sent}: stage {source.id} sends {sent} "
            f"players and a knockout has at most {LARGEST_KNOCKOUT} places",
            f"{where}.direct",
        )
    if not 2 <= players <= LARGEST_KNOCKOUT:
        raise Refused(
            f"the knockout would have {players} players (stage {source.id} sends {sent}); "
            f"a knockout takes from 2 to {LARGEST_KNOCKOUT}",
            f"{where}.from",
        )
    check_knockout_fits(players, stage.size, stage.third_place, where)


def _source(value: Any, where: str, before: list[Stage]) -> str | None:
    """Return the stage named by `from`: an earlier groups stage from which players advance."""
    if value is None:
        return None
    earlier = next((stage for stage in before if stage.id == value), None)
    if earlier is None:
        raise Refused.because("no_earlier_stage", where, value=excerpt(value))
    if earlier.kind != "groups" or earlier.advance is None:
        raise Refused.because("no_qualifiers", where, stage=earlier.id)
    return earlier.id

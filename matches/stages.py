"""A competition's stages as its creator writes them, checked: the shape the README gives.

```json
"stages": [
  {"id": "groups", "kind": "groups", "groups": 8, "advance": 2},
  {"id": "ko", "kind": "knockout", "from": "groups", "size": 16,
   "ruleset": {"best_of": 5}, "third_place": false}
]
```

Each refusal names its field (`stages[1].from`). A stage's `ruleset` overrides the
competition's key by key; the matches it creates are created with the result.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from matches.draws import GROUP_NAMES, check_places
from matches.errors import Refused, excerpt
from matches.notation import expect_list, expect_object, expect_whole
from matches.rules.ruleset import Ruleset

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
        raise Refused(f"must list 1 to {MAX_STAGES} stages", "stages")
    stages: list[Stage] = []
    for index, entry in enumerate(written):
        stages.append(_stage(entry, f"stages[{index}]", stages, competition_ruleset))
    return stages


def _stage(
    value: Any, where: str, before: list[Stage], competition_ruleset: Mapping[str, Any] | None
) -> Stage:
    written = expect_object(value, where)
    kind = written.get("kind")
    if kind not in KINDS:
        raise Refused(
            f"unknown stage kind {excerpt(kind)}; expected one of {', '.join(KINDS)}",
            f"{where}.kind",
        )
    for key in written:
        if key not in KEYS[kind]:
            raise Refused(f"unknown key {excerpt(key)} of a {kind} stage", f"{where}.{key}")
    stage_id = written.get("id")
    if not isinstance(stage_id, str) or not STAGE_ID.match(stage_id):
        raise Refused(
            "must be 1 to 20 lowercase letters, digits or _, starting with a letter or digit",
            f"{where}.id",
        )
    if any(stage.id == stage_id for stage in before):
        raise Refused(f"another stage is {stage_id}", f"{where}.id")
    ruleset = dict(expect_object(written.get("ruleset", {}), f"{where}.ruleset"))
    Ruleset.from_overrides({**(competition_ruleset or {}), **ruleset}, f"{where}.ruleset")
    source = _source(written.get("from"), f"{where}.from", before)
    direct = 0
    if "direct" in written:
        if source is None:
            raise Refused("only a stage with `from` takes entries directly", f"{where}.direct")
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
        raise Refused("must be true or false", f"{where}.third_place")
    return Stage(stage_id, kind, ruleset, source, direct, size=size, third_place=third_place)


def _source(value: Any, where: str, before: list[Stage]) -> str | None:
    """Return the stage named by `from`: an earlier groups stage from which players advance."""
    if value is None:
        return None
    earlier = next((stage for stage in before if stage.id == value), None)
    if earlier is None:
        raise Refused(f"names no earlier stage: {excerpt(value)}", where)
    if earlier.kind != "groups" or earlier.advance is None:
        raise Refused(f"stage {earlier.id} has no qualifiers: it needs `advance`", where)
    return earlier.id

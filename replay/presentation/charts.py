"""Charts drawn by the server as SVG: a game's score shot by shot, a player's form over time.

Only geometry here: the points of each line and marker in the chart's own units.
The templates (`replay/_score_chart.html`, `replay/_form_chart.html`) draw them, so a
chart is part of the page as sent, readable without JavaScript.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

WIDTH, HEIGHT = 640, 240
LEFT, RIGHT, TOP, BOTTOM = 40, 12, 12, 28  # room for the axes' labels
# The moments a score chart has a point for: what can change a game's score.
SCORING = ("shot", "foul")


def _scale(value: float, low: float, high: float, start: float, end: float) -> float:
    if high <= low:
        return round(start, 1)
    return round(start + (value - low) * (end - start) / (high - low), 1)


def _x(index: int, count: int) -> float:
    return _scale(index, 0, max(count, 1), LEFT, WIDTH - RIGHT)


def _y(value: float, top: float, bottom: float = 0) -> float:
    return _scale(value, bottom, top, HEIGHT - BOTTOM, TOP)


def _polyline(points: Sequence[tuple[float, float]]) -> str:
    return " ".join(f"{x},{y}" for x, y in points)


def _ticks(top: float, steps: int = 4) -> list[dict[str, Any]]:
    """Return the labelled values of a y axis from 0 to `top`."""
    step = max(1, round(top / steps))
    return [{"value": v, "y": _y(v, top)} for v in range(0, int(top) + 1, step)]


def score_charts(
    timeline: Mapping[str, Any], names: Mapping[str, str], void: Collection[int] = ()
) -> list[dict[str, Any]]:
    """Return one chart per game: both scores after every shot, amended and as seen live.

    A void game (`void`: their numbers) was never played as amended: only its lines as
    seen live are drawn.
    """
    events, frames, live = timeline["events"], timeline["frames"], timeline["live"]
    shots = {shot["seq"]: shot for shot in timeline["shots"]}
    charts = []
    for game in timeline["games"]:
        index = game["game"] - 1
        moments = [
            seq
            for seq in range(game["start"], game["end"] + 1)
            if events[seq - 1]["type"] in SCORING
        ]
        seqs = [game["start"], *moments]
        amended = [_score(frames[seq], index) for seq in seqs]
        seen = [_score(live.get(str(seq), frames[seq]), index) for seq in seqs]
        top = max([1, *(max(s.values()) for s in amended + seen)])
        count = len(seqs) - 1
        voided = game["game"] in void
        lines = {
            player: {
                "player": player,
                "name": names.get(player, player),
                "points": ""
                if voided
                else _polyline(
                    [(_x(i, count), _y(score[player], top)) for i, score in enumerate(amended)]
                ),
                "live": _polyline(
                    [(_x(i, count), _y(score[player], top)) for i, score in enumerate(seen)]
                )
                if seen != amended or voided
                else "",
                "final": (seen if voided else amended)[-1][player],
            }
            for player in ("A", "B")
        }
        charts.append(
            {
                "game": game["game"],
                "void": voided,
                "winner": game["winner"],
                "lines": list(lines.values()),
                "markers": [] if voided else _markers(seqs, amended, events, shots, top, count),
                "ticks": _ticks(top),
                "shots": count,
                "width": WIDTH,
                "height": HEIGHT,
                "left": LEFT,
                "right": WIDTH - RIGHT,
                "bottom": HEIGHT - BOTTOM,
                "top": TOP,
            }
        )
    return charts


def _score(frame: Mapping[str, Any], index: int) -> dict[str, int]:
    games = frame["games"]
    return dict(games[index]["score"]) if index < len(games) else {"A": 0, "B": 0}


def _markers(
    seqs: Sequence[int],
    scores: Sequence[Mapping[str, int]],
    events: Sequence[Mapping[str, Any]],
    shots: Mapping[int, Mapping[str, Any]],
    top: float,
    count: int,
) -> list[dict[str, Any]]:
    """Return a marker on each foul and each amended or retracted shot, on its player's line."""
    markers = []
    for i, seq in enumerate(seqs[1:], start=1):
        event, shot = events[seq - 1], shots.get(seq)
        kinds = []
        if event["type"] == "foul" or (shot and shot["ruling"]["fouls"]):
            kinds.append("foul")
        if shot and (shot.get("amended") or shot.get("retracted")):
            kinds.append("amended")
        if not kinds:
            continue
        player = event.get("player") or (shot or {}).get("player") or "A"
        markers.append(
            {
                "seq": seq,
                "kinds": kinds,
                "player": player,
                "x": _x(i, count),
                "y": _y(scores[i][player], top),
            }
        )
    return markers


def form_chart(points: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Return a player's average per shot, match after match, and its running average.

    `points`: one entry per match, oldest first, with `average` and a `label`.
    """
    count = len(points)
    top = max([1.0, *(float(p["average"]) for p in points)])
    running, total = [], 0.0
    for i, entry in enumerate(points, start=1):
        total += float(entry["average"])
        running.append(total / i)
    x = [_scale(i, 0, max(count - 1, 1), LEFT, WIDTH - RIGHT) for i in range(count)]
    return {
        "dots": [
            {**entry, "x": x[i], "y": _y(float(entry["average"]), top)}
            for i, entry in enumerate(points)
        ],
        "line": _polyline([(x[i], _y(avg, top)) for i, avg in enumerate(running)]),
        "ticks": [
            # A number, not text: the template writes it in the page's language.
            {"value": v, "y": _y(v, top)}
            for v in (0, top / 4, top / 2, 3 * top / 4, top)
        ],
        "width": WIDTH,
        "height": HEIGHT,
        "left": LEFT,
        "right": WIDTH - RIGHT,
        "bottom": HEIGHT - BOTTOM,
        "top": TOP,
    }


def rating_chart(points: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Return a player's rating after each day they played, with the band of two rating
    deviations either side (where their strength lies, about 95 times in 100).

    `points`: one entry per day, oldest first, with `rating`, `deviation` and a `label`.
    """
    count = len(points)
    low = min(float(p["rating"]) - 2 * float(p["deviation"]) for p in points)
    high = max(float(p["rating"]) + 2 * float(p["deviation"]) for p in points)
    low, high = 100 * (low // 100), 100 * (high // 100 + 1)
    x = [_scale(i, 0, max(count - 1, 1), LEFT, WIDTH - RIGHT) for i in range(count)]

    def y(value: float) -> float:
        return _scale(value, low, high, HEIGHT - BOTTOM, TOP)

    upper = [
        (x[i], y(float(p["rating"]) + 2 * float(p["deviation"]))) for i, p in enumerate(points)
    ]
    lower = [
        (x[i], y(float(p["rating"]) - 2 * float(p["deviation"]))) for i, p in enumerate(points)
    ]
    step = max(100, 100 * round((high - low) / 400))
    return {
        "dots": [{**p, "x": x[i], "y": y(float(p["rating"]))} for i, p in enumerate(points)],
        "line": _polyline([(x[i], y(float(p["rating"]))) for i, p in enumerate(points)]),
        "band": _polyline([*upper, *reversed(lower)]),
        "ticks": [{"value": int(v), "y": y(v)} for v in range(int(low), int(high) + 1, step)],
        "width": WIDTH,
        "height": HEIGHT,
        "left": LEFT,
        "right": WIDTH - RIGHT,
    }

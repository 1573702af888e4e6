"""The ranking of the API's standings on plain tables: no database, no fold."""

from __future__ import annotations

from matches.domain.rules.ranking import Result, Table, moves

NAMES = {key: (name, None) for key, name in enumerate(["Anna", "bohdan", "Chiara", "dmytro"])}


def won(a: int, b: int, games=(1, 0), points=(4, 0), own=(4, 0), shots=(1, 1)) -> Result:
    """A result of a match between a and b that a won."""
    return Result((a, b), True, "A", games, points, own, shots)


def ranked(*results: Result | None) -> list[str]:
    table = Table.of(enumerate(results))
    return [row["player"] for row in table.rows(NAMES)]


def test_more_match_points_rank_first():
    assert ranked(won(1, 0), won(1, 2), won(0, 2)) == ["bohdan", "Anna", "Chiara"]


def test_on_equal_match_points_the_game_difference_decides():
    assert ranked(won(0, 2, games=(2, 1)), won(1, 3, games=(2, 0))) == [
        "bohdan",
        "Anna",
        "Chiara",
        "dmytro",
    ]


def test_on_equal_games_the_point_difference_decides():
    assert ranked(won(0, 2, points=(60, 50)), won(1, 3, points=(60, 20)))[:2] == ["bohdan", "Anna"]


def test_tied_players_are_ordered_by_the_match_points_of_their_matches_among_themselves():
    # Anna, bohdan and Chiara each win one and lose one among them; dmytro loses to all but
    # bohdan beat him by the same margins the others did: all three stand level, and the
    # cycle leaves each with 2 points among themselves. Then the name decides.
    cycle = [won(0, 1), won(1, 2), won(2, 0)]
    assert ranked(*cycle) == ["Anna", "bohdan", "Chiara"]
    # Two tied players: the one who won their match ranks first, whatever the name.
    assert ranked(won(3, 1), won(1, 0), won(0, 3))[:3] == ["Anna", "bohdan", "dmytro"]
    assert ranked(won(3, 0), won(0, 2), won(2, 3)) == ["Anna", "Chiara", "dmytro"]


def test_the_head_to_head_counts_only_the_matches_between_the_tied_players():
    # bohdan and dmytro are level on everything; dmytro beat bohdan.
    table = [won(3, 1), won(1, 0), won(0, 3), won(2, 0)]
    order = ranked(*table)
    assert order.index("dmytro") < order.index("bohdan")


def test_names_are_compared_case_folded_as_the_last_tie_break():
    names = {0: ("ÉMILE", None), 1: ("anna", None), 2: ("Bohdan", None), 3: ("émile", None)}
    table = Table.of([(0, Result((0, 1))), (1, Result((2, 3)))])
    assert [row["player"] for row in table.rows(names)] == ["anna", "Bohdan", "ÉMILE", "émile"]


def test_unfinished_matches_are_pending_and_count_nothing():
    table = Table.of([(0, won(0, 1)), (1, Result((2, 3)))])
    rows = table.rows(NAMES)

    assert table.pending == 1
    assert [(r["player"], r["played"], r["match_points"]) for r in rows] == [
        ("Anna", 1, 2),
        ("Chiara", 0, 0),
        ("dmytro", 0, 0),
        ("bohdan", 1, 0),  # below those who have not played: a game difference of -1
    ]


def test_a_result_put_again_replaces_the_one_before():
    table = Table.of([(0, won(0, 1))])
    table.put(0, won(1, 0))

    rows = {row["player"]: row for row in table.rows(NAMES)}
    assert rows["bohdan"]["match_points"] == 2 and rows["Anna"]["match_points"] == 0
    assert rows["Anna"]["played"] == 1 and table.pending == 0


def test_a_match_without_events_is_not_in_the_table():
    table = Table.of([(0, won(0, 1)), (1, None)])
    assert len(table.rows(NAMES)) == 2


def test_rows_sum_games_points_and_the_average_of_own_points_per_shot():
    table = Table.of(
        [
            (0, won(0, 1, games=(2, 1), points=(150, 110), own=(140, 100), shots=(30, 31))),
            (1, won(0, 2, games=(2, 0), points=(120, 60), own=(118, 57), shots=(27, 26))),
        ]
    )
    anna = table.rows(NAMES)[0]

    assert anna["won"] == 2 and anna["lost"] == 0 and anna["match_points"] == 4
    assert (anna["games_won"], anna["games_lost"]) == (4, 1)
    assert (anna["points_for"], anna["points_against"]) == (270, 170)
    assert anna["average"] == round(258 / 57, 3)


def test_moves_say_who_changed_rank_and_whose_points_changed():
    before = Table.of([(0, won(0, 1))]).rows(NAMES)
    after = Table.of([(0, won(1, 0))]).rows(NAMES)

    changed = moves(before, after)

    assert changed["moves"] == [
        {"player": "bohdan", "from": 2, "to": 1},
        {"player": "Anna", "from": 1, "to": 2},
    ]
    assert {"player": "bohdan", "from": 0, "to": 2} in changed["points"]
    assert [row["change"] for row in after] == [1, -1]


def test_a_result_round_trips_through_json():
    result = won(3, 7, games=(2, 1), points=(60, 41), own=(55, 30), shots=(20, 21))
    assert Result.from_json(result.as_json()) == result

"""A match an amendment decides before its last game: the board's and the replay's hard case.

Target 4, best of 3, A (white) v B (yellow). As recorded B wins 2–1: game 1 to B (seq 5),
game 2 to A (seq 9), game 3 to B (seq 13). Then seq 8, B's first shot of game 2, is
amended into a carom: B reaches 4 there and wins game 2, so the match 2–0. A's carom at
seq 9 is void (the game was already won); game 3 is void (the match was already
decided), and so are its shots, seq 12 and 13.
"""

from __future__ import annotations

from matches import services
from tests.support.builders import BY, CAROM_A, LOWER_HALF, QUIET, new_match, open_game, play

CAROM_B = {"contacts": [{"ball": "yellow", "hit": "white"}, {"ball": "yellow", "hit": "red"}]}
QUIET_B = {"contacts": [{"ball": "yellow", "hit": "white"}]}
REASON = "video review: yellow touched the red"
AMENDED = 8  # the shot amended
VOID_IN_GAME = 9  # void: game 2 was already won
VOID_GAME = (12, 13)  # void: the match was already decided


def played_2_1(match_id: str) -> int:
    """Record the match as played, B winning 2–1; return the last seq (13)."""
    new_match(match_id, target=4)
    seq = play(match_id, open_game(match_id), QUIET)
    seq = play(match_id, seq, CAROM_B)
    services.game_start(match_id=match_id, expected_seq=seq, by=BY, game=2, breaker="B")
    services.ball_place(
        match_id=match_id,
        expected_seq=seq + 1,
        by=BY,
        ball="yellow",
        pos=LOWER_HALF,
        reason="break",
    )
    seq = play(match_id, play(match_id, seq + 2, QUIET_B), CAROM_A)
    services.game_start(match_id=match_id, expected_seq=seq, by=BY, game=3, breaker="A")
    services.ball_place(
        match_id=match_id, expected_seq=seq + 1, by=BY, ball="white", pos=LOWER_HALF, reason="break"
    )
    return play(match_id, play(match_id, seq + 2, QUIET), CAROM_B)


def decide_early(match_id: str, expected_seq: int = 13) -> int:
    """Amend B's first shot of game 2 into a carom: B wins 2–0. Return its seq (14)."""
    return services.ruling_amend(
        match_id=match_id,
        expected_seq=expected_seq,
        by=BY,
        shot=AMENDED,
        facts=CAROM_B,
        reason=REASON,
    ).seq


def decided_early(match_id: str) -> int:
    """Record the match and the amendment that decides it early; return the last seq."""
    return decide_early(match_id, played_2_1(match_id))

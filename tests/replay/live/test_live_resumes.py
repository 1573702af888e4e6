"""A socket's resumes merged while they wait, and its allowance of messages (no database)."""

from __future__ import annotations

import pytest

from replay.live.resumes import BURST, EVERY_SECONDS, Allowance, Resumes


def served_in_turn(asked: list[int]) -> list[int]:
    """Return the `after` of each resume served when all of `asked` come while the first is."""
    resumes = Resumes()
    assert resumes.ask(asked[0])
    assert not any(resumes.ask(after) for after in asked[1:])
    served = [asked[0]]
    while (after := resumes.serve_waiting()) is not None:
        served.append(after)
    return served


@pytest.mark.parametrize(
    ("asked", "served"),
    [
        ([0] * 300, [0]),  # the flood: the one served sends all that the others ask for
        ([5, 7, 9], [5]),  # from past the one served: nothing it does not send
        ([5, 2], [5, 2]),
        ([5, 2, 3, 0, 4], [5, 0]),  # one waits, from the lowest after asked
        ([5, 0, 6], [5, 0]),
    ],
)
def test_resumes_asked_while_one_is_served_wait_merged_into_one_from_the_lowest_after(
    asked, served
):
    assert served_in_turn(asked) == served


def test_a_resume_asked_once_none_is_under_way_is_served_at_once():
    resumes = Resumes()
    assert resumes.ask(3)
    assert resumes.serve_waiting() is None
    assert resumes.ask(8)


def test_a_client_may_send_a_burst_then_one_message_every_period():
    allowance = Allowance()
    assert all(allowance.spend(100.0) for _ in range(BURST))
    assert not allowance.spend(100.0)
    assert not allowance.spend(100.0 + EVERY_SECONDS / 2)
    assert allowance.spend(100.0 + EVERY_SECONDS)
    assert not allowance.spend(100.0 + EVERY_SECONDS)


def test_a_quiet_client_gets_its_whole_burst_back_and_no_more():
    allowance = Allowance()
    assert all(allowance.spend(0.0) for _ in range(BURST))
    later = EVERY_SECONDS * BURST * 10
    assert all(allowance.spend(later) for _ in range(BURST))
    assert not allowance.spend(later)

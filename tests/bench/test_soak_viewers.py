"""The soak's viewers: each follows its socket as the page's script does."""

from __future__ import annotations

import json

from bench.soak_viewers import Board, Hall, hall_applied

CARD_1 = {"table": "1", "version": "a", "match": {"id": "m1", "seq": 4}, "next": None}
CARD_2 = {"table": "2", "version": "b", "match": {"id": "m2", "seq": 7}, "next": None}
WHOLE = {"type": "hall", "now": "T0", "name": "Soak", "tables": [CARD_1, CARD_2], "waiting": []}


def table(card, now="T1"):
    return {"type": "table", "now": now, "card": card}


def event(seq):
    return {"type": "event", "seq": seq, "event": {}, "state": {}}


def test_a_hall_shows_the_whole_hall_with_each_changed_card_applied_on_top():
    newer = CARD_2 | {"version": "c", "match": {"id": "m2", "seq": 8}}

    shown = hall_applied(hall_applied(None, WHOLE), table(newer))

    assert shown == {"now": "T1", "name": "Soak", "tables": [CARD_1, newer], "waiting": []}


def test_a_card_of_a_table_the_hall_does_not_show_changes_nothing_until_the_next_whole_hall():
    shown = hall_applied(None, WHOLE)

    assert hall_applied(shown, table(CARD_1 | {"table": "9"})) == shown
    assert hall_applied(None, table(CARD_1)) is None


def test_a_board_applies_each_seq_once_in_order_and_asks_a_resume_once_per_gap():
    viewer = Board(port=1, server=0, match="m1", after=3)

    assert viewer.handle(event(4), now=1.0) is None
    assert viewer.handle(event(4), now=1.1) is None  # sent again: not applied twice
    asked = viewer.handle(event(6), now=1.2)  # 5 never came
    assert json.loads(asked) == {"type": "resume", "after": 4}
    assert viewer.handle(event(7), now=1.3) is None  # the same gap: asked once
    assert viewer.handle(event(5), now=1.4) is None

    assert (viewer.last, viewer.doubled, viewer.skipped) == (5, 1, 2)
    assert viewer.receipts == [(4, 1.0), (5, 1.4)]
    assert viewer.url().endswith("/ws/matches/m1/?after=5")


def test_a_board_asks_again_when_the_clocks_head_is_past_its_last_seq():
    viewer = Board(port=1, server=0, match="m1", after=3)
    viewer.handle(event(5), now=1.0)  # asked after 3

    asked = viewer.handle({"type": "head", "seq": 5}, now=2.0)  # that ask may have been lost

    assert json.loads(asked) == {"type": "resume", "after": 3}
    assert viewer.handle({"type": "head", "seq": 3}, now=3.0) is None
    assert viewer.resumes == 2


def test_a_hall_notes_each_match_seq_its_cards_show_anew_and_any_that_goes_back():
    viewer = Hall(port=1, server=1, competition="soak")

    viewer.handle(WHOLE, now=1.0)
    viewer.handle(table(CARD_1 | {"match": {"id": "m1", "seq": 5}}), now=2.0)
    viewer.handle(table(CARD_1 | {"version": "z"}), now=3.0)  # m1 at 4 again

    assert viewer.receipts == {"m1": [(4, 1.0), (5, 2.0)], "m2": [(7, 1.0)]}
    assert viewer.backwards == 1


def test_a_hall_that_was_sent_a_version_reconnects_with_it_and_counts_one_going_back():
    viewer = Hall(port=1, server=1, competition="soak")
    assert viewer.url() == "ws://127.0.0.1:1/ws/competitions/soak/hall/"

    viewer.handle(WHOLE | {"version": 12}, now=1.0)
    viewer.handle(WHOLE | {"version": 11}, now=2.0)

    assert viewer.url().endswith("/hall/?version=12")
    assert viewer.backwards == 1

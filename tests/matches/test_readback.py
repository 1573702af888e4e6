"""A stored event read back: one decoder, refusing what is no JSON object by its seq."""

import pytest

from matches.domain.errors import Refused
from matches.domain.readback import UNREADABLE, event_data, events_data, unreadable_because


@pytest.mark.parametrize(
    ("text", "because"),
    [
        ('{"type": "shot"}', None),
        ("{not json", "data is not JSON"),
        ("[1, 2]", "data is not a JSON object"),
        ('"shot"', "data is not a JSON object"),
        (b"\xff\xfe", "data is not JSON"),
    ],
)
def test_unreadable_because_says_why_a_row_cannot_be_read(text, because):
    assert unreadable_because(text) == because


def test_event_data_refuses_a_row_that_is_no_object_naming_its_seq():
    assert event_data('{"type": "shot"}', 4) == {"type": "shot"}
    with pytest.raises(Refused) as refused:
        event_data("[]", 7)

    assert (refused.value.message, refused.value.field, refused.value.seq) == (
        UNREADABLE,
        "data",
        7,
    )


def test_events_data_names_the_first_row_that_does_not_read():
    with pytest.raises(Refused) as refused:
        events_data([(1, '{"type": "lag"}'), (2, "nope"), (3, "[]")])

    assert refused.value.seq == 2

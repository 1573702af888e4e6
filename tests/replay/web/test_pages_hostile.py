"""Any query string or path given to the archive's pages is answered, never a server error."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.archive import make_archive
from tests.support.hostile import TEXTS, without_lone_surrogates

FIELDS = st.sampled_from(
    ["competition", "player", "date_from", "date_to", "result", "page", "seq", "view", "versus"]
)
# What a browser can send: a URL holds no lone surrogate (the test client cannot encode one).
SENDABLE = TEXTS.map(without_lone_surrogates)
QUERIES = st.dictionaries(FIELDS, SENDABLE, max_size=5)
# Each example asks for a whole page: a fifth of the profile's examples (tests/conftest.py),
# a hundred of each in CI, enough to find what breaks one.
EXAMPLES = max(20, settings.default.max_examples // 5)
PATHS = [
    "/archive/",
    "/archive/export.csv",
    "/players/UA-101/",
    "/matches/cup-0000/replay/",
    "/",
]
SEGMENTS = SENDABLE.filter(lambda text: text and "/" not in text)


@pytest.fixture
def three_summarised(db):
    make_archive(3)


@pytest.mark.parametrize("path", PATHS)
@settings(
    max_examples=EXAMPLES,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
    deadline=None,
)
@given(query=QUERIES)
def test_any_query_string_is_answered_as_a_page(three_summarised, path, query):
    response = Client().get(path, query)

    assert response.status_code == 200, (path, query)


@pytest.mark.parametrize(
    "template",
    [
        "/players/{}/",
        "/matches/{}/replay/",
        "/matches/{}/record.json",
        "/competitions/{}/records.zip",
        "/competitions/{}/standings.csv",
    ],
)
@settings(
    max_examples=EXAMPLES,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
    deadline=None,
)
@given(segment=SEGMENTS)
def test_any_id_in_a_path_names_something_or_is_a_404(three_summarised, template, segment):
    response = Client().get(template.format(quote(segment, safe="")))

    assert response.status_code in (200, 404), (template, segment)

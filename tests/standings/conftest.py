"""Each standings test starts with no fold or table kept from another test's database."""

import pytest

from replay.projections import projector


@pytest.fixture(autouse=True)
def _nothing_kept():
    projector.forget()
    yield
    projector.forget()

"""The demo that `make run` loads."""

import pytest
from django.core.management import call_command

from matches.models import Match
from matches.records import archive_verify


@pytest.mark.django_db
def test_demo_loads_a_verified_round_robin_once(capsys):
    call_command("load_demo", matches=4)
    call_command("load_demo", matches=4)

    assert Match.objects.filter(competition_id="demo-cup").count() == 4
    assert all(problems == [] for problems in archive_verify().values())
    assert "no demo loaded" in capsys.readouterr().out

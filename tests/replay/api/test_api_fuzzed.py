"""The API fuzzed from its own OpenAPI schema: no 500, and every answer as the schema says."""

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig

from carambole.wsgi import application

CONFIG = SchemathesisConfig.from_dict(
    {
        "checks": {
            # Data the schema allows may still be refused by the rules of the match: a 422.
            "positive_data_acceptance": {
                "expected-statuses": ["2xx", "401", "403", "404", "409", "422"]
            },
        }
    }
)


@pytest.fixture
def one_transaction(db, settings):
    """Serve requests inside the test's transaction, as Django's own test client does; the
    previews' and costly reads' rates and the wrong PINs' counts past what the fuzzer sends
    (their 429s are tests of their own)."""
    settings.PREVIEWS_PER_MINUTE = settings.COSTLY_READS_PER_MINUTE = 10**9
    settings.PIN_FAILURES_PER_PLAYER = settings.PIN_FAILURES_PER_ADDRESS = 10**9
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


# Loaded when the tests are collected: the schema view reads no database.
schema = schemathesis.openapi.from_wsgi("/api/schema/", application, config=CONFIG)


@pytest.mark.slow
@schema.parametrize()
# The login and the match are shared by every example on purpose; the example count is the
# profile's (tests/conftest.py).
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_the_api_answers_every_request_as_its_schema_says(case, one_transaction, staff, match):
    case.call_and_validate(headers={"Authorization": f"Token {staff.key}"})

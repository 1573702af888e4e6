"""The suite's named fixtures, registered once by `tests/conftest.py`: one name, one meaning.

What they make comes from the cast (`builders.py`, `league.py`, `logins.py`). A fixture only
one test module needs stays in that module, under a name no other fixture has.
"""

from __future__ import annotations

import atexit
import os
from collections.abc import Callable, Iterator

import pytest
from channels.layers import channel_layers
from django.core.cache import cache, caches
from django.db import connection
from django.test import override_settings

from bench.processes import free_port, stop
from carambole import throttle
from carambole.caches import clear_every_cache, log_reports
from matches import services
from matches.immutability import install_triggers, remove_triggers
from matches.models import Competition, Match
from replay.projections import projector
from replay.queries.read_cache import READS
from tests.support import builders, counting
from tests.support.builders import new_match, open_game, play
from tests.support.championships import championship
from tests.support.league import league
from tests.support.logins import REFEREE, Login, login
from tests.support.servers import own_redis

DATABASE_FIXTURES = {"db", "transactional_db", "event_db", "live_server"}

# -- Every test's guards -------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _events_immutable(request, django_db_blocker):
    """Every test that touches the database starts with the immutability triggers in force."""
    uses_db = DATABASE_FIXTURES & set(request.fixturenames) or request.node.get_closest_marker(
        "django_db"
    )
    if uses_db:
        request.getfixturevalue("django_db_setup")
        with django_db_blocker.unblock():
            install_triggers(connection)
    yield


def pytest_configure(config: pytest.Config) -> None:
    """Leave out the caches' report as a test run ends: the log's stream is pytest's,
    closed by then."""
    atexit.unregister(log_reports)


@pytest.fixture(autouse=True)
def _caches_forget(monkeypatch):
    """Every test starts with no failed login or token counted, nothing in the read cache
    nor in any process-local cache; a refusal answers at once."""
    cache.clear()
    caches[READS].clear()
    clear_every_cache()
    monkeypatch.setattr(throttle, "REFUSAL_PAUSE_S", 0)
    yield


@pytest.fixture(autouse=True)
def _channel_layers_forget() -> Iterator[None]:
    """Every test starts with channel layers of its own.

    A layer is made for the one event loop of a server process; each `async_to_sync` of a
    test runs a new loop. The Redis layer keeps a lock per channel, bound to the loop that
    first waited on it and left held by a clean-up that a closing loop never ran: shared
    with a later test, it refused or held that test's sockets.
    """
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


# -- The database and Redis ---------------------------------------------------------------


@pytest.fixture
def event_db(transactional_db):
    """A database whose transactions really commit (several connections, threads).

    Test-only way around the triggers: the flush that follows this test must empty
    the events table, so they are lifted here and re-installed by the next test.
    """
    yield
    remove_triggers(connection)


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """Return a Redis for the tests that need one: `REDIS_URL`, else a redis-server of their own.

    With neither (no `REDIS_URL`, no `redis-server` on the PATH) a test skips, and fails
    under `CI=true`. The suite's own server is started once, on a free loopback port.
    """
    url = os.getenv("REDIS_URL")
    if url:
        yield url
        return
    port = free_port()
    with own_redis(port):
        yield f"redis://127.0.0.1:{port}/0"


@pytest.fixture(params=["memory", "redis"])
def counting_store(request) -> Iterator[str]:
    """The throttle's counts in this process's memory, then (a second run) in a real Redis,
    emptied before and after."""
    if request.param == "memory":
        config = counting.MEMORY
    else:
        config = counting.redis_cache(request.getfixturevalue("redis_url"))
    with override_settings(CACHES={"default": config}):
        counting.counts_clear(config)
        yield request.param
        counting.counts_clear(config)  # a served server counting in the same Redis starts clear


@pytest.fixture
def counting_redis_stops() -> Iterator[Callable[[], None]]:
    """The throttle's counts in a Redis of this test's own; yield what stops that Redis."""
    port = free_port()
    with own_redis(port) as process:
        url = f"redis://127.0.0.1:{port}/0"
        with override_settings(CACHES={"default": counting.redis_cache(url)}):
            yield lambda: stop(process)


@pytest.fixture
def projector_forgotten() -> Iterator[None]:
    """Start and end with no fold or table the projector kept from another test's database."""
    projector.clear_caches()
    yield
    projector.clear_caches()


# -- Competitions and matches -------------------------------------------------------------


@pytest.fixture
def cup(db) -> None:
    """The competition "cup", with nothing in it."""
    builders.cup()


@pytest.fixture
def groups_drawn(db) -> Competition:
    """A championship of eight with its groups drawn: nine events in its log."""
    championship()
    services.stage_draw(competition_id="euro", stage_id="groups", by="director")
    return Competition.objects.get(pk="euro")


@pytest.fixture
def round_robin(db) -> list[str]:
    """The league "cup" of four entrants, games to 4: the ids of its six matches."""
    return league()


@pytest.fixture
def scheduled_match(db) -> Match:
    """Match cup-a-1 of the cup, A v B, nothing recorded."""
    return new_match()


@pytest.fixture
def opened_match(scheduled_match) -> Match:
    """cup-a-1 with the lag, game 1 broken by A and its placement: A is due at seq 4."""
    open_game(scheduled_match.id)
    return scheduled_match


@pytest.fixture
def opened_and_shot(opened_match) -> Match:
    """cup-a-1 at seq 4: the lag, game 1, the break placement and A's first shot; B is due."""
    play(opened_match.id, 3)
    return opened_match


# -- Logins and the API's match -----------------------------------------------------------


@pytest.fixture
def staff(db) -> Login:
    """The federation's login, staff, with a token."""
    return login("federation", staff=True)


@pytest.fixture
def referee(db) -> Login:
    """The referee petrenko's login, with a token."""
    return login(REFEREE)


@pytest.fixture
def stranger(db) -> Login:
    """A login assigned to no match."""
    return login("spectator")


@pytest.fixture
def match(referee) -> Match:
    """The match of the schema's examples (A white, B yellow), that `referee` may record."""
    created = new_match("cup-2026-a-3", "cup-2026")
    services.referee_assign(match_id=created.id, username=REFEREE, by="federation")
    return created


@pytest.fixture
def opened_for_referee(match) -> Match:
    """`match` with game 1 broken by A; A is due at seq 4."""
    open_game(match.id)
    return match

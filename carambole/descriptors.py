"""A server process's file descriptors: as many as the system lets it have, and some kept back.

Every connection (a page's request, a live socket) holds a descriptor. A process out of
them cannot accept another: the connection waits in the listening queue until the
client gives up, a timeout for every page and every viewer, with nothing to say why. So
a served process raises its own limit to the most the system allows it (`raise_limit`,
as it starts: the soft limit is often 1,024 where the hard one is far higher), keeps
`RESERVE` of them for its own files, its database and Redis connections and the answers
under way, and takes no more connections than that leaves (`room`): its live sockets are
refused past it (carambole/admission.py), and uvicorn, told the same number with
`--limit-concurrency`, answers any new request 503 instead of leaving it unanswered.
"""

from __future__ import annotations

import resource

# The descriptors a served process keeps for itself: the interpreter's and the server's
# own (about 20), a database pool and Redis connections (a few dozen at most), and the
# connections accepted meanwhile that are being answered 503 or closed.
RESERVE = 100


def raise_limit() -> int:
    """Raise this process's descriptor limit to the most the system allows; return it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft != hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        soft = hard
    return soft


def limit() -> int:
    """Return how many descriptors this process may have open."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return soft


def room() -> int:
    """Return how many connections this process may hold: its limit less the reserve."""
    return max(limit() - RESERVE, 1)

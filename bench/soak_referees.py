"""The soak's referees: each records a match through one server, shot after shot, and
resends a shot nobody answered with the same `Idempotency-Key` until a server does."""

from __future__ import annotations

import http.client
import json
import time
import uuid
from dataclasses import dataclass, field

from bench.fanout import OPENED_SEQ, QUIET
from bench.viewers import clock

ANSWER_TIMEOUT_S = 30.0
RESEND_S = 0.25  # between two sends of a shot nobody answered
GIVE_UP_S = 120.0  # a shot unanswered that long is counted unanswered
WARM_UP = 5  # shots of each referee before the viewers open


@dataclass
class Referee:
    """One referee recording a match through one server, each shot resent until answered."""

    match: str
    key: str
    port: int
    seq: int = OPENED_SEQ
    recorded: int = 0  # shots answered 201
    answered: dict[int, float] = field(default_factory=dict)  # each seq's 201, by the clock
    resent: int = 0  # sends after the first of a shot
    replayed: int = 0  # answers that were the record's own (a resend after a commit)
    refused: list[int] = field(default_factory=list)  # the status of each other answer
    unanswered: int = 0
    _connection: http.client.HTTPConnection | None = None

    def warm(self) -> None:
        """Record a few shots before the run, as a referee's first shots of the day: a
        server's first requests open what it keeps for hours (its database and broker
        connections, its threads)."""
        for _ in range(WARM_UP):
            self.shot()
        if self.refused or self.unanswered:
            raise RuntimeError(f"warming the server on port {self.port}: a shot not answered 201")

    def record(self, start: float, until: float, pace_s: float) -> None:
        """Record a shot every `pace_s` from `start` until `until` (the machine's clock);
        a slow answer delays the next shot, none is made up for."""
        due = start
        while due < until and not self.refused:
            time.sleep(max(due - clock(), 0))
            self.shot()
            due = max(due + pace_s, clock())
        if self._connection is not None:
            self._connection.close()

    def shot(self) -> None:
        """Record one shot, resending it with the same key while no server answers."""
        body = json.dumps({"expected_seq": self.seq, "event": {"type": "shot", **QUIET}})
        headers = {
            "Content-Type": "application/json",
            "Authorization": f"Token {self.key}",
            "Idempotency-Key": uuid.uuid4().hex,
        }
        first = clock()
        while True:
            status, replayed = self._sent(body, headers)
            if status is not None and status < 500:
                break
            if clock() - first > GIVE_UP_S:
                self.unanswered += 1
                return
            self.resent += 1
            time.sleep(RESEND_S)
        if status != 201:
            self.refused.append(status)
            return
        self.seq += 1
        self.answered[self.seq] = clock()
        self.recorded += 1
        self.replayed += replayed

    def _sent(self, body: str, headers: dict[str, str]) -> tuple[int | None, bool]:
        """Send one shot; return the answer's status (None: no answer) and if it was replayed."""
        if self._connection is None:
            self._connection = http.client.HTTPConnection(
                "127.0.0.1", self.port, timeout=ANSWER_TIMEOUT_S
            )
        try:
            self._connection.request("POST", f"/api/matches/{self.match}/events", body, headers)
            answer = self._connection.getresponse()
            answer.read()
        except (OSError, http.client.HTTPException):  # a server gone, or going, mid-answer
            self._connection.close()
            self._connection = None
            return None, False
        return answer.status, answer.getheader("Idempotent-Replayed") == "true"


def recorded_figures(referees: list[Referee]) -> dict[str, int]:
    return {
        "events": sum(referee.recorded for referee in referees),
        "resent": sum(referee.resent for referee in referees),
        "replayed": sum(referee.replayed for referee in referees),
        "refused": sum(len(referee.refused) for referee in referees),
        "unanswered": sum(referee.unanswered for referee in referees),
    }

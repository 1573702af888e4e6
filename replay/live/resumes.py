"""What one socket's messages may cost: resumes served in turn, merged while they wait, and a rate.

A resume costs the server a read of the store, a fold and one message per event of its
range; the client sent a few dozen bytes. So a socket's resumes are served one at a
time: one asked while another is served waits, merged with any other waiting into the
one from the lowest `after` (a resume from at or past the one served, or the one
waiting, asks for nothing that they do not send). And a socket may send `BURST`
messages at once, then one every `EVERY_SECONDS` on average: past that it floods, and
it is closed with `TOO_MANY_MESSAGES` (its client may reconnect with `?after=`).
A page's own client resumes once per gap it sees, at most once a head period.
"""

from __future__ import annotations

BURST = 10  # messages a socket may send at once
EVERY_SECONDS = 6.0  # then one more each, on average
TOO_MANY_MESSAGES = 4429  # close code: the client sent more than its allowance


class Allowance:
    """A socket's allowance of messages: `BURST` at once, one more every `EVERY_SECONDS`."""

    def __init__(self) -> None:
        self._left = float(BURST)
        self._since: float | None = None

    def spend(self, now: float) -> bool:
        """Return whether one more message is within the allowance, spending it if so."""
        if self._since is not None:
            self._left = min(float(BURST), self._left + (now - self._since) / EVERY_SECONDS)
        self._since = now
        if self._left < 1:
            return False
        self._left -= 1
        return True


class Resumes:
    """The resume a socket is being served, and the one that waits for it (merged)."""

    def __init__(self) -> None:
        self.serving: int | None = None  # the `after` of the resume being served
        self.waiting: int | None = None  # the lowest `after` asked meanwhile, if lower

    def ask(self, after: int) -> bool:
        """Note a resume after `after`; return True to serve it now (none is under way)."""
        if self.serving is None:
            self.serving = after
            return True
        if after < (self.serving if self.waiting is None else self.waiting):
            self.waiting = after
        return False

    def serve_waiting(self) -> int | None:
        """Serve the resume that waited: return its `after`, or None when none did."""
        self.serving, self.waiting = self.waiting, None
        return self.serving

    def clear(self) -> None:
        """Drop what was asked (the socket is gone, or a resume failed)."""
        self.serving = self.waiting = None

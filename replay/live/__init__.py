"""Websockets: a match's events at `/ws/matches/{id}/?after=SEQ`, and a competition's
standings at `/ws/competitions/{id}/`.

The log drives everything: a commit wakes this process's hub directly and the other
server processes through the channel layer (one notice per process, never per viewer);
each hub then reads the store from the last `seq` it pushed, builds each message once
(the event and the scoreboard of the live view at its `seq`) and hands the same text
to each of its viewers. A lost notice only delays: the next one, or the clock every
`LIVE_HEAD_SECONDS`, reads the store again.

- `protocol`: what a client says (the `after` of the URL, `resume`), or why not.
- `messages`: the messages, encoded once.
- `stream`: a match's events from the store with the live state at each, built
  one event at a time.
- `resumes`: what one socket's resumes and messages may cost it (merged, or 4429).
- `viewer`: one socket, its place in the log and what waits to be sent, in order.
- `hub`: one server process's feeds (one per match watched), its channel and clock.
- `notices`: what one process tells the others through the channel layer.
- `announce`: what a commit sets off (the receiver of `events_appended`).
- `origin`: who may open a socket.
- `match_consumer`, `standings_consumer`: the two sockets' consumers.
- `standings_announce`: a new version of standings told to its viewers (the receiver
  of the projector's `standings_committed`).
- `hall`: the hall's socket, `/ws/competitions/{id}/hall/`: the hall, then each
  table whose card changed.
- `heartbeat`: a console's heartbeat, counted from a login that may record the match.

May import: `queries`, `presentation`, `projections`, `matches`. Not `web` or `api`.
"""

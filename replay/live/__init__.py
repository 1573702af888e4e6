"""Websockets: a match's events at `/ws/matches/{id}/?after=SEQ`, a competition's hall at
`/ws/competitions/{id}/hall/` and its standings at `/ws/competitions/{id}/`.

One path for every socket: a change (a commit, a table called, a console heard, a
version of standings) wakes this process's hub directly and the other server processes
through the channel layer (one notice per topic per process, never per viewer); each hub
then reads the topic once, builds each message once and hands the same text to each of
its viewers. A lost notice only delays: the next one, or the clock every
`LIVE_HEAD_SECONDS` (one read per topic per process), reads the store again.

- `hub`: the mechanism: one server process's feeds (one per topic watched), its
  channel and clock; a match's is a stream of events, a hall's and standings' a
  snapshot at a version.
- `stream`, `hall`, `standings`: what each topic reads and how it is encoded.
- `viewer`: one socket, its place in its topic and what waits to be sent, in order.
- `protocol`: what a client says (the `after` or `version` of the URL, `resume`), or why not.
- `messages`: a match's messages, encoded once.
- `resumes`: what one socket's resumes and messages may cost it (merged, or 4429).
- `notices`: what one process tells the others through the channel layer.
- `announce`: what a change sets off (the receivers of `events_appended`,
  `tables_changed` and the projector's `standings_committed`).
- `origin`: who may open a socket.
- `match_consumer`, `snapshot_consumers`: the sockets' consumers, thin.
- `heartbeat`: a console's heartbeat, counted from a login that may record the match.

May import: `queries`, `presentation`, `projections`, `matches`. Not `web` or `api`.
"""

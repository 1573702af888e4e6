"""Projections: what the event log adds up to, on demand or kept as read models.

- `states`: a match's state at its head or any `seq`, amended or as seen live.
- `timeline`: a match shot by shot, each with the state after it (the replay page).
- `positions`: where each ball was last known to be.
- `projector`: catches the read models up from the log, with its cursor; `cursors`: the
  projector's and the ratings' cursors, read by a plain statement.
- `log`: what the projector hands on from the rows `store.log_after` gives (a leaf): a
  `Batch`, and the `ReadModel` each writer is to the projector, which lists them once.
- `standings_writer`: versions of a competition's standings, in the projector's
  transaction; `signals`: `standings_committed`, sent after it commits.
- `stages_writer`: a competition in stages (its stages and final ranking), written in
  the projector's transaction.
- `knockouts`: the projector's process manager: the matches a competition's settled
  slots make playable, made once its read models are written.
- `faults`: a competition whose read model cannot be written, kept as its
  `ReadModelFault` (each competition's work in a savepoint): the projector goes on.
- `activity`: when a match's console was last heard (its heartbeat).
- `ratings_writer`: the players' Glicko-2 ratings, each day's worked out again when a
  counted result changes.

May import: `matches` (the event log only through `matches.store`), `replay.models`,
`carambole.caches`.
Never HTTP, channels, or a layer above.
"""

"""What the write side announces: `events_appended`, sent once an append has committed;
and what it asks: `archive_verifying`, sent by `verify_archive`.

`matches` never imports `replay`; the read side subscribes here. A lost announcement
loses nothing: the log is the outbox, and whatever listens catches up from it.
"""

from django.dispatch import Signal

# Sent with `match_id`, `competition_id` (the match's) and `seqs` (the `seq` of each event
# appended), after the commit.
events_appended = Signal()

# Sent with `competition_id` after a change of its tables or of a match's table commits, or
# a decision voids one of its matches: the hall's viewers read it again.
tables_changed = Signal()

# Sent by `verify_archive` (no arguments): each receiver answers a list of faults it knows of
# beyond the hash chains, each a line naming what it is about (the read side: a competition
# whose read model the projector could not write). Any fault fails the verification.
archive_verifying = Signal()

"""What the write side announces: `events_appended`, sent once an append has committed.

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

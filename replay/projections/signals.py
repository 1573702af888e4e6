"""What the projections tell the layers above them, without importing them."""

from django.dispatch import Signal

# Sent after the transaction that wrote new versions of standings commits, with
# `versions`: {competition id: its newest version}. `replay.live` announces them.
standings_committed = Signal()

"""The archive's pages: a match's replay, the archive, players, and the downloads."""

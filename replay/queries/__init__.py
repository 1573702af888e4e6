"""Queries: the reads that pages, the API and the sockets share.

- `standings_reader`: a competition's standings as the API shapes them.
- `archive`: the home page's lines (live now, recent results, competitions).
- `listing`: the API's pages of matches with their status.
- `search`: the archive's filters and pages of summaries.
- `competitions`: the competitions' list, a competition's results, schedule, entrants.
- `player_matches`: a player's matches from their side of the table, and their totals.
- `player_keys`: the key of a player's page, and the player a key names.
- `access`: who may record a match.
- `referee_matches`: the matches a login is assigned to record, in the order of its day.
- `match_counts`: a competition's matches counted one way (live, finished, scheduled).
- `hall`: a competition's hall: each table with its match, the match called next,
  and when its console was last heard.
- `championships`: a competition's stages and final ranking, as of a version.
- `previews`: what an event would change, from its ruling to the final ranking, recording
  nothing.
- `ratings`: the ratings as of a day, a player's over time, seeds by the rating.
- `open_data`: the whole archive as one dated zip, and its import.
- `csv_cells`: every CSV's one writer, served or in open data: no cell a spreadsheet
  would compute.
- `pins`: who has been shown a player's PIN, and when.
- `players_directory`: every player by name, searched by name or federation id, paged.
- `read_cache`: answers costly to make (a match sheet, stages as of a version), kept in
  Django's cache "reads" by everything they depend on.

May import: `matches`, `replay.models`, `replay.projections`. Not `presentation`
(beside it), nor a layer above.
"""

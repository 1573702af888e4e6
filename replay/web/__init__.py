"""The HTML pages, one module per page family.

- `home`: what is live now, recent results; `board` (with `board_context`): a match
  live and its overlay; `match_replay`: a match shot by shot.
- `competitions`: the list, a competition's standings and history.
- `archive`, `players`, `exports` (records, zips, CSV, the record's schema).
- `console`: the referee's console; `referee`: their matches, where logging in lands.
- `match_sheet`: a finished match's official sheet as a PDF.
- `ratings`: the ratings page; `open_data`: the open-data exports to download.
- `lookups`: the one place a page gets its match or competition, and answers 404 or
  "cannot be shown" when it cannot.
- `rates`: the costly pages (the sheet) limited per address for anonymous visitors.

May import: `queries`, `presentation`, `projections`, `matches`. Not `api` or `live`
(beside it). Paths are in `replay.urls` and `replay.console_urls`.
"""

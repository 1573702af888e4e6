"""The read side: everything built from the event log for viewers, referees and archivists.

Six packages, in three layers (`pyproject.toml`'s "read-side-layers" contract checks
it: a module may import its own layer's package and the layers below, never above):

    web | api | live          pages; the REST API; websockets (side by side, apart)
    queries | presentation    reads shared by those; pure words, SVG and charts
    projections               state on demand, the timeline, the projector, read models

- `projections/`: a match's state from the store, its timeline, the projector that
  keeps the read models (summaries, standings) with its cursor. No HTTP, no channels.
- `queries/`: the reads that pages, the API and sockets share: standings, the
  archive's search and lines, the listing, competitions, a player's matches and
  totals, players' keys, who may record.
- `presentation/`: pure functions from a rendered state to words, the table's SVG
  geometry, comparisons and charts. No database, no request.
- `live/`: both websockets (a match's events, a competition's standings) and what a
  commit or a new version of standings sets off.
- `api/`: the REST API under /api/, its tokens included; it writes only through
  `matches.services`.
- `web/`: the HTML pages, a module per page family; `web.lookups` finds what an
  address names and turns a `NotFound` or `Refused` into the page's answer.

Outside the layers, wiring them to Django: `apps` (signal receivers), `models` (the
read models every layer may read), `urls` and `console_urls`, `routing`, `tasks`
(Celery), `management` (commands), `templatetags` and `migrations`.

Where a new thing goes: a page in `web/` (its path in `urls`); an endpoint in `api/`;
a websocket message in `live/`; a read model in `models` and its writer in
`projections/`, its read in `queries/`; a sentence or a drawing in `presentation/`.
"""

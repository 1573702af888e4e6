"""The REST API under /api/: thin views over `matches.services` and the projections.

It lives on the read side because it serves match states; it writes only by calling
the services, the one write path.

- `urls`: the paths; `views` (matches, events, records, the judge) and `competitions`
  (competitions, entries, round robins, standings) and `stages` (draws, withdrawals, the
  stages and the final ranking, as of a version): the endpoints.
- `serializers`: what a request body may hold, each error naming the field;
  `parsers` and `negotiation`: JSON in, JSON out, bounded.
- `schema` and `examples`: the OpenAPI document and its examples.
- `permissions`, `authentication` and `tokens`: who may do what, the API tokens;
  `throttles`: the rates per address of the costly answers (previews, reads as of a
  version).
- `errors`: every error as JSON `{"error", "field"}`.
- `tables`: a competition's tables and hall; a match called to a table, or moved.
- `ratings`: the ratings as of a day, and a championship seeded by them.
- `confirmations`: a result signed off by the referee and, with their PIN, each player.

May import: `queries`, `presentation`, `projections`, `matches`. Not `web` or `live`.
"""

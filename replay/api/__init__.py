"""The REST API under /api/: thin views over `matches.services` and the projections.

It lives on the read side because it serves match states; it writes only by calling
the services, the one write path. `tokens` issues and checks API tokens; `errors`
makes every error JSON.

May import: `queries`, `presentation`, `projections`, `matches`. Not `web` or `live`.
"""

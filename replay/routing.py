"""Websocket routes, served by carambole.asgi."""

from django.urls import URLPattern, path, re_path

from replay.live.match_consumer import MatchConsumer, UnknownPath
from replay.live.snapshot_consumers import HallConsumer, StandingsConsumer

# django-stubs types a route's view as a Django view; Channels routes ASGI applications
# with the same `path` and `re_path` (its own documented way), hence each ignore.
websocket_urlpatterns: list[URLPattern] = [
    path("ws/matches/<str:match_id>/", MatchConsumer.as_asgi()),  # type: ignore[arg-type]
    path("ws/competitions/<str:competition_id>/hall/", HallConsumer.as_asgi()),  # type: ignore[arg-type]
    path("ws/competitions/<str:competition_id>/", StandingsConsumer.as_asgi()),  # type: ignore[arg-type]
    # Last: any other path is refused, not left to the router's error (a 500, a traceback).
    re_path(r"", UnknownPath.as_asgi()),  # type: ignore[arg-type]
]

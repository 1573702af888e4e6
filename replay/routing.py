"""Websocket routes, served by carambole.asgi."""

from django.urls import URLPattern, path, re_path

from replay.live.match_consumer import MatchConsumer, UnknownPath
from replay.live.standings_consumer import StandingsConsumer

websocket_urlpatterns: list[URLPattern] = [
    path("ws/matches/<str:match_id>/", MatchConsumer.as_asgi()),
    path("ws/competitions/<str:competition_id>/", StandingsConsumer.as_asgi()),
    # Last: any other path is refused, not left to the router's error (a 500, a traceback).
    re_path(r"", UnknownPath.as_asgi()),
]

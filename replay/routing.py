"""Websocket routes, served by carambole.asgi."""

from django.urls import URLPattern, path

from replay.consumers import MatchConsumer
from replay.standings_live import StandingsConsumer

websocket_urlpatterns: list[URLPattern] = [
    path("ws/matches/<str:match_id>/", MatchConsumer.as_asgi()),
    path("ws/competitions/<str:competition_id>/", StandingsConsumer.as_asgi()),
]

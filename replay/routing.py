"""Websocket routes, served by carambole.asgi."""

from django.urls import URLPattern, path

from replay.consumers import MatchConsumer

websocket_urlpatterns: list[URLPattern] = [
    path("ws/matches/<str:match_id>/", MatchConsumer.as_asgi()),
]

"""Websocket routes, served by carambole.asgi."""

from django.urls import URLPattern

websocket_urlpatterns: list[URLPattern] = []

"""The console's paths, under /referee/ so the service worker's scope covers them."""

from django.urls import path

from replay.web import console, referee

app_name = "console"

urlpatterns = [
    path("", referee.my_matches, name="matches"),
    path("sw.js", console.service_worker, name="service-worker"),
    path("matches/<str:id>/", console.console, name="match"),
]

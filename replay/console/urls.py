"""The console's paths, under /referee/ so the service worker's scope covers them."""

from django.urls import path

from replay.console import views

app_name = "console"

urlpatterns = [
    path("sw.js", views.service_worker, name="service-worker"),
    path("matches/<str:id>/", views.console, name="match"),
]

"""Pages of the read side."""

from django.urls import path

from replay import views

app_name = "replay"

urlpatterns = [
    path("", views.home, name="home"),
]

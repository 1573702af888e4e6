"""Pages of the read side."""

from django.urls import include, path

from replay import views

app_name = "replay"

urlpatterns = [
    path("", views.home, name="home"),
    path("matches/<str:match_id>/", views.match_board, name="board"),
    path("matches/<str:match_id>/overlay/", views.match_overlay, name="overlay"),
    path("", include("replay.pages.urls")),
]

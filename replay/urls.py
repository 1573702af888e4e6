"""Pages of the read side."""

from django.urls import include, path

from replay import competition_pages, views

app_name = "replay"

urlpatterns = [
    path("", views.home, name="home"),
    path("live.json", views.live_now, name="live-now"),
    path("matches/<str:match_id>/", views.match_board, name="board"),
    path("matches/<str:match_id>/overlay/", views.match_overlay, name="overlay"),
    path("competitions/", competition_pages.competition_list, name="competitions"),
    path(
        "competitions/<str:competition_id>/",
        competition_pages.competition_page,
        name="competition",
    ),
    path(
        "competitions/<str:competition_id>/history/",
        competition_pages.competition_history,
        name="competition-history",
    ),
    path("", include("replay.pages.urls")),
]

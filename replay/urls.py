"""The read side's pages, each path to its view in `replay.web` (the console's: console_urls)."""

from django.urls import path

from replay.web import (
    archive,
    board,
    competitions,
    exports,
    home,
    match_replay,
    match_sheet,
    open_data,
    players,
    ratings,
)

app_name = "replay"

urlpatterns = [
    path("", home.home, name="home"),
    path("live.json", home.live_now, name="live-now"),
    path("matches/<str:match_id>/", board.match_board, name="board"),
    path("matches/<str:match_id>/overlay/", board.match_overlay, name="overlay"),
    path("competitions/", competitions.competition_list, name="competitions"),
    path(
        "competitions/<str:competition_id>/",
        competitions.competition_page,
        name="competition",
    ),
    path(
        "competitions/<str:competition_id>/hall/",
        competitions.competition_hall,
        name="competition-hall",
    ),
    path(
        "competitions/<str:competition_id>/history/",
        competitions.competition_history,
        name="competition-history",
    ),
    path(
        "competitions/<str:competition_id>/disputes/",
        competitions.competition_disputes,
        name="competition-disputes",
    ),
    path("matches/<str:match_id>/replay/", match_replay.match_replay, name="replay"),
    path("matches/<str:match_id>/record.json", exports.match_record, name="match-record"),
    path("matches/<str:match_id>/sheet.pdf", match_sheet.match_sheet_pdf, name="sheet"),
    path(
        "competitions/<str:competition_id>/records.zip",
        exports.competition_records,
        name="competition-records",
    ),
    path(
        "competitions/<str:competition_id>/standings.csv",
        exports.standings_csv,
        name="competition-standings-csv",
    ),
    path(
        "competitions/<str:competition_id>/ranking.csv",
        exports.ranking_csv,
        name="competition-ranking-csv",
    ),
    path("archive/", archive.archive, name="archive"),
    path("archive/export.csv", archive.archive_csv, name="archive-csv"),
    path("players/", players.players_page, name="players"),
    path("players/<str:key>/", players.player_page, name="player"),
    path("players/<str:key>/pin/", players.player_pin_page, name="player-pin"),
    path("ratings/", ratings.ratings_page, name="ratings"),
    path("open-data/", open_data.open_data_page, name="open-data"),
    # Before the files' path: "export" names no file (each begins "carambole-open-data-").
    path("open-data/export", open_data.open_data_export, name="open-data-export"),
    path("open-data/<str:name>", open_data.open_data_file, name="open-data-file"),
    path("schemas/match-record.json", exports.match_record_schema, name="match-record-schema"),
]

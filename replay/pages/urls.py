"""The archive's paths: replays, the archive and its CSV, players, downloads, the schema."""

from django.urls import path

from replay.pages import archive, exports, players, replay

urlpatterns = [
    path("matches/<str:match_id>/replay/", replay.match_replay, name="replay"),
    path("matches/<str:match_id>/record.json", exports.match_record, name="match-record"),
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
    path("archive/", archive.archive, name="archive"),
    path("archive/export.csv", archive.archive_csv, name="archive-csv"),
    path("players/<str:key>/", players.player_page, name="player"),
    path("schemas/match-record.json", exports.match_record_schema, name="match-record-schema"),
]

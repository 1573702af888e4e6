"""The API's paths, as the README lists them, with its schema and its documentation page."""

from django.urls import path, re_path, register_converter
from drf_spectacular.views import SpectacularJSONAPIView, SpectacularSwaggerSplitView

from matches.domain.notation import SLUG
from replay.api import competitions, confirmations, errors, ratings, stages, tables, views

app_name = "api"


class IdConverter:
    """A match's or competition's id: a slug. Any other text names nothing (a JSON 404)."""

    # The notation's slug, unanchored: Django anchors the whole path itself.
    regex = SLUG.pattern.removeprefix("^").removesuffix("\\Z").removesuffix("$")

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class NameConverter:
    """A name as people write it (a table's, a stage's, a slot's): any text but a slash, a
    NUL and a lone surrogate, which no database stores (PostgreSQL refuses a NUL in any
    text it is asked about): a JSON 404 before a query sees it."""

    regex = r"[^/\x00\ud800-\udfff]+"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class TokenPrefixConverter:
    """The first 8 characters of an API token's key."""

    regex = "[A-Za-z0-9_-]{8}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(IdConverter, "carambole_id")
register_converter(NameConverter, "carambole_name")
register_converter(TokenPrefixConverter, "token_prefix")

urlpatterns = [
    path("competitions/", views.CompetitionsView.as_view(), name="competitions"),
    path(
        "competitions/<carambole_id:id>/standings",
        competitions.StandingsView.as_view(),
        name="standings",
    ),
    path(
        "competitions/<carambole_id:id>/players",
        competitions.EntriesView.as_view(),
        name="entries",
    ),
    path("competitions/<carambole_id:id>/stages", stages.StagesView.as_view(), name="stages"),
    path(
        "competitions/<carambole_id:id>/stages/<carambole_name:stage>/draw",
        stages.DrawView.as_view(),
        name="stage-draw",
    ),
    path("competitions/<carambole_id:id>/ranking", stages.RankingView.as_view(), name="ranking"),
    path(
        "competitions/<carambole_id:id>/slots/<carambole_name:slot>/decision",
        stages.DecisionView.as_view(),
        name="decision",
    ),
    path(
        "competitions/<carambole_id:id>/players/<int:player>/withdrawal",
        stages.WithdrawalView.as_view(),
        name="withdrawal",
    ),
    path(
        "competitions/<carambole_id:id>/round-robin",
        competitions.RoundRobinView.as_view(),
        name="round-robin",
    ),
    path("competitions/<carambole_id:id>/tables", tables.TablesView.as_view(), name="tables"),
    path(
        "competitions/<carambole_id:id>/tables/<carambole_name:table>/call",
        tables.CallView.as_view(),
        name="table-call",
    ),
    path("matches/", views.MatchesView.as_view(), name="matches"),
    path("matches/<carambole_id:id>", views.MatchView.as_view(), name="match"),
    path("matches/<carambole_id:id>/state", views.StateView.as_view(), name="state"),
    path("matches/<carambole_id:id>/events", views.EventsView.as_view(), name="events"),
    path("matches/<carambole_id:id>/events/preview", views.PreviewView.as_view(), name="preview"),
    path("matches/<carambole_id:id>/judge", views.JudgeView.as_view(), name="judge"),
    path(
        "matches/<carambole_id:id>/confirmations",
        confirmations.ConfirmationsView.as_view(),
        name="confirmations",
    ),
    path("matches/<carambole_id:id>/export", views.ExportView.as_view(), name="export"),
    path("matches/<carambole_id:id>/referee", views.RefereeView.as_view(), name="referee"),
    path("ratings/", ratings.RatingsView.as_view(), name="ratings"),
    path("competitions/<carambole_id:id>/seeds", ratings.SeedsView.as_view(), name="seeds"),
    path("matches/<carambole_id:id>/table", tables.MatchTableView.as_view(), name="match-table"),
    path("me", views.MeView.as_view(), name="me"),
    path("tokens/", views.TokensView.as_view(), name="tokens"),
    path("tokens/<token_prefix:prefix>", views.TokenView.as_view(), name="token"),
    path("schema/", SpectacularJSONAPIView.as_view(), name="schema"),
    # Its script from the same view (?script), not inline: the Content-Security-Policy.
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api:schema"), name="docs"),
    # Last: any other path under /api/ is a JSON 404, never a page.
    re_path(r"^(?P<path>.*)$", errors.no_such_path, name="no-such-path"),
]

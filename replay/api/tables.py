"""A competition's tables and hall: read by anyone; set, and matches called to them, by staff."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from matches import services
from matches.models import TABLE_LENGTH
from replay.api import schema
from replay.api.competitions import COMPETITION_ID
from replay.api.permissions import IsStaff
from replay.api.serializers import Body, Text
from replay.api.views import checked, username
from replay.queries.hall import hall_get, table_of_match

TABLE = OpenApiParameter(
    "table",
    str,
    OpenApiParameter.PATH,
    description="the table's name",
    examples=[OpenApiExample("a table", value="3")],
)


class TablesBody(Body):
    """The competition's tables, in the hall's order: a table left out is removed."""

    tables = serializers.ListField(
        child=Text(max_length=TABLE_LENGTH),
        max_length=services.tables.MOST_TABLES,
        help_text=f"the tables' names, each at most {TABLE_LENGTH} characters",
    )


class CallBody(Body):
    """The waiting match to play next at the table."""

    match = Text(help_text="the id of a match of this competition that has not started")


class MatchTableBody(Body):
    """The table a match is played at (null: off any table)."""

    table = Text(allow_null=True, help_text="a table of the match's competition; null: none")


class PlayersAnswer(serializers.Serializer[dict[str, Any]]):
    id = serializers.CharField()
    players = serializers.DictField(child=serializers.CharField(), help_text='"A" and "B"')
    stage = serializers.CharField()
    place = serializers.DictField(
        allow_null=True,
        help_text='its round: {"group", "round"} in a group, {"round", "rounds"} in a '
        'knockout, {"third_place": true}, {"round"} in a round robin, or {"text"}, its '
        "stage as written",
    )


class MatchAtTable(PlayersAnswer):
    status = serializers.CharField(help_text="lag, playing, review, finished or void")
    winner = serializers.CharField(allow_null=True)
    games_won = serializers.DictField(child=serializers.IntegerField())
    game = serializers.IntegerField(allow_null=True, help_text="the game under way, or last")
    score = serializers.DictField(child=serializers.IntegerField(), help_text="that game's")
    due = serializers.CharField(allow_null=True, help_text='whose shot: "A", "B" or null')
    seq = serializers.IntegerField(help_text="the match's last event")
    active_at = serializers.DateTimeField(
        allow_null=True, help_text="its last event or its console's last heartbeat"
    )
    replacement = PlayersAnswer(
        allow_null=True, help_text="a void match's replacement, once made (else null)"
    )


class TableCard(serializers.Serializer[dict[str, Any]]):
    table = serializers.CharField()
    order = serializers.IntegerField()
    version = serializers.CharField(help_text="differs whenever anything on the card does")
    match = MatchAtTable(allow_null=True, help_text="the match at the table (or last played)")
    next = PlayersAnswer(allow_null=True, help_text="the match called next to the table")


class HallAnswer(serializers.Serializer[dict[str, Any]]):
    competition = serializers.CharField()
    name = serializers.CharField()
    version = serializers.IntegerField(
        help_text="the global id of the newest event of the competition and its matches"
    )
    now = serializers.DateTimeField(help_text="the server's clock")
    quiet_seconds = serializers.IntegerField(
        help_text="a table whose match has been quiet this long is flagged (HALL_QUIET_SECONDS)"
    )
    tables = TableCard(many=True)
    waiting = PlayersAnswer(many=True, help_text="matches not started and at no table")


class TablesView(APIView):
    def get_permissions(self) -> list[Any]:
        return [AllowAny()] if self.request.method in ("GET", "HEAD") else [IsStaff()]

    @extend_schema(
        operation_id="hall_read",
        summary="A competition's hall: each table with its match and the match called next",
        tags=["competitions"],
        parameters=[COMPETITION_ID],
        responses={200: HallAnswer, **schema.errors(401, 404)},
    )
    def get(self, request: Request, id: str) -> Response:
        return Response(hall_get(id))

    @extend_schema(
        operation_id="tables_set",
        summary="Set a competition's tables, in order (staff)",
        description="A table kept by name keeps its matches; one left out is removed, "
        "unless a match was ever assigned to it (422).",
        tags=["competitions"],
        parameters=[COMPETITION_ID],
        request=TablesBody,
        responses={200: HallAnswer, **schema.errors(400, 401, 403, 404, 413, 422)},
    )
    def post(self, request: Request, id: str) -> Response:
        body = checked(TablesBody, request.data)
        services.tables_set(competition_id=id, names=body["tables"], by=username(request))
        return Response(hall_get(id))


class CallView(APIView):
    permission_classes = [IsStaff]

    @extend_schema(
        operation_id="match_call",
        summary="Call a waiting match to a table: the next match played there (staff)",
        tags=["competitions"],
        description="A table whose called match has not started refuses another (409 naming "
        "`table`): of several calls at once, one calls its match.",
        parameters=[COMPETITION_ID, TABLE],
        request=CallBody,
        responses={201: TableCard, **schema.errors(400, 401, 403, 404, 409, 413, 422)},
    )
    def post(self, request: Request, id: str, table: str) -> Response:
        body = checked(CallBody, request.data)
        services.match_call(
            competition_id=id, table=table, match_id=body["match"], by=username(request)
        )
        card = table_of_match(hall_get(id), body["match"])
        return Response(card, status=status.HTTP_201_CREATED)


class MatchTableView(APIView):
    permission_classes = [IsStaff]

    @extend_schema(
        operation_id="match_table_assign",
        summary="Put a match at a table, or move it (staff)",
        description="Each change is kept with who made it and when, apart from the record: "
        "the record's table is the one at the match's first event. A match not started is "
        "called to the table: refused (409) where another is called already.",
        tags=["matches"],
        parameters=[schema.MATCH_ID],
        request=MatchTableBody,
        responses={
            200: schema.TableAssignment,
            **schema.errors(400, 401, 403, 404, 409, 413, 422),
        },
    )
    def put(self, request: Request, id: str) -> Response:
        body = checked(MatchTableBody, request.data)
        row = services.match_assign_table(match_id=id, table=body["table"], by=username(request))
        return Response(
            {
                "match": row.match_id,
                "table": None if row.table is None else row.table.name,
                "assigned_by": row.assigned_by,
                "assigned_at": row.assigned_at,
            }
        )

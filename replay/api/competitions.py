"""A competition's standings, entrants and round robin: the views and what they read and answer."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from matches import services
from matches.domain.notation import FEDERATION_ID_RULE, LONGEST
from replay.api import schema
from replay.api.permissions import IsStaff
from replay.api.serializers import Body, Text, Whole, slug_pattern
from replay.api.views import checked, username
from replay.queries.standings_reader import standings_get

COMPETITION_ID = OpenApiParameter(
    "id",
    str,
    OpenApiParameter.PATH,
    description="the competition's id",
    pattern=slug_pattern(),
    examples=[OpenApiExample("a competition", value="cup-2026")],
)

# -- Bodies -----------------------------------------------------------------------------


class EntryBody(Body):
    """A player to enter: identified by federation id when given, else by name."""

    name = Text(help_text=f"at most {LONGEST['name']} characters")
    federation_id = Text(required=False, help_text=FEDERATION_ID_RULE)
    seed = Whole(
        required=False,
        help_text="1 is the strongest: required and unique in a competition with stages; "
        "entering again with another seed changes it until the first draw",
    )


class RoundRobinBody(Body):
    """How to schedule the round robin of the competition's entrants."""

    first_date = Text(
        required=False, help_text="YYYY-MM-DD: round 1's day, one round a day after it"
    )
    referee = Text(
        required=False,
        help_text="the username of the login allowed to record every new match",
    )


# -- Answers (described only) -----------------------------------------------------------


class StandingsRow(serializers.Serializer[dict[str, Any]]):
    rank = serializers.IntegerField(help_text="1, 2, 3, ...: no shared ranks")
    player = serializers.CharField()
    player_id = serializers.CharField(allow_null=True, help_text="the federation id, if any")
    player_key = serializers.IntegerField(help_text="the player's stable id in this archive")
    played = serializers.IntegerField(help_text="counted matches")
    won = serializers.IntegerField()
    lost = serializers.IntegerField()
    match_points = serializers.IntegerField(help_text="2 for a win")
    games_won = serializers.IntegerField()
    games_lost = serializers.IntegerField()
    points_for = serializers.IntegerField()
    points_against = serializers.IntegerField()
    average = serializers.FloatField(help_text="own points per counted shot, 3 decimals")
    change = serializers.IntegerField(
        allow_null=True, help_text="places gained since the previous version (null: new)"
    )


class StandingsAnswer(serializers.Serializer[dict[str, Any]]):
    competition = serializers.CharField()
    version = serializers.IntegerField(
        help_text="the global id of the newest event that changed a counted result or the "
        "pending count (0 before any); it only grows"
    )
    computed_at = serializers.DateTimeField(allow_null=True)
    pending = serializers.IntegerField(help_text="started matches not counted: in play or review")
    rows = StandingsRow(many=True)


class EntryAnswer(serializers.Serializer[dict[str, Any]]):
    competition = serializers.CharField()
    player_key = serializers.IntegerField()
    name = serializers.CharField()
    federation_id = serializers.CharField(allow_null=True)
    seed = serializers.IntegerField(allow_null=True, help_text="null outside stages")


class RoundRobinAnswer(serializers.Serializer[dict[str, Any]]):
    matches = serializers.ListField(child=serializers.CharField(), help_text="the new matches")


# -- Views ------------------------------------------------------------------------------


class StandingsView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="standings_read",
        summary="A competition's standings, as the projector last computed them",
        tags=["competitions"],
        parameters=[COMPETITION_ID],
        responses={200: StandingsAnswer, **schema.errors(401, 404)},
    )
    def get(self, request: Request, id: str) -> Response:
        return Response(standings_get(id))


class EntriesView(APIView):
    permission_classes = [IsStaff]

    @extend_schema(
        operation_id="player_enter",
        summary="Enter a player in a competition (staff); entering again changes nothing",
        tags=["competitions"],
        parameters=[COMPETITION_ID],
        request=EntryBody,
        responses={201: EntryAnswer, **schema.errors(400, 401, 403, 404, 413, 422)},
    )
    def post(self, request: Request, id: str) -> Response:
        body = checked(EntryBody, request.data)
        seed = body.pop("seed", None)
        entry = services.player_enter(
            competition_id=id, player=body, seed=seed, by=username(request)
        )
        player = entry.player
        answer = {
            "competition": entry.competition_id,
            "player_key": player.pk,
            "name": player.name,
            "federation_id": player.federation_id or None,
            "seed": entry.seed,
        }
        return Response(answer, status=status.HTTP_201_CREATED)


class RoundRobinView(APIView):
    permission_classes = [IsStaff]

    @extend_schema(
        operation_id="round_robin_create",
        summary="Schedule a match between every two entrants not paired yet (staff)",
        tags=["competitions"],
        parameters=[COMPETITION_ID],
        request=RoundRobinBody,
        responses={201: RoundRobinAnswer, **schema.errors(400, 401, 403, 404, 413, 422)},
    )
    def post(self, request: Request, id: str) -> Response:
        body: dict[str, Any] = checked(RoundRobinBody, request.data)
        created = services.round_robin_create(competition_id=id, by=username(request), **body)
        return Response({"matches": [m.pk for m in created]}, status=status.HTTP_201_CREATED)

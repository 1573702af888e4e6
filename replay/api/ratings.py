"""The players' Glicko-2 ratings across competitions, as of a day, read by anyone."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from matches import services
from matches.domain.rating import START_DEVIATION, START_RATING, START_VOLATILITY, TAU
from replay.api import schema
from replay.api.competitions import COMPETITION_ID
from replay.api.permissions import IsStaff
from replay.api.serializers import Body
from replay.api.views import checked, username
from replay.queries.ratings import ratings_on, seeds_by_rating


class AsOfQuery(serializers.Serializer[dict[str, Any]]):
    as_of = serializers.DateField(
        required=False,
        help_text="the ratings at the end of this day, YYYY-MM-DD (default: today)",
    )


class RatingRow(serializers.Serializer[dict[str, Any]]):
    place = serializers.IntegerField()
    player = serializers.CharField()
    player_id = serializers.CharField(allow_null=True, help_text="the federation id")
    key = serializers.CharField(help_text="the player's page: /players/{key}/")
    rating = serializers.FloatField()
    deviation = serializers.FloatField(
        help_text="RD: about 95% of players' true strength lies within two of it"
    )
    volatility = serializers.FloatField()
    matches = serializers.IntegerField(help_text="the matches counted so far")
    last_played = serializers.DateField(help_text="the last day with a counted match")


class RatingsAnswer(serializers.Serializer[dict[str, Any]]):
    as_of = serializers.DateField()
    system = serializers.DictField(help_text="Glicko-2 and its parameters")
    ratings = RatingRow(many=True)


SYSTEM = {
    "name": "Glicko-2",
    "period": "one calendar day",
    "start": {"rating": START_RATING, "deviation": START_DEVIATION, "volatility": START_VOLATILITY},
    "tau": TAU,
}


class RatingsView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="ratings_read",
        summary="Every rated player's Glicko-2 rating at the end of a day",
        tags=["ratings"],
        parameters=[AsOfQuery],
        responses={200: RatingsAnswer, **schema.errors(400, 401)},
    )
    def get(self, request: Request) -> Response:
        query = checked(AsOfQuery, request.query_params.dict())
        day = query.get("as_of") or timezone.localdate()
        return Response({"as_of": day.isoformat(), "system": SYSTEM, "ratings": ratings_on(day)})


class SeedsBody(Body):
    order = serializers.ChoiceField(
        choices=["rating"], help_text="where the order comes from: the players' ratings"
    )
    as_of = serializers.DateField(
        required=False, help_text="the ratings at the end of this day (default: today)"
    )


class SeedsAnswer(serializers.Serializer[dict[str, Any]]):
    seeds = serializers.ListField(
        child=serializers.DictField(), help_text="each player's name, key and new seed, in order"
    )


class SeedsView(APIView):
    permission_classes = [IsStaff]

    @extend_schema(
        operation_id="players_seed",
        summary="Seed every player entered by the rating (staff), until the first draw",
        tags=["competitions"],
        parameters=[COMPETITION_ID],
        request=SeedsBody,
        responses={200: SeedsAnswer, **schema.errors(400, 401, 403, 404, 413, 422)},
    )
    def post(self, request: Request, id: str) -> Response:
        body = checked(SeedsBody, request.data)
        day = body.get("as_of") or timezone.localdate()
        seeded = services.players_seed(
            competition_id=id,
            players=seeds_by_rating(id, day),
            by=username(request),
            source={"source": "rating", "as_of": day.isoformat()},
        )
        return Response(
            {
                "seeds": [
                    {"player": entry.player.name, "key": entry.player_id, "seed": entry.seed}
                    for entry in seeded
                ]
            }
        )

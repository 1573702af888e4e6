"""A competition's stages: drawn and undone by staff, read (as of a version) by anyone."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from matches import services
from matches.models import USERNAME_LENGTH
from replay.api import schema
from replay.api.competitions import COMPETITION_ID, RoundRobinBody
from replay.api.permissions import IsStaff
from replay.api.serializers import Body, Digits, Text
from replay.api.throttles import AsOfRate
from replay.api.views import checked, username
from replay.queries.championships import ranking_get, stages_get

STAGE_ID = OpenApiParameter(
    "stage", str, OpenApiParameter.PATH, description="the stage's id, as the competition names it"
)
SLOT = OpenApiParameter(
    "slot", str, OpenApiParameter.PATH, description="the disputed slot: groups:B2, W:ko-1-3"
)
PLAYER_KEY = OpenApiParameter(
    "player", int, OpenApiParameter.PATH, description="the player's key in this archive"
)
LARGEST_ID = 2**63 - 1  # an event's global id is a 64-bit integer


class AtQuery(serializers.Serializer[dict[str, Any]]):
    at = Digits(
        min_value=0,
        max_value=LARGEST_ID,
        required=False,
        help_text="as it stood after every event with a global id up to this version "
        "(default: now)",
    )


class DrawBody(RoundRobinBody):
    """How to draw a stage: as a round robin is scheduled, its first day and its referee."""


class WithdrawalBody(Body):
    reason = Text(help_text="why the player is withdrawn: kept in the competition's log")


class DecisionBody(Body):
    keep = serializers.BooleanField(
        help_text="true: the match stands as played; false: it is void (its record stays, "
        "counted nowhere) and replaced by a match of the slot's holders as amended"
    )
    reason = Text(help_text="why: kept in the competition's log")
    referee = Text(
        required=False,
        allow_blank=False,
        max_length=USERNAME_LENGTH,
        error_messages={
            "blank": "must be a login's username, not empty",
            "max_length": f"must be at most {USERNAME_LENGTH} characters",
        },
        help_text="with a void only: the username of the login allowed to record the "
        "replacement (default: the voided match's); 422 naming `referee` if no login has it",
    )


# -- Answers (described only) -----------------------------------------------------------


class StageMatch(serializers.Serializer[dict[str, Any]]):
    slot = serializers.CharField(help_text="its place in the stage: A3, 1-2, 3rd")
    round = serializers.IntegerField()
    slots = serializers.ListField(
        child=serializers.CharField(),
        allow_null=True,
        help_text="the two slot names (ko:S5, groups:A1, W:ko-1-3, L:ko-2-1, BYE); null in a "
        "group, whose players are drawn",
    )
    players = serializers.ListField(
        child=serializers.CharField(allow_null=True),
        allow_null=True,
        help_text="the two players' names, null while a slot is unsettled",
    )
    match = serializers.CharField(allow_null=True, help_text="its id once created")
    status = serializers.CharField(
        help_text="bye, waiting (a slot unsettled), scheduled (no event yet), lag, playing, "
        "finished, review"
    )
    winner = serializers.CharField(allow_null=True)
    disputed = serializers.JSONField(
        allow_null=True,
        help_text="null, or the open dispute of a started match: its slot, who holds the place "
        "as played and as amended (null: undecided) and since which version",
    )
    disputes = serializers.ListField(
        child=serializers.DictField(), required=False, help_text="each side's open dispute"
    )


class Group(serializers.Serializer[dict[str, Any]]):
    name = serializers.CharField()
    settled = serializers.BooleanField(help_text="every match finished, none under review")
    entries = serializers.ListField(child=serializers.CharField())
    standings = serializers.ListField(
        child=serializers.DictField(), help_text="rows as the standings' (the API's), with seed"
    )
    matches = StageMatch(many=True)


class StageView(serializers.Serializer[dict[str, Any]]):
    id = serializers.CharField()
    kind = serializers.ChoiceField(choices=["groups", "knockout"])
    ruleset = serializers.DictField(help_text="the stage's own overrides")
    drawn = serializers.BooleanField()
    settled = serializers.BooleanField()
    groups = Group(many=True, required=False)
    rounds = serializers.ListField(child=StageMatch(many=True), required=False)


class ReadError(serializers.Serializer[dict[str, Any]]):
    part = serializers.ChoiceField(
        choices=["stages", "standings"], help_text="the read model that stopped"
    )
    event = serializers.IntegerField(
        help_text="the global id of the newest event of the competition its fold could not take"
    )
    at = serializers.CharField(allow_null=True, help_text="when that event was recorded")
    exception = serializers.CharField(help_text="what the fold raised: KeyError, …")
    message = serializers.CharField(allow_blank=True, help_text="what it said")


READ_ERROR = (
    "null, or why the answer stops at `version`: the competition's log holds what its fold "
    "cannot take; the answer is the last good state (nothing, as of an earlier version) "
    "until an event repairs it"
)


class StagesAnswer(serializers.Serializer[dict[str, Any]]):
    competition = serializers.CharField()
    version = serializers.IntegerField(
        help_text="the global id of the newest event that changed anything shown; it only grows"
    )
    stages = StageView(many=True)
    error = ReadError(allow_null=True, help_text=READ_ERROR)


class RankingRow(serializers.Serializer[dict[str, Any]]):
    place = serializers.IntegerField(help_text="shared by the losers of one knockout round")
    player = serializers.CharField()
    player_id = serializers.CharField(allow_null=True)
    seed = serializers.IntegerField()
    out_in = serializers.CharField(
        allow_null=True, help_text="{stage} or {stage}:{round}; null while still in, and the winner"
    )
    provisional = serializers.BooleanField()


class RankingAnswer(serializers.Serializer[dict[str, Any]]):
    competition = serializers.CharField()
    version = serializers.IntegerField()
    provisional = serializers.BooleanField()
    rows = RankingRow(many=True)
    error = ReadError(allow_null=True, help_text=READ_ERROR)


class DrawAnswer(serializers.Serializer[dict[str, Any]]):
    stage = StageView(allow_null=True, help_text="null when the stages cannot be read (`error`)")
    matches = serializers.ListField(child=serializers.CharField(), help_text="the new matches")
    error = ReadError(allow_null=True, help_text=READ_ERROR)


# -- Views ------------------------------------------------------------------------------


class StagesView(APIView):
    permission_classes = [AllowAny]
    throttle_classes = [AsOfRate]

    @extend_schema(
        operation_id="stages_read",
        summary="A competition's stages: groups with tables, rounds with slots",
        tags=["competitions"],
        parameters=[COMPETITION_ID, AtQuery],
        responses={200: StagesAnswer, **schema.errors(400, 401, 404, 422, 429, 503)},
    )
    def get(self, request: Request, id: str) -> Response:
        query = checked(AtQuery, request.query_params.dict())
        return Response(stages_get(id, query.get("at")))


class RankingView(APIView):
    permission_classes = [AllowAny]
    throttle_classes = [AsOfRate]

    @extend_schema(
        operation_id="ranking_read",
        summary="A competition's final ranking: every entry placed",
        tags=["competitions"],
        parameters=[COMPETITION_ID, AtQuery],
        responses={200: RankingAnswer, **schema.errors(400, 401, 404, 422, 429, 503)},
    )
    def get(self, request: Request, id: str) -> Response:
        query = checked(AtQuery, request.query_params.dict())
        return Response(ranking_get(id, query.get("at")))


class DrawView(APIView):
    permission_classes = [IsStaff]

    @extend_schema(
        operation_id="stage_draw",
        summary="Draw a stage (staff): its groups or bracket, and the matches it makes",
        tags=["competitions"],
        parameters=[COMPETITION_ID, STAGE_ID],
        request=DrawBody,
        responses={201: DrawAnswer, **schema.errors(400, 401, 403, 404, 409, 413, 422)},
    )
    def post(self, request: Request, id: str, stage: str) -> Response:
        body: dict[str, Any] = checked(DrawBody, request.data)
        created = services.stage_draw(
            competition_id=id, stage_id=stage, by=username(request), **body
        )
        read = stages_get(id)
        view = next((s for s in read["stages"] if s["id"] == stage), None)
        answer = {"stage": view, "matches": [match.pk for match in created], "error": read["error"]}
        return Response(answer, status=status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="stage_draw_undo",
        summary="Undo a stage's draw (staff) while none of its matches has an event",
        tags=["competitions"],
        parameters=[COMPETITION_ID, STAGE_ID],
        responses={204: None, **schema.errors(401, 403, 404, 409, 422)},
    )
    def delete(self, request: Request, id: str, stage: str) -> Response:
        services.stage_draw_undo(competition_id=id, stage_id=stage, by=username(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


class WithdrawalView(APIView):
    permission_classes = [IsStaff]

    @extend_schema(
        operation_id="player_withdraw",
        summary="Withdraw a player (staff): last in his group, never qualifying",
        tags=["competitions"],
        parameters=[COMPETITION_ID, PLAYER_KEY],
        request=WithdrawalBody,
        responses={201: None, **schema.errors(400, 401, 403, 404, 409, 413, 422)},
    )
    def post(self, request: Request, id: str, player: int) -> Response:
        body = checked(WithdrawalBody, request.data)
        entry = services.player_withdraw(
            competition_id=id, player_key_=player, reason=body["reason"], by=username(request)
        )
        answer = {"competition": id, "player_key": entry.player_id, "withdrawn": True}
        return Response(answer, status=status.HTTP_201_CREATED)


class DecisionAnswer(serializers.Serializer[dict[str, Any]]):
    slot = serializers.CharField()
    match = serializers.CharField(help_text="the disputed match")
    keep = serializers.BooleanField()
    reason = serializers.CharField()
    as_played = serializers.CharField(help_text="the key of who plays the match")
    as_amended = serializers.CharField(allow_null=True, help_text="null: undecided")
    replacement = serializers.CharField(required=False, help_text="voided: its replacement's id")
    referee = serializers.CharField(
        required=False,
        allow_null=True,
        help_text="voided: the username of the login allowed to record the replacement",
    )
    made = serializers.CharField(
        allow_null=True, help_text="the replacement, if made now (both holders settled)"
    )


class DecisionView(APIView):
    permission_classes = [IsStaff]

    @extend_schema(
        operation_id="dispute_decide",
        summary="Decide a slot's dispute (staff): keep the started match, or void it",
        description="A dispute is a started match whose slot is held, as amended, by another "
        "than its player. A decision answers it once, in the competition's log; a later "
        "amendment that gives another holder opens a new dispute.",
        tags=["competitions"],
        parameters=[COMPETITION_ID, SLOT],
        request=DecisionBody,
        responses={201: DecisionAnswer, **schema.errors(400, 401, 403, 404, 409, 413, 422)},
    )
    def post(self, request: Request, id: str, slot: str) -> Response:
        body = checked(DecisionBody, request.data)
        decided = services.dispute_decide(
            competition_id=id,
            slot=slot,
            keep=body["keep"],
            reason=body["reason"],
            by=username(request),
            referee=body.get("referee"),
        )
        return Response(decided, status=status.HTTP_201_CREATED)

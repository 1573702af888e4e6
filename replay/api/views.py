"""The API's views: each checks its input, calls one service or read, and answers."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from matches import services
from matches.records import record_export, record_header
from matches.selectors import competition_get, events_after, match_get, shot_preview
from replay.api import examples, schema
from replay.api.permissions import IsStaff, MayRecord
from replay.api.serializers import (
    CompetitionBody,
    EventBody,
    EventsQuery,
    JudgeBody,
    MatchBody,
    MatchesQuery,
    RefereeBody,
    StateQuery,
    TokensQuery,
)
from replay.api.throttles import PreviewRate
from replay.api.tokens import token_revoke, tokens_of
from replay.presentation.consequence_words import consequence_sentences
from replay.projections.states import match_state
from replay.queries.access import is_staff
from replay.queries.listing import matches_page
from replay.queries.previews import preview

IDEMPOTENCY_HEADER = "Idempotency-Key"


def checked(serializer_class: Any, data: Any) -> dict[str, Any]:
    """Return the data a serializer accepts, or raise its 400."""
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def username(request: Request) -> str:
    return request.user.get_username()


class CompetitionsView(APIView):
    permission_classes = [IsStaff]

    @extend_schema(
        operation_id="competition_create",
        summary="Create a competition (staff)",
        tags=["competitions"],
        request=CompetitionBody,
        examples=examples.COMPETITION_EXAMPLES,
        responses={201: schema.Created, **schema.errors(400, 401, 403, 413, 422)},
    )
    def post(self, request: Request) -> Response:
        competition = services.competition_create(**checked(CompetitionBody, request.data))
        return Response({"id": competition.id}, status=status.HTTP_201_CREATED)


class MatchesView(APIView):
    def get_permissions(self) -> list[Any]:
        return [AllowAny()] if self.request.method in ("GET", "HEAD") else [IsStaff()]

    @extend_schema(
        operation_id="matches_list",
        summary="Every match, newest first, a page at a time: by competition and status",
        description="Newest first, as the archive: by date, the latest first, a match "
        "without a date before every dated one, then by id descending. Read from the "
        "archive's summaries; a match with no event yet is listed as scheduled. An unknown "
        "competition is a 404 naming it; a page past the last is empty.",
        tags=["matches"],
        parameters=[MatchesQuery],
        responses={200: schema.Matches, **schema.errors(400, 401, 404)},
    )
    def get(self, request: Request) -> Response:
        query = checked(MatchesQuery, request.query_params.dict())
        if "competition" in query:
            competition_get(query["competition"], "competition")
        listed, more = matches_page(**query)
        next_page = None
        if more:
            following = {**query, "page": query["page"] + 1}
            next_page = request.build_absolute_uri(f"{request.path}?{urlencode(following)}")
        items = [
            entry.as_dict(request.build_absolute_uri(reverse("api:match", args=[entry.match.pk])))
            for entry in listed
        ]
        return Response({"matches": items, "next": next_page})

    @extend_schema(
        operation_id="match_create",
        summary="Create a match and assign the login that records it (staff)",
        tags=["matches"],
        request=MatchBody,
        examples=examples.MATCH_EXAMPLES,
        responses={201: schema.Created, **schema.errors(400, 401, 403, 404, 413, 422)},
    )
    def post(self, request: Request) -> Response:
        match = services.match_open(by=username(request), **checked(MatchBody, request.data))
        return Response({"id": match.id}, status=status.HTTP_201_CREATED)


class MatchView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="match_read",
        summary="A match: its header as a record writes it, and its state",
        tags=["matches"],
        parameters=[schema.MATCH_ID],
        responses={200: schema.MatchDetail, **schema.errors(401, 404, 422)},
    )
    def get(self, request: Request, id: str) -> Response:
        match = match_get(id)
        return Response({"match": record_header(match), "state": match_state(match)})


class StateView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="match_state",
        summary="A match's state after any event, amended or as seen live",
        tags=["matches"],
        parameters=[schema.MATCH_ID, StateQuery],
        responses={200: schema.MatchState, **schema.errors(400, 401, 404, 422)},
    )
    def get(self, request: Request, id: str) -> Response:
        query = checked(StateQuery, request.query_params.dict())
        return Response(match_state(match_get(id), query.get("upto"), query["view"]))


class EventsView(APIView):
    def get_permissions(self) -> list[Any]:
        return [AllowAny()] if self.request.method in ("GET", "HEAD") else [MayRecord()]

    @extend_schema(
        operation_id="events_read",
        summary="A match's events after a seq, each with seq, at, by and hash",
        tags=["events"],
        parameters=[schema.MATCH_ID, EventsQuery],
        responses={200: schema.Events, **schema.errors(400, 401, 404)},
    )
    def get(self, request: Request, id: str) -> Response:
        query = checked(EventsQuery, request.query_params.dict())
        return Response({"events": events_after(match_get(id), query["after"])})

    @extend_schema(
        operation_id="event_record",
        summary="Record an event after expected_seq (the assigned referee, or staff)",
        tags=["events"],
        parameters=[schema.MATCH_ID, schema.IDEMPOTENCY_KEY, schema.REPLAYED],
        request=EventBody,
        examples=examples.EVENT_EXAMPLES,
        responses={
            201: schema.Recorded,
            **schema.errors(400, 401, 403, 404, 409, 413, 422),
        },
    )
    def post(self, request: Request, id: str) -> Response:
        try:  # by the match's id: its referee's assignment is one row, the match is not read
            self.check_object_permissions(request, id)
        except PermissionDenied:
            match_get(id)  # a match that does not exist is a 404, not a 403
            raise
        body = checked(EventBody, request.data)
        recorded = services.event_record(
            match_id=id,
            by=username(request),
            idempotency_key=request.headers.get(IDEMPOTENCY_HEADER),
            staff=request.user.is_staff,
            **body,
        )
        headers = {"Idempotent-Replayed": "true"} if recorded.replayed else None
        return Response(
            {"seq": recorded.seq, "at": recorded.at, "state": recorded.state},
            status=status.HTTP_201_CREATED,
            headers=headers,
        )


class PreviewView(APIView):
    permission_classes = [AllowAny]
    throttle_classes = [PreviewRate]

    @extend_schema(
        operation_id="event_preview",
        summary="What an event would change, from its ruling to the final ranking; nothing "
        "is recorded",
        description="The same body as recording an event. Each of `ruling`, `match`, "
        "`groups`, `slots` and `ranking` is `{before, after}` where it changes, absent "
        "where it does not; `slots` also lists the matches whose players would move and the "
        "started matches that would be disputed; `said` says it in sentences, in the "
        "request's language. Anyone may preview; only who may record may record. "
        "Throttled per address (429 with Retry-After; 503 with Retry-After while the "
        "throttle's counts cannot be kept).",
        tags=["events"],
        parameters=[schema.MATCH_ID],
        request=EventBody,
        responses={
            200: schema.Consequences,
            **schema.errors(400, 401, 404, 409, 413, 422, 429, 503),
        },
    )
    def post(self, request: Request, id: str) -> Response:
        body = checked(EventBody, request.data)
        answer = preview(match_id=id, **body)
        return Response({**answer, "said": consequence_sentences(answer)})


class JudgeView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="shot_preview",
        summary="The ruling a shot would get, recording nothing (the console's preview)",
        description="As the player who is due, in the match as it stands; with `shot`, as "
        "that shot's player in that shot's context (the preview of an amendment).",
        tags=["events"],
        parameters=[schema.MATCH_ID],
        request=JudgeBody,
        examples=examples.JUDGE_EXAMPLES,
        responses={200: schema.Preview, **schema.errors(400, 401, 403, 404, 413, 422)},
    )
    def post(self, request: Request, id: str) -> Response:
        body = checked(JudgeBody, request.data)
        facts = {key: body[key] for key in JudgeBody.FACTS if key in body}
        return Response(shot_preview(match_get(id), facts, body.get("shot")))


class ExportView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="match_export",
        summary="A match's record: every event with seq, at, by and hash",
        tags=["matches"],
        parameters=[schema.MATCH_ID],
        responses={200: schema.Record, **schema.errors(401, 404, 422)},
    )
    def get(self, request: Request, id: str) -> Response:
        return Response(record_export(id))


class RefereeView(APIView):
    permission_classes = [IsStaff]

    @extend_schema(
        operation_id="referee_assign",
        summary="Assign or change the login that may record a match (staff)",
        description="The same action as `manage.py assign_referee`: each change is kept "
        "with who made it and when. The officiating referee of the record is not changed.",
        tags=["matches"],
        parameters=[schema.MATCH_ID],
        request=RefereeBody,
        examples=examples.REFEREE_EXAMPLES,
        responses={200: schema.Assignment, **schema.errors(400, 401, 403, 404, 413, 422)},
    )
    def put(self, request: Request, id: str) -> Response:
        body = checked(RefereeBody, request.data)
        assignment = services.referee_assign(
            match_id=id, username=body["username"], by=username(request)
        )
        return Response(
            {
                "match": assignment.match_id,
                "referee": assignment.user.get_username() if assignment.user else None,
                "assigned_by": assignment.assigned_by,
                "assigned_at": assignment.assigned_at,
            }
        )


def token_entry(token: Any) -> dict[str, Any]:
    return {
        "prefix": token.prefix,
        "user": token.user.get_username(),
        "created_at": token.created_at,
        "revoked_at": token.revoked_at,
        "revoked_by": token.revoked_by,
    }


class MeView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="me",
        summary="Who the credentials are of (a tablet checks its token before a match)",
        tags=["tokens"],
        responses={200: schema.Me, **schema.errors(401)},
    )
    def get(self, request: Request) -> Response:
        return Response({"username": username(request), "staff": is_staff(request.user)})


class TokensView(APIView):
    permission_classes = [IsStaff]

    @extend_schema(
        operation_id="tokens_list",
        summary="The API tokens not revoked, by their prefix (staff)",
        tags=["tokens"],
        parameters=[TokensQuery],
        responses={200: schema.Tokens, **schema.errors(400, 401, 403)},
    )
    def get(self, request: Request) -> Response:
        query = checked(TokensQuery, request.query_params.dict())
        return Response({"tokens": [token_entry(t) for t in tokens_of(query.get("user"))]})


class TokenView(APIView):
    permission_classes = [IsStaff]

    @extend_schema(
        operation_id="token_revoke",
        summary="Revoke an API token (staff); revoking it again changes nothing",
        tags=["tokens"],
        parameters=[schema.TOKEN_PREFIX],
        responses={200: schema.Token, **schema.errors(401, 403, 404)},
    )
    def delete(self, request: Request, prefix: str) -> Response:
        return Response(token_entry(token_revoke(prefix, by=username(request))))

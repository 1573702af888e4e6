"""Request bodies: JSON that carambole can keep, no larger than API_MAX_BODY_BYTES."""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from rest_framework.parsers import BaseParser

from matches.domain.notation import MAX_DEPTH, check_json
from replay.api.errors import BodyTooLarge, Malformed

DEFAULT_MAX_BODY_BYTES = 64 * 1024


def max_body_bytes() -> int:
    """Return the largest body the API reads (a recorded event takes a few hundred bytes)."""
    return int(getattr(settings, "API_MAX_BODY_BYTES", DEFAULT_MAX_BODY_BYTES))


class JSONParser(BaseParser):
    """JSON no larger than the limit, that the store can keep.

    A body that is not JSON (NaN and Infinity are not) is a 400; JSON that carambole
    never keeps (a NUL character, a lone surrogate, a number past 10^15, more than 32
    levels) is refused by the notation's own check, a 422 naming where.
    """

    media_type = "application/json"

    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        limit = max_body_bytes()
        request = (parser_context or {}).get("request")
        if request is not None and _declared_length(request.META) > limit:
            raise BodyTooLarge(limit)
        text = stream.read(limit + 1)
        if len(text) > limit:
            raise BodyTooLarge(limit)
        value = _json(text)
        check_json(value, None)
        return value


def _json(text: bytes) -> Any:
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as error:
        where = f"at line {error.lineno} column {error.colno}"
        raise Malformed(f"not JSON: {error.msg} {where}") from None
    except Malformed:  # NaN or Infinity
        raise
    except RecursionError:
        raise Malformed(f"not JSON: nested more than {MAX_DEPTH} levels") from None
    except ValueError as error:  # not UTF-8, or an integer past Python's digit limit
        raise Malformed(f"not JSON: {str(error)[:80]}") from None


def _refuse_constant(name: str) -> Any:
    raise Malformed(f"not JSON: {name} is no JSON number")


def _declared_length(meta: Any) -> int:
    try:
        return int(meta.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0

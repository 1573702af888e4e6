"""Answer JSON even to a client that asks for something else: never 406, never HTML."""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation


class JSONWhateverAccepted(DefaultContentNegotiation):
    """The renderer the client accepts, or else the view's first (JSON)."""

    def select_renderer(self, request: Any, renderers: Any, format_suffix: Any = None) -> Any:
        try:
            return super().select_renderer(request, renderers, format_suffix)
        except NotAcceptable:
            return renderers[0], renderers[0].media_type

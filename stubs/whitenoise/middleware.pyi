from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponseBase
from whitenoise.base import WhiteNoise

class WhiteNoiseMiddleware(WhiteNoise):
    def __init__(
        self,
        get_response: Callable[[HttpRequest], HttpResponseBase] | None = None,
        settings: Any = ...,
    ) -> None: ...
    def __call__(self, request: HttpRequest) -> HttpResponseBase: ...
    def add_files_from_finders(self) -> None: ...

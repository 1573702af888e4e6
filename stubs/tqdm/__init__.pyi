from collections.abc import Iterable, Iterator
from types import TracebackType
from typing import IO, Any, Generic, Self, TypeVar, overload

_T = TypeVar("_T")

class tqdm(Generic[_T]):
    @overload
    def __init__(
        self,
        iterable: Iterable[_T],
        desc: str | None = None,
        total: float | None = None,
        *,
        unit: str = "it",
        disable: bool | None = False,
        file: IO[str] | None = None,
        **kwargs: Any,
    ) -> None: ...
    @overload
    def __init__(
        self: tqdm[Any],
        iterable: None = None,
        desc: str | None = None,
        total: float | None = None,
        *,
        unit: str = "it",
        disable: bool | None = False,
        file: IO[str] | None = None,
        **kwargs: Any,
    ) -> None: ...
    def __iter__(self) -> Iterator[_T]: ...
    def update(self, n: float | None = 1) -> bool | None: ...
    def close(self) -> None: ...
    def __enter__(self) -> Self: ...
    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc_value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None: ...

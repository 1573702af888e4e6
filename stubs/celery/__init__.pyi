from collections.abc import Callable, Iterable, Mapping
from typing import Any, Generic, ParamSpec, TypeVar

from celery.result import AsyncResult

_P = ParamSpec("_P")
_R = TypeVar("_R")

class Task(Generic[_P, _R]):
    name: str | None  # None on the class; each task's own once it is bound
    def __call__(self, *args: _P.args, **kwargs: _P.kwargs) -> _R: ...
    def delay(self, *args: _P.args, **kwargs: _P.kwargs) -> AsyncResult: ...
    def apply_async(
        self,
        args: Iterable[Any] | None = None,
        kwargs: Mapping[str, Any] | None = None,
        **options: Any,
    ) -> AsyncResult: ...

class Celery:
    def __init__(self, main: str | None = None, **kwargs: Any) -> None: ...
    @property
    def conf(self) -> Any: ...  # the settings, read by name (task_always_eager, ...)
    def config_from_object(
        self, obj: object, silent: bool = False, force: bool = False, namespace: str | None = None
    ) -> None: ...
    def autodiscover_tasks(
        self,
        packages: Iterable[str] | Callable[[], Iterable[str]] | None = None,
        related_name: str = "tasks",
        force: bool = False,
    ) -> None: ...

# Used with options only, as `@shared_task(**options)`.
def shared_task(**options: Any) -> Callable[[Callable[_P, _R]], Task[_P, _R]]: ...

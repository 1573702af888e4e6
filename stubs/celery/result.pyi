from typing import Self

class AsyncResult:
    def __init__(
        self,
        id: str,
        backend: object | None = None,
        task_name: str | None = None,
        app: object | None = None,
        parent: Self | None = None,
    ) -> None: ...

from typing import Any

class _Signal:
    def connect(self, *args: Any, **kwargs: Any) -> Any: ...

worker_process_init: _Signal

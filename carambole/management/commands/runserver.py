"""runserver served by uvicorn, as production serves: HTTP and websockets in one process.

Django's own command parses the address and runs the autoreloader (a code change
restarts the server); only the server it starts differs. It refuses the development
key with debug off, in one line, before anything is served.
"""

import os
import sys
from typing import Any

import uvicorn
from django.core.management.base import CommandError
from django.core.management.commands.runserver import Command as DjangoRunserver
from django.db import connections
from django.utils import autoreload

from carambole import descriptors
from carambole.serving import INSECURE_KEY, insecure

# A request in flight when the server is told to stop gets this long to finish; a live
# socket is closed at once (its page reconnects and resumes from the store).
STOP_S = 5


class Command(DjangoRunserver):
    help = "Serve carambole with uvicorn, HTTP and websockets, for development."
    addr: str  # as Django's `handle` parses them from ADDR:PORT
    port: str

    def handle(self, *args: Any, **options: Any) -> str | None:
        if insecure():
            raise CommandError(INSECURE_KEY)
        return super().handle(*args, **options)

    def inner_run(self, *args: Any, **options: Any) -> None:
        # What failed before the autoreloader started this process fails here, said once.
        autoreload.raise_last_exception()
        if not options["skip_checks"]:
            self.check(display_num_errors=True)
        self.check_migrations()
        connections.close_all()  # the serving threads open their own
        from carambole.asgi import application

        try:
            uvicorn.run(
                application,
                host=self.addr,
                port=int(self.port),
                # As production runs it (the README's "Production").
                ws="websockets-sansio",
                ws_ping_interval=5,
                ws_ping_timeout=10,
                lifespan="off",
                timeout_graceful_shutdown=STOP_S,
                # A request past the connections its descriptors leave room for: a 503,
                # not a wait until the client gives up (carambole/descriptors.py).
                limit_concurrency=descriptors.room(),
            )
        except KeyboardInterrupt:
            # Ctrl-C, passed on by uvicorn once it has stopped: no traceback.
            sys.exit(0)
        except SystemExit:
            # uvicorn could not listen (it logged why). Its exit status, 3, would tell the
            # autoreloader to start it again, and under the autoreloader this is a thread,
            # which SystemExit would end alone: the process ends here, with 1.
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(1)

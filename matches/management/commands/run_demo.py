"""python manage.py run_demo: what `make run` does once migrated: load the demo, then serve it.

A development command. It refuses at once, before touching anything, when the address
is taken (another carambole serving there, most likely); it serves in this one process,
without the autoreloader, so that SIGTERM or Ctrl-C stops the server itself rather than
a parent that leaves its child holding the port.
"""

import errno
import socket
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser


def address_taken(host: str, port: int) -> bool:
    """Return whether a server could not listen on host:port now."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        # As a server binds: a port whose last connections are closing is free to it.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                return True
            raise CommandError(f"cannot listen on {host}:{port}: {error.strerror}") from None
    return False


class Command(BaseCommand):
    help = (
        "For development only (`make run`): load the demo (load_demo), then serve carambole "
        "with the development server on HOST:PORT; refuse at once if that port is taken."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default="127.0.0.1", help="address to serve on")
        parser.add_argument("--port", type=int, default=8000, help="port to serve on")
        parser.add_argument("--matches", type=int, help="load_demo's --matches")

    def handle(self, *args: Any, host: str, port: int, matches: int | None, **options: Any) -> None:
        if not 0 < port < 65536:
            raise CommandError(f"--port: {port} is not a port number (1 to 65535)")
        if address_taken(host, port):
            raise CommandError(
                f"port {port} on {host} is taken: is carambole already serving there? Stop "
                f"it, or serve on another port: make run PORT={port + 1}"
            )
        shown = f"[{host}]" if ":" in host else host
        demo = {"matches": matches} if matches is not None else {}
        call_command("load_demo", address=f"http://{shown}:{port}", stdout=self.stdout, **demo)
        call_command("runserver", f"{shown}:{port}", use_reloader=False)

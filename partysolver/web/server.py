"""Starting the web board: ``partysolver serve`` calls :func:`serve`."""

from __future__ import annotations

import contextlib
import ipaddress
import socket
import sys
import threading
import webbrowser
from types import FrameType
from typing import TextIO

LOOPBACK = ("localhost",)
STOP_SECONDS = 10
"""On Ctrl+C the running jobs are stopped at once (``WorkerPool.stop_soon``: each answers 503)
and the pool shuts down; a request still open after this long is cut (none should be)."""


def is_loopback(host: str) -> bool:
    """Whether only this machine can reach ``host`` (127.0.0.0/8, ::1, localhost)."""
    if host in LOOPBACK:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def warning(host: str) -> str | None:
    """What to tell the user before binding to ``host``: ``None`` for a loopback address."""
    if is_loopback(host):
        return None
    return (f"warning: serving on {host}: others on the network can reach this board and "
            "make this machine solve for them (use --host 127.0.0.1 to keep it local)")


def check_port(host: str, port: int) -> None:
    """Raise :class:`OSError` when ``host:port`` cannot be bound (taken, or not an address of
    this machine), before any worker starts."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind((host.strip("[]"), port))


def url(host: str, port: int) -> str:
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def serve(host: str = "127.0.0.1", port: int = 8000, open_browser: bool = False,
          workers: int | None = None, queue: int | None = None,
          out: TextIO = sys.stderr) -> None:
    """Run the board until interrupted."""
    import uvicorn

    from .app import create_app
    from .connections import uvicorn_settings

    if (said := warning(host)) is not None:
        print(said, file=out, flush=True)
    address = url(host, port)
    print("starting the solver workers (the first start after an install compiles the "
          "solvers: up to a minute or two)", file=out, flush=True)
    print(f"partysolver board on {address} (Ctrl+C stops it)", file=out, flush=True)
    if open_browser:
        threading.Timer(1.5, webbrowser.open, args=(address,)).start()
    app = create_app(workers, queue, host=host)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False,
                            timeout_graceful_shutdown=STOP_SECONDS, **uvicorn_settings())
    stop_jobs = app.state.board.pool.stop_soon

    class Server(uvicorn.Server):
        """uvicorn's server, which also stops the running jobs on Ctrl+C: uvicorn waits for
        every open request before the application shuts down, and a job would hold it
        until its time limit."""

        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            super().handle_exit(sig, frame)
            stop_jobs()

    with contextlib.suppress(KeyboardInterrupt):  # uvicorn raises the Ctrl+C again once
        Server(config).run()                      # it has shut down: the stop is clean
    print("partysolver board stopped", file=out, flush=True)

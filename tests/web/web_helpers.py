"""Helpers of the web tests: a position with hostile player names, and a real
``partysolver serve`` process on a free port."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from partysolver.web.guard import TOKEN_HEADER

EVIL = "<script>alert(1)</script>"
QUOTES = "Gr\"een' onload='alert(2)"


def evil_tea_party() -> str:
    """A legal Tea Party position whose players are named like an attack on the page: a
    script tag, and quotes that would end an attribute."""
    first, second = json.dumps(EVIL), json.dumps(QUOTES)
    return f"""game = "tea-party"
players = [{first}, {second}]
current = {first}
drawn = "king"

[bag]
fighter = 2
cleric = 1
ranger = 1

[cups.{first}]
fighter = 1
cleric = 1

[cups.{second}]
rogue = 1
queen = 1

[stomachs.{first}]
fighter = 6
cleric = 3
rogue = 2
wizard = 2
ranger = 1

[stomachs.{second}]
fighter = 5
cleric = 4
rogue = 2
wizard = 1
ranger = 1
bard = 1
"""


def local_client(app: Any) -> TestClient:
    """The ASGI test client of ``app`` as the board's own page talks to it: to 127.0.0.1 (the
    server answers only the names it listens on), with the page's token (a body of any
    content type is then taken, see ``web/guard.py``)."""
    return TestClient(app, base_url="http://127.0.0.1",
                      headers={TOKEN_HEADER: app.state.token})


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass(frozen=True)
class Server:
    url: str
    process: subprocess.Popen[bytes]
    log: Path

    def status(self) -> dict[str, object]:
        with urllib.request.urlopen(self.url + "api/status", timeout=5) as answer:
            data: dict[str, object] = json.loads(answer.read())
            return data


def start_server(tmp: Path, *extra: str) -> Server:
    """``partysolver serve`` on a free port, once it answers."""
    port = free_port()
    log = tmp / f"serve-{port}.log"
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    with log.open("wb") as out:
        process = subprocess.Popen([sys.executable, "-m", "partysolver", "serve", "--port",
                                    str(port), *extra], stdout=out, stderr=subprocess.STDOUT,
                                   env=env, start_new_session=True)
    server = Server(f"http://127.0.0.1:{port}/", process, log)
    deadline = time.monotonic() + 300  # a first start compiles the numba kernels
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"partysolver serve stopped: {log.read_text()}")
        try:
            if server.status()["idle"] == server.status()["workers"]:
                return server
        except OSError:
            pass
        time.sleep(0.2)
    stop_server(server)
    raise RuntimeError(f"partysolver serve did not answer within 300 s: {log.read_text()}")


def stop_server(server: Server) -> None:
    if server.process.poll() is None:
        server.process.send_signal(signal.SIGINT)
        try:
            server.process.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(server.process.pid, signal.SIGKILL)
            server.process.wait(5)


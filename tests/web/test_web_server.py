"""The server under load and misuse: a real ``partysolver serve`` (uvicorn) for what only a
real socket shows (a client that goes away), and the ASGI test client on small pools for the
limits (a full pool, a job past its time limit)."""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.request
from collections.abc import Callable
from typing import Any

from click.testing import CliRunner
from web_helpers import Server, local_client

from partysolver.console import cli
from partysolver.web import server as web_server
from partysolver.web.app import create_app

SLOW_PATH = "/api/meeple-party/verify"
SLOW = {"example": "default", "options": {"games": 500, "time_limit": 40}}
"""Meeple Party's verify playing 500 games from its example: minutes of work, cut by the time
limit (a request that surely outlasts the test's waits)."""


def wait_for(check: Callable[[], bool], seconds: float = 20.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.1)
    return False


def raw_post(server: Server, path: str, body: dict[str, Any]) -> socket.socket:
    """Send a POST and leave the connection open without reading the answer."""
    host, port = server.url.removeprefix("http://").strip("/").split(":")
    payload = json.dumps(body).encode()
    connection = socket.create_connection((host, int(port)))
    connection.sendall(f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: "
                       f"application/json\r\nContent-Length: {len(payload)}\r\n\r\n".encode()
                       + payload)
    return connection


def test_the_real_server_answers(server: Server) -> None:
    with urllib.request.urlopen(server.url, timeout=10) as page:
        assert b"Analysis boards" in page.read()
    request = urllib.request.Request(server.url + "api/pool-party-stars/hint",
                                     data=json.dumps({"example": "default"}).encode(),
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        assert json.loads(answer.read())["moves"]


def test_a_client_that_goes_away_cancels_its_job(server: Server) -> None:
    # The server is shared by the session: a job an earlier test left behind (a browser test's
    # hint still in its time limit) must end first, or its count would read as this one's.
    assert wait_for(lambda: server.status()["running"] == 0
                    and server.status()["waiting"] == 0, 60), "the server never went idle"
    before = server.status()
    connection = raw_post(server, SLOW_PATH, SLOW)
    assert wait_for(lambda: server.status()["started"] == before["started"] + 1  # type: ignore[operator]
                    and server.status()["running"] == 1), "the slow job never started"
    busy = [pid for pid in before["pids"]]  # type: ignore[union-attr]
    connection.close()  # the client goes away
    assert wait_for(lambda: server.status()["cancelled"] == before["cancelled"] + 1,  # type: ignore[operator]
                    10), "the job was not cancelled"
    after = server.status()
    assert after["running"] == 0
    # The worker that ran it was killed and replaced: one pid changed, the pool is whole.
    assert wait_for(lambda: server.status()["idle"] == 2, 20)
    assert set(server.status()["pids"]) != set(busy)  # type: ignore[arg-type]
    recent = server.status()["recent"][-1]  # type: ignore[index]
    assert recent["outcome"] == "cancelled" and recent["seconds"] < 10


def test_a_full_pool_answers_503_with_retry_after() -> None:
    with local_client(create_app(workers=1, queue=0, grace=1.0)) as client:
        slow = threading.Thread(target=client.post, args=(SLOW_PATH,),
                                kwargs={"json": SLOW | {"options": {"games": 500,
                                                                    "time_limit": 3}}})
        slow.start()
        assert wait_for(lambda: client.get("/api/status").json()["running"] == 1)
        answer = client.post("/api/tea-party/verify", json={"example": "default"})
        assert answer.status_code == 503
        assert int(answer.headers["retry-after"]) >= 1
        assert "busy" in answer.json()["error"]["message"]
        slow.join(30)
        # Free again: the same request is served.
        assert client.post("/api/tea-party/verify",
                           json={"example": "default"}).status_code == 200


def test_a_job_past_its_time_limit_is_stopped() -> None:
    with local_client(create_app(workers=1, queue=0, grace=0.5)) as client:
        pids = client.get("/api/status").json()["pids"]
        began = time.monotonic()
        # Playing 500 games from the position takes minutes and reads no time limit.
        answer = client.post("/api/meeple-party/verify", json={
            "example": "default", "options": {"games": 500, "time_limit": 1}})
        assert answer.status_code == 504
        assert time.monotonic() - began < 30
        assert "time limit (1 s)" in answer.json()["error"]["message"]
        status = client.get("/api/status").json()
        assert status["timed_out"] == 1
        assert wait_for(lambda: client.get("/api/status").json()["idle"] == 1)
        assert client.get("/api/status").json()["pids"] != pids
        assert client.post("/api/tea-party/verify",
                           json={"example": "default"}).status_code == 200


def test_other_hosts_get_a_warning() -> None:
    assert web_server.warning("127.0.0.1") is None
    assert web_server.warning("localhost") is None
    assert web_server.warning("::1") is None
    said = web_server.warning("0.0.0.0")
    assert said is not None and "others on the network can reach" in said


def test_serve_refuses_a_port_it_cannot_take_in_one_line() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(cli, ["serve", "--port", str(port)])
    assert result.exit_code == 2
    assert result.output.startswith("Error: bad input: --host/--port: cannot listen on")
    assert len(result.output.strip().splitlines()) == 1


def test_serve_prints_the_warning_before_it_listens(monkeypatch: Any) -> None:
    import io

    import uvicorn

    calls: list[Any] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: calls.append(
        self.config))
    out = io.StringIO()
    web_server.serve("0.0.0.0", 8123, out=out)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("warning: serving on 0.0.0.0: others on the network can reach")
    assert lines[1].startswith("starting the solver workers")
    assert lines[2] == "partysolver board on http://127.0.0.1:8123/ (Ctrl+C stops it)"
    [config] = calls
    assert (config.host, config.port, config.log_level, config.access_log) == \
        ("0.0.0.0", 8123, "warning", False)
    quiet = io.StringIO()
    web_server.serve("127.0.0.1", 8124, out=quiet)
    assert not quiet.getvalue().startswith("warning")

"""Ctrl+C on ``partysolver serve``: a terminal sends SIGINT to the whole process group (the
server, its forkserver and every worker); the server alone shuts the pool down, so nothing
prints a ``KeyboardInterrupt`` traceback and the exit is clean (issue 27, cause 10)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from test_web_server import SLOW, SLOW_PATH, raw_post, wait_for
from web_helpers import start_server


def group(pgid: int) -> list[str]:
    """The command lines of the processes of the group ``pgid`` (zombies aside)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if fields[0] != "Z" and int(fields[2]) == pgid:
            found.append(command)
    return found


def group_alive(pgid: int) -> bool:
    return bool(group(pgid))


def test_ctrl_c_stops_the_server_and_its_workers_without_a_traceback(tmp_path: Path) -> None:
    server = start_server(tmp_path, "--workers", "2")
    pgid = server.process.pid
    try:
        busy = raw_post(server, SLOW_PATH, SLOW)  # a job running when Ctrl+C comes
        assert wait_for(lambda: server.status()["running"] == 1)
        os.killpg(pgid, signal.SIGINT)  # what Ctrl+C in a terminal does
        code = server.process.wait(60)
        busy.settimeout(5)
        answer = busy.recv(65536)
        busy.close()
    finally:
        if server.process.poll() is None:
            os.killpg(pgid, signal.SIGKILL)
            server.process.wait(5)
    log = server.log.read_text()
    assert code == 0, log
    assert "Traceback" not in log and "KeyboardInterrupt" not in log, log
    assert log.rstrip().endswith("partysolver board stopped"), log
    # the job running was stopped at once and said so (it did not hold the stop for its 40 s)
    assert answer.startswith(b"HTTP/1.1 503") and b"the server is stopping" in answer, answer
    assert wait_for(lambda: not group_alive(pgid), 10), "a worker outlived the server"


def test_ctrl_c_while_the_workers_start_is_clean(tmp_path: Path) -> None:
    """Ctrl+C before the pool is up (the forkserver still imports the app layer) too."""
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        process = subprocess.Popen([sys.executable, "-m", "partysolver", "serve", "--port",
                                    "0", "--workers", "1"], stdout=out,
                                   stderr=subprocess.STDOUT, start_new_session=True,
                                   env=dict(os.environ, PYTHONUNBUFFERED="1"))
    try:
        # the forkserver is up and still imports the app layer (it warms every game up, for
        # seconds; the server ignores Ctrl+C for the milliseconds the forkserver takes to
        # start, see pool._start_forkserver)
        assert wait_for(lambda: any("forkserver" in c for c in group(process.pid)), 60)
        time.sleep(0.2)
        os.killpg(process.pid, signal.SIGINT)
        code = process.wait(120)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(5)
    text = log.read_text()
    assert code == 0 and "Traceback" not in text and "KeyboardInterrupt" not in text, text
    assert wait_for(lambda: not group_alive(process.pid), 10), "a worker outlived the server"

"""A real Dask cluster for the tests: ``dask scheduler`` and ``dask worker`` processes on
127.0.0.1 (ports chosen by the scheduler, found through its scheduler file), started with
timeouts and always stopped."""

from __future__ import annotations

import importlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

START_SECONDS = 120.0
"""Generous: a loaded two-core machine starts a Python process slowly."""


def dask_command() -> str:
    beside = Path(sys.executable).parent / "dask"
    found = str(beside) if beside.exists() else shutil.which("dask")
    if found is None:
        raise RuntimeError("the 'dask' command is missing: pip install 'partysolver[cluster]' "
                           "(make test does)")
    return found


class Cluster:
    """A scheduler and named workers (``--no-nanny``: a worker is one process, and killing it
    kills the worker), each a subprocess in its own session."""

    def __init__(self, folder: Path, workers: int = 2) -> None:
        self.folder = folder
        self.file = folder / "scheduler.json"
        self.processes: dict[str, subprocess.Popen[bytes]] = {}
        self.address = ""
        try:
            self._start("scheduler", ["scheduler", "--host", "127.0.0.1", "--port", "0",
                                      "--no-dashboard", "--idle-timeout", "900",
                                      "--scheduler-file", str(self.file)])
            self.address = self._wait_for_address()
            for number in range(workers):
                self.start_worker(f"w{number}")
            self.wait_for_workers(workers)
        except BaseException:
            self.stop()
            raise

    def _start(self, name: str, arguments: list[str]) -> None:
        log = (self.folder / f"{name}.log").open("wb")
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.processes[name] = subprocess.Popen([dask_command(), *arguments], stdout=log,
                                                stderr=subprocess.STDOUT, env=env,
                                                start_new_session=True)
        log.close()

    def start_worker(self, name: str) -> None:
        self._start(name, ["worker", "--scheduler-file", str(self.file), "--name", name,
                           "--nthreads", "1", "--no-nanny", "--no-dashboard",
                           "--host", "127.0.0.1", "--death-timeout", "60",
                           "--local-directory", str(self.folder / name)])

    def _wait_for_address(self) -> str:
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            self._check_alive()
            try:
                return str(json.loads(self.file.read_text())["address"])
            except (OSError, ValueError, KeyError):
                time.sleep(0.1)
        raise TimeoutError(f"the scheduler wrote no address within {START_SECONDS:g} s")

    def _check_alive(self) -> None:
        for name, process in self.processes.items():
            if process.poll() is not None:
                log = (self.folder / f"{name}.log").read_text(errors="replace")[-2000:]
                raise RuntimeError(f"dask {name} exited with {process.returncode}:\n{log}")

    def client(self) -> Any:
        from distributed import Client

        return Client(self.address, timeout=START_SECONDS, set_as_default=False)

    def wait_for_workers(self, count: int) -> None:
        """Wait until ``count`` workers have joined and imported partysolver (a first import
        takes seconds on a loaded machine: not inside a test's run)."""
        with self.client() as client:
            client.wait_for_workers(count, timeout=START_SECONDS)
            client.run(importlib.import_module, "partysolver.cli.main")
            client.run(importlib.import_module, "partysolver.solvers.tea_party.hint")

    def worker_addresses(self) -> dict[str, str]:
        """Each live worker's name and address."""
        with self.client() as client:
            workers = client.scheduler_info(n_workers=-1)["workers"]
        return {info["name"]: address for address, info in workers.items()}

    def kill(self, name: str) -> None:
        process = self.processes.pop(name)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)

    def stop(self) -> None:
        """Stop the workers, then the scheduler: a worker whose scheduler is gone first keeps
        trying to reach it and answers SIGTERM only after some 20 s."""
        order = sorted(self.processes, key=lambda name: name == "scheduler")
        for name in order:
            process = self.processes[name]
            if process.poll() is None:
                process.terminate()
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=15)
        self.processes.clear()

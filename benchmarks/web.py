"""Load benchmark of the web board: ``partysolver serve`` under concurrent clients.

Starts the server on a free loopback port, then

1. baseline: each kind of request once, called directly on the application layer in this
   process (no HTTP, no pool), and once through the idle server: what HTTP, JSON and the worker
   pool add to a request;
2. load: ``--requests`` requests (default 200) from ``--clients`` concurrent clients (default
   20), a mix of games and verbs (a client answered 503 waits as Retry-After says, at most
   2 s, before its next request); prints p50 and p95 latency, the count of each status (only 200
   and 503 are allowed: 503 is the pool saying it is full), and the memory (RSS) of the server
   and its workers before and after;
3. checks that the server still answers.

Usage: python benchmarks/web.py [--requests 200] [--clients 20] [--workers 2]
Traffic goes to 127.0.0.1 only; the run is bounded by its request count and a timeout each.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any

MIX: list[tuple[str, str, dict[str, Any]]] = [
    ("pool-party-stars", "hint", {"example": "default"}),
    ("pool-party-stars", "solve", {"example": "easy-01"}),
    ("tea-party", "verify", {"example": "default"}),
    ("tea-party", "solve", {"example": "default", "options": {"time_limit": 2}}),
    ("tea-party", "apply", {"example": "default", "moves": ["cup"]}),
    ("party-time", "hint", {"example": "default", "options": {"playouts": 0}}),
    ("party-time", "render", {"example": "default"}),
    ("meeple-land", "hint", {"example": "default"}),
    ("meeple-land", "verify", {"example": "park"}),
    ("meeple-party", "verify", {"example": "default"}),
    ("meeple-party", "render", {"example": "default"}),
    ("meeple-party", "apply", {"example": "before-the-draw", "moves": ["draw flirt"]}),
]
"""The requests, round robin: every game, the verbs hint, solve, verify, apply and render."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def post(url: str, body: dict[str, Any], timeout: float = 120) -> tuple[int, float, float]:
    """The status of a POST, its latency in seconds and its Retry-After (0 when none)."""
    data = json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"content-type":
                                                              "application/json"})
    began = time.perf_counter()
    retry = 0.0
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            answer.read()
            status = answer.status
    except urllib.error.HTTPError as error:
        error.read()
        status = error.code
        retry = float(error.headers.get("retry-after") or 0)
    return status, time.perf_counter() - began, retry


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return json.loads(answer.read())


def rss_mb(pids: list[int]) -> float:
    """The resident memory of the processes ``pids``, in MB (from /proc)."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status", encoding="ascii") as status:
                for line in status:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


def memory(base: str) -> tuple[float, float]:
    status = get_json(base + "api/status")
    return rss_mb([status["server_pid"]]), rss_mb(status["pids"])


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def start(workers: int) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "partysolver", "serve", "--port",
                                str(port), "--workers", str(workers)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    base = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + 300  # a first start compiles the numba kernels
    while time.monotonic() < deadline:
        try:
            status = get_json(base + "api/status")
            if status["idle"] == status["workers"]:
                return process, base
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit("the server did not start within 300 s")


def direct(game: str, verb: str, body: dict[str, Any]) -> float:
    """The same request on the application layer in this process: the baseline."""
    from partysolver.web import jobs

    began = time.perf_counter()
    args: dict[str, Any] = {"game": game, "document": {"example": body["example"]},
                            "options": jobs.options(game, verb if verb != "apply" else "solve",
                                                    body.get("options"))[0],
                            "moves": body.get("moves")}
    kind = {"hint": "verb", "solve": "verb", "verify": "verb"}.get(verb, verb)
    answer = jobs.run_job(kind, args | {"verb": verb})
    assert answer["status"] == 200, answer
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    process, base = start(args.workers)
    try:
        run(base, args.requests, args.clients, args.workers)
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)


def run(base: str, requests: int, clients: int, workers: int) -> None:
    print(f"partysolver serve on {base}: {workers} workers; {len(MIX)} kinds of request")
    print("\n1. baseline: each request alone, on the app layer directly vs through the idle "
          "server (both warm)")
    print(f"   {'request':<32} {'direct':>8} {'served':>8}")
    for game, verb, body in MIX:
        # Warm every worker: its first request of a game loads compiled code and caches.
        url = f"{base}api/{game}/{verb}"
        with ThreadPoolExecutor(max_workers=workers) as warmers:
            list(warmers.map(post, [url] * workers, [body] * workers))
        direct(game, verb, body)
        mine = direct(game, verb, body)
        status, served, _ = post(url, body)
        assert status == 200, (game, verb, status)
        print(f"   {game + ' ' + verb:<32} {mine * 1000:>6.0f}ms {served * 1000:>6.0f}ms")

    server_before, workers_before = memory(base)
    print(f"\n2. load: {requests} requests from {clients} concurrent clients (round robin over "
          "the mix; after a 503 a client waits Retry-After, at most 2 s)")
    jobs = [MIX[i % len(MIX)] for i in range(requests)]

    def client(mine: list[tuple[str, str, dict[str, Any]]]) -> list[tuple[int, float]]:
        """One client's requests, one after the other; after a 503 it waits as Retry-After
        says (at most 2 s) before its next request, as a polite client does."""
        found = []
        for game, verb, body in mine:
            status, seconds, retry = post(f"{base}api/{game}/{verb}", body)
            found.append((status, seconds))
            if status == 503:
                time.sleep(min(retry, 2.0))
        return found

    began = time.perf_counter()
    with ThreadPoolExecutor(max_workers=clients) as pool:
        shares = list(pool.map(client, [jobs[k::clients] for k in range(clients)]))
    results = [item for share in shares for item in share]
    wall = time.perf_counter() - began
    statuses = Counter(status for status, _ in results)
    served = [seconds for status, seconds in results if status == 200]
    refused = [seconds for status, seconds in results if status == 503]
    print(f"   wall time {wall:.1f} s; statuses: "
          + ", ".join(f"{code} x{count}" for code, count in sorted(statuses.items())))
    if served:
        print(f"   latency of the 200s: p50 {percentile(served, 0.5) * 1000:.0f} ms, "
              f"p95 {percentile(served, 0.95) * 1000:.0f} ms, max {max(served) * 1000:.0f} ms")
    if refused:
        print(f"   latency of the 503s: p50 {percentile(refused, 0.5) * 1000:.0f} ms "
              "(refused at once: the pool and its queue were full)")
    everything = [seconds for _, seconds in results]
    print(f"   latency of all: p50 {statistics.median(everything) * 1000:.0f} ms, "
          f"p95 {percentile(everything, 0.95) * 1000:.0f} ms")
    server_after, workers_after = memory(base)
    print(f"   memory (RSS): server {server_before:.0f} MB -> {server_after:.0f} MB; "
          f"{workers} workers {workers_before:.0f} MB -> {workers_after:.0f} MB")

    status = get_json(base + "api/status")
    code, _, _ = post(f"{base}api/tea-party/verify", {"example": "default"})
    print(f"\n3. afterwards: /api/status answers ({status['finished']} jobs finished, "
          f"{status['refused']} refused, {status['timed_out']} timed out, {status['died']} "
          f"died); a verify answers {code}")
    unexpected = {code: n for code, n in statuses.items() if code not in (200, 503)}
    if unexpected or code != 200:
        raise SystemExit(f"FAILED: statuses other than 200 and 503: {unexpected}")


if __name__ == "__main__":
    main()

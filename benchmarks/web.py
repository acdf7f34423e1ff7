"""Load benchmark of the web board: ``partysolver serve`` under concurrent clients and hostile
ones (issue 29).

Starts the server on a free loopback port, then

1. baseline: each kind of request once, called directly on the application layer in this
   process (no HTTP, no pool), and once through the idle server: what HTTP, JSON and the worker
   pool add to a request;
2. load: ``--requests`` requests (default 200) from ``--clients`` concurrent clients (default
   20), round robin over a mix of games and verbs, each with a time limit of 5 s: (a) the
   shipped examples as they are, honouring Retry-After (up to six tries); (b) the same, each
   request made unique by its file name so that the cache cannot answer it; (c) as (b) without
   retries: how fast a 503 comes, and its Retry-After against the real wait (as the server
   measured it: ``refusals`` in ``/api/status``); (d) as (c) from three times the clients.
   Status counts, p50 and p95 of the latency
   (first send to last answer), and the memory (RSS) of the server and its workers;
3. 1,000 repeated small requests from 10 clients (the cache);
4. slow clients: connections that never finish their headers (each must be closed within
   10 s) while another client is served;
5. hostile pages: a foreign Host, cross-site requests, simple POSTs without the token, a 2 MB
   body sent by urllib (must read its 413): every one a 4xx;
6. fuzzed bodies under odd content types: never a 500;
7. checks that the server still answers.

Usage: python benchmarks/web.py [--requests 200] [--clients 20] [--workers 2]
Traffic goes to 127.0.0.1 only; the run is bounded by its request count and a timeout each.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
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
    except OSError:  # no answer at all (reset, timed out): counted as status 0
        status = 0
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
    print(f"partysolver serve on {base}: {workers} workers; {len(MIX)} kinds of request, "
          f"each with a time limit of {TIME_LIMIT:g} s")
    print("\n1. baseline: each request alone, on the app layer directly vs through the idle "
          "server (both warm; the served one computed, not from the cache)")
    print(f"   {'request':<32} {'direct':>8} {'served':>8}")
    for n, (game, verb, body) in enumerate(MIX):
        # Warm every worker: its first request of a game loads compiled code and caches.
        url = f"{base}api/{game}/{verb}"
        with ThreadPoolExecutor(max_workers=workers) as warmers:
            list(warmers.map(post, [url] * workers,
                             [unique(body, f"warm-{n}-{k}") for k in range(workers)]))
        direct(game, verb, body)
        mine = direct(game, verb, body)
        status, served, _ = post(url, unique(body, f"base-{n}"))
        assert status == 200, (game, verb, status)
        print(f"   {game + ' ' + verb:<32} {mine * 1000:>6.0f}ms {served * 1000:>6.0f}ms")

    server_before, workers_before = memory(base)
    jobs = [MIX[i % len(MIX)] for i in range(requests)]
    print(f"\n2. load: {requests} requests from {clients} concurrent clients (round robin over "
          "the mix), honouring Retry-After (up to six tries)")
    print("   a. the shipped examples as they are (a table sharing the board: the cache "
          "answers the repeats)")
    load(base, jobs, clients, retries=6, tag=None)
    print("   b. each request made unique by its file name (none from the cache: the queue "
          "under load)")
    load(base, jobs, clients, retries=6, tag="a")
    print("   c. the same without retries (unique): a 503 comes at once, and its Retry-After "
          "against the real wait")
    without_retries(base, jobs, clients, "b")
    print(f"   d. overload: {3 * clients} clients without retries (unique; {3 * requests} "
          "requests, the mix of (b) three times)")
    without_retries(base, jobs * 3, 3 * clients, "c")
    server_after, workers_after = memory(base)
    print(f"   memory (RSS): server {server_before:.0f} MB -> {server_after:.0f} MB; "
          f"{workers} workers {workers_before:.0f} MB -> {workers_after:.0f} MB")

    repeated(base)
    slow_headers(base)
    hostile(base)
    fuzzed(base)

    status = get_json(base + "api/status")
    code, _, _ = post(f"{base}api/tea-party/verify", {"example": "default"})
    print(f"\n7. afterwards: /api/status answers ({status['finished']} jobs finished, "
          f"{status['refused']} refused, {status['timed_out']} timed out, {status['died']} "
          f"died; cache: {status['cache']['entries']} answers, {status['cache']['hits']} "
          f"hits, {status['cache']['twins']} twins); a verify answers {code}")
    if FAILURES or code != 200:
        raise SystemExit("FAILED: " + "; ".join(FAILURES + ([] if code == 200 else
                                                             [f"the last verify: {code}"])))


FAILURES: list[str] = []
"""What went against the rules of the run (a 500, a status no scenario allows)."""

TIME_LIMIT = 5.0
"""The time limit of every request of the mix (as in issue 29's runs)."""


def unique(body: dict[str, Any], tag: str | None) -> dict[str, Any]:
    """``body`` with the time limit, and a file name of its own when ``tag`` is given: the
    same position, which the cache does not know."""
    options = {"time_limit": TIME_LIMIT} | dict(body.get("options") or {})
    mine = dict(body, options=options)
    if tag is not None:
        mine["filename"] = f"{tag}.toml"
    return mine


def load(base: str, jobs: list[tuple[str, str, dict[str, Any]]], clients: int, retries: int,
         tag: str | None) -> list[tuple[int, float, int]]:
    """Send ``jobs`` from ``clients`` concurrent clients; a 503 is tried again after its
    Retry-After, up to ``retries`` tries in all.  Prints the statuses and latencies (first
    send to last answer); answers (status, seconds, tries) per request."""

    def client(k: int) -> list[tuple[int, float, int]]:
        found = []
        for n, (game, verb, body) in enumerate(jobs[k::clients]):
            mine = unique(body, None if tag is None else f"{tag}-{k}-{n}")
            began = time.perf_counter()
            for attempt in range(1, retries + 1):
                status, _, retry = post(f"{base}api/{game}/{verb}", mine)
                if status != 503 or attempt == retries:
                    break
                time.sleep(retry)
            found.append((status, time.perf_counter() - began, attempt))
        return found

    began = time.perf_counter()
    with ThreadPoolExecutor(max_workers=clients) as pool:
        shares = list(pool.map(client, range(clients)))
    results = [item for share in shares for item in share]
    wall = time.perf_counter() - began
    statuses = Counter(status for status, _, _ in results)
    everything = [seconds for _, seconds, _ in results]
    tries = Counter(attempts for _, _, attempts in results)
    print(f"      wall {wall:.1f} s; statuses: "
          + ", ".join(f"{code} x{count}" for code, count in sorted(statuses.items()))
          + f"; latency p50 {percentile(everything, 0.5) * 1000:.0f} ms, p95 "
          f"{percentile(everything, 0.95) * 1000:.0f} ms, max {max(everything) * 1000:.0f} ms"
          + ("; tries: " + ", ".join(f"{n} x{count}" for n, count in sorted(tries.items()))
             if retries > 1 else ""))
    allowed = {200, 503}
    if any(code not in allowed for code in statuses):
        FAILURES.append(f"load: statuses {dict(statuses)}")
    return results


def without_retries(base: str, jobs: list[tuple[str, str, dict[str, Any]]], clients: int,
                    tag: str) -> None:
    """The load without retries: how fast each 503 comes, and how its Retry-After (and the
    estimate behind it) compare with the real wait, as the server measured it."""
    since = time.monotonic()
    results = load(base, jobs, clients, retries=1, tag=tag)
    refused = [seconds for status, seconds, _ in results if status == 503]
    if not refused:
        print("      no 503: every request waited its turn within its time limit")
        return
    late = sum(1 for seconds in refused if seconds > 0.2)
    print(f"      503s answered in: p50 {percentile(refused, 0.5) * 1000:.0f} ms, p95 "
          f"{percentile(refused, 0.95) * 1000:.0f} ms, max {max(refused) * 1000:.0f} ms; "
          f"{late} of {len(refused)} later than 0.2 s")
    told = [item for item in get_json(base + "api/status")["refusals"] if item["at"] >= since]
    if not told:
        return
    for name, key in (("Retry-After", "retry_after"), ("the estimate", "expected")):
        ratios = [item[key] / max(item["waited"], 1e-3) for item in told]
        within = sum(1 for ratio in ratios if 0.5 <= ratio <= 2)
        print(f"      {name} / real wait ({len(told)} refusals whose wait was measured): p50 "
              f"{percentile(ratios, 0.5):.2f}, min {min(ratios):.2f}, max {max(ratios):.2f}; "
              f"{within} of {len(told)} within a factor of 2")
    waited = [item["waited"] for item in told]
    print(f"      the real waits: p50 {percentile(waited, 0.5):.2f} s, max {max(waited):.2f} s; "
          f"{sum(1 for w in waited if w < 0.5)} under 0.5 s (which no whole second is within "
          "a factor of 2 of)")


def repeated(base: str, count: int = 1000, clients: int = 10) -> None:
    """``count`` small requests sent fast, half a verify and half a hint of one position
    each: after the first of each, the cache answers."""
    print(f"\n3. {count} repeated requests from {clients} clients (tea-party verify and "
          "pool-party-stars hint of the default examples)")
    bodies = [("tea-party", "verify", {"example": "default"}),
              ("pool-party-stars", "hint", {"example": "default"})]
    before = get_json(base + "api/status")

    def client(k: int) -> list[tuple[int, float]]:
        found = []
        for n in range(count // clients):
            game, verb, body = bodies[(k + n) % 2]
            status, seconds, _ = post(f"{base}api/{game}/{verb}", body)
            found.append((status, seconds))
        return found

    with ThreadPoolExecutor(max_workers=clients) as pool:
        results = [item for share in pool.map(client, range(clients)) for item in share]
    after = get_json(base + "api/status")
    statuses = Counter(status for status, _ in results)
    seconds = [s for _, s in results]
    print("   statuses: " + ", ".join(f"{c} x{n}" for c, n in sorted(statuses.items()))
          + f"; p50 {percentile(seconds, 0.5) * 1000:.1f} ms, p95 "
          f"{percentile(seconds, 0.95) * 1000:.1f} ms; jobs run "
          f"{after['started'] - before['started']}, cache hits "
          f"{after['cache']['hits'] - before['cache']['hits']}, twins "
          f"{after['cache']['twins'] - before['cache']['twins']}")
    if set(statuses) != {200}:
        FAILURES.append(f"repeated: statuses {dict(statuses)}")


def slow_headers(base: str, connections: int = 20, others: int = 50) -> None:
    """``connections`` connections that send part of their headers and then nothing: each
    must be closed within 10 s, while another client's requests are answered."""
    print(f"\n4. slow clients: {connections} connections that never finish their headers, "
          f"while another client sends {others} requests")
    host, port = base.removeprefix("http://").strip("/").split(":")
    opened = time.perf_counter()
    slow = []
    for _ in range(connections):
        connection = socket.create_connection((host, int(port)))
        connection.sendall(b"GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        connection.settimeout(30)
        slow.append(connection)
    served = []
    for _ in range(others):
        status, seconds, _ = post(f"{base}api/tea-party/verify", {"example": "default"})
        served.append(seconds)
        if status != 200:
            FAILURES.append(f"slow clients: a request answered {status}")
    closed = []
    for connection in slow:
        try:
            data = connection.recv(1024)
            closed.append(time.perf_counter() - opened if data == b"" else float("inf"))
        except ConnectionResetError:
            closed.append(time.perf_counter() - opened)
        except TimeoutError:
            closed.append(float("inf"))
        connection.close()
    print(f"   the slow connections closed after {min(closed):.1f} to {max(closed):.1f} s; "
          f"the other client's requests: p50 {percentile(served, 0.5) * 1000:.0f} ms, max "
          f"{max(served) * 1000:.0f} ms")
    if max(closed) > 11:
        FAILURES.append(f"slow clients: a connection stayed open {max(closed):.1f} s")


def raw(base: str, method: str, path: str, body: bytes, headers: dict[str, str]) -> int:
    """The status of one request with exactly these headers."""
    import http.client

    host, port = base.removeprefix("http://").strip("/").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=60)
    try:
        connection.putrequest(method, path, skip_host="Host" in headers,
                              skip_accept_encoding=True)
        for key, value in headers.items():
            connection.putheader(key, value)
        connection.putheader("Content-Length", str(len(body)))
        connection.endheaders(body)
        answer = connection.getresponse()
        answer.read()
        return answer.status
    finally:
        connection.close()


def hostile(base: str) -> None:
    """A foreign Host, cross-site requests and a simple POST: each refused with a 4xx."""
    print("\n5. hostile pages")
    body = json.dumps({"example": "default"}).encode()
    verify = "/api/tea-party/verify"
    cases = [
        ("Host: evil.example", {"Host": "evil.example", "content-type": "application/json"}),
        ("Origin: http://evil.example", {"Origin": "http://evil.example",
                                         "content-type": "application/json"}),
        ("Sec-Fetch-Site: cross-site", {"Sec-Fetch-Site": "cross-site",
                                        "content-type": "application/json"}),
        ("text/plain from another site", {"Origin": "http://evil.example",
                                          "content-type": "text/plain"}),
        ("text/plain without the token", {"content-type": "text/plain"}),
        ("a form without the token", {"content-type": "application/x-www-form-urlencoded"}),
    ]
    for name, headers in cases:
        status = raw(base, "POST", verify, body, headers)
        print(f"   {name:<34} {status}")
        if not 400 <= status < 500:
            FAILURES.append(f"hostile: {name} answered {status}")
    big = urllib.request.Request(base + verify.lstrip("/"), data=b"x" * (2 << 20),
                                 headers={"content-type": "application/json"})
    try:
        urllib.request.urlopen(big, timeout=60)
        status = 200
    except urllib.error.HTTPError as error:
        status = error.code
    except OSError as error:
        status = 0
        print(f"   a 2 MB body: {error}")
    print(f"   {'a 2 MB body, sent by urllib':<34} {status}")
    if status != 413:
        FAILURES.append(f"hostile: a 2 MB body answered {status}")


def fuzzed(base: str, count: int = 300, seed: int = 29) -> None:
    """``count`` mutated bodies under odd content types: never a 500."""
    import random
    import re

    print(f"\n6. {count} fuzzed bodies (seed {seed}; half of them with the board's token)")
    rng = random.Random(seed)
    good = json.dumps({"example": "default", "options": {"time_limit": 1}})
    kinds = ["application/json", "application/toml", "application/json; charset=latin-1",
             "text/plain", "", "application/x-www-form-urlencoded", "image/png"]
    games = ["tea-party", "pool-party-stars", "party-time", "meeple-party", "meeple-land",
             "nope"]
    verbs = ["hint", "solve", "verify", "apply", "render", "check", "inspect", "nope"]
    with urllib.request.urlopen(base + "board/tea-party", timeout=30) as page:
        found = re.search(r'name="partysolver-token" content="([^"]+)"', page.read().decode())
    token = found.group(1) if found else ""
    statuses: Counter[int] = Counter()
    for _ in range(count):
        choice = rng.random()
        if choice < 0.3:
            text = list(good)
            for _ in range(rng.randint(1, 6)):
                text[rng.randrange(len(text))] = chr(rng.randrange(32, 127))
            body = "".join(text).encode()
        elif choice < 0.5:
            body = bytes(rng.randrange(256) for _ in range(rng.randint(0, 200)))
        elif choice < 0.7:
            body = ("[" * rng.randint(1, 200) + "]" * rng.randint(0, 200)).encode()
        else:
            body = json.dumps({"document": "game = \"tea-party\"\n" + "x" * rng.randint(0, 50),
                               "options": {"time_limit": rng.choice([0, -1, 1, "x", 1e9]),
                                           rng.choice(["top", "seed", "nope"]):
                                               rng.choice([1, -5, "a", None, [1]])},
                               "moves": rng.choice([None, ["cup"], "cup", [1]])}).encode()
        headers = {"content-type": rng.choice(kinds)}
        if rng.random() < 0.5:  # as the board's page: the body then reaches the reader
            headers["x-partysolver-token"] = token
        status = raw(base, "POST", f"/api/{rng.choice(games)}/{rng.choice(verbs)}", body,
                     headers)
        statuses[status] += 1
    print("   statuses: " + ", ".join(f"{c} x{n}" for c, n in sorted(statuses.items())))
    if any(code >= 500 and code not in (503, 504) for code in statuses):
        FAILURES.append(f"fuzzed: statuses {dict(statuses)}")


if __name__ == "__main__":
    main()

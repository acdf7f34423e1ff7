"""Work never done twice (issue 29, item 1) and a queue that tells the truth (item 2): answers
kept by what determines them, twins waiting for one job, and a wait that is told at once."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
import uuid
from typing import Any

from test_web_server import SLOW, SLOW_PATH, raw_post, wait_for
from web_helpers import Server, local_client

from partysolver.web.app import create_app
from partysolver.web.cache import AnswerCache, key_of
from partysolver.web.pool import WorkerPool

TEA = {"game": "tea-party", "verb": "verify", "document": {"example": "default"},
       "options": {"time_limit": 10.0}}


def post(server: Server, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(server.url + path.lstrip("/"),
                                     data=json.dumps(body).encode(),
                                     headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=120) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def stat(server: Server) -> Any:
    """``/api/status``, for reading its counts."""
    return server.status()


def idle(server: Server) -> None:
    assert wait_for(lambda: stat(server)["running"] == 0
                    and stat(server)["waiting"] == 0, 60), "the server never went idle"


# -- the keys and the cache itself ------------------------------------------------------------


def test_the_key_is_what_determines_the_answer() -> None:
    text = 'game = "tea-party"\nplayers = ["A", "B"]\n'
    as_text = TEA | {"document": {"text": text, "filename": "mine.toml"}}
    as_json = TEA | {"document": {"data": {"players": ["A", "B"], "game": "tea-party"},
                                  "filename": "mine.toml"}}
    assert key_of("verb", as_text) == key_of("verb", as_json)  # one document, two forms
    reordered = TEA | {"document": {"text": 'players = ["A", "B"]\ngame = "tea-party"\n',
                                    "filename": "mine.toml"}}
    assert key_of("verb", reordered) == key_of("verb", as_text)
    assert key_of("verb", as_text | {"document": {"text": text, "filename": "yours.toml"}}) \
        != key_of("verb", as_text)  # its messages name it
    assert key_of("verb", TEA | {"verb": "hint"}) != key_of("verb", TEA)
    assert key_of("verb", TEA | {"game": "party-time"}) != key_of("verb", TEA)
    assert key_of("verb", TEA | {"options": {"time_limit": 10.0, "top": 2}}) \
        != key_of("verb", TEA)
    # The time limit is no part of the key, unless the run is seeded.
    assert key_of("verb", TEA | {"options": {"time_limit": 3.0}}) == key_of("verb", TEA)
    seeded = TEA | {"options": {"time_limit": 3.0, "seed": 1}}
    assert key_of("verb", seeded) != key_of("verb", seeded | {"options": {"time_limit": 4.0,
                                                                          "seed": 1}})
    # A fresh random draw is never reused; a seeded one is.
    draw = {"game": "tea-party", "document": {"example": "default"}, "options": {},
            "moves": [], "random": True}
    assert key_of("apply", draw) is None
    assert key_of("apply", draw | {"seed": 7}) is not None
    assert key_of("apply", draw | {"moves": ["cup"]}) is None
    assert key_of("apply", draw | {"random": False}) != key_of("apply", draw | {
        "random": False, "moves": ["cup"]})


def test_an_estimate_is_reused_only_for_a_time_limit_no_longer() -> None:
    cache = AnswerCache()
    cache.put("k", {"moves": [1]}, limit=5.0, exact=False)
    assert cache.get("k", 5.0) == {"moves": [1]}
    assert cache.get("k", 2.0) == {"moves": [1]}
    assert cache.get("k", 8.0) is None
    # A shorter search does not replace a longer one; a longer one does.
    cache.put("k", {"moves": [2]}, limit=2.0, exact=False)
    assert cache.get("k", 5.0) == {"moves": [1]}
    cache.put("k", {"moves": [3]}, limit=9.0, exact=False)
    assert cache.get("k", 8.0) == {"moves": [3]}
    # An exact answer holds for any time limit.
    cache.put("e", {"status": "exact"}, limit=1.0, exact=True)
    assert cache.get("e", 60.0) == {"status": "exact"}
    assert cache.hits == 5 and cache.misses == 1


def test_the_cache_is_bounded_and_drops_the_least_recently_used() -> None:
    cache = AnswerCache(max_entries=3)
    for key in "abc":
        cache.put(key, {"key": key}, 10.0, True)
    assert cache.get("a", 1.0) is not None  # a is used again: b is now the oldest
    cache.put("d", {"key": "d"}, 10.0, True)
    assert len(cache) == 3
    assert cache.get("b", 1.0) is None
    assert all(cache.get(key, 1.0) is not None for key in "acd")
    small = AnswerCache(max_bytes=2000)
    for number in range(50):
        small.put(str(number), {"text": "x" * 100}, 10.0, True)
    assert small.bytes <= 2000 and 0 < len(small) < 50
    assert small.get("49", 1.0) is not None and small.get("0", 1.0) is None


# -- through a real server ----------------------------------------------------------------------


def test_a_repeated_request_is_answered_from_the_cache(server: Server) -> None:
    idle(server)
    label = f"cache-{uuid.uuid4().hex[:8]}.toml"  # a name no other test sends
    body = {"example": "default", "filename": label, "options": {"time_limit": 3,
                                                                  "playouts": 20}}
    path = "/api/party-time/hint"  # playouts: an estimate
    before = stat(server)
    status, first = post(server, path, body)
    assert status == 200 and first["status"] == "estimate"
    after_first = stat(server)
    assert after_first["started"] == before["started"] + 1
    # The same request, and one with a shorter time limit: the answer kept.
    assert post(server, path, body) == (200, first)
    assert post(server, path, body | {"options": {"time_limit": 2, "playouts": 20}}) \
        == (200, first)
    kept = stat(server)
    assert kept["started"] == after_first["started"]
    assert kept["cache"]["hits"] == after_first["cache"]["hits"] + 2
    # A longer time limit may find more: it is computed.
    status, longer = post(server, path, body | {"options": {"time_limit": 4, "playouts": 20}})
    assert status == 200
    assert stat(server)["started"] == kept["started"] + 1


def test_an_exact_answer_is_reused_for_any_time_limit(server: Server) -> None:
    idle(server)
    label = f"exact-{uuid.uuid4().hex[:8]}.toml"
    status, first = post(server, "/api/pool-party-stars/hint", {
        "example": "default", "filename": label, "options": {"time_limit": 2}})
    assert status == 200 and first["status"] == "exact"
    started = stat(server)["started"]
    assert post(server, "/api/pool-party-stars/hint", {
        "example": "default", "filename": label, "options": {"time_limit": 30}}) == (200, first)
    assert stat(server)["started"] == started


def test_a_twin_waits_for_the_job_and_keeps_it_when_the_first_client_goes(
        server: Server) -> None:
    idle(server)
    body = {"example": "default", "filename": f"twin-{uuid.uuid4().hex[:8]}.toml",
            "options": {"games": 500, "time_limit": 2}}
    before = stat(server)
    first = raw_post(server, SLOW_PATH, body)
    assert wait_for(lambda: stat(server)["running"] == 1), "the slow job never started"
    answers: list[tuple[int, dict[str, Any]]] = []
    twin = threading.Thread(target=lambda: answers.append(post(server, SLOW_PATH, body)))
    twin.start()
    assert wait_for(lambda: stat(server)["cache"]["twins"]
                    == before["cache"]["twins"] + 1), "the twin did not wait for the job"
    first.close()  # the first client goes away: its twin still waits for the job
    twin.join(60)
    status, error = answers[0]
    assert status == 504 and "time limit (2 s)" in error["error"]["message"]
    after = stat(server)
    assert after["started"] == before["started"] + 1
    assert after["cancelled"] == before["cancelled"]
    assert after["timed_out"] == before["timed_out"] + 1


def test_twins_that_all_go_away_cancel_the_job(server: Server) -> None:
    idle(server)
    body = SLOW | {"filename": f"gone-{uuid.uuid4().hex[:8]}.toml"}
    before = stat(server)
    first = raw_post(server, SLOW_PATH, body)
    assert wait_for(lambda: stat(server)["running"] == 1)
    second = raw_post(server, SLOW_PATH, body)
    assert wait_for(lambda: stat(server)["cache"]["twins"]
                    == before["cache"]["twins"] + 1)
    first.close()
    second.close()
    assert wait_for(lambda: stat(server)["cancelled"] == before["cancelled"] + 1,
                    20), "the job outlived its last client"
    assert stat(server)["started"] == before["started"] + 1


# -- the queue ----------------------------------------------------------------------------------


def test_the_expected_wait_adds_up_the_jobs_ahead() -> None:
    pool = WorkerPool(2)
    assert pool.expected_wait() == 0.0  # every worker idle
    now = time.monotonic()
    pool._running = {1: (now, 10.0, now + 60), 2: (now, 4.0, now + 60)}
    assert 3.5 < pool.expected_wait() <= 4.0  # the shorter job ends first
    pool._queued = [3.0, 3.0]  # at ~4 and ~7 s they take the workers; ~10 s the next turn
    assert 9.5 < pool.expected_wait() <= 10.0
    # A kind never measured is expected to take a second; a measured one, what it took.
    assert pool.expected("verb", {"game": "g", "verb": "hint"}, 10.0) == 1.0
    pool._seconds["verb g hint"] = 7.0
    assert pool.expected("verb", {"game": "g", "verb": "hint"}, 10.0) == 7.0
    assert pool.expected("verb", {"game": "g", "verb": "hint"}, 1.0) == 1.0 + pool.grace


def test_the_expected_wait_learns_how_far_off_the_waits_told_were() -> None:
    pool = WorkerPool(1)
    now = time.monotonic()
    pool._running = {1: (now, 4.0, now + 60)}
    before = pool.expected_wait()
    # A refusal told 1 s, two seconds ago, is settled when the job ahead of it ends: the real
    # wait was twice the wait told, and the waits told from now on are longer.
    pool._told = [(now - 2.0, 1, 1, 1.0)]
    pool._ended("verb", {"game": "g", "verb": "hint"}, "finished", 0.5, 10.0)
    [told] = pool.stats.refusals
    assert told["retry_after"] == 1 and told["expected"] == 1.0 and told["waited"] >= 2.0
    assert pool.status()["calibration"] > 1.0
    assert pool.expected_wait() > before
    assert pool._seconds == {"verb g hint": 0.5}  # and the job's duration is learnt


def test_a_wait_longer_than_the_time_limit_is_refused_at_once_else_it_waits() -> None:
    app = create_app(workers=1, queue=4, grace=1.0)
    with local_client(app) as client:
        slow = SLOW | {"options": {"games": 500, "time_limit": 3}}
        # The pool learns what this job takes (its time limit and grace: it is stopped).
        assert client.post(SLOW_PATH, json=slow).status_code == 504
        status = client.get("/api/status").json()
        assert status["timed_out"] == 1
        assert wait_for(lambda: client.get("/api/status").json()["idle"] == 1)
        answers: list[Any] = []
        running = threading.Thread(target=lambda: answers.append(
            client.post(SLOW_PATH, json=slow | {"filename": "again.toml"})))
        running.start()
        assert wait_for(lambda: client.get("/api/status").json()["running"] == 1)
        started = client.get("/api/status").json()["started"]
        # About 4 s to wait, with a time limit of 1 s: refused at once, told how long.
        refused = client.post("/api/tea-party/verify", json={
            "example": "default", "options": {"time_limit": 1}})
        assert refused.status_code == 503
        assert "longer than the request's time limit (1 s)" in \
            refused.json()["error"]["message"]
        assert 1 <= int(refused.headers["retry-after"]) <= 4
        # With a time limit the wait fits in, it waits its turn and is answered.
        served = client.post("/api/tea-party/verify", json={
            "example": "default", "options": {"time_limit": 20}})
        assert served.status_code == 200 and served.json()["valid"] is True
        running.join(30)
        assert answers[0].status_code == 504
        after = client.get("/api/status").json()
        assert after["started"] == started + 1  # the refused one never took a worker
        assert after["refused"] == 1
        [told] = after["refusals"]
        assert told["retry_after"] == int(refused.headers["retry-after"])
        assert told["waited"] > 0

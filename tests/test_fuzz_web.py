"""Fuzzed HTTP bodies (issue 27, item 2): whatever a client sends to the JSON API -- any JSON
value, a request object with odd documents, options, moves and fields, nesting thousands of
levels deep, integers of thousands of digits, NaN, bytes that are not UTF-8, any content type
or method -- the answer is a report (2xx) or an error as JSON with a one-line message (4xx,
or 503/504 for a busy pool or a job past its limit), never a 500.

The application runs in this process (Starlette's test client) on one real worker process;
``benchmarks/fuzz.py`` sends the same kinds of request to a real ``partysolver serve``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from test_fuzz_moves import HUGE, odd_words

from partysolver.web.app import create_app
from partysolver.web.guard import TOKEN_HEADER

GAMES = ["tea-party", "pool-party-stars", "party-time", "meeple-party", "meeple-land"]
VERBS = ["hint", "solve", "verify", "apply", "render", "check", "inspect"]
CONTENT_TYPES = ["application/json", "APPLICATION/JSON; charset=utf-8", "text/plain",
                 "application/toml", "", "application/x-www-form-urlencoded",
                 "multipart/form-data; boundary=x", "image/svg+xml"]
EXAMPLE = 'game = "tea-party"\nplayers = ["Blue", "Green"]\n'
lone = st.sampled_from(["\udcff", "\ud800x", "a\udfff"])
"""Lone surrogates: as JSON escapes (``\\udcff``) they parse, and come back in messages."""

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | odd_words
    | st.sampled_from([HUGE, "default", EXAMPLE]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["document", "example", "options", "moves", "random", "seed", "upto",
                         "answer", "filename", "game", "top", "time_limit", "zzz"]) | odd_words,
        inner, max_size=4), max_leaves=12)
requests = st.fixed_dictionaries({}, optional={
    "example": st.sampled_from(["default", "nope", "../x", "", "puzzles/01"]) | lone
    | json_values,
    "document": st.sampled_from([EXAMPLE, "", "{", "[", "game = "]) | json_values
    | lone.map(lambda text: {"game": "tea-party", "players": [text, "Green"]})
    | lone.map(lambda text: EXAMPLE.replace("Blue", text)),
    "options": st.fixed_dictionaries({"time_limit": st.just(0.5)}, optional={
        "top": st.sampled_from([0, -1, 1, 3, 10**30, 2**31, "²", 1.5, None]),
        "seed": st.sampled_from([-1, 0, 2**64, "x", 1.5, "²"]),
        "zzz": st.just(1)}) | json_values,
    "moves": st.lists(odd_words | lone | st.sampled_from(["cup", "random", HUGE]), max_size=3)
    | json_values,
    "random": json_values, "seed": json_values, "upto": json_values, "answer": json_values,
    "filename": odd_words | json_values})


def raw_json(data: Any, escaped: bool) -> bytes:
    """``data`` as JSON text: non-ASCII characters as escapes (a lone surrogate then is
    ``\\udcff``, which parses) or as UTF-8 (a lone surrogate then is bytes that are not)."""
    return json.dumps(data, ensure_ascii=escaped).encode("utf-8", "surrogatepass")


@st.composite
def near_valid(draw: st.DrawFn) -> dict[str, Any]:
    """A good request (the game's default example, a short time limit) with at most one
    field changed or added."""
    request: dict[str, Any] = {"example": "default", "options": {"time_limit": 0.5}}
    changed = draw(requests)
    if changed:
        key = draw(st.sampled_from(sorted(changed)))
        request[key] = changed[key]
    return request


@st.composite
def bodies(draw: st.DrawFn) -> bytes:
    kind = draw(st.sampled_from(["near", "near", "near", "request", "request", "value",
                                 "deep", "huge", "bytes", "text"]))
    if kind == "near":
        return raw_json(draw(near_valid()), draw(st.booleans()))
    if kind == "request":
        return raw_json(draw(requests), draw(st.booleans()))
    if kind == "value":
        return raw_json(draw(json_values), draw(st.booleans()))
    if kind == "deep":
        depth = draw(st.sampled_from([63, 64, 65, 990, 5000, 100_000]))
        opener, closer = draw(st.sampled_from([("[", "]"), ('{"a":', "}")]))
        inner = "[]" if opener == "[" else "{}"
        nested = opener * depth + inner + closer * depth
        where = draw(st.sampled_from(["top", "options", "document", "moves"]))
        return (nested if where == "top" else f'{{"{where}": {nested}}}').encode()
    if kind == "huge":
        number = draw(st.sampled_from([HUGE, "1" * 4301, "1e999", "-1e999", "NaN",
                                       "Infinity"]))
        where = draw(st.sampled_from(["seed", "upto", "options", "document", "moves"]))
        value = {"options": f'{{"top": {number}}}', "moves": f"[{number}]",
                 "document": f'{{"game": "tea-party", "players": {number}}}'}.get(where, number)
        return f'{{"example": "default", "{where}": {value}}}'.encode()
    if kind == "bytes":
        return draw(st.binary(max_size=64))
    return draw(st.text(max_size=200)).encode("utf-8", "surrogatepass")


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    app = create_app(workers=1, queue=4, grace=2.0)
    # As the board's page talks to it: to 127.0.0.1, with its token (web/guard.py), so that
    # every body reaches the reader.
    with TestClient(app, base_url="http://127.0.0.1",
                    headers={TOKEN_HEADER: app.state.token}) as test_client:
        yield test_client


def test_a_good_request_gets_its_report(client: TestClient) -> None:
    """(So that the properties below reach the verbs, not only the checks before them.)"""
    answer = client.post("/api/tea-party/hint", json={"example": "default",
                                                       "options": {"time_limit": 0.5}})
    assert answer.status_code == 200 and answer.json()["moves"], answer.text[:300]


def check(answer: Any) -> None:
    assert answer.status_code < 500 or answer.status_code in (503, 504), \
        (answer.status_code, answer.text[:300])
    if answer.status_code >= 400 and answer.request.method != "HEAD":
        data = answer.json()
        error = data["error"]
        message = error["message"] if isinstance(error, dict) else error
        assert isinstance(message, str) and message and "\n" not in message, data


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.sampled_from(GAMES), st.sampled_from(VERBS), bodies(),
       st.sampled_from(CONTENT_TYPES[:1] * 6 + CONTENT_TYPES))
def test_any_body_is_a_report_or_a_one_line_error(client: TestClient, game: str, verb: str,
                                                   body: bytes, kind: str) -> None:
    headers = {"content-type": kind} if kind else {}
    params = {"time_limit": "0.5"} | ({"playouts": "10"} if game == "party-time" else {})
    check(client.post(f"/api/{game}/{verb}", content=body, headers=headers, params=params))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["GET", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "POST"]),
       st.sampled_from(["/api/tea-party/hint", "/api/games", "/api/status", "/api/nope/hint",
                        "/api/tea-party/nope", "/api/tea-party/examples/nope",
                        "/api/tea-party/examples/../../etc/passwd", "/api/schemas/nope.json",
                        "/board/nope", "/" + "x" * 3000, "/api/tea-party/examples"]))
def test_any_method_on_any_path_is_answered_as_json(client: TestClient, method: str,
                                                     path: str) -> None:
    check(client.request(method, path, content=b"{}",
                         headers={"content-type": "application/json"}))

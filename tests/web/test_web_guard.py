"""Hostile pages and clients (issue 29, item 3) against a real ``partysolver serve``: a foreign
Host, a request from another origin, a cross-site simple POST, a body too large for a client
still sending, headers that never end, too many connections."""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import re
import socket
import urllib.error
import urllib.request
from typing import Any

import pytest
from web_helpers import Server

from partysolver.web import connections
from partysolver.web.app import Limits
from partysolver.web.guard import TOKEN_HEADER, Guard, allowed_hosts, host_name

JSON = {"content-type": "application/json"}
VERIFY = json.dumps({"example": "default"}).encode()


def address(server: Server) -> tuple[str, int]:
    host, port = server.url.removeprefix("http://").strip("/").split(":")
    return host, int(port)


def ask(server: Server, method: str, path: str, body: bytes | None = None,
        headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """One request with exactly these headers (``Host`` too, when given)."""
    host, port = address(server)
    connection = http.client.HTTPConnection(host, port, timeout=60)
    try:
        given = dict(headers or {})
        connection.putrequest(method, path, skip_host="Host" in given,
                              skip_accept_encoding=True)
        for key, value in given.items():
            connection.putheader(key, value)
        if body is not None:
            connection.putheader("Content-Length", str(len(body)))
        connection.endheaders(body)
        answer = connection.getresponse()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
    finally:
        connection.close()


def error_of(body: bytes) -> dict[str, Any]:
    data = json.loads(body)
    assert set(data) == {"status", "error"}
    error: dict[str, Any] = data["error"]
    assert "\n" not in error["message"]
    return error


def page_token(server: Server) -> str:
    with urllib.request.urlopen(server.url + "board/tea-party", timeout=30) as page:
        found = re.search(r'<meta name="partysolver-token" content="([^"]+)">',
                          page.read().decode())
    assert found is not None, "the board's page holds no token"
    return found.group(1)


def example_text(server: Server) -> bytes:
    with urllib.request.urlopen(server.url + "api/tea-party/examples/default",
                                timeout=30) as answer:
        return str(json.loads(answer.read())["text"]).encode()


# -- Host -------------------------------------------------------------------------------------


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.evil.example",
                                  "localhost.evil.example", "10.0.0.1"])
def test_a_foreign_host_is_refused_as_json(server: Server, host: str) -> None:
    status, headers, body = ask(server, "GET", "/api/status", headers={"Host": host})
    assert status == 421
    assert headers["content-type"] == "application/json"
    assert "answers only to" in error_of(body)["message"]
    status, _, body = ask(server, "POST", "/api/tea-party/verify", VERIFY,
                          headers={"Host": host} | JSON)
    assert status == 421


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "LOCALHOST.", "[::1]"])
def test_the_names_the_server_listens_on_are_answered(server: Server, host: str) -> None:
    port = address(server)[1]
    status, _, body = ask(server, "GET", "/api/status", headers={"Host": f"{host}:{port}"})
    assert status == 200 and "workers" in json.loads(body)


async def nothing(scope: Any, receive: Any, send: Any) -> None:
    """An application that is never called."""


def test_allowed_hosts_follow_the_host_served_on() -> None:
    assert allowed_hosts() == {"127.0.0.1", "localhost", "::1"}
    assert "192.168.1.20" in allowed_hosts("192.168.1.20")
    assert "::1" in allowed_hosts("[::1]")
    assert host_name("[::1]:8000") == "::1" and host_name("LocalHost:80") == "localhost"
    wildcard = Guard(nothing, allowed_hosts("0.0.0.0"), "t", lambda *a: None,
                     any_address=True)
    assert wildcard.host_ok("192.168.1.20") and not wildcard.host_ok("evil.example")
    local = Guard(nothing, allowed_hosts("127.0.0.1"), "t", lambda *a: None)
    assert not local.host_ok("192.168.1.20")


# -- Origin and content type ------------------------------------------------------------------


@pytest.mark.parametrize("headers", [
    {"Origin": "http://evil.example"},
    {"Origin": "null"},
    {"Origin": "http://localhost:1"},  # another port is another origin
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "same-site"},
])
def test_a_request_from_another_origin_is_refused(server: Server,
                                                  headers: dict[str, str]) -> None:
    status, _, body = ask(server, "POST", "/api/tea-party/verify", VERIFY, headers | JSON)
    assert status == 403
    assert "another" in error_of(body)["message"]
    status, _, _ = ask(server, "GET", "/api/status", headers=headers)
    assert status == 403


def test_a_request_of_the_boards_own_page_is_taken(server: Server) -> None:
    host, port = address(server)
    own = {"Origin": f"http://{host}:{port}", "Sec-Fetch-Site": "same-origin"}
    status, _, body = ask(server, "POST", "/api/tea-party/verify", VERIFY, own | JSON)
    assert status == 200 and json.loads(body)["valid"] is True
    # A link from another site still opens the board (a navigation is a GET of a page).
    status, _, _ = ask(server, "GET", "/board/tea-party", headers={"Sec-Fetch-Site":
                                                                     "cross-site"})
    assert status == 200


@pytest.mark.parametrize("kind", [None, "text/plain", "application/x-www-form-urlencoded",
                                  "multipart/form-data; boundary=x"])
def test_a_simple_post_needs_the_token(server: Server, kind: str | None) -> None:
    text = example_text(server)
    headers = {"content-type": kind} if kind else {}
    status, _, body = ask(server, "POST", "/api/tea-party/verify", text, headers)
    assert status == 415
    assert "application/json" in error_of(body)["message"]
    status, _, _ = ask(server, "POST", "/api/tea-party/verify", text,
                       headers | {TOKEN_HEADER: "not-the-token"})
    assert status == 415
    # With the page's token, the document as text is read.
    status, _, body = ask(server, "POST", "/api/tea-party/verify", text,
                          headers | {TOKEN_HEADER: page_token(server)})
    assert status == 200 and json.loads(body)["valid"] is True


def test_a_document_as_toml_needs_no_token(server: Server) -> None:
    text = example_text(server)
    status, _, body = ask(server, "POST", "/api/tea-party/verify", text,
                          {"content-type": "application/toml"})
    assert status == 200 and json.loads(body)["valid"] is True


# -- bodies, headers, connections ---------------------------------------------------------------


def test_a_413_reaches_a_client_still_sending(server: Server) -> None:
    request = urllib.request.Request(server.url + "api/tea-party/verify",
                                     data=b"x" * (2 << 20), headers=JSON)
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=60)
    assert refused.value.code == 413
    assert "over 1024 KB" in error_of(refused.value.read())["message"]


def test_headers_that_never_end_are_cut_while_others_are_served(server: Server) -> None:
    host, port = address(server)
    slow = socket.create_connection((host, port))
    try:
        slow.sendall(b"GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        # Another client is answered meanwhile.
        with urllib.request.urlopen(server.url + "api/status", timeout=30) as answer:
            assert answer.status == 200
        slow.settimeout(connections.HEADER_SECONDS * 3)
        with contextlib.suppress(ConnectionResetError):  # a reset closes it too
            assert slow.recv(1024) == b"", "the server answered headers that never ended"
    finally:
        slow.close()


def test_too_many_connections_get_503_and_are_closed(server: Server) -> None:
    host, port = address(server)
    held = []
    try:
        for _ in range(connections.MAX_CONNECTIONS + 8):
            held.append(socket.create_connection((host, port)))
        extra = held[-1]
        extra.settimeout(30)
        extra.sendall(b"GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        answer = extra.recv(65536)
        assert answer.startswith(b"HTTP/1.1 503"), answer[:200]
        assert b"connections open" in answer
    finally:
        for connection in held:
            connection.close()
    # Once they are gone, the server answers again.
    with urllib.request.urlopen(server.url + "api/status", timeout=30) as answer:
        assert answer.status == 200


def test_a_body_that_never_ends_gets_408() -> None:
    async def app(scope: Any, receive: Any, send: Any) -> None:
        while (await receive()).get("more_body"):
            pass
        raise AssertionError("the body never ended, and still it was read")

    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        if not sent_first:
            sent_first.append(True)
            return {"type": "http.request", "body": b"{", "more_body": True}
        await asyncio.sleep(3600)  # the client stops sending
        raise AssertionError

    async def send(message: Any) -> None:
        sent.append(message)

    sent_first: list[bool] = []
    scope = {"type": "http", "method": "POST", "path": "/api/tea-party/verify",
             "headers": [(b"content-type", b"application/json")]}
    asyncio.run(Limits(app, body_seconds=0.2)(scope, receive, send))
    assert sent[0]["status"] == 408
    assert (b"connection", b"close") in sent[0]["headers"]
    assert "did not arrive within 0.2 s" in error_of(sent[1]["body"])["message"]


# -- fuzzed bodies --------------------------------------------------------------------------------


@pytest.mark.parametrize("body", [
    b'{"example": "\\udcff", "options": {"time_limit": 0.5}}',
    b'{"document": {"game": "tea-party", "players": ["\\udcff", "Green"]}}',
])
def test_a_lone_surrogate_in_a_request_is_answered_not_a_500(server: Server,
                                                              body: bytes) -> None:
    # JSON may escape half of a UTF-16 pair; echoed in a message, it cannot be UTF-8 (found by
    # the fuzz properties: the answer was a 500).
    status, headers, answer = ask(server, "POST", "/api/tea-party/hint", body, JSON)
    assert status < 500 and headers["content-type"] == "application/json"
    assert "\\udcff" in answer.decode("ascii", "replace")

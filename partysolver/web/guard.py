"""Hostile pages and clients (issue 29): what the board's server refuses before any route runs.

A web page the user visits while ``partysolver serve`` runs can send requests to it: through
its own name rebound to 127.0.0.1 (DNS rebinding), or as a cross-site "simple" POST (a form or
``text/plain`` body, which a browser sends without asking).  :class:`Guard`, pure ASGI
middleware, refuses them:

- **Host**: only the names the server listens on (:func:`allowed_hosts`: 127.0.0.1,
  localhost, [::1] and what ``--host`` names) are answered; any other ``Host`` gets 421 (a
  rebound name is never one of them).
- **Origin**: an API request (``/api/...``) or any request that is not GET or HEAD from
  another origin gets 403: a browser says where a request comes from in ``Origin`` and
  ``Sec-Fetch-Site``, and only ``same-origin`` (or ``none``: the user typed the address) is
  taken.  A page from elsewhere may still link to the board (a navigation is a GET).
- **Content type**: a POST must be a JSON object (``Content-Type: application/json``), a
  document under a content type a browser cannot send across sites without asking first
  (``application/toml``, ...), or carry the server's token (:data:`TOKEN_HEADER`, which the
  board's pages hold): a form, ``text/plain`` or untyped body without it gets 415.

Every refusal is JSON of the one error shape (the caller gives :func:`refusal` its encoder).
"""

from __future__ import annotations

import ipaddress
import secrets
import socket
from collections.abc import Callable, Iterable
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
"""The names a server on this machine is always reached by."""

TOKEN_HEADER = "x-partysolver-token"
"""The header carrying the server's token (a page of the board holds it in
``<meta name="partysolver-token">``): it lets a body of any content type through."""

SIMPLE_TYPES = ("", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data")
"""The content types a browser sends across sites without a preflight (no type at all is one
too): a POST of these needs the token."""

SAFE_SITES = ("same-origin", "none")
"""The values of ``Sec-Fetch-Site`` taken for an API request."""


def new_token() -> str:
    return secrets.token_urlsafe(24)


def host_name(value: str) -> str:
    """The name part of a ``Host`` header (``[::1]:8000`` -> ``::1``), in lower case."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1:].partition("]")[0]
    if value.count(":") == 1:
        value = value.partition(":")[0]
    return value.rstrip(".")


def allowed_hosts(host: str | None = None) -> frozenset[str]:
    """The ``Host`` names answered when listening on ``host``: the loopback names, ``host``
    itself, and for a wildcard (``0.0.0.0``, ``::``) this machine's name (an address typed as
    digits is taken too: see :meth:`Guard.host_ok`)."""
    names = set(LOOPBACK_NAMES)
    if host:
        names.add(host.strip("[]").lower().rstrip("."))
        if is_wildcard(host):
            for name in (socket.gethostname(), socket.getfqdn()):
                if name:
                    names.add(name.lower().rstrip("."))
    return frozenset(names)


def is_wildcard(host: str) -> bool:
    try:
        return ipaddress.ip_address(host.strip("[]")).is_unspecified
    except ValueError:
        return False


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


Refusal = Callable[[int, str, dict[str, str] | None], Any]
"""Makes the ASGI response of a refusal: status, message, extra headers."""


class Guard:
    """Pure ASGI middleware: the Host, Origin and content-type checks (see the module)."""

    def __init__(self, app: ASGIApp, hosts: Iterable[str], token: str, refusal: Refusal,
                 any_address: bool = False) -> None:
        self.app = app
        self.hosts = frozenset(hosts)
        self.token = token
        self.refusal = refusal
        self.any_address = any_address

    def host_ok(self, name: str) -> bool:
        """Whether ``name`` (from ``Host``) is one the server listens on.  A server listening
        on every address (``--host 0.0.0.0``) also takes any address written as digits: no
        name was looked up, so none was rebound."""
        return name in self.hosts or (self.any_address and _is_address(name))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refused = self.check(scope)
        if refused is not None:
            status, message, headers = refused
            await self.refusal(status, message, headers)(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def check(self, scope: Scope) -> tuple[int, str, dict[str, str] | None] | None:
        """``None`` when the request may go on, else the status and message of its refusal."""
        headers: dict[bytes, bytes] = {}
        for key, value in scope.get("headers", []):
            headers.setdefault(key.lower(), value)
        host = headers.get(b"host", b"").decode("latin-1")
        if host and not self.host_ok(host_name(host)):
            return 421, (f"this server answers only to {', '.join(sorted(self.hosts))} "
                         f"(the request named the host {host[:100]!r})"), None
        method = scope.get("method", "GET")
        api = scope.get("path", "").startswith("/api/")
        if api or method not in ("GET", "HEAD"):
            site = headers.get(b"sec-fetch-site", b"").decode("latin-1").lower()
            if site and site not in SAFE_SITES:
                return 403, (f"a request from another site ({site}) is refused: the board "
                             "answers only its own pages"), None
            origin = headers.get(b"origin")
            if origin is not None:
                own = f"{scope.get('scheme', 'http')}://{host}".lower()
                if origin.decode("latin-1").lower().rstrip("/") != own:
                    return 403, (f"a request from another origin "
                                 f"({origin.decode('latin-1')[:100]!r}) is refused: the "
                                 "board answers only its own pages"), None
        if method == "POST":
            kind = headers.get(b"content-type", b"").decode("latin-1")
            kind = kind.split(";")[0].strip().lower()
            token = headers.get(TOKEN_HEADER.encode(), b"")
            if kind in SIMPLE_TYPES and not secrets.compare_digest(token, self.token.encode()):
                shown = kind or "none"
                return 415, (f"a body of content type {shown} needs the board's token: send "
                             "a JSON object (Content-Type: application/json) or the "
                             "document as application/toml"), None
        return None

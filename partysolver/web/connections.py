"""Slow and numerous clients (issue 29): uvicorn's HTTP/1.1 protocol with a deadline for a
request's headers and a bound on the open connections.

uvicorn closes a connection idle between two requests (``timeout_keep_alive``), but not one
that never completes its headers: a client sending them a byte at a time held its connection
for ever.  :class:`GuardedH11Protocol` gives every request :data:`HEADER_SECONDS` from the
moment the connection waits for it (its opening, or the end of the previous answer) to the end
of its headers, then closes the connection; and it answers a connection beyond
:data:`MAX_CONNECTIONS` with a 503 (JSON, ``Retry-After: 1``) and closes it at once.  A
request's body has its own deadline (``app.BODY_SECONDS``).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_SECONDS = 10.0
"""A request's headers must be complete within this many seconds, else the connection closes."""

KEEP_ALIVE_SECONDS = 5
"""A connection idle this long between two requests is closed (uvicorn's own timeout)."""

MAX_CONNECTIONS = 128
"""The most connections open at once; one more is answered 503 and closed."""


def _full_answer() -> bytes:
    body = json.dumps({"status": 503, "error": {
        "message": f"the server has {MAX_CONNECTIONS} connections open, the most it takes; "
                   "try again shortly", "source": None, "field": None, "expected": None}}
                      ).encode()
    return (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n"
            b"retry-after: 1\r\nconnection: close\r\ncontent-length: "
            + str(len(body)).encode() + b"\r\n\r\n" + body)


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, with the header deadline and the connection bound."""

    _header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > MAX_CONNECTIONS:
            transport.write(_full_answer())
            transport.close()
            return
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def handle_events(self) -> None:
        before = self.cycle
        super().handle_events()
        if self.cycle is not before:  # a request's headers are complete
            self._disarm()

    def on_response_complete(self) -> None:
        self._arm()  # the connection waits for the next request's headers
        super().on_response_complete()

    def _arm(self) -> None:
        self._disarm()
        if not self.transport.is_closing():
            self._header_timer = self.loop.call_later(HEADER_SECONDS, self._too_slow)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _too_slow(self) -> None:
        self._header_timer = None
        waiting = self.cycle is None or self.cycle.response_complete
        if waiting and not self.transport.is_closing():
            self.transport.close()


def uvicorn_settings() -> dict[str, Any]:
    """The options of ``uvicorn.Config`` that bound slow and numerous clients."""
    return {"http": GuardedH11Protocol, "timeout_keep_alive": KEEP_ALIVE_SECONDS}

"""The web front end: a Starlette application serving the analysis board and the JSON API.

It parses HTTP input, hands the work to the bounded worker pool (:mod:`pool`, running
:mod:`jobs`, which call the application layer) and serves the report.  Nothing here solves
anything, and nothing here reads a path a request names: shipped positions are found by name,
uploads are content.

Limits (issue 17 §4): request bodies over :data:`MAX_BODY` get 413; each job has a time limit
(default 10 s, at most 60 s, enforced by killing the worker); a full pool answers 503 with
``Retry-After``; a client that goes away has its job killed.  Every body is read by one reader,
:func:`read_body`: a body that is not UTF-8, not JSON, nested deeper than :data:`MAX_DEPTH` or
holding an integer of more than :data:`MAX_DIGITS` digits gets 400, naming the limit.

Every answer other than 200 is JSON: ``{"status": N, "error": {"message": ..., "source": ...,
"field": ..., "expected": ..., "got": ..., "reason": ...}}``, the parts of the application
layer's :class:`~partysolver.models.errors.InputError` (``got`` and ``reason`` only when there
are some), the message being the one line the command line would print (options named as in
JSON).
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from importlib import resources
from typing import Any
from urllib.parse import parse_qsl

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..app import catalog
from ..app.contract import SCHEMA_VERBS, schema
from ..models.errors import MISSING, InputError
from ..models.registry import all_games
from . import guard, pages
from .cache import AnswerCache, is_exact
from .cache import key_of as cache_key
from .openapi import openapi
from .pool import GRACE, Busy, Cancelled, TimedOut, WorkerDied, WorkerPool, default_workers

MAX_BODY = 1024 * 1024
"""The largest request body accepted, in bytes (1 MB)."""

DRAIN_MAX = 16 * MAX_BODY
"""A body over :data:`MAX_BODY` but at most this long is read to its end (and thrown away)
before the 413, so that the client, still sending, reads it; a longer one is cut."""

BODY_SECONDS = 30.0
"""A request's body must arrive within this many seconds of its headers (else 408)."""

MAX_DEPTH = 64
"""The deepest nesting of arrays and objects a JSON request body may have."""

MAX_DIGITS = 100
"""The most digits an integer in a JSON request body may have."""

API_VERBS = ("hint", "solve", "verify", "apply", "render", "check", "inspect", "review")
"""What ``POST /api/{game}/{verb}`` serves: the five verbs of the contract, ``check`` (puzzle
mode: judge an answer), ``inspect`` (a document as data, with what it is) and ``review`` (a
record, or a position and moves, marked move by move, with skill against luck)."""

REPORT_VERBS = ("hint", "solve", "verify")

SECURITY_HEADERS = {
    "content-security-policy": ("default-src 'self'; script-src 'self'; style-src 'self'; "
                                "img-src 'self' data: blob:; object-src 'none'; "
                                "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"),
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
}
"""Sent with every answer: no script runs but our own files (an injected ``<script>`` or
``onload=`` would not run even if some text escaped its escaping)."""


class ApiError(Exception):
    """An answer other than 200: a one-line message, and the parts of the error (``source``,
    ``field``, ``expected``, ``got``, ``reason``) when it is bad input."""

    def __init__(self, status: int, message: str, field: str | None = None,
                 headers: dict[str, str] | None = None,
                 parts: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.parts = {"message": message, "source": None, "field": field,
                      "expected": None} | (parts or {})
        self.headers = headers or {}

    @classmethod
    def bad_input(cls, error: InputError, status: int = 400) -> ApiError:
        """``error`` of the application layer, as its parts (:meth:`InputError.as_json`)."""
        parts = error.as_json()
        return cls(status, parts["message"], parts["field"], parts=parts)


class Answer(JSONResponse):
    """A JSON answer that holds any string: a lone surrogate (``"\\udcff"`` in a request's
    JSON, echoed in a message or a name) is written as its escape, not refused by UTF-8."""

    def render(self, content: Any) -> bytes:
        try:
            return super().render(content)
        except UnicodeEncodeError:
            return json.dumps(content, allow_nan=False, separators=(",", ":")).encode()


def error_response(error: ApiError) -> JSONResponse:
    body: dict[str, Any] = {"error": error.parts, "status": error.status}
    return Answer(body, status_code=error.status, headers=error.headers)


# -- middleware -------------------------------------------------------------------------------


class Limits:
    """Pure ASGI middleware: the security headers on every answer; 413 for a body over
    :data:`MAX_BODY` (by its Content-Length, or while it streams in), sent once the rest of
    the body is read and thrown away (up to :data:`DRAIN_MAX`), so that a client still
    sending reads the 413 instead of a broken pipe, and then the connection closes; 408 for a
    body not complete within ``body_seconds`` (:data:`BODY_SECONDS`)."""

    def __init__(self, app: ASGIApp, max_body: int = MAX_BODY,
                 body_seconds: float = BODY_SECONDS) -> None:
        self.app = app
        self.max_body = max_body
        self.body_seconds = body_seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = list(message.get("headers", []))
                present = {k.lower() for k, _ in headers}
                for key, value in SECURITY_HEADERS.items():
                    if key.encode() not in present:
                        headers.append((key.encode(), value.encode()))
                message = dict(message, headers=headers)
            await send(message)

        deadline = asyncio.get_running_loop().time() + self.body_seconds
        length = dict(scope.get("headers", [])).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            if length.isdigit() and int(length) <= DRAIN_MAX:
                await _drain(receive, deadline)
            await self._too_large(send_with_headers)
            return
        received = 0
        body_done = False

        async def guarded_receive() -> Message:
            nonlocal received, body_done
            if body_done:  # the body is in: what follows is the client going away
                return await receive()
            message = await _before(receive, deadline)
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                body_done = not message.get("more_body", False)
                if received > self.max_body:
                    raise _TooLarge
            else:
                body_done = True
            return message

        try:
            await self.app(scope, guarded_receive, send_with_headers)
        except _TooLarge:
            if not started:
                if not body_done:
                    await _drain(receive, deadline, DRAIN_MAX - received)
                await self._too_large(send_with_headers)
        except _SlowBody:
            if not started:
                await error_response(ApiError(408, f"bad input: the request body did not "
                                              f"arrive within {self.body_seconds:g} s", headers={
                                                  "connection": "close"}))(
                    {"type": "http"}, _no_receive, send_with_headers)

    async def _too_large(self, send: Send) -> None:
        response = error_response(ApiError(413, f"bad input: the request body is over "
                                           f"{self.max_body // 1024} KB (the most accepted)",
                                           headers={"connection": "close"}))
        await response({"type": "http"}, _no_receive, send)


class _TooLarge(Exception):
    pass


class _SlowBody(Exception):
    pass


async def _before(receive: Receive, deadline: float) -> Message:
    """The next message of ``receive``, or :class:`_SlowBody` past ``deadline``."""
    left = deadline - asyncio.get_running_loop().time()
    try:
        return await asyncio.wait_for(receive(), max(left, 0.001))
    except TimeoutError:
        raise _SlowBody from None


async def _drain(receive: Receive, deadline: float, most: int = DRAIN_MAX) -> None:
    """Read and throw away the rest of a body (at most ``most`` bytes, until ``deadline``)."""
    read = 0
    while read <= most:
        try:
            message = await _before(receive, deadline)
        except _SlowBody:
            return
        if message["type"] != "http.request":
            return
        read += len(message.get("body", b""))
        if not message.get("more_body", False):
            return


async def _no_receive() -> Message:
    return {"type": "http.disconnect"}


# -- reading a request ------------------------------------------------------------------------


def _refused(field: str, expected: str, got: Any = MISSING, reason: str | None = None
             ) -> ApiError:
    """Bad input in the request's ``field`` (not in a document: the request itself)."""
    return ApiError.bad_input(InputError(None, field, expected, got, reason=reason))


class _TooBig(ValueError):
    """A JSON integer of more than :data:`MAX_DIGITS` digits."""


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _TooBig(text)
    return int(text)


def _constant(name: str) -> Any:
    raise ValueError(name)  # NaN, Infinity: not JSON


def _deeper_than(value: Any, limit: int) -> bool:
    """Whether ``value`` nests arrays and objects more than ``limit`` deep (no recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item \
            if isinstance(item, list) else ()
        for child in children:
            if isinstance(child, dict | list):
                if depth + 1 > limit:
                    return True
                stack.append((child, depth + 1))
    return False


def read_body(raw: bytes, kind: str) -> Any:
    """The body of a request: a JSON value when ``kind`` (the content type) is
    ``application/json`` (``{}`` when empty), else the text.  Every bad body is an
    :class:`ApiError` of 400 that names what was expected (and the limit it passes): text that
    is not UTF-8, JSON that does not parse, nests deeper than :data:`MAX_DEPTH`, or holds an
    integer of more than :data:`MAX_DIGITS` digits."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise _refused("request", "a body of UTF-8 text", reason=(
            f"the body is not UTF-8 text (at byte {error.start})")) from None
    if kind != "application/json":
        return text
    if not text.strip():
        return {}
    nested = f"JSON nested at most {MAX_DEPTH} deep (the limit of a request)"
    try:
        body = json.loads(text, parse_int=_integer, parse_constant=_constant)
    except json.JSONDecodeError as error:
        raise _refused("request", "a JSON object", reason=(
            f"expected a JSON object (line {error.lineno} column {error.colno}: "
            f"{error.msg})")) from None
    except _TooBig as error:
        raise _refused("request", f"integers of at most {MAX_DIGITS} digits (the limit of "
                       "a request)", reason=(
            f"an integer of {len(str(error).lstrip('-'))} digits, more than the "
            f"{MAX_DIGITS} a request may hold")) from None
    except RecursionError:
        raise _refused("request", nested, reason=(
            f"JSON nested more than {MAX_DEPTH} deep, the most a request may be")) from None
    except ValueError as error:
        raise _refused("request", "a JSON object", reason=(
            f"expected a JSON object ({error} is not JSON)")) from None
    if _deeper_than(body, MAX_DEPTH):
        raise _refused("request", nested, reason=(
            f"JSON nested more than {MAX_DEPTH} deep, the most a request may be"))
    return body


async def read_request(request: Request) -> dict[str, Any]:
    """The request's fields: a JSON object (``document``, ``options``, ``moves``, ...; or the
    document itself when it names its ``game``) or a document as TOML/JSON text; the query's
    parameters are options by name (the body's ``options`` win)."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    body = read_body(await request.body(), kind)
    query = dict(parse_qsl(request.url.query, keep_blank_values=True))
    query.pop("format", None)
    fields: dict[str, Any]
    if kind == "application/json":
        if not isinstance(body, dict):
            raise _refused("request", "a JSON object")
        fields = {"document": body} if "game" in body and "document" not in body else body
    else:
        fields = {"document": body} if body.strip() else {}
    options = fields.get("options")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise _refused("options", "an object of options by name")
    fields["options"] = query | options
    return fields


def document_args(fields: dict[str, Any]) -> dict[str, Any]:
    """The document part of a request, for :func:`jobs.load`."""
    document = fields.get("document")
    example = fields.get("example")
    args: dict[str, Any] = {"filename": fields.get("filename")}
    if example is not None:
        args["example"] = example
        if document is not None:
            raise _refused("document", "a document or an example, not both",
                           reason="give a document or an example, not both")
    elif isinstance(document, str):
        args["text"] = document
    elif isinstance(document, dict):
        args["data"] = document
    elif document is None:
        raise _refused("document", "a document (TOML or JSON text, or a JSON object) or the "
                       "name of a shipped example")
    else:
        raise _refused("document", "TOML or JSON text, or a JSON object")
    return args


# -- the application --------------------------------------------------------------------------


class Board:
    """The application's state: the pool, its settings, and the answers kept
    (:mod:`cache`)."""

    def __init__(self, workers: int | None = None, queue: int | None = None,
                 grace: float = GRACE) -> None:
        self.pool = WorkerPool(workers or default_workers(), queue, grace=grace)
        self.cache = AnswerCache()
        self._twins: dict[tuple[str, float], _Shared] = {}

    async def job(self, request: Request, kind: str, args: dict[str, Any],
                  limit: float) -> dict[str, Any]:
        """The answer of a job: kept from before (:mod:`cache`), the one an identical request
        is computing (waited for), or run in the pool; a job is cancelled when every client
        waiting for it has gone away."""
        document = args.get("document") or {}
        if isinstance(document.get("text"), str) and len(document["text"]) > 4096:
            key = await asyncio.to_thread(cache_key, kind, args)  # parsing takes a moment
        else:
            key = cache_key(kind, args)
        if key is not None and (kept := self.cache.get(key, limit)) is not None:
            return kept
        shared = self._twins.get((key, limit)) if key is not None else None
        if shared is None:
            shared = _Shared(asyncio.ensure_future(self.pool.run(kind, args, limit)))
            if key is not None:
                self._twins[(key, limit)] = shared
                shared.task.add_done_callback(
                    lambda task: self._settled(task, key, kind, args, limit))
        else:
            self.cache.twins += 1
        shared.clients += 1
        watch = asyncio.ensure_future(_disconnected(request))
        try:
            done, _ = await asyncio.wait({shared.task, watch},
                                         return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:
            watch.cancel()
            shared.leave()
            raise
        if shared.task not in done:
            if shared.leave():
                with _suppressed():
                    await shared.task
            raise ApiError(499, "the client went away: its job was stopped")
        watch.cancel()
        shared.clients -= 1
        try:
            answer: dict[str, Any] = shared.task.result()
        except Busy as error:
            raise ApiError(503, str(error), headers={"retry-after": str(error.retry_after)}
                           ) from None
        except TimedOut as error:
            raise ApiError(504, str(error)) from None
        except (WorkerDied, Cancelled) as error:
            raise ApiError(500, f"internal error: {error}") from None
        if answer["status"] != 200:
            parts = answer["error"]
            raise ApiError(answer["status"], parts["message"], parts.get("field"), parts=parts)
        data: dict[str, Any] = answer["data"]
        return data

    def _settled(self, task: asyncio.Future[Any], key: str, kind: str, args: dict[str, Any],
                 limit: float) -> None:
        """A job with a key is done: it is no one's twin any more, and a good answer is
        kept."""
        if self._twins.get((key, limit)) is not None and \
                self._twins[(key, limit)].task is task:
            del self._twins[(key, limit)]
        if task.cancelled() or task.exception() is not None:
            return
        answer = task.result()
        if answer.get("status") == 200:
            self.cache.put(key, answer["data"], limit, is_exact(kind, args, answer["data"]))


class _Shared:
    """A job in the pool and how many clients wait for its answer."""

    def __init__(self, task: asyncio.Future[Any]) -> None:
        self.task = task
        self.clients = 0

    def leave(self) -> bool:
        """A client stops waiting; the last one cancels the job (killing its worker).  Whether
        this one did."""
        self.clients -= 1
        if self.clients <= 0 and not self.task.done():
            self.task.cancel()
            return True
        return False


class _suppressed:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> bool:
        return True


async def _disconnected(request: Request) -> None:
    """Returns when the client has gone away (the request's body is read already)."""
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            return


def create_app(workers: int | None = None, queue: int | None = None,
               grace: float = GRACE, host: str | None = None) -> Starlette:
    """The web application (``workers`` worker processes; ``queue`` jobs may wait; a job is
    killed ``grace`` seconds past its time limit; it answers to the loopback names and
    ``host``, see :mod:`guard`)."""
    board = Board(workers, queue, grace)
    token = guard.new_token()

    def with_token(page: str) -> str:
        """A page of the board, holding the token its script sends (:mod:`guard`)."""
        return page.replace('<meta charset="utf-8">', '<meta charset="utf-8"><meta name='
                            f'"partysolver-token" content="{token}">', 1)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await board.pool.start()
        try:
            yield
        finally:
            await board.pool.close()

    def api(handler: Callable[[Request], Awaitable[Response]]
            ) -> Callable[[Request], Awaitable[Response]]:
        async def wrapped(request: Request) -> Response:
            try:
                return await handler(request)
            except ApiError as error:
                return error_response(error)
        return wrapped

    def game_of(request: Request) -> str:
        game = request.path_params["game"]
        if game not in all_games():
            raise ApiError(404, f"no game {game!r} (the games: {', '.join(all_games())})")
        return str(game)

    async def post_verb(request: Request) -> Response:
        from . import jobs

        game = game_of(request)
        verb = request.path_params["verb"]
        if verb not in API_VERBS:
            raise ApiError(404, f"no verb {verb!r} here (POST /api/{game}/VERB takes "
                           f"{', '.join(API_VERBS)})")
        answer_format = request.query_params.get("format")
        formats = ("json", "svg") if verb == "render" else ("json",)
        if answer_format is not None and answer_format not in formats:
            raise _refused("format", " or ".join(formats), answer_format)
        fields = await read_request(request)
        args: dict[str, Any] = {"game": game, "document": document_args(fields)}
        option_verb = verb if verb in (*REPORT_VERBS, "render", "review") else "solve"
        try:
            args["options"], limit = jobs.options(game, option_verb, fields["options"])
        except InputError as error:
            raise ApiError.bad_input(error) from None
        if verb in REPORT_VERBS:
            args["verb"] = verb
            data = await board.job(request, "verb", args, limit)
        elif verb == "render":
            data = await board.job(request, "render", args, limit)
            if _wants_svg(request):
                return Response(data["svg"], media_type="image/svg+xml", headers={
                    "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'"})
        elif verb == "apply":
            for key in ("moves", "random", "seed", "upto", "bot"):
                args[key] = fields.get(key)
            data = await board.job(request, "apply", args, limit)
        elif verb == "check":
            args["answer"] = fields.get("answer")
            data = await board.job(request, "check", args, limit)
        elif verb == "review":
            args["moves"] = fields.get("moves")
            data = await board.job(request, "review", args, limit)
        else:
            data = await board.job(request, "inspect", args, limit)
        return Answer(data)

    async def get_games(request: Request) -> Response:
        return JSONResponse(await asyncio.to_thread(pages.games_data))

    async def get_examples(request: Request) -> Response:
        game = game_of(request)
        return JSONResponse(await asyncio.to_thread(lambda: catalog.listing_report(game).data))

    async def get_example(request: Request) -> Response:
        game = game_of(request)
        from . import jobs

        name = request.path_params["name"]
        try:
            await asyncio.to_thread(jobs.find_example, game, name)
            data = await asyncio.to_thread(pages.example_data, game, name)
        except jobs.NotFound as error:
            raise ApiError.bad_input(error, 404) from None
        except InputError as error:
            raise ApiError.bad_input(error) from None
        return Answer(data)

    async def get_schema(request: Request) -> Response:
        verb = request.path_params["verb"]
        if verb not in SCHEMA_VERBS:
            raise ApiError(404, f"no schema {verb!r} (the schemas: {', '.join(SCHEMA_VERBS)})")
        return JSONResponse(schema(verb))

    async def get_openapi(request: Request) -> Response:
        return JSONResponse(await asyncio.to_thread(openapi))

    async def get_status(request: Request) -> Response:
        return JSONResponse(board.pool.status() | {"server_pid": os.getpid(),
                                                   "cache": board.cache.status()})

    async def start_page(request: Request) -> Response:
        return HTMLResponse(with_token(await asyncio.to_thread(pages.start_page)))

    async def board_page(request: Request) -> Response:
        game = game_of(request)
        return HTMLResponse(with_token(await asyncio.to_thread(pages.board_page, game)))

    async def docs_page(request: Request) -> Response:
        return HTMLResponse(with_token(await asyncio.to_thread(pages.docs_page)))

    async def not_found(request: Request, exc: Exception) -> Response:
        return error_response(ApiError(404, f"nothing at {request.url.path}"))

    async def not_allowed(request: Request, exc: Exception) -> Response:
        allowed = dict(getattr(exc, "headers", None) or {}).get("Allow", "")
        takes = f": it takes {allowed}" if allowed else ""
        return error_response(ApiError(405, f"{request.method} is not allowed at "
                                       f"{request.url.path}{takes}",
                                       headers={"allow": allowed} if allowed else None))

    static = resources.files(__package__).joinpath("static")
    routes = [
        Route("/", api(start_page)),
        Route("/board/{game}", api(board_page)),
        Route("/docs", api(docs_page)),
        Route("/api/games", api(get_games)),
        Route("/api/status", api(get_status)),
        Route("/api/openapi.json", api(get_openapi)),
        Route("/api/schemas/{verb}.json", api(get_schema)),
        Route("/api/{game}/examples", api(get_examples)),
        Route("/api/{game}/examples/{name:path}", api(get_example)),
        Route("/api/{game}/{verb}", api(post_verb), methods=["POST"]),
        Mount("/static", StaticFiles(directory=str(static)), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={404: not_found, 405: not_allowed})
    app.state.board = board
    app.state.token = token
    app.add_middleware(guard.Guard, hosts=guard.allowed_hosts(host), token=token,
                       refusal=_refusal, any_address=host is not None and guard.is_wildcard(host))
    app.add_middleware(Limits)  # outermost: its headers go on the Guard's refusals too
    return app


def _refusal(status: int, message: str, headers: dict[str, str] | None) -> Response:
    return error_response(ApiError(status, message, headers=headers))


def _wants_svg(request: Request) -> bool:
    accept = request.headers.get("accept", "")
    if request.query_params.get("format") == "json":
        return False
    return request.query_params.get("format") == "svg" or (
        "image/svg+xml" in accept and "application/json" not in accept)

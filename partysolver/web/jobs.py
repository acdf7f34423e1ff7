"""The work a worker process does for the web front end: each job takes plain data (the
document as TOML/JSON text, a JSON object or a shipped name; the options by name) and answers
with plain data, ``{"status": 200, "data": ...}`` or ``{"status": 400, "error": {"message":
..., "source": ..., "field": ..., "expected": ..., "got": ...}}`` (the error's parts, from
:meth:`InputError.as_json`), so that nothing but dicts and strings crosses the pipe.

Every job goes through the application layer exactly as the CLI does (the one dispatcher,
:func:`app.base.dispatch`,
:func:`app.playalong.apply`, :mod:`app.catalog`): the web adds only what HTTP input needs, the
refusal of anything that would name a path on the server (:func:`refuse_paths`).
"""

from __future__ import annotations

import os
import re
import time
import traceback
from collections.abc import Callable, Mapping
from typing import Any

from ..app import answers, catalog, playalong, practice
from ..app import base as app
from ..app.base import Document, OptionSpec, json_safe
from ..models.documents import format_document, parse_document
from ..models.errors import InputError
from ..models.notation import NotationError
from ..models.playable import full_state
from ..models.registry import all_games

LEGAL_SHOWN = 500
"""At most this many legal steps are listed with a position (the count is always given)."""

WEB_TIME_LIMIT = OptionSpec("time_limit", "float", minimum=0.0, maximum=60.0,
                            metavar="SECONDS", default=10.0,
                            help="The request's time limit in seconds (default 10, at most 60): "
                                 "the solver's budget; past it (and a few seconds' grace) the "
                                 "job is stopped.",
                            check=lambda v: "a number of seconds above 0 and at most 60"
                            if v <= 0 else None)

HINT = OptionSpec("hint", "flag", help="Draw the hint's move as arrows.")


class NotFound(InputError):
    """A shipped position that does not exist: the web answers 404."""

    def __init__(self, game: str, name: str, reason: str) -> None:
        super().__init__(None, "example", f"the name of a shipped {game} position", name,
                         reason=reason, refusal=True)


def find_example(game: str, name: str) -> catalog.Shipped:
    """The shipped position ``name`` of ``game``; :class:`NotFound` (pointing at the route that
    lists them) when there is none by that name."""
    items = catalog.shipped(game)
    if not any(name in (item.name, item.qualified) for item in items):
        close = [item.name for item in items if name and item.name.startswith(name)]
        hint = f"; did you mean {', '.join(close[:3])}?" if close else ""
        raise NotFound(game, name, f"no shipped {game} position {name!r}{hint} (GET "
                       f"/api/{game}/examples lists them)")
    return catalog.find(game, name)


RANDOM = OptionSpec("random", "flag", help="Draw the chance outcomes the moves leave out.")


# -- documents --------------------------------------------------------------------------------


def source_name(filename: Any, text: str | None) -> str:
    """The name a document's messages give it: a shipped position's ``GAME:NAME``, the
    uploaded file's base name (never a path: it is only a label), else ``document.toml`` or
    ``document.json``."""
    if isinstance(filename, str) and catalog.reference(_quiet(filename)) is not None:
        return filename  # GAME:NAME, a shipped position's name (never read as a path)
    if isinstance(filename, str):
        base = re.sub(r"[^A-Za-z0-9._ -]", "_", os.path.basename(filename.replace("\\", "/")))
        base = base.strip(" .")[:80]
        if base:
            return base
    looks_json = text is not None and text.lstrip().startswith("{")
    return "document.json" if looks_json else "document.toml"


def _quiet(name: str) -> str:
    """``name`` when it could be ``GAME:NAME`` of a shipped position, else ``""``."""
    game, colon, rest = name.partition(":")
    if not colon or game not in all_games():
        return ""
    try:
        catalog.find(game, rest)
    except InputError:
        return ""
    return name


def load(game: str, given: Mapping[str, Any]) -> Document:
    """The document of a request for ``game``: ``example`` (a shipped position by name),
    ``text`` (TOML or JSON text) or ``data`` (a JSON object), checked to be of ``game`` and to
    name no file on the server."""
    if game not in all_games():
        raise InputError(None, "game", f"one of {', '.join(all_games())}", game)
    example, text, data = given.get("example"), given.get("text"), given.get("data")
    if sum(x is not None for x in (example, text, data)) != 1:
        raise InputError(None, "document", "exactly one of a document (TOML or JSON text, or "
                         "a JSON object) or the name of a shipped example")
    if example is not None:
        if not isinstance(example, str):
            raise InputError(None, "example", f"the name of a shipped {game} position",
                             example)
        found = find_example(game, example).document()
        return found
    if text is not None:
        if not isinstance(text, str):
            raise InputError(None, "document", "TOML or JSON text")
        source = source_name(given.get("filename"), text)
        parsed = parse_document(text, source)
    else:
        if not isinstance(data, Mapping):
            raise InputError(None, "document", "a JSON object", data)
        source = source_name(given.get("filename"), "{")
        parsed = dict(data)
    document = app.document(parsed, source)
    if document.game != game:
        raise InputError(source, "game", f"{game!r} (the game this board or URL is for)",
                         document.game)
    refuse_paths(document.data, source, game)
    return document


def refuse_paths(data: Mapping[str, Any], source: str, game: str, where: str = "") -> None:
    """Refuse a document field that would make the server read a file (the fields each game
    declares, :meth:`~app.base.GameCommands.shipped_names`): the web takes shipped names or
    inline tables only.  A record's inline start position is checked the same way."""
    commands = app.commands_for(game)
    for key, names in (commands.shipped_names() if commands else {}).items():
        value = data.get(key)
        if isinstance(value, str) and value not in names:
            raise InputError(source, where + key, f"a shipped name ({', '.join(sorted(names))})"
                             " or an inline table: the web board reads no file on the server",
                             value)
    start = data.get("start")
    if data.get("kind") == "record" and isinstance(start, Mapping) and not where:
        refuse_paths(start, source, game, "start.")


# -- options ----------------------------------------------------------------------------------


def options(game: str, verb: str, given: Any) -> tuple[dict[str, Any], float]:
    """The options of a request (by name, as JSON values or text) and its time limit.  An
    option that names a file (``FILE``) is refused: the web reads no files on the server."""
    if given is None:
        given = {}
    if not isinstance(given, Mapping):
        raise InputError(None, "options", "an object of options by name", given)
    chosen = {str(k): v for k, v in given.items() if v is not None}
    limit = WEB_TIME_LIMIT.convert(chosen.pop("time_limit", None))
    limit = WEB_TIME_LIMIT.default if limit is None else limit
    commands = app.commands_for(game)
    specs = {spec.name: spec for spec in (commands.options.get(verb, []) if commands else [])}
    for name in chosen:
        spec = specs.get(name)
        if spec is not None and spec.metavar and "FILE" in spec.metavar:
            raise InputError.of_option(name, "no file name: the web board reads no file on "
                                       "the server", chosen[name], reason=(
                                           "the web board reads no file on the server "
                                           "(upload the file's content instead)"))
    cores = os.cpu_count() or 1
    if "search_workers" in chosen:
        workers = specs["search_workers"].convert(chosen["search_workers"]) \
            if "search_workers" in specs else None
        if workers is not None and workers > cores:
            raise InputError.of_option("search_workers", f"at most {cores} on this server",
                                       workers)
    chosen["time_limit"] = limit
    return chosen, limit


# -- jobs -------------------------------------------------------------------------------------


def run_job(kind: str, args: dict[str, Any]) -> dict[str, Any]:
    """Run one job; every failure is an answer (400 for bad input, 500 for a bug)."""
    try:
        return {"status": 200, "data": JOBS[kind](args)}
    except InputError as error:  # its parts, as data: the message names options as JSON does
        return {"status": 404 if isinstance(error, NotFound) else 400,
                "error": error.as_json()}
    except Exception as error:  # a bug: one line for the client, the trace for the server log
        traceback.print_exc()
        line = f"{type(error).__name__}: {error}".splitlines()[0][:300]
        return {"status": 500,
                "error": {"message": f"internal error (a bug in partysolver): {line}"}}


def _seeded(given: Mapping[str, Any]) -> bool:
    return given.get("seed") is not None


def verb_job(args: dict[str, Any]) -> dict[str, Any]:
    """hint, solve or verify: the report's data in the JSON contract, and its text."""
    document = load(args["game"], args["document"])
    given = args["options"]
    supported(document, args["verb"])
    report = app.dispatch(document.game, args["verb"], document, given, as_json=True)
    data: dict[str, Any] = json_safe(report.data, not _seeded(given))
    data["text"] = report.text
    return data


def supported(document: Document, verb: str) -> None:
    """Refuse ``verb`` on a document whose kind does not support it (solve on a game in
    progress of a game that solves only puzzles), in the board's words."""
    commands = app.commands_for(document.game)
    if commands is None or verb not in commands.verbs:
        return  # the app layer says what the game offers
    kind = commands.kind(document)
    if verb not in kind.verbs:
        raise InputError.refused(f"{document.source} is {kind.what or 'a ' + kind.name}: "
                                 f"'{verb}' does not apply to it (it takes: "
                                 f"{', '.join(kind.verbs)})")


def render_job(args: dict[str, Any]) -> dict[str, Any]:
    """The SVG picture (with the hint's move as arrows when ``hint``)."""
    document = load(args["game"], args["document"])
    given = dict(args["options"])
    hint = HINT.convert(given.pop("hint", False)) or False
    svg = app.dispatch(document.game, "render", document, given, as_json=True,
                       always={"hint": hint}).data["svg"]
    return {"game": document.game, "output": "response", "format": "svg",
            "bytes": len(svg.encode("utf-8")), "svg": svg}


def apply_job(args: dict[str, Any]) -> dict[str, Any]:
    """Moves played on the position (or record): the contract's apply report, the position
    reached and the record (as data and as TOML), and the steps legal there."""
    document = load(args["game"], args["document"])
    moves = args.get("moves") or []
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise InputError(None, "moves", "a list of moves (texts in the game's notation)",
                         moves)
    seed = args.get("seed")
    if seed is not None:
        seed = app.SEED.convert(seed)
    upto = args.get("upto")
    if upto is not None and (not isinstance(upto, int) or isinstance(upto, bool) or upto < 0):
        raise InputError.of_option("upto", "a step number of at least 0", upto)
    draw = RANDOM.convert(args.get("random", False)) or False
    bot = args.get("bot")
    if bot is not None:
        # Practice: one more step, the seat's move a policy chooses (or chance's outcome).
        if not isinstance(bot, str):
            raise InputError.of_option("bot", "a policy's name (GET /api/games: policies)", bot)
        moves = [*moves, practice.bot_step(document, moves, bot, seed, upto)]
    applied = playalong.apply(document, moves, seed, draw, upto)
    report = applied.report()
    position = applied.position
    data: dict[str, Any] = json_safe(report.data)
    legal = [] if position.is_over() else list(position.legal_steps())
    data["legal_moves"] = [position.format(step) for step in legal[:LEGAL_SHOWN]]
    data["chances"] = chances(position)
    data["position"] = position.to_document()
    data["position_text"] = format_document(data["position"])
    record = applied.record.to_document()
    data["record"] = record
    data["record_text"] = format_document(record)
    data["moves"] = [step.move for step in applied.new]
    data["text"] = report.text
    return data


def chances(position: Any) -> dict[str, float] | None:
    """At a chance step, each outcome's probability by its text (as ``legal_moves`` writes
    it); ``None`` elsewhere, and where the position is one seat's view (no full state to draw
    from: the seat enters what it saw)."""
    state = full_state(position)
    if not position.awaits_chance() or position.is_over() or state is None:
        return None
    try:
        outcomes = state.chance_outcomes()
        return {position.format(outcome): float(chance) for outcome, chance in outcomes}
    except (AttributeError, NotationError, ValueError):
        return None


def check_job(args: dict[str, Any]) -> dict[str, Any]:
    """Puzzle mode: the judgement of the player's own answer."""
    document = load(args["game"], args["document"])
    answer = args.get("answer")
    if not isinstance(answer, str):
        raise InputError(None, "answer", "your answer as text", answer)
    report = answers.check(document, answer, args["options"])
    data: dict[str, Any] = json_safe(report.data)
    data["text"] = report.text
    return data


REVIEW_SHARE = 4
"""A review's request time limit is shared out among its positions: each hint (and each
valuing of a position for the luck) gets the limit over this many times the steps plus one
(a decision takes a hint and a valuing, a chance point two valuings)."""

REVIEW_UNTIL = 0.7
"""A review stops taking steps past this share of its request's time limit, and answers
with the steps before (``complete`` false, ``stopped_at``) rather than be stopped."""


def review_job(args: dict[str, Any]) -> dict[str, Any]:
    """review: a record (or a position, or a record, with ``moves`` played on from it) marked
    move by move against the hint, each player's swing split into decision loss and luck, and
    the game's figure after every step (the graph): the CLI's review report
    (:func:`app.playalong.review_document`)."""
    document = load(args["game"], args["document"])
    moves = args.get("moves")
    if moves is not None:
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise InputError(None, "moves", "a list of moves (texts in the game's notation)",
                             moves)
        record = playalong.apply(document, moves).record
        document = app.document(record.to_document(), document.source)
    given = dict(args["options"])
    steps = len(playalong.to_review(document, None)[0].steps)  # bad input: not a record
    limit = given.get("time_limit") or WEB_TIME_LIMIT.default
    given["time_limit"] = limit / (REVIEW_SHARE * (steps + 1))
    until = time.monotonic() + REVIEW_UNTIL * limit
    report = playalong.review_document(document, given, until=until)
    data: dict[str, Any] = json_safe(report.data, not _seeded(given))
    data["text"] = report.text
    return data


def inspect_job(args: dict[str, Any]) -> dict[str, Any]:
    """A document as data (what the board edits and sends back), its text (as given, or the
    shipped file without its answer lines), what it is (a puzzle of which kind) and whether
    moves can be played on it."""
    document = load(args["game"], args["document"])
    try:
        playalong.start_of(document)
        playable, why = True, None
    except InputError as error:
        # Bad input, or a good file that is no game to play on (a park, a catalogue, a log
        # no rules fit)?  Verify tells: it reads any good file and refuses bad input.
        commands = app.commands_for(document.game)
        if commands is not None and "verify" in commands.verbs:
            app.run("verify", document, {"time_limit": 2.0})
        playable, why = False, not_playable(document, error)
    given = args["document"]
    if given.get("example") is not None:
        text: str | None = find_example(document.game, given["example"]).text(reveal=False)
    else:
        text = given.get("text")
    return {"game": document.game, "source": document.source,
            "kind": document.data.get("kind"), "playable": playable, "not_playable": why
            } | answers.shown(document, text)


def not_playable(document: Document, error: Exception) -> str:
    """Why moves cannot be played on ``document`` (a good file, but no game position), in
    plain words rather than the loader's message: what its kind is, or what the game says of
    the field the loader refused (:attr:`~app.base.GameCommands.unplayable`)."""
    field = getattr(error, "field", None)
    commands = app.commands_for(document.game)
    if commands is not None and field == "kind":
        kind = commands.kind(document)
        if kind.name == "record":
            return "this file is a game record whose start is no game to play on"
        return f"this file is {kind.what or 'a ' + kind.name + ' file, not a game'}"
    if commands is not None and isinstance(field, str) and field in commands.unplayable:
        return commands.unplayable[field]
    if isinstance(error, InputError) and (error.expected or "").startswith("a legal position"):
        return "the file breaks the game's rules: Verify lists the problems"
    if isinstance(error, InputError):
        return f"play along needs {error.expected}"
    return error.detail(names=True) if isinstance(error, InputError) else str(error)


def example_job(args: dict[str, Any]) -> dict[str, Any]:
    """A shipped position's text (answers hidden) and what it is."""
    game, name = args["game"], args["name"]
    item = find_example(game, name)
    found = answers.shown(item.document(), item.text(reveal=False))
    return {"game": game, "set": item.set, "name": item.name,
            "description": item.description(), "text": found["text"],
            "puzzle": found["puzzle"]}


def warm() -> None:
    """Import every game's commands and solvers and run each game's warm-up hint on its
    default example (:attr:`~app.base.GameCommands.warm_up`: it compiles the numba kernels,
    or loads them from numba's cache beside the modules, so that no request pays for it
    against its time limit); done once in the forkserver, before any worker starts: every
    worker is forked warm.  A kernel a hint never compiles (Meeple Party's turn kernel) is
    only loaded here when it is compiled already."""
    import importlib
    import pkgutil

    from .. import solvers

    app.all_commands()
    for found in pkgutil.walk_packages(solvers.__path__, solvers.__name__ + "."):
        try:
            importlib.import_module(found.name)
        except Exception:  # a solver that fails to import fails its requests, with the error
            continue
    for game, commands in app.all_commands().items():
        if commands.warm_up is None or "hint" not in commands.verbs:
            continue
        try:
            app.run("hint", catalog.default_example(game).document(), commands.warm_up)
        except Exception:  # a game that cannot warm up still serves (or explains) requests
            continue


JOBS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "verb": verb_job, "render": render_job, "apply": apply_job, "check": check_job,
    "example": example_job, "inspect": inspect_job, "review": review_job,
}

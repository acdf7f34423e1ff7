"""Fuzz benchmark: every verb and the web API, on mutated input, each run classified.

``python benchmarks/fuzz.py`` runs 10,000 cases (``--cases N``, ``--seed S``, ``--start I``)
and prints how many ended in each outcome class.  Case ``I`` of seed ``S`` is made from
``random.Random(f"{S}:{I}")`` alone, so any case can be run or shown again (``--show I``
writes its files to a new folder and prints the exact command, or the ``curl`` of a web case).
A case belongs to one family:

* ``document``: a shipped file of one of the five games (an example, puzzle, scenario or
  position; for ``simulate`` a house, guest deck or rules file), mutated as data (a wrong type,
  a deleted or unknown field, an odd or huge number, NaN, deep nesting, odd unicode, a list
  emptied or repeated, a value moved) or as text (truncated, a byte changed, a line dropped,
  a 5,000-digit integer), through ``hint``, ``solve``, ``verify``, ``render``,
  ``apply --random`` or ``simulate``;
* ``move``: ``apply`` on a shipped position or one reached by random steps, with a legal
  step's canonical spelling mutated (cut, words dropped, swapped or replaced, odd digits such
  as ``²`` or 5,000 of them, ``|`` lines, NUL, control and right-to-left characters), and odd
  outputs (``-o`` and ``--record``: new, existing, the same file twice, a folder name too long
  for the file system, ``/proc``, a missing folder, a wrong suffix);
* ``record``: game records (made by random play, and by ``simulate --records``) unmodified
  or mutated (as data, as text, one move's text, the start), through ``review``, ``apply``
  (``--upto``, ``--record``), ``hint``, ``verify`` and ``render``;
* ``play``: a ``play`` session on standard input (moves, mutated moves, ``hint K`` with odd
  K, ``moves``, ``undo``, ``redo``, ``random``, ``show``, ``save`` to odd paths, bytes that are
  not UTF-8), from a shipped position, a file, a record or a new game, with odd ``--bot``,
  ``--players`` and ``--seed``;
* ``option``: one odd option value (``--top``, ``--seed``, ``--time-limit``, each game's own
  options, ``render -o``) on a shipped file, and ``generate``, ``example``, ``schema``,
  ``games`` and ``simulate`` (1-2 games) with odd options and outputs;
* ``web``: a request to a real ``partysolver serve`` that this script starts on a free
  loopback port (seven in ten with the token of the board's pages, as the board sends them):
  mutated documents and JSON bodies, odd options, moves and fields, lone surrogates, bad
  content types and methods, unknown paths, deep (thousands of levels) and huge (5,000-digit
  integers, bodies over 1 MB) JSON, bytes that are not UTF-8.

CLI cases run in-process (``click.testing.CliRunner``, in the case's own folder) with a short
``--time-limit`` where the verb takes one, in ``--jobs`` worker processes (each killed and
replaced when a case runs past the hang timeout; memory capped at ``MEMORY`` so a runaway
allocation is an error, not a machine out of memory).  The outcome classes:

* ``ok``: exit 0 (or 1 where documented: ``verify`` with problems, ``solve`` with a wrong
  recorded answer), only the outputs the command names written; a web answer 2xx;
* ``clean error``: exit 2 with one line on stderr and no traceback, nothing written; a web
  answer 4xx (or 503/504: busy, timed out) as JSON with a one-line ``error``;
* ``crash``: an exception escaped (a traceback), exit 1 where it is not documented, a web
  answer 500 (or another 5xx), a closed connection, a traceback in the server's log;
* ``hang``: past :data:`ALARM` seconds (``review``: and :data:`PER_STEP` a step of its
  record; the worker is killed :data:`GRACE` seconds later), or a web answer past
  :data:`WEB_TIMEOUT`;
* ``partial write``: a failed run left a file or folder behind or changed one, a successful
  run wrote a file it was not asked to (or replaced an existing file without ``--force``), or
  two outputs naming one file were accepted;
* ``messy error`` (another failure the program meant: several lines, another exit code, a
  plain-text 4xx) and ``bad JSON`` (``--json`` output, or a web answer, that is not strict
  JSON) are counted too.

Target: 0 crashes, 0 hangs, 0 answers of 500, 0 partial writes.  The run prints, for every
class but ``ok`` and ``clean error``, each distinct cause with its count and the first
cases that show it.  Run ``nice -n 10 .venv/bin/python benchmarks/fuzz.py`` (about 10 minutes
on two cores); ``--cases 1000`` for a quick look; ``--no-web`` for the CLI alone.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import dataclasses
import http.client
import json
import math
import multiprocessing
import os
import random
import re
import resource
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.parse
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from partysolver import puzzles
from partysolver.app import catalog, playalong
from partysolver.app.base import BadRequest, commands_for
from partysolver.cli.main import cli
from partysolver.models.documents import format_document, parse_document
from partysolver.models.errors import InputError
from partysolver.models.notation import Playable
from partysolver.models.playable import random_walk

GAMES = ("meeple-party", "meeple-land", "pool-party-stars", "party-time", "tea-party")
FOLDERS = ("examples", "puzzles", "scenarios", "positions")
VERBS = {"meeple-party": ("hint", "solve", "verify", "render", "apply"),
         "meeple-land": ("hint", "solve", "verify", "render", "apply"),
         "pool-party-stars": ("hint", "solve", "verify", "render", "apply"),
         "party-time": ("hint", "verify", "render", "apply"),
         "tea-party": ("hint", "solve", "verify", "render", "apply")}
SIMULATE_FILES = {"meeple-party": ("houses", "--house"),
                  "pool-party-stars": ("decks", "--guest-deck")}
"""Files ``simulate`` reads: the folder they ship in and the option (Party-Time's rules file is
made from the ``own-rules`` example's ``[rules]`` table)."""
TIME_LIMIT = "0.5"
"""The ``--time-limit`` of a document mutant."""
SHORT = "0.1"
"""The ``--time-limit`` of the other families' searches."""
ALARM = 30
"""Seconds after which a case is stopped in its worker (the hang timeout), plus
:data:`PER_STEP` for each step of a record ``review`` goes through."""
PER_STEP = 1.0
"""Seconds a ``review`` case may take per step of its record (the hint of each decision has
``--time-limit`` 0.1; the whole game of a simulated record has a hundred steps or more)."""
GRACE = 15
"""Seconds past its timeout after which a worker that did not stop its case is killed: a
hang all the same."""
WEB_TIMEOUT = 40.0
"""Seconds a web answer may take (an API job's time limit is at most 60 s; the cases ask for
at most a few)."""
MEMORY = 6 * 1024**3
"""Address space of a worker process, in bytes."""
FAMILIES = (("document", 28), ("move", 14), ("record", 9), ("play", 9), ("option", 12),
            ("web", 28))
"""The families of cases and their weights (per hundred)."""
CLASSES = ("ok", "clean error", "crash", "hang", "partial write", "messy error", "bad JSON")
CLEAN = ("ok", "clean error")

ODD_TEXT = ["", " ", "\0", "\ud800", "\udfff", "é", "Ann\u202e", "🎉" * 3, "x" * 5000,
            "\n", "inf", "nan", "-", "house", "../../etc/passwd", "a\0b.toml",
            "c" * 300 + ".toml", "game", "[", "{}"]
ODD_NUMBERS = [0, -1, 1, 2, 3, 7, 99, -(2**63), 2**63, 2**64, 10**9, 10**30, -(10**30)]
ODD_FLOATS = [math.nan, math.inf, -math.inf, 0.5, -0.0, 1e308]
HUGE = "9" * 5000
"""An integer Python refuses to convert from text (more than 4,300 digits)."""
ODD_WORDS = ["", " ", "²", "①", "٣", "１", "0", "-1", "1e3", HUGE, "\0", "\udcff", "é",
             "🎉", "|", " | ", "||", "x" * 5000, "\t", "\x1b[2J", "\u202e", "on", "take",
             "random", "hint", "None", "nan", "inf", "../../x", "%s", "{}", "'", '"', "\\",
             "2147483648", "-0", "1_0", "0x1f", "Ⅻ", "𝟗"]
"""Words put into a move, a command line or an option."""
ODD_INTEGERS = ["0", "-1", "1", "2", "3", "²", "①", "１", "٣", "𝟗", "1e3", "0x10", " 3",
                "3 ", "+3", "1_000", "1.5", "", "x", "\0", "99999999999999999999",
                HUGE, "18446744073709551615", "18446744073709551616", "-9223372036854775809",
                "nan", "inf"]
"""Odd values of a whole-number option."""
ODD_BIG = ["2147483648", "100000000", str(10**30)]
"""Large values that are whole numbers (a size or budget asked for: drawn less often)."""
ODD_SECONDS = ["0", "-1", "nan", "inf", "-inf", "1e-320", "0.001", "²", "", "x", "1e309",
               "0.05", " 0.1", "0,5", HUGE, "1/2", "١"]
"""Odd values of ``--time-limit``."""
ODD_PATHS = ["d" * 300 + "/out.toml", "/proc/x", "/proc/self", "/proc/self/out.toml",
             "missing/out.toml", "out.png", "out", ".", "..", "", "keep.toml", "a\0b.toml",
             "c" * 300 + ".toml", "/dev/null", "/", "sub/", "\udcff.toml", " .toml"]
"""Odd output paths (the case's folder is the working directory)."""


class TimedOut(Exception):
    """Raised by the alarm in a run over :data:`ALARM` seconds."""


@dataclass(frozen=True)
class Mutant:
    index: int
    game: str
    base: str
    mutation: str
    text: str
    suffix: str
    args: tuple[str, ...]
    """The command line; ``{file}`` and ``{out}`` stand for the mutant file and an output."""


# -- the seeds -------------------------------------------------------------------------------------


def seed_files() -> list[tuple[str, str, str]]:
    """(game, name, text) of every shipped file a verb reads."""
    found = []
    for game in GAMES:
        for folder in FOLDERS:
            for name, item in puzzles.files(game, folder).items():
                found.append((game, f"{folder}/{name}", item.read_text(encoding="utf-8")))
    return found


def simulate_files() -> list[tuple[str, str, str, str]]:
    """(game, name, text, option) of the files ``simulate`` reads."""
    found = []
    for game, (folder, option) in SIMULATE_FILES.items():
        for name, item in puzzles.files(game, folder).items():
            found.append((game, f"{folder}/{name}", item.read_text(encoding="utf-8"), option))
    own = parse_document(puzzles.examples("party-time")["own-rules"].read_text(), "own.toml")
    rules = format_document({"game": "party-time", "rules": own["rules"]})
    found.append(("party-time", "rules/own-rules", rules, "--party-rules"))
    return found


# -- mutations -------------------------------------------------------------------------------------


def paths_of(value: Any, limit: int = 40) -> Iterator[tuple[Any, ...]]:
    """Every path to a value inside a document (keys and list indices), at most ``limit``
    deep (a mutant may already be nested far deeper)."""
    stack: list[tuple[Any, tuple[Any, ...]]] = [(value, ())]
    while stack:
        item, prefix = stack.pop()
        yield prefix
        if len(prefix) >= limit:
            continue
        if isinstance(item, dict):
            stack.extend((child, (*prefix, key)) for key, child in item.items())
        elif isinstance(item, list):
            stack.extend((child, (*prefix, index)) for index, child in enumerate(item))


def get(document: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        document = document[step]
    return document


def put(document: Any, path: tuple[Any, ...], value: Any) -> None:
    get(document, path[:-1])[path[-1]] = value


def leaves(document: Any, rng: random.Random) -> tuple[Any, ...]:
    """A random path (not the root, and rarely the ``game`` key, which every file needs)."""
    found = [p for p in paths_of(document) if p and (p != ("game",) or rng.random() < 0.05)]
    return rng.choice(found) if found else ("game",)


def nest(depth: int) -> Any:
    value: Any = []
    for _ in range(depth):
        value = [value]
    return value


def mutate_document(document: dict[str, Any], rng: random.Random) -> str:
    """Change ``document`` in place in one random way; returns the mutation's name."""
    path = leaves(document, rng)
    here = get(document, path)
    kind = rng.choice(["type", "delete", "unknown", "number", "float", "deep", "unicode",
                       "list", "move", "swap"])
    if kind == "type":
        put(document, path, rng.choice([1, "x", 1.5, True, [], {}, [1, "a"], {"a": 1}]))
    elif kind == "delete":
        del get(document, path[:-1])[path[-1]]
    elif kind == "unknown":
        parent = here if isinstance(here, dict) else get(document, path[:-1])
        if isinstance(parent, dict):
            parent[rng.choice(["extra", "zzz", "Game", "players ", ""])] = rng.choice([1, "x"])
        else:
            parent.append(rng.choice([1, "x", {}, []]))
    elif kind == "number":
        put(document, path, rng.choice(ODD_NUMBERS))
    elif kind == "float":
        put(document, path, rng.choice(ODD_FLOATS))
    elif kind == "deep":
        put(document, path, nest(rng.choice([5, 31, 33, 40, 200])))
    elif kind == "unicode":
        put(document, path, rng.choice(ODD_TEXT))
    elif kind == "list":
        if isinstance(here, list) and here:
            choice = rng.randrange(3)
            if choice == 0:
                here.clear()
            elif choice == 1:
                here.append(copy.deepcopy(rng.choice(here)))
            else:
                here.extend(copy.deepcopy(here) * rng.choice([1, 5, 50]))
        else:
            put(document, path, [here] if rng.random() < 0.5 else [])
    elif kind == "move":
        other = get(document, leaves(document, rng))
        put(document, path, copy.deepcopy(other))
    else:  # swap two strings of the document (names, cards, rooms where they do not belong)
        strings = [p for p in paths_of(document) if p and isinstance(get(document, p), str)]
        if len(strings) >= 2:
            a, b = rng.sample(strings, 2)
            first, second = get(document, a), get(document, b)
            put(document, a, second)
            put(document, b, first)
    return kind


def mutate_text(text: str, rng: random.Random) -> tuple[str, str]:
    kind = rng.choice(["truncate", "byte", "line", "deep"])
    if kind == "deep":  # past what the parsers can recurse into
        game = parse_document(text, "x.toml").get("game")
        return '{"game": "' + str(game) + '", "x": ' + "[" * 1200 + "]" * 1200 + "}", kind
    if kind == "truncate":
        return text[:rng.randrange(len(text) + 1)], kind
    if kind == "byte":
        at = rng.randrange(len(text))
        return text[:at] + rng.choice("[]{}=\"'#\n\\,.0x\0é") + text[at + 1:], kind
    lines = text.splitlines()
    del lines[rng.randrange(len(lines))]
    return "\n".join(lines), "line"


def to_text(document: dict[str, Any], rng: random.Random) -> tuple[str, str]:
    """The document as TOML or JSON (JSON when TOML cannot say it)."""
    if rng.random() < 0.5:
        try:
            text = format_document(document)
            text.encode("utf-8")
            return text, ".toml"
        except (TypeError, ValueError, RecursionError):
            pass
    try:
        return json.dumps(document, indent=1) + "\n", ".json"
    except (TypeError, ValueError, RecursionError):
        return '{"game": "' + str(document.get("game")) + '", "x": ' + "[" * 999 + "]" * 999 \
            + "}", ".json"


def make(index: int, seeds: list[tuple[str, str, str]],
         extras: list[tuple[str, str, str, str]]) -> Mutant:
    """Mutant ``index``, from ``random.Random(index)`` alone."""
    rng = random.Random(index)
    simulate = rng.random() < 0.1
    game = rng.choice(GAMES)  # each game as often, whatever the number of files it ships
    if simulate:
        game, base, text, option = rng.choice([e for e in extras if e[0] == game] or extras)
    else:
        game, base, text = rng.choice([f for f in seeds if f[0] == game])
    document = parse_document(text, base + ".toml")
    if rng.random() < 0.15:
        name = "text:"
        text, kind = mutate_text(text, rng)
        suffix = ".toml"
    else:
        name = ""
        kind = "+".join(mutate_document(document, rng) for _ in range(rng.choice([1, 1, 2])))
        text, suffix = to_text(document, rng)
    options = ["--json"] if rng.random() < 0.3 else []
    if simulate:
        policy = "random"
        args = ("simulate", game, option, "{file}", "--games", str(rng.choice([1, 2])),
                "--policy", policy, "--seed", str(rng.randrange(100)), *options)
        return Mutant(index, game, base, name + kind, text, suffix, args)
    verb = rng.choice(VERBS[game])
    if verb == "apply":  # the next chance outcome drawn, the position written to stdout
        return Mutant(index, game, base, name + kind, text, suffix,
                      ("apply", "{file}", "--random", "--seed", str(rng.randrange(100)),
                       *options))
    args_: list[str] = [verb, "{file}", "--time-limit", TIME_LIMIT,
                        "--seed", str(rng.randrange(100)), *options]
    if verb == "render":
        args_ += ["-o", "{out}"] + (["--hint"] if rng.random() < 0.3 else [])
    if game == "party-time" and verb in ("hint", "render"):
        args_ += ["--playouts", "50"]
    return Mutant(index, game, base, name + kind, text, suffix, tuple(args_))


# -- cases of every family ---------------------------------------------------------------------


@dataclass(frozen=True)
class Request:
    """An HTTP request of a web case (``target``: the path and query)."""

    method: str
    target: str
    headers: tuple[tuple[str, str], ...] = ()
    body: bytes = b""
    token: bool = False
    """Whether the request carries the token of the board's pages (as the board sends its
    requests: then any content type is read)."""


@dataclass(frozen=True)
class Case:
    """One run: a command line in a folder of its own (with ``files`` written there first and
    ``stdin`` as its input), or a web ``request``."""

    index: int
    family: str
    game: str
    what: str
    """The mutation, in a few words."""
    args: tuple[str, ...] = ()
    stdin: bytes | None = None
    files: tuple[tuple[str, bytes], ...] = ()
    writes: tuple[str, ...] = ()
    """What a successful run may create or change: file names, or folders (ending in ``/``)."""
    same_outputs: bool = False
    """Two outputs name one file: the command must refuse."""
    request: Request | None = None
    timeout: float = ALARM
    """Seconds after which the run is a hang."""

    @property
    def verb(self) -> str:
        if self.request is not None:
            return "web"
        return self.args[0] if self.args else "?"


@dataclass
class Seeds:
    """What the cases are made from, read once."""

    files: list[tuple[str, str, str]]
    extras: list[tuple[str, str, str, str]]
    records: dict[str, list[str]] = field(default_factory=dict)
    """Texts of records written by ``simulate --records``, by game."""


def seeds(with_records: bool = True) -> Seeds:
    found = Seeds(seed_files(), simulate_files())
    if with_records:
        found.records = simulated_records()
    return found


def simulated_records() -> dict[str, list[str]]:
    """Two random games of each game, as ``simulate --records`` writes them."""
    records: dict[str, list[str]] = {}
    with tempfile.TemporaryDirectory(prefix="partysolver-fuzz-records-") as place:
        for game in GAMES:
            folder = Path(place) / game
            CliRunner().invoke(cli, ["simulate", game, "--games", "2", "--seed", "1",
                                     "--policy", "random", "--records", str(folder)])
            records[game] = [p.read_text(encoding="utf-8")
                             for p in sorted(folder.glob("*.record.toml"))]
    return records


@cache
def playable_starts(game: str) -> tuple[str, ...]:
    """The shipped positions of ``game`` one can play on, as ``GAME:SET/NAME``."""
    found = []
    for item in catalog.shipped(game):
        try:
            playalong.playable(item.document())
        except (InputError, BadRequest):
            continue
        found.append(f"{game}:{item.qualified}")
    return tuple(found)


def shipped_names(game: str) -> list[str]:
    return [f"{game}:{item.qualified}" for item in catalog.shipped(game)]


def position_of(name: str) -> Playable:
    found = catalog.reference(name)
    assert found is not None, name
    return playalong.playable(found.document())




def some_legal(position: Playable, rng: random.Random) -> str:
    if position.is_over():
        return rng.choice(["cup", "pass", "random"])
    return position.format(rng.choice(list(position.legal_steps())))


def mutate_words(text: str, rng: random.Random) -> tuple[str, str]:
    """``text`` (a move, a command) changed in one random way; the way's name."""
    words = text.split(" ")
    kind = rng.choice(["cut", "drop", "double", "swap", "replace", "insert", "case", "prefix",
                       "line", "odd", "keep", "space"])
    if kind == "cut":
        return text[:rng.randrange(len(text) + 1)], kind
    if kind == "drop" and len(words) > 1:
        del words[rng.randrange(len(words))]
    elif kind == "double":
        at = rng.randrange(len(words))
        words.insert(at, words[at])
    elif kind == "swap" and len(words) > 1:
        a, b = rng.sample(range(len(words)), 2)
        words[a], words[b] = words[b], words[a]
    elif kind == "replace":
        words[rng.randrange(len(words))] = rng.choice(ODD_WORDS)
    elif kind == "insert":
        words.insert(rng.randrange(len(words) + 1), rng.choice(ODD_WORDS))
    elif kind == "case":
        return text.swapcase(), kind
    elif kind == "prefix":
        words = [w[:rng.randint(1, max(1, len(w)))] for w in words]
    elif kind == "line":
        return f"{text} | {text}" if rng.random() < 0.5 else f"{text} |", kind
    elif kind == "odd":
        return rng.choice(ODD_WORDS), kind
    elif kind == "space":
        return "\t" + "   ".join(words) + " .", kind
    return " ".join(words), kind


def huge_integer(text: str, rng: random.Random) -> str:
    """``text`` with one of its integers (or a new value) made 5,000 digits long."""
    numbers = list(re.finditer(r"(?<![\w.])\d+(?![\w.])", text))
    if numbers:
        found = rng.choice(numbers)
        return text[:found.start()] + HUGE + text[found.end():]
    return text.rstrip("}\n") + (f', "zzz": {HUGE}}}' if text.lstrip().startswith("{")
                                 else f"\nzzz = {HUGE}\n")


def document_case(index: int, rng: random.Random, found: Seeds) -> Case:
    """A mutant of a shipped file through a verb (:func:`make`)."""
    mutant = make(rng.randrange(10**9), found.files, found.extras)
    text, what = mutant.text, mutant.mutation
    if rng.random() < 0.08:
        text, what = huge_integer(text, rng), what + "+huge integer"
    name = f"mutant{mutant.suffix}"
    args = tuple(a.replace("{file}", name).replace("{out}", "out.svg") for a in mutant.args)
    return Case(index, "document", mutant.game, f"{mutant.base}: {what}", args,
                files=((name, text.encode("utf-8", "surrogatepass")),),
                writes=("out.svg",) if args[0] == "render" else ())


def outputs(rng: random.Random, suffix: str, option: str, force: bool = True
            ) -> tuple[list[str], tuple[str, ...], list[tuple[str, bytes]], str]:
    """An output option of ``apply``, ``render`` or ``play``: (arguments, what a success may
    write, files to put there first, in words)."""
    roll = rng.random()
    keep = [("keep" + suffix, b"unrelated = 1\n")]
    if roll < 0.45:
        return [option, "out" + suffix], ("out" + suffix,), [], "new output"
    if roll < 0.65:
        forced = force and rng.random() < 0.5
        return ([option, "keep" + suffix] + (["--force"] if forced else []),
                ("keep" + suffix,) if forced else (), keep, "existing output"
                + (" --force" if forced else ""))
    path = rng.choice(ODD_PATHS)
    return [option, path], (path,) if path != "keep.toml" else (), keep, \
        f"output {path[:40]!r}"


def move_case(index: int, rng: random.Random, found: Seeds) -> Case:
    """``apply`` with a mutated move, from a shipped position or one reached by random steps,
    with odd outputs."""
    game = rng.choice(GAMES)
    start = rng.choice(playable_starts(game))
    position, before = random_walk(position_of(start), rng.choice([0, 0, 1, 3, 8]), rng)
    files: list[tuple[str, bytes]] = []
    source = start
    if before and rng.random() < 0.7:  # the position reached, as a file
        as_json = rng.random() < 0.3
        source = "pos.json" if as_json else "pos.toml"
        files.append((source, format_document(position.to_document(), as_json).encode()))
        before = []
    moves = [*before]
    kinds = []
    for _ in range(rng.choice([1, 1, 1, 2])):
        text, kind = mutate_words(some_legal(position, rng), rng)
        moves.append(text)
        kinds.append(kind)
    args = ["apply", source, *moves]
    writes: tuple[str, ...] = ()
    same = False
    roll = rng.random()
    if roll < 0.3:
        extra, writes, put, said = outputs(rng, ".toml", "-o")
        args += extra
        files += put
        kinds.append(said)
    elif roll < 0.45:
        record = rng.choice(["game.record.toml", "game.record.json", "keep.toml",
                             rng.choice(ODD_PATHS)])
        args += ["--record", record]
        files += [("keep.toml", b"unrelated = 1\n")]
        writes = (record,) if record != "keep.toml" else ()  # (a record, not a position)
        kinds.append(f"--record {record[:40]!r}")
    elif roll < 0.52:  # issue 27, cause 9: the record and the position in one file
        args += ["-o", "s.record.toml", "--record", "s.record.toml"]
        same = True
        kinds.append("-o and --record one file")
    if rng.random() < 0.4:
        args += ["--random", "--seed", str(rng.randrange(1000))]
    if rng.random() < 0.1:
        args += ["--upto", rng.choice(["0", "1", "-1", "²", HUGE])]
    if rng.random() < 0.3:
        args.append("--json")
    return Case(index, "move", game, f"{start}: " + ", ".join(kinds), tuple(args),
                files=tuple(files), writes=writes, same_outputs=same)


def a_record(game: str, rng: random.Random, found: Seeds) -> dict[str, Any]:
    """A record document: from ``simulate --records``, or random steps from a shipped
    position (by name or inline) or a new game."""
    made = found.records.get(game, [])
    if made and rng.random() < 0.3:
        return parse_document(rng.choice(made), "game.record.toml")
    name = rng.choice(playable_starts(game))
    position = position_of(name)
    start: dict[str, Any] | str = name
    if rng.random() < 0.3:
        start = position.to_document()
    _, texts = random_walk(position, rng.choice([0, 1, 2, 4, 8, 16]), rng)
    steps = [playalong.Step(i + 1, "", text, rng.choice([None, None, "a comment", "é 🎉"]))
             for i, text in enumerate(texts)]
    return playalong.Record(game, start, tuple(steps)).to_document()


def record_case(index: int, rng: random.Random, found: Seeds) -> Case:
    """A record, maybe mutated, through ``review``, ``apply``, ``hint``, ``verify`` or
    ``render``."""
    game = rng.choice(GAMES)
    record = a_record(game, rng, found)
    long_game = len(record["steps"]) > 20
    roll = rng.random()
    as_json = rng.random() < 0.3
    if roll < 0.35:
        what = "unmodified"
        text = format_document(record, as_json)
    elif roll < 0.6:
        what = "+".join(mutate_document(record, rng) for _ in range(rng.choice([1, 2])))
        text, suffix = to_text(record, rng)
        as_json = suffix == ".json"
    elif roll < 0.75 and record.get("steps"):
        step = rng.choice(record["steps"])
        step["move"], what = mutate_words(step["move"], rng)
        what = "a move " + what
        text = format_document(record, as_json)
    elif roll < 0.85:
        record["start"] = rng.choice([f"{game}:nope", "tea-party:default", f"{game}:",
                                      "../x", "", f"{game}:examples/../../x",
                                      rng.choice(shipped_names(game))])
        what = f"start {record['start']!r}"
        text = format_document(record, as_json)
    else:
        text, what = mutate_text(format_document(record), rng)
        as_json = text.lstrip().startswith("{")
    name = "game.record.json" if as_json else "game.record.toml"
    verb = rng.choice(["review", "review", "review", "apply", "apply", "hint", "verify",
                       "render"])
    args = [verb, name]
    writes: tuple[str, ...] = ()
    if verb == "review":
        args += ["--time-limit", rng.choice([SHORT, "0.05"])]
        if rng.random() < 0.3:
            args += ["--players", rng.choice(["Zed", "", ",", "1", "²", "blue,BLUE", "x" * 500,
                                              "Ana", "Blue", "Green,Zed"])]
        if long_game and "--players" not in args and rng.random() < 0.5:
            args += ["--players", "1"]  # a whole simulated game: its first player's moves
    elif verb == "apply":
        if rng.random() < 0.4:
            args += ["--upto", rng.choice(["0", "1", "3", "999", "-1", "²", HUGE])]
        if rng.random() < 0.5:
            args.append(mutate_words(rng.choice(["cup", "random", "pass", "draw"]), rng)[0])
        if rng.random() < 0.3:
            args += ["--random", "--seed", str(rng.randrange(100))]
        if rng.random() < 0.3:
            args += ["--record", name]
            writes = (name,)
    elif verb == "render":
        args += ["-o", "out.svg", "--time-limit", SHORT]
        writes = ("out.svg",)
    else:
        args += ["--time-limit", SHORT]
    if game == "party-time" and verb in ("hint", "render", "review"):
        args += ["--playouts", "20"] if verb != "review" else []
    if rng.random() < 0.3:
        args.append("--json")
    steps = len(record["steps"]) if isinstance(record.get("steps"), list) else 0
    return Case(index, "record", game, f"record {what}", tuple(args),
                files=((name, text.encode("utf-8", "surrogatepass")),), writes=writes,
                timeout=ALARM + PER_STEP * steps if verb == "review" else ALARM)


BOTS = ["1=random", "2=greedy", "²=random", "①=random", "0=random", "99=random", "x=y", "=",
        "Blue=", "=random", "1=hint", f"{HUGE}=random", "Ana=random", "Green=greedy",
        "1=random=random", "-1=random", "1 =random", "\0=random"]


def play_line(position: Playable, rng: random.Random, saves: list[str]) -> str:
    """A line of a ``play`` session (``saves`` gathers what a ``save`` may write)."""
    roll = rng.random()
    if roll < 0.25:
        return some_legal(position, rng)
    if roll < 0.4:
        return mutate_words(some_legal(position, rng), rng)[0]
    if roll < 0.5:
        return "hint " + rng.choice(["", "1", "2", "0", "-1", "²", "①", "١", HUGE, "1e3",
                                     "2147483648", "x", "1 2"])
    if roll < 0.6:
        return rng.choice(["moves", "moves " + some_legal(position, rng)[:3], "moves ²",
                           "moves " + "x" * 3000])
    if roll < 0.75:
        return rng.choice(["undo", "redo", "random", "show", "help", "undo 2", "random x"])
    if roll < 0.85:
        target = rng.choice(["mine.toml", "mine.json", "mine.record.toml", "keep.toml",
                             *ODD_PATHS])
        flag = rng.choice(["", "", "--record ", "--force ", "--force --record "])
        line = f"save {flag}{target}"
        if target != "keep.toml" or "--force" in flag:
            saves.append(target)
        return line
    return rng.choice(ODD_WORDS + ["quit now", "exit", "", "   ", "#", "hint hint"])


def play_case(index: int, rng: random.Random, found: Seeds) -> Case:
    """A ``play`` session on standard input."""
    game = rng.choice(GAMES)
    files: list[tuple[str, bytes]] = [("keep.toml", b"unrelated = 1\n")]
    args = ["play"]
    roll = rng.random()
    start = rng.choice(playable_starts(game))
    position = position_of(start)
    if roll < 0.45:
        args.append(start)
        what = start
    elif roll < 0.6:
        position, _ = random_walk(position, rng.choice([1, 3, 6]), rng)
        files.append(("start.toml", format_document(position.to_document()).encode()))
        args.append("start.toml")
        what = f"a position after {start}"
    elif roll < 0.75:
        record = a_record(game, rng, found)
        files.append(("start.record.toml", format_document(record).encode()))
        args.append("start.record.toml")
        what = "a record"
    else:
        args.append(game)
        what = "a new game"
        if rng.random() < 0.4:
            args += ["--players", rng.choice(["0", "1", "2", "3", "7", "99", "²", HUGE])]
    if rng.random() < 0.3:
        args += ["--bot", rng.choice(["1=random", "2=random"]) if rng.random() < 0.5
                 else rng.choice(BOTS)]
    if rng.random() < 0.3:
        args.append("--auto-chance")
    args += ["--time-limit", SHORT if rng.random() < 0.92 else rng.choice(ODD_SECONDS)]
    if rng.random() < 0.08:
        args += ["--seed", rng.choice(ODD_INTEGERS)]
    else:
        args += ["--seed", str(rng.randrange(1000))]
    if game == "party-time":
        args += ["--playouts", "20"]
    saves: list[str] = []
    lines = [play_line(position, rng, saves) for _ in range(rng.randint(1, 10))]
    stdin = "\n".join(lines).encode("utf-8", "surrogateescape")
    if rng.random() < 0.1:
        stdin = rng.choice([b"\xff\xfe hint\n", b"hint\x00\n", b"\xc3", b"x" * 200_000,
                            b"\r\n".join(line.encode("utf-8", "surrogateescape")
                                        for line in lines)])
    if rng.random() < 0.3:
        stdin += b"\nquit\n"
    return Case(index, "play", game, f"{what}: {len(lines)} lines", tuple(args), stdin=stdin,
                files=tuple(files), writes=tuple(saves))


def odd_option(spec_kind: str, rng: random.Random) -> str:
    if spec_kind == "float":
        return rng.choice(ODD_SECONDS)
    if spec_kind == "int":
        return rng.choice(ODD_BIG) if rng.random() < 0.1 else rng.choice(ODD_INTEGERS)
    return rng.choice(ODD_WORDS)


def option_case(index: int, rng: random.Random, found: Seeds) -> Case:
    """One odd option of a verb, or ``generate``, ``example``, ``schema``, ``games`` and
    ``simulate`` with odd options."""
    game = rng.choice(GAMES)
    verb = rng.choice(["hint", "hint", "solve", "verify", "render", "generate", "example",
                       "schema", "games", "simulate", "simulate"])
    files: list[tuple[str, bytes]] = [("keep.toml", b"unrelated = 1\n")]
    writes: tuple[str, ...] = ()
    if verb in ("hint", "solve", "verify", "render"):
        args = [verb, rng.choice(shipped_names(game))]
        commands = commands_for(game)
        own = commands.options.get(verb, []) if commands is not None else []
        choices = ["--top", "--seed", "--time-limit"] if verb in ("hint", "solve") else \
            ["--seed", "--time-limit"]
        choices += ["--" + spec.name.replace("_", "-") for spec in own if spec.kind != "flag"]
        option = rng.choice(choices)
        kinds = {"--top": "int", "--seed": "int", "--time-limit": "float"} | {
            "--" + s.name.replace("_", "-"): s.kind for s in own}
        value = odd_option(kinds[option], rng)
        args += [option, value]
        if option != "--time-limit" and rng.random() < 0.9:  # else the default budget
            args += ["--time-limit", SHORT]
        what = f"{option} {value[:30]!r}"
        if verb == "render":
            extra, writes, put, said = outputs(rng, rng.choice([".svg", ".png"]), "-o")
            args += extra
            files += put
            what += ", " + said
        if game == "party-time" and verb in ("hint", "render") and option != "--playouts":
            args += ["--playouts", "20"]
    elif verb == "generate":
        out = rng.choice(["gen", "gen", "gen-full", "keep.toml", *ODD_PATHS[:5]])
        args = ["generate", rng.choice([*GAMES, "pool-party-stars", "pool-party-stars",
                                        "nope"]), "--out", out,
                "--seed", str(rng.randrange(100))]
        files.append(("gen-full/easy-01.toml", b'game = "pool-party-stars"\n'))
        if rng.random() < 0.5:
            args += ["--count", rng.choice(["0", "1", "2", "-1", "²", "x", "1.5", ""])]
        if rng.random() < 0.5:
            args += ["--difficulty", rng.choice(["easy", "medium", "EASY", "", "hard"])]
        if rng.random() < 0.3:
            args += ["--first", rng.choice(["1", "0", "-1", "²", HUGE, "99"])]
        if rng.random() < 0.3:
            args.append(rng.choice(["--json", "--reveal"]))
        writes = (f"{out}/",)
        what = f"--out {out[:30]!r}"
    elif verb == "example":
        args = ["example", *rng.sample([rng.choice([game, "nope", "", "²"]),
                                        rng.choice(["default", "nope", "../x", "\0", HUGE,
                                                    "puzzles/01", "examples/default", ""])],
                                       rng.choice([0, 1, 2]))]
        args += rng.sample(["--list", "--json", "--reveal"], rng.randint(0, 2))
        what = " ".join(args[1:])[:40]
    elif verb == "schema":
        args = ["schema", rng.choice(["hint", "solve", "verify", "apply", "review", "render",
                                      "nope", "", "HINT", "²", "../x"])]
        what = args[1]
    elif verb == "games":
        args = ["games", *([rng.choice([game, "nope", "²"])] if rng.random() < 0.7 else [])]
        if rng.random() < 0.5:
            args.append("--tiles")
        if rng.random() < 0.3:
            args += ["--catalogue", rng.choice(["keep.toml", "missing.toml", "/proc/self",
                                                "meeple-land:my-catalogue", "d" * 300, "."])]
        if rng.random() < 0.5:
            args.append("--json")
        what = " ".join(args[1:])[:40]
    else:
        commands = commands_for(game)
        policies = list(commands.policies) if commands is not None else ["random"]
        cheap = [p for p in policies if p == "random" or game != "meeple-land" and (
            p != "hint" or game == "pool-party-stars")]  # a Meeple Land game: seconds
        args = ["simulate", game, "--games", rng.choice(["1", "2", "1", "2", "0", "-1", "²"]),
                "--seed", str(rng.randrange(100)), "--policy", rng.choice(cheap)]
        own = commands.options.get("simulate", []) if commands is not None else []
        what = "simulate"
        roll = rng.random()
        if roll < 0.3:
            args += ["--players", rng.choice(["0", "1", "2", "3", "6", "7", "²", HUGE])]
            what = "--players " + args[-1][:20]
        elif roll < 0.5:
            args += ["--policy", rng.choice(["random", "nope", "", "²", *policies])]
            what = "two policies"
        elif roll < 0.65:
            target = rng.choice(["recs", "keep.toml", *ODD_PATHS[:5]])
            args += ["--records", target]
            writes = (f"{target}/",)
            what = f"--records {target[:30]!r}"
        elif roll < 0.75:
            target = rng.choice(["runs.jsonl", "keep.toml", *ODD_PATHS[:5]])
            args += ["--out", target]
            writes = (target,) if target != "keep.toml" else ()
            what = f"--out {target[:30]!r}"
        elif own:
            spec = rng.choice(own)
            flag = "--" + spec.name.replace("_", "-")
            if spec.kind == "flag":
                args.append(flag)
                value = ""
            else:
                value = odd_option(spec.kind, rng) if rng.random() < 0.7 else rng.choice(
                    list(spec.choices) or ["keep.toml", "plot.svg", "plot.png"])
                args += [flag, value]
                if spec.name == "plot":
                    writes = (value,) if value.endswith((".svg", ".png")) else ()
            what = f"{flag} {value[:30]!r}"
        if game == "party-time":
            args += ["--hint-playouts", "5"]
        if game == "meeple-party":
            args += ["--hint-nodes", "50"]
        if rng.random() < 0.3:
            args.append("--json")
    return Case(index, "option", game, what, tuple(args), files=tuple(files), writes=writes)


# -- web cases ---------------------------------------------------------------------------------

API_VERBS = ("hint", "solve", "verify", "apply", "render", "check", "inspect")
CONTENT_TYPES = ["application/json", "APPLICATION/JSON; charset=utf-8",
                 "application/json; charset=latin-1", "text/plain", "application/toml", "",
                 "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
                 "image/svg+xml", "application/json, text/plain", "text/html"]
METHODS = ["GET", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "FOO", "TRACE"]


def deep(depth: int, kind: str = "[") -> str:
    close = "]" if kind == "[" else "}"
    inner = "[]" if kind == "[" else "{}"
    opener = "[" if kind == "[" else '{"a":'
    return opener * depth + inner + close * depth


def web_case(index: int, rng: random.Random, found: Seeds) -> Case:
    game = rng.choice(GAMES)
    roll = rng.random()
    if roll < 0.12:
        return Case(index, "web", game, "GET", request=Request("GET", rng.choice([
            "/api/games", "/api/status", "/api/openapi.json", "/", "/docs",
            f"/api/schemas/{rng.choice(['hint', 'nope', '..', '%00', 'x' * 3000])}.json",
            f"/api/{rng.choice([game, 'nope'])}/examples",
            f"/api/{game}/examples/" + urllib.parse.quote(rng.choice(
                ["default", "nope", "../../etc/passwd", "\0", "puzzles/01", "x" * 3000, "%2e%2e",
                 "examples/default"]), safe="/%"),
            f"/board/{rng.choice([game, 'nope', '<script>'])}",
            "/static/" + rng.choice(["app.js", "../app.py", "nope", "%2e%2e/x"]),
            "/" + "x" * rng.choice([1, 5000]), "/api/" + game + "/hint?x=" + "%" * 10])))
    if roll < 0.22:
        method = rng.choice(METHODS + ["POST"])
        target = rng.choice([f"/api/{game}/hint", f"/api/{game}/apply", "/api/games",
                             "/api/status", f"/api/{game}/examples", "/", "/docs"])
        body = b"{}" if rng.random() < 0.5 else b""
        return Case(index, "web", game, f"{method} {target}",
                    request=Request(method, target, (("content-type", "application/json"),),
                                    body))
    verb = rng.choice(API_VERBS) if rng.random() < 0.95 else rng.choice(
        ["nope", "HINT", "", "examples", "%00", "hint/x"])
    path_game = game if rng.random() < 0.95 else rng.choice(["nope", "TEA-PARTY", "%20"])
    query: dict[str, str] = {}
    if rng.random() < 0.8:
        query["time_limit"] = "0.5"
    if rng.random() < 0.1:
        query[rng.choice(["time_limit", "top", "seed", "format", "hint", "zzz"])] = \
            rng.choice(ODD_SECONDS + ODD_INTEGERS[:12] + ["svg", "json", "png"])
    if verb == "render" and rng.random() < 0.3:
        query["format"] = rng.choice(["svg", "json", "png", ""])
    if game == "party-time":
        query.setdefault("playouts", "20")
    headers = []
    body_kind = rng.choice(["text", "text", "object", "object", "object", "odd"])
    start = rng.choice(playable_starts(game))
    shipped = catalog.reference(start)
    assert shipped is not None
    text = shipped.text(reveal=True)
    what: str
    if body_kind == "text":  # the document itself as the body
        if rng.random() < 0.6:
            mutant = make(rng.randrange(10**9), found.files, found.extras)
            text, what = mutant.text, f"document {mutant.base}: {mutant.mutation}"
        else:
            what = f"document {start}"
        if rng.random() < 0.1:
            text, what = huge_integer(text, rng), what + "+huge integer"
        body = text.encode("utf-8", "surrogatepass")
        kind = rng.choice(["text/plain", "application/toml", "", "application/json",
                           rng.choice(CONTENT_TYPES)])
    elif body_kind == "object":
        fields: dict[str, Any] = {}
        choice = rng.random()
        if choice < 0.4:
            fields["example"] = start.split(":", 1)[1]
        elif choice < 0.7:
            fields["document"] = text
        else:
            fields["document"] = parse_document(text, "x.toml")
        if verb == "apply":
            position = position_of(start)
            moves = [some_legal(position, rng)]
            if rng.random() < 0.6:
                moves[0] = mutate_words(moves[0], rng)[0]
            fields["moves"] = moves
            if rng.random() < 0.3:
                fields["random"] = rng.choice([True, False, 1, "yes", None])
                fields["seed"] = rng.choice([1, -1, 2**64, "x", 1.5, None])
        if verb == "check":
            fields["answer"] = rng.choice(["", "x", 1, None, [], {"a": 1}, "A01 at 0,0"])
        if rng.random() < 0.5:
            fields["options"] = {"time_limit": 0.5}
        what = "object " + ",".join(sorted(fields))
        mutation = rng.choice(["none", "none", "field", "options", "moves", "deep", "huge",
                               "filename", "document", "unknown"])
        if mutation == "field" and fields:
            key = rng.choice(sorted(fields))
            fields[key] = rng.choice([1, "x", None, [], {}, True, 1.5, [1, "a"], {"game": 1}])
        elif mutation == "options":
            fields["options"] = rng.choice([
                {"time_limit": rng.choice([0, -1, "x", None, 1e309, "nan", 61, True, [],
                                           0.05])},
                {"top": rng.choice([0, -1, 10**30, 2**31, 10**8, "²", 1.5, "1", None])},
                {"seed": rng.choice([-1, 2**64, "x", 1.5, "²", None])},
                {"zzz": 1}, [], "x", None, 1,
                {rng.choice(["depth", "playouts", "exact_nodes", "max_nodes", "from_seat",
                             "mcts_iterations", "count", "hint"]):
                 rng.choice([0, -1, "x", 10**30, None, [], "²"])}])
            if isinstance(fields["options"], dict):
                fields["options"].setdefault("time_limit", 0.5)
        elif mutation == "moves":
            fields["moves"] = rng.choice([[], "cup", [1], [None], [[]], ["\0"], ["x" * 5000],
                                          [HUGE], ["²"] * 3, ["cup"] * 500, {"a": 1}])
        elif mutation == "filename":
            fields["filename"] = rng.choice(["", "\0", "../../etc/passwd", "x" * 5000, 1, []])
        elif mutation == "document":
            fields.pop("example", None)
            fields["document"] = rng.choice(["", "{", "game = ", "[", "\0", 1, [],
                                             {"game": "nope"}, {"game": game}, "x" * 5000])
        elif mutation == "unknown":
            fields[rng.choice(["zzz", "", "Document", "game"])] = rng.choice([1, "x", None])
        raw = json.dumps(fields)
        if mutation == "deep":
            where = rng.choice(["options", "document", "moves", "answer"])
            fields[where] = None
            raw = json.dumps(fields).replace(f'"{where}": null', f'"{where}": ' + deep(
                rng.choice([50, 990, 1100, 5000, 50000]), rng.choice(["[", "{"])), 1)
            what += f", {where} nested deep"
        elif mutation == "huge":
            where = rng.choice(["seed", "options", "upto", "document"])
            fields[where] = None
            raw = json.dumps(fields).replace(f'"{where}": null', f'"{where}": ' + rng.choice(
                [HUGE, f'{{"top": {HUGE}}}', f'{{"time_limit": {HUGE}}}', "1e999",
                 "NaN", "-Infinity", f'{{"game": "{game}", "players": {HUGE}}}']), 1)
            what += f", huge number in {where}"
        else:
            what += f", {mutation}"
        body = raw.encode("utf-8")
        kind = "application/json" if rng.random() < 0.85 else rng.choice(CONTENT_TYPES)
    else:
        odd = rng.choice(["empty", "null", "list", "number", "string", "truncated", "bytes",
                          "deep", "huge", "over", "duplicate", "nan"])
        what = f"body {odd}"
        body = {"empty": b"", "null": b"null", "list": b"[1, 2]", "number": HUGE.encode(),
                "string": b'"x"', "truncated": b'{"example": "default", "options": {',
                "bytes": b"\xff\xfe\x00{", "deep": deep(rng.choice([990, 1100, 100000])).encode(),
                "huge": b'{"example": "default", "seed": ' + HUGE.encode() + b"}",
                "over": b'{"document": "' + b"x" * (1024 * 1024 + 10) + b'"}',
                "duplicate": b'{"example": "default", "example": "nope"}',
                "nan": b'{"example": "default", "options": {"time_limit": NaN}}'}[odd]
        kind = rng.choice(["application/json"] * 3 + CONTENT_TYPES)
    if kind:
        headers.append(("content-type", kind))
    if verb == "render" and rng.random() < 0.3:
        headers.append(("accept", rng.choice(["image/svg+xml", "application/json",
                                              "image/svg+xml, application/json", "*/*"])))
    target = f"/api/{path_game}/{verb}"
    if query:
        target += "?" + urllib.parse.urlencode(query)
    return Case(index, "web", game, f"POST {verb}: {what}",
                request=Request("POST", target, tuple(headers), body, rng.random() < 0.7))


MAKERS: dict[str, Callable[[int, random.Random, Seeds], Case]] = {
    "document": document_case, "move": move_case, "record": record_case, "play": play_case,
    "option": option_case, "web": web_case}


ONLY: list[str] = []
"""The families to draw from (``--only``; empty: all)."""


def make_case(index: int, seed: int, found: Seeds, web: bool = True) -> Case:
    """Case ``index`` of ``seed``, from ``random.Random(f"{seed}:{index}")`` alone."""
    rng = random.Random(f"{seed}:{index}")
    families = [(name, weight) for name, weight in FAMILIES
                if (web or name != "web") and (not ONLY or name in ONLY)]
    family = rng.choices([n for n, _ in families], [w for _, w in families])[0]
    case = MAKERS[family](index, rng, found)
    if any("\0" in a for a in case.args):  # no command line can hold a NUL (C strings)
        case = dataclasses.replace(case, args=tuple(a.replace("\0", "") for a in case.args),
                                   writes=tuple(w.replace("\0", "") for w in case.writes))
    return case


# -- running and classifying -------------------------------------------------------------------


def snapshot(folder: Path) -> dict[str, bytes | None]:
    """Every file (its bytes) and folder (``None``) under ``folder``, by relative path."""
    found: dict[str, bytes | None] = {}
    for item in folder.rglob("*"):
        name = item.relative_to(folder).as_posix()
        found[name] = None if item.is_dir() else item.read_bytes()
    return found


ALARMS: list[float] = []
"""When the alarm went off in this process (a run may catch :class:`TimedOut` itself: a
``simulate`` game counted as failed)."""


def _alarm(signum: int, frame: Any) -> None:
    ALARMS.append(time.monotonic())
    raise TimedOut


def strict_json(text: str) -> bool:
    def refuse(constant: str) -> Any:
        raise ValueError(constant)

    try:
        json.loads(text, parse_constant=refuse)
    except ValueError:
        return False
    return True


def empty(folder: Path) -> None:
    for item in folder.iterdir():
        if item.is_dir() and not item.is_symlink():
            shutil.rmtree(item)
        else:
            item.unlink()


def where(exc_info: Any) -> str:
    """The exception and the innermost frame of partysolver it came through."""
    kind, value, trace = exc_info
    frames = [f for f in traceback.extract_tb(trace) if "partysolver" in f.filename
              and "benchmarks" not in f.filename]
    place = ""
    if frames:
        last = frames[-1]
        place = f" at {last.filename.split('partysolver/')[-1]}:{last.lineno} ({last.name})"
    message = str(value).splitlines()[0][:100] if str(value) else ""
    return f"{kind.__name__}: {plain(message)}{place}"


def plain(message: str) -> str:
    """``message`` with its numbers as ``N``, so that one cause is counted once."""
    return re.sub(r"\d+", "N", message)


def one_line_error(message: str) -> str | None:
    """What is wrong with a clean error's line, or ``None``."""
    text = message.strip().removeprefix("Error: ")
    if "bad input:" in text[1:]:
        return "wording: 'bad input:' in the middle of the line"
    return None


def allowed(name: str, writes: tuple[str, ...]) -> bool:
    for item in writes:
        if item.endswith("/"):
            if name == item.rstrip("/") or name.startswith(item):
                return True
        elif name == item or name == item.rstrip("/"):
            return True
    return False


def run_cli(case: Case, folder: Path) -> tuple[str, str]:
    """(class, cause) of a command-line case, run in ``folder`` (emptied first; the working
    directory)."""
    empty(folder)
    for name, data in case.files:
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    before = snapshot(folder)
    signal.signal(signal.SIGALRM, _alarm)
    ALARMS.clear()
    signal.setitimer(signal.ITIMER_REAL, case.timeout)
    try:
        result = CliRunner().invoke(cli, list(case.args), input=case.stdin)
    except TimedOut:
        return "hang", f"{case.verb}: over {case.timeout:.0f} s"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    if isinstance(result.exception, TimedOut) or ALARMS:
        return "hang", f"{case.verb}: over {case.timeout:.0f} s"
    after = snapshot(folder)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        return "crash", where(result.exc_info)
    output = result.stdout + result.stderr
    if "Traceback (most recent call last)" in output:
        return "crash", "a traceback printed: " + plain(output.split("Traceback")[1][-200:])
    wrote = sorted({k for k in after if after[k] != before.get(k)} | (set(before) - set(after)))
    code = result.exit_code
    documented = {0, 1} if case.verb in ("verify", "solve") else {0}
    if code in documented:
        if case.same_outputs:
            return "partial write", f"{case.verb}: two outputs name one file, accepted"
        stray = [name for name in wrote if not allowed(name, case.writes)]
        if stray:
            return "partial write", f"{case.verb} exit {code} wrote {stray[:3]}"
        if "--json" in case.args and code == 0 and not strict_json(result.stdout):
            return "bad JSON", f"{case.verb}: {result.stdout[:80]!r}"
        return "ok", ""
    if code == 1:
        return "crash", f"{case.verb}: exit 1: {plain(result.stderr.strip()[:150])!r}"
    if wrote:
        return "partial write", f"{case.verb} exit {code} left {wrote[:3]}"
    lines = result.stderr.strip().splitlines()
    if code == 2 and len(lines) == 1:
        wrong = one_line_error(lines[0])
        return ("messy error", f"{case.verb}: {wrong}") if wrong else ("clean error", "")
    return "messy error", f"{case.verb} exit {code}: {plain(result.stderr.strip()[:150])!r}"


SERVER: dict[str, Any] = {}
"""The server the web cases go to: ``host``, ``port``, ``process`` and the ``token`` of its
pages."""
TOKEN_HEADER = "x-partysolver-token"
"""The header of the board's token (``partysolver/web/guard.py``)."""


def run_web(case: Case) -> tuple[str, str]:
    """(class, cause) of a web case."""
    request = case.request
    assert request is not None
    connection = http.client.HTTPConnection(SERVER["host"], SERVER["port"],
                                            timeout=WEB_TIMEOUT)
    try:
        headers = dict(request.headers)
        if request.token and SERVER.get("token"):
            headers[TOKEN_HEADER] = SERVER["token"]
        connection.request(request.method, request.target, body=request.body,
                           headers=headers)
        answer = connection.getresponse()
        body = answer.read()
    except TimeoutError:
        return "hang", f"no answer in {WEB_TIMEOUT:.0f} s"
    except (OSError, http.client.HTTPException) as error:
        process = SERVER.get("process")
        died = process is not None and process.poll() is not None
        return "crash", f"{type(error).__name__}{' (the server died)' if died else ''}"
    finally:
        connection.close()
    status = answer.status
    kind = answer.getheader("content-type", "")
    text = body.decode("utf-8", "replace")
    if status >= 500 and status not in (503, 504):
        first = text.strip().splitlines()[0][:120] if text.strip() else ""
        return "crash", f"answer {status}: {plain(first)!r}"
    if 200 <= status < 300:
        if "json" in kind and request.method != "HEAD" and not strict_json(text):
            return "bad JSON", f"answer {status}: {text[:80]!r}"
        return "ok", ""
    if request.method == "HEAD":
        return "clean error", ""
    if "json" not in kind or not strict_json(text):
        return "messy error", f"answer {status} as {kind or 'nothing'}: {text[:80]!r}"
    data = json.loads(text)
    said = data.get("error") if isinstance(data, dict) else None
    message = said.get("message") if isinstance(said, dict) else said
    if not isinstance(message, str) or not message or "\n" in message:
        return "messy error", f"answer {status}: no one-line error: {text[:80]!r}"
    wrong = one_line_error(message)
    return ("messy error", f"answer {status}: {wrong}") if wrong else ("clean error", "")


def run_case(case: Case, folder: Path) -> tuple[str, str]:
    return run_web(case) if case.request is not None else run_cli(case, folder)


def run(mutant: Mutant, folder: Path) -> tuple[str, str]:
    """(class, detail) of a document mutant, as :func:`run_cli` (``tests/test_fuzz_sample``)."""
    name = f"mutant{mutant.suffix}"
    args = tuple(a.replace("{file}", name).replace("{out}", "out.svg") for a in mutant.args)
    case = Case(mutant.index, "document", mutant.game, mutant.mutation, args,
                files=((name, mutant.text.encode("utf-8", "surrogatepass")),),
                writes=("out.svg",) if args[0] == "render" else ())
    here = Path.cwd()
    os.chdir(folder)
    try:
        return run_cli(case, folder)
    finally:
        os.chdir(here)


# -- workers -----------------------------------------------------------------------------------


def worker(connection: Connection, seed: int, found: Seeds, web: bool) -> None:
    """Run the cases the parent sends (their indices) in a folder of this process's own."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    with tempfile.TemporaryDirectory(prefix="partysolver-fuzz-") as place:
        folder = Path(place)
        os.chdir(folder)
        while True:
            index = connection.recv()
            if index is None:
                break
            try:
                case = make_case(index, seed, found, web)
            except Exception:  # a mutation of the fuzzer's own went wrong
                connection.send((index, "?", "?", "?", "not made",
                                 where(sys.exc_info()), 0.0))
                continue
            connection.send(("timeout", case.timeout + GRACE))  # when to kill this worker
            begun = time.perf_counter()
            try:
                kind, cause = run_case(case, folder)
            except Exception:
                kind, cause = "crash", "in the harness: " + where(sys.exc_info())
            connection.send((index, case.family, case.game, case.verb, kind, cause,
                             time.perf_counter() - begun))
        os.chdir("/")


@dataclass
class Worker:
    process: multiprocessing.process.BaseProcess
    connection: Connection
    index: int | None = None
    since: float = 0.0
    limit: float = ALARM + GRACE
    """Seconds the current case may take before the worker is killed."""


def start_worker(seed: int, found: Seeds, web: bool) -> Worker:
    context = multiprocessing.get_context("fork")
    mine, theirs = context.Pipe()
    process = context.Process(target=worker, args=(theirs, seed, found, web), daemon=True)
    process.start()
    theirs.close()
    return Worker(process, mine)


def stop_worker(item: Worker) -> None:
    if item.process.is_alive() and item.process.pid is not None:
        os.kill(item.process.pid, signal.SIGKILL)
    item.process.join(5)
    item.connection.close()


# -- the server --------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start_server(log: Path, workers: int, port: int | None = None
                 ) -> subprocess.Popen[bytes]:
    """``partysolver serve`` on a free loopback port (or ``port``), once its pool is
    ready."""
    port = port or free_port()
    with log.open("ab") as out:
        process = subprocess.Popen([sys.executable, "-m", "partysolver", "serve", "--port",
                                    str(port), "--workers", str(workers)], stdout=out,
                                   stderr=subprocess.STDOUT, start_new_session=True,
                                   env=dict(os.environ, PYTHONUNBUFFERED="1"),
                                   cwd=log.parent)  # partysolver as this Python finds it
    SERVER.update(host="127.0.0.1", port=port, process=process)
    deadline = time.monotonic() + 300  # a first start compiles the numba kernels
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"partysolver serve stopped: {log.read_text()[-2000:]}")
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", "/api/status")
            status = json.loads(connection.getresponse().read())
            connection.request("GET", "/")
            page = connection.getresponse().read().decode("utf-8", "replace")
            connection.close()
            if status["idle"] == status["workers"]:
                found = re.search(r'name="partysolver-token" content="([^"]+)"', page)
                SERVER["token"] = found.group(1) if found else None
                return process
        except (OSError, ValueError, http.client.HTTPException):
            pass
        time.sleep(0.3)
    raise RuntimeError("partysolver serve did not answer within 300 s")


def stop_server(process: subprocess.Popen[bytes]) -> None:
    """Ctrl+C, as a terminal sends it: to the server and its workers, its whole process
    group (killed if it has not stopped within 15 s)."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGINT)
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(5)


# -- showing a case ----------------------------------------------------------------------------


def show(case: Case) -> None:
    """Write ``case``'s files to a new folder; print the exact command (or ``curl``)."""
    print(f"# case {case.index}: {case.family}, {case.game}: {case.what}")
    place = Path(tempfile.mkdtemp(prefix=f"partysolver-case-{case.index}-"))
    for name, data in case.files:
        path = place / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    if case.request is not None:
        request = case.request
        (place / "body.bin").write_bytes(request.body)
        headers = " ".join(f"-H {shlex.quote(f'{k}: {v}')}" for k, v in request.headers)
        print("# partysolver serve --port 8000   (in another terminal), then:")
        if request.token:
            print('# with the token of the board\'s page: TOKEN=$(curl -s 127.0.0.1:8000/ | '
                  "sed -n 's/.*partysolver-token\" content=\"\\([^\"]*\\)\".*/\\1/p')")
            headers += f' -H "{TOKEN_HEADER}: $TOKEN"'
        method = "-I" if request.method == "HEAD" else f"-X {request.method}"
        print(f"cd {place} && curl -sS -i {method} {headers} --data-binary @body.bin "
              f"{shlex.quote('http://127.0.0.1:8000' + request.target)}")
        return
    here = Path(__file__).resolve().parent.parent / ".venv" / "bin" / "partysolver"
    command = " ".join(shlex.quote(a.encode("utf-8", "surrogateescape").decode(
        "utf-8", "backslashreplace")) for a in case.args)
    line = f"cd {place} && {here} {command}"
    if case.stdin is not None:
        (place / "stdin.txt").write_bytes(case.stdin)
        line += " < stdin.txt"
    print(line)
    print(f"# files: {', '.join(n for n, _ in case.files) or 'none'}; a success may write: "
          f"{', '.join(case.writes) or 'nothing'}")


# -- main --------------------------------------------------------------------------------------


@dataclass
class Tally:
    counts: Counter[str] = field(default_factory=Counter)
    by_family: Counter[tuple[str, str]] = field(default_factory=Counter)
    by_verb: Counter[str] = field(default_factory=Counter)
    causes: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    slowest: tuple[float, int] = (0.0, -1)

    def add(self, index: int, family: str, verb: str, kind: str, cause: str,
            seconds: float) -> None:
        self.counts[kind] += 1
        self.by_family[(family, kind)] += 1
        self.by_verb[verb] += 1
        self.slowest = max(self.slowest, (seconds, index))
        if kind not in CLEAN:
            self.causes.setdefault((kind, cause), []).append(index)


def run_all(indices: list[int], seed: int, jobs: int, found: Seeds, web: bool,
            tally: Tally, progress: Callable[[], None],
            restart: Callable[[], object] = lambda: None) -> None:
    """Every case of ``indices`` through ``jobs`` workers (a worker past its case's timeout
    and :data:`GRACE` is
    killed and replaced; one that dies is replaced; a server that stops is counted as a
    crash and started again by ``restart``)."""
    queue = list(reversed(indices))
    workers = [start_worker(seed, found, web) for _ in range(jobs)]
    try:
        while queue or any(w.index is not None for w in workers):
            server = SERVER.get("process")
            if server is not None and server.poll() is not None:
                tally.add(-1, "web", "serve", "crash",
                          f"the server stopped (exit {server.returncode})", 0.0)
                restart()
            for item in workers:
                if item.index is None and queue:
                    item.index = queue.pop()
                    item.since = time.monotonic()
                    item.limit = ALARM + GRACE
                    item.connection.send(item.index)
            busy = {w.connection: w for w in workers if w.index is not None}
            for ready in wait(list(busy), timeout=1.0):
                item = busy[ready]  # type: ignore[index]
                try:
                    message = item.connection.recv()
                    if message[0] == "timeout":
                        item.limit = message[1]
                        continue
                    index, family, _, verb, kind, cause, seconds = message
                except (EOFError, OSError):
                    assert item.index is not None
                    item.process.join(5)
                    tally.add(item.index, "?", "?", "crash",
                              f"the worker died (exit {item.process.exitcode})",
                              time.monotonic() - item.since)
                    workers[workers.index(item)] = start_worker(seed, found, web)
                    progress()
                    continue
                tally.add(index, family, verb, kind, cause, seconds)
                item.index = None
                progress()
            for position, item in enumerate(workers):
                if item.index is not None and time.monotonic() - item.since > item.limit:
                    tally.add(item.index, "?", "?", "hang", f"killed after {item.limit:.0f} s",
                              time.monotonic() - item.since)
                    stop_worker(item)
                    workers[position] = start_worker(seed, found, web)
                    progress()
    finally:
        for item in workers:
            if item.process.is_alive():
                with contextlib.suppress(OSError):
                    item.connection.send(None)
            item.process.join(5)
            stop_worker(item)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", "--count", type=int, default=10000,
                        help="cases to run (default 10000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the cases (default 0)")
    parser.add_argument("--start", type=int, default=0, help="first case (default 0)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--server-workers", type=int, default=2,
                        help="the server's solver workers (default 2)")
    parser.add_argument("--no-web", action="store_true", help="leave the web cases out")
    parser.add_argument("--only", default="", metavar="FAMILY,...",
                        help="these families alone (" + ", ".join(n for n, _ in FAMILIES)
                        + "); case I is then another case")
    parser.add_argument("--show", type=int, default=None,
                        help="write case I's files to a new folder, print its command, stop")
    parser.add_argument("--examples", type=int, default=5,
                        help="cases listed per cause (default 5)")
    args = parser.parse_args()
    ONLY[:] = [name for name in args.only.split(",") if name]
    unknown = set(ONLY) - {name for name, _ in FAMILIES}
    if unknown:
        parser.error(f"--only: no family {', '.join(sorted(unknown))}")
    web = not args.no_web and (not ONLY or "web" in ONLY)
    found = seeds()
    if args.show is not None:
        show(make_case(args.show, args.seed, found, web))
        return
    tally = Tally()
    started = time.perf_counter()
    total = args.cases
    done = 0

    def progress() -> None:
        nonlocal done
        done += 1
        if done % 50 == 0 or done == total:
            print(f"\r{done}/{total} cases, {time.perf_counter() - started:.0f} s; "
                  + ", ".join(f"{k} {tally.counts[k]}" for k in CLASSES if tally.counts[k]),
                  end="", file=sys.stderr, flush=True)

    server_log = ""
    with tempfile.TemporaryDirectory(prefix="partysolver-fuzz-serve-") as place:
        log = Path(place) / "serve.log"
        if web:
            start_server(log, args.server_workers)
        try:
            run_all(list(range(args.start, args.start + total)), args.seed, args.jobs, found,
                    web, tally, progress,
                    lambda: start_server(log, args.server_workers, SERVER["port"]))
        finally:
            if web:
                stop_server(SERVER["process"])
                server_log = log.read_text(encoding="utf-8", errors="replace")
    print(file=sys.stderr)
    if "Traceback" in server_log:
        for chunk in server_log.split("Traceback (most recent call last):")[1:]:
            raised = [line for line in chunk.splitlines()
                      if re.match(r"[A-Za-z_][\w.]*(Error|Exception|Interrupt|Exit)\b", line)]
            tally.add(-1, "web", "serve", "crash", "server log: " + plain(
                raised[0][:150] if raised else chunk.strip().splitlines()[-1][:150]), 0.0)
    seconds = time.perf_counter() - started
    only = f" (families {', '.join(ONLY)})" if ONLY else ""
    print(f"Fuzzing cases {args.start} to {args.start + total - 1} of seed {args.seed}{only} "
          f"({seconds:.0f} s, {args.jobs} workers; slowest: case {tally.slowest[1]}, "
          f"{tally.slowest[0]:.1f} s; hang timeout {ALARM} s, review {PER_STEP:.0f} s more a "
          f"step, web {WEB_TIMEOUT:.0f} s)")
    for kind in CLASSES:
        print(f"  {kind:<14} {tally.counts[kind]:>6}")
    if tally.counts["not made"]:
        print(f"  ({tally.counts['not made']} case(s) not made: the fuzzer's own mutation "
              "failed)")
    families = sorted({f for f, _ in tally.by_family})
    print("  by family: " + "; ".join(
        f"{f} " + ", ".join(f"{k} {tally.by_family[(f, k)]}" for k in CLASSES
                            if tally.by_family[(f, k)]) for f in families))
    print("  by verb: " + ", ".join(f"{v} {n}" for v, n in sorted(tally.by_verb.items())))
    answers_500 = sum(len(v) for (k, c), v in tally.causes.items() if c.startswith("answer 5"))
    print(f"  answers of 500 (and other 5xx but 503, 504): {answers_500}")
    for kind in CLASSES[2:] + ("not made",):
        causes = sorted(((c, v) for (k, c), v in tally.causes.items() if k == kind),
                        key=lambda item: -len(item[1]))
        if causes:
            print(f"\n{kind}: {sum(len(v) for _, v in causes)} in {len(causes)} cause(s)")
            for cause, cases in causes:
                shown = ", ".join(map(str, cases[:args.examples]))
                print(f"  {len(cases):>5} x {cause}\n          cases {shown}")
    print(f"\nShow a case: python benchmarks/fuzz.py --seed {args.seed} --show I")
    if any(tally.counts[k] for k in ("crash", "hang", "partial write")):
        sys.exit(1)


if __name__ == "__main__":
    main()

"""Fuzz benchmark: mutants of the shipped examples and puzzles through every verb, in-process.

Each mutant ``i`` is made from ``random.Random(i)`` alone (so any chunk can be run, or one
mutant shown, again): a shipped file of one of the five games (an example, a puzzle, a
scenario or position; for ``simulate``, a house, guest deck or rules file), parsed and mutated
(a wrong type, a deleted or unknown field, an out-of-range or huge number, NaN, deep nesting,
odd unicode, a list emptied or repeated, a value moved to another field) or mutated as text
(truncated, a byte changed), written as TOML or JSON, and run through one verb (``hint``,
``solve``, ``verify``, ``render``, ``apply --random``, or ``simulate`` with the file) by
``click.testing.CliRunner`` with a short ``--time-limit``.  (``apply`` joined on 2026-12-02:
since then an index draws another mutant than it did before.)  Every run is classified:

* ``clean``: exit 0 or 1 (``verify`` lists problems), nothing unexpected written;
* ``clean error``: exit 2 and one line on stderr, no traceback, nothing written;
* ``messy error``: any other failure the program meant (several lines, another exit code);
* ``crash``: an exception escaped (a traceback);
* ``over 30 s``: stopped by the alarm;
* ``partial write``: a failed run left a file behind or changed one (or a verb other than
  ``render`` wrote anything);
* ``bad JSON``: with ``--json``, stdout is not strict JSON (NaN, Infinity, not parseable).

Target: 0 crashes, 0 hangs, 0 partial writes.  Run
``nice -n 10 .venv/bin/python benchmarks/fuzz.py --start 0 --count 10000`` (or in chunks with
``--start``; ``--show I`` prints mutant ``I``'s file and command).
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import random
import signal
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from partysolver import puzzles
from partysolver.cli.main import cli
from partysolver.models.documents import format_document, parse_document

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
ALARM = 30
CLASSES = ("clean", "clean error", "messy error", "crash", "over 30 s", "partial write",
           "bad JSON")

ODD_TEXT = ["", " ", "\0", "\ud800", "\udfff", "é", "Ann\u202e", "🎉" * 3, "x" * 5000,
            "\n", "inf", "nan", "-", "house", "../../etc/passwd", "a\0b.toml",
            "c" * 300 + ".toml", "game", "[", "{}"]
ODD_NUMBERS = [0, -1, 1, 2, 3, 7, 99, -(2**63), 2**63, 2**64, 10**9, 10**30, -(10**30)]
ODD_FLOATS = [math.nan, math.inf, -math.inf, 0.5, -0.0, 1e308]


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


# -- running and classifying -------------------------------------------------------------------------


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir()}


def _alarm(signum: int, frame: Any) -> None:
    raise TimedOut


def strict_json(text: str) -> bool:
    def refuse(constant: str) -> Any:
        raise ValueError(constant)

    try:
        json.loads(text, parse_constant=refuse)
    except ValueError:
        return False
    return True


def run(mutant: Mutant, folder: Path) -> tuple[str, str]:
    """(class, detail) of one mutant, run in ``folder`` (emptied first)."""
    for item in folder.iterdir():
        item.unlink()
    source = folder / f"mutant{mutant.suffix}"
    source.write_bytes(mutant.text.encode("utf-8", "surrogatepass"))
    out = folder / "out.svg"
    args = [a.replace("{file}", str(source)).replace("{out}", str(out)) for a in mutant.args]
    before = snapshot(folder)
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(ALARM)
    try:
        result = CliRunner().invoke(cli, args)
    except TimedOut:
        return "over 30 s", ""
    finally:
        signal.alarm(0)
    if isinstance(result.exception, TimedOut):
        return "over 30 s", ""
    after = snapshot(folder)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        assert result.exc_info is not None
        last = traceback.format_exception(*result.exc_info)[-1].strip()
        return "crash", last[:200]
    wrote = {k for k in after if after[k] != before.get(k)} | (set(before) - set(after))
    code = result.exit_code
    if code in (0, 1):
        if wrote - ({"out.svg"} if mutant.args[0] == "render" and code == 0 else set()):
            return "partial write", f"exit {code}, wrote {sorted(wrote)}"
        if "--json" in args and not strict_json(result.stdout):
            return "bad JSON", result.stdout[:200]
        return "clean", ""
    if wrote:
        return "partial write", f"exit {code}, wrote {sorted(wrote)}"
    lines = result.stderr.strip().splitlines()
    if code == 2 and len(lines) == 1 and "Traceback" not in result.stderr:
        return "clean error", ""
    return "messy error", f"exit {code}: {result.stderr.strip()[:300]!r}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--start", type=int, default=0, help="first mutant (default 0)")
    parser.add_argument("--count", type=int, default=10000, help="mutants (default 10000)")
    parser.add_argument("--show", type=int, default=None, help="print mutant I and stop")
    parser.add_argument("--examples", type=int, default=5,
                        help="mutants listed per failing class (default 5)")
    args = parser.parse_args()
    seeds, extras = seed_files(), simulate_files()
    if args.show is not None:
        mutant = make(args.show, seeds, extras)
        print(f"# mutant {mutant.index}: {mutant.game} {mutant.base}, {mutant.mutation}")
        print("# partysolver " + " ".join(mutant.args))
        print(mutant.text)
        return
    counts: Counter[str] = Counter()
    found: dict[str, list[str]] = {}
    per_verb: Counter[tuple[str, str]] = Counter()
    slowest = (0.0, -1)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="partysolver-fuzz-") as place:
        folder = Path(place)
        for index in range(args.start, args.start + args.count):
            try:
                mutant = make(index, seeds, extras)
            except (RecursionError, KeyError):  # a mutation of the fuzzer's own went wrong
                counts["not made"] += 1
                continue
            begun = time.perf_counter()
            kind, detail = run(mutant, folder)
            seconds = time.perf_counter() - begun
            slowest = max(slowest, (seconds, index))
            counts[kind] += 1
            per_verb[(mutant.game, mutant.args[0])] += 1
            if kind not in ("clean", "clean error"):
                found.setdefault(kind, []).append(
                    f"mutant {index} ({mutant.game} {mutant.base}, {mutant.mutation}, "
                    f"{mutant.args[0]}): {detail}")
            done = index - args.start + 1
            if done % 100 == 0 or done == args.count:
                print(f"\r{done}/{args.count} mutants, {time.perf_counter() - started:.0f} s; "
                      + ", ".join(f"{k} {counts[k]}" for k in CLASSES if counts[k]),
                      end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    print(f"Fuzzing mutants {args.start} to {args.start + args.count - 1} "
          f"({time.perf_counter() - started:.0f} s; slowest: mutant {slowest[1]}, "
          f"{slowest[0]:.1f} s)")
    for kind in CLASSES:
        print(f"  {kind:<14} {counts[kind]:>6}")
    if counts["not made"]:
        print(f"  ({counts['not made']} mutant(s) not made: the mutation recursed too deep)")
    print("  by game and verb: " + ", ".join(f"{g} {v} {n}" for (g, v), n in
                                              sorted(per_verb.items())))
    for kind, items in found.items():
        print(f"\n{kind}: {len(items)}")
        for line in items[:args.examples]:
            print("  " + line)


if __name__ == "__main__":
    main()

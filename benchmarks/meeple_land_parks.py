"""The best park the catalogue allows (issue 31): solve, print and publish.

For each park size, the solo layout puzzle whose pool is the whole house catalogue (or the
size bands given), the entrance on the top edge of the middle column, the game's budget ($30,
the grants of the four rounds) and 24 visitors (four buses of six: 7 green, 7 blue, 6 pink,
4 yellow), final reputation (``partysolver/solvers/meeple_land/parks.py``).  Solved by CP-SAT
with the strengthened model (tile dominance and bounds by the number of types,
``partysolver/solvers/meeple_land/relax.py``) in two stages:

1. the *cheap* pool (``--warm-pool cheap``): the attraction tiles of at most $3 and the
   medium ones with three spaces (the most seats per dollar), a small model where CP-SAT
   finds good parks fast;
2. the whole pool, seeded with stage 1's park: when that park meets the strengthened model's
   bound, it is proven optimal for the whole pool at once; otherwise CP-SAT searches on.

Prints every improvement (value, bound, seconds) and the answer; with ``--out`` writes each
park as a puzzle file with its layout (``[answer]``, ``[[answer.layout]]``), which
``partysolver verify`` re-scores.

    nice -n 10 .venv/bin/python benchmarks/meeple_land_parks.py --size 5 6 7 --out docs/results
    .venv/bin/python benchmarks/meeple_land_parks.py --size 4 --bands small --minutes 1
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import shlex
import sys
import time
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import NoReturn

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from partysolver.models.documents import format_document  # noqa: E402
from partysolver.models.meeple_land.catalogue import house_catalogue  # noqa: E402
from partysolver.models.meeple_land.position import Entry  # noqa: E402
from partysolver.models.meeple_land.puzzle import Answer, Puzzle, puzzle_document  # noqa: E402
from partysolver.solvers.meeple_land.layout import (  # noqa: E402
    DEFAULT_SETTINGS,
    STRENGTHENED,
    LayoutResult,
    Progress,
    solve_layout,
)
from partysolver.solvers.meeple_land.parks import (  # noqa: E402
    BANDS,
    PARK_BUDGET,
    PARK_VISITORS,
    cheap_pool,
    park_puzzle,
)


class Parser(argparse.ArgumentParser):
    """Bad options: one line, exit code 2, nothing written."""

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"meeple_land_parks.py: error: {message}\n")
        raise SystemExit(2)


def visitors_option(text: str) -> tuple[int, int, int, int]:
    try:
        counts = tuple(int(v) for v in text.split(","))
    except ValueError:
        counts = ()
    if len(counts) != 4 or min(counts) < 0:
        raise argparse.ArgumentTypeError(
            f"four counts green,blue,pink,yellow such as 7,7,6,4, not {text!r}")
    return counts  # type: ignore[return-value]


def size_option(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 9:
        raise argparse.ArgumentTypeError(f"a park side from 1 to 9, not {text!r}")
    return int(text)


def positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0:
        raise argparse.ArgumentTypeError(f"minutes: a positive number, not {text!r}")
    return value


def run(puzzle: Puzzle, minutes: float, workers: int, start: tuple | None, label: str,
        strengthen: tuple[str, ...] = STRENGTHENED) -> tuple[LayoutResult, float]:
    settings = replace(DEFAULT_SETTINGS, strengthen=strengthen, workers=workers,
                       name=f"{DEFAULT_SETTINGS.name}; strengthened: "
                            f"{', '.join(strengthen) or 'none'}; {workers} workers")
    started = time.perf_counter()

    def show(p: Progress) -> None:
        print(f"   [{label}] {p.seconds:8.1f}s  best {p.value!s:>4}  bound {p.bound!s:>4}  "
              f"({p.source})", flush=True)

    result = solve_layout(puzzle, time_limit=minutes * 60, progress=show, settings=settings,
                          start=start)
    return result, time.perf_counter() - started


def main() -> None:
    parser = Parser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", nargs="+", type=size_option, default=[5, 6, 7])
    parser.add_argument("--bands", nargs="+", choices=BANDS, default=list(BANDS),
                        help="size bands of the catalogue in the pool (default: all)")
    parser.add_argument("--warm-pool", choices=("cheap", "none"), default="cheap")
    parser.add_argument("--warm-minutes", type=positive, default=5.0)
    parser.add_argument("--minutes", type=positive, default=30.0,
                        help="time limit of the whole-pool stage, per size")
    parser.add_argument("--strengthen", choices=("both", "dominance", "types", "none"),
                        default="both", help="the redundant constraints added (default both)")
    parser.add_argument("--workers", type=int, choices=range(1, 9), default=2, metavar="N")
    parser.add_argument("--budget", type=int, default=PARK_BUDGET)
    parser.add_argument("--visitors", type=visitors_option, default=PARK_VISITORS)
    parser.add_argument("--out", type=Path, default=None,
                        help="folder for the result files (meeple-land-park-NxN[-bands].toml)")
    args = parser.parse_args()
    if args.budget < 0:
        parser.error(f"--budget: dollars, at least 0, not {args.budget}")
    if args.out is not None and args.out.exists() and not args.out.is_dir():
        parser.error(f"--out: a folder, not the file {args.out}")
    command = "nice -n 10 .venv/bin/python benchmarks/meeple_land_parks.py " + shlex.join(
        sys.argv[1:])
    strengthen = {"both": STRENGTHENED, "none": ()}.get(args.strengthen, (args.strengthen,))
    catalogue = house_catalogue()
    for size in args.size:
        puzzle = park_puzzle(size, args.bands, args.budget, args.visitors, catalogue)
        print(f"\n{puzzle.name}: {len(puzzle.pool)} tiles, budget ${args.budget}, visitors "
              f"{args.visitors} (green, blue, pink, yellow), entrance N{size // 2}", flush=True)
        wall = 0.0
        start = None
        if args.warm_pool == "cheap":
            small = replace(puzzle, pool=cheap_pool(puzzle))
            print(f"  stage 1: the cheap pool, {len(small.pool)} tiles", flush=True)
            first, seconds = run(small, args.warm_minutes, args.workers, None, "cheap",
                                 strengthen)
            wall += seconds
            print(f"  stage 1: {first.status} {first.objective} (bound {first.bound}) in "
                  f"{seconds:.0f} s", flush=True)
            start = first.placements if first.layout is not None else None
        print(f"  stage 2: the whole pool, {len(puzzle.pool)} tiles", flush=True)
        result, seconds = run(puzzle, args.minutes, args.workers, start, "whole", strengthen)
        wall += seconds
        u = result.usage
        gap = None if result.objective is None or result.bound is None else \
            result.bound - result.objective
        print(f"  model: {u.get('placements')} placement literals, {u.get('variables')} "
              f"variables, {u.get('constraints')} constraints; greedy {u.get('greedy')}, "
              f"start {u.get('start')}", flush=True)
        print(f"  {result.status}: best park {result.objective}, proven bound {result.bound}, "
              f"gap {gap}; wall {wall:.0f} s", flush=True)
        if result.layout is None:
            continue
        print("  " + " ".join(f"{p.tile}@{p.at[0]},{p.at[1]}r{p.rotation}"
                              for p in result.placements), flush=True)
        if args.out is not None:
            write(args.out, puzzle, result, wall, command, args.bands, strengthen)


def write(folder: Path, puzzle: Puzzle, result: LayoutResult, wall: float, command: str,
          bands: list[str], strengthen: tuple[str, ...]) -> None:
    assert result.objective is not None
    size = puzzle.plot.width
    suffix = "" if set(bands) == set(BANDS) else "-" + "-".join(bands)
    path = folder / f"meeple-land-park-{size}x{size}{suffix}.toml"
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    notes = (f"Issue 31: the best park the catalogue allows. {result.status}: final reputation "
             f"{result.objective}, proven bound {result.bound}. CP-SAT, model strengthened "
             f"by {', '.join(strengthen) or 'nothing'}, {wall:.0f} s of wall time, {when}, {platform.machine()} "
             f"({platform.python_implementation()} {platform.python_version()}), load "
             f"average {os.getloadavg()[0]:.1f} at the end. "
             f"Reproduce: {command}")
    answer = Answer("optimal" if result.status == "optimal" else "feasible", result.objective,
                    bound=result.bound,
                    layout=tuple(Entry(p.tile, p.at, p.rotation) for p in result.placements))
    document = puzzle_document(replace(puzzle, answer=answer, notes=notes,
                                       difficulty="hard"))
    folder.mkdir(parents=True, exist_ok=True)
    path.write_text(compact(format_document(document)))
    print(f"  wrote {path}", flush=True)


def compact(text: str) -> str:
    """The TOML with each short array of numbers on one line and the pool wrapped, as the
    shipped puzzle files are written (the same data)."""
    def inline(found: re.Match[str]) -> str:
        items = [item.strip().rstrip(",") for item in found.group(2).strip().splitlines()]
        if found.group(1) == "pool":
            rows = [", ".join(items[i:i + 12]) for i in range(0, len(items), 12)]
            return "pool = [\n    " + ",\n    ".join(rows) + ",\n]"
        return f"{found.group(1)} = [{', '.join(items)}]"

    return re.sub(r"^(\w+) = \[\n((?:    [^\n\[\]]+,\n)+)\]", inline, text, flags=re.M)


if __name__ == "__main__":
    main()

"""Meeple Land benchmark: printed figures, never asserted.

1. Every shipped layout puzzle (``partysolver/puzzles/meeple-land/puzzles``) solved by the
   CP-SAT model with 1 worker (seeded: deterministic) and with 2 workers: status, proven
   optimum against the recorded one, time to the proof; then the largest puzzle proven within
   60 s and whether every 7x7 puzzle with 20 or more candidate tiles was proven within 60 s.
2. Against the baselines in the same run, on the small puzzles: the naive exhaustive brute
   force (every subset of the pool, every position and turn) and the growth search (every
   layout the placement rule can build, judged once): identical optima and numbers of optimal
   layouts, and the time ratio.

    python benchmarks/meeple_land.py                    # everything
    python benchmarks/meeple_land.py --limit 60         # the per-solve time limit (seconds)
    python benchmarks/meeple_land.py --only 01 02 14    # some puzzles
    python benchmarks/meeple_land.py --skip-brute       # part 1 only
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from partysolver.models.documents import parse_document  # noqa: E402
from partysolver.models.meeple_land.puzzle import Puzzle, load_puzzle  # noqa: E402
from partysolver.puzzles import files  # noqa: E402
from partysolver.solvers.budget import Budget  # noqa: E402
from partysolver.solvers.meeple_land.brute import brute_force, grow_search  # noqa: E402
from partysolver.solvers.meeple_land.layout import solve_layout  # noqa: E402

BRUTE_CELLS = 9
"""The brute force runs on plots of at most this many cells (3x3)."""


def shipped(only: list[str]) -> list[tuple[str, Puzzle]]:
    found = []
    for name, item in files("meeple-land", "puzzles").items():
        if only and not any(name.startswith(o) for o in only):
            continue
        puzzle = load_puzzle(parse_document(item.read_text(encoding="utf-8"), name), name)
        found.append((name, puzzle))
    return found


def describe(puzzle: Puzzle) -> str:
    cells = len(puzzle.plot.cells)
    return f"{puzzle.plot.width}x{puzzle.plot.height}" + \
        ("+3x3" if puzzle.plot.extension else "") + f" ({cells} cells)"


def part_one(puzzles: list[tuple[str, Puzzle]], limit: float) -> None:
    print(f"1. CP-SAT: time to a proven optimum (limit {limit:g} s per solve)")
    print(f"{'puzzle':<26} {'plot':<19} {'tiles':>5} {'recorded':>9} "
          f"{'1 worker':>18} {'2 workers':>18}")
    proven_in_limit: list[tuple[int, int, str]] = []
    big_ok = []
    for name, puzzle in puzzles:
        cells = []
        recorded = puzzle.answer
        want = "-" if recorded is None else (
            "infeas." if recorded.status == "infeasible" else str(recorded.objective))
        ok_both = True
        for workers in (1, 2):
            started = time.perf_counter()
            result = solve_layout(puzzle, time_limit=limit, workers=workers,
                                  seed=0 if workers == 1 else None)
            seconds = time.perf_counter() - started
            value = "infeas." if result.status == "infeasible" else str(result.objective)
            mark = "" if value == want or recorded is None else " MISMATCH"
            cells.append(f"{result.status[:4]} {value:>5} {seconds:6.2f}s{mark}")
            proven = result.status in ("optimal", "infeasible")
            ok_both = ok_both and proven and seconds <= limit
            if proven and seconds <= 60:
                proven_in_limit.append((len(puzzle.plot.cells), len(puzzle.pool), name))
        if puzzle.plot.width == puzzle.plot.height == 7 and len(puzzle.pool) >= 20:
            big_ok.append((name, ok_both))
        print(f"{name:<26} {describe(puzzle):<19} {len(puzzle.pool):>5} {want:>9} "
              f"{cells[0]:>18} {cells[1]:>18}", flush=True)
    if proven_in_limit:
        cells_, tiles, name = max(proven_in_limit)
        print(f"largest proven within 60 s: {name} ({cells_} cells, {tiles} candidate tiles)")
    if big_ok:
        every = all(ok for _, ok in big_ok)
        print(f"7x7 puzzles with 20+ candidate tiles: {len(big_ok)}; every one proven within "
              f"{limit:g} s with 1 and 2 workers: {'yes' if every else 'no'}"
              + ("" if every else " (" + ", ".join(n for n, ok in big_ok if not ok) + ")"))


def _baseline(puzzle: Puzzle, search: Any, limit: float) -> tuple[str, int | None, float, int]:
    """Run an exhaustive search: (optimum or 'infeas.'/'timeout', optimal layouts, seconds,
    layouts judged)."""
    started = time.perf_counter()
    truth = search(puzzle, Budget(time=limit))
    seconds = time.perf_counter() - started
    if truth.status == "unknown":
        return "timeout", None, seconds, truth.layouts_seen
    value = "infeas." if truth.status == "infeasible" else str(truth.objective)
    return value, len(truth.optimal_layouts), seconds, truth.layouts_seen


def part_two(puzzles: list[tuple[str, Puzzle]], brute_limit: float) -> None:
    print(f"\n2. Against exhaustive search on the plots of at most {BRUTE_CELLS} cells, each "
          f"stopped after {brute_limit:g} s:\n   the brute force (every subset, cell and turn) "
          "and the growth search (every layout the placement rule builds);\n   optimum/optimal "
          "layouts ('+': the --count limit stopped the count), seconds, layouts judged, time "
          "ratio to CP-SAT (solve and --count; '>': stopped)")
    print(f"{'puzzle':<26} {'tiles':>5} {'CP-SAT':>12} {'brute force':>30} "
          f"{'growth search':>30} {'same':>5}")
    for name, puzzle in puzzles:
        if len(puzzle.plot.cells) > BRUTE_CELLS:
            continue
        started = time.perf_counter()
        result = solve_layout(puzzle, seed=0, count=True)
        cp_seconds = time.perf_counter() - started
        cp_value = "infeas." if result.status == "infeasible" else str(result.objective)
        count = "-" if result.count is None else (
            f"{result.count}" + ("" if result.count_complete else "+"))  # +: stopped
        cells = [f"{cp_value}/{count} {cp_seconds:5.2f}s"]
        same = True
        for search in (brute_force, grow_search):
            value, layouts, seconds, seen = _baseline(puzzle, search, brute_limit)
            stopped = value == "timeout"
            ratio = (">" if stopped else "") + f"{seconds / cp_seconds:.2g}x"
            shown = value if stopped else f"{value}/{layouts if layouts is not None else '-'}"
            cells.append(f"{shown} {seconds:6.1f}s {seen:>9,} {ratio:>6}")
            if not stopped:
                same = same and value == cp_value and (
                    not result.count_complete or layouts == result.count)
        print(f"{name:<26} {len(puzzle.pool):>5} {cells[0]:>12} {cells[1]:>30} "
              f"{cells[2]:>30} {'yes' if same else 'NO':>5}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=float, default=60.0)
    parser.add_argument("--brute-limit", type=float, default=120.0)
    parser.add_argument("--only", nargs="*", default=[])
    parser.add_argument("--skip-brute", action="store_true")
    args = parser.parse_args()
    puzzles = shipped(args.only)
    part_one(puzzles, args.limit)
    if not args.skip_brute:
        part_two(puzzles, args.brute_limit)


if __name__ == "__main__":
    main()

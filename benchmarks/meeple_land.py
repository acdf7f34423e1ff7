"""Meeple Land benchmark: printed figures, never asserted.

1. CP-SAT search settings (how the default was chosen): every shipped layout puzzle
   (``partysolver/puzzles/meeple-land/puzzles``) and the VARIANTS below (requirements
   dropped, budgets changed), each solved to a proof by every CANDIDATE setting (1, 2 and 4
   workers; CP-SAT's own portfolio or an interleaved one; ``max_lp``; symmetry; the greedy
   warm start or none; quick restarts; random seeds), in the same run, round robin, repeated.
   Per run: status, value, seconds to the answer (greedy, model building and CP-SAT), CP-SAT's
   wall time, deterministic time, branches and conflicts.  Then the matrix of median seconds
   to a proof, each candidate's worst ratio to the best candidate over the instances (the
   default must stay within 1.5x), and the same by deterministic time.
2. Anytime: the default under short time limits (status, value, bound, where the layout came
   from), and the greedy layout alone against the optimum on every instance.
3. Against the baselines in the same run, on the small puzzles: the naive exhaustive brute
   force (every subset of the pool, every position and turn) and the growth search (every
   layout the placement rule can build, judged once): identical optima and numbers of optimal
   layouts, and the time ratio.
4. ``--moonshot`` (opt-in): the best 7x7 park from the whole 101-tile house catalogue at a
   budget, and the gap between the best park found and CP-SAT's proven bound after
   ``--moonshot-minutes``.

    python benchmarks/meeple_land.py --quick            # a few minutes: development size
    python benchmarks/meeple_land.py                    # the full size (long: see docs)
    python benchmarks/meeple_land.py --limit 60         # the per-solve time limit (seconds)
    python benchmarks/meeple_land.py --only 14 16       # some instances (name prefixes)
    python benchmarks/meeple_land.py --candidates 1w 2w # some candidates (keys)
    python benchmarks/meeple_land.py --skip-brute       # parts 1 and 2 only
    nice -n 10 python benchmarks/meeple_land.py --moonshot --skip-settings --skip-brute
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from partysolver.models.documents import parse_document  # noqa: E402
from partysolver.models.meeple_land.catalogue import house_catalogue  # noqa: E402
from partysolver.models.meeple_land.game import Plot  # noqa: E402
from partysolver.models.meeple_land.puzzle import Puzzle, load_puzzle  # noqa: E402
from partysolver.models.meeple_land.seating import clear_seating_cache  # noqa: E402
from partysolver.puzzles import files  # noqa: E402
from partysolver.solvers.budget import Budget  # noqa: E402
from partysolver.solvers.meeple_land.brute import brute_force, grow_search  # noqa: E402
from partysolver.solvers.meeple_land.greedy import greedy_layout  # noqa: E402
from partysolver.solvers.meeple_land.layout import (  # noqa: E402
    DEFAULT_SETTINGS,
    Progress,
    SearchSettings,
    solve_layout,
)

BRUTE_CELLS = 9
"""The brute force runs on plots of at most this many cells (3x3)."""
TARGET_RATIO = 1.5
"""The default's time to a proof must stay within this factor of the best candidate's."""


@dataclass(frozen=True)
class Candidate:
    """A setting of the layout search under test (``seed``: passed to ``solve_layout``)."""

    key: str
    settings: SearchSettings
    seed: int | None = None


INTERLEAVED = ("default_lp", "max_lp")
CANDIDATES = [
    Candidate("auto", DEFAULT_SETTINGS),
    Candidate("auto-nolp", replace(DEFAULT_SETTINGS, budget_lp=False,
                                   name="the default until 2 December: as auto, without "
                                        "max_lp on small budget models")),
    Candidate("1w", SearchSettings("1 worker, CP-SAT's default_lp, warm start",
                                   interleave=False)),
    Candidate("1w-cold", SearchSettings("1 worker, default_lp, no warm start",
                                        interleave=False, warm_start=False)),
    Candidate("1w-s2", SearchSettings("1 worker, default_lp, warm start, seed 2",
                                      interleave=False), seed=2),
    Candidate("1w-s3", SearchSettings("1 worker, default_lp, warm start, seed 3",
                                      interleave=False), seed=3),
    Candidate("1w-maxlp", SearchSettings("1 worker, max_lp (linearization 2)", interleave=False,
                                         linearization_level=2)),
    Candidate("1w-nosym", SearchSettings("1 worker, default_lp, no symmetry detection",
                                         interleave=False, symmetry_level=0)),
    Candidate("1w-qr", SearchSettings("1 worker, portfolio with quick restarts",
                                      interleave=False,
                                      search_branching="PORTFOLIO_WITH_QUICK_RESTART_SEARCH")),
    Candidate("1w-il", SearchSettings("1 worker, interleaved default_lp + max_lp + LNS",
                                      subsolvers=INTERLEAVED)),
    Candidate("2w", SearchSettings("2 workers, CP-SAT's portfolio", workers=2,
                                   interleave=False)),
    Candidate("2w-cold", SearchSettings("2 workers, CP-SAT's portfolio, no warm start",
                                        workers=2, interleave=False, warm_start=False)),
    Candidate("2w-lp", SearchSettings("2 workers: default_lp and max_lp side by side",
                                      workers=2, interleave=False, subsolvers=INTERLEAVED,
                                      full_subsolvers=2)),
    Candidate("2w-il", SearchSettings("2 workers, interleaved default_lp + max_lp + LNS",
                                      workers=2, subsolvers=INTERLEAVED)),
    Candidate("2w-il-cold", SearchSettings("the baseline (the default until now): 2 workers, "
                                           "interleaved default_lp + max_lp + LNS, no warm "
                                           "start", workers=2, subsolvers=INTERLEAVED,
                                           warm_start=False)),
    Candidate("4w", SearchSettings("4 workers, CP-SAT's portfolio", workers=4,
                                   interleave=False)),
    Candidate("4w-il", SearchSettings("4 workers, interleaved default_lp + max_lp + LNS",
                                      workers=4, subsolvers=INTERLEAVED)),
]
QUICK_CANDIDATES = ["auto", "1w", "2w", "2w-il-cold", "4w"]
QUICK_INSTANCES = ["01-first-steps", "10-rush-hour", "14-grand-opening",
                   "16-spotless, dead ends allowed", "17-collector, budget $30"]


def default_key() -> str:
    """The candidate that is the shipped default (same settings, no seed)."""
    for cand in CANDIDATES:
        if cand.seed is None and replace(cand.settings, name="") == replace(DEFAULT_SETTINGS,
                                                                              name=""):
            return cand.key
    raise SystemExit("the default settings are not among the candidates")


def shipped() -> dict[str, Puzzle]:
    found = {}
    for name, item in files("meeple-land", "puzzles").items():
        found[name] = load_puzzle(parse_document(item.read_text(encoding="utf-8"), name), name)
    return found


VARIANTS: dict[str, tuple[str, Callable[[Puzzle], Puzzle]]] = {
    "16-spotless, dead ends allowed": ("16", lambda p: replace(p, no_dead_ends=False)),
    "13-zero-tolerance, dead ends allowed": ("13", lambda p: replace(p, no_dead_ends=False)),
    "14-grand-opening, no budget": ("14", lambda p: replace(p, budget=None)),
    "14-grand-opening, budget $40": ("14", lambda p: replace(p, budget=40)),
    "15-full-house, budget $45": ("15", lambda p: replace(p, budget=45)),
    "17-collector, budget $30": ("17", lambda p: replace(p, budget=30)),
    "18-crowd-control, no budget": ("18", lambda p: replace(p, budget=None)),
    "07-seat-everyone, seating not required": ("07", lambda p: replace(p, seat_all=False)),
}
"""Variants of the shipped puzzles: requirements dropped, budgets changed (their optima are
not recorded; the candidates must agree with each other)."""


def instances(only: list[str], exact: bool = False) -> list[tuple[str, Puzzle]]:
    puzzles = shipped()
    found = list(puzzles.items())
    for name, (prefix, change) in VARIANTS.items():
        base = next(p for n, p in puzzles.items() if n.startswith(prefix))
        found.append((name, replace(change(base), answer=None)))
    if only:
        found = [(n, p) for n, p in found
                 if any(n == o if exact else n.startswith(o) for o in only)]
    return found


def describe(puzzle: Puzzle) -> str:
    return f"{puzzle.plot.width}x{puzzle.plot.height}" + \
        ("+3x3" if puzzle.plot.extension else "") + f", {len(puzzle.pool)} tiles"


# -- 1. search settings -----------------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    status: str
    value: int | None
    bound: int | None
    seconds: float
    usage: dict[str, Any]

    @property
    def proven(self) -> bool:
        return self.status in ("optimal", "infeasible")

    def shown(self) -> str:
        return "infeas." if self.status == "infeasible" else str(self.value)


def run_once(puzzle: Puzzle, cand: Candidate, limit: float) -> Run:
    clear_seating_cache()  # every run starts as a fresh process would, whatever ran before
    started, cpu = time.perf_counter(), time.process_time()
    result = solve_layout(puzzle, time_limit=limit, settings=cand.settings, seed=cand.seed)
    return Run(result.status, result.objective, result.bound, time.perf_counter() - started,
               result.usage | {"cpu": time.process_time() - cpu})


def median_run(runs: list[Run]) -> Run:
    ordered = sorted(runs, key=lambda r: (not r.proven, r.seconds))
    return ordered[(len(ordered) - 1) // 2]


def part_settings(chosen: list[tuple[str, Puzzle]], cands: list[Candidate], limit: float,
                  repeat: int) -> dict[str, dict[str, Run]]:
    default = default_key()
    middle = "the run" if repeat == 1 else (
        "the faster of 2 runs" if repeat == 2 else f"the median of {repeat} runs")
    print(f"1. CP-SAT search settings: seconds to a proven answer (limit {limit:g} s, {middle}, "
          f"candidates round robin); the default is {default!r}: {DEFAULT_SETTINGS.name}")
    for cand in cands:
        print(f"   {cand.key:<11} {cand.settings.name}")
    print("   per run: status value/bound, seconds to the answer (greedy + model + CP-SAT; "
          "each run's in brackets),\n   process CPU seconds, CP-SAT wall time, CP-SAT "
          "deterministic time, branches, conflicts, where the layout came from")
    table: dict[str, dict[str, Run]] = {}
    solve_layout(chosen[0][1], seed=0)  # warm up: imports and caches, not timed
    for name, puzzle in chosen:
        runs: dict[str, list[Run]] = {c.key: [] for c in cands}
        for _ in range(repeat):
            for cand in cands:
                runs[cand.key].append(run_once(puzzle, cand, limit))
        table[name] = {k: median_run(v) for k, v in runs.items()}
        print(f"\n{name} ({describe(puzzle)})", flush=True)
        values = {r.shown() for r in table[name].values() if r.proven}
        for cand in cands:
            run = table[name][cand.key]
            u = run.usage
            spread = "/".join(f"{r.seconds:.1f}" for r in runs[cand.key])
            flag = "" if len(values) <= 1 or not run.proven else "  DISAGREE"
            print(f"  {cand.key:<11} {run.status[:4]} {run.shown():>7}/{run.bound!s:<5} "
                  f"{run.seconds:7.2f}s ({spread:>11}) cpu {u['cpu']:6.2f}s "
                  f"wall {u.get('wall_time', 0):6.2f}s "
                  f"det {u.get('deterministic_time', 0):6.2f} "
                  f"br {u.get('branches', 0):>9,} cf {u.get('conflicts', 0):>7,} "
                  f"{u.get('source', '-')}{flag}", flush=True)
    print_matrix(table, cands, limit, default)
    return table


def _time(run: Run, limit: float) -> float:
    return run.seconds if run.proven else max(run.seconds, limit)


DET_FLOOR = 0.05
"""Deterministic times below this are treated as equal (nothing but presolve)."""


def _det(run: Run) -> float:
    return max(float(run.usage.get("deterministic_time", 0.0)), DET_FLOOR)


def print_matrix(table: dict[str, dict[str, Run]], cands: list[Candidate], limit: float,
                 default: str) -> None:
    keys = [c.key for c in cands]
    print(f"\nSeconds to a proof ('>': not proven within {limit:g} s); ratio: default / best")
    print(f"{'instance':<40}" + "".join(f"{k:>11}" for k in keys) + f"{'ratio':>8}")
    worst = {k: 1.0 for k in keys}
    worst_det = {k: 1.0 for k in keys}
    worst_cpu = {k: 1.0 for k in keys}
    for name, runs in table.items():
        best = min(_time(r, limit) for r in runs.values())
        best_cpu = min(r.usage["cpu"] for r in runs.values() if r.proven) if any(
            r.proven for r in runs.values()) else None
        best_det = min(_det(r) for r in runs.values() if r.proven) if any(
            r.proven for r in runs.values()) else None
        cells = ""
        for k in keys:
            run = runs[k]
            t = _time(run, limit)
            worst[k] = max(worst[k], t / best)
            if best_cpu is not None:
                worst_cpu[k] = max(worst_cpu[k], run.usage["cpu"] / best_cpu if run.proven
                                   else float("inf"))
            if best_det is not None:
                worst_det[k] = max(worst_det[k], _det(run) / best_det if run.proven
                                   else float("inf"))
            cells += f"{('' if run.proven else '>') + f'{t:.2f}':>11}"
        ratio = _time(runs[default], limit) / best if default in runs else float("nan")
        print(f"{name[:39]:<40}{cells}{ratio:>7.2f}x", flush=True)
    print(f"{'worst ratio to the best (seconds)':<40}" +
          "".join(f"{worst[k]:>10.2f}x" for k in keys))
    print(f"{'worst ratio (process CPU seconds)':<40}" +
          "".join(f"{worst_cpu[k]:>10.2f}x" for k in keys))
    print(f"{'worst ratio (deterministic time)':<40}" +
          "".join(f"{worst_det[k]:>10.2f}x" for k in keys))
    if default in worst:
        verdict = "yes" if worst[default] <= TARGET_RATIO else "NO"
        print(f"default {default!r} within {TARGET_RATIO}x of the best on every instance: "
              f"{verdict} (worst {worst[default]:.2f}x)")
    big = [(n, runs[default]) for n, runs in table.items() if default in runs and
           n[:2].isdigit() and "," not in n]
    proven = [n for n, r in big if r.proven and r.seconds <= 60]
    if proven:
        print(f"shipped puzzles proven within 60 s by the default: {len(proven)} of {len(big)}")


# -- 2. anytime -------------------------------------------------------------------------------


def part_anytime(chosen: list[tuple[str, Puzzle]], table: dict[str, dict[str, Run]],
                 limits: list[float]) -> None:
    print("\n2. Anytime, the default settings under a time limit: status, value, bound, the "
          "layout's source,\n   seconds, and the progress reports (improvements of value or "
          "bound) received")
    named = dict(chosen)
    for name in ("14-grand-opening", "14-grand-opening, budget $40",
                 "15-full-house, budget $45"):
        puzzle = next((p for n, p in named.items() if n.startswith(name)), None)
        if puzzle is None:
            continue
        for limit in limits:
            reports: list[Progress] = []
            started = time.perf_counter()
            result = solve_layout(puzzle, time_limit=limit, progress=reports.append)
            seconds = time.perf_counter() - started
            print(f"  {name[:32]:<33} limit {limit:>4g} s: {result.status:<8} value "
                  f"{result.objective!s:>4} bound {result.bound!s:>4} from "
                  f"{result.usage.get('source', '-'):<6} {seconds:6.2f}s, "
                  f"{len(reports)} reports", flush=True)
    print("\n  The greedy layout alone (the warm start, seating cache cleared) against the best "
          "proven value:")
    print(f"  {'instance':<40} {'greedy':>7} {'seconds':>8} {'optimum':>8}")
    for name, puzzle in chosen:
        clear_seating_cache()
        greedy = greedy_layout(puzzle)
        proven = [r for r in table.get(name, {}).values() if r.proven]
        best = proven[0].shown() if proven else (
            str(puzzle.answer.objective) if puzzle.answer is not None and
            puzzle.answer.objective is not None else "-")
        shown = str(greedy.value) if greedy.legal else "illegal"
        print(f"  {name[:39]:<40} {shown:>7} {greedy.seconds:8.2f} {best:>8}", flush=True)


# -- 3. exhaustive baselines ------------------------------------------------------------------


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


def part_brute(puzzles: list[tuple[str, Puzzle]], brute_limit: float) -> None:
    print(f"\n3. Against exhaustive search on the plots of at most {BRUTE_CELLS} cells, each "
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


# -- 4. the moonshot --------------------------------------------------------------------------

MOONSHOT_VISITORS = (7, 7, 6, 4)
"""Twenty-four visitors (green, blue, pink, yellow): four buses of six.  (At $50 and twenty
visitors the greedy park already reaches the ceiling, 12 types and everybody seated.)"""


def part_moonshot(minutes: float, budget: int) -> None:
    catalogue = house_catalogue()
    puzzle = Puzzle(catalogue, Plot(), tuple(sorted(catalogue.tiles)), budget=budget,
                    visitors=MOONSHOT_VISITORS, name="moonshot")
    print(f"\n4. The moonshot: the best 7x7 park (entrance N3) from all {len(puzzle.pool)} "
          f"house tiles, budget ${budget}, visitors {MOONSHOT_VISITORS} (green, blue, pink, "
          f"yellow),\n   final reputation; {minutes:g} minutes with the default settings "
          f"({DEFAULT_SETTINGS.name})")

    def show(p: Progress) -> None:
        print(f"   {p.seconds:8.1f}s  best {p.value!s:>4}  bound {p.bound!s:>4}  ({p.source})",
              flush=True)

    result = solve_layout(puzzle, time_limit=minutes * 60, progress=show)
    u = result.usage
    print(f"   model: {u.get('placements'):,} placement literals, {u.get('variables'):,} "
          f"variables, {u.get('constraints'):,} constraints, built in "
          f"{u.get('build_seconds')} s; greedy {u.get('greedy')} in {u.get('greedy_seconds')} s")
    print(f"   {result.status}: best park {result.objective}, proven bound {result.bound}"
          + ("" if result.objective is None or result.bound is None else
             f", gap {result.bound - result.objective}"))
    if result.layout is not None:
        tiles = [p.tile.id for p in result.layout.pieces]
        print(f"   {len(tiles)} tiles, ${sum(p.tile.cost for p in result.layout.pieces)}: "
              + " ".join(tiles))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="development size: a few instances and candidates, short limits")
    parser.add_argument("--limit", type=float, default=None,
                        help="seconds per solve (default 60; 20 with --quick)")
    parser.add_argument("--repeat", type=int, default=None,
                        help="runs per candidate and instance (default 2; 1 with --quick)")
    parser.add_argument("--brute-limit", type=float, default=None,
                        help="seconds per exhaustive search (default 120; 5 with --quick)")
    parser.add_argument("--only", nargs="*", default=[])
    parser.add_argument("--candidates", nargs="*", default=[])
    parser.add_argument("--skip-settings", action="store_true")
    parser.add_argument("--skip-brute", action="store_true")
    parser.add_argument("--moonshot", action="store_true")
    parser.add_argument("--moonshot-minutes", type=float, default=10.0)
    parser.add_argument("--moonshot-budget", type=int, default=30,
                        help="dollars (default 30: the grants of the four rounds)")
    args = parser.parse_args()
    quick = args.quick
    limit = args.limit if args.limit is not None else (20.0 if quick else 60.0)
    repeat = args.repeat if args.repeat is not None else (1 if quick else 2)
    brute_limit = args.brute_limit if args.brute_limit is not None else (
        5.0 if quick else 120.0)
    exact = quick and not args.only
    only = args.only or (QUICK_INSTANCES if quick else [])
    keys = args.candidates or (QUICK_CANDIDATES if quick else [c.key for c in CANDIDATES])
    cands = [c for c in CANDIDATES if c.key in keys]
    chosen = instances(only, exact)
    started = time.perf_counter()
    table: dict[str, dict[str, Run]] = {}
    if not args.skip_settings:
        table = part_settings(chosen, cands, limit, repeat)
        part_anytime(chosen, table, [0.5, 2.0, 8.0])
    if not args.skip_brute:
        part_brute([(n, p) for n, p in chosen if "," not in n], brute_limit)
    if args.moonshot:
        part_moonshot(args.moonshot_minutes, args.moonshot_budget)
    print(f"\ntotal {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()

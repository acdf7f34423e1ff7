"""Coverage of every 95% interval the project prints (issue 20 §1): printed, never asserted.

1. Exact: the coverage of the Wilson interval (``solvers.stats.wilson_interval``, what every
   win rate is printed with) on 0-or-1 outcomes, from the binomial distribution itself: for
   ``n`` games and a true rate ``p`` it is the chance that ``k`` wins out of ``n`` give an
   interval containing ``p``.  Averaged over ``p`` on a grid in [0.005, 0.995], with the
   smallest value and where it falls.  No sampling: these figures are exact.
2. Empirical, through the app layer (``partysolver.app.base.run_simulation`` and ``run``,
   what the command line prints and ``--json`` returns): each case is run ``--reps`` times
   with independent seeds (seed ``s`` plays games ``(s, 0..n-1)``); every interval of the
   JSON report (win rates, first-out rates, figure means, per seat and per policy) is checked
   against the truth.  The truth for repetition ``r`` is the mean of the same figure over the
   *other* repetitions (leave one out: ``reps - 1`` times the games, independent of ``r``; its
   own error adds about ``1/(reps - 1)`` to the variance, which lowers a 95% interval's
   expected coverage by under 0.1 percentage point at 200 repetitions).

    python benchmarks/intervals.py              # everything (about 15 minutes)
    python benchmarks/intervals.py --quick      # a tiny run (the test's)
    python benchmarks/intervals.py --only party-time --reps 200
"""

from __future__ import annotations

import argparse
import math
import re
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from partysolver.app.base import read, run, run_simulation  # noqa: E402
from partysolver.solvers.stats import wilson_interval  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "partysolver" / "puzzles"
NOMINAL = 0.95


# -- 1. exact Wilson coverage on 0-or-1 outcomes -------------------------------------------------


def binomial_pmf(n: int, p: float) -> list[float]:
    """P(k wins of n) for k = 0..n (in logs, so that n in the thousands does not underflow)."""
    if p <= 0.0 or p >= 1.0:
        return [float(k == (0 if p <= 0.0 else n)) for k in range(n + 1)]
    logs = [math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
            + k * math.log(p) + (n - k) * math.log1p(-p) for k in range(n + 1)]
    return [math.exp(v) for v in logs]


def wilson_coverage(n: int, p: float) -> float:
    """The exact chance that the printed Wilson interval of ``n`` 0-or-1 games contains ``p``."""
    total = 0.0
    for k, chance in enumerate(binomial_pmf(n, p)):
        interval = wilson_interval(k / n, n)
        if interval.low <= p <= interval.high:
            total += chance
    return total


@dataclass(frozen=True)
class ExactRow:
    games: int
    mean: float
    worst: float
    worst_at: float
    central: float
    """The smallest coverage for p in [0.1, 0.9]."""


def exact_rows(sizes: tuple[int, ...], step: float = 0.005) -> list[ExactRow]:
    grid = [round(step * i, 6) for i in range(1, round(1 / step))]
    rows = []
    for n in sizes:
        found = [(wilson_coverage(n, p), p) for p in grid]
        worst = min(found)
        central = min(c for c, p in found if 0.1 <= p <= 0.9)
        rows.append(ExactRow(n, sum(c for c, _ in found) / len(found), worst[0], worst[1],
                             central))
    return rows


# -- 2. empirical coverage through the app layer ------------------------------------------------


Estimate = tuple[str, float, float, float]
"""(path in the JSON report, printed value, interval low, interval high)."""


def intervals_in(data: Any, path: str = "") -> Iterator[Estimate]:
    """Every figure of a JSON report printed with an interval (``rate`` or ``mean``, and
    ``interval``)."""
    if isinstance(data, dict):
        if "interval" in data and ("rate" in data or "mean" in data):
            low, high = data["interval"]
            low = -math.inf if low is None else low
            high = math.inf if high is None else high
            value = data["rate"] if "rate" in data else data["mean"]
            yield path, float(value), float(low), float(high)
            return
        for key, value in data.items():
            yield from intervals_in(value, f"{path}.{key}" if path else str(key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from intervals_in(value, f"{path}[{index}]")


def pattern(path: str) -> str:
    """A path with its seat index and policy name replaced by ``*``: the interval's kind."""
    parts = path.split(".")
    out = []
    for k, part in enumerate(parts):
        if part.startswith("seats["):
            out.append("seats[*]")
        elif k > 0 and parts[k - 1] == "by_policy":
            out.append("*")
        else:
            out.append(re.sub(r"_\d+$", "_*", part))
    return ".".join(out)


def method(path: str) -> str:
    """How the interval is computed: Wilson for rates, Student's t for Party-Time's strips, and
    ``figure_interval`` for a simulation's figures (Wilson within [0, 1], else t)."""
    last = path.rsplit(".", 1)[-1]
    if last in ("win", "first_out"):
        return "Wilson"
    return "t" if last == "strips_lost" else "t/Wilson"


@dataclass(frozen=True)
class Case:
    name: str
    command: str
    """The command line that prints these intervals (``S`` the seed)."""
    games: int
    reps: int
    report: Callable[[int, int], dict[str, Any]]
    """(seed, games) -> the JSON data of the report."""
    skip: tuple[str, ...] = ()
    """Kinds left out (an interval printed twice, say)."""


def simulate_case(game: str, policies: tuple[str, ...], players: int,
                  given: dict[str, Any] | None = None) -> Callable[[int, int], dict[str, Any]]:
    def report(seed: int, games: int) -> dict[str, Any]:
        return run_simulation(game, games, policies, players, {"seed": seed, **(given or {})},
                              as_json=True).data
    return report


def verify_case(path: Path, given: dict[str, Any]) -> Callable[[int, int], dict[str, Any]]:
    document = read(str(path))

    def report(seed: int, games: int) -> dict[str, Any]:
        data = run("verify", document, {"seed": seed, "games": games, **given}, as_json=True).data
        return {"simulation": data["simulation"]}
    return report


def cases() -> list[Case]:
    hard = PUZZLES / "meeple-party" / "positions" / "05-hard-white-35.toml"
    return [
        Case("tea-party", "partysolver simulate tea-party --games 20 --policy greedy "
             "--policy random --seed S", 20, 200,
             simulate_case("tea-party", ("greedy", "random"), 2)),
        Case("party-time", "partysolver simulate party-time --games 20 --players 4 "
             "--policy greedy --policy random --seed S", 20, 200,
             simulate_case("party-time", ("greedy", "random"), 4)),
        Case("party-time", "partysolver simulate party-time --games 100 --players 4 "
             "--policy greedy --policy random --seed S", 100, 100,
             simulate_case("party-time", ("greedy", "random"), 4)),
        Case("pool-party-stars", "partysolver simulate pool-party-stars --games 10 "
             "--policy hint --policy random --seed S", 10, 100,
             simulate_case("pool-party-stars", ("hint", "random"), 4)),
        Case("meeple-party", "partysolver simulate meeple-party --games 10 --policy random "
             "--seed S", 10, 150,
             simulate_case("meeple-party", ("random",), 3), skip=("seats[*].win",)),
        Case("meeple-party verify", f"partysolver verify {hard.relative_to(ROOT)} --games 5 "
             "--hint-nodes 20 --seed S", 5, 40, verify_case(hard, {"hint_nodes": 20})),
        Case("meeple-land", "partysolver simulate meeple-land --games 5 --policy random "
             "--seed S", 5, 40, simulate_case("meeple-land", ("random",), 2)),
    ]


def quick_cases() -> list[Case]:
    return [Case("party-time", "partysolver simulate party-time --games 6 --players 4 "
                 "--policy greedy --policy random --seed S", 6, 8,
                 simulate_case("party-time", ("greedy", "random"), 4))]


@dataclass
class Row:
    case: str
    command: str
    kind: str
    method: str
    games: int
    intervals: int = 0
    covered: int = 0
    widths: list[float] = field(default_factory=list)

    @property
    def coverage(self) -> float:
        return self.covered / self.intervals if self.intervals else math.nan


def measure(case: Case, reps: int | None = None, first_seed: int = 1,
            tell: Callable[[str], None] | None = None) -> list[Row]:
    """Run ``case`` with seeds ``first_seed ..`` and check every interval against the
    leave-one-out mean of the same figure."""
    count = reps or case.reps
    runs: list[dict[str, Estimate]] = []
    started = time.perf_counter()
    for r in range(count):
        data = case.report(first_seed + r, case.games)
        runs.append({e[0]: e for e in intervals_in(data) if pattern(e[0]) not in case.skip})
        if tell and (r + 1) % 10 == 0:
            tell(f"{case.name}: {r + 1}/{count} repetitions, "
                 f"{time.perf_counter() - started:.0f} s")
    paths = set.intersection(*(set(found) for found in runs))
    totals = {path: sum(found[path][1] for found in runs) for path in paths}
    rows: dict[str, Row] = {}
    for found in runs:
        for path in sorted(paths):
            _, value, low, high = found[path]
            truth = (totals[path] - value) / (count - 1)
            kind = pattern(path)
            row = rows.setdefault(kind, Row(case.name, case.command, kind, method(path),
                                            case.games))
            row.intervals += 1
            row.covered += low <= truth <= high
            row.widths.append(high - low)
    return sorted(rows.values(), key=lambda row: row.kind)


def table(rows: list[list[str]], right: set[int]) -> str:
    widths = [max(len(row[k]) for row in rows) for k in range(len(rows[0]))]
    lines = []
    for i, row in enumerate(rows):
        lines.append("  ".join(cell.rjust(widths[k]) if k in right else cell.ljust(widths[k])
                               for k, cell in enumerate(row)).rstrip())
        if i == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def coverage_table(rows: list[Row]) -> str:
    """Each kind's coverage, with its own 95% Wilson interval and a flag when that interval
    lies wholly below 95%."""
    out = [["case", "interval of", "method", "games", "intervals", "covered", "coverage",
            "(95% interval)", "flag"]]
    for row in rows:
        spread = wilson_interval(row.coverage, row.intervals)
        flag = "LOW" if spread.high < NOMINAL else ""
        out.append([row.case, row.kind, row.method, str(row.games), str(row.intervals),
                    str(row.covered), f"{100 * row.coverage:.1f}%",
                    f"[{100 * spread.low:.1f}%, {100 * spread.high:.1f}%]", flag])
    return table(out, {3, 4, 5, 6})


def exact_table(rows: list[ExactRow]) -> str:
    out = [["games", "mean over p", "worst", "at p", "worst for 0.1 <= p <= 0.9"]]
    for row in rows:
        out.append([str(row.games), f"{100 * row.mean:.1f}%", f"{100 * row.worst:.1f}%",
                    f"{row.worst_at:.3f}", f"{100 * row.central:.1f}%"])
    return table(out, {0, 1, 2, 3, 4})


def main(argv: list[str] | None = None) -> list[Row]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a tiny run (for the test)")
    parser.add_argument("--reps", type=int, help="repetitions per case (default: each case's)")
    parser.add_argument("--only", action="append", help="only the cases of this name")
    parser.add_argument("--seed", type=int, default=1, help="the first repetition's seed")
    parser.add_argument("--skip-exact", action="store_true")
    args = parser.parse_args(argv)

    def tell(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    if not args.skip_exact:
        sizes = (10, 20) if args.quick else (5, 10, 20, 50, 100, 200, 1000)
        print("1. Exact coverage of the Wilson interval on 0-or-1 outcomes (binomial; p on a "
              "grid of step 0.005)")
        print(exact_table(exact_rows(sizes, 0.05 if args.quick else 0.005)))
        print()
    chosen = quick_cases() if args.quick else cases()
    if args.only:
        chosen = [case for case in chosen if case.name in args.only]
    rows: list[Row] = []
    for case in chosen:
        started = time.perf_counter()
        found = measure(case, args.reps, args.seed, tell)
        rows += found
        tell(f"{case.name}: {case.games} games x {args.reps or case.reps} repetitions in "
             f"{time.perf_counter() - started:.0f} s")
    if rows:
        print("2. Empirical coverage of the printed 95% intervals (truth: the leave-one-out "
              "mean of the other repetitions)")
        print(coverage_table(rows))
        print()
        print("commands (S: the seed of each repetition):")
        for command in dict.fromkeys(row.command for row in rows):
            print(f"  {command}")
    return rows


if __name__ == "__main__":
    main()

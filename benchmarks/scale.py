"""Scale-out benchmark of the units-of-work runner: printed figures, never asserted.

1. Throughput.  The same units (same seed, so the same work) on each executor:
   - *plain loop*: the baseline, the games played one after the other by a plain ``for`` loop
     over ``PlayGame`` in this process, no runner at all;
   - the runner in this process (1 worker), on 2 local processes, and on a 2-worker local
     Dask cluster (started beforehand: its start-up and its workers' first imports are timed
     apart, then a warm-up run);
   for Party-Time hint games (four players, one hint seat and three greedy, seats rotating)
   and Tea Party games (two players, greedy against random, seats rotating).  Printed: units a
   second (start-up included); the start-up (before the first unit finished, less its own
   time: processes, connecting to the scheduler, checking the workers); the overhead per unit
   (the rest of the wall time × workers − the units' own compute time, per unit: what the
   runner, the transport and idle workers cost); the speed-up over the 1-worker runner
   (the target is at least 1.8x for hint games on two cores, measurable only on a quiet
   machine); and whether every executor gave identical results.
2. The headline (``--headline N``): N Party-Time deals, each played twice, once with the hint
   in the rotating seat and once with greedy there (everyone else greedy, the same set-up and
   chance stream: common random numbers).  Printed: each policy's mean strips lost with its
   95% interval, and the paired difference per deal (hint less greedy) with its 95% interval.
   It takes hours: run it on a cluster or under ``nice`` with ``--out`` and, after a kill,
   the same command with ``--resume``.

    python benchmarks/scale.py                                   # part 1, small sizes
    python benchmarks/scale.py --hint-games 40 --tea-games 4000  # part 1, steadier figures
    python benchmarks/scale.py --skip-throughput --headline 5000 --workers 2 \\
        --out headline.jsonl --resume                            # part 2 (hours)
    python benchmarks/scale.py --skip-throughput --headline 5000 --scheduler tcp://HOST:8786 \\
        --out headline.jsonl --resume                            # part 2 on a cluster
    python benchmarks/scale.py --so-far headline.jsonl          # part 2's figures so far
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from partysolver.app.party_time import NewGame as PartyTimeGame  # noqa: E402
from partysolver.app.party_time import figures as party_time_figures  # noqa: E402
from partysolver.app.tea_party import final_scores  # noqa: E402
from partysolver.models.party_time import HOUSE_RULES  # noqa: E402
from partysolver.solvers.party_time.hint import HintPolicy  # noqa: E402
from partysolver.solvers.party_time.policies import GreedyPolicy as PartyTimeGreedy  # noqa: E402
from partysolver.solvers.runner import (  # noqa: E402
    DaskCluster,
    Executor,
    InProcess,
    LocalProcesses,
    Outcome,
    Progress,
    RunPlan,
    executor_for,
    run,
)
from partysolver.solvers.simulate import PlayGame, RandomPolicy  # noqa: E402
from partysolver.solvers.stats import mean_interval  # noqa: E402
from partysolver.solvers.tea_party.policies import GreedyPolicy as TeaPartyGreedy  # noqa: E402
from partysolver.solvers.tea_party.policies import NewGame as TeaPartyGame  # noqa: E402


def hint_games() -> PlayGame:
    greedy = PartyTimeGreedy()
    return PlayGame(PartyTimeGame(4, HOUSE_RULES), (HintPolicy(), greedy, greedy, greedy),
                    rotate=True, stats=party_time_figures)


def tea_games() -> PlayGame:
    return PlayGame(TeaPartyGame(("Blue", "Green")), (TeaPartyGreedy(), RandomPolicy()),
                    rotate=True, stats=final_scores)


# -- 1. throughput ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Timing:
    wall: float
    compute: float
    start: float
    """Seconds before the first unit finished, less that unit's own time: the executor's
    start-up (processes, connecting to the scheduler, checking the workers' version)."""
    results: list[Any]


def plain_loop(task: PlayGame, units: int, seed: int) -> Timing:
    """The baseline: the units in a plain loop, no runner."""
    started = time.perf_counter()
    results = [task(seed, index) for index in range(units)]
    wall = time.perf_counter() - started
    return Timing(wall, wall, 0.0, results)


def on(executor: Executor, task: PlayGame, units: int, seed: int) -> Timing:
    first: list[float] = []

    def note(outcome: Outcome) -> None:
        if not first:
            first.append(time.perf_counter() - started - outcome.seconds)

    started = time.perf_counter()
    result = run(task, units, seed, RunPlan(executor, on_outcome=note))
    wall = time.perf_counter() - started
    if result.failures:
        raise RuntimeError(result.failures[0].describe())
    return Timing(wall, sum(o.seconds for o in result.outcomes), first[0], result.results)


def throughput(name: str, task: PlayGame, units: int, seed: int, address: str) -> None:
    if units < 1:
        return
    print(f"   {name}: {units} units each (the same units on every line); start-up: before "
          "the first unit; overhead: the rest of the wall time x workers less the units' own "
          "time, per unit", flush=True)
    print(f"   {'executor':<24} {'units/s':>9} {'start-up':>9} {'overhead/unit':>14} "
          f"{'speed-up':>9}")
    rows = [("plain loop (baseline)", 1, None), ("runner, this process", 1, InProcess()),
            ("runner, 2 processes", 2, LocalProcesses(2)),
            ("runner, Dask 2 workers", 2, DaskCluster(address))]
    single = None
    first: list[Any] | None = None
    same = True
    for label, workers, executor in rows:
        timing = plain_loop(task, units, seed) if executor is None else \
            on(executor, task, units, seed)
        overhead = ((timing.wall - timing.start) * workers - timing.compute) / units
        if executor is not None and workers == 1:
            single = timing.wall
        speedup = f"{single / timing.wall:8.2f}x" if single and workers > 1 else ""
        print(f"   {label:<24} {units / timing.wall:9.2f} {timing.start:7.2f} s "
              f"{1000 * overhead:11.2f} ms {speedup:>9}", flush=True)
        first = first if first is not None else timing.results
        same = same and timing.results == first
    print(f"   identical results on every executor: {'yes' if same else 'NO'}")


def start_local_cluster(workers: int) -> tuple[Any, Any]:
    from distributed import Client, LocalCluster

    started = time.perf_counter()
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                           dashboard_address=None, silence_logs=logging.ERROR)
    client = Client(cluster, set_as_default=False)
    client.wait_for_workers(workers)
    up = time.perf_counter() - started
    started = time.perf_counter()
    client.run(_warm)
    print(f"   local Dask cluster of {workers} workers: started in {up:.1f} s, workers "
          f"imported partysolver in {time.perf_counter() - started:.1f} s (not counted below)")
    return cluster, client


def _warm() -> None:
    """A worker's first imports and compilations, done before the timing."""
    hint_games()(0, 0)
    tea_games()(0, 0)


# -- 2. the headline ---------------------------------------------------------------------------


@dataclass(frozen=True)
class PairedDeal:
    """Deal ``index`` played twice: the hint in the rotating seat, then greedy there; the
    strips that seat lost and whether it went out first, under each."""

    def __call__(self, seed: int, index: int) -> dict[str, float]:
        greedy = PartyTimeGreedy()
        found = {}
        for name, first in (("hint", HintPolicy()), ("greedy", greedy)):
            task = PlayGame(PartyTimeGame(4, HOUSE_RULES), (first, greedy, greedy, greedy),
                            rotate=True, stats=party_time_figures)
            record = task(seed, index)
            seat = record["seating"].index(0)
            found[name] = record["figures"][f"lost_{seat}"]
            found[f"{name}_out"] = record["figures"][f"out_{seat}"]
        return found


def headline(deals: int, seed: int, executor: Executor, out: Path | None, resume: bool) -> None:
    print(f"2. Party-Time, four players: {deals} deals, each with the hint and with greedy in "
          "the rotating seat (everyone else greedy); 95% intervals", flush=True)
    last = [0.0]

    def report(progress: Progress) -> None:
        if time.monotonic() - last[0] > 60 or progress.done == progress.total:
            last[0] = time.monotonic()
            left = progress.seconds_left
            print(f"   ... {progress.done}/{progress.total} deals ({progress.resumed} resumed, "
                  f"{progress.failed} failed), {progress.rate:.2f} a second, "
                  f"{'?' if left is None else f'{left / 60:.0f}'} min left",
                  file=sys.stderr, flush=True)

    started = time.perf_counter()
    result = run(PairedDeal(), deals, seed,
                 RunPlan(executor, out, resume, {"benchmark": "scale headline"},
                         on_progress=report))
    rows = result.results
    for failure in result.failures:
        print("   " + failure.describe("deal"))
    print(f"   {len(rows)} deals in {time.perf_counter() - started:.0f} s "
          f"({result.resumed} resumed from {out})" if result.resumed else
          f"   {len(rows)} deals in {time.perf_counter() - started:.0f} s")
    summarise(rows)


def summarise(rows: list[dict[str, float]]) -> None:
    """Each policy's mean strips lost and first-out rate, and the paired difference, over the
    deals in ``rows``, with 95% intervals."""
    for name in ("hint", "greedy"):
        lost = [row[name] for row in rows]
        spread = mean_interval(sum(lost), sum(v * v for v in lost), len(lost))
        out_rate = statistics.mean(row[f"{name}_out"] for row in rows)
        print(f"   {name:<7} strips lost {statistics.mean(lost):.3f} [{spread.low:.3f}, "
              f"{spread.high:.3f}], first out {100 * out_rate:.1f}%")
    diffs = [row["hint"] - row["greedy"] for row in rows]
    spread = mean_interval(sum(diffs), sum(d * d for d in diffs), len(diffs))
    print(f"   paired difference, hint less greedy, strips lost per deal: "
          f"{statistics.mean(diffs):+.3f} [{spread.low:+.3f}, {spread.high:+.3f}]")


def so_far(journal: Path) -> None:
    """The headline's figures over the deals a journal holds so far (a run still going, or
    one that was stopped): each finished deal once, in index order."""
    import json

    rows: dict[int, dict[str, float]] = {}
    planned = None
    with journal.open(encoding="utf-8") as lines:
        for line in lines:
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:  # the line being written when we read
                continue
            if "partysolver_run" in entry:
                planned = entry.get("parameters", {}).get("units")
            elif "result" in entry and entry.get("result") is not None:
                rows[entry["index"]] = entry["result"]
    print(f"2. Party-Time headline so far: {len(rows)} of {planned} deals finished in "
          f"{journal} (95% intervals)")
    if len(rows) >= 2:
        summarise([rows[index] for index in sorted(rows)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hint-games", type=int, default=8,
                        help="Party-Time hint games per executor in part 1")
    parser.add_argument("--tea-games", type=int, default=1000,
                        help="Tea Party games per executor in part 1")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--skip-throughput", action="store_true", help="skip part 1")
    parser.add_argument("--headline", type=int, default=0, metavar="DEALS",
                        help="part 2 with this many deals (5,000: hours)")
    parser.add_argument("--workers", type=int, default=1, help="part 2: local processes")
    parser.add_argument("--scheduler", default=None, help="part 2: a Dask scheduler")
    parser.add_argument("--out", type=Path, default=None, help="part 2: the journal")
    parser.add_argument("--resume", action="store_true", help="part 2: continue --out")
    parser.add_argument("--so-far", type=Path, default=None, metavar="JOURNAL",
                        help="print part 2's figures over the deals JOURNAL holds so far, "
                             "and nothing else")
    args = parser.parse_args()
    if args.so_far is not None:
        so_far(args.so_far)
        return
    if not args.skip_throughput:
        print("1. Units a second on each executor (two cores; the load of the machine is "
              "in every figure)", flush=True)
        cluster, client = start_local_cluster(2)
        try:
            address = cluster.scheduler_address
            _warm()
            throughput("Party-Time hint games", hint_games(), args.hint_games, args.seed,
                       address)
            throughput("Tea Party games", tea_games(), args.tea_games, args.seed, address)
        finally:
            client.close()
            cluster.close()
    if args.headline:
        headline(args.headline, args.seed, executor_for(args.workers, args.scheduler),
                 args.out, args.resume)


if __name__ == "__main__":
    main()

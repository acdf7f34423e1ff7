"""Meeple Party benchmark: prints the figures of the issue, measured, never asserted.

1. Turn hint on the shipped benchmark positions (8-11 rooms, 15-35 meeples on the board, every
   drawn kind): CPU seconds of the best turn and of the hint (the compiled kernel), against the
   lean per-meeple brute force run in the same process (raw outcomes a second), with the best
   values compared; and the compiled kernel's first-run compile time (empty numba cache, in a
   fresh process) and its next start from the cache.
2. Simulation: games per second with the hint policy, and win rates by difficulty and length
   for 3 players with 95% intervals.
3. Scenario solving: how many shipped scenarios are decided within 60 s each.

Run everything:  python benchmarks/meeple_party.py
Parts:           python benchmarks/meeple_party.py --part hint|simulate|scenarios
Smaller runs:    --positions 6 --games 20 --baseline-limit 120 --workers 2 --no-compile-run
Loaded machine:  --baseline-nodes 400000 (cut the baseline by raw outcomes, not wall clock)
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from partysolver import puzzles
from partysolver.models.documents import read_document
from partysolver.models.meeple_party import load_state
from partysolver.models.meeple_party.board import counted
from partysolver.solvers.budget import Budget, BudgetExhausted
from partysolver.solvers.meeple_party import policies
from partysolver.solvers.meeple_party.evaluate import rank_key
from partysolver.solvers.meeple_party.lean import LeanBruteForce
from partysolver.solvers.meeple_party.scenario import solve_scenario
from partysolver.solvers.meeple_party.turn import TurnSearch, turn_hint
from partysolver.solvers.simulate import simulate

GAME = "meeple-party"


def line(text: str = "") -> None:
    print(text, flush=True)


def hint_benchmark(count: int | None, baseline_limit: float, baseline_nodes: int | None,
                   first: int = 1, compile_run: bool = True) -> None:
    line("== 1. Turn hint: the compiled search against the lean per-meeple brute force ==")
    line("best: the exact best turn (TurnSearch.value, what the brute force computes), as the")
    line("hint runs it (the compiled kernel for the welcome and the mingle, white meeples'")
    line("surprises and chance interpreted); hint: turn_hint(), what `partysolver hint` runs")
    line("(every distinct option counted, the top 5 valued exactly).  baseline: the lean")
    line("per-meeple brute force (solvers/meeple_party/lean.py): every meeple a choice of its")
    line("own, every end of the turn counted, no bound, no transposition table (an end")
    line("already scored in the same mingle is not scored again).  Times are CPU seconds of")
    line("this process; 'ends' = ends the best-turn search examined (the kernel's with")
    line("repeats), 'valued' = valued exactly; 'raw' = ends the baseline counted.")
    if compile_run:
        compile_figures()
    files = list(puzzles.files(GAME, "positions").items())[first - 1:count]
    if not files:
        sys.exit(f"no positions from --start {first} to --positions {count} (--positions is "
                 "the last position's number, not a count)")
    # load (or compile) the kernel before timing, so the first position's time is a search's
    warm = load_state(*read_document(str(files[0][1])))
    TurnSearch(warm, compiled=True).value(warm)
    header = (f"{'position':<25}{'rooms':>6}{'mp':>4}{'ends':>10}{'valued':>8}{'best s':>8}"
              f"{'hint s':>8}{'raw':>11}{'base s':>9}{'raw/s':>8}{'best x':>8}{'hint x':>8}"
              "  same best")
    line(header)
    bests, hints, rates, ratios, hint_ratios, agree, cut = [], [], [], [], [], 0, 0
    raw_total, base_total = 0, 0.0
    for name, path in files:
        state = load_state(*read_document(str(path)))
        meeples = sum(counted(room) for room in state.board)
        gc.collect()  # each run starts on a clean heap (no earlier position's tables left)
        start = time.process_time()
        search = TurnSearch(state)
        value, _ = search.value(state)
        fast = time.process_time() - start
        seen, valued = search.examined, search.valued
        del search
        gc.collect()
        start = time.process_time()
        hint = turn_hint(state)  # what `partysolver hint` runs: the ranking, top 5 exact
        full = time.process_time() - start
        assert hint.value is not None
        hint_value = hint.value
        del hint
        gc.collect()
        budget = Budget(nodes=baseline_nodes) if baseline_nodes else Budget(time=baseline_limit)
        baseline = LeanBruteForce(state, budget)
        start = time.process_time()
        try:
            slow_value = baseline.value(state)
            finished = True
        except BudgetExhausted:
            finished = False
        slow = time.process_time() - start
        rate = baseline.raw / slow if slow > 0 else 0.0
        bests.append(fast)
        hints.append(full)
        rates.append(rate)
        raw_total += baseline.raw
        base_total += slow
        if finished:
            same = rank_key(slow_value) == rank_key(value) == rank_key(hint_value)
            agree += same
            ratios.append(slow / fast)
            hint_ratios.append(slow / full)
            verdict = "yes" if same else "NO"
            speed = f"{slow / fast:7.1f}x{slow / full:7.1f}x"
            slow_text = f"{slow:9.2f}"
            raw_text = f"{baseline.raw:>11,}"
        else:
            cut += 1
            verdict = "(cut)"
            speed = f">{slow / fast:6.1f}x>{slow / full:6.1f}x"
            slow_text = f">{slow:8.0f}"
            raw_text = f"{baseline.raw:>10,}>"
        line(f"{name:<25}{state.setup.house.size:>6}{meeples:>4}{seen:>10,}{valued:>8,}"
             f"{fast:>8.3f}{full:>8.3f}{raw_text}{slow_text}{rate:>8,.0f}{speed}  {verdict}")
        del baseline
    line(f"median best turn: {statistics.median(bests) * 1000:.1f} ms (mean "
         f"{statistics.mean(bests) * 1000:.1f} ms, max {max(bests) * 1000:.0f} ms); median "
         f"hint {statistics.median(hints) * 1000:.1f} ms (mean {statistics.mean(hints) * 1000:.1f}"
         f" ms, max {max(hints) * 1000:.0f} ms)")
    line(f"baseline: median {statistics.median(rates):,.0f} raw outcomes a second (min "
         f"{min(rates):,.0f}, max {max(rates):,.0f}); {raw_total:,} raw outcomes in "
         f"{base_total:.1f} s over all positions ({raw_total / base_total:,.0f} a second)")
    if ratios:
        line(f"speedup over the lean baseline where it finished ({len(ratios)} positions): "
             f"best turn median {statistics.median(ratios):.1f}x (min {min(ratios):.1f}x, "
             f"max {max(ratios):.1f}x); hint median {statistics.median(hint_ratios):.1f}x "
             f"(min {min(hint_ratios):.1f}x, max {max(hint_ratios):.1f}x); identical best "
             f"values on {agree} of {len(ratios)}")
    if cut:
        limit = (f"{baseline_nodes:,} raw outcomes" if baseline_nodes
                 else f"{baseline_limit:.0f} s of wall clock")
        line(f"{cut} baseline run(s) cut at {limit} (the speedup there is a lower bound; "
             "no value compared)")


COMPILE_SCRIPT = """
import sys, time
start, cpu = time.perf_counter(), time.process_time()
from partysolver.models.documents import read_document
from partysolver.models.meeple_party import load_state
from partysolver.solvers.meeple_party.compiled import needs_compile
from partysolver.solvers.meeple_party.turn import TurnSearch, turn_hint
state = load_state(*read_document(sys.argv[1]))
cold = needs_compile()
TurnSearch(state, compiled=True).value(state)
turn_hint(state)
print(int(cold), time.perf_counter() - start, time.process_time() - cpu)
"""


def compile_figures() -> None:
    """The first run's compile, in a fresh process with an empty numba cache, then the next
    run's start from the cache it left (each: import, load, one best turn and one hint on a
    shipped position of 23 meeples on 11 rooms)."""
    path = str(puzzles.files(GAME, "positions")["11-hard-party_animal-23"])
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        figures = []
        for _ in range(2):
            out = subprocess.run([sys.executable, "-c", COMPILE_SCRIPT, path], env=env,
                                 capture_output=True, text=True, check=True).stdout.split()
            figures.append((bool(int(out[0])), float(out[1]), float(out[2])))
    (cold, wall, cpu), (again, warm_wall, warm_cpu) = figures
    line(f"first run (empty numba cache, needs_compile() {cold}): {wall:.1f} s wall, "
         f"{cpu:.1f} s CPU to import, compile and answer; next run (from the cache, "
         f"needs_compile() {again}): {warm_wall:.2f} s wall, {warm_cpu:.2f} s CPU")


def simulate_benchmark(games: int, workers: int, nodes: int | None) -> None:
    line()
    line("== 2. Simulation with the hint policy (3 players) ==")
    budget = "exact" if nodes is None else f"{nodes:,} nodes per decision"
    line(f"hint policy budget: {budget}; {games} games per cell; {workers} worker(s)")
    line(f"{'difficulty':<11}{'length':<9}{'win rate':>9}  {'95% interval':<17}{'photos':>7}"
         f"{'stress':>8}{'turns':>7}{'games/s':>9}")
    total_games, total_seconds = 0, 0.0
    for difficulty in ("easy", "standard", "hard"):
        for length in ("casual", "serious", "epic"):
            factory = policies.NewParty(3, None, difficulty, length)
            start = time.perf_counter()
            result = simulate(factory, [policies.HintPolicy(nodes)], games, seed=1,
                              stats=policies.party_figures, workers=workers)
            seconds = time.perf_counter() - start
            total_games += games
            total_seconds += seconds
            rate = result.seat_rates()[0]
            figures = result.figures()
            line(f"{difficulty:<11}{length:<9}{100 * rate.rate:>8.1f}%  "
                 f"[{100 * rate.interval.low:5.1f}%, {100 * rate.interval.high:5.1f}%]"
                 f"{figures['photos'].mean:>8.1f}{figures['max_stress'].mean:>8.2f}"
                 f"{figures['turns'].mean:>7.1f}{games / seconds:>9.2f}")
    line(f"throughput: {total_games / total_seconds:.2f} games per second overall "
         f"(wall clock, {workers} worker(s))")


def scenario_benchmark(limit: float) -> None:
    line()
    line(f"== 3. Scenario solving ({limit:.0f} s each) ==")
    decided = 0
    files = puzzles.files(GAME, "scenarios")
    for name, path in files.items():
        state = load_state(*read_document(str(path)))
        result = solve_scenario(state, Budget(time=limit))
        decided += result.verdict != "unknown"
        line(f"{name:<28}{result.verdict:<12}{result.photos:>3}/{result.target:<3} photos "
             f"{result.usage.get('nodes', 0):>7,} positions {result.usage.get('seconds', 0):8.2f} s")
    line(f"decided: {decided} of {len(files)} within {limit:.0f} s each")


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=("all", "hint", "simulate", "scenarios"),
                        default="all")
    parser.add_argument("--positions", type=int, default=None,
                        help="only the first N benchmark positions")
    parser.add_argument("--no-compile-run", action="store_true",
                        help="skip the first-run compile figures (about a minute of CPU)")
    parser.add_argument("--start", type=int, default=1,
                        help="begin at the Nth benchmark position (to split the run in parts)")
    parser.add_argument("--baseline-limit", type=float, default=900.0,
                        help="wall-clock seconds the baseline may take per position")
    parser.add_argument("--baseline-nodes", type=int, default=None,
                        help="cut the baseline at this many raw outcomes instead (independent "
                             "of the machine's load)")
    parser.add_argument("--games", type=int, default=200, help="games per simulation cell")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--hint-nodes", type=int, default=policies.SIMULATION_NODES,
                        help="the simulated hint policy's budget per decision (0: exact)")
    parser.add_argument("--scenario-limit", type=float, default=60.0)
    args = parser.parse_args(argv)
    line(f"Meeple Party benchmark ({Path(__file__).name})")
    if args.part in ("all", "hint"):
        hint_benchmark(args.positions, args.baseline_limit, args.baseline_nodes, args.start,
                       not args.no_compile_run)
    if args.part in ("all", "simulate"):
        simulate_benchmark(args.games, args.workers, args.hint_nodes or None)
    if args.part in ("all", "scenarios"):
        scenario_benchmark(args.scenario_limit)


if __name__ == "__main__":
    main(sys.argv[1:])

"""Meeple Party benchmark: prints the figures of the issue, measured, never asserted.

1. Turn hint on the shipped benchmark positions (8-11 rooms, 15-35 meeples on the board, every
   drawn kind): CPU seconds per hint and distinct end positions, against the brute force that
   enumerates every meeple individually (run in the same process), with the best values
   compared.
2. Simulation: games per second with the hint policy, and win rates by difficulty and length
   for 3 players with 95% intervals.
3. Scenario solving: how many shipped scenarios are decided within 60 s each.

Run everything:  python benchmarks/meeple_party.py
Parts:           python benchmarks/meeple_party.py --part hint|simulate|scenarios
Smaller runs:    --positions 6 --games 20 --baseline-limit 120 --workers 2
Loaded machine:  --baseline-nodes 400000 (cut the brute force by nodes, not wall clock)
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path

from partysolver import puzzles
from partysolver.models.documents import read_document
from partysolver.models.meeple_party import load_state
from partysolver.models.meeple_party.board import counted
from partysolver.solvers.budget import Budget, BudgetExhausted
from partysolver.solvers.meeple_party import policies
from partysolver.solvers.meeple_party.brute import BruteForce
from partysolver.solvers.meeple_party.evaluate import rank_key
from partysolver.solvers.meeple_party.scenario import solve_scenario
from partysolver.solvers.meeple_party.turn import TurnSearch, turn_hint
from partysolver.solvers.simulate import simulate

GAME = "meeple-party"


def line(text: str = "") -> None:
    print(text, flush=True)


def hint_benchmark(count: int | None, baseline_limit: float, baseline_nodes: int | None,
                   first: int = 1) -> None:
    line("== 1. Turn hint: exact search against the per-meeple brute force (CPU seconds) ==")
    line("best: the exact best turn (TurnSearch.value, what the brute force computes);")
    line("hint: turn_hint(), as `partysolver hint` runs it (every distinct option listed and")
    line("bounded, the top 5 valued exactly); both best values are compared with the brute")
    line("force's.  baseline: every meeple individually, every choice played through the rules")
    line("engine, no transposition table; each end of the turn scored from scratch (the same")
    line("end-of-turn logic, every card evaluated on the whole board, nothing remembered).")
    line("'ends' = distinct ends of the turn the best-turn search examined (each bounded),")
    line("'valued' = those it valued exactly; 'leaves' = ends the brute force scores.")
    files = list(puzzles.files(GAME, "positions").items())[first - 1:count]
    if not files:
        sys.exit(f"no positions from --start {first} to --positions {count} (--positions is "
                 "the last position's number, not a count)")
    header = (f"{'position':<25}{'rooms':>6}{'mp':>4}{'ends':>9}{'valued':>8}{'best s':>8}"
              f"{'hint s':>8}{'leaves':>10}{'brute s':>9}{'best x':>8}{'hint x':>8}  same best")
    line(header)
    bests, hints, ends, ratios, hint_ratios, agree, cut = [], [], [], [], [], 0, 0
    for name, path in files:
        state = load_state(*read_document(str(path)))
        meeples = sum(counted(room) for room in state.board)
        gc.collect()  # each run starts on a clean heap (no earlier position's tables left)
        start = time.process_time()
        search = TurnSearch(state)
        value, _ = search.value(state)
        fast = time.process_time() - start
        seen, valued = len(search.seen), len(search.ends)
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
        brute = BruteForce(state, "evaluator", budget)
        start = time.process_time()
        try:
            slow_value = brute.value(state)
            finished = True
        except BudgetExhausted:
            finished = False
        slow = time.process_time() - start
        bests.append(fast)
        hints.append(full)
        ends.append(seen)
        if finished:
            same = rank_key(slow_value) == rank_key(value) == rank_key(hint_value)
            agree += same
            ratios.append(slow / fast)
            hint_ratios.append(slow / full)
            verdict = "yes" if same else "NO"
            speed = f"{slow / fast:7.1f}x{slow / full:7.1f}x"
            slow_text = f"{slow:9.2f}"
        else:
            cut += 1
            verdict = "(cut)"
            speed = f">{slow / fast:6.1f}x>{slow / full:6.1f}x"
            slow_text = f">{slow:8.0f}"
        line(f"{name:<25}{state.setup.house.size:>6}{meeples:>4}{seen:>9,}{valued:>8,}"
             f"{fast:>8.2f}{full:>8.2f}{brute.leaves:>10,}{slow_text}{speed}  {verdict}")
        del brute
    line(f"median best-turn search: {statistics.median(bests):.2f} s (mean "
         f"{statistics.mean(bests):.2f} s, max {max(bests):.2f} s); median hint "
         f"{statistics.median(hints):.2f} s (mean {statistics.mean(hints):.2f} s, max "
         f"{max(hints):.2f} s); median {statistics.median(ends):,.0f} distinct ends")
    if ratios:
        line(f"speedup over the brute force where it finished ({len(ratios)} positions): "
             f"best turn median {statistics.median(ratios):.1f}x (min {min(ratios):.1f}x, "
             f"max {max(ratios):.1f}x); hint median {statistics.median(hint_ratios):.1f}x "
             f"(min {min(hint_ratios):.1f}x, max {max(hint_ratios):.1f}x); identical best "
             f"values on {agree} of {len(ratios)}")
    if cut:
        limit = (f"{baseline_nodes:,} nodes" if baseline_nodes
                 else f"{baseline_limit:.0f} s of wall clock")
        line(f"{cut} brute-force run(s) cut at {limit} (the speedup there is a lower bound; "
             "no value compared)")


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
    parser.add_argument("--start", type=int, default=1,
                        help="begin at the Nth benchmark position (to split the run in parts)")
    parser.add_argument("--baseline-limit", type=float, default=900.0,
                        help="wall-clock seconds the brute force may take per position")
    parser.add_argument("--baseline-nodes", type=int, default=None,
                        help="cut the brute force at this many nodes instead (independent of "
                             "the machine's load)")
    parser.add_argument("--games", type=int, default=200, help="games per simulation cell")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--hint-nodes", type=int, default=policies.SIMULATION_NODES,
                        help="the simulated hint policy's budget per decision (0: exact)")
    parser.add_argument("--scenario-limit", type=float, default=60.0)
    args = parser.parse_args(argv)
    line(f"Meeple Party benchmark ({Path(__file__).name})")
    if args.part in ("all", "hint"):
        hint_benchmark(args.positions, args.baseline_limit, args.baseline_nodes, args.start)
    if args.part in ("all", "simulate"):
        simulate_benchmark(args.games, args.workers, args.hint_nodes or None)
    if args.part in ("all", "scenarios"):
        scenario_benchmark(args.scenario_limit)


if __name__ == "__main__":
    main(sys.argv[1:])

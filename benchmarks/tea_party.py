"""Epic Monster Tea Party benchmark: printed figures, never asserted.

1. Exact solves of two-player positions with 8, 10 and 12 heroes in the bag, with the
   transposition table and, in the same run, the same search without it (the naive baseline):
   time and nodes (the compiled two-player search of ``solvers/tea_party_compiled.py``, as
   ``solve`` uses it).  The positions are a documented, seeded family: a game is played by two
   greedy players until the bag holds k heroes; both monsters have just drunk (their teacups
   are emptied into their stomachs), and it is the next monster's draw.
2. The hint policy against the greedy policy over two-player games, seats rotating: the hint
   policy's win rate with its 95% interval.

    python benchmarks/tea_party.py                 # everything (long: part 2 plays 1,000 games)
    python benchmarks/tea_party.py --games 200     # a shorter part 2
    python benchmarks/tea_party.py --skip-games    # part 1 only
    python benchmarks/tea_party.py --skip-games --sizes 12 --seeds 1   # one position
    python benchmarks/tea_party.py --skip-games --sizes 12 --seeds 3 4 --table-nodes 150000000
                                                   # the two hardest of the first five (14 GB)
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from partysolver.models.protocol import CHANCE, sample_chance  # noqa: E402
from partysolver.models.tea_party import TeaPartyState  # noqa: E402
from partysolver.models.tea_party.state import DRAW, pack, unpack  # noqa: E402
from partysolver.solvers.budget import Budget  # noqa: E402
from partysolver.solvers.expectimax import expectimax  # noqa: E402
from partysolver.solvers.simulate import simulate  # noqa: E402
from partysolver.solvers.tea_party import GreedyPolicy, HintPolicy, NewGame  # noqa: E402
from partysolver.solvers.tea_party_compiled import CompiledExpectimax  # noqa: E402


def late_game(k: int, seed: int) -> TeaPartyState:
    """Greedy self-play until the bag holds ``k`` heroes at a draw; then both drink.  Games
    whose winner is already certain at that point are skipped (they solve in one node)."""
    rng = random.Random(seed)
    greedy = GreedyPolicy()
    while True:
        state = TeaPartyState.new_game(("Blue", "Green"))
        while not (state.phase == DRAW and state.bag_size() == k) and not state.is_terminal():
            player = state.current_player()
            state = state.apply(sample_chance(state, rng) if player == CHANCE
                                else greedy(state, rng))
        if state.is_terminal():
            continue
        stomachs = tuple(pack([a + b for a, b in zip(unpack(s), unpack(c), strict=True)])
                         for s, c in zip(state.stomachs, state.cups, strict=True))
        drunk = TeaPartyState(state.table, DRAW, state.player, -1, state.bag, (0, 0), stomachs)
        if drunk.settled_returns() is None:
            return drunk


def solve_figures(sizes: list[int], seeds: list[int], table_nodes: int,
                  baseline_factor: int) -> None:
    print("1. Exact solves, two players (compiled expectimax; with vs without the table)")
    print(f"   the table's search stops at {table_nodes:,} nodes; the baseline at "
          f"{baseline_factor}x the table's nodes ('>' marks a lower bound)")
    print(f"{'bag':>4} {'seed':>5} {'table: nodes':>13} {'seconds':>8} "
          f"{'no table: nodes':>16} {'seconds':>8} {'node ratio':>11}  bag contents")
    for k in sizes:
        ratios, times, bounded = [], [], False
        for seed in seeds:
            state = late_game(k, seed)
            contents = ", ".join(f"{n} {h}" for h, n in zip(
                ("F", "C", "R", "W", "Ra", "B", "K", "Q"), unpack(state.bag), strict=True) if n)
            start = time.perf_counter()
            with_table = expectimax(state, Budget(nodes=table_nodes), line=False,
                                    kind=CompiledExpectimax)
            seconds = time.perf_counter() - start
            nodes = with_table.usage["nodes"]
            if with_table.status != "optimal":
                print(f"{k:>4} {seed:>5} {'unknown':>13} {seconds:>8.1f} {'':>16} {'':>8} "
                      f"{'':>11}  {contents}")
                continue
            times.append(seconds)
            limit = nodes * baseline_factor
            start = time.perf_counter()
            without = expectimax(state, Budget(nodes=limit), transpositions=False,
                                 line=False, kind=CompiledExpectimax)
            base_seconds = time.perf_counter() - start
            if without.status == "optimal":
                assert without.values is not None and with_table.values is not None
                assert abs(without.values[0] - with_table.values[0]) < 1e-9
                base_nodes, mark = without.usage["nodes"], ""
            else:
                base_nodes, mark, bounded = limit, ">", True
            ratio = base_nodes / nodes
            ratios.append(ratio)
            print(f"{k:>4} {seed:>5} {nodes:>13,} {seconds:>8.1f} "
                  f"{mark + format(base_nodes, ','):>16} {base_seconds:>8.1f} "
                  f"{mark + format(ratio, '.1f') + 'x':>11}  {contents}")
        if times:
            median = (">=" if bounded else "") + f"{statistics.median(ratios):.1f}x"
            print(f"{k:>4} {'median':>5} {'':>13} {statistics.median(times):>8.1f} {'':>16} "
                  f"{'':>8} {median:>11}")


def game_figures(games: int, workers: int, iterations: int) -> None:
    print(f"\n2. Hint policy (MCTS {iterations} iterations, playouts cut after 12 decisions, "
          f"exact endgames) against greedy, {games} two-player games, seats rotating")
    start = time.perf_counter()
    done = [0]

    def progress(k: int) -> None:
        done[0] += k
        print(f"\r   {done[0]}/{games} games", end="", file=sys.stderr, flush=True)

    result = simulate(NewGame(("Blue", "Green")), [HintPolicy(iterations=iterations), GreedyPolicy()], games,
                      seed=2026, rotate=True, workers=workers, progress=progress)
    print(file=sys.stderr)
    seconds = time.perf_counter() - start
    rates = result.policy_rates()
    for name, rate in rates.items():
        print(f"   {name:<7} {rate}")
    low = rates["hint"].interval.low
    print(f"   target: the hint policy's lower bound above 50%: {100 * low:.1f}% -> "
          f"{'met' if low > 0.5 else 'NOT met'}")
    print(f"   {seconds:.0f} s with {workers} worker(s), {games / seconds:.2f} games/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=3, help="positions per bag size")
    parser.add_argument("--seeds", type=int, nargs="+",
                        help="the family's seeds to solve (default: 0 .. positions-1)")
    parser.add_argument("--sizes", type=int, nargs="+", default=[8, 10, 12],
                        help="bag sizes")
    parser.add_argument("--table-nodes", type=int, default=20_000_000,
                        help="node budget of the search with the table")
    parser.add_argument("--baseline-factor", type=int, default=10,
                        help="node budget of the no-table baseline, as a multiple of the "
                             "table's nodes (the ratio is then a lower bound)")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--skip-solves", action="store_true")
    parser.add_argument("--skip-games", action="store_true")
    args = parser.parse_args()
    if not args.skip_solves:
        seeds = args.seeds if args.seeds is not None else list(range(args.positions))
        solve_figures(args.sizes, seeds, args.table_nodes, args.baseline_factor)
    if not args.skip_games:
        game_figures(args.games, args.workers, args.iterations)


if __name__ == "__main__":
    main()

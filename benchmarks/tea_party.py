"""Epic Monster Tea Party benchmark: printed figures, never asserted.

1. Exact solves of two-player positions with 8, 10 and 12 heroes in the bag, with the
   transposition table and, in the same run, the same search without it (the naive baseline):
   time and nodes (the compiled two-player search of ``solvers/tea_party/kernel.py``, as
   ``solve`` uses it).  The positions are a documented, seeded family: a game is played by two
   greedy players until the bag holds k heroes; both monsters have just drunk (their teacups
   are emptied into their stomachs), and it is the next monster's draw.
2. The hint policy against the greedy policy over two-player games, seats rotating: the hint
   policy's win rate with its 95% interval.
3. Hints against the exact values, at time limits of 0.5, 2 and 8 s: how often MCTS alone (the
   exact attempt switched off, as ``--exact-nodes 1`` does) and the hint as shipped pick the
   exact best option, the value lost when they do not, how far MCTS's estimates are from the
   exact values, and the coverage of the intervals the hint prints.  The positions are a
   second seeded family, decisions (see :func:`decision_position`): two players, 8 to 12
   heroes in the bag, and smaller ones (4 and 6).  Their exact values are computed once by the
   compiled search (at most 20,000,000 nodes each; positions it cannot finish are left out)
   and cached in ``benchmarks/tea_party_exact.json`` with each position, so a later run only
   checks that the family still gives the same positions.

    python benchmarks/tea_party.py                 # everything (long: part 2 plays 1,000 games)
    python benchmarks/tea_party.py --games 200     # a shorter part 2
    python benchmarks/tea_party.py --skip-games    # part 1 only
    python benchmarks/tea_party.py --skip-games --sizes 12 --seeds 1   # one position
    python benchmarks/tea_party.py --skip-games --sizes 12 --seeds 3 4 --table-nodes 150000000
                                                   # the two hardest of the first five (14 GB)
    python benchmarks/tea_party.py --skip-solves --skip-games --hints   # part 3 (~20 minutes)
    python benchmarks/tea_party.py --skip-solves --skip-games --hints --budgets 2 \
        --hint-sizes 8 10                          # a quicker part 3
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from partysolver.models.protocol import CHANCE, sample_chance  # noqa: E402
from partysolver.models.tea_party import TeaPartyState, load_state, state_to_document  # noqa: E402
from partysolver.models.tea_party.state import CHOOSE, DRAW, ONE, count, pack, unpack  # noqa: E402
from partysolver.solvers.budget import Budget, MoveValue, SearchResult  # noqa: E402
from partysolver.solvers.expectimax import expectimax  # noqa: E402
from partysolver.solvers.mcts import playout  # noqa: E402
from partysolver.solvers.simulate import simulate  # noqa: E402
from partysolver.solvers.stats import wilson_interval  # noqa: E402
from partysolver.solvers.tea_party import budgets, exact  # noqa: E402
from partysolver.solvers.tea_party import hint as hints  # noqa: E402
from partysolver.solvers.tea_party.hint import HintPolicy  # noqa: E402
from partysolver.solvers.tea_party.kernel import CompiledExpectimax  # noqa: E402
from partysolver.solvers.tea_party.policies import GreedyPolicy, NewGame  # noqa: E402


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
          f"exact subtrees) against greedy, {games} two-player games, seats rotating")
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


# -- 3. hints against the exact values ---------------------------------------------------------

EXACT_CACHE = Path(__file__).with_name("tea_party_exact.json")
EXACT_NODES = 20_000_000
HINT_SIZES = [4, 6, 8, 9, 10, 11, 12]
HINT_SEEDS = 12
BIG = range(8, 13)
"""The bag sizes of the issue's target (8 to 12 heroes)."""


def decision_position(k: int, seed: int) -> TeaPartyState:
    """A two-player decision with ``k`` heroes in the bag: a game played by two players who
    each choose greedily three times in four and at random otherwise (chance drawn with its
    odds) until a monster holds a drawn hero with ``k`` left in the bag; then each teacup
    keeps one hero at random and the rest is drunk (so that the exact search can still solve
    most of them).  Positions already won, or with a single option, are skipped."""
    rng = random.Random(f"tea-party decision {k} {seed}")
    greedy = GreedyPolicy()
    while True:
        state = TeaPartyState.new_game(("Blue", "Green"))
        while not state.is_terminal() and not (state.phase == CHOOSE and state.bag_size() == k):
            if state.current_player() == CHANCE:
                action = state.sample_outcome(rng)
            elif rng.random() < 0.25:
                action = rng.choice(state.legal_actions())
            else:
                action = greedy(state, rng)
            state = state.apply(action)
        if state.is_terminal():
            continue
        cups, stomachs = list(state.cups), list(state.stomachs)
        for seat in range(2):
            heroes = [h for h in range(8) for _ in range(count(cups[seat], h))]
            rng.shuffle(heroes)
            for hero in heroes[1:]:
                cups[seat] -= ONE[hero]
                stomachs[seat] += ONE[hero]
        state = TeaPartyState(state.table, CHOOSE, state.player, state.held, state.bag,
                              tuple(cups), tuple(stomachs))
        if state.settled_returns() is None and len(state.legal_actions()) > 1:
            return state


def exact_decisions(sizes: list[int], seeds: int) -> list[dict[str, Any]]:
    """The family's positions with the exact value of every option, from the cache file, the
    missing ones computed (and cached) by the compiled search within ``EXACT_NODES``."""
    cache: dict[str, Any] = {"computed_by": f"compiled expectimax, at most {EXACT_NODES:,} "
                                            "nodes a position ('exact': null when it did not "
                                            "finish)", "positions": []}
    if EXACT_CACHE.exists():
        cache = json.loads(EXACT_CACHE.read_text())
    known = {(e["bag"], e["seed"]): e for e in cache["positions"]}
    changed = False
    found = []
    for k in sizes:
        for seed in range(seeds):
            state = decision_position(k, seed)
            document = state_to_document(state)
            entry = known.get((k, seed))
            if entry is None or entry["position"] != document:
                print(f"   solving the {k}-hero position of seed {seed} exactly...",
                      file=sys.stderr, flush=True)
                start = time.perf_counter()
                result = expectimax(state, Budget(nodes=EXACT_NODES), line=False,
                                    kind=CompiledExpectimax)
                entry = {"bag": k, "seed": seed, "position": document,
                         "nodes": result.usage["nodes"],
                         "seconds": round(time.perf_counter() - start, 1),
                         "exact": None if result.status != "optimal" else
                         {str(m.action): m.value for m in result.moves}}
                known[(k, seed)] = entry
                changed = True
            found.append(entry)
    if changed:
        cache["positions"] = sorted(known.values(), key=lambda e: (e["bag"], e["seed"]))
        EXACT_CACHE.write_text(json.dumps(cache, indent=1) + "\n")
    return found


SEARCHES = ("MCTS alone", "hint as shipped", "plain UCT")
"""Part 3's searches: the hint's MCTS with the exact attempt switched off, the hint as a user
runs it, and the baseline: UCT as textbooks give it (one random playout a leaf, every node's
value the mean of the playouts through it, constant 1.0, no exact subtrees)."""


def _run(state: TeaPartyState, exact: dict[str, float], budget: float, kind: str,
         seed: int) -> dict[str, Any]:
    """One hint at a time limit, scored against the exact values."""
    if kind == "plain UCT":
        result = plain_uct(state, Budget(time=budget), random.Random(seed))
    else:
        result = hints.search(state, Budget(time=budget), random.Random(seed),
                              exact_loose=-1 if kind == "MCTS alone" else budgets.EXACT_LOOSE)
    best = max(exact.values())
    pick = str(result.moves[0].action)
    errors, wilson = [], []
    for move in result.moves:
        truth = exact[str(move.action)]
        if move.visits or result.status == "optimal":
            errors.append(abs(move.value - truth))
        if move.visits and not move.exact:
            interval = wilson_interval(move.value, move.visits)
            wilson.append(interval.low <= truth <= interval.high)
    held = state.held_hero
    miss = (f"{held.label if held is not None else '?'} in hand: exact best "
            f"{max(exact, key=lambda m: exact[m])!r} {100 * best:.2f}%, picked {pick!r} "
            f"{100 * exact[pick]:.2f}%")
    return {"agree": exact[pick] >= best - 1e-9, "lost": best - exact[pick], "miss": miss,
            "iterations": result.usage.get("iterations", 0), "errors": errors,
            "wilson": wilson, "exact": result.status == "optimal",
            "intervals": [m.interval for m in result.moves if m.interval is not None]}


def plain_uct(state: TeaPartyState, budget: Budget, rng: random.Random) -> SearchResult:
    """The baseline: plain UCT, written compactly over the rules engine (a tree of visits
    and return sums, one uniformly random playout a leaf, chance drawn with its odds)."""
    root = state.current_player()
    tree: dict[Any, list[Any]] = {}  # key -> [visits, sums, children by action]

    def node(s: TeaPartyState) -> list[Any]:
        return tree.setdefault(s.key(), [0, [0.0, 0.0], {}])

    meter = budget.start()
    while meter.iterations < len(state.legal_actions()) or not meter.exhausted():
        s, path = state, [node(state)]
        while not s.is_terminal():
            player = s.current_player()
            if player == CHANCE:
                s = s.apply(sample_chance(s, rng))
                path.append(node(s))
                continue
            entry = path[-1]
            actions = s.legal_actions()
            fresh = [a for a in actions if a not in entry[2]]
            if fresh:  # expand one option, then play out
                action = rng.choice(fresh)
                s = s.apply(action)
                entry[2][action] = node(s)
                path.append(entry[2][action])
                break
            log_n = math.log(entry[0])
            action = max(actions, key=lambda a: entry[2][a][1][player] / entry[2][a][0]
                         + math.sqrt(log_n / entry[2][a][0]))
            s = s.apply(action)
            path.append(node(s))
        returns = playout(s, rng)
        for entry in path:
            entry[0] += 1
            entry[1][0] += returns[0]
            entry[1][1] += returns[1]
        meter.iterations += 1
    children = node(state)[2]
    moves = [MoveValue(a, c[1][root] / c[0], (c[1][0] / c[0], c[1][1] / c[0]), exact=False,
                       visits=c[0]) for a, c in children.items()]
    moves.sort(key=lambda m: -m.value)
    return SearchResult("feasible", "plain UCT", None, tuple(moves), (), meter.usage())


def _summary(runs: list[dict[str, Any]]) -> str:
    n = len(runs)
    agree = sum(r["agree"] for r in runs)
    lost = statistics.mean(r["lost"] for r in runs)
    errors = sorted(e for r in runs for e in r["errors"])
    wilson = [w for r in runs for w in r["wilson"]]
    median_error = 100 * statistics.median(errors) if errors else float("nan")
    high_error = 100 * errors[int(0.9 * (len(errors) - 1))] if errors else float("nan")
    old = f"{100 * sum(wilson) / len(wilson):5.1f}%" if wilson else "    -"
    return (f"{n:>4} {100 * agree / n:6.1f}% {100 * lost:9.3f} "
            f"{statistics.median(r['iterations'] for r in runs):>10,.0f} "
            f"{sum(r['exact'] for r in runs):>6} {median_error:8.2f} {high_error:8.2f} {old:>9}")


def hint_figures(sizes: list[int], seeds: int, budgets: list[float],
                 shipped_budgets: list[float], baseline_budgets: list[float],
                 seed: int, misses: bool = False) -> None:
    entries = exact_decisions(sizes, seeds)
    solved = [e for e in entries if e["exact"] is not None]
    print("\n3. Hints against the exact values (two players; decisions of the seeded family, "
          f"exact values from {EXACT_CACHE.name})")
    by_size = {k: sum(1 for e in solved if e["bag"] == k) for k in sizes}
    print("   positions solved exactly, by heroes in the bag: " + ", ".join(
        f"{k}: {n}/{seeds}" for k, n in by_size.items()))
    exact.load_compiled()  # outside every time limit, as the hint does
    print("   agree: the option picked is the exact best (or equal to it); lost: the exact "
          "value given up, mean;\n   error: |estimate - exact value| over every option "
          "searched (pp); Wilson: how often the\n   95% Wilson interval on visits the hint "
          "printed before would have held the exact value")
    print(f"   {'budget':>6} {'search':<15} {'bag':<5} {'n':>4} {'agree':>7} {'lost (pp)':>9} "
          f"{'iterations':>10} {'exact':>6} {'err med':>8} {'err 90%':>8} {'Wilson':>9}")
    wall, cpu = time.perf_counter(), time.process_time()
    targets: dict[str, list[dict[str, Any]]] = {}
    for budget in sorted(set(budgets) | set(shipped_budgets) | set(baseline_budgets)):
        for name in SEARCHES:
            if budget not in {"MCTS alone": budgets, "hint as shipped": shipped_budgets,
                              "plain UCT": baseline_budgets}[name]:
                continue
            runs: dict[int, list[dict[str, Any]]] = {e["bag"]: [] for e in solved}
            for entry in solved:
                state = load_state(entry["position"], "benchmark")
                runs[entry["bag"]].append(_run(state, entry["exact"], budget, name, seed))
            big = [r for k, rs in runs.items() if k in BIG for r in rs]
            small = [r for k, rs in runs.items() if k not in BIG for r in rs]
            for label, group in (("8-12", big), ("< 8", small)):
                if group:
                    print(f"   {budget:>5g}s {name:<15} {label:<5} {_summary(group)}",
                          flush=True)
            if misses:
                for k, rs in runs.items():
                    for entry, r in zip([e for e in solved if e["bag"] == k], rs, strict=True):
                        if not r["agree"]:
                            print(f"          miss: {k} heroes, seed {entry['seed']}: "
                                  f"{r['miss']}")
            if name != "plain UCT" and budget == 2 and big:
                targets[name] = big
            printed = [i for rs in runs.values() for r in rs for i in r["intervals"]]
            if printed:
                print(f"   (the hint printed {len(printed)} intervals)")
    for name, target in targets.items():  # the MCTS alone, and the hint a user runs
        agree = sum(r["agree"] for r in target) / len(target)
        lost = statistics.mean(r["lost"] for r in target)
        met = agree >= 0.98 and lost < 0.0005
        print(f"   target, {name} at 2 s on 8-12 heroes: agreement >= 98% and mean loss < "
              f"0.05 pp: {100 * agree:.1f}%, {100 * lost:.3f} pp -> {'met' if met else 'NOT met'}")
    print("   intervals: the hint prints none for MCTS estimates (see docs/solvers.md), so there "
          "is no coverage to measure;\n   exact hints print exact values")
    share = (time.process_time() - cpu) / (time.perf_counter() - wall)
    print(f"   this process had {100 * share:.0f}% of a core on average (time limits are "
          "wall-clock: a loaded machine searches less)")


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
    parser.add_argument("--hints", action="store_true", help="run part 3")
    parser.add_argument("--hint-sizes", type=int, nargs="+", default=HINT_SIZES)
    parser.add_argument("--hint-seeds", type=int, default=HINT_SEEDS,
                        help="positions per bag size in part 3")
    parser.add_argument("--budgets", type=float, nargs="+", default=[0.5, 2, 8])
    parser.add_argument("--shipped-budgets", type=float, nargs="*", default=[2],
                        help="budgets at which part 3 also runs the hint as shipped")
    parser.add_argument("--baseline-budgets", type=float, nargs="*", default=[2],
                        help="budgets at which part 3 also runs plain UCT (the baseline)")
    parser.add_argument("--seed", type=int, default=1, help="the searches' seed in part 3")
    parser.add_argument("--misses", action="store_true",
                        help="part 3 lists every position where a search missed the best")
    args = parser.parse_args()
    if not args.skip_solves:
        seeds = args.seeds if args.seeds is not None else list(range(args.positions))
        solve_figures(args.sizes, seeds, args.table_nodes, args.baseline_factor)
    if not args.skip_games:
        game_figures(args.games, args.workers, args.iterations)
    if args.hints:
        hint_figures(args.hint_sizes, args.hint_seeds, args.budgets, args.shipped_budgets,
                     args.baseline_budgets, args.seed, args.misses)


if __name__ == "__main__":
    main()

"""Epic Monster Tea Party, issue 32: exact values from 12 heroes up, and proven bounds where the
exact search ends.  Printed figures, never asserted (the tests check the bounds' soundness).

1. **Exact values** of the seeded late-game family of ``benchmarks/tea_party.py`` (two greedy
   players until the bag holds *k* heroes, both teacups just drunk, the next monster to draw):
   the compiled exact search within ``--max-nodes``, each position in a process of its own so
   that its peak memory (RSS) is its own.
2. **Proven bounds** on the same positions within ``--seconds`` (:mod:`.bounds`, its small
   leaves solved by the compiled search): the position's value is the odds-weighted sum of
   its draws' best options, so its interval is the weighted sum of theirs; checked against the
   exact value where there is one.
3. **The opening's first decision** (``--opening``): every draw's options, with proven bounds
   within ``--seconds`` a draw.

Results go to ``benchmarks/tea_party_bounds.json`` after each position, and a run skips what
is there already (``--again`` recomputes), so a long run can be stopped and resumed::

    nice -n 10 python benchmarks/tea_party_bounds.py --sizes 12 13 14 --seeds 0 1 2 \\
        --max-nodes 40000000 --seconds 60
    nice -n 10 python benchmarks/tea_party_bounds.py --opening --seconds 30

``--compare-threads N`` solves each position with one thread and then with ``N`` (the
compiled search's lanes sharing one table, ``solve --threads``), each in a process of its own
one after the other, and prints both searches' nodes and seconds, the speed-up and whether the
values agree to the last bit::

    python benchmarks/tea_party_bounds.py --compare-threads 2 --sizes 13 14 15 --seeds 0 2

The exact values also run as units of partysolver's runner (one position a unit, progress and
the time left printed, finished units journalled, ``--resume`` after a kill)::

    python benchmarks/tea_party_bounds.py --sizes 14 15 --seeds 0 1 2 --write-positions late
    nice -n 10 partysolver solve late --max-nodes 95000000 --json --out late.jsonl --resume
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

RESULTS = Path(__file__).with_name("tea_party_bounds.json")


def _peak_mib() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def _table(seconds: float) -> Any:
    """The exact leaves' table: room for what the time allows, up to 4 million entries with
    full keys (8 million slots, 256 MiB; with the position's compact keys, which the oracle
    gives it, 16 million slots in the same memory, up to 12 million entries), made once and
    never grown (measured: with 32 million slots, 1
    GiB, the leaves' search ran three times slower, its first touches of the memory)."""
    from partysolver.solvers.tea_party.kernel import Table

    return Table.for_entries(min(4_000_000, int(seconds * 1_000_000)), fixed=True)


def exact_one(k: int, seed: int, max_nodes: int, table_gib: float, threads: int = 1,
              full: bool = False) -> dict[str, Any]:
    """The compiled exact search as ``solve`` runs it, its table growing to at most
    ``table_gib`` GiB (then dropping its smallest subtrees' values: ``purges``), with
    ``threads`` lanes; ``full``: the table made at that size at once (never doubled, so the
    peak is the table itself, not 1.5 times it; its memory is all touched within the first
    minute of a big search)."""
    from tea_party import late_game

    from partysolver.solvers.budget import Budget
    from partysolver.solvers.expectimax import expectimax
    from partysolver.solvers.tea_party import exact
    from partysolver.solvers.tea_party.kernel import MAX_SLOTS, CompiledExpectimax, Table

    exact.load_compiled()
    state = late_game(k, seed)
    table = Table.within(table_gib, slots=MAX_SLOTS if full else 1 << 16)

    def report(search: CompiledExpectimax) -> None:
        """A line on stderr every half minute (``exact.progress_line``)."""
        print(f"  {k} heroes seed {seed}: {exact.progress_line(search)}", file=sys.stderr,
              flush=True)

    class Capped(CompiledExpectimax):
        def __init__(self, budget: Budget, transpositions: bool = True) -> None:
            super().__init__(budget, transpositions, table=table, threads=threads)
            self.progress = report

    start = time.perf_counter()
    result = expectimax(state, Budget(nodes=max_nodes), line=False, kind=Capped)
    seconds = time.perf_counter() - start
    value = None if result.values is None or result.status != "optimal" else \
        result.values[state.player]
    return {"value": value, "nodes": result.usage["nodes"], "seconds": round(seconds, 1),
            "peak_mib": _peak_mib(), "max_nodes": max_nodes,
            "table_gib": round(table.most * table.width * 8 / (1 << 30), 3),
            "width": table.width, "purges": table.purges,
            "entries": len(table), "threads": threads,
            "value_hex": None if value is None else value.hex()}


def bounds_one(k: int, seed: int, seconds: float) -> dict[str, Any]:
    from tea_party import late_game

    from partysolver.solvers.tea_party import bounds, exact

    exact.load_compiled()
    state = late_game(k, seed)
    outcomes = state.chance_outcomes()
    low = high = 0.0
    start = time.perf_counter()
    nodes = leaf_nodes = 0
    depths = []
    oracle = bounds.CompiledExact(state, bounds.LEAF_NODES_COMPILED, table=_table(seconds))
    for n, (draw, probability) in enumerate(outcomes):
        child = state.apply(draw)
        # What the draws before left unused goes to the ones after.
        share = (seconds - (time.perf_counter() - start)) / (len(outcomes) - n)
        found = bounds.prove(child, max(share, 0.0), exact=oracle,
                             exact_loose=bounds.LEAF_LOOSE_COMPILED)
        low += float(probability) * max(lo for lo, _ in found.intervals)
        high += float(probability) * max(hi for _, hi in found.intervals)
        nodes, leaf_nodes = nodes + found.nodes, oracle.spent  # (one oracle: its total)
        depths.append(found.depth)
    return {"low": max(0.0, round(low - 1e-6, 6)), "high": min(1.0, round(high + 1e-6, 6)),
            "seconds": round(time.perf_counter() - start, 1), "limit": seconds,
            "nodes": nodes, "leaf_nodes": leaf_nodes, "depth_min": min(depths),
            "peak_mib": _peak_mib()}


def opening(seconds: float) -> dict[str, Any]:
    from partysolver.models.tea_party import TeaPartyState
    from partysolver.solvers.tea_party import bounds, exact

    exact.load_compiled()
    state = TeaPartyState.new_game(("Blue", "Green"))
    draws = []
    start = time.perf_counter()
    oracle = bounds.CompiledExact(state, bounds.LEAF_NODES_COMPILED, table=_table(seconds))
    for draw, probability in state.chance_outcomes():
        child = state.apply(draw)
        found = bounds.prove(child, seconds, exact=oracle, exact_loose=bounds.LEAF_LOOSE_COMPILED)
        draws.append({"draw": state.describe_action(draw),
                      "probability": round(float(probability), 6),
                      "options": {child.describe_action(a): list(iv)
                                  for a, iv in zip(found.actions, found.intervals, strict=True)},
                      "proved_best": None if found.proved_best is None
                      else child.describe_action(found.actions[found.proved_best]),
                      "depth": found.depth, "nodes": found.nodes,
                      "leaf_nodes": found.leaf_nodes, "seconds": found.seconds})
        print(json.dumps(draws[-1]), file=sys.stderr, flush=True)
    return {"seconds_per_draw": seconds, "draws": draws,
            "seconds": round(time.perf_counter() - start, 1), "peak_mib": _peak_mib()}


def _child(args: list[str]) -> dict[str, Any]:
    """Run one unit in a fresh process (its own peak memory); its JSON from the last line."""
    output = subprocess.run([sys.executable, __file__, *args], check=True,
                            capture_output=True, text=True).stdout
    return json.loads(output.strip().splitlines()[-1])


def _exact(k: int, seed: int, args: argparse.Namespace, threads: int = 1) -> dict[str, Any]:
    """One position's exact search (``--one exact``) in a process of its own."""
    return _child(["--one", "exact", str(k), str(seed), "--max-nodes", str(args.max_nodes),
                   "--max-table-gib", str(args.max_table_gib), "--threads", str(threads)])


def compare_threads(args: argparse.Namespace) -> None:
    """Each position solved with one thread (the baseline: the search as it was) and then with
    ``--compare-threads`` lanes, in processes of their own, one after the other."""
    print(f"{'position':>16} {'nodes, 1':>14} {'s, 1':>7} {'nodes, N':>14} {'s, N':>7} "
          f"{'speed-up':>8}  same value", flush=True)
    for k in args.sizes:
        for seed in args.seeds:
            one, many = (_exact(k, seed, args, threads) for threads in (1, args.compare_threads))
            same = one["value_hex"] is not None and one["value_hex"] == many["value_hex"]
            print(f"{f'{k} heroes seed {seed}':>16} {one['nodes']:>14,} {one['seconds']:>7.1f} "
                  f"{many['nodes']:>14,} {many['seconds']:>7.1f} "
                  f"{one['seconds'] / max(many['seconds'], 0.05):>7.2f}x  "
                  f"{'yes' if same else 'NO'} ({one['value']})", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[12, 13, 14])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--max-nodes", type=int, default=40_000_000)
    parser.add_argument("--max-table-gib", type=float, default=8.0,
                        help="the exact search's table grows to at most this much (then drops "
                             "its smallest subtrees' values; the peak is 1.5 times while it "
                             "doubles)")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--skip-exact", action="store_true")
    parser.add_argument("--skip-bounds", action="store_true")
    parser.add_argument("--again", action="store_true", help="recompute what is stored")
    parser.add_argument("--again-bounds", action="store_true",
                        help="recompute the stored bounds (not the exact values)")
    parser.add_argument("--opening", action="store_true")
    parser.add_argument("--write-positions", metavar="DIR",
                        help="write the positions of --sizes and --seeds as files in DIR (for "
                             "the runner: partysolver solve DIR --out ... --resume) and stop")
    parser.add_argument("--threads", type=int, default=1,
                        help="the exact search's lanes (solve --threads)")
    parser.add_argument("--full-table", action="store_true",
                        help="make the exact search's table at --max-table-gib at once")
    parser.add_argument("--compare-threads", type=int, metavar="N",
                        help="solve each position with one thread, then with N, and print both")
    parser.add_argument("--one", nargs=3, metavar=("KIND", "K", "SEED"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        kind, k, seed = args.one[0], int(args.one[1]), int(args.one[2])
        print(json.dumps(exact_one(k, seed, args.max_nodes, args.max_table_gib, args.threads,
                                   args.full_table)
                         if kind == "exact"
                         else bounds_one(k, seed, args.seconds)))
        return
    if args.compare_threads:
        compare_threads(args)
        return
    if args.write_positions:
        from tea_party import late_game

        from partysolver.models.tea_party import state_to_document

        folder = Path(args.write_positions)
        folder.mkdir(parents=True, exist_ok=True)
        for k in args.sizes:
            for seed in args.seeds:
                path = folder / f"late-{k}-{seed}.json"
                path.write_text(json.dumps(state_to_document(late_game(k, seed)), indent=1))
                print(path)
        return
    stored: dict[str, Any] = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    stored.setdefault("positions", {})

    def save() -> None:
        RESULTS.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n")

    if args.opening:
        stored["opening"] = opening(args.seconds) | {"date": time.strftime("%Y-%m-%d %H:%M UTC",
                                                                           time.gmtime())}
        save()
        print(json.dumps(stored["opening"], indent=1))
        return
    units = [(k, seed) for k in args.sizes for seed in args.seeds]
    started = time.perf_counter()
    for n, (k, seed) in enumerate(units):
        entry = stored["positions"].setdefault(f"{k}/{seed}", {"bag": k, "seed": seed})
        if not args.skip_exact and (args.again or "exact" not in entry
                                    or (entry["exact"]["value"] is None
                                        and entry["exact"]["max_nodes"] < args.max_nodes)):
            entry["exact"] = _exact(k, seed, args, args.threads)
            entry["exact"]["date"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
            save()
        if not args.skip_bounds and (args.again or args.again_bounds
                                     or entry.get("bounds", {}).get("limit") != args.seconds):
            entry["bounds"] = _child(["--one", "bounds", str(k), str(seed),
                                      "--seconds", str(args.seconds)])
            entry["bounds"]["date"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
            save()
        value = entry.get("exact", {}).get("value")
        found = entry.get("bounds")
        inside = "" if value is None or found is None else \
            ("inside" if found["low"] <= value <= found["high"] else "OUTSIDE")
        elapsed = time.perf_counter() - started
        left = elapsed / (n + 1) * (len(units) - n - 1)
        print(f"{k:>3} heroes seed {seed}: exact {entry.get('exact')}; bounds {found} {inside}"
              f"  [{n + 1}/{len(units)}, about {left / 60:.0f} min left]", flush=True)


if __name__ == "__main__":
    main()

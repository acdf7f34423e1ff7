"""Pool Party Stars, the waiting bound (issue 32): counted over arrays against pair by pair.

Prints figures, asserts nothing.  :func:`waiting_bound` is the lower bound's leaf value with 3
and 4 players; :func:`waiting_bound_plain` is the same count written plainly, over the bit
masks of the assignments, pair by pair (the baseline).  Both are timed on the same states, in
the same run: every state of seeded random games of the house deck (the seat proposes a guest
of its hand at random, the answers and the draws come at random), by the number of
assignments still consistent.  The shipped bound counts pair by pair below
``WAITING_ARRAYS`` assignments, where that is the quicker, and over arrays from there.

With ``--lower DEPTH`` it also times the whole lower bound of that depth on one deal, with
either count at its leaves (the free variant's values computed once beforehand, so that both
runs find them made).

    python benchmarks/pool_party_stars_waiting.py --players 3 4 --deals 3 --games 40
    python benchmarks/pool_party_stars_waiting.py --players 3 --deals 0 --lower 2
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from partysolver.solvers.pool_party_stars import questions  # noqa: E402
from partysolver.solvers.pool_party_stars.questions import (  # noqa: E402
    State,
    free_search,
    house_deal,
    popcount,
    random_play,
    search_for,
    waiting_bound,
    waiting_bound_plain,
)


def timed(count, states: list[State]) -> tuple[list[float], float]:  # noqa: ANN001
    """The values and the seconds, the second time through (the first fills the caches of
    the answers and the waits, as the leaves met before in a search have)."""
    for s in states:
        count(s)
    started = time.perf_counter()
    values = [count(s) for s in states]
    return values, time.perf_counter() - started


def per_state(players: list[int], deals: int, games: int, seed: int) -> None:
    for n in players:
        states = [s for d in range(deals)
                  for s in random_play(house_deal(n, seed, d), games, random.Random(d))]
        bands: dict[int, list[State]] = defaultdict(list)
        for s in states:
            bands[min(popcount(s.belief).bit_length(), 10)].append(s)
        print(f"{n} players: {len(states)} states of {deals * games} random games "
              f"({deals} deals, seed {seed})")
        print(f"  {'assignments':>14} {'states':>7} {'plain ms':>9} {'arrays ms':>10} "
              f"{'shipped ms':>11} {'speed-up':>9}")
        totals = [0.0, 0.0, 0.0]
        largest = 0.0
        for band in sorted(bands):
            group = bands[band]
            plain, t_plain = timed(waiting_bound_plain, group)
            shipped, t_shipped = timed(waiting_bound, group)
            kept = questions.WAITING_ARRAYS
            questions.WAITING_ARRAYS = 0  # arrays for every belief
            try:
                arrays, t_arrays = timed(waiting_bound, group)
            finally:
                questions.WAITING_ARRAYS = kept
            largest = max([largest, *(abs(a - b) for a, b in zip(plain, arrays, strict=True)),
                           *(abs(a - b) for a, b in zip(plain, shipped, strict=True))])
            for i, t in enumerate((t_plain, t_arrays, t_shipped)):
                totals[i] += t
            low, high = 1 << (band - 1), (1 << band) - 1
            label = f"{low}-{high}" if band < 10 else f"{low} or more"
            print(f"  {label:>14} {len(group):>7} {1e3 * t_plain / len(group):>9.3f} "
                  f"{1e3 * t_arrays / len(group):>10.3f} {1e3 * t_shipped / len(group):>11.3f} "
                  f"{t_plain / t_shipped:>8.1f}x")
        print(f"  {'all':>14} {len(states):>7} {1e3 * totals[0] / len(states):>9.3f} "
              f"{1e3 * totals[1] / len(states):>10.3f} {1e3 * totals[2] / len(states):>11.3f} "
              f"{totals[0] / totals[2]:>8.1f}x")
        print(f"  largest difference from the plain count: {largest:.2e}")


def whole_lower_bound(players: int, index: int, depth: int, seed: int) -> None:
    problem = house_deal(players, seed, index)
    free_depth = 8 if players == 4 else None
    free = free_search(players, problem.mine)
    search = search_for(players)
    state = problem.start()
    started = time.process_time()
    search.lower_bound(state, depth, free, free_depth, waiting=False)  # the free values, once
    print(f"{players} players, deal {index}: the free variant's leaf values made in "
          f"{time.process_time() - started:.1f} s of CPU")
    for name, count in (("plain", waiting_bound_plain), ("shipped", waiting_bound)):
        questions.waiting_bound = count
        try:
            started = time.process_time()
            value = search.lower_bound(state, depth, free, free_depth)
            print(f"  lower bound of depth {depth}, the waiting bound {name}: {value:.6f} in "
                  f"{time.process_time() - started:.1f} s of CPU")
        finally:
            questions.waiting_bound = waiting_bound


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", choices=(2, 3, 4), default=[3, 4])
    parser.add_argument("--deals", type=int, default=3)
    parser.add_argument("--games", type=int, default=40, help="random games a deal")
    parser.add_argument("--seed", type=int, default=32)
    parser.add_argument("--lower", type=int, metavar="DEPTH",
                        help="time the lower bound of DEPTH on deal --deals of --players")
    args = parser.parse_args()
    if args.lower is not None:
        whole_lower_bound(args.players[0], args.deals, args.lower, args.seed)
    else:
        per_state(args.players, args.deals, args.games, args.seed)


if __name__ == "__main__":
    main()

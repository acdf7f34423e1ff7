"""Epic Monster Tea Party: MCTS's exact subtree searches in the default hint, by size (issue 30).
Printed figures, never asserted.

For the shipped midgame and opening and for seeded random positions (a game of two, three or
four monsters played at random until at most a drawn number of heroes are loose, then the first
decision with a choice), the default hint (no time limit, ``--seed 1``) runs with every
subtree search MCTS asks for recorded: the heroes loose in the position offered, whether it
finished, and the nodes spent.  The table sums them by number of monsters and by whether the
position is bigger than what the subtree searches take now (``budgets.subtree_loose``).  With
``--every-size`` the hint searches every size, as before issue 30 (the figures that set the
limits); without it, it shows what the searches spend now.

    python benchmarks/tea_party_subtrees.py --every-size      # some minutes
    python benchmarks/tea_party_subtrees.py --count 2         # fewer random positions
"""

from __future__ import annotations

import argparse
import collections
import random
import time

from partysolver.app import catalog
from partysolver.models.protocol import CHANCE, TERMINAL, sample_chance
from partysolver.models.tea_party.position import load_position
from partysolver.models.tea_party.state import CHOOSE, TeaPartyState
from partysolver.solvers.budget import Budget
from partysolver.solvers.tea_party import budgets, exact
from partysolver.solvers.tea_party import hint as hints


def shipped(name: str) -> TeaPartyState:
    document = catalog.open_document(f"tea-party:{name}")
    return load_position(document.data, document.source).to_state(document.source)


def random_positions(players: int, loose: tuple[int, int], count: int, seed: int
                     ) -> list[TeaPartyState]:
    """``count`` decisions of random games, each once at most a drawn number of heroes in
    ``loose`` are loose."""
    rng = random.Random(seed)
    found: list[TeaPartyState] = []
    while len(found) < count:
        state = TeaPartyState.new_game([f"P{i}" for i in range(players)])
        target = rng.randint(*loose)
        while state.current_player() != TERMINAL:
            if state.current_player() == CHANCE:
                state = state.apply(sample_chance(state, rng))
                continue
            if budgets.loose_heroes(state) <= target and len(state.legal_actions()) > 1:
                found.append(state)
                break
            state = state.apply(rng.choice(state.legal_actions()))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--every-size", action="store_true",
                        help="search subtrees of every size, as before issue 30")
    parser.add_argument("--count", type=int, default=8,
                        help="random positions per number of monsters (three: twice as many)")
    args = parser.parse_args()
    limits = {2: budgets.SUBTREE_LOOSE_TWO, 3: budgets.SUBTREE_LOOSE_MORE,
              4: budgets.SUBTREE_LOOSE_MORE}
    if args.every_size:
        budgets.SUBTREE_LOOSE_TWO = budgets.SUBTREE_LOOSE_MORE = 99
    offers: list[tuple[int, bool, int]] = []  # loose, finished, nodes
    real = exact.ExactSubtrees.__call__

    def recorded(self: exact.ExactSubtrees, state: TeaPartyState, nodes: int,
                 deadline: float) -> tuple[float, ...] | None:
        before = self.left
        found = real(self, state, nodes, deadline)
        spent = 0 if before is None or self.left is None else before - self.left
        offers.append((budgets.loose_heroes(state), found is not None, spent))
        return found

    exact.ExactSubtrees.__call__ = recorded  # type: ignore[method-assign]
    cases = [("midgame", shipped("midgame")), ("opening", shipped("opening"))]
    for players, low, high, count, seed in ((3, 12, 28, 2 * args.count, 77),
                                            (4, 12, 30, args.count, 78),
                                            (2, 19, 32, args.count, 79)):
        cases += [(f"random {players} monsters #{i}", state) for i, state
                  in enumerate(random_positions(players, (low, high), count, seed))]
    totals: dict[tuple[int, bool], list[int]] = collections.defaultdict(lambda: [0, 0, 0])
    biggest_solved: dict[int, int] = {}
    for name, state in cases:
        offers.clear()
        start = time.perf_counter()
        if state.phase == CHOOSE:
            hints.hint(state, Budget(), random.Random(1))
        else:
            hints.draw_hints(state, Budget(), random.Random(1))
        seconds = time.perf_counter() - start
        limit = limits[state.num_players]
        for loose, finished, nodes in offers:
            row = totals[(state.num_players, loose > limit)]
            row[0] += 1
            row[1] += finished
            row[2] += nodes
            if finished:
                players = state.num_players
                biggest_solved[players] = max(biggest_solved.get(players, 0), loose)
        print(f"{name:24} {budgets.loose_heroes(state):3} loose  {seconds:6.2f} s  "
              f"{len(offers):6,} offers  {sum(o[1] for o in offers):4} finished  "
              f"{sum(o[2] for o in offers):>10,} nodes", flush=True)
    print("\nmonsters  positions offered       offers  finished        nodes")
    for (players, bigger), (count, finished, nodes) in sorted(totals.items()):
        size = f"> {limits[players]} loose" if bigger else f"<= {limits[players]} loose"
        print(f"{players:8}  {size:16}  {count:9,}  {finished:8,}  {nodes:11,}")
    for players, loose in sorted(biggest_solved.items()):
        print(f"{players} monsters: the biggest position finished had {loose} heroes loose")


if __name__ == "__main__":
    main()

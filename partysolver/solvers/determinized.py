"""Determinised search from a player's view, for games with hidden information.

The asking player's view is all the search reads: it samples full states consistent with the
view (from the game's prior), solves each sample as if everything were visible, and averages
every action's value over the samples (perfect-information Monte Carlo).  The result is an
estimate (status ``feasible``) with, per action, a 95% normal interval of the mean of its
perfect-information value over states sampled from the view: an interval of that average (what
more samples would converge to), not of the action's value to a player who cannot see the
hidden cards, which perfect-information Monte Carlo can over-estimate.  No front end prints it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable

from ..models.protocol import State, View
from .budget import Budget, MoveValue, SearchResult, Status
from .stats import mean_interval

SampleSearch = Callable[[State, random.Random], SearchResult]
"""Solves one sampled full state (exact expectimax, MCTS, or a game-specific search)."""


def determinized(view: View, search: SampleSearch, budget: Budget, rng: random.Random
                 ) -> SearchResult:
    """Average ``search`` over states sampled from ``view`` until the budget's iterations
    (samples) or time run out."""
    if not callable(getattr(view, "sample", None)):
        raise ValueError("determinised search needs a view that can sample full states")
    if budget.iterations is None and budget.time is None:
        raise ValueError("determinised search needs a sample (iteration) or time budget")
    meter = budget.start()
    totals: dict[Hashable, list[float]] = {}
    order: dict[Hashable, int] = {}
    exact_everywhere = True
    while not meter.exhausted():
        sample = view.sample(rng)
        if sample.current_player() != view.player:
            raise ValueError("the view's player is not the one to act in its samples")
        result = search(sample, rng)
        exact_everywhere &= result.status == "optimal"
        for move in result.moves:
            order.setdefault(move.action, len(order))
            sums = totals.setdefault(move.action, [0.0, 0.0, 0])
            sums[0] += move.value
            sums[1] += move.value * move.value
            sums[2] += 1
        meter.iterations += 1
    moves = []
    for action, (total, squares, n) in totals.items():
        mean = total / n
        moves.append(MoveValue(action, mean, (), exact=False, visits=int(n),
                               interval=mean_interval(total, squares, int(n))))
    moves.sort(key=lambda m: (-m.value, order[m.action]))
    method = f"determinised {'exact' if exact_everywhere else 'estimated'} search " \
             f"over {meter.iterations} sampled states"
    status: Status = "feasible" if moves else "unknown"
    return SearchResult(status, method, None, tuple(moves), (), meter.usage())

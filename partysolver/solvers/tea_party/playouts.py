"""MCTS's leaf estimates for Epic Monster Tea Party: playouts through the rules engine scored
by material (:class:`LeafEstimate`), or run by the compiled kernel for two monsters
(:func:`compiled_playouts`)."""

from __future__ import annotations

import math
import random

from ...models.tea_party.state import TeaPartyState
from ..mcts import Evaluator, playout
from .policies import material


class LeafEstimate:
    """MCTS's estimate of a leaf no exact search could finish: the returns of a random
    playout, cut after ``playout_decisions`` decisions (if given) and then scored by
    :func:`material_shares`."""

    def __init__(self, playout_decisions: int | None = None) -> None:
        self.playout_decisions = playout_decisions

    def __call__(self, state: TeaPartyState, rng: random.Random) -> tuple[float, ...]:
        return playout(state, rng, decisions=self.playout_decisions,
                       cutoff=lambda cut, _: material_shares(cut))


MATERIAL_SCALE = 6.0
"""Points of material difference that make a 73%-27% favourite (logistic scale)."""


def material_shares(state: TeaPartyState) -> tuple[float, ...]:
    """A guess at each monster's win share from material alone: a softmax of
    :func:`material` over ``MATERIAL_SCALE``."""
    weights = [math.exp(material(state, seat) / MATERIAL_SCALE)
               for seat in range(state.num_players)]
    total = sum(weights)
    return tuple(w / total for w in weights)


LEAF_PLAYOUTS = 16
"""Random playouts per MCTS leaf in the compiled search (two monsters)."""


PLAYOUT_GREEDY = 0.75
"""The share of a compiled playout's decisions played as greedy plays them (the rest at
random).  Uniformly random play values a point in the teacup and a drink nearly alike, which
left MCTS picking the wrong one of two near options whose subtrees were too big to solve
(measured on the benchmark's 35 decisions of 8-12 heroes at 2 s: 97.1% agreement with
uniform playouts, 100% in two runs with these)."""


def compiled_playouts() -> Evaluator:
    """MCTS's leaf estimate for two monsters: the mean of ``LEAF_PLAYOUTS`` playouts run by
    the compiled kernel (some hundred times faster than one through the rules engine), a
    ``PLAYOUT_GREEDY`` share of their decisions played as greedy plays them: loaded without
    numba where their object is there (:mod:`.native`), else through numba."""
    from . import native

    found = native.playouts(LEAF_PLAYOUTS, PLAYOUT_GREEDY)
    if found is not None:
        return found
    from .kernel import Playouts

    return Playouts(LEAF_PLAYOUTS, PLAYOUT_GREEDY)


def native_playouts_ready() -> bool:
    """Whether the compiled playouts load without numba here (:func:`.native.load`)."""
    from . import native

    return native.load() is not None

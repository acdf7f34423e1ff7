"""MCTS's leaf estimates for Epic Monster Tea Party: playouts through the rules engine scored
by material (:class:`LeafEstimate`), or run by the compiled kernel for two monsters
(:class:`KernelPlayouts`; :func:`.native.compiled_playouts` picks how they load)."""

from __future__ import annotations

import math
import random
from abc import ABC, abstractmethod
from typing import Any

from ...models.tea_party.state import OVER, THROW_UP, TeaPartyState
from ..budget import Budget
from ..expectimax import Expectimax
from ..mcts import playout
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


class KernelPlayouts(ABC):
    """Playouts of two-monster positions in the compiled kernel (:func:`.kernel._playouts`),
    ``n`` per call, a ``greedy`` share of their decisions played as greedy plays them and the
    rest at random: the mean of each monster's win share.  ``rng`` seeds them, so a seeded
    search stays reproducible.  What the kernel is given (the root's seven numbers, the
    current monster first; its work arrays of ``children`` rows) is set here once, for numba's
    dispatcher (:class:`.kernel.Playouts`) and the object loaded without numba
    (:class:`.native.NativePlayouts`) alike; each runs :meth:`_seat`."""

    def __init__(self, n: int, greedy: float, children: int) -> None:
        import numpy as np

        self.n = n
        self.greedy = greedy
        """The share of decisions played greedily (``kernel._greedy``), the rest at random."""
        self.work = (np.zeros((1, children, 7), dtype=np.int64), np.zeros((1, children)),
                     np.zeros((1, children), np.int8), np.zeros((2, children), np.int64),
                     np.zeros((2, children)))

    def __call__(self, state: TeaPartyState, rng: random.Random) -> tuple[float, float]:
        import numpy as np

        if state.phase == OVER or (state.phase == THROW_UP and state.final):
            return tuple(Expectimax(Budget()).value(state))  # type: ignore[return-value]
        cups, stomachs = state.cups, state.stomachs
        if state.player == 1:
            cups, stomachs = cups[::-1], stomachs[::-1]
        root = np.array([state.phase, state.held, state.bag, cups[0], cups[1], stomachs[0],
                         stomachs[1]], dtype=np.int64)
        seat = self._seat(root, rng.getrandbits(31))
        return (1.0 - seat, seat) if state.player == 1 else (seat, 1.0 - seat)

    @abstractmethod
    def _seat(self, root: Any, seed: int) -> float:
        """The current monster's mean win share over ``n`` playouts from ``root`` (each way
        of running the kernel gives its own)."""

"""Every player's value of a position for a review's luck and graph (``app/luck.py``), for the
games whose hint values one move for the mover: Meeple Party, Party-Time and Pool Party Stars.

Each function is its game's :meth:`~.base.GameCommands.position_values` hook, in the units of
the game's review (``GameCommands.review``: stress, strips, VIPs), higher better, on a full
state only (a seat's view does not say what the others hold: ``None``, not computed):

- **Meeple Party** (cooperative: one figure, the same for every player): minus the stress the
  roommates hold at the end of the turn in play, by the hint's exact search of the rest of the
  turn (:class:`~..solvers.meeple_party.turn.TurnSearch`, the hint's best play): the stress
  held now plus what the search expects the rest of the turn to add.  A chance point inside a
  turn (the bag's draw, a surprise card) is valued by the same search over every outcome, so
  the luck of its outcomes averages to 0.  Exact (the search finishes, else ``None``).  A
  position between turns (the clock's icon, the cards drawn after a turn) is not valued, and
  its chance points are not computed (their outcomes act on turns the search does not
  reach): an empty valuation, which the review does not average either.
- **Party-Time**: the strips each player is expected to hold at the end of the game, by
  :data:`PLAYOUTS` playouts from the position with everyone greedy (the hint's model of the
  opponents), each position's playouts drawn from the same seed (common random numbers, so
  the positions after the outcomes of one draw differ by the draw, not by the playouts'
  luck).  Estimated.  At a draw the review averages the values after each card.
- **Pool Party Stars**: each player's VIPs plus the VIPs their best action is expected to bring
  on what their seat knows (the hint's exact count of the consistent assignments of rules:
  the value the hint gives that player's best option, as if it were their turn).  Exact in the
  hint's sense (a count, one action ahead).  At a draw (a guest, a new rule) the review
  averages the values after each outcome, so the luck of a draw is what the card did to the
  drawer's best next action against the average card.
"""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING, Any

from .base import Document, Options, Valuation

if TYPE_CHECKING:
    from ..models.protocol import State

PLAYOUTS = 100
"""Party-Time playouts to the end of the game per position valued (fewer when a
``--time-limit`` runs out first: at least :data:`LEAST_PLAYOUTS`)."""
MEEPLE_NODES = 100_000
"""The node budget of one Meeple Party valuation (the exact turn search): a chance point whose
search needs more (a surprise card drawn mid-turn, some thirty cards each with the rest of the
turn) is not computed rather than searched for minutes."""
LEAST_PLAYOUTS = 20
"""The fewest playouts a Party-Time position is valued by, whatever the time limit."""


def _state(document: Document) -> State | None:
    """The full state of ``document``'s position (``None``: one seat's view)."""
    from ..models.playable import full_state
    from .records import playable

    return full_state(playable(document))


# -- Meeple Party -------------------------------------------------------------------------------


def meeple_party_values(document: Document, options: Options) -> Valuation | None:
    from ..models.meeple_party.state import OVER, MeeplePartyState
    from ..models.protocol import CHANCE
    from ..solvers.budget import Budget, BudgetExhausted
    from ..solvers.meeple_party.evaluate import figures
    from ..solvers.meeple_party.turn import TurnSearch, searchable

    state = _state(document)
    if not isinstance(state, MeeplePartyState):
        return None
    names = tuple(state.setup.players)
    held = float(sum(state.stress))
    if state.phase == OVER:
        return Valuation(dict.fromkeys(names, -held), True)
    if not searchable(state):  # between turns: the turn search has no turn in play
        return Valuation({}, False)
    nodes = options.extra.get("max_nodes") or MEEPLE_NODES
    try:
        value, _ = TurnSearch(state, Budget(time=options.time_limit, nodes=nodes)).value(state)
    except BudgetExhausted:  # a chance point too big to search: not averaged either
        return Valuation({}, False) if state.current_player() == CHANCE else None
    added = figures(value)["stress"]
    return Valuation(dict.fromkeys(names, -(held + added)), True)


# -- Party-Time ---------------------------------------------------------------------------------


def party_time_values(document: Document, options: Options) -> Valuation | None:
    from ..models.party_time.state import PartyTimeState
    from ..models.protocol import CHANCE, sample_chance
    from ..solvers.party_time.policies import GreedyPolicy

    state = _state(document)
    if not isinstance(state, PartyTimeState):
        return None
    names = state.names
    if state.is_terminal():
        return Valuation({name: float(state.strips[seat]) for seat, name in enumerate(names)},
                         True)
    if state.current_player() == CHANCE:
        return None  # the review averages the values after each outcome
    greedy = GreedyPolicy()
    total = [0.0] * len(names)
    ends = time.monotonic() + options.time_limit if options.time_limit is not None else None
    done = 0
    for k in range(PLAYOUTS):
        if ends is not None and done >= LEAST_PLAYOUTS and time.monotonic() > ends:
            break
        rng = random.Random(f"{options.rng_seed}:{k}")  # playout k: the same at every position
        here = state
        while not here.is_terminal():
            step: Any = sample_chance(here, rng) if here.current_player() == CHANCE \
                else greedy(here, rng)
            here = here.apply(step)
        for seat, strips in enumerate(here.strips):
            total[seat] += strips
        done += 1
    return Valuation({name: total[seat] / done for seat, name in enumerate(names)}, False)


# -- Pool Party Stars ---------------------------------------------------------------------------


def pool_party_values(document: Document, options: Options) -> Valuation | None:
    from ..models.pool_party_stars.position import load_log
    from ..models.pool_party_stars.state import PoolPartyState
    from ..models.protocol import CHANCE
    from ..solvers.pool_party_stars import deduction, hints

    state = _state(document)
    if not isinstance(state, PoolPartyState):
        return None
    names = state.table.players
    vips = state.public.vips
    if state.is_terminal():
        return Valuation({name: float(len(vips[seat])) for seat, name in enumerate(names)},
                         True)
    if state.current_player() == CHANCE:
        return None  # the review averages the values after each outcome
    log = load_log(document.data, document.source)
    values = {}
    for seat, name in enumerate(names):
        knowledge = log.knowledge(seat)
        post = deduction.posterior(knowledge)
        if not post.consistent:
            return None
        advice = hints.hint(knowledge, post)
        best = advice.options[0].value if advice.options else 0.0
        values[name] = len(vips[seat]) + best
    return Valuation(values, True)


__all__ = ["LEAST_PLAYOUTS", "MEEPLE_NODES", "PLAYOUTS", "meeple_party_values", "party_time_values",
           "pool_party_values"]

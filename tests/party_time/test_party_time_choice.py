"""The hint policy's lazy choice: the play the full ranking puts first, valuing fewer plays."""

from __future__ import annotations

import random

import pytest
from party_time_positions import decisions

from partysolver.models.party_time.state import PartyTimeState, PartyTimeView
from partysolver.solvers.budget import Budget
from partysolver.solvers.party_time.hint import TOLERANCE, HintPolicy, _settled, choose, hint

SMALL_DECK = {"1": 3, "2": 3, "3": 2, "4": 2, "5": 2, "R": 1, "black": 1, "star": 1, "?": 1}


def view(state: PartyTimeState) -> PartyTimeView:
    return state.view(state.current_player())


@pytest.mark.parametrize(("players", "depth", "deck"),
                         [(3, 1, None), (4, 1, None), (2, 2, SMALL_DECK), (3, 1, SMALL_DECK)])
def test_lazy_choice_is_the_hints_first_play(players: int, depth: int,
                                             deck: dict[str, int] | None) -> None:
    """In positions of greedy play (near the star and far from it), the lazy choice is the
    play the full ranking shows first, for the same horizon."""
    compared = 0
    for state in decisions(players, 14, players * 10 + depth, deck):
        full = hint(view(state), depth, Budget(nodes=60_000))
        if full.status != "optimal":
            continue
        play, reached = choose(view(state), depth, Budget(nodes=60_000))
        assert reached == depth
        assert play == full.moves[0].play, str(state)
        compared += 1
    assert compared >= 8


def test_settled_needs_only_what_decides() -> None:
    """Plays in the habits' order.  The first is chosen at once when no play can be more than
    the tolerance below it; a play that may be beaten by an unvalued one leaves the choice
    open; a play out of tolerance of a lower value is passed over."""
    t = TOLERANCE
    # Nothing valued yet: open.
    assert _settled([], [0.0, 0.0]) is None
    # The first is within the tolerance of the floor 0 of every play: settled.
    assert _settled([t / 2], [0.0, 0.0, 0.0]) == 0
    # Its value is above the tolerance and the next play (not valued) may be 0: open.
    assert _settled([t + 0.1], [0.0, 0.0]) is None
    # The rest cross the star now (floor 1): the first is within the tolerance of them all.
    assert _settled([0.9], [0.0, 1.0, 1.0]) == 0
    # Both valued: the first is beyond the tolerance of the second, which is chosen.
    assert _settled([t + 0.3, 0.1], [0.0, 0.0]) == 1
    # The second (valued) is lower by less than the tolerance: the first stays chosen.
    assert _settled([t, 0.05], [0.0, 0.0]) == 0
    # The first is out of the tolerance of the second; the second may be beaten by the third.
    assert _settled([t + 0.6, t + 0.2], [0.0, 0.0, 0.0]) is None
    # All valued: exactly the full ranking's choice.
    assert _settled([t + 0.6, t + 0.05, 0.1], [0.0, 0.0, 0.0]) == 1
    assert _settled([t + 0.6, t + 0.4, 0.1], [0.0, 0.0, 0.0]) == 2


def test_lazy_choice_runs_out_of_budget_honestly() -> None:
    """Past the budget no play is claimed (the policy then plays the habits' choice)."""
    state = decisions(4, 1, 2)[0]
    play, reached = choose(view(state), 2, Budget(nodes=1))
    assert play is None and reached == 0


def test_hint_policy_plays_the_lazy_choice() -> None:
    for state in decisions(3, 6, 9):
        play, reached = choose(view(state), 1, Budget(nodes=20_000))
        chosen = HintPolicy()(state, random.Random(0))
        assert chosen in state.legal_actions()
        if reached:
            assert chosen == play

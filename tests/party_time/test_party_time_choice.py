"""The hint policy's lazy choice: the play the full ranking puts first, valuing fewer plays."""

from __future__ import annotations

import random

import pytest
from party_time_positions import decisions

from partysolver.models.party_time.state import PartyTimeState, PartyTimeView
from partysolver.solvers.budget import Budget
from partysolver.solvers.party_time.hint import (
    TOLERANCE,
    HintPolicy,
    _settled,
    choose,
    hint,
    long_runs,
)

SMALL_DECK = {"1": 3, "2": 3, "3": 2, "4": 2, "5": 2, "R": 1, "black": 1, "star": 1, "?": 1}


def view(state: PartyTimeState) -> PartyTimeView:
    return state.view(state.current_player())


@pytest.mark.parametrize(("players", "depth", "deck"),
                         [(3, 1, None), (4, 1, None), (2, 2, SMALL_DECK), (3, 1, SMALL_DECK)])
def test_lazy_choice_is_the_hints_first_play(players: int, depth: int,
                                             deck: dict[str, int] | None) -> None:
    """In positions of greedy play (near the star and far from it), the lazy choice is the
    play the full ranking shows first, for the same horizon, exact or estimated from the same
    deals."""
    compared = 0
    for state in decisions(players, 14, players * 10 + depth, deck):
        full = hint(view(state), depth, Budget(nodes=600_000), playouts=300, deals=300)
        if full.status == "unknown":
            continue
        play, reached = choose(view(state), depth, Budget(nodes=600_000), playouts=300,
                               deals=300)
        assert reached == depth
        assert play == full.moves[0].play, str(state)
        compared += 1
    assert compared >= 8


def test_settled_needs_only_what_decides() -> None:
    """Plays in the order among equals (``hint.order_key``).  The first is chosen at once when
    no play can be more than the tolerance below it; a play that may be beaten by an unvalued
    one leaves the choice open; a play out of tolerance of a lower value is passed over."""
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
    """Past the budget no deeper horizon is claimed: depth 1 still answers (estimated from the
    playouts, which run outside the budget), and the play is depth 1's."""
    state = decisions(4, 1, 2)[0]
    play, reached = choose(view(state), 2, Budget(nodes=1), playouts=300, seed=3)
    assert reached == 1
    assert play == choose(view(state), 1, Budget(nodes=1), playouts=300, seed=3)[0]
    assert play == hint(view(state), 1, Budget(nodes=1), playouts=300, seed=3).moves[0].play


def test_hint_policy_plays_the_lazy_choice() -> None:
    """The policy plays :func:`choose`'s play, its playouts seeded from the policy's stream."""
    for state in decisions(3, 6, 9):
        seed = random.Random(0).getrandbits(31)
        play, _ = choose(view(state), 1, Budget(nodes=20_000), seed=seed)
        assert HintPolicy()(state, random.Random(0)) == play


def test_equally_safe_plays_go_by_the_long_run() -> None:
    """Within the tolerance of the safest play, the ranking follows the long run (the strips
    the playouts lose by the end of the game), the habits only breaking its ties; past the
    tolerance, the one-turn value.  Somewhere the long run overrules the habits."""
    overruled = 0
    for state in decisions(4, 12, 21):
        v = view(state)
        found = hint(v, 1, Budget(nodes=60_000), playouts=400, seed=2, deals=400)
        least = min(m.value for m in found.moves)
        near = [m for m in found.moves if m.value <= least + TOLERANCE]
        if len(near) < 2:  # nothing to order: no playouts are run for the order
            assert found.playouts == 0 and all(m.long_run is None for m in found.moves)
            continue
        assert found.playouts == 400
        assert {m.play: m.long_run for m in found.moves} == long_runs(v, 400, 2)
        assert found.moves[:len(near)] == tuple(near)
        means = [m.long_run.mean for m in near if m.long_run]
        assert len(means) == len(near) and means == sorted(means)
        rest = [m.value for m in found.moves[len(near):]]
        assert rest == sorted(rest)
        habits = hint(v, 1, Budget(nodes=60_000), playouts=0, seed=2, deals=400)
        assert habits.playouts == 0 and all(m.long_run is None for m in habits.moves)
        overruled += habits.moves[0].play != found.moves[0].play
    assert overruled >= 1

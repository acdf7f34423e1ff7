"""MCTS's exact subtrees where they cannot finish (issue 30: a second from a fresh process).

A position with more heroes loose than ``budgets.subtree_loose`` (18 for two monsters, 12 for
more) is not searched any more, only checked for a certain winner: on the shipped midgame and
opening no such search ever finished, and these tests hold the hint's answer to what it was
when every size was searched."""

from __future__ import annotations

import math
import random

import pytest
from reports import data as report_data
from tea_party_positions import position

from partysolver.app import catalog
from partysolver.models.tea_party.game import Draw, Hero
from partysolver.models.tea_party.position import load_position
from partysolver.models.tea_party.state import TeaPartyState
from partysolver.solvers.budget import Budget
from partysolver.solvers.tea_party import budgets, exact
from partysolver.solvers.tea_party import hint as hints


def shipped(name: str) -> TeaPartyState:
    document = catalog.open_document(f"tea-party:{name}")
    return load_position(document.data, document.source).to_state(document.source)


BIG = {"fighter": 15, "cleric": 4}
"""19 heroes in the bag: one more than two monsters' subtree searches take."""


def test_a_position_too_big_is_not_searched() -> None:
    assert budgets.loose_heroes(position(BIG)) == budgets.subtree_loose(2) + 1
    state = position(BIG, stomachs=[{"rogue": 1}, {"wizard": 1}], held="fighter")
    subtrees = exact.ExactSubtrees(2, False, total=50_000)
    assert subtrees(state, 20_000, math.inf) is None
    assert subtrees.left == 50_000  # no node spent (before: the 20,000 offered)
    assert subtrees.solved == 0
    bag = {"fighter": 4, "cleric": 2, "rogue": 2, "wizard": 2, "ranger": 1}
    three = position(bag, stomachs=[{"rogue": 1}, {"wizard": 1}, {}], held="fighter",
                     players=3)
    assert budgets.loose_heroes(three) == budgets.subtree_loose(3) == 12
    subtrees = exact.ExactSubtrees(3, False, total=50_000)
    assert subtrees(three, 20_000, math.inf) is None
    assert subtrees.left == 30_000  # 12 loose: searched, out of its 20,000 nodes
    bigger = position(bag | {"fighter": 5}, stomachs=[{"rogue": 1}, {"wizard": 1}, {}],
                      held="fighter", players=3)
    subtrees = exact.ExactSubtrees(3, False, total=50_000)
    assert subtrees(bigger, 20_000, math.inf) is None and subtrees.left == 50_000


def test_a_certain_winner_is_still_answered() -> None:
    """53 points in Blue's stomach against the 27 loose and none in Green's: Blue has won
    whatever happens, which the exact search's first test says at once."""
    state = position(BIG, stomachs=[{"rogue": 7, "wizard": 5}, {}])
    assert state.settled_returns() == (1.0, 0.0)
    for players, compiled in ((2, False), (2, True)):
        subtrees = exact.ExactSubtrees(players, compiled, total=10)
        assert subtrees(state, 20_000, math.inf) == (1.0, 0.0)
        assert subtrees.solved == 1 and subtrees.left == 10
    three = position(BIG, stomachs=[{"rogue": 7, "wizard": 5}, {}, {}], players=3)
    subtrees = exact.ExactSubtrees(3, False, total=10)
    assert subtrees(three, 20_000, math.inf) == (1.0, 0.0, 0.0)


def _old_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    """The subtree searches as before issue 30: every size searched."""
    monkeypatch.setattr(budgets, "SUBTREE_LOOSE_TWO", 99)
    monkeypatch.setattr(budgets, "SUBTREE_LOOSE_MORE", 99)


def _answer(state: TeaPartyState, seed: int, iterations: int
            ) -> list[tuple[object, float, int, bool]]:
    found = hints.search(state, Budget(), random.Random(seed), mcts_iterations=iterations)
    return [(m.action, m.value, m.visits, m.exact) for m in found.moves]


def test_the_midgame_answers_as_with_the_old_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    """Three monsters, 23 heroes loose: the same values and visits."""
    state = shipped("midgame")
    now = _answer(state, 2, 500)
    _old_budgets(monkeypatch)
    assert _answer(state, 2, 500) == now


def test_a_draw_of_the_opening_answers_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two monsters, 42 heroes loose after the draw (the compiled search and playouts)."""
    opening = shipped("opening")
    state = opening.apply(Draw(Hero.WIZARD))
    now = _answer(state, 3, 375)
    _old_budgets(monkeypatch)
    assert _answer(state, 3, 375) == now


def test_the_midgame_hint_is_reproducible_with_a_seed() -> None:
    """The shipped command's default budgets, twice with one seed: the same JSON."""
    first = report_data("hint", "tea-party:midgame", seed=11)
    assert first == report_data("hint", "tea-party:midgame", seed=11)
    assert first["search"]["iterations"] == budgets.DEFAULT_MCTS_ITERATIONS

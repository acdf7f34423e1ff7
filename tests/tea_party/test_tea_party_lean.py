"""The interpreted two-player search against the rules engine (the generic expectimax is the
oracle) and against the compiled search, on random positions of every phase and both seats."""

from __future__ import annotations

import random

import pytest
from tea_party_positions import position
from test_tea_party_compiled import generic, reached_states

from partysolver.models.tea_party.state import THROW_UP
from partysolver.solvers.budget import Budget, BudgetExhausted
from partysolver.solvers.expectimax import expectimax
from partysolver.solvers.tea_party.kernel import CompiledExpectimax
from partysolver.solvers.tea_party.lean import LeanExpectimax


def test_lean_values_equal_the_rules_engine_on_every_phase_and_seat() -> None:
    seen: dict[tuple[int, int, bool], int] = {}
    for state in reached_states(4, 3000, (0, 2)):
        kind = (state.phase, state.player, state.final)
        if seen.get(kind, 0) >= 25:
            continue
        try:
            truth = generic(state, 10_000)
        except BudgetExhausted:
            continue
        for transpositions in (True, False):
            search = LeanExpectimax(Budget(), transpositions=transpositions)
            assert search.value(state) == pytest.approx(truth, abs=1e-9), state
        seen[kind] = seen.get(kind, 0) + 1
    assert {(THROW_UP, 0, False), (THROW_UP, 1, False)} <= set(seen)
    assert {(phase, seat, False) for phase in (0, 1) for seat in (0, 1)} <= set(seen)


def test_lean_root_options_equal_the_compiled_search_on_bigger_bags() -> None:
    rng = random.Random(9)
    checked = 0
    for state in reached_states(6, 400, (4, 7)):
        if state.phase != 1 or rng.random() < 0.5:
            continue
        compiled = expectimax(state, Budget(nodes=200_000), line=False, kind=CompiledExpectimax)
        if compiled.status != "optimal":
            continue
        lean = expectimax(state, line=True, kind=LeanExpectimax)
        assert lean.status == "optimal" and lean.method == "exact expectimax, interpreted"
        assert {m.action: m.value for m in lean.moves} == pytest.approx(
            {m.action: m.value for m in compiled.moves}, abs=1e-9)
        checked += 1
        if checked == 12:
            break
    assert checked == 12


def test_out_of_nodes_the_lean_search_keeps_only_finished_values() -> None:
    state = position({"fighter": 3, "cleric": 1, "rogue": 1, "ranger": 1},
                     cups=[{"ranger": 1}, {"cleric": 1}], stomachs=[{"fighter": 2}, {"cleric": 1}])
    table: dict[tuple[int, ...], float] = {}
    cut = LeanExpectimax(Budget(nodes=200), table=table)
    with pytest.raises(BudgetExhausted):
        cut.value(state)
    assert cut.meter.nodes == 200 and 0 < len(table) <= 200
    resumed = LeanExpectimax(Budget(), table=table)
    assert resumed.value(state) == pytest.approx(LeanExpectimax(Budget()).value(state),
                                                 abs=1e-12)
    assert expectimax(state, Budget(nodes=100), kind=LeanExpectimax).status == "unknown"


def test_the_lean_search_refuses_more_than_two_monsters() -> None:
    with pytest.raises(ValueError, match="two monsters"):
        expectimax(position({"fighter": 1}, players=3), kind=LeanExpectimax)

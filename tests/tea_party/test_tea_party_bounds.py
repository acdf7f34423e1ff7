"""Proven bounds (issue 32): every interval the bounds search gives must contain the exact value,
however shallow the search, however small its budget, whatever leaves it solved exactly."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tea_party_positions import position
from test_tea_party_solvers import random_position

from partysolver.models.tea_party import load_state
from partysolver.models.tea_party.state import CHOOSE, TeaPartyState
from partysolver.solvers.budget import Budget
from partysolver.solvers.expectimax import Expectimax
from partysolver.solvers.tea_party import bounds
from partysolver.solvers.tea_party import hint as hints
from partysolver.solvers.tea_party.exact import load_compiled

EXACT = json.loads((Path(__file__).resolve().parents[2] / "benchmarks"
                    / "tea_party_exact.json").read_text())
"""The benchmark's decision positions with every option's exact value (compiled search)."""
TOLERANCE = 1e-9


def exact_options(state: TeaPartyState) -> dict[object, float]:
    """Every option's exact value for the chooser (the generic search over the rules engine)."""
    return {action: Expectimax(Budget()).value(state.apply(action))[state.player]
            for action in state.legal_actions()}


def contains(found: bounds.Bounds, exact: dict[object, float]) -> bool:
    return all(lo - TOLERANCE <= exact[a] <= hi + TOLERANCE
               for a, (lo, hi) in zip(found.actions, found.intervals, strict=True))


def benchmark_positions(bag: int) -> list[tuple[TeaPartyState, dict[object, float]]]:
    found = []
    for entry in EXACT["positions"]:
        if entry["bag"] != bag or entry["exact"] is None:
            continue
        state = load_state(entry["position"], "benchmark")
        by_text = {str(a): a for a in state.legal_actions()}  # as the benchmark writes them
        found.append((state, {by_text[text]: v for text, v in entry["exact"].items()}))
    return found


def test_eight_hero_bounds_contain_the_exact_values() -> None:
    """The issue's check: on the benchmark's twelve 8-hero decisions, whose exact values the
    compiled search recorded, every interval of every iteration contains the exact value, with
    and without exact leaves; and a search that reaches every leaf gives the exact values."""
    positions = benchmark_positions(8)
    assert len(positions) == 12
    informative = 0
    for state, exact in positions:
        for depth in (2, 5, 9):
            found = bounds.prove(state, start_depth=depth, max_depth=depth, nodes=1_500)
            assert contains(found, exact), (depth, found)
        found = bounds.prove(state, nodes=5_000, exact=bounds.LeanExact(1_000), exact_loose=6)
        assert contains(found, exact), found
        informative += any(hi - lo < 1.0 for lo, hi in found.intervals)
    assert informative >= 3  # the bounds say something, not only [0, 1]
    state, exact = positions[5]  # seed 5: the smallest tree (4,182 nodes exact)
    found = bounds.prove(state)
    assert found.complete
    for a, (lo, hi) in zip(found.actions, found.intervals, strict=True):
        assert hi - lo <= 2e-6 and lo - TOLERANCE <= exact[a] <= hi + TOLERANCE


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), depth=st.integers(1, 12),
       nodes=st.sampled_from([50, 300, 2_000]), leaves=st.booleans())
def test_every_interval_contains_the_exact_value(seed: int, depth: int, nodes: int,
                                                 leaves: bool) -> None:
    """Small random two-monster decisions, any depth, any budget, with or without exact
    leaves: each option's interval holds its exact value."""
    rng = random.Random(seed)
    while True:
        state = random_position(rng, 2)
        if state.phase == CHOOSE:
            break
    exact = exact_options(state)
    oracle = bounds.LeanExact(rng.choice([10, 1_000])) if leaves else None
    found = bounds.prove(state, nodes=nodes, start_depth=depth, max_depth=depth + 4,
                         exact=oracle, exact_loose=rng.randint(0, 6))
    assert contains(found, exact), (state, found, exact)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_static_bounds_hold_the_exact_value(seed: int) -> None:
    """A leaf's game-theoretic bounds (the worst and best each stomach can end as) hold its
    exact value, at every phase."""
    state = random_position(random.Random(seed), 2)
    if state.phase not in (0, CHOOSE):  # a draw or a decision (throw-ups: in the searches)
        return
    cups, stomachs = state.cups, state.stomachs
    if state.player == 1:
        cups, stomachs = cups[::-1], stomachs[::-1]
    lo, hi = bounds.static_bounds(state.phase, state.held, state.bag, cups[0], cups[1],
                                  stomachs[0], stomachs[1])
    value = Expectimax(Budget()).value(state)[state.player]
    assert lo - TOLERANCE <= value <= hi + TOLERANCE


def test_a_lead_no_one_can_catch_is_a_proven_win() -> None:
    """Blue's stomach (Queen, King, Bard, 3 Wizards: 41) beats the most Green can reach (a
    Fighter, the Cleric in the bag and its stomach's 3), and there is no Ranger left to make
    Blue throw up: every option is a proven win for Blue."""
    state = position({"cleric": 1}, [{}, {}], [{"queen": 1, "king": 1, "bard": 1, "wizard": 3},
                                               {"fighter": 3}], held="fighter")
    found = bounds.prove(state, start_depth=1, max_depth=1)
    assert found.intervals == ((1.0, 1.0),) * len(found.actions)
    # A Ranger still loose could make Blue throw up its two best heroes: no longer certain.
    state = position({"ranger": 1}, [{}, {"fighter": 1}], [{"queen": 1, "wizard": 1},
                                                            {"fighter": 3, "cleric": 1}],
                     held="fighter")
    lo, hi = bounds.static_bounds(0, -1, state.bag, 0, state.cups[1], state.stomachs[0],
                                  state.stomachs[1])
    assert (lo, hi) == (0.0, 1.0)


def test_the_options_are_the_rules_engines() -> None:
    """The bounds search's options are the rules engine's, one for one, on random decisions."""
    rng = random.Random(5)
    checked = 0
    while checked < 200:
        state = random_position(rng, 2)
        if state.phase != CHOOSE:
            continue
        checked += 1
        cups, stomachs = state.cups, state.stomachs
        if state.player == 1:
            cups, stomachs = cups[::-1], stomachs[::-1]
        listed = bounds.options(state.held, state.bag, cups[0], cups[1], stomachs[0],
                                stomachs[1])
        assert len(listed) == len(state.legal_actions())


def test_a_proved_best_needs_separated_intervals() -> None:
    found = bounds.Bounds(("a", "b"), ((0.4, 0.6), (0.1, 0.4)), 3, 10, 0.0, False)
    assert found.proved_best == 0
    found = bounds.Bounds(("a", "b"), ((0.4, 0.6), (0.1, 0.41)), 3, 10, 0.0, False)
    assert found.proved_best is None


def test_the_hint_with_bounds_contains_the_exact_values() -> None:
    """A hint whose exact search is switched off (MCTS answers) still gives proven intervals
    that hold the exact values; an exact hint's intervals are its values, and it names the
    best option as proved when the values separate."""
    state, exact = benchmark_positions(8)[0]
    rng = random.Random(1)
    found = hints.hint(state, Budget(iterations=60), rng, exact_nodes=1, bounds=True)
    assert found.status == "estimate" and found.bounds is not None
    assert contains(found.bounds, exact)
    solved = hints.hint(state, Budget(), rng, bounds=True)
    assert solved.exact and solved.bounds is not None and solved.bounds.complete
    assert contains(solved.bounds, exact)
    values = sorted(exact.values(), reverse=True)
    if values[0] > values[1] + 1e-5:
        assert solved.proved_best == max(exact, key=exact.__getitem__)


def test_bounds_are_for_two_monsters() -> None:
    state = position({"fighter": 2}, players=3, held="wizard")
    with pytest.raises(ValueError, match="two-monster"):
        bounds.prove(state)


def test_exact_leaves_take_over_with_time() -> None:
    """Each iteration doubles an exact leaf's nodes: from 100 nodes a try, the search ends
    with every option's exact value; the oracle's own budget is given back afterwards."""
    state, exact = benchmark_positions(8)[5]
    oracle = bounds.LeanExact(100)
    found = bounds.prove(state, exact=oracle, exact_loose=8)
    assert found.complete and found.leaf_nodes > 0 and oracle.nodes == 100
    for a, (lo, hi) in zip(found.actions, found.intervals, strict=True):
        assert hi - lo <= 2e-6 and lo - TOLERANCE <= exact[a] <= hi + TOLERANCE


def test_an_oracle_shared_by_two_searches_charges_each_its_own_nodes() -> None:
    first, _ = benchmark_positions(8)[1]
    second, exact = benchmark_positions(8)[2]
    oracle = bounds.LeanExact(500)
    a = bounds.prove(first, nodes=3_000, exact=oracle, exact_loose=6)
    b = bounds.prove(second, nodes=3_000, exact=oracle, exact_loose=6)
    assert a.leaf_nodes > 0 and b.leaf_nodes > 0
    assert a.leaf_nodes + b.leaf_nodes == oracle.spent
    assert contains(b, exact)


def test_compiled_exact_leaves_give_sound_and_closing_bounds() -> None:
    """With the compiled exact search at the leaves (as a hint uses it once loaded), small
    tries first: every interval holds the exact value, and with enough nodes they close."""
    load_compiled()
    for state, values in benchmark_positions(8)[:4]:
        oracle = bounds.CompiledExact(state, 2_000, entries=1 << 16)
        found = bounds.prove(state, nodes=3_000, exact=oracle, exact_loose=9)
        assert contains(found, values)
    state, values = benchmark_positions(8)[0]
    found = bounds.prove(state, exact=bounds.CompiledExact(state, 300_000), exact_loose=9)
    assert found.complete and contains(found, values)
    assert all(hi - lo <= 2e-6 for lo, hi in found.intervals)

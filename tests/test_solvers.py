"""The generic searches on toy games: expectimax for n players, determinised search from a
view, budgets, intervals and the simulation runner."""

from __future__ import annotations

import random

import pytest
from toy_games import DiceRace, GuessState

from partysolver.solvers.budget import Budget, BudgetExhausted
from partysolver.solvers.determinized import determinized
from partysolver.solvers.expectimax import Expectimax, PrunedExpectimax, expectimax
from partysolver.solvers.mcts import mcts
from partysolver.solvers.simulate import RandomPolicy, play_game, simulate
from partysolver.solvers.stats import mean_interval, wilson_interval


def test_expectimax_three_players_each_maximising_its_own_value() -> None:
    # One roll from 5 points wins with 2 or 3 (2/3) and drops out with 1, which makes the
    # other two win half each: rolling is worth 2/3 to the roller, passing lets others play.
    state = DiceRace(scores=(5, 0, 0), turn=0)
    result = expectimax(state)
    assert result.status == "optimal"
    roll = next(m for m in result.moves if m.action == "roll")
    assert roll.values == pytest.approx((2 / 3, 1 / 6, 1 / 6))
    plain = expectimax(state, transpositions=False)
    assert plain.values == pytest.approx(result.values)
    assert result.usage["nodes"] < plain.usage["nodes"]


def test_pruning_needs_two_players() -> None:
    with pytest.raises(ValueError, match="two-player"):
        expectimax(DiceRace(), pruning=True)
    with pytest.raises(ValueError, match="two-player"):
        expectimax(DiceRace(), kind=PrunedExpectimax)


def test_expectimax_checks_the_protocol_up_front() -> None:
    with pytest.raises(ValueError, match="needs a state with"):
        expectimax(object())  # type: ignore[arg-type]


def test_determinised_search_reads_only_the_view() -> None:
    dealt = GuessState(card=1)  # the guesser cannot see that the card is low
    view = dealt.view(1)
    result = determinized(view, lambda s, rng: expectimax(s), Budget(iterations=300),
                          random.Random(4))
    assert [m.action for m in result.moves] == ["high", "low"]  # 2 of 3 cards are high
    high = result.moves[0]
    assert high.visits == 300
    assert high.interval.low < 2 / 3 < high.interval.high
    assert high.value == pytest.approx(2 / 3, abs=0.08)
    assert result.status == "feasible" and "300 sampled states" in result.method


def test_determinised_search_needs_a_budget() -> None:
    with pytest.raises(ValueError, match="budget"):
        determinized(GuessState(card=2).view(1), lambda s, r: expectimax(s), Budget(),
                     random.Random(0))


def test_mcts_needs_a_decision_and_a_budget() -> None:
    with pytest.raises(ValueError, match="budget"):
        mcts(DiceRace(), Budget(), random.Random(0))
    with pytest.raises(ValueError, match="a player is to act"):
        mcts(GuessState(), Budget(iterations=10), random.Random(0))


def test_mcts_three_players() -> None:
    result = mcts(DiceRace(scores=(5, 0, 0)), Budget(iterations=2_000), random.Random(0))
    assert result.best.action == "roll"
    assert result.best.value == pytest.approx(2 / 3, abs=0.05)


def small_solver(state, nodes: int, deadline: float):
    """An exact solver for MCTS's subtrees: expectimax within ``nodes`` nodes, or None."""
    search = Expectimax(Budget(nodes=nodes))
    try:
        return search.value(state)
    except BudgetExhausted:
        return None


def test_mcts_with_exact_subtrees_converges_to_the_exact_values() -> None:
    # The subtrees grow exact from the leaves up (a leaf's solver budget is too small for
    # the root's children at first; retries with more nodes per visit finish them): the root
    # is then solved, every option's value is exact, and the search stops early.
    state = DiceRace(scores=(0, 0, 0), turns=5)
    exact = expectimax(state)
    result = mcts(state, Budget(iterations=50_000), random.Random(2), solver=small_solver)
    assert result.status == "optimal" and result.usage["iterations"] < 50_000
    assert all(m.exact for m in result.moves)
    truth = {m.action: m.values for m in exact.moves}
    for move in result.moves:
        assert move.values == pytest.approx(truth[move.action])
    assert result.values == pytest.approx(exact.values)
    assert result.usage["solved_leaves"] > 0


def test_mcts_runs_one_iteration_per_option_at_least() -> None:
    result = mcts(DiceRace(), Budget(time=0.0), random.Random(0))
    assert result.usage["iterations"] == 2 and all(m.visits == 1 for m in result.moves)
    assert result.status == "feasible"


def test_the_meter_counts_and_stops() -> None:
    meter = Budget(nodes=3).start()
    for _ in range(3):
        meter.node()
    with pytest.raises(BudgetExhausted):
        meter.node()
    assert Budget(iterations=2).start().exhausted() is False
    assert str(Budget(time=1.5, nodes=10)) == "1.5 s, 10 nodes"
    assert Budget(nodes=10, iterations=7).scaled(0.5) == Budget(None, 5, 3)


def test_a_timed_meter_with_no_time_left_stops_at_its_first_node() -> None:
    """A search given no time answers with what it has before searching: its meter reads the
    clock at the first node (not after CLOCK_EVERY of them); an untimed one never stops."""
    with pytest.raises(BudgetExhausted):
        Budget(time=0.0).start().node()
    meter = Budget(time=3600.0).start()
    untimed = Budget().start()
    for _ in range(10 * meter.CLOCK_EVERY):
        meter.node()
        untimed.node()
    assert meter.nodes == untimed.nodes == 10 * meter.CLOCK_EVERY


def test_wilson_interval_known_values() -> None:
    interval = wilson_interval(0.5, 100)
    assert (interval.low, interval.high) == pytest.approx((0.4038, 0.5962), abs=1e-4)
    none = wilson_interval(0.0, 10)
    assert none.low == 0.0 and none.high == pytest.approx(0.2775, abs=1e-4)
    assert wilson_interval(1.0, 10).high == pytest.approx(1.0)


def test_mean_interval() -> None:
    values = [1.0, 2.0, 3.0, 4.0]
    interval = mean_interval(sum(values), sum(v * v for v in values), len(values))
    half = 1.959963984540054 * (1.6666666666666667 / 4) ** 0.5
    assert (interval.low, interval.high) == pytest.approx((2.5 - half, 2.5 + half))


def test_simulation_is_reproducible_and_rotates_seats() -> None:
    def new_game(rng: random.Random) -> DiceRace:
        return DiceRace()

    policies = [RandomPolicy(), RandomPolicy()]
    first = simulate(new_game, policies, 30, seed=5, rotate=True)
    again = simulate(new_game, policies, 30, seed=5, rotate=True)
    assert [r.returns for r in first.records] == [r.returns for r in again.records]
    assert {r.seating for r in first.records} == {(0, 1, 0), (1, 0, 1)}
    assert sum(rate.rate for rate in first.seat_rates()) == pytest.approx(1)
    final, decisions = play_game(DiceRace(), policies * 2, random.Random(1))
    assert final.current_player() == -2 and decisions >= 1


class AlwaysRoll:
    """Rolls every time; ``draws`` random numbers first (which must not change the dice)."""

    def __init__(self, name: str, draws: int) -> None:
        self.name, self.draws = name, draws

    def __call__(self, state: DiceRace, rng: random.Random) -> str:
        for _ in range(self.draws):
            rng.random()
        return "roll"


def test_chance_has_its_own_stream_whatever_the_policies_draw() -> None:
    # Common random numbers: the same seed rolls the same dice for policies that play alike,
    # however much randomness each policy consumes.
    def new_game(rng: random.Random) -> DiceRace:
        return DiceRace()

    quiet = simulate(new_game, [AlwaysRoll("quiet", 0)], 40, seed=3)
    noisy = simulate(new_game, [AlwaysRoll("noisy", 7)], 40, seed=3)
    assert [r.returns for r in quiet.records] == [r.returns for r in noisy.records]
    assert len({r.returns for r in quiet.records}) > 1


def test_a_policy_in_every_seat_has_no_rate_of_its_own() -> None:
    def new_game(rng: random.Random) -> DiceRace:
        return DiceRace()

    alone = simulate(new_game, [RandomPolicy()], 20, seed=1)
    assert alone.policy_rates() == {}
    mixed = simulate(new_game, [AlwaysRoll("roll", 0), RandomPolicy()], 20, seed=1,
                     rotate=True)
    rates = mixed.policy_rates()
    assert set(rates) == {"roll", "random"} and rates["roll"].games == 20

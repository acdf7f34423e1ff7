"""Every distinct result is an option: the rules engine, the compiled kernel, MCTS and the
hint against an independent enumeration of every (hero, target) use the rules allow."""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from tea_party_positions import position
from test_tea_party_solvers import plain_expectimax, random_position

from partysolver.models.tea_party import Cup, Hero, Squish, TeaPartyState
from partysolver.models.tea_party.state import CHOOSE, DRAW, THROW_UP
from partysolver.solvers.budget import Budget
from partysolver.solvers.expectimax import expectimax
from partysolver.solvers.mcts import MCTS
from partysolver.solvers.tea_party import exact
from partysolver.solvers.tea_party import hint as hints

ROYALS = (Hero.KING, Hero.QUEEN)
ABILITIES = (Hero.FIGHTER, Hero.CLERIC, Hero.ROGUE, Hero.WIZARD, Hero.BARD)


def every_use(state: TeaPartyState) -> list[Cup | Squish]:
    """Every (hero, target) pair the rulebook allows, equal results not merged: a Wizard on
    every teacup, a Bard with every other teacup, a Rogue on every hero of every other
    teacup (a plain discard with none anywhere), a royal copying each of the five."""
    held, me, n = state.held_hero, state.player, state.num_players
    assert held is not None
    uses: list[Cup | Squish] = [Cup()]
    if held == Hero.RANGER:
        return uses
    copied = held in ROYALS
    for ability in ABILITIES if copied else (held,):
        if ability == Hero.WIZARD:
            uses += [Squish(ability, seat, None, copied) for seat in range(n)]
        elif ability == Hero.BARD:
            uses += [Squish(ability, seat, None, copied) for seat in range(n) if seat != me]
        elif ability == Hero.ROGUE:
            steals = [Squish(ability, seat, hero, copied) for seat in range(n) if seat != me
                      for hero in Hero if state.cup_counts(seat)[hero]]
            uses += steals or [Squish(ability, None, None, copied)]
        else:
            uses.append(Squish(ability, None, None, copied))
    return uses


def distinct_results(state: TeaPartyState) -> set[TeaPartyState]:
    return {state.apply(use) for use in every_use(state)}


def decisions(seed: int, players: int, count: int) -> list[TeaPartyState]:
    """Random decisions; every hero in hand equally often, teacups often empty or equal."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = random_position(rng, players)
        held = Hero(len(found) % 8)
        cups = state.cups
        if rng.random() < 0.3:  # two equal teacups, for the Bard
            a, b = rng.sample(range(players), 2)
            cups = tuple(cups[a] if i == b else c for i, c in enumerate(cups))
        found.append(TeaPartyState(state.table, CHOOSE, state.player, int(held), state.bag,
                                   cups, state.stomachs))
    return found


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_options_are_the_distinct_results_of_every_use(players: int) -> None:
    idle_beside_useful = 0
    for state in decisions(players, players, 200):
        legal = state.legal_actions()
        results = [state.apply(move) for move in legal]
        assert len(set(results)) == len(results), state  # merged only when equal
        assert set(results) == distinct_results(state), state
        assert set(legal) <= set(every_use(state))  # no option the rules do not allow
        useful = [m for m in legal if state.has_effect(m)]
        if len(useful) < len(legal) and any(isinstance(m, Squish) for m in useful):
            idle_beside_useful += 1
    assert idle_beside_useful >= 20  # the case the old reading dropped is well covered


def test_a_stolen_wizard_or_bard_has_every_option_too() -> None:
    state = position({"fighter": 1}, cups=[{}, {"wizard": 1, "bard": 1}, {}], players=3,
                     held="rogue")
    wizard = state.apply(Squish(Hero.ROGUE, 1, Hero.WIZARD))
    assert set(wizard.apply(m) for m in wizard.legal_actions()) == distinct_results(wizard)
    assert [str(m) for m in wizard.legal_actions()] == ["cup", "squish on 1", "squish on 2"]
    assert not wizard.has_effect(Squish(Hero.WIZARD, 0))  # the thief's empty teacup
    bard = state.apply(Squish(Hero.ROGUE, 1, Hero.BARD))
    assert set(bard.apply(m) for m in bard.legal_actions()) == distinct_results(bard)
    # swap with Green's Wizard, or with Orange's teacup, as empty as Blue's: no effect
    assert [str(m) for m in bard.legal_actions()] == ["cup", "squish on 2", "squish on 3"]
    assert not bard.has_effect(Squish(Hero.BARD, 2))


# -- the compiled kernel ----------------------------------------------------------------------


def kernel_row(before: TeaPartyState, after: TeaPartyState) -> tuple[int, ...]:
    """A result of the engine as the kernel writes it: seat 0 is the monster who chose; a turn
    that is over becomes the other monster's draw seen from its seat."""
    me = before.player
    seats = (me, 1 - me)
    if after.phase == DRAW and after.player != me:
        seats = seats[::-1]
    cups = tuple(after.cups[s] for s in seats)
    stomachs = tuple(after.stomachs[s] for s in seats)
    assert after.phase != THROW_UP or not after.final
    return (after.phase, after.held, after.bag, *cups, *stomachs)


def kernel_expand(state: TeaPartyState) -> tuple[np.ndarray, np.ndarray, int]:
    """The kernel's children of a decision (one row of its stack), their flips and count."""
    from partysolver.solvers.tea_party.kernel import _MAX_CHILDREN, _expand

    me = state.player
    children = np.zeros((1, _MAX_CHILDREN, 7), dtype=np.int64)
    weights, flips = np.zeros((1, _MAX_CHILDREN)), np.zeros((1, _MAX_CHILDREN), np.int8)
    zones, probs = np.zeros((2, _MAX_CHILDREN), dtype=np.int64), np.zeros((2, _MAX_CHILDREN))
    n = _expand(CHOOSE, state.held, state.bag, state.cups[me], state.cups[1 - me],
                state.stomachs[me], state.stomachs[1 - me], children, weights, flips, 0,
                zones, probs)
    return children, flips, n


def kernel_children(state: TeaPartyState) -> list[tuple[int, ...]]:
    children, _, n = kernel_expand(state)
    return [tuple(int(x) for x in children[0, i]) for i in range(n)]


def test_the_compiled_kernel_sees_the_same_options() -> None:
    checked = 0
    for state in decisions(7, 2, 240):
        rows = kernel_children(state)
        assert len(rows) == len(state.legal_actions()), state
        if state.bag:  # no result reaches the end of the game: compare the states themselves
            assert set(rows) == {kernel_row(state, r) for r in distinct_results(state)}, state
            checked += 1
    assert checked >= 150


# -- the searches ---------------------------------------------------------------------------


def test_mcts_and_the_exact_searches_rank_every_option() -> None:
    for state in decisions(5, 3, 24):
        legal = state.legal_actions()
        tree = MCTS(state, random.Random(0))
        for _ in range(3 * len(legal)):
            tree.iterate()
        assert {m.action for m in tree.root_moves()} == set(legal)
        assert set(tree.root.children) == set(legal)
    for state in decisions(6, 2, 16):
        full = expectimax(state, Budget(nodes=200_000), line=False)
        if full.status == "optimal":
            assert {m.action for m in full.moves} == set(state.legal_actions())


def test_discarding_a_wizard_on_an_empty_teacup_can_be_best() -> None:
    """Issue 14's example: Green holds a Wizard, Blue's teacup holds a Cleric, Green's is
    empty.  Pouring Green's empty teacup (a free discard) beats pouring Blue's; the values
    are the exact search's, checked against the plain fraction expectimax."""
    state = position({"rogue": 1, "king": 1, "wizard": 1}, cups=[{"cleric": 1}, {}],
                     stomachs=[{"fighter": 3, "cleric": 2, "rogue": 2, "wizard": 1},
                               {"fighter": 4, "cleric": 1, "wizard": 1, "ranger": 1}],
                     current=1, held="wizard")
    hint = hints.hint(state, Budget(), random.Random(0))
    assert hint.exact
    ranked = [(m.text, m.value.value) for m in hint.moves]
    assert ranked == [
        ("squish the Wizard for no effect (pour your empty teacup)", pytest.approx(5 / 18)),
        ("squish the Wizard: pour Blue's teacup back into the bag (1 Cleric)",
         pytest.approx(13 / 48)),
        ("put the Wizard in your teacup", pytest.approx(2 / 9))]
    assert hint.moves[0].value.value - hint.moves[1].value.value == pytest.approx(1 / 144)
    oracle = {move: plain_expectimax(state.apply(move), [10**6])[1]
              for move in state.legal_actions()}
    assert oracle == {Cup(): Fraction(2, 9), Squish(Hero.WIZARD, 0): Fraction(13, 48),
                      Squish(Hero.WIZARD, 1): Fraction(5, 18)}
    # the solver's own exact fractions say the same (what hint and solve print as "exact")
    fractions = exact.exact_fractions(state)
    assert fractions is not None
    assert {move: values[1] for move, values in fractions.items()} == oracle
    assert all(sum(values) == 1 for values in fractions.values())
    assert exact.exact_fractions(state, limit=3) is None  # past its limit it says so
    # a float search that visited more than the limit: not even tried
    assert exact.exact_fractions(state, limit=10**6, searched=10**6 + 1) is None
    assert exact.exact_fractions(state, searched=10) == fractions


def test_hint_and_solve_print_exact_fractions_on_small_positions(tmp_path: Path) -> None:
    from reports import data as report_data

    path = tmp_path / "small.toml"
    path.write_text('game = "tea-party"\nplayers = ["Blue", "Green"]\ndrawn = "wizard"\n'
                    '[bag]\nfighter = 2\ncleric = 1\nranger = 1\n[cups.Blue]\nrogue = 1\n'
                    '[stomachs.Green]\nfighter = 3\n')
    hint = report_data("hint", path)
    for move in hint["moves"]:
        numerator, denominator = map(int, move["exact"].split("/"))
        assert move["value"] == pytest.approx(numerator / denominator, abs=1e-6)
    solved = report_data("solve", path)
    assert solved["objective"]["exact"] == hint["moves"][0]["exact"] == "8/9"


def test_the_compiled_playouts_play_greedy_as_greedy_plays() -> None:
    """The compiled playouts play most decisions as greedy does (``_greedy``): on decisions
    of every kind, the option it picks has the best value of greedy's evaluation over the
    rules engine's options (``GreedyPolicy``)."""
    from partysolver.solvers.tea_party.kernel import _greedy
    from partysolver.solvers.tea_party.policies import GreedyPolicy, greedy_value

    checked = 0
    for state in decisions(11, 2, 240):
        if not state.bag:  # the kernel values the end of the game in closed form
            continue
        me = state.player
        children, flips, n = kernel_expand(state)
        picked = tuple(int(x) for x in children[0, _greedy(children, flips, n)])
        by_row = {kernel_row(state, state.apply(m)): m for m in state.legal_actions()}
        best = greedy_value(state.apply(GreedyPolicy()(state, random.Random(0))), me)
        assert greedy_value(state.apply(by_row[picked]), me) == pytest.approx(best, abs=1e-9)
        checked += 1
    assert checked >= 150

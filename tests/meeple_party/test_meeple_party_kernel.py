"""The compiled turn search (``solvers/meeple_party/kernel.py``) against the rules engine.

The kernel restates the welcome, the mingle and the end-of-turn value over bit-packed boards;
the rules engine stays the oracle: every end's value and refresh against the interpreted
evaluator, every outcome counted as the engine lists them, and the best value against the
per-meeple brute force that plays every choice through the rules engine, on random positions
with white meeples, pets, laid-down meeples, surprises and the Hot Tub."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from meeple_party_helpers import SMALL_CARDS, place, random_small, small_cards

from partysolver.models.documents import Fields, parse_document
from partysolver.models.meeple_party import MeeplePartyState, new_game
from partysolver.models.meeple_party.board import UNIT, mingle_boards
from partysolver.models.meeple_party.cards import load_cards
from partysolver.models.meeple_party.game import LAID, WHITE, Mingle
from partysolver.models.meeple_party.state import (
    MINGLE,
    PLACE,
    SURPRISE,
    WELCOMED_WHITE,
)
from partysolver.solvers.budget import Budget
from partysolver.solvers.meeple_party.brute import brute_force
from partysolver.solvers.meeple_party.compiled import Kernel, decode, encode, needs_compile
from partysolver.solvers.meeple_party.evaluate import Evaluator, rank_key
from partysolver.solvers.meeple_party.lean import LeanBruteForce, lean_brute_force
from partysolver.solvers.meeple_party.turn import TurnSearch, touched, turn_hint


def crowded(seed: int, players: int, difficulty: str = "hard", house: str | None = None
            ) -> MeeplePartyState:
    """A random position with many meeples (some laid down), a white meeple on the board on
    odd seeds, the pets on every third seed, and random stress; ``house``: a shipped house
    instead of the random one."""
    rng = random.Random(seed)
    state = new_game(players, rng, house=house, difficulty=difficulty, cards=small_cards(),
                     pets=("cat", "dog") if seed % 3 == 0 else ())
    rooms = state.setup.house.size
    for _ in range(8 + seed % 6):
        kind = rng.choice([k for k in range(5) if state.bag[k] > 1])
        state = place(state, rng.randrange(rooms), kind + (LAID if rng.random() < 0.2 else 0))
    if seed % 2:
        state = place(state, rng.randrange(rooms), WHITE)
    kind = rng.choice([k for k in range(5) if state.bag[k] > 0])
    bag = list(state.bag)
    bag[kind] -= 1
    stress = tuple(rng.choice((0, 0, 1, 2)) for _ in state.stress)
    return replace(state, phase=PLACE, drawn=kind, bag=tuple(bag), stress=stress)


def test_boards_round_trip_through_the_kernel_packing() -> None:
    for seed in range(20):
        state = crowded(seed, 1 + seed % 3)
        for _, board in mingle_boards(state.board, state.setup.house):
            assert decode(encode(board)) == board


@pytest.mark.parametrize("seed", range(6))
def test_every_end_value_and_refresh_equals_the_evaluator(seed: int) -> None:
    """Every mingle's end from a random position, valued by the kernel and by the interpreted
    evaluator: the same value (every component) and the same refresh."""
    state = crowded(seed, 1 + seed % 4, ("easy", "standard", "hard")[seed % 3])
    state = state.apply(state.legal_actions()[seed % len(state.legal_actions())])
    assert state.phase == MINGLE
    evaluator = Evaluator(state)
    kernel = Kernel(evaluator)
    checked = 0
    for _, board in mingle_boards(state.board, state.setup.house):
        for stress in (state.stress, tuple(min(3, s + 1) for s in state.stress)):
            value, refresh = evaluator.end(board, stress)
            compiled, compiled_refresh = kernel.end(board, stress)
            assert rank_key(compiled) == rank_key(value)
            assert compiled_refresh == refresh
            checked += 1
    assert checked > 20


@pytest.mark.parametrize("seed", [0, 1, 2, pytest.param(3, marks=pytest.mark.slow), 4, 5])
def test_the_kernel_lists_every_outcome_the_engine_lists(seed: int) -> None:
    """Counted with repeats, the kernel's ends are the engine's welcomes times their mingles
    (white meeples' mingles aside, their surprise is Python's); distinct, they are the
    interpreted hint's options."""
    state = crowded(seed, 1 + seed % 3)
    kernel = Kernel(Evaluator(state))
    expected = 0
    for _, child in state.children():
        expected += sum(1 for code, _ in mingle_boards(child.board, state.setup.house)
                        if not (code[4] is None and code[2] >= 0))
    assert kernel.count(state.board, state.stress, state.drawn) == expected
    interpreted = TurnSearch(state, compiled=False).options()
    found, distinct = kernel.top(state.board, state.stress, state.drawn, 3)
    whites = sum(1 for option in interpreted if not option.certain)
    assert distinct + whites == len(interpreted)
    assert [rank_key(f.value) for f in found] == \
        [rank_key(o.value) for o in interpreted if o.certain][:3]


@pytest.mark.parametrize(("seed", "players", "difficulty"), [
    (0, 1, "standard"), pytest.param(1, 2, "hard", marks=pytest.mark.slow), (2, 3, "hard"),
    pytest.param(3, 1, "easy", marks=pytest.mark.slow), (4, 2, "standard"), (5, 3, "easy")])
# the two slow ones take 13-27 s each; 5 (white meeples, three players) covers the same
def test_the_compiled_search_equals_the_rules_engine_brute_force(seed: int, players: int,
                                                                 difficulty: str) -> None:
    """The best value of the compiled search against the brute force that plays every
    individual choice through the rules engine (small positions; white meeples and pets
    included in some)."""
    state = random_small(seed, guests=2 + seed % 2, players=players, difficulty=difficulty)
    if seed % 2:
        state = place(state, seed % state.setup.house.size, WHITE)
    compiled, action = TurnSearch(state, compiled=True).value(state)
    slow, _ = brute_force(state, "rules")
    assert rank_key(compiled) == rank_key(slow)
    interpreted, same = TurnSearch(state, compiled=False).value(state)
    assert rank_key(interpreted) == rank_key(compiled) and same == action


@pytest.mark.parametrize("seed", range(8))
def test_the_compiled_search_equals_the_interpreted_one_on_crowded_positions(seed: int) -> None:
    """The best value and move, and the hint's top five, on crowded positions (up to four
    players, white meeples, pets, laid-down meeples, the Hot Tub house)."""
    house = "spa" if seed % 4 == 3 else None
    state = crowded(seed, 1 + seed % 4, ("easy", "standard", "hard")[seed % 3], house)
    fast = TurnSearch(state, compiled=True)
    slow = TurnSearch(state, compiled=False)
    assert fast.kernel is not None and slow.kernel is None
    value, action = fast.value(state)
    expected, expected_action = slow.value(state)
    assert rank_key(value) == rank_key(expected) and action == expected_action
    ranked, plain = fast.options(5), TurnSearch(state, compiled=False).options(5)
    assert len(ranked) == len(plain)
    assert [(rank_key(o.value), o.plan) for o in ranked[:5]] == \
        [(rank_key(o.value), o.plan) for o in plain[:5]]


def test_a_surprise_drawn_at_the_welcome_mingles_through_the_kernel() -> None:
    """The surprise card is chance (Python); the mingles after each card are the kernel's."""
    state = random_small(22, guests=2, players=3, difficulty="hard")
    bag = list(state.bag)
    bag[state.drawn] += 1
    bag[WHITE] -= 1
    state = replace(state, phase=SURPRISE, drawn=-1, white=WELCOMED_WHITE, bag=tuple(bag))
    fast, _ = TurnSearch(state, compiled=True).value(state)
    slow, _ = brute_force(state, "rules")
    assert rank_key(fast) == rank_key(slow)


def test_ranking_photos_first_and_the_hot_tub_challenge_agree() -> None:
    state = crowded(4, 2)
    fast, _ = TurnSearch(state, photos_first=True, compiled=True).value(state)
    slow, _ = TurnSearch(state, photos_first=True, compiled=False).value(state)
    assert rank_key(fast) == rank_key(slow)
    tub = new_game(2, random.Random(2), variant="hot-tub", cards=small_cards())
    bag = list(tub.bag)
    bag[2] -= 1
    tub = replace(tub, phase=PLACE, drawn=2, bag=tuple(bag))
    fast, _ = TurnSearch(tub, compiled=True).value(tub)
    slow, _ = brute_force(tub, "rules")
    assert rank_key(fast) == rank_key(slow)


def lean_positions() -> list[MeeplePartyState]:
    """Small positions for the lean baseline: a welcome for 1-3 players (a white meeple on the
    board for 2), a mingle, a drawn surprise, the Hot Tub challenge."""
    found = []
    for seed, players in ((0, 1), (1, 2), (2, 3)):
        state = random_small(seed, guests=2, players=players, difficulty="hard")
        found.append(place(state, 0, WHITE) if seed % 2 else state)
    found.append(found[0].apply(found[0].legal_actions()[0]))
    state = random_small(22, guests=2, players=3, difficulty="hard")
    bag = list(state.bag)
    bag[state.drawn] += 1
    bag[WHITE] -= 1
    found.append(replace(state, phase=SURPRISE, drawn=-1, white=WELCOMED_WHITE, bag=tuple(bag)))
    tub = new_game(2, random.Random(2), variant="hot-tub", cards=small_cards())
    bag = list(tub.bag)
    bag[2] -= 1
    found.append(replace(tub, phase=PLACE, drawn=2, bag=tuple(bag)))
    return found


@pytest.mark.parametrize("index", [0, pytest.param(1, marks=pytest.mark.slow), 2, 3, 4, 5])
def test_the_lean_baseline_equals_the_oracle(index: int) -> None:
    """The benchmark's baseline (every meeple a choice of its own, ends scored on packed
    boards) reaches the best value of the brute force that plays every choice through the
    rules engine."""
    state = lean_positions()[index]
    lean, raw = lean_brute_force(state)
    slow, _ = brute_force(state, "rules")
    assert rank_key(lean) == rank_key(slow)
    assert raw > 0


def test_a_node_budget_stops_the_compiled_search_and_the_hint_says_unknown() -> None:
    state = crowded(1, 2)
    assert turn_hint(state, Budget(nodes=50)).status == "unknown"
    search = TurnSearch(state, Budget(nodes=50), compiled=True)
    from partysolver.solvers.budget import BudgetExhausted

    with pytest.raises(BudgetExhausted):
        search.value(state)


def test_the_kernel_is_compiled_once_and_says_so() -> None:
    state = crowded(0, 1)
    TurnSearch(state, compiled=True).value(state)
    assert not needs_compile()


SEVERAL_CARDS = SMALL_CARDS.replace(
    'clauses = [{ room = "outside", party_animal = 1 }, { room = "door", jerk = 1 }]',
    'rooms = "same"\nclauses = [{ room = "any", flirt = 1 }, { room = "any", cool = 1 }]',
).replace(
    'clauses = [{ room = "any", flirt = 2 }]',
    'clauses = [{ room = "any", flirt = 1 }, { room = "any", cool = 1 }, '
    '{ room = "any", wallflower = 1 }]',
)
"""The small decks with a photo in the same room and one of three clauses in different rooms."""


def several_positions() -> list[MeeplePartyState]:
    """Mingles whose cards at the table include a photo of clauses in different rooms."""
    cards = load_cards(Fields(parse_document(SEVERAL_CARDS, "several.toml"), "several.toml"))
    found = []
    for seed in range(200):
        rng = random.Random(seed)
        state = new_game(3, rng, cards=cards)
        for _ in range(10):
            kind = rng.choice([k for k in range(6) if state.bag[k] > 0])
            state = place(state, rng.randrange(state.setup.house.size), kind)
        state = replace(state, phase=MINGLE)
        kinds = {kind for _, kind, _ in Evaluator(state).terms.several}
        # A same-room photo is one clause of different meeples (cards.same_room): never several.
        assert "same" not in kinds
        if "different" in kinds:
            found.append(state)
        if len(found) == 3:
            return found
    raise AssertionError("no position with a several-clause card")


@pytest.mark.parametrize("index", range(3))
def test_the_lean_baselines_several_clause_costs_are_the_whole_boards(index: int) -> None:
    """The baseline costs a several-clause card from the changed rooms and what the others
    bring (:meth:`LeanBruteForce.reduce`): on every end of a mingle, the cost the evaluator
    computes on the whole board."""
    state = several_positions()[index]
    search = LeanBruteForce(state)
    table = search.evaluator.terms
    vectors = [table.vector(r, content) for r, content in enumerate(state.board)]
    search.base, search.reduced = vectors, {}
    checked = 0
    for code, board in mingle_boards(state.board, state.setup.house):
        if code[4] is None and code[2] >= 0:
            continue  # a white meeple: its surprise follows
        mins, _ = table._columns(board)
        fresh = None if checked % 2 else [table.vector(r, board[r]) for r in touched(code)]
        assert search.several(list(board), mins, touched(code), vectors, fresh) == \
            table.values(board)
        checked += 1
    assert checked > 100 and search.reduced


@pytest.mark.parametrize(("seed", "players", "stress"), [(1, 2, None), (3, 3, None), (5, 1, 2)])
def test_the_lean_baselines_white_meeple_surprise_is_the_rules_engines(
        seed: int, players: int, stress: int | None) -> None:
    """A white meeple mingled: the baseline carries out its surprise on packed boards
    (:meth:`LeanBruteForce.white`: a choice of several outcomes, a removal repeated per
    individual meeple, a stress effect, stressed out when it is one player at 2) and gives
    exactly the value, and counts exactly the raw outcomes, of playing it through the rules
    engine (the card that adds from the bag goes through the engine in both)."""
    state = crowded(seed, players)
    if stress is not None:
        state = replace(state, stress=(stress,) * players)
    state = state.apply(state.legal_actions()[0])
    assert state.phase == MINGLE
    base = state.board
    near = state.setup.house.adjacent
    moves = [(src, dst) for src, piece in LeanBruteForce.movers(base) if piece == WHITE
             for dst in near[src]]
    assert moves
    for src, dst in moves:
        lean, engine = LeanBruteForce(state), LeanBruteForce(state)
        near = lean.mingle_near = lean.evaluator.terms.near(base)
        lean.base, lean.reduced = near.vectors, {}
        value = lean.white(state, near, {}, src, dst)
        expected = engine.value(state._with(board=base).apply(Mingle(WHITE, src, dst)))
        assert value == expected
        assert lean.raw == engine.raw > 0


@pytest.mark.parametrize("seed", [1, 3])
def test_the_lean_baselines_surprise_end_scores_a_board_changed_everywhere(seed: int) -> None:
    """A surprise may change every room of the mingle's board (a conga, everyone moved to one
    room): the end is scored from the changed rooms alone, as the whole board scores it."""
    state = crowded(seed, 2)
    state = state.apply(state.legal_actions()[0])
    base = state.board
    search = LeanBruteForce(state)
    near = search.mingle_near = search.evaluator.terms.near(base)
    search.base, search.reduced = near.vectors, {}
    board = tuple(content + UNIT[0] for content in base)  # a Flirt more in every room
    value, _ = search.surprise_end(board, state.stress, near, {})
    assert value == LeanBruteForce(state).score(list(board), state.stress, None, ())
    assert search.raw == 1


def test_the_kernel_keeps_no_more_best_ends_than_the_turn_has() -> None:
    """Asked for more best ends than there are (``hint --top 2147483648``), the kernel keeps
    them all, sized by the ends it counted: without the cap its buffers asked for 224 GiB."""
    state = crowded(2, 2)
    search = TurnSearch(state, compiled=True)
    kernel = search.kernel
    assert kernel is not None
    found, count = kernel.top(state.board, state.stress, state.drawn, 2**31)
    exact, again = kernel.top(state.board, state.stress, state.drawn, count)
    assert 5 < count == again == len(found)
    assert [(f.value, f.order) for f in found] == [(f.value, f.order) for f in exact]
    hint = turn_hint(state, top=2**31, compiled=True)
    assert len(hint.options) >= count
    assert [o.plan for o in hint.options[:5]] == \
        [o.plan for o in turn_hint(state, compiled=True).options[:5]]

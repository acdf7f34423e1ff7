"""The turn hint's branch and bound: the bounds hold, and pruning changes no answer.

The search values a mingle's ends best bound first and stops when no bound can beat the best
(:meth:`TurnSearch._mingle`); a surprise's last choice likewise (:meth:`TurnSearch._last_choice`);
the root's options are valued exactly as they are read (:class:`RankedOptions`).  Each is
checked against the plain computation it replaces, and against the per-meeple brute force."""

from __future__ import annotations

from dataclasses import replace

import pytest
from meeple_party_helpers import random_ordered, random_small

from partysolver import puzzles
from partysolver.models.documents import read_document
from partysolver.models.meeple_party import load_state
from partysolver.models.meeple_party.board import mingle_boards
from partysolver.models.meeple_party.game import WHITE
from partysolver.models.meeple_party.state import MINGLE, MeeplePartyState
from partysolver.solvers.meeple_party.brute import brute_force
from partysolver.solvers.meeple_party.evaluate import (
    FOULS,
    PHOTOS,
    STRESS,
    TABLE,
    Evaluator,
    rank_key,
)
from partysolver.solvers.meeple_party.turn import (
    TurnOption,
    TurnSearch,
    touched,
    turn_hint,
)


def mingle_roots(state: MeeplePartyState, limit: int = 6) -> list[MeeplePartyState]:
    """A few positions at the mingle, after different welcomes."""
    roots = [child for _, child in state.children() if child.phase == MINGLE]
    return roots[:: max(1, len(roots) // limit)][:limit]


def shipped(name: str) -> MeeplePartyState:
    path = puzzles.files("meeple-party", "positions")[name]
    return load_state(*read_document(str(path)))


CASES = [random_small(seed, guests=6, players=1 + seed % 3, difficulty="hard")
         for seed in range(4)] + [random_ordered(seed, guests=6, players=1 + seed % 3,
                                                 taken=10 + seed % 2) for seed in range(4)]


@pytest.mark.parametrize("photos_first", [False, True])
@pytest.mark.parametrize("case", range(len(CASES)))
def test_no_end_of_a_mingle_ranks_above_its_bound(case: int, photos_first: bool) -> None:
    checked = 0
    for root in mingle_roots(CASES[case]):
        evaluator = Evaluator(root, photos_first)
        near = evaluator.terms.near(root.board)
        for code, board in mingle_boards(root.board, root.setup.house):
            if code[4] is None and code[2] >= 0:
                continue  # a white meeple: its surprise follows
            changed = touched(code)
            value, _ = evaluator.end(board, root.stress, None, near, changed)
            assert rank_key(value) <= evaluator.upper(board, root.stress, near, changed)
            assert rank_key(value) <= evaluator.upper(board, root.stress)
            checked += 1
    assert checked > 50


@pytest.mark.parametrize("name", ["01-easy-flirt-15", "11-hard-party_animal-23",
                                  "14-hard-white-17"])
def test_bounds_on_shipped_positions(name: str) -> None:
    state = shipped(name)
    for root in mingle_roots(state, 3):
        evaluator = Evaluator(root)
        near = evaluator.terms.near(root.board)
        for code, board in mingle_boards(root.board, root.setup.house):
            if code[4] is None and code[2] >= 0:
                continue
            changed = touched(code)
            value, _ = evaluator.end(board, root.stress, None, near, changed)
            assert rank_key(value) <= evaluator.upper(board, root.stress, near, changed)


def plain_ranking(state: MeeplePartyState) -> list[TurnOption]:
    """Every option valued exactly, then sorted (stable: ties keep the turn's order), as the
    hint did before options were valued lazily."""
    search = TurnSearch(state, compiled=False)
    found: dict = {}
    search._collect(state, (), found)
    options = [item if isinstance(item, TurnOption) else item.option(search)
               for item in found.values()]
    return sorted(options, key=lambda o: rank_key(o.value), reverse=True)


@pytest.mark.parametrize("case", [1, 4] + [pytest.param(c, marks=pytest.mark.slow)
                                     for c in (0, 2, 5)])
def test_the_lazy_ranking_is_the_plain_ranking(case: int) -> None:
    state = CASES[case]
    plain = plain_ranking(state)
    hint = turn_hint(state, top=3)
    assert len(hint.options) == len(plain)
    for k in (1, 3, 10):
        lazy = turn_hint(state, top=k).options[:k]
        assert [(o.plan, rank_key(o.value)) for o in lazy] == \
            [(o.plan, rank_key(o.value)) for o in plain[:k]]
    everything = list(hint.options)
    assert [(o.plan, rank_key(o.value)) for o in everything] == \
        [(o.plan, rank_key(o.value)) for o in plain]
    assert rank_key(everything[0].value) == rank_key(TurnSearch(state).value(state)[0])


@pytest.mark.parametrize(("seed", "trading"), [(0, True), (1, False), (4, True)])
def test_the_lazy_ranking_with_white_meeples_is_the_plain_ranking(
        seed: int, trading: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """White meeples' options, parked with a cut and ranked by ceilings that trade a
    refresh's photo for its stress, end up where the plain ranking puts them; on seeds 0 and 4
    the cuts and the trades do happen on the way (seed 1's position has no trade)."""
    from partysolver.solvers.meeple_party.turn import PendingWhite

    state = laid_and_white(seed)
    plain = plain_ranking(state)
    assert any(not o.certain and o.code is not None for o in plain)  # a white meeple's
    cuts: list[bool] = []
    trades: list[bool] = []
    above, ceiling = PendingWhite.option_above, TurnSearch._card_ceiling

    def counting_above(self: PendingWhite, *args: object) -> object:
        found = above(self, *args)  # type: ignore[arg-type]
        cuts.append(not isinstance(found, TurnOption))
        return found

    def counting_ceiling(self: TurnSearch, *args: object) -> object:
        found = ceiling(self, *args)  # type: ignore[arg-type]
        trades.append(found[1])
        return found

    monkeypatch.setattr(PendingWhite, "option_above", counting_above)
    monkeypatch.setattr(TurnSearch, "_card_ceiling", counting_ceiling)
    everything = list(turn_hint(state, top=2).options)
    if trading:
        assert sum(cuts) > 0 and sum(trades) > 0
    assert [(o.plan, rank_key(o.value)) for o in everything] == \
        [(o.plan, rank_key(o.value)) for o in plain]
    lazy = turn_hint(state, top=4).options[:4]
    assert [(o.plan, rank_key(o.value)) for o in lazy] == \
        [(o.plan, rank_key(o.value)) for o in plain[:4]]


def test_the_lazy_ranking_values_few_options_for_the_top_five() -> None:
    state = shipped("01-easy-flirt-15")
    hint = turn_hint(state, top=5)
    ranked = hint.options
    assert len(ranked) > 1000
    assert ranked.valued < len(ranked) // 4  # type: ignore[attr-defined]
    best = ranked[0]
    assert rank_key(best.value) == rank_key(TurnSearch(state).value(state)[0])
    keys = [rank_key(o.value) for o in ranked[:6]]
    assert keys == sorted(keys, reverse=True)


@pytest.mark.parametrize("card", ["rides-home", "the-cops"] + [
    pytest.param(c, marks=pytest.mark.slow) for c in ("nap-time", "snooping-ex", "mosh-pit")])
def test_a_surprise_choice_by_bounds_equals_the_brute_force(card: str) -> None:
    """A white meeple at the party whose card (the deck is in order) makes the active player
    choose meeples, then maybe adds stress: the choice is searched by bounds."""
    state = random_ordered(5, guests=7, players=2)
    board = list(state.board)
    board[2] += 1 << 3 * WHITE
    order = list(state.bag)
    order.remove(WHITE)
    ident = state.setup.cards.surprise_ids[card]
    deck = (ident,) + tuple(c for c in state.surprise_deck if c != ident)
    state = replace(state, board=tuple(board), bag=tuple(order), surprise_deck=deck)
    fast, _ = TurnSearch(state).value(state)
    slow, _ = brute_force(state, "evaluator")
    assert rank_key(fast) == rank_key(slow)


def test_a_stressed_out_party_loses_whatever_the_surprise_choice() -> None:
    state = random_ordered(5, guests=7, players=2)
    board = list(state.board)
    board[2] += 1 << 3 * WHITE
    order = list(state.bag)
    order.remove(WHITE)
    ident = state.setup.cards.surprise_ids["the-cops"]
    deck = (ident,) + tuple(c for c in state.surprise_deck if c != ident)
    state = replace(state, board=tuple(board), bag=tuple(order), surprise_deck=deck,
                    stress=(3, 2))
    fast, _ = TurnSearch(state).value(state)
    slow, _ = brute_force(state, "evaluator")
    assert rank_key(fast) == rank_key(slow)


def plain_mingle(search: TurnSearch, root: MeeplePartyState) -> tuple[tuple[float, ...], object]:
    """Every end of the mingle valued exactly, the first of the best kept (a plain scan)."""
    from partysolver.models.meeple_party.state import mingle_action

    best: tuple[float, ...] | None = None
    choice = None
    for code, board in mingle_boards(root.board, root.setup.house):
        if code[4] is None and code[2] >= 0:
            value = search.white_mingle(root, code)
        else:
            value, _ = search.evaluator.end(board, root.stress)
        if best is None or rank_key(value) > best:
            best, choice = rank_key(value), mingle_action(code)
    assert best is not None
    return best, choice


def laid_and_white(seed: int) -> MeeplePartyState:
    """A small position with laid-down meeples (stand-ups) and a white meeple on the board."""
    state = random_small(seed, guests=7, players=1 + seed % 3, difficulty="hard")
    board = list(state.board)
    board[seed % len(board)] += 1 << 3 * WHITE
    board[(seed + 3) % len(board)] += 1 << 3 * 6  # a laid-down Flirt
    bag = list(state.bag)
    bag[WHITE] -= 1
    bag[0] -= 1
    return replace(state, board=tuple(board), bag=tuple(bag))


@pytest.mark.parametrize("seed", range(4))
def test_the_mingle_by_bounds_equals_a_plain_scan(seed: int) -> None:
    """The pruned mingle finds the value and the move of a plain scan of every end (stand-ups
    and white meeples included); with a threshold it answers exactly above it, else nothing."""
    state = laid_and_white(seed)
    for root in mingle_roots(state, 4):
        search = TurnSearch(root)
        best, choice = plain_mingle(search, root)
        result = TurnSearch(root)._mingle(root)
        assert (rank_key(result[0]), result[1]) == (best, choice)
        for shift in (-0.5, 0.0, 0.5):
            alpha = best[:-1] + (best[-1] + shift,)
            cut = TurnSearch(root)._mingle(root, alpha)
            if best > alpha:
                assert cut is not None and (rank_key(cut[0]), cut[1]) == (best, choice)
            else:
                assert cut is None


@pytest.mark.parametrize("seed", range(4))
def test_mingle_groups_list_the_mingles_of_the_game_in_order(seed: int) -> None:
    from partysolver.solvers.meeple_party.turn import mingle_groups, move_outcomes

    state = laid_and_white(seed)
    for root in mingle_roots(state, 3):
        house = root.setup.house
        listed = []
        numbers = []
        for first, piece, src, dst, moved, kinds in mingle_groups(root.board, house):
            if not kinds and dst >= 0:
                listed.append(((piece, src, dst, -1, None), moved))
                numbers.append(first)
                continue
            for index, code, board in move_outcomes(house, first, piece, src, dst, moved,
                                                    kinds):
                listed.append((code, board))
                numbers.append(index)
        assert listed == list(mingle_boards(root.board, house))
        assert numbers == sorted(set(numbers))
        assert any(code[2] < 0 for code, _ in listed)  # a stand-up
        assert any(code[4] is None and code[2] >= 0 for code, _ in listed)  # a white meeple


# -- a mingled white meeple: the ceilings of its surprise cards ------------------------------------


def test_a_white_meeples_card_never_beats_its_ceiling_even_after_a_welcome_relieved_stress(
        ) -> None:
    """Every surprise card a mingled white meeple can bring is valued at most its ceiling in
    every component, also when the turn began at a higher stress than the mingle's (a welcomed
    Group Hug or Spa Day relieved some): the ceiling counts that relief too, and its memo
    keeps the two apart."""
    from partysolver.models.meeple_party.board import UNIT
    from partysolver.models.meeple_party.state import deck_outcomes
    from partysolver.solvers.meeple_party.turn import mingle_groups

    checked = 0
    for seed in range(4):
        for mingle in mingle_roots(laid_and_white(seed), 2):
            calm = replace(mingle, stress=(0,) * len(mingle.stress))
            for root in (mingle, replace(mingle, stress=(2,) * len(mingle.stress))):
                search = TurnSearch(root)
                for state in (mingle, calm):
                    for _, _, src, dst, _, kinds in mingle_groups(state.board,
                                                                   state.setup.house):
                        if kinds or dst < 0:
                            continue  # not a white meeple's move
                        board = list(state.board)
                        board[src] -= UNIT[WHITE]
                        after = tuple(board)
                        relieved = search.evaluator.relieved(after) \
                            if search.evaluator.relief_rooms else ()
                        for outcome, _ in deck_outcomes("surprise", state.surprise_deck,
                                                        state.setup.ordered):
                            card = outcome.card  # type: ignore[attr-defined]
                            if card < 0:
                                continue
                            value = search._effects(state, card, 0, after, state.stress,
                                                    state.bag, 0, dst)
                            ceiling, traded = search._card_ceiling(state, card, relieved)
                            assert not traded
                            assert all(v <= c + 1e-12 for v, c in zip(value, ceiling,
                                                                       strict=True))
                            checked += 1
    assert checked > 100


def below_ceiling(value: tuple[float, ...], ceiling: tuple[float, ...], traded: bool) -> bool:
    """Whether a card's value keeps to its ceiling as :meth:`TurnSearch._card_ceiling` says:
    in every component, or (traded) with every photo above it paid for in stress."""
    if not traded:
        return all(v <= c + 1e-12 for v, c in zip(value, ceiling, strict=True))
    above = value[PHOTOS] - ceiling[PHOTOS]
    return (all(v <= c + 1e-12 for v, c in zip(value[:2], ceiling[:2], strict=True))
            and value[STRESS] <= ceiling[STRESS] - max(0.0, above) + 1e-12
            and value[FOULS] <= ceiling[FOULS] and value[TABLE] <= ceiling[TABLE])


def white_mingles(mingle: MeeplePartyState) -> list[tuple[int, tuple[int, ...]]]:
    """A third of the white meeple's mingles at most, each as the room it goes to and the
    board with it taken from its room (the board its card is resolved on)."""
    from partysolver.models.meeple_party.board import UNIT
    from partysolver.solvers.meeple_party.turn import mingle_groups

    whites = [(src, dst) for _, _, src, dst, _, kinds in
              mingle_groups(mingle.board, mingle.setup.house) if not kinds and dst >= 0]
    found = []
    for src, dst in whites[:: max(1, len(whites) // 3)]:
        rooms = list(mingle.board)
        rooms[src] -= UNIT[WHITE]
        found.append((dst, tuple(rooms)))
    return found


def calm_in_the_hot_tub(root: MeeplePartyState) -> MeeplePartyState:
    """``root`` with the active player's roommate (standing or laid down) moved into the
    first relief room (the Hot Tub) and every roommate at stress 0: a refresh's 1 stress is
    then taken back by the Hot Tub (0, plus 1, relieved to 0)."""
    from partysolver.models.meeple_party.board import add, count, roommate_room
    from partysolver.models.meeple_party.game import ROOMMATE, laid_of

    tub = root.setup.house.relief_rooms[0]
    board = root.board
    src = roommate_room(root.board, root.active_personality)
    assert src >= 0
    if src != tub:
        for piece in (ROOMMATE + root.active_personality,
                      laid_of(ROOMMATE + root.active_personality)):
            n = count(board[src], piece)
            board = add(add(board, piece, src, -n), piece, tub, n)
    return replace(root, board=board, stress=(0,) * len(root.stress))


@pytest.mark.parametrize(("name", "calm"), [("19-easy-flirt-21", False),
                                            ("03-spa-cool-25", False),
                                            ("03-spa-cool-25", True)])
def test_a_white_meeples_card_keeps_to_its_ceiling_on_the_board(name: str, calm: bool
                                                                 ) -> None:
    """The ceilings that read the board a white meeple's card is resolved on (the own photos
    within the card's reach, the refresh's trade of stress for a photo) hold for every card
    of the deck on shipped positions with white meeples, and they are tighter than the
    ceilings that do not read the board: they cut.

    ``calm``: the active roommate in the Hot Tub and every stress 0, where a refresh costs no
    stress (the Hot Tub takes its 1 back), so no ceiling may trade a photo for stress."""
    from partysolver.models.meeple_party.state import deck_outcomes

    state = shipped(name)
    checked = tighter = traded_seen = 0
    for mingle in mingle_roots(state, 2):
        if calm:
            mingle = calm_in_the_hot_tub(mingle)
        search = TurnSearch(mingle)
        for dst, after in white_mingles(mingle):
            relieved = search.evaluator.relieved(after) if search.evaluator.relief_rooms \
                else ()
            for outcome, _ in deck_outcomes("surprise", mingle.surprise_deck,
                                            mingle.setup.ordered):
                card = outcome.card  # type: ignore[attr-defined]
                if card < 0:
                    continue
                value = search._effects(mingle, card, 0, after, mingle.stress, mingle.bag, 0,
                                        dst)
                ceiling, traded = search._card_ceiling(mingle, card, relieved, after)
                assert below_ceiling(value, ceiling, traded), (card, value, ceiling, traded)
                coarse, _ = search._card_ceiling(mingle, card, relieved)
                tighter += rank_key(ceiling) < rank_key(coarse)
                traded_seen += traded
                checked += 1
    assert checked > 50
    assert tighter > 0
    assert traded_seen == 0 if calm else traded_seen > 0


@pytest.mark.parametrize("compiled", [False, True], ids=["interpreted", "kernel"])
def test_the_lazy_ranking_with_a_free_refresh_in_the_hot_tub_is_the_plain_ranking(
        compiled: bool) -> None:
    """The active roommate in the Hot Tub at stress 0 and a surprise deck of the cards that
    leave every meeple in its room and change no stress (lie-downs, stand-ups, nothing): a
    white meeple's refresh of a photo is free there, and the lazy ranking (white options
    ranked by their ceilings) is still the plain one.  (When the ceilings charged that
    refresh 1 stress, a white meeple's mingle was ranked below an option it ties and that the
    turn lists after it.)  Through the compiled kernel too, whatever the state of numba's
    cache (it compiles here if it must): ties far below the top, read past the kernel's first
    fetches, keep the turn's order (an end fetched later was once ranked under the stand-in
    order its source waited with, and two equal Jerk pushes came out swapped)."""
    state = shipped("03-spa-cool-25")
    root = calm_in_the_hot_tub(mingle_roots(state, 1)[0])
    cards = state.setup.cards.surprises
    deck = tuple(c for c in root.surprise_deck
                 if all(e.do in ("lay_down", "stand_up") for e in cards[c].effects))
    assert len(deck) >= 4
    root = replace(root, surprise_deck=deck)
    plain = plain_ranking(root)
    assert any(not o.certain and o.code is not None for o in plain)  # a white meeple's
    hint = turn_hint(root, top=2, compiled=compiled)
    assert hint.search is not None and (hint.search.kernel is not None) == compiled
    everything = list(hint.options)
    assert [(o.plan, rank_key(o.value)) for o in everything] == \
        [(o.plan, rank_key(o.value)) for o in plain]


def test_white_meeples_are_pruned_and_the_answer_is_unchanged(monkeypatch: pytest.MonkeyPatch
                                                               ) -> None:
    """On a shipped position that starts at a white meeple's surprise, the ceilings do prune
    white mingles (the search gives up on them before valuing every card), and the hint's
    value is the one found with that pruning switched off."""
    state = shipped("14-hard-white-17")
    original = TurnSearch.white_mingle
    given_up = []

    def counting(self: TurnSearch, state: MeeplePartyState, code: object,
                 beats: object = None) -> object:
        found = original(self, state, code, beats)  # type: ignore[arg-type]
        if beats is not None:
            given_up.append(found is None)
        return found

    monkeypatch.setattr(TurnSearch, "white_mingle", counting)
    pruned = turn_hint(state, top=1)
    assert any(given_up)

    def unpruned(self: TurnSearch, state: MeeplePartyState, code: object,
                 beats: object = None) -> object:
        return original(self, state, code)  # type: ignore[arg-type]

    monkeypatch.setattr(TurnSearch, "white_mingle", unpruned)
    plain = turn_hint(state, top=1)
    assert pruned.value is not None and plain.value is not None
    assert rank_key(pruned.value) == rank_key(plain.value)
    assert pruned.options[0].plan == plain.options[0].plan


@pytest.mark.parametrize("name", ["04-easy-jerk-30", "17-hard-wallflower-32"])
def test_remembered_ends_equal_ends_evaluated_afresh(name: str) -> None:
    """The evaluator remembers an end's value by what it reads (the cards' costs, the stress,
    the Hot Tub, the deck cards met and, for a photo refresh, the deck's costs on the board, both
    counted from the rooms the mingle changed):
    every end of a mingle, remembered, is the value evaluated afresh on the whole board."""
    state = shipped(name)
    checked = hits = 0
    for root in mingle_roots(state, 2):
        remembered = Evaluator(root)
        afresh = Evaluator(root, memo=False)
        near = remembered.terms.near(root.board)
        for code, board in list(mingle_boards(root.board, root.setup.house))[:3000]:
            if code[4] is None and code[2] >= 0:
                continue  # a white meeple: its surprise follows
            before = len(remembered.summaries)
            value, refresh = remembered.end(board, root.stress, None, near, touched(code))
            hits += len(remembered.summaries) == before
            fresh_value, fresh_refresh = afresh.end(board, root.stress)
            assert (rank_key(value), refresh) == (rank_key(fresh_value), fresh_refresh)
            checked += 1
        # ends whose answer weighed a photo refresh are remembered with the deck's costs
        assert any(isinstance(key[-1], tuple) for key in remembered.summaries)
    assert checked > 500 and hits > 100

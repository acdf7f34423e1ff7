"""The exact turn hint: against the per-meeple brute force, and on positions worked by hand."""

from __future__ import annotations

from dataclasses import replace

import pytest
from meeple_party_helpers import random_small

from partysolver.models.documents import parse_document
from partysolver.models.meeple_party import data, load_state
from partysolver.models.meeple_party.game import CAT, DOG, WHITE, Dealt, Drawn, Mingle
from partysolver.models.meeple_party.state import (
    SURPRISE,
    WELCOMED_WHITE,
    MeeplePartyState,
)
from partysolver.solvers.budget import Budget
from partysolver.solvers.meeple_party.brute import brute_force
from partysolver.solvers.meeple_party.evaluate import FOULS, PHOTOS, STRESS, rank_key
from partysolver.solvers.meeple_party.turn import TurnSearch, turn_hint

# -- the search against the brute force -------------------------------------------------------------


@pytest.mark.parametrize(("seed", "players", "difficulty", "guests"), [
    (0, 3, "hard", 2), (9, 3, "hard", 2), (17, 3, "hard", 2), (2, 1, "easy", 1)])
def test_turn_search_equals_the_per_meeple_brute_force(seed: int, players: int,
                                                       difficulty: str, guests: int) -> None:
    state = random_small(seed, guests=guests, players=players, difficulty=difficulty)
    fast, _ = TurnSearch(state).value(state)
    slow, leaves = brute_force(state, "rules")
    assert rank_key(fast) == rank_key(slow)
    assert leaves > len(TurnSearch(state).options())  # individual meeples: more to enumerate


def test_search_equals_brute_force_when_the_drawn_meeple_is_a_surprise() -> None:
    state = random_small(22, guests=2, players=3, difficulty="hard")
    bag = list(state.bag)
    bag[state.drawn] += 1
    bag[WHITE] -= 1
    state = replace(state, phase=SURPRISE, drawn=-1, white=WELCOMED_WHITE, bag=tuple(bag))
    fast, _ = TurnSearch(state).value(state)
    slow, _ = brute_force(state, "rules")
    assert rank_key(fast) == rank_key(slow)


def test_search_equals_brute_force_with_pets_and_a_white_meeple_on_the_board() -> None:
    state = random_small(3, guests=0, players=3, difficulty="hard")
    board = list(state.board)
    board[0] += (1 << 3 * CAT) + (1 << 3 * WHITE)
    board[2] += 1 << 3 * DOG
    bag = list(state.bag)
    bag[WHITE] -= 1
    state = replace(state, board=tuple(board), bag=tuple(bag))
    fast, _ = TurnSearch(state).value(state)
    slow, _ = brute_force(state, "rules")
    assert rank_key(fast) == rank_key(slow)
    baseline, _ = brute_force(state, "evaluator")
    assert rank_key(baseline) == rank_key(fast)


def test_search_equals_brute_force_in_the_hot_tub_challenge() -> None:
    import random

    from meeple_party_helpers import small_cards

    from partysolver.models.meeple_party import new_game
    from partysolver.models.meeple_party.state import PLACE

    state = new_game(2, random.Random(2), variant="hot-tub", cards=small_cards())
    bag = list(state.bag)
    bag[2] -= 1
    state = replace(state, phase=PLACE, drawn=2, bag=tuple(bag))
    fast, _ = TurnSearch(state).value(state)
    slow, _ = brute_force(state, "rules")
    assert rank_key(fast) == rank_key(slow)


# -- positions worked by hand -------------------------------------------------------------------


def solo(house: str, rooms: str, drawn: str = "", phase: str = "", players: str = "",
         difficulty: str = "standard") -> MeeplePartyState:
    text = f'game = "meeple-party"\nhouse = "{house}"\ndifficulty = "{difficulty}"\n'
    if drawn:
        text += f'drawn = "{drawn}"\n'
    text += players or ('[[players]]\nname = "Ana"\nroommate = "flirt"\n'
                        'photos = ["stargazing", "bouncers"]\ndisaster = "fight-club"\n')
    text += rooms
    if phase:
        text += f'[progress]\nphase = "{phase}"\nstage = "mingle"\n'
    return load_state(parse_document(text, "hand.toml"), "hand.toml")


def foul_free(hint) -> list:
    """Options that avoid every party foul without a refresh."""
    return [o for o in hint.options if o.refresh is None and not hint.explain(o).fouls]


def test_the_only_foul_free_mingle_in_the_spread_out_house() -> None:
    """The Kitchen holds a standing Jerk guest and the laid-down Jerk roommate: Fight Club.
    Everything else lies down except a Wallflower guest in the Garage.  Worked by hand:

    * the Wallflower can only go to Bedroom 1, where it has nobody to push: Fight Club stays;
    * standing anybody up changes no count: Fight Club stays;
    * the Jerk may go to the Dining Room, where a laid-down Jerk guest makes it Fight Club
      again, or to the Living Room, where it is the only Jerk and has nobody to push.

    So the one foul-free turn is the Jerk from the Kitchen to the Living Room."""
    state = solo("hard", """
[rooms.garage]
wallflower = 1
[rooms.kitchen]
jerk = 1
laid_roommates = ["jerk"]
[rooms.dining_room]
laid = { jerk = 1 }
[rooms.bedroom_1]
laid_roommates = ["flirt"]
[rooms.bedroom_2]
laid_roommates = ["cool"]
[rooms.bathroom]
laid_roommates = ["wallflower"]
[rooms.outside]
laid_roommates = ["party_animal"]
""", phase="mingle")
    hint = turn_hint(state)
    house = state.setup.house
    free = foul_free(hint)
    assert len(free) == 1
    mingle = free[0].plan[0]
    assert isinstance(mingle, Mingle)
    assert (house.rooms[mingle.src].id, house.rooms[mingle.dst].id) == ("kitchen", "living_room")
    assert hint.best is free[0] and hint.best.value[STRESS] == 0.0


def test_three_foul_free_mingles_in_the_easy_house() -> None:
    """A Jerk guest stands in the Kitchen by the laid-down Jerk roommate (Fight Club); the
    Flirt just welcomed stands Outside; every roommate lies down.  Worked by hand: the Jerk
    may leave for the Dining Room or Bedroom 2 (nobody there to push), or the Flirt may go to
    the Dining Room and pull the Jerk over (its only standing neighbour).  The Flirt's other
    moves pull nobody, and stand-ups change no count: exactly three turns avoid the foul."""
    state = solo("easy", """
[rooms.outside]
flirt = 1
[rooms.kitchen]
jerk = 1
laid_roommates = ["jerk"]
[rooms.bedroom_1]
laid_roommates = ["flirt"]
[rooms.bedroom_2]
laid_roommates = ["cool"]
[rooms.bathroom]
laid_roommates = ["wallflower"]
[rooms.living_room]
laid_roommates = ["party_animal"]
""", phase="mingle")
    hint = turn_hint(state)
    house = state.setup.house
    moves = set()
    for option in foul_free(hint):
        mingle = option.plan[0]
        assert isinstance(mingle, Mingle)
        moves.add((mingle.piece, house.rooms[mingle.src].id, house.rooms[mingle.dst].id,
                   len(mingle.steps)))
    assert moves == {(4, "kitchen", "dining_room", 0), (4, "kitchen", "bedroom_2", 0),
                     (0, "outside", "dining_room", 1)}
    assert hint.best is not None
    explained = hint.explain(hint.best)
    assert explained is not None and not explained.fouls


UNAVOIDABLE = """
[rooms.kitchen]
jerk = 1
laid = { jerk = 1 }
laid_roommates = ["jerk"]
[rooms.bedroom_1]
laid_roommates = ["flirt"]
[rooms.bedroom_2]
laid_roommates = ["cool"]
[rooms.bathroom]
laid_roommates = ["wallflower"]
[rooms.living_room]
laid_roommates = ["party_animal"]
"""
"""Two laid-down Jerks in the Kitchen: Fight Club whatever the turn does."""

THREE = """[[players]]
name = "Ana"
roommate = "flirt"
photos = ["stargazing", "bouncers"]
disaster = "fight-club"
[[players]]
name = "Ben"
roommate = "cool"
photos = ["dance-off", "alone-at-last"]
disaster = "too-many-cooks"
[[players]]
name = "Cleo"
roommate = "jerk"
photos = ["garden-party", "pillow-talk"]
disaster = "locked-out"
"""


def test_a_refresh_is_taken_when_it_lowers_the_expected_stress_or_the_fouls() -> None:
    """Fight Club cannot be avoided.  Alone, the foul costs 1 stress and so does a refresh
    whose new disaster is not met on this board (no disaster of the deck is): equal stress,
    and the refresh has no party foul, so it ranks first.  With three roommates the foul costs
    3 and the refresh 1 plus 3 times the chance that the new disaster is met too: refresh."""
    alone = turn_hint(solo("easy", UNAVOIDABLE, phase="mingle"))
    assert alone.best is not None
    assert alone.best.refresh == ("disaster", 0, 0)
    assert alone.best.value[STRESS] == -1.0 and alone.best.value[FOULS] == 0.0
    kept = alone.evaluator.plain(alone.best.board, alone.best.stress)  # the same, no refresh
    assert kept[STRESS] == -1.0 and kept[FOULS] == -1.0
    assert rank_key(kept) < rank_key(alone.best.value)
    table = turn_hint(solo("easy", UNAVOIDABLE, phase="mingle", players=THREE))
    assert table.best is not None
    assert table.best.refresh == ("disaster", 0, 0)
    assert -3.0 < table.best.value[STRESS] <= -1.0


CLEAN_OR_FOUL = """
[rooms.kitchen]
flirt = 2
[rooms.outside]
flirt = 2
laid_roommates = ["jerk"]
[rooms.door]
cool = 1
[rooms.living_room]
laid_roommates = ["flirt"]
[rooms.bathroom]
laid_roommates = ["cool"]
[rooms.bedroom_1]
laid_roommates = ["party_animal"]
[rooms.bedroom_2]
laid_roommates = ["wallflower"]
[decks]
disasters = []
"""
"""Both of Ana's photos are met (2 Flirts in the Kitchen, 2 Outside) and her disaster,
Neighbors Complain (4 meeples Outside), is not: 3 are there."""

CLEAN_OR_FOUL_PLAYER = """[[players]]
name = "Ana"
roommate = "flirt"
stress = 0
photos = ["stargazing", "kitchen-flirting"]
disaster = "neighbors-complain"
"""


def test_at_equal_stress_a_clean_turn_ranks_before_a_party_foul() -> None:
    """Worked by hand: every Flirt that moves breaks a photo, and the Cool at the Door is the
    one meeple that can move without.  Moving it Outside is the first such mingle in the game's
    order: 4 meeples there, a party foul (+1 stress), paid back by the photo bonus (-1): stress
    0.  Moving it to Bedroom 1 (nobody to pull there), or standing a roommate up, takes both
    photos cleanly: stress 0 too (the bonus is lost at 0).  Equal stress, so the clean turns
    rank first; the foul ranks after every one of them.  No disaster is left in the deck, so no
    refresh can take the foul away."""
    state = solo("easy", CLEAN_OR_FOUL, phase="mingle", players=CLEAN_OR_FOUL_PLAYER)
    house = state.setup.house
    outside, bedroom = house.index("outside"), house.index("bedroom_1")
    both = [o for o in turn_hint(state).options if o.value[PHOTOS] == 2.0]
    first = [a for a in state.legal_actions()
             if isinstance(a, Mingle) and a.piece == 2 and a.dst in (outside, bedroom)]
    assert [a.dst for a in first] == [outside, bedroom]  # the foul first in the game's order
    fouled = [o for o in both if o.value[FOULS] < 0]
    assert len(fouled) == 1 and fouled[0].plan[0] == first[0]
    assert both[-1] is fouled[0] and len(both) > 1
    assert all(o.value[STRESS] == 0.0 and o.value[FOULS] == 0.0 for o in both[:-1])
    best = both[0]
    assert best.plan[0] == first[1] and not turn_hint(state).explain(best).fouls
    slow, _ = brute_force(state, "rules")
    assert rank_key(slow) == rank_key(best.value)


def test_options_are_distinct_and_ranked_and_a_small_budget_says_unknown() -> None:
    state = random_small(3, guests=3, players=2, difficulty="standard")
    hint = turn_hint(state)
    assert hint.status == "optimal"
    keys = [rank_key(o.value) for o in hint.options]
    assert keys == sorted(keys, reverse=True)
    assert len({o.outcome for o in hint.options}) == len(hint.options)
    assert hint.outcomes >= len([o for o in hint.options if o.certain])
    cut = turn_hint(state, Budget(nodes=5))
    assert cut.status == "unknown"


def test_ranking_stops_when_the_time_is_spent(monkeypatch: pytest.MonkeyPatch) -> None:
    """Valuing the options to rank them expands no node, so it reads the clock itself: a
    search whose time runs out between collecting its options and ranking them says unknown
    (it ran 0.05 s past a short limit), and a hint that ranked in time reads further down
    the ranking with the caller's budget again."""
    from partysolver.app.catalog import open_document
    from partysolver.app.meeple_party import _load
    from partysolver.solvers.budget import BudgetExhausted
    from partysolver.solvers.meeple_party import turn

    _, state = _load(open_document("meeple-party:positions/20-hard-party_animal-26"))
    search = TurnSearch(state, Budget(time=3600.0))
    ranked = search.options(5)
    search.meter = Budget(time=0.0).start()  # the time spent once the options are collected
    with pytest.raises(BudgetExhausted):
        ranked.rank(5)

    real = turn.RankedOptions.rank

    def late(self: turn.RankedOptions, n: int) -> None:
        self._search.meter = Budget(time=0.0).start()
        real(self, n)

    monkeypatch.setattr(turn.RankedOptions, "rank", late)
    cut = turn_hint(state, Budget(time=3600.0), top=5)
    assert cut.status == "unknown" and len(cut.options) == 0
    monkeypatch.undo()
    hint = turn_hint(state, Budget(time=3600.0), top=1)
    assert hint.status == "optimal" and len(hint.options[:3]) == 3  # read on: a new budget


def test_the_shipped_example_takes_both_photos() -> None:
    from partysolver.models.documents import read_document
    from partysolver.puzzles import examples

    path = examples("meeple-party")["default"]
    state = load_state(*read_document(str(path)))
    hint = turn_hint(state)
    assert hint.best is not None
    outcome = hint.explain(hint.best)
    assert outcome is not None
    names = {state.setup.cards.photos[c].id for c in outcome.photos}
    assert names == {"kitchen-flirting", "velvet-rope"}
    assert data.cards().disasters[state.disasters[0]].id == "fight-club"


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(12))
def test_turn_search_equals_the_brute_force_on_more_positions(seed: int) -> None:
    """A wider sweep of the oracle (every player count and difficulty); the fast cases above
    cover the same code."""
    players = 1 + seed % 3
    difficulty = ("easy", "standard", "hard")[seed % 3]
    state = random_small(seed, guests=2 + seed % 2, players=players, difficulty=difficulty)
    fast, _ = TurnSearch(state).value(state)
    slow, _ = brute_force(state, "rules")
    assert rank_key(fast) == rank_key(slow)


def test_a_refresh_that_wins_is_found_and_agrees_with_the_brute_force() -> None:
    from pathlib import Path

    from partysolver.models.documents import read_document

    path = Path(__file__).parent / "data" / "refresh-wins.toml"
    state = load_state(*read_document(str(path)))
    state = state.apply(state.chance_outcomes()[0][0])
    fast, _ = TurnSearch(state).value(state)
    assert fast[0] == 1.0
    slow, _ = brute_force(state, "rules")
    assert rank_key(fast) == rank_key(slow)
    most, _ = TurnSearch(state, photos_first=True).value(state)
    assert most[0] == 1.0


@pytest.mark.parametrize("seed", [9, 6] + [pytest.param(s, marks=pytest.mark.slow)
                                           for s in (0, 1, 2, 3, 4, 5, 7, 8)])
def test_search_equals_brute_force_with_ordered_house_decks(seed: int) -> None:
    """Ordered decks (a refresh draws a known card) let the brute force meet the refresh logic
    on the whole house deck, one photo from the win."""
    from meeple_party_helpers import random_ordered

    state = random_ordered(seed, guests=2, players=1 + seed % 3, taken=10 + seed % 2)
    fast, _ = TurnSearch(state).value(state)
    slow, _ = brute_force(state, "rules")
    assert rank_key(fast) == rank_key(slow)


@pytest.mark.parametrize("seed", range(4))
def test_incremental_evaluation_of_mingles_equals_the_full_one(seed: int) -> None:
    from partysolver.models.meeple_party.board import mingle_boards
    from partysolver.solvers.meeple_party.evaluate import Evaluator
    from partysolver.solvers.meeple_party.turn import touched

    state = random_small(seed, guests=6, players=3, difficulty="hard")
    state = state.apply(state.legal_actions()[0])
    terms = Evaluator(state).terms
    near = terms.near(state.board)
    for code, board in mingle_boards(state.board, state.setup.house):
        if code[4] is None and code[2] >= 0:
            continue
        assert near.values(board, touched(code)) == terms.values(board)


def test_mingled_surprises_on_packed_boards_equal_the_brute_force() -> None:
    """Two white meeples at the party: every mingle of one draws a surprise card (the small
    deck has a Conga Line, a removal, an arrival from the bag and a card that stays)."""
    state = random_small(12, guests=0, players=3, difficulty="hard")
    board = list(state.board)
    board[3] += 1 << 3 * WHITE
    board[6] += 1 << 3 * WHITE
    bag = list(state.bag)
    bag[WHITE] -= 2
    state = replace(state, board=tuple(board), bag=tuple(bag))
    fast, _ = TurnSearch(state).value(state)
    slow, _ = brute_force(state, "rules")
    assert rank_key(fast) == rank_key(slow)


def test_an_ordered_bag_of_flirts_is_not_empty() -> None:
    """An ordered bag is a sequence of kinds, and the Flirt is kind 0: a bag of Flirts must
    still deal (an early version asked ``any(bag)``)."""
    from meeple_party_helpers import random_ordered

    from partysolver.models.meeple_party.state import EFFECT

    state = random_ordered(1, guests=0, players=1)
    card = state.setup.cards.surprise_ids["party-crasher"]
    deck = (card,) + tuple(c for c in state.surprise_deck if c != card)
    state = replace(state, bag=(0, 0, 0), phase=SURPRISE, drawn=-1, white=WELCOMED_WHITE,
                    surprise_deck=deck)
    assert state.chance_outcomes()[0][0] == Dealt("surprise", card)
    resolved = state.apply(Dealt("surprise", card))
    assert resolved.phase == EFFECT and resolved.bag_size() == 3
    assert resolved.chance_outcomes()[0][0] == Drawn(0)

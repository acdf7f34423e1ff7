"""The card language: the house decks, round trips, meaning (against a naive matcher), errors."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from partysolver.models.documents import Fields, parse_document
from partysolver.models.errors import InputError
from partysolver.models.meeple_party import data
from partysolver.models.meeple_party.board import UNIT
from partysolver.models.meeple_party.cards import (
    CATEGORIES,
    Clause,
    CompiledClause,
    CompiledCondition,
    Condition,
    category_types,
    load_cards,
    room_types,
)
from partysolver.models.meeple_party.game import CAT, LAID, ROOMMATE

FLIRT, PARTY_ANIMAL, COOL, WALLFLOWER, JERK, WHITE = range(6)


def room(*pieces: int) -> int:
    return sum(UNIT[p] for p in pieces)


def clause(room_kind: str = "any", exactly: bool = False, absent: tuple[str, ...] = (),
           **counts: int) -> Clause:
    ordered = tuple((c, counts[c]) for c in CATEGORIES if counts.get(c))
    return Clause(room_kind, exactly, ordered, absent)


def met(c: Clause, content: int, active: int = -1) -> bool:
    return CompiledClause(c, (0,), active).cost(content) == 0


# -- the house decks -------------------------------------------------------------------------------


def test_house_decks_have_the_published_sizes_and_names() -> None:
    cards = data.cards("house")
    assert (len(cards.photos), len(cards.disasters), len(cards.surprises)) == (68, 24, 32)
    assert {"noise-violation", "overcrowding", "jealous-rage", "heated-debate", "peer-pressure",
            "dirty-tricks", "scandal", "fight-club"} <= set(cards.disaster_ids)
    assert {"conga-line", "fire-fighter"} <= set(cards.surprise_ids)
    fire = cards.surprises[cards.surprise_ids["fire-fighter"]].effects[0]
    assert (fire.do, fire.count, fire.source) == ("remove", 3, "kitchen")
    overcrowding = cards.disasters[cards.disaster_ids["overcrowding"]].condition.clauses[0]
    assert overcrowding.counts == (("meeple", 6),)
    fight = cards.disasters[cards.disaster_ids["fight-club"]].condition.clauses[0]
    assert fight.counts == (("jerk", 2),)


@pytest.mark.parametrize("name", ["house"])
def test_cards_round_trip(name: str) -> None:
    cards = data.cards(name)
    again = load_cards(Fields(cards.as_document(), "again.toml"))
    assert again == cards
    assert again.as_document() == cards.as_document()


def test_every_house_photo_is_possible_in_the_easy_house_and_describes_itself() -> None:
    setup = data.cards("house")
    house = data.house("easy")

    def resolve(selector: str) -> tuple[int, ...]:
        return tuple(range(house.size)) if selector == "any" else house.of_kind(selector)

    for card in (*setup.photos, *setup.disasters):
        assert CompiledCondition(card.condition, resolve, 0).possible, card.id
        assert card.condition.describe()
    for surprise in setup.surprises:
        assert surprise.describe()


# -- what conditions mean ------------------------------------------------------------------------


def test_a_roommate_counts_as_its_personality_and_every_meeple_counts_once() -> None:
    flirts = room(ROOMMATE + FLIRT, FLIRT)
    assert met(clause(flirt=2), flirts)
    assert not met(clause(flirt=1, roommate=1), room(ROOMMATE + FLIRT))
    assert met(clause(flirt=1, roommate=1), flirts)
    assert met(clause(roommate_flirt=1, flirt=1), flirts)
    assert not met(clause(roommate_cool=1), flirts)


def test_exactly_means_nothing_else_and_pets_never_count_but_laid_meeples_do() -> None:
    c = clause(exactly=True, cool=1, jerk=1)
    assert met(c, room(COOL, JERK))
    assert met(c, room(COOL, JERK, CAT))
    assert met(c, room(COOL + LAID, JERK))
    assert not met(c, room(COOL, JERK, JERK + LAID))
    assert not met(c, room(COOL))
    assert met(clause(exactly=True), room(CAT)) and not met(clause(exactly=True), room(WHITE))


def test_at_least_totals_absent_kinds_and_the_active_roommate() -> None:
    assert met(clause(meeple=3), room(FLIRT, WHITE, ROOMMATE + JERK))
    assert not met(clause(meeple=3), room(FLIRT, WHITE, CAT))
    assert not met(clause(cool=1, absent=("jerk",)), room(COOL, ROOMMATE + JERK))
    assert met(clause(cool=1, absent=("jerk",)), room(COOL, WALLFLOWER))
    c = clause(active_roommate=1, guest=1)
    assert met(c, room(ROOMMATE + COOL, WHITE), active=COOL)
    assert not met(c, room(ROOMMATE + COOL, WHITE), active=JERK)


def test_clauses_in_different_rooms_or_the_same_room() -> None:
    rooms = (0, 1)
    two = (clause(flirt=1), clause(jerk=1))
    board = (room(FLIRT, JERK), room())
    different = CompiledCondition(Condition(two, "different"), lambda s: rooms, -1)
    same = CompiledCondition(Condition(two, "same"), lambda s: rooms, -1)
    assert same.met(board) and not different.met(board)
    board = (room(FLIRT), room(JERK))
    assert different.met(board) and not same.met(board)
    assert different.cost((room(FLIRT, JERK), room())) == 1


def naive_met(c: Clause, content: int, active: int) -> bool:
    """Try every assignment of the room's meeples to the wanted slots (no theory)."""
    counts = room_types(content)
    meeples = [t for t, n in enumerate(counts) for _ in range(n)]
    slots = [category_types(cat, active) for cat, n in c.counts for _ in range(n)]
    absent = set().union(*(category_types(a, active) for a in c.absent)) if c.absent else set()
    if any(t in absent for t in meeples):
        return False
    if c.exactly and len(meeples) != len(slots):
        return False
    if len(slots) > len(meeples):
        return False

    def fill(i: int, used: frozenset[int]) -> bool:
        if i == len(slots):
            return True
        tried = set()
        for j, t in enumerate(meeples):
            if j not in used and t in slots[i] and t not in tried:
                tried.add(t)
                if fill(i + 1, used | {j}):
                    return True
        return False

    return fill(0, frozenset())


PIECES = [FLIRT, PARTY_ANIMAL, COOL, WALLFLOWER, JERK, WHITE, FLIRT + LAID, COOL + LAID,
          ROOMMATE + FLIRT, ROOMMATE + COOL, ROOMMATE + JERK, CAT]


@settings(max_examples=300, deadline=None)
@given(pieces=st.lists(st.sampled_from(PIECES), max_size=6),
       wanted=st.dictionaries(st.sampled_from(CATEGORIES), st.integers(1, 2), max_size=3),
       exactly=st.booleans(), absent=st.lists(st.sampled_from(CATEGORIES), max_size=1),
       active=st.sampled_from([FLIRT, COOL, JERK]))
def test_hall_matching_agrees_with_trying_every_assignment(
        pieces: list[int], wanted: dict[str, Any], exactly: bool, absent: list[str],
        active: int) -> None:
    counts: dict[int, int] = {}
    for p in pieces:
        counts[p] = counts.get(p, 0) + 1
    if any(n > 1 and p >= ROOMMATE for p, n in counts.items()):
        return  # one roommate of each personality
    content = sum(n * UNIT[p] for p, n in counts.items())
    c = clause(exactly=exactly, absent=() if exactly else tuple(absent), **wanted)
    assert met(c, content, active) == naive_met(c, content, active)


def test_cost_counts_the_meeples_to_move() -> None:
    assert CompiledClause(clause(flirt=2, jerk=1), (0,), -1).cost(room(FLIRT)) == 2
    assert CompiledClause(clause(exactly=True, flirt=1), (0,), -1).cost(room(FLIRT, JERK)) == 1
    assert CompiledClause(clause(exactly=True), (0,), -1).cost(room(FLIRT, JERK)) == 2


# -- bad cards -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "field"), [
    ('[[photos]]\nid = "a"\nclauses = [{ room = "kitchen", flirts = 2 }]', "photos[1].clauses[1]"),
    ('[[photos]]\nid = "a"\nclauses = [{ room = "attic", flirt = 2 }]', "photos[1].clauses[1].room"),
    ('[[photos]]\nid = "a"\nclauses = [{ mode = "most", flirt = 2 }]', "photos[1].clauses[1].mode"),
    ('[[photos]]\nid = "a"\nclauses = []', "photos[1].clauses"),
    ('[[photos]]\nid = "a"\nclauses = [{ flirt = -1 }]', "photos[1].clauses[1].flirt"),
    ('[[disasters]]\nid = "a"\nclauses = [{ flirt = 1 }]\n[[disasters]]\nid = "a"\n'
     'clauses = [{ jerk = 1 }]', "disasters"),
    ('[[surprises]]\nid = "a"\neffects = [{ do = "explode" }]', "surprises[1].effects[1].do"),
    ('[[surprises]]\nid = "a"\neffects = [{ do = "move", from = "kitchen" }]',
     "surprises[1].effects[1].to"),
    ('[[surprises]]\nid = "a"\neffects = [{ do = "stress", amount = 9 }]',
     "surprises[1].effects[1].amount"),
    ('[[photos]]\nid = "Big Card"\nclauses = [{ flirt = 1 }]', "photos[1].id"),
])
def test_bad_cards_name_the_field(text: str, field: str) -> None:
    with pytest.raises(InputError) as caught:
        load_cards(Fields(parse_document(text, "cards.toml"), "cards.toml"))
    assert caught.value.field is not None and caught.value.field.startswith(field)
    assert str(caught.value).startswith("cards.toml: ")


def test_written_cards_load_back_for_every_effect_and_clause_form() -> None:
    text = """
[[photos]]
id = "p"
rooms = "same"
clauses = [{ room = "@bedroom_1", mode = "exactly", roommate_jerk = 1 },
           { room = "any", empty = false, absent = ["white"] }]
[[surprises]]
id = "s"
white = "stay"
effects = [
  { do = "move", who = "cool", from = "everywhere", to = "kitchen" },
  { do = "conga" },
  { do = "remove", count = 0, who = "jerk", room = "fullest" },
  { do = "add", count = 2 },
  { do = "lay_down", count = 1, room = "active" },
  { do = "stand_up", count = 0 },
  { do = "stress", amount = -1, who = "room", room = "bedroom" },
]
"""
    cards = load_cards(Fields(parse_document(text, "c.toml"), "c.toml"))
    again = load_cards(Fields(cards.as_document(), "again"))
    assert again == cards
    assert all(e.describe() for e in cards.surprises[0].effects)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 7), st.sampled_from(PIECES)), max_size=14),
       st.sampled_from([FLIRT, COOL, JERK]))
def test_deck_tables_agree_with_each_condition(placed: list[tuple[int, int]],
                                               active: int) -> None:
    """The solver's whole-deck shortcuts (per-room cost vectors, met bit masks) give what each
    condition says on its own, multi-clause cards included."""
    from partysolver.solvers.meeple_party.evaluate import MetMasks, TermTable

    house = data.house("easy")
    cards = data.cards("house")

    def resolve(selector: str) -> tuple[int, ...]:
        return tuple(range(house.size)) if selector == "any" else house.of_kind(selector)

    board = [0] * house.size
    for room, piece in placed:
        if piece >= ROOMMATE and any(r >> 3 * piece & 7 for r in board):
            continue
        board[room] += UNIT[piece]
    conditions = [CompiledCondition(c.condition, resolve, active)
                  for c in (*cards.photos, *cards.disasters)]
    table = TermTable(conditions, house.size)
    assert table.values(tuple(board)) == [c.cost(tuple(board)) for c in conditions]
    masks = MetMasks(conditions, house.size)
    assert masks.count(tuple(board)) == sum(c.met(tuple(board)) for c in conditions)


SMALL_DECK = parse_document("""
[[photos]]
id = "p"
rooms = "different"
clauses = [{ room = "kitchen", mode = "exactly", flirt = 2 },
           { room = "bedroom", roommate = 1, absent = ["jerk"] }]
[[disasters]]
id = "d"
clauses = [{ room = "any", meeple = 6 }]
[[surprises]]
id = "s"
effects = [{ do = "remove", count = 2, who = "guest", room = "any" },
           { do = "stress", amount = 1, who = "active" }]
""", "deck.toml")
EDITS = st.one_of(st.none(), st.booleans(), st.integers(-2, 9), st.text(max_size=6),
                  st.sampled_from(["flirt", "kitchen", "any", "same", "exactly", "conga",
                                   "stress", "everywhere", "@kitchen", "roommate_jerk"]),
                  st.lists(st.sampled_from(["jerk", "white", "x"]), max_size=2),
                  st.dictionaries(st.sampled_from(["flirt", "room", "do", "x"]),
                                  st.sampled_from([1, "kitchen", "conga"]), max_size=2))


def _card_paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = []
    items = doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list) \
        else ()
    for key, value in items:
        found.append((*prefix, key))
        found += _card_paths(value, (*prefix, key))
    return found


@settings(max_examples=150, deadline=None)
@given(edits=st.lists(st.tuples(st.sampled_from(_card_paths(SMALL_DECK)), EDITS), max_size=3))
def test_any_cards_document_loads_or_fails_cleanly(edits: list[tuple[Any, Any]]) -> None:
    """A cards file gives cards that write and load back the same, or one clean InputError."""
    import copy
    import json

    document = copy.deepcopy(SMALL_DECK)
    for path, value in edits:
        target = document
        try:
            for key in path[:-1]:
                target = target[key]
            target[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue
    try:
        cards = load_cards(Fields(json.loads(json.dumps(document)), "deck.toml"))
    except InputError as error:
        assert str(error).startswith("deck.toml")
        return
    assert load_cards(Fields(cards.as_document(), "again")) == cards


def test_clauses_in_the_same_room_count_different_meeples() -> None:
    """The house's VIP Lounge: 2 Cools and a roommate, no Jerk, in one room.  The Cool
    roommate is one of the 2 Cools or the roommate, not both: with one Cool guest beside it a
    third meeple is wanted (an independent reference found the clauses once shared it)."""
    vip = Condition((clause(cool=2), clause(roommate=1, absent=("jerk",))), "same")
    compiled = CompiledCondition(vip, lambda selector: (0, 1), -1)
    assert len(compiled.clauses) == 1  # one set of different meeples
    cool_roommate = ROOMMATE + COOL
    assert not compiled.met([room(cool_roommate, COOL), 0])
    assert compiled.cost([room(cool_roommate, COOL), 0]) == 1
    assert compiled.met([room(cool_roommate, COOL, WALLFLOWER + ROOMMATE), 0])
    assert compiled.met([0, room(COOL, COOL, ROOMMATE + FLIRT)])
    assert not compiled.met([room(COOL, COOL), room(ROOMMATE + FLIRT)])  # not the same room
    assert not compiled.met([room(COOL, COOL, ROOMMATE + FLIRT, JERK), 0])

"""The exact searches against a reference written from the rulebook alone.

The other oracle tests search over the rules engine (``TeaPartyState.apply``), so a rule the
engine gets wrong would be wrong in the oracle too. The reference below shares no code with
``partysolver``: it restates the rules of ``../shared/seeds/epic-monster-tea-party.txt`` and
the decisions of docs/rules.md (a free discard when an ability has nothing to act on; a Wizard
pour on the last draw refills the bag; a Cleric with an empty bag ends the game; the tie-break
by heroes of each point value from the highest down) for two monsters, over tuples of hero
counts, as a memoised expectimax with exact fractions. Positions reach the engine through the
position document loader; moves are compared by their notation (docs/formats.md).
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from functools import cache

import pytest

from partysolver.models.tea_party.notation import TeaPartyNotation
from partysolver.models.tea_party.position import load_state
from partysolver.solvers.budget import Budget
from partysolver.solvers.expectimax import expectimax
from partysolver.solvers.tea_party import exact
from partysolver.solvers.tea_party.kernel import CompiledExpectimax

# -- the reference ----------------------------------------------------------------------------

HEROES = ("fighter", "cleric", "rogue", "wizard", "ranger", "bard", "king", "queen")
POINTS = (1, 3, 4, 5, 6, 6, 7, 7)
SUPPLY = (15, 9, 7, 5, 4, 1, 1, 1)
FIGHTER, CLERIC, ROGUE, WIZARD, RANGER, BARD, KING, QUEEN = range(8)
COPIED = (FIGHTER, CLERIC, ROGUE, WIZARD, BARD)  # what a King or Queen may copy
SEATS = ("Blue", "Green")
EMPTY = (0,) * 8


def plus(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def bump(a: tuple[int, ...], hero: int, delta: int) -> tuple[int, ...]:
    return a[:hero] + (a[hero] + delta,) + a[hero + 1:]


def put(pair: tuple, seat: int, item: object) -> tuple:
    return (item, pair[1]) if seat == 0 else (pair[0], item)


def throw_ups(stomach: tuple[int, ...]) -> list[tuple[Fraction, tuple[int, ...]]]:
    """Two heroes pulled blindly from the stomach (all of them when it holds two or fewer)."""
    n = sum(stomach)
    if n <= 2:
        return [(Fraction(1), EMPTY)]
    found = []
    for a in range(8):
        for b in range(a, 8):
            ways = stomach[a] * (stomach[a] - 1) // 2 if a == b else stomach[a] * stomach[b]
            if ways:
                found.append((Fraction(ways, n * (n - 1) // 2), bump(bump(stomach, a, -1), b, -1)))
    return found


def drink(cup: tuple[int, ...], stomach: tuple[int, ...]) -> list[tuple[Fraction, tuple]]:
    """Swallow a teacup: a sip with a Ranger in it is thrown up once, 2 heroes."""
    full = plus(stomach, cup)
    return throw_ups(full) if cup[RANGER] else [(Fraction(1), full)]


def rank(stomach: tuple[int, ...]) -> tuple[int, ...]:
    """Points, then how many heroes of each point value, the highest value first."""
    by_value = Counter()
    for hero, n in enumerate(stomach):
        by_value[POINTS[hero]] += n
    return (sum(v * n for v, n in by_value.items()),) + tuple(
        by_value[v] for v in sorted(by_value, reverse=True))


def blue_share(stomachs: tuple) -> Fraction:
    blue, green = rank(stomachs[0]), rank(stomachs[1])
    return Fraction(1) if blue > green else Fraction(0) if blue < green else Fraction(1, 2)


# A node is ("turn", bag, cups, stomachs, seat): the seat is about to draw (the game is over
# when the bag is empty); ("hand", hero, bag, cups, stomachs, seat): the seat decides about
# the hero; ("sick", bag, cups, stomachs, seat): the seat has just drunk a Ranger and throws
# up, then the next seat plays. Its value is Blue's chance to win (Green's is 1 minus it).


@cache
def value(node: tuple) -> Fraction:
    if node[0] == "turn":
        _, bag, cups, stomachs, seat = node
        if not any(bag):
            return sum((p * q * blue_share((s0, s1))
                        for p, s0 in drink(cups[0], stomachs[0])
                        for q, s1 in drink(cups[1], stomachs[1])), Fraction(0))
        return sum((Fraction(n, sum(bag)) * value(("hand", hero, bump(bag, hero, -1), cups,
                                                    stomachs, seat))
                    for hero, n in enumerate(bag) if n), Fraction(0))
    if node[0] == "sick":
        _, bag, cups, stomachs, seat = node
        return sum((p * value(("turn", bag, cups, put(stomachs, seat, s), 1 - seat))
                    for p, s in throw_ups(stomachs[seat])), Fraction(0))
    values = [value(after) for _, after in options(node)]
    return max(values) if node[-1] == 0 else min(values)


def uses(ability: int, bag: tuple, cups: tuple, stomachs: tuple, seat: int) -> list:
    """(words after the ability, the node it leads to) for every use of a squished hero's
    ability (the hero is already gone)."""
    other = 1 - seat
    done = ("turn", bag, cups, stomachs, other)  # the use changes nothing
    if ability == FIGHTER:
        drunk = put(cups, seat, EMPTY), put(stomachs, seat, plus(stomachs[seat], cups[seat]))
        return [("", ("sick" if cups[seat][RANGER] else "turn", bag, *drunk,
                      seat if cups[seat][RANGER] else other))]
    if ability == CLERIC:  # draw again: the seat's turn goes on (over with an empty bag)
        return [("", ("turn", bag, cups, stomachs, seat) if any(bag) else done)]
    if ability == ROGUE:
        steals = [(f" on {SEATS[other]} take {HEROES[h]}",
                   ("hand", h, bag, put(cups, other, bump(cups[other], h, -1)), stomachs, seat))
                  for h in range(8) if cups[other][h]]
        return steals or [("", done)]
    if ability == WIZARD:
        return [(f" on {SEATS[s]}", ("turn", plus(bag, cups[s]), put(cups, s, EMPTY), stomachs,
                                     other)) for s in (0, 1)]
    assert ability == BARD
    return [(f" on {SEATS[other]}", ("turn", bag, (cups[1], cups[0]), stomachs, other))]


def options(node: tuple) -> list[tuple[str, tuple]]:
    """Every (move, node it leads to) of a seat holding a hero."""
    _, hero, bag, cups, stomachs, seat = node
    found = [("cup", ("turn", bag, put(cups, seat, bump(cups[seat], hero, 1)), stomachs,
                      1 - seat))]
    if hero in (KING, QUEEN):
        for ability in COPIED:
            found += [(f"squish {HEROES[hero]} as {HEROES[ability]}{words}", after)
                      for words, after in uses(ability, bag, cups, stomachs, seat)]
    elif hero != RANGER:  # the Ranger cannot be squished
        found += [(f"squish {HEROES[hero]}{words}", after)
                  for words, after in uses(hero, bag, cups, stomachs, seat)]
    return found


# -- the positions ----------------------------------------------------------------------------


def some(rng: random.Random, k: int, left: list[int]) -> tuple[int, ...]:
    """k heroes (fewer if the supply runs out), the Fighters no likelier than the rest."""
    found = [0] * 8
    for _ in range(k):
        heroes = [h for h in range(8) if left[h]]
        if heroes:
            hero = rng.choice(heroes)
            found[hero] += 1
            left[hero] -= 1
    return tuple(found)


def random_node(rng: random.Random) -> tuple:
    """A draw or a hero in hand, with at most 6 heroes loose (bag, cups and hand)."""
    left = list(SUPPLY)
    hero = rng.randrange(8) if rng.random() < 0.6 else None
    if hero is not None:
        left[hero] -= 1
    loose = rng.randint(1, 6) - (hero is not None)
    bag = some(rng, rng.randint(0 if hero is not None else 1, loose), left)
    blue = rng.randint(0, loose - sum(bag))
    cups = some(rng, blue, left), some(rng, loose - sum(bag) - blue, left)
    stomachs = some(rng, rng.randint(0, 4), left), some(rng, rng.randint(0, 4), left)
    seat = rng.randrange(2)
    if hero is None:
        return ("turn", bag, cups, stomachs, seat)
    return ("hand", hero, bag, cups, stomachs, seat)


def document(node: tuple) -> dict:
    """The position file (as a parsed TOML document) of a reference node."""
    if node[0] == "turn":
        _, bag, cups, stomachs, seat = node
        drawn = {}
    else:
        _, hero, bag, cups, stomachs, seat = node
        drawn = {"drawn": HEROES[hero]}

    def table(counts: tuple[int, ...]) -> dict[str, int]:
        return {HEROES[h]: n for h, n in enumerate(counts) if n}

    return {"game": "tea-party", "players": list(SEATS), "current": SEATS[seat], **drawn,
            "bag": table(bag), "cups": {SEATS[s]: table(cups[s]) for s in (0, 1)},
            "stomachs": {SEATS[s]: table(stomachs[s]) for s in (0, 1)}}


def nodes(seed: int, count: int) -> list[tuple]:
    rng = random.Random(seed)
    return [random_node(rng) for _ in range(count)]


# -- the checks -------------------------------------------------------------------------------

SEARCHES = {
    "generic": lambda state: expectimax(state),
    "interpreted": lambda state: exact.exact_search(state, Budget(), compile=False),
    "compiled": lambda state: expectimax(state, kind=CompiledExpectimax),
}


def seat_value(node: tuple, seat: int) -> Fraction:
    v = value(node)
    return v if seat == 0 else 1 - v


@pytest.mark.parametrize("search", list(SEARCHES))
def test_exact_searches_equal_the_rulebook_reference(search: str) -> None:
    notation = TeaPartyNotation()
    for node in nodes(12, 40):
        state = load_state(document(node), "reference")
        seat = node[-1]
        result = SEARCHES[search](state)
        assert result.status == "optimal", node
        assert result.values[seat] == pytest.approx(float(seat_value(node, seat)), abs=1e-9), node
        if node[0] == "hand":
            moves = dict(options(node))
            for move in result.moves:
                after = moves[notation.format(state, move.action)]
                assert move.value == pytest.approx(float(seat_value(after, seat)), abs=1e-9), (
                    node, move)


def test_every_distinct_result_is_one_option_with_its_exact_value() -> None:
    """The rules engine's exact fractions: every option (by its move) has the reference's value,
    and the options are the reference's distinct results, each offered once."""
    notation = TeaPartyNotation()
    choices = 0
    for node in nodes(13, 60):
        state = load_state(document(node), "reference")
        seat = node[-1]
        found = exact.exact_fractions(state, limit=10**6)
        assert found is not None, node
        if node[0] == "turn":
            assert found[None][seat] == seat_value(node, seat), node
            continue
        choices += 1
        moves = dict(options(node))
        reached = [moves[notation.format(state, action)] for action in found]
        assert sorted(map(repr, reached)) == sorted(set(map(repr, moves.values()))), node
        for action, values in found.items():
            after = moves[notation.format(state, action)]
            assert values[seat] == seat_value(after, seat), (node, action)
    assert choices >= 25


def test_the_positions_try_every_rule() -> None:
    """The seeded positions above meet every ability, a Ranger drunk by a Fighter, a steal, a
    royal's copies, a pour refilling an empty bag and a Cleric with an empty bag."""
    seen = Counter()
    for node in nodes(12, 40) + nodes(13, 60):
        if node[0] != "hand":
            continue
        _, hero, bag, cups, _, seat = node
        seen[HEROES[hero]] += 1
        seen["steal"] += hero in (ROGUE, KING, QUEEN) and any(cups[1 - seat])
        seen["ranger drink"] += hero in (FIGHTER, KING, QUEEN) and cups[seat][RANGER] > 0
        seen["pour on an empty bag"] += not any(bag) and hero in (WIZARD, KING, QUEEN) and any(
            map(any, cups))
        seen["cleric, empty bag"] += not any(bag) and hero in (CLERIC, KING, QUEEN)
    assert min(seen[name] for name in (*HEROES, "steal", "ranger drink", "pour on an empty bag",
                                       "cleric, empty bag")) >= 1, seen

"""The card language: photos and disasters are conditions over rooms, surprises are effects.

A *condition* is one or more *clauses*; each clause asks for meeples in a room:

* ``room``: a room kind (``"kitchen"``, ``"bedroom"``: any room of that kind), ``"any"``
  room, or one room of a house by id (``"@bedroom_2"``);
* ``mode``: ``"at_least"`` (others may be there too) or ``"exactly"`` (nothing else in the
  room; no counts at all means an empty room);
* counts of *categories*: a personality (``flirt``, ``party_animal``, ``cool``, ``wallflower``,
  ``jerk``: a guest or the roommate of it), ``white`` (a surprise meeple), ``guest`` (any guest,
  white ones included), ``roommate`` (any roommate), a named roommate (``roommate_jerk``),
  ``active_roommate`` (the roommate of the player whose turn it is) and ``meeple`` (any meeple);
* ``absent``: categories that must not be in the room.

Every counted meeple is a different meeple (the Flirt roommate and a Flirt guest are "2 Flirts";
one Flirt roommate is not both "a Flirt" and "a roommate").  Several clauses are in
``rooms = "different"`` rooms (the default), ``"same"`` room, or ``"any"`` rooms.  Laid-down
meeples count; pets never do.

A *surprise* is a list of effects (see :data:`EFFECTS`); where an effect leaves a choice the
active player makes it.  See ``docs/formats.md`` for the full reference and examples.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import combinations, permutations
from typing import Any

from ..documents import Fields
from .game import BITS, PERSONALITY_KEYS, ROOM_KINDS

# -- categories of meeples ----------------------------------------------------------------------

TYPES = 11
"""Types of counted meeple: guest of personality p (p), white (5), roommate of p (6 + p)."""

ROOMMATE_KEYS = tuple(f"roommate_{p}" for p in PERSONALITY_KEYS)
CATEGORIES = (*PERSONALITY_KEYS, "white", "guest", "roommate", *ROOMMATE_KEYS,
              "active_roommate", "meeple")
CATEGORY_LABELS = {
    **{p: (p.replace("_", " ").title(), p.replace("_", " ").title() + "s")
       for p in PERSONALITY_KEYS},
    "white": ("white surprise meeple", "white surprise meeples"),
    "guest": ("guest", "guests"),
    "roommate": ("roommate", "roommates"),
    **{f"roommate_{p}": (f"the {p.replace('_', ' ').title()} roommate",) * 2
       for p in PERSONALITY_KEYS},
    "active_roommate": ("the active player's roommate",) * 2,
    "meeple": ("meeple", "meeples"),
}


def category_types(category: str, active: int) -> frozenset[int]:
    """The meeple types a category accepts; ``active`` is the active player's personality."""
    if category in PERSONALITY_KEYS:
        p = PERSONALITY_KEYS.index(category)
        return frozenset((p, 6 + p))
    if category == "white":
        return frozenset((5,))
    if category == "guest":
        return frozenset(range(6))
    if category == "roommate":
        return frozenset(range(6, 11))
    if category in ROOMMATE_KEYS:
        return frozenset((6 + ROOMMATE_KEYS.index(category),))
    if category == "active_roommate":
        return frozenset((6 + active,)) if active >= 0 else frozenset()
    assert category == "meeple", category
    return frozenset(range(TYPES))


SUPPLY_BY_TYPE = (6, 6, 6, 6, 6, 5, 1, 1, 1, 1, 1)
"""The most meeples of each type the game has (for "impossible card" checks)."""


_TYPES: dict[int, tuple[int, ...]] = {}


def room_types(room: int) -> tuple[int, ...]:
    """Counted meeples of each type in a packed room (standing and laid down; no pets);
    memoised, as every clause asks it of the same room contents."""
    found = _TYPES.get(room)
    if found is None:
        f = [(room >> (BITS * i)) & 7 for i in range(22)]
        found = (f[0] + f[6], f[1] + f[7], f[2] + f[8], f[3] + f[9], f[4] + f[10],
                 f[5] + f[11], f[12] + f[17], f[13] + f[18], f[14] + f[19], f[15] + f[20],
                 f[16] + f[21])
        if len(_TYPES) > 500_000:
            _TYPES.clear()
        _TYPES[room] = found
    return found


# -- room selectors -----------------------------------------------------------------------------

ROOM_ID = re.compile(r"^@[a-z][a-z0-9_]*$")
CONDITION_ROOMS = (*ROOM_KINDS, "any")
EFFECT_ROOMS = (*ROOM_KINDS, "any", "everywhere", "fullest", "emptiest", "active")


def check_selector(fields: Fields, key: str, value: Any, allowed: Sequence[str]) -> str:
    if not isinstance(value, str) or not (value in allowed or ROOM_ID.match(value)):
        raise fields.error(key, "a room: " + ", ".join(allowed) + ", or '@' and a room id",
                           value)
    return value


def selector_label(selector: str, article: str = "a") -> str:
    """A room selector as a noun: ``the Kitchen``, ``a Bedroom``, ``any room``."""
    if selector.startswith("@"):
        return "room " + selector[1:]
    if selector in ("any", "everywhere"):
        return "any room" if selector == "any" else "every room"
    if selector in ("fullest", "emptiest", "active"):
        return {"fullest": "the fullest room", "emptiest": "the emptiest room",
                "active": "the active roommate's room"}[selector]
    label = selector.replace("_", " ").title()
    if selector in ("kitchen", "living_room", "dining_room", "bathroom", "door", "outside",
                    "garage", "hot_tub", "office"):
        return "the " + label
    return f"{article} {label}"


def where(selector: str) -> str:
    """A room selector as a place: ``in the Kitchen``, ``outside``, ``at the Door``."""
    if selector == "outside":
        return "outside"
    if selector == "door":
        return "at the Door"
    if selector == "everywhere":
        return "anywhere"
    return "in " + selector_label(selector)


# -- conditions ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Clause:
    """Meeples wanted in one room."""

    room: str
    exactly: bool
    counts: tuple[tuple[str, int], ...]
    """``(category, n)`` in :data:`CATEGORIES` order, every ``n`` positive."""
    absent: tuple[str, ...] = ()

    def as_document(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"room": self.room, "mode": "exactly" if self.exactly else
                               "at_least"}
        doc.update(dict(self.counts))
        if self.absent:
            doc["absent"] = list(self.absent)
        return doc

    def describe(self) -> str:
        wanted = [_count_text(c, n) for c, n in self.counts]
        place = where(self.room)
        if self.exactly:
            text = (f"exactly {_join(wanted)} {place}" if wanted
                    else f"{selector_label(self.room)} empty".capitalize())
        else:
            text = f"{_join(wanted) or 'anyone'} {place}"
        if self.absent:
            text += " with no " + _join(CATEGORY_LABELS[c][1] for c in self.absent)
        return text


def _count_text(category: str, n: int) -> str:
    one, many = CATEGORY_LABELS[category]
    if category in ROOMMATE_KEYS or category == "active_roommate":
        return one
    return f"{n} {one if n == 1 else many}" if category != "meeple" or n < 4 else \
        f"{n}+ meeples"


def _join(parts: Any) -> str:
    parts = list(parts)
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


RELATIONS = ("different", "same", "any")


@dataclass(frozen=True, slots=True)
class Condition:
    """The clauses of a photo or disaster and how their rooms relate."""

    clauses: tuple[Clause, ...]
    rooms: str = "different"

    def describe(self) -> str:
        text = "; ".join(c.describe() for c in self.clauses)
        if len(self.clauses) > 1 and self.rooms != "any":
            text += f" ({self.rooms} rooms)" if self.rooms == "different" else " (same room)"
        return text

    def uses_active(self) -> bool:
        return any(cat == "active_roommate" for c in self.clauses for cat, _ in c.counts) or \
            any("active_roommate" in c.absent for c in self.clauses)


@dataclass(frozen=True, slots=True)
class Card:
    """A photo or a disaster."""

    id: str
    name: str
    condition: Condition

    def as_document(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"id": self.id, "name": self.name}
        if len(self.condition.clauses) > 1:
            doc["rooms"] = self.condition.rooms
        doc["clauses"] = [c.as_document() for c in self.condition.clauses]
        return doc

    def __str__(self) -> str:
        return f"{self.name} ({self.condition.describe()})"


# -- surprises ----------------------------------------------------------------------------------

EFFECTS = ("move", "conga", "remove", "add", "lay_down", "stand_up", "stress")
STRESS_TARGETS = ("active", "all", "others", "next", "room")


@dataclass(frozen=True, slots=True)
class Effect:
    """One effect of a surprise card.

    * ``move``: every standing meeple of category ``who`` in room ``source`` goes to room
      ``target`` (pets go along when ``who`` is ``meeple``); ``conga``: the same from the fullest
      room to the emptiest other room;
    * ``remove``: ``count`` standing guests of ``who`` in ``source`` rooms go back to the bag
      (never roommates, laid-down meeples or pets; ``count = 0`` means all of them);
    * ``add``: ``count`` meeples drawn from the bag join the party at a Door, without acting;
    * ``lay_down`` / ``stand_up``: ``count`` meeples (0: all) of ``who`` in ``source`` rooms;
    * ``stress``: ``amount`` stress (negative: relief) to the ``who`` roommates: ``active``,
      ``all``, ``others``, ``next`` or ``room`` (the players' roommates in ``source`` rooms).
    """

    do: str
    who: str = "meeple"
    source: str = "any"
    target: str = ""
    count: int = 0
    amount: int = 0

    def as_document(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"do": self.do}
        if self.do == "move":
            doc |= {"who": self.who, "from": self.source, "to": self.target}
        elif self.do in ("remove", "lay_down", "stand_up"):
            doc |= {"count": self.count, "who": self.who, "room": self.source}
        elif self.do == "add":
            doc["count"] = self.count
        elif self.do == "stress":
            doc |= {"amount": self.amount, "who": self.who}
            if self.who == "room":
                doc["room"] = self.source
        return doc

    def describe(self) -> str:
        if self.do == "conga":
            return "every standing meeple of the fullest room moves to the emptiest other room"
        if self.do == "move":
            who = "every standing meeple" if self.who == "meeple" else \
                f"every standing {CATEGORY_LABELS[self.who][0]}"
            return f"{who} {where(self.source)} moves to {selector_label(self.target)}"
        if self.do == "add":
            many = "1 meeple" if self.count == 1 else f"{self.count} meeples"
            return f"{many} from the bag join the party at a Door (no actions)"
        if self.do == "stress":
            whom = {"active": "the active roommate", "all": "every roommate",
                    "others": "every other roommate", "next": "the next player's roommate",
                    "room": f"every roommate {where(self.source)}"}[self.who]
            if self.amount >= 0:
                return f"{whom} takes {self.amount} stress"
            return f"{whom} relieves {-self.amount} stress"
        one, many = CATEGORY_LABELS[self.who]
        verbs = {"remove": ("leaves the party", "leave the party"),
                 "lay_down": ("lies down", "lie down"), "stand_up": ("stands up", "stand up")}
        singular, plural = verbs[self.do]
        if self.count == 0:
            return f"every {one} {where(self.source)} {singular}"
        noun = one if self.count == 1 else many
        verb = singular if self.count == 1 else plural
        return f"{self.count} {noun} {where(self.source)} {verb} (the active player chooses)"


@dataclass(frozen=True, slots=True)
class Surprise:
    """A surprise card; ``stays``: the white meeple stays at the party instead of going back
    into the bag (a welcomed one at a Door, a mingled one where it is)."""

    id: str
    name: str
    effects: tuple[Effect, ...]
    stays: bool = False

    def as_document(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"id": self.id, "name": self.name}
        if self.stays:
            doc["white"] = "stay"
        doc["effects"] = [e.as_document() for e in self.effects]
        return doc

    def describe(self) -> str:
        text = "; ".join(e.describe() for e in self.effects) or "nothing happens"
        return text + ("; the surprise meeple stays" if self.stays else "")

    def __str__(self) -> str:
        return f"{self.name} ({self.describe()})"


@dataclass(frozen=True)
class Cards:
    """The three decks of a game, by card index."""

    name: str
    photos: tuple[Card, ...]
    disasters: tuple[Card, ...]
    surprises: tuple[Surprise, ...]
    title: str = ""

    def as_document(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"name": self.name}
        if self.title:
            doc["title"] = self.title
        doc["photos"] = [c.as_document() for c in self.photos]
        doc["disasters"] = [c.as_document() for c in self.disasters]
        doc["surprises"] = [s.as_document() for s in self.surprises]
        return doc

    @cached_property
    def photo_ids(self) -> dict[str, int]:
        return {c.id: i for i, c in enumerate(self.photos)}

    @cached_property
    def disaster_ids(self) -> dict[str, int]:
        return {c.id: i for i, c in enumerate(self.disasters)}

    @cached_property
    def surprise_ids(self) -> dict[str, int]:
        return {c.id: i for i, c in enumerate(self.surprises)}

    def deck(self, name: str) -> tuple[Any, ...]:
        return {"photo": self.photos, "disaster": self.disasters,
                "surprise": self.surprises}[name]

    def ids(self, name: str) -> dict[str, int]:
        return {"photo": self.photo_ids, "disaster": self.disaster_ids,
                "surprise": self.surprise_ids}[name]


# -- reading ------------------------------------------------------------------------------------

CARD_ID = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


def load_cards(fields: Fields) -> Cards:
    """The three decks from a cards table (a cards file, or ``[cards]`` in a position file)."""
    name = fields.text("name", "custom")
    title = fields.text("title", "")
    photos = tuple(load_card(item) for item in fields.tables("photos", []))
    disasters = tuple(load_card(item) for item in fields.tables("disasters", []))
    surprises = tuple(load_surprise(item) for item in fields.tables("surprises", []))
    for key, deck in (("photos", photos), ("disasters", disasters), ("surprises", surprises)):
        seen: set[str] = set()
        for card in deck:
            if card.id in seen:
                raise fields.error(key, "cards with different ids", card.id)
            seen.add(card.id)
    fields.done()
    return Cards(name, photos, disasters, surprises, title)


def _card_id(fields: Fields) -> str:
    card_id = fields.text("id")
    if not CARD_ID.match(card_id):
        raise fields.error("id", "a card id of lower-case letters, digits, '-' and '_'",
                           card_id)
    return card_id


def load_card(fields: Fields) -> Card:
    card_id = _card_id(fields)
    name = fields.text("name", card_id)
    clauses = tuple(load_clause(item) for item in fields.tables("clauses"))
    if not clauses:
        raise fields.error("clauses", "at least one clause")
    rooms = fields.text("rooms", "different", choices=RELATIONS)
    fields.done()
    return Card(card_id, name, Condition(clauses, rooms))


def load_clause(fields: Fields) -> Clause:
    room = check_selector(fields, "room", fields.raw("room", "any"), CONDITION_ROOMS)
    mode = fields.text("mode", "at_least", choices=("at_least", "exactly"))
    counts = []
    for category in CATEGORIES:
        if fields.has(category):
            n = fields.integer(category, minimum=0, maximum=30)
            if n:
                counts.append((category, n))
    absent = fields.array("absent", [])
    for item in absent:
        if item not in CATEGORIES:
            raise fields.error("absent", "categories: " + ", ".join(CATEGORIES), item)
    if fields.flag("empty", False):
        if counts:
            raise fields.error("empty", "no counts in an empty-room clause", counts)
        mode = "exactly"
    fields.done()
    ordered_absent = tuple(c for c in CATEGORIES if c in absent)
    return Clause(room, mode == "exactly", tuple(counts),
                  () if mode == "exactly" else ordered_absent)


def load_surprise(fields: Fields) -> Surprise:
    card_id = _card_id(fields)
    name = fields.text("name", card_id)
    stays = fields.text("white", "bag", choices=("bag", "stay")) == "stay"
    effects = tuple(load_effect(item) for item in fields.tables("effects", []))
    fields.done()
    return Surprise(card_id, name, effects, stays)


def _category(fields: Fields, key: str, default: str) -> str:
    return fields.text(key, default, choices=CATEGORIES)


def load_effect(fields: Fields) -> Effect:
    do = fields.text("do", choices=EFFECTS)
    effect: Effect
    if do == "move":
        who = _category(fields, "who", "meeple")
        source = check_selector(fields, "from", fields.raw("from"), EFFECT_ROOMS)
        target = check_selector(fields, "to", fields.raw("to"), EFFECT_ROOMS)
        if target == "everywhere":
            raise fields.error("to", "one room (not 'everywhere')", target)
        effect = Effect("move", who, source, target)
    elif do == "conga":
        effect = Effect("conga")
    elif do in ("remove", "lay_down", "stand_up"):
        count = fields.integer("count", 1, minimum=0, maximum=30)
        who = _category(fields, "who", "guest" if do == "remove" else "meeple")
        source = check_selector(fields, "room", fields.raw("room", "any"), EFFECT_ROOMS)
        effect = Effect(do, who, source, "", count)
    elif do == "add":
        effect = Effect("add", count=fields.integer("count", 1, minimum=1, maximum=10))
    else:
        amount = fields.integer("amount", 1, minimum=-3, maximum=3)
        who = fields.text("who", "active", choices=STRESS_TARGETS)
        source = "any"
        if who == "room":
            source = check_selector(fields, "room", fields.raw("room"), EFFECT_ROOMS)
        effect = Effect("stress", who, source, "", 0, amount)
    fields.done()
    return effect


# -- evaluation on a board ------------------------------------------------------------------------

CAP = 6
"""Distances (meeples to move before a card is met) are capped here; impossible cards score it."""


class CompiledClause:
    """A clause resolved for one house and one active personality, with a per-room memo.

    ``cost(room)`` is the number of meeples that must enter or leave the packed ``room`` before
    the clause holds there (0: it holds): the missing meeples (by Hall's theorem over the
    categories, the deficiency of the best matching of meeples to wanted slots), plus, for
    EXACTLY, every meeple left unmatched, plus, for AT LEAST, every meeple of an absent category.
    """

    __slots__ = ("rooms", "exactly", "total", "subsets", "absent", "memo", "possible")

    def __init__(self, clause: Clause, rooms: tuple[int, ...], active: int) -> None:
        self.rooms = rooms
        self.exactly = clause.exactly
        demands = [(category_types(c, active), n) for c, n in clause.counts]
        self.total = sum(n for _, n in demands)
        subsets: list[tuple[int, tuple[int, ...]]] = []
        for size in range(1, len(demands) + 1):
            for group in combinations(demands, size):
                types = frozenset().union(*(t for t, _ in group))
                subsets.append((sum(n for _, n in group), tuple(sorted(types))))
        self.subsets = tuple(subsets)
        absent: set[int] = set()
        for category in clause.absent:
            absent |= category_types(category, active)
        self.absent = tuple(sorted(absent))
        self.possible = all(sum(SUPPLY_BY_TYPE[t] for t in types) >= need
                            for need, types in subsets)
        self.memo: dict[int, int] = {}

    def cost(self, room: int) -> int:
        found = self.memo.get(room)
        if found is None:
            found = self._cost(room)
            if len(self.memo) > 400_000:
                self.memo.clear()
            self.memo[room] = found
        return found

    def _cost(self, room: int) -> int:
        counts = room_types(room)
        deficiency = 0
        for need, types in self.subsets:
            short = need - sum(counts[t] for t in types)
            if short > deficiency:
                deficiency = short
        if self.exactly:
            matched = self.total - deficiency
            return deficiency + sum(counts) - matched
        return deficiency + sum(counts[t] for t in self.absent)


def same_room(clauses: Sequence[Clause]) -> Clause:
    """The clauses of a ``rooms = "same"`` condition as one clause: one set of different
    meeples in one room (a Cool roommate is not both one of "2 Cools" and "a roommate"), so
    their counts add up, their absent categories join, and it is ``exactly`` if any is.  The
    room selector is the first clause's (a label only: the rooms are those every clause
    allows)."""
    counts: dict[str, int] = {}
    for clause in clauses:
        for category, n in clause.counts:
            counts[category] = counts.get(category, 0) + n
    absent = {category for clause in clauses for category in clause.absent}
    return Clause(clauses[0].room, any(c.exactly for c in clauses),
                  tuple((c, counts[c]) for c in CATEGORIES if c in counts),
                  tuple(c for c in CATEGORIES if c in absent))


class CompiledCondition:
    """A condition resolved for one house and one active personality."""

    __slots__ = ("clauses", "relation", "possible")

    def __init__(self, condition: Condition, resolve: Callable[[str], tuple[int, ...]],
                 active: int) -> None:
        clauses = condition.clauses
        rooms = [resolve(c.room) for c in clauses]
        if condition.rooms == "same" and len(clauses) > 1:
            clauses = (same_room(clauses),)
            rooms = [tuple(r for r in rooms[0] if all(r in other for other in rooms[1:]))]
        self.clauses = tuple(CompiledClause(c, r, active)
                             for c, r in zip(clauses, rooms, strict=True))
        self.relation = condition.rooms if len(self.clauses) > 1 else "any"
        """``"any"`` or ``"different"``: a same-room condition is one clause."""
        self.possible = all(c.possible and c.rooms for c in self.clauses)
        if self.relation == "different":
            self.possible = self.possible and _injective(
                [c.rooms for c in self.clauses]) is not None

    def met(self, board: Sequence[int]) -> bool:
        if len(self.clauses) == 1:
            clause = self.clauses[0]
            cost = clause.cost
            return any(cost(board[r]) == 0 for r in clause.rooms)
        return self.cost(board) == 0

    def cost(self, board: Sequence[int]) -> int:
        """Fewest meeples to move before this condition holds, capped at :data:`CAP`."""
        if not self.possible:
            return CAP
        clauses = self.clauses
        if len(clauses) == 1:
            clause = clauses[0]
            cost = clause.cost
            return min(CAP, min(cost(board[r]) for r in clause.rooms))
        if self.relation == "any":
            return min(CAP, sum(min(c.cost(board[r]) for r in c.rooms) for c in clauses))
        options = [sorted([(c.cost(board[r]), r) for r in c.rooms]) for c in clauses]
        if len(options) == 2:
            return min(CAP, _best_pair(options[0], options[1]))
        return min(CAP, _best_assignment(options))


def _best_pair(first: list[tuple[int, int]], second: list[tuple[int, int]]) -> int:
    """The least cost of two clauses in two different rooms (both lists sorted by cost)."""
    best = CAP
    for cost, room in first:
        if cost >= best:
            break
        for other, other_room in second:
            if cost + other >= best:
                break
            if other_room != room:
                best = cost + other
                break
    return best


def _best_assignment(options: list[list[tuple[int, int]]]) -> int:
    """The least total cost of giving each clause its own room (each list sorted by cost)."""
    best = CAP

    def place(i: int, used: frozenset[int], total: int) -> None:
        nonlocal best
        if total >= best:
            return
        if i == len(options):
            best = total
            return
        for cost, room in options[i]:
            if total + cost >= best:
                break
            if room not in used:
                place(i + 1, used | {room}, total + cost)

    place(0, frozenset(), 0)
    return best


def _injective(room_sets: list[tuple[int, ...]]) -> tuple[int, ...] | None:
    for rooms in permutations(sorted(set().union(*room_sets)), len(room_sets)):
        if all(r in s for r, s in zip(rooms, room_sets, strict=True)):
            return rooms
    return None

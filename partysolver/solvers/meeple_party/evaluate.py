"""The value of a turn's outcome: steps 3 and 4 on a board, the stress refresh, the table score.

A turn is ranked by a vector compared in order (the spec's four criteria, with the two
end-of-party checks in front, which only matter when the party can end this turn):

1. the probability that the party is won this turn;
2. minus the probability that it is lost (every roommate stressed out);
3. minus the expected stress the turn adds to the roommates (a party foul adds 1 to each roommate
   not at 3, a refresh adds 1 to the active player, two photos take 1 away, the Hot Tub too);
4. minus the expected party fouls (disasters met at step 3): at equal stress a clean turn ranks
   before one whose foul the photo bonus pays back;
5. the expected photos taken (in the Hot Tub challenge: meeples in the Hot Tub);
6. the expected *table score*, a look-ahead for the next turns: minus 3 for every other player's
   disaster already met, minus the *distance* of every photo still at the table (the other
   players' and the active player's untaken ones): the fewest meeples that must enter or leave
   rooms before it is met (:class:`~partysolver.models.meeple_party.cards.CompiledClause`),
   capped at 6.  A won or lost party has table score 0 (nothing is left to prepare).

Values are tuples; :func:`rank_key` rounds them so that equal expectations summed in different
orders compare equal.

Speed: every card at the table is a *term* whose value on a board is the least cost over its
rooms.  :class:`TermTable` keeps, per room and per packed room content, the tuple of every
term's cost there, so a board's term values are one dictionary lookup per room and an
element-wise minimum.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ...models.meeple_party.board import (
    COOL,
    DOG_ACTION,
    FLIRT,
    JERK,
    PARTY_ANIMAL,
    WALLFLOWER,
    Board,
    counted,
)
from ...models.meeple_party.cards import (
    CAP,
    CompiledClause,
    CompiledCondition,
    _best_assignment,
)
from ...models.meeple_party.game import BITS, MAX_STRESS, ROOMMATE, Slot, laid_of
from ...models.meeple_party.state import MeeplePartyState

_TYPE_OF = tuple(p if p < 6 else p - 6 if p < 17 else p - 11 for p in range(22))
"""The card type of each counted piece (see :func:`~..cards.room_types`)."""
_PULLS = frozenset((FLIRT, PARTY_ANIMAL, COOL, DOG_ACTION))
_PUSHES = frozenset((WALLFLOWER, JERK))

Value = tuple[float, float, float, float, float, float]
"""(P(win), -P(loss), -E[stress added], -E[party fouls], E[photos], E[table score])."""

VALUE_FIGURES = ("win", "loss", "stress", "fouls", "photos", "table")
WIN, LOSS, STRESS, FOULS, PHOTOS, TABLE = range(len(VALUE_FIGURES))
"""Where each figure stands in a :data:`Value` (loss, stress and fouls negated: higher is
better in every place)."""

W_DISASTER = 3
"""Table score of another player's disaster already met (about three meeple moves)."""

DIGITS = 9


def rank_key(value: Value) -> tuple[float, ...]:
    """The value rounded for comparisons (equal expectations summed in different orders)."""
    a, b, c, d, e, f = value
    return (round(a, DIGITS), round(b, DIGITS), round(c, DIGITS), round(d, DIGITS),
            round(e, DIGITS), round(f, DIGITS))


def mean(values: Sequence[tuple[float, Value]]) -> Value:
    """The probability-weighted mean of values."""
    total = [0.0] * 6
    for p, value in values:
        for i in range(6):
            total[i] += p * value[i]
    return (total[0], total[1], total[2], total[3], total[4], total[5])


def figures(value: Value, photos_first: bool = False) -> dict[str, float]:
    """A value's figures by name, as reports show them: ``win`` and ``loss`` (probabilities),
    ``stress`` and ``fouls`` (expected, added by the turn), ``photos`` (expected; in the Hot
    Tub challenge the meeples in the Hot Tub) and ``table`` (the expected table score)."""
    if photos_first:
        value = (value[1], value[2], value[3], value[4], value[0], value[5])
    return {"win": round(value[WIN], 6), "loss": round(-value[LOSS], 6) + 0.0,
            "stress": round(-value[STRESS], 6) + 0.0, "fouls": round(-value[FOULS], 6) + 0.0,
            "photos": round(value[PHOTOS], 6), "table": round(value[TABLE], 6) + 0.0}


class TermTable:
    """Card conditions evaluated on boards through per-room cost vectors (memoised).

    Every clause of every condition is one column: a room's vector holds each clause's cost in
    that room (:data:`CAP` where the clause cannot be).  A one-clause condition is the least of
    its column; several clauses combine their columns (different rooms, or any; a same-room
    card is one clause, :func:`~...models.meeple_party.cards.same_room`)."""

    def __init__(self, conditions: Sequence[CompiledCondition], rooms: int) -> None:
        self.conditions = list(conditions)
        self.columns: list[tuple[CompiledClause, frozenset[int]]] = []
        self.plan: list[tuple[str, tuple[int, ...]]] = []
        for condition in conditions:
            if not condition.possible:
                self.plan.append(("impossible", ()))
                continue
            first = len(self.columns)
            for clause in condition.clauses:
                self.columns.append((clause, frozenset(clause.rooms)))
            ks = tuple(range(first, len(self.columns)))
            self.plan.append((condition.relation if len(ks) > 1 else "one", ks))
        self.simple = all(kind in ("one", "impossible") for kind, _ in self.plan)
        self.memo: list[dict[int, tuple[int, ...]]] = [{} for _ in range(rooms)]
        self.rooms = rooms
        self.firsts = [ks[0] if ks else 0 for _, ks in self.plan]
        """Each condition's first column (a one-clause condition's cost is its column's min)."""
        self.several = [(t, kind, ks) for t, (kind, ks) in enumerate(self.plan)
                        if kind != "one"]
        """Conditions that are not one clause: their cost combines columns (or is CAP)."""

    def vector(self, room: int, content: int) -> tuple[int, ...]:
        found = self.memo[room].get(content)
        if found is None:
            found = tuple(min(CAP, clause.cost(content)) if room in rooms else CAP
                          for clause, rooms in self.columns)
            self.memo[room][content] = found
        return found

    def _columns(self, board: Board) -> tuple[list[int], list[tuple[int, ...]]]:
        """Every clause's least cost over the rooms of ``board``, and the per-room costs."""
        memo = self.memo
        vectors = []
        for r, content in enumerate(board):
            found = memo[r].get(content)
            vectors.append(found if found is not None else self.vector(r, content))
        mins = list(map(min, *vectors)) if len(vectors) > 1 else list(vectors[0])
        return mins, vectors

    def values(self, board: Board) -> list[int]:
        """Every condition's cost on ``board`` (0: met), capped at :data:`CAP`."""
        if not self.columns:
            return [CAP] * len(self.plan)
        mins, vectors = self._columns(board)
        return self._combine(mins, vectors)

    def lower(self, board: Board, exact: frozenset[int], unmet: frozenset[int]) -> list[int]:
        """:meth:`NearBoard.lower` on a whole board."""
        if not self.columns:
            return [CAP] * len(self.plan)
        mins, vectors = self._columns(board)
        return self.bounded(mins, exact, unmet, lambda t, kind, ks: min(
            CAP, _different_rooms([[v[k] for v in vectors] for k in ks])))

    def bounded(self, mins: list[int], exact: frozenset[int], unmet: frozenset[int],
                several: Callable[[int, str, tuple[int, ...]], int]) -> list[int]:
        """Term costs from the columns' least costs where that is cheap, lower bounds
        elsewhere (see :meth:`NearBoard.lower`); ``several`` gives the exact cost of a
        condition of several clauses."""
        m = [mins[k] for k in self.firsts]
        for t, kind, ks in self.several:
            if kind == "impossible":
                m[t] = CAP
                continue
            low = sum(mins[k] for k in ks)
            if low or kind == "any":
                m[t] = low if low < CAP else CAP
            elif t in exact:
                m[t] = several(t, kind, ks)
            else:
                m[t] = 1 if t in unmet else 0
        return m

    def near(self, base: Board) -> NearBoard:
        """Evaluation of boards that differ from ``base`` in a few rooms (a mingle's)."""
        return NearBoard(self, base)

    def _combine(self, mins: list[int], vectors: Sequence[tuple[int, ...]]) -> list[int]:
        if self.simple:
            return [mins[ks[0]] if kind == "one" else CAP for kind, ks in self.plan]
        result = []
        for kind, ks in self.plan:
            if kind == "one":
                result.append(mins[ks[0]])
            elif kind == "impossible":
                result.append(CAP)
            elif kind == "any":
                result.append(min(CAP, sum(mins[k] for k in ks)))
            else:
                result.append(min(CAP, _different_rooms([[v[k] for v in vectors] for k in ks])))
        return result


class PlainTable:
    """The naive :class:`TermTable`: each condition evaluated on the whole board, every time
    (the brute-force baseline scores with this)."""

    def __init__(self, conditions: Sequence[CompiledCondition], rooms: int) -> None:
        self.conditions = list(conditions)

    def values(self, board: Board) -> list[int]:
        return [c.cost(board) for c in self.conditions]

    def near(self, base: Board) -> PlainNear:
        return PlainNear(self)


class PlainNear:
    def __init__(self, table: PlainTable) -> None:
        self.table = table

    def values(self, board: Board, changed: tuple[int, ...]) -> list[int]:
        return self.table.values(board)


class PlainMasks:
    """The naive :class:`MetMasks`: each condition asked on the whole board."""

    def __init__(self, conditions: Sequence[CompiledCondition], rooms: int) -> None:
        self.conditions = list(conditions)

    def count(self, board: Board) -> int:
        return sum(1 for c in self.conditions if c.met(board))


class NearBoard:
    """:meth:`TermTable.values` for boards close to a base board: the element-wise minimum of
    the unchanged rooms' vectors is kept per set of changed rooms, so a board costs one lookup
    per changed room."""

    def __init__(self, table: TermTable, base: Board) -> None:
        self.table = table
        self.base = base
        self.vectors = [table.vector(r, content) for r, content in enumerate(base)]
        self.rest: dict[tuple[int, ...], tuple[int, ...]] = {}
        self.columns = [[[v[k] for v in self.vectors] for k in ks] if kind == "different"
                        else [] for kind, ks in table.plan]
        """Per-room costs of the base board for each clause of a several-clause condition."""
        self.masks: dict[tuple[int, tuple[int, ...]], int] = {}
        """Unions of met masks over the unchanged rooms (see :meth:`MetMasks.count_near`)."""
        self.decks: dict[str, NearBoard] = {}
        """The same for a deck's cards (the photo deck's costs, :meth:`Evaluator._photo_costs`)."""

    def rest_of(self, changed: tuple[int, ...]) -> tuple[int, ...]:
        """The element-wise minimum of the vectors of the rooms not ``changed`` (kept)."""
        others = [v for r, v in enumerate(self.vectors) if r not in changed]
        if not others:
            rest = (CAP,) * len(self.table.columns)
        elif len(others) == 1:
            rest = others[0]
        else:
            rest = tuple(map(min, *others))
        self.rest[changed] = rest
        return rest

    def mins(self, board: Board, changed: tuple[int, ...]
             ) -> tuple[list[int], list[tuple[int, ...]]]:
        """Every column's least cost over the rooms of ``board`` (which equals the base outside
        the rooms ``changed``), and the changed rooms' vectors."""
        table = self.table
        rest = self.rest.get(changed)
        if rest is None:
            rest = self.rest_of(changed)
        memo = table.memo
        fresh = []
        for r in changed:
            content = board[r]
            found = memo[r].get(content)
            fresh.append(found if found is not None else table.vector(r, content))
        return (list(map(min, rest, *fresh)) if fresh else list(rest)), fresh

    def lower(self, board: Board, changed: tuple[int, ...], exact: frozenset[int],
              unmet: frozenset[int]) -> list[int]:
        """Term costs of ``board`` where they are cheap, lower bounds elsewhere: a condition of
        several clauses in the same or different rooms costs at least the sum of its clauses'
        least costs.  Terms in ``exact`` are exact about being met (cost 0) or not, which is
        all that is read of them (the active player's cards and the disasters checked this
        turn); their cost when unmet may be that lower bound.  A bounded term of ``unmet`` whose
        bound is 0 reads 1 (not known to be met: the table score's upper bound counts only
        disasters surely met).  A bound above 0 is enough for every term: the card is not
        met, and its cost only enters the table score."""
        table = self.table
        if not table.columns:
            return [CAP] * len(table.plan)
        mins, fresh = self.mins(board, changed)
        return table.bounded(mins, exact, unmet,
                             lambda t, kind, ks: self._several(t, kind, ks, changed, fresh))

    def _several(self, t: int, kind: str, ks: tuple[int, ...], changed: tuple[int, ...],
                 fresh: list[tuple[int, ...]]) -> int:
        """The exact cost of condition ``t`` (clauses in the same or different rooms)."""
        columns = [column[:] for column in self.columns[t]]
        for r, v in zip(changed, fresh, strict=True):
            for column, k in zip(columns, ks, strict=True):
                column[r] = v[k]
        return min(CAP, _different_rooms(columns))

    def values(self, board: Board, changed: tuple[int, ...]) -> list[int]:
        """Term costs of ``board``, which equals the base outside the rooms ``changed``
        (sorted, without repeats)."""
        table = self.table
        if not table.columns:
            return [CAP] * len(table.plan)
        mins, fresh = self.mins(board, changed)
        if table.simple:
            return table._combine(mins, ())
        result = []
        for t, (kind, ks) in enumerate(table.plan):
            if kind == "one":
                result.append(mins[ks[0]])
            elif kind == "impossible":
                result.append(CAP)
            elif kind == "any":
                result.append(min(CAP, sum(mins[k] for k in ks)))
            else:
                result.append(self._several(t, kind, ks, changed, fresh))
        return result


def _different_rooms(columns: list[list[int]]) -> int:
    """The least total cost of putting each clause (a column of per-room costs) in its own
    room."""
    if len(columns) == 2:
        first, second = columns
        low1, low2 = min(first), min(second)
        a, b = first.index(low1), second.index(low2)
        if a != b:
            return low1 + low2
        # both want the same room: one of them takes its best other room
        rest2 = min(second[:a] + second[a + 1:], default=CAP)
        rest1 = min(first[:b] + first[b + 1:], default=CAP)
        return min(low1 + rest2, rest1 + low2)
    options = [sorted((c, r) for r, c in enumerate(column)) for column in columns]
    return _best_assignment(options)


class MetMasks:
    """How many of many conditions are met on a board, from a bit mask per room content: bit
    ``k`` is set when clause ``k`` (of any condition) holds in that room.  A one-clause
    condition is met when its bit is set in some room; several clauses need rooms of their own
    (a distinct room for each), one room for all, or any rooms, as their relation says."""

    def __init__(self, conditions: Sequence[CompiledCondition], rooms: int) -> None:
        self.columns: list[tuple[CompiledClause, frozenset[int]]] = []
        self.simple_bits = 0
        self.multi: list[tuple[str, tuple[int, ...]]] = []
        for condition in conditions:
            if not condition.possible:
                continue
            first = len(self.columns)
            for clause in condition.clauses:
                self.columns.append((clause, frozenset(clause.rooms)))
            if len(condition.clauses) == 1:
                self.simple_bits |= 1 << first
            else:
                self.multi.append((condition.relation,
                                   tuple(range(first, len(self.columns)))))
        self.memo: list[dict[int, int]] = [{} for _ in range(rooms)]
        self.counted: dict[tuple[int, ...], int] = {}
        """Conditions met by the rooms' masks (the several-clause conditions make counting
        them slow), by the masks."""

    def mask(self, room: int, content: int) -> int:
        found = self.memo[room].get(content)
        if found is None:
            found = 0
            for k, (clause, rooms) in enumerate(self.columns):
                if room in rooms and clause.cost(content) == 0:
                    found |= 1 << k
            self.memo[room][content] = found
        return found

    def count(self, board: Board) -> int:
        memo = self.memo
        masks = []
        total = 0
        for r, content in enumerate(board):
            found = memo[r].get(content)
            if found is None:
                found = self.mask(r, content)
            masks.append(found)
            total |= found
        return self._count(total, masks)

    def count_near(self, board: Board, near: NearBoard, changed: tuple[int, ...]) -> int:
        """:meth:`count` for a board that differs from ``near``'s base in ``changed`` rooms:
        the union over the other rooms is kept per set of changed rooms."""
        key = (id(self), changed)
        rest = near.masks.get(key)
        if rest is None:
            rest = 0
            for r, content in enumerate(near.base):
                if r not in changed:
                    rest |= self.mask(r, content)
            near.masks[key] = rest
        total = rest
        memo = self.memo
        for r in changed:
            found = memo[r].get(board[r])
            total |= found if found is not None else self.mask(r, board[r])
        if not self.multi:
            return (total & self.simple_bits).bit_count()
        masks = [self.mask(r, content) for r, content in enumerate(board)]
        return self._count(total, masks)

    def _count(self, total: int, masks: list[int]) -> int:
        met = (total & self.simple_bits).bit_count()
        if not self.multi:
            return met
        key = tuple(masks)
        found = self.counted.get(key)
        if found is not None:
            return found
        for relation, bits in self.multi:
            need = sum(1 << k for k in bits)
            if total & need != need:
                continue
            if relation == "any":
                met += 1
            else:
                rooms = [[r for r, m in enumerate(masks) if m >> k & 1] for k in bits]
                met += _distinct_rooms(rooms)
        if len(self.counted) > 200_000:
            self.counted.clear()
        self.counted[key] = met
        return met


def _distinct_rooms(rooms: list[list[int]], used: frozenset[int] = frozenset()) -> bool:
    """Whether each clause can have a room of its own among those where it holds."""
    if not rooms:
        return True
    return any(_distinct_rooms(rooms[1:], used | {r}) for r in rooms[0] if r not in used)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a deterministic end of the turn achieves (for explanations)."""

    fouls: tuple[Slot, ...]
    photos: tuple[int, ...]
    """Photo cards taken."""
    stress: tuple[int, ...]
    won: bool
    lost: bool
    disasters_met: int
    """Other players' disasters met after the turn."""
    distance: int
    """Total distance of the photos still at the table."""


class Evaluator:
    """Evaluates the ends of one turn.  Built from any state of the turn before step 3: the
    cards at the table and the decks do not change until the refresh."""

    def __init__(self, root: MeeplePartyState, photos_first: bool = False,
                 memo: bool = True) -> None:
        self.root = root
        self.memo = memo
        """Remember end values by their summary, and evaluate cards through per-room tables.
        The brute-force baseline turns this off: every card is evaluated on the whole board,
        every time (the same end-of-turn logic, no shortcut)."""
        self.photos_first = photos_first
        """Rank photos (then the win) before everything else: the most photos a turn can take
        (the scenario solver's bound).  Values then read (photos, P(win), -P(loss), -stress,
        -fouls, table)."""
        setup = root.setup
        self.setup = setup
        a = self.active = root.active
        self.personality = root.active_personality
        self.sum0 = sum(root.stress)
        self.taken0 = root.taken
        self.target = setup.photos_to_win
        self.party = setup.uses_photos
        self.relief_rooms = frozenset(setup.house.relief_rooms)
        self._relief_list = tuple(sorted(self.relief_rooms))
        self._roommate_masks = tuple(
            (7 << (BITS * (ROOMMATE + p))) | (7 << (BITS * laid_of(ROOMMATE + p)))
            for p in setup.roommates)
        """Per seat, the fields of its roommate (standing or laid down)."""
        self.hot_tubs = setup.house.of_kind("hot_tub")
        terms: list[CompiledCondition] = []
        self.slots: list[Slot] = []

        def add(slot: Slot, deck: str, card: int) -> int:
            terms.append(self.condition(deck, card))
            self.slots.append(slot)
            return len(terms) - 1

        self.own_photos = [add(("photo", a, i), "photo", c)
                           for i, c in enumerate(root.photos[a]) if c >= 0]
        own_d = root.disasters[a] if root.disasters else -1
        self.own_disaster = add(("disaster", a, 0), "disaster", own_d) if own_d >= 0 else -1
        self.communal = add(("communal", -1, 0), "disaster", root.communal) \
            if root.communal >= 0 else -1
        self.other_photos = [add(("photo", s, i), "photo", c)
                             for s in range(root.num_players) if s != a
                             for i, c in enumerate(root.photos[s]) if c >= 0]
        self.other_disasters = [add(("disaster", s, 0), "disaster", d)
                                for s, d in enumerate(root.disasters) if s != a and d >= 0]
        self.terms: Any = TermTable(terms, setup.house.size) if memo else \
            PlainTable(terms, setup.house.size)
        self.checked = tuple(i for i in (self.own_disaster, self.communal) if i >= 0)
        """The disasters checked at the end of this turn (the active player's, the communal)."""
        keys = len(self.own_photos) + len(self.checked)
        self.key_table = TermTable(terms[:keys], setup.house.size)
        """The active player's cards and the checked disasters (the first terms): they decide
        fouls, photos and the win (see :meth:`upper_key`)."""
        self._key_exact = frozenset(range(keys))
        self._others = [0] * len(self.other_photos) + [CAP] * len(self.other_disasters)
        """The other terms at their best for the table score: photos met, disasters not."""
        self._relevant = self._relevance()
        self._present: dict[int, int] = {}
        self.uppers_key_by_stress: dict[tuple[int, ...], dict[object, tuple[float, ...]]] = {}
        """:meth:`upper_key`'s values per stress, keyed as :meth:`key_bounder` keys them."""
        self.slot_terms = {slot: i for i, slot in enumerate(self.slots)}
        if setup.ordered:  # a perfect-information scenario: a refresh draws the top card
            self.decks = {"photo": root.photo_deck[:1], "disaster": root.disaster_deck[:1]}
        else:
            self.decks = {"photo": root.photo_deck, "disaster": root.disaster_deck}
        self.disaster_masks: Any = None
        self._near: tuple[NearBoard | None, tuple[int, ...]] = (None, ())
        self.deck_tables: dict[str, Any] = {}
        self.photo_masks: Any = None
        self._deck_counts: tuple[Board | None, dict[int, int]] = (None, {})
        self.summaries: dict[tuple[object, ...], tuple[Value, Slot | None]] = {}
        self.refresh_order = [slot for slot in root.slots() if root.card_at(slot) >= 0
                              and slot in self.slots]
        self.evaluations = 0
        self.key_terms = frozenset(i for i in (*self.own_photos, self.own_disaster,
                                               self.communal) if i >= 0)
        """Terms that decide fouls, photos and the win: exact even in :meth:`upper`."""
        self.unmet_terms = frozenset(self.other_disasters)
        self.uppers: dict[tuple[object, ...], tuple[float, ...]] = {}
        space = setup.start_space + root.taken
        icons = setup.clock.icons
        self.refresh_icon = [icons[(space + k) % len(icons)] == "refresh_disasters"
                             for k in range(3)]

    def relief_of(self, board: Board) -> tuple[int, ...]:
        """:meth:`relieved`, or ``()`` when the house has no room that relieves stress."""
        return self.relieved(board) if self.relief_rooms else ()

    def relieved(self, board: Sequence[int]) -> tuple[int, ...]:
        """Per seat, 1 when its roommate is in a room that relieves stress (the Hot Tub)."""
        rooms = self._relief_list
        if len(rooms) == 1:
            content = board[rooms[0]]
            return tuple(1 if content & mask else 0 for mask in self._roommate_masks)
        return tuple(1 if any(board[r] & mask for r in rooms) else 0
                     for mask in self._roommate_masks)

    def _relevance(self) -> list[int]:
        """Per piece, a bit mask of the rooms where moving it in or out can change a term of
        :attr:`key_table` (or the Hot Tub's relief, or the Hot Tub count).  A card's cost in a
        room reads only the counts of the meeple types its clause names (all types for
        EXACTLY), so a piece of another type, or in a room the clause does not look at, changes
        nothing it reads."""
        rooms = self.setup.house.size
        masks = [0] * 24
        for clause, where in self.key_table.columns:
            if clause.exactly:
                types = set(range(11))
            else:
                types = {t for _, group in clause.subsets for t in group} | set(clause.absent)
            bits = sum(1 << r for r in where if r < rooms)
            for piece in range(22):
                if _TYPE_OF[piece] in types:
                    masks[piece] |= bits
        relief = sum(1 << r for r in self.relief_rooms)
        for piece in range(ROOMMATE, 22):
            masks[piece] |= relief
        if not self.party:
            tubs = sum(1 << r for r in self.hot_tubs)
            for piece in range(22):
                masks[piece] |= tubs
        return masks

    def present(self, content: int) -> int:
        """The union of :meth:`_relevance` masks of the pieces in a packed room."""
        found = self._present.get(content)
        if found is None:
            found = 0
            for piece in range(24):
                if (content >> (BITS * piece)) & 7:
                    found |= self._relevant[piece]
            self._present[content] = found
        return found

    def quiet(self, moved: Board, piece: int, src: int, dst: int, kinds: Sequence[int],
              house: Any) -> bool:
        """Whether no outcome of a mingle move changes what :meth:`upper_key` reads: the mover
        (from ``src`` to ``dst``, giving the board ``moved``) and every meeple its action (of
        each of ``kinds``) could move are irrelevant where they leave and arrive."""
        relevant = self._relevant
        if relevant[piece] & ((1 << src) | (1 << dst)):
            return False
        present = self.present
        for kind in kinds:
            if kind in _PULLS:
                sources = house.two_away[dst] if kind == PARTY_ANIMAL else house.adjacent[dst]
                for room in sources:
                    content = moved[room]
                    if content and present(content) & ((1 << room) | (1 << dst)):
                        return False
            elif kind in _PUSHES:
                targets = house.two_away[dst] if kind == JERK else house.adjacent[dst]
                bits = (1 << dst) | sum(1 << r for r in targets)
                if present(moved[dst]) & bits:
                    return False
        return True

    def condition(self, deck: str, card: int) -> CompiledCondition:
        return self.setup.condition(deck, card, self.personality)

    def term_of(self, slot: Slot) -> int:
        return self.slot_terms[slot]

    # -- steps 3 and 4 --------------------------------------------------------------------------

    def assemble(self, board: Board, stress: Sequence[int], m: Sequence[int], refreshed: bool
                 ) -> Value:
        """The value of ending the turn on ``board`` with ``stress`` and term costs ``m``."""
        value = self._assemble(board, stress, m, refreshed)
        if self.photos_first:
            return (value[4], value[0], value[1], value[2], value[3], value[5])
        return value

    def _assemble(self, board: Board, stress: Sequence[int], m: Sequence[int],
                  refreshed: bool) -> Value:
        a = self.active
        s = list(stress)
        if refreshed:
            s[a] += 1
            if min(s) >= MAX_STRESS:
                return (0.0, -1.0, -float(sum(s) - self.sum0), 0.0, 0.0, 0.0)
        fouls = 0
        if self.own_disaster >= 0 and m[self.own_disaster] == 0:
            fouls += 1
        if self.communal >= 0 and m[self.communal] == 0:
            fouls += 1
        for _ in range(fouls):
            s = [x + 1 if x < MAX_STRESS else x for x in s]
        if fouls and min(s) >= MAX_STRESS:
            return (0.0, -1.0, -float(sum(s) - self.sum0), -float(fouls), 0.0, 0.0)
        photos = 0
        distance = 0
        if self.party:
            for i in self.own_photos:
                if m[i] == 0:
                    photos += 1
                else:
                    distance += m[i]
            if photos == 2 and s[a] > 0:
                s[a] -= 1
        if self.relief_rooms:
            for seat, flag in enumerate(self.relieved(board)):
                if flag and s[seat] > 0:
                    s[seat] -= 1
        added = -float(sum(s) - self.sum0)
        if not self.party:
            progress = float(sum(counted(board[r]) for r in self.hot_tubs))
            photos = 0
        else:
            progress = float(photos)
            if self.taken0 + photos >= self.target:
                return (1.0, 0.0, added, -float(fouls), progress, 0.0)
        for i in self.other_photos:
            distance += m[i]
        disasters = 0
        if not (photos and self.refresh_icon[photos]):
            for i in self.other_disasters:
                if m[i] == 0:
                    disasters += 1
        return (0.0, 0.0, added, -float(fouls), progress,
                -float(W_DISASTER * disasters + distance))

    # -- the end of a turn, with the optional refresh ---------------------------------------------

    def end(self, board: Board, stress: tuple[int, ...], m: list[int] | None = None,
            near: NearBoard | None = None, changed: tuple[int, ...] = ()
            ) -> tuple[Value, Slot | None]:
        """The best value of ending the turn here and the refresh that reaches it (``None``:
        no refresh).  Exact; a refresh is skipped only when it provably cannot beat the best:

        * refreshing a card that is neither a met disaster checked this turn nor an unmet photo
          of the active player changes no foul and no photo, so it only adds the refresh's
          stress, which stays in the total unless the active player ends at 3 (capped) or at 0
          (the relief is lost): outside those cases it is strictly worse;
        * an unmet photo of the active player is worth refreshing only for the photo bonus (the
          other photo is met) or to win; otherwise the extra stress is again strictly worse;
        * every other refresh is bounded by its best possible new card and skipped when the
          bound does not beat the best value found.
        """
        self.evaluations += 1
        if m is None:
            m = near.values(board, changed) if near is not None else self.terms.values(board)
        self._near = (near, changed)
        try:
            return self._end(board, stress, m)
        finally:
            self._near = (None, ())

    def _end(self, board: Board, stress: tuple[int, ...], m: list[int]
             ) -> tuple[Value, Slot | None]:
        extra = self._hot_tub(board)
        # The memo key holds everything the answer reads: the cards' costs, the stress, the
        # Hot Tub, and (only when they matter) how many deck cards this board meets and, for a
        # photo refresh, how many deck photos cost each cost here.
        photo_count = self.photo_met_count(board) if self._photo_gate(stress, m) else -1
        key: tuple[object, ...] = (tuple(m), stress, extra, photo_count)
        if not self.memo:
            self.summaries.clear()
        found = self.summaries.get(key)
        if found is not None:
            return found
        best = self.assemble(board, stress, m, False)
        candidates = self._candidates(board, stress, m, photo_count)
        if not candidates:
            self.summaries[key] = (best, None)
            return best, None
        if self.decks["disaster"] and any(slot[0] != "photo" for slot in candidates):
            key = key + (self.met_count(board),)
            found = self.summaries.get(key)
            if found is not None:
                return found
        board_dependent = False
        best_key = rank_key(best)
        best_order = -1
        choice: Slot | None = None
        # Disasters first: when one is met its refresh is usually the best, and it bounds the
        # photo refreshes (whose values depend on the whole board) out early.  Equal values
        # keep the earlier choice in the game's order (no refresh, photos, disasters).
        order = {slot: k for k, slot in enumerate(self.refresh_order)}
        for slot in sorted(candidates, key=lambda c: (c[0] == "photo", order[c])):
            deck_name = "photo" if slot[0] == "photo" else "disaster"
            if not self.decks[deck_name]:
                continue
            rank = order[slot]
            i = self.term_of(slot)
            ideal = list(m)
            ideal[i] = 0 if slot[0] == "photo" else CAP
            bound = rank_key(self.assemble(board, stress, ideal, True))
            if bound < best_key or (bound == best_key and rank > best_order):
                continue
            if deck_name == "photo" and photo_count >= 0:
                # the new card is met with probability photo_count / n, whatever the costs
                # of the others: with every unmet card at its best cost (1) this bound is
                # exact but for the table score, and usually settles the comparison
                n = len(self.decks["photo"])
                unmet = list(m)
                unmet[i] = 1
                parts = [(photo_count / n, self.assemble(board, stress, ideal, True)),
                         ((n - photo_count) / n, self.assemble(board, stress, unmet, True))]
                bound = rank_key(mean([part for part in parts if part[0] > 0]))
                if bound < best_key or (bound == best_key and rank > best_order):
                    continue
            if deck_name == "photo" and not board_dependent:
                # a photo refresh reads the board through the deck's costs on it: with their
                # histogram in the key, the answer is remembered again
                board_dependent = True
                key = key + (tuple(sorted(self._photo_costs(board).items())),)
                found = self.summaries.get(key)
                if found is not None:
                    return found
            value = self.refresh_value(board, stress, m, i, deck_name,
                                       best_key if rank > best_order else None)
            if value is None:
                continue
            key2 = rank_key(value)
            if key2 > best_key or (key2 == best_key and rank < best_order):
                best, best_key, best_order, choice = value, key2, rank, slot
        self.summaries[key] = (best, choice)
        return best, choice

    # -- an upper bound of the end of a turn, cheaply ----------------------------------------------

    def upper(self, board: Board, stress: tuple[int, ...], near: NearBoard | None = None,
              changed: tuple[int, ...] = ()) -> tuple[float, ...]:
        """A bound on :meth:`end`'s ranking of ``board``: no end value ranks above it.

        Fouls, photos, the win and the loss read the active player's cards and the checked
        disasters, which are exact here; the other cards only lower the table score, and are
        bounded from below (a condition of several clauses costs at least the sum of its
        clauses' least costs; another player's disaster counts only when surely met).  Each
        refresh that :meth:`end` may choose is bounded by its best possible new card (the new
        card met for a photo, not met for a disaster), as :meth:`end` itself does: that bounds
        every card of the deck, hence their average.  The bound is the element-wise maximum of
        these, so it ranks at least as high as each."""
        if near is not None:
            m = near.lower(board, changed, self.key_terms, self.unmet_terms)
        else:
            m = self.terms.lower(board, self.key_terms, self.unmet_terms)
        extra = self._hot_tub(board)
        key = (tuple(m), stress, extra)
        found = self.uppers.get(key)
        if found is None:
            found = self.uppers[key] = self._upper(board, stress, m)
        return found

    def _hot_tub(self, board: Board) -> tuple[int, ...]:
        """What a value reads of ``board`` beyond the cards' costs and the stress: the roommates
        the Hot Tub relieves, and (in the Hot Tub challenge) how many meeples are in it."""
        extra = self.relief_of(board)
        if not self.party:
            extra += (sum(counted(board[r]) for r in self.hot_tubs),)
        return extra

    def upper_key(self, board: Board, stress: tuple[int, ...], near: NearBoard | None = None,
                  changed: tuple[int, ...] = ()) -> tuple[float, ...]:
        """A coarser bound than :meth:`upper`, from the active player's cards and the checked
        disasters alone (every other card at its best for the table score): it costs a few
        columns per board instead of every card's, and most ends fall below the best on
        fouls, photos or stress already."""
        if near is not None:
            m = near.lower(board, changed, self._key_exact, frozenset())
        else:
            m = self.key_table.lower(board, self._key_exact, frozenset())
        key: tuple[object, ...] = tuple(m)
        if self.relief_rooms:
            key = (key, self.relieved(board))
        if not self.party:
            key = (key, sum(counted(board[r]) for r in self.hot_tubs))
        uppers = self.uppers_key_by_stress.setdefault(stress, {})
        found = uppers.get(key)
        if found is None:
            found = uppers[key] = self._upper(board, stress, m + self._others)
        return found

    def key_bounder(self, base: Board, stress: tuple[int, ...]
                    ) -> Callable[[Board, tuple[int, ...]], tuple[float, ...]]:
        """:meth:`upper_key` for boards that differ from ``base`` in the rooms given, with
        ``stress``, as one function with everything it reads at hand (the mingle's hot loop
        calls it once per distinct end)."""
        table = self.key_table
        near = table.near(base)
        simple = all(kind == "one" for kind, _ in table.plan) and \
            table.firsts == list(range(len(table.columns)))
        """Each term one column: the columns' least costs are the terms' costs."""
        exact = self._key_exact
        nothing: frozenset[int] = frozenset()
        several = near._several
        bounded = table.bounded
        memo = table.memo
        vector = table.vector
        rests = near.rest
        uppers = self.uppers_key_by_stress.setdefault(stress, {})
        relieved = self.relieved if self.relief_rooms else None
        relief_rooms = self.relief_rooms
        base_relieved = self.relief_of(base)
        hot_tubs = None if self.party else self.hot_tubs
        others = self._others
        upper = self._upper

        def bound(board: Board, changed: tuple[int, ...]) -> tuple[float, ...]:
            rest = rests.get(changed)
            if rest is None:
                rest = near.rest_of(changed)
            fresh = []
            for r in changed:
                found = memo[r].get(board[r])
                fresh.append(found if found is not None else vector(r, board[r]))
            if not fresh:
                m = tuple(bounded(list(rest), exact, nothing,
                                  lambda t, kind, ks: several(t, kind, ks, changed, fresh)))
            elif simple:
                m = tuple(map(min, rest, *fresh))
            else:
                m = tuple(bounded(list(map(min, rest, *fresh)), exact, nothing,
                                  lambda t, kind, ks: several(t, kind, ks, changed, fresh)))
            key: tuple[object, ...] = m
            if relieved is not None:
                # the Hot Tub's relief changes only with the rooms that changed
                key = (m, relieved(board) if not relief_rooms.isdisjoint(changed)
                       else base_relieved)
            if hot_tubs is not None:
                key = (key, sum(counted(board[r]) for r in hot_tubs))
            value = uppers.get(key)
            if value is None:
                value = uppers[key] = upper(board, stress, list(m) + others)
            return value

        return bound

    def _upper(self, board: Board, stress: tuple[int, ...], m: list[int]
               ) -> tuple[float, ...]:
        best = self.assemble(board, stress, m, False)
        for slot in self._candidates(board, stress, m, 1):  # 1: a deck photo may be met
            deck = "photo" if slot[0] == "photo" else "disaster"
            if not self.decks[deck]:
                continue
            ideal = list(m)
            ideal[self.term_of(slot)] = 0 if deck == "photo" else CAP
            value = self.assemble(board, stress, ideal, True)
            best = (max(best[0], value[0]), max(best[1], value[1]), max(best[2], value[2]),
                    max(best[3], value[3]), max(best[4], value[4]), max(best[5], value[5]))
        return rank_key(best)

    def _photo_gate(self, stress: tuple[int, ...], m: Sequence[int]) -> bool:
        """Whether a refresh of an unmet own photo could matter (bonus or win), so that the
        number of deck photos met on the board is worth counting."""
        if not self.party or stress[self.active] >= MAX_STRESS or not self.decks["photo"]:
            return False
        met = sum(1 for i in self.own_photos if m[i] == 0)
        unmet = len(self.own_photos) - met
        return bool(unmet) and (met == 1 or self.taken0 + met + 1 >= self.target
                                or self.photos_first)

    def _candidates(self, board: Board, stress: tuple[int, ...], m: Sequence[int],
                    photo_count: int) -> list[Slot]:
        """The refreshes that can beat not refreshing (see :meth:`end`); ``photo_count`` is
        how many deck photos the board meets (``-1``: not counted, not needed)."""
        a = self.active
        if stress[a] >= MAX_STRESS or not self.refresh_order:
            return []
        fouls = 0
        for i in self.checked:
            if m[i] == 0:
                fouls += 1
        met = [i for i in self.own_photos if m[i] == 0] if self.party else []
        after_fouls = min(MAX_STRESS, stress[a] + fouls)
        reliefs = int(len(met) == 2)
        if self.relief_rooms and self.relieved(board)[a]:
            reliefs += 1
        if after_fouls >= MAX_STRESS or after_fouls < reliefs or self.photos_first:
            return self.refresh_order
        found = []
        for slot in self.refresh_order:
            i = self.term_of(slot)
            if i in self.checked:
                if m[i] == 0:
                    found.append(slot)
            elif (i in self.own_photos and m[i] > 0 and photo_count > 0
                  and (len(met) == 1 or self.taken0 + len(met) + 1 >= self.target)):
                # only a new card that is met can bring the bonus or the win
                found.append(slot)
        return found

    def photo_met_count(self, board: Board) -> int:
        """How many cards of the photo deck are met on ``board``."""
        masks = self.photo_masks
        if masks is None:
            masks = self.photo_masks = (MetMasks if self.memo else PlainMasks)(
                [self.condition("photo", c) for c in self.decks["photo"]],
                self.setup.house.size)
        return self._masks_count(masks, board)

    def _masks_count(self, masks: Any, board: Board) -> int:
        near, changed = self._near
        if isinstance(masks, MetMasks) and near is not None and near.base is not board:
            return masks.count_near(board, near, changed)
        return masks.count(board)

    def met_count(self, board: Board) -> int:
        """How many cards of the disaster deck are met on ``board``."""
        masks = self.disaster_masks
        if masks is None:
            masks = self.disaster_masks = (MetMasks if self.memo else PlainMasks)(
                [self.condition("disaster", c) for c in self.decks["disaster"]],
                self.setup.house.size)
        return self._masks_count(masks, board)

    def refresh_value(self, board: Board, stress: tuple[int, ...], m: Sequence[int],
                      term: int, deck: str, best_key: tuple[float, ...] | None = None
                      ) -> Value | None:
        """The exact expected value of refreshing the card of ``term``: every card left in its
        deck is equally likely.  With ``best_key``, ``None`` as soon as the value provably
        cannot beat it (the cards not yet looked at are bounded by the best possible card)."""
        cards = self.decks[deck]
        n = len(cards)
        changed = list(m)
        if deck == "disaster":
            met = self.met_count(board)
            parts = []
            for cost, k in ((0, met), (CAP, n - met)):
                if k:
                    changed[term] = cost
                    parts.append((k / n, self.assemble(board, stress, changed, True)))
            return mean(parts)
        counts = self._photo_costs(board)
        parts = []
        for cost in sorted(counts):
            changed[term] = cost
            parts.append((counts[cost] / n, self.assemble(board, stress, changed, True)))
        return mean(parts)

    def _photo_costs(self, board: Board) -> dict[int, int]:
        """How many cards of the photo deck cost each cost on ``board`` (kept for the last
        board asked)."""
        if self._deck_counts[0] is board:
            return self._deck_counts[1]
        table = self.deck_table("photo")
        near, changed = self._near
        if isinstance(table, TermTable) and near is not None and near.base is not board:
            # a board near a mingle's: the deck's costs from its changed rooms (as the cards')
            deck = near.decks.get("photo")
            if deck is None:
                deck = near.decks["photo"] = NearBoard(table, near.base)
            costs = deck.values(board, changed)
        else:
            costs = table.values(board)
        counts: dict[int, int] = {}
        for c in costs:
            counts[c] = counts.get(c, 0) + 1
        self._deck_counts = (board, counts)
        return counts

    def deck_table(self, deck: str) -> Any:
        table = self.deck_tables.get(deck)
        if table is None:
            table = (TermTable if self.memo else PlainTable)(
                [self.condition(deck, c) for c in self.decks[deck]], self.setup.house.size)
            self.deck_tables[deck] = table
        return table

    def refresh_slot_value(self, board: Board, stress: tuple[int, ...], slot: Slot) -> Value:
        """The exact value of refreshing one given slot (no pruning)."""
        m = self.terms.values(board)
        deck = "photo" if slot[0] == "photo" else "disaster"
        if not self.decks[deck]:
            raise ValueError(f"the {deck} deck is empty: nothing to refresh with")
        value = self.refresh_value(board, stress, m, self.term_of(slot), deck)
        assert value is not None
        return value

    def plain(self, board: Board, stress: tuple[int, ...]) -> Value:
        """The value of ending the turn here without a refresh."""
        return self.assemble(board, stress, self.terms.values(board), False)

    def explain(self, board: Board, stress: tuple[int, ...], refresh: Slot | None = None
                ) -> Outcome:
        """What ending the turn on ``board`` achieves (without its refresh's new card)."""
        m = self.terms.values(board)
        s = list(stress)
        if refresh is not None:
            s[self.active] += 1
            m[self.term_of(refresh)] = CAP
        fouled: list[Slot] = []
        for i in (self.own_disaster, self.communal):
            if i >= 0 and m[i] == 0:
                fouled.append(self.slots[i])
                s = [min(MAX_STRESS, x + 1) for x in s]
        lost = min(s) >= MAX_STRESS
        taken = tuple(self.root.card_at(self.slots[i]) for i in self.own_photos
                      if m[i] == 0) if self.party and not lost else ()
        won = self.party and not lost and self.taken0 + len(taken) >= self.target
        disasters = sum(1 for i in self.other_disasters if m[i] == 0)
        distance = sum(m[i] for i in self.other_photos) + sum(
            m[i] for i in self.own_photos if m[i] > 0)
        return Outcome(tuple(fouled), taken, tuple(s), won, lost, disasters, distance)

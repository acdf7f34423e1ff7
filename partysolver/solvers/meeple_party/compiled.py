"""The Python side of the compiled turn search (:mod:`.kernel`): tables, boards, calls.

:class:`Kernel` turns one turn's :class:`~.evaluate.Evaluator` (the cards at the table, the
decks, the stress and the clock, fixed until the refresh) into the arrays the kernel reads,
keeps its buffers, and answers three questions on engine boards: the best end of the rest of
the turn from a welcome or a mingle (:meth:`Kernel.best`), the exact top ``k`` of the distinct
ends with how many there are (:meth:`Kernel.top`), and one end's value (:meth:`Kernel.end`).

numba is imported only when a kernel is built (``import partysolver`` stays light), and its
machine code is cached on disk (``cache=True``): :func:`needs_compile` says, cheaply, whether
the next kernel will compile first (about 75 seconds of CPU once, then never again), so that a
front end can say so on stderr.  The kernel is declared with the project's others in
:mod:`partysolver.solvers.compiled` (``MEEPLE_PARTY_TURN``).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ...models.meeple_party.board import Board
from ...models.meeple_party.cards import CAP, CompiledCondition
from ...models.meeple_party.game import BITS, PIECES, Slot
from .. import compiled
from ..compiled import MEEPLE_PARTY_TURN
from .evaluate import Evaluator, Value

if TYPE_CHECKING:
    from types import ModuleType

_OFFSETS = (0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33, 36, 37, 38, 39, 40, 41, 42, 43, 44,
            45, 46, 47)
"""The kernel's field of each piece (see :mod:`.kernel`), restated here so that encoding a
board needs no numba."""


MEMO_SLOTS = 1 << 13
"""Slots of the kernel's memo of the deck clauses met per room content."""
BUFFER = 1 << 12
"""Ends of one mingle the kernel buffers before valuing them best bound first."""


def kernel_module() -> ModuleType:
    """The compiled module: its machine code loaded without numba when it can be
    (:func:`.native.load`, a tenth of the time), else through numba (which is then imported)."""
    import sys

    from . import native

    if __package__ + ".kernel" not in sys.modules:  # numba's own, where it runs already
        found = native.load()
        if found is not None:
            return found  # type: ignore[return-value]
    from . import kernel

    return kernel


def needs_compile() -> bool:
    """Whether the next search through the kernel will first compile it: not
    :func:`partysolver.solvers.compiled.ready` (cheap: it imports neither numba nor the kernel;
    a kernel it cannot vouch for counts as not compiled, so the hint then answers interpreted
    rather than risk a silent compile)."""
    return not compiled.ready(MEEPLE_PARTY_TURN)


def announce() -> bool:
    """Say, through the notices' listener, that the kernel is about to compile, when it is
    (:func:`partysolver.solvers.compiled.before_compiling`); whether it told."""
    return compiled.before_compiling(MEEPLE_PARTY_TURN)


def encode(board: Board) -> np.ndarray:
    """The engine's board (3 bits per piece) packed as the kernel's (one word per room)."""
    out = np.zeros(len(board), dtype=np.int64)
    for r, room in enumerate(board):
        word = 0
        piece = 0
        while room:
            count = room & 7
            if count:
                word += count << _OFFSETS[piece]
            room >>= BITS
            piece += 1
        out[r] = word
    return out


def decode(packed: np.ndarray) -> Board:
    """The kernel's board as the engine's."""
    rooms = []
    for word in packed.tolist():
        room = 0
        for piece in range(PIECES):
            count = (word >> _OFFSETS[piece]) & (7 if piece < 12 else 1)
            room |= count << (BITS * piece)
        rooms.append(room)
    return tuple(rooms)


@dataclass(frozen=True, slots=True)
class Found:
    """An end of the turn found by the kernel: its value, the refresh that reaches it, and its
    plan: the welcome's number in ``state.welcomes()`` (-1: none), the mingle's number in the
    order of :func:`~.turn.mingle_groups` and the outcome's within it, and the mingle's code."""

    value: Value
    refresh: Slot | None
    welcome: int
    move: int
    outcome: int
    code: tuple[int, int, int, int, tuple[tuple[int, int, int], ...] | None]

    @property
    def order(self) -> tuple[int, int]:
        """Where the end comes in the game's order: (welcome, ``(move << 12) + outcome``)."""
        return self.welcome, (self.move << 12) + self.outcome


class Kernel:
    """The compiled search of one turn: the cards at the table and the decks of ``evaluator``
    (fixed until the refresh) as the kernel's table, and its buffers."""

    def __init__(self, evaluator: Evaluator) -> None:
        announce()  # a first run compiles the kernel at the first call: never in silence
        self.kernel = kernel_module()
        self.evaluator = evaluator
        self.tables = _tables(evaluator)
        self.refresh = [slot for slot in evaluator.refresh_order
                        if evaluator.decks["photo" if slot[0] == "photo" else "disaster"]]
        self._work, self._floats = _workspace(self.tables, 1)
        self.ends = 0
        """Ends of the turn examined over every call (each bounded)."""
        self.exact = 0
        """Ends valued exactly over every call."""

    # -- the three questions ------------------------------------------------------------------

    def best(self, board: Board, stress: Sequence[int], drawn: int = -1,
             alpha: tuple[float, ...] | None = None, limit: int | None = None
             ) -> Found | None:
        """The best end of the rest of the turn from ``board``: the welcome of the ``drawn``
        guest then the mingle (``drawn`` -1: the mingle), white meeples' mingles left out; the
        first in the game's order among equals.  With ``alpha`` (a rank key), only an end that
        ranks above it counts (``None`` when none does).  ``limit``: the most ends to examine
        (:class:`OverLimit` beyond)."""
        k = self.kernel
        work, floats = self._work, self._floats
        self._reset(work, k.BEST, limit)
        if alpha is not None:
            work[k.W_HAS_ALPHA] = 1
            floats[k.F_ALPHA:k.F_ALPHA + 6] = alpha
        self._walk(board, stress, drawn, work, floats)
        if not work[k.W_FOUND]:
            return None
        value = tuple(floats[k.F_BEST:k.F_BEST + 6].tolist())
        return self._found(value, work, int(work[k.W_INFO]))

    def top(self, board: Board, stress: Sequence[int], drawn: int, k: int,
            limit: int | None = None) -> tuple[list[Found], int]:
        """The exact ``k`` best distinct ends (distinct boards; the first in the game's order
        stands for each, and ranks first among equal values), best first, and how many
        distinct ends there are (white meeples' mingles left out).  ``k`` is capped at the
        ends counted before anything is sized: the buffers the best ends are kept in grow with
        the options, never with the number asked (``hint --top 2147483648``)."""
        kernel = self.kernel
        raw = self.count(board, stress, drawn)
        k = max(1, min(k, raw))
        work, floats = _workspace(self.tables, k, slots=2 * raw + 2)
        self._reset(work, kernel.OPTIONS, limit)
        self._walk(board, stress, drawn, work, floats)
        found = []
        for i in range(int(work[kernel.W_TOP_N])):
            at = kernel.F_TOP + 6 * i
            found.append(self._found(tuple(floats[at:at + 6].tolist()), work,
                                     int(work[kernel.W_TOP_INFO]) + kernel.INFO * i))
        return found, int(work[kernel.W_DISTINCT])

    def count(self, board: Board, stress: Sequence[int], drawn: int) -> int:
        """How many ends the rest of the turn has, counted with repeats (no valuing)."""
        work = self._work
        self._reset(work, self.kernel.COUNT, None)
        self._walk(board, stress, drawn, work, self._floats, count=False)
        return int(work[self.kernel.W_ENDS])

    def end(self, board: Board, stress: Sequence[int]) -> tuple[Value, Slot | None]:
        """The exact value of ending the turn on ``board``, and its refresh."""
        value, row = self.kernel.end_value(self.tables, self._work, self._floats,
                                           encode(board), np.array(stress, dtype=np.int64))
        return tuple(value), (self.refresh[row] if row >= 0 else None)

    # -- helpers ------------------------------------------------------------------------------

    def _reset(self, work: np.ndarray, mode: int, limit: int | None) -> None:
        k = self.kernel
        work[k.W_ENDS:k.W_HEADER] = 0
        work[k.W_MODE] = mode
        work[k.W_LIMIT] = -1 if limit is None else limit

    def _walk(self, board: Board, stress: Sequence[int], drawn: int, work: np.ndarray,
              floats: np.ndarray, count: bool = True) -> None:
        k = self.kernel
        k.walk(self.tables, work, floats, encode(board), np.array(stress, dtype=np.int64),
               drawn)
        if count:
            self.ends += int(work[k.W_ENDS])
            self.exact += int(work[k.W_EXACT])
        if work[k.W_ABORTED]:
            raise OverLimit

    def _found(self, value: tuple[float, ...], work: np.ndarray, at: int) -> Found:
        k = self.kernel
        row = [int(x) for x in work[at:at + k.INFO]]
        piece, src, dst, as_kind = row[k.P_PIECE], row[k.P_SRC], row[k.P_DST], row[k.P_AS]
        steps: tuple[tuple[int, int, int], ...] | None
        if dst < 0:
            steps = None
        else:
            steps = tuple((row[k.P_STEPS + 3 * s], row[k.P_STEPS + 3 * s + 1],
                           row[k.P_STEPS + 3 * s + 2]) for s in range(2)
                          if row[k.P_STEPS + 3 * s] >= 0)
        refresh = row[k.P_REFRESH]
        return Found(value, self.refresh[refresh] if refresh >= 0 else None,  # type: ignore[arg-type]
                     row[k.P_WELCOME], row[k.P_MOVE], row[k.P_OUTCOME],
                     (piece, src, dst, as_kind, steps))


class OverLimit(Exception):
    """The kernel examined the most ends it was allowed (a node budget)."""


class Unsupported(ValueError):
    """A turn the kernel's fixed-size layout cannot hold (the interpreted search takes it)."""


MAX_ROOMS = 16
"""Rooms the kernel's keys and masks have room for."""


# -- tables ---------------------------------------------------------------------------------------


class _Blob:
    """A flat int64 array under construction: a header of fields, then sections."""

    def __init__(self, header: int) -> None:
        self.header = [0] * header
        self.size = header
        self.parts: list[tuple[int, list[int]]] = []

    def section(self, field: int, values: Sequence[int], count: int | None = None) -> None:
        """Append ``values``, their offset in header ``field`` (and their number in ``count``)."""
        values = list(values)
        self.header[field] = self.size
        if count is not None:
            self.header[count] = len(values)
        self.parts.append((self.size, values))
        self.size += len(values)

    def reserve(self, field: int, length: int) -> None:
        """Append ``length`` zeros (at least one), their offset in header ``field``."""
        self.header[field] = self.size
        self.size += max(1, length)

    def __setitem__(self, field: int, value: int) -> None:
        self.header[field] = value

    def array(self) -> np.ndarray:
        out = np.zeros(self.size, dtype=np.int64)
        out[:len(self.header)] = self.header
        for at, values in self.parts:
            out[at:at + len(values)] = values
        return out


def _tables(evaluator: Evaluator) -> np.ndarray:
    """The kernel's table ``T`` for one turn (see :mod:`.kernel` for its layout)."""
    k = kernel_module()
    setup = evaluator.setup
    house = setup.house
    rooms = house.size
    if rooms > MAX_ROOMS:
        raise Unsupported(f"the compiled search takes houses of at most {MAX_ROOMS} rooms "
                          f"(this one has {rooms})")
    terms: list[CompiledCondition] = list(evaluator.terms.conditions)
    photo_deck = [evaluator.condition("photo", c) for c in evaluator.decks["photo"]]
    disaster_deck = [evaluator.condition("disaster", c) for c in evaluator.decks["disaster"]]
    conditions = terms + photo_deck + disaster_deck
    cond_rows: list[int] = []
    clause_rows: list[int] = []
    sub_rows: list[int] = []
    sub_types: list[int] = []
    clause_ranges = []
    for condition in conditions:
        kind, clauses = _encoded(condition)
        first = len(clause_rows) // k.CLAUSE_WIDTH
        for row, subsets in clauses:
            clause_rows += row
            clause_rows[-3] = len(sub_rows) // k.SUB_WIDTH  # the clause's first subset
            for need, types in subsets:
                sub_rows += (need, len(sub_types), len(types))
                sub_types += types
        cond_rows += (kind, first, len(clauses))
        clause_ranges.append(range(first, first + len(clauses)))
    n_terms = len(terms)
    key_terms = [t for t in (*evaluator.own_photos, evaluator.own_disaster, evaluator.communal)
                 if t >= 0]
    rest_terms = [t for t in range(n_terms) if t not in key_terms]
    refresh: list[int] = []
    for slot in evaluator.refresh_order:
        deck = "photo" if slot[0] == "photo" else "disaster"
        if evaluator.decks[deck]:
            t = evaluator.term_of(slot)
            refresh += [t, 0 if deck == "photo" else 1, int(t in evaluator.own_photos)]
    blob = _Blob(k.T_HEADER)
    blob[k.T_ROOMS] = rooms
    for table, width, start, counts in ((house.adjacent, k.T_ADJ_WIDTH, k.T_ADJ, k.T_ADJN),
                                        (house.two_away, k.T_TWO_WIDTH, k.T_TWO, k.T_TWON)):
        w = max((len(row) for row in table), default=0) or 1
        blob[width] = w
        blob.section(start, [r for row in table for r in (*row, *[-1] * (w - len(row)))])
        blob.section(counts, [len(row) for row in table])
    blob.section(k.T_WELCOME, house.welcome_rooms, k.T_N_WELCOME)
    blob.section(k.T_COND, cond_rows)
    blob.section(k.T_CLAUSE, clause_rows)
    blob[k.T_N_CLAUSES] = len(clause_rows) // k.CLAUSE_WIDTH
    blob.section(k.T_SUB, sub_rows)
    blob.section(k.T_SUBT, sub_types)
    blob[k.T_N_TERMS] = n_terms
    blob.section(k.T_OWN, evaluator.own_photos, k.T_N_OWN)
    blob.section(k.T_OTHER_PHOTOS, evaluator.other_photos, k.T_N_OTHER_PHOTOS)
    blob.section(k.T_OTHER_DISASTERS, evaluator.other_disasters, k.T_N_OTHER_DISASTERS)
    blob.section(k.T_REFRESH, refresh)
    blob[k.T_N_REFRESH] = len(refresh) // k.REFRESH_WIDTH
    blob.section(k.T_PHOTO_DECK, range(n_terms, n_terms + len(photo_deck)), k.T_N_PHOTO_DECK)
    blob.section(k.T_DISASTER_DECK, range(n_terms + len(photo_deck), len(conditions)),
                 k.T_N_DISASTER_DECK)
    blob.section(k.T_SEAT_BITS, [(1 << (36 + p)) | (1 << (41 + p)) for p in setup.roommates],
                 k.T_SEATS)
    blob.section(k.T_KEY_TERMS, key_terms, k.T_N_KEY_TERMS)
    blob.section(k.T_KEY_CLAUSES, [c for t in key_terms for c in clause_ranges[t]],
                 k.T_N_KEY_CLAUSES)
    blob.section(k.T_REST_CLAUSES, [c for t in rest_terms for c in clause_ranges[t]],
                 k.T_N_REST_CLAUSES)
    blob.section(k.T_TERM_CLAUSES, [c for t in range(n_terms) for c in clause_ranges[t]],
                 k.T_N_TERM_CLAUSES)
    for cards, (first_field, count_field) in ((photo_deck, (k.T_PHOTO_CLAUSE0,
                                                            k.T_PHOTO_CLAUSES)),
                                              (disaster_deck, (k.T_DISASTER_CLAUSE0,
                                                               k.T_DISASTER_CLAUSES))):
        first = n_terms if cards is photo_deck else n_terms + len(photo_deck)
        in_deck = sum(len(c.clauses) for c in cards)
        if in_deck > k.MEMO_CLAUSES:
            raise Unsupported(f"the compiled search takes decks of at most "
                              f"{k.MEMO_CLAUSES} clauses (this one has {in_deck})")
        blob[first_field] = clause_ranges[first].start if cards else 0
        blob[count_field] = in_deck
    icons = evaluator.refresh_icon
    for field, value in ((k.T_ACTIVE, evaluator.active), (k.T_SUM0, evaluator.sum0),
                         (k.T_TAKEN0, evaluator.taken0), (k.T_TARGET, evaluator.target),
                         (k.T_PARTY, evaluator.party), (k.T_PHOTOS_FIRST, evaluator.photos_first),
                         (k.T_OWN_DISASTER, evaluator.own_disaster),
                         (k.T_COMMUNAL, evaluator.communal),
                         (k.T_RELIEF, sum(1 << r for r in evaluator.relief_rooms)),
                         (k.T_HOT_TUB, sum(1 << r for r in evaluator.hot_tubs)),
                         (k.T_ICON0, icons[0]), (k.T_ICON1, icons[1]), (k.T_ICON2, icons[2])):
        blob[field] = value
    return blob.array()


_ENCODED: dict[int, tuple[CompiledCondition, tuple[int, list[tuple[list[int], Any]]]]] = {}
"""Conditions as the kernel's rows, by the compiled condition's identity (the setup keeps
those for the game's life; the entry keeps it alive, so its id is not reused)."""


def _encoded(condition: CompiledCondition) -> tuple[int, list[tuple[list[int], Any]]]:
    """A condition's kind and, per clause, its row (the first subset's place left 0) and
    subsets (see :mod:`.kernel`)."""
    found = _ENCODED.get(id(condition))
    if found is not None:
        return found[1]
    k = kernel_module()
    if not condition.possible:
        kind = k.IMPOSSIBLE
    elif len(condition.clauses) == 1:
        kind = k.ONE
    else:
        kind = {"any": k.ANY, "different": k.DIFFERENT}[condition.relation]
    clauses = []
    for clause in condition.clauses:
        reads = set(range(11)) if clause.exactly else \
            {t for _, group in clause.subsets for t in group} | set(clause.absent)
        row = [sum(1 << r for r in clause.rooms), int(clause.exactly), clause.total,
               sum(1 << t for t in clause.absent), 0, len(clause.subsets),
               sum(1 << t for t in reads)]
        clauses.append((row, [(need, list(types)) for need, types in clause.subsets]))
    encoded = (kind, clauses)
    _ENCODED[id(condition)] = (condition, encoded)
    return encoded


def _workspace(tables: np.ndarray, k: int, slots: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """The kernel's buffers ``W`` and ``F`` (see :mod:`.kernel`), with room for the ``k`` best
    ends kept and a set of boards of at least ``slots`` places (:meth:`Kernel.top`)."""
    kernel = kernel_module()
    T = tables
    rooms = int(T[kernel.T_ROOMS])
    clauses = int(T[kernel.T_N_CLAUSES])
    n_terms = int(T[kernel.T_N_TERMS])
    degree = max(int(T[kernel.T_ADJ_WIDTH]), int(T[kernel.T_TWO_WIDTH]), 1)
    reach = degree * 13
    """Standing meeples (by piece and room) in reach of one action, at most."""
    outcomes = max(reach * (reach + 1) // 2, rooms * 13 * degree, 16)
    deck = max(1, int(T[kernel.T_N_PHOTO_DECK]), int(T[kernel.T_N_DISASTER_DECK]))
    size = 1
    while size < slots:
        size *= 2
    blob = _Blob(kernel.W_HEADER)
    bound = [0] * max(1, n_terms)
    disasters = T[kernel.T_OTHER_DISASTERS]
    for i in range(int(T[kernel.T_N_OTHER_DISASTERS])):
        bound[int(T[disasters + i])] = CAP  # the other disasters at their best: not met
    for field, length in ((kernel.W_COSTS, clauses * rooms), (kernel.W_BASE, clauses * rooms)):
        blob.reserve(field, length)
    blob.section(kernel.W_BOUND_M, bound)
    for field, length in (
            (kernel.W_M, n_terms), (kernel.W_COUNTS, 11), (kernel.W_SCRATCH, n_terms),
            (kernel.W_PICKS, int(T[kernel.T_N_REFRESH]) + 1), (kernel.W_DECK_OUT, deck),
            (kernel.W_MOVES, 3 * (rooms * 13 * rooms + rooms * 11 + 1)),
            (kernel.W_STEPS, 6 * outcomes), (kernel.W_OPTIONS, 3 * (reach + 1)),
            (kernel.W_WELCOME_STEPS, 6 * outcomes), (kernel.W_CODE, 16), (kernel.W_INFO, 16),
            (kernel.W_CHANGED, 16), (kernel.W_TOP_INFO, kernel.INFO * k),
            (kernel.W_CHOICE, 16), (kernel.W_PARTIAL, 17), (kernel.W_SLOTS, 2 * size)):
        blob.reserve(field, length)
    blob.reserve(kernel.W_BOUNDS, kernel.N_BOUNDS)
    blob.reserve(kernel.W_BUFFER, 1 + kernel.ENTRY * BUFFER)
    blob.reserve(kernel.W_BUCKETS, 1 + 2 * kernel.MAX_BUCKETS)
    blob[kernel.W_N_BUFFER] = BUFFER
    blob.reserve(kernel.W_MEMO, kernel.MEMO_WIDTH * MEMO_SLOTS)
    blob.reserve(kernel.W_ROOM_MASKS, 4 * rooms)
    blob.reserve(kernel.W_ACC, 4)
    blob[kernel.W_N_SLOTS] = size
    blob[kernel.W_N_MEMO] = MEMO_SLOTS
    blob[kernel.W_K] = k
    work = blob.array()
    memo = int(work[kernel.W_MEMO])
    work[memo:memo + kernel.MEMO_WIDTH * MEMO_SLOTS:kernel.MEMO_WIDTH] = -1  # empty slots
    return work, np.zeros(kernel.F_TOP + 6 * k)


def kernel_available() -> bool:
    """Whether numba can be imported here."""
    return importlib.util.find_spec("numba") is not None


__all__ = ["Found", "Kernel", "OverLimit", "Unsupported", "announce",
           "decode", "encode", "kernel_available", "needs_compile"]

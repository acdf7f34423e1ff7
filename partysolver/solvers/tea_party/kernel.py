"""Exact two-player Epic Monster Tea Party search, compiled to machine code with numba.

The rules engine in ``models/tea_party`` is the reference; this module restates the same rules
over packed integers so that the exact search expands some 5 million states a second instead of
25,000 (8- and 10-hero positions, one core; bigger searches wait longer for memory).
``tests/tea_party/test_tea_party_compiled.py`` holds it equal to the generic expectimax over the
rules engine on random positions.

What the compiled search does beyond the generic one:

* **Seat symmetry.**  With two monsters the rules are the same from either seat (the end-of-game
  drinks are independent, so their order does not matter), so every state is stored with the
  monster to act in seat 0: the other seat's value is one minus its own.
* **The end of the game in closed form**: both monsters drink; each drink holding a Ranger is
  followed by its throw-up; the value is summed over the pairs of throw-ups.
* **The same canonical key** as :meth:`TeaPartyState.key` (royals merged, stomach Bards counted
  as Rangers, stomachs reduced to standings when no Ranger is loose, teacups merged into
  stomachs when nothing can touch them), packed into three 64-bit integers, or, within the
  bounds of the position a search starts from, into one (compact keys, :func:`codec_for`:
  a table then holds twice the entries in the same memory), and the same certain-win test as
  :meth:`TeaPartyState.settled_returns`; a decision stops at an option that wins for
  certain.

The search is plain expectimax with a transposition table: on these positions alpha-beta/Star1
windows cut almost nothing (measured: 559,169 states without pruning against 557,637 nodes with
it on a 10-hero position), so every reachable state is valued once.  It runs in chunks of nodes
so that a time limit is honoured between chunks; a chunk cut short leaves only finished values
in the table, and the next chunk goes on from the stack it left (a new search, e.g. after the
time limit, walks down from the root again, through the table's values).

Its memory is bounded (issue 32): the table doubles up to ``Table.most`` slots (8 GiB by
default), and full there it keeps the values of its biggest subtrees and drops the others
(:func:`_purge`; every stored value carries its subtree's size).  Values are never approximated:
a value dropped is searched again when it is met again.

Its time goes mostly to waiting for the table's memory, so the table is laid out for it (one
16- or 32-byte row a slot, a bitmap of the slots in use, rows prefetched a few children ahead; see
:class:`Table` and ``_search``), made as large as the budget needs before the search starts
instead of doubled (and walked again) on the way, and the kernel runs without numba's
reference counting (``_jit``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Hashable, Iterator
from concurrent import futures
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from math import comb
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from ...models.protocol import State
from ...models.tea_party.game import POINTS, Hero
from ...models.tea_party.state import (
    CHOOSE,
    DRAW,
    OVER,
    STANDING_WEIGHTS,
    THROW_UP,
    TeaPartyState,
)
from ...models.tea_party.state import RANGERS as _RANGERS
from ...models.tea_party.state import TOUCHES_CUPS as _TOUCHES
from ..budget import Budget, BudgetExhausted
from ..compiled import TEA_PARTY_SEARCH, before_compiling
from ..expectimax import Expectimax, Values
from . import tablefile
from .playouts import KernelPlayouts
from .policies import CUP_RISK

# Hero types and packed-zone masks (a zone is eight 4-bit counts; see models/tea_party/state.py).
_FIGHTER, _CLERIC, _ROGUE, _WIZARD, _RANGER, _BARD, _KING, _QUEEN = range(8)
_TOUCHING_HELD = sum(1 << (h + 1) for h in (_ROGUE, _WIZARD, _BARD, _KING))
"""Bit ``held + 1`` set for a hero in hand that reaches a teacup (Queens count as Kings)."""
_LOW28 = (1 << 28) - 1
_END = 4
"""A pseudo-phase: the turn is over (the next monster draws, or the game ends)."""
_FINAL_FORM = 4

# Module-level arrays are frozen into the cached machine code, and numba does not notice when
# ``game.py`` changes them: after changing POINTS, delete this module's ``__pycache__`` entries.
# The bag masks (``_RANGERS``, ``_TOUCHES``) and the standing weights are the engine's own.
_POINTS = np.array(POINTS, dtype=np.int64)
_CUP_RISK = CUP_RISK
_STANDING = np.array(STANDING_WEIGHTS, dtype=np.int64)
_ONES = np.ones(8, dtype=np.int64)

_jit = njit(cache=True, _nrt=False, nogil=True)  # type: ignore[call-overload]
"""The decorator of every kernel function: cached on disk, and without numba's reference
counting (the kernel allocates nothing; its arrays come from Python).  Without it, every call
that passes an array, and every slice of one, counts references with atomic increments: up to a
third of the search's time (measured with ``perf``).  Without the GIL, so that the searches of
:attr:`CompiledExpectimax.threads` run at once, one a thread."""

# Counters shared with the kernel, in one int64 array.
(_NODES, _LIMIT, _HITS, _CUT, _USE_TABLE, _ENTRIES, _GROW_AT, _CAPPED, _PURGES, _GEN, _RESUME,
 _SLOTS, _DEPTH, _ORDER, _PENDING) = range(15)
_COUNTERS = _PENDING + 7
"""``_PENDING`` and the six after it: the state a cut search stopped at (:func:`_search`)."""

_SIZE_SHIFT = 56
"""A stored row's first key word keeps, from this bit up, the size class of the entry's
subtree (the bit length of the nodes its search took, at most 63: see :func:`_purge`); the
key itself never reaches these bits (a full key's first word fills at most 37, a compact key
stays below 2^56: :func:`codec_for`)."""
_KEY0 = (1 << _SIZE_SHIFT) - 1
_CLASSES = 64

_MAX_LOAD = 0.75
"""The table doubles when its slots are this full."""


@_jit
def _home(slots: int, k0: int, k1: int, k2: int) -> int:
    """Where a key's probe starts in a table of ``slots`` slots (any number below 2^31: the
    top 32 bits of the key's hash scaled to it, no power of two needed).  The hash's top bits
    must depend on every bit of the key: without the last multiplication they were the top
    bits of a sum of products, and linear probing met clusters long enough to stall a
    9-hero search for minutes."""
    h = k0 * -7046029254386353131 + k1 * -4658895280553007687 + k2 * 7640891576956012809
    h ^= h >> 31  # the high bits into the low ones, then the low ones into the high ones
    h *= -4265267296055464877
    return (((h >> 32) & 0xFFFFFFFF) * slots) >> 32


@_jit
def _find(rows: np.ndarray, used: np.ndarray, i: int, k0: int, k1: int, k2: int
          ) -> tuple[int, bool, float]:
    """The slot of a key in an open-addressing table (linear probing from its home ``i``):
    where it is, with its value, or the empty slot where it goes (and ``False``).

    A row holds its key words each XORed with the value's bits (:func:`_store`), so that a row
    read while another thread writes it, its words from two writes, matches no key (Hyatt and
    Mann's lockless hashing): only a row whose words agree gives its value, which is read once
    with the key it was checked against.  A row of zeros (a slot claimed, not yet written)
    matches nothing either: every stored key carries a size class of at least 1."""
    slots, last = rows.shape[0], rows.shape[1] - 1
    while True:
        if not _taken(used, i):
            return i, False, 0.0
        bits = rows[i, last]
        first = rows[i, 0] ^ bits
        if (first & _KEY0) == k0 and first >= (1 << _SIZE_SHIFT) and (
                last == 1 or ((rows[i, 1] ^ bits) == k1 and (rows[i, 2] ^ bits) == k2)):
            return i, True, _as_float(bits)
        i += 1
        if i == slots:
            i = 0


@_jit
def _probe(rows: np.ndarray, used: np.ndarray, i: int, k0: int, k1: int, k2: int) -> int:
    """The slot of a key (:func:`_find`): where it is, or the empty slot where it goes."""
    return _find(rows, used, i, k0, k1, k2)[0]


@_jit
def _slot(rows: np.ndarray, used: np.ndarray, k0: int, k1: int, k2: int) -> int:
    return _probe(rows, used, _home(rows.shape[0], k0, k1, k2), k0, k1, k2)


@_jit
def _row_key(rows: np.ndarray, i: int) -> tuple[int, int, int]:
    """The key in row ``i`` of a table (a compact row's one word, and two zeros)."""
    bits = rows[i, rows.shape[1] - 1]
    if rows.shape[1] == 2:
        return ((rows[i, 0] ^ bits) & _KEY0, 0, 0)
    return ((rows[i, 0] ^ bits) & _KEY0, rows[i, 1] ^ bits, rows[i, 2] ^ bits)


@_jit
def _row_class(rows: np.ndarray, i: int) -> int:
    """The size class of row ``i``'s entry (:data:`_SIZE_SHIFT`)."""
    return ((rows[i, 0] ^ rows[i, rows.shape[1] - 1]) >> _SIZE_SHIFT) & (_CLASSES - 1)


@_jit
def _write_row(rows: np.ndarray, i: int, first: int, k1: int, k2: int, bits: int) -> None:
    """Write an entry in row ``i``: its first word (the key's, with the size class above
    :data:`_SIZE_SHIFT`), the other key words (full rows), the value's bits; the key words
    XORed with the value's bits (:func:`_find`)."""
    last = rows.shape[1] - 1
    rows[i, last] = bits
    if last == 3:
        rows[i, 1], rows[i, 2] = k1 ^ bits, k2 ^ bits
    rows[i, 0] = first ^ bits


@_jit
def _taken(used: np.ndarray, i: int) -> bool:
    """Whether slot ``i`` holds a key (one bit a slot)."""
    return (used[i >> 6] >> (i & 63)) & 1 != 0


def _prefetch_typer(typingctx: Any, rows: Any, i: Any) -> Any:
    if not (isinstance(rows, types.Array) and isinstance(i, types.Integer)):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        array_type = signature.args[0]
        array = context.make_array(array_type)(context, builder, args[0])
        index = context.cast(builder, args[1], signature.args[1], types.intp)
        zero = context.get_constant(types.intp, 0)
        pointer = cgutils.get_item_pointer2(
            context, builder, data=array.data, shape=cgutils.unpack_tuple(builder, array.shape),
            strides=cgutils.unpack_tuple(builder, array.strides), layout=array_type.layout,
            inds=[index] + [zero] * (array_type.ndim - 1))
        byte = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        function = builder.module.declare_intrinsic(
            "llvm.prefetch", [byte], ir.FunctionType(ir.VoidType(), [byte, i32, i32, i32]))
        builder.call(function, [builder.bitcast(pointer, byte), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return types.void(rows, i), codegen


_prefetch: Any = intrinsic(_prefetch_typer)
"""``_prefetch(array, i)`` asks the processor to bring row ``i`` of ``array`` into its caches
without waiting for it (LLVM's ``llvm.prefetch``: a read, kept in every cache level)."""


def _element(context: Any, builder: Any, array_type: Any, array: Any, index: Any) -> Any:
    """A pointer to element ``index`` of a one-dimensional array (for the intrinsics below)."""
    array = context.make_array(array_type)(context, builder, array)
    return cgutils.get_item_pointer2(
        context, builder, data=array.data, shape=cgutils.unpack_tuple(builder, array.shape),
        strides=cgutils.unpack_tuple(builder, array.strides), layout=array_type.layout,
        inds=[index])


def _word_of(array: Any, i: Any) -> bool:
    """Whether an intrinsic's arguments are a one-dimensional int64 array and an index."""
    return (isinstance(array, types.Array) and array.ndim == 1 and array.dtype == types.int64
            and isinstance(i, types.Integer))


def _claim_typer(typingctx: Any, used: Any, i: Any) -> Any:
    if not _word_of(used, i):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        index = context.cast(builder, args[1], signature.args[1], types.intp)
        word = _element(context, builder, signature.args[0], args[0],
                        builder.lshr(index, ir.Constant(index.type, 6)))
        bit = builder.shl(ir.Constant(ir.IntType(64), 1),
                          builder.zext(builder.and_(index, ir.Constant(index.type, 63)),
                                       ir.IntType(64)))
        old = builder.atomic_rmw("or", word, bit, "seq_cst")
        return builder.icmp_unsigned("==", builder.and_(old, bit), ir.Constant(ir.IntType(64), 0))

    return types.boolean(used, i), codegen


_claim: Any = intrinsic(_claim_typer)
"""``_claim(used, i)`` sets slot ``i``'s bit in the bitmap ``used`` in one atomic step and says
whether it was clear: of two threads storing into one empty slot at once, one claims it, and
the other looks for its key's slot again (:func:`_keep`)."""


def _load_relaxed_typer(typingctx: Any, flags: Any, i: Any) -> Any:
    if not _word_of(flags, i):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        index = context.cast(builder, args[1], signature.args[1], types.intp)
        pointer = _element(context, builder, signature.args[0], args[0], index)
        return builder.load_atomic(pointer, "monotonic", 8)

    return types.int64(flags, i), codegen


_load_relaxed: Any = intrinsic(_load_relaxed_typer)
"""``_load_relaxed(flags, i)`` reads ``flags[i]`` afresh from memory each time (an atomic load):
another thread's search sets it to stop this one (:func:`_search`'s ``stop``)."""


def _as_float_typer(typingctx: Any, bits: Any) -> Any:
    if bits != types.int64:
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.bitcast(args[0], ir.DoubleType())

    return types.float64(bits), codegen


def _as_bits_typer(typingctx: Any, value: Any) -> Any:
    if value != types.float64:
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.bitcast(args[0], ir.IntType(64))

    return types.int64(value), codegen


_as_float: Any = intrinsic(_as_float_typer)
"""The float64 whose bits are the int64 ``bits``."""
_as_bits: Any = intrinsic(_as_bits_typer)
"""The bits of a float64, as an int64."""


@_jit
def _rehash(rows: np.ndarray, used: np.ndarray, new_rows: np.ndarray, new_used: np.ndarray
            ) -> None:
    for i in range(rows.shape[0]):
        if _taken(used, i):
            k0, k1, k2 = _row_key(rows, i)
            j = _slot(new_rows, new_used, k0, k1, k2)
            for w in range(rows.shape[1]):
                new_rows[j, w] = rows[i, w]
            new_used[j >> 6] |= 1 << (j & 63)


@_jit
def _recode(block: np.ndarray, codec: np.ndarray, rows: np.ndarray, used: np.ndarray,
            new_codec: np.ndarray) -> None:
    """Place the entries of ``block`` (plain rows of compact keys, ``codec``, as
    :meth:`Table._live` gives them) in a table with the keys of ``new_codec`` (wider, or full),
    each with its size class and value."""
    last = block.shape[1] - 1
    for i in range(block.shape[0]):
        k0, k1, k2 = _table_key(_unpack(block[i, 0] & _KEY0, codec), new_codec)
        j = _slot(rows, used, k0, k1, k2)
        _write_row(rows, j, k0 | (block[i, 0] & ~_KEY0), k1, k2, block[i, last])
        used[j >> 6] |= 1 << (j & 63)


@_jit
def _place(block: np.ndarray, rows: np.ndarray, used: np.ndarray, sizes: np.ndarray) -> int:
    """Store the entries of ``block`` (plain rows, as :meth:`Table._live` gives them and a
    table file keeps them) that the table does not hold yet, counting their size classes in
    ``sizes``; return how many were new."""
    added, last = 0, block.shape[1] - 1
    for i in range(block.shape[0]):
        k0 = block[i, 0] & _KEY0
        k1, k2 = (block[i, 1], block[i, 2]) if last == 3 else (0, 0)
        j = _slot(rows, used, k0, k1, k2)
        if not _taken(used, j):
            _write_row(rows, j, block[i, 0], k1, k2, block[i, last])
            used[j >> 6] |= 1 << (j & 63)
            sizes[(block[i, 0] >> _SIZE_SHIFT) & (_CLASSES - 1)] += 1
            added += 1
    return added


@_jit
def _size_class(nodes: int) -> int:
    """The bit length of a subtree's node count (at most 63)."""
    c = 0
    while nodes > 0 and c < _CLASSES - 1:
        nodes >>= 1
        c += 1
    return c


@_jit
def _purge(rows: np.ndarray, used: np.ndarray, sizes: np.ndarray, grow_at: int) -> int:
    """Make room in a full table that may not grow: keep only the entries of the biggest
    subtrees, at most half of ``grow_at`` (the smallest size classes go first, each class
    whole), and place the kept ones again; return how many are kept.  ``sizes`` counts the
    entries of each size class (:data:`_SIZE_SHIFT`).

    One pass, in place: linear probing stays valid when the slots are taken in order from an
    empty one, each entry removed and placed again from its home (it can only move back, into
    slots already passed, so an entry placed is never cut off from its home by a later
    removal)."""
    keep, lowest = 0, _CLASSES
    for c in range(_CLASSES - 1, -1, -1):
        if keep + sizes[c] > grow_at // 2:
            break
        keep += sizes[c]
        lowest = c
    slots = rows.shape[0]
    start = 0
    while _taken(used, start):
        start += 1
    kept = 0
    for step in range(1, slots + 1):
        i = start + step
        if i >= slots:
            i -= slots
        if not _taken(used, i):
            continue
        used[i >> 6] &= ~(1 << (i & 63))
        if _row_class(rows, i) < lowest:
            continue
        k0, k1, k2 = _row_key(rows, i)
        j = _probe(rows, used, _home(slots, k0, k1, k2), k0, k1, k2)
        if j != i:
            for w in range(rows.shape[1]):
                rows[j, w] = rows[i, w]
        used[j >> 6] |= 1 << (j & 63)
        kept += 1
    for c in range(lowest):
        sizes[c] = 0
    return kept


def _slots_for(entries: int, slots: int, most: int) -> int:
    """The fewest slots, doubling from ``slots`` up to ``most``, that hold ``entries`` at most
    75% full."""
    while slots < most and entries >= slots * _MAX_LOAD:
        slots = min(2 * slots, most)
    return slots


_BLOCK = 1 << 22
"""Slots (or entries) written or read at a time by :meth:`Table.write` and :meth:`Table.load`."""


MAX_SLOTS = (1 << 31) - (1 << 22)
"""The most slots a table can have (64 GiB of rows): a key's home is the top 32 bits of its
hash times the slots, which must fit in 63 bits (:func:`_home`)."""

MOST_SLOTS = 1 << 28
"""The most slots a growing table is given by default: 8 GiB of rows (32 MiB of bitmap), 12
GiB for the moment of the last doubling (both tables).  Full at that size, it keeps its
biggest subtrees' values and drops the rest (:func:`_purge`) instead of growing: the search
stays exact, it only searches again what it dropped."""


class Table:
    """The compiled search's transposition table: canonical keys to seat 0's value, open
    addressing with linear probing, at most 75% full, doubled when full up to ``most`` slots
    (default :data:`MOST_SLOTS`); full at ``most``, it drops the entries of its smallest
    subtrees (:func:`_purge`), so that its memory stays bounded.
    ``rows`` holds a slot in one row, the key and then the value's bits, so that a probe and
    its value share a cache line: 32 bytes (three key words, :func:`_words`), or 16 (one
    compact word, :func:`_pack`) once a search made it compact (:meth:`adopt`: twice the
    slots in the same memory).  Each key word is kept XORed with the value's bits (so that
    searches on several threads can share the table: :func:`_find`); :meth:`_live` gives the
    plain rows.  ``used`` has a bit per slot (1 MB for 8 million slots, so
    it mostly stays in the caches): a probe that meets an empty slot does not wait for the row
    itself.  Both start zeroed, which costs nothing until the memory is touched.  It only ever
    holds finished values, so it can be shared by the searches of one game."""

    def __init__(self, slots: int = 1 << 16, fixed: bool = False, most: int = MOST_SLOTS
                 ) -> None:
        assert slots % 64 == 0 and most % 64 == 0 and max(slots, most) <= MAX_SLOTS, \
            "a whole number of bitmap words, within what the hash reaches"
        self.rows = np.zeros((slots, 4), dtype=np.int64)
        self.used = np.zeros(max(slots >> 6, 1), dtype=np.int64)
        self.codec = np.zeros(_CODEC, dtype=np.int64)
        """Its keys: full (``codec[0]`` 0, rows of 4 words) or compact (:func:`codec_for`)."""
        self.entries = 0
        self.sizes = np.zeros(_CLASSES, dtype=np.int64)
        """How many entries of each size class the table holds (:data:`_SIZE_SHIFT`)."""
        self.most = max(most, slots)
        """The most slots it grows to; full there, it drops its smallest subtrees."""
        self.purges = 0
        """How many times it was full at ``most`` slots and dropped entries."""
        self.fixed = fixed
        """Never grown: when a search fills it, it is emptied and the search starts afresh
        (out of budget if it fills it again alone).  A time-limited hint's table, made once for
        the whole limit: growing it would stall the search on a rehash and fresh memory, up to
        a second, past its deadline."""

    def clear(self) -> None:
        """Empty the table (its bitmap: a slot whose bit is clear is empty, whatever its row
        holds)."""
        self.used.fill(0)
        self.sizes.fill(0)
        self.entries = 0

    @classmethod
    def for_entries(cls, entries: int, fixed: bool = False, most: int = 0) -> Table:
        """A table with room for ``entries`` (at most 75% full), of at most ``most`` slots
        (default :attr:`CompiledExpectimax.PRESIZE_SLOTS`)."""
        return cls(_slots_for(entries, 1 << 16, most or CompiledExpectimax.PRESIZE_SLOTS),
                   fixed)

    @classmethod
    def within(cls, gib: float, fixed: bool = False, slots: int = 1 << 16) -> Table:
        """A table that grows from about ``slots`` slots to at most ``gib`` GiB of rows (at
        least 65,536 slots, at most :data:`MAX_SLOTS`; past 2^22 slots, a whole number of 2^22,
        128 MiB).  It starts at the most halved as often as it takes to come down to ``slots``
        or below, so that each growth doubles it and the last ends exactly at the most (the
        memory at that growth is 1.5 times the most, both tables alive)."""
        most = min(max(int(gib * (1 << 30)) // 32, 1 << 16), MAX_SLOTS)
        most -= most % ((1 << 22) if most > (1 << 22) else 64)
        start = most
        while start > slots and start % 128 == 0 and start > (1 << 16):
            start //= 2
        return cls(start, fixed, most)

    @property
    def width(self) -> int:
        """Words a row: 4 with full keys, 2 with compact ones."""
        return int(self.rows.shape[1])

    def adopt(self, root: np.ndarray, widest: bool = False) -> None:
        """Key the table for a search from ``root`` (seven ints, seat 0 to act): empty, with
        compact keys if that position's fit (:func:`codec_for`); holding entries whose compact
        keys do not hold ``root``'s states, with wider ones (full ones if those do not fit
        either), its entries coded again.  ``widest``: the caller searches nothing wider than
        ``root`` (a hint's own position, called before its searches).

        A fixed table (a time-limited hint's) is never coded again, which would stall a search
        as a growth would: it takes compact keys only from a ``widest`` root while empty, and
        if a wider root comes all the same it is emptied and takes that one's."""
        if self.fixed:
            if self.entries == 0 and widest:
                self._rekey(codec_for(root))
            elif self.codec[0] and not codec_fits(self.codec, root):
                self.clear()
                self._rekey(codec_for(root))
            return
        if self.codec[0] and codec_fits(self.codec, root):
            return  # (a wider root's, given first, stays: ``widest``)
        if self.entries == 0:
            codec = codec_for(root)
        elif not self.codec[0]:
            return
        else:
            codec = codec_for(root, self.codec)
        self._rekey(codec)

    def _rekey(self, codec: np.ndarray) -> None:
        """Change the table's keys to ``codec``'s, in the same memory (a row of 2 words
        instead of 4 doubles the slots; back to 4 words, the table grows if it may, else
        drops its smallest subtrees to fit).  Its entries are copied out first and the old
        rows let go before the new ones are made (each copy let go once placed): the copies,
        at most three quarters of the old rows, beside the new table."""
        width = 2 if codec[0] else 4
        if width == self.width and self.entries == 0:
            self.codec = codec
            return
        assert self.entries == 0 or self.codec[0], "only compact keys can be coded again"

        def scaled(slots: int) -> int:
            slots = min(slots * self.width // width, MAX_SLOTS)
            return max(slots - slots % 64, 64)

        self.most = scaled(self.most)
        slots = _slots_for(self.entries, scaled(self.slots), self.most)
        if self.entries >= int(slots * _MAX_LOAD):
            self.entries = _purge(self.rows, self.used, self.sizes, int(slots * _MAX_LOAD))
            self.purges += 1
        blocks = list(self._live())
        self.rows = np.zeros((0, width), dtype=np.int64)  # the old rows let go
        self.used = np.zeros(0, dtype=np.int64)
        rows = np.zeros((slots, width), dtype=np.int64)
        used = np.zeros(max(slots >> 6, 1), dtype=np.int64)
        while blocks:
            _recode(blocks.pop(), self.codec, rows, used, codec)
        self.rows, self.used, self.codec = rows, used, codec

    def _live(self) -> Iterator[np.ndarray]:
        """The table's entries, a block of slots at a time: plain copies of their rows (the key
        words no longer XORed with the value's bits, as a table file keeps them)."""
        bits = self.used.view(np.uint8)
        for start in range(0, self.slots, _BLOCK):
            end = min(start + _BLOCK, self.slots)
            taken = np.unpackbits(bits[start >> 3:(end + 7) >> 3],
                                  bitorder="little")[:end - start].astype(bool)
            block = self.rows[start:end][taken]
            for w in range(self.width - 1):
                block[:, w] ^= block[:, -1]
            yield block

    @property
    def capped(self) -> bool:
        """Whether it can grow no more: full, it drops entries (or, fixed, it is emptied)."""
        return self.slots >= self.most

    def __len__(self) -> int:
        return self.entries

    @property
    def slots(self) -> int:
        return int(self.rows.shape[0])

    @property
    def grow_at(self) -> int:
        return int(self.slots * _MAX_LOAD)

    # -- kept on disk ---------------------------------------------------------------------------

    def write(self, out: BinaryIO) -> None:
        """Write the table's entries to ``out`` in the format of :mod:`.tablefile`, a block of
        slots at a time (no copy of the whole table in memory)."""
        out.write(tablefile.new_header(self.entries, self.codec.tolist()))
        for block in self._live():
            block.tofile(out)

    def load(self, path: Path) -> int:
        """Add the entries kept in ``path`` (:meth:`write`) and return how many; the table grows
        to hold them.  Raises :class:`.tablefile.TableFileError` (what was expected, in words)
        for a file that is not such a table, that another version of the search made (its
        stamp: the keys and values of that search may differ), that ends early, or that needs
        more room than ``most`` slots allow."""
        with path.open("rb") as source:
            head = tablefile.open_table(source)
            entries, codec = int(head["entries"]), np.array(head["codec"], dtype=np.int64)
            assert self.entries == 0, "a table is loaded before any search"
            self._rekey(codec)
            slots = _slots_for(self.entries + entries, self.slots, self.most)
            if (self.entries + entries) >= slots * _MAX_LOAD:
                raise tablefile.TableFileError(
                    f"a table that fits --max-table-gib (it holds {entries:,} entries)")
            if slots > self.slots:
                self.grow(slots)
            added = 0
            while added < entries:
                count = self.width * min(_BLOCK, entries - added)
                block = np.fromfile(source, dtype=np.int64, count=count)
                if block.size != count:
                    raise tablefile.TableFileError(
                        f"a table of {entries:,} entries (the file ends early)")
                block = block.reshape(-1, self.width)
                self.entries += _place(block, self.rows, self.used, self.sizes)
                added += block.shape[0]
        return entries

    def grow(self, slots: int = 0) -> None:
        """Move to a table of ``slots`` slots (by default twice as many, at most ``most``):
        every entry is placed again."""
        slots = min(slots or 2 * self.slots, self.most)
        assert slots % 64 == 0 and slots > self.slots
        rows = np.zeros((slots, self.width), dtype=np.int64)
        used = np.zeros(max(slots >> 6, 1), dtype=np.int64)
        _rehash(self.rows, self.used, rows, used)
        self.rows, self.used = rows, used


@_jit
def _count(zone: int, hero: int) -> int:
    return (zone >> (4 * hero)) & 15


@_jit
def _weighted(zone: int, weights: np.ndarray) -> int:
    """A quantity linear in a zone's counts: the sum of count times weight."""
    total = 0
    for h in range(8):
        total += ((zone >> (4 * h)) & 15) * weights[h]
    return total


@_jit
def _points(zone: int) -> int:
    return _weighted(zone, _POINTS)


@_jit
def _standing(zone: int) -> int:
    return _weighted(zone, _STANDING)


@_jit
def _size(zone: int) -> int:
    return _weighted(zone, _ONES)


@_jit
def _merge_royals(zone: int) -> int:
    return (zone & _LOW28) + ((zone >> 28) << 24)


@_jit
def _by_rank(zone: int) -> int:
    bards = (zone >> (4 * _BARD)) & 15
    return _merge_royals(zone) - (bards << (4 * _BARD)) + (bards << (4 * _RANGER))


@_jit
def _without_best(zone: int, k: int) -> int:
    """``zone`` after losing its ``k`` most valuable heroes (highest type first: the types
    are in point order)."""
    h = 7
    while k > 0 and h >= 0:
        n = min((zone >> (4 * h)) & 15, k)
        zone -= n << (4 * h)
        k -= n
        h -= 1
    return zone


@_jit
def _throw_ups(zone: int, zones: np.ndarray, probs: np.ndarray, r: int) -> int:
    """Write the stomachs after a throw-up of two heroes drawn blindly, with their
    probabilities, into row ``r`` of ``zones`` and ``probs`` (everything goes when the stomach
    holds two heroes or fewer); return how many."""
    total = _size(zone)
    if total <= 2:
        zones[r, 0] = 0
        probs[r, 0] = 1.0
        return 1
    pairs = total * (total - 1)
    k = 0
    for a in range(8):
        na = (zone >> (4 * a)) & 15
        if na == 0:
            continue
        if na >= 2:
            zones[r, k] = zone - (2 << (4 * a))
            probs[r, k] = na * (na - 1) / pairs
            k += 1
        for b in range(a + 1, 8):
            nb = (zone >> (4 * b)) & 15
            if nb:
                zones[r, k] = zone - (1 << (4 * a)) - (1 << (4 * b))
                probs[r, k] = 2 * na * nb / pairs
                k += 1
    return k


@_jit
def _settled(phase: int, held: int, bag: int, c0: int, c1: int, s0: int, s1: int) -> float:
    """Seat 0's value when the winner is already certain, else -1 (the rules engine's
    ``settled_returns``, for two monsters)."""
    loose = bag + c0 + c1
    if held >= 0:
        loose += 1 << (4 * held)
    p0, p1 = _points(s0), _points(s1)
    if min(p0, p1) + _points(loose) > max(p0, p1):
        return -1.0
    leader, other = (s0, s1) if p0 >= p1 else (s1, s0)
    throw_ups = _count(loose, _RANGER) + (1 if phase == THROW_UP else 0)
    if _standing(_without_best(leader, 2 * throw_ups)) > _standing(other + loose):
        return 1.0 if p0 >= p1 else 0.0
    return -1.0


@_jit
def _delta(a: int, z: int) -> tuple[int, int]:
    """Two zones reduced to their difference, count by count: what ``a`` holds more of, and
    what ``z`` holds more of (one of the two counts is zero for each hero)."""
    more_a = more_z = 0
    for h in range(8):
        d = ((z >> (4 * h)) & 15) - ((a >> (4 * h)) & 15)
        if d > 0:
            more_z |= d << (4 * h)
        elif d < 0:
            more_a |= -d << (4 * h)
    return more_a, more_z


@_jit
def _parts(phase: int, held: int, bag: int, c0: int, c1: int, s0: int, s1: int
           ) -> tuple[int, int, int, int, int, int, int]:
    """The rules engine's canonical key (``TeaPartyState._canonical``), seat 0 to act, as its
    parts: a head (the form, bits 0-2; the phase, bits 3-4; the hero in hand plus one, bits
    5-8), the bag, the two teacups, two stomachs by rank (or a difference of two, as
    :func:`_delta` gives it) and the flags of the teacups that hold a Ranger.

    The four forms: (0) something left can touch a teacup, and a Ranger is loose: everything;
    (1) the same with no Ranger loose: the stomachs count by their difference only (the
    standings are compared at the end, and nothing takes a hero out of a stomach); (2)
    nothing left can touch a teacup but a Ranger is loose: each teacup merges into its
    stomach, a flag remembering a Ranger in it (drinking it means a throw-up); (3) neither:
    one difference of the merged stomachs.  The end of the game is form 4
    (:func:`_final_parts`).  Two states with the same parts have the same value."""
    if held == _QUEEN:
        held = _KING
    bag, c0, c1 = _merge_royals(bag), _merge_royals(c0), _merge_royals(c1)
    rangers_loose = ((bag | c0 | c1) & _RANGERS) != 0 or held == _RANGER or phase == THROW_UP
    touching = (bag & _TOUCHES) != 0 or ((1 << (held + 1)) & _TOUCHING_HELD) != 0
    head = phase << 3 | (held + 1) << 5
    if touching:
        a, z = _by_rank(s0), _by_rank(s1)
        if rangers_loose:
            return (head, bag, c0, c1, a, z, 0)
        a, z = _delta(a, z)
        return (head | 1, bag, c0, c1, a, z, 0)
    a, z = _by_rank(s0 + c0), _by_rank(s1 + c1)
    if rangers_loose:
        flags = (1 if c0 & _RANGERS else 0) | (2 if c1 & _RANGERS else 0)
        return (head | 2, bag, 0, 0, a, z, flags)
    a, z = _delta(a, z)
    return (head | 3, bag, 0, 0, a, z, 0)


@_jit
def _final_parts(c0: int, c1: int, s0: int, s1: int
                 ) -> tuple[int, int, int, int, int, int, int]:
    """The end of the game's key parts: each monster's teacup and stomach by rank, and which
    teacups hold a Ranger (form 4)."""
    return (_FINAL_FORM, 0, 0, 0, _by_rank(s0 + c0), _by_rank(s1 + c1),
            (1 if c0 & _RANGERS else 0) | (2 if c1 & _RANGERS else 0))


@_jit
def _words(head: int, bag: int, c0: int, c1: int, a: int, z: int, flags: int
           ) -> tuple[int, int, int]:
    """A key's parts as three 64-bit words (at most 37 bits in the first): the key of a table
    of full rows, good for any position."""
    form = head & 7
    k0 = head | bag << 9
    if form == 0:
        return (k0, c0 | c1 << 32, a | z << 32)
    if form == 1:
        return (k0, c0 | c1 << 32, _standing(z) - _standing(a))
    if form == 3:
        return (k0, _standing(z) - _standing(a), 0)
    return (k0, a | z << 32, flags)  # form 2, and the end of the game


# -- Compact keys: one word for the states of one position ------------------------------------
#
# Every state a search reaches from its root holds at most the root's loose heroes of each kind
# (bag, teacups and hand: nothing comes back), and each stomach at most the most either
# stomach held plus those.  Within those bounds the key of a state the table stores (a draw or
# the end of the game) is written as one number in a mixed radix, below 2^56 for the late
# positions (the benchmark's 12 to 18 heroes in the bag take 39 to 53 bits of the 56): a table
# of such keys keeps a slot in 16 bytes instead of 32, twice the entries in the same memory.
# The codec (:func:`codec_for`) is the bounds: ``codec[0]`` is 1 when the keys are compact,
# ``codec[1 + t]`` the loose heroes of kind ``t`` (royals counted as Kings), ``codec[8 + r]``
# the most a stomach holds of rank ``r`` (Bards counted as Rangers).

_CODEC = tablefile.CODEC
_HEADS = tablefile.HEADS
_RANKS = tablefile.RANKS
"""The counts of a stomach by rank (``_by_rank``: Bards are Rangers, Queens Kings)."""


_C3 = np.array([comb(n + 3, 3) for n in range(-1, 16)], dtype=np.int64)
"""``_C3[n + 1]``: how many ways ``n`` or fewer heroes of one kind lie in the bag and two
teacups, C(n + 3, 3) (0 for n = -1); looked up, not computed, on the search's hot path."""


@_jit
def _c3(n: int) -> int:
    return _C3[n + 1]


@_jit
def _outside() -> None:
    raise ValueError("a state outside its table's compact keys (codec_for)")


@_jit
def _never_stored() -> None:
    raise ValueError("a compact key for a state the table never stores (a choice, a throw-up)")


@_jit
def _pack(head: int, bag: int, c0: int, c1: int, a: int, z: int, flags: int,
          codec: np.ndarray) -> int:
    """The key parts of a state the table stores (a draw, or the end of the game) as one
    number below 2^56 (:func:`codec_for`'s bounds; another state, or one outside them,
    raises).  In a mixed radix, from the most significant: each kind's bag and teacup counts
    together (forms 0 and 1: the rank of the three counts among the C(n + 3, 3) that sum to at
    most n) or its bag count alone, then each rank's two stomach counts (or their difference,
    forms 1 and 3), then the Ranger flags (forms 2 and 4), then the head: the form of a draw's
    key, or 4 (``tablefile.compact_keys`` counts them)."""
    form = head & 7
    if head != _FINAL_FORM and head != (DRAW << 3 | form):
        _never_stored()
    body = 0
    for t in range(7):
        n = codec[1 + t]
        b = (bag >> (4 * t)) & 15
        if form < 2:
            x, y = (c0 >> (4 * t)) & 15, (c1 >> (4 * t)) & 15
            u = b + x
            if u + y > n:
                _outside()
            body = body * _c3(n) + _c3(u + y - 1) + u * (u + 1) // 2 + x
        else:
            if b > n:
                _outside()
            body = body * (n + 1) + b
    for r in _RANKS:
        m = codec[8 + r]
        p, q = (a >> (4 * r)) & 15, (z >> (4 * r)) & 15
        if p > m or q > m:
            _outside()
        if form == 1 or form == 3:
            body = body * (2 * m + 1) + q - p + m
        else:
            body = (body * (m + 1) + p) * (m + 1) + q
    if form == 2 or form == _FINAL_FORM:
        body = body * 4 + flags
    return body * _HEADS + form


@_jit
def _unpack(code: int, codec: np.ndarray) -> tuple[int, int, int, int, int, int, int]:
    """The parts :func:`_pack` made ``code`` of."""
    form = code % _HEADS
    body = code // _HEADS
    head = _FINAL_FORM if form == _FINAL_FORM else DRAW << 3 | form
    flags = 0
    if form == 2 or form == _FINAL_FORM:
        flags = body % 4
        body //= 4
    a = z = 0
    for i in range(len(_RANKS) - 1, -1, -1):
        r = _RANKS[i]
        m = codec[8 + r]
        if form == 1 or form == 3:
            d = body % (2 * m + 1) - m
            body //= 2 * m + 1
            if d > 0:
                z |= d << (4 * r)
            else:
                a |= -d << (4 * r)
        else:
            q = body % (m + 1)
            body //= m + 1
            p = body % (m + 1)
            body //= m + 1
            a |= p << (4 * r)
            z |= q << (4 * r)
    bag = c0 = c1 = 0
    for t in range(6, -1, -1):
        n = codec[1 + t]
        if form < 2:
            rank = body % _c3(n)
            body //= _c3(n)
            total = 0
            while _c3(total) <= rank:
                total += 1
            rank -= _c3(total - 1)
            u = 0
            while (u + 1) * (u + 2) // 2 <= rank:
                u += 1
            x = rank - u * (u + 1) // 2
            bag |= (u - x) << (4 * t)
            c0 |= x << (4 * t)
            c1 |= (total - u) << (4 * t)
        else:
            bag |= (body % (n + 1)) << (4 * t)
            body //= n + 1
    return (head, bag, c0, c1, a, z, flags)


@_jit
def _table_key(parts: tuple[int, int, int, int, int, int, int], codec: np.ndarray
               ) -> tuple[int, int, int]:
    """A key as the table keeps it: one compact word (and two zeros), or three words."""
    head, bag, c0, c1, a, z, flags = parts
    if codec[0]:
        return (_pack(head, bag, c0, c1, a, z, flags, codec), 0, 0)
    return _words(head, bag, c0, c1, a, z, flags)


@_jit
def _state_key(phase: int, held: int, bag: int, c0: int, c1: int, s0: int, s1: int,
               codec: np.ndarray) -> tuple[int, int, int]:
    """The table's key of a state it stores (seat 0 to act: a draw, or the end of the
    game)."""
    if phase == _FINAL:
        return _table_key(_final_parts(c0, c1, s0, s1), codec)
    return _table_key(_parts(phase, held, bag, c0, c1, s0, s1), codec)


def _bounds(root: np.ndarray, wider: np.ndarray | None = None) -> tuple[list[int], list[int]]:
    """The loose heroes of each kind at ``root`` (royals as Kings) and the most a stomach can
    hold of each rank below it (by nibble: 5 and 7 are never used); with ``wider``, a codec,
    the larger of each and its.  In plain Python (``py_func``): a search of a hint's fixed
    table asks it every time."""
    phase, held, bag, c0, c1, s0, s1 = (int(v) for v in root)
    loose = bag + c0 + c1 + (1 << (4 * held) if held >= 0 else 0)
    merged, by_rank = _merge_royals.py_func(loose), _by_rank.py_func
    ranked, first, second = by_rank(loose), by_rank(s0), by_rank(s1)
    kinds = [(merged >> (4 * t)) & 15 for t in range(7)]
    ranks = [max((first >> (4 * r)) & 15, (second >> (4 * r)) & 15) + ((ranked >> (4 * r)) & 15)
             if r in _RANKS else 0 for r in range(8)]
    if wider is not None and wider[0]:
        kinds = [max(k, int(w)) for k, w in zip(kinds, wider[1:8], strict=True)]
        ranks = [max(r, int(w)) for r, w in zip(ranks, wider[8:16], strict=True)]
    return kinds, ranks


def codec_for(root: np.ndarray, wider: np.ndarray | None = None) -> np.ndarray:
    """The compact keys of the states below ``root`` (seven ints, seat 0 to act; and of those
    ``wider`` keys, if given): ``codec[0]`` is 0 when they do not fit 56 bits (the table keeps
    full rows then)."""
    kinds, ranks = _bounds(root, wider)
    fits = tablefile.compact_keys(kinds, ranks) <= tablefile.COMPACT_LIMIT
    return np.array([int(fits), *kinds, *ranks], dtype=np.int64)


def codec_fits(codec: np.ndarray, root: np.ndarray) -> bool:
    """Whether the compact keys of ``codec`` hold every state below ``root``."""
    if not codec[0]:
        return False
    kinds, ranks = _bounds(root)
    bounds = codec.tolist()
    return all(k <= w for k, w in zip(kinds, bounds[1:8], strict=True)) \
        and all(r <= w for r, w in zip(ranks, bounds[8:16], strict=True))


@_jit
def _share(first: int, second: int) -> float:
    if first > second:
        return 1.0
    return 0.5 if first == second else 0.0


@_jit
def _drunk(cup: int, stomach: int, zones: np.ndarray, probs: np.ndarray, r: int) -> int:
    """The stomachs after drinking ``cup`` (and throwing up if it held a Ranger), in row
    ``r``."""
    if cup & _RANGERS:
        return _throw_ups(stomach + cup, zones, probs, r)
    zones[r, 0] = stomach + cup
    probs[r, 0] = 1.0
    return 1


@_jit
def _final(c0: int, c1: int, s0: int, s1: int, zones: np.ndarray, probs: np.ndarray
           ) -> float:
    """Seat 0's value at the end of the game: both drink, throw-ups follow Rangers.
    ``zones`` and ``probs`` are 2 x 36 scratch arrays."""
    na = _drunk(c0, s0, zones, probs, 0)
    nb = _drunk(c1, s1, zones, probs, 1)
    for j in range(nb):  # the other stomach's standings, once
        zones[1, j] = _standing(zones[1, j])
    value = 0.0
    for i in range(na):
        mine = _standing(zones[0, i])
        for j in range(nb):
            value += probs[0, i] * probs[1, j] * _share(mine, zones[1, j])
    return value


_FINAL = 5
"""A child that is the end of the game (valued in closed form, never pushed)."""
_AHEAD = 8
"""How many children's table rows are prefetched ahead of the one being valued (measured: 2 to
36 all within a few percent; prefetching none is a third slower)."""
_MAX_CHILDREN = 36
"""At most 8 hero types to draw, 36 pairs to throw up, 1 + 1 + 1 + 8 + 2 + 1 + 1 options."""


@_jit
def _add(children: np.ndarray, weights: np.ndarray, flips: np.ndarray, d: int, n: int,
         phase: int, held: int, bag: int, c0: int, c1: int, s0: int, s1: int, weight: float
         ) -> int:
    """Append a child to row ``d``; a turn that is over becomes the other monster's draw, seen
    from its seat (its value flipped), or the end of the game."""
    flip = 0
    if phase == _END:
        if bag:
            phase, held, c0, c1, s0, s1, flip = DRAW, -1, c1, c0, s1, s0, 1
        else:
            phase = _FINAL
    children[d, n, 0], children[d, n, 1], children[d, n, 2] = phase, held, bag
    children[d, n, 3], children[d, n, 4], children[d, n, 5], children[d, n, 6] = c0, c1, s0, s1
    weights[d, n] = weight
    flips[d, n] = flip
    return n + 1


@_jit
def _expand(phase: int, held: int, bag: int, c0: int, c1: int, s0: int, s1: int,
            children: np.ndarray, weights: np.ndarray, flips: np.ndarray, d: int,
            zones: np.ndarray, probs: np.ndarray) -> int:
    """Write the children of a state (seat 0 to act) in row ``d`` of ``children`` (rows of 36
    x 7 ints), ``weights`` and ``flips``, and return how many: the draws with their
    probabilities, the throw-ups with theirs, or the options for the hero in hand."""
    n = 0
    if phase == DRAW:
        total = _size(bag)
        for h in range(8):
            k = (bag >> (4 * h)) & 15
            if h == _KING and k:  # King and Queen are the same hero to the rules: one draw
                k += (bag >> (4 * _QUEEN)) & 15
            elif h == _QUEEN and (bag >> (4 * _KING)) & 15:
                continue
            if k:
                n = _add(children, weights, flips, d, n, CHOOSE, h, bag - (1 << (4 * h)),
                         c0, c1, s0, s1, k / total)
        return n
    if phase == THROW_UP:  # seat 0 drank a Ranger during its turn
        k = _throw_ups(s0, zones, probs, 0)
        for i in range(k):
            n = _add(children, weights, flips, d, n, _END, -1, bag, c0, c1, zones[0, i], s1,
                     probs[0, i])
        return n
    # CHOOSE: cup the hero in hand, or squish it for its ability (a royal copies any).  As
    # in the rules engine, every use that changes nothing is one option (``idle``).
    n = _add(children, weights, flips, d, n, _END, -1, bag, c0 + (1 << (4 * held)), c1, s0, s1,
             1.0)
    if held == _RANGER:
        return n
    idle = False
    first, last = (held, held) if held < _KING else (_FIGHTER, _BARD)
    for ability in range(first, last + 1):
        if ability == _FIGHTER:  # drink my teacup
            if c0 == 0:
                idle = True
            else:
                after = THROW_UP if c0 & _RANGERS else _END
                n = _add(children, weights, flips, d, n, after, -1, bag, 0, c1, s0 + c0, s1, 1.0)
        elif ability == _CLERIC:  # draw again (nothing when the bag is empty)
            if bag == 0:
                idle = True
            else:
                n = _add(children, weights, flips, d, n, DRAW, -1, bag, c0, c1, s0, s1, 1.0)
        elif ability == _ROGUE:  # steal one hero from the other teacup, then choose
            if c1 == 0:
                idle = True
            for h in range(8):
                if (c1 >> (4 * h)) & 15 and not (h == _QUEEN and (c1 >> (4 * _KING)) & 15):
                    n = _add(children, weights, flips, d, n, CHOOSE, h, bag, c0,
                             c1 - (1 << (4 * h)), s0, s1, 1.0)
        elif ability == _WIZARD:  # pour any teacup back into the bag (an empty one: idle)
            if c0 == 0 or c1 == 0:
                idle = True
            if c0:
                n = _add(children, weights, flips, d, n, _END, -1, bag + c0, 0, c1, s0, s1, 1.0)
            if c1:
                n = _add(children, weights, flips, d, n, _END, -1, bag + c1, c0, 0, s0, s1, 1.0)
        elif ability == _BARD:  # swap teacups (equal ones: idle)
            if c0 == c1:
                idle = True
            else:
                n = _add(children, weights, flips, d, n, _END, -1, bag, c1, c0, s0, s1, 1.0)
    if idle:
        n = _add(children, weights, flips, d, n, _END, -1, bag, c0, c1, s0, s1, 1.0)
    return n


@_jit
def _search(root: np.ndarray, table: np.ndarray, used: np.ndarray, classes: np.ndarray,
            codec: np.ndarray, counters: np.ndarray, stop: np.ndarray, phases: np.ndarray,
            keys: np.ndarray, totals: np.ndarray, cursor: np.ndarray, sizes: np.ndarray,
            children: np.ndarray, weights: np.ndarray, flips: np.ndarray,
            child_keys: np.ndarray, zones: np.ndarray, probs: np.ndarray, origin: np.ndarray,
            terms: np.ndarray) -> float:
    """Seat 0's exact win share of ``root`` (seven ints: phase, held, bag, cups, stomachs;
    seat 0 to act), by depth-first expectimax over an explicit stack (per frame: its phase,
    its key, slot, nodes when pushed and the table's generation then, its total, its next
    child, its children with their weights, flips, keys and home slots).  Sets
    ``counters[_CUT]`` (and returns garbage) when the node limit is reached or the table is
    full enough to grow; the table then holds only finished values.  A table that may not grow
    (``counters[_CAPPED]``) is purged instead (:func:`_purge`, counted in
    ``counters[_PURGES]``), and the search goes on: the stack's values do not depend on the
    table, and a frame pushed before a purge looks its slot up again.  Every value stored
    carries its subtree's size class; ``classes`` counts them.

    Several searches of one root may run at once, one a thread, sharing the table (see
    :attr:`CompiledExpectimax.threads`): each stops at its next push once ``stop[0]`` is set,
    and sets it when it stops (its node limit reached, the table full, the root valued), so
    that they all stop together; ``counters[_ORDER]`` has this one search its children in
    another order (:func:`_reorder`), a chance node's terms kept in ``terms`` and summed in
    the first search's order.  Their stores claim a slot before writing it (:func:`_keep`),
    and a probe trusts only a row whose words agree (:func:`_find`).

    The table (``table``, its rows, and its bitmap ``used``: see :class:`Table`) is far
    bigger than the processor's caches, so a probe mostly waits for memory.  The keys and
    home slots of the next ``_AHEAD`` children are computed ahead and their rows prefetched,
    so that the waits overlap instead of following one another; a frame remembers the slot its
    key was missing from, and stores its value there unless another key took it meanwhile."""
    use_table = counters[_USE_TABLE] != 0
    capped = counters[_CAPPED] != 0
    # The counters live in registers until the kernel returns (``_leave``).
    nodes, limit, hits = counters[_NODES], counters[_LIMIT], counters[_HITS]
    entries, grow_at = counters[_ENTRIES], counters[_GROW_AT]
    generation = counters[_GEN]
    full = False  # the table is full and may grow: stop at the next state to push
    slots = table.shape[0]
    max_depth = phases.shape[0]
    if counters[_RESUME]:  # where the last call stopped: its stack, and the state it was at
        depth = counters[_DEPTH]
        phase, held, bag, c0, c1, s0, s1 = counters[_PENDING], counters[_PENDING + 1], \
            counters[_PENDING + 2], counters[_PENDING + 3], counters[_PENDING + 4], \
            counters[_PENDING + 5], counters[_PENDING + 6]
        if use_table and counters[_SLOTS] != slots:  # the table grew: new homes
            for d in range(depth + 1):
                for i in range(cursor[d], sizes[d]):
                    _child_key(children, d, i, child_keys, table, used, slots, codec)
    else:
        depth = -1
        phase, held, bag, c0, c1, s0, s1 = root[0], root[1], root[2], root[3], root[4], \
            root[5], root[6]
    k0 = k1 = k2 = 0  # a state never stored has no key (compact keys have none for it)
    if use_table and _stored(phase):
        k0, k1, k2 = _state_key(phase, held, bag, c0, c1, s0, s1, codec)
    home = _home(slots, k0, k1, k2)
    order = counters[_ORDER]
    while True:
        # Value the state (key ``k0, k1, k2``, probed from ``home``) at once if possible, else
        # push it.
        value = -1.0
        stored = use_table and _stored(phase)
        slot, hit, found = 0, False, 0.0
        if stored:
            slot, hit, found = _find(table, used, home, k0, k1, k2)
        if hit:
            hits += 1
            value = found
        else:
            if nodes >= limit or full or _load_relaxed(stop, 0) != 0:
                # Stop here; the next call may resume at this state.
                stop[0] = 1
                counters[_DEPTH] = depth
                counters[_PENDING], counters[_PENDING + 1], counters[_PENDING + 2] = \
                    phase, held, bag
                counters[_PENDING + 3], counters[_PENDING + 4] = c0, c1
                counters[_PENDING + 5], counters[_PENDING + 6] = s0, s1
                counters[_GEN], counters[_SLOTS] = generation, slots
                return _leave(counters, nodes, hits, entries, True)
            nodes += 1
            if phase == _FINAL:
                value = _final(c0, c1, s0, s1, zones, probs)
                if stored:
                    entries, kept = _keep(table, used, classes, counters, slot,
                                          k0, k1, k2, 1, value, entries, grow_at, capped)
                    if kept == _PURGED:
                        generation += 1
                    full = kept == _FULL
            else:
                value = _settled(phase, held, bag, c0, c1, s0, s1)
                if value < 0.0:
                    depth += 1
                    if depth == max_depth:
                        raise ValueError("the game is deeper than the search stack")
                    phases[depth] = phase
                    keys[depth, 0], keys[depth, 1], keys[depth, 2] = k0, k1, k2
                    keys[depth, 3], keys[depth, 4], keys[depth, 5] = slot, nodes, generation
                    totals[depth] = 0.0 if phase != CHOOSE else -1.0
                    cursor[depth] = 0
                    n = _expand(phase, held, bag, c0, c1, s0, s1, children, weights, flips,
                                depth, zones, probs)
                    sizes[depth] = n
                    if order:
                        _reorder(children, weights, flips, origin, terms, depth, n, order)
                    if use_table:
                        for i in range(min(n, _AHEAD)):
                            _child_key(children, depth, i, child_keys, table, used, slots,
                                       codec)
        # Fold finished values into their parents; descend into the next child.
        while True:
            if value >= 0.0:
                if depth < 0:
                    stop[0] = 1
                    _leave(counters, nodes, hits, entries, False)
                    return value
                i = cursor[depth] - 1
                if flips[depth, i]:
                    value = 1.0 - value
                if phases[depth] == CHOOSE:
                    totals[depth] = max(totals[depth], value)
                    if value >= 1.0:  # a certain win: no other option can beat it
                        cursor[depth] = sizes[depth]
                elif order:  # summed in the first lane's order once all are in (below)
                    terms[depth, origin[depth, i]] = weights[depth, i] * value
                else:
                    totals[depth] += weights[depth, i] * value
                value = -1.0
            i = cursor[depth]
            if i < sizes[depth]:
                phase, held, bag = children[depth, i, 0], children[depth, i, 1], \
                    children[depth, i, 2]
                c0, c1, s0, s1 = children[depth, i, 3], children[depth, i, 4], \
                    children[depth, i, 5], children[depth, i, 6]
                if use_table:
                    if i + _AHEAD < sizes[depth]:
                        _child_key(children, depth, i + _AHEAD, child_keys, table, used,
                                   slots, codec)
                    k0, k1, k2, home = child_keys[depth, i, 0], child_keys[depth, i, 1], \
                        child_keys[depth, i, 2], child_keys[depth, i, 3]
                cursor[depth] = i + 1
                break
            value = totals[depth]
            if order and phases[depth] != CHOOSE:
                for j in range(sizes[depth]):
                    value += terms[depth, j]
            if use_table and _stored(phases[depth]):
                k0, k1, k2, slot = keys[depth, 0], keys[depth, 1], keys[depth, 2], keys[depth, 3]
                # Taken meanwhile (the key goes further on), or moved since (a purge, a
                # growth): look again.
                if _taken(used, slot) or keys[depth, 5] != generation:
                    slot = _slot(table, used, k0, k1, k2)
                entries, kept = _keep(table, used, classes, counters, slot, k0,
                                      k1, k2, _size_class(nodes - keys[depth, 4] + 1), value,
                                      entries, grow_at, capped)
                if kept == _PURGED:
                    generation += 1
                full = full or kept == _FULL
            depth -= 1
            if depth < 0:
                stop[0] = 1
                _leave(counters, nodes, hits, entries, False)
                return value


_STORED, _PURGED, _FULL = range(3)


@_jit
def _stored(phase: int) -> bool:
    """Whether states of this phase go in the table: a draw and the end of the game, not a
    choice nor a throw-up.  Those come from a state just before them in the same turn (a draw;
    a Rogue's steal; a drink), so their values are mostly asked again only when that state is
    searched again, and it is stored.  Measured on 13 heroes seed 2: storing every state took
    16.6 M entries and 17.0 M nodes; draws and ends only, 5.4 M entries and 23.6 M nodes, in
    less time (a probe that cannot hit is not made)."""
    return phase in (DRAW, _FINAL)


@_jit
def _keep(table: np.ndarray, used: np.ndarray, classes: np.ndarray, counters: np.ndarray,
          slot: int, k0: int, k1: int, k2: int, size: int, value: float, entries: int,
          grow_at: int, capped: bool) -> tuple[int, int]:
    """Store a finished value of size class ``size`` in its (empty) slot, unless the table is
    full: then a table that may not grow is purged first (and the key's slot looked up
    again), and one that may grow stores nothing (the search stops at its next push for the
    table to grow).  A slot another thread's search claimed first sends it on to the key's
    slot again: if that search stored this very key, nothing is stored (nor counted).  The
    entries then, and ``_STORED``, ``_PURGED`` or ``_FULL``."""
    kept = _STORED
    if entries >= grow_at:
        if not capped:
            return entries, _FULL
        entries = _purge(table, used, classes, grow_at)
        counters[_PURGES] += 1
        slot = _slot(table, used, k0, k1, k2)
        kept = _PURGED
    while not _store(table, used, slot, k0 | size << _SIZE_SHIFT, k1, k2, value):
        slot = _slot(table, used, k0, k1, k2)
        if _taken(used, slot):
            return entries, kept
    classes[size] += 1
    return entries + 1, kept


@_jit
def _reverse(children: np.ndarray, weights: np.ndarray, flips: np.ndarray, origin: np.ndarray,
             d: int, first: int, end: int) -> None:
    """Put children ``first`` to ``end - 1`` of row ``d`` last to first (with their weights,
    flips and places in the first lane's order)."""
    for i in range((end - first) // 2):
        a, b = first + i, end - 1 - i
        for w in range(children.shape[2]):
            children[d, a, w], children[d, b, w] = children[d, b, w], children[d, a, w]
        weights[d, a], weights[d, b] = weights[d, b], weights[d, a]
        flips[d, a], flips[d, b] = flips[d, b], flips[d, a]
        origin[d, a], origin[d, b] = origin[d, b], origin[d, a]


@_jit
def _reorder(children: np.ndarray, weights: np.ndarray, flips: np.ndarray, origin: np.ndarray,
             terms: np.ndarray, d: int, n: int, order: int) -> None:
    """The ``n`` children of row ``d`` in the order of lane ``order``: an odd lane takes them
    last to first, and every lane past the second starts ``order // 2`` children further on.
    ``origin[d, i]`` is then where child ``i`` came in the first lane's order, so that a chance
    node's terms are summed in that order whatever the lane (:func:`_search`): every lane
    values a state to the same bits."""
    for i in range(n):
        origin[d, i] = i
        # A child whose value rounds a hair below 0 is not folded (value -1 marks none):
        # its term stays 0, as the first lane adds nothing for it.
        terms[d, i] = 0.0
    if order & 1:
        _reverse(children, weights, flips, origin, d, 0, n)
    shift = (order >> 1) % n
    if shift:
        _reverse(children, weights, flips, origin, d, 0, shift)
        _reverse(children, weights, flips, origin, d, shift, n)
        _reverse(children, weights, flips, origin, d, 0, n)


@_jit
def _child_key(children: np.ndarray, d: int, i: int, child_keys: np.ndarray,
               table: np.ndarray, used: np.ndarray, slots: int, codec: np.ndarray) -> None:
    """Write the key of child ``i`` in row ``d`` and its home slot; prefetch that row of the
    table."""
    phase, c0, c1, s0, s1 = children[d, i, 0], children[d, i, 3], children[d, i, 4], \
        children[d, i, 5], children[d, i, 6]
    if not _stored(phase):  # never looked up
        child_keys[d, i, 3] = 0
        return
    k0, k1, k2 = _state_key(phase, children[d, i, 1], children[d, i, 2], c0, c1, s0, s1,
                            codec)
    home = _home(slots, k0, k1, k2)
    child_keys[d, i, 0], child_keys[d, i, 1], child_keys[d, i, 2] = k0, k1, k2
    child_keys[d, i, 3] = home
    _prefetch(table, home)
    _prefetch(used, home >> 6)


@_jit
def _store(table: np.ndarray, used: np.ndarray, slot: int, k0: int, k1: int, k2: int,
           value: float) -> bool:
    """Store a finished value in its empty slot (``k0`` with its size class; a compact row
    keeps ``k0`` alone), unless another thread's search claimed that slot first
    (:func:`_claim`): then ``False``, and nothing is written."""
    if not _claim(used, slot):
        return False
    _write_row(table, slot, k0, k1, k2, _as_bits(value))
    return True


@_jit
def _leave(counters: np.ndarray, nodes: int, hits: int, entries: int, cut: bool) -> float:
    """Write the kernel's counters back; with ``cut``, the search was cut (when the node limit
    is reached or the table is full enough to grow)."""
    counters[_NODES], counters[_HITS], counters[_ENTRIES] = nodes, hits, entries
    counters[_CUT] = cut
    return 0.0


def packed(state: TeaPartyState) -> np.ndarray:
    """A two-monster state as the kernel takes it: seven ints (phase, hero in hand, bag, the
    teacups and the stomachs), the monster to act in seat 0."""
    cups, stomachs = state.cups, state.stomachs
    if state.player == 1:
        cups, stomachs = cups[::-1], stomachs[::-1]
    return np.array([state.phase, state.held, state.bag, cups[0], cups[1], stomachs[0],
                     stomachs[1]], dtype=np.int64)


class CompiledExpectimax(Expectimax):
    """Exact two-player search with the compiled kernel, with the interface of
    :class:`Expectimax` (``value``, ``best_action``, ``principal_line``, the meter's counts).

    ``table`` may be a :class:`Table` shared between searches of one game (it
    only holds finished values)."""

    method = "exact expectimax, compiled (numba)"
    CHUNK = 1 << 16
    """Nodes per kernel call (about a hundredth of a second): the time limit is checked between
    calls, and each call goes on from the stack the last one left.  Without the table the
    search is one call, bounded by its node limit only."""
    MAX_DEPTH = 1024
    """Frames on the search stack (a game is far shallower: one or two per hero drawn)."""

    PRESIZE_SLOTS = 1 << 23
    """The most slots the table is given up front for a big budget (8 million: 256 MiB of full
    rows, 128 MiB of compact ones, and 1 MiB of bitmap); past them it grows only when it is
    full."""
    PROGRESS_EVERY = 30.0
    """Seconds between two calls of :attr:`progress`."""
    NODES_PER_SECOND = 5_000_000
    """The rate assumed to turn a time limit into a number of states to make room for (about
    the search's own on 8- to 10-hero positions)."""

    def __init__(self, budget: Budget, transpositions: bool = True,
                 table: Table | None = None, threads: int = 1) -> None:
        super().__init__(budget, transpositions=False)
        self.transpositions = transpositions
        self.kernel_table = Table() if table is None else table
        self.counters = np.zeros(_COUNTERS, dtype=np.int64)
        self.counters[_USE_TABLE] = int(transpositions)
        self._cut_seat: int | None = None
        """The seat to act in the state the last :meth:`value` was cut short on, if it was."""
        self.progress: Callable[[CompiledExpectimax], None] | None = None
        """Called between chunks, at most every :attr:`PROGRESS_EVERY` seconds, while a search
        runs (a long search's report: :meth:`done_share`, the meter, the table)."""
        self._next_report = time.perf_counter() + self.PROGRESS_EVERY
        self.work = self._stack()
        self.threads = threads
        """How many searches of the root run at once, one a thread, sharing the table (each
        its children in another order: :func:`_search`); the first to value the root answers.
        One on a fixed table or without the table."""
        self._more: list[tuple[np.ndarray, tuple[np.ndarray, ...], np.ndarray]] = []
        """The lanes past the first (:meth:`_lanes`), made when first needed."""
        self._stop = np.zeros(1, dtype=np.int64)
        self._pool: ThreadPoolExecutor | None = None

    def _stack(self) -> tuple[np.ndarray, ...]:
        """A search's stack (``_search``'s arrays after ``stop``)."""
        depth = self.MAX_DEPTH
        return (np.zeros(depth, dtype=np.int64), np.zeros((depth, 6), dtype=np.int64),
                np.zeros(depth), np.zeros(depth, dtype=np.int64),
                np.zeros(depth, dtype=np.int64),
                np.zeros((depth, _MAX_CHILDREN, 7), dtype=np.int64),
                np.zeros((depth, _MAX_CHILDREN)), np.zeros((depth, _MAX_CHILDREN), np.int8),
                np.zeros((depth, _MAX_CHILDREN, 4), dtype=np.int64),
                np.zeros((2, _MAX_CHILDREN), dtype=np.int64), np.zeros((2, _MAX_CHILDREN)),
                np.zeros((depth, _MAX_CHILDREN), dtype=np.int64),
                np.zeros((depth, _MAX_CHILDREN)))

    def _presize(self) -> None:
        """Grow the table now to what the budget says the search may store (capped at
        ``PRESIZE_SLOTS``): growing it mid-search costs a rehash, fresh memory and a walk back
        down from the root (measured on the benchmark's 8- and 10-hero roots: 0.80 s and
        1.64 s doubling from 65,536 slots, 0.56 s and 0.90 s with the table made first).  The
        price is a search far smaller than its budget: the system clears the table's memory
        as it is first touched (up to 0.2-0.6 s for 8 million slots the first time a process
        touches that much on the development machines, a few hundredths after).  An unlimited
        budget starts small."""
        budget = self.meter.budget
        nodes = None if budget.nodes is None else budget.nodes - self.meter.nodes
        if budget.time is not None:
            by_time = int(budget.time * self.NODES_PER_SECOND)
            nodes = by_time if nodes is None else min(nodes, by_time)
        table = self.kernel_table
        if nodes is None or table.fixed:
            return
        slots = _slots_for(table.entries + nodes, table.slots,
                           min(self.PRESIZE_SLOTS, table.most))
        if slots > table.slots:
            table.grow(slots)

    @classmethod
    def check(cls, state: State) -> None:
        if not isinstance(state, TeaPartyState) or state.num_players != 2:
            raise ValueError("the compiled search solves Epic Monster Tea Party for two "
                             "monsters only")

    def size(self) -> int:
        return len(self.kernel_table) if self.transpositions else 0

    def done_share(self) -> float:
        """The share of the search done, read from the stack a cut chunk left: each finished
        child counts its weight (a draw's or a throw-up's odds; a choice's options alike) times
        its parents', the child in progress is counted the same way, one level down.  An
        estimate of progress for a long search, not a bound: subtrees of the same weight are
        not of the same size, and the later ones meet more of the table."""
        phases, _, _, cursor, sizes, _, weights = self.work[:7]
        done, reach = 0.0, 1.0
        for d in range(int(self.counters[_DEPTH]) + 1):
            n, current = int(sizes[d]), int(cursor[d]) - 1  # the child being searched
            shares = [1.0 / n] * n if phases[d] == CHOOSE else [float(w) for w in weights[d, :n]]
            done += reach * sum(shares[:current])
            reach *= shares[current]
        return done

    def _cut(self, state: TeaPartyState) -> None:
        """Remember that the search of ``state`` was cut short, for :meth:`cut_bounds` to read
        its stack (only when asked: MCTS's subtree searches are cut thousands of times)."""
        self._cut_seat = state.player

    def cut_bounds(self) -> tuple[tuple[float, float], ...] | None:
        if self._cut_seat is None:
            return None
        low, high = self.stack_bounds()
        if self._cut_seat == 1:
            low, high = 1.0 - high, 1.0 - low
        return ((low, high), (1.0 - high, 1.0 - low))

    def stack_bounds(self) -> tuple[float, float]:
        """Proven bounds on seat 0's value of the root of a search cut short (the kernel's
        root: the monster to act in seat 0), read from the stack it left: every finished child's
        value is exact, and every other counts as [0, 1].  From the state the search stopped
        at ([0, 1]) up to the root: a chance frame adds its finished outcomes' weighted values,
        the one in progress at its interval's weight, and those not yet searched at 0 or 1; a
        decision frame takes the best finished option or the one in progress as its low, and as
        its high 1 while options are left, else the greater of the two.  Sound whatever the
        table dropped: the stack's values never depend on it."""
        phases, _, totals, cursor, sizes, _, weights, flips = self.work[:8]
        low, high = 0.0, 1.0
        for d in range(int(self.counters[_DEPTH]), -1, -1):
            i, n = int(cursor[d]) - 1, int(sizes[d])  # the child in progress
            if flips[d, i]:
                low, high = 1.0 - high, 1.0 - low
            done = float(totals[d])
            if phases[d] == CHOOSE:  # ``done``: the best finished option, -1 if none
                low, high = max(done, low), 1.0 if i + 1 < n else max(done, high)
            else:
                weight, rest = float(weights[d, i]), float(weights[d, i + 1:n].sum())
                low, high = done + weight * low, done + weight * high + rest
        return max(low, 0.0), min(high, 1.0)

    def principal_line(self, state: State, limit: int = 200) -> tuple[Hashable, ...]:
        """The best line, read from the table.  Only draws and ends of the game are stored
        (:func:`_stored`), so each choice along the line is searched again, down to the stored
        draws below it (a few nodes a step): those nodes are counted but not held to the node
        budget, which the search itself spent (the time limit still holds)."""
        budget = self.meter.budget
        self.meter.budget = replace(budget, nodes=None)
        try:
            return super().principal_line(state, limit)
        finally:
            self.meter.budget = budget

    def value(self, state: State) -> Values:
        self.check(state)
        assert isinstance(state, TeaPartyState)
        self._cut_seat = None
        if state.phase == OVER or (state.phase == THROW_UP and state.final):
            # The end-of-game drinking, mid-way: a few throw-ups left (the generic search).
            small = Expectimax(Budget())
            values = small.value(state)
            self.meter.nodes += small.meter.nodes
            return values
        seat0 = self._kernel(state)
        return (seat0, 1.0 - seat0)

    def _kernel(self, state: TeaPartyState) -> float:
        assert state.phase != THROW_UP or state.thrower == state.player, \
            "during a turn only the monster whose turn it is throws up"
        limit = self.meter.budget.nodes
        root = packed(state)
        if not _search.signatures:  # a first call in this process: may compile
            before_compiling(TEA_PARTY_SEARCH)
        if self.transpositions:
            self.kernel_table.adopt(root)
            self._presize()
        lanes = self._lanes()
        cleared = False
        resume = False  # the next call goes on where the last one stopped (its stack)
        while True:
            table = self.kernel_table
            left = 2**62 if limit is None else max(limit - self.meter.nodes, 0)
            # Without the table a cut search cannot resume: one call, the node limit only.
            chunk = min(left, self.CHUNK) if self.transpositions else left
            grow_at = table.grow_at
            if len(lanes) > 1:
                # Each lane may store its share of the room left (a lane past its share stops
                # storing, and stops), so that together they never fill the table; between
                # rounds the table grows or is purged.
                room = (table.grow_at - table.entries) // len(lanes)
                if room < self.CHUNK // 16:
                    self._make_room(lanes)
                    continue
                chunk = min(max(left // len(lanes), 1), self.CHUNK, room)
                grow_at = table.entries + room
            entries, starts = table.entries, []
            for lane in lanes:
                counters = lane[0]
                if not resume:
                    counters[_NODES] = counters[_GEN] = 0
                starts.append(int(counters[_NODES]))  # counted from the call that started afresh
                counters[_HITS] = counters[_CUT] = counters[_PURGES] = 0
                counters[_LIMIT] = starts[-1] + chunk
                counters[_ENTRIES], counters[_GROW_AT] = entries, grow_at
                counters[_CAPPED] = table.capped and not table.fixed and len(lanes) == 1
                counters[_RESUME] = resume
            values = self._round(lanes, root)
            for lane, start in zip(lanes, starts, strict=True):
                counters, classes = lane[0], lane[2]
                table.entries += int(counters[_ENTRIES]) - entries
                table.purges += int(counters[_PURGES])
                self.meter.nodes += int(counters[_NODES]) - start
                self.hits += int(counters[_HITS])
                if classes is not table.sizes:
                    table.sizes += classes
                    classes.fill(0)
            for lane, value in zip(lanes, values, strict=True):
                if not lane[0][_CUT]:
                    return 1.0 - value if state.player == 1 else value
            if self.meter.exhausted():
                self._cut(state)
                raise BudgetExhausted
            resume = True
            if self.progress is not None and time.perf_counter() >= self._next_report:
                self.progress(self)
                self._next_report = time.perf_counter() + self.PROGRESS_EVERY
            if len(lanes) == 1 and table.entries >= table.grow_at:
                if table.fixed:  # values from earlier searches go; this one starts afresh
                    if cleared:
                        self._cut(state)
                        raise BudgetExhausted  # too small for this search alone
                    table.clear()
                    cleared = True
                    resume = False
                elif not table.capped:  # (a capped one is purged as it stores instead)
                    self._make_room(lanes)

    def _lanes(self) -> list[tuple[np.ndarray, tuple[np.ndarray, ...], np.ndarray]]:
        """The searches to run at once, each its counters, its stack and the size classes it
        stores (the table's own for the first): :attr:`threads` of them on a table that may
        grow or purge (a fixed one is emptied when full, which would stop every lane to start
        afresh: one search), else one."""
        table = self.kernel_table
        threads = self.threads if self.transpositions and not table.fixed else 1
        lanes = [(self.counters, self.work, table.sizes)]
        for t in range(1, threads):
            if len(self._more) < t:
                counters = np.zeros(_COUNTERS, dtype=np.int64)
                counters[_USE_TABLE], counters[_ORDER] = 1, t
                self._more.append((counters, self._stack(), np.zeros(_CLASSES, np.int64)))
            lanes.append(self._more[t - 1])
        return lanes

    def _round(self, lanes: list[tuple[np.ndarray, tuple[np.ndarray, ...], np.ndarray]],
               root: np.ndarray) -> list[float]:
        """Run one call of the kernel for each lane, the first on this thread and the others on
        threads of their own, until all have stopped (they stop together: ``stop``)."""
        table = self.kernel_table
        stop = self._stop
        stop[0] = 0

        def run(lane: tuple[np.ndarray, tuple[np.ndarray, ...], np.ndarray]) -> float:
            return float(_search(root, table.rows, table.used, lane[2], table.codec, lane[0],
                                 stop, *lane[1]))

        if len(lanes) == 1:
            return [run(lanes[0])]
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.threads - 1,
                                            thread_name_prefix="tea-party-search")
        others = [self._pool.submit(run, lane) for lane in lanes[1:]]
        try:
            first = run(lanes[0])
        finally:
            # Never leave a lane writing the table behind an error or Ctrl+C (the table may
            # be saved next): tell them to stop, and wait for them.
            stop[0] = 1
            while not all(f.done() for f in others):
                try:
                    futures.wait(others)
                except KeyboardInterrupt:
                    continue
        return [first] + [f.result() for f in others]

    def _make_room(self, lanes: list[tuple[np.ndarray, tuple[np.ndarray, ...], np.ndarray]]
                   ) -> None:
        """Between two calls of the kernel, a table without room for another: grown, or (with
        several lanes) purged once it may grow no more; every slot may have moved, so every
        lane's frames look their slots up again.  (One lane on a capped table purges it
        itself, as it stores.)"""
        table = self.kernel_table
        if table.capped:
            table.entries = _purge(table.rows, table.used, table.sizes, table.grow_at)
            table.purges += 1
        else:
            table.grow()
        for lane in lanes:
            lane[0][_GEN] += 1


@_jit
def _material(cup: int, stomach: int, other_cup: int, other: int, thrower: bool,
              drawing: int) -> float:
    """Greedy's evaluation (``policies.greedy_value``) of a child for the monster
    whose cup and stomach are ``cup`` and ``stomach``: stomach points plus teacup points at
    ``CUP_RISK``, a throw-up to come (``thrower``) at its expectation, its own draw to come
    from the bag ``drawing`` (after a Cleric) as the bag's average hero in the teacup; minus
    the other monster's material."""
    mine = _points(stomach) + _CUP_RISK * _points(cup)
    if thrower:
        total = _size(stomach)
        if total:
            mine -= min(2, total) * _points(stomach) / total
    if drawing:
        mine += _CUP_RISK * _points(drawing) / _size(drawing)
    return mine - (_points(other) + _CUP_RISK * _points(other_cup))


@_jit
def _greedy(children: np.ndarray, flips: np.ndarray, k: int) -> int:
    """The child greedy picks among ``k`` options (seat 0 chooses; the first of equals)."""
    best, best_value = 0, -1e18
    for i in range(k):
        phase, bag = children[0, i, 0], children[0, i, 2]
        c0, c1, s0, s1 = children[0, i, 3], children[0, i, 4], children[0, i, 5], \
            children[0, i, 6]
        if flips[0, i]:  # the other monster's draw, seen from its seat: mine is (c1, s1)
            value = _material(c1, s1, c0, s0, False, 0)
        else:
            value = _material(c0, s0, c1, s1, phase == THROW_UP, bag if phase == DRAW else 0)
        if value > best_value:
            best, best_value = i, value
    return best


@_jit
def _playouts(root: np.ndarray, n: int, seed: int, children: np.ndarray, weights: np.ndarray,
              flips: np.ndarray, zones: np.ndarray, probs: np.ndarray,
              greedy: float = 0.0) -> float:
    """Seat 0's mean win share over ``n`` playouts from ``root`` (seven ints, seat 0 to act;
    not an end of the game): at each decision, with probability ``greedy`` the option greedy
    picks (:func:`_greedy`), else one drawn uniformly among the rules engine's options
    (``_expand`` lists the same); chance drawn with its odds, the end of the game valued in
    closed form (its throw-ups averaged exactly).  ``children``, ``weights`` and ``flips``
    have one row, as ``_expand`` writes them."""
    np.random.seed(seed)
    total = 0.0
    for _ in range(n):
        phase, held, bag, c0, c1, s0, s1 = (root[0], root[1], root[2], root[3], root[4],
                                            root[5], root[6])
        flipped = 0
        while phase != _FINAL:
            k = _expand(phase, held, bag, c0, c1, s0, s1, children, weights, flips, 0, zones,
                        probs)
            i = k - 1
            if phase == CHOOSE:
                if greedy > 0.0 and np.random.random() < greedy:
                    i = _greedy(children, flips, k)
                else:
                    i = min(int(np.random.random() * k), k - 1)
            else:
                pick = np.random.random()
                for j in range(k):
                    pick -= weights[0, j]
                    if pick < 0.0:
                        i = j
                        break
            flipped ^= flips[0, i]
            phase, held, bag = children[0, i, 0], children[0, i, 1], children[0, i, 2]
            c0, c1, s0, s1 = children[0, i, 3], children[0, i, 4], children[0, i, 5], \
                children[0, i, 6]
        value = _final(c0, c1, s0, s1, zones, probs)
        total += 1.0 - value if flipped else value
    return total / n


class Playouts(KernelPlayouts):
    """:class:`.playouts.KernelPlayouts` run by numba's dispatcher (:func:`_playouts`)."""

    def __init__(self, n: int, greedy: float = 0.0) -> None:
        super().__init__(n, greedy, _MAX_CHILDREN)

    def _seat(self, root: np.ndarray, seed: int) -> float:
        return _playouts(root, self.n, seed, *self.work, self.greedy)


def warm_up() -> None:
    """Compile (first run) or load from numba's cache every kernel entry point, now: a
    search's clock should not pay for it.  Cheap once done in this process."""
    table = Table(64)
    search = CompiledExpectimax(Budget(), table=table)
    # The smallest decision there is: one hero in hand, an empty bag (entry point ``_search``).
    state = TeaPartyState.from_counts(("A", "B"), (0,) * 8, [(0,) * 8] * 2,
                                      [(1,) + (0,) * 7, (0,) * 8], held=Hero.FIGHTER)
    search.value(state)
    table.grow()  # entry point ``_rehash``
    table._rekey(np.zeros(_CODEC, dtype=np.int64))  # entry point ``_recode``
    Playouts(1)(state, random.Random(0))  # entry point ``_playouts``

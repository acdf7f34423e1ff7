"""Exact two-player Epic Monster Tea Party search, compiled to machine code with numba.

The rules engine in ``models/tea_party`` is the reference; this module restates the same rules
over packed integers so that the exact search expands some 700,000 to 1,000,000 states a second instead of
25,000.  ``tests/tea_party/test_tea_party_compiled.py`` holds it equal to the generic
expectimax over the rules engine on random positions.

What the compiled search does beyond the generic one:

* **Seat symmetry.**  With two monsters the rules are the same from either seat (the end-of-game
  drinks are independent, so their order does not matter), so every state is stored with the
  monster to act in seat 0: the other seat's value is one minus its own.
* **The end of the game in closed form**: both monsters drink; each drink holding a Ranger is
  followed by its throw-up; the value is summed over the pairs of throw-ups.
* **The same canonical key** as :meth:`TeaPartyState.key` (royals merged, stomach Bards counted
  as Rangers, stomachs reduced to standings when no Ranger is loose, teacups merged into
  stomachs when nothing can touch them), packed into three 64-bit integers, and the same
  certain-win test as :meth:`TeaPartyState.settled_returns`; a decision stops at an option
  that wins for certain.

The search is plain expectimax with a transposition table: on these positions alpha-beta/Star1
windows cut almost nothing (measured: 559,169 states without pruning against 557,637 nodes with
it on a 10-hero position), so every reachable state is valued once.  It runs in chunks of nodes
so that a time limit is honoured between chunks; a chunk cut short leaves only finished values
in the table, so the next chunk resumes where it stopped.
"""

from __future__ import annotations

import random

import numpy as np
from numba import njit

from ..models.protocol import State
from ..models.tea_party.game import POINTS, Hero
from ..models.tea_party.state import (
    _RANGERS,
    CHOOSE,
    DRAW,
    OVER,
    STANDING_WEIGHTS,
    THROW_UP,
    TeaPartyState,
)
from ..models.tea_party.state import _TOUCHES_CUPS as _TOUCHES
from .budget import Budget, BudgetExhausted
from .compiled import before_compiling
from .expectimax import Expectimax, Values
from .tea_party import COMPILE_SECONDS

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
_STANDING = np.array(STANDING_WEIGHTS, dtype=np.int64)
_ONES = np.ones(8, dtype=np.int64)

# Counters shared with the kernel, in one int64 array.
_NODES, _LIMIT, _HITS, _CUT, _USE_TABLE, _ENTRIES, _GROW_AT = range(7)

_EMPTY = -1
"""The first key word of an empty slot (a real key's first word is never negative)."""
_MAX_LOAD = 0.75
"""The table doubles when its slots are this full."""


@njit(cache=True)
def _slot(keys: np.ndarray, k0: int, k1: int, k2: int) -> int:
    """The slot of a key in an open-addressing table (linear probing): where it is, or the
    empty slot where it goes."""
    mask = keys.shape[0] - 1
    h = k0 * -7046029254386353131 + k1 * -4658895280553007687 + k2 * 7640891576956012809
    i = (h ^ (h >> 31)) & mask
    while True:
        first = keys[i, 0]
        if first == _EMPTY or (first == k0 and keys[i, 1] == k1 and keys[i, 2] == k2):
            return i
        i = (i + 1) & mask


@njit(cache=True)
def _rehash(keys: np.ndarray, values: np.ndarray, new_keys: np.ndarray,
            new_values: np.ndarray) -> None:
    for i in range(keys.shape[0]):
        if keys[i, 0] != _EMPTY:
            j = _slot(new_keys, keys[i, 0], keys[i, 1], keys[i, 2])
            new_keys[j, 0], new_keys[j, 1], new_keys[j, 2] = keys[i, 0], keys[i, 1], keys[i, 2]
            new_values[j] = values[i]


class Table:
    """The compiled search's transposition table: canonical keys (three 64-bit words) to
    seat 0's value, in flat arrays (32 bytes a slot, at most 75% full), doubled when full.
    It only ever holds finished values, so it can be shared by the searches of one game."""

    def __init__(self, slots: int = 1 << 16) -> None:
        assert slots & (slots - 1) == 0, "a power of two"
        self.keys = np.full((slots, 3), _EMPTY, dtype=np.int64)
        self.values = np.zeros(slots)
        self.entries = 0

    def __len__(self) -> int:
        return self.entries

    @property
    def grow_at(self) -> int:
        return int(self.keys.shape[0] * _MAX_LOAD)

    def grow(self) -> None:
        keys = np.full((2 * self.keys.shape[0], 3), _EMPTY, dtype=np.int64)
        values = np.zeros(keys.shape[0])
        _rehash(self.keys, self.values, keys, values)
        self.keys, self.values = keys, values


@njit(cache=True)
def _count(zone: int, hero: int) -> int:
    return (zone >> (4 * hero)) & 15


@njit(cache=True)
def _weighted(zone: int, weights: np.ndarray) -> int:
    """A quantity linear in a zone's counts: the sum of count times weight."""
    total = 0
    for h in range(8):
        total += ((zone >> (4 * h)) & 15) * weights[h]
    return total


@njit(cache=True)
def _points(zone: int) -> int:
    return _weighted(zone, _POINTS)


@njit(cache=True)
def _standing(zone: int) -> int:
    return _weighted(zone, _STANDING)


@njit(cache=True)
def _size(zone: int) -> int:
    return _weighted(zone, _ONES)


@njit(cache=True)
def _merge_royals(zone: int) -> int:
    return (zone & _LOW28) + ((zone >> 28) << 24)


@njit(cache=True)
def _by_rank(zone: int) -> int:
    bards = (zone >> (4 * _BARD)) & 15
    return _merge_royals(zone) - (bards << (4 * _BARD)) + (bards << (4 * _RANGER))


@njit(cache=True)
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


@njit(cache=True)
def _throw_ups(zone: int, zones: np.ndarray, probs: np.ndarray) -> int:
    """Write the stomachs after a throw-up of two heroes drawn blindly, with their
    probabilities, into ``zones`` and ``probs`` (everything goes when the stomach holds two
    heroes or fewer); return how many."""
    total = _size(zone)
    if total <= 2:
        zones[0] = 0
        probs[0] = 1.0
        return 1
    pairs = total * (total - 1)
    k = 0
    for a in range(8):
        na = (zone >> (4 * a)) & 15
        if na == 0:
            continue
        if na >= 2:
            zones[k] = zone - (2 << (4 * a))
            probs[k] = na * (na - 1) / pairs
            k += 1
        for b in range(a + 1, 8):
            nb = (zone >> (4 * b)) & 15
            if nb:
                zones[k] = zone - (1 << (4 * a)) - (1 << (4 * b))
                probs[k] = 2 * na * nb / pairs
                k += 1
    return k


@njit(cache=True)
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


@njit(cache=True)
def _key(phase: int, held: int, bag: int, c0: int, c1: int, s0: int, s1: int
         ) -> tuple[int, int, int]:
    """The rules engine's canonical key (``TeaPartyState._canonical``), seat 0 to act."""
    if held == _QUEEN:
        held = _KING
    bag, c0, c1 = _merge_royals(bag), _merge_royals(c0), _merge_royals(c1)
    rangers_loose = ((bag | c0 | c1) & _RANGERS) != 0 or held == _RANGER or phase == THROW_UP
    touching = (bag & _TOUCHES) != 0 or ((1 << (held + 1)) & _TOUCHING_HELD) != 0
    head = phase << 3 | (held + 1) << 5 | bag << 9
    if touching:
        if rangers_loose:
            return (head, c0 | c1 << 32, _by_rank(s0) | _by_rank(s1) << 32)
        return (head | 1, c0 | c1 << 32, _standing(s1) - _standing(s0))
    if rangers_loose:
        flags = (1 if c0 & _RANGERS else 0) | (2 if c1 & _RANGERS else 0)
        return (head | 2, _by_rank(s0 + c0) | _by_rank(s1 + c1) << 32, flags)
    return (head | 3, _standing(s1 + c1) - _standing(s0 + c0), 0)


@njit(cache=True)
def _share(first: int, second: int) -> float:
    if first > second:
        return 1.0
    return 0.5 if first == second else 0.0


@njit(cache=True)
def _drunk(cup: int, stomach: int, zones: np.ndarray, probs: np.ndarray) -> int:
    """The stomachs after drinking ``cup`` (and throwing up if it held a Ranger)."""
    if cup & _RANGERS:
        return _throw_ups(stomach + cup, zones, probs)
    zones[0] = stomach + cup
    probs[0] = 1.0
    return 1


@njit(cache=True)
def _final(c0: int, c1: int, s0: int, s1: int, zones: np.ndarray, probs: np.ndarray
           ) -> float:
    """Seat 0's value at the end of the game: both drink, throw-ups follow Rangers.
    ``zones`` and ``probs`` are 2 x 36 scratch arrays."""
    na = _drunk(c0, s0, zones[0], probs[0])
    nb = _drunk(c1, s1, zones[1], probs[1])
    value = 0.0
    for i in range(na):
        mine = _standing(zones[0, i])
        for j in range(nb):
            value += probs[0, i] * probs[1, j] * _share(mine, _standing(zones[1, j]))
    return value


_FINAL = 5
"""A child that is the end of the game (valued in closed form, never pushed)."""
_MAX_CHILDREN = 36
"""At most 8 hero types to draw, 36 pairs to throw up, 1 + 1 + 1 + 8 + 2 + 1 + 1 options."""


@njit(cache=True)
def _add(children: np.ndarray, weights: np.ndarray, flips: np.ndarray, n: int, phase: int,
         held: int, bag: int, c0: int, c1: int, s0: int, s1: int, weight: float) -> int:
    """Append a child; a turn that is over becomes the other monster's draw, seen from its
    seat (its value flipped), or the end of the game."""
    row = children[n]
    flip = 0
    if phase == _END:
        if bag:
            phase, held, c0, c1, s0, s1, flip = DRAW, -1, c1, c0, s1, s0, 1
        else:
            phase = _FINAL
    row[0], row[1], row[2], row[3], row[4], row[5], row[6] = phase, held, bag, c0, c1, s0, s1
    weights[n] = weight
    flips[n] = flip
    return n + 1


@njit(cache=True)
def _expand(phase: int, held: int, bag: int, c0: int, c1: int, s0: int, s1: int,
            children: np.ndarray, weights: np.ndarray, flips: np.ndarray,
            zones: np.ndarray, probs: np.ndarray) -> int:
    """Write the children of a state (seat 0 to act) and return how many: the draws with
    their probabilities, the throw-ups with theirs, or the options for the hero in hand."""
    n = 0
    if phase == DRAW:
        total = _size(bag)
        for h in range(8):
            k = (bag >> (4 * h)) & 15
            if k:
                n = _add(children, weights, flips, n, CHOOSE, h, bag - (1 << (4 * h)),
                         c0, c1, s0, s1, k / total)
        return n
    if phase == THROW_UP:  # seat 0 drank a Ranger during its turn
        k = _throw_ups(s0, zones[0], probs[0])
        for i in range(k):
            n = _add(children, weights, flips, n, _END, -1, bag, c0, c1, zones[0, i], s1,
                     probs[0, i])
        return n
    # CHOOSE: cup the hero in hand, or squish it for its ability (a royal copies any).  As
    # in the rules engine, every use that changes nothing is one option (``idle``).
    n = _add(children, weights, flips, n, _END, -1, bag, c0 + (1 << (4 * held)), c1, s0, s1,
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
                n = _add(children, weights, flips, n, after, -1, bag, 0, c1, s0 + c0, s1, 1.0)
        elif ability == _CLERIC:  # draw again (nothing when the bag is empty)
            if bag == 0:
                idle = True
            else:
                n = _add(children, weights, flips, n, DRAW, -1, bag, c0, c1, s0, s1, 1.0)
        elif ability == _ROGUE:  # steal one hero from the other teacup, then choose
            if c1 == 0:
                idle = True
            for h in range(8):
                if (c1 >> (4 * h)) & 15:
                    n = _add(children, weights, flips, n, CHOOSE, h, bag, c0,
                             c1 - (1 << (4 * h)), s0, s1, 1.0)
        elif ability == _WIZARD:  # pour any teacup back into the bag (an empty one: idle)
            if c0 == 0 or c1 == 0:
                idle = True
            if c0:
                n = _add(children, weights, flips, n, _END, -1, bag + c0, 0, c1, s0, s1, 1.0)
            if c1:
                n = _add(children, weights, flips, n, _END, -1, bag + c1, c0, 0, s0, s1, 1.0)
        elif ability == _BARD:  # swap teacups (equal ones: idle)
            if c0 == c1:
                idle = True
            else:
                n = _add(children, weights, flips, n, _END, -1, bag, c1, c0, s0, s1, 1.0)
    if idle:
        n = _add(children, weights, flips, n, _END, -1, bag, c0, c1, s0, s1, 1.0)
    return n


@njit(cache=True)
def _final_key(c0: int, c1: int, s0: int, s1: int) -> tuple[int, int, int]:
    return (_FINAL_FORM, _by_rank(s0 + c0) | _by_rank(s1 + c1) << 32,
            (1 if c0 & _RANGERS else 0) | (2 if c1 & _RANGERS else 0))


@njit(cache=True)
def _search(root: np.ndarray, table_keys: np.ndarray, table_values: np.ndarray,
            counters: np.ndarray, frames: np.ndarray,
            keys: np.ndarray, totals: np.ndarray, cursor: np.ndarray, sizes: np.ndarray,
            children: np.ndarray, weights: np.ndarray, flips: np.ndarray,
            zones: np.ndarray, probs: np.ndarray) -> float:
    """Seat 0's exact win share of ``root`` (seven ints: phase, held, bag, cups, stomachs;
    seat 0 to act), by depth-first expectimax over an explicit stack.  Sets
    ``counters[_CUT]`` (and returns garbage) when the node limit is reached or the table is
    full enough to grow; the table then holds only finished values."""
    use_table = counters[_USE_TABLE] != 0
    max_depth = frames.shape[0]
    depth = -1
    state = root
    while True:
        # Value ``state`` at once if possible, else push it.
        value = -1.0
        phase = state[0]
        if phase == _FINAL:
            key = _final_key(state[3], state[4], state[5], state[6])
        else:
            key = _key(phase, state[1], state[2], state[3], state[4], state[5], state[6])
        slot = _slot(table_keys, key[0], key[1], key[2]) if use_table else 0
        if use_table and table_keys[slot, 0] != _EMPTY:
            counters[_HITS] += 1
            value = table_values[slot]
        else:
            if counters[_NODES] >= counters[_LIMIT]:
                counters[_CUT] = 1
                return 0.0
            counters[_NODES] += 1
            if phase == _FINAL:
                value = _final(state[3], state[4], state[5], state[6], zones, probs)
                if use_table and _store(table_keys, table_values, counters, slot, key[0],
                                        key[1], key[2], value):
                    return 0.0
            else:
                value = _settled(phase, state[1], state[2], state[3], state[4], state[5],
                                 state[6])
                if value < 0.0:
                    depth += 1
                    if depth == max_depth:
                        raise ValueError("the game is deeper than the search stack")
                    frames[depth, :] = state
                    k0, k1, k2 = key
                    keys[depth, 0], keys[depth, 1], keys[depth, 2] = k0, k1, k2
                    totals[depth] = 0.0 if phase != CHOOSE else -1.0
                    cursor[depth] = 0
                    sizes[depth] = _expand(phase, state[1], state[2], state[3], state[4],
                                           state[5], state[6], children[depth],
                                           weights[depth], flips[depth], zones, probs)
        # Fold finished values into their parents; descend into the next child.
        while True:
            if value >= 0.0:
                if depth < 0:
                    return value
                i = cursor[depth] - 1
                if flips[depth, i]:
                    value = 1.0 - value
                if frames[depth, 0] == CHOOSE:
                    totals[depth] = max(totals[depth], value)
                    if value >= 1.0:  # a certain win: no other option can beat it
                        cursor[depth] = sizes[depth]
                else:
                    totals[depth] += weights[depth, i] * value
                value = -1.0
            if cursor[depth] < sizes[depth]:
                state = children[depth, cursor[depth]]
                cursor[depth] += 1
                break
            value = totals[depth]
            if use_table:
                k0, k1, k2 = keys[depth, 0], keys[depth, 1], keys[depth, 2]
                if _store(table_keys, table_values, counters, _slot(table_keys, k0, k1, k2),
                          k0, k1, k2, value):
                    return 0.0
            depth -= 1
            if depth < 0:
                return value


@njit(cache=True)
def _store(table_keys: np.ndarray, table_values: np.ndarray, counters: np.ndarray, slot: int,
           k0: int, k1: int, k2: int, value: float) -> bool:
    """Store a finished value in its (empty) slot; True, with the search cut, when the table
    must grow before the search goes on."""
    table_keys[slot, 0], table_keys[slot, 1], table_keys[slot, 2] = k0, k1, k2
    table_values[slot] = value
    counters[_ENTRIES] += 1
    if counters[_ENTRIES] >= counters[_GROW_AT]:
        counters[_CUT] = 1
        return True
    return False


class CompiledExpectimax(Expectimax):
    """Exact two-player search with the compiled kernel, with the interface of
    :class:`Expectimax` (``value``, ``best_action``, ``principal_line``, the meter's counts).

    ``table`` may be a :class:`Table` shared between searches of one game (it
    only holds finished values)."""

    method = "exact expectimax, compiled (numba)"
    CHUNK = 1 << 16
    """Nodes per kernel call (about a tenth of a second): the time limit is checked between
    calls.  Without the table the search is one call, bounded by its node limit only."""
    MAX_DEPTH = 1024
    """Frames on the search stack (a game is far shallower: one or two per hero drawn)."""

    def __init__(self, budget: Budget, transpositions: bool = True,
                 table: Table | None = None) -> None:
        super().__init__(budget, transpositions=False)
        self.transpositions = transpositions
        self.kernel_table = Table() if table is None else table
        self.counters = np.zeros(7, dtype=np.int64)
        self.counters[_USE_TABLE] = int(transpositions)
        depth = self.MAX_DEPTH
        self.work = (np.zeros((depth, 7), dtype=np.int64), np.zeros((depth, 3), dtype=np.int64),
                     np.zeros(depth), np.zeros(depth, dtype=np.int64),
                     np.zeros(depth, dtype=np.int64),
                     np.zeros((depth, _MAX_CHILDREN, 7), dtype=np.int64),
                     np.zeros((depth, _MAX_CHILDREN)), np.zeros((depth, _MAX_CHILDREN), np.int8),
                     np.zeros((2, _MAX_CHILDREN), dtype=np.int64), np.zeros((2, _MAX_CHILDREN)))

    @classmethod
    def check(cls, state: State) -> None:
        if not isinstance(state, TeaPartyState) or state.num_players != 2:
            raise ValueError("the compiled search solves Epic Monster Tea Party for two "
                             "monsters only")

    def size(self) -> int:
        return len(self.kernel_table) if self.transpositions else 0

    def value(self, state: State) -> Values:
        self.check(state)
        assert isinstance(state, TeaPartyState)
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
        cups, stomachs = state.cups, state.stomachs
        if state.player == 1:
            cups, stomachs = cups[::-1], stomachs[::-1]
        counters, limit = self.counters, self.meter.budget.nodes
        root = np.array([state.phase, state.held, state.bag, cups[0], cups[1], stomachs[0],
                         stomachs[1]], dtype=np.int64)
        before_compiling("the Tea Party search", COMPILE_SECONDS, _search)
        step = self.CHUNK
        while True:
            left = 2**62 if limit is None else max(limit - self.meter.nodes, 0)
            table = self.kernel_table
            counters[_NODES] = counters[_HITS] = counters[_CUT] = 0
            # Without the table a cut search cannot resume: one call, the node limit only.
            counters[_LIMIT] = min(left, step) if self.transpositions else left
            counters[_ENTRIES], counters[_GROW_AT] = table.entries, table.grow_at
            finished = table.entries
            value = _search(root, table.keys, table.values, counters, *self.work)
            table.entries = int(counters[_ENTRIES])
            self.meter.nodes += int(counters[_NODES])
            self.hits += int(counters[_HITS])
            if not counters[_CUT]:
                return 1.0 - value if state.player == 1 else value
            if self.meter.exhausted():
                raise BudgetExhausted
            if table.entries >= table.grow_at:
                table.grow()
            elif table.entries == finished:
                step *= 2  # a chunk too short to finish anything on the way down: lengthen


@njit(cache=True)
def _playouts(root: np.ndarray, n: int, seed: int, children: np.ndarray, weights: np.ndarray,
              flips: np.ndarray, zones: np.ndarray, probs: np.ndarray) -> float:
    """Seat 0's mean win share over ``n`` uniformly random playouts from ``root`` (seven ints,
    seat 0 to act; not an end of the game): at each decision an option drawn uniformly among
    the rules engine's options (``_expand`` lists the same), chance drawn with its odds, the
    end of the game valued in closed form (its throw-ups averaged exactly)."""
    np.random.seed(seed)
    total = 0.0
    for _ in range(n):
        phase, held, bag, c0, c1, s0, s1 = (root[0], root[1], root[2], root[3], root[4],
                                            root[5], root[6])
        flipped = 0
        while phase != _FINAL:
            k = _expand(phase, held, bag, c0, c1, s0, s1, children, weights, flips, zones,
                        probs)
            i = k - 1
            if phase == CHOOSE:
                i = min(int(np.random.random() * k), k - 1)
            else:
                pick = np.random.random()
                for j in range(k):
                    pick -= weights[j]
                    if pick < 0.0:
                        i = j
                        break
            row = children[i]
            flipped ^= flips[i]
            phase, held, bag, c0, c1, s0, s1 = row[0], row[1], row[2], row[3], row[4], row[5], \
                row[6]
        value = _final(c0, c1, s0, s1, zones, probs)
        total += 1.0 - value if flipped else value
    return total / n


class Playouts:
    """Random playouts of two-monster positions in the kernel, ``n`` per call: the mean of each
    monster's win share.  ``rng`` seeds them, so a seeded search stays reproducible."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.work = (np.zeros((_MAX_CHILDREN, 7), dtype=np.int64), np.zeros(_MAX_CHILDREN),
                     np.zeros(_MAX_CHILDREN, np.int8), np.zeros((2, _MAX_CHILDREN), np.int64),
                     np.zeros((2, _MAX_CHILDREN)))

    def __call__(self, state: TeaPartyState, rng: random.Random) -> tuple[float, float]:
        if state.phase == OVER or (state.phase == THROW_UP and state.final):
            return tuple(Expectimax(Budget()).value(state))  # type: ignore[return-value]
        cups, stomachs = state.cups, state.stomachs
        if state.player == 1:
            cups, stomachs = cups[::-1], stomachs[::-1]
        root = np.array([state.phase, state.held, state.bag, cups[0], cups[1], stomachs[0],
                         stomachs[1]], dtype=np.int64)
        seat = _playouts(root, self.n, rng.getrandbits(31), *self.work)
        return (1.0 - seat, seat) if state.player == 1 else (seat, 1.0 - seat)


def warm_up() -> None:
    """Compile (first run) or load from numba's cache every kernel entry point, now: a
    search's clock should not pay for it.  Cheap once done in this process."""
    table = Table(2)
    search = CompiledExpectimax(Budget(), table=table)
    # The smallest decision there is: one hero in hand, an empty bag (entry point ``_search``).
    state = TeaPartyState.from_counts(("A", "B"), (0,) * 8, [(0,) * 8] * 2,
                                      [(1,) + (0,) * 7, (0,) * 8], held=Hero.FIGHTER)
    search.value(state)
    table.grow()  # entry point ``_rehash``
    Playouts(1)(state, random.Random(0))  # entry point ``_playouts``


def ready() -> bool:
    """Whether the kernel's entry points are compiled or loaded in this process."""
    return all(bool(f.signatures) for f in (_search, _rehash, _playouts))

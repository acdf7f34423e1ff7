"""The Meeple Party turn search's hot loop, compiled to machine code with numba.

The rules engine (:mod:`partysolver.models.meeple_party`) and the interpreted search
(:mod:`.turn`, :mod:`.evaluate`) are the reference; this module restates, over bit-packed
boards, the part of a turn where nearly all the time goes: the welcome of the drawn guest, the
mingle, and the value of each end of the turn (steps 3 and 4, the optional refresh, the table
score).  Chance (white meeples' surprise cards, draws from the bag) stays in Python, which
calls :func:`walk` once per decision that leads to a mingle.

**The board.**  One 64-bit word per room, a field per piece: the five guests and the white
meeple standing (3 bits each, bits 0-17) and laid down (bits 18-35), the five roommates
standing (1 bit each, bits 36-40) and laid down (41-45), the Cat (46) and the Dog (47).  A move
is a subtraction and an addition of one unit; a room's counts per card type (a guest of a
personality, white, a roommate of a personality, standing and laid down together) are a few
shifts (:func:`_type_counts`).  :func:`~.compiled.encode` turns the engine's board (3 bits per
piece, 72 bits a room) into this one.

**The tables** are one flat int64 array ``T`` (a header of offsets and scalars, ``T_...``, then
the sections), the buffers one int64 array ``W`` (``W_...``) and one float64 array ``F``
(``F_...``): three arguments per call, whatever the function reads (numba passes every array
of a tuple as separate machine arguments, which made calls slow and compiling long).  The cards
are the engine's compiled conditions (:class:`~..cards.CompiledCondition`): a condition is one
clause or several (in any rooms or different rooms: a same-room card is one clause, see
:func:`~..cards.same_room`), a clause a room mask, its
subsets of wanted types (the deficiency of Hall's matching), EXACTLY and the absent types.
Costs are capped at ``CAP`` per room, as :class:`~.evaluate.TermTable` caps them.

**The search** walks every end of the turn in the game's order (welcome rooms, their action's
targets, then mingles by room, piece and destination, their targets, then stand-ups), and on
each end changes only the rooms the moves touched: the costs of the active player's cards and of
the disasters checked this turn are recomputed there and give an upper bound of the end's value
(the other cards at their best, each possible refresh at its best card, as
:meth:`~.evaluate.Evaluator.upper_key` bounds it); only an end whose bound beats the best found
is valued exactly (every card, then each refresh worth trying, over its whole deck).  Ties keep
the earlier end in the game's order, as the interpreted search does.

Values are 6-tuples (win, -loss, -stress, -fouls, photos, table; photos first when ranking
photos first) compared after rounding to 9 decimals, as :func:`~.evaluate.rank_key` does.

Every function is compiled without numba's reference counting (``_nrt=False``): the kernel
allocates nothing (its buffers come from Python), and counting references to the arrays passed
at every call was most of its time (atomic increments, measured with ``perf``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

compiled = njit(cache=True, _nrt=False)  # type: ignore[call-overload]
"""The decorator of every kernel function: cached on disk, no reference counting (above)."""

# -- the packed board ---------------------------------------------------------------------------

OFFSETS = np.array([0, 3, 6, 9, 12, 15,            # standing guests 0-4, white 5
                    18, 21, 24, 27, 30, 33,        # laid down
                    36, 37, 38, 39, 40,            # standing roommates (pieces 12-16)
                    41, 42, 43, 44, 45,            # laid-down roommates (pieces 17-21)
                    46, 47], dtype=np.int64)      # Cat (22), Dog (23)
"""Bit offset of each piece's field (the engine's piece numbers, see ``models/.../game.py``)."""
MASKS = np.array([7] * 12 + [1] * 12, dtype=np.int64)
"""Each field's width: 3 bits for guests and whites (6 at most of a kind), 1 bit for the
roommates and the pets (one each)."""
STANDING = np.array([0, 1, 2, 3, 4, 5, 12, 13, 14, 15, 16, 22, 23], dtype=np.int64)
"""Standing pieces in the engine's order (``STANDING_PIECES``): the order moves are listed in."""
LAID = np.array([6, 7, 8, 9, 10, 11, 17, 18, 19, 20, 21], dtype=np.int64)
"""Laid-down pieces in the engine's order (``LAID_PIECES``)."""
ROOMMATE_BITS = 0x3FF << 36
"""Every roommate's field, standing or laid down."""

WHITE, CAT, DOG = 5, 22, 23
FLIRT, PARTY_ANIMAL, COOL, WALLFLOWER, JERK, DOG_ACTION = range(6)
CAP = 6
MAX_STRESS = 3
W_DISASTER = 3
SCALE = 1e9
"""Values are compared rounded to 9 decimals (:func:`~.evaluate.rank_key`)."""
MAX_STEPS = 2
"""A meeple action moves at most two meeples (the Cool's pull)."""

# -- the tables ``T``: header fields (offsets of sections, counts, scalars) -------------------------
(T_ROOMS, T_ADJ, T_ADJ_WIDTH, T_ADJN, T_TWO, T_TWO_WIDTH, T_TWON, T_WELCOME, T_N_WELCOME,
 T_COND, T_CLAUSE, T_SUB, T_SUBT, T_N_CLAUSES, T_N_TERMS, T_OWN, T_N_OWN, T_OTHER_PHOTOS,
 T_N_OTHER_PHOTOS, T_OTHER_DISASTERS, T_N_OTHER_DISASTERS, T_REFRESH, T_N_REFRESH, T_PHOTO_DECK,
 T_N_PHOTO_DECK, T_DISASTER_DECK, T_N_DISASTER_DECK, T_SEAT_BITS, T_SEATS, T_KEY_TERMS,
 T_N_KEY_TERMS, T_KEY_CLAUSES, T_N_KEY_CLAUSES, T_REST_CLAUSES, T_N_REST_CLAUSES,
 T_TERM_CLAUSES, T_N_TERM_CLAUSES, T_ACTIVE, T_SUM0, T_TAKEN0, T_TARGET, T_PARTY,
 T_PHOTOS_FIRST, T_OWN_DISASTER, T_COMMUNAL, T_RELIEF, T_HOT_TUB, T_ICON0, T_ICON1, T_ICON2,
 T_PHOTO_CLAUSE0, T_PHOTO_CLAUSES, T_DISASTER_CLAUSE0, T_DISASTER_CLAUSES, T_HEADER) = range(55)
COND_WIDTH = 3
"""A condition's row: kind (below), first clause, number of clauses."""
CLAUSE_WIDTH = 7
"""A clause's row: room mask, EXACTLY, total wanted, absent types mask, first subset, subsets,
the types it reads (every type for EXACTLY): a move of meeples of other types changes nothing
it counts."""
ALL_TYPES = (1 << 11) - 1
SUB_WIDTH = 3
"""A subset's row: meeples needed, first type in ``T[T_SUBT]``, number of types."""
REFRESH_WIDTH = 3
"""A refresh's row (the game's order of slots): the card's term, its deck (0 photo, 1
disaster), whether it is one of the active player's photos."""
IMPOSSIBLE, ONE, ANY, DIFFERENT = range(4)
"""Condition kinds."""

# -- the buffers ``W``: header fields (offsets, counters) ------------------------------------------
(W_COSTS, W_BASE, W_BOUND_M, W_M, W_COUNTS, W_SCRATCH, W_PICKS, W_DECK_OUT, W_MOVES, W_STEPS,
 W_OPTIONS, W_WELCOME_STEPS, W_CODE, W_INFO, W_CHANGED, W_TOP_INFO, W_SLOTS, W_CHOICE,
 W_PARTIAL, W_MEMO, W_ROOM_MASKS, W_ACC, W_BOUNDS, W_BUFFER, W_BUCKETS, W_N_SLOTS, W_N_MEMO,
 W_K, W_N_BUFFER,
 # counters, zeroed by each call
 W_ENDS, W_EXACT, W_ABORTED, W_LIMIT, W_DISTINCT, W_FOUND, W_HAS_ALPHA, W_MODE, W_TOP_N,
 W_BOUNDED, W_KEPT, W_BEST_ORDER, W_MOST, W_HEADER) = range(43)
BEST, OPTIONS, COUNT = range(3)
"""What the walk does with each end (``W[W_MODE]``, see :func:`_collect`)."""
P_WELCOME, P_MOVE, P_OUTCOME, P_PIECE, P_SRC, P_DST, P_AS, P_STEPS, P_REFRESH = (
    0, 1, 2, 3, 4, 5, 6, 7, 13)
"""An end's plan (``W[W_CODE:]``; a kept one's at ``W[W_INFO:]`` or ``W[W_TOP_INFO:]``): the
welcome's number (-1: none), the mingle move's number and its outcome's, the piece moved, from,
to, the Cat's personality, the action's two steps (piece, from, to; -1: none), the refresh row."""
INFO = 14
ENTRY = 16
"""A buffered end (``W[W_BUFFER:]``): its plan (``INFO`` words), its bound's bucket, the card
types its moves carried."""
MAX_BUCKETS = 1024
"""Distinct bounds of one mingle's ends (``W[W_BUCKETS:]``, their values at ``F_BUCKETS``)."""
MEMO_CLAUSES = 256
"""Clauses a deck may have (the memo's words below)."""
MEMO_WIDTH = 1 + MEMO_CLAUSES // 64
"""A slot of the deck memo (``W[W_MEMO:]``): its key (room content, room and deck; -1:
empty), then a bit per clause of the deck met in that room (4 words)."""

# -- the floats ``F``: the best value, ``alpha``, the bound memo's values, the buckets' bounds,
# the ``k`` best kept
N_BOUNDS = 1024
F_BEST, F_ALPHA, F_BOUNDS = 0, 6, 12
F_BUCKETS = F_BOUNDS + 6 * N_BOUNDS
F_TOP = F_BUCKETS + 6 * MAX_BUCKETS
HASH_A = -7046029254386353131
HASH_B = 7640891576956012809


@compiled
def _type_counts(room: int, W: np.ndarray) -> int:
    """Counted meeples of each card type in a packed room (standing and laid down together,
    no pets) into ``W[W_COUNTS:]``; returns their total."""
    at = W[W_COUNTS]
    total = 0
    for t in range(6):
        c = ((room >> (3 * t)) & 7) + ((room >> (18 + 3 * t)) & 7)
        W[at + t] = c
        total += c
    for t in range(5):
        c = ((room >> (36 + t)) & 1) + ((room >> (41 + t)) & 1)
        W[at + 6 + t] = c
        total += c
    return total


@compiled
def _counted(room: int) -> int:
    """Counted meeples in a packed room (every piece but the pets)."""
    total = 0
    for t in range(12):
        total += (room >> (3 * t)) & 7
    for t in range(10):
        total += (room >> (36 + t)) & 1
    return total


# -- cards on a board ---------------------------------------------------------------------------


@compiled
def _clause_cost(T: np.ndarray, W: np.ndarray, k: int, total: int) -> int:
    """The cost of clause ``k`` in a room whose type counts are in ``W[W_COUNTS:]`` (capped at
    ``CAP``): the missing meeples, plus every meeple left over for EXACTLY, plus every meeple
    of an absent type for AT LEAST (see :class:`~..cards.CompiledClause`)."""
    row = T[T_CLAUSE] + CLAUSE_WIDTH * k
    counts = W[W_COUNTS]
    subt = T[T_SUBT]
    deficiency = 0
    first = T[row + 4]
    for s in range(first, first + T[row + 5]):
        sub = T[T_SUB] + SUB_WIDTH * s
        have = 0
        t0 = subt + T[sub + 1]
        for i in range(t0, t0 + T[sub + 2]):
            have += W[counts + T[i]]
        short = T[sub] - have
        if short > deficiency:
            deficiency = short
    if T[row + 1]:
        cost = deficiency + total - (T[row + 2] - deficiency)
    else:
        cost = deficiency
        absent = T[row + 3]
        if absent:
            for t in range(11):
                if (absent >> t) & 1:
                    cost += W[counts + t]
    return cost if cost < CAP else CAP


@compiled
def _fill_room(T: np.ndarray, W: np.ndarray, clauses: int, n: int, room: int, content: int,
               costs: int, types: int) -> None:
    """The per-room cost in ``room`` (holding ``content``) of the ``n`` clauses listed at
    ``T[clauses:]`` whose rooms include it and that read one of ``types`` (a mask of card
    types: the others' costs have not changed), into the matrix at ``W[costs:]``."""
    total = -1
    rooms = T[T_ROOMS]
    bit = 1 << room
    clause = T[T_CLAUSE]
    for i in range(clauses, clauses + n):
        k = T[i]
        row = clause + CLAUSE_WIDTH * k
        if T[row] & bit and T[row + 6] & types:
            if total < 0:
                total = _type_counts(content, W)
            W[costs + k * rooms + room] = _clause_cost(T, W, k, total)


@compiled
def _condition_cost(T: np.ndarray, W: np.ndarray, c: int, costs: int) -> int:
    """The cost of condition ``c`` (capped at ``CAP``) from its clauses' per-room costs in the
    matrix at ``W[costs:]``."""
    rooms = T[T_ROOMS]
    row = T[T_COND] + COND_WIDTH * c
    kind = T[row]
    if kind == IMPOSSIBLE:
        return CAP
    first = T[row + 1]
    n = T[row + 2]
    clause = T[T_CLAUSE]
    if kind == ONE:
        mask = T[clause + CLAUSE_WIDTH * first]
        at = costs + first * rooms
        best = CAP
        for r in range(rooms):
            if (mask >> r) & 1 and W[at + r] < best:
                best = W[at + r]
        return best
    if kind == ANY:
        total = 0
        for k in range(first, first + n):
            mask = T[clause + CLAUSE_WIDTH * k]
            at = costs + k * rooms
            low = CAP
            for r in range(rooms):
                if (mask >> r) & 1 and W[at + r] < low:
                    low = W[at + r]
            total += low
        return total if total < CAP else CAP
    return _different_rooms(T, W, first, n, costs)


@compiled
def _different_rooms(T: np.ndarray, W: np.ndarray, first: int, n: int, costs: int) -> int:
    """The least total cost of giving each of ``n`` clauses its own room: depth first, clause
    by clause, each trying its rooms in order, cut as soon as the partial sum reaches the best
    found (capped at ``CAP``, where the search starts)."""
    rooms = T[T_ROOMS]
    clause = T[T_CLAUSE]
    choice = W[W_CHOICE]
    partial = W[W_PARTIAL]
    for i in range(n):
        W[choice + i] = -1
    W[partial] = 0
    best = CAP
    used = 0
    i = 0
    while i >= 0:
        k = first + i
        if W[choice + i] >= 0:
            used &= ~(1 << W[choice + i])  # clause i leaves the room it had
        mask = T[clause + CLAUSE_WIDTH * k]
        at = costs + k * rooms
        r = W[choice + i] + 1
        while r < rooms and (not (mask >> r) & 1 or (used >> r) & 1
                             or W[partial + i] + W[at + r] >= best):
            r += 1
        if r >= rooms:  # no room left for clause i: back to the clause before
            W[choice + i] = -1
            i -= 1
            continue
        W[choice + i] = r
        total = W[partial + i] + W[at + r]
        if i == n - 1:
            best = total  # a full assignment below the best (the loop cut the others)
            continue
        used |= 1 << r
        W[partial + i + 1] = total
        i += 1
    return best


@compiled
def _popcount(x: int) -> int:
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((x * 0x0101010101010101) >> 56) & 0xFF


@compiled
def _room_met(T: np.ndarray, W: np.ndarray, deck: int, room: int, content: int) -> int:
    """The deck memo's slot for a deck (0 photos, 1 disasters) in ``room`` holding
    ``content`` (see :data:`MEMO_WIDTH`), past its key: the bits of the clauses met there.  A
    direct-mapped memo: a miss computes the slot (a clause is met where its cost is 0)."""
    key = (content << 5) | (room << 1) | deck
    slot = ((key * HASH_A) >> 17) & (W[W_N_MEMO] - 1)
    at = W[W_MEMO] + MEMO_WIDTH * slot
    if W[at] == key:
        return at + 1
    W[at] = key
    first = T[T_PHOTO_CLAUSE0] if deck == 0 else T[T_DISASTER_CLAUSE0]
    n = T[T_PHOTO_CLAUSES] if deck == 0 else T[T_DISASTER_CLAUSES]
    met = at + 1
    for w in range(MEMO_CLAUSES // 64):
        W[met + w] = 0
    total = _type_counts(content, W)
    bit = 1 << room
    clause = T[T_CLAUSE]
    for i in range(n):
        k = first + i
        if T[clause + CLAUSE_WIDTH * k] & bit and _clause_cost(T, W, k, total) == 0:
            W[met + i // 64] |= 1 << (i % 64)
    return met


@compiled
def _met(W: np.ndarray, at: int, i: int) -> bool:
    return (W[at + i // 64] >> (i % 64)) & 1 == 1


@compiled
def _deck_met(T: np.ndarray, W: np.ndarray, board: np.ndarray, deck: int) -> int:
    """How many cards of a deck (0 photos, 1 disasters) are met on ``board``, from the
    clauses met in each room (:func:`_room_met`): a one-clause card where its clause is met
    somewhere, several clauses in any rooms, in one room, or in rooms of their own."""
    rooms = T[T_ROOMS]
    first = T[T_PHOTO_CLAUSE0] if deck == 0 else T[T_DISASTER_CLAUSE0]
    words = ((T[T_PHOTO_CLAUSES] if deck == 0 else T[T_DISASTER_CLAUSES]) + 63) // 64
    cards = T[T_PHOTO_DECK] if deck == 0 else T[T_DISASTER_DECK]
    n_cards = T[T_N_PHOTO_DECK] if deck == 0 else T[T_N_DISASTER_DECK]
    masks, acc = W[W_ROOM_MASKS], W[W_ACC]
    for w in range(words):
        W[acc + w] = 0
    for r in range(rooms):
        at = _room_met(T, W, deck, r, board[r])
        for w in range(words):
            W[masks + 4 * r + w] = W[at + w]
            W[acc + w] |= W[at + w]
    count = 0
    for j in range(n_cards):
        row = T[T_COND] + COND_WIDTH * T[cards + j]
        kind = T[row]
        if kind == IMPOSSIBLE:
            continue
        c0 = T[row + 1] - first
        n = T[row + 2]
        everywhere = True
        for i in range(c0, c0 + n):
            if not _met(W, acc, i):
                everywhere = False
        if not everywhere:
            continue
        if kind in (ONE, ANY) or _distinct_rooms(W, masks, rooms, c0, n):
            count += 1
    return count


@compiled
def _distinct_rooms(W: np.ndarray, masks: int, rooms: int, c0: int, n: int) -> bool:
    """Whether clauses ``c0`` ... of a deck can each be met in a room of its own (depth
    first over the rooms, with the per-room masks at ``W[masks:]``)."""
    choice = W[W_CHOICE]
    for i in range(n):
        W[choice + i] = -1
    used = 0
    i = 0
    while i >= 0:
        if W[choice + i] >= 0:
            used &= ~(1 << W[choice + i])
        r = W[choice + i] + 1
        while r < rooms and ((used >> r) & 1 or not _met(W, masks + 4 * r, c0 + i)):
            r += 1
        if r >= rooms:
            W[choice + i] = -1
            i -= 1
            continue
        if i == n - 1:
            return True
        W[choice + i] = r
        used |= 1 << r
        i += 1
    return False


# -- values ---------------------------------------------------------------------------------------


@compiled
def _compare(a: tuple, b: tuple) -> int:
    """-1, 0 or 1 as value ``a`` ranks below, equal to or above ``b`` (9 decimals)."""
    for i in range(6):
        x = np.rint(a[i] * SCALE)
        y = np.rint(b[i] * SCALE)
        if x > y:
            return 1
        if x < y:
            return -1
    return 0


@compiled
def _read(F: np.ndarray, at: int) -> tuple:
    return (F[at], F[at + 1], F[at + 2], F[at + 3], F[at + 4], F[at + 5])


@compiled
def _write(F: np.ndarray, at: int, value: tuple) -> None:
    for i in range(6):
        F[at + i] = value[i]


@compiled
def _value(T: np.ndarray, win: float, loss: float, stress: float, fouls: float,
           photos: float, table: float) -> tuple:
    if T[T_PHOTOS_FIRST]:
        return (photos, win, loss, stress, fouls, table)
    return (win, loss, stress, fouls, photos, table)


@compiled
def _relieved(T: np.ndarray, board: np.ndarray) -> int:
    """A bit per seat whose roommate (standing or laid down) is in a room that relieves
    stress (the Hot Tub)."""
    relief = T[T_RELIEF]
    if not relief:
        return 0
    found = 0
    for r in range(T[T_ROOMS]):
        if (relief >> r) & 1:
            for seat in range(T[T_SEATS]):
                if board[r] & T[T[T_SEAT_BITS] + seat]:
                    found |= 1 << seat
    return found


@compiled
def _hot_tub(T: np.ndarray, board: np.ndarray) -> int:
    """Counted meeples in the Hot Tub (the Hot Tub challenge's score)."""
    tubs = T[T_HOT_TUB]
    total = 0
    for r in range(T[T_ROOMS]):
        if (tubs >> r) & 1:
            total += _counted(board[r])
    return total


@compiled
def _assemble(T: np.ndarray, W: np.ndarray, m: int, stress: np.ndarray, refreshed: bool,
              relieved: int, tub: int) -> tuple:
    """The value of ending the turn with the card costs at ``W[m:]`` (see
    :meth:`~.evaluate.Evaluator._assemble`, which this restates step by step)."""
    a = T[T_ACTIVE]
    n = T[T_SEATS]
    sum0 = T[T_SUM0]
    extra = 1 if refreshed else 0
    if refreshed:
        low = MAX_STRESS
        total = 0
        for i in range(n):
            x = stress[i] + (extra if i == a else 0)
            total += x
            if x < low:
                low = x
        if low >= MAX_STRESS:
            return _value(T, 0.0, -1.0, -float(total - sum0), 0.0, 0.0, 0.0)
    fouls = 0
    own_disaster = T[T_OWN_DISASTER]
    communal = T[T_COMMUNAL]
    if own_disaster >= 0 and W[m + own_disaster] == 0:
        fouls += 1
    if communal >= 0 and W[m + communal] == 0:
        fouls += 1
    if fouls:
        low = MAX_STRESS
        total = 0
        for i in range(n):
            x = stress[i] + (extra if i == a else 0) + fouls
            if x > MAX_STRESS:
                x = MAX_STRESS
            total += x
            if x < low:
                low = x
        if low >= MAX_STRESS:
            return _value(T, 0.0, -1.0, -float(total - sum0), -float(fouls), 0.0, 0.0)
    photos = 0
    distance = 0
    party = T[T_PARTY]
    if party:
        own = T[T_OWN]
        for j in range(T[T_N_OWN]):
            cost = W[m + T[own + j]]
            if cost == 0:
                photos += 1
            else:
                distance += cost
    total = 0
    for i in range(n):
        x = stress[i] + (extra if i == a else 0) + fouls
        if x > MAX_STRESS:
            x = MAX_STRESS
        if i == a and photos == 2 and x > 0:
            x -= 1
        if (relieved >> i) & 1 and x > 0:
            x -= 1
        total += x
    added = -float(total - sum0)
    if not party:
        progress = float(tub)
        photos = 0
    else:
        progress = float(photos)
        if T[T_TAKEN0] + photos >= T[T_TARGET]:
            return _value(T, 1.0, 0.0, added, -float(fouls), progress, 0.0)
    others = T[T_OTHER_PHOTOS]
    for j in range(T[T_N_OTHER_PHOTOS]):
        distance += W[m + T[others + j]]
    disasters = 0
    if not (photos and T[T_ICON0 + photos]):
        rivals = T[T_OTHER_DISASTERS]
        for j in range(T[T_N_OTHER_DISASTERS]):
            if W[m + T[rivals + j]] == 0:
                disasters += 1
    return _value(T, 0.0, 0.0, added, -float(fouls), progress,
                  -float(W_DISASTER * disasters + distance))


@compiled
def _candidates(T: np.ndarray, W: np.ndarray, m: int, stress: np.ndarray, relieved: int,
                photo_count: int) -> int:
    """The refreshes that can beat not refreshing, as rows of the refresh table into
    ``W[W_PICKS:]``; returns how many (see :meth:`~.evaluate.Evaluator._candidates`)."""
    a = T[T_ACTIVE]
    n_refresh = T[T_N_REFRESH]
    if stress[a] >= MAX_STRESS or n_refresh == 0:
        return 0
    own_disaster = T[T_OWN_DISASTER]
    communal = T[T_COMMUNAL]
    fouls = 0
    if own_disaster >= 0 and W[m + own_disaster] == 0:
        fouls += 1
    if communal >= 0 and W[m + communal] == 0:
        fouls += 1
    met = 0
    if T[T_PARTY]:
        own = T[T_OWN]
        for j in range(T[T_N_OWN]):
            if W[m + T[own + j]] == 0:
                met += 1
    after = stress[a] + fouls
    if after > MAX_STRESS:
        after = MAX_STRESS
    reliefs = 1 if met == 2 else 0
    if (relieved >> a) & 1:
        reliefs += 1
    picks = W[W_PICKS]
    found = 0
    if after >= MAX_STRESS or after < reliefs or T[T_PHOTOS_FIRST]:
        for j in range(n_refresh):
            W[picks + found] = j
            found += 1
        return found
    for j in range(n_refresh):
        row = T[T_REFRESH] + REFRESH_WIDTH * j
        t = T[row]
        if t in (own_disaster, communal):
            if W[m + t] == 0:
                W[picks + found] = j
                found += 1
        elif (T[row + 2] and W[m + t] > 0 and photo_count > 0
              and (met == 1 or T[T_TAKEN0] + met + 1 >= T[T_TARGET])):
            W[picks + found] = j
            found += 1
    return found


@compiled
def _photo_gate(T: np.ndarray, W: np.ndarray, m: int, stress: np.ndarray) -> bool:
    """Whether a refresh of an unmet own photo could matter (the bonus or the win), so that the
    deck photos met on the board are worth counting (:meth:`~.evaluate.Evaluator._photo_gate`)."""
    if not T[T_PARTY] or stress[T[T_ACTIVE]] >= MAX_STRESS or T[T_N_PHOTO_DECK] == 0:
        return False
    own = T[T_OWN]
    met = 0
    for j in range(T[T_N_OWN]):
        if W[m + T[own + j]] == 0:
            met += 1
    unmet = T[T_N_OWN] - met
    return unmet > 0 and (met == 1 or T[T_TAKEN0] + met + 1 >= T[T_TARGET]
                          or T[T_PHOTOS_FIRST] != 0)


@compiled
def _upper(T: np.ndarray, W: np.ndarray, m: int, stress: np.ndarray, relieved: int,
           tub: int) -> tuple:
    """A bound on the end's value from the card costs at ``W[m:]``: not refreshing, and each
    refresh worth trying with its best possible new card (a photo met, a disaster not), taken
    component by component (:meth:`~.evaluate.Evaluator._upper`)."""
    best = _assemble(T, W, m, stress, False, relieved, tub)
    count = _candidates(T, W, m, stress, relieved, 1)
    if count == 0:
        return best
    scratch = W[W_SCRATCH]
    for i in range(T[T_N_TERMS]):
        W[scratch + i] = W[m + i]
    b0, b1, b2, b3, b4, b5 = best
    picks = W[W_PICKS]
    for j in range(count):
        row = T[T_REFRESH] + REFRESH_WIDTH * W[picks + j]
        t = T[row]
        W[scratch + t] = 0 if T[row + 1] == 0 else CAP
        v = _assemble(T, W, scratch, stress, True, relieved, tub)
        W[scratch + t] = W[m + t]
        b0, b1, b2 = max(b0, v[0]), max(b1, v[1]), max(b2, v[2])
        b3, b4, b5 = max(b3, v[3]), max(b4, v[4]), max(b5, v[5])
    return (b0, b1, b2, b3, b4, b5)


@compiled
def _key_bound(T: np.ndarray, W: np.ndarray, F: np.ndarray, stress: np.ndarray,
               relieved: int, tub: int) -> tuple:
    """:func:`_upper` of the key cards' costs at ``W[W[W_BOUND_M]:]`` (the other cards at
    their best), remembered by what it reads: those costs, the roommates the Hot Tub relieves
    and the meeples in it (a direct-mapped memo, emptied by each :func:`walk`: the stress is
    the walk's); with that key."""
    m = W[W_BOUND_M]
    key = 0
    for i in range(T[T_N_KEY_TERMS]):
        key = key * (CAP + 1) + W[m + T[T[T_KEY_TERMS] + i]]
    key = (key * 64 + relieved) * 1024 + tub
    slot = ((key * HASH_B) >> 20) & (N_BOUNDS - 1)
    at = F_BOUNDS + 6 * slot
    if W[W[W_BOUNDS] + slot] == key:
        return _read(F, at), key
    bound = _upper(T, W, m, stress, relieved, tub)
    W[W[W_BOUNDS] + slot] = key
    _write(F, at, bound)
    return bound, key


@compiled
def _refreshed(T: np.ndarray, W: np.ndarray, stress: np.ndarray, relieved: int, tub: int,
               t: int, cost: int, k: int, n: int, v: tuple) -> tuple:
    """``v`` plus ``k / n`` times the value of refreshing term ``t`` into a card of ``cost``
    (the mean over a deck, summed in the order :func:`~.evaluate.mean` sums it)."""
    scratch = W[W_SCRATCH]
    p = k / n
    W[scratch + t] = cost
    part = _assemble(T, W, scratch, stress, True, relieved, tub)
    return (v[0] + p * part[0], v[1] + p * part[1], v[2] + p * part[2], v[3] + p * part[3],
            v[4] + p * part[4], v[5] + p * part[5])


@compiled
def _card_cost(T: np.ndarray, W: np.ndarray, board: np.ndarray, c: int) -> int:
    """The cost of condition ``c`` on the whole ``board`` (its clauses' per-room costs go to
    the matrix at ``W[W_COSTS:]``)."""
    rooms = T[T_ROOMS]
    costs = W[W_COSTS]
    row = T[T_COND] + COND_WIDTH * c
    if T[row] == IMPOSSIBLE:
        return CAP
    clause = T[T_CLAUSE]
    for k in range(T[row + 1], T[row + 1] + T[row + 2]):
        mask = T[clause + CLAUSE_WIDTH * k]
        for r in range(rooms):
            if (mask >> r) & 1:
                total = _type_counts(board[r], W)
                W[costs + k * rooms + r] = _clause_cost(T, W, k, total)
    return _condition_cost(T, W, c, costs)


@compiled
def _worth(W: np.ndarray, F: np.ndarray, bound: tuple, best: tuple, order: int) -> bool:
    """Whether a refresh bounded by ``bound`` is worth valuing: it could beat not refreshing
    (``best``; the rows come in the game's order, so an equal value keeps the earlier) and
    could be kept by the walk (:func:`_beats`; an end that cannot is never read)."""
    return _compare(bound, best) > 0 and _beats(W, F, bound, order)


@compiled
def _end(T: np.ndarray, W: np.ndarray, F: np.ndarray, board: np.ndarray, m: int,
         stress: np.ndarray, order: int) -> tuple:
    """The value of ending the turn on ``board`` with the card costs at ``W[m:]``, and the
    refresh row that reaches it (-1: none); see :meth:`~.evaluate.Evaluator._end`, whose skips
    this keeps: a refresh is valued over its whole deck only when its best possible card could
    beat not refreshing.  It is exact whenever the walk could keep it (:func:`_beats`, for an
    end listed at ``order``): a refresh that could not be kept either is not valued."""
    relieved = _relieved(T, board)
    tub = _hot_tub(T, board) if not T[T_PARTY] else 0
    out = W[W_DECK_OUT]
    # A refresh of an unmet own photo is a candidate whenever it could bring the bonus or the
    # win (as if a deck photo were met on this board): the interpreted search first counts the
    # deck's photos met and skips it when none is; here the count comes with its bound below,
    # which then settles it the same way.
    photo_count = 1 if _photo_gate(T, W, m, stress) else -1
    best = _assemble(T, W, m, stress, False, relieved, tub)
    choice = -1
    count = _candidates(T, W, m, stress, relieved, photo_count)
    if count == 0:
        return best, choice
    scratch = W[W_SCRATCH]
    for i in range(T[T_N_TERMS]):
        W[scratch + i] = W[m + i]
    picks = W[W_PICKS]
    met_disasters = -1
    seen = 0  # deck photos looked at (their costs at W[W_DECK_OUT:]), and how many are met
    met = 0
    for j in range(count):
        row_index = W[picks + j]
        row = T[T_REFRESH] + REFRESH_WIDTH * row_index
        t = T[row]
        is_photo = T[row + 1] == 0
        W[scratch + t] = 0 if is_photo else CAP
        bound = _assemble(T, W, scratch, stress, True, relieved, tub)
        W[scratch + t] = W[m + t]
        if not _worth(W, F, bound, best, order):
            continue
        v = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
        if is_photo:
            n = T[T_N_PHOTO_DECK]
            # The new card is met with probability (deck photos met) / n, whatever the costs
            # of the others: with every unmet card at its best cost (1) that bound is exact
            # but for the table score, and usually settles the comparison.  The deck's photos
            # are looked at one by one while the bound with every photo not looked at yet met
            # is still worth it: the first unmet one often settles it.
            worth = True
            while True:
                most = n - (seen - met)
                w = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
                if most:
                    w = _refreshed(T, W, stress, relieved, tub, t, 0, most, n, w)
                if n - most:
                    w = _refreshed(T, W, stress, relieved, tub, t, 1, n - most, n, w)
                W[scratch + t] = W[m + t]
                if not _worth(W, F, w, best, order):
                    worth = False
                    break
                if seen == n:
                    break
                cost = _card_cost(T, W, board, T[T[T_PHOTO_DECK] + seen])
                W[out + seen] = cost
                if cost == 0:
                    met += 1
                seen += 1
            if not worth:
                continue
            for cost in range(CAP + 1):  # every cost the deck's photos have, cheapest first
                k = 0
                for i in range(n):
                    if W[out + i] == cost:
                        k += 1
                if k:
                    v = _refreshed(T, W, stress, relieved, tub, t, cost, k, n, v)
        else:
            n = T[T_N_DISASTER_DECK]
            if met_disasters < 0:
                met_disasters = _deck_met(T, W, board, 1)
            if met_disasters:
                v = _refreshed(T, W, stress, relieved, tub, t, 0, met_disasters, n, v)
            if n - met_disasters:
                v = _refreshed(T, W, stress, relieved, tub, t, CAP, n - met_disasters, n, v)
        W[scratch + t] = W[m + t]
        if _compare(v, best) > 0:
            best = v
            choice = row_index
    return best, choice


# -- moves ----------------------------------------------------------------------------------------


@compiled
def _field(room: int, piece: int) -> int:
    return (room >> OFFSETS[piece]) & MASKS[piece]


@compiled
def _put(W: np.ndarray, out: int, p1: int, s1: int, d1: int, p2: int, s2: int, d2: int
         ) -> int:
    W[out], W[out + 1], W[out + 2] = p1, s1, d1
    W[out + 3], W[out + 4], W[out + 5] = p2, s2, d2
    return out + 6


@compiled
def _pull_one(T: np.ndarray, W: np.ndarray, board: np.ndarray, sources: int, n_sources: int,
              room: int, out: int) -> int:
    """Every standing meeple of the rooms listed at ``T[sources:]`` pulled into ``room``, one
    per outcome row from ``W[out:]`` (rooms in order, pieces in the engine's order); returns
    where the rows end."""
    for i in range(n_sources):
        src = T[sources + i]
        here = board[src]
        if not here:
            continue
        for piece in STANDING:
            if _field(here, piece):
                out = _put(W, out, piece, src, room, -1, -1, -1)
    return out


@compiled
def _pull_two(T: np.ndarray, W: np.ndarray, board: np.ndarray, sources: int, n_sources: int,
              room: int, out: int) -> int:
    """Two standing meeples of the listed rooms pulled into ``room`` (the same kind twice when
    a room holds two), or the only one in reach (the engine's ``_pull_two``)."""
    options = W[W_OPTIONS]
    n = 0
    for i in range(n_sources):
        src = T[sources + i]
        here = board[src]
        if not here:
            continue
        for piece in STANDING:
            c = _field(here, piece)
            if c:
                at = options + 3 * n
                W[at], W[at + 1], W[at + 2] = src, piece, c
                n += 1
    if n == 1 and W[options + 2] == 1:
        return _put(W, out, W[options + 1], W[options], room, -1, -1, -1)
    for i in range(n):
        a = options + 3 * i
        start = i if W[a + 2] >= 2 else i + 1
        for j in range(start, n):
            b = options + 3 * j
            out = _put(W, out, W[a + 1], W[a], room, W[b + 1], W[b], room)
    return out


@compiled
def _push_one(T: np.ndarray, W: np.ndarray, board: np.ndarray, room: int, dests: int,
              n_dests: int, actor: int, out: int) -> int:
    """One other standing meeple of ``room`` pushed to each of the listed rooms."""
    here = board[room]
    for piece in STANDING:
        c = _field(here, piece)
        if piece == actor:
            c -= 1
        if c <= 0:
            continue
        for i in range(n_dests):
            out = _put(W, out, piece, room, T[dests + i], -1, -1, -1)
    return out


@compiled
def _action(T: np.ndarray, W: np.ndarray, board: np.ndarray, kind: int, room: int,
            actor: int, out: int) -> int:
    """Every distinct outcome of the action of ``kind`` by ``actor`` just arrived in ``room``,
    as rows ``(piece, src, dst, piece, src, dst)`` from ``W[out:]`` (-1: no step); one empty
    row when the action has no target.  Returns the number of rows."""
    if kind in (FLIRT, DOG_ACTION):
        end = _pull_one(T, W, board, T[T_ADJ] + T[T_ADJ_WIDTH] * room, T[T[T_ADJN] + room],
                        room, out)
    elif kind == PARTY_ANIMAL:
        end = _pull_one(T, W, board, T[T_TWO] + T[T_TWO_WIDTH] * room, T[T[T_TWON] + room],
                        room, out)
    elif kind == COOL:
        end = _pull_two(T, W, board, T[T_ADJ] + T[T_ADJ_WIDTH] * room, T[T[T_ADJN] + room],
                        room, out)
    elif kind == WALLFLOWER:
        end = _push_one(T, W, board, room, T[T_ADJ] + T[T_ADJ_WIDTH] * room,
                        T[T[T_ADJN] + room], actor, out)
    else:
        end = _push_one(T, W, board, room, T[T_TWO] + T[T_TWO_WIDTH] * room,
                        T[T[T_TWON] + room], actor, out)
    if end == out:
        end = _put(W, out, -1, -1, -1, -1, -1, -1)
    return (end - out) // 6


@compiled
def _mingle_moves(T: np.ndarray, W: np.ndarray, board: np.ndarray) -> int:
    """Every mingle move ``(piece, src, dst)`` into ``W[W_MOVES:]`` in the engine's order (a
    Dog goes to any other room holding a roommate, everyone else to an adjacent room), white
    meeples included, then every stand-up as ``(laid piece, room, -1)``.  Returns how many."""
    rooms = T[T_ROOMS]
    out = W[W_MOVES]
    found = 0
    for src in range(rooms):
        here = board[src]
        if not here:
            continue
        for piece in STANDING:
            if not _field(here, piece):
                continue
            if piece == DOG:
                for dst in range(rooms):
                    if dst != src and board[dst] & ROOMMATE_BITS:
                        at = out + 3 * found
                        W[at], W[at + 1], W[at + 2] = piece, src, dst
                        found += 1
            else:
                adj = T[T_ADJ] + T[T_ADJ_WIDTH] * src
                for i in range(T[T[T_ADJN] + src]):
                    at = out + 3 * found
                    W[at], W[at + 1], W[at + 2] = piece, src, T[adj + i]
                    found += 1
    for r in range(rooms):
        here = board[r]
        if not here:
            continue
        for piece in LAID:
            if _field(here, piece):
                at = out + 3 * found
                W[at], W[at + 1], W[at + 2] = piece, r, -1
                found += 1
    return found


@compiled
def _acting(piece: int) -> int:
    """The action of a moved piece: a personality, the Dog's pull, -1 for a white meeple (its
    surprise is Python's), -2 for the Cat (each personality in turn)."""
    if piece == WHITE:
        return -1
    if piece == CAT:
        return -2
    if piece == DOG:
        return DOG_ACTION
    return piece if piece < 5 else piece - 12


@compiled
def _type_bit(piece: int) -> int:
    """The card type of a standing piece as a bit (pets count for no card: 0)."""
    if piece < 6:
        return 1 << piece
    if 12 <= piece < 17:
        return 1 << (piece - 6)
    return 0


@compiled
def _step(board: np.ndarray, piece: int, src: int, dst: int, sign: int) -> None:
    unit = 1 << OFFSETS[piece]
    board[src] -= sign * unit
    board[dst] += sign * unit


# -- the search -----------------------------------------------------------------------------------


@compiled
def _base_costs(T: np.ndarray, W: np.ndarray, board: np.ndarray) -> None:
    """Every clause of every card at the table in every room of ``board`` (the board the
    mingle starts from) into the matrix at ``W[W_BASE:]``, copied to ``W[W_COSTS:]``."""
    rooms = T[T_ROOMS]
    base, costs = W[W_BASE], W[W_COSTS]
    clauses, n = T[T_TERM_CLAUSES], T[T_N_TERM_CLAUSES]
    for r in range(rooms):
        _fill_room(T, W, clauses, n, r, board[r], base, ALL_TYPES)
    for i in range(clauses, clauses + n):
        row = T[i] * rooms
        for r in range(rooms):
            W[costs + row + r] = W[base + row + r]


@compiled
def _terms(T: np.ndarray, W: np.ndarray, which: int, n: int, m: int) -> None:
    """The costs of the ``n`` cards (terms) listed at ``T[which:]`` into ``W[m:]``, from the
    clauses' per-room costs at ``W[W_COSTS:]`` (a term ``t`` is condition ``t``)."""
    costs = W[W_COSTS]
    for i in range(which, which + n):
        t = T[i]
        W[m + t] = _condition_cost(T, W, t, costs)


@compiled
def _refill(T: np.ndarray, W: np.ndarray, board: np.ndarray, clauses: int, n: int,
            n_changed: int, types: int) -> None:
    """The listed clauses that read one of ``types`` in the rooms that changed
    (``W[W_CHANGED:]``), on ``board``."""
    changed = W[W_CHANGED]
    for i in range(n_changed):
        r = W[changed + i]
        _fill_room(T, W, clauses, n, r, board[r], W[W_COSTS], types)


@compiled
def _restore(T: np.ndarray, W: np.ndarray, clauses: int, n: int, n_changed: int) -> None:
    """The listed clauses in the rooms that changed back to their base costs."""
    rooms = T[T_ROOMS]
    costs, base, changed = W[W_COSTS], W[W_BASE], W[W_CHANGED]
    for i in range(n_changed):
        r = W[changed + i]
        for j in range(clauses, clauses + n):
            at = T[j] * rooms + r
            W[costs + at] = W[base + at]


@compiled
def _is_new(W: np.ndarray, board: np.ndarray) -> bool:
    """Whether ``board`` is seen for the first time: a set of boards by two independent 64-bit
    hashes (open addressing at ``W[W_SLOTS:]``, sized by the caller at least twice the ends it
    will see)."""
    h1 = 0
    h2 = 1
    for r in range(board.shape[0]):
        h1 = (h1 ^ board[r]) * HASH_A
        h1 ^= h1 >> 29
        h2 = (h2 + board[r]) * HASH_B
        h2 ^= h2 >> 31
    h2 |= 1
    slots = W[W_SLOTS]
    mask = W[W_N_SLOTS] - 1
    i = h1 & mask
    while True:
        at = slots + 2 * i
        if W[at + 1] == 0:
            W[at] = h1
            W[at + 1] = h2
            return True
        if W[at] == h1 and W[at + 1] == h2:
            return False
        i = (i + 1) & mask


@compiled
def _order(welcome: int, move: int, outcome: int) -> int:
    """An end's place in the game's order (welcome, mingle move, outcome) as one int (the
    order :func:`~.turn.option_order` gives options)."""
    return ((welcome + 1) << 40) + (move << 12) + outcome


@compiled
def _code_order(W: np.ndarray, at: int) -> int:
    return _order(W[at + P_WELCOME], W[at + P_MOVE], W[at + P_OUTCOME])


@compiled
def _beats(W: np.ndarray, F: np.ndarray, value: tuple, order: int) -> bool:
    """Whether an end of this value (or bound), listed at ``order``, could be kept: it ranks
    above the best (or equal and earlier in the game's order), and above ``alpha`` when given;
    or, keeping the ``k`` best, above the ``k``-th (or equal and earlier)."""
    if W[W_MODE] == BEST:
        if W[W_FOUND]:
            c = _compare(value, _read(F, F_BEST))
            if c < 0 or (c == 0 and order >= W[W_BEST_ORDER]):
                return False
        return not W[W_HAS_ALPHA] or _compare(value, _read(F, F_ALPHA)) > 0
    k = W[W_K]
    if W[W_TOP_N] < k:
        return True
    c = _compare(value, _read(F, F_TOP + 6 * (k - 1)))
    return c > 0 or (c == 0 and order < _code_order(W, W[W_TOP_INFO] + INFO * (k - 1)))


@compiled
def _keep(W: np.ndarray, F: np.ndarray, value: tuple, choice: int, order: int) -> None:
    """Keep an end valued exactly (its plan at ``W[W_CODE:]``): as the best, or in its place
    among the ``k`` best (after those it does not beat, and those equal and earlier)."""
    code = W[W_CODE]
    W[W_KEPT] += 1
    if W[W_MODE] == BEST:
        W[W_FOUND] = 1
        W[W_BEST_ORDER] = order
        _write(F, F_BEST, value)
        info = W[W_INFO]
        for i in range(P_REFRESH):
            W[info + i] = W[code + i]
        W[info + P_REFRESH] = choice
        return
    k = W[W_K]
    n = W[W_TOP_N]
    top = W[W_TOP_INFO]
    at = n if n < k else k - 1
    while at > 0:
        c = _compare(value, _read(F, F_TOP + 6 * (at - 1)))
        if c < 0 or (c == 0 and order > _code_order(W, top + INFO * (at - 1))):
            break
        for i in range(6):
            F[F_TOP + 6 * at + i] = F[F_TOP + 6 * (at - 1) + i]
        for i in range(INFO):
            W[top + INFO * at + i] = W[top + INFO * (at - 1) + i]
        at -= 1
    _write(F, F_TOP + 6 * at, value)
    for i in range(P_REFRESH):
        W[top + INFO * at + i] = W[code + i]
    W[top + INFO * at + P_REFRESH] = choice
    if n < k:
        W[W_TOP_N] = n + 1


@compiled
def _collect(T: np.ndarray, W: np.ndarray, F: np.ndarray, board: np.ndarray,
             n_changed: int, stress: np.ndarray, types: int) -> None:
    """One end of the turn (its plan at ``W[W_CODE:]``), in the game's order: counted (mode
    ``COUNT`` stops there); in mode ``OPTIONS``, left out unless its board is new; then bounded
    from the key cards (the active player's cards and the disasters checked this turn), whose
    clauses are recomputed in the rooms that changed (``W[W_CHANGED:]``) where they read the
    card ``types`` the moves carried; and buffered, in the bucket of its bound, if that bound
    could be kept (:func:`_drain` values the buffer best bound first)."""
    W[W_ENDS] += 1
    mode = W[W_MODE]
    if mode == COUNT:
        return
    if W[W_LIMIT] >= 0 and W[W_ENDS] > W[W_LIMIT]:
        W[W_ABORTED] = 1
        return
    if mode == OPTIONS:
        if not _is_new(W, board):
            return
        W[W_DISTINCT] += 1
    key_clauses, n_key = T[T_KEY_CLAUSES], T[T_N_KEY_CLAUSES]
    _refill(T, W, board, key_clauses, n_key, n_changed, types)
    _terms(T, W, T[T_KEY_TERMS], T[T_N_KEY_TERMS], W[W_BOUND_M])
    relieved = _relieved(T, board)
    tub = _hot_tub(T, board) if not T[T_PARTY] else 0
    bound, key = _key_bound(T, W, F, stress, relieved, tub)
    code = W[W_CODE]
    order = _code_order(W, code)
    if _beats(W, F, bound, order):
        W[W_BOUNDED] += 1
        buckets = W[W_BUCKETS]
        n_buckets = W[buckets]
        bucket = -1
        for b in range(n_buckets - 1, -1, -1):
            if W[buckets + 1 + b] == key:
                bucket = b
                break
        if bucket < 0 and n_buckets < MAX_BUCKETS:
            bucket = n_buckets
            W[buckets + 1 + bucket] = key
            _write(F, F_BUCKETS + 6 * bucket, bound)
            W[buckets] = n_buckets + 1
        n = W[W[W_BUFFER]]
        if bucket >= 0 and n < W[W_N_BUFFER]:
            entry = W[W_BUFFER] + 1 + ENTRY * n
            for i in range(INFO):
                W[entry + i] = W[code + i]
            W[entry + INFO] = bucket
            W[entry + INFO + 1] = types
            W[W[W_BUFFER]] = n + 1
        else:  # the buffer is full: this end is valued now, in the game's order
            _settle(T, W, F, board, n_changed, stress, types, order)
    _restore(T, W, key_clauses, n_key, n_changed)


@compiled
def _settle(T: np.ndarray, W: np.ndarray, F: np.ndarray, board: np.ndarray, n_changed: int,
            stress: np.ndarray, types: int, order: int) -> None:
    """An end whose key cards' clauses are recomputed already: every card at the table gives
    a tighter bound, and only if that one could be kept is the end valued exactly (each
    refresh worth trying over its deck), and kept if it can."""
    rest, n_rest = T[T_REST_CLAUSES], T[T_N_REST_CLAUSES]
    m = W[W_M]
    _refill(T, W, board, rest, n_rest, n_changed, types)
    _terms(T, W, T[T_KEY_TERMS], T[T_N_KEY_TERMS], m)
    _terms(T, W, T[T_OTHER_PHOTOS], T[T_N_OTHER_PHOTOS], m)
    _terms(T, W, T[T_OTHER_DISASTERS], T[T_N_OTHER_DISASTERS], m)
    relieved = _relieved(T, board)
    tub = _hot_tub(T, board) if not T[T_PARTY] else 0
    if n_rest == 0 or _beats(W, F, _upper(T, W, m, stress, relieved, tub), order):
        W[W_EXACT] += 1
        value, choice = _end(T, W, F, board, m, stress, order)
        if _beats(W, F, value, order):
            _keep(W, F, value, choice, order)
    _restore(T, W, rest, n_rest, n_changed)


@compiled
def _replay(W: np.ndarray, board: np.ndarray, entry: int, sign: int) -> int:
    """Play (``sign`` 1) or take back (-1) a buffered end's mingle on ``board`` (its base);
    returns how many rooms changed (listed at ``W[W_CHANGED:]``)."""
    piece, src, dst = W[entry + P_PIECE], W[entry + P_SRC], W[entry + P_DST]
    changed = W[W_CHANGED]
    if dst < 0:
        stand = piece - 6 if piece < 12 else piece - 5
        board[src] += sign * ((1 << OFFSETS[stand]) - (1 << OFFSETS[piece]))
        W[changed] = src
        return 1
    n = 2
    W[changed] = src
    W[changed + 1] = dst
    if sign > 0:
        _step(board, piece, src, dst, 1)
    for i in range(MAX_STEPS):
        s = i if sign > 0 else MAX_STEPS - 1 - i
        p = W[entry + P_STEPS + 3 * s]
        if p >= 0:
            a, b = W[entry + P_STEPS + 3 * s + 1], W[entry + P_STEPS + 3 * s + 2]
            _step(board, p, a, b, sign)
            n = _add_changed(W, n, a)
            n = _add_changed(W, n, b)
    if sign < 0:
        _step(board, piece, src, dst, -1)
    return n


@compiled
def _drain(T: np.ndarray, W: np.ndarray, F: np.ndarray, board: np.ndarray,
           stress: np.ndarray) -> None:
    """The buffered ends of one mingle from ``board``, best bound first (the buckets in
    descending order, each in the game's order), each bounded again on every card at the
    table and valued exactly if that bound could be kept, until no bound can (the interpreted
    search's branch and bound); the buffer is then empty."""
    buffer, buckets = W[W_BUFFER], W[W_BUCKETS]
    n, n_buckets = W[buffer], W[buckets]
    if n == 0:
        W[buckets] = 0
        return
    # the buckets by descending bound (insertion sort: a mingle has few distinct bounds)
    order = buckets + 1 + MAX_BUCKETS
    for b in range(n_buckets):
        at = b
        while at > 0 and _compare(_read(F, F_BUCKETS + 6 * b),
                                  _read(F, F_BUCKETS + 6 * W[order + at - 1])) > 0:
            W[order + at] = W[order + at - 1]
            at -= 1
        W[order + at] = b
    key_clauses, n_key = T[T_KEY_CLAUSES], T[T_N_KEY_CLAUSES]
    code = W[W_CODE]
    for rank in range(n_buckets):
        bucket = W[order + rank]
        bound = _read(F, F_BUCKETS + 6 * bucket)
        if W[W_MODE] == BEST and W[W_FOUND] and _compare(bound, _read(F, F_BEST)) < 0:
            break  # every bound left is lower still
        for i in range(n):
            entry = buffer + 1 + ENTRY * i
            if W[entry + INFO] != bucket:
                continue
            at = _code_order(W, entry)
            if not _beats(W, F, bound, at):
                continue
            for j in range(INFO):
                W[code + j] = W[entry + j]
            types = W[entry + INFO + 1]
            n_changed = _replay(W, board, entry, 1)
            _refill(T, W, board, key_clauses, n_key, n_changed, types)
            _settle(T, W, F, board, n_changed, stress, types, at)
            _restore(T, W, key_clauses, n_key, n_changed)
            _replay(W, board, entry, -1)
    W[buffer] = 0
    W[buckets] = 0


@compiled
def _add_changed(W: np.ndarray, n: int, room: int) -> int:
    changed = W[W_CHANGED]
    for i in range(n):
        if W[changed + i] == room:
            return n
    W[changed + n] = room
    return n + 1


@compiled
def _mingles(T: np.ndarray, W: np.ndarray, F: np.ndarray, board: np.ndarray,
             stress: np.ndarray, welcome: int) -> None:
    """Every end of the mingle from ``board`` (changed in place and restored), white meeples'
    moves left out (their surprise is Python's), each :func:`_collect`-ed, then the buffer
    drained (:func:`_drain`); the clauses' base costs must be ``board``'s (:func:`_base_costs`)."""
    code = W[W_CODE]
    moves = W[W_MOVES]
    steps = W[W_STEPS]
    changed = W[W_CHANGED]
    n_moves = _mingle_moves(T, W, board)
    W[code + P_WELCOME] = welcome
    counting = W[W_MODE] == COUNT
    start = W[W_ENDS]
    for mv in range(n_moves):
        if W[W_ABORTED]:
            return
        at = moves + 3 * mv
        piece, src, dst = W[at], W[at + 1], W[at + 2]
        W[code + P_MOVE] = mv
        W[code + P_PIECE], W[code + P_SRC], W[code + P_DST] = piece, src, dst
        for i in range(2 * 3):
            W[code + P_STEPS + i] = -1
        if dst < 0:  # a stand-up: the laid piece stands, no action
            W[code + P_AS] = -1
            W[code + P_OUTCOME] = 0
            stand = piece - 6 if piece < 12 else piece - 5
            unit = (1 << OFFSETS[stand]) - (1 << OFFSETS[piece])
            board[src] += unit
            W[changed] = src
            _collect(T, W, F, board, 1, stress, 0)  # laid or standing, it counts the same
            board[src] -= unit
            continue
        kind = _acting(piece)
        if kind == -1:
            continue
        _step(board, piece, src, dst, 1)
        first_kind, last_kind = (0, 4) if kind == -2 else (kind, kind)
        j = 0
        for acting in range(first_kind, last_kind + 1):
            W[code + P_AS] = acting if kind == -2 else -1
            n_out = _action(T, W, board, acting, dst, piece, steps)
            for o in range(n_out):
                row = steps + 6 * o
                W[code + P_OUTCOME] = j
                j += 1
                W[changed] = src
                W[changed + 1] = dst
                n_here = 2
                types = _type_bit(piece)
                for i in range(6):
                    W[code + P_STEPS + i] = W[row + i]
                for s in range(MAX_STEPS):
                    p = W[row + 3 * s]
                    if p >= 0:
                        a, b = W[row + 3 * s + 1], W[row + 3 * s + 2]
                        _step(board, p, a, b, 1)
                        n_here = _add_changed(W, n_here, a)
                        n_here = _add_changed(W, n_here, b)
                        types |= _type_bit(p)
                _collect(T, W, F, board, n_here, stress, types)
                for s in range(MAX_STEPS - 1, -1, -1):
                    p = W[row + 3 * s]
                    if p >= 0:
                        _step(board, p, W[row + 3 * s + 1], W[row + 3 * s + 2], -1)
            if W[W_ABORTED]:
                break
        _step(board, piece, src, dst, -1)
        if not counting and 2 * W[W[W_BUFFER]] > W[W_N_BUFFER]:
            _drain(T, W, F, board, stress)  # half full: value it now, then go on
    if counting:
        W[W_MOST] = max(W[W_MOST], W[W_ENDS] - start)
    elif not W[W_ABORTED]:
        _drain(T, W, F, board, stress)


@compiled
def walk(T: np.ndarray, W: np.ndarray, F: np.ndarray, board: np.ndarray, stress: np.ndarray,
         drawn: int) -> None:
    """Every end of the rest of the turn from ``board``: the welcome of the ``drawn`` guest
    (``-1``: none, the mingle is next) in every room it may go, with every outcome of its
    action, then the mingle; what is done with each end is ``W[W_MODE]``'s (:func:`_collect`).
    Welcomes are numbered in the engine's order (``state.welcomes()``)."""
    counting = W[W_MODE] == COUNT
    for i in range(N_BOUNDS):
        W[W[W_BOUNDS] + i] = -1
    W[W[W_BUFFER]] = 0
    W[W[W_BUCKETS]] = 0
    if drawn < 0:
        if not counting:
            _base_costs(T, W, board)
        _mingles(T, W, F, board, stress, -1)
        return
    wsteps = W[W_WELCOME_STEPS]
    unit = 1 << OFFSETS[drawn]
    w = 0
    for i in range(T[T_N_WELCOME]):
        room = T[T[T_WELCOME] + i]
        board[room] += unit
        n_out = _action(T, W, board, drawn, room, drawn, wsteps)
        for o in range(n_out):
            row = wsteps + 6 * o
            for s in range(MAX_STEPS):
                p = W[row + 3 * s]
                if p >= 0:
                    _step(board, p, W[row + 3 * s + 1], W[row + 3 * s + 2], 1)
            if not counting:
                _base_costs(T, W, board)
            _mingles(T, W, F, board, stress, w)
            for s in range(MAX_STEPS - 1, -1, -1):
                p = W[row + 3 * s]
                if p >= 0:
                    _step(board, p, W[row + 3 * s + 1], W[row + 3 * s + 2], -1)
            w += 1
            if W[W_ABORTED]:
                break
        board[room] -= unit
        if W[W_ABORTED]:
            return


@compiled
def end_value(T: np.ndarray, W: np.ndarray, F: np.ndarray, board: np.ndarray,
              stress: np.ndarray) -> tuple:
    """The exact value of ending the turn on ``board`` (every card evaluated on the whole
    board) and the refresh row that reaches it (-1: none)."""
    for i in range(W_ENDS, W_HEADER):
        W[i] = 0  # nothing kept: every refresh is valued when it could beat not refreshing
    for r in range(T[T_ROOMS]):
        _fill_room(T, W, T[T_TERM_CLAUSES], T[T_N_TERM_CLAUSES], r, board[r], W[W_COSTS],
                   ALL_TYPES)
    m = W[W_M]
    _terms(T, W, T[T_KEY_TERMS], T[T_N_KEY_TERMS], m)
    _terms(T, W, T[T_OTHER_PHOTOS], T[T_N_OTHER_PHOTOS], m)
    _terms(T, W, T[T_OTHER_DISASTERS], T[T_N_OTHER_DISASTERS], m)
    return _end(T, W, F, board, m, stress, 0)

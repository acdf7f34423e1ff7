"""The board: one packed int per room, and the meeple actions as moves between rooms.

A room is an int of 24 three-bit fields, one per piece (see :mod:`.game`): moving a meeple is
subtracting a unit from one room and adding it to another.  A board is the tuple of its rooms,
in the house's room order; it is hashable and small, which makes it the key of every search.

Meeple actions (the spec): a Flirt pulls 1 standing meeple from an adjacent room; a Party Animal
pulls 1 from two rooms away; a Cool pulls 2 from adjacent room(s) (the same room or two); a
Wallflower pushes 1 other standing meeple of its own room to an adjacent room; a Jerk pushes 1
two rooms away.  An action is mandatory when it has a target; moved meeples do not act.  Pets
are meeples here (they can be pulled and pushed) but they never count for cards.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from .game import (
    BITS,
    CAT,
    DOG,
    LAID_PIECES,
    ROOMMATE,
    STANDING_PIECES,
    WHITE,
    Personality,
    Step,
    laid_of,
    personality_of,
    standing_of,
)
from .house import House

Board = tuple[int, ...]

UNIT = tuple(1 << (BITS * piece) for piece in range(24))
COUNTED_FIELDS = tuple(range(22))
"""Fields that count for cards and for "the fullest room" (every piece but the pets)."""

FLIRT, PARTY_ANIMAL, COOL, WALLFLOWER, JERK = (int(p) for p in Personality)
DOG_ACTION = 5
"""The action of a mingled Dog: it pulls one meeple from a room adjacent to where it lands."""

EMPTY_ROOM = 0


def count(room: int, piece: int) -> int:
    return (room >> (BITS * piece)) & 7


def pieces_in(room: int, pieces: Sequence[int] = STANDING_PIECES) -> list[int]:
    """The pieces of ``pieces`` present in a packed room."""
    return [p for p in pieces if (room >> (BITS * p)) & 7]


def standing_in(room: int) -> list[int]:
    return [p for p in STANDING_PIECES if (room >> (BITS * p)) & 7]


def laid_in(room: int) -> list[int]:
    return [p for p in LAID_PIECES if (room >> (BITS * p)) & 7]


def counted(room: int) -> int:
    """Counted meeples in a packed room: every field but the two pets."""
    room &= (1 << (BITS * CAT)) - 1
    total = 0
    while room:
        total += room & 7
        room >>= BITS
    return total


def move(board: Board, piece: int, src: int, dst: int) -> Board:
    rooms = list(board)
    rooms[src] -= UNIT[piece]
    rooms[dst] += UNIT[piece]
    return tuple(rooms)


def apply_steps(board: Board, steps: Sequence[Step]) -> Board:
    rooms = list(board)
    for step in steps:
        rooms[step.src] -= UNIT[step.piece]
        rooms[step.dst] += UNIT[step.piece]
    return tuple(rooms)


def add(board: Board, piece: int, room: int, n: int = 1) -> Board:
    rooms = list(board)
    rooms[room] += n * UNIT[piece]
    return tuple(rooms)


def lay_down(board: Board, piece: int, room: int) -> Board:
    rooms = list(board)
    rooms[room] += UNIT[laid_of(piece)] - UNIT[piece]
    return tuple(rooms)


def stand_up(board: Board, laid: int, room: int) -> Board:
    rooms = list(board)
    rooms[room] += UNIT[standing_of(laid)] - UNIT[laid]
    return tuple(rooms)


def roommate_room(board: Board, personality: int) -> int:
    """The room of a roommate (standing or laid down); ``-1`` when it is not in the house."""
    standing, laid = ROOMMATE + personality, laid_of(ROOMMATE + personality)
    for r, room in enumerate(board):
        if (room >> (BITS * standing)) & 7 or (room >> (BITS * laid)) & 7:
            return r
    return -1


def acting_kind(piece: int) -> int:
    """The action a moved piece carries out: a personality, :data:`DOG_ACTION`, ``-1`` for a
    white meeple (a surprise) and ``-2`` for the Cat (the player picks a personality)."""
    if piece == WHITE:
        return -1
    if piece == CAT:
        return -2
    if piece == DOG:
        return DOG_ACTION
    kind = personality_of(piece)
    assert kind is not None
    return kind


# -- meeple actions -------------------------------------------------------------------------------

RawStep = tuple[int, int, int]
"""``(piece, src, dst)``: a step without its value type (the hot loops use these)."""


def action_moves(board: Board, house: House, kind: int, room: int, actor: int
                 ) -> Iterator[tuple[tuple[RawStep, ...], Board]]:
    """Every distinct way the ``actor`` piece, just arrived in ``room``, carries out the action
    of ``kind``; one empty outcome when the action has no target."""
    found: Outcomes
    if kind in (FLIRT, DOG_ACTION):
        found = _pull_one(board, house.adjacent[room], room)
    elif kind == PARTY_ANIMAL:
        found = _pull_one(board, house.two_away[room], room)
    elif kind == COOL:
        found = _pull_two(board, house.adjacent[room], room)
    elif kind == WALLFLOWER:
        found = _push_one(board, room, house.adjacent[room], actor)
    elif kind == JERK:
        found = _push_one(board, room, house.two_away[room], actor)
    else:
        found = []
    if found:
        yield from found
    else:
        yield (), board


def action_outcomes(board: Board, house: House, kind: int, room: int, actor: int
                    ) -> Iterator[tuple[tuple[Step, ...], Board]]:
    """:func:`action_moves` with :class:`Step` values."""
    for raw, moved in action_moves(board, house, kind, room, actor):
        yield tuple(Step(*step) for step in raw), moved


Outcomes = list[tuple[tuple[RawStep, ...], Board]]


def _pull_one(board: Board, sources: Sequence[int], room: int) -> Outcomes:
    found: Outcomes = []
    for src in sources:
        here = board[src]
        if not here:
            continue
        for piece in STANDING_PIECES:
            if (here >> (BITS * piece)) & 7:
                rooms = list(board)
                rooms[src] = here - UNIT[piece]
                rooms[room] += UNIT[piece]
                steps: tuple[RawStep, ...] = ((piece, src, room),)
                found.append((steps, tuple(rooms)))
    return found


def _pull_two(board: Board, sources: Sequence[int], room: int) -> Outcomes:
    options = [(src, piece, (board[src] >> (BITS * piece)) & 7) for src in sources
               for piece in STANDING_PIECES if (board[src] >> (BITS * piece)) & 7]
    if len(options) == 1 and options[0][2] == 1:
        src, piece, _ = options[0]
        single: tuple[RawStep, ...] = ((piece, src, room),)
        return [(single, move(board, piece, src, room))]
    found: Outcomes = []
    for i, (src, piece, n) in enumerate(options):
        first = (piece, src, room)
        for other_src, other, _ in options[i + (0 if n >= 2 else 1):]:
            rooms = list(board)
            rooms[src] -= UNIT[piece]
            rooms[other_src] -= UNIT[other]
            rooms[room] += UNIT[piece] + UNIT[other]
            pair: tuple[RawStep, ...] = (first, (other, other_src, room))
            found.append((pair, tuple(rooms)))
    return found


def _push_one(board: Board, room: int, dests: Sequence[int], actor: int) -> Outcomes:
    here = board[room]
    found: Outcomes = []
    for piece in STANDING_PIECES:
        n = (here >> (BITS * piece)) & 7
        if piece == actor:
            n -= 1
        if n <= 0:
            continue
        for dst in dests:
            rooms = list(board)
            rooms[room] = here - UNIT[piece]
            rooms[dst] += UNIT[piece]
            push: tuple[RawStep, ...] = ((piece, room, dst),)
            found.append((push, tuple(rooms)))
    return found


def roommate_rooms(board: Board) -> list[int]:
    """Rooms holding at least one roommate (standing or laid down)."""
    mask = sum(7 << (BITS * p) for p in range(ROOMMATE, ROOMMATE + 10))
    return [r for r, room in enumerate(board) if room & mask]


def mingle_moves(board: Board, house: House) -> Iterator[tuple[int, int, int]]:
    """Every ``(piece, src, dst)`` a mingle may move (a Dog goes to any other room holding a
    roommate; everyone else to an adjacent room)."""
    for src, here in enumerate(board):
        if not here:
            continue
        for piece in STANDING_PIECES:
            if not (here >> (BITS * piece)) & 7:
                continue
            if piece == DOG:
                for dst in roommate_rooms(board):
                    if dst != src:
                        yield piece, src, dst
            else:
                for dst in house.adjacent[src]:
                    yield piece, src, dst


MingleCode = tuple[int, int, int, int, tuple[RawStep, ...] | None]
"""``(piece, src, dst, as_kind, steps)`` of a mingle (``steps`` is ``None`` for a white meeple,
whose surprise follows), or ``(laid piece, room, -1, -1, None)`` for a stand-up."""


def mingle_boards(board: Board, house: House) -> Iterator[tuple[MingleCode, Board]]:
    """Every distinct mingle as a code and the board after it (a white meeple's board is the
    one before its surprise), then every stand-up; the order of ``state.mingles()``."""
    for piece, src, dst in mingle_moves(board, house):
        rooms = list(board)
        rooms[src] -= UNIT[piece]
        rooms[dst] += UNIT[piece]
        moved = tuple(rooms)
        kind = acting_kind(piece)
        if kind == -1:
            yield (piece, src, dst, -1, None), moved
            continue
        if kind == -2:
            for acting in range(5):
                for raw, final in action_moves(moved, house, acting, dst, piece):
                    yield (piece, src, dst, acting, raw), final
            continue
        for raw, final in action_moves(moved, house, kind, dst, piece):
            yield (piece, src, dst, -1, raw), final
    for laid, room in stand_ups(board):
        yield (laid, room, -1, -1, None), stand_up(board, laid, room)


def stand_ups(board: Board) -> Iterator[tuple[int, int]]:
    """Every ``(laid piece, room)`` a mingle may stand up."""
    for r, here in enumerate(board):
        if here:
            for piece in LAID_PIECES:
                if (here >> (BITS * piece)) & 7:
                    yield piece, r


def fullest(board: Board, rooms: Sequence[int] | None = None) -> list[int]:
    """The rooms (of ``rooms``) holding the most counted meeples."""
    pool = range(len(board)) if rooms is None else rooms
    sizes = {r: counted(board[r]) for r in pool}
    if not sizes:
        return []
    top = max(sizes.values())
    return [r for r, n in sizes.items() if n == top]


def emptiest(board: Board, rooms: Sequence[int]) -> list[int]:
    sizes = {r: counted(board[r]) for r in rooms}
    if not sizes:
        return []
    low = min(sizes.values())
    return [r for r, n in sizes.items() if n == low]

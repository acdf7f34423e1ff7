"""Surprise effects on a board: every distinct choice the active player has, and its result.

Moves (``move``, ``conga``) choose a source and a target room where the card leaves a choice;
``remove``, ``lay_down`` and ``stand_up`` choose which meeples (as counts per room and piece:
identical meeples are one choice).  ``add`` and ``stress`` have no choice and are carried out by
the state (``add`` draws from the bag, a chance node).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations_with_replacement

from .board import UNIT, Board, emptiest, fullest, roommate_room
from .cards import Effect, category_types
from .game import BITS, CAT, DOG, LAID_PIECES, ROOMMATE, Pick, laid_of, standing_of
from .house import House

Choice = tuple[Pick, Board, tuple[int, ...]]
"""A pick, the board after it, and the bag kinds it sends back to the bag (removals)."""


def type_pieces(category: str, active: int, standing: bool = True,
                pets: bool = False) -> tuple[int, ...]:
    """The standing (or laid-down) pieces a category covers."""
    pieces = []
    for t in sorted(category_types(category, active)):
        piece = t if t < 6 else ROOMMATE + (t - 6)
        pieces.append(piece if standing else laid_of(piece))
    if pets and standing and category == "meeple":
        pieces += [CAT, DOG]
    return tuple(pieces)


def resolve_rooms(selector: str, house: House, board: Board, active: int) -> tuple[int, ...]:
    """The rooms a selector names on this board (``active`` is the active personality)."""
    if selector.startswith("@"):
        room_id = selector[1:]
        return (house.index(room_id),) if house.has(room_id) else ()
    if selector in ("any", "everywhere"):
        return tuple(range(house.size))
    if selector == "fullest":
        return tuple(fullest(board))
    if selector == "emptiest":
        return tuple(emptiest(board, range(house.size)))
    if selector == "active":
        room = roommate_room(board, active)
        return (room,) if room >= 0 else ()
    return house.of_kind(selector)


def choices(effect: Effect, house: House, board: Board, active: int) -> list[Choice]:
    """Every distinct outcome of a choosing effect (one no-op choice when nothing happens)."""
    if effect.do in ("move", "conga"):
        found = list(_moves(effect, house, board, active))
    else:
        found = list(_picks(effect, house, board, active))
    unique: dict[Board, Choice] = {}
    for choice in found:
        unique.setdefault(choice[1], choice)
    return list(unique.values()) or [(Pick(), board, ())]


def first_choice(effect: Effect, house: House, board: Board, active: int) -> Choice:
    """The first of :func:`choices`, without listing the others."""
    found = _moves(effect, house, board, active) if effect.do in ("move", "conga") \
        else _picks(effect, house, board, active)
    for choice in found:
        return choice
    return Pick(), board, ()


def _move_all(board: Board, pieces: Sequence[int], src: int, dst: int) -> Board:
    rooms = list(board)
    here = rooms[src]
    for piece in pieces:
        n = (here >> (BITS * piece)) & 7
        if n:
            rooms[src] -= n * UNIT[piece]
            rooms[dst] += n * UNIT[piece]
    return tuple(rooms)


def _moves(effect: Effect, house: House, board: Board, active: int) -> Iterator[Choice]:
    if effect.do == "conga":
        pieces = type_pieces("meeple", active, pets=True)
        for src in fullest(board):
            others = [r for r in range(house.size) if r != src]
            for dst in emptiest(board, others):
                yield Pick((src, dst)), _move_all(board, pieces, src, dst), ()
        return
    pieces = type_pieces(effect.who, active, pets=True)
    targets = resolve_rooms(effect.target, house, board, active)
    if effect.source == "everywhere":
        for dst in targets:
            moved = board
            for src in range(house.size):
                if src != dst:
                    moved = _move_all(moved, pieces, src, dst)
            yield Pick((dst,)), moved, ()
        return
    for src in resolve_rooms(effect.source, house, board, active):
        for dst in targets:
            if dst != src:
                yield Pick((src, dst)), _move_all(board, pieces, src, dst), ()


def eligible(effect: Effect, house: House, board: Board, active: int
             ) -> list[tuple[int, int, int]]:
    """``(room, piece, how many)`` an effect may pick from."""
    if effect.do == "remove":
        pieces = tuple(p for p in type_pieces(effect.who, active) if p < ROOMMATE)
    elif effect.do == "lay_down":
        pieces = type_pieces(effect.who, active)
    else:
        pieces = tuple(p for p in type_pieces(effect.who, active, standing=False)
                       if p in LAID_PIECES)
    rooms = resolve_rooms(effect.source, house, board, active)
    return [(r, p, (board[r] >> (BITS * p)) & 7) for r in rooms for p in pieces
            if (board[r] >> (BITS * p)) & 7]


def _picks(effect: Effect, house: House, board: Board, active: int) -> Iterator[Choice]:
    pool = eligible(effect, house, board, active)
    total = sum(n for _, _, n in pool)
    if effect.count == 0 or total <= effect.count:
        everything = tuple((r, p) for r, p, n in pool for _ in range(n))
        yield _picked(effect, board, everything)
        return
    for chosen in multisets(pool, effect.count):
        yield _picked(effect, board, chosen)


def apply_pick(effect: Effect, house: House, board: Board, active: int, pick: Pick) -> Choice:
    """The result of one pick of a choosing effect (a pick :func:`choices` offers)."""
    if effect.do == "conga":
        pieces = type_pieces("meeple", active, pets=True)
        return pick, _move_all(board, pieces, pick.rooms[0], pick.rooms[1]), ()
    if effect.do == "move":
        pieces = type_pieces(effect.who, active, pets=True)
        if effect.source == "everywhere":
            (dst,) = pick.rooms
            moved = board
            for src in range(house.size):
                if src != dst:
                    moved = _move_all(moved, pieces, src, dst)
            return pick, moved, ()
        if not pick.rooms:
            return pick, board, ()
        return pick, _move_all(board, pieces, pick.rooms[0], pick.rooms[1]), ()
    return _picked(effect, board, pick.meeples)


def multisets(pool: Sequence[tuple[int, int, int]], k: int
              ) -> Iterator[tuple[tuple[int, int], ...]]:
    """Every multiset of ``k`` items from ``(room, piece, available)`` entries, each as the
    sorted tuple of its items; more of the earlier entries first."""
    if k == 0:
        yield ()
        return
    items = [(room, piece) for room, piece, _ in pool]
    limits = [n for _, _, n in pool]
    for combo in combinations_with_replacement(range(len(pool)), k):
        previous, run = -1, 0
        for i in combo:
            run = run + 1 if i == previous else 1
            previous = i
            if run > limits[i]:
                break
        else:
            yield tuple(items[i] for i in combo)


def _picked(effect: Effect, board: Board, picks: tuple[tuple[int, int], ...]) -> Choice:
    rooms = list(board)
    back: list[int] = []
    for room, piece in picks:
        if effect.do == "remove":
            rooms[room] -= UNIT[piece]
            back.append(piece)
        elif effect.do == "lay_down":
            rooms[room] += UNIT[laid_of(piece)] - UNIT[piece]
        else:
            rooms[room] += UNIT[standing_of(piece)] - UNIT[piece]
    return Pick((), picks), tuple(rooms), tuple(back)

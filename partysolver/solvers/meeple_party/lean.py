"""The benchmark's baseline for the turn search: a lean per-meeple brute force.

The plain algorithm, written efficiently over lists and ints: every meeple is a choice of its
own (three Flirts in a room are three movers, and three targets of a pull), every end of the
turn is scored, and nothing is pruned or remembered between ends.  The welcome and the mingle,
where nearly all ends come from, run on packed boards (one int per room, as the engine packs
them) with the house's neighbours as lists; an end is scored by the same end-of-turn logic as the
search (:meth:`~.evaluate.Evaluator._end`: steps 3 and 4, each refresh worth trying over its
deck, the table score), the cards' costs looked up per room content and recomputed only in the
rooms the moves touched (:class:`~.evaluate.NearBoard`), and no end value remembered.  Chance
and a surprise's choices (a drawn white meeple, a mingled one) go through the rules engine,
each choice repeated once per individual meeple it picks, as in :mod:`.brute`.

:attr:`LeanBruteForce.raw` counts the ends scored (raw one-turn outcomes).  The oracle of the
tests stays :mod:`.brute` (every choice played through the rules engine).
"""

from __future__ import annotations

from collections.abc import Sequence

from ...models.meeple_party.board import UNIT, Board
from ...models.meeple_party.game import (
    BITS,
    CAT,
    DOG,
    LAID_PIECES,
    ROOMMATE,
    STANDING_PIECES,
    WHITE,
    Mingle,
    standing_of,
)
from ...models.meeple_party.state import (
    MINGLE,
    OVER,
    PLACE,
    REFRESH,
    TURN,
    MeeplePartyState,
)
from ...models.protocol import CHANCE
from ..budget import Budget, Meter
from .brute import effect_choices, naive_value
from .evaluate import Evaluator, Value, mean, rank_key
from .turn import in_turn

FLIRT, PARTY_ANIMAL, COOL, WALLFLOWER, JERK, DOG_KIND = range(6)
ROOMMATE_FIELDS = sum(7 << (BITS * p) for p in range(ROOMMATE, ROOMMATE + 10))
"""Every roommate's field (standing and laid down) of a packed room."""


class LeanBruteForce:
    """One lean brute-force search of the rest of a turn (see the module docstring)."""

    def __init__(self, root: MeeplePartyState, budget: Budget | None = None) -> None:
        self.root = root
        self.meter: Meter = (budget or Budget()).start()
        self.evaluator = Evaluator(root)
        house = root.setup.house
        self.near = [list(rooms) for rooms in house.adjacent]
        self.far = [list(rooms) for rooms in house.two_away]
        self.raw = 0
        """Ends of the turn scored."""
        table = self.evaluator.terms
        self.identity = table.simple and table.firsts == list(range(len(table.columns)))
        """Each card is one clause, in order: the clauses' least costs are the cards' costs."""
        decks = self.evaluator.decks
        self.refreshable = any(decks["photo" if slot[0] == "photo" else "disaster"]
                               for slot in self.evaluator.refresh_order)
        self.photo_deck = bool(decks["photo"])

    # -- the search ----------------------------------------------------------------------------

    def value(self, state: MeeplePartyState) -> Value:
        """The exact value of the rest of the turn from ``state``."""
        if state.phase == OVER or not in_turn(state, self.root):
            self._count()
            return naive_value(self.root, state)
        if state.phase == REFRESH:
            return self.score(list(state.board), state.stress, None, ())
        if state.phase == PLACE and state.stage == TURN:
            return self.welcome(state)
        if state.phase == MINGLE:
            return self.mingle(state, list(state.board))
        if state.current_player() == CHANCE:
            return mean([(float(p), self.value(state.apply(o)))
                         for o, p in state.chance_outcomes()])
        best: Value | None = None
        for action in effect_choices(state):
            best = _better(best, self.value(state.apply(action)))
        assert best is not None
        return best

    def welcome(self, state: MeeplePartyState) -> Value:
        """Every room the drawn guest may go, with every individual target of its action, then
        the mingle."""
        kind = state.drawn
        board = list(state.board)
        best: Value | None = None
        mingling = state._to_mingle()
        for room in state.setup.house.welcome_rooms:
            board[room] += UNIT[kind]
            for steps in self.targets(board, kind, room, kind):
                self.apply(board, steps, 1)
                best = _better(best, self.mingle(mingling, board))
                self.apply(board, steps, -1)
            board[room] -= UNIT[kind]
        assert best is not None
        return best

    def mingle(self, state: MeeplePartyState, board: list[int]) -> Value:
        """Every standing meeple to every room it may go, with every individual target of its
        action (a white meeple's surprise through the rules engine), then every laid-down
        meeple stood up; ``board`` is changed in place and restored.  Each end is scored here,
        inline (the hot loop): the cards' costs are the per-room costs of the rooms that
        changed against the least costs of the others (kept per set of changed rooms for this
        mingle), then :meth:`score_costs`."""
        base = tuple(board)
        table = self.evaluator.terms
        memo, vector = table.memo, table.vector
        vectors = [vector(r, content) for r, content in enumerate(base)]
        rests: dict[tuple[int, ...], tuple[int, ...]] = {}
        stress = state.stress
        score = self.score_costs
        best: Value | None = None
        best_key: tuple[float, ...] = ()
        roommate_rooms = [r for r, room in enumerate(board) if room & ROOMMATE_FIELDS]
        for src, piece in self.movers(board):
            targets = [r for r in roommate_rooms if r != src] if piece == DOG \
                else self.near[src]
            unit = UNIT[piece]
            for dst in targets:
                if piece == WHITE:
                    moved = state._with(board=base)
                    value = self.value(moved.apply(Mingle(WHITE, src, dst)))
                    if best is None or rank_key(value) > best_key:
                        best, best_key = value, rank_key(value)
                    continue
                board[src] -= unit
                board[dst] += unit
                for kind in _kinds(piece):
                    for steps in self.targets(board, kind, dst, piece):
                        rooms = {src, dst}
                        for p, a, b in steps:
                            board[a] -= UNIT[p]
                            board[b] += UNIT[p]
                            rooms.add(a)
                            rooms.add(b)
                        changed = tuple(sorted(rooms))
                        rest = rests.get(changed)
                        if rest is None:
                            others = [v for r, v in enumerate(vectors) if r not in rooms]
                            rest = rests[changed] = tuple(map(min, *others)) \
                                if len(others) > 1 else others[0]
                        fresh = []
                        for r in changed:
                            found = memo[r].get(board[r])
                            fresh.append(found if found is not None else vector(r, board[r]))
                        value = score(board, stress, list(map(min, rest, *fresh)), changed,
                                      vectors)
                        key = rank_key(value)
                        if best is None or key > best_key:
                            best, best_key = value, key
                        for p, a, b in steps:
                            board[a] += UNIT[p]
                            board[b] -= UNIT[p]
                board[src] += unit
                board[dst] -= unit
        for room, laid in self.laid(board):
            unit = UNIT[standing_of(laid)] - UNIT[laid]
            board[room] += unit
            mins = list(map(min, *vectors)) if len(vectors) > 1 else list(vectors[0])
            value = score(board, stress, mins, (room,), vectors)
            key = rank_key(value)
            if best is None or key > best_key:
                best, best_key = value, key
            board[room] -= unit
        assert best is not None
        return best

    # -- individual meeples ----------------------------------------------------------------------

    @staticmethod
    def movers(board: Sequence[int]) -> list[tuple[int, int]]:
        """Every standing meeple (and pet) as ``(room, piece)``, once per meeple."""
        found = []
        for room, content in enumerate(board):
            if content:
                for piece in STANDING_PIECES:
                    for _ in range((content >> (BITS * piece)) & 7):
                        found.append((room, piece))
        return found

    @staticmethod
    def laid(board: Sequence[int]) -> list[tuple[int, int]]:
        found = []
        for room, content in enumerate(board):
            if content:
                for piece in LAID_PIECES:
                    for _ in range((content >> (BITS * piece)) & 7):
                        found.append((room, piece))
        return found

    def targets(self, board: list[int], kind: int, room: int, actor: int
                ) -> list[list[tuple[int, int, int]]]:
        """Every individual choice of targets of an action of ``kind`` by ``actor`` just
        arrived in ``room`` (itself never a target), as lists of ``(piece, src, dst)``;
        ``[[]]`` when nothing can be targeted."""
        found: list[list[tuple[int, int, int]]] = []
        if kind in (FLIRT, PARTY_ANIMAL, DOG_KIND):
            rooms = self.far[room] if kind == PARTY_ANIMAL else self.near[room]
            for src in rooms:
                for piece in _each(board[src]):
                    found.append([(piece, src, room)])
        elif kind == COOL:
            reach = [(piece, src) for src in self.near[room] for piece in _each(board[src])]
            if len(reach) == 1:
                found.append([(reach[0][0], reach[0][1], room)])
            for i, (p, a) in enumerate(reach):
                for q, b in reach[i + 1:]:
                    found.append([(p, a, room), (q, b, room)])
        else:
            rooms = self.near[room] if kind == WALLFLOWER else self.far[room]
            others = _each(board[room])
            others.remove(actor)
            for piece in others:
                for dst in rooms:
                    found.append([(piece, room, dst)])
        return found or [[]]

    @staticmethod
    def apply(board: list[int], steps: list[tuple[int, int, int]], sign: int) -> None:
        for piece, src, dst in steps:
            board[src] -= sign * UNIT[piece]
            board[dst] += sign * UNIT[piece]

    # -- an end of the turn --------------------------------------------------------------------

    def score(self, board: list[int], stress: tuple[int, ...], near: object,
              changed: tuple[int, ...]) -> Value:
        """The value of ending the turn on ``board`` (every card evaluated on it)."""
        packed: Board = tuple(board)
        table = self.evaluator.terms
        vectors = [table.vector(r, content) for r, content in enumerate(packed)]
        mins = list(map(min, *vectors)) if len(vectors) > 1 else list(vectors[0])
        return self.score_costs(board, stress, mins, changed, vectors)

    def score_costs(self, board: list[int], stress: tuple[int, ...], mins: list[int],
                    changed: tuple[int, ...], vectors: list[tuple[int, ...]]) -> Value:
        """The value of ending the turn on ``board``, from each clause's least cost over the
        rooms (``mins``; ``vectors``: the per-room costs of the board the mingle started from,
        the ``changed`` rooms excepted), nothing remembered: without a refresh worth trying it
        is steps 3 and 4 on the cards' costs (:meth:`Evaluator.assemble`), else the
        evaluator's whole end of the turn (:meth:`Evaluator._end`)."""
        self.raw += 1
        meter = self.meter
        meter.nodes += 1
        if meter.nodes >= meter._next_clock:
            meter.nodes -= 1
            meter.node()
        evaluator = self.evaluator
        table = evaluator.terms
        if table.simple:
            m = mins if self.identity else [mins[k] for k in table.firsts]
        else:
            m = self.several(board, mins, changed, vectors)
        packed: Board = tuple(board)
        if not self.may_refresh(m, stress, packed):
            return evaluator.assemble(packed, stress, m, False)
        value, _ = evaluator.end(packed, stress, m)
        return value

    def several(self, board: list[int], mins: list[int], changed: tuple[int, ...],
                vectors: list[tuple[int, ...]]) -> list[int]:
        """The cards' costs when some card has several clauses (in the same or different
        rooms: the per-room costs combined)."""
        table = self.evaluator.terms
        rooms = [table.vector(r, board[r]) if r in changed else vectors[r]
                 for r in range(len(board))]
        return table._combine(mins, rooms)

    def may_refresh(self, m: list[int], stress: tuple[int, ...], board: Board) -> bool:
        """Whether a refresh may beat not refreshing (:meth:`Evaluator._candidates`, with an
        unmet photo of the active player counted whenever it could bring the bonus or the win,
        as if a deck photo were met)."""
        evaluator = self.evaluator
        a = evaluator.active
        if stress[a] >= 3 or not self.refreshable:
            return False
        fouls = 0
        for i in evaluator.checked:
            if m[i] == 0:
                fouls += 1
        if fouls:
            return True
        met = sum(1 for i in evaluator.own_photos if m[i] == 0) if evaluator.party else 0
        reliefs = int(met == 2)
        if evaluator.relief_rooms and evaluator.relieved(board)[a]:
            reliefs += 1
        if stress[a] >= 3 or stress[a] < reliefs or evaluator.photos_first:
            return True
        unmet = len(evaluator.own_photos) - met
        return bool(unmet and self.photo_deck
                    and (met == 1 or evaluator.taken0 + met + 1 >= evaluator.target))

    def _count(self) -> None:
        self.raw += 1
        self.meter.node()


def _each(content: int) -> list[int]:
    """The standing pieces of a packed room, once per meeple."""
    found = []
    if content:
        for piece in STANDING_PIECES:
            found.extend([piece] * ((content >> (BITS * piece)) & 7))
    return found


def _kinds(piece: int) -> tuple[int, ...]:
    """The actions a moved piece may carry out (the Cat's: the player picks)."""
    if piece == CAT:
        return (FLIRT, PARTY_ANIMAL, COOL, WALLFLOWER, JERK)
    if piece == DOG:
        return (DOG_KIND,)
    return (piece if piece < ROOMMATE else piece - ROOMMATE,)


def _better(best: Value | None, value: Value) -> Value:
    return value if best is None or rank_key(value) > rank_key(best) else best


def lean_brute_force(state: MeeplePartyState, budget: Budget | None = None
                     ) -> tuple[Value, int]:
    """The exact value of the rest of the turn, and how many ends it scored."""
    search = LeanBruteForce(state, budget)
    return search.value(state), search.raw


__all__ = ["LeanBruteForce", "lean_brute_force"]

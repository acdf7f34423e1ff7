"""The exact turn hint: every distinct outcome of the turn, ranked.

From any decision of the active player before step 3 (the welcome of the drawn guest, a choice
inside a surprise, the mingle, the refresh), the search walks the rest of the turn as an
expectimax: decision nodes take the best option by :func:`~.evaluate.rank_key`, chance nodes
(the surprise card, meeples drawn from the bag, the refreshed card) average over the exact
probabilities of what is left in the bag and the decks.  Identical meeples in a room are one
choice (the state counts pieces), every position is searched once (a transposition table on
the state's key), and the hot loop, the mingle, works on packed boards: each distinct end board
is examined once, with the refresh options decided there (:meth:`Evaluator.end`).

Branch and bound keeps it cheap without giving up exactness: every end gets an upper bound
(:meth:`Evaluator.upper_key`, then :meth:`Evaluator.upper`), and is valued exactly only if that
bound could beat the best found (ties keep the game's order, as a plain scan does); moves that
cannot change the active player's cards share one bound; a welcome's mingle is searched only
for ends that beat the best welcome so far; a mingled white meeple's surprise is searched card
by card while it could still win the comparison.  The root's options are all listed and
bounded, and valued exactly as they are read (:class:`RankedOptions`): the top ``k`` shown are
exactly the top ``k`` of the plain ranking.

The result is exact, never sampled.  When a budget runs out, :func:`turn_hint` says
``unknown`` and claims no turn best; simulations use :func:`anytime_action` instead, which plays
the best option it searched exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from heapq import heapify, heappop, heappush
from typing import TYPE_CHECKING, Any, NamedTuple, cast, overload

from ...models.meeple_party import effects as fx
from ...models.meeple_party.board import (
    UNIT,
    Board,
    MingleCode,
    acting_kind,
    action_moves,
    add,
    apply_steps,
    mingle_moves,
    move,
    stand_up,
    stand_ups,
)
from ...models.meeple_party.cards import Effect
from ...models.meeple_party.game import (
    BITS,
    CAT,
    LAID,
    MAX_STRESS,
    WHITE,
    Dealt,
    Refresh,
    Slot,
    Step,
    Welcome,
    laid_of,
)
from ...models.meeple_party.state import (
    CLOCK,
    DRAW,
    EFFECT,
    MINGLE,
    OVER,
    PLACE,
    REFRESH,
    SURPRISE,
    TURN,
    MeeplePartyState,
    bag_with,
    bag_without,
    deck_outcomes,
    mingle_action,
    stress_after,
)
from ...models.protocol import CHANCE, Action
from ..budget import Budget, BudgetExhausted, Meter
from .evaluate import PHOTOS, Evaluator, NearBoard, Outcome, Value, figures, mean, rank_key

if TYPE_CHECKING:  # the compiled search imports numpy, and numba when it runs
    from .compiled import Found, Kernel

SEARCHABLE = (DRAW, PLACE, SURPRISE, EFFECT, MINGLE, REFRESH)
"""Phases of the turn before step 3 (with the turn's own stage)."""

TRADE = 1.5e-9
"""Added to the photos of a ceiling that leaves out a refresh trading stress for a photo (see
:meth:`TurnSearch._card_ceiling`): a mean that takes that trade by less is within it, one that
takes it by more is at least one rounding step lower in stress."""
TRADE_AT = PHOTOS
"""Where the photos stand in a value when trades happen: only when stress ranks before photos
(not ``photos_first``), so at :data:`~.evaluate.PHOTOS`."""

SLACK = 4e-10
"""Added to each component of a ceiling before :func:`rank_key` rounds it to 9 decimals: more
than the floating-point error of a sum of probabilities, less than half the last digit kept, so
a ceiling of exactly 0 (no chance to win) stays 0 and can tie the best, as it must."""


ALL_TYPES = frozenset(range(11))
"""Every card type: the guests' six and the roommates' five."""


def _type_of(piece: int) -> int:
    """The card type of a standing guest (0-5) or roommate (6-10)."""
    return piece if piece < LAID else piece - LAID


def _effect_key(card: int, index: int, board: Board, stress: tuple[int, ...],
                bag: tuple[int, ...], adding: int, white: int) -> Hashable:
    """The transposition-table key of :meth:`TurnSearch._effects` for these arguments (effects
    ``index``... of the surprise ``card`` on ``board``, the white meeple back to ``white``)."""
    return ("effect", card, index, board, stress, bag, adding, white)


def touched(code: MingleCode) -> tuple[int, ...]:
    """The rooms a mingle changes (its move and its action's steps), sorted."""
    piece, src, dst, _, steps = code
    if dst < 0:
        return (src,)
    rooms = {src, dst}
    if steps:
        for _, a, b in steps:
            rooms.add(a)
            rooms.add(b)
    return tuple(sorted(rooms))


Group = tuple[int, int, int, int, Board, tuple[int, ...]]
"""A mingle move: ``(first, piece, src, dst, moved, kinds)``: the number of its first end, the
piece moved from ``src`` to ``dst`` giving the board ``moved``, and the kinds of action it
carries out (the Cat's five; ``()`` for a white meeple, whose surprise follows).  A stand-up
is ``(first, laid piece, room, -1, board after, ())``."""


def mingle_groups(board: Board, house: Any) -> Iterator[Group]:
    """Every mingle move, then every stand-up, in the order of :func:`mingle_boards`; ends
    are numbered ``(move << 12) + outcome``, so numbers follow that order."""
    number = 0
    for piece, src, dst in mingle_moves(board, house):
        rooms = list(board)
        rooms[src] -= UNIT[piece]
        rooms[dst] += UNIT[piece]
        kind = acting_kind(piece)
        kinds = () if kind == -1 else tuple(range(5)) if kind == -2 else (kind,)
        yield number << 12, piece, src, dst, tuple(rooms), kinds
        number += 1
    for laid, room in stand_ups(board):
        yield number << 12, laid, room, -1, stand_up(board, laid, room), ()
        number += 1


def move_outcomes(house: Any, first: int, piece: int, src: int, dst: int, moved: Board,
                  kinds: tuple[int, ...]) -> Iterator[tuple[int, MingleCode, Board]]:
    """A move's ends (not a white meeple's), numbered from ``first`` in the game's order, as
    :func:`mingle_boards` codes and boards."""
    if dst < 0:
        yield first, (piece, src, -1, -1, None), moved
        return
    index = first
    for acting in kinds:
        as_kind = acting if piece == CAT else -1
        for raw, final in action_moves(moved, house, acting, dst, piece):
            yield index, (piece, src, dst, as_kind, raw), final
            index += 1


KERNEL_WORTH = 2.0
"""Seconds: under this time limit a turn search stays interpreted (importing numba and loading
the compiled kernel from its cache take about a second, which a short limit cannot spare)."""


def use_kernel(budget: Budget, compiled: bool | None) -> bool:
    """Whether a turn search walks the welcome and the mingle with the compiled
    kernel: ``compiled`` says so, or (``None``) when numba is there, no node budget is given
    (node budgets count the interpreted search's nodes: simulations keep them), and the kernel
    is compiled already.  A search never waits for its compile (some 75 s of CPU): the first
    that would use it starts the compile in a process of its own
    (:func:`partysolver.solvers.compiled.compile_in_background`, told once on stderr), and the
    interpreted search answers until it is ready, the same ranking.  The environment variable
    ``PARTYSOLVER_INTERPRETED`` keeps it interpreted (and starts nothing)."""
    if compiled is not None:
        return compiled
    if budget.time is not None and budget.time < KERNEL_WORTH:
        return False  # loading the kernel alone takes about a second: past a short deadline
    import importlib.util

    from .. import compiled as kernels

    if budget.nodes is not None or kernels.forced_interpreted() \
            or importlib.util.find_spec("numba") is None:
        return False  # (asked without importing numpy, as meeple_party.compiled would)
    if not kernels.ready(kernels.MEEPLE_PARTY_TURN):
        kernels.compile_in_background(kernels.MEEPLE_PARTY_TURN)
        return False
    if _kernel_loaded():
        return True  # it ran in this process: its object need not be looked for
    from . import native

    if not native.available():
        native.build_in_background()  # a cache from before: numba loads it until then
    return True


LEAN_NODES = 30_000
"""Nodes the interpreted search may take first, before a hint with no limit loads the kernel
through numba in a new process: loading it so (numpy, numba, numba's start-up and the cached
code) takes some 0.35 s of CPU, about what the interpreted search needs for this many nodes,
and many turns need fewer (the shipped example 17,521; 11 of the 21 benchmark positions with a
meeple drawn), so that they answer without numba, the same ranking.  A bigger turn is then
searched by the kernel from the start (at most some 0.3 s lost).  Where the kernel's machine
code loads without numba (:mod:`.native`) the first try is :data:`LEAN_NODES_NATIVE`."""

LEAN_NODES_NATIVE = 8_000
"""The interpreted first try where the kernel loads without numba (:mod:`.native`: llvmlite
and numpy with its tables, about 0.11 s of CPU, what some 8,000 interpreted nodes take: a turn
that needs more then costs at most twice what the better path would).  Measured on the 29
shipped turns with a meeple to place (CPU seconds of the whole process, 3 December 2026): with
no first try the shipped example took 0.32 s against 0.45 s through numba and its 17,521-node
interpreted answer, a 30-meeple turn 0.52 s against 1.26 s, but the smallest turns (915 to
2,971 nodes, 0.20-0.24 s interpreted) took 0.31 s; with a first try of 4,000 nodes, the turns
of 5,717 to 7,859 nodes took 0.33-0.37 s against 0.26-0.30 s interpreted
(``benchmarks/hints.py --compare-native``)."""


def in_turn(state: MeeplePartyState, root: MeeplePartyState) -> bool:
    """Whether ``state`` is still before step 3 of ``root``'s turn."""
    return (state.turn == root.turn and state.phase in SEARCHABLE
            and state.stage != CLOCK)


def searchable(state: MeeplePartyState) -> bool:
    return state.phase in SEARCHABLE and state.stage != CLOCK


@dataclass(frozen=True)
class TurnOption:
    """One way to play the rest of the turn: the decisions up to the end of the turn or to the
    next chance node, their value, and what the outcome achieves when it is certain."""

    prefix: tuple[Action, ...]
    """Decisions before the mingle (or the whole plan when there is no mingle in it)."""
    code: MingleCode | None
    """The mingle, as a :func:`mingle_boards` code (``None``: no mingle in the plan)."""
    value: Value
    outcome: Hashable
    """The key of the resulting position (distinct options have distinct outcomes)."""
    board: Board
    stress: tuple[int, ...]
    refresh: Slot | None = None
    certain: bool = True
    """No chance node follows the plan before step 3."""
    ends_turn: bool = True
    """The plan includes the refresh decision (the turn's moves are all chosen)."""

    @property
    def plan(self) -> tuple[Action, ...]:
        steps = self.prefix
        if self.code is not None:
            steps += (mingle_action(self.code),)
        if self.ends_turn and self.certain:
            steps += (Refresh(self.refresh),)
        return steps


@dataclass
class TurnHint:
    """The ranked options of a turn."""

    state: MeeplePartyState
    options: Sequence[TurnOption]
    """Best first; valued exactly as they are read (see :class:`RankedOptions`)."""
    value: Value | None
    status: str
    outcomes: int
    """Distinct end-of-turn positions examined (each bounded, and valued exactly unless its
    bound showed it could not matter)."""
    positions: int
    """Distinct positions of the turn searched (the transposition table)."""
    seconds: float
    evaluator: Evaluator = field(repr=False)
    search: TurnSearch | None = field(default=None, repr=False)
    """The search behind the hint (its counts: ``seen``, ``ends``, ``table``)."""

    @property
    def best(self) -> TurnOption | None:
        return self.options[0] if self.options else None

    def explain(self, option: TurnOption) -> Outcome | None:
        """What an option achieves, when no chance is left before step 3."""
        if not option.certain:
            return None
        return self.evaluator.explain(option.board, option.stress, option.refresh)


class TurnSearch:
    """One exact search of the rest of a turn."""

    def __init__(self, root: MeeplePartyState, budget: Budget | None = None,
                 photos_first: bool = False, compiled: bool | None = None) -> None:
        if not searchable(root):
            raise ValueError("the turn hint needs a position before step 3 of a turn "
                             f"(this one is in phase {root.phase})")
        self.root = root
        budget = budget or Budget()
        self.meter: Meter = budget.start()
        self.evaluator = Evaluator(root, photos_first)
        self.kernel: Kernel | None = None
        """The compiled welcome and mingle (:mod:`.compiled`), when this search uses it
        (:func:`use_kernel`); white meeples' surprises and chance stay interpreted."""
        if use_kernel(budget, compiled):
            from .compiled import Kernel, Unsupported

            try:
                self.kernel = Kernel(self.evaluator)
            except Unsupported:
                if compiled:
                    raise
        self.photos_first = photos_first
        """Where a value holds the photos (the trade's slack goes there, see :data:`TRADE`)."""
        self.ends: dict[tuple[Board, tuple[int, ...]], tuple[Value, Slot | None]] = {}
        self.table: dict[Hashable, tuple[Value, Action | None]] = {}
        self.keys: dict[int, tuple[float, ...]] = {}
        """Rank keys of end values by the value's identity (the ends memo keeps them alive)."""
        self.seen: set[tuple[Board, tuple[int, ...]]] = set()
        """Every distinct end examined: valued exactly (``ends``) or only bounded."""
        self.below: dict[Hashable, tuple[float, ...]] = {}
        """Mingles searched only far enough to know that they rank at most this."""
        self.counted: set[Hashable] = set()
        """Positions counted as nodes without a value in the table (see :meth:`_beats`)."""
        self._ceilings: dict[tuple[int, tuple[int, ...], tuple[int, ...], int],
                             tuple[Value, bool]] = {}
        self._deals: dict[tuple[tuple[int, ...], bool], list[tuple[Dealt, float]]] = {}
        self._white_ceilings: dict[tuple[Board | None, tuple[int, ...], tuple[int, ...]],
                                   tuple[float, ...]] = {}
        """:meth:`white_ceiling` without valuing any card, by what it reads (the ceilings read
        no more than the board, the stress and the surprise deck)."""
        self._white_orders: dict[Hashable, tuple[list[int], list[list[float]],
                                                 tuple[float, ...]]] = {}
        """:meth:`_white_order` per white meeple's mingle (the key of :meth:`white_mingle`)."""
        self.white_cut: tuple[float, ...] = ()
        """The bound at which :meth:`white_mingle` last gave up (no value ranks above it)."""
        self._meets: dict[tuple[int, Board], int] = {}
        """:meth:`_meetable` per surprise card and board."""
        self._card_lists: dict[tuple[Board | None, tuple[int, ...], tuple[int, ...]],
                               list[tuple[Value, bool]]] = {}
        """:meth:`_card_ceilings` (the ceilings alone) by what they read."""
        self._loosest: dict[Value, tuple[float, ...]] = {}
        """A card ceiling's rank key turned, for :meth:`_white_order`'s sort."""
        self._card_kinds: dict[int, tuple[bool, Effect | None]] = {}
        """Per surprise card: whether it chooses (:meth:`_chooses`), its single move
        (:meth:`_single_move`)."""
        self._lowers: dict[Board, Sequence[int]] = {}
        """The own photos' least costs per board the surprise cards are resolved on (read by
        :meth:`_meetable` for every card)."""
        self._photo_types: list[tuple[int, frozenset[int], frozenset[int]]] | None = None
        """Per own photo: its clauses, the card types they read, and those whose removal can
        lower their cost (see :meth:`_reach`)."""
        self.steps: set[Hashable] = set()
        """Surprise choices bounded by :meth:`_last_choice` (counted once, as nodes)."""

    # -- values -------------------------------------------------------------------------------

    def end(self, board: Board, stress: tuple[int, ...], near: NearBoard | None = None,
            code: MingleCode | None = None) -> tuple[Value, Slot | None]:
        """The value of a turn whose meeple moves ended on ``board`` (memoised).  With
        ``near`` (the board before the mingle) and the mingle's ``code``, only the rooms the
        mingle touched are looked up."""
        key = (board, stress)
        found = self.ends.get(key)
        if found is None:
            if key not in self.seen:
                self.seen.add(key)
                self.meter.node()
            if near is not None and code is not None:
                found = self.evaluator.end(board, stress, None, near, touched(code))
            else:
                found = self.evaluator.end(board, stress)
            self.ends[key] = found
        return found

    def value(self, state: MeeplePartyState) -> tuple[Value, Action | None]:
        """The exact value of a position of this turn, and its best action."""
        phase = state.phase
        if phase == OVER:
            added = float(sum(state.stress) - self.evaluator.sum0)
            won = state.outcome == "won"
            # over before step 3: a surprise stressed everyone out (no foul, no photo)
            value = (1.0 if won else 0.0, -1.0 if state.outcome == "lost" else 0.0, -added,
                     0.0, 0.0, 0.0)
            if self.photos_first:
                value = (0.0, value[0], value[1], value[2], 0.0, 0.0)
            return value, None
        if phase == REFRESH:
            value, slot = self.end(state.board, state.stress)
            return value, Refresh(slot)
        key = state.key()
        found = self.table.get(key)
        if found is not None:
            return found
        if key not in self.counted:
            self.meter.node()
        if phase == MINGLE:
            found = self._mingle(state)
        elif phase == PLACE and self.kernel is not None and state.stage == TURN:
            kernel_found = self._kernel_turn(state, state.drawn)
            assert kernel_found is not None
            found = kernel_found
        elif state.current_player() == CHANCE:
            parts = [(float(p), self.value(state.apply(o))[0])
                     for o, p in state.chance_outcomes()]
            found = (mean(parts), None)
        else:
            best: tuple[Value, Action | None] | None = None
            best_key: tuple[float, ...] = ()
            for action, child in state.children():
                if best is not None and child.phase == MINGLE:
                    # only a mingle that beats the best so far matters here
                    beats = self._beats(child, best_key)
                    if beats is None:
                        continue
                    value = beats
                else:
                    value, _ = self.value(child)
                if best is None or rank_key(value) > best_key:
                    best, best_key = (value, action), rank_key(value)
            assert best is not None
            found = best
        self.table[key] = found
        return found

    def _beats(self, state: MeeplePartyState, alpha: tuple[float, ...]) -> Value | None:
        """The exact value of the mingle ``state`` if it ranks above ``alpha``, else ``None``
        (then no end of it does; it is not remembered as a value, only as searched)."""
        key = state.key()
        found = self.table.get(key)
        if found is not None:
            return found[0]
        if key in self.below:
            if alpha >= self.below[key]:
                return None
        elif key not in self.counted:
            self.counted.add(key)
            self.meter.node()
        result = self._mingle(state, alpha)
        if result is None:
            self.below[key] = max(alpha, self.below.get(key, alpha))
            return None
        self.table[key] = result
        return result[0]

    @overload
    def _mingle(self, state: MeeplePartyState) -> tuple[Value, Action | None]: ...

    @overload
    def _mingle(self, state: MeeplePartyState, alpha: tuple[float, ...]
                ) -> tuple[Value, Action | None] | None: ...

    def _mingle(self, state: MeeplePartyState, alpha: tuple[float, ...] | None = None
                ) -> tuple[Value, Action | None] | None:
        """The mingle on packed boards, by branch and bound: every distinct end board gets a
        cheap upper bound from the active player's cards (:meth:`Evaluator.upper_key`), then
        the ends are taken best bound first until no bound can beat the best value found; each
        is bounded again on every card (:meth:`Evaluator.upper`) and valued exactly only if
        that bound still could beat the best.  Ties keep the game's order of mingles (the
        first of the best), as a plain scan would.

        With ``alpha`` (the best value of the decision before the mingle), ends that cannot
        rank above it are not valued either: the answer is exact if it ranks above ``alpha``,
        and ``None`` when nothing does.

        With the compiled kernel, it walks the ends (:meth:`_kernel_turn`)."""
        if self.kernel is not None:
            return self._kernel_turn(state, -1, alpha)
        best: Value | None = None
        best_key: tuple[float, ...] = ()
        best_index = -1
        choice: MingleCode | None = None
        stress = state.stress
        evaluator = self.evaluator
        near = evaluator.terms.near(state.board)
        keys = self.keys
        ends = self.ends
        seen = self.seen
        upper = evaluator.upper
        bound_key = evaluator.key_bounder(state.board, stress)
        meter = self.meter
        house = state.setup.house
        local: set[Board] = set()
        bounded: list[tuple[tuple[float, ...], int, MingleCode, Board, tuple[int, ...]]] = []
        quiet: list[tuple[int, int, int, int, Board, tuple[int, ...]]] = []
        """Moves that change nothing :meth:`Evaluator.upper_key` reads (bounded together)."""
        whites: list[tuple[int, MingleCode]] = []

        # 1. every end of a move that may change the active player's cards: bounded
        for first, piece, src, dst, moved, kinds in mingle_groups(state.board, house):
            if not kinds and dst >= 0:  # a white meeple: its surprise comes last (step 4)
                whites.append((first, (piece, src, dst, -1, None)))
                continue
            if dst < 0 or evaluator.quiet(moved, piece, src, dst, kinds, house):
                quiet.append((first, piece, src, dst, moved, kinds))
                continue
            for index, code, board in move_outcomes(house, first, piece, src, dst, moved, kinds):
                if board in local:  # the same end, reached earlier: it ranks first
                    continue
                local.add(board)
                end_key = (board, stress)
                found = ends.get(end_key)
                if found is None:
                    if end_key not in seen:
                        seen.add(end_key)
                        meter.node()
                    changed = touched(code)
                    # (bound, -index) sorts best first, ties in the game's order
                    bounded.append((bound_key(board, changed), -index, code, board, changed))
                    continue
                value = found[0]
                cached = keys.get(id(value))
                if cached is None:
                    cached = keys[id(value)] = rank_key(value)
                key = cached
                if best is None or key > best_key or (key == best_key and index < best_index):
                    best, best_key, best_index, choice = value, key, index, code

        def beats(bound: tuple[float, ...], index: int) -> bool:
            """Whether an end of this bound (or value) and number could be the answer (an
            exact value that beats it is the new best; one at most ``alpha`` never is)."""
            if alpha is not None and bound <= alpha:
                return False
            return best is None or bound > best_key or (bound == best_key and index < best_index)

        def take(index: int, code: MingleCode, board: Board, changed: tuple[int, ...]) -> None:
            """Bound an end on every card, and value it if it still could be the answer."""
            nonlocal best, best_key, best_index, choice
            if (best is not None or alpha is not None) and \
                    not beats(upper(board, stress, near, changed), index):
                return
            value, _ = self.end(board, stress, near, code)
            key = rank_key(value)
            if beats(key, index):
                best, best_key, best_index, choice = value, key, index, code

        # 2. the bounded ends, best bound first, until no bound can be the answer
        bounded.sort(reverse=True)
        for bound, negative, code, board, changed in bounded:
            if not beats(bound, -negative):
                break  # the rest are bounded by this one
            take(-negative, code, board, changed)
        # 3. the quiet moves share the bound of the board before the mingle
        if quiet:
            shared = bound_key(state.board, ())
            for first, piece, src, dst, moved, kinds in quiet:
                if not beats(shared, first):
                    break  # later moves have later numbers
                for index, code, board in move_outcomes(house, first, piece, src, dst, moved, kinds):
                    end_key = (board, stress)
                    found = ends.get(end_key)
                    if found is None:
                        if end_key not in seen:
                            seen.add(end_key)
                            meter.node()
                        take(index, code, board, touched(code))
                        continue
                    value = found[0]
                    key = rank_key(value)
                    if beats(key, index):
                        best, best_key, best_index, choice = value, key, index, code
        # 4. a white meeple's surprise, card by card, while it could still be the answer
        for first, code in whites:
            def could(bound: tuple[float, ...], at: int = first) -> bool:
                return beats(bound, at)

            white = self.white_mingle(state, code, could)
            if white is None:
                continue
            key = rank_key(white)
            if beats(key, first):
                best, best_key, best_index, choice = white, key, first, code
        if alpha is not None and (best is None or best_key <= alpha):
            return None
        assert best is not None and choice is not None
        return best, mingle_action(choice)

    # -- the compiled welcome and mingle --------------------------------------------------------

    @property
    def examined(self) -> int:
        """Distinct ends of the turn the interpreted search examined (each bounded), plus the
        ends the compiled kernel examined (with repeats: it keeps no table of ends)."""
        return len(self.seen) + (self.kernel.ends if self.kernel is not None else 0)

    @property
    def valued(self) -> int:
        """Ends valued exactly (the interpreted search's distinct ones, the kernel's)."""
        return len(self.ends) + (self.kernel.exact if self.kernel is not None else 0)

    def _kernel_call(self, call: Callable[[Kernel, int | None], Any]) -> Any:
        """``call(kernel, limit)`` with the nodes left of the budget, the ends it examined
        charged to the meter."""
        kernel = self.kernel
        assert kernel is not None
        meter = self.meter
        budget = meter.budget
        limit = None if budget.nodes is None else max(0, budget.nodes - meter.nodes)
        from .compiled import OverLimit

        before = kernel.ends
        try:
            return call(kernel, limit)
        except OverLimit:
            raise BudgetExhausted from None
        finally:
            meter.nodes += kernel.ends - before
            if budget.time is not None and meter.elapsed > budget.time:
                raise BudgetExhausted

    def _kernel_turn(self, state: MeeplePartyState, drawn: int,
                     alpha: tuple[float, ...] | None = None
                     ) -> tuple[Value, Action | None] | None:
        """The best of the rest of the turn from a welcome of the ``drawn`` guest (-1: from
        the mingle), by the compiled kernel; a white meeple's mingle is valued here, its
        surprise card by card while it could still be the answer (:meth:`white_mingle`).
        Ties keep the first in the game's order; with ``alpha``, ``None`` unless something
        ranks above it."""
        found = self._kernel_call(lambda kernel, limit: kernel.best(
            state.board, state.stress, drawn, alpha, limit))
        best: Value | None = None
        best_key: tuple[float, ...] = ()
        order = (0, 0)
        choice: tuple[int, MingleCode] | None = None
        if found is not None:
            best, best_key, order = found.value, rank_key(found.value), found.order
            choice = (found.welcome, found.code)

        def beats(bound: tuple[float, ...], at: tuple[int, int]) -> bool:
            """Whether an end of this bound (or value), listed ``at``, could be the answer."""
            if alpha is not None and bound <= alpha:
                return False
            return best is None or bound > best_key or (bound == best_key and at < order)

        if any(room >> (BITS * WHITE) & 7 for room in state.board):
            house = state.setup.house
            children = [child for _, child in state.children()] if drawn >= 0 else [state]
            for w, child in enumerate(children):
                welcome = w if drawn >= 0 else -1
                for first, piece, src, dst, _, kinds in mingle_groups(child.board, house):
                    if kinds or dst < 0:
                        continue
                    code: MingleCode = (piece, src, dst, -1, None)
                    at = (welcome, first)
                    white = self.white_mingle(child, code, partial(beats, at=at))
                    if white is None:
                        continue
                    key = rank_key(white)
                    if beats(key, at):
                        best, best_key, order, choice = white, key, at, (welcome, code)
        if best is None or choice is None:
            return None
        welcome, code = choice
        if welcome >= 0:
            return best, state.welcomes()[welcome][0]
        return best, mingle_action(code)

    # -- a mingled white meeple's surprise, on packed boards ------------------------------------

    @overload
    def white_mingle(self, state: MeeplePartyState, code: MingleCode) -> Value: ...

    @overload
    def white_mingle(self, state: MeeplePartyState, code: MingleCode,
                     beats: Callable[[tuple[float, ...]], bool]) -> Value | None: ...

    def white_mingle(self, state: MeeplePartyState, code: MingleCode,
                     beats: Callable[[tuple[float, ...]], bool] | None = None
                     ) -> Value | None:
        """The value of mingling a white meeple: the surprise card is a chance node over the
        deck, its effects run on packed boards exactly as the rules engine runs them (the
        white meeple leaves the board while its card is resolved), and the turn ends on the
        resulting board (the refresh is next).

        With ``beats`` (whether a value ranked this high could be the answer), the cards are
        valued one by one and the search stops with ``None`` as soon as the cards valued, with
        every other card at its ceiling (:meth:`_card_ceiling`), provably cannot beat it; that
        bound is then left in :attr:`white_cut`."""
        dst = code[2]
        board = self._white_off(state, code)
        key = ("white", board, state.stress, state.bag, state.surprise_deck, dst)
        found = self.table.get(key)
        if found is not None:
            return found[0]
        if key not in self.counted:
            self.counted.add(key)
            self.meter.node()
        outcomes = self._surprises(state)
        order = list(range(len(outcomes)))
        after: list[list[float]] = []
        if beats is not None:
            known_order = self._white_orders.get(key)
            if known_order is None:
                known_order = self._white_order(state, board, dst, outcomes)
                self._white_orders[key] = known_order
            order, after, ceiling = known_order
            if not beats(ceiling):  # every card at its ceiling: no card need be valued
                self.white_cut = ceiling
                return None
        values: dict[int, Value] = {}
        done = [0.0] * 6
        for step, i in enumerate(order):
            outcome, p = outcomes[i]
            assert isinstance(outcome, Dealt)
            value = self._white_card(state, outcome.card, board, dst)
            values[i] = value
            if beats is not None:
                done = [d + p * v for d, v in zip(done, value, strict=True)]
                bound = tuple(d + a + SLACK for d, a in zip(done, after[step], strict=True))
                cut = rank_key(bound)  # type: ignore[arg-type]
                if not beats(cut):
                    self.white_cut = cut
                    return None
        value = mean([(p, values[i]) for i, (_, p) in enumerate(outcomes)])
        self.table[key] = (value, None)
        return value

    def _white_order(self, state: MeeplePartyState, board: Board, dst: int,
                     outcomes: list[tuple[Dealt, float]]
                     ) -> tuple[list[int], list[list[float]], tuple[float, ...]]:
        """The order in which :meth:`white_mingle` values the surprise cards of a white
        meeple's mingle (on ``board``, the white meeple coming back to room ``dst``), after
        each, the ceilings of the cards valued after it weighted by their probabilities, and
        the rank key of every card's ceiling so weighted (no value of the mingle ranks above
        it).

        Cards valued already come first, then cards that choose nothing (cheap, and they
        tighten the bound), then the cards that choose, the highest ceilings first (they hold
        the bound up: valuing them brings it down soonest), among equal ceilings those that
        only move meeples (a few choices) before the rest (removals and lay-downs choose among
        many meeples), each in deck order.  The order is kept for the mingle: the cards valued
        by an earlier call that stopped are the first ones again."""
        ceilings = self._card_ceilings(state, board, dst)
        table = self.table
        stress, bag = state.stress, state.bag
        loosest = self._loosest
        keys: list[tuple[bool, bool, tuple[float, ...], bool, int]] = []
        for i, (outcome, _) in enumerate(outcomes):
            card = outcome.card
            if card < 0:
                keys.append((False, False, (), True, i))
                continue
            chooses, single = self._card_kind(state, card)
            known = _effect_key(card, 0, board, stress, bag, 0, dst) in table
            loose: tuple[float, ...] = ()
            if chooses:
                ceiling = ceilings[i][0]
                found = loosest.get(ceiling)
                if found is None:
                    found = loosest[ceiling] = _descending(rank_key(ceiling))
                loose = found
            keys.append((not known, chooses, loose, single is None, i))
        keys.sort()  # (the card's place last: ties in deck order)
        order = [key[-1] for key in keys]
        after: list[list[float]] = []
        total = [0.0] * 6
        traded = False
        for i in reversed(order):
            rest = total[:]
            if traded:
                rest[TRADE_AT] += TRADE
            after.append(rest)
            p = outcomes[i][1]
            ceiling, trade = ceilings[i]
            total = [t + p * c for t, c in zip(total, ceiling, strict=True)]
            traded = traded or trade
        after.reverse()
        bound = [t + SLACK for t in total]
        if traded:
            bound[TRADE_AT] += TRADE
        return order, after, rank_key(cast(Value, tuple(bound)))

    @staticmethod
    def _white_off(state: MeeplePartyState, code: MingleCode) -> Board:
        """The board a white meeple's surprise card is resolved on: the white meeple of the
        mingle ``code`` off the board (it comes back after the card)."""
        return add(state.board, WHITE, code[1], -1)

    def _white_card(self, state: MeeplePartyState, card: int, board: Board, white: int
                    ) -> Value:
        """The exact value of the surprise ``card`` (``-1``: none) resolved on ``board``, the
        white meeple coming back to room ``white`` after it."""
        if card < 0:
            return self._surprise_end(board, state.stress, white, False)
        return self._effects(state, card, 0, board, state.stress, state.bag, 0, white)

    def _surprises(self, state: MeeplePartyState) -> list[tuple[Dealt, float]]:
        """The surprise deck's cards and their probabilities (memoised per deck)."""
        key = (state.surprise_deck, state.setup.ordered)
        found = self._deals.get(key)
        if found is None:
            found = []
            for outcome, p in deck_outcomes("surprise", state.surprise_deck,
                                            state.setup.ordered):
                assert isinstance(outcome, Dealt)
                found.append((outcome, float(p)))
            self._deals[key] = found
        return found

    def _chooses(self, state: MeeplePartyState, outcome: Action) -> bool:
        """Whether a surprise card has effects that choose (or move) meeples."""
        assert isinstance(outcome, Dealt)
        if outcome.card < 0:
            return False
        return self._card_kind(state, outcome.card)[0]

    def _card_kind(self, state: MeeplePartyState, card: int) -> tuple[bool, Effect | None]:
        """Whether the surprise ``card`` chooses, and its single move (what :meth:`_chooses`
        and :meth:`_single_move` read: the card's effects, the same all through the turn)."""
        found = self._card_kinds.get(card)
        if found is None:
            effects = state.setup.cards.surprises[card].effects
            moves = [e for e in effects if e.do != "stress"]
            single = moves[0] if len(moves) == 1 and moves[0].do in ("move", "conga") else None
            found = self._card_kinds[card] = (bool(moves), single)
        return found

    def white_ceiling(self, state: MeeplePartyState, code: MingleCode | None = None,
                      cheap: bool = False) -> tuple[float, ...]:
        """A bound on any white meeple's mingle from ``state``: the cards' ceilings, averaged
        over the surprise deck.  With the mingle's ``code``, a tighter bound on that mingle:
        each card's ceiling also reads the board the card is resolved on (see
        :meth:`_card_ceiling`); with ``cheap`` too, the cards that choose nothing are valued
        exactly instead."""
        board: Board | None = None
        dst = -1
        if code is not None:
            board = self._white_off(state, code)
            dst = code[2]
        memo = None if cheap else (board, state.stress, state.surprise_deck)
        if memo is not None:
            known = self._white_ceilings.get(memo)
            if known is not None:
                return known
        ceilings = self._card_ceilings(state, board, dst, cheap)
        parts = [(p, ceiling) for (_, p), (ceiling, _) in
                 zip(self._surprises(state), ceilings, strict=True)]
        traded = any(trade for _, trade in ceilings)
        bound = [x + SLACK for x in mean(parts)]
        if traded:
            bound[TRADE_AT] += TRADE
        found = rank_key(cast(Value, tuple(bound)))
        if memo is not None:
            self._white_ceilings[memo] = found
        return found

    def _card_ceilings(self, state: MeeplePartyState, board: Board | None, white: int = -1,
                       cheap: bool = False) -> list[tuple[Value, bool]]:
        """Per card of the surprise deck (in the order of :meth:`_surprises`), its ceiling and
        trade flag (:meth:`_card_ceiling`), resolved on ``board`` (the white meeple off it,
        coming back to room ``white``; ``None``: on any board).  With ``cheap`` and a
        ``board``, a card that chooses nothing is valued exactly instead (flag ``False``)."""
        memo = None if cheap and board is not None else \
            (board, state.stress, state.surprise_deck)
        if memo is not None:
            known = self._card_lists.get(memo)
            if known is not None:
                return known
        relieved = self.evaluator.relief_of(board) if board is not None else ()
        found: list[tuple[Value, bool]] = []
        for outcome, _ in self._surprises(state):
            if cheap and board is not None and not self._chooses(state, outcome):
                found.append((self._white_card(state, outcome.card, board, white), False))
            else:
                found.append(self._card_ceiling(state, outcome.card, relieved, board))
        if memo is not None:
            self._card_lists[memo] = found
        return found

    def _reach(self, state: MeeplePartyState, card: int, board: Board,
               types: frozenset[int], drop: frozenset[int] | None = None) -> int | None:
        """At most how many counted meeples of the card ``types`` the surprise ``card``
        (``-1``: none), resolved on ``board``, and the white meeple coming back after it can
        bring into or take out of any one room (``None``: no bound).  Laying down and standing
        up change no card's cost (laid meeples count as standing ones) and stress changes no
        board; an ``add`` brings ``count`` meeples of any kind; a ``remove`` of ``count`` takes
        at most that many from a room; a move (or a removal of all) changes a room by at most
        the meeples of its kinds and of ``types`` that a room holds, counted standing and laid
        down, plus what the card's earlier effects brought (every room's total, for a move
        from everywhere).

        With ``drop`` (the types whose removal can lower the cost of the clauses read: the
        absent ones, every type for EXACTLY; taking any other meeple away only keeps or raises
        a clause's cost, :class:`~...models.meeple_party.cards.CompiledClause`), a removal
        counts only the meeples of its kinds among ``drop``: none, when it takes only meeples
        that the clauses want present (since 3 December 2026, issue 30)."""
        if card < 0:
            return 0
        surprise = state.setup.cards.surprises[card]
        active = state.active_personality
        total = 0
        for effect in surprise.effects:
            do = effect.do
            if do in ("stress", "lay_down", "stand_up"):
                continue
            if do == "add":
                total += max(1, effect.count)
                continue
            if do not in ("remove", "move", "conga"):
                return None
            who = "meeple" if do == "conga" else effect.who
            read = drop if do == "remove" and drop is not None else types
            pieces = [p for p in fx.type_pieces(who, active) if _type_of(p) in read]
            if do == "remove" and effect.count > 0:
                if pieces or drop is None:
                    total += effect.count
                continue
            fields = [BITS * piece for piece in pieces] + \
                [BITS * laid_of(piece) for piece in pieces]
            counts = [sum((content >> f) & 7 for f in fields) for content in board]
            most = sum(counts) if do == "move" and effect.source == "everywhere" \
                else max(counts, default=0)
            total += most + total
        return total + (1 if surprise.stays and WHITE in types else 0)

    def _meetable(self, state: MeeplePartyState, card: int, board: Board) -> int:
        """How many of the active player's photos could be met after the surprise ``card``
        (``-1``: none) is resolved on ``board`` and the white meeple comes back (``-1``: no
        bound).

        A clause's cost in a room changes by at most one per meeple of the types it reads
        moving in or out (:meth:`_reach`), so a photo whose cost exceeds that per clause stays
        unmet.  A card whose only effect on the board is one move is looked at exactly: every
        board the move can give, with the white meeple's return (one meeple, one room) as the
        only slack."""
        key = (card, board)
        found = self._meets.get(key)
        if found is not None:
            return found
        evaluator = self.evaluator
        table = evaluator.key_table
        if self._photo_types is None:
            self._photo_types = []
            for i in evaluator.own_photos:
                types: set[int] = set()
                drop: set[int] = set()
                ks = table.plan[i][1]
                for k in ks:
                    clause = table.columns[k][0]
                    if clause.exactly:
                        types |= set(ALL_TYPES)
                        drop |= set(ALL_TYPES)
                    else:
                        types |= {t for _, group in clause.subsets for t in group}
                        types |= set(clause.absent)
                        drop |= set(clause.absent)
                self._photo_types.append((max(1, len(ks)), frozenset(types), frozenset(drop)))
        exact = evaluator._key_exact
        nothing: frozenset[int] = frozenset()
        moves = self._single_move(state, card)
        if moves is not None:
            stays = state.setup.cards.surprises[card].stays
            limits = [(i, (1 if stays and WHITE in read else 0) * clauses)
                      for i, (clauses, read, _) in zip(evaluator.own_photos, self._photo_types,
                                                       strict=True)]
            found = 0
            for _, after, _ in fx.choices(moves, state.setup.house, board,
                                          state.active_personality):
                m = table.lower(after, exact, nothing)
                met = sum(1 for i, limit in limits if m[i] <= limit)
                if met > found:
                    found = met
                    if found == len(limits):
                        break
            self._meets[key] = found
            return found
        lowest = self._lowers.get(board)
        if lowest is None:
            lowest = self._lowers[board] = table.lower(board, exact, nothing)
        found = 0
        for i, (clauses, read, lowering) in zip(evaluator.own_photos, self._photo_types,
                                                strict=True):
            reach = self._reach(state, card, board, read, lowering)
            if reach is None:
                found = -1
                break
            if lowest[i] <= reach * clauses:
                found += 1
        self._meets[key] = found
        return found

    def _single_move(self, state: MeeplePartyState, card: int) -> Effect | None:
        """The move of a surprise card whose only effect on the board is one move (the
        others change stress alone), else ``None``."""
        if card < 0:
            return None
        return self._card_kind(state, card)[1]

    def _card_ceiling(self, state: MeeplePartyState, card: int,
                      relieved: tuple[int, ...] = (), board: Board | None = None
                      ) -> tuple[Value, bool]:
        """A value no end of the turn reaches after the surprise ``card`` (``-1``: none): the
        win if the active player's photos could win, no loss, the most stress any relief
        could take away (the Hot Tub, the photo bonus, the card's own relief; never more than
        the roommates have), no party foul, a table score of 0, and, without ``board``, every
        own photo and the photo bonus.  ``relieved``: which roommates are in the Hot Tub before the card (a
        card that moves no meeple from room to room leaves them there; one that does may
        bring anyone).

        With ``board`` (the board the card is resolved on, the white meeple off it), only the
        own photos the card can bring within reach count (:meth:`_meetable`), and the photo
        bonus only when both are.  A refresh adds 1 to the active player (who is below 3 to
        refresh) before the Hot Tub relieves (:meth:`Evaluator._assemble`): a refresh that
        brings a met photo gives a second ceiling, with one photo more and 1 stress more, or
        the same stress when that 1 can be taken back: by the bonus the refresh brings, by
        relief beyond the stress, or by the Hot Tub when the active roommate sits in it at
        stress 0 after a card that moves no meeple (the relief counted above leaves it out).

        The flag says how the ceiling bounds the card's values.  ``False``: in every
        component.  ``True`` (only when ranking stress before photos): the ceiling leaves the
        refresh out, and any value (or mean of values) above it in photos, by some amount, is
        below it in stress by at least as much: it ranks below, which :data:`TRADE` keeps
        true after rounding."""
        evaluator = self.evaluator
        meetable = -1
        if board is not None and evaluator.party and evaluator.own_photos:
            meetable = self._meetable(state, card, board)
        cached = (card, relieved, state.stress, meetable)
        found = self._ceilings.get(cached)
        if found is not None:
            return found
        setup = state.setup
        n = setup.num_players
        effects = setup.cards.surprises[card].effects if card >= 0 else ()
        moves = any(e.do in ("move", "conga") for e in effects)
        # the refresh's 1 stress to the active player is added before the Hot Tub relieves
        # (:meth:`Evaluator._assemble`): a roommate in a relief room takes it back.  Where
        # the relief below counts every seat (a card that moves meeples may bring anyone in)
        # the active seat's relief is counted already; where it counts only the seats in a
        # relief room with stress above 0, the active seat in one at stress 0 is left out, and
        # its refresh is then free (0, plus 1, relieved to 0)
        free = False
        if evaluator.relief_rooms:
            if moves or not relieved:
                relief = n
            else:
                relief = sum(1 for seat, flag in enumerate(relieved)
                             if flag and state.stress[seat] > 0)
                active = evaluator.active
                free = bool(relieved[active]) and state.stress[active] == 0
        else:
            relief = 0
        seats = {"active": 1, "next": 1, "others": n - 1}
        for effect in effects:
            if effect.do == "stress" and effect.amount < 0:
                relief += -effect.amount * seats.get(effect.who, n)
        # the stress component is the turn's relief from the root's stress: what the turn
        # relieved before this card (a welcomed surprise may have), plus at most all that is
        # left (every stress added, by fouls, the card or a refresh, only lowers it)
        now = sum(state.stress)
        own = len(evaluator.own_photos)

        def ceiling(photos: int, added: int) -> Value:
            bonus = 1 if evaluator.party and own == 2 and photos >= 2 else 0
            stress = float(evaluator.sum0 - max(0, now + added - relief - bonus))
            if evaluator.party:
                win = 1.0 if evaluator.taken0 + photos >= evaluator.target else 0.0
                value: Value = (win, 0.0, stress, 0.0, float(photos), 0.0)
            else:
                value = (0.0, 0.0, stress, 0.0, 1e6, 0.0)
            if self.photos_first:
                value = (value[4], value[0], value[1], value[2], value[3], value[5])
            return value

        if meetable < 0:
            found = (ceiling(own, 0), False)
        else:
            plain = ceiling(min(own, meetable), 0)
            found = (plain, False)
            if evaluator.decks["photo"] and meetable < own:
                refreshed = ceiling(meetable + 1, 0 if free else 1)
                if any(r > p for r, p in zip(refreshed, plain, strict=True)):
                    if not self.photos_first and refreshed[:2] == plain[:2] and \
                            refreshed[2] < plain[2]:
                        found = (plain, True)
                    else:
                        found = (cast(Value, tuple(map(max, plain, refreshed))), False)
        self._ceilings[cached] = found
        return found

    def _effects(self, state: MeeplePartyState, card: int, index: int, board: Board,
                 stress: tuple[int, ...], bag: tuple[int, ...], adding: int, white: int
                 ) -> Value:
        """Effects ``index``... of a surprise card (see :meth:`MeeplePartyState._run_effects`)."""
        key = _effect_key(card, index, board, stress, bag, adding, white)
        found = self.table.get(key)
        if found is not None:
            return found[0]
        self.meter.node()
        setup = state.setup
        surprise = setup.cards.surprises[card]
        effects = surprise.effects
        value: Value | None = None
        while index < len(effects):
            effect = effects[index]
            if effect.do == "stress":
                stress = stress_after(state, effect, board, stress)
                if min(stress) >= MAX_STRESS:
                    value = self._lost(stress)
                    break
                index += 1
                continue
            if effect.do == "add":
                adding = adding or effect.count
                size = len(bag) if setup.ordered else sum(bag)
                if not size:
                    index, adding = index + 1, 0
                    continue
                draws = [(bag[0], 1.0)] if setup.ordered else \
                    [(k, n / size) for k, n in enumerate(bag) if n]
                parts = []
                for kind, p in draws:
                    left = bag_without(bag, kind, setup.ordered)
                    best: Value | None = None
                    for door in setup.house.doors:
                        added = add(board, kind, door)
                        more = adding - 1
                        empty = not (len(left) if setup.ordered else sum(left))
                        if more <= 0 or empty:
                            result = self._effects(state, card, index + 1, added, stress, left,
                                                   0, white)
                        else:
                            result = self._effects(state, card, index, added, stress, left,
                                                   more, white)
                        if best is None or rank_key(result) > rank_key(best):
                            best = result
                    assert best is not None
                    parts.append((p, best))
                value = mean(parts)
                break
            rest = effects[index + 1:]
            if rest and all(e.do == "stress" and e.who != "room" for e in rest):
                # the stress that follows does not read the board: when it stresses every
                # roommate out, every choice loses the party alike
                after_stress = stress
                for e in rest:
                    after_stress = stress_after(state, e, board, after_stress)
                    if min(after_stress) >= MAX_STRESS:
                        value = self._lost(after_stress)
                        break
                if value is not None:
                    break
            last = all(e.do == "stress" for e in rest)
            if last and effect.do in ("lay_down", "stand_up"):
                # laid-down meeples count for cards as standing ones do, and stay in their
                # room: every choice ends this turn alike, so the first is as good as any
                options = [fx.first_choice(effect, setup.house, board,
                                           state.active_personality)]
            else:
                options = fx.choices(effect, setup.house, board, state.active_personality)
            if len(options) > 1 and last:
                value = self._last_choice(state, card, index, board, options, stress, bag,
                                          white, surprise.stays)
                break
            if len(options) > 1:
                best = None
                for _, after, back in options:
                    result = self._effects(state, card, index + 1, after, stress,
                                           bag_with(bag, back, setup.ordered), 0, white)
                    if best is None or rank_key(result) > rank_key(best):
                        best = result
                value = best
                break
            _, board, back = options[0]
            bag = bag_with(bag, back, setup.ordered)
            index += 1
        if value is None:
            value = self._surprise_end(board, stress, white, surprise.stays)
        self.table[key] = (value, None)
        return value

    def _last_choice(self, state: MeeplePartyState, card: int, index: int, board: Board,
                     options: list[fx.Choice], stress: tuple[int, ...], bag: tuple[int, ...],
                     white: int, stays: bool) -> Value:
        """The best choice of a surprise's last choosing effect (only stress effects follow,
        which choose nothing), by branch and bound as in :meth:`_mingle`: each choice's end
        gets an upper bound, then ends are valued exactly best bound first.  Nodes: one per
        new choice and one per new end listed.

        Removing only meeples that no clause of the active player's cards looks at (by type
        and room) leaves :meth:`Evaluator.upper_key` as it is on ``board``: those choices share
        that bound and are bounded one by one only when it could beat the best."""
        setup = state.setup
        effects = setup.cards.surprises[card].effects
        rest = effects[index + 1:]
        removes = effects[index].do == "remove"
        relevant = self.evaluator._relevant
        quiet: list[tuple[int, Board, tuple[int, ...], tuple[int, ...]]] = []
        best: Value | None = None
        best_key: tuple[float, ...] = ()
        best_index = -1
        bounded: list[tuple[tuple[float, ...], int, Board, tuple[int, ...], tuple[int, ...]]] \
            = []
        upper, upper_key = self.evaluator.upper, self.evaluator.upper_key
        base = board
        before = add(base, WHITE, white) if stays else base
        near = self.evaluator.terms.near(before)
        near_key = self.evaluator.key_table.near(before)
        rooms = range(len(base))
        for i, (pick, after, back) in enumerate(options):
            step_key = _effect_key(card, index + 1, after, stress,
                                   bag_with(bag, back, setup.ordered), 0, white)
            if step_key not in self.steps and step_key not in self.table:
                self.steps.add(step_key)
                self.meter.node()
            final_stress = stress
            value: Value | None = None
            for effect in rest:
                final_stress = stress_after(state, effect, after, final_stress)
                if min(final_stress) >= MAX_STRESS:
                    value = self._lost(final_stress)
                    break
            if value is None:
                final = add(after, WHITE, white) if stays else after
                end_key = (final, final_stress)
                found = self.ends.get(end_key)
                if found is None:
                    if end_key not in self.seen:
                        self.seen.add(end_key)
                        self.meter.node()
                    changed = tuple(r for r in rooms if after[r] != base[r])
                    if removes and not any(relevant[p] & (1 << r) for r, p in pick.meeples):
                        quiet.append((i, final, final_stress, changed))
                        continue
                    bounded.append((upper_key(final, final_stress, near_key, changed), i, final,
                                    final_stress, changed))
                    continue
                value = found[0]
            key = rank_key(value)
            if best is None or key > best_key:
                best, best_key, best_index = value, key, i
        bounded.sort(key=lambda item: (item[0], -item[1]), reverse=True)
        for bound, i, final, final_stress, changed in bounded:
            if best is not None and (bound < best_key or (bound == best_key and i > best_index)):
                break
            if best is not None:
                bound = upper(final, final_stress, near, changed)
                if bound < best_key or (bound == best_key and i > best_index):
                    continue
            value, _ = self.end(final, final_stress)
            key = rank_key(value)
            if best is None or key > best_key or (key == best_key and i < best_index):
                best, best_key, best_index = value, key, i
        shared: dict[tuple[int, ...], tuple[float, ...]] = {}
        for i, final, final_stress, changed in quiet:
            if final_stress not in shared:
                shared[final_stress] = upper_key(before, final_stress, near_key, ())
            bound = shared[final_stress]
            if best is not None:
                if bound < best_key or (bound == best_key and i > best_index):
                    continue
                bound = upper(final, final_stress, near, changed)
                if bound < best_key or (bound == best_key and i > best_index):
                    continue
            value, _ = self.end(final, final_stress)
            key = rank_key(value)
            if best is None or key > best_key or (key == best_key and i < best_index):
                best, best_key, best_index = value, key, i
        assert best is not None
        return best

    def _lost(self, stress: tuple[int, ...]) -> Value:
        """The value of a surprise that stresses every roommate out (the party is lost)."""
        return (0.0, -1.0, -float(sum(stress) - self.evaluator.sum0), 0.0, 0.0, 0.0)

    def _surprise_end(self, board: Board, stress: tuple[int, ...], white: int, stays: bool
                      ) -> Value:
        """The mingled white meeple comes back to its room if its card says it stays (else
        into the bag, which the rest of the turn does not read); the refresh comes next."""
        if stays:
            board = add(board, WHITE, white)
        value, _ = self.end(board, stress)
        return value

    # -- the ranked options of the root ---------------------------------------------------------

    def options(self, top: int = 5) -> RankedOptions:
        """Every distinct option at the root, best first.  Consecutive decisions of the active
        player (welcome, then mingle, then refresh) are one option; a chance node ends one.

        A mingle's end is first only bounded (:meth:`Evaluator.upper`); the ranking values
        options exactly as they are read, best bound first, so the first ``k`` read are the
        exact top ``k`` (see :class:`RankedOptions`)."""
        root = self.root
        if self.kernel is not None and (root.phase == MINGLE or (
                root.phase == PLACE and root.stage == TURN)):
            return self._kernel_options(top)
        found: dict[Hashable, TurnOption | Pending | PendingWhite] = {}
        self._collect(self.root, (), found)
        return RankedOptions(self, list(found.values()))

    def _kernel_options(self, top: int) -> RankedOptions:
        """The root's options from a welcome or a mingle: the compiled kernel's distinct ends
        (the first ``top`` fetched exact, :class:`KernelSource`) and the white meeples' mingles
        (bounded, valued as read, as :meth:`_collect` lists them)."""
        root = self.root
        drawn = root.drawn if root.phase == PLACE else -1
        source = KernelSource(self, drawn, top)
        items: list[TurnOption | Pending | PendingWhite] = []
        orders: list[int] = []
        if any(room >> (BITS * WHITE) & 7 for room in root.board):
            house = root.setup.house
            children: list[tuple[Action | None, MeeplePartyState]] = \
                list(root.children()) if drawn >= 0 else [(None, root)]
            seen: set[Hashable] = set()
            for w, (action, child) in enumerate(children):
                prefix: tuple[Action, ...] = (action,) if action is not None else ()
                for first, piece, src, dst, moved, kinds in mingle_groups(child.board, house):
                    if kinds or dst < 0:
                        continue
                    code: MingleCode = (piece, src, dst, -1, None)
                    outcome = child.apply(mingle_action(code)).key()
                    if outcome in seen:
                        continue
                    seen.add(outcome)
                    items.append(PendingWhite(self.white_ceiling(child), prefix, code, moved,
                                              child.stress, child, outcome))
                    orders.append(option_order(w if drawn >= 0 else -1, first))
        return RankedOptions(self, items, orders, source)

    def _collect(self, state: MeeplePartyState, plan: tuple[Action, ...],
                 found: dict[Hashable, TurnOption | Pending | PendingWhite]) -> None:
        phase = state.phase
        if phase == OVER or state.current_player() == CHANCE or not in_turn(state, self.root):
            value, _ = self.value(state)
            self._add(found, TurnOption(plan, None, value, state.key(), state.board,
                                        state.stress, certain=phase == OVER,
                                        ends_turn=False))
            return
        if phase == REFRESH:
            if plan:
                value, slot = self.end(state.board, state.stress)
                self._add(found, TurnOption(plan, None, value, (state.board, state.stress),
                                            state.board, state.stress, slot))
                return
            for action in state.legal_actions():
                assert isinstance(action, Refresh)
                value = self.refresh_option(state, action.slot)
                self._add(found, TurnOption((action,), None, value, (action.slot,),
                                            state.board, state.stress, action.slot,
                                            certain=action.slot is None, ends_turn=False))
            return
        if phase == MINGLE:
            stress = state.stress
            near = self.evaluator.terms.near(state.board)
            bound_key = self.evaluator.key_bounder(state.board, stress)
            shared = bound_key(state.board, ())
            house = state.setup.house
            for first, piece, src, dst, moved, kinds in mingle_groups(state.board, house):
                if not kinds and dst >= 0:
                    code: MingleCode = (piece, src, dst, -1, None)
                    outcome = state.apply(mingle_action(code)).key()
                    if outcome not in found:
                        found[outcome] = PendingWhite(self.white_ceiling(state), plan, code,
                                                      moved, stress, state, outcome)
                    continue
                quiet = dst < 0 or self.evaluator.quiet(moved, piece, src, dst, kinds, house)
                for _, code, board in move_outcomes(house, first, piece, src, dst, moved, kinds):
                    key = (board, stress)
                    if key in found:
                        continue
                    known = self.ends.get(key)
                    if known is not None:
                        found[key] = TurnOption(plan, code, known[0], key, board, stress,
                                                known[1])
                        continue
                    if key not in self.seen:
                        self.seen.add(key)
                        self.meter.node()
                    # a quiet move's ends share the bound of the board before the mingle
                    bound = shared if quiet else bound_key(board, touched(code))
                    found[key] = Pending(bound, plan, code, board, stress, near)
            return
        for action, child in state.children():
            self._collect(child, plan + (action,), found)

    def refresh_option(self, state: MeeplePartyState, slot: Slot | None) -> Value:
        """The exact value of one refresh choice (every card of the deck for a refresh)."""
        if slot is None:
            return self.evaluator.plain(state.board, state.stress)
        return self.evaluator.refresh_slot_value(state.board, state.stress, slot)

    @staticmethod
    def _add(found: dict[Hashable, TurnOption | Pending | PendingWhite],
             option: TurnOption) -> None:
        if option.outcome not in found:
            found[option.outcome] = option


class Pending(NamedTuple):
    """A mingle's end at the root, bounded but not yet valued exactly."""

    bound: tuple[float, ...]
    """No exact value of this end ranks above it (:meth:`Evaluator.upper_key`)."""
    prefix: tuple[Action, ...]
    code: MingleCode
    board: Board
    stress: tuple[int, ...]
    near: NearBoard

    def finer(self, search: TurnSearch, stage: int) -> tuple[float, ...] | None:
        """A tighter bound, on every card (:meth:`Evaluator.upper`), at stage 1; then none."""
        if stage > 1:
            return None
        return search.evaluator.upper(self.board, self.stress, self.near, touched(self.code))

    def option(self, search: TurnSearch) -> TurnOption:
        value, slot = search.end(self.board, self.stress, self.near, self.code)
        key = (self.board, self.stress)
        return TurnOption(self.prefix, self.code, value, key, self.board, self.stress, slot)


class PendingWhite(NamedTuple):
    """A white meeple's mingle at the root, bounded but not yet valued exactly."""

    bound: tuple[float, ...]
    """No value of this mingle ranks above it (:meth:`TurnSearch.white_ceiling`)."""
    prefix: tuple[Action, ...]
    code: MingleCode
    board: Board
    stress: tuple[int, ...]
    state: MeeplePartyState
    outcome: Hashable

    def finer(self, search: TurnSearch, stage: int) -> tuple[float, ...] | None:
        """Stage 1: the ceilings of the cards on this mingle's board; stage 2: with the cards
        that choose nothing valued exactly (:meth:`TurnSearch.white_ceiling`); then none."""
        if stage > 2:
            return None
        return search.white_ceiling(self.state, self.code, cheap=stage == 2)

    def option(self, search: TurnSearch) -> TurnOption:
        return self._valued(search.white_mingle(self.state, self.code))

    def _valued(self, value: Value) -> TurnOption:
        """This option with its exact value."""
        return TurnOption(self.prefix, self.code, value, self.outcome, self.board, self.stress,
                          certain=False)

    def option_above(self, search: TurnSearch, key: tuple[float, ...], at: int, order: int
                     ) -> TurnOption | tuple[float, ...]:
        """The option valued exactly if it could rank above the valued option of rank key
        ``key`` listed ``at`` (this one is listed ``order``), else a bound below that
        option's (its surprise cards were valued only until that was sure)."""

        def beats(bound: tuple[float, ...]) -> bool:
            return bound > key or (bound == key and order < at)

        value = search.white_mingle(self.state, self.code, beats)
        if value is None:
            return search.white_cut
        return self._valued(value)


class KernelSource:
    """The compiled search's distinct ends at the root, best first (:meth:`Kernel.top`): the
    first ``k`` are fetched exact, and twice as many again whenever the ranking reads past
    them (the ranking is deterministic, so the first ones come back the same)."""

    def __init__(self, search: TurnSearch, drawn: int, k: int) -> None:
        self.search = search
        self.drawn = drawn
        self.k = max(1, k)
        self.found: list[Found] = []
        self.count = 0
        """Distinct ends in all (white meeples' mingles are options of their own)."""
        self.released = 0
        self._fetch()
        self._welcomes: list[tuple[Welcome, Board]] | None = None

    def _fetch(self) -> None:
        root = self.search.root
        self.found, self.count = self.search._kernel_call(
            lambda kernel, limit: kernel.top(root.board, root.stress, self.drawn, self.k,
                                             limit))

    def head(self) -> tuple[tuple[float, ...], int] | None:
        """The heap key (turned rank key, order) that no end not yet released ranks before:
        the next one's, or just after the last one fetched when more are left."""
        if self.released < len(self.found):
            found = self.found[self.released]
            return _descending(rank_key(found.value)), kernel_order(found)
        if self.released < self.count:
            last = self.found[-1]
            return _descending(rank_key(last.value)), kernel_order(last) + 1
        return None

    def next(self) -> tuple[TurnOption, int]:
        """The next best end, as an option, and its place in the turn's order
        (:func:`kernel_order`: ties rank by it, as in the interpreted ranking)."""
        if self.released == len(self.found):
            self.k *= 2
            self._fetch()
        found = self.found[self.released]
        self.released += 1
        return self.option(found), kernel_order(found)

    def option(self, found: Found) -> TurnOption:
        root = self.search.root
        prefix: tuple[Action, ...] = ()
        board = root.board
        if found.welcome >= 0:
            if self._welcomes is None:
                self._welcomes = root.welcomes()
            action, board = self._welcomes[found.welcome]
            prefix = (action,)
        piece, src, dst, _, steps = found.code
        if dst < 0:
            board = stand_up(board, piece, src)
        else:
            board = apply_steps(move(board, piece, src, dst), [Step(*s) for s in steps or ()])
        return TurnOption(prefix, found.code, found.value, (board, root.stress), board,
                          root.stress, found.refresh)


def kernel_order(found: Found) -> int:
    """A compiled end's place in the order the turn lists its options (see
    :func:`option_order`)."""
    welcome, index = found.order
    return option_order(welcome, index)


def option_order(welcome: int, index: int) -> int:
    """The order of an option: the welcome's number (-1: none) and the mingle's end number
    (``(move << 12) + outcome``), as one int."""
    return ((welcome + 1) << 40) + index


class RankedOptions(Sequence[TurnOption]):
    """The root's options, best first, valued exactly as they are read.

    Options are ranked by their exact value (ties keep the order in which the turn lists
    them).  An option that is only bounded is bounded again more tightly, then valued, as soon
    as its bound could reach the best option not read yet, so the first ``k`` options read are
    exactly the top ``k`` of the plain ranking, and an option never read is no better than the
    last one read.  A white meeple's option may be valued only in part: its surprise cards are
    valued one by one against the best valued option (:meth:`PendingWhite.option_above`), and
    when the cards valued, with the others at their ceilings, show that it cannot beat that
    option, it waits again with that bound (the cut, :attr:`TurnSearch.white_cut`) until the
    bound could reach the best option not read; with no valued option left to compare, it is
    valued in full.  ``len()`` counts every distinct option; reading them all values them
    all."""

    def __init__(self, search: TurnSearch,
                 items: list[TurnOption | Pending | PendingWhite],
                 orders: Sequence[int] | None = None, source: KernelSource | None = None
                 ) -> None:
        self._search = search
        self._count = len(items) + (source.count if source is not None else 0)
        self._source = source
        self._ready: list[tuple[tuple[float, ...], int, TurnOption]] = []
        self._pending: list[tuple[tuple[float, ...], int, int,
                                  Pending | PendingWhite | KernelSource]] = []
        """A heap of bounded options: (the bound turned, order, how many times the bound was
        tightened (-1: a white meeple's option parked with the cut of
        :meth:`TurnSearch.white_mingle`, not tightened further; -2: the compiled search's
        ends, :class:`KernelSource`), it)."""
        turned: dict[int, tuple[float, ...]] = {}
        """The bounds turned, by identity (ends share their bounds' tuples)."""
        if source is not None:
            head = source.head()
            if head is not None:
                self._pending.append((head[0], head[1], -2, source))
        for order, item in zip(orders if orders is not None else range(len(items)), items,
                               strict=True):
            if isinstance(item, TurnOption):
                heappush(self._ready, (_descending(rank_key(item.value)), order, item))
            else:
                bound = item.bound
                found = turned.get(id(bound))
                if found is None:
                    found = turned[id(bound)] = _descending(bound)
                self._pending.append((found, order, 0, item))
        heapify(self._pending)
        self._done: list[TurnOption] = []

    @property
    def valued(self) -> int:
        """How many options have their exact value (those read, and those valued to be
        sure of the order)."""
        source = self._source
        waiting = sum(1 for entry in self._pending if entry[3] is not source)
        if source is not None:
            waiting += source.count - len(source.found)
        return self._count - waiting

    def __len__(self) -> int:
        return self._count

    def rank(self, n: int) -> None:
        """Rank (and value exactly) the first ``n`` options; :class:`BudgetExhausted` when the
        search's time runs out first (valuing an option expands no node, so the time is read
        before each: ranking 5 of 6,627 options valued 668 of them, 0.05 s past a limit that
        the collecting had just met)."""
        pending, ready = self._pending, self._ready
        meter = self._search.meter
        while len(self._done) < n and (ready or pending):
            while pending:
                turned, order, stage, item = pending[0]
                if ready and (turned, order) > ready[0][:2]:
                    break  # the best valued option beats every bound left
                if meter.out_of_time():
                    raise BudgetExhausted
                heappop(pending)
                if isinstance(item, KernelSource):
                    # the compiled search's next best end, exact, under its own place in
                    # the order (the source's entry may hold a stand-in just after the last
                    # end fetched); the source waits again with the one after it
                    option, place = item.next()
                    head = item.head()
                    if head is not None:
                        heappush(pending, (head[0], head[1], -2, item))
                    heappush(ready, (_descending(rank_key(option.value)), place, option))
                    continue
                if stage >= 0:
                    finer = item.finer(self._search, stage + 1)
                    if finer is not None:
                        heappush(pending, (_descending(finer), order, stage + 1, item))
                        continue
                if isinstance(item, PendingWhite) and (ready or pending):
                    # a white meeple's surprise is valued card by card only until it is sure
                    # whether it beats the best valued option, or the bound of the next
                    # option waiting when that is higher; if not, it waits with the bound
                    # that showed it (below that option or that bound)
                    top, at = ready[0][:2] if ready else pending[0][:2]
                    if pending and pending[0][:2] < (top, at):
                        top, at = pending[0][:2]
                    found = item.option_above(self._search, _descending(top), at, order)
                    if not isinstance(found, TurnOption):
                        heappush(pending, (_descending(found), order, -1, item))
                        continue
                    option = found
                else:
                    option = item.option(self._search)
                heappush(ready, (_descending(rank_key(option.value)), order, option))
            self._done.append(heappop(ready)[2])

    @overload
    def __getitem__(self, index: int) -> TurnOption: ...

    @overload
    def __getitem__(self, index: slice) -> list[TurnOption]: ...

    def __getitem__(self, index: int | slice) -> TurnOption | list[TurnOption]:
        if isinstance(index, slice):
            start, stop, step = index.indices(self._count)
            self.rank(max(start, stop) if step > 0 else start + 1)
            return self._done[index]
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError(index)
        self.rank(index + 1)
        return self._done[index]

    def __iter__(self) -> Iterator[TurnOption]:
        for i in range(self._count):
            yield self[i]


def _descending(key: tuple[float, ...]) -> tuple[float, ...]:
    """A rank key turned so that smaller is better (for heaps and ascending sorts)."""
    return tuple(-x for x in key)


def turn_hint(state: MeeplePartyState, budget: Budget | None = None, top: int = 5,
              compiled: bool | None = None) -> TurnHint:
    """Rank every distinct option of the rest of ``state``'s turn (exact, or ``unknown`` with
    no option when the budget runs out).  The ``top`` best options are valued exactly here;
    reading further down the ranking values more (exactly) on demand.  ``compiled``: whether
    to use the compiled kernel (``None``: see :func:`use_kernel`, and :data:`LEAN_NODES`); the
    ranking is the same."""
    budget = budget or Budget()
    if compiled is None and budget.time is None and not _kernel_loaded() \
            and use_kernel(budget, None):
        from . import native

        nodes = LEAN_NODES_NATIVE if native.available() else LEAN_NODES
        lean = TurnSearch(state, Budget(nodes=nodes), compiled=False)
        try:
            ranked = lean.options(top)
            ranked.rank(top)
        except BudgetExhausted:
            compiled = True  # a big turn: the kernel's, from the start
        else:
            seconds = lean.meter.elapsed
            lean.meter = budget.start()  # reading further down: the caller's budget
            return TurnHint(state, ranked, ranked[0].value if ranked else None, "optimal",
                            lean.examined, len(lean.table), seconds, lean.evaluator, lean)
    search = TurnSearch(state, budget, compiled=compiled)
    status = "optimal"
    options: Sequence[TurnOption]
    try:
        ranked = search.options(top)
        ranked.rank(top)
        options = ranked
        value = options[0].value if options else None
    except BudgetExhausted:
        status = "unknown"
        options, value = [], None
    seconds = search.meter.elapsed
    if status == "optimal":
        search.meter = budget.start()  # reading further down: the caller's budget, as above
    return TurnHint(state, options, value, status, search.examined, len(search.table),
                    seconds, search.evaluator, search)


class BestTurn(NamedTuple):
    """The best option of a turn alone (:func:`best_turn`)."""

    value: Value | None
    """Its exact value (``None``: the budget ran out)."""
    plan: tuple[Action, ...]
    """Its decisions, as :attr:`TurnOption.plan` gives them (``()`` when out of budget)."""
    search: TurnSearch


def best_turn(state: MeeplePartyState, budget: Budget | None = None,
              compiled: bool | None = None) -> BestTurn:
    """The best option of the rest of ``state``'s turn, the first of :func:`turn_hint`'s
    ranking (the same value and plan, ties in the game's order), without ranking the others.

    It is the expectimax of :meth:`TurnSearch.value`, which proves each sibling no better
    than the best so far (:meth:`TurnSearch._beats`) where the ranking lists and bounds every
    option; from a choice inside a surprise (a root whose options :func:`turn_hint` lists one
    by one, interpreted), each choice's mingle is also the compiled kernel's when it is there.
    The plan follows the best actions the search remembered: the decisions up to a chance
    node, or up to the end of the turn with its refresh.  Before a draw, the hint needs only
    this for each thing that can be drawn."""
    search = TurnSearch(state, budget, compiled=compiled)
    try:
        value, action = search.value(state)
        plan: list[Action] = []
        current = state
        while action is not None:
            plan.append(action)
            if current.phase == REFRESH:
                break
            current = current.apply(action)
            if current.phase == OVER or current.current_player() == CHANCE \
                    or not in_turn(current, state):
                break
            if current.phase == REFRESH:  # a mingle's end: its refresh decided there
                _, slot = search.end(current.board, current.stress)
                plan.append(Refresh(slot))
                break
            _, action = search.value(current)
    except BudgetExhausted:
        return BestTurn(None, (), search)
    return BestTurn(value, tuple(plan), search)


def _kernel_loaded() -> bool:
    """Whether the kernel has run in this process already (then it costs nothing to load)."""
    from .. import compiled as kernels
    from . import native

    return native.loaded() or kernels.loaded(kernels.MEEPLE_PARTY_TURN)


def best_action(state: MeeplePartyState, budget: Budget | None = None) -> Action:
    """The hint's choice at a decision of the turn (the first step of the best option)."""
    search = TurnSearch(state, budget)
    _, action = search.value(state)
    assert action is not None
    return action


def same_turn(search: TurnSearch | None, state: MeeplePartyState) -> bool:
    """Whether ``search`` (rooted earlier in a turn) still serves ``state``: the same party,
    turn and player, the same cards at the table (they change only at the refresh)."""
    if search is None:
        return False
    root = search.root
    return (root.setup is state.setup and root.turn == state.turn
            and root.active == state.active and root.photos == state.photos
            and root.disasters == state.disasters and root.communal == state.communal
            and root.photo_deck == state.photo_deck and root.disaster_deck == state.disaster_deck
            and searchable(state))


def anytime_action(state: MeeplePartyState, max_nodes: int,
                   search: TurnSearch | None = None) -> tuple[Action, bool, TurnSearch]:
    """The hint's choice under a node budget, and whether it is exact.

    The exact search is tried first.  When it does not fit, each option of this decision is
    searched exactly in turn, the most promising first (ordered by the value of the position
    it leads to, as if the turn ended there), until the budget is spent; the best option
    searched is played.  A search from earlier in the same turn is reused (what it learnt
    stays true until the refresh)."""
    if search is None or not same_turn(search, state):
        search = TurnSearch(state)
    search.meter = Budget(nodes=max_nodes).start()
    try:
        _, action = search.value(state)
        assert action is not None
        return action, True, search
    except BudgetExhausted:
        pass
    search.meter = Budget().start()  # what the first try learnt is kept; ordering is free
    children = state.children()
    ranked = []
    for index, (action, child) in enumerate(children):
        if child.phase in (MINGLE, REFRESH) and child.turn == state.turn:
            static, _ = search.end(child.board, child.stress)
        else:
            static = (0.0, -1.0, -9.0, -2.0, 0.0, -99.0)
        ranked.append((rank_key(static), -index, action, child))
    ranked.sort(key=lambda item: (item[0], item[1]), reverse=True)
    search.meter = Budget(nodes=max_nodes).start()
    best: tuple[tuple[float, ...], Action] | None = None
    for _, _, action, child in ranked:
        try:
            value, _ = search.value(child)
        except BudgetExhausted:
            break
        if best is None or rank_key(value) > best[0]:
            best = (rank_key(value), action)
    return (best[1] if best is not None else ranked[0][2]), False, search


def describe_plan(state: MeeplePartyState, plan: tuple[Action, ...]) -> list[str]:
    """The plan's steps in words, applying each to follow the position."""
    steps = []
    current = state
    for action in plan:
        steps.append(current.describe_action(action))
        if current.current_player() == CHANCE:
            break
        current = current.apply(action)
        if current.current_player() == CHANCE:
            break
    return steps


def option_summary(hint: TurnHint, option: TurnOption) -> dict[str, Any]:
    """The option's figures, for text and JSON (see :func:`~.evaluate.figures`)."""
    return figures(option.value)


def warm_up() -> float:
    """Compile the kernel now (or load it from numba's cache), announced first when it
    compiles: one search of the shipped example's turn.  The CPU seconds it took."""
    import time

    from ... import puzzles
    from ...models.documents import parse_document
    from ...models.meeple_party import load_position
    from . import native

    start = time.process_time()
    text = puzzles.examples("meeple-party")["default"].read_text()
    state = load_position(parse_document(text, "default.toml"), "default.toml").to_state("default.toml")
    TurnSearch(state, compiled=True).value(state)
    native.build()  # its machine code, loadable without numba (about 3 s more)
    return time.process_time() - start

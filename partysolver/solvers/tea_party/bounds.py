"""Proven bounds on the value of two-monster Epic Monster Tea Party positions too big to solve.

:func:`prove` gives every option of a decision an interval ``[low, high]`` that must contain its
exact value (the chooser's chance to win, ties sharing), however much of the game tree the time
limit lets it search: an iterative-deepening depth-first search whose every answer is a
**sound interval**, never an estimate.

* **Leaves not expanded** count as their game-theoretic bounds (:func:`static_bounds`): the
  worst a stomach can become (every loose Ranger drunk by it, each throw-up taking its two best
  heroes) against the best the other can (every loose hero drunk by it, no throw-up).  A
  monster whose worst beats the other's best has won (1); one whose worst equals it cannot lose
  (at least one half); and the same for the other monster.  Otherwise [0, 1].
* **The end of the game** is valued in closed form, and a leaf with few heroes loose is solved
  exactly when a small exact search finishes (``exact_nodes``): its interval is a point.
* **A decision** (the monster to act maximises its own chance): ``[max low, max high]`` over its
  options; options are searched best-first (by the bounds the table holds from the previous
  depth), and an option whose high cannot beat the best low, or the parent's window, is left
  as it stands (alpha-beta).
* **A chance node** (a draw, a throw-up): the probability-weighted sums of its outcomes' lows
  and highs, each outcome not yet searched counting at the bounds the table or
  :func:`static_bounds` give it.  Ballard's Star1: an outcome is searched with the window its
  value must leave for the node's value to leave the parent's window, and the node stops as
  soon as its low reaches the window's top or its high its bottom.  Star2's probe (a cheap
  look at each outcome before the full search) is played by the table: every outcome starts
  from the interval the previous, shallower iteration proved for it.

Every entry of the table is a sound interval (windows and depth only decide how much work goes
into it), so entries are intersected, never trusted beyond what they prove, and a search cut
short by the time limit leaves only sound intervals behind.

States are the interpreted exact search's (:mod:`.lean`): packed integers, the monster to act
in seat 0 (a turn that ends hands the other monster its draw, and its value is flipped), keyed
by the same canonical form.  Floating-point sums may differ from the exact search's in the last
bits (about 1e-15); the intervals reported are rounded outwards to six decimals.
"""

from __future__ import annotations

import math
import time
from collections.abc import Hashable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Protocol

from ...models.tea_party.state import (
    CHOOSE,
    DRAW,
    KING,
    ONE,
    OVER,
    RANGER,
    RANGERS,
    THROW_UP,
    TeaPartyState,
    count,
    present,
    size,
    standing,
    without_best,
)
from ..budget import Budget, BudgetExhausted, MoveValue, SearchResult
from .lean import FIGHTER, LeanExpectimax, final_value, key, throw_ups

if TYPE_CHECKING:
    from .kernel import Table

CLERIC, ROGUE, WIZARD, BARD = 1, 2, 3, 5
_COPIES = (FIGHTER, CLERIC, ROGUE, WIZARD, BARD)
_END = 4
"""A pseudo-phase: the turn is over (the other monster draws, or the game ends)."""
_FINAL = 5
"""A child that is the end of the game (valued in closed form)."""
_EXACT = 1 << 30
"""The depth stored with an interval that is a point: no deeper search changes it."""

Child = tuple[bool, int, int, int, int, int, int, int]
"""An option's or outcome's state: (flipped, phase, held, bag, c0, c1, s0, s1), seat 0 to act
(``flipped``: the other monster's turn, its value seen from its seat)."""


def static_bounds(phase: int, held: int, bag: int, c0: int, c1: int, s0: int, s1: int
                  ) -> tuple[float, float]:
    """Seat 0's game-theoretic bounds from the material alone (seat 0 to act; in ``THROW_UP``
    seat 0 is about to throw up): what the stomachs have now and the most they can still gain
    or lose."""
    loose = bag + c0 + c1 + (ONE[held] if held >= 0 else 0)
    rangers = count(loose, RANGER)
    worst0 = standing(without_best(s0, 2 * (rangers + (phase == THROW_UP))))
    worst1 = standing(without_best(s1, 2 * rangers))
    best0, best1 = standing(s0 + loose), standing(s1 + loose)
    if worst0 > best1:
        return 1.0, 1.0
    if worst1 > best0:
        return 0.0, 0.0
    return (0.5 if worst0 >= best1 else 0.0), (0.5 if worst1 >= best0 else 1.0)


def _child(phase: int, held: int, bag: int, c0: int, c1: int, s0: int, s1: int) -> Child:
    """A child state; a turn that is over becomes the other monster's draw, flipped, or the
    end of the game."""
    if phase == _END:
        if bag:
            return (True, DRAW, -1, bag, c1, c0, s1, s0)
        return (False, _FINAL, -1, 0, c0, c1, s0, s1)
    return (False, phase, held, bag, c0, c1, s0, s1)


def chance_children(phase: int, bag: int, c0: int, c1: int, s0: int, s1: int
                    ) -> list[tuple[float, Child]]:
    """The outcomes of a draw or of seat 0's throw-up, with their probabilities."""
    if phase == DRAW:
        total = size(bag)
        return [(count(bag, h) / total, _child(CHOOSE, h, bag - ONE[h], c0, c1, s0, s1))
                for h in present(bag)]
    return [(p, _child(_END, -1, bag, c0, c1, stomach, s1)) for stomach, p in throw_ups(s0)]


def options(held: int, bag: int, c0: int, c1: int, s0: int, s1: int) -> list[Child]:
    """The options for the hero in hand, in the rules engine's order (equal results merged:
    every squish that changes nothing is one option, last), as the exact searches list them."""
    found = [_child(_END, -1, bag, c0 + ONE[held], c1, s0, s1)]  # cup it
    if held == RANGER:
        return found
    idle = False
    for ability in _COPIES if held >= KING else (held,):
        if ability == FIGHTER:
            if c0 == 0:
                idle = True
            elif c0 & RANGERS:
                found.append(_child(THROW_UP, -1, bag, 0, c1, s0 + c0, s1))
            else:
                found.append(_child(_END, -1, bag, 0, c1, s0 + c0, s1))
        elif ability == CLERIC:
            if bag:
                found.append(_child(DRAW, -1, bag, c0, c1, s0, s1))
            else:
                idle = True
        elif ability == ROGUE:
            idle = idle or c1 == 0
            for hero in present(c1):
                found.append(_child(CHOOSE, hero, bag, c0, c1 - ONE[hero], s0, s1))
        elif ability == WIZARD:
            idle = idle or c0 == 0 or c1 == 0
            if c0:
                found.append(_child(_END, -1, bag + c0, 0, c1, s0, s1))
            if c1:
                found.append(_child(_END, -1, bag + c1, c0, 0, s0, s1))
        elif c0 == c1:  # Bard
            idle = True
        else:
            found.append(_child(_END, -1, bag, c1, c0, s0, s1))
    if idle:
        found.append(_child(_END, -1, bag, c0, c1, s0, s1))
    return found


def loose(bag: int, c0: int, c1: int, held: int) -> int:
    return size(bag + c0 + c1) + (held >= 0)


class _OutOfTime(Exception):
    pass


def _left(deadline: float) -> float | None:
    return None if deadline == math.inf else max(deadline - time.perf_counter(), 0.0)


class Exact(Protocol):
    """An exact oracle: seat 0's exact value of a state (seat 0 to act), or ``None`` when it
    does not finish within its own budget or before ``deadline``."""

    deadline: float
    nodes: int
    """Nodes a try may expand."""
    spent: int
    """Nodes the oracle has expanded in all..."""
    cost: float
    """...and what one of them costs, in nodes of the bounds search (which counts them against
    its node budget: without a time limit, that budget is all that ends it)."""

    def __call__(self, phase: int, held: int, bag: int, c0: int, c1: int, s0: int, s1: int
                 ) -> float | None: ...


class LeanExact:
    """The interpreted exact search as an oracle for small leaves: ``nodes`` a call, one table
    for every call (it holds only finished values)."""

    cost = 0.5
    """About twice as fast a node as the bounds search."""

    def __init__(self, nodes: int) -> None:
        self.nodes = nodes
        self.search = LeanExpectimax(Budget())
        self.spent = 0
        self.deadline = math.inf
        """When the bounds search must stop (it sets this): no call runs past it."""

    def __call__(self, phase: int, held: int, bag: int, c0: int, c1: int, s0: int, s1: int
                 ) -> float | None:
        self.search.meter = meter = Budget(nodes=self.nodes, time=_left(self.deadline)).start()
        try:
            return self.search._value(phase, held, bag, c0, c1, s0, s1)
        except BudgetExhausted:
            return None
        finally:
            self.spent += meter.nodes


class CompiledExact:
    """The compiled exact search (:mod:`.kernel`, which must be loaded: see
    :func:`.exact.load_compiled`) as an oracle for small leaves: ``nodes`` a call, one table
    for every call (``table``: a ``kernel.Table``, e.g. the hint's; by default a fixed one with
    room for ``entries``)."""

    cost = 0.02
    """Some fifty times as fast a node as the bounds search (interpreted)."""

    def __init__(self, like: TeaPartyState, nodes: int, table: Table | None = None,
                 entries: int = 4_000_000) -> None:
        from .budgets import HINT_SLOTS
        from .kernel import CompiledExpectimax, Table, packed

        self.like = like
        self.nodes = nodes
        if table is None:  # made once and never grown (a rehash takes a second): see Table
            table = Table.for_entries(entries, fixed=True, most=HINT_SLOTS)
        table.adopt(packed(like), widest=True)  # every leaf is below ``like``: compact keys
        self.search = CompiledExpectimax(Budget(), table=table)
        self.search.CHUNK = 1 << 13  # the deadline is checked between chunks: a short one
        self.spent = 0
        self.deadline = math.inf
        """When the bounds search must stop (it sets this): no call runs past it."""

    def __call__(self, phase: int, held: int, bag: int, c0: int, c1: int, s0: int, s1: int
                 ) -> float | None:
        state = TeaPartyState(self.like.table, phase, 0, held, bag, (c0, c1), (s0, s1),
                              0 if phase == THROW_UP else -1)
        self.search.meter = meter = Budget(nodes=self.nodes, time=_left(self.deadline)).start()
        try:
            return self.search.value(state)[0]
        except BudgetExhausted:
            return None
        finally:
            self.spent += meter.nodes


class BoundsSearch:
    """Iterative deepening over sound intervals (see the module's docstring).

    ``table`` maps a canonical key to ``[low, high, depth, alpha, beta]``: the interval proved
    for it, the depth and the window of the search that proved it.  ``exact``, if given, values
    a leaf with at most ``exact_loose`` heroes loose exactly when it can."""

    def __init__(self, exact: Exact | None = None, exact_loose: int = 10,
                 deadline: float = math.inf, nodes: int | None = None) -> None:
        self.table: dict[Hashable, list[float]] = {}
        self.exact = exact
        if exact is not None:
            exact.deadline = deadline
        self.spent_before = 0 if exact is None else exact.spent
        """The oracle's nodes before this search (an oracle may serve several)."""
        self.unsolved: set[Hashable] = set()
        """States the oracle could not solve within its budget in this iteration."""
        self.exact_loose = exact_loose
        self.deadline = deadline
        self.max_nodes = nodes
        self.nodes = 0
        self.cut_by_depth = False
        """Whether the last search left a leaf unexpanded for lack of depth."""

    @property
    def spent(self) -> int:
        """Nodes spent, the oracle's counted at their cost."""
        return self.nodes + (0 if self.exact is None else
                             int(self.leaf_nodes * self.exact.cost))

    @property
    def leaf_nodes(self) -> int:
        """The oracle's nodes in this search."""
        return 0 if self.exact is None else self.exact.spent - self.spent_before

    def _check(self) -> None:
        if time.perf_counter() > self.deadline or (
                self.max_nodes is not None and self.spent > self.max_nodes):
            raise _OutOfTime

    # -- one node -------------------------------------------------------------------------------

    def known(self, child: Child) -> tuple[float, float]:
        """What is proved of ``child`` already, seen from the parent's seat 0, without
        searching: the table's interval, or the end of the game, or the static bounds."""
        flipped, phase, held, bag, c0, c1, s0, s1 = child
        if phase == _FINAL:
            value = final_value(c0, c1, s0, s1)
            return value, value
        entry = self.table.get(key(phase, held, bag, c0, c1, s0, s1))
        if entry is not None:
            lo, hi = entry[0], entry[1]
        else:
            lo, hi = static_bounds(phase, held, bag, c0, c1, s0, s1)
        return (1.0 - hi, 1.0 - lo) if flipped else (lo, hi)

    def child(self, child: Child, depth: int, alpha: float, beta: float) -> tuple[float, float]:
        """Search ``child`` within the window, seen from the parent's seat 0."""
        flipped, phase, held, bag, c0, c1, s0, s1 = child
        if phase == _FINAL:
            value = final_value(c0, c1, s0, s1)
            return value, value
        if flipped:
            lo, hi = self.node(phase, held, bag, c0, c1, s0, s1, depth, 1.0 - beta, 1.0 - alpha)
            return 1.0 - hi, 1.0 - lo
        return self.node(phase, held, bag, c0, c1, s0, s1, depth, alpha, beta)

    def node(self, phase: int, held: int, bag: int, c0: int, c1: int, s0: int, s1: int,
             depth: int, alpha: float, beta: float) -> tuple[float, float]:
        """Seat 0's interval for a state (seat 0 to act), searched ``depth`` plies deep within
        the window (alpha, beta): sound in any case, tight where the window needs it."""
        k = key(phase, held, bag, c0, c1, s0, s1)
        entry = self.table.get(k)
        if entry is not None:
            lo, hi = entry[0], entry[1]
            if lo >= hi or lo >= beta or hi <= alpha:
                return lo, hi
            if entry[2] >= depth and entry[3] <= alpha and entry[4] >= beta:
                self.cut_by_depth = True  # (perhaps: it was proved to this depth)
                return lo, hi
        else:
            lo, hi = static_bounds(phase, held, bag, c0, c1, s0, s1)
            if lo >= hi or lo >= beta or hi <= alpha:
                self.table[k] = [lo, hi, _EXACT if lo >= hi else 0, alpha, beta]
                return lo, hi
        self.nodes += 1
        if self.nodes & 63 == 0:
            self._check()
        if self.exact is not None and k not in self.unsolved and \
                loose(bag, c0, c1, held) <= self.exact_loose:
            # Small enough to try exactly, once an iteration (the oracle's table keeps what
            # a failed try finished, so the next try goes on from there).
            value = self.exact(phase, held, bag, c0, c1, s0, s1)
            if value is not None:
                self.table[k] = [value, value, _EXACT, 0.0, 1.0]
                self._check()
                return value, value
            self._check()  # (the oracle may have stopped at the deadline)
            self.unsolved.add(k)
        if depth <= 0:
            self.cut_by_depth = True
            if entry is None:
                self.table[k] = [lo, hi, 0, alpha, beta]
            return lo, hi
        if phase == CHOOSE:
            new_lo, new_hi = self._decision(held, bag, c0, c1, s0, s1, depth, alpha, beta)
        else:
            new_lo, new_hi = self._chance(phase, bag, c0, c1, s0, s1, depth, alpha, beta)
        lo, hi = max(lo, new_lo), min(hi, new_hi)
        if lo > hi:  # rounding: the two sound intervals touch
            lo = hi = (lo + hi) / 2
        self.table[k] = [lo, hi, _EXACT if lo >= hi else depth, alpha, beta]
        return lo, hi

    def _decision(self, held: int, bag: int, c0: int, c1: int, s0: int, s1: int, depth: int,
                  alpha: float, beta: float) -> tuple[float, float]:
        children = options(held, bag, c0, c1, s0, s1)
        bounds = [self.known(c) for c in children]
        best = max(lo for lo, _ in bounds)
        order = sorted(range(len(children)), key=lambda i: (-bounds[i][1], -bounds[i][0]))
        for i in order:
            if best >= beta or best >= 1.0:
                break
            lo, hi = bounds[i]
            if hi <= best or hi <= alpha or lo >= hi:
                continue
            found = self.child(children[i], depth - 1, max(alpha, best), beta)
            bounds[i] = (max(lo, found[0]), min(hi, found[1]))
            best = max(best, bounds[i][0])
        return best, max(hi for _, hi in bounds)

    def _chance(self, phase: int, bag: int, c0: int, c1: int, s0: int, s1: int, depth: int,
                alpha: float, beta: float) -> tuple[float, float]:
        outcomes = chance_children(phase, bag, c0, c1, s0, s1)
        bounds = [self.known(c) for _, c in outcomes]
        low = sum(p * b[0] for (p, _), b in zip(outcomes, bounds, strict=True))
        high = sum(p * b[1] for (p, _), b in zip(outcomes, bounds, strict=True))
        for i in sorted(range(len(outcomes)), key=lambda i: -outcomes[i][0]):
            if low >= beta or high <= alpha:
                break  # Star1: the node's value is outside the window whatever the rest
            p, child = outcomes[i]
            lo, hi = bounds[i]
            if lo >= hi:
                continue
            # The window this outcome's value must leave for the node's to leave the parent's.
            a = max(lo, (alpha - (high - p * hi)) / p)
            b = min(hi, (beta - (low - p * lo)) / p)
            found = self.child(child, depth - 1, a, b)
            new_lo, new_hi = max(lo, found[0]), min(hi, found[1])
            low += p * (new_lo - lo)
            high += p * (new_hi - hi)
        return low, high


@dataclass(frozen=True, slots=True)
class Bounds:
    """Proven bounds on every option of a decision."""

    actions: tuple[Hashable, ...]
    """The options, in the rules engine's order."""
    intervals: tuple[tuple[float, float], ...]
    """Each option's interval for the chooser's chance to win (rounded outwards)."""
    depth: int
    """The deepest iteration finished (plies below the root's options)."""
    nodes: int
    """Nodes the bounds search expanded..."""
    seconds: float
    complete: bool
    """Whether the search reached every leaf (the intervals are then the exact values, up to
    rounding)."""
    leaf_nodes: int = 0
    """...and the exact searches of its small leaves."""

    @property
    def proved_best(self) -> int | None:
        """The index of the option proved best (its low at least every other's high), if the
        intervals separate."""
        for i, (lo, _) in enumerate(self.intervals):
            if all(lo >= hi for j, (_, hi) in enumerate(self.intervals) if j != i):
                return i
        return None

    def interval(self, action: Hashable) -> tuple[float, float]:
        return self.intervals[self.actions.index(action)]


def outward(lo: float, hi: float) -> tuple[float, float]:
    """Six decimals, rounded outwards (down and up, past a rounding error of the sums)."""
    return (max(0.0, math.floor(lo * 1e6 + 1e-6) / 1e6 if lo * 1e6 % 1 > 1 - 1e-6 else
                math.floor(lo * 1e6) / 1e6),
            min(1.0, math.ceil(hi * 1e6 - 1e-6) / 1e6 if hi * 1e6 % 1 < 1e-6 else
                math.ceil(hi * 1e6) / 1e6))


def _seat0(state: TeaPartyState) -> tuple[int, int, int, int, int, int, int]:
    cups, stomachs = state.cups, state.stomachs
    if state.player == 1:
        cups, stomachs = cups[::-1], stomachs[::-1]
    return state.phase, state.held, state.bag, cups[0], cups[1], stomachs[0], stomachs[1]


def _action_child(state: TeaPartyState, action: Hashable) -> Child:
    """The child of ``action`` in the search's form (seat 0 is the chooser)."""
    after = state.apply(action)
    if after.phase == OVER or (after.phase == THROW_UP and after.final):
        raise _EndNow
    phase, held, bag, c0, c1, s0, s1 = _seat0(after)
    return (after.player != state.player, phase, held, bag, c0, c1, s0, s1)


class _EndNow(Exception):
    """The option ends the game (valued by the rules engine)."""


MAX_DEPTH = 400
"""Plies an iteration may reach (a two-monster game from the opening is far shallower once the
bag is spent; iterations stop once no leaf is cut by depth)."""


def prove(state: TeaPartyState, seconds: float | None = None, nodes: int | None = None,
          exact: Exact | None = None, exact_loose: int = 10, start_depth: int = 2,
          step: int = 2, max_depth: int = MAX_DEPTH, grow: bool = True) -> Bounds:
    """Proven bounds on every option of a two-monster decision (``state`` with a hero in hand):
    iterative deepening from ``start_depth`` plies, ``step`` more each time, until every
    interval is a point, no leaf is cut by depth, ``max_depth`` is passed, or ``seconds`` /
    ``nodes`` run out (an iteration cut short still tightens the intervals it proved).
    ``exact`` values small leaves exactly (at most ``exact_loose`` heroes loose, with its own
    ``nodes`` a try; with ``grow``, twice the nodes each iteration, up to ``LEAF_NODES_MOST``,
    and one hero more every other iteration)."""
    if state.num_players != 2 or state.phase != CHOOSE:
        raise ValueError("proven bounds need a two-monster position with a hero in hand")
    started = time.perf_counter()
    deadline = math.inf if seconds is None else started + seconds
    search = BoundsSearch(exact, exact_loose, deadline, nodes)
    actions = tuple(state.legal_actions())
    children: list[Child | None] = []
    fixed: dict[int, float] = {}
    for i, action in enumerate(actions):
        try:
            children.append(_action_child(state, action))
        except _EndNow:
            children.append(None)
            from ..expectimax import Expectimax

            fixed[i] = Expectimax(Budget()).value(state.apply(action))[state.player]
    intervals = [(fixed[i], fixed[i]) if c is None else search.known(c)
                 for i, c in enumerate(children)]
    depth, finished, complete = start_depth, 0, False
    if seconds is not None and seconds <= 0:
        depth = max_depth + 1  # no time at all: what is known without searching
    base = 0 if exact is None else exact.nodes
    try:
        while depth <= max_depth:
            search.cut_by_depth = False
            search.unsolved.clear()
            if exact is not None and grow:
                # Each iteration gives the exact leaves twice the nodes, and one more hero
                # loose every other iteration: given time, the exact search takes over.
                rounds = (depth - start_depth) // step
                exact.nodes = min(base << rounds, LEAF_NODES_MOST)
                search.exact_loose = exact_loose + rounds // 2
            for i, c in enumerate(children):
                if c is None:
                    continue
                lo, hi = search.child(c, depth - 1, 0.0, 1.0)
                old = intervals[i]
                intervals[i] = (max(old[0], lo), min(old[1], hi))
            finished = depth
            if not search.cut_by_depth or all(lo >= hi for lo, hi in intervals):
                complete = True
                break
            depth += step
    except _OutOfTime:
        pass
    # An iteration cut short: every interval the table proved for an option stands.
    for i, c in enumerate(children):
        if c is not None:
            lo, hi = search.known(c)
            old = intervals[i]
            intervals[i] = (max(old[0], lo), min(old[1], hi))
    if exact is not None:
        exact.nodes = base
    return Bounds(actions, tuple(outward(lo, min(max(hi, lo), 1.0)) for lo, hi in intervals),
                  finished, search.nodes, round(time.perf_counter() - started, 4), complete,
                  search.leaf_nodes)


LEAF_NODES_MOST = 1 << 30
"""The most nodes one exact try at a leaf grows to (see :func:`prove`'s ``grow``)."""
LEAF_NODES_COMPILED = 300_000
"""Nodes the compiled exact search may spend on one leaf of the bounds search..."""
LEAF_LOOSE_COMPILED = 11
"""...tried on leaves with at most this many heroes loose (a 10-hero root takes some 50,000
nodes; one of 12 from a few hundred thousand to a hundred million)."""
LEAF_NODES_LEAN = 20_000
"""The same for the interpreted exact search (some 200,000 nodes a second)..."""
LEAF_LOOSE_LEAN = 7


def from_exact(state: TeaPartyState, moves: tuple[MoveValue, ...], seconds: float = 0.0
               ) -> Bounds:
    """The bounds an exact search proves: every option's interval is its value."""
    actions = tuple(state.legal_actions())
    values = {m.action: m.value for m in moves}
    return Bounds(actions, tuple(outward(values[a], values[a]) for a in actions), 0, 0,
                  seconds, True)


def for_hint(state: TeaPartyState, result: SearchResult, seconds: float | None,
             nodes: int | None, compiled: bool) -> Bounds:
    """Proven bounds for a hint whose search gave ``result``: exact values when it is exact,
    else :func:`prove` within ``seconds`` (or ``nodes``), its small leaves solved by the
    compiled exact search when ``compiled`` (it must be loaded), else by the interpreted one;
    an option MCTS proved (its whole subtree solved) is a point."""
    if result.status == "optimal":
        return from_exact(state, result.moves)
    started = time.perf_counter()
    oracle: Exact
    if compiled:
        room = 4_000_000 if seconds is None else max(1 << 16, min(4_000_000,
                                                                  int(seconds * 1_000_000)))
        oracle, loose_most = CompiledExact(state, LEAF_NODES_COMPILED, entries=room), \
            LEAF_LOOSE_COMPILED
    else:
        oracle, loose_most = LeanExact(LEAF_NODES_LEAN), LEAF_LOOSE_LEAN
    if seconds is not None:  # making the oracle's table counts against the limit
        seconds = max(seconds - (time.perf_counter() - started), 0.0)
    found = prove(state, seconds, nodes, oracle, loose_most)
    proved = {m.action: m.value for m in result.moves if m.exact}
    if not proved:
        return found
    intervals = tuple((min(max(lo, proved[a]), hi), max(min(hi, proved[a]), lo))
                      if a in proved else (lo, hi)
                      for a, (lo, hi) in zip(found.actions, found.intervals, strict=True))
    intervals = tuple(outward(lo, hi) for lo, hi in intervals)
    return replace(found, intervals=intervals)

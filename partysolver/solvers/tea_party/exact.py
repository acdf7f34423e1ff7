"""Epic Monster Tea Party's exact searches: which one runs (interpreted, compiled for two
monsters, generic for three or four), loading or compiling the compiled one, the tables one hint
shares between its searches, MCTS's exact subtrees, and ``solve``.

* :func:`exact_search` values a position exactly within a budget;
* :func:`solve` gives the exact value of a position (each monster's win probability) and the
  best line, or ``unknown`` at the budget;
* :func:`exact_fractions` gives every option's exact value as fractions, on small positions.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Any, BinaryIO

from ...models.protocol import CHANCE, TERMINAL
from ...models.tea_party.state import TeaPartyState
from .. import compiled
from ..budget import Budget, BudgetExhausted, SearchResult
from ..compiled import TEA_PARTY_SEARCH
from ..expectimax import Expectimax, expectimax
from ..mcts import LEAF_NODES
from .budgets import COMPILE_WORTH, EXACT_FRACTIONS, HINT_SLOTS, loose_heroes, subtree_loose
from .lean import LeanExpectimax

Notice = Callable[[str], None]
"""Told one line before a slow step the caller may want to announce (compiling), and a long
search's progress."""
Writer = Callable[[Path, Callable[[BinaryIO], None]], None]
"""Writes a file whole or not at all, given its path and what writes its contents."""


COMPILE_NOTICE = TEA_PARTY_SEARCH.notice
"""What the user is told before it compiles (the kernel says the same words)."""


LEAN_NODES_READY = 100_000
"""Nodes the interpreted two-monster search may use before the compiled one takes over, when
the compiled one is ready on disk (loading it, some 0.35 s, costs about as much as these
nodes)..."""


LEAN_NODES_COLD = 400_000
"""...and when it would have to compile first (about 5 s of interpreted search)."""


LEAN_LOOSE = 10
"""The interpreted search goes first only with at most this many heroes loose, and only
while the compiled search is not loaded in this process: a bigger position seldom fits its
nodes (of the benchmark's positions, all 27 with 10 or fewer loose did, 3 of 13 with 11, none
with more), and the compiled search starts again from scratch, so its time would be lost."""


def loaded() -> bool:
    """Whether the compiled two-monster search has run in this process (without importing
    it)."""
    return compiled.loaded(TEA_PARTY_SEARCH)


def needs_compile() -> bool:
    """Whether using the compiled two-monster search would compile it first (some ten
    seconds): :func:`partysolver.solvers.compiled.ready`, which imports neither numba nor the
    kernel."""
    return not compiled.ready(TEA_PARTY_SEARCH)


def load_compiled(notice: Notice | None = None) -> float:
    """Compile or load the compiled two-monster search now, telling ``notice`` first if it
    compiles; the seconds it took (which no search's time limit should pay)."""
    start = time.perf_counter()
    if not loaded():
        if notice is not None and needs_compile():
            notice(COMPILE_NOTICE)
        from .kernel import warm_up

        warm_up()
    return time.perf_counter() - start


class Tables:
    """The transposition tables of one hint's exact searches, one per kind of search.  They
    only ever hold finished values, so what the exact attempt solved serves MCTS's subtrees."""

    __slots__ = ("root", "lean", "generic", "_compiled", "seconds", "gib", "path", "write",
                 "progress", "loaded", "saved_at", "threads")

    def __init__(self, seconds: float | None = None, gib: float | None = None,
                 path: Path | None = None, write: Writer | None = None,
                 progress: Notice | None = None, root: TeaPartyState | None = None) -> None:
        self.root = root
        """The hint's position, if known: every search of the hint is below it, so the
        compiled table's compact keys are made for it once (``Table.adopt``)."""
        self.lean: dict[tuple[int, ...], float] = {}
        self.generic: dict[Hashable, Any] = {}
        self._compiled: Any = None
        self.seconds = seconds
        """The hint's whole time limit, if any: the compiled table is then made once for it."""
        self.gib = gib
        """Without a time limit, the most GiB the compiled table grows to (``None``: the
        kernel's default, ``kernel.MOST_SLOTS``)."""
        self.path = path
        """Where the compiled table is kept between runs (``solve --table``): loaded when
        first made, saved by :meth:`keep` and every :data:`SAVE_EVERY` seconds of a search,
        through ``write`` (the front end's: it writes the file whole or not at all)."""
        self.write = write
        self.progress = progress
        """Told a line on the compiled search's progress every half minute of a long search."""
        self.loaded = 0
        """How many entries came from :attr:`path`."""
        self.saved_at = time.perf_counter()
        self.threads = 1
        """How many searches the compiled search runs at once on a growing table, one a
        thread (``CompiledExpectimax.threads``; ``solve --threads``)."""

    @classmethod
    def kept(cls, path: Path, write: Writer, gib: float | None = None,
             progress: Notice | None = None) -> Tables:
        """The tables kept in ``path``: one per file in a process (the units of a batch
        share it, loaded once)."""
        key = str(path.resolve())
        tables = _KEPT.get(key)
        if tables is None or tables.gib != gib:
            tables = _KEPT[key] = cls(gib=gib, path=path, write=write)
        tables.progress = progress
        return tables

    def keep(self) -> None:
        """Save the compiled table to :attr:`path` (if one is given and the table was made)."""
        if self.path is not None and self.write is not None and self._compiled is not None:
            if self.progress is not None:
                self.progress(f"saving the table ({len(self._compiled):,} entries) to "
                              f"{self.path}")
            self.write(self.path, self._compiled.write)
            self.saved_at = time.perf_counter()

    def report(self, search: Any) -> None:
        """Between two chunks of a long compiled search: a progress line, and the table saved
        when :data:`SAVE_EVERY` seconds have passed since it last was."""
        if self.progress is not None:
            self.progress(progress_line(search))
        if self.path is not None and time.perf_counter() - self.saved_at >= SAVE_EVERY:
            self.keep()

    @property
    def compiled(self) -> Any:
        """The compiled search's table (a ``kernel.Table``), made when first asked
        for: under a time limit, once, with room for what half the limit can search (MCTS's
        playouts take much of it; at most ``HINT_SLOTS``) and never grown, so that no search of
        the hint stalls on a rehash past its deadline; else 8 MB to start with, grown as the
        searches need up to ``gib`` (full there, it drops its smallest subtrees' values)."""
        if self._compiled is None:
            from .kernel import CompiledExpectimax, Table, packed

            if self.seconds is None:
                table = Table(1 << 18) if self.gib is None else \
                    Table.within(self.gib, slots=1 << 18)
                if self.path is not None and self.path.exists():
                    # A file that fails to load is left as it is: never saved over.
                    self.loaded = table.load(self.path)
                self._compiled = table
            else:
                rate = CompiledExpectimax.NODES_PER_SECOND
                self._compiled = Table.for_entries(int(self.seconds * rate / 2), fixed=True,
                                                   most=HINT_SLOTS)
            if self.root is not None and self.root.num_players == 2:
                self._compiled.adopt(packed(self.root), widest=True)
        return self._compiled


def _sharing(kind: type[Expectimax], table: Any,
             progress: Callable[[Any], None] | None = None, threads: int = 1
             ) -> type[Expectimax]:
    """``kind`` with ``table`` as its transposition table (for :func:`expectimax`), and the
    compiled search's ``progress`` hook and ``threads``."""

    class Shared(kind):  # type: ignore[valid-type, misc]
        def __init__(self, budget: Budget, transpositions: bool = True) -> None:
            super().__init__(budget, transpositions, table=table)
            if progress is not None:
                self.progress = progress
            if threads > 1:
                self.threads = threads

    return Shared


SAVE_EVERY = 600.0
"""Seconds between two saves of a kept table during a long search (``solve --table``): a
run stopped loses at most this much of its search."""

_KEPT: dict[str, Tables] = {}


def progress_line(search: Any) -> str:
    """A long compiled search's progress: its nodes, their rate, its table, and the share done
    as its stack's odds say (``done_share``: a guide, not a bound), with the time left at the
    pace so far by those odds once that share reaches 1%.  Later subtrees meet more of the
    table and go faster, so that time is mostly too long: on 16 heroes seed 2 it said 72
    minutes at 63.8% where 6 were left (``docs/results.md``)."""
    seconds, nodes = max(search.meter.elapsed, 1e-9), search.meter.nodes
    done, table = search.done_share(), search.kernel_table
    left = (f"{seconds * (1 - done) / done / 60:,.0f} min left at the pace so far"
            if done >= 0.01 else "too early to tell the time left")
    return (f"{seconds:,.0f} s, {nodes / 1e6:,.1f} M nodes ({nodes / seconds / 1e6:.2f} M a "
            f"second), table {len(table) / 1e6:,.1f} M entries, {table.purges} purges, "
            f"{100 * done:.3g}% done by the stack's odds, {left}")


def exact_search(state: TeaPartyState, budget: Budget, line: bool = False,
           notice: Notice | None = None, compile: bool = True,
           tables: Tables | None = None, interpreted: bool = True) -> SearchResult:
    """The exact search.  Two monsters: the interpreted search first, up to
    ``LEAN_NODES_READY`` or ``LEAN_NODES_COLD`` nodes (when the compiled one is compiled
    already, only on a small position, ``LEAN_LOOSE``, and while it is not loaded in this
    process); then, or at once, the compiled one (compiled or loaded first if ``compile``,
    announced to ``notice``; not charged to the time limit; without ``compile``, only if this
    process has loaded it already).  Three or four: the generic search (plain
    expectimax with its table: pruning windows cut almost nothing in this game).  ``usage['seconds']`` counts search time only;
    ``tables`` keeps what was solved, for later searches of the same hint.  Without
    ``interpreted`` (a table kept on disk: only the compiled search's is), two monsters go to
    the compiled search at once."""
    tables = tables or Tables()
    if state.num_players != 2:
        return expectimax(state, budget, line=line, kind=_sharing(Expectimax, tables.generic))
    # ``compile`` false (a short time limit): not even loading the compiled search, which
    # takes seconds from numba's cache on a busy machine, unless this process has it already
    ready = not needs_compile() and (compile or loaded())
    if (ready and (loaded() or loose_heroes(state) > LEAN_LOOSE)) or (compile and not interpreted):
        return _compiled(state, budget, line, notice, tables, 0.0)
    lean_nodes = LEAN_NODES_READY if ready else LEAN_NODES_COLD
    if budget.nodes is not None:
        lean_nodes = min(lean_nodes, budget.nodes)
    lean = expectimax(state, replace(budget, nodes=lean_nodes), line=line,
                      kind=_sharing(LeanExpectimax, tables.lean))
    spent = lean.usage["seconds"]
    if (lean.status == "optimal" or lean_nodes == budget.nodes or not (ready or compile)
            or (budget.time is not None and spent >= budget.time)):
        return lean
    return _compiled(state, budget, line, notice, tables, spent)


def _compiled(state: TeaPartyState, budget: Budget, line: bool, notice: Notice | None,
              tables: Tables, spent: float) -> SearchResult:
    """The compiled exact search (loaded, or compiled and announced, first: not charged to
    the time limit) with what is left of ``budget`` after ``spent`` seconds."""
    load_compiled(notice)
    from .kernel import CompiledExpectimax

    left = None if budget.time is None else budget.time - spent
    result = expectimax(state, replace(budget, time=left), line=line,
                        kind=_sharing(CompiledExpectimax, tables.compiled, tables.report,
                                      tables.threads))
    return replace(result, usage=result.usage | {"seconds": round(spent + result.usage["seconds"],
                                                                  4)})


SUBTREE_LOOSE = 8
"""MCTS tries to solve a new leaf exactly only with at most this many heroes loose (a bigger
one never fits the leaf's budget); a node visited often is tried whatever its size."""


class ExactSubtrees:
    """MCTS's solver: a subtree's exact value when a search within a node budget finishes.
    Two monsters: the compiled search (``compiled``) or the interpreted one; more: the
    generic one.  One table for the whole search, so each position is solved at most once
    and a search cut short leaves its finished values for the next.

    ``total``: the nodes every subtree search together may expand (``None``: no cap, the
    time limit ends them).  A hint without a time limit needs it: MCTS offers a node visited
    often again with a budget that grows with its visits, and on a three-monster midgame the
    subtree searches took 89 s of 91 over 1,000 iterations; once the total is spent, the
    leaves are estimated by playouts alone, and the search ends deterministically.

    A position with more heroes loose than :func:`.budgets.subtree_loose` (18 for two monsters,
    12 for more) is not searched: only a certain winner (``settled_returns``, the exact
    search's own first test) is answered.  Before issue 30 MCTS offered such positions again
    and again as their visits grew, and none ever finished (measured: see the constants): on
    the opening's hint 254 searches spent 1.7 million nodes of the compiled search, on the
    midgame's 225 searches the whole 100,000 nodes of the generic one (1.2 s of its 1.6 s)."""

    def __init__(self, num_players: int, compiled: bool, tables: Tables | None = None,
                 total: int | None = None, notice: Notice | None = None) -> None:
        tables = tables or Tables()
        self._search: Expectimax | None = None
        self._tables, self._notice = tables, notice
        self.compiled = num_players == 2 and compiled
        """The compiled search, made (and loaded through numba, or compiled, announced to
        ``notice``) at the first position that needs it: a hint whose playouts load without
        numba (:mod:`.native`) and whose subtrees are all too big never loads it."""
        if num_players != 2:
            self._search = Expectimax(Budget(), table=tables.generic)
        elif not compiled:
            self._search = LeanExpectimax(Budget(), table=tables.lean)
        self.most_loose = subtree_loose(num_players)
        """The most heroes loose in a position searched (a bigger one: a certain winner only)."""
        self.solved = 0
        self.left = total
        """Nodes the subtree searches may still expand (``None``: no cap)."""

    @property
    def search(self) -> Expectimax:
        """The exact search of the subtrees (the compiled one made when first asked for)."""
        if self._search is None:
            load_compiled(self._notice)
            from .kernel import CompiledExpectimax

            self._search = CompiledExpectimax(Budget(), table=self._tables.compiled)
        return self._search

    @property
    def method(self) -> str:
        if self._search is None and self.compiled:
            return "exact expectimax, compiled (numba)"
        return self.search.method

    def __call__(self, state: TeaPartyState, nodes: int, deadline: float
                 ) -> tuple[float, ...] | None:
        loose = loose_heroes(state)
        if loose > SUBTREE_LOOSE and nodes <= LEAF_NODES:
            return None  # a new leaf this big never fits a leaf's budget: do not try
        if loose > self.most_loose:  # too big to finish (see the class): a certain winner only
            settled = state.settled_returns()
            if settled is not None:
                self.solved += 1
            return settled
        if self.left is not None:
            if self.left <= 0:
                return None
            nodes = min(nodes, self.left)
        left = None if deadline == math.inf else max(deadline - time.perf_counter(), 0.0)
        meter = self.search.meter = Budget(nodes=nodes, time=left).start()
        try:
            values = self.search.value(state)
        except BudgetExhausted:
            return None
        finally:
            if self.left is not None:
                self.left -= meter.nodes
        self.solved += 1
        return values


@dataclass(frozen=True, slots=True)
class Solution:
    state: TeaPartyState
    result: SearchResult
    line: tuple[str, ...]


def solve(state: TeaPartyState, budget: Budget, notice: Notice | None = None,
          table_gib: float | None = None, table_path: Path | None = None,
          write: Writer | None = None, threads: int = 1) -> Solution:
    """The exact value of ``state`` and its best line (likeliest outcome at chance nodes);
    ``table_gib``: the most the compiled search's table grows to (:class:`Tables`);
    ``threads``: how many searches the compiled search runs at once, one a thread, sharing
    its table (:attr:`.kernel.CompiledExpectimax.threads`: the same value to the last bit);
    ``table_path``: where that table is kept between runs (loaded first; saved through
    ``write`` at the end, every :data:`SAVE_EVERY` seconds and when the search is stopped, a
    time limit, a node limit or Ctrl+C; the compiled search runs even on a small position).
    ``notice`` is told one line before the compiled search compiles, and a line on its
    progress every half minute of a long search.  Under ``COMPILE_WORTH`` seconds the
    compiled search is used only if this process has it loaded (loading it takes half a
    second at best: more than such a limit), as the hint does."""
    quick = budget.time is not None and budget.time < COMPILE_WORTH
    tables = Tables(gib=table_gib, progress=notice) if table_path is None or write is None \
        else Tables.kept(table_path, write, table_gib, notice)
    tables.threads = threads
    try:
        result = exact_search(state, budget, line=True, notice=notice, compile=not quick,
                              tables=tables, interpreted=table_path is None)
    finally:
        tables.keep()
    return Solution(state, result, describe_line(state, result.line))


class _TooBig(Exception):
    """:func:`exact_fractions` met more positions than its limit."""


def exact_fractions(state: TeaPartyState, limit: int = EXACT_FRACTIONS,
                    seconds: float | None = None, searched: int = 0
                    ) -> dict[Hashable, tuple[Fraction, ...]] | None:
    """Every option's exact value for every monster, as fractions, at a decision (or the
    position's own value under the key ``None`` when chance acts first): a memoised expectimax
    over the rules engine with its exact chance probabilities, each monster maximising its own
    chance to win (ties between options kept in the rules' order, as the float searches do).
    ``None`` when it would visit more than ``limit`` distinct positions, or take more than
    ``seconds`` (what is left of a time limit); at once when the float search of the same
    position visited more than ``limit`` nodes (``searched``: these would surely not fit)."""
    if searched > limit:
        return None
    memo: dict[Hashable, tuple[Fraction, ...]] = {}
    deadline = None if seconds is None else time.perf_counter() + seconds

    def share(value: float) -> Fraction:
        return Fraction(value).limit_denominator(state.num_players)  # 0, 1/k .. 1

    def value(node: TeaPartyState) -> tuple[Fraction, ...]:
        key = node.key()
        found = memo.get(key)
        if found is not None:
            return found
        if len(memo) >= limit or (deadline is not None and len(memo) % 64 == 0
                                  and time.perf_counter() > deadline):
            raise _TooBig
        settled = node.settled_returns()
        player = node.current_player()
        if settled is not None:
            result = tuple(map(share, settled))
        elif player == CHANCE:
            total = [Fraction(0)] * node.num_players
            for outcome, probability in node.chance_outcomes():
                for seat, v in enumerate(value(node.apply(outcome))):
                    total[seat] += probability * v
            result = tuple(total)
        else:
            result = max((value(node.apply(a)) for a in node.legal_actions()),
                         key=lambda values: values[player])
        memo[key] = result
        return result

    try:
        if state.current_player() in (CHANCE, TERMINAL):
            return {None: value(state)}
        return {action: value(state.apply(action)) for action in state.legal_actions()}
    except _TooBig:
        return None


def describe_line(state: TeaPartyState, line: tuple[Hashable, ...]) -> tuple[str, ...]:
    steps = []
    for action in line:
        player = state.current_player()
        if player == CHANCE:
            steps.append(f"(likeliest) {state.describe_action(action)}")
        else:
            steps.append(f"{state.name(player)}: {state.describe_action(action)}")
        state = state.apply(action)
    if state.current_player() == TERMINAL:
        scores = ", ".join(f"{state.name(i)} {p}" for i, p in enumerate(state.scores()))
        steps.append(f"final stomachs (points): {scores}")
    return tuple(steps)

"""Epic Monster Tea Party solvers: hints, exact solving and the simulation policies.

* :func:`hint` ranks every option for the hero in hand by the chooser's probability of winning:
  exact (expectimax with a table, compiled for two monsters) when the search fits its node
  budget, otherwise MCTS with per-move 95% intervals.  It says which method it used.
* :func:`solve` gives the exact value of a position (each monster's win probability) and the
  best line, or ``unknown`` at the budget.
* :class:`GreedyPolicy` is the documented one-step heuristic; :class:`HintPolicy` plays the hint.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import math
import os
import pickle
import random
import sys
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Any, Literal

from ..models.protocol import CHANCE, TERMINAL
from ..models.tea_party.game import POINTS, Cup, Draw, Hero, Squish
from ..models.tea_party.state import (
    CHOOSE,
    DRAW,
    RANGER,
    THROW_UP,
    TeaPartyState,
    count,
    points,
    size,
    unpack,
)
from ..models.words import plural
from .budget import Budget, BudgetExhausted, MoveValue, SearchResult
from .compiled import compile_notice
from .expectimax import Expectimax, expectimax
from .mcts import LEAF_NODES, Evaluator, mcts, playout
from .tea_party_lean import LeanExpectimax

DEFAULT_EXACT_NODES = 300_000
"""Nodes the exact search may use before a hint falls back to MCTS (three or four monsters:
the generic search expands some 25,000 nodes a second)."""
DEFAULT_EXACT_NODES_TWO = 10_000_000
"""The same for two monsters, whose compiled search expands some 5 million nodes a second (its
table, made for the budget up front, up to 256 MiB, grows past that only when full)."""

DEFAULT_MCTS_ITERATIONS = 10_000

DEFAULT_SOLVE_NODES = 10_000_000
"""Nodes an exact ``solve`` may use by default, three or four monsters (the table holds about
as many entries, some 300 bytes each)."""
DEFAULT_SOLVE_NODES_TWO = 20_000_000
"""The same for two monsters (the compiled search's table: 43 to 85 bytes an entry)."""


def exact_nodes_default(state: TeaPartyState) -> int:
    """A hint's default exact-search budget for this many monsters."""
    return DEFAULT_EXACT_NODES_TWO if state.num_players == 2 else DEFAULT_EXACT_NODES


def solve_nodes_default(state: TeaPartyState) -> int:
    """``solve``'s default node budget for this many monsters."""
    return DEFAULT_SOLVE_NODES_TWO if state.num_players == 2 else DEFAULT_SOLVE_NODES

CUP_RISK = 0.75
"""Greedy's weight of a point in a teacup relative to one in the stomach (cups can be stolen,
poured or swapped; stomachs only lose heroes to throw-ups)."""


# -- reasons ----------------------------------------------------------------------------------


def consequence(state: TeaPartyState, move: Hashable, then: str = "") -> str:
    """What ``move`` does, in game terms (without its value); ``then`` is the chooser's next
    decision in the best line, when the move leads straight to one."""
    text = _effect(state, move)
    if then:
        return f"{text.removesuffix(', then cup or use it')}; then {then}"
    return text


def _effect(state: TeaPartyState, move: Hashable) -> str:
    me = state.player
    held = Hero(state.held)
    if isinstance(move, Cup):
        if held == Hero.RANGER:
            return "a Ranger cannot be squished: it must go in your teacup"
        cup = points(state.cups[me]) + held.points
        return f"+{plural(held.points, 'point')} in your teacup ({cup} there, not yet safe)"
    assert isinstance(move, Squish)
    ability = move.ability
    if not state.has_effect(move):
        return f"nothing changes: the {held.label} is just discarded"
    if ability == Hero.FIGHTER:
        cup = state.cups[me]
        gone = points(cup)
        text = f"{plural(gone, 'point')} go{'es' if gone == 1 else ''} safely into your stomach"
        if count(cup, RANGER):
            text += "; the Ranger makes you throw up 2 heroes at random"
        return text
    if ability == Hero.CLERIC:
        return f"draw again from the {state.bag_size()} heroes in the bag"
    assert move.target is not None
    name = state.name(move.target)
    if ability == Hero.ROGUE:
        assert move.take is not None
        return f"takes {plural(move.take.points, 'point')} from {name}, then cup or use it"
    if ability == Hero.WIZARD:
        cup = state.cups[move.target]
        whose = "your" if move.target == me else f"{name}'s"
        rangers = count(cup, RANGER)
        extra = f" ({rangers} Ranger{'s' if rangers > 1 else ''} back into the bag)" \
            if rangers else ""
        amount = points(cup)
        return (f"the {amount} point{'s' if amount != 1 else ''} in {whose} teacup "
                f"return{'s' if amount == 1 else ''} to the bag{extra}")
    mine, theirs = points(state.cups[me]), points(state.cups[move.target])
    return f"your teacup ({plural(mine, 'point')}) for {name}'s ({plural(theirs, 'point')})"


# -- hints ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RankedMove:
    move: Hashable
    text: str
    reason: str
    value: MoveValue


HintStatus = Literal["exact", "estimate", "unknown"]

EXACT_VALUES = "exact win probabilities (expectimax over every draw and throw-up)"
ESTIMATED_VALUES = (
    "estimated win probabilities (MCTS: each option's backed-up value; 'exact' marks an "
    "option whose whole subtree the search solved); no interval: a visit count does not "
    "measure how far the search's estimate is from the exact value (docs/solvers.md gives the "
    "measured error); 'visits' counts the simulations through each option")


@dataclass(frozen=True, slots=True)
class Hint:
    """The options for the hero in hand, best first, and how they were valued."""

    state: TeaPartyState
    result: SearchResult
    moves: tuple[RankedMove, ...]

    @property
    def exact(self) -> bool:
        return self.result.status == "optimal"

    @property
    def status(self) -> HintStatus:
        """``exact`` (every value proved), ``estimate`` (MCTS) or ``unknown`` (nothing
        searched)."""
        if self.exact:
            return "exact"
        return "estimate" if self.moves and self.moves[0].value.visits > 0 else "unknown"

    @property
    def values_are(self) -> str:
        """What the moves' values are, in words (for the report)."""
        return EXACT_VALUES if self.exact else ESTIMATED_VALUES

    interval: str | None = None
    """What the moves' intervals are intervals of: none is given (see ``values_are``)."""


# -- the exact searches, and compiling ---------------------------------------------------------

Notice = Callable[[str], None]
"""Told one line before a slow step the caller may want to announce (compiling)."""

COMPILE_SECONDS = 8
"""CPU seconds numba takes to compile the compiled search on its first run (measured: 7.5, since
the kernel runs without reference counting; 14 before)."""
COMPILE_NOTICE = compile_notice("the Tea Party search", COMPILE_SECONDS)
"""What the user is told before it compiles (the compiled module says the same words)."""
COMPILE_WORTH = 1.0
"""Seconds: under this time limit the caller wants a quick answer, and the compiled search is
used only if it is compiled already (compiling takes some ten seconds, once)."""
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

_COMPILED = "partysolver.solvers.tea_party_compiled"
_ENTRY_POINTS = ("_search", "_rehash", "_playouts")


def loaded() -> bool:
    """Whether the compiled two-monster search is compiled or loaded in this process (without
    importing it)."""
    module = sys.modules.get(_COMPILED)
    return module is not None and module.ready()


def needs_compile() -> bool:
    """Whether using the compiled two-monster search would compile it first (some ten
    seconds): False once it is loaded in this process, or when numba's cache holds every
    entry point of the kernel, written by the installed numba after the module last changed.
    A file check: it imports neither numba nor the kernel."""
    if loaded():
        return False
    source = Path(__file__).with_name("tea_party_compiled.py")
    try:
        numba_version = importlib.metadata.version("numba")
        changed = source.stat().st_mtime
    except (importlib.metadata.PackageNotFoundError, OSError):
        return True
    tag = f"py{sys.version_info.major}{sys.version_info.minor}"
    return not all(any(_fresh_index(index, numba_version, changed)
                       for folder in _cache_folders(source)
                       for index in folder.glob(f"{source.stem}.{name}-*.{tag}.nbi"))
                   for name in _ENTRY_POINTS)


def _cache_folders(source: Path) -> list[Path]:
    """Where numba keeps the cache of ``source``: under ``NUMBA_CACHE_DIR`` when it is set,
    else beside the module, or in the user's cache folder when that is not writable (numba's
    naming there: the folder's name and the SHA-1 of its path)."""
    folder = str(source.resolve().parent)
    sub = f"{Path(folder).name}_{hashlib.sha1(folder.encode()).hexdigest()}"
    if os.environ.get("NUMBA_CACHE_DIR"):
        return [Path(os.environ["NUMBA_CACHE_DIR"]) / sub]
    user = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "numba"
    return [source.parent / "__pycache__", user / sub]


def _fresh_index(index: Path, numba_version: str, changed: float) -> bool:
    try:
        with index.open("rb") as f:
            version = pickle.load(f)  # numba writes its version first, a plain string
        return version == numba_version and index.stat().st_mtime >= changed
    except (OSError, pickle.UnpicklingError, EOFError, ValueError):
        return False


def load_compiled(notice: Notice | None = None) -> float:
    """Compile or load the compiled two-monster search now, telling ``notice`` first if it
    compiles; the seconds it took (which no search's time limit should pay)."""
    start = time.perf_counter()
    if not loaded():
        if notice is not None and needs_compile():
            notice(COMPILE_NOTICE)
        from .tea_party_compiled import warm_up

        warm_up()
    return time.perf_counter() - start


class Tables:
    """The transposition tables of one hint's exact searches, one per kind of search.  They
    only ever hold finished values, so what the exact attempt solved serves MCTS's subtrees."""

    __slots__ = ("lean", "generic", "_compiled", "seconds")

    def __init__(self, seconds: float | None = None) -> None:
        self.lean: dict[tuple[int, ...], float] = {}
        self.generic: dict[Hashable, Any] = {}
        self._compiled: Any = None
        self.seconds = seconds
        """The hint's whole time limit, if any: the compiled table is then made once for it."""

    @property
    def compiled(self) -> Any:
        """The compiled search's table (a ``tea_party_compiled.Table``), made when first asked
        for: under a time limit, once, with room for what half the limit can search (MCTS's
        playouts take much of it; at most ``HINT_SLOTS``) and never grown, so that no search of
        the hint stalls on a rehash past its deadline; else 8 MB to start with, grown as the
        searches need."""
        if self._compiled is None:
            from .tea_party_compiled import CompiledExpectimax, Table

            if self.seconds is None:
                self._compiled = Table(1 << 18)
            else:
                rate = CompiledExpectimax.NODES_PER_SECOND
                self._compiled = Table.for_entries(int(self.seconds * rate / 2), fixed=True,
                                                   most=HINT_SLOTS)
        return self._compiled


HINT_SLOTS = 1 << 24
"""The most slots of a time-limited hint's compiled table (16 million, 512 MiB: room for a
root of 12 million states, reached from a limit of 5 s; 2 s gets 8 million slots).  The
system clears its memory as the search first touches it, some 0.35 s for 256 MiB here."""


def _sharing(kind: type[Expectimax], table: Any) -> type[Expectimax]:
    """``kind`` with ``table`` as its transposition table (for :func:`expectimax`)."""

    class Shared(kind):  # type: ignore[valid-type, misc]
        def __init__(self, budget: Budget, transpositions: bool = True) -> None:
            super().__init__(budget, transpositions, table=table)

    return Shared


def _exact(state: TeaPartyState, budget: Budget, line: bool = False,
           notice: Notice | None = None, compile: bool = True,
           tables: Tables | None = None) -> SearchResult:
    """The exact search.  Two monsters: the interpreted search first, up to
    ``LEAN_NODES_READY`` or ``LEAN_NODES_COLD`` nodes (when the compiled one is compiled
    already, only on a small position, ``LEAN_LOOSE``, and while it is not loaded in this
    process); then, or at once, the compiled one (compiled first if ``compile``, announced to
    ``notice``; not charged to the time limit).  Three or four: the generic search (plain
    expectimax with its table: pruning windows cut almost nothing in this game).  ``usage['seconds']`` counts search time only;
    ``tables`` keeps what was solved, for later searches of the same hint."""
    tables = tables or Tables()
    if state.num_players != 2:
        return expectimax(state, budget, line=line, kind=_sharing(Expectimax, tables.generic))
    ready = not needs_compile()
    if ready and (loaded() or loose_heroes(state) > LEAN_LOOSE):
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
    from .tea_party_compiled import CompiledExpectimax

    left = None if budget.time is None else budget.time - spent
    result = expectimax(state, replace(budget, time=left), line=line,
                        kind=_sharing(CompiledExpectimax, tables.compiled))
    return replace(result, usage=result.usage | {"seconds": round(spent + result.usage["seconds"],
                                                                  4)})


SUBTREE_LOOSE = 8
"""MCTS tries to solve a new leaf exactly only with at most this many heroes loose (a bigger
one never fits the leaf's budget); a node visited often is tried whatever its size."""


class ExactSubtrees:
    """MCTS's solver: a subtree's exact value when a search within a node budget finishes.
    Two monsters: the compiled search (``compiled``) or the interpreted one; more: the
    generic one.  One table for the whole search, so each position is solved at most once
    and a search cut short leaves its finished values for the next."""

    def __init__(self, num_players: int, compiled: bool, tables: Tables | None = None
                 ) -> None:
        tables = tables or Tables()
        self.search: Expectimax
        if num_players != 2:
            self.search = Expectimax(Budget(), table=tables.generic)
        elif compiled:
            from .tea_party_compiled import CompiledExpectimax

            self.search = CompiledExpectimax(Budget(), table=tables.compiled)
        else:
            self.search = LeanExpectimax(Budget(), table=tables.lean)
        self.solved = 0

    @property
    def method(self) -> str:
        return self.search.method

    def __call__(self, state: TeaPartyState, nodes: int, deadline: float
                 ) -> tuple[float, ...] | None:
        if loose_heroes(state) > SUBTREE_LOOSE and nodes <= LEAF_NODES:
            return None  # a new leaf this big never fits a leaf's budget: do not try
        left = None if deadline == math.inf else max(deadline - time.perf_counter(), 0.0)
        self.search.meter = Budget(nodes=nodes, time=left).start()
        try:
            values = self.search.value(state)
        except BudgetExhausted:
            return None
        self.solved += 1
        return values


class LeafEstimate:
    """MCTS's estimate of a leaf no exact search could finish: the returns of a random
    playout, cut after ``playout_decisions`` decisions (if given) and then scored by
    :func:`material_shares`."""

    def __init__(self, playout_decisions: int | None = None) -> None:
        self.playout_decisions = playout_decisions

    def __call__(self, state: TeaPartyState, rng: random.Random) -> tuple[float, ...]:
        return playout(state, rng, decisions=self.playout_decisions,
                       cutoff=lambda cut, _: material_shares(cut))


LEAF_PLAYOUTS = 16
"""Random playouts per MCTS leaf in the compiled search (two monsters)."""
EXPLORATION = 0.5
"""MCTS's UCB1 constant here (lower than the generic default: leaves are means of playouts
or exact values)."""


def compiled_playouts() -> Evaluator:
    """MCTS's leaf estimate for two monsters: the mean of ``LEAF_PLAYOUTS`` playouts run by
    the compiled kernel (some hundred times faster than one through the rules engine), a
    ``PLAYOUT_GREEDY`` share of their decisions played as greedy plays them."""
    from .tea_party_compiled import Playouts

    return Playouts(LEAF_PLAYOUTS, PLAYOUT_GREEDY)


PLAYOUT_GREEDY = 0.75
"""The share of a compiled playout's decisions played as greedy plays them (the rest at
random).  Uniformly random play values a point in the teacup and a drink nearly alike, which
left MCTS picking the wrong one of two near options whose subtrees were too big to solve
(measured on the benchmark's 35 decisions of 8-12 heroes at 2 s: 97.1% agreement with
uniform playouts, 100% in two runs with these)."""


MATERIAL_SCALE = 6.0
"""Points of material difference that make a 73%-27% favourite (logistic scale)."""


def material_shares(state: TeaPartyState) -> tuple[float, ...]:
    """A guess at each monster's win share from material alone: a softmax of
    :func:`material` over ``MATERIAL_SCALE``."""
    weights = [math.exp(material(state, seat) / MATERIAL_SCALE)
               for seat in range(state.num_players)]
    total = sum(weights)
    return tuple(w / total for w in weights)


EXACT_LOOSE = 18
"""Positions with more heroes loose than this are never tried exactly (they cannot fit)."""
EXACT_SHARE = 0.25
"""The share of a time limit the exact attempt may take before MCTS has the rest."""


def search(state: TeaPartyState, budget: Budget, rng: random.Random,
           exact_nodes: int | None = None,
           mcts_iterations: int = DEFAULT_MCTS_ITERATIONS,
           exact_loose: int = EXACT_LOOSE, evaluator: Evaluator | None = None,
           notice: Notice | None = None) -> SearchResult:
    """Exact when it fits ``exact_nodes`` (default :func:`exact_nodes_default`) and
    ``EXACT_SHARE`` of the time, else MCTS with the budget's iterations (or
    ``mcts_iterations``) and the time left, its subtrees valued exactly where a small search
    finishes (:class:`ExactSubtrees`), its other leaves by ``evaluator`` (default
    :class:`LeafEstimate`).  Compiling or loading the compiled search is not charged to the
    time limit (``notice`` is told before a compile); under ``COMPILE_WORTH`` seconds it is used
    only if compiled already.  An estimate's ``method`` says why the exact search did not
    answer."""
    if exact_nodes is None:
        exact_nodes = exact_nodes_default(state)
    limit = budget.time
    compile_ok = limit is None or limit >= COMPILE_WORTH
    spent = 0.0
    tables = Tables(limit)
    loose = loose_heroes(state)
    if loose <= exact_loose:
        share = None if limit is None else limit * EXACT_SHARE
        result = _exact(state, Budget(time=share, nodes=exact_nodes), line=True, notice=notice,
                        compile=compile_ok, tables=tables)
        if result.status == "optimal":
            return result
        spent = result.usage.get("seconds", 0.0)
        why = (f"the exact search ran out of nodes ({exact_nodes:,}, --exact-nodes)"
               if result.usage.get("nodes", 0) >= exact_nodes
               else "the exact search ran out of its share of the time limit")
    else:
        why = (f"the exact search was not tried: {loose} heroes are loose, and it is tried "
               f"up to {exact_loose}")
    compiled = state.num_players == 2 and (compile_ok or not needs_compile())
    if compiled:
        load_compiled(notice)
    if evaluator is None:
        evaluator = compiled_playouts() if compiled else LeafEstimate()
    subtrees = ExactSubtrees(state.num_players, compiled, tables)
    left = None if limit is None else max(limit - spent, 0.0)
    iterations = budget.iterations or (None if limit is not None else mcts_iterations)
    result = mcts(state, Budget(time=left, iterations=iterations), rng, evaluator=evaluator,
                  exploration=EXPLORATION, solver=subtrees)
    return replace(result, method=f"{result.method} ({why})")


def loose_heroes(state: TeaPartyState) -> int:
    """Heroes still outside the stomachs: in the bag, the teacups and the hand."""
    return size(state.bag + sum(state.cups)) + (state.held >= 0)


def hint(state: TeaPartyState, budget: Budget, rng: random.Random,
         exact_nodes: int | None = None, notice: Notice | None = None) -> Hint:
    """Every option for the hero in hand, ranked by the chooser's chance to win; ``notice``
    is told one line before the compiled search compiles (see :func:`search`)."""
    if state.phase != CHOOSE:
        raise ValueError("a hint needs a hero in hand")
    result = search(state, budget, rng, exact_nodes, notice=notice)
    follow = follow_up(state, result.line)
    ranked = tuple(_ranked(state, m, follow if i == 0 else "")
                   for i, m in enumerate(result.moves))
    return Hint(state, result, ranked)


def _ranked(state: TeaPartyState, value: MoveValue, then: str = "") -> RankedMove:
    return RankedMove(value.action, state.describe_action(value.action),
                      consequence(state, value.action, then), value)


def follow_up(state: TeaPartyState, line: tuple[Hashable, ...]) -> str:
    """The chooser's next decision in the best line, when the move leads straight to one (a
    Rogue's steal): what to do with the stolen hero."""
    if len(line) < 2:
        return ""
    after = state.apply(line[0])
    if after.current_player() != state.player:
        return ""
    return after.describe_action(line[1])


@dataclass(frozen=True, slots=True)
class DrawHint:
    """At the start of a turn: each possible draw, its probability and the best answer."""

    hero: Hero
    probability: float
    hint: Hint


def draw_hints(state: TeaPartyState, budget: Budget, rng: random.Random,
               exact_nodes: int | None = None, notice: Notice | None = None
               ) -> list[DrawHint]:
    """A hint for every hero the active monster may draw, most likely first."""
    if state.phase != DRAW:
        raise ValueError("draw hints need a position before the draw")
    outcomes = sorted(state.chance_outcomes(), key=lambda item: -item[1])
    nodes = exact_nodes_default(state) if exact_nodes is None else exact_nodes
    share = budget.scaled(1 / len(outcomes))
    hints = []
    for draw, probability in outcomes:
        assert isinstance(draw, Draw)
        hints.append(DrawHint(draw.hero, float(probability),
                              hint(state.apply(draw), share, rng, nodes // len(outcomes),
                                   notice)))
    return hints


# -- solving ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Solution:
    state: TeaPartyState
    result: SearchResult
    line: tuple[str, ...]


def solve(state: TeaPartyState, budget: Budget, notice: Notice | None = None) -> Solution:
    """The exact value of ``state`` and its best line (likeliest outcome at chance nodes);
    ``notice`` is told one line before the compiled search compiles."""
    result = _exact(state, budget, line=True, notice=notice)
    return Solution(state, result, describe_line(state, result.line))


EXACT_FRACTIONS = 20_000
"""Distinct positions :func:`exact_fractions` may visit before it gives up (some 4,000 a second
in Python: ``solve`` tries up to this many, ``hint`` a quarter)."""


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


# -- policies for simulation ------------------------------------------------------------------


def material(state: TeaPartyState, seat: int) -> float:
    """Stomach points plus teacup points at ``CUP_RISK``; a pending throw-up at its expectation."""
    stomach = state.stomachs[seat]
    value = points(stomach) + CUP_RISK * points(state.cups[seat])
    if state.phase == THROW_UP and state.thrower == seat:
        total = size(stomach)
        if total:
            value -= min(2, total) * points(stomach) / total
    return value


def greedy_value(state: TeaPartyState, seat: int) -> float:
    """Greedy's evaluation: my material minus the best opponent's; the draw after a Cleric is
    valued as the average hero of the bag put in my teacup."""
    mine = material(state, seat)
    if state.phase == DRAW and state.player == seat and state.bag:
        bag = unpack(state.bag)
        mine += CUP_RISK * sum(n * p for n, p in zip(bag, POINTS, strict=True)) / sum(bag)
    best_other = max(material(state, other) for other in range(state.num_players)
                     if other != seat)
    return mine - best_other


class GreedyPolicy:
    """One-step greedy: the option with the best :func:`greedy_value` (first of equals)."""

    name = "greedy"

    def __call__(self, state: TeaPartyState, rng: random.Random) -> Hashable:
        me = state.player
        best, best_value = None, -1e9
        for move in state.legal_actions():
            value = greedy_value(state.apply(move), me)
            if value > best_value + 1e-9:
                best, best_value = move, value
        return best


class HintPolicy:
    """Plays the hint with a simulation budget: exact within ``exact_nodes`` once at most
    ``exact_loose`` heroes are loose, else MCTS with ``iterations``, exact subtrees, and
    playouts cut after ``playout_decisions`` decisions and scored by material."""

    name = "hint"

    def __init__(self, exact_nodes: int = 20_000, iterations: int = 100,
                 exact_loose: int = 8, playout_decisions: int | None = 12) -> None:
        self.exact_nodes = exact_nodes
        self.iterations = iterations
        self.exact_loose = exact_loose
        self.playout_decisions = playout_decisions

    def __call__(self, state: TeaPartyState, rng: random.Random) -> Hashable:
        moves = state.legal_actions()
        if len(moves) == 1:
            return moves[0]
        result = search(state, Budget(iterations=self.iterations), rng, self.exact_nodes,
                        exact_loose=self.exact_loose,
                        evaluator=LeafEstimate(self.playout_decisions))
        assert result.best is not None
        return result.best.action


class NewGame:
    """A fresh game for the given monsters (a picklable factory, for simulations in worker
    processes)."""

    def __init__(self, players: tuple[str, ...]) -> None:
        self.players = players

    def __call__(self, rng: random.Random) -> TeaPartyState:
        return TeaPartyState.new_game(self.players)

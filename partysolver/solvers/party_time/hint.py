"""The Party-Time hint: every play ranked by the strips it costs me, with the reason in words.

:func:`hint` values every play (card × tokens returned) from one player's view with
:class:`~.belief.DealSearch`: the unseen cards dealt once into the other hands and the pile,
consistent with what the player has seen, and played forward with greedy opponents each
holding its own hand.  A play's value is the expected strips I lose before my turn at the
horizon (``depth`` = 1: my next turn) plus the strips I am expected to lose on the play that
begins that turn.  At depth 1 the deals are enumerated exactly (by type counts) when they fit
the budget (status ``exact``); otherwise the values are means over sampled deals, each played
out once (the paired playouts, read until my next turn), with 95% intervals (status
``estimate``).  Plays within
:data:`TOLERANCE` of the best are ordered by their long run (the strips I lose by the end of
the game, by paired playouts on the same deals: :mod:`.playouts`), then by the habits of
:func:`~.policies.habit_key` (tokens kept above all), then by the strips the others are
expected to lose (more is better for me).  For each play it also reports what it costs me this
turn, the chance that I lose a strip before my next turn, and the reason in words.

The playouts run compiled (numba: :mod:`.playouts`) once the kernel is ready; a hint never
waits for its compile: until then the interpreted playouts (:mod:`.interpreted`, the same
playouts card for card, so the same ranking for the same seed) answer, and the compile starts
in a process of its own (:func:`use_compiled`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from ...models.party_time.game import GAIN, RETURN, Card, Play, Rules
from ...models.party_time.state import (
    Outcome,
    PartyTimeState,
    PartyTimeView,
)
from ...models.protocol import State
from ..budget import Budget, BudgetExhausted, Interval, Meter
from ..simulate import Figure
from ..stats import mean_interval, wilson_interval
from .belief import MAX_CHAIN, Branch, DealSearch, Value, rank_root
from .deals import distinct_deals
from .policies import habit_key

if TYPE_CHECKING:
    from .arrays import LongRun

HintStatus = Literal["exact", "estimate", "unknown"]
"""``exact``: every figure is exact under the model at the horizon asked for; ``estimate``:
the figures (depth 1) are means over sampled deals, with 95% intervals; ``unknown``: the budget
ran out before the horizon asked for (the figures are those of the deepest horizon reached)."""


@dataclass(frozen=True, slots=True)
class Intervals:
    """95% intervals of one play's figures when they are estimates: intervals of the figure's
    exact value under the model, from its mean over the sampled deals (each played out once,
    deal and pile order drawn at random): Wilson's for the chances, and for the strips the
    normal interval kept within what the figure can be and never narrower than the rule of
    three allows (so a figure no sampled deal shows is not claimed to be 0; see
    :func:`deal_interval`).  Their coverage is measured by ``benchmarks/party_time.py``
    (part 4)."""

    value: Interval
    loss: Interval
    before_next: Interval
    next_play: Interval
    others: Interval


@dataclass(frozen=True, slots=True)
class RankedPlay:
    """One play with its figures (for the player asking) and the reason in words."""

    play: Play
    loss: float
    """Strips I am expected to lose from this play until the horizon's turn of mine (depth 1:
    my next turn), this play's own strip included, that turn's play not."""
    next_play: float
    """Strips I am expected to lose on the play that begins that turn: a hand with no card
    that keeps the bottle from crossing the star, or the card a question mark then makes me
    carry out."""
    this_turn: float
    """Strips this play itself costs me (1 when it crosses the star, else 0: never a chance)."""
    before_next: float
    """The probability that I lose a strip after this turn and before my next (the others'
    cards: a black square), this turn's and the next turn's own plays not included."""
    others: float
    """Strips the other players are expected to lose over the horizon."""
    losses: tuple[float, ...]
    tokens_kept: int
    reason: str
    outcome: Outcome = field(repr=False)
    long_run: Figure | None = None
    """Strips I am expected to lose by the end of the game, by playouts (:mod:`.playouts`),
    with its 95% interval; ``None`` when the hint ran none."""
    exact: bool = True
    """Whether the figures are exact under the model (else estimates over sampled deals)."""
    deals: int = 0
    """Sampled deals behind the estimates (0 when exact)."""
    intervals: Intervals | None = None
    """The estimates' 95% intervals (``None`` when exact)."""

    @property
    def value(self) -> float:
        """What the ranking minimises: the strips I lose until the horizon, and on its play."""
        return self.loss + self.next_play

    @property
    def interval(self) -> Interval | None:
        """The 95% interval of :attr:`value` when it is an estimate."""
        return None if self.intervals is None else self.intervals.value

    @property
    def lose_chance(self) -> float:
        """The probability that I lose a strip this turn or before my next turn."""
        return 1.0 if self.this_turn else self.before_next

    def figures(self) -> dict[str, float]:
        """The named figures, for reports: ``this_turn`` (strips this play costs me now),
        ``before_next`` (chance of losing a strip between this turn and my next),
        ``next_turn`` (strips expected on the play that begins my turn at the horizon),
        ``loss`` (strips expected until then, this turn's included), ``others``."""
        return {"this_turn": self.this_turn, "before_next": self.before_next,
                "next_turn": self.next_play, "loss": self.loss, "others": self.others}


@dataclass(frozen=True, slots=True)
class Hint:
    """The ranked plays of ``view``'s player and how the search went."""

    view: PartyTimeView
    depth: int
    """The horizon the values are for (the one asked for, or less when the budget ran out)."""
    asked: int
    """The horizon asked for."""
    status: HintStatus
    moves: tuple[RankedPlay, ...]
    usage: dict[str, Any]
    truncated: bool = False
    """Whether some question-mark chain was cut at :data:`~.belief.MAX_CHAIN`."""
    playouts: int = 0
    """Paired playouts per play behind the long-run order (0: none were needed, or the habits
    alone)."""
    deals: int = 0
    """Sampled deals behind the estimates (0: the figures are exact)."""
    outside_seconds: float = 0.0
    """Seconds spent on the playouts (compiling them included, when a caller asked for the
    compiled ones before they were ready), outside the budget and not in ``usage``."""
    compiled: bool = False
    """Whether the compiled playouts ran (else the interpreted ones did, or none ran)."""

    @property
    def best(self) -> RankedPlay | None:
        return self.moves[0] if self.moves else None


PLAYOUTS = 1000
"""Paired playouts to the end of the game per play, for the long-run order (:mod:`.playouts`):
about 0.01 s per play."""

DEALS = 1000
"""Sampled deals behind an estimate: paired playouts of every play from the same deals, read
until my next turn (:attr:`~.playouts.LongRun.windows`)."""

PLAYOUT_RATE = 20_000
"""Playouts a second (every play's, interpreted over numpy arrays, past their fixed cost) that
a time limit is turned into a number of deals with (measured on 3 December 2026 on the shipped
examples: 20,000-50,000 at 1,000 deals, on one core)."""

PLAYOUT_SETUP = 0.05
"""Seconds the interpreted playouts take whatever their number (their steps are vectorised
over the deals: 100 deals took 0.05 s where 1,000 took 0.08-0.15 s)."""

FEWEST_DEALS = 100
"""The fewest deals an estimate is cut to when the time limit is short."""


def deals_within(seconds: float | None, plays: int, wanted: int) -> int:
    """How many of ``wanted`` deals the playouts of ``plays`` plays may take within
    ``seconds`` (``None``: no limit, all of them), at least :data:`FEWEST_DEALS`: the estimate
    runs on the clock of a limit that counts from the command's start."""
    if seconds is None or plays == 0:
        return wanted
    fit = int(max(seconds - PLAYOUT_SETUP, 0.0) * PLAYOUT_RATE / plays)
    return max(min(wanted, FEWEST_DEALS), min(wanted, fit))


EXACT_DEALS = 2_500
"""The exact search is tried only when the other hands can be dealt in at most this many
distinct ways by type counts (:func:`~.deals.distinct_deals`): beyond, it cannot finish."""

EXACT_SHARE = 1 / 3
"""The share of the budget (time and nodes) the exact search may take at depth 1; the deeper
horizons get what is left."""

EXACT_NODES = 50_000
"""The exact search's node limit at depth 1 when the budget sets none (a node counts each hand
it deals)."""

def hint(view: PartyTimeView, depth: int = 1, budget: Budget | None = None,
         playouts: int = PLAYOUTS, seed: int = 0, deals: int = DEALS,
         notice: Callable[[str], None] | None = None, allow_exact: bool = True,
         compiled: bool | None = None) -> Hint:
    """Rank every play of ``view``'s player, who must be the one to act.

    Depth 1 is valued exactly when it fits a share of the budget (:data:`EXACT_SHARE`, at
    most :data:`EXACT_NODES` when the budget sets no limit), else estimated over ``deals``
    deals drawn from ``seed``: the paired playouts of every play from the same deals, read
    until my next turn (outside the budget, like the long run; under a time limit, only as
    many deals and playouts as it allows, :func:`deals_within`).  Horizons 2, ...
    ``depth`` are then searched exactly in turn (iterative deepening) with what is left, where
    the exact search fits (:func:`fits_exactly`): when the budget runs out, or the position is
    too big, the deepest finished horizon's ranking is returned, marked ``unknown``.
    Plays within :data:`TOLERANCE` of the safest are ordered by ``playouts`` paired playouts
    to the end of the game on the same deals (only when two plays or more are that close), or
    by the habits alone when ``playouts`` is 0.  ``compiled``: whether the playouts run
    compiled (``None``: :func:`use_compiled` decides, by whether they are ready and loaded and
    how many there are; not ready, the interpreted ones answer, the same playouts, and the
    compile starts in the background).  ``notice`` is told, before the playouts
    run, when they must be compiled first (``compiled=True`` before they are ready:
    :data:`.playouts.COMPILE_NOTICE`); a front end that listens through :mod:`..notices` hears it
    there anyway, and hears of a compile started in the background.
    ``allow_exact=False`` estimates even where the exact search fits (to audit the estimates).
    """
    _check_request(view, depth)
    if deals < 2:
        raise ValueError("an estimate needs at least 2 sampled deals")
    budget = budget or Budget()
    if budget.time is not None:  # a short limit: fewer deals and playouts, as many as it allows
        most = deals_within(budget.time, len(view.legal_actions()), max(deals, playouts))
        deals, playouts = max(min(deals, most), 2), min(playouts, most)
    samples = max(deals, playouts)
    outside = Outside(compiled)
    run: LongRun | None = None
    fits = allow_exact and fits_exactly(view)
    if not fits:  # the estimate is certain: its playouts run before the clock
        run = outside.run(view, samples, seed, notice)
    meter = budget.start()
    valued = exact_depth_one(view, budget, meter) if fits else None
    if valued is None:
        if run is None:
            run = outside.run(view, samples, seed, notice, meter)
        valued = estimated(view, run, deals)
    reached = 1
    for horizon in range(2, depth + 1 if fits else 2):  # deeper: exact only, where it fits
        search = DealSearch(view.rules, view.num_players, view.player, horizon, meter=meter)
        node = search.root(view)
        assert node is not None
        try:
            ranked = rank_root(search, node)
        except BudgetExhausted:
            break
        valued = Valued(ranked, None, 0, valued.truncated or search.truncated)
        reached = horizon
    usage = meter.usage()
    runs: LongRuns = {}
    if playouts and _near_equal(valued, view.player) > 1:
        if run is None:
            run = outside.run(view, samples, seed, notice)
        runs = long_run_figures(run, playouts)
    moves = [_ranked(view, index, valued, runs.get(play))
             for index, (play, _, _) in enumerate(valued.ranked)]
    status: HintStatus = "unknown" if reached < depth else \
        "exact" if valued.samples is None else "estimate"
    return Hint(view, reached, depth, status, rank(moves, view), usage, valued.truncated,
                playouts if runs else 0, valued.deals, outside.seconds,
                run is not None and run.compiled)


class Outside:
    """The playouts, run outside the search's budget: their time (compiling included, when
    asked for compiled before they are ready) is counted apart and never charged to the
    budget.  ``compiled``: as :func:`compiled_run` takes it."""

    def __init__(self, compiled: bool | None = None) -> None:
        self.seconds = 0.0
        self.compiled = compiled

    def run(self, view: PartyTimeView, samples: int, seed: int,
            notice: Callable[[str], None] | None = None, meter: Meter | None = None
            ) -> LongRun:
        started = time.perf_counter()
        found = compiled_run(view, samples, seed, notice, self.compiled)
        spent = time.perf_counter() - started
        self.seconds += spent
        if meter is not None:
            meter.exclude(spent)
        return found


def _check_request(view: PartyTimeView, depth: int) -> None:
    view.require_turn()
    if depth < 1:
        raise ValueError("the horizon is at least one turn (depth >= 1)")


@dataclass(frozen=True, slots=True)
class Valued:
    """Every play's value at one horizon: exact, or the mean over sampled deals."""

    ranked: list[tuple[Play, Value, Outcome]]
    samples: list[Any] | None
    """Per play, each sampled deal's figures (an array, one row per deal: every seat's strips
    lost, whether I lost one between turns, my next turn's loss, the play's own strip
    included); ``None`` when exact."""
    deals: int
    truncated: bool


def fits_exactly(view: PartyTimeView) -> bool:
    """Whether the exact search is worth trying (see :data:`EXACT_DEALS`)."""
    return distinct_deals(view, EXACT_DEALS) <= EXACT_DEALS


def exact_budget(budget: Budget) -> Budget:
    """The exact search's share of ``budget`` (:data:`EXACT_NODES` when it sets no limit)."""
    if budget.time is None and budget.nodes is None:
        return Budget(nodes=EXACT_NODES)
    return Budget(None if budget.time is None else budget.time * EXACT_SHARE,
                  None if budget.nodes is None else max(1, int(budget.nodes * EXACT_SHARE)))


def exact_depth_one(view: PartyTimeView, budget: Budget, meter: Meter) -> Valued | None:
    """Every play's exact value until my next turn, or ``None`` when the exact search does not
    fit its share of the budget.  The nodes spent are added to ``meter``."""
    share = exact_budget(budget).start()
    search = DealSearch(view.rules, view.num_players, view.player, 1, meter=share)
    node = search.root(view)
    assert node is not None
    try:
        ranked = rank_root(search, node)
    except BudgetExhausted:
        return None
    finally:
        meter.nodes += share.nodes
    return Valued(ranked, None, 0, search.truncated)


def compiled_run(view: PartyTimeView, samples: int, seed: int,
                 notice: Callable[[str], None] | None = None, compiled: bool | None = None
                 ) -> LongRun:
    """Paired playouts of every play from ``samples`` deals drawn from ``seed``: the long run,
    and the estimates' windows.  Compiled (:mod:`.playouts`, numba: imported here, and
    compiled first when it is not ready, ``notice`` told before) when ``compiled`` says so
    (``None``: :func:`use_compiled`), else interpreted (:mod:`.interpreted`: the same
    playouts)."""
    plays = view.legal_actions()
    if compiled is None:
        compiled = use_compiled(len(plays) * samples)
    if not compiled:
        from .interpreted import long_run

        return long_run(view, plays, samples, seed)
    from . import playouts

    if notice is not None and playouts.needs_compile():
        notice(playouts.COMPILE_NOTICE)
    return playouts.long_run(view, plays, samples, seed)


LEAN_PLAYOUTS = 12_000
"""Playouts (plays × samples) the interpreted playouts run in about the time it takes a
process to import numba and load the compiled kernel from numba's cache (about 1 s on a loaded
machine, where the interpreted ones run some 13,000 playouts a second; the default hint runs
1,000 per play, at most 12 plays): up to this many, a process that has not loaded the kernel
yet answers interpreted even when it is ready (see ``docs/solvers.md``, issue 30)."""

COMPILE_PLAYOUTS = 250_000
"""Playouts the interpreted playouts take longer to run than the kernel takes to compile
(about 12 s): past this many, a hint that finds the kernel not ready compiles it first, told,
rather than run them interpreted (``--playouts`` in the tens of thousands on a first run)."""


def use_compiled(lanes: int = 0) -> bool:
    """Whether a hint that runs ``lanes`` playouts (plays × samples) runs them compiled:
    numba is there, the environment variable ``PARTYSOLVER_INTERPRETED`` is not set, the
    kernel is ready (it ran in this process, or numba's cache holds it:
    :func:`partysolver.solvers.compiled.ready`), and loading it pays (it is loaded already,
    or the playouts are more than :data:`LEAN_PLAYOUTS`).  A hint never waits for the compile
    (12 s or more) unless the interpreted playouts would take longer still
    (:data:`COMPILE_PLAYOUTS`): the first one that finds the kernel not ready starts its
    compile in a process of its own (:func:`~partysolver.solvers.compiled.compile_in_background`,
    told once through :mod:`..notices`), and the interpreted playouts answer until it is
    ready, card for card the same.  Imports neither numba nor numpy."""
    import importlib.util

    from .. import compiled as kernels

    kernel = kernels.PARTY_TIME_PLAYOUTS
    if kernels.forced_interpreted() or importlib.util.find_spec("numba") is None:
        return False
    if not kernels.ready(kernel):
        if lanes > COMPILE_PLAYOUTS:
            return True
        kernels.compile_in_background(kernel)
        return False
    return kernels.loaded(kernel) or lanes > LEAN_PLAYOUTS


def long_run_figures(run: LongRun, playouts: int) -> LongRuns:
    """Every play's long run over the first ``playouts`` playouts of ``run``."""
    return {play: run.figure(index, playouts) for index, play in enumerate(run.plays)}


def estimated(view: PartyTimeView, run: LongRun, deals: int) -> Valued:
    """Every play's value until my next turn, estimated over the first ``deals`` playouts of
    ``run`` (read until my next turn begins): each playout one sampled deal and pile order."""
    import numpy as np

    me, n = view.player, view.num_players
    search = DealSearch(view.rules, n, me, 1)
    node = search.root(view)
    assert node is not None
    ranked: list[tuple[Play, Value, Outcome]] = []
    samples: list[Any] = []
    count = min(deals, run.samples)
    for index, (play, _, outcome) in enumerate(search.my_moves(node)):
        assert run.plays[index] == play
        rows = run.windows[index, :count].astype(np.float64)
        if outcome.loser >= 0:  # the play's own strip is not in the window
            rows[:, outcome.loser] += 1.0
        means = rows.mean(axis=0)
        samples.append(rows)
        ranked.append((play, (tuple(float(v) for v in means[:n]), float(means[n]),
                              float(means[n + 1])), outcome))
    return Valued(ranked, samples, count, False)


def deal_interval(values: Any, low: float, high: float) -> Interval:
    """The 95% interval of the mean of ``values`` (one per sampled deal, an array), each within
    [``low``, ``high``]: the normal interval, widened to the rule of three's reach (if a
    figure differs from the rest on a share ``q`` of the deals, no sample of ``k`` deals shows
    it with probability ``(1 - q) ** k``, so ``q`` up to ``1 - 0.05 ** (1 / k)`` goes unseen
    one time in twenty), kept within [``low``, ``high``]."""
    count = len(values)
    total = float(values.sum())
    mean = total / count
    normal = mean_interval(total, float((values * values).sum()), count)
    unseen = 1.0 - 0.05 ** (1.0 / count)
    return Interval(max(low, min(normal.low, mean - unseen * (mean - low))),
                    min(high, max(normal.high, mean + unseen * (high - mean))))


def _intervals(view: PartyTimeView, rows: Any, this_turn: float) -> Intervals:
    """The estimates' intervals from one play's rows (see :attr:`Valued.samples`): Wilson's
    for the chances (one 0 or 1 per playout), :func:`deal_interval` for the strips."""
    me, n, count = view.player, view.num_players, len(rows)
    mine = float(view.strips[me])
    others = float(sum(view.strips) - view.strips[me])
    return Intervals(
        deal_interval(rows[:, me] + rows[:, n + 1], this_turn, mine),
        deal_interval(rows[:, me], this_turn, mine),
        _rate_interval(float(rows[:, n].sum()) / count, count),
        _rate_interval(float(rows[:, n + 1].sum()) / count, count),
        deal_interval(rows[:, :n].sum(axis=1) - rows[:, me], 0.0, others))


def _rate_interval(rate: float, count: int) -> Interval:
    """Wilson's interval, holding ``rate`` itself despite rounding (at 0 and 1)."""
    interval = wilson_interval(rate, count)
    return Interval(min(interval.low, rate), max(interval.high, rate))


def _near_equal(valued: Valued, me: int) -> int:
    """How many plays are within :data:`TOLERANCE` of the least value."""
    values = [value[0][me] + value[2] for _, value, _ in valued.ranked]
    least = min(values, default=0.0)
    return sum(1 for value in values if value <= least + TOLERANCE)


LongRuns = dict[Play, Figure]
"""Per play: the strips I am expected to lose by the end of the game, with its interval."""


def long_runs(view: PartyTimeView, playouts: int, seed: int,
              notice: Callable[[str], None] | None = None) -> LongRuns:
    """Every play's long-run value by ``playouts`` paired playouts from deals sampled from
    ``seed`` (none when 0, or when there is only one play).  They run outside the search's
    budget: about 0.01 s a play compiled, and, the first time, a compile (``notice`` is told
    before), as for :func:`choose`: many calls repay it (interpreted only when
    ``PARTYSOLVER_INTERPRETED`` says so)."""
    if playouts < 1 or len(view.legal_actions()) < 2:
        return {}
    return long_run_figures(compiled_run(view, playouts, seed, notice, many_runs()),
                            playouts)


def many_runs() -> bool:
    """Whether a caller that runs the playouts again and again (a simulation's hint policy, a
    benchmark) runs them compiled, compiling them first if need be (announced): unless
    ``PARTYSOLVER_INTERPRETED`` asks for the interpreted ones."""
    from ..compiled import forced_interpreted

    return not forced_interpreted()


TOLERANCE = 0.2
"""Plays whose values differ by at most this many strips count as equally safe: among them the
ranking follows the long run (the strips I am expected to lose by the end of the game, by
paired playouts), then :func:`~.policies.habit_key` (tokens kept above all, then the big cards
played while they are safe, special cards kept unless a number card would cost two tokens),
then the greater loss for the others.  The one-turn horizon cannot see what a play leaves for
later; measured over whole games (``benchmarks/party_time.py``, part 3) a departure from the
habits for a smaller gain over the horizon costs more strips later than it saves now."""


def order_key(view: PartyTimeView, play: Play, long_run: Figure | None) -> tuple[float, ...]:
    """The order among equally safe plays (smaller first): the long run (when measured: every
    play's or none), then the habits."""
    return (0.0 if long_run is None else long_run.mean,
            *habit_key(view.rules, view.bottle, view.tokens[view.player], int(play.card),
                       play.tokens))


def first_among_equals(view: PartyTimeView, runs: LongRuns) -> Play:
    """The first of the player's plays in :func:`order_key`'s order: what the hint plays when
    the search settles nothing (and the least long run alone when every play is measured)."""
    return min(view.legal_actions(), key=lambda play: order_key(view, play, runs.get(play)))


def rank(moves: list[RankedPlay], view: PartyTimeView) -> tuple[RankedPlay, ...]:
    """Best first: the plays within :data:`TOLERANCE` of the least value, by the long run and
    the habits (:func:`order_key`); then the others by value.  Equal plays keep the engine's
    move order (the sort is stable)."""
    if not moves:
        return ()
    least = min(move.value for move in moves)

    def key(move: RankedPlay) -> tuple[float, ...]:
        if move.value <= least + TOLERANCE:
            return 0.0, *order_key(view, move.play, move.long_run), round(-move.others, 9)
        return 1.0, round(move.value, 9), -move.tokens_kept, round(-move.others, 9)

    return tuple(sorted(moves, key=key))


def _ranked(view: PartyTimeView, index: int, valued: Valued, run: Figure | None
            ) -> RankedPlay:
    me = view.player
    play, value, outcome = valued.ranked[index]
    losses, before_next, after = value
    others = sum(losses) - losses[me]
    this_turn = 1.0 if outcome.loser == me else 0.0
    intervals = None if valued.samples is None else \
        _intervals(view, valued.samples[index], this_turn)
    return RankedPlay(play, losses[me], after, this_turn, before_next, others, losses,
                      outcome.tokens[me],
                      reason(view, play, outcome, this_turn, before_next, after, intervals),
                      outcome, run, valued.samples is None, valued.deals, intervals)


# -- reasons in words ---------------------------------------------------------------------------


def reason(view: PartyTimeView, play: Play, outcome: Outcome, this_turn: float,
           before_next: float, next_play: float, intervals: Intervals | None = None) -> str:
    """What ``play`` does, in the game's words, then the risk it leaves me: before my next
    turn, and on it."""
    return (f"{what_it_does(view, play, outcome)}; "
            f"{_risk(this_turn, before_next, next_play, intervals)}")


def what_it_does(view: PartyTimeView, play: Play, outcome: Outcome) -> str:
    rules, card = view.rules, play.card
    names = view.names
    nxt = names[outcome.next_player]
    if card.is_number:
        tokens = "" if not play.tokens else \
            f" returning {play.tokens} token{'s' if play.tokens > 1 else ''}"
        if play.moves == 0:
            return f"{card.label}{tokens} moves 0: the bottle stays, nothing crossed"
        if outcome.crossed:
            return (f"{card.label}{tokens} crosses the star: you lose a strip "
                    f"(the bottle stops {_where(rules, outcome.bottle)})")
        if outcome.bottle == rules.length:
            return (f"{card.label}{tokens} stops exactly on the star: safe, and {nxt} "
                    "must leave it (any number card crosses it)")
        return (f"{card.label}{tokens} is safe: the bottle stops {_where(rules, outcome.bottle)}"
                f"{_square_effect(outcome)}, leaving {nxt} {_squares(rules.length - outcome.bottle)} "
                "from the star")
    if card == Card.R:
        turn = (f"play now goes the other way: {nxt} plays next" if rules.r_card == "reverse"
                else f"{nxt}, on your right, plays next")
        return f"{card.label} keeps the bottle {_where(rules, outcome.bottle)}; {turn}"
    if card == Card.BLACK:
        return f"{card.label} makes {nxt} remove a strip before playing"
    if card == Card.STAR:
        return (f"{card.label} puts the bottle on the star, nothing crossed: {nxt} must "
                "leave it, and any number card crosses it")
    return f"{card.label} makes {nxt} carry out the top card of the pile"


def _where(rules: Rules, bottle: int) -> str:
    square = bottle % rules.length
    if square == 0:
        return "on the star"
    return f"on square {square} ({rules.square_name(square)})"


def _squares(count: int) -> str:
    return f"{count} square{'s' if count != 1 else ''}"


def _square_effect(outcome: Outcome) -> str:
    if outcome.landed == GAIN:
        return ": you gain a token" if outcome.token_change > 0 else \
            ": a fourth token, so you lose them all"
    if outcome.landed == RETURN and outcome.token_change < 0:
        return ": you return a token"
    return ""


def _percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def _spread(interval: Interval | None) -> str:
    return "" if interval is None else \
        f" [{_percent(interval.low)}, {_percent(interval.high)}]"


def _risk(this_turn: float, before_next: float, next_play: float,
          intervals: Intervals | None) -> str:
    """The risk in words: between this turn and my next (exactly none when no deal allows a
    loss), then on my next turn's play; estimates come with their 95% intervals."""
    strip = "another strip" if this_turn else "a strip"
    if intervals is None and before_next <= 0.0:
        text = f"no risk of losing {strip} before your next turn"
    else:
        spread = _spread(None if intervals is None else intervals.before_next)
        text = (f"{_percent(before_next)}{spread} "
                f"chance you lose {strip} before your next turn")
    if next_play > 0.0 or (intervals is not None and intervals.next_play.high > 0.0):
        spread = _spread(None if intervals is None else intervals.next_play)
        text += (f", and {_percent(next_play)}{spread} "
                 "that your next turn costs you one (no safe card in your hand, or a card a "
                 "question mark makes you carry out)")
    return text


# -- the simulation policy --------------------------------------------------------------------------


def choose(view: PartyTimeView, depth: int = 1, budget: Budget | None = None,
           playouts: int = PLAYOUTS, seed: int = 0, deals: int = DEALS) -> tuple[Play, int]:
    """The play :func:`hint` ranks first, computed lazily: the same choice, valuing only the
    plays needed to settle it.  Also the horizon it is for: 0 when the budget ran out before
    even depth 1 was settled, and the play is then the first in the order among equals
    (:func:`order_key`: the long run, then the habits).

    The hint plays the first play in :func:`order_key`'s order whose value is within
    :data:`TOLERANCE` of the least.  So the plays are valued in that order, and the search
    stops as soon as the choice is certain: a valued play ``p`` is chosen when its value is
    within the tolerance of a *lower bound* on the least value (the least found so far, and
    for the plays not valued yet 1 if the play itself crosses the star, else 0), and every
    play before it in the order is out of the tolerance of the least value found (an upper
    bound on the least).  Far from the star this values the order's first play alone.

    The paired playouts run first, outside the budget (the long run, and the estimates: the
    same deals as :func:`hint`'s with the same seed and counts), compiled (:func:`many_runs`:
    a simulation makes many choices, and repays the compile).  Depth 1 is exact when it
    fits its share of the budget, else the estimates decide; horizons 2, ... ``depth`` are
    settled exactly in turn with what is left, like :func:`hint`.
    """
    me, n = view.player, view.num_players
    _check_request(view, depth)
    plays = view.legal_actions()
    if len(plays) == 1:
        return plays[0], depth
    run = compiled_run(view, max(deals, playouts), seed, compiled=many_runs())
    runs = long_run_figures(run, playouts) if playouts else {}

    def order(move: tuple[Play, Branch, Outcome]) -> tuple[float, ...]:
        return order_key(view, move[0], runs.get(move[0]))

    budget = budget or Budget()
    meter = budget.start()
    chosen: Play | None = None
    fits = fits_exactly(view)
    if fits:
        share = exact_budget(budget).start()
        try:
            chosen = _lazy_exact(DealSearch(view.rules, n, me, 1, meter=share), view, order)
        except BudgetExhausted:
            chosen = None
        meter.nodes += share.nodes
    if chosen is None:
        valued = estimated(view, run, deals)
        scores = {play: _score(value, me) for play, value, _ in valued.ranked}
        search = DealSearch(view.rules, n, me, 1)
        node = search.root(view)
        assert node is not None
        moves = sorted(search.my_moves(node), key=order)
        chosen = moves[_lazy(moves, lambda i: scores[moves[i][0]], me)][0]
    reached = 1
    for horizon in range(2, depth + 1 if fits else 2):  # deeper: exact only, where it fits
        try:
            chosen = _lazy_exact(DealSearch(view.rules, n, me, horizon, meter=meter), view,
                                 order)
        except BudgetExhausted:
            break
        reached = horizon
    return chosen, reached


def _score(value: Value, me: int) -> float:
    losses, _, after = value
    return losses[me] + after


def _lazy(moves: list[tuple[Play, Branch, Outcome]], value_of: Callable[[int], float],
          me: int) -> int:
    """Value ``moves`` (in the order among equals) one by one until :func:`_settled` settles
    the choice; its index."""
    floors = [1.0 if branch[1] == me else 0.0 for _, branch, _ in moves]
    values: list[float] = []
    while True:
        found = _settled(values, floors)
        if found is not None:
            return found
        values.append(value_of(len(values)))


def _lazy_exact(search: DealSearch, view: PartyTimeView,
                order: Callable[[tuple[Play, Branch, Outcome]], tuple[float, ...]]) -> Play:
    """The hint's first play at ``search``'s horizon, valuing the plays exactly in the order
    among equals until the choice is settled."""
    node = search.root(view)
    assert node is not None
    moves = sorted(search.my_moves(node), key=order)
    index = _lazy(moves, lambda i: _score(search.move_value(node, moves[i][1]), view.player),
                  view.player)
    return moves[index][0]


def _settled(values: list[float], floors: list[float]) -> int | None:
    """The index of the hint's choice among plays in :func:`order_key`'s order once ``values``
    (those of the first plays) settle it, else ``None`` (see :func:`choose`)."""
    if not values:
        return None
    upper = min(values)
    lower = min(upper, min(floors[len(values):], default=upper))
    for index, value in enumerate(values):
        if value <= lower + TOLERANCE:
            return index
        if value <= upper + TOLERANCE:
            return None  # within the tolerance of the least unless a later play is lower
    return None


class HintPolicy:
    """Plays the hint's best play from the player's own view (depth 1 by default) within a
    budget of nodes per decision: exact where the exact search fits its share, else by the
    estimates of the paired playouts (so depth 1 always answers); past the budget at depth 2,
    the depth-1 choice.

    The play is found by :func:`choose`: the same play :func:`hint` ranks first (with the same
    number of sampled deals), valuing only the plays needed to settle it.  The deals and the
    playouts are seeded from the policy's random stream, so a game is reproducible."""

    name = "hint"

    def __init__(self, depth: int = 1, nodes: int | None = 20_000,
                 playouts: int = PLAYOUTS, deals: int = DEALS) -> None:
        self.depth = depth
        self.nodes = nodes
        self.playouts = playouts
        self.deals = deals

    def __call__(self, state: State, rng: random.Random) -> Hashable:
        assert isinstance(state, PartyTimeState)
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        play, _ = choose(state.view(state.turn), self.depth, Budget(nodes=self.nodes),
                         self.playouts, rng.getrandbits(31), self.deals)
        return play


__all__ = ["DEALS", "MAX_CHAIN", "PLAYOUTS", "Hint", "HintPolicy",
           "HintStatus", "Intervals", "RankedPlay", "choose", "hint",
           "reason"]

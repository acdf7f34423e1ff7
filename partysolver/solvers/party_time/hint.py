"""The Party-Time hint: every play ranked by the strips it costs me, with the reason in words.

:func:`hint` runs :class:`~.belief.BeliefSearch` (exact expectimax over the unseen cards by type
counts, opponents playing greedy) from one player's view and ranks every play (card × tokens
returned) by its value: the expected strips I lose before my turn at the horizon (``depth``
= 1: my next turn) plus the chance that my hand is then stuck (no safe play).  Plays within
:data:`TOLERANCE` of the best are ordered by their long run (the strips I lose by the end of
the game, by paired playouts: :mod:`.playouts`), then by the habits of
:func:`~.policies.habit_key` (tokens kept above all), then by the strips the others are
expected to lose (more is better for me).  For each play it also reports the probability that
I lose a strip before my next turn, its long run, and the reason in words.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from ...models.party_time.game import GAIN, RETURN, Card, Play, Rules
from ...models.party_time.state import (
    Outcome,
    PartyTimeState,
    PartyTimeView,
)
from ...models.protocol import State
from ..budget import Budget, BudgetExhausted, Status
from ..simulate import Figure
from .belief import MAX_CHAIN, BeliefSearch, Value, rank_root
from .policies import habit_key


@dataclass(frozen=True, slots=True)
class RankedPlay:
    """One play with its values (for the player asking) and the reason in words."""

    play: Play
    loss: float
    """Strips I am expected to lose before the horizon's turn of mine (depth 1: before my
    next turn)."""
    next_play: float
    """Strips I am expected to lose on the play that begins that turn: the chance that my hand
    then holds no card that keeps the bottle from crossing the star."""
    lose_chance: float
    """The probability that I lose a strip before my next turn."""
    others: float
    """Strips the other players are expected to lose over the horizon."""
    losses: tuple[float, ...]
    tokens_kept: int
    reason: str
    outcome: Outcome = field(repr=False)
    long_run: Figure | None = None
    """Strips I am expected to lose by the end of the game, by playouts (:mod:`.playouts`),
    with its 95% interval; ``None`` when the hint ran none."""

    @property
    def value(self) -> float:
        """What the ranking minimises: the strips I lose until the horizon, and on its play."""
        return self.loss + self.next_play


@dataclass(frozen=True, slots=True)
class Hint:
    """The ranked plays of ``view``'s player and how the search went."""

    view: PartyTimeView
    depth: int
    """The horizon the values are for (the one asked for, or less when the budget ran out)."""
    asked: int
    """The horizon asked for."""
    status: Status
    """``optimal``: every value is exact under the model at ``asked``; ``unknown``: the budget
    ran out before (the moves are then those of the deepest horizon finished, if any)."""
    moves: tuple[RankedPlay, ...]
    usage: dict[str, Any]
    truncated: bool = False
    """Whether some question-mark chain was cut at :data:`~.belief.MAX_CHAIN`."""
    playouts: int = 0
    """Paired playouts per play behind the long-run order (0: the habits alone)."""

    @property
    def best(self) -> RankedPlay | None:
        return self.moves[0] if self.moves else None


PLAYOUTS = 1000
"""Paired playouts to the end of the game per play, for the long-run order (:mod:`.playouts`):
about 0.01 s per play."""


def hint(view: PartyTimeView, depth: int = 1, budget: Budget | None = None,
         playouts: int = PLAYOUTS, seed: int = 0) -> Hint:
    """Rank every play of ``view``'s player, who must be the one to act.

    Horizons 1, 2, ... ``depth`` are searched in turn under one budget (iterative deepening):
    when it runs out, the deepest finished horizon's ranking is returned, marked ``unknown``.
    Plays within :data:`TOLERANCE` of the safest are ordered by ``playouts`` paired playouts
    to the end of the game (seeded by ``seed``), or by the habits alone when ``playouts`` is 0.
    """
    me = view.player
    _check_request(view, depth)
    runs = long_runs(view, playouts, seed)
    meter = (budget or Budget()).start()
    found: tuple[RankedPlay, ...] = ()
    reached, truncated = 0, False
    for horizon in range(1, depth + 1):
        search = BeliefSearch(view.rules, view.num_players, me, horizon, meter=meter)
        node = search.root(view)
        assert node is not None
        try:
            ranked = rank_root(search, node)
        except BudgetExhausted:
            break
        moves = [_ranked(view, play, value, outcome, runs.get(play))
                 for play, value, outcome in ranked]
        found = rank(moves, view)
        reached, truncated = horizon, truncated or search.truncated
    status: Status = "optimal" if reached == depth else "unknown"
    return Hint(view, reached, depth, status, found, meter.usage(), truncated,
                playouts if runs else 0)


def _check_request(view: PartyTimeView, depth: int) -> None:
    view.require_turn()
    if depth < 1:
        raise ValueError("the horizon is at least one turn (depth >= 1)")


LongRuns = dict[Play, Figure]
"""Per play: the strips I am expected to lose by the end of the game, with its interval."""


def long_runs(view: PartyTimeView, playouts: int, seed: int) -> LongRuns:
    """Every play's long-run value by ``playouts`` paired playouts (none when 0, or when there
    is only one play).  They run outside the search's budget: about 0.01 s a play."""
    plays = view.legal_actions()
    if playouts < 1 or len(plays) < 2:
        return {}
    from .playouts import long_run  # numba: imported only when playouts run, not at start-up

    run = long_run(view, plays, playouts, seed)
    return {play: run.figure(i) for i, play in enumerate(plays)}


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


def _ranked(view: PartyTimeView, play: Play, value: Value, outcome: Outcome,
            run: Figure | None) -> RankedPlay:
    me = view.player
    losses, safe, after = value
    others = sum(losses) - losses[me]
    return RankedPlay(play, losses[me], after, 1.0 - safe, others, losses, outcome.tokens[me],
                      reason(view, play, outcome, 1.0 - safe, after), outcome, run)


# -- reasons in words ---------------------------------------------------------------------------


def reason(view: PartyTimeView, play: Play, outcome: Outcome, lose_chance: float,
           next_play: float) -> str:
    """What ``play`` does, in the game's words, then the risk it leaves me."""
    return f"{what_it_does(view, play, outcome)}; {_risk(lose_chance, next_play)}"


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


def _risk(lose_chance: float, next_play: float) -> str:
    if lose_chance <= 1e-12:
        text = "no risk to you before your next turn"
    else:
        text = f"{100 * lose_chance:.1f}% chance you lose a strip before your next turn"
    if next_play > 1e-12:
        text += f", and {100 * next_play:.1f}% that your hand then has no safe card"
    return text


# -- the simulation policy --------------------------------------------------------------------------


def choose(view: PartyTimeView, depth: int = 1, budget: Budget | None = None,
           playouts: int = PLAYOUTS, seed: int = 0) -> tuple[Play, int]:
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
    Horizons 1, 2, ... ``depth`` are settled in turn under one budget, like :func:`hint`.
    """
    me = view.player
    _check_request(view, depth)
    runs = long_runs(view, playouts, seed)

    def order(play: Play) -> tuple[float, ...]:
        return order_key(view, play, runs.get(play))

    meter = (budget or Budget()).start()
    chosen = first_among_equals(view, runs)
    reached = 0
    for horizon in range(1, depth + 1):
        search = BeliefSearch(view.rules, view.num_players, me, horizon, meter=meter)
        node = search.root(view)
        assert node is not None
        moves = sorted(search.my_moves(node), key=lambda move: order(move[0]))
        floors = [1.0 if branch[1] == me else 0.0 for _, branch, _ in moves]
        values: list[float] = []
        try:
            while True:
                found = _settled(values, floors)
                if found is not None:
                    break
                _, branch, _ = moves[len(values)]
                losses, _, after = search.outcome_value(node, branch)
                values.append(losses[me] + after)
        except BudgetExhausted:
            break
        chosen, reached = moves[found][0], horizon
    return chosen, reached


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
    budget of views per decision; past the budget, the first play in the order among equals
    (the long run, then the habits).

    The play is found by :func:`choose`: the same play :func:`hint` ranks first, valuing only
    the plays needed to settle it (within the same budget it also finishes more often).  The
    playouts are seeded from the policy's random stream, so a game is reproducible."""

    name = "hint"

    def __init__(self, depth: int = 1, nodes: int | None = 20_000,
                 playouts: int = PLAYOUTS) -> None:
        self.depth = depth
        self.nodes = nodes
        self.playouts = playouts

    def __call__(self, state: State, rng: random.Random) -> Hashable:
        assert isinstance(state, PartyTimeState)
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        play, _ = choose(state.view(state.turn), self.depth, Budget(nodes=self.nodes),
                         self.playouts, rng.getrandbits(31))
        return play


__all__ = ["MAX_CHAIN", "PLAYOUTS", "Hint", "HintPolicy", "RankedPlay", "choose", "hint", "reason"]

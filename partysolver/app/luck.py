"""Skill against luck: what the chance points of a game record gave or took from each player.

At a chance point reached in a record (a draw, a die, a card: the position awaits chance), a
player's *luck* is the value of the position after the outcome that came minus the value
expected over every outcome, both from that player's point of view::

    luck(p) = V_p(after the outcome) - sum over outcomes o of P(o) * V_p(after o)

``V`` is the game's own figure (the chance to win, points, strips, VIPs), valued by the hint's
evaluator through the game's hook :meth:`~.base.GameCommands.position_values` (exact where
the hint is exact), and the outcomes and their chances come from
:meth:`~.base.GameCommands.chance_outcomes`.  The expected value is the hook's value of the
chance point itself where it gives one (an exact search averages the outcomes exactly), else
the average of the values after each outcome, within :data:`MOST_VALUED` positions.  A chance
point with a single outcome gives every player a luck of exactly 0 (nothing is valued).  A chance point the game cannot value
(a seat's view whose expectations the game does not give, a position its hook does not value)
is *not computed*: it counts in no sum, and the review says how many were left out.  A hook
that returns a valuation with no values says the game values no position there, and the
review then does not average the outcomes either (Meeple Party between turns).

The same values make the review's graph: the game's figure for every player after each step
(:class:`Valuer.point`).  Nothing here names a game: everything goes through the hooks.
"""

from __future__ import annotations

import json
import time
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..models.notation import Playable
from .base import GameCommands, Options, Valuation, document

DEPTH = 4
"""Chance points in a row (a chance outcome that leads to another chance point) the review
averages through itself when the game's hook does not value a chance point."""

MOST_VALUED = 64
"""The most positions the review values to average one chance point over its outcomes (and
the chance points after them) when the game's hook does not value the chance point itself;
past it the chance point is not computed (a Tea Party throw-up of many heroes, each outcome
followed by a draw, with no exact search to value them at once)."""


SHORTEST = 0.01
"""The shortest time limit a valuation gets (seconds): a search needs a positive one."""


class _TooMany(Exception):
    """More positions to value than :data:`MOST_VALUED`."""


@dataclass(frozen=True)
class Luck:
    """The luck of one chance point: by player (``None``: not computed, with ``why``)."""

    by_player: Mapping[str, float] | None
    exact: bool
    outcomes: int
    why: str = ""
    expected: Valuation | None = None
    """Every player's value before the outcome (the average over the outcomes)."""

    def as_json(self) -> dict[str, Any]:
        return {"luck": None if self.by_player is None else
                {name: round(value, 6) for name, value in self.by_player.items()},
                "luck_exact": self.exact, "outcomes": self.outcomes} | (
                    {"luck_not_computed": self.why} if self.by_player is None else {})


class Valuer:
    """The values of the positions of one review, each computed once (by the position's
    document): the game's hooks with the review's budget.

    Under a time limit each position of the record is valued within it, and so is a chance
    point averaged over its outcomes: the hook's own try at the chance point (an exact search)
    takes at most half of it, the outcomes share what is left equally (so the values the luck
    compares are searched alike).  A review then takes about the limit per step, not per
    outcome: a Tea Party record of 169 steps at ``--time-limit 0.5`` took 198 s when every
    outcome had the whole limit."""

    def __init__(self, commands: GameCommands, source: str, options: Options,
                 players: Sequence[str] = ()) -> None:
        self.commands = commands
        self.source = source
        self.options = options
        self.players = tuple(players)
        self._known: dict[str, Valuation | None] = {}
        self._why: dict[str, str] = {}
        """Why the game values no position there, by document (its hook's words)."""
        self._left = MOST_VALUED

    def value(self, position: Playable, depth: int = 0, limit: float | None = None
              ) -> Valuation | None:
        """Every player's value of ``position`` (``None``: the game cannot tell): the game's
        hook, or at a chance point it does not value, the average over the outcomes; within
        ``limit`` seconds (default: the review's time limit, if any)."""
        written = position.to_document()
        key = json.dumps(written, sort_keys=True, default=str)
        if key in self._known:
            return self._known[key]
        if depth > 0:  # averaging a chance point: within its budget of positions
            self._left -= 1
            if self._left < 0:
                raise _TooMany
        if limit is None:
            limit = self.options.time_limit
        chance = position.awaits_chance() and depth < DEPTH
        started = time.perf_counter()
        found = self.commands.position_values(document(written, self.source),
                                              self._within(limit, 0.5 if chance else 1.0))
        if found is not None and not found.values:
            if found.why:
                self._why[key] = found.why
            found = None  # the game values no position here: not computed, not averaged
        elif found is None and chance:
            outcomes = self.commands.chance_outcomes(position)
            if outcomes:
                share = None if limit is None else \
                    max(0.0, limit - (time.perf_counter() - started)) / len(outcomes)
                found = self._expected(position, outcomes, depth + 1, share)
        self._known[key] = found
        return found

    def _within(self, limit: float | None, part: float) -> Options:
        """The review's options with ``part`` of ``limit`` seconds as the time limit."""
        if limit is None:
            return self.options
        return replace(self.options, time_limit=max(limit * part, SHORTEST), started=None)

    def point(self, position: Playable) -> Valuation | None:
        """The value of a position of the record (for the graph), ``None`` past the budget of
        averaging a chance point."""
        self._left = MOST_VALUED
        try:
            return self.value(position)
        except _TooMany:
            return None

    def _expected(self, position: Playable, outcomes: Sequence[tuple[Hashable, float]],
                  depth: int = 0, limit: float | None = None) -> Valuation | None:
        """The values averaged over ``outcomes`` (``None`` when one of them has none), each
        within ``limit`` seconds."""
        total: dict[str, float] = {}
        exact = True
        names: set[str] | None = None
        for outcome, chance in outcomes:
            found = self.value(position.apply(outcome), depth, limit)
            if found is None:
                return None
            if names is None:
                names = set(found.values)
            elif set(found.values) != names:
                return None  # the outcomes name other players: no common figure
            exact = exact and found.exact
            for name, value in found.values.items():
                total[name] = total.get(name, 0.0) + chance * value
        return Valuation(total, exact)

    def luck(self, position: Playable, step: Hashable) -> Luck:
        """The luck of the chance point ``position`` whose outcome was ``step``."""
        outcomes = self.commands.chance_outcomes(position)
        if outcomes is None:
            return Luck(None, False, 0, "the game does not say what this seat expects here")
        if len(outcomes) == 1:  # a certain outcome: no luck, whatever the values
            return Luck({name: 0.0 for name in self.players}, True, 1)
        expected = self.point(position)  # first: its outcomes, the one that came among them
        after = None if expected is None else self.point(position.apply(step))
        if expected is None or after is None:
            said = self._why.get(json.dumps(position.to_document(), sort_keys=True,
                                            default=str))
            why = ("more outcomes than the review values (its limit is "
                   f"{MOST_VALUED} positions a chance point)" if self._left < 0 else
                   said or "the game's evaluator does not value the positions around this "
                   "chance point for every player")
            return Luck(None, False, len(outcomes), why)
        luck = {name: after.values[name] - expected.values[name]
                for name in after.values if name in expected.values}
        return Luck(luck, after.exact and expected.exact, len(outcomes), expected=expected)


@dataclass
class Tally:
    """One player's running sums: decision loss and luck, and whether each is exact."""

    decision_loss: float = 0.0
    decision_loss_exact: bool = True
    luck: float = 0.0
    luck_exact: bool = True
    chance_points: int = 0
    not_computed: int = 0

    def lose(self, lost: float | None, exact: bool) -> None:
        if lost is None:
            self.decision_loss_exact = False
            return
        self.decision_loss += lost
        self.decision_loss_exact = self.decision_loss_exact and exact

    def draw(self, luck: float | None, exact: bool) -> None:
        self.chance_points += 1
        if luck is None:
            self.not_computed += 1
            self.luck_exact = False
            return
        self.luck += luck
        self.luck_exact = self.luck_exact and exact

    def cumulative(self) -> dict[str, float]:
        return {"decision_loss": round(self.decision_loss, 6), "luck": round(self.luck, 6)}

    def as_json(self) -> dict[str, Any]:
        computed = self.chance_points - self.not_computed
        return {"decision_loss": round(self.decision_loss, 6),
                "decision_loss_exact": self.decision_loss_exact,
                "luck": round(self.luck, 6) if computed or not self.chance_points else None,
                "luck_exact": self.luck_exact, "chance_points": self.chance_points,
                "luck_not_computed": self.not_computed}


__all__ = ["DEPTH", "Luck", "Tally", "Valuer"]

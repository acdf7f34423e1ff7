"""The rules engine: an immutable Pig position following ``partysolver.models.protocol.State``.

A position is the goal, the players' names and banked scores, whose turn it is, the turn's
total so far and whether the die is rolling (a chance node: the next step is the face it
shows).  Chance is a player, as in OpenSpiel: at a rolling die ``chance_outcomes()`` lists the
six faces with the exact probability 1/6 each, and ``apply`` takes a :class:`~.game.Face` like
any move.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from partysolver.models.protocol import CHANCE, TERMINAL, Action, PerfectInformationView

from .game import FACES, HOLD, PIG_OUT, ROLL, Face, Hold, Roll

SIXTH = Fraction(1, 6)

DEFAULT_NAMES = ("Ada", "Ben", "Cleo", "Dev", "Eli", "Fay")
"""The players of a new game, in seat order."""


@dataclass(frozen=True, slots=True)
class PigState:
    """A Pig position (see the module docstring).  ``player`` is the seat whose turn it is,
    also while the die rolls; the game is over once a score reaches ``goal``."""

    goal: int
    names: tuple[str, ...]
    scores: tuple[int, ...]
    player: int = 0
    turn_total: int = 0
    rolling: bool = False

    @classmethod
    def new_game(cls, names: Sequence[str], goal: int) -> PigState:
        return cls(goal, tuple(names), (0,) * len(names))

    # -- the protocol -----------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        return len(self.names)

    def winner(self) -> int | None:
        """The seat that reached the goal, if any."""
        return next((seat for seat, score in enumerate(self.scores) if score >= self.goal), None)

    def is_over(self) -> bool:
        return self.winner() is not None

    def current_player(self) -> int:
        if self.is_over():
            return TERMINAL
        return CHANCE if self.rolling else self.player

    def legal_actions(self) -> Sequence[Action]:
        """``roll`` then ``hold`` (``roll`` alone at the start of a turn)."""
        if self.rolling or self.is_over():
            return ()
        return (ROLL, HOLD) if self.turn_total > 0 else (ROLL,)

    def chance_outcomes(self) -> Sequence[tuple[Action, Fraction]]:
        """The six faces, 1 to 6, each with probability exactly 1/6."""
        if not self.rolling or self.is_over():
            return ()
        return tuple((Face(face), SIXTH) for face in FACES)

    def sample_outcome(self, rng: random.Random) -> Face:
        return Face(rng.randint(1, 6))

    def apply(self, action: Action) -> PigState:
        if isinstance(action, Face) and self.rolling and 1 <= action.value <= 6:
            return self._landed(action.value)
        if action not in self.legal_actions():
            raise ValueError(f"{action} is not legal here")
        if isinstance(action, Roll):
            return PigState(self.goal, self.names, self.scores, self.player, self.turn_total,
                            True)
        assert isinstance(action, Hold)
        return self._bank(self.turn_total)

    def _landed(self, face: int) -> PigState:
        if face == PIG_OUT:
            return self._bank(0)
        total = self.turn_total + face
        if self.scores[self.player] + total >= self.goal:
            return self._bank(total)  # the goal is reached: the turn (and the game) ends
        return PigState(self.goal, self.names, self.scores, self.player, total, False)

    def _bank(self, points: int) -> PigState:
        scores = list(self.scores)
        scores[self.player] += points
        over = scores[self.player] >= self.goal
        following = self.player if over else (self.player + 1) % self.num_players
        return PigState(self.goal, self.names, tuple(scores), following, 0, False)

    def returns(self) -> tuple[float, ...]:
        winner = self.winner()
        return tuple(1.0 if seat == winner else 0.0 for seat in range(self.num_players))

    def key(self) -> Hashable:
        """The goal, the scores, the seat to act, the turn's total and the die: the names do
        not change the game."""
        return (self.goal, self.scores, self.player, self.turn_total, self.rolling)

    def view(self, player: int) -> PerfectInformationView:
        return PerfectInformationView(self, player)

    def describe_action(self, action: Action) -> str:
        who = self.names[self.player]
        if isinstance(action, Roll):
            return f"{who} rolls the die (turn total {self.turn_total})"
        if isinstance(action, Hold):
            banked = self.scores[self.player] + self.turn_total
            return f"{who} holds, banking {self.turn_total} points (score {banked})"
        assert isinstance(action, Face)
        if action.value == PIG_OUT:
            return f"the die shows 1: {who} loses the turn's {self.turn_total} points"
        total = self.turn_total + action.value
        if self.scores[self.player] + total >= self.goal:
            return f"the die shows {action.value}: {who} reaches {self.goal} and wins"
        return f"the die shows {action.value}: {who}'s turn total is {total}"

    # -- for people -------------------------------------------------------------------------

    def name(self, seat: int) -> str:
        return self.names[seat]

    def to_act(self) -> str:
        """Who acts next, in words."""
        if self.is_over():
            return "nobody: the game is over"
        return "the die" if self.rolling else self.names[self.player]

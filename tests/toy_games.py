"""Tiny games for testing the generic solvers on what the registered games do not exercise."""

from __future__ import annotations

import random
from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction

from partysolver.models.protocol import CHANCE, TERMINAL


@dataclass(frozen=True)
class GuessView:
    """Player 1 sees the phase but not the card; player 0 sees everything."""

    state: GuessState
    player: int

    def key(self) -> Hashable:
        if self.player == 0:
            return self.state.key()
        return ("guess", self.state.card is not None, self.state.guess)

    def sample(self, rng: random.Random) -> GuessState:
        if self.player == 0 or self.state.card is None:
            return self.state
        return GuessState(rng.choice((1, 2, 3)), self.state.guess)


@dataclass(frozen=True)
class GuessState:
    """A card 1-3 is dealt face down to player 0; player 1 guesses 'high' (2 or 3) or 'low'."""

    card: int | None = None
    guess: str | None = None
    num_players: int = 2

    def current_player(self) -> int:
        if self.card is None:
            return CHANCE
        return 1 if self.guess is None else TERMINAL

    def legal_actions(self) -> list[str]:
        return ["low", "high"] if self.current_player() == 1 else []

    def chance_outcomes(self) -> list[tuple[int, Fraction]]:
        return [(c, Fraction(1, 3)) for c in (1, 2, 3)] if self.card is None else []

    def apply(self, action: Hashable) -> GuessState:
        if self.card is None:
            assert isinstance(action, int)
            return GuessState(action)
        assert isinstance(action, str)
        return GuessState(self.card, action)

    def returns(self) -> tuple[float, float]:
        assert self.card is not None
        right = (self.card >= 2) == (self.guess == "high")
        return (0.0, 1.0) if right else (1.0, 0.0)

    def key(self) -> Hashable:
        return (self.card, self.guess)

    def view(self, player: int) -> GuessView:
        return GuessView(self, player)

    def describe_action(self, action: Hashable) -> str:
        return f"guess {action}" if isinstance(action, str) else f"deal {action}"


@dataclass(frozen=True)
class DiceRace:
    """Three players take ``turns`` turns in all; on yours, roll a three-sided die (chance) or
    pass.  A 1 puts you out (the others share the win); reaching ``target`` wins; when the
    turns run out the best score wins.  Exercises n-player expectimax."""

    scores: tuple[int, ...] = (0, 0, 0)
    turn: int = 0
    rolling: bool = False
    loser: int | None = None
    target: int = 6
    turns: int = 6

    @property
    def num_players(self) -> int:
        return len(self.scores)

    def current_player(self) -> int:
        if self.loser is not None or max(self.scores) >= self.target or self.turns == 0:
            return TERMINAL
        return CHANCE if self.rolling else self.turn

    def legal_actions(self) -> list[str]:
        return ["roll", "pass"] if self.current_player() >= 0 else []

    def chance_outcomes(self) -> list[tuple[int, Fraction]]:
        return [(d, Fraction(1, 3)) for d in (1, 2, 3)] if self.current_player() == CHANCE else []

    def apply(self, action: Hashable) -> DiceRace:
        n = self.num_players
        if self.rolling:
            assert isinstance(action, int)
            if action == 1:
                return DiceRace(self.scores, self.turn, False, self.turn, self.target, 0)
            scores = list(self.scores)
            scores[self.turn] += action
            return DiceRace(tuple(scores), (self.turn + 1) % n, False, None, self.target,
                            self.turns - 1)
        if action == "roll":
            return DiceRace(self.scores, self.turn, True, None, self.target, self.turns)
        return DiceRace(self.scores, (self.turn + 1) % n, False, None, self.target,
                        self.turns - 1)

    def returns(self) -> tuple[float, ...]:
        if self.loser is not None:
            others = [i for i in range(self.num_players) if i != self.loser]
            return tuple(1 / len(others) if i in others else 0.0 for i in range(self.num_players))
        best = max(self.scores)
        winners = self.scores.count(best)
        return tuple(1.0 / winners if s == best else 0.0 for s in self.scores)

    def key(self) -> Hashable:
        return (self.scores, self.turn, self.rolling, self.loser, self.turns)

    def view(self, player: int):  # pragma: no cover - perfect information, unused
        raise AssertionError

    def describe_action(self, action: Hashable) -> str:
        return str(action)

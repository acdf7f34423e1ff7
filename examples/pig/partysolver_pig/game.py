"""What Pig is, as data: its declaration and its value types (the moves and the die's faces).

Pig is the public-domain dice game (John Scarne described it in 1945; Neller and Presser,
"Optimal Play of the Dice Game Pig", The UMAP Journal 25(1), 2004, solved the two-player game).
On your turn you roll a die as often as you like: each face from 2 to 6 adds to the turn's
total, a 1 loses the turn's total and ends the turn; *hold* banks the turn's total into your
score and passes the die on.  The first player to reach the goal (100 points unless the position
names another) wins.  Rules this package decides (written down in the plugin's README.md, each
pinned by a test in ``tests/test_pig_plugin.py``):

- a turn starts with a roll (holding nothing is no move);
- the turn ends, and the game is won, as soon as the score plus the turn's total reaches the
  goal: holding then is the only sensible move, so it is taken for the player (as in Neller and
  Presser's formulation, where such a position is worth a win).
"""

from __future__ import annotations

from dataclasses import dataclass

from partysolver.models.protocol import GameInfo

INFO = GameInfo(
    key="pig",
    title="Pig",
    min_players=2,
    max_players=6,
    chance=True,
    hidden_information=False,
    summary="roll a die as often as you dare: a 1 loses the turn's total, hold banks it; "
            "first to the goal wins",
    house_data=None,
)

DEFAULT_GOAL = 100
"""The goal of the classic game (a position may name a smaller one: ``goal = 20``)."""

MIN_GOAL, MAX_GOAL = 2, 1000
"""The goals a position may name."""

FACES = (1, 2, 3, 4, 5, 6)
"""The die's faces, each with chance 1/6."""

PIG_OUT = 1
"""The face that loses the turn's total."""


@dataclass(frozen=True, slots=True)
class Roll:
    """Roll the die (the first move of every turn, and the alternative to holding)."""

    def __str__(self) -> str:
        return "roll"


@dataclass(frozen=True, slots=True)
class Hold:
    """Bank the turn's total into the score and pass the die on."""

    def __str__(self) -> str:
        return "hold"


@dataclass(frozen=True, slots=True)
class Face:
    """The chance outcome of a roll: the face the die shows."""

    value: int

    def __str__(self) -> str:
        return str(self.value)


ROLL = Roll()
HOLD = Hold()

Move = Roll | Hold
"""A player's move."""

"""Pig (``pig``), the dice game, as a partysolver game kept in its own installed package.

partysolver finds it through the entry point ``pig = "partysolver_pig"`` in the group
``partysolver.games`` (``pyproject.toml``): this module exports ``GAME`` (the rules engine's
registry entry) and ``COMMANDS`` (the app layer's commands).  It imports only ``game.py`` at
once; every other name loads on first use (``partysolver.models.lazy``), so that ``partysolver
--help``, ``partysolver games`` and commands on other games do not load this engine, its
searches or numpy.

The rooms, in the order ``docs/adding-a-game.md`` gives: ``game.py`` (the declaration and the
value types), ``state.py`` (the rules engine), ``position.py`` (the file schema),
``notation.py``, ``render.py`` (the models floor); ``solver.py`` (the searches); ``commands.py``
(the app floor); ``puzzles/examples/`` (the shipped positions).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from partysolver.models.lazy import LazyNames

from .game import INFO, Face, Hold, Roll

if TYPE_CHECKING:  # at run time these load on first use: see partysolver/models/lazy.py
    from partysolver.models.playable import StatePlayable

    from .commands import COMMANDS, PigCommands  # noqa: F401
    from .notation import NOTATION, PigNotation  # noqa: F401
    from .position import PigPosition, load_position, load_state, state_to_document
    from .state import DEFAULT_NAMES, PigState  # noqa: F401

__getattr__ = LazyNames(__name__, {
    "commands": ("COMMANDS", "PigCommands"),
    "notation": ("NOTATION", "PigNotation"),
    "position": ("PigPosition", "load_position", "load_state", "state_to_document"),
    "state": ("DEFAULT_NAMES", "PigState"),
})


class PigGame:
    """The registry entry for Pig (a new game plays to the classic goal, 100)."""

    info = INFO

    @property
    def notation(self) -> PigNotation:
        from .notation import NOTATION

        return NOTATION

    def initial_state(self, num_players: int, rng: random.Random) -> PigState:
        from .game import DEFAULT_GOAL
        from .state import DEFAULT_NAMES, PigState

        if num_players not in INFO.player_counts():
            raise ValueError(f"pig takes {INFO.min_players} to {INFO.max_players} players, "
                             f"not {num_players}")
        return PigState.new_game(DEFAULT_NAMES[:num_players], DEFAULT_GOAL)

    def state_to_document(self, state: PigState) -> dict[str, Any]:
        from .position import state_to_document

        return state_to_document(state)

    def state_from_document(self, document: Mapping[str, Any], source: str) -> PigState:
        from .position import load_state

        return load_state(document, source)

    def playable(self, document: Mapping[str, Any], source: str) -> StatePlayable:
        """The position of a file to play on in Pig notation (bad input: InputError)."""
        from partysolver.models.playable import StatePlayable

        from .position import load_state

        return StatePlayable(self, load_state(document, source))


GAME = PigGame()

__all__ = ["COMMANDS", "GAME", "INFO", "Face", "Hold", "PigCommands", "PigNotation",
           "PigPosition", "PigState", "Roll", "load_position", "load_state",
           "state_to_document"]

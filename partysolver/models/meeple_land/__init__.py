"""Meeple Land (``meeple-land``): 2-4 players build amusement parks from tiles."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..lazy import LazyNames
from .game import INFO, Placement, Plot, Tile

if TYPE_CHECKING:  # at run time these load on first use: see models/lazy.py
    from ..playable import StatePlayable
    from .catalogue import Catalogue, house_catalogue
    from .notation import NOTATION, MeepleLandNotation  # noqa: F401
    from .park import Layout, Piece, Score
    from .position import (
        ParkPosition,
        game_problems,
        load_park,
        load_state,
        state_from_document,
        state_to_document,
    )
    from .state import DEFAULT_NAMES, MeepleLandState  # noqa: F401

__getattr__ = LazyNames(__name__, {
    "catalogue": ("Catalogue", "house_catalogue"),
    "notation": ("NOTATION", "MeepleLandNotation"),
    "park": ("Layout", "Piece", "Score"),
    "position": ("ParkPosition", "game_problems", "load_park", "load_state",
                 "state_from_document", "state_to_document"),
    "state": ("DEFAULT_NAMES", "MeepleLandState"),
})


class MeepleLandGame:
    """The registry entry for Meeple Land (the house catalogue unless told otherwise)."""

    info = INFO

    @property
    def notation(self) -> MeepleLandNotation:
        from .notation import NOTATION

        return NOTATION

    def initial_state(self, num_players: int, rng: random.Random,
                      catalogue: Catalogue | None = None) -> MeepleLandState:
        from .catalogue import house_catalogue
        from .state import DEFAULT_NAMES, MeepleLandState

        if num_players not in INFO.player_counts():
            raise ValueError(f"meeple-land takes 2 to 4 players, not {num_players}")
        return MeepleLandState.new_game(catalogue or house_catalogue(),
                                        DEFAULT_NAMES[:num_players], rng)

    def state_to_document(self, state: MeepleLandState) -> dict[str, Any]:
        from .position import state_to_document

        return state_to_document(state)

    def state_from_document(self, document: Mapping[str, Any], source: str
                            ) -> MeepleLandState:
        from .position import state_from_document

        return state_from_document(document, source)

    def playable(self, document: Mapping[str, Any], source: str) -> StatePlayable:
        """The game position (``kind = "game"``) of a file to play on in Meeple Land notation
        (bad input, another kind of file included: InputError)."""
        from ..playable import StatePlayable
        from .position import state_from_document

        return StatePlayable(self, state_from_document(document, source))


GAME = MeepleLandGame()

__all__ = ["GAME", "INFO", "Catalogue", "Layout", "MeepleLandNotation", "MeepleLandState", "ParkPosition", "Piece",
           "Placement", "Plot", "Score", "Tile", "game_problems", "house_catalogue",
           "load_park", "load_state", "state_from_document", "state_to_document"]

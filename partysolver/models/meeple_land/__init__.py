"""Meeple Land (``meeple-land``): 2-4 players build amusement parks from tiles."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ..playable import StatePlayable
from .catalogue import Catalogue, house_catalogue
from .game import INFO, Placement, Plot, Tile
from .notation import NOTATION, MeepleLandNotation
from .park import Layout, Piece, Score
from .position import (
    ParkPosition,
    game_problems,
    load_park,
    load_state,
    state_from_document,
    state_to_document,
)
from .state import DEFAULT_NAMES, MeepleLandState


class MeepleLandGame:
    """The registry entry for Meeple Land (the house catalogue unless told otherwise)."""

    info = INFO
    notation: MeepleLandNotation = NOTATION

    def initial_state(self, num_players: int, rng: random.Random,
                      catalogue: Catalogue | None = None) -> MeepleLandState:
        if num_players not in INFO.player_counts():
            raise ValueError(f"meeple-land takes 2 to 4 players, not {num_players}")
        return MeepleLandState.new_game(catalogue or house_catalogue(),
                                        DEFAULT_NAMES[:num_players], rng)

    def state_to_document(self, state: MeepleLandState) -> dict[str, Any]:
        return state_to_document(state)

    def state_from_document(self, document: Mapping[str, Any], source: str
                            ) -> MeepleLandState:
        return state_from_document(document, source)

    def playable(self, document: Mapping[str, Any], source: str) -> StatePlayable:
        """The game position (``kind = "game"``) of a file to play on in Meeple Land notation
        (bad input, another kind of file included: InputError)."""
        return StatePlayable(self, state_from_document(document, source))


GAME = MeepleLandGame()

__all__ = ["GAME", "INFO", "Catalogue", "Layout", "MeepleLandNotation", "MeepleLandState", "ParkPosition", "Piece",
           "Placement", "Plot", "Score", "Tile", "game_problems", "house_catalogue",
           "load_park", "load_state", "state_from_document", "state_to_document"]

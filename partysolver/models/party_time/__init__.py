"""Party-Time (``party-time``): 2-6 players move a champagne bottle round a track with cards;
whoever carries it over the star loses a garment strip."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ..playable import StatePlayable
from .game import (
    HOUSE_RULES,
    INFO,
    Card,
    Draw,
    Play,
    Reveal,
    Rules,
)
from .notation import NOTATION, PartyTimeNotation, StatePosition, ViewPosition, playable
from .position import (
    DEFAULT_NAMES,
    Position,
    load_position,
    load_rules,
    load_state,
    state_to_document,
    view_to_document,
)
from .state import PartyTimeState, PartyTimeView, resolve, win_shares


class PartyTimeGame:
    """The registry entry for Party-Time (house board and deck; see ``INFO.house_data``)."""

    info = INFO
    notation: PartyTimeNotation = NOTATION
    """The notation of every action and chance outcome of the full game."""

    def initial_state(self, num_players: int, rng: random.Random,
                      rules: Rules = HOUSE_RULES) -> PartyTimeState:
        if num_players not in INFO.player_counts():
            raise ValueError(f"party-time takes 2 to 6 players, not {num_players}")
        return PartyTimeState.new_game(rules, DEFAULT_NAMES[:num_players], rng)

    def state_to_document(self, state: PartyTimeState) -> dict[str, Any]:
        return state_to_document(state)

    def state_from_document(self, document: Mapping[str, Any], source: str) -> PartyTimeState:
        return load_state(document, source)

    def playable(self, document: Mapping[str, Any], source: str
                 ) -> ViewPosition | StatePlayable:
        """The position to play on in a position file: seen from ``me`` (the seat enters what
        it sees), or the full game when every hand is given."""
        return playable(document, source)


GAME = PartyTimeGame()

__all__ = ["GAME", "HOUSE_RULES", "INFO", "Card", "Draw", "PartyTimeState", "PartyTimeView",
           "Play", "Position", "Reveal", "Rules", "StatePosition", "ViewPosition", "load_position", "load_rules", "load_state",
           "resolve", "state_to_document", "view_to_document", "win_shares"]

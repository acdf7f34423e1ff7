"""Epic Monster Tea Party (``tea-party``): 2-4 monsters draw heroes from a bag."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ..playable import StatePlayable
from .game import INFO, Cup, Draw, Hero, Squish, ThrowUp
from .notation import NOTATION, TeaPartyNotation
from .position import DEFAULT_NAMES, Position, load_position, load_state, state_to_document
from .state import Table, TeaPartyState, win_shares


class TeaPartyGame:
    """The registry entry for Epic Monster Tea Party."""

    info = INFO
    notation: TeaPartyNotation = NOTATION

    def initial_state(self, num_players: int, rng: random.Random) -> TeaPartyState:
        if num_players not in INFO.player_counts():
            raise ValueError(f"tea-party takes 2 to 4 players, not {num_players}")
        return TeaPartyState.new_game(DEFAULT_NAMES[:num_players])

    def state_to_document(self, state: TeaPartyState) -> dict[str, Any]:
        return state_to_document(state)

    def state_from_document(self, document: Mapping[str, Any], source: str) -> TeaPartyState:
        return load_state(document, source)

    def playable(self, document: Mapping[str, Any], source: str) -> StatePlayable:
        """The position of a file to play on in Tea Party notation (bad input: InputError)."""
        return StatePlayable(self, load_state(document, source))


GAME = TeaPartyGame()

__all__ = ["GAME", "INFO", "Cup", "Draw", "Hero", "Position", "Squish", "Table",
           "TeaPartyNotation", "TeaPartyState",
           "ThrowUp", "load_position", "load_state", "state_to_document", "win_shares"]

"""Epic Monster Tea Party (``tea-party``): 2-4 monsters draw heroes from a bag."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..lazy import LazyNames
from .game import INFO, Cup, Draw, Hero, Squish, ThrowUp

if TYPE_CHECKING:  # at run time these load on first use: see models/lazy.py
    from ..playable import StatePlayable
    from .notation import NOTATION, TeaPartyNotation  # noqa: F401
    from .position import (
        DEFAULT_NAMES,  # noqa: F401
        Position,
        load_position,
        load_state,
        state_to_document,
    )
    from .state import Table, TeaPartyState, win_shares

__getattr__ = LazyNames(__name__, {
    "notation": ("NOTATION", "TeaPartyNotation"),
    "position": ("DEFAULT_NAMES", "Position", "load_position", "load_state",
                 "state_to_document"),
    "state": ("Table", "TeaPartyState", "win_shares"),
})


class TeaPartyGame:
    """The registry entry for Epic Monster Tea Party."""

    info = INFO

    @property
    def notation(self) -> TeaPartyNotation:
        from .notation import NOTATION

        return NOTATION

    def initial_state(self, num_players: int, rng: random.Random) -> TeaPartyState:
        from .position import DEFAULT_NAMES
        from .state import TeaPartyState

        if num_players not in INFO.player_counts():
            raise ValueError(f"tea-party takes 2 to 4 players, not {num_players}")
        return TeaPartyState.new_game(DEFAULT_NAMES[:num_players])

    def state_to_document(self, state: TeaPartyState) -> dict[str, Any]:
        from .position import state_to_document

        return state_to_document(state)

    def state_from_document(self, document: Mapping[str, Any], source: str) -> TeaPartyState:
        from .position import load_state

        return load_state(document, source)

    def playable(self, document: Mapping[str, Any], source: str) -> StatePlayable:
        """The position of a file to play on in Tea Party notation (bad input: InputError)."""
        from ..playable import StatePlayable
        from .position import load_state

        return StatePlayable(self, load_state(document, source))


GAME = TeaPartyGame()

__all__ = ["GAME", "INFO", "Cup", "Draw", "Hero", "Position", "Squish", "Table",
           "TeaPartyNotation", "TeaPartyState",
           "ThrowUp", "load_position", "load_state", "state_to_document", "win_shares"]

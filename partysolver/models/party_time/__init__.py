"""Party-Time (``party-time``): 2-6 players move a champagne bottle round a track with cards;
whoever carries it over the star loses a garment strip."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..lazy import LazyNames
from .game import (
    HOUSE_RULES,
    INFO,
    Card,
    Draw,
    Play,
    Reveal,
    Rules,
)

if TYPE_CHECKING:  # at run time these load on first use: see models/lazy.py
    from ..playable import StatePlayable
    from .notation import (
        NOTATION,  # noqa: F401
        PartyTimeNotation,
        ViewPosition,
        playable,  # noqa: F401
    )
    from .position import (
        DEFAULT_NAMES,  # noqa: F401
        Position,
        load_position,
        load_rules,
        load_state,
        state_to_document,
        view_to_document,
    )
    from .state import PartyTimeState, PartyTimeView, resolve, win_shares

__getattr__ = LazyNames(__name__, {
    "notation": ("NOTATION", "PartyTimeNotation", "ViewPosition", "playable"),
    "position": ("DEFAULT_NAMES", "Position", "load_position", "load_rules", "load_state",
                 "state_to_document", "view_to_document"),
    "state": ("PartyTimeState", "PartyTimeView", "resolve", "win_shares"),
})


class PartyTimeGame:
    """The registry entry for Party-Time (house board and deck; see ``INFO.house_data``)."""

    info = INFO

    @property
    def notation(self) -> PartyTimeNotation:
        """The notation of every action and chance outcome of the full game."""
        from .notation import NOTATION

        return NOTATION

    def initial_state(self, num_players: int, rng: random.Random,
                      rules: Rules = HOUSE_RULES) -> PartyTimeState:
        from .position import DEFAULT_NAMES
        from .state import PartyTimeState

        if num_players not in INFO.player_counts():
            raise ValueError(f"party-time takes 2 to 6 players, not {num_players}")
        return PartyTimeState.new_game(rules, DEFAULT_NAMES[:num_players], rng)

    def state_to_document(self, state: PartyTimeState) -> dict[str, Any]:
        from .position import state_to_document

        return state_to_document(state)

    def state_from_document(self, document: Mapping[str, Any], source: str) -> PartyTimeState:
        from .position import load_state

        return load_state(document, source)

    def playable(self, document: Mapping[str, Any], source: str
                 ) -> ViewPosition | StatePlayable:
        """The position to play on in a position file: seen from ``me`` (the seat enters what
        it sees), or the full game when every hand is given."""
        from .notation import playable

        return playable(document, source, self)


GAME = PartyTimeGame()

__all__ = ["GAME", "HOUSE_RULES", "INFO", "Card", "Draw", "PartyTimeState", "PartyTimeView",
           "Play", "Position", "Reveal", "Rules", "ViewPosition", "load_position", "load_rules", "load_state",
           "resolve", "state_to_document", "view_to_document", "win_shares"]

"""Pool Party Stars (``pool-party-stars``): propose guests, read who bars them, and deduce
everyone's secret rule (2-6 players, hidden rules and hands)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..lazy import LazyNames
from .game import (
    HOUSE_DECK,
    INFO,
    Attribute,
    DrawGuest,
    DrawRule,
    Guess,
    GuessOutcome,
    Guest,
    Proposal,
    Propose,
    Table,
)

if TYPE_CHECKING:  # at run time these load on first use: see models/lazy.py
    from ..playable import StatePlayable
    from .evidence import Evidence, Knowledge, Timeline
    from .notation import (
        NOTATION,  # noqa: F401
        PoolPartyNotation,
        SeatPosition,
        playable,  # noqa: F401
    )
    from .position import (
        DEFAULT_NAMES,  # noqa: F401
        GameLog,
        Puzzle,
        load_log,
        load_state,
        state_to_document,
    )
    from .state import PoolPartyState, PoolView

__getattr__ = LazyNames(__name__, {
    "evidence": ("Evidence", "Knowledge", "Timeline"),
    "notation": ("NOTATION", "PoolPartyNotation", "SeatPosition", "playable"),
    "position": ("DEFAULT_NAMES", "GameLog", "Puzzle", "load_log", "load_state",
                 "state_to_document"),
    "state": ("PoolPartyState", "PoolView"),
})


class PoolPartyStarsGame:
    """The registry entry for Pool Party Stars."""

    info = INFO

    @property
    def notation(self) -> PoolPartyNotation:
        """The notation of every action and chance outcome of the full game."""
        from .notation import NOTATION

        return NOTATION

    def initial_state(self, num_players: int, rng: random.Random) -> PoolPartyState:
        from .position import DEFAULT_NAMES
        from .state import PoolPartyState

        if num_players not in INFO.player_counts():
            raise ValueError(f"pool-party-stars takes 2 to 6 players, not {num_players}")
        return PoolPartyState.deal(Table(DEFAULT_NAMES[:num_players]), rng)

    def state_to_document(self, state: PoolPartyState) -> dict[str, Any]:
        from .position import state_to_document

        return state_to_document(state)

    def state_from_document(self, document: Mapping[str, Any], source: str) -> PoolPartyState:
        from .position import load_state

        return load_state(document, source)

    def playable(self, document: Mapping[str, Any], source: str
                 ) -> SeatPosition | StatePlayable:
        """The position to play on in a game log: a seat log from its seat (the seat enters
        what it sees), a full omniscient log as the full game."""
        from .notation import playable

        return playable(document, source, self)


GAME = PoolPartyStarsGame()

__all__ = ["GAME", "HOUSE_DECK", "INFO", "Attribute", "DrawGuest", "DrawRule", "Evidence",
           "GameLog", "Guess", "GuessOutcome", "Guest", "Knowledge", "PoolPartyState",
           "PoolView", "Proposal", "Propose", "Puzzle", "SeatPosition", "Table",
           "Timeline", "load_log", "load_state", "state_to_document"]

"""Pool Party Stars (``pool-party-stars``): propose guests, read who bars them, and deduce
everyone's secret rule (2-6 players, hidden rules and hands)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ..playable import StatePlayable
from .evidence import Evidence, Knowledge, Timeline
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
from .notation import NOTATION, PoolPartyNotation, SeatPosition, StatePosition, playable
from .position import DEFAULT_NAMES, GameLog, Puzzle, load_log, load_state, state_to_document
from .state import PoolPartyState, PoolView


class PoolPartyStarsGame:
    """The registry entry for Pool Party Stars."""

    info = INFO
    notation: PoolPartyNotation = NOTATION
    """The notation of every action and chance outcome of the full game."""

    def initial_state(self, num_players: int, rng: random.Random) -> PoolPartyState:
        if num_players not in INFO.player_counts():
            raise ValueError(f"pool-party-stars takes 2 to 6 players, not {num_players}")
        return PoolPartyState.deal(Table(DEFAULT_NAMES[:num_players]), rng)

    def state_to_document(self, state: PoolPartyState) -> dict[str, Any]:
        return state_to_document(state)

    def state_from_document(self, document: Mapping[str, Any], source: str) -> PoolPartyState:
        return load_state(document, source)

    def playable(self, document: Mapping[str, Any], source: str
                 ) -> SeatPosition | StatePlayable:
        """The position to play on in a game log: a seat log from its seat (the seat enters
        what it sees), a full omniscient log as the full game."""
        return playable(document, source)


GAME = PoolPartyStarsGame()

__all__ = ["GAME", "HOUSE_DECK", "INFO", "Attribute", "DrawGuest", "DrawRule", "Evidence",
           "GameLog", "Guess", "GuessOutcome", "Guest", "Knowledge", "PoolPartyState",
           "PoolView", "Proposal", "Propose", "Puzzle", "SeatPosition", "StatePosition", "Table",
           "Timeline", "load_log", "load_state", "state_to_document"]

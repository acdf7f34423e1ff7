"""Meeple Party (``meeple-party``): 1-5 roommates throw a cooperative party in a house of tiles."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..lazy import LazyNames
from .game import (
    CAT,
    DIFFICULTIES,
    DOG,
    INFO,
    LENGTHS,
    PERSONALITIES,
    ROOMMATE,
    SUPPLY_GUESTS,
    SUPPLY_WHITES,
    TURN_LIMIT,
    VARIANTS,
    WHITES_IN_BAG,
    Mingle,
    Personality,
    Pick,
    Refresh,
    StandUp,
    Step,
    Welcome,
)

if TYPE_CHECKING:  # at run time these load on first use: see models/lazy.py
    from ..playable import StatePlayable
    from . import data  # noqa: F401
    from .board import UNIT  # noqa: F401
    from .cards import Cards, Clause, Condition, Effect, Surprise
    from .house import House
    from .notation import NOTATION, MeeplePartyNotation  # noqa: F401
    from .position import Position, load_position, load_state, state_to_document
    from .setup import Clock, Setup
    from .state import DRAW, MeeplePartyState, photo_pair  # noqa: F401

__getattr__ = LazyNames(__name__, {
    "data": ("data",),
    "board": ("UNIT",),
    "cards": ("Cards", "Clause", "Condition", "Effect", "Surprise"),
    "house": ("House",),
    "notation": ("NOTATION", "MeeplePartyNotation"),
    "position": ("Position", "load_position", "load_state", "state_to_document"),
    "setup": ("Clock", "Setup"),
    "state": ("DRAW", "MeeplePartyState", "photo_pair"),
})

DEFAULT_NAMES = ("Ana", "Ben", "Cleo", "Dev", "Eli")


def default_house(players: int, variant: str = "party") -> str:
    """The shipped house a new game uses: the easy house seats 1-4, the spa house 5 (and has
    the Hot Tub the Hot Tub challenge needs)."""
    return "spa" if players > 4 or variant == "hot-tub" else "easy"


def new_game(players: int, rng: random.Random, *, house: str | House | None = None,
             difficulty: str = "standard", length: str = "casual", start: int = 12,
             variant: str = "party", pets: Sequence[str] = (), cards: Cards | None = None,
             clock: Clock | None = None, names: Sequence[str] | None = None,
             roommates: Sequence[int] | None = None, turn_limit: int = TURN_LIMIT
             ) -> MeeplePartyState:
    """A new party: roommates in different random rooms, pets in place (Cat in the Kitchen,
    Dog Outside), a full bag, shuffled decks and the cards dealt for the difficulty."""
    from . import data
    from .board import UNIT
    from .setup import Setup
    from .state import DRAW, MeeplePartyState, photo_pair

    if players not in INFO.player_counts():
        raise ValueError(f"meeple-party takes 1 to 5 players, not {players}")
    if difficulty not in DIFFICULTIES or length not in LENGTHS or variant not in VARIANTS:
        raise ValueError("unknown difficulty, length or variant")
    house_ref: str | None = None
    if house is None or isinstance(house, str):
        house_ref = house or default_house(players, variant)
        the_house = data.house(house_ref)
    else:
        the_house = house
    the_cards = cards or data.cards()
    the_clock = clock or data.clock()
    chosen = list(roommates) if roommates is not None else rng.sample(range(5), players)
    setup = Setup(the_house, the_cards, the_clock, tuple(names or DEFAULT_NAMES[:players]),
                  tuple(chosen), difficulty, length, start, variant, False, 0, turn_limit,
                  (house_ref, None if cards else "house", None if clock else "house"))
    problems = the_house.problems(players)
    if problems:
        raise ValueError(f"house {the_house.name!r}: " + "; ".join(p.message for p in problems))
    rooms = [0] * the_house.size
    indoor = [r for r in the_house.welcome_rooms
              if variant != "hot-tub" or the_house.rooms[r].kind not in ("outside", "door")]
    for p, room in zip(range(5), rng.sample(indoor, 5), strict=True):
        rooms[room] += UNIT[ROOMMATE + p]
    if "cat" in pets:
        rooms[the_house.of_kind("kitchen")[0]] += UNIT[CAT]
    if "dog" in pets:
        rooms[the_house.of_kind("outside")[0]] += UNIT[DOG]
    photo_deck = list(setup.deck_cards("photo"))
    disaster_deck = list(setup.deck_cards("disaster"))
    surprise_deck = list(setup.deck_cards("surprise"))

    def deal(deck: list[int]) -> int:
        if not deck:
            return -1
        card = deck.pop(rng.randrange(len(deck)))
        return card

    photos = [photo_pair([deal(photo_deck), deal(photo_deck)]) if setup.uses_photos
              else (-1, -1) for _ in range(players)]
    disasters = [deal(disaster_deck) if setup.personal_disasters else -1
                 for _ in range(players)]
    communal = deal(disaster_deck) if setup.communal_disaster else -1
    bag = (SUPPLY_GUESTS,) * 5 + (WHITES_IN_BAG,)
    return MeeplePartyState(setup, tuple(rooms), bag, SUPPLY_WHITES - WHITES_IN_BAG,
                            (0,) * players, tuple(photos), tuple(disasters), communal,
                            tuple(sorted(photo_deck)), tuple(sorted(disaster_deck)),
                            tuple(sorted(surprise_deck)), 0, 1, 0, DRAW)


class MeeplePartyGame:
    """The registry entry for Meeple Party."""

    info = INFO

    @property
    def notation(self) -> MeeplePartyNotation:
        from .notation import NOTATION

        return NOTATION

    def initial_state(self, num_players: int, rng: random.Random) -> MeeplePartyState:
        return new_game(num_players, rng)

    def state_to_document(self, state: MeeplePartyState) -> dict[str, Any]:
        from .position import state_to_document

        return state_to_document(state)

    def state_from_document(self, document: Mapping[str, Any], source: str
                            ) -> MeeplePartyState:
        from .position import load_state

        return load_state(document, source)

    def playable(self, document: Mapping[str, Any], source: str) -> StatePlayable:
        """The position of a file to play on in Meeple Party notation (bad input:
        InputError); the file written after any step, mid-turn too, loads back."""
        from ..playable import StatePlayable
        from .position import load_state

        return StatePlayable(self, load_state(document, source))


GAME = MeeplePartyGame()

__all__ = ["GAME", "INFO", "Cards", "Clause", "Clock", "Condition", "Effect", "House",
           "MeeplePartyNotation", "MeeplePartyState", "Mingle", "PERSONALITIES", "Personality", "Pick", "Position",
           "Refresh", "Setup", "StandUp", "Step", "Surprise", "Welcome", "load_position",
           "load_state", "new_game", "state_to_document"]

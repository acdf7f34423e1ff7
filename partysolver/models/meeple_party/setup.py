"""What stays fixed during one party: house, cards, clock, players, difficulty and length.

A :class:`Setup` is shared by every state of a game.  It also compiles the card conditions for
its house (per active personality) once, with their per-room memos, for the searches.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ..documents import Fields
from .cards import Cards, CompiledCondition
from .game import (
    CLOCK_ICONS,
    CLOCK_SPACES,
    LENGTHS,
    PERSONALITY_KEYS,
    REFRESH_SPACES,
    space_time,
    start_space,
)
from .house import House

HOT_TUB_REMOVED = ("noise-violation", "overcrowding", "jealous-rage", "heated-debate",
                   "peer-pressure", "dirty-tricks", "scandal", "fight-club")
"""The disasters the Hot Tub challenge takes out of the deck (by the house deck's ids)."""


@dataclass(frozen=True)
class Clock:
    """The party clock: one icon per half-hour space (space 0 is 12:30, space 23 is 12:00)."""

    name: str
    icons: tuple[str, ...]
    title: str = ""

    def as_document(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"name": self.name}
        if self.title:
            doc["title"] = self.title
        doc["spaces"] = {space_time(i): icon for i, icon in enumerate(self.icons)}
        return doc

    def problems_text(self) -> list[str]:
        """Published facts a clock must respect."""
        return [f"the clock shows {self.icons[i]!r} at {space_time(i)}; Refresh Disasters is "
                f"printed at 3, 6, 9 and 12 o'clock" for i in REFRESH_SPACES
                if self.icons[i] != "refresh_disasters"]


def load_clock(fields: Fields) -> Clock:
    name = fields.text("name", "custom")
    title = fields.text("title", "")
    spaces = fields.table("spaces")
    times = [space_time(i) for i in range(CLOCK_SPACES)]
    icons = []
    for time in times:
        icons.append(spaces.text(time, choices=CLOCK_ICONS))
    spaces.done()
    fields.done()
    return Clock(name, tuple(icons), title)


@dataclass(frozen=True, eq=False)
class Setup:
    """The fixed part of a game.  Equal setups have equal :attr:`fingerprint`."""

    house: House
    cards: Cards
    clock: Clock
    players: tuple[str, ...]
    roommates: tuple[int, ...]
    """The personality of each seat's roommate."""
    difficulty: str = "standard"
    length: str = "casual"
    start: int = 12
    variant: str = "party"
    ordered: bool = False
    """Perfect information: the bag and the decks are in a known order (scenarios)."""
    target: int = 0
    """Photos to win (0: the length's number)."""
    turn_limit: int = 150
    refs: tuple[str | None, str | None, str | None] = (None, None, None)
    """Names of the shipped house, cards and clock this setup uses (``None``: given inline)."""
    _compiled: dict[tuple[str, int, int], CompiledCondition] = field(
        default_factory=dict, repr=False)

    @property
    def num_players(self) -> int:
        return len(self.players)

    @property
    def photos_to_win(self) -> int:
        return self.target or LENGTHS[self.length]

    @property
    def start_space(self) -> int:
        return start_space(self.start)

    @property
    def personal_disasters(self) -> bool:
        return self.difficulty != "easy" or self.variant == "hot-tub"

    @property
    def communal_disaster(self) -> bool:
        if self.variant == "hot-tub":
            return self.difficulty == "hard"
        return self.difficulty != "standard"

    @property
    def uses_photos(self) -> bool:
        return self.variant == "party"

    @cached_property
    def fingerprint(self) -> str:
        data = {"house": self.house.as_document(), "cards": self.cards.as_document(),
                "clock": self.clock.as_document(), "players": list(self.players),
                "roommates": list(self.roommates), "difficulty": self.difficulty,
                "length": self.length, "start": self.start, "variant": self.variant,
                "ordered": self.ordered, "target": self.target,
                "turn_limit": self.turn_limit}
        text = json.dumps(data, sort_keys=True)
        return hashlib.sha1(text.encode()).hexdigest()[:16]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Setup) and other.fingerprint == self.fingerprint

    def __hash__(self) -> int:
        return hash(self.fingerprint)

    def seat_of(self, personality: int) -> int:
        """The seat playing a roommate (``-1``: nobody plays it)."""
        return self.roommates.index(personality) if personality in self.roommates else -1

    def roommate_name(self, seat: int) -> str:
        return f"{self.players[seat]} ({PERSONALITY_KEYS[self.roommates[seat]].replace('_', ' ')})"

    def resolve(self, selector: str) -> tuple[int, ...]:
        """The rooms a condition's room selector names in this house."""
        if selector == "any":
            return tuple(range(self.house.size))
        if selector.startswith("@"):
            room_id = selector[1:]
            return (self.house.index(room_id),) if self.house.has(room_id) else ()
        return self.house.of_kind(selector)

    def condition(self, deck: str, card: int, active: int) -> CompiledCondition:
        """The compiled condition of a photo or disaster, for the active personality."""
        key = (deck, card, active)
        found = self._compiled.get(key)
        if found is None:
            source = self.cards.photos[card] if deck == "photo" else self.cards.disasters[card]
            uses_active = source.condition.uses_active()
            if not uses_active and (deck, card, -1) in self._compiled:
                found = self._compiled[(deck, card, -1)]
            else:
                found = CompiledCondition(source.condition, self.resolve,
                                          active if uses_active else -1)
                self._compiled[(deck, card, active if uses_active else -1)] = found
            self._compiled[key] = found
        return found

    def deck_cards(self, deck: str) -> tuple[int, ...]:
        """The card indices of a full deck in this game (the Hot Tub challenge removes eight
        named disasters)."""
        cards = self.cards.deck(deck)
        if deck == "disaster" and self.variant == "hot-tub":
            return tuple(i for i, c in enumerate(cards) if c.id not in HOT_TUB_REMOVED)
        return tuple(range(len(cards)))

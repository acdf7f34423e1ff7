"""Epic Monster Tea Party: what the game is, as data, and its value types.

Every number here is public (the rulebook's component list); nothing is house data.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from ..protocol import GameInfo

INFO = GameInfo(
    key="tea-party",
    title="Epic Monster Tea Party",
    min_players=2,
    max_players=4,
    chance=True,
    hidden_information=False,
    summary="draw heroes from a bag; cup them for points or squish them for their abilities",
    house_data=None,
)


class Hero(IntEnum):
    """The eight hero types, in the order of their point value."""

    FIGHTER = 0
    CLERIC = 1
    ROGUE = 2
    WIZARD = 3
    RANGER = 4
    BARD = 5
    KING = 6
    QUEEN = 7

    @property
    def points(self) -> int:
        return POINTS[self]

    @property
    def supply(self) -> int:
        return SUPPLY[self]

    @property
    def label(self) -> str:
        return self.name.capitalize()

    @classmethod
    def parse(cls, text: str) -> Hero:
        """A hero from its name, any case, singular or plural ("rangers")."""
        name = text.strip().upper()
        if name not in cls.__members__ and name.endswith("S"):
            name = name[:-1]
        return cls[name]


HEROES = tuple(Hero)
POINTS = (1, 3, 4, 5, 6, 6, 7, 7)
SUPPLY = (15, 9, 7, 5, 4, 1, 1, 1)
TOTAL_HEROES = sum(SUPPLY)

ABILITIES = (Hero.FIGHTER, Hero.CLERIC, Hero.ROGUE, Hero.WIZARD, Hero.BARD)
"""Heroes whose ability can be used; a King or Queen may copy any of these."""

RANK_VALUES = tuple(sorted(set(POINTS), reverse=True))
"""Distinct point values from the highest down, for the tie-break (King and Queen share a rank)."""

Counts = tuple[int, int, int, int, int, int, int, int]
"""How many of each hero type, indexed by :class:`Hero`."""

EMPTY: Counts = (0, 0, 0, 0, 0, 0, 0, 0)


def count_text(counts: Counts) -> str:
    """``2 Fighters, 1 Ranger``; ``nothing`` when empty."""
    parts = [f"{n} {Hero(h).label}{'s' if n > 1 else ''}" for h, n in enumerate(counts) if n]
    return ", ".join(parts) if parts else "nothing"


# -- actions and chance outcomes --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Cup:
    """Put the hero in hand into your teacup."""

    def __str__(self) -> str:
        return "cup"


@dataclass(frozen=True, slots=True)
class Squish:
    """Squish the hero in hand for ``ability`` (its own, or a copied one for King and Queen).

    ``target`` is the player whose teacup is stolen from (Rogue), poured (Wizard) or swapped
    with (Bard), an empty or equal teacup included, and ``take`` the hero a Rogue steals.
    ``target is None`` for an ability with no target (Fighter, Cleric), and for the no-effect
    use of a Rogue (nothing to steal), a Wizard (an empty teacup) or a Bard (a teacup like its
    own) where one exists.
    """

    ability: Hero
    target: int | None = None
    take: Hero | None = None
    copied: bool = False

    def __str__(self) -> str:
        text = "squish"
        if self.copied:
            text += f" as {self.ability.name.lower()}"
        if self.target is not None:
            text += f" on {self.target + 1}"
        if self.take is not None:
            text += f" take {self.take.name.lower()}"
        return text


Move = Cup | Squish


@dataclass(frozen=True, slots=True)
class Draw:
    """Chance: a hero comes out of the bag."""

    hero: Hero

    def __str__(self) -> str:
        return f"draw {self.hero.name.lower()}"


@dataclass(frozen=True, slots=True)
class ThrowUp:
    """Chance: the heroes a monster throws up after drinking a Ranger."""

    heroes: tuple[Hero, ...]

    def __str__(self) -> str:
        return "throw up " + " ".join(h.name.lower() for h in self.heroes)



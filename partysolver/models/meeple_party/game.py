"""Meeple Party: what the game is, as data, and its value types.

Public numbers (the rulebook's component list): 5 roommates (one per personality), 30 guests
(6 of each personality), 5 white surprise meeples (3 in the bag, 2 by the clock), 68 photo,
24 disaster and 32 surprise cards, 3 stress per roommate, the required rooms, the six clock
icons and where Refresh Disasters sits (3, 6, 9 and 12 o'clock).  The card texts, the other
clock icons' places, the optional rooms and the pillows per bedroom are not public: this package
ships *house* versions of them (see ``partysolver/puzzles/meeple-party/``), labelled as such.

A *piece* is what a room can hold, counted: a guest of a personality, a white surprise meeple, a
roommate of a personality, each standing or laid down, and the two pets.  Rooms hold counts of
pieces, never individual meeples (identical meeples in a room are one choice).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from ..protocol import GameInfo

INFO = GameInfo(
    key="meeple-party",
    title="Meeple Party",
    min_players=1,
    max_players=5,
    chance=True,
    hidden_information=False,
    summary="cooperative: welcome and mingle meeples through a house to take photos "
            "and avoid disasters before every roommate stresses out",
    house_data="card texts (68 photos, 24 disasters, 32 surprises), the clock's icons other "
               "than Refresh Disasters, the houses (the easy house is derived from the "
               "rulebook's movement examples) and 2 pillows per bedroom are house data; load "
               "your own cards, clock and house in the same formats",
)


class Personality(IntEnum):
    """The five personalities of guests and roommates, in the rulebook's table order."""

    FLIRT = 0
    PARTY_ANIMAL = 1
    COOL = 2
    WALLFLOWER = 3
    JERK = 4

    @property
    def key(self) -> str:
        return self.name.lower()

    @property
    def label(self) -> str:
        return self.name.replace("_", " ").title()

    @classmethod
    def parse(cls, text: str) -> Personality:
        name = text.strip().upper().replace(" ", "_").replace("-", "_")
        if name not in cls.__members__ and name.endswith("S"):
            name = name[:-1]
        return cls[name]


PERSONALITIES = tuple(Personality)
PERSONALITY_KEYS = tuple(p.key for p in PERSONALITIES)

# -- pieces -----------------------------------------------------------------------------------

WHITE = 5
"""The bag kind (and piece) of a white surprise meeple; bag kinds 0-4 are the personalities."""

BAG_KINDS = (*PERSONALITY_KEYS, "white")
"""What can be drawn from the bag, by kind index."""

LAID = 6
"""Offset from a standing guest (or white) piece to the same meeple laid down."""

ROOMMATE = 12
"""Piece of the standing roommate of personality ``p`` is ``ROOMMATE + p``."""

LAID_ROOMMATE = 17
CAT = 22
DOG = 23
PIECES = 24
BITS = 3
"""Each piece count in a room is a 3-bit field (no piece exceeds 6 in one room)."""

STANDING_PIECES = (0, 1, 2, 3, 4, 5, 12, 13, 14, 15, 16, CAT, DOG)
LAID_PIECES = (6, 7, 8, 9, 10, 11, 17, 18, 19, 20, 21)
REMOVABLE = (0, 1, 2, 3, 4, 5)
"""Standing guests and whites: the only meeples a surprise may remove (never roommates,
laid-down meeples or pets)."""

SUPPLY_GUESTS = 6
"""Guests of each personality in the game."""
SUPPLY_WHITES = 5
WHITES_IN_BAG = 3
MAX_STRESS = 3
PILLOWS_PER_BEDROOM = 2
"""House data: the rulebook's table (5 players need 3 bedrooms) fits 2 pillows per bedroom."""


def is_laid(piece: int) -> bool:
    return LAID <= piece < ROOMMATE or LAID_ROOMMATE <= piece < CAT


def laid_of(piece: int) -> int:
    """The laid-down piece of a standing guest, white or roommate."""
    return piece + LAID if piece < LAID else piece + (LAID_ROOMMATE - ROOMMATE)


def standing_of(piece: int) -> int:
    return piece - LAID if piece < ROOMMATE else piece - (LAID_ROOMMATE - ROOMMATE)


def is_roommate(piece: int) -> bool:
    return ROOMMATE <= piece < CAT


def personality_of(piece: int) -> int | None:
    """The personality a piece counts as (``None``: a white meeple or a pet)."""
    if piece < LAID:
        return piece if piece < WHITE else None
    if piece < ROOMMATE:
        base = piece - LAID
        return base if base < WHITE else None
    if piece < LAID_ROOMMATE:
        return piece - ROOMMATE
    if piece < CAT:
        return piece - LAID_ROOMMATE
    return None


def piece_key(piece: int) -> str:
    """The piece's name in files: ``flirt``, ``white``, ``roommate_cool``, ``cat``; laid-down
    pieces have the same name (files list them under ``laid``)."""
    if piece in (CAT, DOG):
        return "cat" if piece == CAT else "dog"
    base = standing_of(piece) if is_laid(piece) else piece
    if base < ROOMMATE:
        return BAG_KINDS[base]
    return "roommate_" + PERSONALITY_KEYS[base - ROOMMATE]


def piece_label(piece: int) -> str:
    """``Flirt``, ``White surprise``, ``Cool roommate``, ``Cat``; ``laid-down`` prefix."""
    prefix = "laid-down " if is_laid(piece) else ""
    base = standing_of(piece) if is_laid(piece) else piece
    if base == CAT:
        return "Cat"
    if base == DOG:
        return "Dog"
    if base == WHITE:
        return prefix + "White surprise"
    if base < WHITE:
        return prefix + Personality(base).label
    return prefix + Personality(base - ROOMMATE).label + " roommate"


def parse_piece(text: str) -> int:
    """A standing piece from its file name (``KeyError`` when unknown)."""
    name = text.strip().lower().replace(" ", "_").replace("-", "_")
    if name == "cat":
        return CAT
    if name == "dog":
        return DOG
    if name.startswith("roommate_"):
        return ROOMMATE + int(Personality.parse(name[len("roommate_"):]))
    if name in ("white", "whites", "surprise"):
        return WHITE
    return int(Personality.parse(name))


# -- rooms ------------------------------------------------------------------------------------

REQUIRED_KINDS = ("kitchen", "living_room", "dining_room", "bathroom", "bedroom", "door",
                  "outside")
OPTIONAL_KINDS = ("garage", "hot_tub", "office", "other")
ROOM_KINDS = REQUIRED_KINDS + OPTIONAL_KINDS
KIND_LABELS = {kind: kind.replace("_", " ").title() for kind in ROOM_KINDS}

BEDROOMS_NEEDED = {1: 1, 2: 1, 3: 2, 4: 2, 5: 3}
"""The rulebook's setup table: bedrooms required by the number of players."""
MIN_TILES = 8

# -- the party clock --------------------------------------------------------------------------

CLOCK_ICONS = ("surprise", "add_surprise", "welcome", "add_guest", "lay_down",
               "refresh_disasters", "none")
CLOCK_SPACES = 24
"""Half-hour spaces: a casual party (6 hours) takes 12 photos."""
REFRESH_SPACES = (5, 11, 17, 23)
"""3:00, 6:00, 9:00 and 12:00 (space ``i`` is ``(i + 1) / 2`` hours after 12 o'clock)."""
START_TIMES = (3, 6, 9, 12)
LENGTHS = {"casual": 12, "serious": 18, "epic": 24}
"""Photos needed to win."""
DIFFICULTIES = ("easy", "standard", "hard")
VARIANTS = ("party", "hot-tub")
TURN_LIMIT = 150
"""Sunrise (house rule): a party not won after this many turns is lost (the rulebook needs no
such rule; it guarantees every simulated game ends)."""


def space_time(space: int) -> str:
    """``3:00`` for space 5."""
    half_hours = space + 1
    hour = (half_hours // 2) % 12 or 12
    return f"{hour}:{'30' if half_hours % 2 else '00'}"


def start_space(hour: int) -> int:
    return (2 * hour - 1) % CLOCK_SPACES


# -- value types: the moves of a turn -----------------------------------------------------------


@dataclass(frozen=True, slots=True, order=True)
class Step:
    """One meeple moved by a meeple action (a pull or a push): ``piece`` from ``src`` to ``dst``."""

    piece: int
    src: int
    dst: int

    def __str__(self) -> str:
        return f"{piece_key(self.piece)}:{self.src}>{self.dst}"


@dataclass(frozen=True, slots=True)
class Welcome:
    """Place the drawn guest in ``room`` and carry out its action with ``steps``."""

    room: int
    steps: tuple[Step, ...] = ()

    def __str__(self) -> str:
        return f"welcome@{self.room}" + "".join(f" {s}" for s in self.steps)


@dataclass(frozen=True, slots=True)
class Mingle:
    """Move a standing ``piece`` from ``src`` to ``dst``, then its action with ``steps``.

    ``as_kind`` is the personality a mingled Cat acts as (``-1`` otherwise)."""

    piece: int
    src: int
    dst: int
    steps: tuple[Step, ...] = ()
    as_kind: int = -1

    def __str__(self) -> str:
        cat = f" as {PERSONALITY_KEYS[self.as_kind]}" if self.as_kind >= 0 else ""
        return (f"mingle {piece_key(self.piece)}:{self.src}>{self.dst}{cat}"
                + "".join(f" {s}" for s in self.steps))


@dataclass(frozen=True, slots=True)
class StandUp:
    """Spend the mingle standing a laid-down ``piece`` in ``room`` up (no action)."""

    piece: int
    room: int

    def __str__(self) -> str:
        return f"stand-up {piece_key(self.piece)}@{self.room}"


Slot = tuple[str, int, int]
"""A card at the table: ``("photo", seat, i)``, ``("disaster", seat, 0)`` or
``("communal", -1, 0)``."""


@dataclass(frozen=True, slots=True)
class Refresh:
    """The optional stress refresh: take 1 stress to replace the card in ``slot``
    (``None``: no refresh)."""

    slot: Slot | None = None

    def __str__(self) -> str:
        if self.slot is None:
            return "no-refresh"
        kind, seat, index = self.slot
        return f"refresh {kind}:{seat}:{index}"


@dataclass(frozen=True, slots=True)
class Pick:
    """A choice inside a surprise or a clock icon: rooms (``from``/``to`` of a move, a door) and
    the meeples picked, as ``(room, piece)`` pairs (repeated for several of one kind)."""

    rooms: tuple[int, ...] = ()
    meeples: tuple[tuple[int, int], ...] = ()

    def __str__(self) -> str:
        parts = [f"@{r}" for r in self.rooms]
        parts += [f"{piece_key(p)}@{r}" for r, p in self.meeples]
        return "pick " + (" ".join(parts) if parts else "nothing")


@dataclass(frozen=True, slots=True)
class Drawn:
    """Chance: the meeple drawn from the bag (a bag kind, or ``-1`` when the bag is empty)."""

    kind: int

    def __str__(self) -> str:
        return f"draw {BAG_KINDS[self.kind] if self.kind >= 0 else 'nothing'}"


@dataclass(frozen=True, slots=True)
class Dealt:
    """Chance: the card turned from a deck (``-1``: the deck is empty)."""

    deck: str
    card: int

    def __str__(self) -> str:
        return f"{self.deck} {self.card}"


Move = Welcome | Mingle | StandUp | Refresh | Pick

"""Party-Time: what the game is, as data, and its value types.

The publisher has not published the track (its length and colour order) nor how many of each card
the 48-card deck holds: :data:`HOUSE_RULES` is this package's *house* board and deck, labelled as
such everywhere.  Users give their own board and deck in the same format (``[rules]`` in a
position file, or a rules file for ``simulate``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Literal

from ..protocol import GameInfo

INFO = GameInfo(
    key="party-time",
    title="Party-Time",
    min_players=2,
    max_players=6,
    chance=True,
    hidden_information=True,
    summary="move the champagne bottle round the track; whoever carries it over the star "
            "loses a garment strip",
    house_data="the track (24 squares: the star, 6 dark green, 6 red, 11 light green) and the deck "
               "(48 cards: 8 of each number 1-5, 2 of each special card) are house data; the "
               "publisher's layout and card mix are not public",
)

STRIPS = 4
"""Garment strips per player (hat, jacket, trousers, shoes)."""

MAX_TOKENS = 3
"""A player who would hold more tokens than this loses them all."""

HAND_SIZE = 3
TOKEN_SUPPLY = 20
DECK_SIZE = 48
"""The published deck size (a user's own deck may differ; the house deck respects it)."""

STRIP_NAMES = ("hat", "jacket", "trousers", "shoes")


class Card(IntEnum):
    """The card types: the five number cards, then the four special cards."""

    ONE = 0
    TWO = 1
    THREE = 2
    FOUR = 3
    FIVE = 4
    R = 5
    """The bottle stays; the player on the right (the one who played before) goes next."""
    BLACK = 6
    """The black square: the next player removes a strip, then takes their turn."""
    STAR = 7
    """The bottle moves onto the star."""
    QUESTION = 8
    """The question mark: the next player carries out the top card of the pile."""

    @property
    def number(self) -> int:
        """The number printed on a number card (0 for a special card)."""
        return self + 1 if self <= Card.FIVE else 0

    @property
    def is_number(self) -> bool:
        return self <= Card.FIVE

    @property
    def notation(self) -> str:
        return NOTATION[self]

    @property
    def label(self) -> str:
        """The card in words: "the 3", "the R card", "the black square"."""
        return LABELS[self]

    def __str__(self) -> str:
        return NOTATION[self]

    @classmethod
    def parse(cls, text: object) -> Card:
        """A card from its notation or a name ("3", "R", "black", "star", "?", "question")."""
        if isinstance(text, bool):
            raise KeyError(text)
        key = str(text).strip().lower()
        if key in ALIASES:
            return ALIASES[key]
        raise KeyError(text)


CARDS = tuple(Card)
NUMBERS = CARDS[: Card.FIVE + 1]
SPECIALS = CARDS[Card.R:]
NOTATION = ("1", "2", "3", "4", "5", "R", "black", "star", "?")
LABELS = ("the 1", "the 2", "the 3", "the 4", "the 5", "the R card", "the black square",
          "the star card", "the question mark")
ALIASES: dict[str, Card] = {
    **{name.lower(): card for card, name in zip(CARDS, NOTATION, strict=True)},
    "one": Card.ONE, "two": Card.TWO, "three": Card.THREE, "four": Card.FOUR, "five": Card.FIVE,
    "r-card": Card.R, "reverse": Card.R, "cocktail": Card.R,
    "black-square": Card.BLACK, "square": Card.BLACK,
    "question": Card.QUESTION, "question-mark": Card.QUESTION,
}

Counts = tuple[int, ...]
"""How many of each card type, indexed by :class:`Card` (length 9)."""

NO_CARDS: Counts = (0,) * len(CARDS)


COUNT_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
               "ten", "eleven", "twelve")
CARD_NOUNS = ("1", "2", "3", "4", "5", "R", "black square", "star card", "question mark")


def count_text(counts: Counts) -> str:
    """The cards in words: ``two 3s, one R, one question mark``; ``no cards`` when empty."""
    parts = []
    for card, n in enumerate(counts):
        if n:
            count = COUNT_WORDS[n] if n < len(COUNT_WORDS) else f"{n:,}"
            parts.append(f"{count} {CARD_NOUNS[card]}{'s' if n > 1 else ''}")
    return ", ".join(parts) if parts else "no cards"


def cards_of(counts: Counts) -> list[Card]:
    """The cards of a count tuple, one entry per card, in type order."""
    return [Card(c) for c, n in enumerate(counts) for _ in range(n)]


def counts_of(cards: Sequence[int]) -> Counts:
    found = [0] * len(CARDS)
    for card in cards:
        found[card] += 1
    return tuple(found)


# -- the track ----------------------------------------------------------------------------------

STAR = "*"
GAIN = "+"
"""A dark green square: the mover gains a token."""
RETURN = "-"
"""A red square: the mover returns a token, if they have one."""
PLAIN = "."
"""A light green square: nothing happens."""
SQUARES = {STAR: "star", GAIN: "dark green", RETURN: "red", PLAIN: "light green"}

RCard = Literal["right", "reverse"]
R_CARD_RULES: tuple[RCard, ...] = ("right", "reverse")
"""``right``: the rulebook's R card (the player on the right goes next, play stays clockwise);
``reverse``: the variant in which the R card reverses the direction of play."""


@dataclass(frozen=True, slots=True)
class Rules:
    """A board, a deck and the R-card rule: everything that differs between tables."""

    board: str
    """The track from the star clockwise, one symbol per square: ``*`` (the star, first and
    only there), ``+`` dark green, ``-`` red, ``.`` light green."""
    deck: Counts
    """How many cards of each :class:`Card` type the deck holds."""
    r_card: RCard = "right"

    @property
    def length(self) -> int:
        return len(self.board)

    @property
    def deck_size(self) -> int:
        return sum(self.deck)

    def square(self, position: int) -> str:
        """The symbol of the square the bottle stands on (positions run 0..length)."""
        return self.board[position % len(self.board)]

    def square_name(self, position: int) -> str:
        return SQUARES[self.square(position)]

    def is_house(self) -> bool:
        return self == HOUSE_RULES


HOUSE_BOARD = "*.+.-.+..-+..+-.+.-.+-.-"
"""The house track: 24 squares, the star, then clockwise 6 dark green (``+``), 6 red (``-``)
and 11 light green (``.``) squares.  House data, not the publisher's."""

HOUSE_DECK: Counts = (8, 8, 8, 8, 8, 2, 2, 2, 2)
"""The house deck: 8 of each number card and 2 of each special card, 48 in all."""

HOUSE_RULES = Rules(HOUSE_BOARD, HOUSE_DECK, "right")


# -- actions and chance outcomes -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``card`` (from hand, or the card just revealed) returning ``tokens`` tokens.

    Notation: the card, then ``-k`` when ``k`` tokens are returned: ``3``, ``3-1``, ``R``.
    """

    card: Card
    tokens: int = 0

    def __str__(self) -> str:
        return self.card.notation + (f"-{self.tokens}" if self.tokens else "")

    @property
    def moves(self) -> int:
        """How many squares the bottle moves (special cards: 0)."""
        return self.card.number - self.tokens if self.card.is_number else 0


@dataclass(frozen=True, slots=True)
class Draw:
    """Chance: the player drawing back to three cards takes ``card`` from the pile."""

    card: Card

    def __str__(self) -> str:
        return f"draw {self.card.notation}"


@dataclass(frozen=True, slots=True)
class Reveal:
    """Chance: the player hit by a question mark turns over ``card``, the top of the pile."""

    card: Card

    def __str__(self) -> str:
        return f"reveal {self.card.notation}"


PLAYS: dict[tuple[int, int], Play] = {(c, k): Play(Card(c), k)
                                      for c in range(len(CARDS)) for k in range(6)
                                      if k == 0 or (Card(c).is_number and k <= Card(c).number)}
"""Every play, shared (the engine hands out these objects)."""

DRAWS = tuple(Draw(card) for card in CARDS)
REVEALS = tuple(Reveal(card) for card in CARDS)

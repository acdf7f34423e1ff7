"""Pool Party Stars: what the game is, as data, and its value types.

Guests carry three attributes, one per category (species, outfit, item); a secret rule forbids
one of the twelve attributes.  The rulebook lists the attributes and the 40-card deck size but
not which 40 of the 64 possible guests are in the box: :data:`HOUSE_DECK` is *house data*, a
deck in which each attribute is on exactly 10 cards, as the spec requires.

Notation (``str`` of every value type, parsed back by the ``parse_*`` functions):

* a guest: ``Animal-Swimsuit-Drink`` (species, outfit, item; any order and case when parsed,
  separated by ``-``, ``/``, spaces or an en dash);
* a rule: the attribute it forbids, ``Animal`` (``Forbidden Animal`` is accepted);
* events, with player names: ``Dani proposes Animal-Swimsuit-Food: Lari lets in, Ana bars``
  and ``Lari guesses Ana is Animal: right`` (see :func:`parse_event`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from functools import cache

from ..protocol import GameInfo

HOUSE_DECK_NOTE = ("house guest deck: 40 of the 64 possible guests, each attribute on exactly "
                   "10 cards (the publisher's card list is not public)")

INFO = GameInfo(
    key="pool-party-stars",
    title="Pool Party Stars",
    min_players=2,
    max_players=6,
    chance=True,
    hidden_information=True,
    summary="propose guests, read who bars them, and deduce everyone's secret rule",
    house_data=HOUSE_DECK_NOTE,
)

HAND_SIZE = 3
RULE_COUNT = 12
ALL_RULES = (1 << RULE_COUNT) - 1
"""The bit mask of all twelve rules (bit ``a`` is rule :class:`Attribute` ``a``)."""


class Attribute(IntEnum):
    """The twelve attributes; a secret rule forbids exactly one of them."""

    ANIMAL = 0
    MONSTER = 1
    ROBOT = 2
    PLANT = 3
    SWIMSUIT = 4
    SPORT = 5
    COSTUME = 6
    PAJAMAS = 7
    DRINK = 8
    FOOD = 9
    BOOK = 10
    GIFT = 11

    @property
    def label(self) -> str:
        return _LABELS[self]

    @property
    def category(self) -> int:
        """0 species, 1 outfit, 2 item."""
        return self.value // 4

    @property
    def bit(self) -> int:
        return 1 << self

    def __str__(self) -> str:
        return self.label


ATTRIBUTES = tuple(Attribute)
_LABELS = tuple(a.name.capitalize() for a in ATTRIBUTES)
SPECIES = ATTRIBUTES[0:4]
OUTFITS = ATTRIBUTES[4:8]
ITEMS = ATTRIBUTES[8:12]


def parse_rule(text: str) -> Attribute:
    """A rule from its attribute's name, any case, with or without ``Forbidden``."""
    words = text.strip().split()
    if len(words) == 2 and words[0].lower() == "forbidden":
        words = words[1:]
    if len(words) != 1 or words[0].upper() not in Attribute.__members__:
        raise ValueError(f"a rule: one of {', '.join(a.label for a in ATTRIBUTES)}")
    return Attribute[words[0].upper()]


def rules_text(mask: int) -> str:
    """``Animal, Food or Book`` for a mask of rules; ``no rule`` when empty."""
    names = [a.label for a in ATTRIBUTES if mask >> a & 1]
    if not names:
        return "no rule"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


@dataclass(frozen=True, slots=True)
class Guest:
    """A guest card: one species, one outfit and one item."""

    species: Attribute
    outfit: Attribute
    item: Attribute
    id: int = field(init=False, compare=False, repr=False)
    """0..63: species, outfit and item as base-4 digits."""
    mask: int = field(init=False, compare=False, repr=False)
    """The rules that bar this guest (bit ``a`` for attribute ``a``)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "id", 16 * self.species + 4 * (self.outfit - 4)
                           + (self.item - 8))
        object.__setattr__(self, "mask", (1 << self.species) | (1 << self.outfit)
                           | (1 << self.item))

    @property
    def attributes(self) -> tuple[Attribute, Attribute, Attribute]:
        return (self.species, self.outfit, self.item)

    def __str__(self) -> str:
        return _GUEST_NAMES[self.id]


GUESTS = tuple(Guest(s, o, i) for s in SPECIES for o in OUTFITS for i in ITEMS)
"""All 64 possible guests, indexed by :attr:`Guest.id`."""
_GUEST_NAMES = tuple(f"{g.species.label}-{g.outfit.label}-{g.item.label}" for g in GUESTS)
GUEST_MASKS = tuple(g.mask for g in GUESTS)

_SEPARATORS = re.compile(r"[\s/\u2013\u2014-]+")


@cache
def parse_guest(text: str) -> Guest:
    """A guest from its three attribute names (one per category, any order or case)."""
    words = [w for w in _SEPARATORS.split(text.strip()) if w]
    expected = "a guest: a species, an outfit and an item, as in 'Animal-Swimsuit-Drink'"
    if len(words) != 3 or any(w.upper() not in Attribute.__members__ for w in words):
        raise ValueError(expected)
    found = sorted((Attribute[w.upper()] for w in words), key=lambda a: a.category)
    if [a.category for a in found] != [0, 1, 2]:
        raise ValueError(expected + " (one of each)")
    return Guest(*found)


def house_deck() -> tuple[Guest, ...]:
    """The house deck (house data), 40 distinct guests with each attribute on 10 of them.

    Writing species, outfit and item as numbers 0..3, it holds every guest whose item is the
    species plus the outfit, or one more (mod 4) -- 32 guests with every attribute 8 times --
    and the 8 guests whose item is two more and whose outfit is the species or one more, which
    adds every attribute twice.
    """
    chosen = []
    for guest in GUESTS:
        s, o, i = guest.species, guest.outfit - 4, guest.item - 8
        shift = (i - s - o) % 4
        if shift in (0, 1) or (shift == 2 and (o - s) % 4 in (0, 1)):
            chosen.append(guest)
    return tuple(chosen)


HOUSE_DECK = house_deck()


def deck_problems(deck: Sequence[Guest], players: int) -> list[str]:
    """What keeps ``deck`` from dealing a game for ``players`` players."""
    if len(deck) < HAND_SIZE * players:
        return [f"the deck holds {len(deck)} guests: too few to deal {HAND_SIZE} to each of "
                f"{players} players"]
    return []


# -- actions and chance outcomes --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Propose:
    """Place a guest from your hand in the centre of the table."""

    guest: Guest

    def __str__(self) -> str:
        return f"propose {self.guest}"


@dataclass(frozen=True, slots=True)
class Guess:
    """Say which secret rule ``target`` (a seat) holds."""

    target: int
    rule: Attribute

    def __str__(self) -> str:
        return f"guess seat {self.target + 1} is {self.rule.label}"


Move = Propose | Guess


@dataclass(frozen=True, slots=True)
class DrawGuest:
    """Chance: the proposer draws a guest from the deck."""

    guest: Guest

    def __str__(self) -> str:
        return f"draw {self.guest}"


@dataclass(frozen=True, slots=True)
class DrawRule:
    """Chance: the player whose rule was guessed draws a new rule."""

    rule: Attribute

    def __str__(self) -> str:
        return f"draw rule {self.rule.label}"


# -- events: what everyone sees -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Answer:
    """One asked player's answer to a proposal: ``bars`` or lets the guest in."""

    seat: int
    bars: bool


@dataclass(frozen=True, slots=True)
class Proposal:
    """A guest proposed and the answers given, clockwise from the proposer's left."""

    proposer: int
    guest: Guest
    answers: tuple[Answer, ...]

    @property
    def barred_by(self) -> int | None:
        for answer in self.answers:
            if answer.bars:
                return answer.seat
        return None

    @property
    def actor(self) -> int:
        return self.proposer


@dataclass(frozen=True, slots=True)
class GuessOutcome:
    """A guess of ``target``'s rule and whether it was right."""

    guesser: int
    target: int
    rule: Attribute
    right: bool

    @property
    def actor(self) -> int:
        return self.guesser


Event = Proposal | GuessOutcome


def asked_order(proposer: int, players: int) -> tuple[int, ...]:
    """The players asked about a proposal, clockwise from the proposer's left."""
    return tuple((proposer + k) % players for k in range(1, players))


def answers_for(proposer: int, mask: int, rules: Sequence[int]) -> tuple[Answer, ...]:
    """The honest answers to a guest barred by the rules in ``mask``: asking stops at the
    first bar."""
    answers = []
    for seat in asked_order(proposer, len(rules)):
        bars = bool(mask >> rules[seat] & 1)
        answers.append(Answer(seat, bars))
        if bars:
            break
    return tuple(answers)


# -- event notation -------------------------------------------------------------------------------

NAME = re.compile(r"[^\s:,]+")
RESERVED_NAMES = frozenset({"everyone", "nobody"})
"""Words of the answers' notation that cannot name a player (nor can a number: seats are
numbered in the move notation)."""

_PROPOSAL = re.compile(r"^\s*(\S+)\s+proposes\s+(.+?)\s*:\s*(.*?)\s*$", re.IGNORECASE)
_GUESS = re.compile(r"^\s*(\S+)\s+guesses\s+(\S+)\s+is\s+(.+?)\s*:\s*(\S+)\s*$", re.IGNORECASE)
_ANSWER = re.compile(r"^(\S+)\s+(lets\s+in|let\s+in|in|bars|barred|out)$", re.IGNORECASE)
EVENT_FORMS = ("'NAME proposes GUEST: NAME lets in, NAME bars' or "
               "'NAME guesses NAME is RULE: right|wrong'")


def _seat(name: str, names: Sequence[str]) -> int:
    if name not in names:
        raise ValueError(f"a player name ({', '.join(names)}), not {name!r}")
    return names.index(name)


@cache
def parse_event(text: str, names: tuple[str, ...]) -> Event:
    """An event from its notation; ``ValueError`` says what was expected."""
    match = _GUESS.match(text)
    if match:
        guesser, target = _seat(match[1], names), _seat(match[2], names)
        outcome = match[4].lower()
        if outcome not in ("right", "wrong"):
            raise ValueError(f"'right' or 'wrong' after the guess, not {match[4]!r}")
        return GuessOutcome(guesser, target, parse_rule(match[3]), outcome == "right")
    match = _PROPOSAL.match(text)
    if not match:
        raise ValueError(EVENT_FORMS)
    proposer = _seat(match[1], names)
    guest = parse_guest(match[2])
    return Proposal(proposer, guest, _parse_answers(match[3], proposer, names))


def _parse_answers(text: str, proposer: int, names: Sequence[str]) -> tuple[Answer, ...]:
    order = asked_order(proposer, len(names))
    if text.lower().replace("  ", " ") in ("everyone lets in", "all in", "everyone in"):
        return tuple(Answer(seat, False) for seat in order)
    answers = []
    for part in text.split(","):
        match = _ANSWER.match(part.strip())
        if not match:
            raise ValueError(f"answers as 'NAME lets in' or 'NAME bars', separated by commas, "
                             f"or 'everyone lets in'; not {part.strip()!r}")
        bars = match[2].lower() in ("bars", "barred", "out")
        answers.append(Answer(_seat(match[1], names), bars))
    if len(answers) == 1 and answers[0].bars and answers[0].seat in order:
        # Shorthand: "Ana bars" means everyone asked before Ana let the guest in.
        before = order[: order.index(answers[0].seat)]
        return tuple(Answer(seat, False) for seat in before) + (answers[0],)
    return tuple(answers)


def format_event(event: Event, names: Sequence[str]) -> str:
    """The notation of ``event`` (answers always written in full)."""
    if isinstance(event, GuessOutcome):
        return (f"{names[event.guesser]} guesses {names[event.target]} is {event.rule.label}: "
                f"{'right' if event.right else 'wrong'}")
    answers = ", ".join(f"{names[a.seat]} {'bars' if a.bars else 'lets in'}"
                        for a in event.answers)
    return f"{names[event.proposer]} proposes {event.guest}: {answers}"


def format_move(move: Move, names: Sequence[str]) -> str:
    """The notation of a move: ``propose Plant-Sport-Book`` or ``guess Ben Robot``."""
    if isinstance(move, Propose):
        return f"propose {move.guest}"
    return f"guess {names[move.target]} {move.rule.label}"


_MOVE = re.compile(r"^\s*(propose|guess)\s+(.+?)\s*$", re.IGNORECASE)
MOVE_FORMS = "'propose GUEST' or 'guess NAME RULE'"


def parse_move(text: str, names: tuple[str, ...]) -> Move:
    """A move from :func:`format_move`'s notation (``guess NAME is RULE`` is accepted too);
    ``ValueError`` says what was expected."""
    found = _MOVE.match(text)
    if not found:
        raise ValueError(MOVE_FORMS)
    if found[1].lower() == "propose":
        return Propose(parse_guest(found[2]))
    words = found[2].split()
    if len(words) >= 3 and words[1].lower() == "is":
        words = [words[0], *words[2:]]
    if len(words) < 2:
        raise ValueError(MOVE_FORMS)
    return Guess(_seat(words[0], names), parse_rule(" ".join(words[1:])))


# -- the table and the public record --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Table:
    """What does not change during a game: the players in clockwise order (first player
    first), the guest deck (sorted by id) and whether the competitive rule is on."""

    players: tuple[str, ...]
    deck: tuple[Guest, ...] = HOUSE_DECK
    competitive: bool = False

    @property
    def size(self) -> int:
        return len(self.players)

    @property
    def house_deck(self) -> bool:
        return self.deck == HOUSE_DECK

    def turn_of(self, event_index: int) -> int:
        """The seat that acts in event ``event_index`` (turns go clockwise)."""
        return event_index % len(self.players)


def variety(guests: Sequence[Guest]) -> tuple[int, int, int]:
    """How many different species, outfits and items are among ``guests``."""
    return (len({g.species for g in guests}), len({g.outfit for g in guests}),
            len({g.item for g in guests}))


def standing(vips: Sequence[Guest]) -> tuple[int, int, int, int]:
    """The end-of-game ranking key: VIPs, then variety of species, outfits and items."""
    return (len(vips), *variety(vips))


def vip_to_lose(vips: Sequence[Guest]) -> int:
    """Which VIP a wrong guesser loses in competitive mode (house rule: the one whose loss
    keeps the best variety for the tie-break; the earliest acquired among equals)."""
    best, best_key = 0, (-1, -1, -1)
    for index in range(len(vips)):
        key = variety([g for k, g in enumerate(vips) if k != index])
        if key > best_key:
            best, best_key = index, key
    return best


@dataclass(frozen=True, slots=True)
class Public:
    """What every player sees, replayed from the events: the waiting line (front first), the
    VIPs of each player (in the order acquired), the VIPs lost in competitive mode, and the
    hand sizes and deck size once every due draw is made."""

    waiting: tuple[Guest, ...]
    vips: tuple[tuple[Guest, ...], ...]
    lost: tuple[Guest, ...]
    hand_sizes: tuple[int, ...]
    deck_left: int

    @classmethod
    def deal(cls, table: Table) -> Public:
        n = table.size
        hands = min(HAND_SIZE, len(table.deck) // max(n, 1))
        return cls((), ((),) * n, (), (hands,) * n, len(table.deck) - hands * n)

    def after(self, event: Event, competitive: bool) -> Public:
        """The record after ``event`` (and the proposer's draw, when the deck has a card)."""
        waiting, vips, lost = self.waiting, list(self.vips), self.lost
        hands, deck = list(self.hand_sizes), self.deck_left
        if isinstance(event, Proposal):
            p = event.proposer
            hands[p] -= 1
            if event.barred_by is None:
                vips[p] += (event.guest,)
            else:
                waiting += (event.guest,)
            if deck > 0:
                hands[p] += 1
                deck -= 1
        elif event.right:
            taken = (len(waiting) + 1) // 2
            vips[event.guesser] += waiting[:taken]
            waiting = waiting[taken:]
        elif competitive and vips[event.guesser]:
            mine = vips[event.guesser]
            index = vip_to_lose(mine)
            lost += (mine[index],)
            vips[event.guesser] = mine[:index] + mine[index + 1:]
        return Public(waiting, tuple(vips), lost, tuple(hands), deck)

    def seen(self) -> tuple[Guest, ...]:
        """Every guest ever proposed (in the waiting line, a VIP or lost)."""
        return self.waiting + tuple(g for mine in self.vips for g in mine) + self.lost


def replay(table: Table, events: Sequence[Event]) -> Public:
    record = Public.deal(table)
    for event in events:
        record = record.after(event, table.competitive)
    return record


def win_shares(vips: Sequence[Sequence[Guest]]) -> tuple[float, ...]:
    """1 to the single best standing; ``1/k`` each to ``k`` players tied all the way."""
    standings = [standing(mine) for mine in vips]
    best = max(standings)
    winners = standings.count(best)
    return tuple(1.0 / winners if s == best else 0.0 for s in standings)

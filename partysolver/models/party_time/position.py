"""Party-Time position files: the schema, the loader, the writer and the rule checks.

A position is seen from one seat (``me``): that player's hand, the played cards, every player's
tokens and strips, the bottle, whose turn it is and the direction of play.  Giving every
player's hand instead makes it a full position (what ``simulate`` and the tests produce).  The
pile is never written: it is the deck minus everything else.  Board, deck and R-card rule are
the house ones unless a ``[rules]`` table gives others.  See ``docs/formats.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..documents import Fields, item_path
from ..errors import InputError, Problem, require_no_problems
from ..words import plural
from .game import (
    CARDS,
    HAND_SIZE,
    HOUSE_RULES,
    INFO,
    MAX_TOKENS,
    NO_CARDS,
    NOTATION,
    R_CARD_RULES,
    SQUARES,
    STAR,
    STRIPS,
    Card,
    Counts,
    Rules,
    cards_of,
    count_text,
)
from .state import (
    CARRY_OUT,
    DRAW,
    OVER,
    PHASE_NAMES,
    PLAY,
    REVEAL,
    PartyTimeState,
    PartyTimeView,
    add_card,
    add_counts,
    has_choice,
    sub_counts,
)

DEFAULT_NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")
DIRECTIONS = {"clockwise": 1, "counterclockwise": -1}
STEPS = {name: phase for phase, name in enumerate(PHASE_NAMES)}


@dataclass(frozen=True, slots=True)
class Position:
    """A loaded position file, before it is checked against the rules."""

    rules: Rules
    players: tuple[str, ...]
    me: int
    turn: int
    phase: int
    drawing: int
    """The player who played from hand and has not drawn back to three yet (-1: nobody)."""
    revealed: int
    direction: int
    square: int
    untouched: bool
    hands: tuple[Counts | None, ...]
    """Each player's hand, ``None`` where it is not given (it is unseen from ``me``)."""
    played: Counts
    tokens: tuple[int, ...]
    strips: tuple[int, ...]

    # -- derived ------------------------------------------------------------------------------

    @property
    def bottle(self) -> int:
        """The engine's count of the bottle's place (see :mod:`.state`)."""
        if self.square == 0 and not self.untouched:
            return self.rules.length
        return self.square

    def is_full(self) -> bool:
        return all(hand is not None for hand in self.hands)

    def hand_size(self, seat: int) -> int:
        return HAND_SIZE - 1 if seat == self.drawing else HAND_SIZE

    def known_cards(self) -> Counts:
        """Every card whose place the file gives: the given hands, the played cards and the
        card being carried out."""
        total = self.played
        for hand in self.hands:
            if hand is not None:
                total = add_counts(total, hand)
        return add_card(total, self.revealed) if self.revealed >= 0 else total

    def pile_size(self) -> int:
        hidden = sum(self.hand_size(s) for s, hand in enumerate(self.hands) if hand is None)
        return self.rules.deck_size - sum(self.known_cards()) - hidden

    def pile(self) -> Counts:
        """The pile of a full position: the deck minus every other card."""
        return sub_counts(self.rules.deck, self.known_cards())

    def name(self, seat: int) -> str:
        return self.players[seat]

    # -- the rule checks -----------------------------------------------------------------------

    def problems(self) -> list[Problem]:
        """Every way this position breaks the rules, at once."""
        found: list[Problem] = []
        found += self._rules_problems()
        found += self._table_problems()
        found += self._step_problems()
        found += self._card_problems()
        return found

    def _rules_problems(self) -> list[Problem]:
        return rules_problems(self.rules, len(self.players))

    def _table_problems(self) -> list[Problem]:
        found = []
        length = self.rules.length
        if not 0 <= self.square < length:
            found.append(Problem("bottle", f"the bottle must stand on one of the {length} "
                                 f"squares (0 = the star to {length - 1}), not {self.square}",
                                 "bottle"))
        if self.untouched and self.square != 0:
            found.append(Problem("bottle", "only a bottle on the star can be untouched "
                                 "(still where the set-up put it)", "untouched"))
        for seat, name in enumerate(self.players):
            if not 0 <= self.tokens[seat] <= MAX_TOKENS:
                found.append(Problem("tokens", f"{name} holds {plural(self.tokens[seat], 'token')}: a "
                                     f"player holds 0 to {MAX_TOKENS}", f"tokens.{name}"))
            if not 0 <= self.strips[seat] <= STRIPS:
                found.append(Problem("strips", f"{name} has {self.strips[seat]} strips: a "
                                     f"player has 0 to {STRIPS}", f"strips.{name}"))
        out = [self.players[s] for s, n in enumerate(self.strips) if n == 0]
        if len(out) > 1:
            found.append(Problem("strips", f"{' and '.join(out)} have no strips left: the "
                                 "game ends when the first player loses their last strip",
                                 "strips"))
        if out and self.phase != OVER:
            found.append(Problem("step", f"{out[0]} has no strips left, so the game is over "
                                 "(step = \"over\")", "step"))
        if not out and self.phase == OVER:
            found.append(Problem("step", "the game is over only once a player has no strips "
                                 "left", "step"))
        if self.direction == -1 and self.rules.r_card != "reverse":
            found.append(Problem("direction", "play only turns counter-clockwise with the "
                                 "reverse R-card variant (rules.r_card = \"reverse\")",
                                 "direction"))
        return found

    def _step_problems(self) -> list[Problem]:
        found, phase = [], self.phase
        if phase == PLAY and self.drawing >= 0:
            found.append(Problem("step", f"{self.name(self.drawing)} still draws a card: the "
                                 "step is \"draw\", \"reveal\" or \"carry-out\", not \"play\"",
                                 "drawing"))
        if phase in (DRAW, REVEAL, CARRY_OUT) and self.drawing < 0:
            found.append(Problem("step", f"the {PHASE_NAMES[phase]} step comes after a card "
                                 "played from hand: name who played it (drawing = ...)",
                                 "drawing"))
        if phase == CARRY_OUT:
            if self.revealed < 0:
                found.append(Problem("step", "the carry-out step needs the revealed card",
                                     "revealed"))
            elif not has_choice(self.revealed, self.tokens[self.turn]):
                found.append(Problem("step", f"{self.name(self.turn)} has nothing to choose "
                                     f"when carrying out {Card(self.revealed).label} (only a "
                                     "number card with tokens in hand leaves a choice)",
                                     "revealed"))
        elif self.revealed >= 0:
            found.append(Problem("step", "a revealed card is given only in the carry-out step",
                                 "revealed"))
        return found

    def _card_problems(self) -> list[Problem]:
        found = []
        me = self.players[self.me]
        given = [s for s, hand in enumerate(self.hands) if hand is not None]
        if self.hands[self.me] is None:
            found.append(Problem("hand", f"{me}'s hand is not given (the position is seen from "
                                 f"{me})", f"hands.{me}"))
        if len(given) not in (1, len(self.players)) and self.hands[self.me] is not None:
            found.append(Problem("hand", "give only your own hand, or every player's hand (a "
                                 "full position)", "hands"))
        for seat in given:
            hand = self.hands[seat]
            assert hand is not None
            size = self.hand_size(seat)
            if sum(hand) != size:
                why = " (they have not drawn back yet)" if seat == self.drawing else ""
                found.append(Problem("hand", f"{self.name(seat)} holds {sum(hand)} cards: a "
                                     f"hand holds {size}{why}", f"hands.{self.name(seat)}"))
        known = self.known_cards()
        for card in CARDS:
            if known[card] > self.rules.deck[card]:
                found.append(Problem("deck", f"{known[card]} × {card.notation} in the hands, "
                                     f"the played cards and the card being carried out; the "
                                     f"deck holds {self.rules.deck[card]}", card.notation))
        if self.pile_size() < 1:
            found.append(Problem("pile", f"no card is left for the pile ({self.pile_size()}): "
                                 "the played cards are shuffled into a new pile as soon as the "
                                 "last card is taken", "played"))
        return found

    # -- to the engine ---------------------------------------------------------------------------

    def to_state(self, source: str) -> PartyTimeState:
        """The full game state; needs every hand and a legal position."""
        require_no_problems(self.problems(), source)
        if not self.is_full():
            missing = [self.name(s) for s, hand in enumerate(self.hands) if hand is None]
            raise InputError(source, "hands", "every player's hand for a full position "
                             f"(missing: {', '.join(missing)}); a position seen from one seat "
                             "works with hint, verify and render")
        hands = tuple(hand for hand in self.hands if hand is not None)
        return PartyTimeState(self.rules, self.players, self.phase, self.turn, self.drawing,
                              self.revealed, self.direction, self.bottle, self.tokens,
                              self.strips, hands, self.pile(), self.played)

    def to_view(self, source: str) -> PartyTimeView:
        """What ``me`` knows; needs a legal position."""
        require_no_problems(self.problems(), source)
        hand = self.hands[self.me]
        assert hand is not None
        return PartyTimeView(self.rules, self.players, self.me, self.phase, self.turn,
                             self.drawing, self.revealed, self.direction, self.bottle,
                             self.tokens, self.strips, hand, self.played)

    @classmethod
    def of_state(cls, state: PartyTimeState, me: int | None = None) -> Position:
        """The full position of ``state`` (``me`` defaults to the player to act)."""
        square, untouched = state.bottle % state.rules.length, state.bottle == 0
        return cls(state.rules, state.names, state.turn if me is None else me, state.turn,
                   state.phase, state.refill, state.revealed, state.direction, square,
                   untouched, state.hands, state.played, state.tokens, state.strips)

    @classmethod
    def of_view(cls, view: PartyTimeView) -> Position:
        hands = tuple(view.hand if s == view.player else None for s in range(view.num_players))
        return cls(view.rules, view.names, view.player, view.turn, view.phase, view.refill,
                   view.revealed, view.direction, view.bottle % view.rules.length,
                   view.bottle == 0, hands, view.played, view.tokens, view.strips)


def rules_problems(rules: Rules, players: int) -> list[Problem]:
    """Every problem of a board and deck for ``players`` players."""
    found = []
    if rules.length <= 5:
        found.append(Problem("board", f"the track has {rules.length} squares: it needs more "
                             "than 5, so that no card can take the bottle round it twice",
                             "rules.board"))
    if STAR in rules.board[1:]:
        found.append(Problem("board", "the star must be the first square and the only one",
                             "rules.board"))
    if not any(rules.deck[: Card.FIVE + 1]):
        found.append(Problem("deck", "the deck holds no number card", "rules.deck"))
    needed = HAND_SIZE * players + 1
    if rules.deck_size < needed:
        found.append(Problem("deck", f"the deck holds {rules.deck_size} cards: {players} "
                             f"hands of {HAND_SIZE} and a pile need at least {needed}",
                             "rules.deck"))
    return found


# -- reading ----------------------------------------------------------------------------------


def load_position(document: Mapping[str, Any], source: str) -> Position:
    """Parse a position document; malformed input raises :class:`InputError`."""
    root = Fields(document, source)
    game = root.text("game")
    if game != INFO.key:
        raise root.error("game", f"{INFO.key!r}", game)
    rules = load_rules(root.table("rules"), HOUSE_RULES) if root.has("rules") else HOUSE_RULES
    players = _players(root)
    turn = _seat(root, "turn", players, 0)
    step = root.text("step", "play", choices=tuple(STEPS))
    drawing = _seat(root, "drawing", players, -1)
    revealed_name = root.raw("revealed", None)
    revealed = -1 if revealed_name is None else _card(root, "revealed", revealed_name)
    direction = DIRECTIONS[root.text("direction", "clockwise", choices=tuple(DIRECTIONS))]
    square = root.integer("bottle")
    untouched = root.flag("untouched", False)
    hands = _hands(root, players)
    given = [s for s, hand in enumerate(hands) if hand is not None]
    default_me = given[0] if len(given) == 1 else turn
    me = _seat(root, "me", players, default_me)
    played = _counts(root.table("played")) if root.has("played") else NO_CARDS
    tokens = _per_player(root, "tokens", players, 0)
    strips = _per_player(root, "strips", players, STRIPS)
    root.done()
    return Position(rules, players, me, turn, STEPS[step], drawing, revealed, direction,
                    square, untouched, hands, played, tokens, strips)


def load_rules(fields: Fields, default: Rules = HOUSE_RULES) -> Rules:
    """A ``[rules]`` table (or a rules file): board, deck and R-card rule, each optional."""
    board = fields.text("board", default.board)
    for symbol in board:
        if symbol not in SQUARES:
            raise fields.error("board", "a track of the symbols * (star), + (dark green), "
                               "- (red) and . (light green)", board)
    if not board.startswith(STAR):
        raise fields.error("board", "a track that starts with the star (*)", board)
    deck = _counts(fields.table("deck")) if fields.has("deck") else default.deck
    r_card = fields.text("r_card", default.r_card, choices=R_CARD_RULES)
    fields.done()
    return Rules(board, deck, r_card)


def load_state(document: Mapping[str, Any], source: str) -> PartyTimeState:
    return load_position(document, source).to_state(source)


def _players(root: Fields) -> tuple[str, ...]:
    names = root.array("players")
    if not INFO.min_players <= len(names) <= INFO.max_players:
        raise root.error("players", f"{INFO.min_players} to {INFO.max_players} player names",
                         names)
    for i, name in enumerate(names):
        if not isinstance(name, str):
            raise root.error(item_path("players", i), "a name in quotes (a string)", name)
        if not name.strip():
            raise root.error(item_path("players", i), "a non-empty name", name)
        if name in names[:i]:
            raise root.error(item_path("players", i), "a name different from the others", name)
    return tuple(names)


def _seat(root: Fields, key: str, players: tuple[str, ...], default: int) -> int:
    name = root.text(key, None)
    if name is None:
        return default
    if name not in players:
        raise root.error(key, "one of the players " + ", ".join(map(repr, players)), name)
    return players.index(name)


def _card(fields: Fields, key: str | int, text: object) -> int:
    try:
        return int(Card.parse(text))
    except KeyError:
        raise fields.error(key, "a card: " + ", ".join(NOTATION), text) from None


def _counts(fields: Fields) -> Counts:
    """A table of card counts (``"3" = 2``, ``R = 1``); absent card types count 0."""
    counts = [0] * len(CARDS)
    for key in list(fields.keys()):
        card = _card(fields, key, key)
        counts[card] += fields.integer(key, minimum=0, maximum=999)
    fields.done()
    return tuple(counts)


def _hands(root: Fields, players: tuple[str, ...]) -> tuple[Counts | None, ...]:
    table = root.table("hands")
    for other in list(table.keys()):
        if other not in players:
            raise table.error(other, "a player name: " + ", ".join(map(repr, players)), other)
    hands: list[Counts | None] = []
    for name in players:
        if not table.has(name):
            hands.append(None)
            continue
        cards = table.array(name)
        hand = [0] * len(CARDS)
        for i, text in enumerate(cards):
            hand[_card(Fields({}, table.source, table.field(name)), i, text)] += 1
        hands.append(tuple(hand))
    table.done()
    return tuple(hands)


def _per_player(root: Fields, key: str, players: tuple[str, ...], default: int
                ) -> tuple[int, ...]:
    table = root.table(key, None)
    if table is None:
        return (default,) * len(players)
    values = [table.integer(name, default, minimum=-99, maximum=99) for name in players]
    for other in list(table.keys()):
        if other not in players:
            raise table.error(other, "a player name: " + ", ".join(map(repr, players)), other)
    table.done()
    return tuple(values)


# -- writing ----------------------------------------------------------------------------------


def position_to_document(position: Position) -> dict[str, Any]:
    """The document of ``position``: optional fields only where they differ from the default."""
    names = position.players
    doc: dict[str, Any] = {"game": INFO.key, "players": list(names), "turn": names[position.turn]}
    if not position.is_full():
        doc["me"] = names[position.me]
    if position.phase != PLAY:
        doc["step"] = PHASE_NAMES[position.phase]
    if position.drawing >= 0:
        doc["drawing"] = names[position.drawing]
    if position.revealed >= 0:
        doc["revealed"] = NOTATION[position.revealed]
    if position.direction == -1:
        doc["direction"] = "counterclockwise"
    doc["bottle"] = position.square
    if position.untouched:
        doc["untouched"] = True
    doc["hands"] = {names[s]: [c.notation for c in cards_of(hand)]
                    for s, hand in enumerate(position.hands) if hand is not None}
    doc["played"] = _counts_doc(position.played)
    doc["tokens"] = {name: position.tokens[s] for s, name in enumerate(names)}
    doc["strips"] = {name: position.strips[s] for s, name in enumerate(names)}
    if not position.rules.is_house():
        doc["rules"] = rules_to_document(position.rules)
    return doc


def rules_to_document(rules: Rules) -> dict[str, Any]:
    return {"board": rules.board, "r_card": rules.r_card, "deck": _counts_doc(rules.deck)}


def state_to_document(state: PartyTimeState) -> dict[str, Any]:
    """The full position document of ``state`` (it loads back to ``state``)."""
    return position_to_document(Position.of_state(state))


def view_to_document(view: PartyTimeView) -> dict[str, Any]:
    """The one-seat position document of ``view``."""
    return position_to_document(Position.of_view(view))


def _counts_doc(counts: Counts) -> dict[str, int]:
    return {NOTATION[c]: n for c, n in enumerate(counts) if n}


def describe_position(position: Position) -> str:
    """A few lines for people: the bottle, the players, the hand(s) and the pile."""
    rules = position.rules
    square = position.square
    if square == 0:
        where = "on the star" + (" (untouched since the set-up)" if position.untouched else "")
    else:
        where = (f"on square {square} ({rules.square_name(square)}), {rules.length - square} "
                 "squares before the star")
    lines = [f"bottle {where}; {position.name(position.turn)} to "
             f"{'play' if position.phase == PLAY else PHASE_NAMES[position.phase]}"
             + ("" if position.direction == 1 else "; play goes counter-clockwise")]
    for seat, name in enumerate(position.players):
        hand = position.hands[seat]
        held = f"; hand: {count_text(hand)}" if hand is not None else ""
        lines.append(f"{name}: {plural(position.strips[seat], 'strip')}, "
                     f"{plural(position.tokens[seat], 'token')}{held}")
    lines.append(f"played: {count_text(position.played)}; pile: "
                 f"{plural(position.pile_size(), 'card')}")
    if not rules.is_house():
        lines.append(f"rules: board {rules.board}, deck {count_text(rules.deck)}, R card "
                     f"{rules.r_card}")
    return "\n".join(lines)


__all__ = ["DEFAULT_NAMES", "Position", "describe_position", "load_position", "load_rules",
           "load_state", "position_to_document", "rules_problems", "rules_to_document",
           "state_to_document", "view_to_document"]

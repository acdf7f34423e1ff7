"""The Party-Time rules engine: an immutable state, the effects of every card, and the view.

The bottle's place is counted from the star: ``0`` is the star at the set-up (nobody has stopped
the bottle there yet), ``1 .. length-1`` the squares clockwise, and ``length`` the star once a
move has ended on it.  A move of ``m`` squares crosses the star when ``m > length - bottle``: so
a bottle standing on the star after someone stopped there is crossed by any move that leaves it,
while the set-up star is not (see ``docs/rules.md``).

A turn is a small state machine:

``play``       the player to act plays a card from hand (and returns tokens with a number card);
``reveal``     (chance) the player hit by a question mark turns over the top card of the pile;
``carry-out``  that player chooses how many tokens to return with a revealed number card (only
               when there is a choice; otherwise the card is carried out at once);
``draw``       (chance) the player who played from hand draws back to three cards;
``over``       a player has lost their last strip.

:func:`resolve` is the one place where a card takes effect; the solvers use it too.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from ..protocol import CHANCE, TERMINAL, Action
from ..words import plural
from .game import (
    CARDS,
    DRAWS,
    GAIN,
    HAND_SIZE,
    MAX_TOKENS,
    NO_CARDS,
    PLAYS,
    RETURN,
    REVEALS,
    STRIPS,
    Card,
    Counts,
    Draw,
    Play,
    Reveal,
    Rules,
    cards_of,
    count_text,
    counts_of,
)

PLAY, CARRY_OUT, DRAW, REVEAL, OVER = range(5)
PHASE_NAMES = ("play", "carry-out", "draw", "reveal", "over")

QUESTION = int(Card.QUESTION)


# -- counts -------------------------------------------------------------------------------------


def add_card(counts: Counts, card: int, delta: int = 1) -> Counts:
    changed = list(counts)
    changed[card] += delta
    return tuple(changed)


def add_counts(a: Counts, b: Counts) -> Counts:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def sub_counts(a: Counts, b: Counts) -> Counts:
    return tuple(x - y for x, y in zip(a, b, strict=True))


def deal(cards: Sequence[int], sizes: Sequence[int]) -> tuple[list[Counts], Counts]:
    """Deal ``cards`` in order: a hand of each of ``sizes`` in turn, the rest to the pile."""
    hands, start = [], 0
    for size in sizes:
        hands.append(counts_of(cards[start:start + size]))
        start += size
    return hands, counts_of(cards[start:])


# -- the effect of a card -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a card did: the new public situation and what happened, for explanations."""

    bottle: int
    tokens: tuple[int, ...]
    strips: tuple[int, ...]
    direction: int
    next_player: int
    """The player who acts next: plays from hand, or turns over the top card when ``reveal``."""
    reveal: bool
    loser: int
    """The player who lost a strip (the mover crossing the star, or the black square's victim);
    -1 when nobody did."""
    crossed: bool
    landed: str
    """The symbol of the square the bottle stopped on; empty when it did not move."""
    token_change: int
    """The mover's token change on the square (after returning tokens with the card)."""

    @property
    def over(self) -> bool:
        return self.loser >= 0 and self.strips[self.loser] == 0


def move_bottle(length: int, bottle: int, steps: int) -> tuple[int, bool]:
    """The bottle's place after ``steps`` squares, and whether it crossed the star."""
    if steps > length - bottle:
        return bottle + steps - length, True
    return bottle + steps, False


def square_effect(symbol: str, tokens: int) -> int:
    """The token change of a mover holding ``tokens`` who stops on ``symbol``."""
    if symbol == GAIN:
        return 1 if tokens < MAX_TOKENS else -tokens
    if symbol == RETURN and tokens > 0:
        return -1
    return 0


def resolve(rules: Rules, bottle: int, tokens: tuple[int, ...], strips: tuple[int, ...],
            direction: int, actor: int, card: int, returned: int) -> Outcome:
    """Carry out ``card`` played by ``actor`` returning ``returned`` tokens (number cards)."""
    n = len(strips)
    after = (actor + direction) % n
    loser, crossed, landed, change, reveal = -1, False, "", 0, False
    new_tokens = tokens
    if card <= Card.FIVE:
        steps = card + 1 - returned
        held = tokens[actor] - returned
        if steps > 0:
            bottle, crossed = move_bottle(rules.length, bottle, steps)
            landed = rules.square(bottle)
            change = square_effect(landed, held)
            if crossed:
                loser = actor
        if returned or change:
            changed = list(tokens)
            changed[actor] = held + change
            new_tokens = tuple(changed)
    elif card == Card.R:
        if rules.r_card == "reverse":
            direction = -direction
            after = (actor + direction) % n
        else:
            after = (actor - direction) % n
    elif card == Card.BLACK:
        loser = after
    elif card == Card.STAR:
        bottle = rules.length
    else:
        reveal = True
    if loser >= 0:
        changed = list(strips)
        changed[loser] -= 1
        strips = tuple(changed)
    return Outcome(bottle, new_tokens, strips, direction, after, reveal, loser, crossed,
                   landed, change)


def plays_for(card: int, tokens: int) -> list[Play]:
    """The plays of ``card`` for a player holding ``tokens``: a number card may return up to
    its value in tokens."""
    if card > Card.FIVE:
        return [PLAYS[(card, 0)]]
    return [PLAYS[(card, k)] for k in range(min(tokens, card + 1) + 1)]


def legal_plays(phase: int, hand: Counts, revealed: int, tokens: int) -> list[Play]:
    """The plays of the player to act holding ``hand`` and ``tokens``: in the ``play`` step
    the cards in type order (1-5, R, black, star, ?), each with 0, 1, ... tokens returned; in
    the ``carry-out`` step the ways to carry out ``revealed``; otherwise none."""
    if phase == PLAY:
        return [play for card in range(len(CARDS)) if hand[card]
                for play in plays_for(card, tokens)]
    if phase == CARRY_OUT:
        return plays_for(revealed, tokens)
    return []


def has_choice(card: int, tokens: int) -> bool:
    """Whether carrying out a revealed ``card`` leaves a choice (tokens to return)."""
    return card <= Card.FIVE and tokens > 0


def win_shares(strips: Sequence[int]) -> tuple[float, ...]:
    """The players with the most strips left win together."""
    best = max(strips)
    winners = sum(1 for s in strips if s == best)
    return tuple(1.0 / winners if s == best else 0.0 for s in strips)


# -- the state ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PartyTimeState:
    """A full Party-Time position (every hand and the pile included)."""

    rules: Rules
    names: tuple[str, ...]
    phase: int
    turn: int
    """``play``: the player to play; ``reveal``/``carry-out``: the player hit by the question
    mark; ``draw``: the player who plays once the card is drawn."""
    refill: int
    """The player who played from hand and still draws back to three (-1: nobody)."""
    revealed: int
    """The card being carried out (``carry-out`` only; -1 otherwise)."""
    direction: int
    """+1 clockwise (play passes to the left), -1 counter-clockwise (``reverse`` R only)."""
    bottle: int
    tokens: tuple[int, ...]
    strips: tuple[int, ...]
    hands: tuple[Counts, ...]
    pile: Counts
    played: Counts

    @classmethod
    def new_game(cls, rules: Rules, names: Sequence[str], rng: random.Random) -> PartyTimeState:
        """Shuffle the deck and deal three cards to each player; the eldest (seat 0) begins."""
        deck = cards_of(rules.deck)
        rng.shuffle(deck)
        n = len(names)
        hands, pile = deal(deck, [HAND_SIZE] * n)
        return cls(rules, tuple(names), PLAY, 0, -1, -1, 1, 0, (0,) * n, (STRIPS,) * n,
                   tuple(hands), pile, NO_CARDS)

    # -- the protocol ---------------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        return len(self.names)

    def current_player(self) -> int:
        phase = self.phase
        if phase in (PLAY, CARRY_OUT):
            return self.turn
        return TERMINAL if phase == OVER else CHANCE

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def legal_actions(self) -> list[Play]:
        """Cards in type order (1-5, R, black, star, ?), each with 0, 1, ... tokens returned."""
        return legal_plays(self.phase, self.hands[self.turn], self.revealed,
                           self.tokens[self.turn])

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        if self.phase not in (DRAW, REVEAL):
            return []
        pile = self.pile
        total = sum(pile)
        if total == 0:
            raise ValueError("the pile and the played cards are both empty: nothing to draw")
        kinds = DRAWS if self.phase == DRAW else REVEALS
        return [(kinds[c], Fraction(n, total)) for c, n in enumerate(pile) if n]

    def apply(self, action: Action) -> PartyTimeState:
        phase = self.phase
        if phase == PLAY and isinstance(action, Play):
            return self._play_from_hand(action)
        if phase == CARRY_OUT and isinstance(action, Play):
            if action.card != self.revealed or action not in self.legal_actions():
                raise ValueError(f"{action} is not how {self.name(self.turn)} can carry out "
                                 f"{Card(self.revealed).label}")
            return self._carried_out(action.card, action.tokens, self.pile, self.played)
        if phase == DRAW and isinstance(action, Draw):
            return self._draw(action.card)
        if phase == REVEAL and isinstance(action, Reveal):
            return self._reveal(action.card)
        raise ValueError(f"{action} is not legal in the {PHASE_NAMES[phase]} step")

    def returns(self) -> tuple[float, ...]:
        if self.phase != OVER:
            raise ValueError("returns() of a game that is not over")
        return win_shares(self.strips)

    def key(self) -> tuple[object, ...]:
        return (self.rules, self.names, self.phase, self.turn, self.refill, self.revealed,
                self.direction, self.bottle, self.tokens, self.strips, self.hands, self.pile,
                self.played)

    def view(self, player: int) -> PartyTimeView:
        return PartyTimeView(self.rules, self.names, player, self.phase, self.turn, self.refill,
                             self.revealed, self.direction, self.bottle, self.tokens,
                             self.strips, self.hands[player], self.played)

    # -- applying actions ------------------------------------------------------------------------

    def _play_from_hand(self, play: Play) -> PartyTimeState:
        me, card = self.turn, int(play.card)
        hand = self.hands[me]
        if not hand[card] or play.tokens > (self.tokens[me] if play.card.is_number else 0) \
                or play.tokens > play.card.number:
            raise ValueError(f"{self.name(me)} cannot play {play}")
        hands = list(self.hands)
        hands[me] = add_card(hand, card, -1)
        return self._after(resolve(self.rules, self.bottle, self.tokens, self.strips,
                                   self.direction, me, card, play.tokens),
                           me, tuple(hands), self.pile, add_card(self.played, card))

    def _carried_out(self, card: int, returned: int, pile: Counts, played: Counts
                     ) -> PartyTimeState:
        outcome = resolve(self.rules, self.bottle, self.tokens, self.strips, self.direction,
                          self.turn, card, returned)
        return self._after(outcome, self.refill, self.hands, pile, add_card(played, card))

    def _after(self, outcome: Outcome, refill: int, hands: tuple[Counts, ...], pile: Counts,
               played: Counts) -> PartyTimeState:
        """The state once a card has taken effect: over, a reveal, or the draw back to three."""
        phase = OVER if outcome.over else REVEAL if outcome.reveal else DRAW
        return PartyTimeState(self.rules, self.names, phase, outcome.next_player, refill, -1,
                              outcome.direction, outcome.bottle, outcome.tokens, outcome.strips,
                              hands, pile, played)

    def _take(self, card: int) -> tuple[Counts, Counts]:
        """The pile and played cards once ``card`` is taken from the pile; the played cards are
        shuffled into a new pile as soon as the last card is taken."""
        if not self.pile[card]:
            raise ValueError(f"the pile holds no {Card(card).notation}")
        pile = add_card(self.pile, card, -1)
        if any(pile):
            return pile, self.played
        return self.played, NO_CARDS

    def _draw(self, card: int) -> PartyTimeState:
        pile, played = self._take(card)
        hands = list(self.hands)
        hands[self.refill] = add_card(hands[self.refill], card)
        return PartyTimeState(self.rules, self.names, PLAY, self.turn, -1, -1, self.direction,
                              self.bottle, self.tokens, self.strips, tuple(hands), pile, played)

    def _reveal(self, card: int) -> PartyTimeState:
        pile, played = self._take(card)
        if has_choice(card, self.tokens[self.turn]):
            return PartyTimeState(self.rules, self.names, CARRY_OUT, self.turn, self.refill,
                                  card, self.direction, self.bottle, self.tokens, self.strips,
                                  self.hands, pile, played)
        return self._carried_out(card, 0, pile, played)

    # -- reading the position ---------------------------------------------------------------------

    def name(self, seat: int) -> str:
        return self.names[seat]

    def hand_size(self, seat: int) -> int:
        return HAND_SIZE - 1 if seat == self.refill else HAND_SIZE

    def on_star(self) -> bool:
        return self.bottle in (0, self.rules.length)

    def square(self) -> int:
        """The square the bottle stands on (0 = the star)."""
        return self.bottle % self.rules.length

    def distance(self) -> int:
        """Squares the bottle can still move without crossing the star."""
        return self.rules.length - self.bottle

    def loser(self) -> int | None:
        out = [seat for seat, s in enumerate(self.strips) if s == 0]
        return out[0] if out else None

    def describe_action(self, action: Action) -> str:
        if isinstance(action, Draw):
            return f"{self.name(self.refill)} draws {action.card.label}"
        if isinstance(action, Reveal):
            return f"{self.name(self.turn)} turns over {action.card.label}"
        assert isinstance(action, Play)
        return describe_play(self.name(self.turn), action)

    def summary(self) -> str:
        seats = "; ".join(f"{self.name(i)} {plural(self.strips[i], 'strip')} "
                          f"{plural(self.tokens[i], 'token')} "
                          f"[{count_text(self.hands[i])}]" for i in range(self.num_players))
        return (f"{PHASE_NAMES[self.phase]}, {self.name(self.turn)}; bottle on square "
                f"{self.square()}; pile [{count_text(self.pile)}]; {seats}")

    def __repr__(self) -> str:
        return f"PartyTimeState({self.summary()})"


def describe_play(who: str, play: Play) -> str:
    card = play.card
    if not card.is_number:
        return f"{who} plays {card.label}"
    if not play.tokens:
        return f"{who} plays {card.label}: the bottle moves {card.number}"
    tokens = plural(play.tokens, "token")
    moves = play.moves
    return (f"{who} plays {card.label} returning {tokens}: the bottle moves {moves}"
            if moves else f"{who} plays {card.label} returning {tokens}: the bottle stays")


# -- what one player knows ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PartyTimeView:
    """What ``player`` knows: their hand, the played cards, every token and strip, the bottle,
    the turn order and direction, and the deck composition.  The unseen cards (the pile and the
    others' hands) are uniformly distributed over the unseen places."""

    rules: Rules
    names: tuple[str, ...]
    player: int
    phase: int
    turn: int
    refill: int
    revealed: int
    direction: int
    bottle: int
    tokens: tuple[int, ...]
    strips: tuple[int, ...]
    hand: Counts
    played: Counts

    @property
    def num_players(self) -> int:
        return len(self.names)

    def key(self) -> tuple[object, ...]:
        return (self.rules, self.names, self.player, self.phase, self.turn, self.refill,
                self.revealed, self.direction, self.bottle, self.tokens, self.strips, self.hand,
                self.played)

    def hand_size(self, seat: int) -> int:
        return HAND_SIZE - 1 if seat == self.refill else HAND_SIZE

    def unseen(self) -> Counts:
        """The cards this player cannot see: the pile and the other hands, by type."""
        unseen = sub_counts(sub_counts(self.rules.deck, self.hand), self.played)
        return add_card(unseen, self.revealed, -1) if self.revealed >= 0 else unseen

    def require_turn(self) -> None:
        """Raise :class:`ValueError` unless this player has a decision to take now (a card to
        play, or a revealed card to carry out)."""
        if self.turn != self.player or self.phase not in (PLAY, CARRY_OUT):
            raise ValueError(f"{self.names[self.player]} has no decision to take now")

    def legal_actions(self) -> list[Play]:
        """This player's plays when it is their turn to act (the state's order), else none."""
        if self.turn != self.player:
            return []
        return legal_plays(self.phase, self.hand, self.revealed, self.tokens[self.player])

    def hidden_hand_cards(self) -> int:
        return sum(self.hand_size(s) for s in range(self.num_players) if s != self.player)

    def pile_size(self) -> int:
        return sum(self.unseen()) - self.hidden_hand_cards()

    def sample(self, rng: random.Random) -> PartyTimeState:
        """Deal the unseen cards uniformly at random over the other hands and the pile."""
        cards = cards_of(self.unseen())
        rng.shuffle(cards)
        hands, pile = deal(cards, [0 if seat == self.player else self.hand_size(seat)
                                   for seat in range(self.num_players)])
        hands[self.player] = self.hand
        return PartyTimeState(self.rules, self.names, self.phase, self.turn, self.refill,
                              self.revealed, self.direction, self.bottle, self.tokens,
                              self.strips, tuple(hands), pile, self.played)

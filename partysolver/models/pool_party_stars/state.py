"""The Pool Party Stars state: rules by epoch, hands, the deck, and the public events.

A turn is the acting player's decision (propose a guest from hand, or guess another player's
rule), followed by a chance node when something is drawn: the proposer draws a guest while the
deck has one, and a player whose rule was guessed right draws a new rule among the twelve minus
those the others hold (the revealed card is shuffled back, so it may come again).  The game ends
when the player to act has no guest in hand.

Hidden information: each player's rule and hand, and the order of the deck.  A player's
:class:`PoolView` holds the public events, their own rules and their own hand; its
:meth:`~PoolView.sample` draws the other players' rules uniformly among the assignments
consistent with the events (exactly, by counting -- see :mod:`.evidence`) and their hands
uniformly from the unseen guests.
"""

from __future__ import annotations

import random
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

from ..protocol import CHANCE, TERMINAL, Action
from .evidence import Knowledge, Summary
from .game import (
    ATTRIBUTES,
    HAND_SIZE,
    RULE_COUNT,
    Attribute,
    DrawGuest,
    DrawRule,
    Event,
    Guess,
    GuessOutcome,
    Guest,
    Move,
    Proposal,
    Propose,
    Public,
    Table,
    answers_for,
    asked_order,
    win_shares,
)

TURN, DRAW_GUEST, DRAW_RULE, OVER = 0, 1, 2, 3
PHASE_NAMES = ("turn", "draw-guest", "draw-rule", "over")


def _sorted(guests: Sequence[Guest]) -> tuple[Guest, ...]:
    return tuple(sorted(guests, key=lambda g: g.id))


def _find(guests: tuple[Guest, ...], guest: Guest) -> int:
    """Where ``guest`` is in the sorted ``guests`` (by bisection: a deck may hold thousands),
    or -1."""
    index = bisect_left(guests, guest.id, key=_guest_id)
    return index if index < len(guests) and guests[index].id == guest.id else -1


def _guest_id(guest: Guest) -> int:
    return guest.id


def _runs(guests: tuple[Guest, ...]) -> Iterator[tuple[Guest, int]]:
    """Each distinct guest of the sorted ``guests`` and its copies, in order, found by
    bisection (at most 64 distinct guests, however large the deck)."""
    start = 0
    while start < len(guests):
        end = bisect_right(guests, guests[start].id, lo=start, key=_guest_id)
        yield guests[start], end - start
        start = end


def _without(guests: tuple[Guest, ...], guest: Guest) -> tuple[Guest, ...]:
    index = _find(guests, guest)
    if index < 0:
        raise ValueError(f"{guest} is not among the guests")
    return guests[:index] + guests[index + 1:]


class PoolPartyState:
    """An immutable Pool Party Stars position (see the module docstring).

    ``rules[p]`` lists player ``p``'s rules by epoch; the last is the one held now, except for
    the player whose redraw is pending (``draw-rule`` phase).  ``stock`` is the deck left
    (a multiset, sorted: its order is chance).
    """

    __slots__ = ("table", "events", "rules", "hands", "stock", "public", "phase", "_key",
                 "_summary")

    def __init__(self, table: Table, events: tuple[Event, ...],
                 rules: tuple[tuple[Attribute, ...], ...], hands: tuple[tuple[Guest, ...], ...],
                 stock: tuple[Guest, ...], public: Public, phase: int,
                 summary: Summary | None = None) -> None:
        self.table = table
        self.events = events
        self.rules = rules
        self.hands = hands
        self.stock = stock
        self.public = public
        self.phase = phase
        self._key: tuple[object, ...] | None = None
        self._summary = summary

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def deal(cls, table: Table, rng: random.Random) -> PoolPartyState:
        """A new game: a random rule and three random guests for each player."""
        n = table.size
        if len(table.deck) < HAND_SIZE * n:
            raise ValueError(f"a deck of {len(table.deck)} guests cannot deal {n} hands")
        rules = tuple((ATTRIBUTES[r],) for r in rng.sample(range(RULE_COUNT), n))
        deck = list(table.deck)
        rng.shuffle(deck)
        hands = tuple(_sorted(deck[HAND_SIZE * p: HAND_SIZE * (p + 1)]) for p in range(n))
        stock = _sorted(deck[HAND_SIZE * n:])
        return cls(table, (), rules, hands, stock, Public.deal(table), TURN, Summary.start(n))

    @classmethod
    def after_events(cls, table: Table, events: tuple[Event, ...],
                     rules: tuple[tuple[Attribute, ...], ...],
                     hands: tuple[tuple[Guest, ...], ...], public: Public, phase: int
                     ) -> PoolPartyState:
        """A position from its events, rules and hands (the deck left is what is unseen)."""
        stock = Counter(table.deck)
        stock.subtract(public.seen())
        for hand in hands:
            stock.subtract(hand)
        if any(n < 0 for n in stock.values()):
            raise ValueError("more guests in hands and on the table than in the deck")
        return cls(table, events, rules, tuple(_sorted(h) for h in hands),
                   _sorted(list(stock.elements())), public, phase)

    def _next_turn(self, events: tuple[Event, ...], rules: tuple[tuple[Attribute, ...], ...],
                   hands: tuple[tuple[Guest, ...], ...], stock: tuple[Guest, ...],
                   public: Public, summary: Summary | None) -> PoolPartyState:
        player = self.table.turn_of(len(events))
        phase = TURN if hands[player] else OVER
        return PoolPartyState(self.table, events, rules, hands, stock, public, phase, summary)

    @property
    def summary(self) -> Summary:
        """The :class:`~.evidence.Summary` of the events, kept up to date move by move (so a
        hint's cost does not grow with the log); made from the events when not yet known."""
        if self._summary is None:
            self._summary = Summary.of(self.table.size, self.events)
        return self._summary

    # -- identity -----------------------------------------------------------------------------

    def key(self) -> Hashable:
        key = self._key
        if key is None:
            key = self._key = (self.table, self.events, self.rules, self.hands, self.phase)
        return key

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PoolPartyState) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        return (f"PoolPartyState({PHASE_NAMES[self.phase]}, {len(self.events)} events, "
                f"rules {self.current_rules()}, hands {[len(h) for h in self.hands]})")

    # -- the protocol -------------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        return self.table.size

    @property
    def player(self) -> int:
        """The player whose turn it is (during a draw: whose turn comes next)."""
        return self.table.turn_of(len(self.events))

    @property
    def drawer(self) -> int:
        """The player drawing at a chance node (``-1`` otherwise)."""
        if self.phase in (DRAW_GUEST, DRAW_RULE):
            last = self.events[-1]
            return last.proposer if isinstance(last, Proposal) else last.target
        return -1

    def current_player(self) -> int:
        if self.phase == TURN:
            return self.player
        return TERMINAL if self.phase == OVER else CHANCE

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def current_rules(self) -> tuple[Attribute | None, ...]:
        drawer = self.drawer if self.phase == DRAW_RULE else -1
        return tuple(None if p == drawer else rules[-1] for p, rules in enumerate(self.rules))

    def legal_actions(self) -> list[Move]:
        """Proposals of the distinct guests in hand (by guest id), then guesses: the other
        players clockwise from the left, each with the twelve rules in attribute order."""
        if self.phase != TURN:
            return []
        me = self.player
        moves: list[Move] = [Propose(g) for g in dict.fromkeys(self.hands[me])]
        for target in asked_order(me, self.table.size):
            moves.extend(Guess(target, rule) for rule in ATTRIBUTES)
        return moves

    def chance_outcomes(self) -> Sequence[tuple[Action, Fraction]]:
        if self.phase == DRAW_GUEST:
            total = len(self.stock)
            return [(DrawGuest(guest), Fraction(n, total)) for guest, n in _runs(self.stock)]
        if self.phase == DRAW_RULE:
            free = self._free_rules()
            return [(DrawRule(rule), Fraction(1, len(free))) for rule in free]
        return ()

    def _free_rules(self) -> list[Attribute]:
        """The rules a redraw may give: all but those the other players hold."""
        drawer = self.drawer
        held = {rules[-1] for p, rules in enumerate(self.rules) if p != drawer}
        return [rule for rule in ATTRIBUTES if rule not in held]

    def apply(self, action: Action) -> PoolPartyState:
        if self.phase == TURN:
            if isinstance(action, Propose):
                return self._propose(action.guest)
            if isinstance(action, Guess):
                return self._guess(action)
        elif self.phase == DRAW_GUEST and isinstance(action, DrawGuest):
            if _find(self.stock, action.guest) >= 0:
                p = self.drawer
                hands = list(self.hands)
                hands[p] = _sorted(hands[p] + (action.guest,))
                return self._next_turn(self.events, self.rules, tuple(hands),
                                       _without(self.stock, action.guest), self.public,
                                       self._summary)
        elif (self.phase == DRAW_RULE and isinstance(action, DrawRule)
              and action.rule in self._free_rules()):
            t = self.drawer
            rules = list(self.rules)
            rules[t] = rules[t] + (action.rule,)
            return self._next_turn(self.events, tuple(rules), self.hands, self.stock,
                                   self.public, self._summary)
        raise ValueError(f"{action} is not legal in the {PHASE_NAMES[self.phase]} phase")

    def _propose(self, guest: Guest) -> PoolPartyState:
        me = self.player
        if guest not in self.hands[me]:
            raise ValueError(f"{guest} is not in {self.name(me)}'s hand")
        current = [rules[-1] for rules in self.rules]
        event = Proposal(me, guest, answers_for(me, guest.mask, current))
        events = self.events + (event,)
        public = self.public.after(event, self.table.competitive)
        summary = self.summary.after(event)
        hands = list(self.hands)
        hands[me] = _without(hands[me], guest)
        if self.stock:
            return PoolPartyState(self.table, events, self.rules, tuple(hands), self.stock,
                                  public, DRAW_GUEST, summary)
        return self._next_turn(events, self.rules, tuple(hands), self.stock, public, summary)

    def _guess(self, guess: Guess) -> PoolPartyState:
        me = self.player
        if guess.target == me or not 0 <= guess.target < self.table.size:
            raise ValueError(f"{guess} does not name another player")
        right = self.rules[guess.target][-1] == guess.rule
        event = GuessOutcome(me, guess.target, guess.rule, right)
        events = self.events + (event,)
        public = self.public.after(event, self.table.competitive)
        summary = self.summary.after(event)
        if right:
            return PoolPartyState(self.table, events, self.rules, self.hands, self.stock,
                                  public, DRAW_RULE, summary)
        return self._next_turn(events, self.rules, self.hands, self.stock, public, summary)

    def returns(self) -> tuple[float, ...]:
        if self.phase != OVER:
            raise ValueError("returns() of a game that is not over")
        return win_shares(self.public.vips)

    def view(self, player: int) -> PoolView:
        return PoolView(self, player)

    # -- reading the position -----------------------------------------------------------------

    def name(self, seat: int) -> str:
        return self.table.players[seat]

    def knowledge(self, seat: int | None) -> Knowledge:
        """What ``seat`` knows (``None``: an onlooker)."""
        if seat is None:
            return Knowledge(self.table, self.events, None, summary=self.summary,
                             record=self.public)
        return Knowledge(self.table, self.events, seat, self.rules[seat], self.hands[seat],
                         summary=self.summary, record=self.public)

    def describe_action(self, action: Action) -> str:
        if isinstance(action, Propose):
            return f"{self.name(self.player)} proposes {action.guest}"
        if isinstance(action, Guess):
            return (f"{self.name(self.player)} guesses that {self.name(action.target)}'s rule "
                    f"is Forbidden {action.rule.label}")
        if isinstance(action, DrawGuest):
            return f"{self.name(self.drawer)} draws {action.guest}"
        if isinstance(action, DrawRule):
            return f"{self.name(self.drawer)} draws the rule Forbidden {action.rule.label}"
        raise ValueError(f"not an action of this game: {action!r}")


@dataclass(frozen=True, eq=False)
class PoolView:
    """What ``player`` may know about a state: the public events, their own rules by epoch,
    their own hand, and the phase."""

    state: PoolPartyState
    player: int

    @cached_property
    def knowledge(self) -> Knowledge:
        return self.state.knowledge(self.player)

    def key(self) -> Hashable:
        state, me = self.state, self.player
        return (me, state.table, state.events, state.rules[me], state.hands[me], state.phase,
                tuple(len(h) for h in state.hands))

    def sample(self, rng: random.Random) -> PoolPartyState:
        """A full state consistent with this view, from the game's prior: the other players'
        rules uniform among the consistent assignments, their hands uniform from the unseen
        guests (the deck left is the rest)."""
        state, me = self.state, self.player
        evidence = self.knowledge.evidence
        timeline = evidence.timeline
        values = timeline.sample(evidence.domains(), rng)
        if values is None:
            raise ValueError("no assignment of rules fits this view")
        pending = state.drawer if state.phase == DRAW_RULE else -1
        rules = []
        for p in range(state.num_players):
            if p == me:
                rules.append(state.rules[me])
                continue
            epochs = timeline.by_player[p]
            if p == pending:
                epochs = epochs[:-1]
            rules.append(tuple(ATTRIBUTES[values[e]] for e in epochs))
        unseen = list(state.stock) + [g for p, h in enumerate(state.hands) if p != me for g in h]
        unseen.sort(key=lambda g: g.id)
        rng.shuffle(unseen)
        hands = []
        for p, hand in enumerate(state.hands):
            if p == me:
                hands.append(hand)
            else:
                hands.append(_sorted(unseen[:len(hand)]))
                del unseen[:len(hand)]
        return PoolPartyState(state.table, state.events, tuple(rules), tuple(hands),
                              _sorted(unseen), state.public, state.phase, state._summary)

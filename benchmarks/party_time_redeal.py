"""The hint's search before issue 19 (kept for the benchmark's side-by-side figures only): the
unseen cards re-dealt before every opponent's play.

This is ``partysolver/solvers/party_time/belief.py`` as it stood before the one-deal model
(``BeliefSearch``), unchanged but for its imports.  Its figures misstate the risk (see
``docs/solvers.md``); the benchmark prints them beside the new ones.

The old docstring follows.

The hint's exact search: expectimax over one player's view, by card *types*.

The model (see ``docs/solvers.md``): the asking player (``me``) knows their hand, the played
cards, the bottle, every token and strip, and the deck; the unseen cards (the pile and the
other hands) are uniformly distributed over the unseen places, *afresh before every opponent's
play* (the spec's uniform model, applied at each step: it does not try to read an opponent's
remaining cards from what they played).  Under it:

* the top card of the pile (revealed by a question mark) is of type ``c`` with probability
  ``unseen[c] / N``;
* an opponent's three cards are a uniform hand from the unseen cards, and they play the
  best-ranked type present (greedy, :mod:`.policies`), a distribution in closed form;
* an opponent drawing back to three changes nothing I can see but the size of the pile;
* the card I draw back is one more unseen place until my next turn, when I look at it (the
  principle of deferred decisions: nothing before then depends on it).  So the search does not
  branch on my draw before the horizon it cannot affect.

Each node is one *view* (``Node``): the public situation, my hand and the unseen and played
cards as type counts.  Its value is every player's expected number of strips lost until the
horizon (``depth`` turns of mine from the root: 1 = until my next turn), the probability that
I lose none before my next turn, and the chance that my hand is stuck (no safe play) on the
horizon's turn (:meth:`BeliefSearch.next_play`).  My own later choices (my next turns when
``depth`` > 1, and the tokens returned with a card a question mark makes me carry out, which
counts as one of my turns unless it is the root's own action) minimise my expected loss and
stuck chance, then keep tokens, then maximise the others' loss.  A transposition table shares
equal views.  Question-mark chains longer than :data:`MAX_CHAIN` are cut (value 0, and the result is
marked as such: they need a deck of question marks).
"""

from __future__ import annotations

from collections.abc import Callable
from math import comb
from typing import Any

from partysolver.models.party_time.game import HAND_SIZE, Card, Counts, Play, Rules
from partysolver.models.party_time.state import (
    CARRY_OUT,
    DRAW,
    OVER,
    PLAY,
    REVEAL,
    Outcome,
    PartyTimeView,
    add_card,
    has_choice,
    plays_for,
    resolve,
)
from partysolver.solvers.budget import Budget, Meter
from partysolver.solvers.party_time.policies import greedy_order, number_choice, opponent_plays

R_CARD, QUESTION, FIVE = int(Card.R), int(Card.QUESTION), int(Card.FIVE)

MAX_CHAIN = 12
"""Question marks revealed in one chain beyond which the search stops following it."""

EPSILON = 1e-12

Node = tuple[Any, ...]
"""(phase, turn, refill, revealed, direction, bottle, tokens, strips, hand, pending, unseen,
played, segment, chain): a view of ``me``'s (``pending`` counts the cards I drew and have not
looked at yet), the number of my turns begun since the root, and the number of question marks
revealed in the current chain.  The phase is ``play``, ``reveal`` or ``carry-out``: a draw back
to three is taken at once (it is no choice, and mine is looked at later).  A horizon leaf is
the pair ``(NEXT_PLAY, stuck chance)``."""

Value = tuple[tuple[float, ...], float, float]
"""(expected strips lost per seat until the horizon, probability that ``me`` loses no strip
before their next turn, and the strips ``me`` is expected to lose on the play that begins the
horizon's turn: see :meth:`BeliefSearch.next_play`)."""

NEXT_PLAY = 9
"""The phase of a horizon node: my turn at the horizon, valued by :meth:`next_play`."""

Branch = tuple[float, int, "Node | None"]
"""(probability, the seat losing a strip on the way (-1: none), the next node or ``None`` when
the game or the horizon ends there)."""

# Node fields.
PHASE, TURN, REFILL, REVEALED, DIRECTION, BOTTLE, TOKENS, STRIPS, HAND, PENDING, UNSEEN, \
    PLAYED, SEGMENT, CHAIN = range(14)


class BeliefSearch:
    """Expectimax over ``me``'s views, by card type counts, to a horizon of ``depth`` turns."""

    def __init__(self, rules: Rules, players: int, me: int, depth: int,
                 budget: Budget | None = None, forget: bool = True,
                 meter: Meter | None = None) -> None:
        if depth < 1:
            raise ValueError("the horizon is at least one turn (depth >= 1)")
        self.rules = rules
        self.n = players
        self.me = me
        self.depth = depth
        self.meter: Meter = meter or (budget or Budget()).start()
        self.table: dict[Node, Value] = {}
        self.outcomes: dict[tuple[Any, ...], Outcome] = {}
        self.truncated = False
        self.zero: tuple[float, ...] = (0.0,) * players
        self.forget = forget
        """Whether nodes drop what cannot matter below them (see :meth:`forgetful`)."""

    # -- the root ----------------------------------------------------------------------------------

    def root(self, view: PartyTimeView) -> Node | None:
        """The node of ``view`` (``None`` when the game is over); a pending draw back to three
        is taken at once, as everywhere in this search."""
        if view.phase == OVER:
            return None
        unseen = view.unseen()
        if view.phase == DRAW:
            return self.draw_back(0, 0, view.turn, view.refill, view.direction, view.bottle,
                                  view.tokens, view.strips, view.hand, unseen, view.played)
        return (view.phase, view.turn, view.refill, view.revealed, view.direction, view.bottle,
                view.tokens, view.strips, view.hand, 0, unseen, view.played, 0, 0)

    # -- the value of a node ---------------------------------------------------------------------

    def value(self, node: Node | None) -> Value:
        """Every seat's expected strips lost to the horizon and my chance of no loss before my
        next turn; raises :class:`BudgetExhausted` past the budget."""
        if node is None:
            return self.zero, 1.0, 0.0
        if node[PHASE] == NEXT_PLAY:  # a horizon leaf: (NEXT_PLAY, risk)
            return self.zero, 1.0, node[1]
        if self.forget:
            node = self.forgetful(node)
        found = self.table.get(node)
        if found is not None:
            return found
        self.meter.node()
        phase, turn = node[PHASE], node[TURN]
        if phase == PLAY:
            if turn != self.me:
                result = self.expect(node, self.opponent_branches(node))
            elif node[PENDING]:
                result = self.expect(node, self.look_branches(node))
            else:
                result = self.best(node)[1]
        elif phase == REVEAL:
            result = self.expect(node, self.reveal_branches(node))
        elif turn == self.me:  # carry-out, my choice
            result = self.best(node)[1]
        else:
            card = node[REVEALED]
            returned, _ = number_choice(self.rules, node[BOTTLE], node[TOKENS][turn], card)
            result = self.expect(node, [self.carry_out(node, card, returned)])
        self.table[node] = result
        return result

    def next_play(self, bottle: int, tokens: int, hand: Counts, pending: int, unseen: Counts
                  ) -> float:
        """The chance that my hand at the horizon holds no play that keeps the bottle from
        crossing the star: the cards I kept, and the ones I drew and have not looked at yet
        (uniform among the unseen cards).  A special card is always safe to play; a number
        card is when its value, less the tokens I hold, stays within the squares left."""
        reach = self.rules.length - bottle + tokens
        if any(count and not (card <= FIVE and card + 1 > reach)
               for card, count in enumerate(hand)):
            return 0.0
        if not pending:
            return 1.0
        unsafe = sum(unseen[card] for card in range(FIVE + 1) if card + 1 > reach)
        return comb(unsafe, pending) / comb(sum(unseen), pending)

    def forgetful(self, node: Node) -> Node:
        """``node`` without what cannot change its value, so that more views transpose.

        My hand does not matter when a question mark makes me carry out a revealed card as my
        last action before the horizon.

        The played cards only matter once they are shuffled into a new pile; that cannot
        happen before the horizon when the pile is big enough.  Before the horizon at most
        ``r * n + n * R + Q`` cards are taken from the pile (``r`` stretches of at most ``n``
        plays from hand; each R card, played or revealed, adds at most ``n`` turns; each
        question mark one reveal), ``R`` and ``Q`` counting those cards among the unseen ones
        and in my hand.
        """
        hand, played = node[HAND], node[PLAYED]
        if hand and node[TURN] == self.me and node[PHASE] != PLAY and node[CHAIN] > 0 \
                and node[SEGMENT] == self.depth - 1:
            hand = ()  # my last action before the horizon: a revealed card, not from my hand
        if played:
            unseen = node[UNSEEN]
            r_cards = unseen[R_CARD] + (hand[R_CARD] if hand else 0)
            questions = unseen[QUESTION] + (hand[QUESTION] if hand else 0)
            taken = (self.depth - node[SEGMENT]) * self.n + self.n * r_cards + questions
            if self.pile_size(node[REFILL], unseen, node[PENDING]) > taken + 1:
                played = ()
        if played is node[PLAYED] and hand is node[HAND]:
            return node
        return node[:HAND] + (hand,) + node[PENDING:PLAYED] + (played,) + node[PLAYED + 1:]

    def expect(self, node: Node, branches: list[Branch]) -> Value:
        """A chance node (or a forced move): the probability-weighted sum over its branches."""
        me, first = self.me, node[SEGMENT] == 0
        losses = [0.0] * self.n
        safe = after = 0.0
        for probability, loser, child in branches:
            if child is not None:
                child_losses, child_safe, child_after = self.value(child)
                after += probability * child_after
                for seat, loss in enumerate(child_losses):
                    if loss:
                        losses[seat] += probability * loss
            else:
                child_safe = 1.0
            if loser >= 0:
                losses[loser] += probability
            if not (first and loser == me):
                safe += probability * child_safe
        return tuple(losses), safe, after

    def outcome_value(self, node: Node, branch: Branch) -> Value:
        """The value of one of my moves: its own loss plus its child's."""
        return self.expect(node, [branch])

    def best(self, node: Node) -> tuple[Play, Value]:
        """My best move at ``node``: least expected loss for me, then most tokens kept, then
        most loss for the others; the first in move order among equals."""
        best_play: Play | None = None
        best_key: tuple[float, float, float] | None = None
        best_value: Value | None = None
        for play, branch, outcome in self.my_moves(node):
            value = self.outcome_value(node, branch)
            key = self.preference(value, outcome)
            if best_key is None or _better(key, best_key):
                best_play, best_key, best_value = play, key, value
        assert best_play is not None and best_value is not None
        return best_play, best_value

    def preference(self, value: Value, outcome: Outcome) -> tuple[float, float, float]:
        """The sort key of one of my moves (smaller is better)."""
        losses = value[0]
        mine = losses[self.me]
        return mine + value[2], -outcome.tokens[self.me], -(sum(losses) - mine)

    # -- moves and chance -------------------------------------------------------------------------

    def my_moves(self, node: Node) -> list[tuple[Play, Branch, Outcome]]:
        """My plays at ``node`` (a card from hand, or the tokens with a revealed card), in the
        engine's order, each with its branch and what the card did."""
        me = self.me
        held = node[TOKENS][me]
        moves = []
        if node[PHASE] == CARRY_OUT:
            card = node[REVEALED]
            for play in plays_for(card, held):
                outcome = self.resolve(node, me, card, play.tokens)
                # Carrying out a card a question mark made me turn over is one of my actions
                # (it ends a stretch of the horizon), unless it is the root's own action.
                moves.append((play, self.after_card(node, outcome, card, node[REFILL],
                                                    node[HAND], node[UNSEEN], node[PLAYED],
                                                    node[CHAIN] > 0), outcome))
            return moves
        hand = node[HAND]
        for card, count in enumerate(hand):
            if not count:
                continue
            left = add_card(hand, card, -1)
            for play in plays_for(card, held):
                outcome = self.resolve(node, me, card, play.tokens)
                moves.append((play, self.after_card(node, outcome, card, me, left,
                                                    node[UNSEEN], node[PLAYED]), outcome))
        return moves

    def look_branches(self, node: Node) -> list[Branch]:
        """At the start of my turn I look at the card I drew: one of the unseen cards."""
        unseen = node[UNSEEN]
        total = sum(unseen)
        branches: list[Branch] = []
        for card, count in enumerate(unseen):
            if count:
                child = node[:HAND] + (add_card(node[HAND], card), node[PENDING] - 1,
                                       add_card(unseen, card, -1)) + node[PLAYED:]
                branches.append((count / total, -1, child))
        return branches

    def opponent_branches(self, node: Node) -> list[Branch]:
        """An opponent plays from three cards dealt from the unseen ones (greedy)."""
        turn, unseen, played = node[TURN], node[UNSEEN], node[PLAYED]
        order = greedy_order(self.rules, node[BOTTLE], node[TOKENS][turn])
        branches = []
        for card, returned, probability in opponent_plays(order, unseen, HAND_SIZE):
            outcome = self.resolve(node, turn, card, returned)
            _, loser, child = self.after_card(node, outcome, card, turn, node[HAND],
                                              add_card(unseen, card, -1), played)
            branches.append((probability, loser, child))
        return branches

    def reveal_branches(self, node: Node) -> list[Branch]:
        """The player hit by a question mark turns over the top card of the pile."""
        turn, unseen = node[TURN], node[UNSEEN]
        pile = self.pile_size(node[REFILL], unseen, node[PENDING])
        total = sum(unseen)
        branches = []
        for card, count in enumerate(unseen):
            if not count:
                continue
            left, played = reshuffled(add_card(unseen, card, -1), node[PLAYED], pile - 1)
            if has_choice(card, node[TOKENS][turn]):
                child: Node | None = (CARRY_OUT, turn, node[REFILL], card) + node[DIRECTION:HAND] \
                    + (node[HAND], node[PENDING], left, played, node[SEGMENT], node[CHAIN])
                branches.append((count / total, -1, child))
            else:
                outcome = self.resolve(node, turn, card, 0)
                _, loser, child = self.after_card(node, outcome, card, node[REFILL],
                                                  node[HAND], left, played, turn == self.me)
                branches.append((count / total, loser, child))
        return branches

    def carry_out(self, node: Node, card: int, returned: int) -> Branch:
        outcome = self.resolve(node, node[TURN], card, returned)
        return self.after_card(node, outcome, card, node[REFILL], node[HAND], node[UNSEEN],
                               node[PLAYED])

    # -- building the next node ---------------------------------------------------------------------

    def resolve(self, node: Node, actor: int, card: int, returned: int) -> Outcome:
        key = (node[BOTTLE], node[TOKENS], node[STRIPS], node[DIRECTION], actor, card, returned)
        found = self.outcomes.get(key)
        if found is None:
            found = resolve(self.rules, node[BOTTLE], node[TOKENS], node[STRIPS],
                            node[DIRECTION], actor, card, returned)
            self.outcomes[key] = found
        return found

    def after_card(self, node: Node, outcome: Outcome, card: int, refill: int, hand: Counts,
                   unseen: Counts, played: Counts, my_carry_out: bool = False) -> Branch:
        """The node once ``card`` has taken effect (it joins the played cards): the game is
        over, a question mark is answered, or the player who played draws back to three.
        Carrying out a revealed card is one of my actions: it ends a stretch of the horizon."""
        if played:  # () once no reshuffle can come before the horizon
            played = add_card(played, card)
        if outcome.over:
            return 1.0, outcome.loser, None
        segment = node[SEGMENT]
        if my_carry_out:
            segment += 1
            if segment >= self.depth:
                return 1.0, outcome.loser, None
        if outcome.reveal:
            chain = node[CHAIN] + 1
            if chain > MAX_CHAIN:
                self.truncated = True
                return 1.0, outcome.loser, None
            child = (REVEAL, outcome.next_player, refill, -1, outcome.direction, outcome.bottle,
                     outcome.tokens, outcome.strips, hand, node[PENDING], unseen, played,
                     segment, chain)
            return 1.0, outcome.loser, child
        return 1.0, outcome.loser, self.draw_back(
            node[PENDING], segment, outcome.next_player, refill, outcome.direction,
            outcome.bottle, outcome.tokens, outcome.strips, hand, unseen, played)

    def draw_back(self, pending: int, segment: int, turn: int, refill: int, direction: int,
                  bottle: int, tokens: tuple[int, ...], strips: tuple[int, ...], hand: Counts,
                  unseen: Counts, played: Counts) -> Node | None:
        """``refill`` draws back to three (mine stays unseen until I look), then ``turn`` plays
        (my turns count toward the horizon)."""
        pile = self.pile_size(refill, unseen, pending) - 1
        if refill == self.me:
            pending += 1
        unseen, played = reshuffled(unseen, played, pile)
        if turn == self.me:
            segment += 1
            if segment >= self.depth:
                return NEXT_PLAY, self.next_play(bottle, tokens[self.me], hand, pending,
                                                 unseen)
        return (PLAY, turn, -1, -1, direction, bottle, tokens, strips, hand, pending, unseen,
                played, segment, 0)

    def pile_size(self, refill: int, unseen: Counts, pending: int) -> int:
        """The unseen cards not in a hand (an opponent drawing back holds two cards)."""
        hidden = HAND_SIZE * (self.n - 1) + pending
        if refill >= 0 and refill != self.me:
            hidden -= 1
        return sum(unseen) - hidden


def reshuffled(unseen: Counts, played: Counts, pile: int) -> tuple[Counts, Counts]:
    """Once the last card is taken, the played cards become the new (unseen) pile."""
    if pile > 0:
        return unseen, played
    assert played, "a forgetful node ran out of pile (see BeliefSearch.forgetful)"
    return tuple(u + p for u, p in zip(unseen, played, strict=True)), (0,) * len(played)


def _better(key: tuple[float, float, float], best: tuple[float, float, float]) -> bool:
    """Lexicographic ``key < best`` with a tolerance for floating-point sums."""
    for a, b in zip(key, best, strict=True):
        if a < b - EPSILON:
            return True
        if a > b + EPSILON:
            return False
    return False


# -- ranking the root -----------------------------------------------------------------------------


def rank_root(search: BeliefSearch, node: Node,
              on_move: Callable[[int], None] | None = None
              ) -> list[tuple[Play, Value, Outcome]]:
    """Every move of mine at ``node`` with its exact value, in the engine's move order."""
    ranked = []
    for index, (play, branch, outcome) in enumerate(search.my_moves(node)):
        ranked.append((play, search.outcome_value(node, branch), outcome))
        if on_move:
            on_move(index)
    return ranked

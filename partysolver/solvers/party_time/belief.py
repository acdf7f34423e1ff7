"""The hint's search: expectimax over one player's information, with one consistent deal.

The model (see ``docs/solvers.md``): the asking player (``me``) knows their hand, the played
cards, the bottle, every token and strip, and the deck.  The unseen cards are dealt **once**
into the other hands and the pile, uniformly at random (the spec's information model), and the
game is played forward from that deal: each opponent plays greedy (:mod:`.policies`) from its
own hand, which is what it was dealt less what it played plus what it drew; a card seen played
is never in a hand again until a reshuffle puts it into the pile.

**How the deal is gone over.**  A node is a full situation as far as it has been dealt:

* the public situation, my hand, and the cards I drew and have not looked at yet;
* each opponent's hand: the cards already dealt to it (by type counts) and how many of its
  cards are still undealt, by *generation* (generation 0: the unseen cards of the root;
  generation ``g``: the pile rebuilt by the ``g``-th reshuffle, whose cards are the played
  cards, known by type);
* each generation's *pool*: its cards not dealt to any place yet.

The undealt places of one generation (the pile, undealt hand cards, the cards drawn and not
looked at) are exchangeable, so a place is dealt only when it matters, from its generation's
pool: an opponent's whole hand the moment it plays (every hand by type counts, with its
multivariate hypergeometric probability, :func:`~.deals.hands_from`); the top card of the
pile when a question mark turns it over (type ``c`` with probability ``pool[c] / N``); the
cards I drew when I look at them.  Nothing else is dealt: what an opponent draws stays
undealt until it plays again.  So the search enumerates exactly the distinct deals by type
counts, as far as they matter, each with its exact probability.

A *given deal* (:meth:`DealSearch.deal_root`, e.g. one of :func:`~.deals.sample_deals`) is
the same kind of node with every hand dealt and only the pile's order left to chance: its
value is exact over the pile's order.  The hint's estimates, where the exact search does not
fit, are playouts of sampled deals (:mod:`.playouts`); from the same deal they agree with this
value (``tests/party_time/test_party_time_playouts.py``).

**Values.**  Each node's value is every seat's expected strips lost until the horizon
(``depth`` turns of mine from the root: 1 = until my next turn), the probability that I lose
a strip *between* this turn and my next (on the others' cards: a black square; summed over
the branches that have such a loss, so exactly 0 when no deal allows one), and the
strips I am expected to lose on the play that begins the horizon's turn: a hand with no safe
card (:meth:`DealSearch.next_play`), or the card a question mark makes me carry out then.  My
own later choices (the tokens with a card a question mark makes me carry out, my next turns
when ``depth`` > 1) minimise my expected loss and stuck chance, then keep tokens, then
maximise the others' loss, and they are taken on what I know: from my next turn on, a node of
the search holds every deal consistent with what I have seen, with its probability
(:meth:`DealSearch.group_value`), and my choice is the best on average over them.  Before my
next choice (depth 1: the whole horizon) each deal is valued on its own
(:meth:`DealSearch.value`), with a transposition table.

Question-mark chains longer than :data:`MAX_CHAIN` are cut (value 0, and the result is marked
as such: they need a deck of question marks).
"""

from __future__ import annotations

from collections.abc import Callable
from math import comb
from typing import Any

from ...models.party_time.game import NO_CARDS, Card, Counts, Play, Rules
from ...models.party_time.state import (
    CARRY_OUT,
    OVER,
    PLAY,
    REVEAL,
    Outcome,
    PartyTimeView,
    add_card,
    add_counts,
    has_choice,
    plays_for,
    resolve,
)
from ..budget import Budget, Meter
from .deals import dealt_from
from .policies import greedy_order, number_choice

R_CARD, QUESTION, FIVE = int(Card.R), int(Card.QUESTION), int(Card.FIVE)

MAX_CHAIN = 12
"""Question marks revealed in one chain beyond which the search stops following it."""

EPSILON = 1e-12

Node = tuple[Any, ...]
"""(phase, turn, refill, revealed, direction, bottle, tokens, strips, hand, pending, pile,
played, segment, chain, opponents, pools).

``pending``: the cards I drew and have not looked at, per generation; ``pile``: the cards in
the pile now; ``segment``: my turns begun since the root; ``chain``: question marks revealed in
the current chain.  ``opponents``: per seat, ``None`` (me, or an opponent whose hand cannot
matter any more before the horizon) or ``(dealt, undealt)``: the types dealt to its hand and
its undealt cards per generation.  ``pools``: per generation, the types not dealt anywhere yet
(``None`` once nothing can be dealt from it).  The phase is ``play``, ``reveal`` or
``carry-out``: a draw back to three is taken at once.  A horizon leaf is the pair
``(NEXT_PLAY, risk)``.  ``node[:HIDDEN]`` is what I know; the rest is the deal."""

Value = tuple[tuple[float, ...], float, float]
"""(expected strips lost per seat until the horizon, the probability that ``me`` loses a strip
between this turn and their next, and the strips ``me`` is expected to lose on the play that
begins the horizon's turn)."""

NEXT_PLAY = 9
"""The phase of a horizon leaf: my turn at the horizon, valued by :meth:`next_play`."""

Branch = tuple[float, int, "Node | None", Any]
"""(probability, the seat losing a strip on the way (-1: none), the next node or ``None`` when
the game or the horizon ends there, what ``me`` sees happen: the play, or the card turned
over or looked at)."""

Hidden = tuple[Any, Any]
"""(opponents, pools): the part of a node that is the deal."""

PHASE, TURN, REFILL, REVEALED, DIRECTION, BOTTLE, TOKENS, STRIPS, HAND, PENDING, PILE, \
    PLAYED, SEGMENT, CHAIN, OPPONENTS, POOLS = range(16)
HIDDEN = OPPONENTS


class DealSearch:
    """Expectimax over ``me``'s information with one consistent deal, to ``depth`` turns."""

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
        self.groups: dict[Any, Value] = {}
        self.outcomes: dict[tuple[Any, ...], Outcome] = {}
        self.truncated = False
        self.zero: tuple[float, ...] = (0.0,) * players
        self.forget = forget
        """Whether nodes drop what cannot matter below them (see :meth:`forgetful`)."""

    # -- the roots -------------------------------------------------------------------------------

    def root(self, view: PartyTimeView) -> Node | None:
        """The node of ``view`` with nothing dealt: every other hand undealt (``None`` when the
        game is over)."""
        opponents = tuple(None if seat == self.me else (NO_CARDS, (view.hand_size(seat),))
                          for seat in range(self.n))
        return self._root(view, opponents, view.unseen(), view.pile_size())

    def deal_root(self, view: PartyTimeView, hands: tuple[Counts, ...], pile: Counts
                  ) -> Node | None:
        """The node of ``view`` for one deal: ``hands[seat]`` dealt to each other seat, the
        ``pile`` left (in random order)."""
        opponents = tuple(None if seat == self.me else (hands[seat], (0,))
                          for seat in range(self.n))
        return self._root(view, opponents, pile, sum(pile))

    def _root(self, view: PartyTimeView, opponents: tuple[Any, ...], pool: Counts, pile: int
              ) -> Node | None:
        if view.phase == OVER:
            return None
        if view.phase not in (PLAY, CARRY_OUT, REVEAL):
            raise ValueError("a search starts from a play, a reveal or a carry-out")
        return (view.phase, view.turn, view.refill, view.revealed, view.direction, view.bottle,
                view.tokens, view.strips, view.hand, (0,), pile, view.played, 0, 0, opponents,
                (pool,))

    # -- the value of one deal (or of the deals of one node, before my next choice) -------------

    def value(self, node: Node | None) -> Value:
        """Every seat's expected strips lost to the horizon, my chance of a loss between this
        turn and my next, and my expected loss on the horizon's play, over the deals of
        ``node`` valued one by one: valid where I have no choice left but how to carry out a
        card at the horizon (see :meth:`group_value`).  Raises :class:`BudgetExhausted` past
        the budget."""
        if node is None:
            return self.zero, 0.0, 0.0
        if node[PHASE] == NEXT_PLAY:  # a horizon leaf: (NEXT_PLAY, risk)
            return self.zero, 0.0, node[1]
        if self.forget:
            node = self.forgetful(node)
        found = self.table.get(node)
        if found is not None:
            return found
        self.meter.node()
        phase, turn = node[PHASE], node[TURN]
        if phase == PLAY:
            assert turn != self.me, "my turn before the horizon is valued by group_value"
            result = self.expect(node, self.opponent_branches(node))
        elif phase == REVEAL:
            result = self.expect(node, self.reveal_branches(node))
        elif turn == self.me:  # carry-out at the horizon: my choice
            result = self.best(node)[1]
        else:
            result = self.expect(node, [self.opponent_carry_out(node)])
        self.table[node] = result
        return result

    def expect(self, node: Node, branches: list[Branch]) -> Value:
        """A chance node (or an opponent's move): the probability-weighted sum over its
        branches.  A strip I lose there counts as a loss between turns only in the first
        stretch (it is never my own card: those are :meth:`outcome_value`'s).  The chance of
        such a loss is summed over the branches that have one, so that it is exactly 0 when
        none has."""
        me, first = self.me, node[SEGMENT] == 0
        losses = [0.0] * self.n
        hit = after = 0.0
        for probability, loser, child, _ in branches:
            if first and loser == me:
                hit += probability
            if child is not None:
                child_losses, child_hit, child_after = self.value(child)
                after += probability * child_after
                for seat, loss in enumerate(child_losses):
                    if loss:
                        losses[seat] += probability * loss
                if child_hit and not (first and loser == me):
                    hit += probability * child_hit
            if loser >= 0:
                losses[loser] += probability
        return tuple(losses), hit, after

    def outcome_value(self, node: Node, branch: Branch) -> Value:
        """The value of one of my moves at ``node`` (a deal valued on its own): what follows,
        plus the strip the move itself may cost me (never counted as a loss between turns)."""
        _, loser, child, _ = branch
        losses, hit, after = self.value(child)
        if loser >= 0:
            losses = _plus(losses, loser, 1.0)
        return losses, hit, after

    def best(self, node: Node) -> tuple[Play, Value]:
        """My best move at ``node`` (see :meth:`preference`); the first in move order among
        equals."""
        choices = [(play, self.outcome_value(node, branch), outcome)
                   for play, branch, outcome in self.my_moves(node)]
        return self._best(choices)

    def _best(self, choices: list[tuple[Play, Value, Outcome]]) -> tuple[Play, Value]:
        best_play: Play | None = None
        best_key: tuple[float, float, float] | None = None
        best_value: Value | None = None
        for play, value, outcome in choices:
            key = self.preference(value, outcome)
            if best_key is None or _better(key, best_key):
                best_play, best_key, best_value = play, key, value
        assert best_play is not None and best_value is not None
        return best_play, best_value

    def preference(self, value: Value, outcome: Outcome) -> tuple[float, float, float]:
        """The sort key of one of my moves (smaller is better): least loss for me (over the
        horizon and on its play), then most tokens kept, then most loss for the others."""
        losses = value[0]
        mine = losses[self.me]
        return mine + value[2], -outcome.tokens[self.me], -(sum(losses) - mine)

    def next_play(self, bottle: int, tokens: int, hand: Counts, pending: tuple[int, ...],
                  pools: tuple[Any, ...]) -> float:
        """The chance that my hand at the horizon holds no play that keeps the bottle from
        crossing the star: the cards I kept, and the ones I drew and have not looked at yet
        (undealt, from their generation's pool).  A special card is always safe to play; a
        number card is when its value, less the tokens I hold, stays within the squares
        left."""
        reach = self.rules.length - bottle + tokens
        if any(count and not (card <= FIVE and card + 1 > reach)
               for card, count in enumerate(hand)):
            return 0.0
        risk = 1.0
        for gen, drawn in enumerate(pending):
            if drawn:
                pool = pools[gen]
                unsafe = sum(pool[card] for card in range(FIVE + 1) if card + 1 > reach)
                risk *= comb(unsafe, drawn) / comb(sum(pool), drawn)
        return risk

    # -- the deals of one node, from my next choice on ------------------------------------------

    def group_value(self, shared: Node, deals: dict[Hidden, float]) -> Value:
        """The value of what I know (``shared``: a node without its deal) when ``deals`` are
        the deals consistent with it, with their probabilities (summing to 1).  My choices
        here are the best on average over them; chance and the opponents split them by what I
        see happen.  Once no choice of mine is left before the horizon (the last stretch,
        after my play) each deal is valued on its own."""
        if shared[SEGMENT] == self.depth - 1 and not (shared[TURN] == self.me
                                                      and shared[PHASE] == PLAY):
            return _mix([(weight, self.value(shared + hidden))
                         for hidden, weight in deals.items()], self.n)
        key = (shared, frozenset(deals.items()))
        found = self.groups.get(key)
        if found is not None:
            return found
        self.meter.node()
        phase, turn = shared[PHASE], shared[TURN]
        if turn == self.me and phase == PLAY and any(shared[PENDING]):
            result = self._group_expect(shared, deals, self.look_branches)
        elif turn == self.me and phase in (PLAY, CARRY_OUT):
            result = self._best([(play, value, outcome) for play, value, outcome
                                 in self.group_moves(shared, deals)])[1]
        elif phase == PLAY:
            result = self._group_expect(shared, deals, self.opponent_branches)
        elif phase == REVEAL:
            result = self._group_expect(shared, deals, self.reveal_branches)
        else:
            result = self._group_expect(shared, deals,
                                        lambda node: [self.opponent_carry_out(node)])
        self.groups[key] = result
        return result

    def group_moves(self, shared: Node, deals: dict[Hidden, float]
                    ) -> list[tuple[Play, Value, Outcome]]:
        """Each of my moves at ``shared`` with its value over ``deals``."""
        per_move: list[list[Any]] = []
        for hidden, weight in deals.items():
            for index, (play, branch, outcome) in enumerate(self.my_moves(shared + hidden)):
                if index == len(per_move):
                    per_move.append([play, outcome, branch[1], [], {}, None])
                self._gather(per_move[index], weight, branch)
        found = []
        for play, outcome, loser, leaves, children, child_shared in per_move:
            losses, hit, after = self._settle(leaves, children, child_shared)
            if loser >= 0:
                losses = _plus(losses, loser, 1.0)
            found.append((play, (losses, hit, after), outcome))
        return found

    def move_value(self, node: Node, branch: Branch) -> Value:
        """The value of one of my moves at a root ``node``: each deal on its own at depth 1,
        and from my next choice on over the deals consistent with what I see."""
        if self.depth == 1:
            return self.outcome_value(node, branch)
        _, loser, child, _ = branch
        if child is None or child[PHASE] == NEXT_PLAY:
            value = self.value(child)
        else:
            value = self.group_value(child[:HIDDEN], {child[HIDDEN:]: 1.0})
        losses, hit, after = value
        if loser >= 0:
            losses = _plus(losses, loser, 1.0)
        return losses, hit, after

    def _group_expect(self, shared: Node, deals: dict[Hidden, float],
                      branches: Callable[[Node], list[Branch]]) -> Value:
        """Chance or an opponent over ``deals``: every deal's branches, gathered by what I see
        (the deals behind one sight form the next node's deals)."""
        first = shared[SEGMENT] == 0
        by_sight: dict[Any, list[Any]] = {}
        losses = [0.0] * self.n
        hit = after = 0.0
        leaves: list[tuple[float, Value]] = []
        for hidden, weight in deals.items():
            for probability, loser, child, sight in branches(shared + hidden):
                mass = weight * probability
                if child is None or child[PHASE] == NEXT_PLAY:
                    child_losses, child_hit, child_after = self.value(child)
                    if loser >= 0:
                        child_losses = _plus(child_losses, loser, 1.0)
                    if first and loser == self.me:
                        child_hit = 1.0
                    leaves.append((mass, (child_losses, child_hit, child_after)))
                    continue
                group = by_sight.get(sight)
                if group is None:
                    group = by_sight[sight] = [loser, child[:HIDDEN], {}]
                children = group[2]
                part = child[HIDDEN:]
                children[part] = children.get(part, 0.0) + mass
        for mass, (child_losses, child_hit, child_after) in leaves:
            for seat, loss in enumerate(child_losses):
                losses[seat] += mass * loss
            hit += mass * child_hit
            after += mass * child_after
        for loser, child_shared, children in by_sight.values():
            total = sum(children.values())
            child_losses, child_hit, child_after = self.group_value(
                child_shared, {part: mass / total for part, mass in children.items()})
            for seat, loss in enumerate(child_losses):
                losses[seat] += total * loss
            if loser >= 0:
                losses[loser] += total
            hit += total * (1.0 if first and loser == self.me else child_hit)
            after += total * child_after
        return tuple(losses), hit, after

    def _gather(self, move: list[Any], weight: float, branch: Branch) -> None:
        """Add one deal's branch of one of my moves to ``move`` = [play, outcome, loser,
        leaves, children, child_shared]."""
        _, _, child, _ = branch
        if child is None or child[PHASE] == NEXT_PLAY:
            move[3].append((weight, self.value(child)))
            return
        move[5] = child[:HIDDEN]
        part = child[HIDDEN:]
        move[4][part] = move[4].get(part, 0.0) + weight

    def _settle(self, leaves: list[tuple[float, Value]], children: dict[Hidden, float],
                child_shared: Node | None) -> Value:
        parts = list(leaves)
        total = sum(children.values())
        if children:
            assert child_shared is not None
            parts.append((total, self.group_value(
                child_shared, {part: mass / total for part, mass in children.items()})))
        return _mix(parts, self.n)

    # -- forgetting what cannot matter ------------------------------------------------------------

    def forgetful(self, node: Node) -> Node:
        """``node`` without what cannot change its value, so that more nodes transpose.

        * My hand does not matter when a question mark makes me carry out a revealed card as
          my last action before the horizon.
        * The played cards only matter once they are shuffled into a new pile; that cannot
          happen before the horizon when the pile is big enough.  Before the horizon at most
          ``r * n + n * R + Q`` cards are taken from the pile (``r`` stretches of at most
          ``n`` plays from hand; each R card, played or revealed, adds at most ``n`` turns;
          each question mark one reveal), ``R`` and ``Q`` counting those cards wherever they
          may still be but the played cards.
        * In the last stretch, when no R card can be played before the horizon, an opponent
          who has played in it (or is carrying out a card) cannot play from hand again before
          my turn: its hand no longer matters (its undealt cards stay in their pools).
        * A past generation's pool matters only while some undealt hand card of it may still
          be dealt.
        """
        me, n = self.me, self.n
        hand, played, opponents, pools = node[HAND], node[PLAYED], node[OPPONENTS], node[POOLS]
        final = node[SEGMENT] == self.depth - 1
        if hand and node[TURN] == me and node[PHASE] != PLAY and node[CHAIN] > 0 and final:
            hand = ()  # my last action before the horizon: a revealed card, not from my hand
        r_cards = questions = 0  # where R cards and question marks may still come from
        for pool in pools:
            if pool is not None:
                r_cards += pool[R_CARD]
                questions += pool[QUESTION]
        for held in opponents:
            if held is not None:
                r_cards += held[0][R_CARD]
                questions += held[0][QUESTION]
        if played:
            mine_r = hand[R_CARD] if hand else 0
            mine_q = hand[QUESTION] if hand else 0
            taken = (self.depth - node[SEGMENT]) * n + n * (r_cards + mine_r) \
                + questions + mine_q
            if node[PILE] > taken + 1:
                played = ()
        if final and not r_cards and not (played and played[R_CARD]):
            opponents = self._live_only(node, opponents)
        gen = len(pools) - 1
        if gen:
            pending = node[PENDING]
            kept = tuple(pool if g == gen or pool is None or pending[g]
                         or any(held is not None and held[1][g] for held in opponents)
                         else None for g, pool in enumerate(pools))
            if kept != pools:
                pools = kept
        if played is node[PLAYED] and hand is node[HAND] and opponents is node[OPPONENTS] \
                and pools is node[POOLS]:
            return node
        return node[:HAND] + (hand,) + node[PENDING:PLAYED] + (played,) \
            + node[SEGMENT:OPPONENTS] + (opponents, pools)

    def _live_only(self, node: Node, opponents: tuple[Any, ...]) -> tuple[Any, ...]:
        """``opponents`` with only the hands of those who still play from hand before my turn
        (no R card can change the order)."""
        me, n, direction = self.me, self.n, node[DIRECTION]
        seat = node[TURN]
        if node[PHASE] != PLAY:
            seat = (seat + direction) % n  # carrying out a card: done with its hand
        live = set()
        while seat != me:
            live.add(seat)
            seat = (seat + direction) % n
        kept = tuple(hand if seat in live else None for seat, hand in enumerate(opponents))
        return opponents if kept == opponents else kept

    # -- moves and chance ------------------------------------------------------------------------

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
                # Carrying out a card a question mark made me turn over is one of my turns
                # (it ends a stretch of the horizon), unless it is the root's own action.
                moves.append((play, self.after_card(
                    node, outcome, card, node[REFILL], node[HAND], node[OPPONENTS],
                    node[POOLS], node[PILE], node[PLAYED], node[CHAIN] > 0, play), outcome))
            return moves
        hand = node[HAND]
        for card, count in enumerate(hand):
            if not count:
                continue
            left = add_card(hand, card, -1)
            for play in plays_for(card, held):
                outcome = self.resolve(node, me, card, play.tokens)
                moves.append((play, self.after_card(
                    node, outcome, card, me, left, node[OPPONENTS], node[POOLS], node[PILE],
                    node[PLAYED], False, play), outcome))
        return moves

    def opponent_branches(self, node: Node) -> list[Branch]:
        """An opponent plays greedy from its own hand: dealt now if it is not yet (every hand
        by type counts with its probability), what it was dealt otherwise."""
        turn, opponents = node[TURN], node[OPPONENTS]
        held = opponents[turn]
        assert held is not None, "a forgotten hand plays"
        dealt, undealt = held
        order = greedy_order(self.rules, node[BOTTLE], node[TOKENS][turn])
        branches: list[Branch] = []
        leaves: dict[tuple[int, int], Outcome | None] = {}
        me = self.me
        for probability, hand, pools in self.deal_hand(dealt, undealt, node[POOLS]):
            choice = next(choice for choice in order if hand[choice[0]])
            card, returned = choice
            if choice not in leaves:
                outcome = self.resolve(node, turn, card, returned)
                last = not outcome.over and not outcome.reveal and outcome.next_player == me \
                    and node[SEGMENT] + 1 >= self.depth
                leaves[choice] = outcome if last else None
            outcome_or_none = leaves[choice]
            if outcome_or_none is not None:
                # the card hands the turn to me at the horizon: what the opponent keeps and
                # draws no longer matters, only the pools my drawn cards come from
                outcome = outcome_or_none
                risk = self.next_play(outcome.bottle, outcome.tokens[me], node[HAND],
                                      node[PENDING], pools)
                branches.append((probability, outcome.loser, (NEXT_PLAY, risk), choice))
                continue
            outcome = self.resolve(node, turn, card, returned)
            left = list(opponents)
            left[turn] = (add_card(hand, card, -1), (0,) * len(undealt))
            _, loser, child, _ = self.after_card(node, outcome, card, turn, node[HAND],
                                                 tuple(left), pools, node[PILE],
                                                 node[PLAYED], False, None)
            branches.append((probability, loser, child, choice))
        return branches

    def deal_hand(self, dealt: Counts, undealt: tuple[int, ...], pools: tuple[Any, ...]
                  ) -> list[tuple[float, Counts, tuple[Any, ...]]]:
        """Every way to deal a hand's undealt cards, generation by generation: (probability,
        the whole hand, the pools left).  Each hand dealt counts as a node of the budget."""
        found: list[tuple[float, Counts, tuple[Any, ...]]] = [(1.0, dealt, pools)]
        for gen, count in enumerate(undealt):
            if not count:
                continue
            grown = []
            node = self.meter.node
            for probability, hand, left in found:
                before, after = left[:gen], left[gen + 1:]
                empty = not any(hand)
                for cards, _, chance, rest in dealt_from(left[gen], count):
                    node()
                    grown.append((probability * chance, cards if empty else add_counts(hand, cards),
                                  before + (rest,) + after))
            found = grown
        return found

    def look_branches(self, node: Node) -> list[Branch]:
        """At the start of my turn I look at the cards I drew: dealt now from their pools."""
        me_hand = node[HAND]
        pending = node[PENDING]
        branches: list[Branch] = []
        for probability, hand, pools in self.deal_hand(me_hand, pending, node[POOLS]):
            child = node[:HAND] + (hand, (0,) * len(pending)) + node[PILE:POOLS] + (pools,)
            branches.append((probability, -1, child, hand))
        return branches

    def reveal_branches(self, node: Node) -> list[Branch]:
        """The player hit by a question mark turns over the top card of the pile: one of the
        undealt cards of the current generation."""
        turn, pools = node[TURN], node[POOLS]
        gen = len(pools) - 1
        pool = pools[gen]
        total = sum(pool)
        branches: list[Branch] = []
        for card, count in enumerate(pool):
            if not count:
                continue
            probability = count / total
            left = pools[:gen] + (add_card(pool, card, -1),)
            pile, played, pending, opponents, left = self.taken(
                node[PILE], node[PLAYED], node[PENDING], node[OPPONENTS], left)
            if has_choice(card, node[TOKENS][turn]):
                child: Node | None = (CARRY_OUT, turn, node[REFILL], card) \
                    + node[DIRECTION:HAND] + (node[HAND], pending, pile, played,
                                              node[SEGMENT], node[CHAIN], opponents, left)
                branches.append((probability, -1, child, card))
            else:
                outcome = self.resolve(node, turn, card, 0)
                moved = node[:PENDING] + (pending,) + node[PILE:]
                _, loser, child, _ = self.after_card(moved, outcome, card, node[REFILL],
                                                     node[HAND], opponents, left, pile,
                                                     played, turn == self.me, card)
                branches.append((probability, loser, child, card))
        return branches

    def opponent_carry_out(self, node: Node) -> Branch:
        """An opponent carries out a revealed number card with greedy's tokens."""
        card = node[REVEALED]
        returned, _ = number_choice(self.rules, node[BOTTLE], node[TOKENS][node[TURN]], card)
        outcome = self.resolve(node, node[TURN], card, returned)
        return self.after_card(node, outcome, card, node[REFILL], node[HAND],
                               node[OPPONENTS], node[POOLS], node[PILE], node[PLAYED], False,
                               returned)

    # -- building the next node -------------------------------------------------------------------

    def resolve(self, node: Node, actor: int, card: int, returned: int) -> Outcome:
        key = (node[BOTTLE], node[TOKENS], node[STRIPS], node[DIRECTION], actor, card, returned)
        found = self.outcomes.get(key)
        if found is None:
            found = resolve(self.rules, node[BOTTLE], node[TOKENS], node[STRIPS],
                            node[DIRECTION], actor, card, returned)
            self.outcomes[key] = found
        return found

    def after_card(self, node: Node, outcome: Outcome, card: int, refill: int, hand: Counts,
                   opponents: tuple[Any, ...], pools: tuple[Any, ...], pile: int,
                   played: Counts, my_carry_out: bool, sight: Any) -> Branch:
        """The node once ``card`` has taken effect (it joins the played cards): the game is
        over, a question mark is answered, or the player who played draws back to three.
        Carrying out a revealed card is one of my turns: it ends a stretch of the horizon, and
        at the horizon its loss is the horizon play's."""
        if played:  # () once no reshuffle can come before the horizon
            played = add_card(played, card)
        loser = outcome.loser
        segment = node[SEGMENT]
        if my_carry_out:
            segment += 1
            if segment >= self.depth:
                if loser == self.me:
                    return 1.0, -1, (NEXT_PLAY, 1.0), sight
                return 1.0, loser, None, sight
        if outcome.over:
            return 1.0, loser, None, sight
        if outcome.reveal:
            chain = node[CHAIN] + 1
            if chain > MAX_CHAIN:
                self.truncated = True
                return 1.0, loser, None, sight
            child = (REVEAL, outcome.next_player, refill, -1, outcome.direction, outcome.bottle,
                     outcome.tokens, outcome.strips, hand, node[PENDING], pile, played, segment,
                     chain, opponents, pools)
            return 1.0, loser, child, sight
        return 1.0, loser, self.draw_back(
            node[PENDING], pile, segment, outcome.next_player, refill, outcome.direction,
            outcome.bottle, outcome.tokens, outcome.strips, hand, played, opponents,
            pools), sight

    def draw_back(self, pending: tuple[int, ...], pile: int, segment: int, turn: int,
                  refill: int, direction: int, bottle: int, tokens: tuple[int, ...],
                  strips: tuple[int, ...], hand: Counts, played: Counts,
                  opponents: tuple[Any, ...], pools: tuple[Any, ...]) -> Node | None:
        """``refill`` draws back to three (the card stays undealt: mine until I look, an
        opponent's until it plays), then ``turn`` plays (my turns count toward the horizon)."""
        gen = len(pools) - 1
        if refill == self.me:
            pending = pending[:gen] + (pending[gen] + 1,)
        elif refill >= 0 and opponents[refill] is not None:
            dealt, undealt = opponents[refill]
            changed = list(opponents)
            changed[refill] = (dealt, undealt[:gen] + (undealt[gen] + 1,))
            opponents = tuple(changed)
        if refill >= 0:
            pile, played, pending, opponents, pools = self.taken(pile, played, pending,
                                                                 opponents, pools)
        if turn == self.me:
            segment += 1
            if segment >= self.depth:
                return NEXT_PLAY, self.next_play(bottle, tokens[self.me], hand, pending,
                                                 pools)
        return (PLAY, turn, -1, -1, direction, bottle, tokens, strips, hand, pending, pile,
                played, segment, 0, opponents, pools)

    @staticmethod
    def taken(pile: int, played: Counts, pending: tuple[int, ...], opponents: tuple[Any, ...],
              pools: tuple[Any, ...]) -> tuple[int, Counts, tuple[int, ...], tuple[Any, ...],
                                               tuple[Any, ...]]:
        """One card has left the pile; once the last is taken, the played cards become a new
        pile: a new generation, whose pool is those cards (known by type)."""
        pile -= 1
        if pile > 0:
            return pile, played, pending, opponents, pools
        assert played, "a forgetful node ran out of pile (see DealSearch.forgetful)"
        assert any(played), "no card left to rebuild the pile"
        opponents = tuple(None if held is None else (held[0], held[1] + (0,))
                          for held in opponents)
        return sum(played), NO_CARDS, pending + (0,), opponents, pools + (played,)


def _plus(losses: tuple[float, ...], seat: int, amount: float) -> tuple[float, ...]:
    changed = list(losses)
    changed[seat] += amount
    return tuple(changed)


def _mix(parts: list[tuple[float, Value]], n: int) -> Value:
    losses = [0.0] * n
    hit = after = 0.0
    for weight, (part_losses, part_hit, part_after) in parts:
        for seat, loss in enumerate(part_losses):
            losses[seat] += weight * loss
        hit += weight * part_hit
        after += weight * part_after
    return tuple(losses), hit, after


def _better(key: tuple[float, float, float], best: tuple[float, float, float]) -> bool:
    """Lexicographic ``key < best`` with a tolerance for floating-point sums."""
    for a, b in zip(key, best, strict=True):
        if a < b - EPSILON:
            return True
        if a > b + EPSILON:
            return False
    return False


# -- ranking the root -----------------------------------------------------------------------------


def rank_root(search: DealSearch, node: Node,
              on_move: Callable[[int], None] | None = None
              ) -> list[tuple[Play, Value, Outcome]]:
    """Every move of mine at ``node`` with its value, in the engine's move order."""
    ranked = []
    for index, (play, branch, outcome) in enumerate(search.my_moves(node)):
        ranked.append((play, search.move_value(node, branch), outcome))
        if on_move:
            on_move(index)
    return ranked


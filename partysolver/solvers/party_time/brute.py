"""The naive baseline of the hint's search: every individual card, no counting, no table.

:class:`EnumerationSearch` computes the same values as :class:`~.belief.BeliefSearch` (same
model, same horizon) the plain way: an opponent's hand is each of the ``C(N, 3)`` sets of
individual unseen cards in turn, and greedy's play is worked out from each hand (no closed
form); every individual card the top of the pile could be, and every card I could look at, is
a branch of its own (no merging of equal card types); and no transposition table.  It is the
test oracle of the closed form and of the merging, and the baseline of
``benchmarks/party_time.py``.
"""

from __future__ import annotations

from itertools import combinations

from ...models.party_time.game import CARDS, HAND_SIZE, Counts, Rules
from ...models.party_time.state import add_card, has_choice
from ..budget import Budget
from .belief import (
    BOTTLE,
    CARRY_OUT,
    CHAIN,
    DIRECTION,
    HAND,
    PENDING,
    PLAYED,
    REFILL,
    SEGMENT,
    TOKENS,
    TURN,
    UNSEEN,
    BeliefSearch,
    Branch,
    Node,
    Value,
    reshuffled,
)
from .policies import greedy_choice


class NoTable(dict[Node, Value]):
    """A transposition table that remembers nothing."""

    def __setitem__(self, key: Node, value: Value) -> None:
        pass


def individual(counts: Counts) -> list[int]:
    """The unseen cards one by one (their types, one entry per card)."""
    return [card for card, n in enumerate(counts) for _ in range(n)]


class EnumerationSearch(BeliefSearch):
    """:class:`~.belief.BeliefSearch` by enumeration over individual cards."""

    def __init__(self, rules: Rules, players: int, me: int, depth: int,
                 budget: Budget | None = None) -> None:
        super().__init__(rules, players, me, depth, budget, forget=False)
        self.table = NoTable()  # no transpositions: every path is searched again

    def opponent_branches(self, node: Node) -> list[Branch]:
        turn, unseen, played = node[TURN], node[UNSEEN], node[PLAYED]
        cards = individual(unseen)
        hands = list(combinations(range(len(cards)), HAND_SIZE))
        branches = []
        for chosen in hands:
            hand = [0] * len(CARDS)
            for index in chosen:
                hand[cards[index]] += 1
            card, returned = greedy_choice(self.rules, node[BOTTLE], node[TOKENS][turn],
                                           tuple(hand))
            outcome = self.resolve(node, turn, card, returned)
            _, loser, child = self.after_card(node, outcome, card, turn, node[HAND],
                                              add_card(unseen, card, -1), played)
            branches.append((1 / len(hands), loser, child))
        return branches

    def reveal_branches(self, node: Node) -> list[Branch]:
        turn, unseen = node[TURN], node[UNSEEN]
        pile = self.pile_size(node[REFILL], unseen, node[PENDING])
        cards = individual(unseen)
        branches: list[Branch] = []
        for card in cards:
            left, played = reshuffled(add_card(unseen, card, -1), node[PLAYED], pile - 1)
            if has_choice(card, node[TOKENS][turn]):
                child: Node | None = (CARRY_OUT, turn, node[REFILL], card) \
                    + node[DIRECTION:HAND] + (node[HAND], node[PENDING], left, played,
                                              node[SEGMENT], node[CHAIN])
                branches.append((1 / len(cards), -1, child))
            else:
                outcome = self.resolve(node, turn, card, 0)
                _, loser, child = self.after_card(node, outcome, card, node[REFILL],
                                                  node[HAND], left, played, turn == self.me)
                branches.append((1 / len(cards), loser, child))
        return branches

    def look_branches(self, node: Node) -> list[Branch]:
        unseen = node[UNSEEN]
        cards = individual(unseen)
        return [(1 / len(cards), -1, node[:HAND] + (add_card(node[HAND], card), node[PENDING] - 1,
                                                    add_card(unseen, card, -1)) + node[PLAYED:])
                for card in cards]

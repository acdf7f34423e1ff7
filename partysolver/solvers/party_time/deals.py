"""The deal of the cards a player cannot see: made once, by card-type counts.

From one seat, the unseen cards (the other hands and the pile) are uniformly distributed over
the unseen places (the spec's information model).  The deal is made once: a hand keeps its
cards until they are played and changes only by what its owner draws, and a card seen played
is never in a hand again until a reshuffle puts it into the pile.

Two ways to go over the deals:

* **Exactly**, by type counts: the hands of ``k`` cards that ``pool`` can deal, each with its
  number of individual-card hands (:func:`hands_from`; multivariate hypergeometric: the
  product of ``C(pool[c], hand[c])`` over the types, out of ``C(N, k)``).  The search deals a
  hand when its owner first plays (:mod:`.belief`): the undealt places are exchangeable, so
  that is the same distribution as dealing everything at the start.
* **By sampling**: :func:`sample_deals` deals every unseen card at random, once per sample.
  The hint's estimates and its long-run playouts read the same samples (sample ``k`` is the
  same deal for every play: paired).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from math import comb

from ...models.party_time.game import CARDS, NO_CARDS, Counts, cards_of, counts_of
from ...models.party_time.state import PartyTimeView

TYPES = len(CARDS)


@lru_cache(maxsize=1 << 16)
def hands_from(pool: Counts, size: int) -> tuple[tuple[Counts, int], ...]:
    """Every hand of ``size`` cards ``pool`` can deal, by type counts, with the number of ways
    to deal it from the individual cards (their sum is ``C(sum(pool), size)``)."""
    return tuple((hand, ways) for hand, ways, _, _ in dealt_from(pool, size))


@lru_cache(maxsize=1 << 16)
def dealt_from(pool: Counts, size: int) -> tuple[tuple[Counts, int, float, Counts], ...]:
    """:func:`hands_from` with each hand's probability and the pool it leaves: (hand, ways,
    probability, the rest of the pool)."""
    total = comb(sum(pool), size)
    return tuple((hand, ways, ways / total, tuple(p - h for p, h in zip(pool, hand, strict=True)))
                 for hand, ways in _hands(pool, size))


def _hands(pool: Counts, size: int) -> list[tuple[Counts, int]]:
    found: list[tuple[Counts, int]] = []
    hand = [0] * TYPES
    left_after = [0] * (TYPES + 1)
    for c in range(TYPES - 1, -1, -1):
        left_after[c] = left_after[c + 1] + pool[c]

    def deal(c: int, left: int, ways: int) -> None:
        if left == 0:
            found.append((tuple(hand), ways))
            return
        if left_after[c] < left:
            return
        top = min(left, pool[c])
        for k in range(top, -1, -1):
            hand[c] = k
            deal(c + 1, left - k, ways * comb(pool[c], k))
        hand[c] = 0

    if sum(pool) >= size:
        deal(0, size, 1)
    return found


@dataclass(frozen=True, slots=True)
class Deals:
    """Sampled deals of one view's unseen cards: ``hands[k][seat]`` (the asking player's own
    entry empty) and ``piles[k]``, the rest, whose order stays random."""

    hands: tuple[tuple[Counts, ...], ...]
    piles: tuple[Counts, ...]

    def __len__(self) -> int:
        return len(self.piles)

    def prefix(self, count: int) -> Deals:
        return Deals(self.hands[:count], self.piles[:count])


def sample_deals(view: PartyTimeView, count: int, seed: int) -> Deals:
    """``count`` independent deals of ``view``'s unseen cards over the other hands (at their
    sizes) and the pile, from ``random.Random(seed)``."""
    rng = random.Random(seed)
    unseen = cards_of(view.unseen())
    sizes = [0 if seat == view.player else view.hand_size(seat)
             for seat in range(view.num_players)]
    hands: list[tuple[Counts, ...]] = []
    piles: list[Counts] = []
    for _ in range(count):
        cards = unseen[:]
        rng.shuffle(cards)
        dealt: list[Counts] = []
        start = 0
        for size in sizes:
            dealt.append(counts_of(cards[start:start + size]) if size else NO_CARDS)
            start += size
        hands.append(tuple(dealt))
        piles.append(counts_of(cards[start:]))
    return Deals(tuple(hands), tuple(piles))


def distinct_deals(view: PartyTimeView, cap: int) -> int:
    """How many distinct deals (by type counts) of ``view``'s unseen cards there are over the
    other hands and the pile, up to ``cap`` (``cap`` + 1 when over): the ways to split each
    type's unseen cards between the hands (the pile takes the rest), counted type by type
    over what each hand still has room for."""
    sizes = tuple(view.hand_size(seat) for seat in range(view.num_players)
                  if seat != view.player)
    ways: dict[tuple[int, ...], int] = {sizes: 1}
    unseen = view.unseen()
    left = sum(unseen)
    for count in unseen:
        grown: dict[tuple[int, ...], int] = {}
        for room, number in ways.items():
            for after in _splits(room, count):
                grown[after] = grown.get(after, 0) + number
        left -= count
        ways = {room: number for room, number in grown.items() if sum(room) <= left}
        if sum(ways.values()) > cap:
            return cap + 1
    return min(sum(ways.values()), cap + 1)


@lru_cache(maxsize=4096)
def _splits(room: tuple[int, ...], count: int) -> tuple[tuple[int, ...], ...]:
    """The rooms left after giving at most ``count`` cards of one type to hands with ``room``
    left, one entry per way."""
    found: list[tuple[int, ...]] = [()]
    for space in room:
        found = [split + (k,) for split in found
                 for k in range(min(space, count - sum(split)) + 1)]
    return tuple(tuple(r - k for r, k in zip(room, split, strict=True)) for split in found)


def deal_count(pool: Counts, size: int) -> int:
    """``C(N, size)``: the individual-card hands of ``size`` from ``pool``."""
    return comb(sum(pool), size)

"""The deals of the unseen cards: by type counts with their exact weights, counted, and sampled."""

from __future__ import annotations

from itertools import combinations
from math import comb

from party_time_positions import decisions

from partysolver.models.party_time.game import NO_CARDS, counts_of
from partysolver.models.party_time.state import add_counts
from partysolver.solvers.party_time.brute import every_deal, individual
from partysolver.solvers.party_time.deals import distinct_deals, hands_from, sample_deals

SMALL = {"1": 3, "2": 2, "3": 2, "4": 1, "5": 1, "R": 1, "black": 1, "star": 1, "?": 1}


def test_hands_by_type_count_the_individual_hands() -> None:
    """Every hand by type counts, with its number of individual-card hands: the counts are
    those of plain enumeration over individual cards, and they sum to C(N, k)."""
    pool = (3, 0, 2, 1, 0, 2, 1, 0, 1)
    cards = individual(pool)
    for size in range(5):
        plain: dict[tuple[int, ...], int] = {}
        for chosen in combinations(range(len(cards)), size):
            hand = counts_of([cards[i] for i in chosen])
            plain[hand] = plain.get(hand, 0) + 1
        assert dict(hands_from(pool, size)) == plain
        assert sum(ways for _, ways in hands_from(pool, size)) == comb(len(cards), size)


def test_distinct_deals_are_counted_exactly_and_capped() -> None:
    """The count of distinct deals by type counts is that of the individual deals' distinct
    type patterns, and stops at the cap."""
    for state in decisions(3, 3, 4, SMALL):
        view = state.view(state.current_player())
        patterns = {tuple(deal.hands[seat] for seat in range(3) if seat != view.player)
                    for deal in every_deal(view)}
        assert distinct_deals(view, 10**6) == len(patterns)
        assert distinct_deals(view, len(patterns) - 1) == len(patterns)
        assert distinct_deals(view, 1) == 2


def test_sampled_deals_fill_every_hand_and_the_pile() -> None:
    """Each sampled deal puts every unseen card somewhere: each other hand at its size, the
    rest in the pile, nothing in the asking player's entry; a seed gives the same deals, a
    shorter sample is the start of a longer one, and the deals vary."""
    for state in decisions(4, 4, 6):
        view = state.view(state.current_player())
        deals = sample_deals(view, 50, 3)
        assert len(deals) == 50 and deals == sample_deals(view, 50, 3)
        assert deals.prefix(20) == sample_deals(view, 20, 3)
        assert len(set(deals.hands)) > 1
        for hands, pile in zip(deals.hands, deals.piles, strict=True):
            total = pile
            for seat, hand in enumerate(hands):
                assert sum(hand) == (0 if seat == view.player else view.hand_size(seat))
                total = add_counts(total, hand)
            assert hands[view.player] == NO_CARDS
            assert total == view.unseen()

"""The evidence kept up to date event by event (:class:`Summary`) counts exactly what the
evidence rebuilt from the whole log counts, so a hint's cost no longer grows with the log."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

from partysolver.models.pool_party_stars.evidence import Knowledge, Summary
from partysolver.models.pool_party_stars.game import GUESTS, GuessOutcome, Table
from partysolver.models.pool_party_stars.position import DEFAULT_NAMES
from partysolver.models.pool_party_stars.state import PoolPartyState
from partysolver.models.protocol import CHANCE, TERMINAL, sample_chance
from partysolver.solvers.pool_party_stars.deduction import posterior
from partysolver.solvers.pool_party_stars.hints import hint
from partysolver.solvers.pool_party_stars.policies import MixedPolicy


def rebuilt(known: Knowledge) -> Knowledge:
    """The same knowledge without the kept summary: evidence rebuilt from every event."""
    return Knowledge(known.table, known.events, known.seat, known.rules, known.hand)


def test_the_summary_counts_what_the_whole_log_counts() -> None:
    checked = 0
    for seed in range(8):
        rng = random.Random(seed)
        players = 3 + seed % 4
        state = PoolPartyState.deal(Table(DEFAULT_NAMES[:players]), rng)
        policy = MixedPolicy(0.3, guesses=0.6)
        while state.current_player() != TERMINAL:
            if state.current_player() == CHANCE:
                state = state.apply(sample_chance(state, rng))
                continue
            for seat in (None, state.current_player()):
                kept = state.knowledge(seat)
                assert kept.summary is not None and kept.counting is not kept.evidence
                fast, full = posterior(kept), posterior(rebuilt(kept))
                assert fast.total == full.total > 0
                assert [fast.of(p).counts for p in range(players)] == \
                    [full.of(p).counts for p in range(players)]
                checked += 1
            if state.events and len(state.events) % 5 == 0:
                fast_hint, full_hint = hint(kept), hint(rebuilt(kept))
                assert [(o.move, o.value, o.info) for o in fast_hint.options] == \
                    [(o.move, o.value, o.info) for o in full_hint.options]
            state = state.apply(policy(state, rng))
    assert checked > 300


def test_a_right_guess_that_was_impossible_makes_the_summary_inconsistent() -> None:
    summary = Summary.start(3)
    # Player 1 is guessed wrong on rule 0, then right on rule 0: the past contradicts itself.
    summary = summary.after(GuessOutcome(0, 1, GUESTS[0].species, False))
    assert summary.consistent
    summary = summary.after(GuessOutcome(0, 1, GUESTS[0].species, True))
    assert not summary.consistent
    evidence = summary.evidence()
    assert evidence.timeline.count(evidence.domains()) == 0


def test_a_stale_summary_is_never_used() -> None:
    state = PoolPartyState.deal(Table(DEFAULT_NAMES[:3]), random.Random(1))
    known = state.knowledge(0)
    longer = Knowledge(known.table, known.events + (GuessOutcome(0, 1, GUESTS[0].species,
                                                                   False),),
                       0, known.rules, known.hand, summary=known.summary)
    assert longer.counting is longer.evidence


def test_a_draw_from_a_large_deck_weighs_each_guest_by_its_copies() -> None:
    """The sorted stock is counted by bisection: the same outcomes as counting every card."""
    deck = tuple(sorted((GUESTS[i * 7 % 64] for i in range(500)), key=lambda g: g.id))
    state = PoolPartyState.deal(Table(DEFAULT_NAMES[:4], deck), random.Random(3))
    state = state.apply(state.legal_actions()[0])
    copies = Counter(state.stock)
    assert [(a.guest, p) for a, p in state.chance_outcomes()] == \
        [(guest, Fraction(n, len(state.stock))) for guest, n in copies.items()]
    assert len(copies) == 64

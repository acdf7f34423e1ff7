"""Hints and exposure against the plain enumeration, and the rule that a hint reads only
what its seat may know."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from pps_helpers import EXAMPLES, load, play

from partysolver.models.pool_party_stars.evidence import Knowledge
from partysolver.models.pool_party_stars.game import (
    ATTRIBUTES,
    Answer,
    Attribute,
    Guess,
    GuessOutcome,
    Proposal,
    Propose,
    Table,
    asked_order,
    parse_event,
    parse_guest,
)
from partysolver.solvers.pool_party_stars.baseline import plain_posterior
from partysolver.solvers.pool_party_stars.hints import (
    entropy,
    exposure,
    hint,
    proposal_outcomes,
)
from partysolver.solvers.pool_party_stars.policies import HintPolicy


def seats_to_act(players: int, seeds: range, length: int) -> list[Knowledge]:
    found = []
    for seed in seeds:
        state = play(players, seed, length)
        found.append(state.view(state.current_player()).knowledge)
    return found


def test_proposal_outcomes_match_the_plain_enumeration() -> None:
    """Each outcome of a proposal, counted by appending it to the log as a hypothetical event
    and enumerating plainly."""
    checked = 0
    for k in seats_to_act(3, range(6), 10) + seats_to_act(4, range(4), 14):
        assert k.seat is not None and k.hand
        order = asked_order(k.seat, k.table.size)
        for guest in set(k.hand):
            found = dict(proposal_outcomes(k, k.counting.domains(), guest))
            for j, seat in enumerate(order):
                answers = tuple(Answer(s, False) for s in order[:j]) + (Answer(seat, True),)
                extended = replace(k, events=k.events + (Proposal(k.seat, guest, answers),))
                assert found[seat] == plain_posterior(extended)[0]
            everyone = tuple(Answer(s, False) for s in order)
            extended = replace(k, events=k.events + (Proposal(k.seat, guest, everyone),))
            assert found[None] == plain_posterior(extended)[0]
            checked += 1
    assert checked >= 20


def test_option_values_and_information() -> None:
    for k in seats_to_act(3, range(5), 12):
        advice = hint(k)
        total, counts = plain_posterior(k)
        record = k.public
        take = (len(record.waiting) + 1) // 2
        for option in advice.options:
            if isinstance(option.move, Propose):
                outcomes = [c for _, c in proposal_outcomes(k, k.counting.domains(),
                                                            option.move.guest)]
                assert option.value == pytest.approx(outcomes[-1] / total)
                assert option.info == pytest.approx(entropy(outcomes))
            else:
                assert isinstance(option.move, Guess)
                p = counts[option.move.target][option.move.rule] / total
                assert option.value == pytest.approx(p * take)
                assert option.info == pytest.approx(entropy([p, 1 - p]) if 0 < p < 1 else 0.0)
        values = [(o.value, o.info) for o in advice.options]
        assert values == sorted(values, key=lambda v: (-round(v[0], 12), -round(v[1], 12)))
        listed = {(o.move.target, o.move.rule) for o in advice.options
                  if isinstance(o.move, Guess)}
        impossible = {(t, a) for t in asked_order(k.seat, 3) for a in ATTRIBUTES
                      if not counts[t][a]}
        assert not listed & impossible
        assert advice.impossible_guesses == len(impossible)


def test_competitive_mode_charges_a_wrong_guess() -> None:
    state = play(4, seed=9, events=18, competitive=True)
    k = state.view(state.current_player()).knowledge
    assert k.table.competitive and k.public.vips[k.seat], "the seat should hold a VIP"
    advice = hint(k)
    take = (len(k.public.waiting) + 1) // 2
    for option in advice.options:
        if isinstance(option.move, Guess):
            p = option.probability
            assert option.value == pytest.approx(p * take - (1 - p))
            if p < 1:
                assert "wrong costs you a VIP" in option.reason


def test_the_default_example_takes_the_certain_guess() -> None:
    k = load(EXAMPLES / "default.toml").knowledge()
    best = hint(k).options[0]
    assert best.move == Guess(3, Attribute.ROBOT) and best.probability == 1
    assert "certainly Robot" in best.reason


def test_a_hint_reads_only_the_view() -> None:
    rng = random.Random(3)
    for seed in range(4):
        state = play(4, seed, 15)
        me = state.current_player()
        view = state.view(me)
        expected = hint(view.knowledge).options
        chosen = HintPolicy()(state, rng)
        for _ in range(3):
            other = view.sample(rng)  # other hidden rules and hands, the same view
            assert hint(other.view(me).knowledge).options == expected
            assert HintPolicy()(other, rng) == chosen


def test_no_guest_no_hint() -> None:
    k = load(EXAMPLES / "default.toml").knowledge()
    empty = replace(k, hand=())
    assert hint(empty).options == ()
    unknown = replace(k, hand=None)
    assert all(isinstance(o.move, Guess) for o in hint(unknown).options)


def test_exposure_matches_the_plain_enumeration_from_each_seat() -> None:
    for k in seats_to_act(3, range(5), 14):
        assert k.seat is not None
        me, mine = k.seat, int(k.rules[-1])
        exposures, onlooker = exposure(k)
        my_total, my_counts = plain_posterior(k)
        public_total, public_counts = plain_posterior(replace(k, seat=None, rules=()))
        assert onlooker == pytest.approx(public_counts[me][mine] / public_total)
        for item in exposures:
            q = item.player
            revealed = [e.rule for e in k.events
                        if isinstance(e, GuessOutcome) and e.right and e.target == q]
            expected = certain = 0.0
            for rule in ATTRIBUTES:
                weight = my_counts[q][rule] / my_total
                if not weight:
                    continue
                theirs = replace(k, seat=q, rules=(*revealed, rule), hand=None)
                total, counts = plain_posterior(theirs)
                p = counts[me][mine] / total
                expected += weight * p
                certain += weight * (p == 1)
            assert item.expected == pytest.approx(expected)
            assert item.certain == pytest.approx(certain)


def test_no_exposure_while_your_new_rule_is_not_drawn() -> None:
    names = ("Dani", "Lari", "Ana")
    events = tuple(parse_event(e, names) for e in (
        "Dani proposes Animal-Swimsuit-Food: Lari lets in, Ana bars",
        "Lari guesses Ana is Animal: right"))
    k = Knowledge(Table(names), events, 2, (Attribute.ANIMAL,),
                  tuple(parse_guest(g) for g in ("Robot-Sport-Gift", "Plant-Pajamas-Book")))
    assert exposure(k) == ((), None)
    assert hint(k).options  # the hint itself still works
    drawn = replace(k, rules=(Attribute.ANIMAL, Attribute.PLANT))
    assert len(exposure(drawn)[0]) == 2

"""The deduction engine against independent oracles: the plain enumeration, a CP-SAT count,
hand-worked logs, and brute-force searches for conflicts."""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import combinations

import pytest
from pps_helpers import EXAMPLES, load, play, seat_logs

from partysolver.models.pool_party_stars.evidence import Knowledge
from partysolver.models.pool_party_stars.game import (
    ALL_RULES,
    ATTRIBUTES,
    Answer,
    Attribute,
    GuessOutcome,
    Proposal,
    Table,
    parse_event,
)
from partysolver.solvers.pool_party_stars.baseline import plain_posterior
from partysolver.solvers.pool_party_stars.conflicts import consistency_items, find_conflict
from partysolver.solvers.pool_party_stars.deduction import Eliminator, explain_all, posterior

NAMES = ("Dani", "Lari", "Ana", "Ben")


def knowledge(events: list[str], players: int = 3, seat: int | None = 0,
              rules: tuple[str, ...] = ("Monster",), complete: bool = False) -> Knowledge:
    names = NAMES[:players]
    return Knowledge(Table(names), tuple(parse_event(e, names) for e in events), seat,
                     tuple(Attribute[r.upper()] for r in rules) if seat is not None else (),
                     None, complete)


# -- hand-worked ----------------------------------------------------------------------------------------


def test_rulebook_examples_worked_by_hand() -> None:
    k = knowledge(["Dani proposes Animal-Swimsuit-Food: Lari lets in, Ana bars",
                   "Lari guesses Ana is Animal: right"])
    post = posterior(k)
    # Lari let the guest in and is not Monster (Dani's card): 8 rules.  Ana's new rule is
    # anything but Monster and Lari's: 8 x 10 assignments.
    assert post.total == 80
    lari = post.of(1)
    assert set(lari.possible) == set(ATTRIBUTES) - {Attribute.ANIMAL, Attribute.SWIMSUIT,
                                                    Attribute.FOOD, Attribute.MONSTER}
    assert all(lari.counts[a] == 10 for a in lari.possible)
    ana = post.of(2)
    for rule in ATTRIBUTES:
        expected = 0 if rule == Attribute.MONSTER else 8 if rule in (
            Attribute.ANIMAL, Attribute.SWIMSUIT, Attribute.FOOD) else 7
        assert ana.counts[rule] == expected, rule
    # Ana's first rule is known: Animal (revealed), and it was the only possible one.
    first = k.evidence.timeline.epoch_of(2, 0)
    assert post.counts[first][Attribute.ANIMAL] == 80


def test_before_the_guess_ana_is_one_of_three() -> None:
    post = posterior(knowledge(["Dani proposes Animal-Swimsuit-Food: Lari lets in, Ana bars"]))
    assert set(post.of(2).possible) == {Attribute.ANIMAL, Attribute.SWIMSUIT, Attribute.FOOD}
    assert post.of(2).certain is None
    assert Attribute.ANIMAL in post.of(1).eliminated


def test_shipped_puzzle_chain_worked_by_hand() -> None:
    k = load(EXAMPLES / "puzzle.toml").knowledge()
    explanation = Eliminator(k).explain(1)
    assert explanation is not None and explanation.rule == Attribute.COSTUME
    assert [step.text for step in explanation.steps] == [
        "#1 Lari let Animal-Swimsuit-Food in: Lari's rule is not Animal, Swimsuit or Food",
        "#3 Lari barred Animal-Costume-Book: Lari's rule is Animal, Costume or Book",
        "#4 Dani guessed Book wrong: Lari's rule is not Book",
        "so Lari's rule is Costume"]
    assert explanation.events == (0, 2, 3)


def test_a_redraw_starts_a_fresh_epoch() -> None:
    # Ana barred a Plant-Sport-Book guest, then her rule was revealed as Plant and she drew
    # again: what she barred before says nothing about her new rule.
    k = knowledge(["Dani proposes Plant-Sport-Food: Lari lets in, Ana bars",
                   "Lari guesses Ana is Plant: right"])
    assert posterior(k).of(2).certain is None
    assert Attribute.PLANT in posterior(k).of(2).possible  # the same card may come back
    # ... and overlapping epochs differ: Lari held her rule while Ana held Plant.
    assert Attribute.PLANT in posterior(k).of(1).eliminated


def test_overlapping_epochs_link_players() -> None:
    # Lari is one of Monster/Book; Dani holds Monster, so Lari holds Book; Ana's rule after her
    # redraw overlapped Lari's, so it is not Book.
    k = knowledge(["Dani proposes Monster-Sport-Book: Lari bars",
                   "Lari proposes Robot-Sport-Drink: Ana lets in, Dani lets in",
                   "Ana guesses Lari is Sport: wrong",
                   "Dani guesses Ana is Plant: right"])
    post = posterior(k)
    assert post.of(1).certain == Attribute.BOOK
    assert Attribute.BOOK in post.of(2).eliminated and Attribute.MONSTER in post.of(2).eliminated
    chain = Eliminator(k).explain(1)
    assert chain is not None
    assert any(step.kind == "card" for step in chain.steps)


# -- oracles ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "length"), [(2, 12), (3, 10), (3, 30), (4, 16), (4, 40)])
def test_posterior_equals_the_plain_enumeration(players: int, length: int) -> None:
    for k in seat_logs(players, range(4), length):
        if players == 4 and k.seat is None:
            continue  # 12**4 assignments: fine, but slow for a default test
        post = posterior(k)
        total, counts = plain_posterior(k)
        assert post.total == total
        for p in range(players):
            assert list(post.of(p).counts) == counts[p]


def test_epochs_against_an_enumeration_of_every_rule_ever_held() -> None:
    checked = 0
    for seed in range(60):
        state = play(3, seed, events=12, skill=0.8)
        k = state.knowledge(0)
        if len(k.evidence.timeline) - len(k.rules) > 3:
            continue
        total, counts = plain_posterior(k, reveal=False)
        post = posterior(k)
        assert post.total == total
        assert [list(post.of(p).counts) for p in range(3)] == counts
        checked += any(isinstance(e, GuessOutcome) and e.right for e in k.events)
    assert checked >= 5


def test_cp_sat_counts_the_same_assignments() -> None:
    from ortools.sat.python import cp_model

    class Counter(cp_model.CpSolverSolutionCallback):
        def __init__(self) -> None:
            super().__init__()
            self.count = 0

        def on_solution_callback(self) -> None:
            self.count += 1

    for k in seat_logs(3, range(3), 14):
        timeline = k.evidence.timeline
        domains = k.evidence.domains()
        model = cp_model.CpModel()
        rules = [model.new_int_var_from_domain(cp_model.Domain.from_values(
            [r for r in range(12) if d >> r & 1]), f"epoch_{e}") for e, d in enumerate(domains)]
        for e, peers in enumerate(timeline.peers):
            for f in peers:
                if e < f:
                    model.add(rules[e] != rules[f])
        solver = cp_model.CpSolver()
        solver.parameters.enumerate_all_solutions = True
        counter = Counter()
        solver.solve(model, counter)
        assert counter.count == posterior(k).total


def test_propagation_eliminates_exactly_what_the_count_does() -> None:
    for players, length in ((3, 20), (4, 30), (5, 40), (6, 60)):
        for k in seat_logs(players, range(3), length):
            post = posterior(k)
            engine = Eliminator(k)
            assert engine.contradiction is None
            for p in range(players):
                support = sum(1 << r for r in range(12) if post.of(p).counts[r])
                assert engine.domains[k.evidence.timeline.current[p]] == support


def test_every_chain_cites_enough_events() -> None:
    """The events a chain cites (with the right guesses, which mark the redraws) suffice for
    the deduction on their own."""
    explained = 0
    for players, length in ((3, 20), (4, 30), (5, 40)):
        for k in seat_logs(players, range(4), length):
            for explanation in explain_all(k):
                keep = set(explanation.events) | {
                    i for i, e in enumerate(k.events) if isinstance(e, GuessOutcome) and e.right}
                reduced = replace(k, events=tuple(k.events[i] for i in sorted(keep)))
                # The rules a seat holds are kept as they are; the epochs are the same.
                assert posterior(reduced).of(explanation.player).certain == explanation.rule
                assert explanation.steps[-1].kind == "so"
                explained += 1
    assert explained >= 20


# -- conflicts ---------------------------------------------------------------------------------------------


def _flip_one_answer(k: Knowledge, rng: random.Random) -> Knowledge | None:
    """The log with one answer about an unknown rule flipped (asking then stops there).
    Answers about known rules (the seat's, or revealed ones) are checked as lies instead."""
    events = list(k.events)
    current = set(k.evidence.timeline.current)
    choices = [(i, j) for i, e in enumerate(events) if isinstance(e, Proposal)
               for j, clue in enumerate(k.evidence.event_clues[i])
               if e.answers[j].seat != k.seat and clue[0] in current]
    if not choices:
        return None
    i, j = rng.choice(choices)
    event = events[i]
    assert isinstance(event, Proposal)
    answers = list(event.answers)
    answers[j] = Answer(answers[j].seat, not answers[j].bars)
    events[i] = Proposal(event.proposer, event.guest, tuple(answers[: j + 1]))
    return replace(k, events=tuple(events), complete=False)


def _smallest_by_brute_force(k: Knowledge) -> int:
    items = consistency_items(k)
    timeline = k.evidence.timeline
    for size in range(1, len(items) + 1):
        for chosen in combinations(range(len(items)), size):
            doms = [ALL_RULES] * len(timeline)
            for j in chosen:
                for epoch, mask in items[j][1]:
                    doms[epoch] &= mask
            if not timeline.feasible(doms):
                return size
    raise AssertionError("the whole log should conflict")


def test_smallest_conflict_matches_a_brute_force_search() -> None:
    rng = random.Random(4)
    checked = 0
    for seed in range(40):
        k = play(3, seed, events=9, skill=0.3).knowledge(rng.randrange(3))
        flipped = _flip_one_answer(k, rng)
        if flipped is None:
            continue
        if posterior(flipped).consistent:
            assert find_conflict(flipped) is None
            continue
        conflict = find_conflict(flipped)
        assert conflict is not None and conflict.smallest
        assert len(conflict.items) == _smallest_by_brute_force(flipped)
        checked += 1
    assert checked >= 10


def test_consistent_logs_have_no_conflict() -> None:
    for k in seat_logs(4, range(3), 25):
        assert find_conflict(k) is None


def test_conflict_example_names_the_four_events() -> None:
    k = load(EXAMPLES / "conflict.toml").knowledge()
    conflict = find_conflict(k)
    assert conflict is not None and conflict.smallest
    assert conflict.events == (0, 1, 3, 4)
    assert conflict.reason == "Ana's rule can be none of the twelve rules"


def test_a_card_conflicting_with_answers_is_named() -> None:
    # Dani holds Monster, and Lari is left with Monster only: the card is part of the conflict.
    k = knowledge(["Dani proposes Monster-Sport-Book: Lari bars",
                   "Dani proposes Robot-Sport-Drink: Lari lets in, Ana lets in",
                   "Ana proposes Plant-Swimsuit-Book: Dani lets in, Lari lets in"])
    conflict = find_conflict(k)
    assert conflict is not None and conflict.smallest
    assert set(conflict.items) == {("event", 0), ("event", 1), ("event", 2), ("fact", 0)}
    assert "your card: Forbidden Monster" in conflict.labels


def test_the_sweep_finds_exactly_the_overlapping_epochs() -> None:
    for k in seat_logs(5, range(4), 60):
        epochs = k.evidence.timeline.epochs
        assert len(epochs) > 5
        for e, peers in enumerate(k.evidence.timeline.peers):
            assert peers == tuple(f for f, other in enumerate(epochs)
                                  if epochs[e].overlaps(other))

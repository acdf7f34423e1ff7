"""The shipped deduction puzzles and the generator: unique answers (checked by the plain
enumeration), no clue to spare, and the difficulty their chains show."""

from __future__ import annotations

from pathlib import Path

import pytest
from pps_helpers import PUZZLES, load

from partysolver.models.pool_party_stars.evidence import Knowledge
from partysolver.models.pool_party_stars.game import GuessOutcome
from partysolver.solvers.pool_party_stars.baseline import plain_posterior
from partysolver.solvers.pool_party_stars.puzzles import (
    classify,
    clue_is_needed,
    generate,
    solve_puzzle,
)

SHIPPED = sorted(PUZZLES.glob("*.toml"))


def test_at_least_twenty_puzzles_of_every_difficulty() -> None:
    assert len(SHIPPED) >= 20
    levels = [load(path).puzzle.difficulty for path in SHIPPED]  # type: ignore[union-attr]
    assert {level: levels.count(level) for level in set(levels)} == \
        {"easy": 8, "medium": 7, "hard": 7}


def cp_sat_possible(knowledge: Knowledge, target: int) -> list[int]:
    """The rules CP-SAT finds feasible for the target's current rule (a second method)."""
    from ortools.sat.python import cp_model

    timeline = knowledge.evidence.timeline
    found = []
    for rule in range(12):
        domains = knowledge.evidence.domains()
        model = cp_model.CpModel()
        rules = [model.new_int_var_from_domain(cp_model.Domain.from_values(
            [r for r in range(12) if d >> r & 1]), f"epoch_{e}") for e, d in enumerate(domains)]
        for e, peers in enumerate(timeline.peers):
            for f in peers:
                if e < f:
                    model.add(rules[e] != rules[f])
        model.add(rules[timeline.current[target]] == rule)
        if cp_model.CpSolver().solve(model) in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            found.append(rule)
    return found


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_shipped_puzzle(path: Path) -> None:
    log = load(path)
    assert log.puzzle is not None and not log.problems() and not log.complete
    assert path.stem.startswith(log.puzzle.difficulty or "?")
    knowledge = log.knowledge()
    target = log.puzzle.target
    solution = solve_puzzle(knowledge, target)
    assert solution.rule is not None and solution.explanation is not None
    # Two other methods agree: one rule only.
    assert cp_sat_possible(knowledge, target) == [int(solution.rule)]
    assert plain_possible(knowledge, target) == [int(solution.rule)]
    # No clue to spare: without any one event (right guesses mark redraws and stay), the
    # answer is open.
    for index, event in enumerate(knowledge.events):
        if not (isinstance(event, GuessOutcome) and event.right):
            assert clue_is_needed(knowledge, target, index), f"event {index + 1} is not needed"
    assert classify(solution.explanation) == log.puzzle.difficulty


@pytest.mark.parametrize("difficulty", ["easy", "medium"])
def test_generator_makes_minimal_unique_puzzles(difficulty: str) -> None:
    made = generate(difficulty, seed=5)
    assert made is not None and made.difficulty == difficulty and made.proven_fewest
    knowledge = made.log.knowledge()
    assert made.log.puzzle is not None
    target = made.log.puzzle.target
    assert solve_puzzle(knowledge, target).rule == made.answer
    for index, event in enumerate(knowledge.events):
        if not (isinstance(event, GuessOutcome) and event.right):
            assert clue_is_needed(knowledge, target, index)


def plain_possible(knowledge: Knowledge, target: int) -> list[int]:
    total, counts = plain_posterior(knowledge)
    assert total > 0
    return [r for r, c in enumerate(counts[target]) if c]


"""The shipped puzzles: well posed, described, and their recorded optima proven again."""

from __future__ import annotations

import pytest

from partysolver.models.documents import parse_document
from partysolver.models.meeple_land.puzzle import Puzzle, load_puzzle
from partysolver.puzzles import files
from partysolver.solvers.meeple_land.brute import brute_force, grow_search
from partysolver.solvers.meeple_land.layout import solve_layout

SHIPPED = files("meeple-land", "puzzles")


def load(name: str) -> Puzzle:
    text = SHIPPED[name].read_text(encoding="utf-8")
    return load_puzzle(parse_document(text, name), name)


SMALL = [n for n in SHIPPED if len(load(n).plot.cells) <= 25]
LARGE = [n for n in SHIPPED if n not in SMALL]


def test_at_least_fifteen_puzzles_from_easy_to_hard() -> None:
    assert len(SHIPPED) >= 15
    puzzles = [load(n) for n in SHIPPED]
    assert any(p.plot.width == p.plot.height == 3 for p in puzzles)
    big = [p for p in puzzles if p.plot.width == p.plot.height == 7 and len(p.pool) >= 20]
    assert len(big) >= 3
    assert {p.difficulty for p in puzzles} == {"easy", "medium", "hard"}
    assert {p.objective for p in puzzles} == {"reputation", "variety", "seated"}


@pytest.mark.parametrize("name", list(SHIPPED))
def test_puzzle_is_well_posed_described_and_answered(name: str) -> None:
    puzzle = load(name)
    assert puzzle.problems() == []
    text = SHIPPED[name].read_text(encoding="utf-8")
    assert text.startswith(f"# {puzzle.name}")
    assert puzzle.answer is not None and puzzle.answer.status in ("optimal", "infeasible")


def check_recorded(name: str) -> None:
    puzzle = load(name)
    answer = puzzle.answer
    assert answer is not None
    count = answer.layouts is not None
    result = solve_layout(puzzle, seed=0, count=count)
    assert result.status == answer.status
    if answer.status == "optimal":
        assert result.objective == answer.objective
        assert puzzle.check(result.placements) == []
        if count:
            assert (result.count, result.count_complete) == (answer.layouts, True)


@pytest.mark.parametrize("name", SMALL)
def test_small_puzzles_prove_their_recorded_optimum(name: str) -> None:
    check_recorded(name)


@pytest.mark.slow
@pytest.mark.parametrize("name", LARGE)
def test_large_puzzles_prove_their_recorded_optimum(name: str) -> None:
    check_recorded(name)


@pytest.mark.parametrize("name", [
    # 9 s of brute force; the growth search covers 01 by default (and agrees with the brute
    # force on random puzzles).
    pytest.param("01-first-steps", marks=pytest.mark.slow),
    "05-blocked-gate",
])
def test_brute_force_agrees_on_the_easiest(name: str) -> None:
    puzzle = load(name)
    truth = brute_force(puzzle)
    answer = puzzle.answer
    assert answer is not None
    assert truth.objective == answer.objective
    assert len(truth.optimal_layouts) == answer.layouts


def check_by_growth(name: str) -> None:
    puzzle = load(name)
    truth = grow_search(puzzle)
    answer = puzzle.answer
    assert answer is not None
    assert (truth.status, truth.objective) == (answer.status, answer.objective)
    if answer.layouts is not None:
        assert len(truth.optimal_layouts) == answer.layouts


@pytest.mark.parametrize("name", ["01-first-steps", "04-tight-budget", "05-blocked-gate"])
def test_growth_search_agrees_with_the_recorded_answer(name: str) -> None:
    check_by_growth(name)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["03-service-with-a-smile"])
def test_growth_search_agrees_on_a_harder_one(name: str) -> None:
    check_by_growth(name)

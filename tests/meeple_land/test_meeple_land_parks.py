"""The best park the catalogue allows (issue 31): the published layouts, the strengthened
model against the brute force, and the recorded-layout check of ``verify``."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from partysolver.cli.main import cli
from partysolver.models.documents import parse_document
from partysolver.models.meeple_land.catalogue import house_catalogue
from partysolver.models.meeple_land.game import Placement, Plot, Side
from partysolver.models.meeple_land.puzzle import load_puzzle
from partysolver.solvers.meeple_land.brute import brute_force, grow_search
from partysolver.solvers.meeple_land.layout import DEFAULT_SETTINGS, STRENGTHENED, solve_layout
from partysolver.solvers.meeple_land.parks import cheap_pool, park_puzzle
from partysolver.solvers.meeple_land.relax import (
    dominance_pairs,
    respect_dominance,
    type_count_bounds,
)

RESULTS = Path(__file__).resolve().parents[2] / "docs" / "results"
PUBLISHED = sorted(RESULTS.glob("meeple-land-*.toml"))
STRONG = replace(DEFAULT_SETTINGS, strengthen=STRENGTHENED, workers=1)
CATALOGUE = house_catalogue()


def test_the_three_parks_are_published() -> None:
    names = {p.name for p in PUBLISHED}
    assert {f"meeple-land-park-{n}x{n}.toml" for n in (5, 6, 7)} <= names


@pytest.mark.parametrize("path", PUBLISHED, ids=[p.stem for p in PUBLISHED])
def test_verify_agrees_with_each_published_park(path: Path) -> None:
    """``partysolver verify`` accepts the file, and the park verifier's own score of the
    recorded layout is the recorded objective (and within the recorded bound)."""
    result = CliRunner().invoke(cli, ["verify", str(path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["valid"] and data["solvable"] == "solvable"
    puzzle = load_puzzle(parse_document(path.read_text(), str(path)), str(path))
    assert puzzle.answer is not None and puzzle.answer.layout
    problems, layout, score = puzzle.judge(puzzle.recorded_layout())
    assert problems == [] and score is not None
    assert score.total == puzzle.answer.objective == data["recorded"]["objective"]
    assert puzzle.answer.bound is not None and puzzle.answer.bound >= score.total
    assert puzzle.budget == 30 and set(puzzle.pool) <= set(CATALOGUE.tiles)


def test_verify_rejects_a_wrong_recorded_score(tmp_path: Path) -> None:
    """The check can fail: a layout recorded with a score it does not reach, or a layout
    that breaks the rules, makes ``verify`` exit 1 and name the field."""
    puzzle = park_puzzle(3, pool=["S03", "M03", "M31"], budget=10, visitors=(2, 0, 2, 0))
    layout = "\n".join(['[[answer.layout]]', 'tile = "S03"', 'at = [1, 0]', ''])
    head = _text(puzzle)
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(head + '[answer]\nstatus = "optimal"\nobjective = 9\n' + layout)
    result = CliRunner().invoke(cli, ["verify", str(wrong)])
    assert result.exit_code == 1
    assert "answer.objective" in result.output and "scores" in result.output
    right = load_puzzle(parse_document(wrong.read_text(), str(wrong)), str(wrong))
    value = right.value(right.layout_of(right.recorded_layout()).score(right.visitors))
    fixed = tmp_path / "right.toml"
    fixed.write_text(head + f'[answer]\nstatus = "feasible"\nobjective = {value}\n'
                     f'bound = {value + 5}\n' + layout)
    assert CliRunner().invoke(cli, ["verify", str(fixed)]).exit_code == 0
    off = tmp_path / "off.toml"
    off.write_text(head + f'[answer]\nstatus = "optimal"\nobjective = {value}\n'
                   + layout.replace("[1, 0]", "[5, 0]"))
    result = CliRunner().invoke(cli, ["verify", str(off)])
    assert result.exit_code == 1 and "answer.layout" in result.output


def _text(puzzle: object) -> str:
    from partysolver.models.documents import format_document
    from partysolver.models.meeple_land.puzzle import puzzle_document

    return format_document(puzzle_document(puzzle))  # type: ignore[arg-type]


def small_park(seed: int, mediums: int = 2) -> object:
    """A 3x3 best-park puzzle from a random handful of catalogue tiles (two small ones and
    ``mediums`` medium ones), with a budget and visitors: small enough for the exhaustive
    searches."""
    rng = random.Random(seed)
    small = sorted(t.id for t in CATALOGUE.by_size("small"))
    medium = sorted(t.id for t in CATALOGUE.by_size("medium"))
    pool = rng.sample(small, 2) + rng.sample(medium, mediums)
    visitors = tuple(rng.randint(0, 3) for _ in range(4))
    return park_puzzle(3, pool=pool, budget=rng.choice([6, 8, 10, 30]),
                       visitors=visitors)  # type: ignore[arg-type]


@pytest.mark.parametrize(("seed", "search", "mediums"), [
    (0, brute_force, 1), (3, brute_force, 1),
    (1, grow_search, 2),  # a special space served by a toilets tile: a relaxation bug once
    *((s, grow_search, 3) for s in range(2, 8))])
def test_the_strengthened_model_equals_brute_force(seed: int, search: object,
                                                   mediums: int) -> None:
    """On small parks the strengthened model (dominance, bounds by type count) proves the
    exhaustive searches' optimum (the brute force on three tiles, the growth search, which
    the layout tests hold to the brute force, on four or five), its layout is one of their
    optimal layouts, and the bound for each optimal layout's number of types is not below
    it."""
    puzzle = small_park(seed, mediums)
    truth = search(puzzle)  # type: ignore[operator]
    result = solve_layout(puzzle, settings=STRONG, seed=1)  # type: ignore[arg-type]
    assert result.status == truth.status == "optimal"
    assert result.objective == truth.objective == result.bound
    assert tuple(sorted(result.placements)) in truth.optimal_layouts
    bounds = type_count_bounds(puzzle)  # type: ignore[arg-type]
    for layout in truth.optimal_layouts:
        score = puzzle.layout_of(layout).score(puzzle.visitors)  # type: ignore[attr-defined]
        assert bounds[len(score.types)] is not None
        assert bounds[len(score.types)] >= truth.objective


def test_type_count_bounds_of_the_game_budget_by_hand() -> None:
    """At $30 with 24 visitors: eleven types cost at least $2 + 10 x $3 = $32, so none; ten
    types leave $1 over the cheapest ones, 20 seats: 15 + 2 x 30 - 34 = 41."""
    bounds = type_count_bounds(park_puzzle(7))
    assert bounds[11] is None and bounds[12] is None
    assert bounds[10] == 41
    assert max(b for b in bounds if b is not None) == 41


def test_dominance_pairs_and_the_swap() -> None:
    puzzle = park_puzzle(5)
    pairs = dominance_pairs(puzzle)
    # identical fountains: the first listed dominates the others, never the other way round
    assert ("S01", "S02") in pairs and ("S02", "S01") not in pairs
    # a cheaper tile never dominated by a dearer one
    assert all(CATALOGUE.tile(a).cost <= CATALOGUE.tile(b).cost for a, b in pairs)
    swapped = respect_dominance(puzzle, [Placement("S02", (2, 0), 0)], pairs)
    assert [p.tile for p in swapped] == ["S01"]
    assert puzzle.check(swapped) == []


def test_cheap_pool_and_bad_park_options() -> None:
    puzzle = park_puzzle(5)
    chosen = cheap_pool(puzzle)
    assert chosen and set(chosen) < set(puzzle.pool)
    assert all(CATALOGUE.tile(t).attraction for t in chosen)
    assert puzzle.plot == Plot(5, 5, (((2, 0), Side.N),))
    with pytest.raises(ValueError, match="size bands"):
        park_puzzle(5, bands=["huge"])
    with pytest.raises(ValueError, match="at least 1x1"):
        park_puzzle(0)

"""The CP-SAT layout model against the brute force, hand-worked cases, and its guarantees."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from partysolver.models.meeple_land.catalogue import house_catalogue
from partysolver.models.meeple_land.game import (
    COLOURS,
    PathEnd,
    Placement,
    Plot,
    Side,
    Space,
    Tile,
)
from partysolver.models.meeple_land.position import Entry
from partysolver.models.meeple_land.puzzle import Puzzle
from partysolver.solvers.meeple_land import layout as layouts
from partysolver.solvers.meeple_land.brute import brute_force, grow_search
from partysolver.solvers.meeple_land.layout import (
    count_optimal,
    explain,
    explain_infeasible,
    feasibility,
    relaxed,
    solve_layout,
)

CATALOGUE = house_catalogue()
N, E, S, W = Side.N, Side.E, Side.S, Side.W


def random_puzzle(seed: int) -> Puzzle:
    """A small random puzzle: a 2x2 to 3x3 plot, three or four pool tiles, some visitors and
    a random objective and requirements."""
    rng = random.Random(seed)
    width, height = rng.choice([(2, 2), (3, 2), (2, 3), (3, 3)])
    side = rng.choice(list(Side))
    index = rng.randrange(width if side in (N, S) else height)
    entrance = {N: ((index, 0), N), S: ((index, height - 1), S), W: ((0, index), W),
                E: ((width - 1, index), E)}[side]
    small = sorted(t.id for t in CATALOGUE.by_size("small"))
    medium = sorted(t.id for t in CATALOGUE.by_size("medium"))
    large = sorted(t.id for t in CATALOGUE.by_size("large"))
    pool = rng.sample(small, 2) + rng.sample(medium, rng.randint(1, 2))
    if rng.random() < 0.3:
        pool.append(rng.choice(large))
    visitors = tuple(rng.randint(0, 2) for _ in COLOURS)
    objective = rng.choice(["reputation", "reputation", "variety", "seated"])
    budget = rng.choice([None, None, 6, 9])
    return Puzzle(CATALOGUE, Plot(width, height, (entrance,)), tuple(pool), budget=budget,
                  visitors=visitors, objective=objective,  # type: ignore[arg-type]
                  no_dead_ends=rng.random() < 0.3, name=f"random {seed}")


@pytest.mark.parametrize("seed", range(12))
def test_cp_sat_equals_brute_force(seed: int) -> None:
    puzzle = random_puzzle(seed)
    truth = brute_force(puzzle)
    # The two exhaustive searches (every subset, cell and turn; growth by the placement rule)
    # find the same optimal layouts.
    grown = grow_search(puzzle)
    assert (grown.status, grown.objective) == (truth.status, truth.objective)
    assert set(grown.optimal_layouts) == set(truth.optimal_layouts)
    result = solve_layout(puzzle, seed=1, count=True)
    assert result.status == truth.status
    assert result.objective == truth.objective
    if result.status == "optimal":
        assert result.bound == result.objective
        # The park verifier accepts the layout and agrees with the objective.
        assert puzzle.check(result.placements) == []
        assert tuple(sorted(result.placements)) in truth.optimal_layouts
        # Counting distinct optimal layouts agrees with the exhaustive enumeration.
        assert result.count_complete
        assert result.count == len(truth.optimal_layouts)


def tile(tile_id: str, paths: str, shape: str = "1x1", attraction: str | None = "carousel",
         services: tuple[str, ...] = (), spaces: tuple[Space, ...] = (), cost: int = 1) -> Tile:
    ends = tuple(sorted(PathEnd(Side[p[0]], int(p[1:] or 0)) for p in paths.split()))
    return Tile(tile_id, shape, ends, cost, None if services else attraction, services, spaces)


def inline_puzzle(tiles: list[Tile], plot: Plot, **options: object) -> Puzzle:
    catalogue = CATALOGUE.with_tiles(tiles)
    return Puzzle(catalogue, plot, tuple(t.id for t in tiles), **options)  # type: ignore[arg-type]


def test_connectivity_is_inside_the_model() -> None:
    """A rich ride that can never connect (a 1x2 tile whose only path end faces the side of a
    one-row corridor) must stay out, however many visitors it would seat."""
    plot = Plot(3, 1, (((0, 0), W),))
    short = tile("A", "W E", spaces=(Space("green"),))
    rich = tile("B", "N0", shape="1x2", attraction="ferris-wheel", spaces=(Space("pink"),) * 3)
    puzzle = inline_puzzle([short, rich], plot, visitors=(1, 0, 3, 0))
    result = solve_layout(puzzle, seed=0)
    assert result.status == "optimal"
    assert [p.tile for p in result.placements] == ["A"]
    assert result.objective == 1 - 6  # 1 green seated (+1), 3 pink waiting (-6)
    assert brute_force(puzzle).objective == result.objective


def corridor() -> Puzzle:
    """Three cells between two gates.  A and C are straight (one green space each); B has a
    single path end and two pink spaces.  With all three, B faces one neighbour and the other
    neighbour's path runs into it: exactly one dead end (-2)."""
    plot = Plot(3, 1, (((0, 0), W), ((2, 0), E)))
    a = tile("A", "W E", spaces=(Space("green"),))
    b = tile("B", "N", attraction="haunted-house", spaces=(Space("pink"),) * 2)
    c = tile("C", "W E", attraction="go-karts", spaces=(Space("green"),))
    return inline_puzzle([a, b, c], plot, visitors=(2, 0, 2, 0))


def test_dead_ends_worked_by_hand() -> None:
    puzzle = corridor()
    # By hand: all three tiles seat everybody (2 + 4) with one dead end (-2): 4.  Two tiles,
    # B facing its neighbour or a gate: 1 + 4 - 1 = 4 with no dead end.  A+C: 2 - 4 = -2.
    result = solve_layout(puzzle, seed=0, count=True)
    assert result.objective == 4
    truth = brute_force(puzzle)
    assert truth.objective == 4
    assert (result.count, result.count_complete) == (len(truth.optimal_layouts), True)
    for layout in truth.optimal_layouts:
        dead = puzzle.layout_of(layout).dead_ends
        assert len(dead) == (1 if len(layout) == 3 else 0)
    # With B in the middle the dead end is the path running into B's blank side; with B at
    # a gate facing inwards, it is the gate's own path that is cut off.
    middle = (Placement("A", (0, 0), 0), Placement("B", (1, 0), 270), Placement("C", (2, 0), 0))
    assert puzzle.layout_of(middle).dead_ends[0].edge == ((2, 0), W)
    gate = (Placement("A", (1, 0), 0), Placement("B", (0, 0), 90), Placement("C", (2, 0), 0))
    assert puzzle.layout_of(gate).dead_ends[0].piece is None


def test_zero_dead_ends_as_a_hard_constraint() -> None:
    loose = corridor()
    strict = replace(loose, no_dead_ends=True)
    result = solve_layout(strict, seed=0, count=True)
    # The same value, reached only by the two-tile layouts.
    two_tiles = [lay for lay in brute_force(loose).optimal_layouts if len(lay) == 2]
    assert result.objective == 4 and result.count == len(two_tiles) == 8
    assert result.layout is not None and result.layout.dead_ends == ()
    assert sorted(brute_force(strict).optimal_layouts) == sorted(two_tiles)


def test_infeasible_names_a_minimal_conflict() -> None:
    puzzle = Puzzle(CATALOGUE, Plot(4, 4, (((1, 0), N),)), ("L02", "M19", "S05"),
                    budget=6, required=("L02",), no_dead_ends=True, visitors=(0, 0, 0, 3))
    result = solve_layout(puzzle, seed=0)
    assert result.status == "infeasible"
    keys = {r.key for r in result.conflict}
    assert keys == {"budget", "required:L02"}  # L02 costs $7; no dead ends is not needed
    # Minimal: dropping either requirement makes the rest feasible.
    assert solve_layout(replace(puzzle, budget=None), seed=0).status == "optimal"
    assert solve_layout(replace(puzzle, required=()), seed=0).status == "optimal"
    assert {r.key for r in explain_infeasible(puzzle)} == keys
    assert feasibility(puzzle).verdict == "unsolvable"


def test_a_pre_placed_tile_that_cannot_connect_is_named() -> None:
    # A pre-placed tile in the far corner with no path end towards the park.
    hermit = Entry("S05", (2, 2), 0)  # restaurant with S and W ends: faces the boundary / (1, 2)
    puzzle = Puzzle(CATALOGUE, Plot(3, 3, (((1, 0), N),)), ("S20",), placed=(hermit,))
    result = solve_layout(puzzle, seed=0)
    if result.status == "infeasible":
        assert [r.key for r in result.conflict] == ["placed:0"]
    else:  # some pool tile can link it: the verifier accepts the whole park
        assert puzzle.check(result.placements) == []


def test_timeouts_never_claim_optimality() -> None:
    from partysolver.models.documents import read_document
    from partysolver.models.meeple_land.puzzle import load_puzzle
    from partysolver.puzzles import folder

    path = folder("meeple-land", "puzzles", "15-full-house.toml")
    data, source = read_document(str(path))
    puzzle = load_puzzle(data, source)
    result = solve_layout(puzzle, time_limit=0.05, seed=3)
    assert result.status in ("feasible", "unknown", "optimal")
    if result.status == "feasible":
        assert result.bound is not None and result.objective is not None
        assert result.bound >= result.objective
        assert puzzle.check(result.placements) == []
    if result.status == "optimal":  # proved within the 0.05 s (it happens): then it is so
        assert result.objective == solve_layout(puzzle, seed=3).objective


def test_seed_reproduces_the_layout() -> None:
    puzzle = random_puzzle(3)
    first = solve_layout(puzzle, seed=11)
    second = solve_layout(puzzle, seed=11)
    assert first.placements == second.placements and first.usage["workers"] == 1


def test_counting_stops_at_the_limit() -> None:
    puzzle = random_puzzle(5)
    result = solve_layout(puzzle, seed=0)
    assert result.objective is not None
    n, complete = count_optimal(puzzle, result.objective, None, limit=1)
    assert n == 1 and (not complete or len(brute_force(puzzle).optimal_layouts) == 1)


def test_an_explanation_out_of_time_still_names_requirements_that_clash() -> None:
    """Past its time limit the explanation stops shrinking: what it names still cannot hold
    together (a superset of a minimal conflict), and it ends near its limit."""
    puzzle = Puzzle(CATALOGUE, Plot(4, 4, (((1, 0), N),)), ("L02", "M19", "S05"),
                    budget=6, required=("L02",), no_dead_ends=True, visitors=(0, 0, 0, 3))
    named = {r.key for r in explain_infeasible(puzzle, time_limit=1e-9)}
    assert {"budget", "required:L02"} <= named


def test_a_relaxed_puzzle_keeps_only_the_requirements_named() -> None:
    puzzle = Puzzle(CATALOGUE, Plot(4, 4, (((1, 0), N),)), ("L02", "M19", "S05", "S11"),
                    budget=6, required=("L02", "S05"), no_dead_ends=True, seat_all=True,
                    min_reputation=3, min_variety=2, visitors=(0, 0, 0, 3))
    every = [r.key for r in puzzle.requirements()]
    for dropped in every:
        keep = [k for k in every if k != dropped]
        easier = relaxed(puzzle, keep)
        assert easier is not None and [r.key for r in easier.requirements()] == keep
    placed = replace(puzzle, placed=(Entry("S05", (2, 2), 0),))
    assert relaxed(placed, [k for k in every]) is None  # "placed:0" cannot be left out
    assert relaxed(placed, [*every, "placed:0"]) == placed


def test_an_explanation_proves_its_conflict_minimal_with_one_solve(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The conflict's first core takes one CP-SAT solve; each deletion that leaves a feasible
    rest is shown by the greedy layout of the puzzle keeping only the rest, without CP-SAT;
    the answer is still the minimal one, and said to be."""
    puzzle = Puzzle(CATALOGUE, Plot(4, 4, (((1, 0), N),)), ("L02", "M19", "S05"),
                    budget=6, required=("L02",), no_dead_ends=True, visitors=(0, 0, 0, 3))
    from ortools.sat.python import cp_model

    solves: list[int] = []
    real = cp_model.CpSolver.solve

    def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        solves.append(1)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(cp_model.CpSolver, "solve", counted)
    conflict, minimal = explain(puzzle)
    assert {r.key for r in conflict} == {"budget", "required:L02"} and minimal
    assert len(solves) == 1


def test_an_explanation_cut_by_its_limit_is_not_claimed_minimal(
        monkeypatch: pytest.MonkeyPatch) -> None:
    puzzle = Puzzle(CATALOGUE, Plot(4, 4, (((1, 0), N),)), ("L02", "M19", "S05"),
                    budget=6, required=("L02",), no_dead_ends=True, visitors=(0, 0, 0, 3))
    monkeypatch.setattr(layouts, "EXPLAIN_FLOOR", 0.0)  # the limit spent: no deletion is tried
    conflict, minimal = explain(puzzle, time_limit=1e-9)
    assert not minimal and {"budget", "required:L02"} <= {r.key for r in conflict}

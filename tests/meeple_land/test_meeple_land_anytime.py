"""The layout search's warm start and anytime behaviour: the greedy layout, the complete
solution hint, the fallback under a time limit, the progress reports and the seeds."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from ortools.sat.python import cp_model
from test_meeple_land_layout import random_puzzle

from partysolver.models.documents import parse_document
from partysolver.models.meeple_land.park import Layout, Piece, legal_placements
from partysolver.models.meeple_land.puzzle import Puzzle, load_puzzle
from partysolver.puzzles import files
from partysolver.solvers.meeple_land.brute import brute_force, grow_search
from partysolver.solvers.meeple_land.greedy import GrowthStep, greedy_layout, objective_value
from partysolver.solvers.meeple_land.layout import (
    SEED_RANGE,
    LayoutModel,
    Progress,
    cp_sat_seed,
    solve_layout,
)

SHIPPED = files("meeple-land", "puzzles")


def load(prefix: str) -> Puzzle:
    name = next(n for n in SHIPPED if n.startswith(prefix))
    return load_puzzle(parse_document(SHIPPED[name].read_text(encoding="utf-8"), name), name)


@pytest.mark.parametrize("prefix", ["03", "05", "10", "12", "16"])
def test_each_addition_is_valued_as_the_park_verifier_scores_it(prefix: str) -> None:
    """The greedy values an addition incrementally; the park verifier builds the park and
    scores it: the same objective, dead ends and places to grow, on random growths."""
    puzzle = load(prefix)
    rng = random.Random(prefix)
    for objective in ("reputation", "variety", "seated"):
        judged = replace(puzzle, objective=objective)
        layout = judged.layout_of([])
        for _ in range(6):
            step = GrowthStep(judged, layout)
            options = [(p, piece) for tile in judged.pool_tiles()
                       for p, piece in legal_placements(layout, tile)]
            if not options:
                break
            for _, piece in rng.sample(options, min(12, len(options))):
                grown = Layout(layout.plot, [*layout.pieces,
                                             Piece.make(len(layout.pieces), piece.placement,
                                                        piece.tile)])
                gain = step.gain(piece)
                score = grown.score(judged.visitors)
                assert objective_value(judged, gain) == judged.value(score)
                assert gain.dead_ends == len(grown.dead_ends)
                assert gain.open_ends == len(grown.open_ends()) + sum(
                    1 for e in grown.plot.entrances if grown.entrance_open(e))
            _, piece = rng.choice(options)
            layout = Layout(layout.plot, [*layout.pieces, Piece.make(
                len(layout.pieces), piece.placement, piece.tile)])


@pytest.mark.parametrize("prefix", [n[:2] for n in SHIPPED])
def test_the_greedy_layout_is_judged_by_the_verifier(prefix: str) -> None:
    puzzle = load(prefix)
    greedy = greedy_layout(puzzle)
    if greedy.legal:
        assert puzzle.check(greedy.placements) == []
        layout = puzzle.layout_of(greedy.placements)
        assert greedy.value == puzzle.value(layout.score(puzzle.visitors))
        assert puzzle.answer is not None and puzzle.answer.objective is not None
        assert greedy.value <= puzzle.answer.objective
    else:
        assert greedy.value is None
        assert puzzle.check(greedy.placements) != [] or puzzle.answer is None or \
            puzzle.answer.status == "infeasible"


def test_the_greedy_never_beats_the_exhaustive_search() -> None:
    for seed in range(8):
        puzzle = random_puzzle(seed)
        greedy = greedy_layout(puzzle)
        truth = grow_search(puzzle)
        if greedy.legal:
            assert truth.objective is not None and greedy.value is not None
            assert greedy.value <= truth.objective


def hinted_solution(puzzle: Puzzle) -> tuple[int, int | None]:
    """Solve ``puzzle`` with every variable fixed to the greedy layout's complete hint: the
    status and the objective (the hint is complete and feasible when this is optimal)."""
    greedy = greedy_layout(puzzle)
    built = LayoutModel(puzzle)
    built.add_hint(greedy.placements)
    proto = built.model.proto
    free = {i for i, v in enumerate(proto.variables) if len(v.domain) > 2 or
            v.domain[0] != v.domain[1]}
    assert free <= set(proto.solution_hint.vars)  # every variable that is not a constant
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.fix_variables_to_their_hinted_value = True
    code = solver.solve(built.model)
    value = round(solver.objective_value) if code == cp_model.OPTIMAL else None
    return code, value


@pytest.mark.parametrize("prefix", ["01", "03", "05", "07", "11", "12", "13"])
def test_the_hint_is_complete_and_feasible(prefix: str) -> None:
    puzzle = load(prefix)
    greedy = greedy_layout(puzzle)
    assert greedy.legal
    assert hinted_solution(puzzle) == (cp_model.OPTIMAL, greedy.value)


def test_the_hint_of_random_layouts_is_feasible() -> None:
    for seed in range(12):
        puzzle = replace(random_puzzle(seed), no_dead_ends=False, budget=None)
        greedy = greedy_layout(puzzle)
        assert greedy.legal  # nothing but the rules to meet
        assert hinted_solution(puzzle) == (cp_model.OPTIMAL, greedy.value)


def test_a_tiny_time_limit_still_shows_a_verified_layout() -> None:
    """Out of time before CP-SAT finds anything: the greedy layout is the answer, feasible,
    its value the verifier's, and the progress reports only ever improve.  (Now and then, in
    a full test run, CP-SAT proves this puzzle within the 0.05 s: then the same holds of an
    optimal layout.)"""
    puzzle = load("14")
    reports: list[Progress] = []
    result = solve_layout(puzzle, time_limit=0.05, progress=reports.append)
    assert result.status in ("feasible", "optimal")
    assert result.layout is not None and result.objective is not None
    assert puzzle.check(result.placements) == []
    assert result.objective == puzzle.value(puzzle.layout_of(result.placements).score(
        puzzle.visitors))
    if result.status == "feasible":
        assert result.bound is None or result.bound > result.objective
    assert reports and reports[-1].value == result.objective
    assert_monotone(reports)


def assert_monotone(reports: list[Progress]) -> None:
    values = [r.value for r in reports if r.value is not None]
    bounds = [r.bound for r in reports if r.bound is not None]
    assert values == sorted(values)
    assert bounds == sorted(bounds, reverse=True)
    assert [r.seconds for r in reports] == sorted(r.seconds for r in reports)
    assert all(r.source in ("greedy", "cp-sat", "bound") for r in reports)


@pytest.mark.parametrize("prefix", ["10", "13"])
def test_progress_improves_up_to_the_answer(prefix: str) -> None:
    puzzle = replace(load(prefix), no_dead_ends=False)
    reports: list[Progress] = []
    result = solve_layout(puzzle, seed=0, progress=reports.append)
    assert result.status == "optimal"
    assert_monotone(reports)
    assert reports[0].source == "greedy"
    assert reports[-1].value == result.objective
    assert all(r.bound is None or r.bound >= result.objective for r in reports)


def test_without_the_warm_start_the_optimum_is_the_same() -> None:
    from partysolver.solvers.meeple_land.layout import DEFAULT_SETTINGS

    puzzle = load("10")
    cold = solve_layout(puzzle, seed=0, settings=replace(DEFAULT_SETTINGS, warm_start=False))
    warm = solve_layout(puzzle, seed=0)
    assert cold.status == warm.status == "optimal"
    assert cold.objective == warm.objective
    assert cold.usage["greedy"] is None and warm.usage["greedy"] is not None


def test_every_seed_maps_into_cp_sat_range_deterministically() -> None:
    for seed in (0, 1, 12345, SEED_RANGE - 1):
        assert cp_sat_seed(seed) == seed
    for seed in (SEED_RANGE, 2**63, 2**64 + 5, 10**40, -1, -(2**40)):
        mapped = cp_sat_seed(seed)
        assert 0 <= mapped < SEED_RANGE
        assert cp_sat_seed(seed) == mapped
    assert cp_sat_seed(SEED_RANGE) != cp_sat_seed(SEED_RANGE + 1)


def test_a_seed_beyond_int32_solves_reproducibly() -> None:
    puzzle = random_puzzle(3)
    first = solve_layout(puzzle, seed=2**31)
    second = solve_layout(puzzle, seed=2**31)
    assert first.status == "optimal"
    assert first.placements == second.placements
    assert first.objective == brute_force(puzzle).objective


def test_the_default_threads_follow_the_model_size() -> None:
    from partysolver.solvers.meeple_land.layout import (
        DEFAULT_SETTINGS,
        LARGE_MODEL,
        SearchSettings,
        search_settings,
    )

    assert DEFAULT_SETTINGS.for_model(LARGE_MODEL - 1).workers == 1
    assert DEFAULT_SETTINGS.for_model(LARGE_MODEL).workers == 2
    # a budget on a small model adds CP-SAT's full linear relaxation; not on a large one
    assert DEFAULT_SETTINGS.for_model(LARGE_MODEL - 1).linearization_level is None
    assert DEFAULT_SETTINGS.for_model(LARGE_MODEL - 1, budget=True).linearization_level == 2
    assert DEFAULT_SETTINGS.for_model(LARGE_MODEL, budget=True).linearization_level is None
    seeded = search_settings(seed=4).for_model(LARGE_MODEL - 1, budget=True)
    assert (seeded.workers, seeded.linearization_level) == (1, 2)
    # several threads given explicitly keep CP-SAT's own mix
    assert search_settings(workers=2).for_model(10, budget=True).linearization_level is None
    plain = SearchSettings("one worker", interleave=False)
    assert plain.for_model(10, budget=True).linearization_level is None
    small = load("05")
    assert solve_layout(small).usage["workers"] == 1
    # solve_layout passes the budget: the tight-budget puzzle is solved with max_lp, 05
    # (no budget) without
    tight = load("04")
    assert tight.budget is not None and small.budget is None
    assert solve_layout(tight).usage["max_lp"] is True
    assert solve_layout(small).usage["max_lp"] is False
    assert solve_layout(tight, workers=2).usage["max_lp"] is False
    assert solve_layout(small, workers=3).usage["workers"] == 3
    assert solve_layout(small, workers=3, seed=1).usage["workers"] == 1


def test_a_puzzle_hint_out_of_time_claims_no_best_layout(monkeypatch: pytest.MonkeyPatch) -> None:
    """When the budget leaves only the pre-placed tiles (a feasible layout, not proven), the
    hint says it has no step and why, status unknown: never "already the best layout"."""
    from reports import data as report_data

    from partysolver.solvers.meeple_land import layout as layout_module

    real = layout_module.solve_layout

    def starved(puzzle: Any, **kwargs: Any) -> Any:
        found = real(puzzle)
        empty = puzzle.layout_of(())
        return replace(found, status="feasible", objective=-4, bound=8, placements=(),
                       layout=empty, build_order=tuple(range(len(puzzle.placed))))

    monkeypatch.setattr(layout_module, "solve_layout", starved)
    data = report_data("hint", "meeple-land:puzzle")
    assert data["status"] == "unknown" and data["moves"] == []
    assert "not proven" in data["note"] and "already the best" not in data["note"]


def test_a_layout_search_imports_no_graph_library() -> None:
    """The seating's flow is the project's own: a hint, a solve and a check of a Meeple Land
    puzzle import no graph library (networkx alone took a tenth of a second or more of the
    time limit)."""
    *_, loaded = fresh_process(("hint", "solve", "verify"), "meeple-land:puzzle", "5",
                               "networkx")
    assert loaded.strip() == "False"


def fresh_process(verbs: tuple[str, ...], target: str, limit: str, library: str,
                  before: str = "") -> list[str]:
    """Run ``verbs`` on ``target`` with ``--json --time-limit limit`` in a new Python process
    (after the statements ``before``): each command's output, then whether ``library`` was
    imported, as texts."""
    import subprocess
    import sys

    code = ("import sys\nfrom partysolver.cli.main import cli\n" + before
            + f"for verb in {verbs!r}:\n"
            "    try:\n"
            f"        cli([verb, {target!r}, '--json', '--time-limit', {limit!r}])\n"
            "    except SystemExit:\n"
            "        pass\n"
            "    print('\\x1e')\n"
            f"print(any(name.split('.')[0] == {library!r} for name in sys.modules))")
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True)
    return found.stdout.split("\x1e")


def test_a_limit_too_short_for_cp_sat_answers_the_greedy_layout_without_ortools() -> None:
    """When the time left after the greedy layout is less than CP-SAT's start costs (OR-Tools'
    import counted: here made unreachable), ``solve`` and ``hint`` answer the greedy layout,
    honestly not proven (status feasible / estimate, its bound the puzzle's ceiling), and
    OR-Tools is never imported; a long limit with the real costs still proves the optimum."""
    import json

    from partysolver.solvers.meeple_land.layout import objective_ceiling

    solved, hinted, loaded = fresh_process(
        ("solve", "hint"), "meeple-land:puzzles/03-service-with-a-smile", "30", "ortools",
        "from partysolver.solvers.meeple_land import layout\n"
        "layout.ORTOOLS_IMPORT_SECONDS = 1e9\n")
    assert loaded.strip() == "False"
    puzzle = load("03")
    greedy = greedy_layout(puzzle, None)
    assert greedy.legal and greedy.value is not None and greedy.value < puzzle.answer.objective
    data = json.loads(solved)
    assert data["status"] == "feasible" and "not proven optimal" in data["verdict"]
    assert data["objective"]["value"] == greedy.value
    assert data["objective"]["bound"] == objective_ceiling(puzzle)
    assert data["search"]["cp_sat_started"] is False and data["search"]["source"] == "greedy"
    placed = {(p["tile"], p["at"][0], p["at"][1], p["rotation"])
              for p in data["solution"]["placements"]}
    assert placed == {(p.tile, p.at[0], p.at[1], p.rotation) for p in greedy.placements}
    hint = json.loads(hinted)
    assert hint["status"] == "estimate" and hint["moves"][0]["value"] == greedy.value
    assert hint["search"]["cp_sat_started"] is False

    full = solve_layout(puzzle, time_limit=30)
    assert full.status == "optimal" and full.objective == puzzle.answer.objective
    assert full.usage["cp_sat_started"] is True

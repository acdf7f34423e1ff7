"""The printed intervals cover what they say (issue 20 §1): the coverage benchmark's quick mode
runs, and the interval computations behind every printed interval cover at about 95%
(``benchmarks/intervals.py`` measures each kind; docs/solvers.md gives the figures)."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

from partysolver.solvers.simulate import GameRecord, SimulationResult
from partysolver.solvers.stats import (
    figure_interval,
    student_interval,
    student_t95,
    wilson_interval,
)

BENCHMARK = Path(__file__).resolve().parent.parent / "benchmarks" / "intervals.py"


@pytest.fixture(scope="module")
def benchmark() -> ModuleType:
    spec = importlib.util.spec_from_file_location("partysolver_intervals", BENCHMARK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_the_quick_benchmark_gives_coverage_figures(benchmark: ModuleType,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    rows = benchmark.main(["--quick"])
    assert rows and all(0.0 <= row.coverage <= 1.0 and row.intervals > 0 for row in rows)
    kinds = {row.kind for row in rows}
    assert {"seats[*].win", "seats[*].figures.strips_lost", "by_policy.*.win"} <= kinds
    out = capsys.readouterr().out
    assert "Exact coverage of the Wilson interval" in out and "coverage" in out


def test_the_exact_wilson_coverage_is_near_nominal(benchmark: ModuleType) -> None:
    assert benchmark.wilson_coverage(20, 0.5) == pytest.approx(0.9586, abs=1e-3)
    row = benchmark.exact_rows((50,), 0.05)[0]
    assert 0.93 <= row.mean <= 0.97 and row.worst <= row.central


def test_wilson_covers_a_bernoulli_rate_at_about_95_percent() -> None:
    rng = random.Random(20)
    covered = 0
    for _ in range(400):
        p = rng.uniform(0.05, 0.95)
        n = rng.choice((10, 30, 100))
        wins = sum(rng.random() < p for _ in range(n))
        interval = wilson_interval(wins / n, n)
        covered += interval.low <= p <= interval.high
    assert covered / 400 >= 0.85


def test_student_t_quantiles() -> None:
    for df, quantile in ((1, 12.7062), (2, 4.3027), (9, 2.2622), (30, 2.0423), (100, 1.9840)):
        assert student_t95(df) == pytest.approx(quantile, abs=1e-4)
    assert student_t95(10**6) == pytest.approx(1.95996, abs=1e-4)


def test_student_intervals_cover_a_normal_mean_with_few_samples() -> None:
    rng = random.Random(7)
    covered = 0
    for _ in range(400):
        values = [rng.gauss(3.0, 2.0) for _ in range(5)]
        interval = student_interval(sum(values), sum(v * v for v in values), len(values))
        covered += interval.low <= 3.0 <= interval.high
    assert covered / 400 >= 0.90


def test_a_figure_within_0_and_1_gets_a_wilson_interval() -> None:
    assert figure_interval([1.0] * 10) == wilson_interval(1.0, 10)
    assert figure_interval([1.0] * 10).low < 1.0  # never a point when every game agrees
    wide = figure_interval([0.0, 2.0, 4.0])
    assert wide.low < 0.0 and wide.high > 4.0


def test_a_simulations_figures_use_the_figure_interval() -> None:
    records = tuple(GameRecord((1.0, 0.0), (0, 1), {"won": float(i % 2), "score": float(i)}, 1)
                    for i in range(10))
    figures = SimulationResult(("a", "b"), records).figures()
    assert figures["won"].interval == wilson_interval(0.5, 10)
    scores = [float(i) for i in range(10)]
    assert figures["score"].interval == student_interval(sum(scores),
                                                         sum(v * v for v in scores), 10)

"""The questions benchmark's ``--so-far``: the figures of several journals of the same deals
(one run's entropy policy, another's lower bound) merge into one row a deal."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARK = (Path(__file__).resolve().parents[2] / "benchmarks"
             / "pool_party_stars_questions.py")


@pytest.fixture(scope="module")
def benchmark() -> ModuleType:
    spec = importlib.util.spec_from_file_location("partysolver_pps_questions", BENCHMARK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _journal(path: Path, first: int, results: list[dict[str, object]]) -> Path:
    parameters = {"benchmark": "pool party stars questions", "players": 4, "seed": 32,
                  "units": len(results), **({"first": first} if first else {})}
    lines = [{"partysolver_run": 1, "parameters": parameters}]
    lines += [{"index": i, "seed": 32, "result": r} for i, r in enumerate(results)]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def _deal(mine: str, entropy: float | None, lower: float | None, cpu: float
          ) -> dict[str, object]:
    return {"mine": mine, "hand": [], "unidentifiable": "1/100000", "optimal": None,
            "worst": None, "hint": None, "entropy": entropy, "lookahead": None, "lower": lower,
            "depth": None if lower is None else 3, "spent": True, "options": [],
            "cpu_seconds": cpu}


def test_journals_of_the_same_deals_merge_by_deal_number(
        benchmark: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    entropy = _journal(tmp_path / "entropy.jsonl", 0, [_deal("Book", 8.0, None, 100.0)])
    lower = _journal(tmp_path / "lower.jsonl", 0, [_deal("Book", None, 6.0, 10.0)])
    later = _journal(tmp_path / "later.jsonl", 1, [_deal("Robot", 9.0, 7.0, 50.0)])
    benchmark.so_far([entropy, lower, later])
    out = capsys.readouterr().out
    assert "2 deals so far" in out and "(deals 0, 1)" in out
    assert "lower     mean 6.5000" in out and "entropy   mean 8.5000" in out
    assert "entropy - lower: mean 2.0000, max 2.0000" in out
    assert "cpu seconds a deal: mean 80.0" in out  # (100 + 10 + 50) / 2


def test_one_deal_has_no_interval(benchmark: ModuleType, tmp_path: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    benchmark.so_far([_journal(tmp_path / "one.jsonl", 3, [_deal("Gift", 8.5, 6.5, 1.0)])])
    out = capsys.readouterr().out
    assert "(deals 3)" in out and "8.5000 (one deal: no interval)" in out
    assert "-inf" not in out and "nan" not in out


def test_journals_that_disagree_on_a_figure_are_refused(benchmark: ModuleType,
                                                        tmp_path: Path) -> None:
    one = _journal(tmp_path / "one.jsonl", 0, [_deal("Book", 8.0, None, 1.0)])
    other = _journal(tmp_path / "other.jsonl", 0, [_deal("Book", 8.5, None, 1.0)])
    with pytest.raises(SystemExit, match="entropy is 8.5 here and 8.0 in another journal"):
        benchmark.so_far([one, other])


def test_a_lower_bound_beside_the_optimum_and_no_unvalued_policy(
        benchmark: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Two players: the bound's distance below the optimum is printed; the policies the run
    did not value are not counted as never proposing an optimal first guest."""
    deals = [{**_deal("Book", None, low, 1.0), "optimal": best, "unidentifiable": "0",
              "options": [["Animal-Swimsuit-Book", best]], "hand": ["Animal-Swimsuit-Book"]}
             for low, best in ((4.0, 4.25), (4.5, 4.5))]
    path = _journal(tmp_path / "two.jsonl", 0, deals)
    path.write_text(path.read_text().replace('"players": 4', '"players": 2'))
    benchmark.so_far([path])
    out = capsys.readouterr().out
    assert "optimal - lower (how far below the optimum the bound stays): 0.1250" in out
    assert "max 0.2500" in out and "first proposal" not in out


def test_waiting_and_plain_lower_bounds_do_not_merge(benchmark: ModuleType,
                                                     tmp_path: Path) -> None:
    plain = _journal(tmp_path / "plain.jsonl", 0,
                     [{**_deal("Book", None, 6.0, 1.0), "waiting": False}])
    waiting = _journal(tmp_path / "waiting.jsonl", 0,
                       [{**_deal("Book", None, 6.0, 1.0), "waiting": True}])
    with pytest.raises(SystemExit, match="waiting is True here and False"):
        benchmark.so_far([plain, waiting])


def test_a_journal_that_cannot_be_resumed_is_refused_cleanly(tmp_path: Path) -> None:
    """--resume with other parameters than the journal's: a clear message, exit 2, no
    traceback, and the journal as it was."""
    import subprocess

    journal = _journal(tmp_path / "six.jsonl", 0, [_deal("Book", 8.0, None, 1.0)])
    before = journal.read_bytes()
    done = subprocess.run(
        [sys.executable, str(BENCHMARK), "--players", "4", "--deals", "5", "--no-optimal",
         "--no-hint", "--no-worst", "--policies", "none", "--out", str(journal), "--resume",
         "--tables", str(tmp_path / "tables.pickle")],
        capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2, done.stderr
    assert "error:" in done.stderr and "six.jsonl" in done.stderr
    assert "Traceback" not in done.stderr
    assert journal.read_bytes() == before

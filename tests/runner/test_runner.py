"""The units-of-work runner on toy tasks: the same outcomes in this process and in worker
processes, failures reported and survived, the journal written, resumed and refused, progress
told, and the progress drawn."""

from __future__ import annotations

import io
import json
import os
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from partysolver.cli.runs import ProgressView
from partysolver.models.errors import InputError
from partysolver.solvers.runner import (
    Chunks,
    InProcess,
    LocalProcesses,
    Outcome,
    Progress,
    RunPlan,
    run,
)


def draws(seed: int, index: int) -> dict[str, Any]:
    """A unit seeded from (seed, index): a few random numbers and the index."""
    rng = random.Random(seed * 1_000_003 + index)
    return {"index": index, "draws": [rng.random() for _ in range(3)]}


@dataclass
class Recording:
    """Runs in this process and remembers which units it ran; ``broken`` units raise."""

    broken: frozenset[int] = frozenset()
    ran: list[int] = field(default_factory=list)

    def __call__(self, seed: int, index: int) -> dict[str, Any]:
        self.ran.append(index)
        if index in self.broken:
            raise ValueError(f"no cake for unit {index}")
        return draws(seed, index)


@dataclass(frozen=True)
class DiesOnce:
    """Kills its worker process the first time it runs unit ``index`` (a marker file says it
    already did), as an out-of-memory kill would."""

    marker: str
    index: int

    def __call__(self, seed: int, index: int) -> dict[str, Any]:
        if index == self.index and not os.path.exists(self.marker):
            Path(self.marker).touch()
            os._exit(9)
        return draws(seed, index)


def test_units_give_the_same_outcomes_in_this_process_and_in_worker_processes() -> None:
    alone = run(draws, 40, seed=7)
    assert [o.index for o in alone.outcomes] == list(range(40))
    assert alone.results == [draws(7, i) for i in range(40)]
    pooled = run(draws, 40, seed=7, plan=RunPlan(LocalProcesses(3)))
    assert pooled.results == alone.results
    assert {o.worker for o in pooled.outcomes} != {o.worker for o in alone.outcomes}
    assert run(draws, 40, seed=8).results != alone.results


def test_a_unit_that_raises_is_reported_with_its_index_and_seed_and_the_run_goes_on() -> None:
    told: list[Outcome] = []
    result = run(Recording(frozenset({3, 5})), 8, seed=2, plan=RunPlan(on_outcome=told.append))
    assert [(o.index, o.seed) for o in result.failures] == [(3, 2), (5, 2)]
    assert result.failures[0].error == "ValueError: no cake for unit 3"
    assert "no cake" in result.failures[0].trace
    assert result.failures[0].describe("game") == \
        "game 3 (seed 2) failed: ValueError: no cake for unit 3"
    assert len(result.results) == 6 and sorted(o.index for o in told) == list(range(8))


def test_bad_input_in_a_unit_reads_as_bad_input() -> None:
    def unit(seed: int, index: int) -> None:
        raise InputError("x.toml", "game", "a game")

    (failure,) = run(unit, 1).failures
    assert failure.error == "bad input: x.toml: game: expected a game"


def test_a_result_that_is_not_json_data_fails_its_unit() -> None:
    (failure,) = run(lambda seed, index: {"when": object()}, 1).failures
    assert failure.error is not None and failure.error.startswith("TypeError")


def test_a_dead_worker_process_has_its_chunk_run_again(tmp_path: Path) -> None:
    task = DiesOnce(str(tmp_path / "died"), 6)
    result = run(task, 12, seed=1, plan=RunPlan(LocalProcesses(2)))
    assert (tmp_path / "died").exists()
    assert not result.failures and result.results == [draws(1, i) for i in range(12)]


def test_a_task_that_cannot_reach_a_worker_is_refused_up_front() -> None:
    with pytest.raises(TypeError, match="module-level"):
        run(lambda seed, index: index, 3, plan=RunPlan(LocalProcesses(2)))


def test_the_journal_has_a_header_and_one_line_per_unit(tmp_path: Path) -> None:
    journal = tmp_path / "run.jsonl"
    run(Recording(frozenset({4})), 6, seed=3,
        plan=RunPlan(journal=journal, parameters={"game": "cake"}))
    header, *lines = [json.loads(line) for line in journal.read_text().splitlines()]
    assert header["parameters"] == {"game": "cake", "units": 6, "seed": 3}
    assert sorted(line["index"] for line in lines) == list(range(6))
    assert all(line["seed"] == 3 for line in lines)
    assert [line["error"] for line in lines if "error" in line] == \
        ["ValueError: no cake for unit 4"]
    assert {line["index"]: line["result"] for line in lines if "result" in line} == \
        {i: draws(3, i) for i in range(6) if i != 4}


def test_resume_runs_only_the_units_not_finished_and_gives_the_same_results(
        tmp_path: Path) -> None:
    journal = tmp_path / "run.jsonl"
    full = run(draws, 10, seed=4).results
    lines = journal_of(draws, 10, 4, tmp_path / "full.jsonl")
    # A killed run: the header, six units, and a seventh cut short in the middle.
    journal.write_text("".join(lines[:7]) + lines[7][:15])
    task = Recording()
    told: list[Progress] = []
    result = run(task, 10, seed=4, plan=RunPlan(journal=journal, resume=True,
                                                 on_progress=told.append))
    assert sorted(task.ran) == [6, 7, 8, 9] and result.resumed == 6
    assert result.results == full
    indices = [json.loads(line)["index"] for line in journal.read_text().splitlines()[1:]]
    assert sorted(indices) == list(range(10))
    assert told[0].resumed == 6 and told[0].done == 6 and told[-1].done == 10


def journal_of(task: Any, units: int, seed: int, path: Path) -> list[str]:
    run(task, units, seed, RunPlan(journal=path))
    return path.read_text().splitlines(keepends=True)


def test_resume_runs_failed_units_again(tmp_path: Path) -> None:
    journal = tmp_path / "run.jsonl"
    run(Recording(frozenset({1, 2})), 4, plan=RunPlan(journal=journal))
    task = Recording()
    result = run(task, 4, plan=RunPlan(journal=journal, resume=True))
    assert sorted(task.ran) == [1, 2] and not result.failures
    again = Recording()
    run(again, 4, plan=RunPlan(journal=journal, resume=True))
    assert again.ran == []


def test_a_journal_is_not_overwritten_nor_resumed_with_other_parameters(
        tmp_path: Path) -> None:
    journal = tmp_path / "run.jsonl"
    run(draws, 3, seed=1, plan=RunPlan(journal=journal, parameters={"policy": "greedy"}))
    before = journal.read_text()
    with pytest.raises(InputError, match="--resume continues"):
        run(draws, 3, seed=1, plan=RunPlan(journal=journal))
    with pytest.raises(InputError, match='policy: journal "greedy", now "random"'):
        run(draws, 3, seed=1, plan=RunPlan(journal=journal, resume=True,
                                           parameters={"policy": "random"}))
    with pytest.raises(InputError, match="seed: journal 1, now 2"):
        run(draws, 3, seed=2, plan=RunPlan(journal=journal, resume=True,
                                           parameters={"policy": "greedy"}))
    with pytest.raises(InputError, match="units: journal 3, now 4"):
        run(draws, 4, seed=1, plan=RunPlan(journal=journal, resume=True,
                                           parameters={"policy": "greedy"}))
    assert journal.read_text() == before


def test_a_journal_that_is_not_one_is_refused_with_its_line(tmp_path: Path) -> None:
    journal = tmp_path / "run.jsonl"
    run(draws, 3, plan=RunPlan(journal=journal))
    lines = journal.read_text().splitlines(keepends=True)
    journal.write_text(lines[0] + "not json\n" + lines[1])
    with pytest.raises(InputError, match="line 2: expected a JSON line"):
        run(draws, 3, plan=RunPlan(journal=journal, resume=True))
    journal.write_text(lines[0] + lines[1].replace('"index": ', '"index": 1') )
    with pytest.raises(InputError, match="line 2: index: expected a unit index below 3"):
        run(draws, 3, plan=RunPlan(journal=journal, resume=True))
    journal.write_text('{"cake": 1}\n')
    with pytest.raises(InputError, match="line 1: expected the header of a partysolver run"):
        run(draws, 3, plan=RunPlan(journal=journal, resume=True))


def test_resuming_a_missing_journal_starts_the_run(tmp_path: Path) -> None:
    journal = tmp_path / "new.jsonl"
    result = run(draws, 3, plan=RunPlan(journal=journal, resume=True))
    assert result.resumed == 0 and len(journal.read_text().splitlines()) == 4


def test_two_runs_never_write_one_journal_at_once(tmp_path: Path) -> None:
    journal = tmp_path / "run.jsonl"

    def nested(seed: int, index: int) -> int:
        with pytest.raises(InputError, match="another partysolver run has it open"):
            run(draws, 2, plan=RunPlan(journal=journal, resume=True))
        return index

    run(nested, 1, plan=RunPlan(journal=journal))


def test_chunks_start_with_single_units_then_size_to_the_target() -> None:
    chunks = Chunks(range(1000), target=0.25)
    assert chunks.next(2) == [0]
    chunks.observe([Outcome(0, 0, 0, seconds=0.01)])
    assert [len(chunks.next(2)) for _ in range(5)] == [2, 4, 8, 16, 25]  # doubling, to 0.25 s
    chunks.observe([Outcome(0, 0, 0, seconds=10.0)])
    assert len(chunks.next(2)) == 1
    few = Chunks(range(8))
    few.observe([Outcome(0, 0, 0, seconds=1e-5)])
    assert len(few.next(2)) == 1  # every worker gets a share of the last units


def test_progress_counts_rate_and_time_left() -> None:
    progress = Progress(total=100, done=30, failed=2, resumed=10, elapsed=4.0)
    assert progress.rate == 5.0 and progress.seconds_left == 14.0
    assert Progress(10, 0, 0, 0, 1.0).seconds_left is None


def test_progress_on_a_terminal_is_a_bar_with_rate_and_time_left() -> None:
    stream = io.StringIO()
    view = ProgressView("playing", "games", stream, terminal=True)
    view.progress(Progress(total=200, done=50, failed=0, resumed=0, elapsed=10.0))
    view.outcome(Outcome(17, 3, error="ValueError: boom"))
    view.progress(Progress(total=200, done=200, failed=1, resumed=0, elapsed=40.0))
    view.close()
    text = stream.getvalue()
    assert "\rplaying [######------------------] 50/200 games  5.0 games/s  0:30 left" in text
    assert "game 17 (seed 3) failed: ValueError: boom\n" in text
    assert "200/200 games (1 failed)" in text and text.endswith("\n")


def test_progress_elsewhere_is_a_line_every_few_seconds_and_a_last_one() -> None:
    stream = io.StringIO()
    view = ProgressView("verifying", "files", stream, every=3600.0, terminal=False)
    for done in range(0, 11):
        view.progress(Progress(total=10, done=done, failed=0, resumed=0, elapsed=1.0 + done))
    view.close()
    assert stream.getvalue().splitlines() == [
        "verifying: 0/10 files  - files/s  --:-- left",
        "verifying: 10/10 files  54.5 files/min  0:00 left"]


def test_the_default_executor_is_this_process() -> None:
    task = Recording()
    run(task, 3, plan=RunPlan(InProcess()))
    run(task, 3)
    assert task.ran == [0, 1, 2, 0, 1, 2]

"""The run options on the command line: ``--out`` and ``--resume`` (a driver killed with
SIGKILL resumes with every game once and the same figures), games that fail, the batch
``verify DIR`` and ``solve DIR``, and the options' one-line refusals."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import psutil
import pytest
from click.testing import CliRunner, Result

from partysolver import puzzles
from partysolver.app import tea_party
from partysolver.app.contract import schema
from partysolver.cli.main import cli
from partysolver.solvers.simulate import RandomPolicy


def run(*args: str, expect: int = 0) -> Result:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == expect, result.output
    return result


def journal_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_out_streams_one_line_per_game_and_resume_gives_the_same_figures(
        tmp_path: Path) -> None:
    journal = tmp_path / "games.jsonl"
    args = ["simulate", "tea-party", "--games", "12", "--policy", "greedy", "--policy",
            "random", "--rotate", "--seed", "9", "--json"]
    alone = run(*args).stdout
    assert run(*args, "--out", str(journal)).stdout == alone
    header, *lines = journal_lines(journal)
    assert header["parameters"]["game"] == "tea-party"
    assert header["parameters"]["policies"] == ["greedy", "random"]
    assert sorted(line["index"] for line in lines) == list(range(12))
    assert all(line["seed"] == 9 and "returns" in line["result"] for line in lines)
    # Everything finished: resuming runs nothing and reports the same figures.
    assert run(*args, "--out", str(journal), "--resume").stdout == alone
    assert len(journal_lines(journal)) == 13


def test_a_run_is_resumed_only_with_its_own_parameters(tmp_path: Path) -> None:
    journal = tmp_path / "games.jsonl"
    args = ["simulate", "tea-party", "--games", "3", "--seed", "1", "--out", str(journal)]
    run(*args)
    refused = run(*args, expect=2)
    assert "--resume continues that run" in refused.output
    other = run(*args, "--resume", "--policy", "random", expect=2)
    assert 'policies: journal [], now ["random"]' in other.output
    assert "Traceback" not in other.output


def test_a_batch_is_not_resumed_over_changed_files(setups: Path, tmp_path: Path) -> None:
    journal = tmp_path / "batch.jsonl"
    run("verify", str(setups), "--out", str(journal), expect=1)
    lines = journal_lines(journal)
    assert sorted(line["index"] for line in lines[1:]) == [0, 1, 2, 3]
    run("verify", str(setups), "--out", str(journal), "--resume", expect=1)
    assert journal_lines(journal) == lines  # nothing left to run
    (setups / "pps-default.toml").write_text((setups / "pps-lie.toml").read_text())
    refused = run("verify", str(setups), "--out", str(journal), "--resume", expect=2)
    assert "files: journal" in refused.output


def test_run_options_are_checked_in_one_line(tmp_path: Path) -> None:
    result = run("simulate", "tea-party", "--out", str(tmp_path / "no" / "x.jsonl"), expect=2)
    assert "expected a file that can be written in an existing folder" in result.output
    result = run("simulate", "tea-party", "--resume", expect=2)
    assert "--resume: expected --out FILE" in result.output
    result = run("simulate", "tea-party", "--scheduler", "tcp://127.0.0.1:1",
                 "--cluster", "local", expect=2)
    assert "expected one of them" in result.output
    position = puzzles.examples("tea-party")["default"]
    result = run("verify", str(position), "--out", str(tmp_path / "x.jsonl"), expect=2)
    assert "--out: expected a folder of files to verify" in result.output
    assert not (tmp_path / "x.jsonl").exists()


def _children(pid: int) -> list[psutil.Process]:
    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


def _gone(process: psutil.Process) -> bool:
    try:
        return process.status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


@pytest.fixture
def killed_driver(tmp_path: Path) -> Iterator[tuple[list[str], Path, int, bool]]:
    """A ``python -m partysolver simulate`` with two worker processes, killed with SIGKILL
    once its journal holds a few games: the arguments, the journal, the lines it held and
    whether its workers exited after it."""
    journal = tmp_path / "games.jsonl"
    args = ["simulate", "pool-party-stars", "--games", "40", "--policy", "random",
            "--seed", "4", "--json", "--out", str(journal)]
    driver = subprocess.Popen([sys.executable, "-m", "partysolver", *args, "--workers", "2"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              start_new_session=True)
    try:
        deadline = time.monotonic() + 180
        while driver.poll() is None and time.monotonic() < deadline:
            if journal.exists() and journal.read_text().count("\n") >= 6:
                break
            time.sleep(0.02)
        assert driver.poll() is None, "the driver should still be running when killed"
        workers = _children(driver.pid)
        driver.send_signal(signal.SIGKILL)
        driver.wait(timeout=30)
        held = journal.read_text().count("\n")
        deadline = time.monotonic() + 30
        while not all(_gone(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        yield args, journal, held, bool(workers) and all(_gone(w) for w in workers)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(driver.pid, signal.SIGKILL)


def test_a_driver_killed_mid_run_resumes_with_every_game_once_and_the_same_totals(
        killed_driver: tuple[list[str], Path, int, bool]) -> None:
    args, journal, held, workers_exited = killed_driver
    assert 6 <= held < 41  # the header and some of the 40 games, not all
    assert workers_exited  # worker processes do not outlive their driver
    resumed = run(*args, "--resume", "--workers", "2")
    entries = journal_lines(journal)[1:]
    assert sorted(e["index"] for e in entries) == list(range(40))  # every game exactly once
    alone = run(*args[:-2])
    assert resumed.stdout == alone.stdout


class Grumpy(RandomPolicy):
    """A random policy whose 40th decision in this process raises."""

    calls = 0

    def __call__(self, state: Any, rng: Any) -> Any:
        Grumpy.calls += 1
        if Grumpy.calls == 40:
            raise RuntimeError("the teapot is empty")
        return super().__call__(state, rng)


def test_a_game_that_raises_is_reported_and_the_run_goes_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tea_party, "make_policy", lambda name: Grumpy())
    Grumpy.calls = 0
    result = run("simulate", "tea-party", "--games", "6", "--seed", "1", "--json", expect=3)
    data = json.loads(result.stdout)
    assert data["failed"] == 1 and data["games"] == 5
    jsonschema.validate(data, schema("simulate"))
    (failed,) = data["errors"]
    assert failed["seed"] == 1 and failed["error"] == "RuntimeError: the teapot is empty"
    assert f"game {failed['index']} (seed 1) failed: RuntimeError: the teapot is empty" in \
        result.stderr
    assert sum(seat["win"]["games"] for seat in data["seats"]) == 2 * 5
    Grumpy.calls = 0
    text = run("simulate", "tea-party", "--games", "6", "--seed", "1", expect=3).stdout
    assert "1 of 6 games failed" in text


def test_when_every_game_fails_the_run_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    class Broken(RandomPolicy):
        def __call__(self, state: Any, rng: Any) -> Any:
            raise RuntimeError("no tea")

    monkeypatch.setattr(tea_party, "make_policy", lambda name: Broken())
    result = run("simulate", "tea-party", "--games", "3", expect=3)
    assert "all 3 games failed" in result.output and "Traceback" not in result.output


@pytest.fixture
def setups(tmp_path: Path) -> Path:
    folder = tmp_path / "setups"
    folder.mkdir()
    for name in ("default", "conflict", "lie"):
        shutil.copy(puzzles.examples("pool-party-stars")[name], folder / f"pps-{name}.toml")
    shutil.copy(puzzles.examples("tea-party")["midgame"], folder / "tea-midgame.toml")
    (folder / "notes.txt").write_text("not a setup: left alone")
    return folder


def test_verify_dir_prints_one_json_line_per_file_as_verify_file_would(setups: Path) -> None:
    result = run("verify", str(setups), "--json", "--seed", "2", expect=1)
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    files = sorted(p for p in setups.iterdir() if p.suffix == ".toml")
    assert [line["file"] for line in lines] == [str(p) for p in files]
    for line, path in zip(lines, files, strict=True):
        single = CliRunner().invoke(cli, ["verify", str(path), "--json", "--seed", "2"])
        assert {k: v for k, v in line.items() if k != "file"} == json.loads(single.stdout)
    assert "verify 4 files: 2 invalid, 2 valid" in result.stderr


def test_verify_dir_reports_a_bad_file_as_a_failed_unit_and_goes_on(setups: Path) -> None:
    (setups / "broken.toml").write_text('game = "pool-party-stars"\nseats = 3\n')
    (setups / "unknown.toml").write_text('game = "snakes"\n')
    result = run("verify", str(setups), "--json", expect=3)
    lines = {Path(x["file"]).name: x for x in map(json.loads, result.stdout.splitlines())}
    assert lines["broken.toml"]["error"].startswith("bad input: ")
    assert "game: expected one of" in lines["unknown.toml"]["error"]
    assert lines["pps-default.toml"]["valid"] is True
    assert "2 failed" in result.stderr
    text = run("verify", str(setups), expect=3).stdout
    assert "== " + str(setups / "broken.toml") + " ==\nfailed: bad input: " in text
    assert text.rstrip().endswith("2 invalid, 2 valid, 2 failed")


def test_solve_dir_solves_every_file(tmp_path: Path) -> None:
    folder = tmp_path / "endgames"
    folder.mkdir()
    shutil.copy(puzzles.examples("tea-party")["default"], folder / "default.toml")
    shutil.copy(puzzles.examples("pool-party-stars")["puzzle"], folder / "puzzle.toml")
    result = run("solve", str(folder), "--json", "--seed", "1")
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["game"] for line in lines] == ["tea-party", "pool-party-stars"]
    assert all(line["status"] == "optimal" for line in lines)
    assert "solve 2 files: 2 optimal" in result.stderr
    shutil.copy(puzzles.examples("party-time")["default"], folder / "party.toml")
    result = run("solve", str(folder), "--json", "--seed", "1", expect=3)
    (line,) = [json.loads(x) for x in result.stdout.splitlines() if "party.toml" in x]
    assert line["error"].startswith("bad input: ") and "supports 'solve'" in line["error"]


def test_a_folder_without_setups_is_bad_input(tmp_path: Path) -> None:
    assert "expected a folder with .toml or .json files" in \
        run("verify", str(tmp_path), expect=2).output

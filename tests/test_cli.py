"""The command line's shared behaviour, whatever the game: outputs that lose nothing, one-line
errors, strict JSON, per-game option defaults and games whose commands fail to load."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from partysolver import puzzles
from partysolver.app import base as adapters
from partysolver.cli.main import cli


def run(*args: str, expect: int = 0) -> Result:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == expect, result.output
    return result


@pytest.fixture
def position(tmp_path: Path) -> Path:
    path = tmp_path / "midgame.toml"
    path.write_text(puzzles.examples("tea-party")["midgame"].read_text())
    return path


def test_render_never_replaces_its_input_or_a_file_that_is_not_a_picture(position: Path) -> None:
    original = position.read_text()
    result = run("render", str(position), "-o", str(position), "--force", expect=2)
    assert "the input file" in result.output and position.read_text() == original
    notes = position.with_name("notes.svg")
    notes.write_text("keep me")
    result = run("render", str(position), "-o", str(notes), expect=2)
    assert "--force" in result.output and notes.read_text() == "keep me"
    run("render", str(position), "-o", str(notes), "--force")
    assert notes.read_text().startswith("<svg")
    for name in ("picture.jpg", "picture", "-"):
        result = run("render", str(position), "-o", str(position.with_name(name)), expect=2)
        assert result.output.count("\n") == 1 and "ending in .svg or .png" in result.output
        assert not position.with_name(name).exists()


def test_render_replaces_an_older_picture_with_the_usual_permissions(position: Path) -> None:
    picture = position.with_name("p.svg")
    run("render", str(position), "-o", str(picture))
    first = picture.read_text()
    picture.write_text("<svg>older</svg>")
    run("render", str(position), "-o", str(picture))
    assert picture.read_text() == first
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(picture.stat().st_mode) == 0o666 & ~umask


def test_render_into_a_missing_folder_or_onto_a_folder_is_one_line(position: Path) -> None:
    for target in (position.parent / "missing" / "x.svg", position.parent):
        result = run("render", str(position), "-o", str(target), expect=2)
        assert result.output.count("\n") == 1 and "--output" in result.output


def test_an_unknown_game_is_one_line_listing_the_games() -> None:
    for args in (("example", "chess"), ("simulate", "chess")):
        result = run(*args, expect=2)
        assert result.output.count("\n") == 1
        assert "game: expected one of" in result.output and "tea-party" in result.output


def test_top_is_taken_only_by_the_verbs_that_rank_moves(tmp_path: Path) -> None:
    """`--top` cuts a ranking: hint and solve take it; verify and render, which print no
    ranking, refuse it (it did nothing there) and keep `--time-limit`."""
    for verb in ("hint", "solve"):
        assert "--top K" in run(verb, "--help").output
    for verb in ("verify", "render"):
        help_text = run(verb, "--help").output
        assert "--top" not in help_text and "--time-limit" in help_text
    result = run("verify", "pool-party-stars:lie", "--top", "1", expect=2)
    assert "No such option '--top'" in result.output and result.output.count("\n") == 1
    run("verify", "pool-party-stars:default", "--time-limit", "5")


def test_simulate_refuses_policies_that_would_never_play() -> None:
    result = run("simulate", "tea-party", "--players", "2", "--games", "1", "--policy",
                 "random", "--policy", "greedy", "--policy", "hint", expect=2)
    assert "never play" in result.output and "--rotate" in result.output


def test_json_output_is_strict_json_even_for_one_game() -> None:
    # One game has no spread: its intervals are unbounded, written as null, never Infinity.
    def refuse(constant: str) -> Any:
        raise AssertionError(f"{constant} is not JSON")

    output = run("simulate", "tea-party", "--games", "1", "--json", "--seed", "1").stdout
    data = json.loads(output, parse_constant=refuse)
    # one game: no spread, so no bound above; a score is never below 0
    assert data["figures"]["score_1"]["interval"] == [0.0, None]


def test_a_shared_option_name_keeps_each_games_own_default(position: Path,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    # Tea Party and Meeple Party both declare --max-nodes, with different defaults (Tea
    # Party's depends on the number of monsters).
    from partysolver.solvers.tea_party import budgets, exact

    seen = []
    real = exact.solve

    def spy(state: Any, budget: Any, *rest: Any) -> Any:  # rest: the compile notice
        seen.append(budget.nodes)
        return real(state, budget.__class__(nodes=10), *rest)

    monkeypatch.setattr(exact, "solve", spy)
    two = position.parent / "two.toml"
    two.write_text(puzzles.examples("tea-party")["default"].read_text())
    run("solve", str(position))
    run("solve", str(position), "--max-nodes", "123")
    run("solve", str(two))
    # three monsters, then two: the generic search's default, then the compiled search's
    assert seen == [budgets.DEFAULT_SOLVE_NODES, 123, budgets.DEFAULT_SOLVE_NODES_TWO]


def test_every_shipped_game_loads_its_commands() -> None:
    assert adapters.broken_commands() == {}


def test_a_game_whose_commands_fail_to_load_leaves_the_others_working(
        position: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = adapters.importlib.import_module

    def broken(name: str, *args: Any) -> Any:
        # only the game's commands (importlib is one module: the rules engine, which the
        # registry imports the same way, must still load, however the tests ran before)
        if name == adapters.module_name("meeple-land"):
            raise ImportError("cannot import name 'nothing'")
        return real(name, *args)

    adapters.clear_commands()
    monkeypatch.setattr(adapters.importlib, "import_module", broken)
    try:
        assert "meeple-land" in adapters.broken_commands()
        assert "unavailable" in run("games").output
        run("verify", str(position))
        path = puzzles.examples("meeple-land")["default"]
        result = run("verify", str(path), expect=1)
        assert "failed to load" in result.output and "bug" in result.output
    finally:
        adapters.clear_commands()


def test_example_list_in_json_names_every_example() -> None:
    data = json.loads(run("example", "tea-party", "--list", "--json").stdout)
    assert data["game"] == "tea-party"
    assert {item["name"] for item in data["examples"]} == set(puzzles.examples("tea-party"))


@pytest.mark.parametrize("game", ["meeple-party", "meeple-land", "pool-party-stars",
                                  "party-time", "tea-party"])
def test_a_seeded_hint_prints_the_same_bytes_twice(game: str, tmp_path: Path) -> None:
    path = tmp_path / "example.toml"
    path.write_text(puzzles.examples(game)["default"].read_text())
    for extra in ((), ("--json",)):
        first = run("hint", str(path), "--seed", "1", *extra).stdout
        assert first == run("hint", str(path), "--seed", "1", *extra).stdout


def test_start_up_does_not_import_numba() -> None:
    """The compiled searches (Tea Party, the Party-Time playouts) import numba only when they
    run, so listing games and reading files stays quick."""
    code = "import sys, partysolver.cli.main; print('numba' in sys.modules)"
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True)
    assert found.stdout.strip() == "False"


@pytest.mark.parametrize("game", ["meeple-party", "meeple-land", "pool-party-stars",
                                  "party-time", "tea-party"])
def test_text_fits_the_terminal_and_explains_its_columns(game: str) -> None:
    """COLUMNS=80: no line of a hint is longer (reasons wrap, or go under their rows), and a
    legend says what the columns mean."""
    result = CliRunner(env={"COLUMNS": "80"}).invoke(cli, ["hint", f"{game}:default"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert any(": the " in line or ": your " in line for line in lines[-6:])  # the legend
    wide = CliRunner(env={"COLUMNS": "400"}).invoke(cli, ["hint", f"{game}:default"])
    assert max(len(line) for line in wide.stdout.splitlines()) > 80  # nothing cut when wide

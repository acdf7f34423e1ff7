"""``solve --table FILE``: the exact search's table kept on disk between runs (issue 32), its
progress lines, and every bad table file refused before any work, the file left as it was."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from partysolver.app import paths
from partysolver.cli.main import cli
from partysolver.models.tea_party.position import load_state
from partysolver.solvers.budget import Budget
from partysolver.solvers.tea_party import exact, tablefile
from partysolver.solvers.tea_party.kernel import CompiledExpectimax, Table

# Nine heroes in the bag, two monsters, Green to draw: some 40,000 states.
POSITION = {
    "game": "tea-party", "players": ["Blue", "Green"], "current": "Green",
    "bag": {"fighter": 4, "rogue": 2, "wizard": 1, "ranger": 1, "bard": 1},
    "cups": {"Blue": {}, "Green": {}},
    "stomachs": {"Blue": {"fighter": 3, "wizard": 1, "ranger": 2},
                 "Green": {"fighter": 5, "rogue": 1, "ranger": 1}},
    "out": {"fighter": 3, "cleric": 9, "rogue": 4, "wizard": 3, "king": 1, "queen": 1},
}


@pytest.fixture
def position(tmp_path: Path) -> Path:
    path = tmp_path / "late.json"
    path.write_text(json.dumps(POSITION))
    return path


@pytest.fixture(autouse=True)
def fresh_tables() -> None:
    """Each test loads its file anew (a process keeps one table a file, for a batch's units)."""
    exact._KEPT.clear()


def solve(*args: str, expect: int = 0) -> tuple[dict | None, str]:
    result = CliRunner().invoke(cli, ["solve", *args], catch_exceptions=False)
    assert result.exit_code == expect, result.output
    assert "Traceback" not in result.output
    return (json.loads(result.stdout) if expect == 0 and "--json" in args else None,
            result.stderr)


def test_a_kept_table_answers_the_next_run_without_searching(position: Path,
                                                             tmp_path: Path) -> None:
    table = tmp_path / "tea.table"
    first, _ = solve(str(position), "--json", "--table", str(table))
    assert first is not None and first["status"] == "optimal"
    assert table.read_bytes().startswith(tablefile.MAGIC)
    exact._KEPT.clear()  # a new run: the file, not this process's memory
    again, _ = solve(str(position), "--json", "--table", str(table))
    assert again is not None and again["objective"] == first["objective"]
    assert again["search"]["nodes"] * 100 < first["search"]["nodes"]
    assert again["search"]["table_size"] >= first["search"]["table_size"]


def test_a_small_position_is_searched_by_the_compiled_search_to_keep_its_table(
        tmp_path: Path) -> None:
    """The shipped endgame is small enough for the interpreted search, whose table is not the
    one kept: asked to keep a table, solve runs the compiled search."""
    table = tmp_path / "endgame.table"
    data, _ = solve("tea-party:default", "--json", "--table", str(table))
    assert data is not None and data["status"] == "optimal" and data["search"]["compiled"]
    assert table.read_bytes().startswith(tablefile.MAGIC)


def test_a_search_stopped_by_its_budget_keeps_what_it_finished(position: Path,
                                                               tmp_path: Path) -> None:
    table = tmp_path / "tea.table"
    whole, _ = solve(str(position), "--json")
    assert whole is not None
    cut, _ = solve(str(position), "--json", "--table", str(table), "--max-nodes", "5000")
    assert cut is not None and cut["status"] == "unknown"
    assert table.stat().st_size > len(tablefile.MAGIC) + 100  # finished values were kept
    exact._KEPT.clear()
    resumed, _ = solve(str(position), "--json", "--table", str(table))
    assert resumed is not None and resumed["objective"] == whole["objective"]
    assert resumed["search"]["nodes"] < whole["search"]["nodes"]


def test_a_long_search_reports_progress_and_saves_its_table_as_it_goes(
        position: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(CompiledExpectimax, "CHUNK", 2_000)
    monkeypatch.setattr(CompiledExpectimax, "PROGRESS_EVERY", 0.0)
    monkeypatch.setattr(exact, "SAVE_EVERY", 0.0)
    saves: list[int] = []
    write = paths.write_atomically

    def counted(path: Path, data: object) -> None:
        saves.append(1)
        write(path, data)  # type: ignore[arg-type]

    monkeypatch.setattr(paths, "write_atomically", counted)
    table = tmp_path / "tea.table"
    data, stderr = solve(str(position), "--json", "--table", str(table))
    assert data is not None and data["status"] == "optimal"
    assert "done by the stack's odds" in stderr and "M nodes" in stderr
    assert len(saves) >= 3  # during the search, not only at its end


def test_written_and_loaded_the_table_is_the_same(tmp_path: Path) -> None:
    state = load_state(POSITION, "late.json")
    table = Table()
    value = CompiledExpectimax(Budget(), table=table).value(state)
    path = tmp_path / "tea.table"
    paths.write_atomically(path, table.write)
    loaded = Table()
    assert loaded.load(path) == len(table) == len(loaded)
    assert list(loaded.sizes) == list(table.sizes)
    again = CompiledExpectimax(Budget(), table=loaded)
    assert again.value(state) == value
    assert again.meter.nodes <= 1


@pytest.mark.parametrize("case", ["suffix", "other file", "other search", "header", "keys",
                                  "wide keys", "short"])
def test_a_bad_table_file_is_refused_and_left_as_it_was(position: Path, tmp_path: Path,
                                                        case: str) -> None:
    fields = {"stamp": tablefile.stamp(), "entries": 10, "byteorder": sys.byteorder,
              "codec": [0] * tablefile.CODEC}
    header = json.dumps(fields).encode()
    keys = json.dumps({**fields, "codec": [1, 99]}).encode()
    wide = json.dumps({**fields, "codec": [1] + [15] * 15}).encode()  # past 56 bits
    name, content, expected = {
        "suffix": ("tea.txt", None, "ending in .table"),
        "other file": ("tea.table", b"my notes\n", "a new file or a .table file"),
        "other search": ("tea.table", tablefile.MAGIC + b'{"stamp": "x", "entries": 1}\n',
                         "made by this version of the exact search"),
        "header": ("tea.table", tablefile.MAGIC + b"{not json\n", "JSON header"),
        "keys": ("tea.table", tablefile.MAGIC + keys + b"\n", "describes its keys"),
        "wide keys": ("tea.table", tablefile.MAGIC + wide + b"\n", "within 56 bits"),
        "short": ("tea.table", tablefile.MAGIC + header + b"\n" + b"\0" * 64,
                  "the file ends early"),
    }[case]
    table = tmp_path / name
    if content is not None:
        table.write_bytes(content)
    result = CliRunner().invoke(cli, ["solve", str(position), "--table", str(table)])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert "--table" in result.output and expected in result.output
    if content is None:
        assert not table.exists()
    else:
        assert table.read_bytes() == content


def test_the_stamp_is_that_of_the_code_the_process_imported(monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    """A long search stamps its table with the code it runs: files changed on disk after the
    import (a new checkout while it searches) do not change what it writes."""
    before = tablefile.stamp()
    monkeypatch.setattr(tablefile, "_sources", lambda: (b"the files as they are now",))
    tablefile.stamp.cache_clear()  # asked again: still the code read at the import
    try:
        assert tablefile.stamp() == before
    finally:
        tablefile.stamp.cache_clear()
    header = tablefile.new_header(3, [0] * tablefile.CODEC)[len(tablefile.MAGIC):]
    assert json.loads(header)["stamp"] == before


def test_the_stamp_changes_with_the_code_not_with_its_prose() -> None:
    """Rewording a docstring or a comment, or laying the code out again, keeps the tables a
    long search saved; a change of code refuses them."""
    code = b'"""A module."""\n\nX = 1  # a note\n\n\ndef f(a):\n    """Twice."""\n    return 2 * a\n'
    reworded = (b'"""The module, reworded."""\nX = 1\n\n\ndef f(a):\n    """Double it."""\n'
                b'    # a comment\n    return 2 * a\n')
    changed = code.replace(b"2 * a", b"3 * a")
    assert tablefile._digest((code,)) == tablefile._digest((reworded,))
    assert tablefile._digest((code,)) != tablefile._digest((changed,))


def test_two_threads_solve_to_the_same_answer_and_keep_the_same_table(
        position: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``solve --threads 2``: two lanes share the table (rounds of 2,000 nodes, progress lines
    and saves between them); the value, the options and the line are those of one thread,
    and the table they kept answers a one-thread run without a search."""
    one, _ = solve(str(position), "--json", "--table", str(tmp_path / "one.table"))
    exact._KEPT.clear()
    monkeypatch.setattr(CompiledExpectimax, "CHUNK", 2_000)
    monkeypatch.setattr(CompiledExpectimax, "PROGRESS_EVERY", 0.0)
    monkeypatch.setattr(exact, "SAVE_EVERY", 0.0)
    table = tmp_path / "two.table"
    two, stderr = solve(str(position), "--json", "--table", str(table), "--threads", "2")
    assert one is not None and two is not None and two["status"] == "optimal"
    assert two["objective"] == one["objective"]
    assert two["solution"] == one["solution"]
    assert "done by the stack's odds" in stderr
    exact._KEPT.clear()
    again, _ = solve(str(position), "--json", "--table", str(table))
    assert again is not None and again["objective"] == one["objective"]
    assert again["search"]["nodes"] * 100 < one["search"]["nodes"]
    for bad in ("0", "65", "two"):
        result = CliRunner().invoke(cli, ["solve", str(position), "--threads", bad])
        assert result.exit_code == 2 and "Traceback" not in result.output
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and "--threads" in lines[0], result.output

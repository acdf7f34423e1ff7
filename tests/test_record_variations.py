"""Game records with variations (a step's ``variations``: lines played instead of it), which
the web board's move tree writes: the command line reads them the same way as a record
without them (every verb plays the main line), checks every variation's steps, and keeps them
when it appends to the record."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from partysolver.app.inputs import parse
from partysolver.app.records import load_record
from partysolver.cli.main import cli

MAIN = [{"move": "cup"}, {"move": "draw cleric"}]
VARIED = [{"move": "cup", "variations": [[{"move": "squish king as fighter"}]]},
          {"move": "draw cleric", "variations": [
              [{"move": "draw fighter", "variations": [[{"move": "draw ranger"}]]},
               {"move": "squish fighter"}]]}]


def record(steps: list[dict[str, object]]) -> str:
    return json.dumps({"game": "tea-party", "kind": "record",
                       "start": "tea-party:examples/default", "steps": steps})


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


def test_a_record_with_variations_plays_as_its_main_line(tmp_path: Path) -> None:
    plain, varied = tmp_path / "plain.record.json", tmp_path / "varied.record.json"
    plain.write_text(record(MAIN))
    varied.write_text(record(VARIED))
    assert run("apply", str(varied)) == run("apply", str(plain))
    assert run("apply", str(varied), "--upto", "1") == run("apply", str(plain), "--upto", "1")
    loaded = load_record(parse(record(VARIED), "varied"))
    assert [s.move for s in loaded.steps] == ["cup", "draw cleric"]
    assert loaded.to_document()["steps"] == VARIED  # written back as read


def test_a_variations_illegal_step_is_bad_input_naming_it(tmp_path: Path) -> None:
    bad = json.loads(json.dumps(VARIED))
    bad[1]["variations"][0][0]["variations"][0][0]["move"] = "draw king"
    path = tmp_path / "bad.record.json"
    path.write_text(record(bad))
    code, output = run("apply", str(path))
    assert code == 2
    assert output.strip().splitlines()[-1].startswith(
        f"Error: bad input: {path}: steps[2].variations[1][1].variations[1]: step 2: "
        "not a legal chance outcome here: 'draw king'")
    assert "Traceback" not in output
    path.write_text(record([{"move": "cup", "variations": [[]]}]))
    code, output = run("apply", str(path))
    assert code == 2 and "steps[1].variations[1]: expected a line of steps" in output


def test_appending_to_a_record_keeps_its_variations(tmp_path: Path) -> None:
    path = tmp_path / "game.record.json"
    path.write_text(record(VARIED))
    code, _ = run("apply", str(path), "squish cleric", "--record", str(path))
    assert code == 0
    steps = json.loads(path.read_text())["steps"]
    assert [s["move"] for s in steps] == ["cup", "draw cleric", "squish cleric"]
    assert steps[:2] == VARIED

"""Playing along: apply a hint's move, chance outcomes, records and their positions.

Every game with a move notation is covered the same way: the first move of ``hint --json``
applied with ``apply`` gives a position that ``verify`` accepts."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner, Result
from reports import data as report_data

from partysolver.app import catalog, playalong
from partysolver.app.contract import schema
from partysolver.cli.main import cli
from partysolver.models.registry import all_games

PLAYABLE = [key for key, game in all_games().items() if hasattr(game, "playable")]


def run(*args: str, expect: int = 0) -> Result:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == expect, result.output
    assert "Traceback" not in result.output
    return result


def example(game: str, tmp_path: Path, name: str | None = None) -> Path:
    path = tmp_path / f"{game}.toml"
    path.write_text(catalog.example_text(game, name, False))
    return path


@pytest.mark.parametrize("game", PLAYABLE)
def test_the_hints_first_move_applies_and_the_result_verifies(game: str,
                                                              tmp_path: Path) -> None:
    path = example(game, tmp_path)
    hint = report_data("hint", path, top=1)
    move = hint["moves"][0]["move"]
    out = tmp_path / "next.toml"
    result = run("apply", str(path), move, "-o", str(out))
    assert f"1. {hint['to_move']}: " in result.output
    verified = run("verify", str(out), "--json")
    assert json.loads(verified.output)["valid"] is True
    data = json.loads(run("apply", str(path), move, "--json").output)
    assert data["applied"][0]["number"] == 1 and data["applied"][0]["actor"] == hint["to_move"]


@pytest.mark.parametrize("game", PLAYABLE)
def test_an_illegal_move_is_one_line_with_the_closest_legal_ones(game: str,
                                                                 tmp_path: Path) -> None:
    path = example(game, tmp_path)
    before = path.read_text()
    result = run("apply", str(path), "fly to the moon", "-o", str(tmp_path / "x.toml"),
                 expect=2)
    assert result.output.count("\n") == 1 and "step 1" in result.output
    assert "closest legal" in result.output
    assert path.read_text() == before and not (tmp_path / "x.toml").exists()


def test_apply_never_writes_over_its_input_unless_forced(tmp_path: Path) -> None:
    path = example("pool-party-stars", tmp_path)
    before = path.read_text()
    result = run("apply", str(path), "guess ben robot", "-o", str(path), expect=2)
    assert "--force" in result.output and path.read_text() == before
    run("apply", str(path), "guess ben robot", "-o", str(path), "--force")
    assert path.read_text() != before and "pending" in path.read_text()


def test_apply_output_never_replaces_an_existing_file_unless_forced(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # short names: the message shows them whole
    path = example("tea-party", Path())
    move = "squish king as rogue on Green take rogue"
    keep = Path("keep.toml")
    keep.write_text("unrelated = 1\n")
    result = CliRunner().invoke(cli, ["apply", str(path), move, "-o", str(keep)])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert "--output" in result.stderr and "'keep.toml'" in result.stderr
    assert "--force" in result.stderr and keep.read_text() == "unrelated = 1\n"
    run("apply", str(path), move, "-o", str(keep), "--force")
    assert keep.read_text() == run("apply", str(path), move).output  # what stdout gets
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.toml", "tea-party.toml"]


def test_a_seat_enters_what_it_sees_and_random_draws_the_rest(tmp_path: Path) -> None:
    path = example("pool-party-stars", tmp_path)
    seen = json.loads(run("apply", str(path), "guess ben robot", "right", "--json").output)
    assert [s["move"] for s in seen["applied"]] == ["guess Ben Robot", "right"]
    assert seen["awaits_chance"] and seen["to_move"]
    drawn = run("apply", str(path), "guess ben robot", "--random", "--seed", "5", "--json")
    again = run("apply", str(path), "guess ben robot", "--random", "--seed", "5", "--json")
    assert drawn.output == again.output
    steps = json.loads(drawn.output)["applied"]
    assert len(steps) > 1 and all(s.get("comment") == "drawn at random" for s in steps[1:])
    assert not json.loads(drawn.output)["awaits_chance"]


def test_a_record_grows_replays_and_gives_any_position(tmp_path: Path) -> None:
    path = example("pool-party-stars", tmp_path)
    record = tmp_path / "game.toml"
    run("apply", str(path), "guess ben robot", "--record", str(record))
    run("apply", str(record), "right", "--record", str(record))
    text = record.read_text()
    assert 'kind = "record"' in text and text.count("move = ") == 2
    loaded = playalong.load_record(catalog.open_document(str(record)))
    assert [s.move for s in loaded.steps] == ["guess Ben Robot", "right"]
    first = run("apply", str(record), "--upto", "1").output
    assert 'pending = "guess Ben Robot"' in first
    start = run("apply", str(record), "--upto", "0").output
    assert start == run("apply", str(path)).output
    result = run("apply", str(record), "--upto", "3", expect=2)
    assert "--upto" in result.output and "0 to 2" in result.output


def test_a_record_with_an_illegal_step_is_bad_input(tmp_path: Path) -> None:
    record = tmp_path / "bad.toml"
    record.write_text('game = "pool-party-stars"\nkind = "record"\n'
                      'start = "pool-party-stars:default"\n[[steps]]\nmove = "dance"\n')
    result = run("apply", str(record), expect=2)
    assert result.output.count("\n") == 1 and "steps" in result.output
    assert "step 1" in result.output


def test_review_marks_each_decision_against_the_hint(tmp_path: Path) -> None:
    record = tmp_path / "game.toml"
    run("apply", "pool-party-stars:default", "guess ben robot", "right", "--random", "--seed",
        "2", "--record", str(record))
    # a proposal that is not the best one, then what the others did
    run("apply", str(record), "propose Robot-Sport-Drink", "--random", "--seed", "3",
        "--record", str(record))
    data = json.loads(run("review", str(record), "--json").stdout)
    jsonschema.validate(data, schema("review"))
    decisions = data["decisions"]
    assert [d["actor"] for d in decisions] == ["Dani", "Dani"]  # the seat's own moves only
    first, second = decisions
    assert first["move"] == "guess Ben Robot" and first["lost"] == 0 and first["label"] is None
    assert second["best"] != second["move"] and second["lost"] > 0
    assert second["label"] == playalong_label("pool-party-stars", second["lost"])
    dani = data["players"]["Dani"]
    assert dani["decisions"] == 2 and dani["accuracy"] == 0.5
    assert dani["biggest"]["number"] == second["number"]
    text = run("review", str(record), "--players", "Ben").output
    assert "no decision of the chosen players" in text
    result = run("review", "pool-party-stars:default", expect=2)
    assert "game record" in result.output


def test_a_review_of_chances_speaks_in_percentage_points(tmp_path: Path) -> None:
    """Tea Party's values are chances to win: the text shows what a move gives up in
    percentage points (the JSON keeps the chance), and a loss measured on an estimated hint
    says 'about'."""
    record = tmp_path / "game.toml"
    run("apply", "tea-party:default", "squish king as rogue on Green take rogue", "cup",
        "--random", "--seed", "2", "--record", str(record))
    data = json.loads(run("review", str(record), "--json").stdout)
    cup = data["decisions"][1]
    assert cup["move"] == "cup" and cup["label"] == "blunder" and 0.5 < cup["lost"] < 1
    text = run("review", str(record)).output
    assert f"gives up {100 * cup['lost']:.3g} percentage points of the chance to win" in text
    assert "thresholds (percentage points of the chance to win given up): inaccuracy 2, " \
        "mistake 5, blunder 15" in text
    assert "about" not in text  # the endgame is solved exactly
    midgame = tmp_path / "midgame.toml"
    # pouring your own teacup back: some 14 to 19 points behind the best, whatever the load
    run("apply", "tea-party:midgame", "squish wizard on Orange", "--random", "--seed", "1",
        "--record", str(midgame))
    [decision] = json.loads(run("review", str(midgame), "--json", "--seed", "1",
                                "--time-limit", "1").stdout)["decisions"]
    assert decision["status"] == "estimate" and decision["lost"] > 0.02  # a 3-monster MCTS
    estimated = run("review", str(midgame), "--seed", "1", "--time-limit", "1").output
    assert "squish wizard on Orange?" in estimated and "gives up about " in estimated
    assert "'about': the hint's values there are estimates" in estimated


def test_random_with_nothing_to_draw_is_refused(tmp_path: Path) -> None:
    record = tmp_path / "game.toml"
    run("apply", "tea-party:default", "squish king as rogue on Green take rogue", "--record",
        str(record))
    before = record.read_text()
    result = run("apply", str(record), "--random", "--record", str(record), expect=2)
    assert result.output.strip().endswith("bad input: --random: expected a chance outcome to "
                                          "draw, but the next step is Blue's decision (give "
                                          "it as a move)")
    assert record.read_text() == before


@pytest.mark.parametrize(("start", "moves", "players"), [
    ("pool-party-stars:default", ("guess ben robot", "right"), "Dani, Lari, Ana, Ben"),
    ("tea-party:default", ("squish king as rogue on Green take rogue",), "Blue, Green")])
def test_review_refuses_a_player_not_in_the_record(start: str, moves: tuple[str, ...],
                                                   players: str, tmp_path: Path) -> None:
    record = tmp_path / "game.toml"
    run("apply", start, *moves, "--record", str(record))
    for chosen in ("Zed", f"{players.split(', ')[0].lower()},Zed"):
        result = CliRunner().invoke(cli, ["review", str(record), "--players", chosen])
        assert result.exit_code == 2 and result.stdout == ""
        assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
        assert "--players" in result.stderr and f"({players})" in result.stderr
        assert "'Zed'" in result.stderr


def playalong_label(game: str, lost: float) -> str | None:
    from partysolver.app.base import commands

    return commands(game, "hint").review.label(lost)


def test_apply_json_follows_its_schema() -> None:
    data = json.loads(run("apply", "pool-party-stars:default", "guess ben robot",
                          "--json").output)
    jsonschema.validate(data, schema("apply"))

"""The command line of Meeple Party: every verb, text and JSON, through click's CliRunner."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from partysolver import puzzles
from partysolver.cli.main import cli

EXAMPLES = puzzles.examples("meeple-party")
SCENARIOS = puzzles.files("meeple-party", "scenarios")


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


def test_games_lists_meeple_party_with_its_house_data() -> None:
    code, out = run("games", "--json")
    assert code == 0
    row = next(g for g in json.loads(out)["games"] if g["game"] == "meeple-party")
    assert set(row["verbs"]) == {"example", "hint", "solve", "verify", "simulate", "render"}
    assert "house data" in row["house_data"] and "default" in row["examples"]


def test_example_prints_a_file_that_hint_accepts(tmp_path: Path) -> None:
    code, out = run("example", "meeple-party")
    assert code == 0 and 'game = "meeple-party"' in out
    code, listing = run("example", "meeple-party", "--list")
    assert code == 0 and "default" in listing


def test_hint_json_follows_the_conventions() -> None:
    code, out = run("hint", str(EXAMPLES["last-photo"]), "--json", "--top", "3")
    assert code == 0
    data = json.loads(out)
    assert data["game"] == "meeple-party" and data["status"] == "optimal" and data["exact"]
    assert 1 <= len(data["moves"]) <= 3 and data["outcomes"] >= len(data["moves"])
    for move in data["moves"]:
        assert {"move", "value", "reason", "steps"} <= set(move)
        assert set(move["value"]) == {"win", "loss", "stress", "fouls", "photos", "table"}
    assert data["best"]["steps"] == data["moves"][0]["steps"]
    assert data["moves"][0]["value"]["win"] == 1.0
    code, text = run("hint", str(EXAMPLES["last-photo"]))
    assert code == 0 and "best turn:" in text and "wins the party" in text


def test_hint_before_the_draw_answers_each_draw() -> None:
    code, out = run("hint", str(EXAMPLES["before-the-draw"]), "--json")
    assert code == 0
    data = json.loads(out)
    assert data["moves"] == [] and data["draws"]
    assert abs(sum(d["probability"] for d in data["draws"]) - 1) < 1e-6


def test_solve_decides_the_shipped_scenarios() -> None:
    code, out = run("solve", str(SCENARIOS["01-last-photo"]), "--json")
    data = json.loads(out)
    assert code == 0 and data["verdict"] == "solvable" and data["status"] == "optimal"
    assert data["objective"]["won"] and data["solution"]["line"]
    code, out = run("solve", str(SCENARIOS["04-out-of-reach"]), "--json")
    data = json.loads(out)
    assert data["verdict"] == "unsolvable" and data["objective"]["photos"] == 0
    code, out = run("solve", str(EXAMPLES["default"]))
    assert code == 2 and "ordered" in out


def test_verify_gives_a_scenario_its_verdict_with_a_witness() -> None:
    code, out = run("verify", str(SCENARIOS["01-last-photo"]), "--json")
    data = json.loads(out)
    assert code == 0 and data["valid"] and data["verdict"] == "solvable" and data["witness"]
    solved = json.loads(run("solve", str(SCENARIOS["01-last-photo"]), "--json")[1])
    assert data["witness"] == solved["solution"]["line"]
    code, out = run("verify", str(SCENARIOS["04-out-of-reach"]), "--json")
    data = json.loads(out)
    assert data["verdict"] == "unsolvable" and data["witness"] is None
    assert "verdict" not in json.loads(run("verify", str(EXAMPLES["default"]), "--json")[1])


def test_verify_reports_problems_and_plays_games(tmp_path: Path) -> None:
    code, out = run("verify", str(EXAMPLES["default"]), "--json")
    data = json.loads(out)
    assert code == 0 and data["valid"] and data["problems"] == [] and data["easy_house"]
    bad = tmp_path / "bad.toml"
    bad.write_text(Path(str(EXAMPLES["default"])).read_text().replace(
        "[rooms.kitchen]\nflirt = 1", "[rooms.kitchen]\nflirt = 5"))
    code, out = run("verify", str(bad), "--json")
    data = json.loads(out)
    assert code == 1 and not data["valid"]
    assert data["problems"][0]["code"] == "supply" and "flirt" in data["problems"][0]["message"]
    code, out = run("verify", str(EXAMPLES["last-photo"]), "--games", "2", "--json")
    data = json.loads(out)
    assert data["simulation"]["games"] == 2 and data["verdict"] == "solvable"


def test_simulate_random_parties_with_a_plot(tmp_path: Path) -> None:
    plot = tmp_path / "out.png"
    code, out = run("simulate", "meeple-party", "--games", "4", "--policy", "random",
                    "--players", "2", "--difficulty", "easy", "--length", "casual",
                    "--house", "hard", "--plot", str(plot), "--json", "--seed", "3")
    assert code == 0, out
    data = json.loads(out[out.index("{"):])
    assert data["games"] == 4 and data["house"] == "hard" and 0 <= data["win"]["rate"] <= 1
    assert sum(data["categories"].values()) == 4
    assert plot.read_bytes()[:4] == b"\x89PNG"
    code, again = run("simulate", "meeple-party", "--games", "4", "--policy", "random",
                      "--players", "2", "--difficulty", "easy", "--house", "hard", "--json",
                      "--seed", "3")
    assert json.loads(again[again.index("{"):])["figures"] == data["figures"]


def test_simulate_the_hot_tub_challenge() -> None:
    code, out = run("simulate", "meeple-party", "--games", "2", "--policy", "random",
                    "--variant", "hot-tub", "--players", "1")
    assert code == 0 and "hot tub" in out
    assert "house spa" in out  # the default house of the challenge has the Hot Tub


def test_render_draws_the_house_and_the_hint(tmp_path: Path) -> None:
    svg = tmp_path / "p.svg"
    code, _ = run("render", str(EXAMPLES["last-photo"]), "-o", str(svg), "--hint")
    assert code == 0
    text = svg.read_text()
    assert text.startswith("<svg") and "Kitchen" in text and "marker-end" in text
    grid = tmp_path / "g.svg"
    code, _ = run("render", str(SCENARIOS["03-two-turns"]), "-o", str(grid))
    assert code == 0 and "Front Door" in grid.read_text()


POSITIONS = Path(puzzles.__file__).parent / "meeple-party" / "positions"


def test_hint_before_a_surprise_draw_within_a_tiny_budget_says_unknown() -> None:
    """A white meeple drawn: each surprise card is a draw of its own; past the budget some are
    not searched, and the hint says so instead of failing or averaging over what it has."""
    code, out = run("hint", str(POSITIONS / "14-hard-white-17.toml"), "--max-nodes", "100",
                    "--json")
    assert code == 0
    data = json.loads(out)
    assert data["status"] == "unknown" and data["value"] is None
    assert any(draw["value"] is None for draw in data["draws"])
    assert any(draw["value"] is not None for draw in data["draws"])
    code, text = run("hint", str(POSITIONS / "14-hard-white-17.toml"), "--max-nodes", "100")
    assert code == 0 and "not searched: the budget ran out" in text


def test_hint_reads_as_many_options_as_asked_within_the_budget() -> None:
    """--top beyond the five options valued by default: every option shown is valued inside
    the budget (no traceback), and exactly as many are listed as asked for when they exist."""
    path = str(EXAMPLES["default"])
    code, out = run("hint", path, "--top", "12", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["status"] == "optimal" and len(data["moves"]) == 12
    code, out = run("hint", path, "--top", "12", "--max-nodes", "50", "--json")
    assert code == 0 and json.loads(out)["status"] in ("optimal", "unknown")


def test_hint_before_a_draw_that_can_end_the_party() -> None:
    """A surprise card that loses the party at once is a draw like any other: its row says
    so (it used to stop the hint with an error)."""
    code, out = run("hint", str(POSITIONS / "05-hard-white-35.toml"), "--max-nodes", "200",
                    "--json")
    assert code == 0
    ends = [draw for draw in json.loads(out)["draws"]
            if draw["best"] == ["the party ends at once: lost"]]
    assert ends and all(draw["value"]["loss"] == 1.0 for draw in ends)

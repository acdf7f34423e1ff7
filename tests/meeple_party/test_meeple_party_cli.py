"""The command line of Meeple Party: every verb, text and JSON, through click's CliRunner."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from click.testing import CliRunner
from reports import data as report_data

from partysolver import puzzles
from partysolver.cli.main import cli
from partysolver.models.documents import format_document

EXAMPLES = puzzles.examples("meeple-party")
SCENARIOS = puzzles.files("meeple-party", "scenarios")


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


def test_games_lists_meeple_party_with_its_house_data() -> None:
    code, out = run("games", "--json")
    assert code == 0
    row = next(g for g in json.loads(out)["games"] if g["game"] == "meeple-party")
    assert set(row["verbs"]) == {"example", "hint", "solve", "verify", "simulate", "render", "apply",
                                 "play", "review"}
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
    assert data["game"] == "meeple-party" and data["status"] == "exact"
    assert data["to_move"] == "Ana" and "stress" in data["value_text"]
    assert 1 <= len(data["moves"]) <= 3 and data["search"]["outcomes"] >= len(data["moves"])
    for move in data["moves"]:
        assert {"move", "value", "reason", "steps", "figures"} <= set(move)
        assert set(move["figures"]) == {"win", "loss", "stress", "photos", "table", "fouls"}
        # the value is minus the stress the turn adds (higher is better, as value_text says)
        assert move["value"] == -move["figures"]["stress"]
        assert data["value_text"].startswith("minus the stress")
    assert data["best"]["steps"] == data["moves"][0]["steps"]
    assert data["moves"][0]["figures"]["win"] == 1.0
    code, text = run("hint", str(EXAMPLES["last-photo"]))
    assert code == 0 and "best turn:" in text and "wins the party" in text


def test_hint_before_the_draw_answers_each_draw() -> None:
    data = report_data("hint", EXAMPLES["before-the-draw"])
    assert [m["move"] for m in data["moves"]] == ["draw"] and data["draws"]
    assert abs(sum(d["probability"] for d in data["draws"]) - 1) < 1e-6


def test_solve_decides_the_shipped_scenarios() -> None:
    data = report_data("solve", SCENARIOS["01-last-photo"])
    assert data["status"] == "solvable" and data["verdict"].startswith("solvable")
    assert data["objective"]["value"] == data["objective"]["bound"]
    assert data["solution"]["line"]
    data = report_data("solve", SCENARIOS["04-one-jerk"])
    assert data["status"] == "unsolvable" and data["objective"]["value"] == 0
    code, out = run("solve", str(EXAMPLES["default"]))
    assert code == 2 and "ordered" in out


def test_a_scenario_line_names_the_photos_it_takes_and_each_push() -> None:
    """The solved line says which photos each turn takes (a photo dealt at the end of the turn
    included) and where each pushed or pulled meeple goes; the photos it names add up to the
    photos the scenario needs."""
    data = report_data("solve", SCENARIOS["02-both-photos"])
    line = data["solution"]["line"]
    assert any("push a Cool from Outside to Front Door" in step for step in line)
    taken = [step for step in line if "takes photo" in step]
    assert len(taken) == 1 and "'Velvet Rope' and 'Pillow Talk'" in taken[0]
    three = report_data("solve", SCENARIOS["03-two-turns"])["solution"]["line"]
    names = sum(step.split("takes photo")[1].count("'") // 2
                for step in three if "takes photo" in step)
    assert names == 3 == report_data("solve", SCENARIOS["03-two-turns"])["objective"]["value"]


def test_verify_gives_a_scenario_its_verdict_with_a_witness() -> None:
    code, out = run("verify", str(SCENARIOS["01-last-photo"]), "--json")
    data = json.loads(out)
    assert code == 0 and data["valid"] and data["solvable"] == "solvable" and data["witness"]
    solved = report_data("solve", SCENARIOS["01-last-photo"])
    assert data["witness"] == solved["solution"]["line"]
    data = report_data("verify", SCENARIOS["04-one-jerk"])
    assert data["solvable"] == "unsolvable" and data["witness"] is None
    assert "solvable" not in report_data("verify", EXAMPLES["default"])


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
    played = CliRunner().invoke(cli, ["verify", str(EXAMPLES["last-photo"]), "--games", "2",
                                      "--json"])
    assert played.exit_code == 0 and "Traceback" not in played.output, played.output
    data = json.loads(played.stdout)
    assert data["simulation"]["games"] == 2 and data["solvable"] == "solvable"
    assert data["witness"] == {"game": 1, "seed": 0}  # games are counted from 1
    # the games take a while: a line on stderr says what the reader waits for
    assert "playing 2 games from this position with the hint policy" in \
        played.stderr.splitlines()


def test_simulate_random_parties_with_a_plot(tmp_path: Path) -> None:
    plot = tmp_path / "out.png"
    code, out = run("simulate", "meeple-party", "--games", "4", "--policy", "random",
                    "--players", "2", "--difficulty", "easy", "--length", "casual",
                    "--house", "hard", "--plot", str(plot), "--json", "--seed", "3")
    assert code == 0, out
    data = json.loads(out[out.index("{"):])
    assert data["games"] == 4 and data["house"] == "hard" and 0 <= data["win"]["rate"] <= 1
    assert sum(data["categories"].values()) == 4
    for name, figure in data["figures"].items():  # cut to what each figure can be
        low, high = figure["interval"]
        assert 0 <= low <= figure["mean"] <= high <= (3 if "stress" in name else math.inf)
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
    data = report_data("hint", POSITIONS / "14-hard-white-17.toml", max_nodes=100)
    assert data["status"] == "unknown" and data["moves"][0]["value"] is None
    assert any(draw["value"] is None for draw in data["draws"])
    assert any(draw["value"] is not None for draw in data["draws"])
    code, text = run("hint", str(POSITIONS / "14-hard-white-17.toml"), "--max-nodes", "100")
    assert code == 0 and "not searched: the budget ran out" in text


def test_hint_reads_as_many_options_as_asked_within_the_budget() -> None:
    """--top beyond the five options valued by default: every option shown is valued inside
    the budget (no traceback), and exactly as many are listed as asked for when they exist."""
    path = str(EXAMPLES["default"])
    data = report_data("hint", path, top=12)
    assert data["status"] == "exact" and len(data["moves"]) == 12
    code, out = run("hint", path, "--top", "12", "--max-nodes", "50", "--json")
    assert code == 0 and json.loads(out)["status"] in ("exact", "unknown")


def test_hint_before_a_draw_that_can_end_the_party() -> None:
    """A surprise card that loses the party at once is a draw like any other: its row says
    so (it used to stop the hint with an error)."""
    code, out = run("hint", str(POSITIONS / "05-hard-white-35.toml"), "--max-nodes", "200",
                    "--json")
    assert code == 0
    ends = [draw for draw in json.loads(out)["draws"]
            if draw["best"] == ["the party ends at once: lost"]]
    assert ends and all(draw["value"]["loss"] == 1.0 for draw in ends)


def test_review_values_a_turn_the_hint_did_not_list(tmp_path: Path) -> None:
    """The hint lists the 5 best turns; a review of a turn further down values that turn
    alone, exactly (not a lower bound of 0): the worst turn of the position gives up what the
    full ranking says, and is a blunder."""
    everything = report_data("hint", str(EXAMPLES["last-photo"]), top=10_000)
    best, worst = everything["moves"][0], everything["moves"][-1]
    assert best["value"] - worst["value"] >= 0.5
    record = tmp_path / "game.toml"
    code, out = run("apply", str(EXAMPLES["last-photo"]), worst["move"], "--record",
                    str(record))
    assert code == 0, out
    code, out = run("review", str(record), "--json")
    assert code == 0, out
    [decision] = json.loads(out[out.index("{"):])["decisions"]
    assert decision["at_least"] is False and decision["label"] == "blunder"
    assert decision["value"] == worst["value"]
    assert decision["lost"] == round(best["value"] - worst["value"], 6)


def test_review_calls_a_turn_that_gives_up_the_win_a_blunder(tmp_path: Path) -> None:
    """Turns are ranked by the chance to win before the stress: a turn that adds no more
    stress than the best but misses the winning photo is a blunder, not 'best'."""
    everything = report_data("hint", str(EXAMPLES["last-photo"]), top=10_000)["moves"]
    best = everything[0]
    assert best["figures"]["win"] == 1.0
    missing = next(m for m in everything if m["figures"]["win"] == 0.0
                   and m["value"] >= best["value"])
    record = tmp_path / "game.toml"
    assert run("apply", str(EXAMPLES["last-photo"]), missing["move"], "--record",
               str(record))[0] == 0
    code, out = run("review", str(record), "--json")
    [decision] = json.loads(out[out.index("{"):])["decisions"]
    assert decision["lost"] == 0 and decision["label"] == "blunder"
    assert decision["missed"] == "100 percentage points of the chance to win"
    code, text = run("review", str(record))
    assert "(blunder: gives up 100 percentage points of the chance to win (and 0 stress)" in text
    assert "accuracy 0%" in text


def test_review_values_a_clock_decision_the_hint_did_not_list(tmp_path: Path) -> None:
    """Random games reach the clock's decisions between turns (a welcome, a laid-down
    meeple...), where the hint ranks the choices by what they leave the next player and lists
    the 5 best: a review of such a record judges every decision, and one played further down is
    valued alone, as the full ranking values it (issue 27: it crashed on the turn search)."""
    from partysolver.app import playalong
    from partysolver.app.base import parse
    from partysolver.models.meeple_party.state import CLOCK
    from partysolver.solvers.meeple_party.turn import searchable

    records = tmp_path / "records"
    code, out = run("simulate", "meeple-party", "--games", "2", "--seed", "1", "--policy",
                    "random", "--records", str(records))
    assert code == 0, out
    clock = None
    for path in sorted(records.glob("*.record.toml")):
        code, out = run("review", str(path), "--json")
        assert code == 0 and "Traceback" not in out, out
        decisions = json.loads(out[out.index("{"):])["decisions"]
        assert decisions and all(d["at_least"] is False for d in decisions)
        record, position, _ = playalong.to_review(parse(path.read_text(), str(path)), None)
        for step in record.steps:
            state = position.state
            if clock is None and not position.awaits_chance() and not position.is_over() \
                    and not searchable(state) and state.stage == CLOCK:
                clock = tmp_path / "clock.toml"
                clock.write_text(format_document(position.to_document()))
            position = position.apply(position.parse(step.move))
    assert clock is not None, "no decision of the clock in the simulated games"
    everything = report_data("hint", str(clock), top=10_000)
    best, worst = everything["moves"][0], everything["moves"][-1]
    assert len(everything["moves"]) > 5 and best["value"] > worst["value"]
    record = tmp_path / "clock.record.toml"
    code, out = run("apply", str(clock), worst["move"], "--record", str(record))
    assert code == 0, out
    code, out = run("review", str(record), "--json")
    assert code == 0, out
    [decision] = json.loads(out[out.index("{"):])["decisions"]
    assert decision["at_least"] is False and decision["value"] == worst["value"]
    assert decision["lost"] == round(best["value"] - worst["value"], 6)


def test_render_draws_the_house_before_the_hint_and_keeps_time_for_the_rest(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The picture comes out of the hint's limit: the house's layout (a graph layout, its
    library imported) is found first, and the hint gets the time still left less
    DRAWING_SECONDS for drawing and writing the picture."""
    from partysolver.app import meeple_party
    from partysolver.models.meeple_party import render
    from partysolver.solvers.meeple_party import turn

    done: list[str] = []
    budgets: list[float | None] = []
    real_boxes, real_hint = render.room_boxes, turn.turn_hint

    def boxes(state: object) -> object:
        done.append("boxes")
        return real_boxes(state)  # type: ignore[arg-type]

    def hint(state: object, budget: object, **kwargs: object) -> object:
        done.append("hint")
        budgets.append(budget.time)  # type: ignore[attr-defined]
        return real_hint(state, budget, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(render, "room_boxes", boxes)
    monkeypatch.setattr(turn, "turn_hint", hint)
    code, out = run("render", "meeple-party:default", "--hint", "--time-limit", "30",
                    "-o", str(tmp_path / "p.svg"))
    assert code == 0, out
    assert done == ["boxes", "hint"]
    left = budgets[0]
    assert left is not None and 10 < left < 30 - meeple_party.DRAWING_SECONDS
    assert "hint: " in (tmp_path / "p.svg").read_text()

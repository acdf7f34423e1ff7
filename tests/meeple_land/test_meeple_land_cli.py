"""The command line end to end: every verb on the shipped examples and puzzles."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from reports import data as report_data

from partysolver.cli.main import cli
from partysolver.models.documents import parse_document
from partysolver.models.meeple_land.puzzle import load_puzzle
from partysolver.puzzles import examples, files

EXAMPLES = {name: str(item) for name, item in examples("meeple-land").items()}
PUZZLES = {name: str(item) for name, item in files("meeple-land", "puzzles").items()}


def run(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args))


def as_json(*args: str) -> dict[str, Any]:
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    assert data["game"] == "meeple-land"
    return data


def test_games_lists_meeple_land_with_its_house_data() -> None:
    data = json.loads(run("games", "--json").output)
    row = next(r for r in data["games"] if r["game"] == "meeple-land")
    assert {"hint", "solve", "verify", "simulate", "render", "example"} <= set(row["verbs"])
    assert "house" in row["house_data"]


def test_example_prints_a_loadable_file() -> None:
    result = run("example", "meeple-land", "puzzle")
    assert result.exit_code == 0
    load_puzzle(parse_document(result.output, "p.toml"), "p.toml")


def test_hint_ranks_every_kind_of_action() -> None:
    data = report_data("hint", EXAMPLES["default"])
    moves = data["moves"]
    assert data["to_move"] == "Green" and data["status"] == "estimate" and moves
    assert all(set(m["figures"]) >= {"now", "variety", "money"} for m in moves)
    values = [m["value"] for m in moves]
    assert values == sorted(values, reverse=True)
    kinds = {m["move"].split()[0] for m in moves}
    assert {"buy", "pass", "extension", "entrance", "advert"} <= kinds
    bought = [m["move"].split()[1].split("@")[0] for m in moves if m["move"].startswith("buy")]
    assert len(bought) == len(set(bought))  # one (best) placement per market tile
    assert all(m["reason"] and m["text"] for m in moves)
    assert len(as_json("hint", EXAMPLES["default"], "--top", "3")["moves"]) == 3


def test_solve_a_puzzle_with_count_and_seed() -> None:
    data = as_json("solve", EXAMPLES["puzzle"], "--count", "--seed", "4")
    assert data["status"] == "optimal" and "proven optimal" in data["verdict"]
    assert data["objective"]["value"] == data["objective"]["bound"] == 8
    solution = data["solution"]
    assert solution["count"] == {"layouts": 111, "complete": True}
    assert solution["placements"][0]["tile"] == "S15"  # the pre-placed fountain
    assert solution["spent"] <= 12
    assert solution["breakdown"]["reputation"] == 8
    assert "E" in solution["picture"]
    again = as_json("solve", EXAMPLES["puzzle"], "--count", "--seed", "4")
    assert again["solution"] == solution


def test_solve_an_infeasible_puzzle_names_the_conflict() -> None:
    data = as_json("solve", PUZZLES["08-impossible-promise"])
    assert data["status"] == "infeasible" and data["solution"] is None
    assert {c["requirement"] for c in data["conflict"]} == {"budget", "required:L02"}
    text = run("solve", PUZZLES["08-impossible-promise"]).output
    assert "spend at most $6" in text and "place L02" in text


def test_a_conflict_the_time_limit_kept_from_being_minimal_says_so(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from partysolver.solvers.meeple_land import layout

    real = layout.explain
    assert as_json("solve", PUZZLES["08-impossible-promise"])["conflict_minimal"] is True
    monkeypatch.setattr(layout, "explain", lambda puzzle, limit: (real(puzzle)[0], False))
    data = as_json("solve", PUZZLES["08-impossible-promise"])
    assert data["conflict_minimal"] is False and "perhaps not all" in data["verdict"]
    verdict = as_json("verify", PUZZLES["08-impossible-promise"])
    assert verdict["conflict_minimal"] is False and "perhaps not all" in verdict["verdict"]
    hint = as_json("hint", PUZZLES["08-impossible-promise"])
    assert "perhaps not all" in hint["note"]


def test_solve_a_park_seats_the_visitors() -> None:
    data = report_data("solve", EXAMPLES["welcome"])
    assert data["status"] == "optimal"
    assert data["solution"]["seated"] == {"green": 3, "pink": 2}
    assert data["solution"]["waiting"] == {"yellow": 1}
    assert data["objective"]["value"] == data["objective"]["bound"] == 3 + 4 - 2
    assert data["solution"]["revenue"] == 6


def test_solve_refuses_a_game_position() -> None:
    result = run("solve", EXAMPLES["default"])
    assert result.exit_code == 2 and "hint" in result.output


def test_verify_a_puzzle_gives_a_verdict() -> None:
    data = report_data("verify", EXAMPLES["puzzle"])
    assert data["valid"] is True and data["solvable"] == "solvable" and data["witness"]
    impossible = run("verify", PUZZLES["08-impossible-promise"], "--json")
    verdict = json.loads(impossible.output)
    assert verdict["solvable"] == "unsolvable" and verdict["conflict"]
    assert "cannot all hold together" in verdict["verdict"]


def test_verify_a_game() -> None:
    data = as_json("verify", EXAMPLES["default"])
    assert data["valid"] is True and len(data["standings"]) == 3


@pytest.mark.parametrize("name", ["default", "park", "puzzle", "welcome"])
def test_render_writes_svg(tmp_path: Path, name: str) -> None:
    out = tmp_path / f"{name}.svg"
    result = run("render", EXAMPLES[name], "-o", str(out), "--build-order", "--hint")
    assert result.exit_code == 0, result.output
    svg = out.read_text(encoding="utf-8")
    assert svg.startswith("<svg") and "IN" in svg
    if name == "default":
        assert "hint:" in svg and "marker" in svg  # the suggested tile and its arrow


def test_simulate_plays_games() -> None:
    data = as_json("simulate", "meeple-land", "--games", "2", "--policy", "random",
                   "--seed", "1")
    assert data["games"] == 2 and len(data["seats"]) == 2
    assert "reputation_1" in data["figures"]


def test_options_of_other_verbs_are_refused() -> None:
    result = run("verify", EXAMPLES["park"], "--count")
    assert result.exit_code == 2


def test_verify_reads_a_catalogue_and_says_what_it_holds(tmp_path: Path) -> None:
    data = as_json("verify", EXAMPLES["my-catalogue"])
    assert data["valid"] and data["kind"] == "catalogue"
    assert data["tiles"] == {"small": 2, "medium": 1, "large": 1} and data["buses"] == 2
    bad = tmp_path / "bad.toml"
    bad.write_text(Path(EXAMPLES["my-catalogue"]).read_text().replace("[[tile]]", "[[tiles]]", 1))
    result = run("verify", str(bad))
    assert result.exit_code == 2 and "bad.toml" in result.output


def test_hint_on_a_puzzle_gives_the_next_placement_only() -> None:
    data = report_data("hint", EXAMPLES["puzzle"], seed=1)
    assert data["puzzle"] is True and len(data["moves"]) == 1 and data["status"] == "exact"
    step = data["moves"][0]
    solved = report_data("solve", EXAMPLES["puzzle"], seed=1)
    placed = {f"place {p['tile']} at {p['at'][0]},{p['at'][1]}"
              + (f" turned {p['rotation']}" if p["rotation"] else "")
              for p in solved["solution"]["placements"]}
    assert step["move"] in placed and step["value"] == solved["objective"]["value"]
    assert step["figures"]["tiles_to_place"] == len(placed) - solved["solution"]["pre_placed"]
    assert "column" in step["text"] and "row" in step["text"]
    impossible = report_data("hint", PUZZLES["08-impossible-promise"])
    assert impossible["moves"] == [] and "cannot all hold together" in impossible["note"]


def test_solve_takes_any_seed() -> None:
    """CP-SAT's seed is an int32; a larger seed (issue 14) is mapped into it, reproducibly."""
    first = as_json("solve", PUZZLES["05-blocked-gate"], "--seed", "2147483648")
    assert first["status"] == "optimal" and first["objective"]["value"] == 5
    again = as_json("solve", PUZZLES["05-blocked-gate"], "--seed", "2147483648")
    assert again["solution"] == first["solution"]


def test_solve_shows_a_layout_however_short_the_time() -> None:
    """Cut at 0.05 s, `solve` still shows the best layout found with its proven bound (on an
    idle machine CP-SAT sometimes proves this puzzle within that time: then it is optimal)."""
    data = as_json("solve", PUZZLES["14-grand-opening"], "--time-limit", "0.05")
    assert data["status"] in ("feasible", "optimal") and data["solution"] is not None
    objective = data["objective"]
    assert objective["value"] == data["solution"]["breakdown"]["reputation"]
    if data["status"] == "feasible":
        assert objective["bound"] > objective["value"]
    else:
        assert objective["bound"] == objective["value"]


def test_simulate_lists_the_hint_policy_it_played() -> None:
    from reports import simulation

    data = simulation("meeple-land", 1, "hint", "random", players=2, seed=1)
    assert set(data["by_policy"]) == {"hint", "random"}


def test_games_lists_the_tiles_by_code(tmp_path: Path) -> None:
    """`games meeple-land --tiles` looks up tile codes such as S30: the house catalogue, or a
    catalogue file in the same format; another game or a bad file is one line, exit 2."""
    from partysolver.models.meeple_land.catalogue import house_text

    def cli_run(*args: str) -> tuple[int, str]:
        result = run(*args)
        return result.exit_code, result.output

    code, out = cli_run("games", "meeple-land", "--tiles", "--json")
    data = json.loads(out)
    assert code == 0 and data["house"] is True and len(data["tiles"]) == 101
    s30 = next(t for t in data["tiles"] if t["id"] == "S30")
    assert s30["size"] == "small" and s30["cost"] >= 1
    code, text = cli_run("games", "meeple-land", "--tiles")
    assert code == 0 and "house data, not the publisher's" in text and "\nS30 " in text
    own = tmp_path / "mine.toml"
    own.write_text(house_text().replace("house = true", "house = false"), encoding="utf-8")
    code, text = cli_run("games", "meeple-land", "--tiles", "--catalogue", str(own))
    assert code == 0 and f"from {own}" in text
    own.write_text('game = "meeple-land"\nkind = "catalogue"\n', encoding="utf-8")
    code, text = cli_run("games", "meeple-land", "--tiles", "--catalogue", str(own))
    assert code == 2 and str(own) in text and "name" in text and "Traceback" not in text
    code, text = cli_run("games", "tea-party", "--tiles")
    assert code == 2 and "no tile codes" in text


def test_solve_count_exits_1_when_the_recorded_layouts_differ(tmp_path: Path) -> None:
    """The recorded answer's `layouts` is compared too, once `--count` has counted them: a
    wrong count is a difference in the text and the JSON, and exit code 1 (as a wrong
    optimum is); without `--count` the count is unknown and nothing is claimed about it."""
    text = Path(EXAMPLES["puzzle"]).read_text(encoding="utf-8")
    assert "layouts = 111" in text
    wrong = tmp_path / "cafe_wrong2.toml"
    wrong.write_text(text.replace("layouts = 111", "layouts = 5"), encoding="utf-8")
    result = run("solve", str(wrong), "--count", "--json")
    assert result.exit_code == 1, result.output
    data = json.loads(result.stdout)
    assert data["solution"]["count"] == {"layouts": 111, "complete": True}
    assert data["recorded"] == {"status": "optimal", "objective": 8, "layouts": 5,
                                "matches": False, "differs": ["layouts"]}
    result = run("solve", str(wrong), "--count")
    assert result.exit_code == 1, result.output
    assert "recorded optimum: 8 (matches)" in result.output
    assert "recorded optimal layouts: 5 (DIFFERS: 111 counted)" in result.output
    # without --count the layouts are not counted: only the optimum is compared
    uncounted = run("solve", str(wrong), "--json")
    assert uncounted.exit_code == 0, uncounted.output
    recorded = json.loads(uncounted.stdout)["recorded"]
    assert recorded["matches"] is True and recorded["differs"] == []
    # the true count matches
    right = run("solve", EXAMPLES["puzzle"], "--count")
    assert right.exit_code == 0, right.output
    assert "recorded optimal layouts: 111 (matches)" in right.output
    # a wrong optimum and a wrong count: both named
    both = tmp_path / "both.toml"
    both.write_text(text.replace("objective = 8, layouts = 111", "objective = 9, layouts = 5"),
                    encoding="utf-8")
    data = json.loads(run("solve", str(both), "--count", "--json").stdout)
    assert data["recorded"]["matches"] is False
    assert data["recorded"]["differs"] == ["objective", "layouts"]


def test_solve_exits_1_when_the_recorded_status_differs(tmp_path: Path) -> None:
    """A puzzle recorded infeasible that has a layout, or recorded optimal that has none, is a
    difference (status) and exit code 1; an infeasible puzzle recorded so matches."""
    impossible = PUZZLES["08-impossible-promise"]
    right = run("solve", impossible)
    assert right.exit_code == 0 and "recorded answer: infeasible (matches)" in right.output
    text = Path(impossible).read_text(encoding="utf-8")
    claimed = tmp_path / "claimed.toml"
    claimed.write_text(text.replace('status = "infeasible"',
                                    'status = "optimal"\nobjective = 3'), encoding="utf-8")
    result = run("solve", str(claimed), "--json")
    assert result.exit_code == 1, result.output
    data = json.loads(result.stdout)
    assert data["status"] == "infeasible"
    assert data["recorded"] == {"status": "optimal", "objective": 3, "layouts": None,
                                "matches": False, "differs": ["status"]}
    assert "recorded answer: optimal (DIFFERS: no layout meets every requirement)" in \
        run("solve", str(claimed)).output
    cafe = Path(EXAMPLES["puzzle"]).read_text(encoding="utf-8")
    denied = tmp_path / "denied.toml"
    denied.write_text(cafe.replace('answer = { status = "optimal", objective = 8, layouts = 111 }',
                                   'answer = { status = "infeasible" }'), encoding="utf-8")
    result = run("solve", str(denied))
    assert result.exit_code == 1, result.output
    assert "recorded answer: infeasible (DIFFERS: a layout meets every requirement)" in \
        result.output


def test_render_hint_on_a_puzzle_shows_the_next_placement_only(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`render --hint` on a puzzle draws what `hint` gives, the next placement (the legend's
    hint marker, with its caption), on the puzzle as given: not the whole optimal layout."""
    from partysolver.models.meeple_land import render as render_module

    drawn: list[Any] = []
    original = render_module.render_parks

    def capture(pictures: Any, *args: Any, **kwargs: Any) -> str:
        drawn.extend(pictures)
        return original(pictures, *args, **kwargs)

    monkeypatch.setattr(render_module, "render_parks", capture)
    out = tmp_path / "cafe.svg"
    result = run("render", EXAMPLES["puzzle"], "-o", str(out), "--hint", "--seed", "1")
    assert result.exit_code == 0, result.output
    hint = report_data("hint", EXAMPLES["puzzle"], seed=1)
    step = hint["moves"][0]
    (picture,) = drawn
    puzzle = load_puzzle(parse_document(Path(EXAMPLES["puzzle"]).read_text(), "p.toml"),
                         "p.toml")
    # the park as given: the pre-placed fountain only, and the hinted tile as the suggestion
    assert [p.placement for p in picture.layout.pieces] == puzzle.pre_placed()
    assert picture.suggestion is not None
    p = picture.suggestion.placement
    assert f"place {p.tile} at {p.at[0]},{p.at[1]}" + (
        f" turned {p.rotation}" if p.rotation else "") == step["move"]
    assert picture.caption.startswith(f"hint: {step['text']}")
    svg = out.read_text(encoding="utf-8")
    assert 'id="suggestion"' in svg and f'id="market-{p.tile}"' in svg  # marker and arrow
    assert "optimal: final reputation" not in svg


def test_hint_when_chance_acts_first_ranks_nothing_and_says_why(tmp_path: Path) -> None:
    """After a purchase the pile refills first: nothing is for the player to decide, which is
    not a budget running out ('unknown'): status exact, no moves, a note."""
    best = report_data("hint", EXAMPLES["default"], top=1)["moves"][0]["move"]
    after = tmp_path / "after.toml"
    assert run("apply", EXAMPLES["default"], best, "-o", str(after)).exit_code == 0
    data = report_data("hint", str(after))
    assert data["status"] == "exact" and data["moves"] == []
    assert data["note"].startswith("chance must act first") and data["pending"]


def test_render_keeps_time_of_its_limit_for_the_picture(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """render --hint of a puzzle: the layout search gets the time left less DRAWING_SECONDS
    (the picture is drawn after it, within the same limit); hint gets the whole time left."""
    from partysolver.app import meeple_land
    from partysolver.app.base import Options

    kept: list[float] = []
    real = Options.time_left

    def spy(self: Options, keep: float = 0.0) -> float | None:
        kept.append(keep)
        return real(self, keep)

    monkeypatch.setattr(Options, "time_left", spy)
    out = tmp_path / "p.svg"
    assert run("render", EXAMPLES["puzzle"], "--hint", "--time-limit", "30", "-o",
               str(out)).exit_code == 0
    assert kept == [meeple_land.DRAWING_SECONDS]
    kept.clear()
    assert run("hint", EXAMPLES["puzzle"], "--time-limit", "30").exit_code == 0
    assert kept == [0.0]

"""Tea Party's reports (through the application layer) and the command line's wiring: every
verb, and every kind of bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from reports import data as report_data
from reports import simulation

from partysolver.cli.main import cli
from partysolver.models.documents import parse_document
from partysolver.models.tea_party import load_state
from partysolver.puzzles import examples

DEFAULT = examples("tea-party")["default"]


def run(*args: str, expect: int = 0):
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == expect, result.output
    assert "Traceback" not in result.output
    return result


@pytest.fixture
def default(tmp_path: Path) -> Path:
    path = tmp_path / "default.toml"
    path.write_text(DEFAULT.read_text())
    return path


def write(tmp_path: Path, text: str, name: str = "position.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_every_shipped_example_loads_and_verifies(tmp_path: Path) -> None:
    for name, item in examples("tea-party").items():
        text = run("example", "tea-party", name).stdout
        assert text == item.read_text()
        load_state(parse_document(text, f"{name}.toml"), name)
        path = write(tmp_path, text, f"{name}.toml")
        assert json.loads(run("verify", str(path), "--json").stdout)["valid"] is True


def test_hint_ranks_every_option_exactly(default: Path) -> None:
    data = report_data("hint", default)
    assert data["game"] == "tea-party" and data["status"] == "exact"
    assert data["to_move"] == "Blue" and "chance to win" in data["value_text"]
    moves = data["moves"]
    assert len(moves) == 8
    assert moves[0]["move"] == "squish king as rogue on Green take rogue"
    assert all({"move", "value", "reason", "figures"} <= set(m) for m in moves)
    assert all("interval" not in m for m in moves)  # exact values have no interval
    assert [m["value"] for m in moves] == sorted((m["value"] for m in moves), reverse=True)
    text = run("hint", str(default), "--top", "2").stdout
    assert "steal a Rogue from Green's teacup" in text and "pour your teacup" not in text


def test_hint_with_mcts_is_reproducible_with_a_seed(tmp_path: Path) -> None:
    path = write(tmp_path, examples("tea-party")["midgame"].read_text())
    args = ("hint", str(path), "--json", "--seed", "3", "--mcts-iterations", "100",
            "--exact-nodes", "200")
    first, second = run(*args).stdout, run(*args).stdout
    assert first == second  # byte for byte: a seeded run leaves wall-clock times out
    text = run(*args[:2], *args[3:]).stdout
    assert text == run(*args[:2], *args[3:]).stdout and " s)" not in text
    data = json.loads(first)
    assert "seconds" not in data["search"]
    assert data["status"] == "estimate" and "interval_text" not in data
    assert all("interval" not in m and m["figures"]["visits"] > 0 and 0 <= m["value"] <= 1
               for m in data["moves"])
    assert "no interval" in text and "visits)" in text


def test_hint_before_the_draw_answers_each_draw(tmp_path: Path) -> None:
    path = write(tmp_path, """game = "tea-party"
players = ["Blue", "Green"]
current = "Green"
[bag]
fighter = 1
ranger = 1
[stomachs.Blue]
rogue = 1
""")
    data = report_data("hint", path)
    assert [m["move"] for m in data["moves"]] == ["draw"]
    assert {d["hero"] for d in data["draws"]} == {"fighter", "ranger"}
    assert sum(d["probability"] for d in data["draws"]) == pytest.approx(1)


def test_solve_reports_the_exact_value_and_line(default: Path) -> None:
    data = report_data("solve", default)
    assert data["status"] == "optimal" and data["verdict"].startswith("Blue wins")
    objective = data["objective"]
    assert objective["name"] == "win_probability" and objective["value"] == objective["bound"]
    win = data["solution"]["win"]
    assert set(win) == {"Blue", "Green"} and sum(win.values()) == pytest.approx(1)
    assert objective["value"] == win["Blue"]
    assert data["solution"]["line"][0].startswith("Blue: squish the King as a Rogue")


def test_solve_out_of_budget_says_unknown(default: Path) -> None:
    data = report_data("solve", default, max_nodes=50)
    assert data["status"] == "unknown" and data["solution"] is None
    assert data["objective"]["value"] is None and data["objective"]["bound"] is None


def test_solve_out_of_budget_gives_the_interval_its_finished_part_proves(tmp_path: Path
                                                                        ) -> None:
    """The compiled search, cut short, still proves an interval (its stack's finished values):
    in the verdict, rounded outwards, and in the JSON, and it holds the exact value."""
    from partysolver.solvers.tea_party import exact

    exact.load_compiled()  # eleven heroes loose: the compiled search, at once
    path = write(tmp_path, """game = "tea-party"
players = ["Blue", "Green"]
current = "Green"
[bag]
fighter = 7
cleric = 1
rogue = 1
ranger = 1
wizard = 1
[stomachs.Blue]
fighter = 3
cleric = 1
[stomachs.Green]
rogue = 1
""")
    solved = report_data("solve", path)
    value = solved["objective"]["value"]
    nodes = solved["search"]["nodes"]
    assert solved["status"] == "optimal" and solved["search"]["compiled"] is True
    cut = report_data("solve", path, max_nodes=int(nodes * 0.99))
    assert cut["status"] == "unknown" and cut["objective"]["value"] is None
    bounds = cut["bounds"]
    assert bounds["proven"] is True and bounds["low"] <= value <= bounds["high"] < 1
    assert cut["objective"]["bound"] == bounds["high"]
    assert "proves Green's chance to win within [" in cut["verdict"]
    text = run("solve", str(path), "--max-nodes", str(int(nodes * 0.99))).stdout
    assert "what it finished proves Green's chance to win within" in text
    shown = text.split("within [")[1].split("]")[0].replace("%", "").split(", ")
    assert float(shown[0]) <= 100 * bounds["low"] and float(shown[1]) >= 100 * bounds["high"]


def test_verify_lists_every_problem_at_once(tmp_path: Path) -> None:
    path = write(tmp_path, """game = "tea-party"
players = ["Blue", "Green"]
[bag]
ranger = 3
king = 1
[cups.Blue]
ranger = 2
[stomachs.Green]
king = 1
[out]
fighter = 15
""")
    result = run("verify", str(path), "--json", expect=1)
    data = json.loads(result.stdout)
    assert data["valid"] is False
    fields = {p.get("field") for p in data["problems"]}
    assert {"ranger", "king"} <= fields
    assert len(data["problems"]) >= 4  # rangers, king, and the missing clerics, rogues...
    assert all({"code", "message"} <= set(p) for p in data["problems"])


def test_verify_finds_impossible_throw_ups(tmp_path: Path) -> None:
    # Blue threw up after drinking a Ranger, so Blue's teacup was just emptied.
    path = write(tmp_path, """game = "tea-party"
players = ["Blue", "Green"]
throw_up = "Blue"
[stomachs.Blue]
ranger = 1
[cups.Blue]
wizard = 2
""")
    data = json.loads(run("verify", str(path), "--json", expect=1).stdout)
    assert any(p["field"] == "cups.Blue" and "not empty" in p["message"]
               for p in data["problems"])
    path = write(tmp_path, 'game = "tea-party"\ndrinking = "end"\n')
    data = json.loads(run("verify", str(path), "--json", expect=1).stdout)
    assert [p["field"] for p in data["problems"]] == ["drinking"]


def test_simulate_reports_rates_with_intervals() -> None:
    data = simulation("tea-party", 12, "greedy", "random", seed=2)
    assert data["game"] == "tea-party" and data["games"] == 12
    assert [s["policy"] for s in data["seats"]] == ["greedy", "random"]
    assert sum(s["win"]["rate"] for s in data["seats"]) == pytest.approx(1)
    for seat in data["seats"]:
        assert seat["win"]["interval"][0] <= seat["win"]["rate"] <= seat["win"]["interval"][1]
    again = run("simulate", "tea-party", "--games", "12", "--policy", "greedy",
                "--policy", "random", "--seed", "2", "--json", "--workers", "2")
    assert json.loads(again.stdout)["seats"] == data["seats"]
    # two games: Student's t would reach below 0 points; the intervals stop there
    few = json.loads(run("simulate", "tea-party", "--games", "2", "--policy", "greedy",
                         "--json").stdout)
    for figure in [*few["figures"].values(), *(s["figures"]["score"] for s in few["seats"])]:
        assert figure["interval"][0] == 0 <= figure["mean"] <= figure["interval"][1]


def test_render_writes_an_svg_with_the_hint(default: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.svg"
    run("render", str(default), "-o", str(out), "--hint")
    svg = out.read_text()
    assert svg.startswith("<svg") and "marker-end" in svg and "steal a Rogue" in svg
    opening = write(tmp_path, examples("tea-party")["opening"].read_text(), "opening.toml")
    run("render", str(opening), "-o", str(out), "--hint")
    svg = out.read_text()
    assert "nothing to decide before the draw" in svg and "marker-end" not in svg


BAD = [
    ("not toml [", "valid TOML"),
    ('game = "tea-party"\nplayers = ["Blue"]\n', "players: expected 2 to 4 player names"),
    ('game = "tea-party"\ncolour = 1\n', "colour: expected a known field"),
    ('game = "tea-party"\n[bag]\nfighter = "many"\n', "bag.fighter: expected an integer"),
    ('game = "tea-party"\n[bag]\nfighter = 16\n', "bag.fighter: expected an integer from 0 to 15"),
    ('game = "tea-party"\n[bag]\ndragon = 1\n', "bag.dragon: expected a hero"),
    ('game = "tea-party"\n[cups.Red]\nfighter = 1\n', "cups.Red: expected a player name"),
    ('game = "tea-party"\ndrawn = "ranger"\n[bag]\nranger = 4\n', "a legal position"),
    ('game = "chess"\n', "game: expected one of"),
    ('game = "tea-party"\n[bag]\nranger = 1\nrangers = 2\n', "bag.rangers: expected each hero once"),
    ('game = "tea-party"\n[bags]\nfighter = 1\n', "did you mean 'bag'"),
    ('game = "tea-party"\nplayers = ["Blue", ""]\n', "players[2]: expected a non-empty name"),
    ('players = []\n', "game: expected the name of a game"),
]


@pytest.mark.parametrize(("text", "message"), BAD)
@pytest.mark.parametrize("verb", ["hint", "solve", "render"])
def test_bad_input_exits_2_naming_the_problem(tmp_path: Path, text: str, message: str,
                                              verb: str) -> None:
    path = write(tmp_path, text)
    out = tmp_path / "keep.svg"
    out.write_text("<svg>an older picture</svg>")  # render may replace a picture, not on error
    args = [verb, str(path)] + (["-o", str(out)] if verb == "render" else [])
    result = run(*args, expect=2)
    assert message in result.output and str(path) in result.output
    assert out.read_text() == "<svg>an older picture</svg>"


def test_bad_input_in_json_names_the_line(tmp_path: Path) -> None:
    path = write(tmp_path, '{"game": "tea-party",', "position.json")
    result = run("verify", str(path), expect=2)
    assert "position.json: line 1" in result.output and "valid JSON" in result.output


def test_a_missing_file_exits_2() -> None:
    result = run("hint", "no-such-file.toml", expect=2)
    assert "no-such-file.toml: expected an existing file" in result.output
    # verify and solve also take a folder: they say so
    for verb in ("verify", "solve"):
        result = run(verb, "no-such-folder/", expect=2)
        assert "no-such-folder/: expected an existing file or folder" in result.output
        assert "Traceback" not in result.output
    assert run("verify", "tea-party:midgame").exit_code == 0  # a shipped position still is


@pytest.mark.parametrize("args", [
    ("simulate", "tea-party", "--players", "5"),
    ("simulate", "tea-party", "--policy", "clever"),
    ("simulate", "chess"),
    ("example", "tea-party", "nope"),
])
def test_bad_options_exit_2(args) -> None:
    result = run(*args, expect=2)
    assert "Traceback" not in result.output


def test_games_lists_the_verbs_and_house_data() -> None:
    data = json.loads(run("games", "--json").stdout)
    tea = next(g for g in data["games"] if g["game"] == "tea-party")
    assert set(tea["verbs"]) == {"example", "hint", "solve", "verify", "simulate", "render", "apply",
                                 "play", "review"}
    assert tea["house_data"] is None
    assert "house data: none" in run("games").stdout


@pytest.mark.parametrize("name", sorted(examples("tea-party")))
def test_half_a_second_answers_every_shipped_example(tmp_path: Path, name: str) -> None:
    path = write(tmp_path, examples("tea-party")[name].read_text(), f"{name}.toml")
    data = json.loads(run("hint", str(path), "--json", "--time-limit", "0.5").stdout)
    assert data["status"] in ("exact", "estimate")
    for move in data["moves"]:
        assert move["value"] is not None and 0.0 <= move["value"] <= 1.0
    for draw in data.get("draws", []):
        assert draw["best"]["value"] is not None


def test_a_compile_starts_in_the_background_and_the_hint_answers(tmp_path: Path,
                                                                 monkeypatch) -> None:
    from partysolver.solvers import compiled
    from partysolver.solvers.tea_party import exact, native

    started: list[str] = []
    monkeypatch.setattr(exact, "needs_compile", lambda: True)
    monkeypatch.setattr(exact, "loaded", lambda: False)
    # A fresh process: no compiled playouts loaded by an earlier test in this worker.
    monkeypatch.setattr(native, "running", lambda: False)
    monkeypatch.setattr(compiled, "compile_in_background",
                        lambda kernel: started.append(kernel.key) or True)
    path = write(tmp_path, """game = "tea-party"
players = ["Blue", "Green"]
drawn = "fighter"
[bag]
fighter = 9
cleric = 6
rogue = 4
wizard = 3
ranger = 2
""")
    result = run("hint", str(path), "--json", "--time-limit", "2")  # past COMPILE_WORTH
    assert started == ["tea-party-search"]
    data = json.loads(result.stdout)
    assert data["status"] == "estimate" and data["search"]["compiled"] is False


def test_hint_with_bounds_gives_proven_intervals(default: Path, tmp_path: Path) -> None:
    """--bounds: every option carries a proven interval; an exact hint's intervals are its
    values and the best option is proved; under MCTS the intervals are wider but the same
    seed gives the same output; three monsters are refused in one line."""
    data = json.loads(run("hint", str(default), "--bounds", "--json").stdout)
    for move in data["moves"]:
        bounds = move["bounds"]
        assert bounds["proven"] is True
        assert bounds["low"] <= move["value"] <= bounds["high"]
        assert bounds["high"] - bounds["low"] <= 2e-6
    assert data["proved_best"] == "squish king as rogue on Green take rogue"
    assert "proved best: squish the King as a Rogue" in run("hint", str(default),
                                                             "--bounds").stdout
    args = ("hint", str(default), "--bounds", "--json", "--seed", "1", "--exact-nodes", "1",
            "--mcts-iterations", "50")
    first = run(*args).stdout
    assert first == run(*args).stdout
    data = json.loads(first)
    assert data["status"] == "estimate"
    assert all(0 <= m["bounds"]["low"] <= m["bounds"]["high"] <= 1 for m in data["moves"])
    assert "seconds" not in data["bounds_search"]
    midgame = write(tmp_path, examples("tea-party")["midgame"].read_text())
    result = run("hint", str(midgame), "--bounds", expect=2)
    assert result.output.count("\n") == 1 and "--bounds" in result.output
    assert "two monsters" in result.output


def test_solve_takes_a_cap_on_its_table(default: Path) -> None:
    from partysolver.solvers.tea_party.exact import Tables

    capped = report_data("solve", default, max_table_gib=0.01)
    assert capped["status"] == "optimal"
    assert capped["objective"]["value"] == report_data("solve", default)["objective"]["value"]
    most = Tables(gib=0.01).compiled.most  # 32-byte rows: within 0.01 GiB, and near it
    assert 0.009 * (1 << 30) < most * 32 <= 0.01 * (1 << 30)
    assert Tables().compiled.most == 1 << 28  # 8 GiB by default
    for bad in ("0", "2000", "lots"):
        result = run("solve", str(default), "--max-table-gib", bad, expect=2)
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and "--max-table-gib" in lines[0], result.output


def test_proven_intervals_are_printed_rounded_outwards() -> None:
    """A tenth of a percent, down for the low and up for the high (never inward), and no
    tenth added by a product's last bits."""
    from partysolver.app.tea_party import _bounds_text

    assert _bounds_text(0.12345, 0.12351) == "[12.3%, 12.4%]"
    assert _bounds_text(0.447809, 0.447841) == "[44.7%, 44.8%]"
    assert _bounds_text(0.29, 0.57) == "[29.0%, 57.0%]"
    assert _bounds_text(0.5, 0.5) == "50.0%"

"""The command line on Party-Time positions: every verb, every kind of bad input, the loader
fuzzed, and position files round-tripping."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import given, settings
from hypothesis import strategies as st
from reports import data as report_data

from partysolver.cli.main import cli
from partysolver.models.documents import format_document, parse_document
from partysolver.models.errors import InputError
from partysolver.models.party_time import GAME, load_position, view_to_document
from partysolver.models.protocol import CHANCE, sample_chance
from partysolver.puzzles import examples

EXAMPLES = examples("party-time")
HEAD = 'game = "party-time"\nplayers = ["Ann", "Ben"]\n'


def run(*args: str, expect: int = 0, env: dict[str, str] | None = None) -> Result:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False, env=env)
    assert result.exit_code == expect, result.output
    assert "Traceback" not in result.output
    return result


def write(tmp_path: Path, text: str, name: str = "position.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_every_shipped_example_loads_verifies_and_hints() -> None:
    assert {"default", "near-the-star", "question-mark", "own-rules"} <= set(EXAMPLES)
    for item in EXAMPLES.values():
        assert run("verify", str(item)).stdout.startswith("valid")
        data = report_data("hint", item)
        assert data["game"] == "party-time" and data["status"] in ("exact", "estimate")
        assert (data["status"] == "estimate") == (data["search"]["deals"] > 0)
        for move in data["moves"]:
            assert {"this_turn", "before_next", "next_turn", "loss", "others"} <= \
                set(move["figures"])
            assert ("interval" in move) == ("intervals" in move["figures"]) == \
                (data["status"] == "estimate")
        assert data["moves"] and all({"move", "value", "reason", "figures"} <= set(m)
                                     for m in data["moves"])
        values = [m["value"] for m in data["moves"]]  # minus the expected strips lost
        assert values[0] >= max(values) - data["tolerance"]


def test_hint_on_the_rulebook_example() -> None:
    data = report_data("hint", EXAMPLES["default"])
    best = data["moves"][0]
    assert best["move"] == "play 2 return 2" and "the bottle stays" in best["reason"]
    assert all(m["figures"]["lose_chance"] == 1.0 for m in data["moves"][1:])
    assert all(m["figures"]["this_turn"] == 1.0 for m in data["moves"][1:])
    assert best["figures"]["this_turn"] == 0.0
    text = run("hint", str(EXAMPLES["default"]), "--top", "2").stdout
    assert "play 2 return 2" in text and "before:" in text and "this turn" in text
    # no play has its long run here (no near-equal plays to order): no game-end column
    assert "end: the strips you lose" not in text


@pytest.mark.parametrize("example, long_run", [("default", False), ("near-the-star", True)])
def test_the_hint_table_fits_80_columns(example: str, long_run: bool) -> None:
    """Every row on one line within 80 columns, its reason under it; the game-end column
    (plays with their long run) included."""
    fitted = run("hint", str(EXAMPLES[example]), env={"COLUMNS": "80"}).stdout
    lines = fitted.splitlines()
    header = next(line for line in lines if line.startswith("#  play"))
    assert header.split()[-1] == ("end" if long_run else "kept")
    rows = [line for line in lines if line[:3] in ("1  ", "2  ", "3  ")]
    assert len(rows) == 3 and all("[" in row and len(row) <= 80 for row in rows)
    assert all(len(line) <= 80 for line in lines)


def test_hint_orders_equal_plays_by_the_long_run_or_the_habits() -> None:
    """With playouts (the default) every play has its long run with an interval, shown in the
    ``game end`` column; the same seed gives the same figures; ``--playouts 0`` turns them off
    and a negative count is refused."""
    item = str(EXAMPLES["near-the-star"])
    data = json.loads(run("hint", item, "--json", "--seed", "4").stdout)
    assert data["search"]["playouts"] == 1000 and "long run: 95% interval" in data["interval_text"]
    for move in data["moves"]:
        long_run = move["figures"]["long_run"]
        low, high = long_run["interval"]
        assert 0 <= low <= long_run["mean"] <= high <= 4
    assert json.loads(run("hint", item, "--json", "--seed", "4").stdout) == data
    assert "end: the strips you lose by the end of the game" in run("hint", item).stdout
    plain = report_data("hint", item, playouts=0)
    assert plain["search"]["playouts"] == 0
    assert all(m["figures"]["long_run"] is None for m in plain["moves"])
    for bad in ("-1", "1"):
        refused = run("hint", item, "--playouts", bad, expect=2)
        assert "--playouts" in refused.output


SMALL_TWO = HEAD + """turn = "Ann"
bottle = 20
[hands]
Ann = ["1", "4", "5"]
[played]
"2" = 1
[rules.deck]
"1" = 3
"2" = 3
"4" = 2
"5" = 2
"""


def test_hint_depth_two_and_its_budget(tmp_path: Path) -> None:
    path = str(write(tmp_path, SMALL_TWO))
    deep = report_data("hint", path, depth=2)
    assert deep["search"]["depth"] == 2 and deep["status"] == "exact"
    assert deep["search"]["deals"] == 0
    starved = report_data("hint", EXAMPLES["default"], depth=2, hint_max_nodes=300)
    assert starved["status"] == "unknown" and starved["search"]["asked_depth"] == 2
    assert starved["search"]["depth"] < 2


def test_hint_needs_the_seat_to_act(tmp_path: Path) -> None:
    text = EXAMPLES["default"].read_text().replace('turn = "Ann"', 'turn = "Ben"')
    result = run("hint", str(write(tmp_path, text)), expect=2)
    assert "me: expected the seat to act" in result.output
    # the turn left out is the first player's: the message names the field left out
    text = EXAMPLES["default"].read_text().replace('turn = "Ann"\n', "").replace(
        '["Ann", "Ben", "Cat", "Dan"]', '["Ben", "Ann", "Cat", "Dan"]')
    assert "turn =" not in text
    result = run("hint", str(write(tmp_path, text)), expect=2)
    assert "turn: expected the seat to act, 'Ann' for a hint of Ann's (left out, the turn " \
        "is Ben's, the first player's)" in result.output
    # after Ann's play she draws back first: the hint says so (it named Ben's turn)
    after = tmp_path / "after.toml"
    run("apply", str(EXAMPLES["default"]), "play 2 return 2", "-o", str(after))
    result = run("hint", str(after), expect=2)
    assert "drawing: expected a step where Ann chooses a play for a hint, but Ann draws a " \
        "card first (enter what is drawn" in result.output
    # once she has drawn it is Ben's turn: enter what Ben plays
    run("apply", str(after), "draw 5", "-o", str(tmp_path / "ben.toml"))
    result = run("hint", str(tmp_path / "ben.toml"), expect=2)
    assert "it is Ben's turn (enter what Ben plays" in result.output


def test_verify_lists_every_problem_at_once(tmp_path: Path) -> None:
    path = write(tmp_path, HEAD + 'bottle = 30\n[hands]\nAnn = ["5", "5"]\n[played]\n"5" = 7\n'
                 '[tokens]\nAnn = 5\n[strips]\nBen = 6\n')
    result = run("verify", str(path), "--json", expect=1)
    data = json.loads(result.stdout)
    assert data["game"] == "party-time" and data["valid"] is False
    codes = {p["code"] for p in data["problems"]}
    assert codes == {"bottle", "tokens", "strips", "deck", "hand"}
    assert any("Ann holds 2 cards" in p["message"] for p in data["problems"])


def test_simulate_reports_per_seat_figures_with_intervals() -> None:
    result = run("simulate", "party-time", "--players", "3", "--games", "30",
                 "--policy", "greedy", "--policy", "random", "--seed", "4", "--json")
    data = json.loads(result.stdout)
    assert data["game"] == "party-time" and len(data["seats"]) == 3
    seat = data["seats"][0]
    for figure in (seat["figures"]["strips_lost"], seat["figures"]["first_out"]):
        low, high = figure["interval"]
        assert low <= figure["mean"] <= high
    low, high = seat["win"]["interval"]
    assert low <= seat["win"]["rate"] <= high
    assert set(data["by_policy"]) == {"greedy", "random"}
    again = run("simulate", "party-time", "--players", "3", "--games", "30",
                "--policy", "greedy", "--policy", "random", "--seed", "4", "--json")
    assert again.stdout == result.stdout
    # Someone goes out in every game: the first-out rates add up to one.
    assert sum(s["figures"]["first_out"]["mean"] for s in data["seats"]) == pytest.approx(1.0)


def test_simulate_with_the_hint_policy_and_the_reverse_variant() -> None:
    data = json.loads(run("simulate", "party-time", "--players", "2", "--games", "2",
                          "--policy", "hint", "--policy", "greedy", "--r-card", "reverse",
                          "--json").stdout)
    assert data["r_card"] == "reverse" and data["games"] == 2
    few = json.loads(run("simulate", "party-time", "--players", "3", "--games", "2",
                         "--policy", "hint", "--hint-playouts", "20", "--json").stdout)
    assert few["games"] == 2 and few["hint"] == {"depth": 1, "playouts": 20,
                                                  "max_nodes": 20_000}
    # two games are too few for Student's t to stay within the 0-4 strips a seat can lose:
    # the interval is cut there
    for seat in data["seats"] + few["seats"]:
        low, high = seat["figures"]["strips_lost"]["interval"]
        assert 0 <= low <= seat["figures"]["strips_lost"]["mean"] <= high <= 4
    assert any(seat["figures"]["strips_lost"]["interval"] in ([0, 4], [0.0, 4.0])
               for seat in data["seats"] + few["seats"])
    assert "hint" not in json.loads(run("simulate", "party-time", "--games", "1",
                                        "--json").stdout)
    refused = run("simulate", "party-time", "--policy", "hint", "--hint-playouts", "1",
                  expect=2)
    assert "--hint-playouts" in refused.output and "at least 2" in refused.output


def test_simulate_with_own_rules(tmp_path: Path) -> None:
    rules = write(tmp_path, 'game = "party-time"\n[rules]\nboard = "*.+-.+..-+.-"\n'
                  '[rules.deck]\n"1" = 6\n"2" = 6\n"3" = 6\nblack = 2\n', "rules.toml")
    data = json.loads(run("simulate", "party-time", "--players", "2", "--games", "5",
                          "--party-rules", str(rules), "--json").stdout)
    assert data["house_rules"] is False
    bad = write(tmp_path, 'game = "party-time"\n[rules]\nboard = "*.."\n', "bad.toml")
    result = run("simulate", "party-time", "--party-rules", str(bad), expect=2)
    assert "bad.toml" in result.output and "the track has 3 squares" in result.output


def test_render_writes_an_svg_with_the_hint(tmp_path: Path) -> None:
    out = tmp_path / "out.svg"
    run("render", str(EXAMPLES["near-the-star"]), "-o", str(out), "--hint")
    svg = out.read_text()
    assert svg.startswith("<svg") and "marker-end" in svg and "hint: play the 3" in svg


BAD = [
    ("not toml [", "valid TOML"),
    (HEAD.replace('["Ann", "Ben"]', '["Ann"]') + "bottle = 0\n", "players: expected 2 to 6"),
    (HEAD + 'bottle = 0\ncolour = 1\n[hands]\nAnn = ["1", "1", "1"]\n',
     "colour: expected a known field"),
    (HEAD + 'bottle = "far"\n', "bottle: expected an integer"),
    (HEAD + 'bottle = 0\n[hands]\nAnn = ["7", "1", "1"]\n', "hands.Ann[1]: expected a card"),
    (HEAD + 'bottle = 0\n[hands]\nZed = ["1", "1", "1"]\n', "hands.Zed: expected a player"),
    (HEAD + 'bottle = 0\nturn = "Zed"\n[hands]\nAnn = ["1", "1", "1"]\n',
     "turn: expected one of the players"),
    (HEAD + 'bottle = 0\n[rules]\nboard = "*..x"\n[hands]\nAnn = ["1", "1", "1"]\n',
     "rules.board: expected a track"),
    (HEAD + 'bottle = 0\n[hands]\nAnn = ["1", "1", "1"]\n[played]\n"1" = 9\n',
     "a legal position"),
    ('game = "chess"\n', "game: expected one of"),
]


@pytest.mark.parametrize(("text", "message"), BAD)
@pytest.mark.parametrize("verb", ["hint", "verify", "render"])
def test_bad_input_exits_2_naming_the_problem(tmp_path: Path, text: str, message: str,
                                              verb: str) -> None:
    if verb == "verify" and message == "a legal position":
        return  # verify lists rule problems instead (exit 1, tested above)
    path = write(tmp_path, text)
    out = tmp_path / "keep.svg"
    out.write_text("<svg>precious</svg>")
    args = [verb, str(path)] + (["-o", str(out)] if verb == "render" else [])
    result = run(*args, expect=2)
    assert message in result.output and str(path) in result.output
    assert out.read_text() == "<svg>precious</svg>"


def test_options_of_other_verbs_are_refused() -> None:
    run("simulate", "party-time", "--players", "7", expect=2)
    run("simulate", "party-time", "--policy", "clever", expect=2)
    run("hint", str(EXAMPLES["default"]), "--depth", "0", expect=2)


def test_games_lists_the_verbs_and_house_data() -> None:
    data = json.loads(run("games", "--json").stdout)
    game = next(g for g in data["games"] if g["game"] == "party-time")
    assert set(game["verbs"]) == {"example", "hint", "verify", "simulate", "render", "apply", "play",
                                  "review"}
    assert "house data" in game["house_data"]


@settings(max_examples=150, deadline=None)
@given(st.recursive(
    st.none() | st.booleans() | st.integers(-5, 40) | st.sampled_from(
        ["party-time", "Ann", "Ben", "1", "5", "R", "?", "star", "black", "play", "carry-out",
         "*.+-.", "clockwise"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["game", "players", "bottle", "hands", "Ann", "Ben", "played", "1",
                         "tokens", "strips", "turn", "me", "step", "rules", "deck", "board",
                         "revealed", "drawing", "untouched", "direction", "r_card"]),
        inner, max_size=6),
    max_leaves=12))
def test_loader_fuzz_gives_a_position_or_a_clean_error(document: object) -> None:
    if not isinstance(document, dict):
        document = {"game": "party-time", "players": document}
    try:
        position = load_position(document, "fuzz.toml")
    except InputError as error:
        assert "fuzz.toml" in str(error)
        return
    position.problems()


def test_one_seat_views_round_trip() -> None:
    rng = random.Random(8)
    state = GAME.initial_state(4, rng)
    for _ in range(60):
        if state.is_terminal():
            break
        player = state.current_player()
        state = state.apply(sample_chance(state, rng) if player == CHANCE
                            else rng.choice(state.legal_actions()))
        for seat in range(4):
            view = state.view(seat)
            document = view_to_document(view)
            text = format_document(document)
            loaded = load_position(parse_document(text, "v.toml"), "v.toml").to_view("v.toml")
            assert loaded.key() == view.key()


TOKENS_TWO = HEAD + """turn = "Ann"
bottle = 0
untouched = false
[hands]
Ann = ["2", "2", "3"]
[played]
"1" = 2
[tokens]
Ann = 2
[rules.deck]
"1" = 10
"2" = 10
"3" = 10
black = 4
"""


def test_hint_starts_the_compile_only_when_it_runs_playouts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the compiled playouts not ready, an estimated hint answers with the interpreted
    ones and asks for the compile in the background (nothing on stderr but what that says); a
    position the exact search answers, with one safe play, needs no playouts and asks for
    nothing."""
    from partysolver.solvers import compiled

    monkeypatch.setattr(compiled, "ready", lambda kernel: False)
    monkeypatch.delenv(compiled.INTERPRETED, raising=False)
    started: list[object] = []
    monkeypatch.setattr(compiled, "compile_in_background",
                        lambda kernel: started.append(kernel) or True)
    result = run("hint", str(EXAMPLES["near-the-star"]), "--json")
    assert result.stderr == ""
    assert json.loads(result.stdout)["search"]["compiled"] is False
    assert started == [compiled.PARTY_TIME_PLAYOUTS]
    quiet = run("hint", str(write(tmp_path, TOKENS_TWO)), "--json")
    assert quiet.stderr == "" and json.loads(quiet.stdout)["status"] == "exact"
    assert json.loads(quiet.stdout)["search"]["playouts"] == 0
    assert json.loads(quiet.stdout)["search"]["compiled"] is False
    assert started == [compiled.PARTY_TIME_PLAYOUTS]


def test_a_position_the_exact_search_answers_needs_no_compiled_code(tmp_path: Path) -> None:
    """A position the exact search answers, with one safe play (nothing for the long run to
    order), is answered without loading numba: no compile, even on a first run."""
    path = write(tmp_path, TOKENS_TWO)
    code = ("import sys\nfrom click.testing import CliRunner\n"
            "from partysolver.cli.main import cli\n"
            f"result = CliRunner().invoke(cli, ['hint', {str(path)!r}, '--json'])\n"
            "assert result.exit_code == 0, result.output\n"
            "print('numba' in sys.modules)")
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True)
    assert found.stdout.strip() == "False"


def test_an_estimated_hint_names_its_intervals_and_why_deeper_is_unknown() -> None:
    """Depth 2 on a position the exact search does not fit: status unknown, depth 1 shown as
    estimated, and the text says why (not 'the budget ran out'); the intervals keep their
    text and carry the figures' names, signed as the figures are."""
    data = report_data("hint", EXAMPLES["default"], depth=2)
    assert data["status"] == "unknown" and data["search"]["depth"] == 1
    assert data["search"]["deals"] > 0 and "sampled deals" in data["interval_text"]
    for move in data["moves"]:
        low, high = move["interval"]
        assert low <= move["value"] <= high <= 0
        figures = move["figures"]
        assert set(figures["intervals"]) == {"expected_loss", "loss", "before_next",
                                             "next_turn", "others"}
        low, high = figures["intervals"]["expected_loss"]
        assert low <= figures["expected_loss"] <= high and (low, high) == (-move["interval"][1],
                                                                          -move["interval"][0])
    text = run("hint", str(EXAMPLES["default"]), "--depth", "2").stdout
    assert "does not fit" in text and "budget ran out" not in text

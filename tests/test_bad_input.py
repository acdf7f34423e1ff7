"""Bad input, every game and verb (issue 14, section 3): exit code 2, one line on stderr naming
the file, the field or option and what was expected, no traceback, nothing written, and a bad
output path refused before any work."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from partysolver import puzzles
from partysolver.app import paths
from partysolver.app.base import commands_for
from partysolver.cli.main import cli
from partysolver.models.documents import format_document, parse_document
from partysolver.solvers import simulate as simulate_module

GAMES = ["meeple-party", "meeple-land", "pool-party-stars", "party-time", "tea-party"]
FILE_VERBS = ["hint", "solve", "verify", "render"]


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def refused(*args: str, says: tuple[str, ...] = (), folder: Path | None = None) -> str:
    """Run the command; it must fail as bad input, in one line that says each of ``says``,
    leaving ``folder`` as it was.  Returns the line."""
    before = sorted(p.name for p in folder.iterdir()) if folder else []
    result = invoke(*args)
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        f"{args}: {result.exception!r}"
    assert result.exit_code == 2, (args, result.output)
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, (args, result.stderr)
    assert "Traceback" not in result.stderr and "Usage:" not in result.stderr
    for needle in says:
        assert needle in lines[0], (needle, lines[0])
    if folder:
        assert sorted(p.name for p in folder.iterdir()) == before, "something was written"
    return lines[0]


def example(game: str, name: str = "default") -> dict[str, Any]:
    return parse_document(puzzles.examples(game)[name].read_text(), f"{name}.toml")


def write(folder: Path, name: str, document: dict[str, Any]) -> Path:
    path = folder / name
    text = format_document(document, as_json=name.endswith(".json"))
    path.write_text(text, encoding="utf-8")
    return path


def render_args(path: Path, verb: str) -> list[str]:
    return ["-o", str(path.with_name("out.svg"))] if verb == "render" else []


# -- 1. deep nesting ---------------------------------------------------------------------------


@pytest.mark.parametrize("verb", FILE_VERBS)
def test_deep_nesting_is_one_line_in_every_verb(verb: str, tmp_path: Path) -> None:
    deep_json = tmp_path / "deep.json"
    deep_json.write_text('{"game": "tea-party", "x": ' + "[" * 1000 + "]" * 1000 + "}")
    deep_toml = tmp_path / "deep.toml"
    deep_toml.write_text('game = "tea-party"\nx = ' + "[" * 500 + "]" * 500 + "\n")
    for path in (deep_json, deep_toml):
        refused(verb, str(path), *render_args(path, verb), says=(str(path), "nested at most"),
                folder=tmp_path)


def test_nesting_just_past_the_limit_names_the_field(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text('{"game": "tea-party", "bag": {"x": ' + "[" * 40 + "]" * 40 + "}}")
    refused("verify", str(path), says=("bag.x", "nested at most"))


# -- 2. output paths, checked before any work ---------------------------------------------------


@pytest.fixture
def no_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any solving, rendering or simulating fails the test: bad outputs are refused first."""
    def forbidden(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("work was done before the output path was checked")

    for game in GAMES:
        monkeypatch.setattr(type(commands_for(game)), "render", forbidden)
    monkeypatch.setattr(simulate_module, "simulate", forbidden)


@pytest.mark.parametrize("game", GAMES)
def test_render_output_paths_are_refused_before_work(game: str, tmp_path: Path,
                                                     no_work: None) -> None:
    position = write(tmp_path, "p.toml", example(game))
    for output, expected in (("/proc/x.svg", "a folder we can write into"),
                             (str(tmp_path / ("a" * 300 + ".svg")), "at most 255 bytes"),
                             (str(tmp_path / "missing" / "x.svg"), "an existing folder")):
        refused("render", str(position), "-o", output, says=("--output", expected),
                folder=tmp_path)


def test_simulate_plot_path_is_refused_before_any_game(tmp_path: Path, no_work: None) -> None:
    for output, expected in (("/proc/x.png", "a folder we can write into"),
                             (str(tmp_path / ("b" * 300 + ".png")), "at most 255 bytes"),
                             (str(tmp_path / "plot.txt"), "ending in .svg or .png")):
        refused("simulate", "meeple-party", "--games", "1", "--plot", output,
                says=("--plot", expected), folder=tmp_path)


def test_simulate_plot_never_replaces_a_file_that_is_not_a_picture(
        tmp_path: Path, no_work: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # short names: the line shows them whole
    for name in ("keep.svg", "keep.png"):
        Path(name).write_text("keep me")
        refused("simulate", "meeple-party", "--games", "2", "--plot", name,
                says=("--plot", "a new file", repr(name)), folder=tmp_path)
        assert Path(name).read_text() == "keep me"


def test_write_atomically_leaves_nothing_behind_on_failure(tmp_path: Path) -> None:
    target = tmp_path / "x.svg"
    target.write_text("old")

    class Exploding(str):
        def encode(self, *args: Any, **kwargs: Any) -> bytes:
            raise UnicodeEncodeError("utf-8", "x", 0, 1, "boom")

    with pytest.raises(UnicodeEncodeError):
        paths.write_atomically(target, Exploding("new"))
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["x.svg"]


# -- 3. files a position or an option points at --------------------------------------------------


def pointing(tmp_path: Path, target: str) -> list[tuple[Path, str]]:
    """A Meeple Party position whose house and one whose cards, and a Meeple Land puzzle whose
    catalogue, is ``target``; with the field each names."""
    party = example("meeple-party")
    cards = dict(party, cards=target)
    land = example("meeple-land", "puzzle")
    return [(write(tmp_path, "house.toml", dict(party, house=target)), "house"),
            (write(tmp_path, "cards.toml", cards), "cards"),
            (write(tmp_path, "land.toml", dict(land, catalogue=target)), "catalogue")]


@pytest.mark.parametrize("verb", ["hint", "verify"])
def test_referenced_files_that_cannot_be_read_are_one_line(verb: str, tmp_path: Path) -> None:
    latin = tmp_path / "latin.toml"
    latin.write_bytes(b'game = "meeple-party"\nname = "caf\xe9"\n')
    for target, expected in (("x\0y.toml", "without NUL characters"),
                             ("c" * 300 + ".toml", "File name too long"),
                             ("latin.toml", "UTF-8 text"),
                             ("missing.toml", "an existing")):
        for path, field in pointing(tmp_path, target):
            if verb == "hint" and field == "catalogue":
                continue  # a puzzle has no hint; verify reads the same catalogue
            refused(verb, str(path), says=(str(path), field, expected))


def test_options_naming_files_that_cannot_be_read_are_one_line(tmp_path: Path) -> None:
    latin = tmp_path / "latin.toml"
    latin.write_bytes(b"game = 'x'\nname = '\xe9'\n")
    for target, expected in (("c" * 300 + ".toml", "File name too long"),
                             (str(latin), "UTF-8 text"), ("missing.toml", "an existing")):
        refused("simulate", "meeple-party", "--games", "1", "--house", target,
                says=("--house", expected))
        refused("simulate", "party-time", "--games", "1", "--party-rules", target,
                says=("--party-rules", expected))
        refused("simulate", "pool-party-stars", "--games", "1", "--guest-deck", target,
                says=("--guest-deck", expected))


def test_an_unknown_house_names_the_option_and_lists_the_houses() -> None:
    refused("simulate", "meeple-party", "--house", "mansion",
            says=("--house", "easy", "hard", "spa", "'mansion'"))


# -- 4. lone surrogates and NUL characters in names -----------------------------------------------

NAMES = {"meeple-party": ("players", 0, "name"), "meeple-land": ("player", 0, "name"),
         "pool-party-stars": ("players", 0, None), "party-time": ("players", 0, None),
         "tea-party": ("players", 0, None)}


def with_name(game: str, name: str) -> tuple[dict[str, Any], str]:
    document = example(game)
    key, index, inner = NAMES[game]
    if inner is None:
        document[key][index] = name
        return document, f"{key}[{index + 1}]"  # field paths count list items from 1
    document[key][index][inner] = name
    return document, f"{key}[{index + 1}].{inner}"


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("name", ["\ud800", "Ann\0"])
def test_a_lone_surrogate_or_a_nul_in_a_name_is_bad_input(game: str, name: str,
                                                          tmp_path: Path) -> None:
    document, field = with_name(game, name)
    path = tmp_path / "p.json"
    path.write_text(json.dumps(document), encoding="utf-8")  # escapes the surrogate
    for verb in ("hint", "verify", "render"):
        refused(verb, str(path), *render_args(path, verb), says=(str(path), field),
                folder=tmp_path)


@pytest.mark.parametrize("game", ["pool-party-stars", "party-time", "tea-party"])
def test_a_bare_inf_as_a_player_name_names_its_index(game: str, tmp_path: Path) -> None:
    text = puzzles.examples(game)["default"].read_text()
    document = example(game)
    first = document["players"][1]
    path = tmp_path / "p.toml"
    path.write_text(text.replace(f'"{first}"', "inf", 1), encoding="utf-8")
    refused("verify", str(path), says=("players[2]", "a name in quotes (a string)", "inf"))


# -- 5. seeds and option values ------------------------------------------------------------------


def test_option_values_are_one_line(tmp_path: Path) -> None:
    position = write(tmp_path, "p.toml", example("tea-party"))
    refused("hint", str(position), "--top", "0", says=("--top", "at least 1", "'0'"))
    for value in ("-1", "0", "nan", "inf", "-inf", "soon"):
        refused("hint", str(position), "--time-limit", value,
                says=("--time-limit", "greater than 0", repr(value)))
    for value in ("-1", str(2**64), "x"):
        refused("hint", str(position), "--seed", value, says=("--seed", "from 0 to"))
    refused("simulate", "tea-party", "--games", "0", says=("--games", "0"))


def test_every_accepted_seed_reaches_the_party_time_playouts(tmp_path: Path) -> None:
    position = write(tmp_path, "p.toml", example("party-time"))
    runs = [invoke("hint", str(position), "--seed", seed, "--playouts", "20", "--json")
            for seed in (str(2**64 - 1), str(2**31 - 1))]
    assert [r.exit_code for r in runs] == [0, 0], [r.output for r in runs]
    # The kernels see a seed's low 31 bits: 2**64 - 1 and 2**31 - 1 play the same playouts.
    assert runs[0].stdout == runs[1].stdout


# -- 6. decks too small --------------------------------------------------------------------------


def test_a_guest_deck_too_small_for_the_players_is_refused_when_read(tmp_path: Path) -> None:
    deck = tmp_path / "deck.toml"
    deck.write_text('game = "pool-party-stars"\ndeck = ["Animal-Swimsuit-Drink", '
                    '"Animal-Swimsuit-Food"]\n')
    refused("simulate", "pool-party-stars", "--games", "2", "--guest-deck", str(deck),
            says=(str(deck), "deck", "at least 12 guests", "4 players", "2 guest(s)"))


# -- the messages ----------------------------------------------------------------------------------


@pytest.mark.parametrize("verb", ["hint", "render"])
def test_hint_and_render_name_the_field_verify_names(verb: str, tmp_path: Path) -> None:
    document = example("party-time")
    document["hands"]["Ann"] = ["2", "2", "3", "4"]
    path = write(tmp_path, "p.toml", document)
    verified = invoke("verify", str(path))
    assert verified.exit_code == 1 and "hands.Ann:" in verified.stdout
    refused(verb, str(path), *render_args(path, verb), says=("hands.Ann: Ann holds 4 cards",),
            folder=tmp_path)


def test_party_time_hint_at_the_reveal_step_names_the_step(tmp_path: Path) -> None:
    document = example("party-time")
    document |= {"me": "Cat", "turn": "Cat", "step": "reveal", "drawing": "Ann",
                 "hands": {"Cat": ["2", "2", "3"]}}
    path = write(tmp_path, "p.toml", document)
    assert invoke("verify", str(path)).exit_code == 0
    refused("hint", str(path), says=("step:", '"play" or "carry-out"', "'reveal'"))


def test_a_meeple_party_turn_past_sunrise_is_a_problem(tmp_path: Path) -> None:
    path = write(tmp_path, "p.toml", example("meeple-party") | {"turn": 10**9})
    verified = invoke("verify", str(path))
    assert verified.exit_code == 1 and "[turn] turn:" in verified.stdout
    refused("hint", str(path), says=("turn: turn 1000000000 is past the last turn",))


def test_meeple_land_answers_that_contradict_themselves_fail_verify(tmp_path: Path) -> None:
    puzzle = example("meeple-land", "puzzle")
    for answer, field in (({"status": "optimal", "objective": -7, "layouts": 0},
                           "answer.layouts"),
                          ({"status": "infeasible", "objective": 3}, "answer.objective")):
        path = write(tmp_path, "p.toml", puzzle | {"answer": answer})
        result = invoke("verify", str(path), "--time-limit", "5")
        assert result.exit_code == 1 and field in result.stdout, result.output


def test_meeple_land_solve_exits_1_when_the_recorded_optimum_differs(tmp_path: Path) -> None:
    puzzle = example("meeple-land", "puzzle")
    path = write(tmp_path, "p.toml", puzzle | {"answer": {"status": "optimal",
                                                          "objective": 9}})
    result = invoke("solve", str(path), "--json")
    assert result.exit_code == 1, result.output
    assert json.loads(result.stdout)["recorded"]["matches"] is False
    same = write(tmp_path, "q.toml", puzzle)
    assert invoke("solve", str(same)).exit_code == 0


def test_meeple_land_verb_and_kind_mismatches_have_the_usual_prefix(tmp_path: Path) -> None:
    game = write(tmp_path, "game.toml", example("meeple-land"))
    park = write(tmp_path, "park.toml", example("meeple-land", "park"))
    refused("solve", str(game), says=(f"bad input: {game}: kind:", "'game'"))
    refused("hint", str(park), says=(f"bad input: {park}: kind:", "'park'"))


def test_a_pool_party_log_with_a_lie_claims_no_consistency(tmp_path: Path) -> None:
    document = example("pool-party-stars")
    events = document["events"]
    index = events.index("Ben proposes Plant-Swimsuit-Food: Dani lets in, Lari bars")
    events[index] = "Ben proposes Robot-Swimsuit-Food: Dani bars"
    path = write(tmp_path, "p.toml", document)
    result = invoke("verify", str(path), "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert "lie" in {p["code"] for p in data["problems"]}
    assert data["consistent_assignments"] == 0
    assert "consistent:" not in invoke("verify", str(path)).stdout


def test_a_file_a_field_names_as_dash_is_a_file_name_not_standard_input(tmp_path: Path) -> None:
    """`-` reads standard input only for the document given on the command line: a catalogue
    or option file named `-` is a file that is not there (a random mutation once made the
    loader wait on standard input)."""
    path = write(tmp_path, "p.toml", example("meeple-land", "puzzle") | {"catalogue": "-"})
    refused("solve", str(path), says=("catalogue: expected an existing catalogue file",))
    refused("simulate", "party-time", "--games", "1", "--party-rules", "-",
            says=("--party-rules",))


@pytest.mark.parametrize(("where", "field"), [((), "buses_gone"), ((), "pending"),
                                              (("market",), "under")])
def test_a_meeple_land_list_of_lists_where_ids_belong_names_the_field(
        where: tuple[str, ...], field: str, tmp_path: Path) -> None:
    """An id list holding a list (the fuzzer's mutation) is bad input naming the field, not a
    crash on an unhashable value."""
    document = example("meeple-land")
    table = document
    for key in where:
        table = table[key]
    table[field] = [["B07"]]
    path = write(tmp_path, "game.toml", document)
    for verb in ("hint", "verify"):
        refused(verb, str(path), says=(field,), folder=tmp_path)


def test_an_option_value_too_long_for_a_file_name_is_one_line(tmp_path: Path) -> None:
    """Before the parse, the command looks for its document among its arguments: a value no
    file system can name (too long) is skipped there, and the option's own check answers."""
    refused("generate", "nope", "--first", "9" * 5000, says=("--first",),
            folder=tmp_path)

"""Position files: round trips, every problem at once, bad input through the CLI, fuzzing."""

from __future__ import annotations

import contextlib
import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from partysolver.cli.main import cli
from partysolver.models.documents import format_document, parse_document
from partysolver.models.errors import InputError
from partysolver.models.meeple_land import GAME
from partysolver.models.meeple_land.catalogue import (
    catalogue_document,
    house_catalogue,
    house_text,
    load_catalogue,
)
from partysolver.models.meeple_land.position import (
    load_park,
    load_state,
    park_document,
    state_to_document,
)
from partysolver.models.meeple_land.puzzle import load_puzzle, puzzle_document
from partysolver.models.protocol import CHANCE, TERMINAL, sample_chance
from partysolver.puzzles import examples, files

PARK = """game = "meeple-land"
kind = "park"
[plot]
width = 4
height = 3
entrances = ["N1"]
[visitors]
green = 1
[[placed]]
tile = "S01"
at = [1, 0]
"""


def write(tmp_path: Path, text: str, name: str = "park.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def run(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args))


# -- round trips ------------------------------------------------------------------------------


def midgame(seed: int, steps: int) -> Any:
    rng = random.Random(seed)
    state = GAME.initial_state(3, rng)
    for _ in range(steps):
        if state.current_player() == TERMINAL:
            break
        if state.current_player() == CHANCE:
            state = state.apply(sample_chance(state, rng))
        else:
            state = state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("steps", [0, 9, 40])
def test_game_state_round_trips(steps: int) -> None:
    state = midgame(5, steps)
    document = state_to_document(state)
    for as_json in (False, True):
        text = format_document(document, as_json)
        loaded = load_state(parse_document(text, "x.json" if as_json else "x.toml"), "x")
        assert loaded.key() == state.key()
        assert state_to_document(loaded) == document


def test_park_and_puzzle_and_catalogue_round_trip() -> None:
    park = load_park(parse_document(PARK, "p.toml"), "p.toml")
    again = load_park(parse_document(format_document(park_document(park)), "q.toml"), "q.toml")
    assert park_document(again) == park_document(park)
    for name, item in files("meeple-land", "puzzles").items():
        puzzle = load_puzzle(parse_document(item.read_text(encoding="utf-8"), name), name)
        text = format_document(puzzle_document(puzzle))
        assert puzzle_document(load_puzzle(parse_document(text, name), name)) == \
            puzzle_document(puzzle)
    catalogue = house_catalogue()
    text = format_document(catalogue_document(catalogue))
    again_catalogue = load_catalogue(parse_document(text, "c.toml"), "c.toml", "c.toml")
    assert dict(again_catalogue.tiles) == dict(catalogue.tiles)
    assert dict(again_catalogue.buses) == dict(catalogue.buses)


# -- every problem at once --------------------------------------------------------------------


BROKEN = """game = "meeple-land"
kind = "park"
[plot]
width = 4
height = 4
entrances = ["N1"]
[[placed]]
tile = "S01"
at = [1, 0]
seated = ["green"]
[[placed]]
tile = "M02"
at = [1, 0]
[[placed]]
tile = "L01"
at = [3, 3]
[[placed]]
tile = "S05"
at = [3, 0]
rotation = 45
[[placed]]
tile = "Z99"
at = [0, 0]
[[placed]]
tile = "M07"
at = [0, 2]
seated = ["pink", "pink"]
"""


def test_verify_lists_every_problem_at_once(tmp_path: Path) -> None:
    result = run("verify", str(write(tmp_path, BROKEN)), "--json")
    assert result.exit_code == 1
    data = json.loads(result.output)
    codes = [p["code"] for p in data["problems"]]
    assert data["game"] == "meeple-land" and data["valid"] is False
    for code in ("overlap", "off-plot", "bad-rotation", "unknown-tile", "unreachable",
                 "service-not-connected"):
        assert code in codes, code
    fields = {p["field"] for p in data["problems"]}
    assert {"placed[2]", "placed[3]", "placed[4]", "placed[5]", "placed[6]"} <= fields


def test_verify_a_legal_park_gives_the_build_order_and_score(tmp_path: Path) -> None:
    result = run("verify", str(write(tmp_path, PARK)), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["valid"] is True and data["build_order"] == ["S01"]
    assert data["breakdown"]["reputation"] == 1  # the fountain seats the green visitor


def test_game_problems(tmp_path: Path) -> None:
    state = midgame(2, 30)
    document = state_to_document(state)
    document["player"][1]["placed"].append(dict(document["player"][0]["placed"][0]))
    document["player"][0]["visitors"] = {"yellow": 30}
    document["market"]["medium"] = document["market"]["medium"] + ["S02"]
    path = write(tmp_path, format_document(document), "game.toml")
    result = run("verify", str(path), "--json")
    assert result.exit_code == 1
    codes = {p["code"] for p in json.loads(result.output)["problems"]}
    assert {"tile-twice", "supply", "market"} <= codes
    # hint refuses an illegal position: bad input, exit 2, one line.
    hint = run("hint", str(path))
    assert hint.exit_code == 2 and "verify" in hint.output and "Traceback" not in hint.output


# -- bad input through the CLI -----------------------------------------------------------------


BAD_INPUTS = {
    "malformed": ("game = 'meeple-land'\nkind = \n", "valid TOML"),
    "unknown-field": (PARK.replace("[visitors]", "colour = 3\n[visitors]"), "colour"),
    "wrong-type": (PARK.replace("width = 4", "width = \"four\""), "plot.width"),
    "bad-entrance": (PARK.replace('"N1"', '"Q9"'), "plot.entrances"),
    "bad-colour": (PARK.replace("green = 1", "purple = 1"), "visitors.purple"),
    "bad-kind": (PARK.replace('kind = "park"', 'kind = "zoo"'), "kind"),
    "bad-catalogue": (PARK.replace('kind = "park"', 'kind = "park"\ncatalogue = "nope.toml"'),
                      "catalogue"),
}


@pytest.mark.parametrize("case", sorted(BAD_INPUTS))
def test_bad_input_names_file_and_field(tmp_path: Path, case: str) -> None:
    text, field = BAD_INPUTS[case]
    path = write(tmp_path, text)
    out = tmp_path / "out.svg"
    for args in (["verify", str(path)], ["render", str(path), "-o", str(out)]):
        result = run(*args)
        assert result.exit_code == 2, (case, result.output)
        assert str(path) in result.output and field in result.output
        assert "Traceback" not in result.output
        assert len(result.output.strip().splitlines()) == 1
    assert not out.exists()


def test_unknown_market_tile_in_a_game_is_bad_input(tmp_path: Path) -> None:
    document = state_to_document(midgame(1, 3))
    document["market"]["large"] = ["L99"]
    path = write(tmp_path, format_document(document), "g.toml")
    result = run("hint", str(path))
    assert result.exit_code == 2 and "market" in result.output


def test_bad_puzzle_is_bad_input_for_solve(tmp_path: Path) -> None:
    text = files("meeple-land", "puzzles")["01-first-steps"].read_text(encoding="utf-8")
    path = write(tmp_path, text.replace('"M31"', '"M99"'), "puzzle.toml")
    result = run("solve", str(path))
    assert result.exit_code == 2 and "M99" in result.output
    verify = run("verify", str(path), "--json")
    assert verify.exit_code == 1
    assert json.loads(verify.output)["problems"][0]["code"] == "unknown-tile"


# -- fuzzing the loaders ----------------------------------------------------------------------


values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 30) | st.text(max_size=6)
    | st.sampled_from(["meeple-land", "park", "game", "puzzle", "N3", "S01", "M02", "green"]),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.sampled_from(["game", "kind", "plot", "placed", "tile", "at",
                                       "width", "height", "entrances", "visitors", "green",
                                       "pool", "player", "market", "round", "name"]),
                      children, max_size=5),
    max_leaves=20)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.sampled_from(["game", "kind", "plot", "placed", "visitors", "pool",
                                        "player", "market", "round", "catalogue", "name",
                                        "current", "first", "objective"]), values, max_size=8))
def test_loaders_give_an_object_or_a_clean_error(document: dict[str, Any]) -> None:
    document.setdefault("game", "meeple-land")
    for loader in (load_park, load_puzzle, load_state):
        try:
            loaded = loader(document, "fuzz.toml")
        except InputError as error:
            assert error.source == "fuzz.toml" and error.expected
            continue
        if hasattr(loaded, "problems"):
            loaded.problems()


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=200))
def test_any_bytes_give_a_clean_error_or_a_document(raw: bytes) -> None:
    try:
        text = raw.decode("utf-8")
        document = parse_document(text, "fuzz.toml")
    except (UnicodeDecodeError, InputError):
        return
    with contextlib.suppress(InputError):
        load_park(document, "fuzz.toml")


# -- shipped files ----------------------------------------------------------------------------


def test_examples_load_and_describe_themselves() -> None:
    shipped = examples("meeple-land")
    assert {"default", "park", "puzzle", "welcome"} <= set(shipped)
    for name, item in shipped.items():
        text = item.read_text(encoding="utf-8")
        assert text.startswith("#"), name
        document = parse_document(text, name + ".toml")
        kind = document.get("kind", "game")
        if kind == "game":
            GAME.state_from_document(document, name)
        elif kind == "park":
            assert load_park(document, name).problems() == []
        elif kind == "puzzle":
            assert load_puzzle(document, name).problems() == []
        else:
            load_catalogue(document, name, name)


def test_house_text_is_labelled_house_data() -> None:
    assert "HOUSE DATA" in house_text().splitlines()[0]

"""Position files: shipped files load and round-trip, every rule problem at once, bad input."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from partysolver import puzzles
from partysolver.cli.main import cli
from partysolver.models.documents import format_document, parse_document, read_document
from partysolver.models.errors import InputError
from partysolver.models.meeple_party import load_position, load_state, state_to_document

SHIPPED = sorted([*puzzles.files("meeple-party", "examples").values(),
                  *puzzles.files("meeple-party", "scenarios").values(),
                  *puzzles.files("meeple-party", "positions").values()], key=str)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_shipped_positions_load_legal_and_round_trip(path: Any) -> None:
    document, source = read_document(str(path))
    position = load_position(document, source)
    assert position.problems() == []
    state = position.to_state()
    written = state_to_document(state)
    for as_json in (False, True):
        text = format_document(written, as_json=as_json)
        again = load_state(parse_document(text, "again.json" if as_json else "again.toml"),
                           "again")
        assert again.key() == state.key()
        assert state_to_document(again) == written


def test_every_rule_problem_is_listed_at_once() -> None:
    text = """
game = "meeple-party"
difficulty = "standard"
communal = "overcrowding"
[house]
name = "tiny"
adjacent = [["kitchen", "outside"]]
[[house.rooms]]
id = "kitchen"
kind = "kitchen"
[[house.rooms]]
id = "outside"
kind = "outside"
[[house.rooms]]
id = "shed"
kind = "other"
[[players]]
name = "Ana"
roommate = "flirt"
photos = ["stargazing"]
disaster = "fight-club"
[[players]]
name = "Ben"
roommate = "cool"
photos = ["stargazing", "bouncers"]
[rooms.kitchen]
flirt = 6
roommates = ["flirt", "cool"]
[rooms.outside]
flirt = 1
roommates = ["jerk", "wallflower"]
"""
    position = load_position(parse_document(text, "bad.toml"), "bad.toml")
    codes = {p.code for p in position.problems()}
    assert {"tiles", "required-room", "bedrooms", "pillows", "isolated-room", "disconnected",
            "roommate-missing", "supply", "cards"} <= codes
    messages = " | ".join(p.message for p in position.problems())
    assert "Party Animal roommate is not in the house" in messages
    assert "7 flirt meeples" in messages
    assert "'stargazing' is in 2 places" in messages
    assert "no communal disaster" in messages
    assert "Ben has no disaster" in messages


def test_roommates_start_in_different_rooms() -> None:
    text = """
game = "meeple-party"
[[players]]
name = "Ana"
photos = ["stargazing", "bouncers"]
disaster = "fight-club"
[rooms.kitchen]
roommates = ["flirt", "cool"]
[rooms.outside]
roommates = ["jerk", "wallflower", "party_animal"]
"""
    problems = load_position(parse_document(text, "s.toml"), "s.toml").problems()
    assert [p.code for p in problems] == ["roommates", "roommates"]
    assert "Flirt and Cool roommates start together in Kitchen" in problems[0].message


def test_users_can_load_their_own_house_cards_and_clock(tmp_path: Path) -> None:
    base = Path(str(puzzles.folder("meeple-party", "houses").joinpath("hard.toml"))).read_text()
    (tmp_path / "my-house.toml").write_text(base.replace('name = "hard"', 'name = "mine"'))
    cards = Path(str(puzzles.folder("meeple-party", "cards").joinpath("house.toml"))).read_text()
    (tmp_path / "my-cards.toml").write_text(cards)
    clock = Path(str(puzzles.folder("meeple-party", "clocks").joinpath("house.toml"))).read_text()
    (tmp_path / "my-clock.toml").write_text(clock.replace('"12:30" = "welcome"',
                                                          '"12:30" = "surprise"'))
    example = Path(str(puzzles.examples("meeple-party")["default"])).read_text()
    text = example.replace('house = "easy"', 'house = "my-house.toml"').replace(
        'cards = "house"', 'cards = "my-cards.toml"').replace('clock = "house"',
                                                          'clock = "my-clock.toml"')
    text = text.replace("[rooms.bathroom]", "[rooms.garage]").replace(
        "[rooms.bedroom_1]\nflirt = 1", "[rooms.bedroom_1]\nflirt = 1")
    (tmp_path / "game.toml").write_text(text)
    state = load_state(*read_document(str(tmp_path / "game.toml")))
    assert state.setup.house.name == "mine" and state.setup.clock.icons[0] == "surprise"
    written = state_to_document(state)
    assert isinstance(written["house"], dict) and written["house"]["name"] == "mine"


# -- bad input through the command line ------------------------------------------------------------

EXAMPLE = Path(str(puzzles.examples("meeple-party")["default"])).read_text()


@pytest.mark.parametrize(("change", "field", "expected"), [
    (lambda t: t.replace('drawn = "cool"', 'drawn = "cool'), None, "valid TOML"),
    (lambda t: t.replace('turn = 7', 'turns = 7'), "turns", "did you mean 'turn'"),
    (lambda t: t.replace('stress = 1', 'stress = "high"', 1), "players[1].stress", "an integer"),
    (lambda t: t.replace('[rooms.kitchen]', '[rooms.attic]'), "rooms.attic",
     "a room id of the house"),
    (lambda t: t.replace('"fight-club"', '"fist-fight"'), "players[1].disaster",
     "the id of a disaster card"),
    (lambda t: t.replace('roommate = "flirt"', 'roommate = "clown"'), "players[1].roommate",
     "a personality"),
    (lambda t: t.replace('house = "easy"', 'house = "castle"'), "house", "a shipped house"),
    (lambda t: t.replace('[rooms.kitchen]\nflirt = 1', '[rooms.kitchen]\nflirt = 6'), None,
     "a legal position"),
    (lambda t: t.replace('difficulty = "standard"', 'difficulty = "nightmare"'), "difficulty",
     "one of"),
])
def test_bad_input_is_one_line_exit_2_and_writes_nothing(tmp_path: Path, change: Any,
                                                         field: str | None,
                                                         expected: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(change(EXAMPLE))
    runner = CliRunner()
    for args in (["hint", str(path)], ["render", str(path), "-o", str(tmp_path / "out.svg")]):
        result = runner.invoke(cli, args)
        assert result.exit_code == 2, result.output
        message = result.output.strip()
        assert len(message.splitlines()) == 1 and "Traceback" not in message
        assert str(path) in message and expected in message
        if field:
            assert field in message
    assert not (tmp_path / "out.svg").exists()


# -- fuzzing the loader ----------------------------------------------------------------------------

BASE = parse_document(EXAMPLE, "base.toml")
VALUES = st.one_of(st.none(), st.booleans(), st.integers(-3, 40), st.text(max_size=8),
                   st.sampled_from(["flirt", "kitchen", "white", "fight-club", "Ana", "easy",
                                    "stargazing", "over", "mingle"]),
                   st.lists(st.sampled_from(["flirt", "jerk", "x"]), max_size=3),
                   st.dictionaries(st.sampled_from(["flirt", "laid", "roommates", "x"]),
                                   st.integers(0, 7), max_size=2))


def _paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = []
    if isinstance(doc, dict):
        for key, value in doc.items():
            found.append((*prefix, key))
            found += _paths(value, (*prefix, key))
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            found.append((*prefix, i))
            found += _paths(value, (*prefix, i))
    return found


PATHS = _paths(BASE)


@settings(max_examples=150, deadline=None)
@given(edits=st.lists(st.tuples(st.sampled_from(PATHS), VALUES, st.booleans()), max_size=3))
def test_any_document_loads_or_fails_cleanly(edits: list[tuple[Any, Any, bool]]) -> None:
    document = copy.deepcopy(BASE)
    for path, value, delete in edits:
        target = document
        try:
            for key in path[:-1]:
                target = target[key]
            if delete and isinstance(target, dict):
                target.pop(path[-1], None)
            else:
                target[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue
    try:
        position = load_position(json.loads(json.dumps(document)), "fuzz.toml")
        problems = position.problems()
        if not problems:
            position.to_state()
    except InputError as error:
        assert str(error).startswith("fuzz.toml")


def _data_file(folder: str, name: str) -> str:
    return Path(str(puzzles.folder("meeple-party", folder).joinpath(name))).read_text()


@pytest.mark.parametrize(("files", "reference", "field", "expected"), [
    ({"my-cards.toml": _data_file("cards", "house.toml").replace('do = "conga"', 'do = "congo"',
                                                                 1)},
     ('cards = "house"', 'cards = "my-cards.toml"'), "my-cards.toml: surprises[1].effects[1].do",
     "one of"),
    ({"my-house.toml": _data_file("houses", "hard.toml").replace('kind = "garage"',
                                                                 'kind = "attic"', 1)},
     ('house = "easy"', 'house = "my-house.toml"'), "my-house.toml: rooms[1].kind", "one of"),
    ({"my-clock.toml": _data_file("clocks", "house.toml").replace('= "welcome"', '= "nap"', 1)},
     ('clock = "house"', 'clock = "my-clock.toml"'), "my-clock.toml: spaces.", "one of"),
    ({}, ('cards = "house"', 'cards = "missing.toml"'), "cards", "an existing cards file"),
])
def test_bad_user_data_files_fail_cleanly_in_every_verb(tmp_path: Path, files: dict[str, str],
                                                       reference: tuple[str, str], field: str,
                                                       expected: str) -> None:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    game = tmp_path / "game.toml"
    game.write_text(EXAMPLE.replace(*reference))
    runner = CliRunner()
    for args in (["hint", str(game)], ["verify", str(game)], ["solve", str(game)],
                 ["render", str(game), "-o", str(tmp_path / "out.svg")]):
        result = runner.invoke(cli, args)
        message = result.output.strip()
        assert result.exit_code == 2, (args, message)
        assert len(message.splitlines()) == 1 and "Traceback" not in message
        assert field in message and expected in message, message
    assert not (tmp_path / "out.svg").exists()


def test_verify_names_the_house_photos_this_house_can_never_take(tmp_path: Path) -> None:
    cards = _data_file("cards", "house.toml").replace(
        '{ room = "kitchen", mode = "at_least", flirt = 2 },',
        '{ room = "hot_tub", mode = "at_least", flirt = 2 },', 1).replace(
        '{ room = "bedroom", mode = "at_least", flirt = 2 },',
        '{ room = "bedroom", mode = "at_least", flirt = 8 },', 1)
    (tmp_path / "my-cards.toml").write_text(cards)
    game = tmp_path / "game.toml"
    game.write_text(EXAMPLE.replace('cards = "house"', 'cards = "my-cards.toml"'))
    result = CliRunner().invoke(cli, ["verify", str(game), "--json"])
    assert result.exit_code == 0, result.output
    found = {p["id"]: p["why"] for p in json.loads(result.output)["impossible_photos"]}
    # The easy house has no Hot Tub; the game has 7 Flirts (6 guests and a roommate).
    assert found == {"kitchen-flirting": "no hot tub in this house",
                     "pillow-talk": "more meeples than the game has, or not enough different rooms"}


def test_a_game_played_on_ordered_decks_round_trips_with_its_discards() -> None:
    """An ordered deck's document may give only its top (the loader completes it in the cards
    file's order), so a card out of play (a surprise resolved, a photo taken) must be written
    as a discard: else it came back at the bottom of its deck when the position was loaded
    again (found by tests/test_fuzz_moves.py)."""
    import random

    from partysolver.models.meeple_party.position import discarded
    from partysolver.models.protocol import CHANCE, TERMINAL

    seen: set[str] = set()
    for path in puzzles.files("meeple-party", "scenarios").values():
        start = load_state(read_document(path)[0], str(path))
        assert start.setup.ordered
        for seed in range(3):
            rng, state = random.Random(seed), start
            while state.current_player() != TERMINAL:
                doc = state_to_document(state)
                assert state_to_document(load_state(doc, "again.toml")) == doc, (path, seed)
                seen |= {d for d in ("photo", "disaster", "surprise") if discarded(state, d)}
                if state.current_player() == CHANCE:
                    outcomes = state.chance_outcomes()
                    step = rng.choices([a for a, _ in outcomes], [float(p) for _, p in outcomes])[0]
                else:
                    step = rng.choice(list(state.legal_actions()))
                state = state.apply(step)
    assert {"photo", "surprise"} <= seen, seen

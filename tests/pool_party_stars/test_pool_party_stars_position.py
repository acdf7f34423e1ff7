"""Game logs: round trips, every rule problem at once, bad input through the CLI, and a fuzz
of the loader."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pps_helpers import EXAMPLES, PUZZLES, load, play

from partysolver.cli.main import cli
from partysolver.models.documents import format_document, parse_document, read_document
from partysolver.models.errors import InputError
from partysolver.models.pool_party_stars import GAME
from partysolver.models.pool_party_stars.position import (
    GameLog,
    knowledge_log,
    load_log,
    log_to_document,
    state_log,
)

SHIPPED = sorted(EXAMPLES.glob("*.toml")) + sorted(PUZZLES.glob("*.toml"))


def base(**changes: Any) -> dict[str, Any]:
    document: dict[str, Any] = {
        "game": "pool-party-stars", "players": ["Dani", "Lari", "Ana"], "seat": "Dani",
        "events": ["Dani proposes Animal-Swimsuit-Food: Lari lets in, Ana bars"],
        "rules": {"Dani": ["Monster"]}}
    document.update(changes)
    return document


def write(tmp_path: Path, document: dict[str, Any], name: str = "log.toml") -> Path:
    path = tmp_path / name
    path.write_text(format_document(document), encoding="utf-8")
    return path


# -- round trips ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_shipped_files_round_trip(path: Path) -> None:
    log = load(path)
    document = log_to_document(log)
    for as_json in (False, True):
        text = format_document(document, as_json=as_json)
        source = "again.json" if as_json else "again.toml"
        again = load_log(parse_document(text, source), source)
        assert again == log
        assert log_to_document(again) == document


def test_states_and_seat_views_round_trip() -> None:
    for seed in range(3):
        state = play(5, seed, 25)
        document = GAME.state_to_document(state)
        assert GAME.state_from_document(document, "s.toml").key() == state.key()
        for seat in range(5):
            log = knowledge_log(state.knowledge(seat))
            again = load_log(log_to_document(log), "seat.toml")
            assert again == log and again.kind == "seat" and not again.problems()


def test_the_full_state_example_is_the_default_seen_by_everyone() -> None:
    full, seat = load(EXAMPLES / "full-state.toml"), load(EXAMPLES / "default.toml")
    state = full.to_state("full-state.toml")
    assert knowledge_log(state.knowledge(seat.seat)) == seat


# -- rule problems, all at once ------------------------------------------------------------------------


def test_every_problem_is_listed_at_once() -> None:
    document = {
        "game": "pool-party-stars", "players": ["Dani", "Lari", "Ana"],
        "deck": ["Animal-Swimsuit-Food"] * 2 + ["Robot-Sport-Gift"] * 9,
        "events": [
            "Dani proposes Animal-Swimsuit-Food: Lari lets in, Ana lets in",   # Ana lies
            "Ana proposes Robot-Sport-Gift: Dani lets in, Lari bars",          # out of turn
            "Ana guesses Ana is Plant: wrong",                                 # herself
            "Dani proposes Plant-Pajamas-Book: Ana bars, Lari lets in",        # not in deck; order
            "Lari guesses Ana is Animal: right",
            "Dani guesses Lari is Plant: wrong",   # Ana now holds a second rule: not listed
        ],
        "rules": {"Dani": ["Monster"], "Lari": ["Monster"], "Ana": ["Animal"]},
        "hands": {"Dani": ["Robot-Sport-Gift"], "Lari": [], "Ana": []}}
    problems = load_log(document, "many.toml").problems()
    codes = {p.code for p in problems}
    assert codes >= {"turn-order", "answers", "guess-self", "lie", "supply", "rule-history",
                     "same-rule"}, problems
    assert any("Ana let in Animal-Swimsuit-Food" in p.message for p in problems)
    assert any("Dani and Lari would both hold Forbidden Monster" in p.message for p in problems)


def test_hand_sizes_and_the_end_of_the_game_are_checked() -> None:
    state = play(3, seed=2, events=6)
    document = GAME.state_to_document(state)
    document["hands"]["Ana"] = document["hands"]["Ana"][:1]
    problems = load_log(document, "hands.toml").problems()
    assert [p.code for p in problems] == ["hand-size"]
    deck = ["Animal-Swimsuit-Food", "Robot-Sport-Gift", "Plant-Pajamas-Book",
            "Monster-Sport-Drink", "Plant-Costume-Book", "Robot-Costume-Food"]
    over = {"game": "pool-party-stars", "players": ["Dani", "Lari"], "deck": deck,
            "events": ["Dani proposes Animal-Swimsuit-Food: Lari lets in",
                       "Lari proposes Robot-Sport-Gift: Dani lets in",
                       "Dani proposes Plant-Pajamas-Book: Lari lets in",
                       "Lari proposes Monster-Sport-Drink: Dani lets in",
                       "Dani proposes Plant-Costume-Book: Lari lets in",
                       "Lari proposes Robot-Costume-Food: Dani lets in",
                       "Dani guesses Lari is Gift: wrong"]}
    codes = [p.code for p in load_log(over, "over.toml").problems()]
    assert codes == ["after-end"]


def test_excerpts_skip_turn_order_and_hands() -> None:
    document = base(complete=False, events=[
        "Ana proposes Robot-Sport-Gift: Dani lets in, Lari bars",
        "Ana proposes Plant-Pajamas-Book: Dani lets in, Lari lets in"])
    assert load_log(document, "excerpt.toml").problems() == []
    assert [p.code for p in load_log(base(events=document["events"]), "x.toml").problems()] == \
        ["turn-order", "turn-order"]


# -- bad input through the CLI ----------------------------------------------------------------------------


BAD: dict[str, tuple[Any, str]] = {
    "malformed": ("players = [", "valid TOML"),
    "unknown field": (base(colour="blue"), "colour: expected a known field"),
    "unknown puzzle field": (base(puzzle={"target": "Ana", "answer": "Plant"}),
                             "puzzle.answer: expected a known field"),
    "wrong type": (base(players="Dani"), "players: expected a list"),
    "too many players": (base(players=[f"P{i}" for i in range(7)]),
                         "players: expected 2 to 6 player names"),
    "unknown name in an event": (base(events=["Dani proposes Animal-Swimsuit-Food: Eve bars"]),
                                 "events[1]: expected a player name"),
    "unreadable event": (base(events=["Dani waves at Lari"]), "events[1]: expected 'NAME"),
    "bad guest": (base(events=["Dani proposes Animal-Monster-Food: Ana bars"]),
                  "events[1]: expected a guest"),
    "bad rule": (base(rules={"Dani": ["Forbidden Cake"]}), "rules.Dani[1]: expected a rule"),
    "bad deck": (base(deck=["Animal-Swimsuit"]), "deck[1]: expected a guest"),
    "another seat's rule": (base(rules={"Dani": ["Monster"], "Ana": ["Animal"]}),
                            "rules.Ana: expected only the seat's own rules"),
    "seat without a rule": (base(rules={}), "rules.Dani: expected the seat's own rule"),
    "unknown seat": (base(seat="Eve"), "seat: expected one of the players"),
    "same rule twice": ({"game": "pool-party-stars", "players": ["Dani", "Lari", "Ana"],
                         "rules": {"Dani": ["Monster"], "Lari": ["Monster"], "Ana": ["Animal"]}},
                        "both hold Forbidden Monster"),
    "lie in your own answer": (base(events=["Lari proposes Monster-Sport-Book: Ana lets in, "
                                            "Dani lets in"], complete=False),
                               "Dani let in Monster-Sport-Book, but Dani's rule is Forbidden "
                               "Monster"),
    "inconsistent": (None, "these conflict: event 1"),
}


@pytest.mark.parametrize("case", list(BAD), ids=str)
@pytest.mark.parametrize("verb", ["hint", "solve", "render"])
def test_bad_input_is_one_line_exit_2_and_writes_nothing(tmp_path: Path, case: str,
                                                         verb: str) -> None:
    document, expected = BAD[case]
    if document is None:
        path = EXAMPLES / "conflict.toml"
    elif isinstance(document, str):
        path = tmp_path / "bad.toml"
        path.write_text(document, encoding="utf-8")
    else:
        path = write(tmp_path, document, "bad.toml")
    out = tmp_path / "out.svg"
    args = [verb, str(path)] + (["-o", str(out)] if verb == "render" else [])
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, result.output
    assert expected in result.output and str(path.name) in result.output
    assert "Traceback" not in result.output and isinstance(result.exception, SystemExit)
    errors = [line for line in result.output.splitlines() if line.startswith("Error")]
    assert len(errors) == 1 and expected in errors[0]
    assert not out.exists()


def test_hint_needs_a_seat_and_a_whole_game(tmp_path: Path) -> None:
    public = write(tmp_path, {"game": "pool-party-stars", "players": ["Dani", "Lari", "Ana"],
                              "events": []}, "public.toml")
    result = CliRunner().invoke(cli, ["hint", str(public)])
    assert result.exit_code == 2 and "seat: expected a seat log" in result.output
    excerpt = (PUZZLES / "easy-01.toml").read_text()
    excerpt = excerpt[:excerpt.index("[puzzle]")]  # an excerpt that is no puzzle
    path = tmp_path / "excerpt.toml"
    path.write_text(excerpt)
    result = CliRunner().invoke(cli, ["hint", str(path)])
    assert result.exit_code == 2 and "complete: expected a whole game log" in result.output
    result = CliRunner().invoke(cli, ["hint", str(EXAMPLES / "default.toml"), "--from-seat",
                                      "Ana"])
    assert result.exit_code == 2 and "the log's own seat" in result.output


# -- fuzz ---------------------------------------------------------------------------------------------------

NAMES = st.sampled_from(["Dani", "Lari", "Ana", "Ben", "everyone", "", "A B", 3, None])
TEXT = st.one_of(st.text(max_size=30), st.sampled_from([
    "Dani proposes Animal-Swimsuit-Food: Lari lets in, Ana bars",
    "Lari guesses Ana is Animal: right", "Ana bars", "Monster", "house",
    "Animal-Swimsuit-Food", "Robot-Sport-Gift: everyone lets in"]))
VALUES = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(-3, 9), TEXT, NAMES),
                      lambda inner: st.one_of(st.lists(inner, max_size=4),
                                              st.dictionaries(TEXT, inner, max_size=3)),
                      max_leaves=12)
FIELDS = st.sampled_from(["game", "players", "mode", "deck", "seat", "complete", "events",
                          "rules", "hands", "puzzle", "other"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(FIELDS, VALUES, max_size=8), st.booleans())
def test_any_document_loads_or_fails_cleanly(document: dict[str, Any], like_a_log: bool) -> None:
    if like_a_log:
        document = base(**document)
        document["game"] = "pool-party-stars"
    try:
        log = load_log(document, "fuzz.toml")
    except InputError as error:
        assert str(error).startswith("fuzz.toml")
        return
    assert isinstance(log, GameLog)
    log.problems()  # a well-formed log always gets its problem list


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_any_text_parses_or_fails_cleanly(text: str) -> None:
    with contextlib.suppress(InputError):
        load_log(parse_document(text, "fuzz.toml"), "fuzz.toml")


def test_a_state_needs_every_rule_and_hand() -> None:
    document, source = read_document(EXAMPLES / "default.toml")
    with pytest.raises(InputError, match="every player's rules and hand"):
        load_log(document, source).to_state(source)
    full = state_log(load(EXAMPLES / "full-state.toml").to_state("f.toml"))
    assert full.kind == "omniscient"

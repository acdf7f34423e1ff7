"""Errors as data (issue 26 §2): one error type, worded by each front end from its parts, and
one dispatcher for every front end."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest
from click.testing import CliRunner

from partysolver.app import base as app
from partysolver.app import catalog
from partysolver.cli.main import cli
from partysolver.models.errors import MISSING, InputError


def printed(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_a_file_error_is_its_parts_and_one_line() -> None:
    error = InputError("mine.toml", "cups.Blue", "a table of heroes", 3)
    assert error.line() == "bad input: mine.toml: cups.Blue: expected a table of heroes, got 3"
    assert error.as_json() == {
        "message": error.line(), "source": "mine.toml", "field": "cups.Blue",
        "expected": "a table of heroes", "got": 3}


def test_an_option_is_a_flag_on_the_command_line_and_a_name_in_json() -> None:
    error = InputError.of_option("time_limit", "a number of seconds", -1)
    assert error.line() == "bad input: --time-limit: expected a number of seconds, got -1"
    assert error.line(names=True) == "bad input: time_limit: expected a number of seconds, " \
                                     "got -1"
    assert error.as_json()["field"] == "time_limit"
    assert error.as_json()["message"] == error.line(names=True)


def test_a_reason_replaces_the_expectation_in_words_but_both_stay_data() -> None:
    error = InputError.of_option("players", "2 to 6 players", 9,
                                 reason="tea-party takes 2 to 6 players, not 9")
    assert error.line() == "bad input: --players: tea-party takes 2 to 6 players, not 9"
    parts = error.as_json()
    assert (parts["expected"], parts["got"], parts["reason"]) == ("2 to 6 players", 9,
                                                                  "tea-party takes 2 to 6 "
                                                                  "players, not 9")


def test_a_refusal_is_its_reason_alone() -> None:
    with pytest.raises(InputError) as caught:
        app.commands("party-time", "solve")
    error = caught.value
    assert error.line().startswith("party-time does not support 'solve' (it supports: ")
    assert (error.field, error.got) == ("verb", "solve")
    assert "solve" not in (error.expected or "").split("(")[1]  # the verbs it does support


def test_an_error_keeps_its_parts_across_a_process_boundary() -> None:
    for error in (InputError("a.toml", "x", "an integer"),
                  InputError.of_option("top", "at least 1", 0),
                  app.NotAnOption("depth", "tea-party", "hint", ["top", "seed"], 2)):
        again = pickle.loads(pickle.dumps(error))
        assert type(again) is type(error)
        assert again.line() == error.line() and again.as_json() == error.as_json()
    assert pickle.loads(pickle.dumps(MISSING)) is MISSING


def test_a_value_too_long_to_write_is_still_one_line() -> None:
    huge = 10 ** 5000
    error = InputError("a.json", "seed", "an integer of at most 20 digits", huge)
    assert "\n" not in error.line() and len(error.line()) < 200
    json.dumps(error.as_json())  # the web can answer it


def test_the_cli_prints_bad_input_as_one_line_with_exit_code_2() -> None:
    code, out, err = printed("hint", "tea-party:default", "--top", "0")
    assert code == 2 and out == ""
    assert err == "Error: bad input: --top: expected a number of moves of at least 1, " \
                  "got '0'\n"
    code, out, err = printed("hint", "tea-party:default", "--playouts", "3")
    assert (code, err) == (2, "Error: --playouts does not apply to tea-party hint\n")


def test_a_bad_step_in_a_record_says_bad_input_once_at_the_start(tmp_path: Path) -> None:
    record = tmp_path / "m.record.toml"
    record.write_text('game = "tea-party"\nkind = "record"\nstart = "tea-party:opening"\n'
                      'steps = [{ move = "draw fighter" }, { move = "fly away" }]\n')
    for verb in ("hint", "review"):
        code, _, err = printed(verb, str(record))
        line = err.removeprefix("Error: ").rstrip("\n")
        assert code == 2 and "\n" not in line
        assert line.startswith(f"bad input: {record}: steps: step 2: ")
        assert line.count("bad input") == 1 and "'fly away'" in line


def test_the_dispatcher_gives_the_clis_report() -> None:
    document = catalog.open_document("pool-party-stars:default")
    report = app.dispatch("pool-party-stars", "verify", document, {"seed": "3"}, as_json=True)
    code, out, _ = printed("verify", "pool-party-stars:default", "--json", "--seed", "3")
    assert code == report.exit_code
    assert json.loads(out) == app.json_safe(report.data, timings=False)


def test_the_dispatcher_checks_options_and_the_document_before_any_work() -> None:
    document = catalog.open_document("tea-party:default")
    with pytest.raises(InputError) as caught:
        app.dispatch("tea-party", "hint", document, {"top": "many"})
    assert (caught.value.field, caught.value.option, caught.value.got) == ("top", True, "many")
    with pytest.raises(InputError) as caught:
        app.dispatch("pool-party-stars", "verify", document)
    assert (caught.value.source, caught.value.field) == (document.source, "game")
    with pytest.raises(app.NotAnOption) as not_taken:
        app.dispatch("tea-party", "hint", document, {"depth": 2})
    assert not_taken.value.line() == "--depth does not apply to tea-party hint"
    assert "exact_nodes" in not_taken.value.line(names=True)


def test_the_dispatcher_renders_and_reads_a_record_as_its_last_position(tmp_path: Path
                                                                        ) -> None:
    record = app.document({"game": "tea-party", "kind": "record",
                           "start": "tea-party:opening", "steps": [{"move": "draw fighter"}]},
                          "r.record.toml")
    report = app.dispatch("tea-party", "render", record, {})
    assert report.data["svg"].startswith("<svg") and report.text == report.data["svg"]
    hint = app.dispatch("tea-party", "hint", record, {"seed": 1, "time_limit": 1})
    assert {move["move"] for move in hint.data["moves"]} == {"cup", "squish fighter"}


def test_a_message_stays_one_line_whatever_the_file_put_in_it(tmp_path: Path) -> None:
    """A control character or line separator that a file put in a name the message quotes
    (in what was expected, not only in what was got) is written as its escape: fuzz case 2853
    of seed 7 printed an advert id holding a newline on two lines."""
    error = InputError("f.toml", "tile[1].advert", "an advert id of the catalogue: \n\x1b\u2028",
                       "A1")
    assert error.line() == ("bad input: f.toml: tile[1].advert: expected an advert id of the "
                            "catalogue: \\n\\x1b\\u2028, got 'A1'")
    assert InputError("é.toml", "名", "ü").line() == "bad input: é.toml: 名: expected ü"
    # and the catalogue refuses such an id where it is defined
    from partysolver.puzzles import examples

    text = (examples("meeple-land")["my-catalogue"].read_text(encoding="utf-8")
            .replace('id = "A1"', 'id = "A\\n1"', 1))
    assert 'id = "A\\n1"' in text
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(cli, ["verify", str(path)])
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and "advert[1].id: expected an advert id" in result.output

"""Hostile input, issue 27 (the input-side causes), each through the command line where the
campaign saw it: exit code 2, one line naming the file or option, the field and what was
expected, no traceback, nothing written.

- documents: integers of more digits than :data:`MAX_DIGITS` (above Python's 4,300 too), nesting
  deeper than :data:`MAX_DEPTH`, a file that never ends; any text gives a document or an
  :class:`InputError`, never another exception (cause 1);
- numbers typed by a person (``play``'s ``hint K`` and ``--bot N=...``, every numeric option,
  ``COLUMNS``, a Meeple Land entrance) read by the one parser, ASCII digits only (cause 3);
- outputs: a folder name too long for the file system, a folder we cannot write into, a
  generated puzzle already there, all refused before any work (causes 4 and 5); two outputs
  of one command naming one file (cause 9).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import given, settings
from hypothesis import strategies as st

from partysolver import puzzles
from partysolver.app import pool_party_stars
from partysolver.cli.main import cli
from partysolver.models.documents import MAX_BYTES, MAX_DEPTH, format_document, parse_document
from partysolver.models.errors import InputError
from partysolver.models.numbers import MAX_DIGITS, decimal_number, whole_number

HUGE = "9" * 5000
"""More digits than Python converts (4,300): ``int()`` itself refuses it."""
LONG_FOLDER = "d" * 300
"""A folder name no common file system takes (255 bytes at most)."""


def invoke(*args: str, input: str | None = None, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=input, env=env)


def refused(*args: str, says: tuple[str, ...] = (), folder: Path | None = None) -> str:
    """The command fails as bad input in one line saying each of ``says``, without a
    traceback, leaving ``folder`` as it was; the line."""
    before = sorted(p.name for p in folder.iterdir()) if folder else []
    result = invoke(*args)
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        f"{args}: {result.exception!r}"
    assert result.exit_code == 2, (args, result.output)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and result.stdout == "", (args, result.output)
    assert "Traceback" not in result.stderr
    for needle in says:
        assert needle in lines[0], (needle, lines[0])
    if folder:
        assert sorted(p.name for p in folder.iterdir()) == before, "something was written"
    return lines[0]


def example(game: str, name: str = "default") -> dict[str, Any]:
    return parse_document(puzzles.examples(game)[name].read_text(), f"{name}.toml")


# -- cause 1: documents -------------------------------------------------------------------------


def nested(depth: int, as_json: bool) -> str:
    inner = "[" * depth + "1" + "]" * depth
    return f'{{"game": "tea-party", "x": {inner}}}' if as_json else \
        f'game = "tea-party"\nx = {inner}\n'


@pytest.mark.parametrize("suffix", [".toml", ".json"])
@pytest.mark.parametrize("digits", [MAX_DIGITS + 1, 5000])
def test_an_integer_too_long_is_one_line_naming_the_limit(tmp_path: Path, suffix: str,
                                                          digits: int) -> None:
    document = example("tea-party")
    text = format_document(document, as_json=suffix == ".json")
    number = "9" * digits
    text = text.replace('"game": "tea-party",', f'"game": "tea-party", "turn_extra": {number},') \
        if suffix == ".json" else f"turn_extra = {number}\n" + text
    path = tmp_path / f"big{suffix}"
    path.write_text(text)
    line = refused("hint", str(path), says=(path.name, f"an integer of at most {MAX_DIGITS} "
                                            "digits"))
    where = "line 1" if digits > 4300 and suffix == ".toml" else "turn_extra"
    assert where in line


def test_a_hexadecimal_integer_is_held_to_the_same_limit() -> None:
    # Python converts any number of hexadecimal digits: the limit is the loader's own.
    with pytest.raises(InputError, match=f"x: expected an integer of at most {MAX_DIGITS}"):
        parse_document("x = 0x" + "f" * 5000, "f.toml")
    assert parse_document("x = 0xff", "f.toml") == {"x": 255}


@pytest.mark.parametrize("as_json", [False, True])
@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 5000])
def test_nesting_too_deep_is_one_line_naming_the_limit(tmp_path: Path, as_json: bool,
                                                       depth: int) -> None:
    path = tmp_path / ("deep.json" if as_json else "deep.toml")
    path.write_text(nested(depth, as_json))
    refused("hint", str(path), says=(path.name, f"nested at most {MAX_DEPTH} deep"))


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_a_file_that_never_ends_is_refused_after_the_limit() -> None:
    refused("hint", "/dev/zero", says=("/dev/zero", f"at most {MAX_BYTES // 2**20} MiB"))


def test_standard_input_is_held_to_the_same_size() -> None:
    result = invoke("hint", "-", input=" " * (MAX_BYTES + 1))
    assert result.exit_code == 2 and "<stdin>: expected a document of at most" in result.stderr


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet='[]{}="\'0123456789_.,:\nxe+-#\\ ', max_size=80),
       st.sampled_from(["f.toml", "f.json"]))
def test_any_text_is_a_document_or_an_input_error(text: str, source: str) -> None:
    try:
        document = parse_document(text, source)
    except InputError as error:
        assert error.source == source and "\n" not in str(error)
    else:
        assert isinstance(document, dict)


# -- cause 3: numbers typed by a person ---------------------------------------------------------


@pytest.mark.parametrize("text", ["²", "①", "١٢", "1_0", " 1", "1 ", "", "+", "0x1",
                                  "9" * (MAX_DIGITS + 1), HUGE])
def test_a_whole_number_is_ascii_digits_of_a_sane_length(text: str) -> None:
    with pytest.raises(ValueError):
        whole_number(text)


def test_whole_and_decimal_numbers_read_what_people_write() -> None:
    assert whole_number("12") == 12 and whole_number("007") == 7
    assert whole_number("-3", signed=True) == -3 and whole_number("+3", signed=True) == 3
    with pytest.raises(ValueError):
        whole_number("-3")
    assert decimal_number("0.5") == 0.5 and decimal_number("2") == 2.0
    assert decimal_number(".5") == 0.5 and decimal_number("1e-3") == 0.001
    for text in ["nan", "inf", "-inf", "1e999", "١.5", "1_0.5", "0x1p3", "1.5 "]:
        with pytest.raises(ValueError):
            decimal_number(text)


@pytest.mark.parametrize("count", ["²", "①", "١", HUGE, "0"])
def test_play_hint_takes_a_number_of_moves_in_ascii_digits(count: str) -> None:
    result = invoke("play", "tea-party:default", input=f"hint {count}\nquit\n")
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    assert result.exit_code == 0 and "Traceback" not in result.output
    refusals = [line for line in result.output.splitlines() if line.startswith("bad input")]
    assert len(refusals) == 1, result.output
    assert refusals[0].startswith("bad input: hint: expected a number of moves of at least 1")


@pytest.mark.parametrize("seat", ["²", "①", HUGE])
def test_a_bot_seat_is_a_name_or_a_number_in_ascii_digits(seat: str) -> None:
    refused("play", "tea-party", "--bot", f"{seat}=random", says=("--bot", "seat number"))


@pytest.mark.parametrize(("args", "option"), [
    (("simulate", "tea-party", "--games", "²"), "--games"),
    (("simulate", "tea-party", "--games", HUGE), "--games"),
    (("simulate", "tea-party", "--players", "١"), "--players"),
    (("hint", "tea-party:default", "--top", "1_0"), "--top"),
    (("hint", "tea-party:default", "--time-limit", "١"), "--time-limit"),
    (("hint", "tea-party:default", "--time-limit", "nan"), "--time-limit"),
    (("hint", "tea-party:default", "--seed", HUGE), "--seed"),
    (("apply", "tea-party:default", "--upto", "²"), "--upto"),
])
def test_numeric_options_take_ascii_digits(args: tuple[str, ...], option: str) -> None:
    refused(*args, says=(option, "expected"))


def test_a_terminal_width_that_is_no_number_is_ignored() -> None:
    for width in ("²", HUGE, "١٠٠"):
        result = invoke("games", env={"COLUMNS": width})
        assert result.exit_code == 0 and result.exception is None, repr(result.exception)


def test_a_meeple_land_entrance_is_numbered_in_ascii_digits(tmp_path: Path) -> None:
    text = puzzles.examples("meeple-land")["default"].read_text()
    assert 'entrances = ["N3"]' in text
    path = tmp_path / "park.toml"
    path.write_text(text.replace('entrances = ["N3"]', 'entrances = ["N٣"]', 1))
    refused("verify", str(path), says=("park.toml", "entrances", "N٣"))


# -- causes 4 and 5: outputs checked before any work --------------------------------------------


def test_every_output_refuses_a_folder_name_too_long_for_the_file_system(tmp_path: Path
                                                                         ) -> None:
    deep = tmp_path / LONG_FOLDER
    for args in [("apply", "tea-party:default", "-o", str(deep / "x.toml")),
                 ("apply", "tea-party:default", "--record", str(deep / "x.record.toml")),
                 ("render", "tea-party:default", "-o", str(deep / "x.svg")),
                 ("generate", "pool-party-stars", "--difficulty", "easy", "--out", str(deep)),
                 ("generate", "pool-party-stars", "--difficulty", "easy", "--out",
                  str(deep / "sub")),
                 ("simulate", "tea-party", "--games", "1", "--records", str(deep)),
                 ("simulate", "tea-party", "--games", "1", "--out", str(deep / "run.jsonl"))]:
        refused(*args, says=("File name too long",), folder=tmp_path)


def test_play_save_refuses_a_folder_name_too_long(tmp_path: Path) -> None:
    target = tmp_path / LONG_FOLDER / "x.toml"
    result = invoke("play", "tea-party:default", input=f"save {target}\nquit\n")
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    assert "bad input: save: expected a path the file system accepts (File name too long)" \
        in result.output
    assert list(tmp_path.iterdir()) == []


@pytest.fixture
def no_generating(monkeypatch: pytest.MonkeyPatch) -> None:
    """Generating anything fails the test: the output must be refused before."""

    def generate(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("generated before checking the output")

    monkeypatch.setattr(pool_party_stars.PoolPartyStarsCommands, "generate", generate)


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="no /proc here")
@pytest.mark.parametrize("out", ["/proc/x", "/proc/self"])
def test_generate_refuses_a_folder_it_cannot_write_before_generating(
        out: str, no_generating: None) -> None:
    refused("generate", "pool-party-stars", "--difficulty", "easy", "--out", out,
            says=("--out", "we can write into", repr(out)))


def test_generate_refuses_a_puzzle_already_there_before_generating(
        tmp_path: Path, no_generating: None) -> None:
    (tmp_path / "easy-03.toml").write_text("keep me")
    refused("generate", "pool-party-stars", "--difficulty", "easy", "--count", "3", "--out",
            str(tmp_path), says=("--out", "easy-03.toml exists already"), folder=tmp_path)
    assert (tmp_path / "easy-03.toml").read_text() == "keep me"
    refused("generate", "pool-party-stars", "--difficulty", "easy", "--first", "3", "--out",
            str(tmp_path), says=("easy-03.toml exists already",), folder=tmp_path)


def test_generate_names_are_the_files_it_writes(tmp_path: Path) -> None:
    result = invoke("generate", "pool-party-stars", "--difficulty", "easy", "--count", "2",
                    "--first", "4", "--seed", "3", "--out", str(tmp_path / "new"), "--json")
    assert result.exit_code == 0, result.output
    written = [Path(item["file"]).name for item in json.loads(result.stdout)["puzzles"]]
    assert written == ["easy-04.toml", "easy-05.toml"]
    assert sorted(p.name for p in (tmp_path / "new").iterdir()) == written


# -- cause 9: two outputs of one command --------------------------------------------------------


def test_two_outputs_naming_one_file_are_refused_however_written(tmp_path: Path) -> None:
    record = tmp_path / "s.record.toml"
    (tmp_path / "sub").mkdir()
    link = tmp_path / "link.record.toml"
    link.symlink_to(record)
    for output in [record, tmp_path / "sub" / ".." / "s.record.toml", link]:
        refused("apply", "tea-party:default", "cup", "-o", str(output), "--record",
                str(record), says=("--record", "a file other than --output's"),
                folder=tmp_path)
    assert not record.exists()


def test_two_outputs_naming_two_files_both_write(tmp_path: Path) -> None:
    result = invoke("apply", "tea-party:default", "cup", "-o", str(tmp_path / "p.toml"),
                    "--record", str(tmp_path / "s.record.toml"))
    assert result.exit_code == 0, result.output
    assert parse_document((tmp_path / "p.toml").read_text(), "p.toml").get("kind") != "record"
    assert parse_document((tmp_path / "s.record.toml").read_text(), "s.toml")["kind"] == \
        "record"

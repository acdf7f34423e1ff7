"""Fuzzed ``play`` sessions (issue 27, item 2): any lines on standard input -- moves, mistyped
moves, ``hint K`` with odd K (``²``, ``①``, 5,000 digits), ``moves``, ``undo``, ``redo``,
``random``, ``show``, ``save`` to odd names, text that is not a command -- get a reply each
(bad input as one line) and never end the session with an exception; after them the game
record the session would save replays to the position it stands on.  Through the command
line, bytes that are not UTF-8 are one line of bad input too, and nothing but the files a
``save`` named is written.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fuzz_moves import HUGE, odd_words, position_at, typed_moves
from test_roundtrip_moves import GAMES, shipped_starts

from partysolver.app import catalog, playalong
from partysolver.app.base import document
from partysolver.app.session import Session
from partysolver.cli.main import cli

HINT_OPTIONS: dict[str, dict[str, Any]] = {
    "tea-party": {"time_limit": 0.1}, "party-time": {"playouts": 10},
    "meeple-party": {"time_limit": 0.1}}
"""What keeps each game's hint quick."""

COMMANDS = st.sampled_from(["undo", "redo", "random", "show", "help", "moves", "moves x",
                            "moves ²", "undo 2", "random x", "", "   ", "#", "hint hint",
                            "save", "save --record", "save --force"])
HINTS = st.sampled_from(["hint", "hint 1", "hint 2", "hint 0", "hint -1", "hint ²",
                         "hint ①", "hint ١", f"hint {HUGE}", "hint 1e3", "hint 2147483648",
                         "hint x", "hint 1 2"])


@st.composite
def lines(draw: st.DrawFn, game: str) -> list[str]:
    position = position_at(shipped_starts(game)[0], 0, 0)
    one = typed_moves(position) | COMMANDS | odd_words | st.just("random")
    if game != "meeple-land":  # its hint is a market search: slower than the others
        one = one | HINTS
    return draw(st.lists(one, min_size=1, max_size=8))


@pytest.mark.parametrize("game", GAMES)
def test_any_lines_get_replies_and_the_record_replays(game: str) -> None:
    start = shipped_starts(game)[0]
    shipped = catalog.reference(start)
    assert shipped is not None

    @settings(max_examples=8 if game in ("meeple-land", "meeple-party") else 20,
              deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(lines(game), st.integers(0, 1000))
    def session(typed: list[str], seed: int) -> None:
        playing = Session.open(shipped.document(), seed=seed, auto_chance=seed % 2 == 0,
                               hint_options=HINT_OPTIONS.get(game, {}))
        for line in typed:
            reply = playing.handle(line)
            assert "Traceback" not in reply.text
            if reply.done:
                break
        record = playing.record().to_document()
        replayed, _ = playalong.position_after(document(record, "s.record.toml"), None)
        assert replayed.to_document() == playing.position.to_document()

    session()


@pytest.mark.parametrize("stdin", [b"\xff\xfe hint\nquit\n", b"\xc3\nshow\n", b"hint\x00\n",
                                   b"moves\r\nundo\r\n", b"x" * 100_000 + b"\n"])
def test_any_bytes_on_stdin_end_the_session_cleanly(stdin: bytes, tmp_path: Path) -> None:
    here = Path.cwd()
    os.chdir(tmp_path)
    try:
        result = CliRunner().invoke(cli, ["play", "tea-party:default", "--time-limit", "0.1"],
                                    input=stdin)
    finally:
        os.chdir(here)
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    assert result.exit_code == 0 and "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []
    if not stdin.isascii():  # the line that is not UTF-8 is refused alone, the others read
        assert "bad input: standard input: expected a line of UTF-8 text" in result.output
        assert "show" not in stdin.decode("latin-1") or "next: " in result.output.split(
            "UTF-8 text")[1]


@given(typed=st.lists(st.sampled_from(["save mine.toml", "save --record mine.record.toml",
                                 "save keep.toml", "save " + "d" * 300 + "/x.toml",
                                 "save /proc/x.toml", "save missing/x.toml", "save x.png",
                                 "squish king as rogue on Green take rogue", "undo"]),
                min_size=1, max_size=5))
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
def test_save_writes_only_what_it_names_and_never_an_existing_file(typed: list[str],
                                                                   tmp_path: Path) -> None:
    folder = Path(tempfile.mkdtemp(dir=tmp_path))  # one per example (tmp_path is shared)
    (folder / "keep.toml").write_text("unrelated = 1\n")
    here = Path.cwd()
    os.chdir(folder)
    try:
        result = CliRunner().invoke(cli, ["play", "tea-party:default"],
                                    input="\n".join(typed) + "\n")
    finally:
        os.chdir(here)
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    assert (folder / "keep.toml").read_text() == "unrelated = 1\n"
    named = {line.split()[-1] for line in typed if line.startswith("save")}
    assert {p.name for p in folder.iterdir()} <= named | {"keep.toml"}

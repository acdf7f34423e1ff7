"""``partysolver play``: the session of the app layer, driven through a pipe (in this process,
as a script would) and through a pseudo-terminal (a real process, with prompts and Tab
completion), for every game; bots; and ``simulate --records``, whose records ``review``
accepts.

Each game starts from a shipped position whose hint is quick with the options in
:data:`CASES`, so the whole file stays fast."""

from __future__ import annotations

import json
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from partysolver.app import base, catalog, playalong
from partysolver.app.session import Session
from partysolver.cli.main import cli
from partysolver.models.registry import all_games, is_plugin


@dataclass(frozen=True)
class Case:
    start: str
    """A shipped position (``GAME:NAME``) to play from."""
    hint: tuple[str, ...]
    """Options that keep its hint quick."""


CASES = {
    "tea-party": Case("tea-party:default", ("--time-limit", "2")),
    "meeple-land": Case("meeple-land:default", ()),
    "meeple-party": Case("meeple-party:last-photo", ()),
    "party-time": Case("party-time:default", ("--playouts", "20")),
    "pool-party-stars": Case("pool-party-stars:default", ()),
}
GAMES = [key for key, game in all_games().items() if hasattr(game, "playable")]


def case_of(game: str) -> Case:
    """The case of ``game``: a game another installed package registers (examples/pig) plays
    from its default example with its hint's own defaults."""
    return Case(f"{game}:default", ()) if is_plugin(game) else CASES[game]


def test_every_playable_game_has_a_case() -> None:
    assert sorted(game for game in GAMES if not is_plugin(game)) == sorted(CASES)


def run(*args: str, input: str | None = None, expect: int = 0) -> Result:
    result = CliRunner().invoke(cli, list(args), input=input)
    assert result.exit_code == expect, result.output
    assert "Traceback" not in result.output
    return result


def play(case: Case, script: str, *extra: str) -> str:
    """The output of a scripted session (lines from a pipe) on ``case``."""
    return run("play", case.start, "--seed", "1", *case.hint, *extra, input=script).output


def hinted(output: str) -> list[str]:
    """The moves a session's hint offered, in notation ('to enter: 1. x; 2. y')."""
    found = re.findall(r"^to enter: (.*)$", output, re.M)
    assert found, output
    return [re.sub(r"^\d+\. ", "", item) for item in found[-1].split("; ")]


def start_name(case: Case) -> str:
    """How a record names the shipped start (``GAME:SET/NAME``)."""
    game, _, name = case.start.partition(":")
    found = catalog.reference(case.start)
    assert found is not None
    return f"{game}:{found.qualified}"


def first_legal(case: Case) -> str:
    session = Session.open(catalog.open_document(case.start))
    return session.spellings()[0]


# -- through a pipe, every game -------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_a_scripted_session_moves_hints_undoes_and_saves(game: str, tmp_path: Path) -> None:
    case = case_of(game)
    first = play(case, "hint 2\n")
    move = hinted(first)[0]
    position, record = tmp_path / "after.toml", tmp_path / "game.record.toml"
    script = (f"hint 2\n{move}\nundo\nredo\nsave {position}\nsave {record}\nundo\n"
              f"save {tmp_path / 'start.toml'}\nquit\nshow\n")
    output = play(case, script)
    assert not re.search(r"^\d+\. [^\n]*> ", output, re.M)  # no prompt from a pipe
    assert "1. " in output and "took back: " in output
    assert output.count("saved ") == 3 and "game over" not in output
    assert not output.rstrip().endswith("next: ") and output.count("type a move") == 1
    # the saved position verifies, and the record replays to it
    verified = json.loads(run("verify", str(position), "--json").output)
    assert verified["valid"] is True
    replayed = run("apply", str(record)).output
    assert replayed == position.read_text()
    loaded = playalong.load_record(base.read(str(record)))
    assert len(loaded.steps) == 1 and loaded.start == start_name(case)
    # after the undo the position is the start again
    start = catalog.open_document(case.start)
    saved_start = base.read(str(tmp_path / "start.toml"))
    assert playalong.playable(saved_start).to_document() == \
        playalong.playable(start).to_document()


@pytest.mark.parametrize("game", GAMES)
def test_bad_input_is_one_line_and_the_session_goes_on(game: str) -> None:
    case = case_of(game)
    legal = first_legal(case)
    output = play(case, f"fly to the moon\nhint zero\nsave\nredo\nundo\n{legal}\n")
    lines = output.splitlines()
    bad = [line for line in lines if "fly to the moon" in line]
    assert len(bad) == 1 and "closest legal" in bad[0]
    assert any(line.startswith("bad input: hint: expected a number") for line in lines)
    assert any(line.startswith("bad input: save: expected") for line in lines)
    assert "nothing to redo" in output and "nothing to undo" in output
    assert re.search(r"^1\. .*: ", output, re.M)  # the legal step after them was taken


@pytest.mark.parametrize("game", GAMES)
def test_moves_lists_the_canonical_spellings_each_of_which_parses(game: str) -> None:
    case = case_of(game)
    session = Session.open(catalog.open_document(case.start))
    listed = session.handle("moves").text.splitlines()
    spelled = session.spellings()
    assert listed[0].startswith(f"{len(spelled)} legal ")
    assert [line.strip() for line in listed[1:]][:len(spelled)] == spelled[:200]
    position = session.position
    for text in spelled[:30]:
        assert position.format(position.parse(text)) == text
    word = spelled[0].split(" ")[0]
    some = session.handle(f"moves {word}").text
    assert all(line.strip().lower().startswith(word.lower()) for line in some.splitlines()[1:])
    assert session.completions(spelled[0][:3]) and \
        all(c.lower().startswith(spelled[0][:3].lower()) for c in session.completions(
            spelled[0][:3]))


def test_the_end_of_the_input_ends_the_session_and_quit_stops_reading() -> None:
    case = CASES["tea-party"]
    ended = play(case, "moves\n")
    assert ended.count("8 legal moves") == 1
    quitted = play(case, "quit\nmoves\n")
    assert "legal moves" not in quitted


# -- saving ---------------------------------------------------------------------------------


def test_save_keeps_other_files_and_writes_records_by_name_or_flag(tmp_path: Path) -> None:
    session = Session.open(catalog.open_document("tea-party:default"))
    session.handle("cup")
    other = tmp_path / "other.toml"
    other.write_text("keep me")
    refused = session.handle(f"save {other}").text
    assert "exists already" in refused and other.read_text() == "keep me"
    assert "saved the position" in session.handle(f"save --force {other}").text
    mine = tmp_path / "mine.json"
    session.handle(f"save {mine}")
    assert json.loads(mine.read_text())["game"] == "tea-party"
    session.handle("undo")
    assert "saved the position" in session.handle(f"save {mine}").text  # this session's file
    as_record = tmp_path / "plain.toml"
    assert "saved the record of 0 steps" in session.handle(f"save --record {as_record}").text
    assert 'kind = "record"' in as_record.read_text()
    wrong = session.handle(f"save {tmp_path / 'x.txt'}").text
    assert wrong.startswith("bad input: save: expected a file name ending in .toml or .json")
    spaced = tmp_path / "my game.toml"
    assert "saved the position" in session.handle(f"save '{spaced}'").text and spaced.exists()
    assert "No closing quotation" in session.handle("save 'open.toml").text


# -- undo, redo and bots --------------------------------------------------------------------


def test_undo_takes_back_the_users_move_with_the_bots_reply(tmp_path: Path) -> None:
    session = Session.new_game("tea-party", 2, ["Green=random"], seed=4, auto_chance=True)
    assert session.position.actor() == "Blue" and session.opening  # the first draw was made
    before = session.position.to_document()
    reply = session.handle(session.spellings()[0]).text
    assert re.search(r"Green: .*\(random bot\)", reply)
    assert session.position.actor() == "Blue"
    after = session.position.to_document()
    session.handle("undo")
    assert session.position.to_document() == before
    session.handle("redo")
    assert session.position.to_document() == after
    assert "nothing to redo" in session.handle("redo").text


def test_a_game_against_the_random_bot_ends_and_its_record_replays(tmp_path: Path) -> None:
    session = Session.new_game("tea-party", 2, ["2=random"], seed=2, auto_chance=True)
    turns = 0
    while not session.position.is_over():
        session.handle(session.spellings()[-1])
        turns += 1
        assert turns < 200
    assert session.status().startswith("the game is over: ")
    session.handle(f"save {tmp_path / 'g.record.toml'}")
    record = playalong.load_record(base.read(str(tmp_path / "g.record.toml")))
    assert [s.comment for s in record.steps].count("random bot") >= 1
    position, _ = playalong.position_after(base.read(str(tmp_path / "g.record.toml")), None)
    assert position.is_over()


def test_a_game_against_the_hint_bot_progresses(tmp_path: Path) -> None:
    output = run("play", "party-time", "--players", "3", "--bot", "Ben=hint", "--bot",
                 "cat=greedy", "--auto-chance", "--seed", "3", input="").output
    assert "bots: Ben plays hint, Cat plays greedy" in output
    session = Session.new_game("party-time", 3, ["Ben=hint", "3=greedy"], seed=3,
                               auto_chance=True)
    for _ in range(3):
        if session.position.is_over():
            break
        assert session.position.actor() == "Ann"
        session.handle(session.spellings()[0])
    comments = [t.entry.comment for t in session.taken]
    assert "hint bot" in comments and "greedy bot" in comments


def test_bots_alone_play_the_whole_game() -> None:
    output = run("play", "party-time", "--players", "2", "--bot", "Ann=random", "--bot",
                 "Ben=greedy", "--auto-chance", "--seed", "1", input="").output
    assert "the game is over: " in output and "(greedy bot)" in output


@pytest.mark.parametrize("args, expected", [
    (("pool-party-stars:default", "--bot", "Ben=random"), "bots play from a full game"),
    (("tea-party", "--bot", "Red=random"), "expected a player (Blue, Green)"),
    (("tea-party", "--bot", "Blue=clever"), "expected a policy of tea-party"),
    (("tea-party", "--bot", "Blue"), "expected NAME=POLICY"),
    (("tea-party", "--players", "9"), "tea-party takes 2 to 4 players, not 9"),
    (("tea-party:default", "--players", "3"), "--players: only for a new game"),
    (("tea-party:default", "--playouts", "3"), "--playouts does not apply to tea-party hint"),
    (("-",), "play reads its commands from standard input"),
])
def test_a_bad_session_is_one_line_before_it_begins(args: tuple[str, ...],
                                                     expected: str) -> None:
    result = run("play", *args, input="", expect=2)
    assert expected in result.output and result.output.count("\n") == 1


def test_a_record_goes_on_from_its_last_step_and_undo_reaches_into_it(tmp_path: Path) -> None:
    record = tmp_path / "r.record.toml"
    run("apply", "pool-party-stars:default", "guess ben robot", "right", "--record",
        str(record))
    session = Session.open(base.read(str(record)))
    assert len(session.taken) == 2 and session.position.awaits_chance()
    assert "from a record of 2 steps" in session.intro()
    assert "took back: right" in session.handle("undo").text
    assert "took back: guess Ben Robot" in session.handle("undo").text
    assert "nothing to undo" in session.handle("undo").text


def test_a_new_game_draws_chance_when_asked() -> None:
    session = Session.new_game("tea-party", 2, seed=5)
    assert session.position.awaits_chance()
    assert "random draws chance outcomes" not in session.handle("random").text
    assert session.taken[-1].entry.comment == "drawn at random"
    assert "random draws chance outcomes" in session.handle("random").text


# -- through a pseudo-terminal, every game --------------------------------------------------


def completed(case: Case, move: str) -> tuple[str, str]:
    """What to type before Tab (a start of ``move`` that Tab lengthens: readline puts in the
    longest start the legal moves beginning so share) and what to type after it."""
    session = Session.open(catalog.open_document(case.start))
    for end in range(1, len(move)):
        typed = move[:end]
        shared = os.path.commonprefix(session.completions(typed))  # moves and commands
        if len(shared) > len(typed):
            return typed, move[len(shared):]
    raise AssertionError(f"Tab completes no start of {move!r}")


def spawn(*args: str) -> Any:
    pexpect = pytest.importorskip("pexpect")
    command = Path(sys.executable).parent / "partysolver"
    env = dict(os.environ, COLUMNS="200", TERM="dumb")
    return pexpect.spawn(str(command), list(args), env=env, encoding="utf-8", timeout=120,
                         dimensions=(50, 200))


@pytest.mark.parametrize("game", GAMES)
def test_a_terminal_session_prompts_completes_hints_undoes_and_saves(game: str,
                                                                      tmp_path: Path) -> None:
    case = case_of(game)
    child = spawn("play", case.start, "--seed", "1", *case.hint)
    prompt = re.compile(r"(\d+\. [^\n]*|game over)> ")
    child.expect(prompt)
    child.sendline("hint 1")
    child.expect(r"to enter: 1\. ([^\r\n]+)\r?\n")
    move = child.match.group(1).strip()
    child.expect(prompt)
    typed, rest = completed(case, move)
    child.send(typed + "\t")  # Tab lengthens what was typed
    child.sendline(rest)
    child.expect(re.escape(f": {move}"))
    child.expect(prompt)
    child.sendline("undo")
    child.expect("took back: ")
    child.expect(prompt)
    saved = tmp_path / "start.toml"
    child.sendline(f"save {saved}")
    child.expect("saved the position")
    child.expect(prompt)
    child.sendline("quit")
    child.expect(pytest.importorskip("pexpect").EOF)
    child.close()
    assert child.exitstatus == 0
    start = catalog.open_document(case.start)
    assert playalong.playable(base.read(str(saved))).to_document() == \
        playalong.playable(start).to_document()


# -- simulate --records, every game ---------------------------------------------------------

REVIEW = {  # hint options that keep a review of a whole game quick
    "tea-party": {"time_limit": 0.05},
    "meeple-land": {},
    "meeple-party": {"max_nodes": 200},
    "party-time": {"playouts": 10},
    "pool-party-stars": {},
}


@pytest.mark.parametrize("game", GAMES)
def test_simulate_writes_records_that_review_accepts(game: str, tmp_path: Path) -> None:
    folder = tmp_path / "records"
    args = ("simulate", game, "--games", "2", "--policy", "random", "--players", "2",
            "--seed", "3", "--json")
    plain = json.loads(run(*args).stdout)
    written = json.loads(run(*args, "--records", str(folder)).stdout)
    assert written.pop("records") == {"folder": str(folder), "files": [
        "game-001.record.toml", "game-002.record.toml"]}
    assert written == plain  # the same games and figures
    files = sorted(folder.iterdir())
    assert [f.name for f in files] == ["game-001.record.toml", "game-002.record.toml"]
    assert files[0].read_text().startswith(f"# partysolver simulate {game}: game 1 of 2")
    doc = base.read(str(files[0]))
    record = playalong.load_record(doc)
    position, _ = playalong.position_after(doc, None)
    assert position.is_over() and record.steps
    commands = base.commands(game, "hint")
    first = commands.seat_names(_state(doc))[0]
    review = playalong.review(doc, [first], {"seed": 1, **REVIEW.get(game, {})}, commands.review)
    assert review.data["decisions"] and list(review.data["players"]) == [first]
    again = run(*args, "--records", str(folder), expect=2)
    assert "game-001.record.toml exists" in again.output


def _state(doc: base.Document) -> object:
    record = playalong.load_record(doc)
    return playalong.playable(playalong.start_document(record, doc.source)).state


def test_records_need_a_folder_before_any_game(tmp_path: Path) -> None:
    afile = tmp_path / "file"
    afile.write_text("")
    result = run("simulate", "tea-party", "--games", "1", "--records", str(afile), expect=2)
    assert "--records: expected a folder" in result.output
    missing = tmp_path / "no" / "such"
    result = run("simulate", "tea-party", "--games", "1", "--records", str(missing), expect=2)
    assert "a folder in an existing folder" in result.output and not missing.parent.exists()


def test_records_come_back_from_worker_processes_and_from_a_resumed_journal(
        tmp_path: Path) -> None:
    args = ("simulate", "tea-party", "--games", "2", "--policy", "random", "--seed", "5")
    here, there = tmp_path / "here", tmp_path / "there"
    run(*args, "--records", str(here))
    run(*args, "--records", str(there), "--workers", "2")
    names = ["game-001.record.toml", "game-002.record.toml"]
    assert sorted(p.name for p in there.iterdir()) == names
    for name in names:
        assert (here / name).read_text() == (there / name).read_text()
    journal, resumed = tmp_path / "run.jsonl", tmp_path / "resumed"
    run(*args, "--records", str(resumed), "--out", str(journal))
    kept = {name: (resumed / name).read_text() for name in names}
    for name in names:
        (resumed / name).unlink()
    run(*args, "--records", str(resumed), "--out", str(journal), "--resume")
    assert {name: (resumed / name).read_text() for name in names} == kept == {
        name: (here / name).read_text() for name in names}

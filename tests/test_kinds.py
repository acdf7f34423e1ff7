"""The game contract the front ends read (``app/kinds.py``): the kinds of document a game
reads with their verbs, sensible defaults for a game that declares little, and a puzzle's
answer kept back from what a front end shows."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from partysolver.app.base import Document, GameCommands, all_commands, module_name
from partysolver.app.kinds import DOCUMENT_VERBS, DocumentKind, conceal, default_kinds
from partysolver.cli.main import cli
from partysolver.models.documents import parse_document
from partysolver.models.registry import game_keys

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "partysolver"


class Bare(GameCommands):
    """A game's commands that declare nothing but their verbs (as a plugin might)."""

    verbs = frozenset({"hint", "verify", "simulate", "render"})


def test_a_game_that_declares_no_kinds_reads_a_position_and_a_record() -> None:
    bare = Bare()
    kinds = {kind.name: kind for kind in bare.document_kinds()}
    assert set(kinds) == {"position", "record"}
    assert kinds["position"].verbs == ("hint", "verify", "render", "apply", "play")
    assert kinds["record"].verbs == ("hint", "verify", "render", "apply", "play", "review")
    assert bare.kind(Document({"game": "x"}, "x.toml", "x")).name == "position"
    assert bare.kind(Document({"game": "x", "kind": "record"}, "r.toml", "x")).name == "record"
    assert bare.shipped_names() == {} and bare.warm_up == {} and bare.figures.shown == ()
    assert default_kinds(["solve", "simulate"])[0].verbs == ("solve", "apply", "play")


def test_every_game_declares_a_kind_for_each_document_it_reads() -> None:
    """Each game's kinds hold every name its kind_of gives for its shipped documents, and
    only verbs the game offers."""
    from partysolver.app import catalog

    for key, commands in all_commands().items():
        names = {kind.name for kind in commands.document_kinds()}
        assert len(names) == len(commands.document_kinds()), key
        for kind in commands.document_kinds():
            assert set(kind.verbs) <= set(DOCUMENT_VERBS), (key, kind.name)
            assert set(kind.verbs) - {"apply", "play", "review", "check"} <= \
                set(commands.verbs), (key, kind.name)
            assert (kind.puzzle is not None) == ("check" in kind.verbs), (key, kind.name)
        for item in catalog.shipped(key):
            assert commands.kind_of(item.document()) in names, (key, item.name)


CAFE = '''# Corner cafe: a puzzle.
# Answer: proven optimum 8 (111 optimal layouts).
game = "meeple-land"
kind = "puzzle"
pool = ["M07", "S06"]
answer = { status = "optimal", objective = 8, layouts = 111 }
solution = [
    "M07 at 0,2",  # [the first]
    "S06 at 1,1",
]
budget = 12

[plot]
width = 3

[notes]
text = "kept back"

[notes.more]
text = "kept back too"

[[tile]]
id = "CAFE"
'''

PUZZLE = DocumentKind("puzzle", ("solve", "check"), puzzle="layout",
                      secret=("answer", "solution", "notes"))


def test_conceal_cuts_the_answer_out_and_keeps_the_rest_as_written() -> None:
    data = parse_document(CAFE, "cafe.toml")
    kept, text = conceal(PUZZLE, data, CAFE, "cafe.toml")
    assert kept == {k: v for k, v in data.items() if k not in PUZZLE.secret}
    assert parse_document(text, "shown.toml") == kept
    assert text.startswith("# Corner cafe: a puzzle.\ngame = ")  # the description, as written
    assert "Answer" not in text and "111" not in text and "kept back" not in text
    assert "M07 at" not in text and "budget = 12\n" in text
    assert "[plot]\nwidth = 3\n" in text and "[[tile]]" in text


def test_conceal_writes_json_and_odd_text_afresh_without_the_answer() -> None:
    data = parse_document(CAFE, "cafe.toml")
    as_json = json.dumps(data)
    kept, text = conceal(PUZZLE, data, as_json, "cafe.json")
    assert json.loads(text) == kept and "answer" not in text
    odd = CAFE.replace('answer = {', '"answer" = {')  # a quoted key: cut afresh
    kept, text = conceal(PUZZLE, parse_document(odd, "odd.toml"), odd, "odd.toml")
    assert "answer" not in text.lower() and parse_document(text, "shown.toml") == kept
    assert "[plot]" in text and "kept back" not in text
    assert text.startswith("# Corner cafe: a puzzle.\n")
    _, written = conceal(PUZZLE, data, None, "cafe.toml")
    assert parse_document(written, "shown.toml") == kept


def test_a_kind_without_secrets_keeps_its_data_and_drops_only_answer_lines() -> None:
    position = DocumentKind("position", ("hint",))
    data = parse_document(CAFE, "cafe.toml")
    kept, text = conceal(position, data, CAFE, "cafe.toml")
    assert kept == data and text == CAFE.replace(
        "# Answer: proven optimum 8 (111 optimal layouts).\n", "")


# -- the front ends name no game ------------------------------------------------------------


def front_end_sources() -> list[Path]:
    """The front ends (cli/, web/: Python, JavaScript, CSS) and the shared modules of app/
    (every module there but a game's own: its commands, ``tea_party.py``, and the modules
    named after them, ``meeple_party_deals.py``)."""
    own = tuple(module_name(key).rsplit(".", 1)[-1] for key in game_keys())
    found = [path for folder in ("cli", "web") for path in (PACKAGE / folder).rglob("*")
             if path.suffix in (".py", ".js", ".css", ".html")]
    found += [path for path in (PACKAGE / "app").glob("*.py")
              if not (path.stem in own or path.stem.startswith(tuple(o + "_" for o in own)))]
    return sorted(found)


@pytest.mark.parametrize("key", sorted(game_keys()))
def test_no_front_end_names_a_game(key: str) -> None:
    """No game's key (``tea-party``, or ``tea_party`` as a module) in the front ends nor in
    the shared parts of the application layer: what differs per game comes from the contract
    each game declares (the issue's own search: the key with any separator)."""
    pattern = re.compile(re.escape(key).replace(r"\-", "."))
    named = [f"{path.relative_to(ROOT)}:{number}" for path in front_end_sources()
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if pattern.search(line)]
    assert named == []


def test_the_board_branches_on_no_game() -> None:
    script = (PACKAGE / "web" / "static" / "board.js").read_text(encoding="utf-8")
    assert not re.search(r"G\.game\s*(===|!==|==|!=)|\.includes\(G\.game\)|G\.game\]", script)


def test_the_cli_example_keeps_a_puzzles_answer_back_unless_revealed() -> None:
    for as_json in ((), ("--json",)):
        hidden = CliRunner().invoke(cli, ["example", "meeple-land", "puzzle", *as_json])
        shown = CliRunner().invoke(cli, ["example", "meeple-land", "puzzle", "--reveal",
                                         *as_json])
        assert hidden.exit_code == 0 and shown.exit_code == 0
        assert "answer" not in hidden.output and "layouts" not in hidden.output
        assert "answer" in shown.output and "layouts" in shown.output

"""The shipped positions (examples, puzzles, scenarios and positions of each game, in
:mod:`partysolver.puzzles`): finding one by name (``GAME:NAME``), its text (a puzzle's
answer lines kept back unless revealed) and its document.  Below the reports of
:mod:`.catalog` and the records of :mod:`.records`, which both read them.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib.resources.abc import Traversable
from pathlib import Path

from .. import puzzles
from ..models.errors import InputError
from ..models.registry import is_game
from .inputs import BadRequest, Document, parse, read
from .kinds import SECRET

SETS = ("examples", "puzzles", "scenarios", "positions")
"""The folders of shipped positions, in the order names are looked up."""


@dataclass(frozen=True)
class Shipped:
    """A shipped position file: its game, set, name and where it lies."""

    game: str
    set: str
    name: str
    path: Traversable

    @property
    def qualified(self) -> str:
        return f"{self.set}/{self.name}"

    def text(self, reveal: bool = False) -> str:
        """The file's text; a puzzle's answer lines are left out unless ``reveal``."""
        text = self.path.read_text(encoding="utf-8")
        if reveal or self.set == "examples" and not _has_secret(text):
            return text
        return "".join(line for line in text.splitlines(keepends=True)
                       if not SECRET.match(line))

    def description(self) -> str:
        return puzzles.description(self.text())

    def document(self) -> Document:
        return parse(self.text(reveal=True), f"{self.game}:{self.qualified}")


def _has_secret(text: str) -> bool:
    return any(SECRET.match(line) for line in text.splitlines())


def shipped(game: str) -> list[Shipped]:
    """Every shipped position of ``game``, set by set, in name order."""
    found = []
    for folder in SETS:
        for name, path in puzzles.files(game, folder).items():
            found.append(Shipped(game, folder, name, path))
    return found


def find(game: str, name: str) -> Shipped:
    """The shipped position ``name`` (or ``set/name``) of ``game``."""
    items = shipped(game)
    if not items:
        raise BadRequest(f"{game} ships no examples yet")
    exact = [item for item in items if name in (item.name, item.qualified)]
    if len(exact) == 1:
        return exact[0]
    if len(exact) > 1:
        choices = ", ".join(item.qualified for item in exact)
        raise InputError(game, None, f"one of {choices}", name, reason=(
            f"{name!r} names several shipped files ({choices}); give one of these"))
    close = [item.name for item in items if item.name.startswith(name)]
    hint = f"; did you mean {', '.join(close[:3])}?" if close else ""
    raise InputError(None, None, f"the name of a shipped {game} example or puzzle", name,
                     reason=f"{game} has no shipped example or puzzle {name!r}{hint} "
                            f"(partysolver example {game} --list lists them)")


def default_example(game: str) -> Shipped:
    items = [item for item in shipped(game) if item.set == "examples"] or shipped(game)
    if not items:
        raise BadRequest(f"{game} ships no examples yet")
    named = [item for item in items if item.name == "default"]
    return (named or items)[0]


def open_document(name: str) -> Document:
    """The document in the file ``name`` or, when no such file exists, the shipped position
    ``GAME:NAME`` (``GAME:midgame``, or ``GAME:puzzles/08-impossible-promise`` by its set)."""
    if name != "-" and not Path(name).exists() and (item := reference(name)) is not None:
        return item.document()
    return read(name)


def reference(text: str) -> Shipped | None:
    """``GAME:NAME`` (a shipped position) as a :class:`Shipped`, else ``None``."""
    game, colon, name = text.partition(":")
    if not colon or not is_game(game) or not name:
        return None
    return find(game, name)

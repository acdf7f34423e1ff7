"""What a request brings to the application layer: a document (a parsed input file, the
game it names checked) and, when the request cannot be served as asked, the refusal
(:class:`BadRequest`).  It imports no other module of the application layer, so that every
one of them may import it (:mod:`.base` gives the same names too).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..models.errors import InputError
from ..models.registry import game_keys, is_game


class BadRequest(InputError):
    """A request the app cannot serve as asked, said in free words (a verb a game does not
    offer): an :class:`InputError` whose ``reason`` is the whole line, as the command line
    prints it (exit code 2) and the web answers it (400).  Bad input with a field and an
    expectation is an :class:`InputError` itself."""

    def __init__(self, reason: str, field: str | None = None, *, option: bool = False) -> None:
        super().__init__(None, field, None, reason=reason, option=option, refusal=True)


# -- documents ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Document:
    """A parsed input file: its content, where it came from, and the game it names."""

    data: Mapping[str, Any]
    source: str
    game: str


def document(data: Mapping[str, Any], source: str) -> Document:
    """``data`` as a :class:`Document`, once its ``game`` names a registered game."""
    game = data.get("game")
    if isinstance(game, str) and is_game(game):  # no plugin looked up for partysolver's own
        return Document(data, source, game)
    games = ", ".join(game_keys())
    if not isinstance(game, str):
        raise InputError(source, "game", f"the name of a game ({games})", game)
    raise InputError(source, "game", f"one of {games}", game)


def read(path: str) -> Document:
    """The document in the TOML or JSON file ``path`` (``-``: standard input)."""
    from ..models.documents import read_document  # TOML, JSON: not for --help (start-up)

    data, source = read_document(path)
    return document(data, source)


def parse(text: str, source: str) -> Document:
    """The document in ``text`` (TOML, or JSON when it starts with ``{``)."""
    from ..models.documents import parse_document

    return document(parse_document(text, source), source)

"""The shipped house data (houses, card decks, clocks) by name, and loading users' own files.

Shipped files live in ``partysolver/puzzles/meeple-party/{houses,cards,clocks}/``.  A position
file names one (``house = "easy"``), points at a file of the user's (``house = "my-house.toml"``,
relative to the position file), or gives the table inline (``[house]``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from ... import puzzles
from ..documents import Fields, parse_document, read_document
from ..errors import InputError
from .cards import Cards, load_cards
from .house import House, load_house
from .setup import Clock, load_clock

GAME_KEY = "meeple-party"
KINDS = {"house": "houses", "cards": "cards", "clock": "clocks"}
T = TypeVar("T")


def shipped(kind: str) -> dict[str, Any]:
    """Shipped files of a kind (``house``, ``cards``, ``clock``) by name."""
    return puzzles.files(GAME_KEY, KINDS[kind])


@cache
def _load_shipped(kind: str, name: str) -> Any:
    item = shipped(kind)[name]
    source = f"{KINDS[kind]}/{name}.toml"
    document = parse_document(item.read_text(encoding="utf-8"), source)
    return LOADERS[kind](Fields(document, source))


def house(name: str) -> House:
    return _load_shipped("house", name)


def cards(name: str = "house") -> Cards:
    return _load_shipped("cards", name)


def clock(name: str = "house") -> Clock:
    return _load_shipped("clock", name)


LOADERS: dict[str, Callable[[Fields], Any]] = {"house": load_house, "cards": load_cards,
                                                "clock": load_clock}


def resolve(fields: Fields, key: str, default: str) -> tuple[Any, str | None]:
    """The house, cards or clock a position names: (the object, the shipped name or ``None``).

    A string is a shipped name, or a ``.toml``/``.json`` file relative to the position file; a
    table is the data itself."""
    value = fields.raw(key, default)
    loader = LOADERS[key]
    if isinstance(value, dict):
        return loader(fields.table(key)), None
    if not isinstance(value, str):
        raise fields.error(key, f"the name of a shipped {key} ({', '.join(shipped(key))}), "
                           "a file name, or a table", value)
    if value in shipped(key):
        return _load_shipped(key, value), value
    if value.endswith((".toml", ".json")):
        base = Path(fields.source).parent if fields.source not in ("-", "<stdin>") else Path()
        path = base / value
        document, source = read_document(path, (fields.source, fields.field(key), f"{key} file"))
        return loader(Fields(document, source)), None
    raise fields.error(key, f"a shipped {key} ({', '.join(shipped(key))}) or a .toml/.json "
                       "file", value)


def house_option(value: str, option: str = "--house") -> House | str:
    """The house a command-line option names: a shipped name (returned as is) or a house file;
    anything else is an :class:`InputError` naming the option and listing the houses."""
    if value in shipped("house"):
        return value
    if not value.endswith((".toml", ".json")):
        raise InputError(option, None, f"a shipped house ({', '.join(shipped('house'))}) or a "
                         ".toml/.json house file", value)
    document, source = read_document(value, (option, None, "house file"))
    return load_house(Fields(document, source))

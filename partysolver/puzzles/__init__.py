"""Shipped instance files (examples, puzzles, benchmark sets), one folder per game key.

``<game-key>/examples/<name>.toml`` are the files ``partysolver example`` prints; a file's
leading ``#`` comment lines are its description.  Other folders hold puzzle and benchmark sets.
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable


def folder(game: str, *parts: str) -> Traversable:
    """The shipped folder ``<game>/<parts...>`` (it may not exist).  A game another installed
    package registers (a plugin, ``partysolver.models.registry``) ships its files in its own
    module's ``puzzles/`` folder instead."""
    from ..models.registry import broken_game, is_plugin, package_of

    if is_plugin(game) and broken_game(game) is None:
        place = resources.files(package_of(game)).joinpath("puzzles")
    else:
        place = resources.files(__name__).joinpath(game)
    for part in parts:
        place = place.joinpath(part)
    return place


def files(game: str, *parts: str, suffix: str = ".toml") -> dict[str, Traversable]:
    """The shipped files of a folder by name (without the suffix), in name order."""
    place = folder(game, *parts)
    if not place.is_dir():
        return {}
    found = {item.name[: -len(suffix)]: item for item in place.iterdir()
             if item.is_file() and item.name.endswith(suffix)}
    return dict(sorted(found.items()))


def examples(game: str) -> dict[str, Traversable]:
    return files(game, "examples")


def description(text: str) -> str:
    """The leading ``#`` comment lines of a file, joined."""
    lines = []
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        lines.append(line.lstrip("#").strip())
    return " ".join(line for line in lines if line)

"""The registry of games.

Every subpackage of ``partysolver.models`` that exports a ``GAME`` object (following
:class:`~partysolver.models.protocol.Game`) is a registered game, under the package's name
with dashes (``tea_party``: ``tea-party``); adding a game is adding a subpackage (see
``docs/adding-a-game.md``).  :func:`game_keys` lists the keys without importing any game (a
command that reads one game's file loads only that game); :func:`all_games` imports each
package, whose ``__init__`` loads only ``game.py`` (the rest loads on first use).
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .protocol import Game


def package_of(key: str) -> str:
    """The module of the game ``key`` (``tea-party``: ``partysolver.models.tea_party``)."""
    return f"{__package__}.{key.replace('-', '_')}"


@cache
def game_keys() -> tuple[str, ...]:
    """Every registered game's key, in key order, without importing a game (the conformance
    test checks that these are the keys of :func:`all_games`)."""
    from .. import models

    return tuple(sorted(module.name.replace("_", "-")
                        for module in pkgutil.iter_modules(models.__path__) if module.ispkg))


@cache
def all_games() -> dict[str, Game]:
    """Every registered game by key, in key order."""
    found: dict[str, Game] = {}
    for key in game_keys():
        package = importlib.import_module(package_of(key))
        game = getattr(package, "GAME", None)
        if game is not None:
            found[game.info.key] = game
    return dict(sorted(found.items()))


def get_game(key: str) -> Game:
    """The game registered under ``key``; ``KeyError`` names the known keys."""
    games = all_games()
    if key not in games:
        raise KeyError(f"unknown game {key!r}; known games: {', '.join(games)}")
    return games[key]

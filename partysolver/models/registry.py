"""The registry of games.

Every subpackage of ``partysolver.models`` that exports a ``GAME`` object (following
:class:`~partysolver.models.protocol.Game`) is a registered game; adding a game is adding a
subpackage (see ``docs/adding-a-game.md``).
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from .protocol import Game


@cache
def all_games() -> dict[str, Game]:
    """Every registered game by key, in key order."""
    from .. import models

    found: dict[str, Game] = {}
    for module in pkgutil.iter_modules(models.__path__):
        if not module.ispkg:
            continue
        package = importlib.import_module(f"{models.__name__}.{module.name}")
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

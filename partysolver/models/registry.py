"""The registry of games.

A game is registered in one of two ways, and found the same way afterwards:

- **in this package**: every subpackage of ``partysolver.models`` that exports a ``GAME``
  object (following :class:`~partysolver.models.protocol.Game`), under the package's name with
  dashes (``tea_party``: ``tea-party``);
- **by another installed package** (a plugin, as pytest finds its plugins): an entry point in
  the group :data:`GROUP` whose name is the game's key and whose value is a module (no
  ``:attribute``) exporting ``GAME`` and ``COMMANDS`` (the app layer's commands; the module may
  load them on first use, see ``partysolver.models.lazy``).  ``examples/pig`` is one::

      [project.entry-points."partysolver.games"]
      pig = "partysolver_pig"

  Its shipped positions are in the module's ``puzzles/`` folder (``puzzles/examples/*.toml``),
  as this package's own are in ``partysolver/puzzles/<key>/``.

:func:`game_keys` lists the keys without importing any game (it reads the installed packages'
metadata, not their code), so a command that reads one game's file loads only that game;
:func:`all_games` imports each game's module, whose ``__init__`` loads only what the game is
(``game.py``; the rest loads on first use).  A plugin that cannot be loaded (its module fails
to import, exports no ``GAME``, or names a key its entry point does not) takes no other game
down: it is left out of :func:`all_games` and named with its error by :func:`broken_games`
(so is an entry point refused: one naming an attribute, a key partysolver has, or a key
another plugin claims).
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .protocol import Game

GROUP = "partysolver.games"
"""The entry-point group through which other installed packages register games."""


@cache
def plugins() -> dict[str, str]:
    """The games other installed packages register, as key -> module, in key order.  A key
    this package already has, or a key two plugins claim, is not registered (see
    :func:`broken_games`)."""
    return dict(_plugin_entries()[0])


@cache
def _plugin_entries() -> tuple[dict[str, str], dict[str, str]]:
    """The usable plugin entries (key -> module) and the refused ones (what they are -> why):
    an entry naming an attribute, a key this package has, or a key another plugin claims."""
    from importlib.metadata import entry_points  # not for --help (start-up)

    own = set(_own_keys())
    found: dict[str, str] = {}
    refused: dict[str, str] = {}
    for entry in entry_points(group=GROUP):
        key, named = entry.name, f"the entry point {entry.name} = {entry.value!r}"
        if key in own:
            refused[f"{key} ({entry.value})"] = f"{named} names a game partysolver already has"
        elif entry.attr:
            refused[key] = f"{named} must name a module (exporting GAME and COMMANDS)"
        elif key in found and found[key] != entry.module:
            refused[key] = f"two installed packages register {key} ({found.pop(key)!r} and " \
                           f"{entry.module!r})"
        elif key not in refused:
            found[key] = entry.module
    return dict(sorted(found.items())), refused


def _own_keys() -> list[str]:
    from .. import models

    return [module.name.replace("_", "-")
            for module in pkgutil.iter_modules(models.__path__) if module.ispkg]


def is_plugin(key: str) -> bool:
    """Whether the game ``key`` comes from another installed package."""
    return key in plugins()


def package_of(key: str) -> str:
    """The module of the game ``key``: ``partysolver.models.tea_party`` for ``tea-party``, the
    entry point's module for a plugin (``partysolver_pig`` for ``pig``)."""
    return plugins().get(key) or f"{__package__}.{key.replace('-', '_')}"


@cache
def game_keys() -> tuple[str, ...]:
    """Every registered game's key, in key order, without importing a game (the conformance
    test checks that these are the keys of :func:`all_games` when nothing is broken)."""
    return tuple(sorted({*_own_keys(), *plugins()}))


@cache
def _load() -> tuple[dict[str, Game], dict[str, str]]:
    found: dict[str, Game] = {}
    broken = dict(_plugin_entries()[1])
    for key in game_keys():
        module = package_of(key)
        if not is_plugin(key):
            game = getattr(importlib.import_module(module), "GAME", None)
            if game is not None:
                found[game.info.key] = game
            continue
        try:  # a broken plugin must not take the other games down
            game = getattr(importlib.import_module(module), "GAME", None)
            if game is None:
                raise LookupError("it exports no GAME")
            if game.info.key != key:
                raise LookupError(f"its GAME is {game.info.key!r}, but its entry point "
                                  f"registers it as {key!r}")
        except Exception as error:
            broken[key] = f"registered by {module}, which failed to load " \
                          f"({type(error).__name__}: {error})"
            continue
        found[key] = game
    return dict(sorted(found.items())), broken


def all_games() -> dict[str, Game]:
    """Every registered game that loads, by key, in key order."""
    return _load()[0]


def broken_games() -> dict[str, str]:
    """The plugins that are registered but cannot be loaded, and the entry points refused, each
    with what went wrong in words (a bug of the package that registers them)."""
    return _load()[1]


def get_game(key: str) -> Game:
    """The game registered under ``key``; ``KeyError`` names the known keys (and why a
    registered game that cannot be loaded is missing)."""
    games = all_games()
    if key not in games:
        why = f" ({broken_games()[key]})" if key in broken_games() else ""
        raise KeyError(f"unknown game {key!r}{why}; known games: {', '.join(games)}")
    return games[key]

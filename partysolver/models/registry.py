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
metadata, not their code; :func:`is_game` and :func:`is_plugin` answer for this package's own
keys without reading even that), and :func:`get_game` imports only the game asked for, so a
command that reads one game's file loads only that game; :func:`all_games` imports each game's
module, whose ``__init__`` loads only what the game is
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


@cache
def _own_keys() -> tuple[str, ...]:
    from .. import models

    return tuple(module.name.replace("_", "-")
                 for module in pkgutil.iter_modules(models.__path__) if module.ispkg)


def is_plugin(key: str) -> bool:
    """Whether the game ``key`` comes from another installed package (a key this package has
    is never one: the installed packages' entry points are not read for it)."""
    return key not in _own_keys() and key in plugins()


def is_game(key: str) -> bool:
    """Whether ``key`` is a registered game's key: :func:`game_keys` holds it (a key of this
    package's games is answered without reading the installed packages' entry points)."""
    return key in _own_keys() or key in plugins()


def package_of(key: str) -> str:
    """The module of the game ``key``: ``partysolver.models.tea_party`` for ``tea-party``, the
    entry point's module for a plugin (``partysolver_pig`` for ``pig``)."""
    own = f"{__package__}.{key.replace('-', '_')}"
    return own if key in _own_keys() else plugins().get(key) or own


@cache
def game_keys() -> tuple[str, ...]:
    """Every registered game's key, in key order, without importing a game (the conformance
    test checks that these are the keys of :func:`all_games` when nothing is broken)."""
    return tuple(sorted({*_own_keys(), *plugins()}))


@cache
def _one(key: str) -> tuple[Game | None, str | None]:
    """The game ``key`` (a key of :func:`game_keys`), loaded alone, or why it cannot be: its
    module is the only game module imported."""
    module = package_of(key)
    if not is_plugin(key):
        return getattr(importlib.import_module(module), "GAME", None), None
    try:  # a broken plugin must not take the other games down
        game = getattr(importlib.import_module(module), "GAME", None)
        if game is None:
            raise LookupError("it exports no GAME")
        if game.info.key != key:
            raise LookupError(f"its GAME is {game.info.key!r}, but its entry point "
                              f"registers it as {key!r}")
    except Exception as error:
        return None, f"registered by {module}, which failed to load " \
                     f"({type(error).__name__}: {error})"
    return game, None


@cache
def _load() -> tuple[dict[str, Game], dict[str, str]]:
    found: dict[str, Game] = {}
    broken = dict(_plugin_entries()[1])
    for key in game_keys():
        game, why = _one(key)
        if game is not None:
            found[key] = game
        elif why is not None:
            broken[key] = why
    return dict(sorted(found.items())), broken


def clear() -> None:
    """Forget what was found and loaded (a test that installs or breaks a plugin)."""
    for cached in (_plugin_entries, plugins, _own_keys, game_keys, _one, _load):
        cached.cache_clear()


def all_games() -> dict[str, Game]:
    """Every registered game that loads, by key, in key order."""
    return _load()[0]


def broken_games() -> dict[str, str]:
    """The plugins that are registered but cannot be loaded, and the entry points refused, each
    with what went wrong in words (a bug of the package that registers them)."""
    return _load()[1]


def broken_game(key: str) -> str | None:
    """Why the registered game ``key`` cannot be loaded (see :func:`broken_games`), or
    ``None``: it loads (only its own module is imported)."""
    return _one(key)[1] if is_game(key) else None


def get_game(key: str) -> Game:
    """The game registered under ``key`` (only its module is imported); ``KeyError`` names the
    known keys (and why a registered game that cannot be loaded is missing)."""
    game, why = _one(key) if is_game(key) else (None, None)
    if game is None:
        known = ", ".join(all_games())
        raise KeyError(f"unknown game {key!r}{f' ({why})' if why else ''}; known games: "
                       f"{known}")
    return game

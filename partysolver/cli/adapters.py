"""What a game plugs into the command line: one :class:`GameCommands` object per game.

A game's adapter lives in ``partysolver/cli/<game_key_with_underscores>.py`` and exports
``COMMANDS``.  It turns a loaded document and the common options into a :class:`Report` (the
JSON payload and the text for people); everything else (files, options, errors, output) is
done once, in :mod:`partysolver.cli.main`.  A verb a game does not offer is simply absent from
``verbs``; the CLI then says so in one line.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, ClassVar

import click

from ..models.errors import InputError
from ..models.protocol import GameInfo
from ..models.registry import all_games
from .output import problems_json, problems_text

VERBS = ("hint", "solve", "verify", "simulate", "render")


class BadInput(click.ClickException):
    """Bad input: a one-line message on stderr and exit code 2."""

    exit_code = 2

    def format_message(self) -> str:
        return self.message


@dataclass(frozen=True)
class Document:
    """A parsed input file: its content, where it came from, and the game it names."""

    data: Mapping[str, Any]
    source: str
    game: str


@dataclass(frozen=True)
class Options:
    """The common options, and the verb's game-specific ones in ``extra``."""

    json: bool = False
    seed: int | None = None
    time_limit: float | None = None
    top: int | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def rng_seed(self) -> int:
        return 0 if self.seed is None else self.seed

    @property
    def timings(self) -> bool:
        """Whether output may show wall-clock times: not in a seeded run, whose output must be
        identical from run to run."""
        return self.seed is None


@dataclass(frozen=True)
class Report:
    """What a verb produced: ``data`` for ``--json`` (it always names the game) and ``text``."""

    data: dict[str, Any]
    text: str
    exit_code: int = 0


class GameCommands:
    """Base class of the game adapters; a subclass overrides the verbs it offers."""

    info: ClassVar[GameInfo]
    verbs: ClassVar[frozenset[str]] = frozenset()
    options: ClassVar[dict[str, list[click.Option]]] = {}
    """Game-specific options per verb (merged into the verb's command)."""
    policies: ClassVar[tuple[str, ...]] = ()
    """Policy names ``simulate`` accepts."""

    def hint(self, document: Document, options: Options) -> Report:
        raise self.unsupported("hint")

    def solve(self, document: Document, options: Options) -> Report:
        raise self.unsupported("solve")

    def verify(self, document: Document, options: Options) -> Report:
        raise self.unsupported("verify")

    def simulate(self, players: int | None, games: int, policies: tuple[str, ...],
                 options: Options, progress: Any) -> Report:
        raise self.unsupported("simulate")

    def render(self, document: Document, options: Options) -> str:
        raise self.unsupported("render")

    def unsupported(self, verb: str) -> BadInput:
        offered = ", ".join(sorted(self.verbs)) or "none"
        return BadInput(f"{self.info.key} does not support '{verb}' (it supports: {offered})")


def module_name(game: str) -> str:
    return f"{__package__}.{game.replace('-', '_')}"


@cache
def _load_commands() -> tuple[dict[str, GameCommands], dict[str, str]]:
    found, broken = {}, {}
    for key in all_games():
        try:
            found[key] = importlib.import_module(module_name(key)).COMMANDS
        except Exception as error:  # one broken game must not take the others down
            if not (isinstance(error, ModuleNotFoundError) and error.name == module_name(key)):
                broken[key] = f"{type(error).__name__}: {error}"  # else: no commands yet
    return found, broken


def all_commands() -> dict[str, GameCommands]:
    """The adapter of every registered game that has one and loads."""
    return _load_commands()[0]


def broken_commands() -> dict[str, str]:
    """The games whose adapter module failed to load, with the error (a bug to report)."""
    return _load_commands()[1]


def commands_for(game: str) -> GameCommands | None:
    return all_commands().get(game)


def require_valid(problems: list[Any], source: str) -> None:
    """Hint and solve need a legal position: rule problems are bad input."""
    if problems:
        listed = "; ".join(f"{p.field}: {p.message}" if getattr(p, "field", None) else p.message
                           for p in problems)
        raise InputError(source, None, f"a legal position ({listed}); "
                         "run 'partysolver verify' for the full list")


def problems_report(game: str, problems: list[Any], described: Callable[[], str]) -> Report:
    """``verify``'s report of a position: every problem at once (exit 1), or ``valid`` and
    ``described()``, the position in words."""
    data = {"game": game, "valid": not problems, "problems": problems_json(problems)}
    text = problems_text(problems)
    if not problems:
        text += "\n" + described()
    return Report(data, text, exit_code=1 if problems else 0)

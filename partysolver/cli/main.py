"""The ``partysolver`` command line: thin adapters from files and options to models and solvers.

Every verb reads its file through :class:`DocumentFile` (malformed files fail there, exit 2),
hands it to the game's adapter (:mod:`partysolver.cli.adapters`), and prints the adapter's
:class:`Report` as text or, with ``--json``, as JSON on stdout and nothing else there.  Bad input
found later (an unknown field, an impossible position) is an :class:`InputError`, turned into a
one-line message and exit code 2 in one place, :meth:`PartyGroup.invoke`.
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from .. import puzzles
from ..models.documents import format_document, parse_document, read_document
from ..models.errors import InputError
from ..models.registry import all_games
from . import paths
from .adapters import (
    VERBS,
    BadInput,
    Document,
    GameCommands,
    Options,
    Report,
    all_commands,
    broken_commands,
    commands_for,
)
from .params import SECONDS, SEED, TOP, one_line


class PartyGroup(click.Group):
    """The command group; bad input raised anywhere below becomes :class:`BadInput`."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except InputError as error:
            raise BadInput(f"bad input: {error}") from None
        except click.MissingParameter:
            raise  # the usage block helps here: it shows what is missing
        except click.BadParameter as error:
            raise BadInput(f"bad input: {one_line(error)}") from None


class DocumentFile(click.ParamType):
    """A TOML or JSON file naming its game with ``game = "..."``."""

    name = "file"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None
                ) -> Document:
        # Bad files are bad input, reported in one line (not as a usage error with the
        # command's synopsis): the message names the file, the field and the expectation.
        if isinstance(value, Document):
            return value
        try:
            data, source = read_document(value)
        except InputError as error:
            raise BadInput(f"bad input: {error}") from None
        game = data.get("game")
        games = ", ".join(all_games())
        if not isinstance(game, str):
            raise BadInput(f"bad input: {source}: game: expected the name of a game ({games}), "
                           f"got {game!r}")
        if game not in all_games():
            raise BadInput(f"bad input: {source}: game: expected one of {games}, got {game!r}")
        return Document(data, source, game)


class GameName(click.ParamType):
    """A registered game's key; anything else is bad input, reported in one line."""

    name = "game"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None
                ) -> str:
        if value in all_games():
            return str(value)
        raise BadInput(f"bad input: game: expected one of {', '.join(all_games())}, "
                       f"got {value!r}")


GAME = GameName()


# -- options ----------------------------------------------------------------------------------


def output_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--json`` and ``--seed``, which every verb on a file or a game takes."""
    decorators = [
        click.option("--json", "as_json", is_flag=True,
                     help="Machine-readable output on stdout (and nothing else there)."),
        click.option("--seed", type=SEED, default=None,
                     help="Seed every source of chance: same input and seed, same output "
                          "(wall-clock times are then left out)."),
    ]
    for decorator in reversed(decorators):
        func = decorator(func)
    return func


def common_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """The output options, and the search budget and list length of the verbs that search."""
    decorators = [
        click.option("--time-limit", type=SECONDS, default=None,
                     help="Wall-clock budget in seconds (searches report 'unknown' past it)."),
        click.option("--top", type=TOP, default=None,
                     help="Show only the K best moves."),
    ]
    for decorator in reversed(decorators):
        func = decorator(func)
    return output_options(func)


def game_options(verb: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Attach every game's extra options for ``verb``.  Games that declare one name share the
    option; when their defaults differ, the shared option's default is ``None`` and each game
    gets its own default (see :func:`make_options`), which the help lists."""

    def attach(func: Callable[..., Any]) -> Callable[..., Any]:
        declared: dict[str, list[tuple[str, click.Option]]] = {}
        for key, commands in all_commands().items():
            for option in commands.options.get(verb, []):
                declared.setdefault(option.name or "", []).append((key, option))
        params = getattr(func, "__click_params__", [])
        params.extend(_shared_option(found) for found in declared.values())
        func.__click_params__ = params  # type: ignore[attr-defined]
        return func

    return attach


def _shared_option(found: list[tuple[str, click.Option]]) -> click.Option:
    first = found[0][1]
    if len({repr(option.default) for _, option in found}) == 1:
        return first
    help_text = re.sub(r"\s*\(default[^)]*\)\.?$", ".", first.help or "").rstrip(".")
    defaults = "; ".join(f"{key} {'none' if option.default is None else option.default}"
                         for key, option in found)
    return click.Option(first.opts, type=first.type, default=None,
                        help=f"{help_text} (default per game: {defaults}).")


def make_options(verb: str, commands: GameCommands, as_json: bool, seed: int | None,
                 time_limit: float | None, top: int | None, extra: dict[str, Any],
                 always: dict[str, Any] | None = None) -> Options:
    """The options for ``commands``; a game-specific option the game does not take is an
    error, unless it was left at its default, in which case the game's own default applies.
    ``always`` are verb options every game gets."""
    own = {option.name: option for option in commands.options.get(verb, [])}
    ctx = click.get_current_context()
    mine: dict[str, Any] = {}
    for name, value in extra.items():
        source = ctx.get_parameter_source(name)
        given = source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP")
        if name in own:
            mine[name] = value if given else own[name].default
        elif given:
            raise BadInput(f"--{name.replace('_', '-')} does not apply to "
                           f"{commands.info.key} {verb}")
    return Options(as_json, seed, time_limit, top, mine | (always or {}))


def adapter(game: str, verb: str) -> GameCommands:
    if game in broken_commands():
        raise click.ClickException(f"the {game} commands failed to load "
                                   f"({broken_commands()[game]}); this is a bug in partysolver")
    commands = commands_for(game)
    if commands is None or verb not in commands.verbs:
        offered = ", ".join(sorted(commands.verbs)) if commands else "none yet"
        raise BadInput(f"{game} does not support '{verb}' (it supports: {offered})")
    return commands


def json_safe(data: Any, timings: bool = True) -> Any:
    """``data`` with every non-finite number (an unbounded interval's end) as ``null``: JSON
    has no infinity, and a strict parser rejects the ``Infinity`` Python would write.  Without
    ``timings`` (a seeded run, whose output must be identical) wall-clock ``seconds`` go."""
    if isinstance(data, float):
        return data if math.isfinite(data) else None
    if isinstance(data, dict):
        return {key: json_safe(value, timings) for key, value in data.items()
                if timings or key != "seconds"}
    if isinstance(data, list | tuple):
        return [json_safe(value, timings) for value in data]
    return data


def emit(report: Report, as_json: bool, seed: int | None = None) -> None:
    """Print ``report``; with a ``seed`` the output leaves wall-clock times out."""
    if as_json:
        click.echo(json.dumps(json_safe(report.data, seed is None), indent=2, allow_nan=False))
    else:
        click.echo(report.text)
    if report.exit_code:
        sys.exit(report.exit_code)


# -- the commands ------------------------------------------------------------------------------


@click.group(cls=PartyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="partysolver")
def cli() -> None:
    """Solvers and puzzle analysis for five party board games.

    Hints for a position, solved puzzles and verified setups.  The game comes from the
    file's `game = "..."` key.  Start with `partysolver games` and `partysolver example GAME`.
    """


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def games(as_json: bool) -> None:
    """List the games, the verbs each supports and the house data it ships."""
    rows: list[dict[str, Any]] = []
    for key, game in all_games().items():
        commands = commands_for(key)
        verbs = sorted(commands.verbs) if commands else []
        info = game.info
        rows.append({"game": key, "title": info.title,
                     "players": [info.min_players, info.max_players], "chance": info.chance,
                     "hidden_information": info.hidden_information, "summary": info.summary,
                     "verbs": ["example", *verbs], "house_data": info.house_data,
                     "examples": list(puzzles.examples(key))})
    if as_json:
        click.echo(json.dumps({"games": rows}, indent=2))
        return
    for row in rows:
        click.echo(f"{row['game']:<18} {row['title']} ({row['players'][0]}-{row['players'][1]} "
                   f"players): {row['summary']}")
        click.echo(f"{'':<18} verbs: {', '.join(row['verbs'])}")
        if key_broken := broken_commands().get(row["game"]):
            click.echo(f"{'':<18} unavailable: its commands failed to load ({key_broken})")
        house = row["house_data"]
        click.echo(f"{'':<18} house data: {house if house else 'none (all components public)'}")


@cli.command()
@click.argument("game", type=GAME)
@click.argument("name", required=False)
@click.option("--list", "listing", is_flag=True, help="List the examples of GAME.")
@click.option("--json", "as_json", is_flag=True,
              help="Print the example (or, with --list, the list) as JSON.")
def example(game: str, name: str | None, listing: bool, as_json: bool) -> None:
    """Print a ready example file of GAME (NAME, or its first example) to start from."""
    shipped = puzzles.examples(game)
    if not shipped:
        raise BadInput(f"{game} ships no examples yet")
    if listing:
        described = {key: puzzles.description(item.read_text(encoding="utf-8"))
                     for key, item in shipped.items()}
        if as_json:
            click.echo(json.dumps({"game": game, "examples": [
                {"name": key, "description": text} for key, text in described.items()]},
                indent=2))
            return
        for key, text in described.items():
            click.echo(f"{key:<20} {text}")
        return
    chosen = name or ("default" if "default" in shipped else next(iter(shipped)))
    if chosen not in shipped:
        raise BadInput(f"{game} has no example {chosen!r}; examples: {', '.join(shipped)}")
    text = shipped[chosen].read_text(encoding="utf-8")
    if as_json:
        click.echo(format_document(parse_document(text, f"{chosen}.toml"), as_json=True), nl=False)
    else:
        click.echo(text, nl=False)


@cli.command()
@click.argument("file", type=DocumentFile())
@common_options
@game_options("hint")
def hint(file: Document, as_json: bool, seed: int | None, time_limit: float | None,
         top: int | None, **extra: Any) -> None:
    """Rank the moves of the position in FILE, with values and a reason each."""
    commands = adapter(file.game, "hint")
    options = make_options("hint", commands, as_json, seed, time_limit, top, extra)
    emit(commands.hint(file, options), as_json, seed)


@cli.command()
@click.argument("file", type=DocumentFile())
@common_options
@game_options("solve")
def solve(file: Document, as_json: bool, seed: int | None, time_limit: float | None,
          top: int | None, **extra: Any) -> None:
    """Solve the puzzle or position in FILE: optimal, feasible, infeasible or unknown."""
    commands = adapter(file.game, "solve")
    options = make_options("solve", commands, as_json, seed, time_limit, top, extra)
    emit(commands.solve(file, options), as_json, seed)


@cli.command()
@click.argument("file", type=DocumentFile())
@common_options
@game_options("verify")
def verify(file: Document, as_json: bool, seed: int | None, time_limit: float | None,
           top: int | None, **extra: Any) -> None:
    """List every problem of the setup or log in FILE (exit 1 when there is any)."""
    commands = adapter(file.game, "verify")
    options = make_options("verify", commands, as_json, seed, time_limit, top, extra)
    emit(commands.verify(file, options), as_json, seed)


@cli.command()
@click.argument("game", type=GAME)
@click.option("--players", type=click.IntRange(min=1), default=None,
              help="Number of players (default: the game's usual table).")
@click.option("--games", "count", type=click.IntRange(min=1), default=200, show_default=True,
              help="Number of games to play.")
@click.option("--policy", "policies", multiple=True,
              help="Policy per seat, repeated (one given: every seat).")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Worker processes (results do not depend on it).")
@click.option("--rotate", is_flag=True,
              help="Move the policies one seat each game (compare policies, not seats).")
@output_options
@game_options("simulate")
def simulate(game: str, players: int | None, count: int, policies: tuple[str, ...],
             workers: int, rotate: bool, as_json: bool, seed: int | None, **extra: Any) -> None:
    """Play many games of GAME; win rates with 95% intervals (progress on stderr)."""
    commands = adapter(game, "simulate")
    options = make_options("simulate", commands, as_json, seed, None, None, extra,
                           {"workers": workers, "rotate": rotate})
    if players is not None and len(policies) > players and not rotate:
        raise BadInput(f"{len(policies)} policies for {players} seats: the last "
                       f"{len(policies) - players} would never play (add --rotate to let "
                       "every policy take every seat in turn)")
    unknown = [p for p in policies if p not in commands.policies]
    if unknown:
        raise BadInput(f"unknown policy {unknown[0]!r} for {game}; "
                       f"policies: {', '.join(commands.policies)}")
    info = commands.info
    if players is not None and players not in info.player_counts():
        raise BadInput(f"{game} takes {info.min_players} to {info.max_players} players, "
                       f"not {players}")
    with LazyProgress(count, "playing") as update:
        report = commands.simulate(players, count, policies, options, update)
    emit(report, as_json, seed)


class LazyProgress:
    """A progress bar on stderr that appears at the first update (``simulate`` calls it with 0
    when the games begin): bad input found while setting up is then one line, alone."""

    def __init__(self, length: int, label: str) -> None:
        self.length, self.label = length, label
        self.bar: Any = None

    def __enter__(self) -> Callable[[int], None]:
        return self.update

    def update(self, steps: int) -> None:
        if self.bar is None:
            self.bar = click.progressbar(length=self.length, label=self.label, file=sys.stderr)
            self.bar.__enter__()
        self.bar.update(steps)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.__exit__(*exc)


@cli.command()
@click.argument("file", type=DocumentFile())
@click.option("-o", "--output", "output", type=click.Path(path_type=Path),
              required=True, help="The SVG file to write.")
@click.option("--hint", "with_hint", is_flag=True, help="Draw the suggested move as arrows.")
@click.option("--force", is_flag=True,
              help="Replace OUTPUT even when it is an existing file other than an SVG.")
@common_options
@game_options("render")
def render(file: Document, output: Path, with_hint: bool, force: bool, as_json: bool,
           seed: int | None, time_limit: float | None, top: int | None, **extra: Any) -> None:
    """Draw the position in FILE as an SVG picture (written only when it succeeds)."""
    check_output(output, file.source, force)
    commands = adapter(file.game, "render")
    options = make_options("render", commands, as_json, seed, time_limit, top, extra,
                           {"hint": with_hint})
    svg = commands.render(file, options)
    paths.write_atomically(output, svg)
    data = {"game": file.game, "output": str(output), "bytes": len(svg.encode("utf-8"))}
    emit(Report(data, f"wrote {output}"), as_json)


def check_output(path: Path, source: str, force: bool) -> None:
    """Refuse, before any work, an SVG output that would fail or lose something (see
    :func:`partysolver.cli.paths.check_output`); re-rendering over an older picture is fine."""
    paths.check_output(path, "--output", ".svg", source, force, _is_svg)


def _is_svg(head: bytes) -> bool:
    head = head.lstrip()
    return head.startswith((b"<svg", b"<?xml")) and b"<svg" in head


def main() -> None:
    cli(prog_name="partysolver")


__all__ = ["cli", "main", "VERBS"]

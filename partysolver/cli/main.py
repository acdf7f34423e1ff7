"""The ``partysolver`` command line: click wiring around the application layer.

Every verb reads its file through :class:`DocumentFile` (malformed files fail there, exit 2),
converts its options with the app layer's :class:`~partysolver.app.base.OptionSpec` values, asks
the game's commands (:mod:`partysolver.app`) for a :class:`Report` and prints it as text or, with
``--json``, as JSON on stdout and nothing else there.  Bad input found later (an unknown field,
an impossible position, an option a game does not take) is an :class:`InputError`, printed as
its one line (:meth:`InputError.line`) with exit code 2 in one place, :meth:`PartyGroup.invoke`.
Every verb runs through the app layer's one dispatcher (:func:`app.prepare` and
:meth:`app.Prepared.report`, as the web does): nothing else happens here.
"""

from __future__ import annotations

import gc
import json
import os
import re
import shutil
import sys
import textwrap
import time
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, Protocol

import click

from .. import __version__
from ..app import base as app
from ..app import contract, paths, pictures, text
from ..app.base import (
    SEED,
    TIME_LIMIT,
    TOP,
    VERBS,
    Document,
    GameCommands,
    OptionSpec,
    Report,
    all_commands,
    json_safe,
)
from ..app.contract import SCHEMA_VERBS
from ..models.errors import InputError
from ..models.numbers import whole_number
from ..models.registry import game_keys, is_game
from ..solvers import notices
from ..solvers.notices import listening
from .runs import RunSettings, refuse_run_options, run_batch, run_options, simulate_games
from .waiting import Screen

STARTED = "partysolver.started"
"""Where the context keeps when the command started: a ``--time-limit`` counts from it."""


class BadInput(click.ClickException):
    """Bad input: a one-line message on stderr and exit code 2."""

    exit_code = 2

    def format_message(self) -> str:
        return self.message


def bad_input(error: InputError) -> BadInput:
    """``error`` as the command line prints it: its one line, exit code 2."""
    return BadInput(error.line())


class PartyGroup(click.Group):
    """The command group; bad input raised anywhere below becomes :class:`BadInput`, and a
    usage error of a verb (a bad option value, a missing argument) one line too, not click's
    usage block.  A search's notices (a kernel compiling on its first run) go to stderr, one
    line each (:class:`~partysolver.cli.waiting.Screen`)."""

    def invoke(self, ctx: click.Context) -> Any:
        ctx.meta[STARTED] = time.perf_counter()  # a --time-limit counts from here
        screen = ctx.obj = Screen()
        try:
            with text.width(columns()), listening(screen.notice, screen.status):
                return super().invoke(ctx)
        except InputError as error:
            raise bad_input(error) from None
        except click.UsageError as error:
            if isinstance(error, BadInput):
                raise
            command = f" ('{error.ctx.command_path} --help' shows the usage)" if error.ctx \
                else ""
            raise BadInput(f"bad input: {error.format_message()}{command}") from None


def fitted(text_: str, limit: int | None) -> str:
    """``text_`` with every line longer than ``limit`` wrapped at spaces, each continuation
    indented two more than the line (tables fit already: see :func:`text.table`)."""
    if limit is None:
        return text_
    lines = []
    for line in text_.splitlines():
        if len(line) <= limit:
            lines.append(line)
            continue
        indent = " " * (len(line) - len(line.lstrip()))
        lines += textwrap.wrap(line, limit, initial_indent="", subsequent_indent=indent + "  ",
                               break_long_words=False, break_on_hyphens=False) or [line]
    return "\n".join(lines)


def columns() -> int | None:
    """The width text should fit: ``COLUMNS`` when set, else the terminal's; ``None`` (no
    wrapping) when the output goes to a file or a pipe."""
    try:
        given = whole_number(os.environ.get("COLUMNS", ""))
    except ValueError:  # unset, or not a width
        given = 0
    if given > 0:
        return max(given, 40)
    if sys.stdout.isatty():
        return max(shutil.get_terminal_size().columns, 40)
    return None


class DocumentFile(click.ParamType):
    """A TOML or JSON file naming its game with ``game = "..."``, or a shipped position named
    ``GAME:NAME``."""

    name = "file"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None
                ) -> Document:
        # Bad files are bad input, reported in one line (not as a usage error with the
        # command's synopsis): the message names the file, the field and the expectation.
        from ..app import catalog  # the shipped files: not for --help (start-up)

        if isinstance(value, Document):
            return value
        if ctx is not None and isinstance(ctx.command, GameVerb) and value in ctx.command.read:
            return ctx.command.read[value]  # read to find the game (GameVerb.sole_game)
        try:
            return catalog.open_document(value)
        except InputError as error:
            raise bad_input(error) from None


class GameName(click.ParamType):
    """A registered game's key; anything else is bad input, reported in one line."""

    name = "game"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None
                ) -> str:
        if value in game_keys():
            return str(value)
        raise BadInput(f"bad input: game: expected one of {', '.join(game_keys())}, "
                       f"got {value!r}")


class DocumentOrFolder(click.ParamType):
    """A document (see :class:`DocumentFile`), or a folder of them: a batch, one unit of work
    per file."""

    name = "file|dir"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None
                ) -> Document | Path:
        if isinstance(value, str | Path) and str(value) != "-":
            if Path(value).is_dir():
                return Path(value)
            from ..app import catalog

            if not Path(value).exists() and catalog.reference(str(value)) is None:
                raise BadInput(f"bad input: {value}: expected an existing file or folder")
        return DocumentFile().convert(value, param, ctx)


GAME = GameName()


class Spec(click.ParamType):
    """An option value checked by its :class:`OptionSpec`: a bad one is one line, exit 2."""

    def __init__(self, spec: OptionSpec) -> None:
        self.spec = spec
        self.name = spec.metavar or spec.kind

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None
                ) -> Any:
        try:
            return self.spec.convert(value)
        except InputError as error:
            raise bad_input(error) from None


def whole(name: str, minimum: int, maximum: int | None = None) -> Spec:
    """The type of ``--name``, a whole number from ``minimum`` (to ``maximum``): read by the
    one parser of typed numbers (ASCII digits), a bad one is one line, exit 2."""
    return Spec(OptionSpec(name, "int", help="", minimum=minimum, maximum=maximum,
                           metavar="N"))


def spec_option(spec: OptionSpec, default: Any = None, help_text: str | None = None
                ) -> click.Option:
    """The click option of ``spec``; its value stays raw text (``None`` when not given) when
    several games share the name, so that each game converts it (see :func:`options_for`)."""
    text = help_text or spec.help
    if spec.show_default and spec.default is not None and "default" not in text:
        text = f"{text.rstrip('.')} (default: {spec.default})."
    if spec.kind == "flag":
        return click.Option([spec.flag, spec.name], is_flag=True, default=None, help=text)
    return click.Option([spec.flag, spec.name], type=Spec(spec), default=default,
                        metavar=spec.metavar, help=text)


# -- options ----------------------------------------------------------------------------------


def output_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--json`` and ``--seed``, which every verb on a file or a game takes."""
    decorators = [
        click.option("--json", "as_json", is_flag=True,
                     help="Machine-readable output on stdout (and nothing else there)."),
        click.option("--seed", type=Spec(SEED), default=None, help=SEED.help),
    ]
    for decorator in reversed(decorators):
        func = decorator(func)
    return func


def common_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """The output options, and the search budget and list length of the verbs that rank
    moves (``hint``, ``solve``)."""
    return budget_options(click.option("--top", type=Spec(TOP), default=None,
                                       help=TOP.help)(func))


def budget_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """The output options and the search budget (``verify`` and ``render`` search, but list
    no ranking that ``--top`` could cut)."""
    func = click.option("--time-limit", type=Spec(TIME_LIMIT), default=None,
                        help=TIME_LIMIT.help)(func)
    return output_options(func)


class GameVerb(click.Command):
    """A verb that takes, besides its own options, the games' options for it (each game's
    :attr:`~partysolver.app.base.GameCommands.options`).  Games that declare one name share
    the option; when their declarations differ, the shared option passes the text through and
    each game converts it with its own spec and default (see :func:`app.game_options`), which
    the help lists.

    The games' options are attached when click asks for the verb's parameters (to parse them
    or to show its help), not when the verb is declared: ``partysolver --help`` and the verbs
    that take no game options import no game.  A command on one game's file (or ``GAME:NAME``,
    or a GAME) is parsed with that game's options alone, so that only that game is loaded
    (:meth:`make_context`; the game comes from the document, the front end names none); its
    ``--help``, a folder, standard input, or a command that this parse refuses (an option of
    another game, a bad file: the message is then every game's parse's) take every game's
    options.  (They are attached again if the games' commands are loaded again, as a test
    that breaks one game does.)"""

    def __init__(self, *args: Any, verb: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.verb = verb
        self.own_params = list(self.params)
        self.attached_for: tuple[str | None, object] | None = None
        self.only: str | None = None
        """The game whose options alone are attached while :meth:`make_context` parses."""
        self.read: dict[str, Document] = {}
        """The documents read to find the game, by argument (:class:`DocumentFile` takes them
        from here rather than read them again)."""

    def get_params(self, ctx: click.Context) -> list[click.Parameter]:
        found: Any = all_commands() if self.only is None else app.commands_for(self.only)
        if self.attached_for is None or self.attached_for[0] != self.only \
                or self.attached_for[1] is not found:
            self.attached_for = (self.only, found)
            games = found if self.only is None else {self.only: found} if found else {}
            self.params = [*self.own_params, *game_option_params(self.verb, games)]
        return super().get_params(ctx)

    def make_context(self, info_name: str | None, args: list[str],
                     parent: click.Context | None = None, **extra: Any) -> click.Context:
        guess = None if parent is not None and parent.resilient_parsing \
            else self.sole_game(args, parent)
        if guess is not None:
            token, self.only = guess
            try:
                ctx = super().make_context(info_name, list(args), parent, **extra)
            except click.ClickException:
                pass  # refused with one game's options: parsed again below with every game's
            else:
                if self.parsed_as(ctx, token, self.only):
                    return ctx
            finally:
                self.only, self.read = None, {}
        return super().make_context(info_name, args, parent, **extra)

    def sole_game(self, args: list[str], parent: click.Context | None
                  ) -> tuple[str, str] | None:
        """The game of the command ``args`` and the argument that names it, when one argument
        names one game: ``GAME``, ``GAME:NAME`` or a document's file (read here, kept in
        :attr:`read`); ``None`` for a help, a folder, standard input or no game found."""
        from ..app import catalog  # the shipped files: not for --help (start-up)

        helps = parent.help_option_names if parent is not None else ["--help"]
        if any(arg in helps for arg in args):
            return None
        valued = {name for param in self.own_params if isinstance(param, click.Option)
                  and not param.is_flag for name in param.opts}
        skip = False
        for arg in args:
            if skip or arg == "--":
                skip = False
                continue
            if arg.startswith("-") and arg != "-":
                skip = arg in valued  # the next one is this option's value
                continue
            if arg == "-":
                return None  # standard input is read once, by the parse
            path = Path(arg)
            try:
                exists, folder = path.exists(), path.is_dir()
            except (OSError, ValueError):  # a name too long, a NUL: not a file, and no game
                continue
            if not exists and ":" not in arg and is_game(arg):
                return arg, arg
            if folder:
                return None  # a folder may hold every game's files
            try:
                if path.is_file():
                    found = self.read[arg] = catalog.open_document(arg)
                    return arg, found.game
                item = catalog.reference(arg)
            except (InputError, OSError, ValueError):
                continue  # not a document: perhaps an option's value
            if item is not None:
                return arg, item.game
        return None

    def parsed_as(self, ctx: click.Context, token: str, game: str) -> bool:
        """Whether the parse took ``token`` (of ``game``) as the verb's argument."""
        argument = next((param.name for param in self.own_params
                         if isinstance(param, click.Argument)), None)
        value = ctx.params.get(argument) if argument else None
        return value.game == game if isinstance(value, Document) else value == token


def game_option_params(verb: str, games: Mapping[str, GameCommands]) -> list[click.Option]:
    """The click options of the games' own options for ``verb``, one per name."""
    declared: dict[str, list[tuple[str, OptionSpec]]] = {}
    for key, commands in games.items():
        for spec in commands.options.get(verb, []):
            declared.setdefault(spec.name, []).append((key, spec))
    return [_shared_option(found) for found in declared.values()]


def _shared_option(found: list[tuple[str, OptionSpec]]) -> click.Option:
    first = found[0][1]
    if len({(spec.kind, spec.default, spec.minimum, spec.maximum, spec.choices)
            for _, spec in found}) == 1:
        return spec_option(first)
    help_text = re.sub(r"\s*\(default[^)]*\)\.?$", ".", first.help).rstrip(".")
    defaults = "; ".join(f"{key} {'none' if spec.default is None else spec.default}"
                         for key, spec in found)
    shared = OptionSpec(first.name, "text" if first.kind != "flag" else "flag", help="",
                        metavar=first.metavar)
    return spec_option(shared, help_text=f"{help_text} (default per game: {defaults}).")


def given_options(extra: dict[str, Any], **common: Any) -> dict[str, Any]:
    """The options of a verb as given on the command line, by name: the common ones
    (``seed``, ``time_limit``, ``top``; ``None`` when not given) and the games' own options
    that were given (an option a game does not take is an error only when given)."""
    ctx = click.get_current_context()
    return common | {name: value for name, value in extra.items() if _given(ctx, name)}


def prepare(game: str, verb: str, given: dict[str, Any], as_json: bool = False,
            always: dict[str, Any] | None = None, table: app.Table | None = None
            ) -> app.Prepared:
    """``verb`` of ``game`` with its options checked, through the app layer's one dispatcher
    (:func:`app.prepare`); its notices go to stderr."""
    try:
        return app.prepare(game, verb, given, as_json=as_json, always=always, notice=notice,
                           table=table, started=click.get_current_context().meta.get(STARTED))
    except RuntimeError as error:  # a game whose commands failed to load: a bug to report
        raise click.ClickException(str(error)) from None


def notice(text: str) -> None:
    """A verb's one-line notice (before a first-run compile, say): on stderr, through the
    listener that prints the searches' own notices, so the same words are said once."""
    notices.notice(text)


def _given(ctx: click.Context, name: str) -> bool:
    source = ctx.get_parameter_source(name)
    return source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP")


def adapter(game: str, verb: str) -> GameCommands:
    try:
        return app.commands(game, verb)
    except RuntimeError as error:
        raise click.ClickException(str(error)) from None


def working(label: str) -> AbstractContextManager[None]:
    """While a verb works on one file: on a terminal, after a second, a line on stderr with
    the seconds so far and the search's best answer so far, cleared before the answer."""
    screen = click.get_current_context().find_object(Screen) or Screen(terminal=False)
    return screen.waiting(label)


def emit(report: Report, as_json: bool, seed: int | None = None) -> None:
    """Print ``report``; with a ``seed`` the output leaves wall-clock times out."""
    if as_json:
        click.echo(json.dumps(json_safe(report.data, seed is None), indent=2, allow_nan=False))
    else:
        click.echo(fitted(report.text, columns()))
    if report.exit_code:
        sys.exit(report.exit_code)


# -- the commands ------------------------------------------------------------------------------


@click.group(cls=PartyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, package_name="partysolver")
def cli() -> None:
    """Solvers and puzzle analysis for five party board games.

    Hints for a position, solved puzzles and verified setups.  The game comes from the
    file's `game = "..."` key.  Start with `partysolver games` and `partysolver example GAME`.
    """


@cli.command()
@click.argument("game", type=GAME, required=False)
@click.option("--tiles", "tiles", is_flag=True,
              help="GAME's tiles by code (S30 and the rest, for a game whose files name its "
                   "tiles by code), from the house data or --catalogue FILE.")
@click.option("--catalogue", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="With --tiles: list the tiles of this catalogue file instead.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def games(game: str | None, tiles: bool, catalogue: str | None, as_json: bool) -> None:
    """List the games, the verbs each supports and the house data it ships; with GAME
    --tiles, the components GAME's files name by code."""
    from ..app import catalog

    if tiles or catalogue:
        if game is None or not tiles:
            raise BadInput("bad input: --tiles and --catalogue: expected GAME --tiles "
                           "[--catalogue FILE] (partysolver games lists the games)")
        emit(catalog.tiles_report(game, catalogue), as_json)
        return
    emit(catalog.games_report(game), as_json)


@cli.command()
@click.argument("game", type=GAME, required=False)
@click.argument("name", required=False)
@click.option("--list", "listing", is_flag=True,
              help="List the shipped examples, puzzles and scenarios (of GAME, or of every "
                   "game).")
@click.option("--reveal", is_flag=True, help="Keep a puzzle's recorded answer in its comments.")
@click.option("--json", "as_json", is_flag=True,
              help="Print the file (or, with --list, the list) as JSON.")
def example(game: str | None, name: str | None, listing: bool, reveal: bool,
            as_json: bool) -> None:
    """Print a shipped example, puzzle or scenario of GAME by NAME (default: its first
    example), to start from.  `partysolver example --list` lists them all."""
    from ..app import catalog

    if listing:
        emit(catalog.listing_report(game), as_json)
        return
    if game is None:
        raise BadInput("bad input: GAME: expected a game (one of "
                       f"{', '.join(game_keys())}), or --list")
    click.echo(catalog.example_text(game, name, as_json, reveal), nl=False)


@cli.command(cls=GameVerb, verb="hint")
@click.argument("file", type=DocumentFile())
@common_options
def hint(file: Document, as_json: bool, seed: int | None, time_limit: float | None,
         top: int | None, **extra: Any) -> None:
    """Rank the moves of the position in FILE, with values and a reason each."""
    prepared = prepare(file.game, "hint", given_options(extra, seed=seed, time_limit=time_limit,
                                                        top=top), as_json)
    with working("hint"):
        report = prepared.report(file)
    emit(report, as_json, seed)


@cli.command(cls=GameVerb, verb="solve")
@click.argument("file", type=DocumentOrFolder())
@common_options
@run_options
def solve(file: Document | Path, as_json: bool, seed: int | None, time_limit: float | None,
          top: int | None, run: RunSettings, **extra: Any) -> None:
    """Solve the puzzle or position in FILE: optimal, feasible, infeasible or unknown.  With a
    folder DIR, every file in it, one unit of work each (--json: one line a file)."""
    _verb_on("solve", file, as_json, seed, time_limit, top, run, extra)


@cli.command(cls=GameVerb, verb="verify")
@click.argument("file", type=DocumentOrFolder())
@budget_options
@run_options
def verify(file: Document | Path, as_json: bool, seed: int | None, time_limit: float | None,
           run: RunSettings, **extra: Any) -> None:
    """List every problem of the setup or log in FILE (exit 1 when there is any).  With a
    folder DIR, every file in it, one unit of work each (--json: one line a file)."""
    _verb_on("verify", file, as_json, seed, time_limit, None, run, extra)


def _verb_on(verb: str, file: Document | Path, as_json: bool, seed: int | None,
             time_limit: float | None, top: int | None, run: RunSettings,
             extra: dict[str, Any]) -> None:
    given = given_options(extra, seed=seed, time_limit=time_limit, top=top)
    if isinstance(file, Path):
        run_batch(verb, file, run, lambda commands: prepare(
            commands.info.key, verb, given, as_json).options, as_json, seed)
        return
    refuse_run_options(run, verb)
    prepared = prepare(file.game, verb, given, as_json)
    with working(verb):
        report = prepared.report(file)
    emit(report, as_json, seed)


@cli.command(cls=GameVerb, verb="simulate")
@click.argument("game", type=GAME)
@click.option("--players", type=whole("players", 1), default=None,
              help="Number of players (default: the game's usual table).")
@click.option("--games", "count", type=whole("games", 1, app.MAX_GAMES), default=200,
              show_default=True, help=f"Number of games to play (at most {app.MAX_GAMES:,}).")
@click.option("--policy", "policies", multiple=True,
              help="Policy per seat, repeated (one given: every seat).")
@click.option("--rotate", is_flag=True,
              help="Move the policies one seat each game (compare policies, not seats).")
@click.option("--records", type=click.Path(path_type=Path), default=None, metavar="DIR",
              help="Write each game as a game record, DIR/game-001.record.toml and on (made if "
                   "missing; a record is never replaced), for partysolver review.")
@run_options
@output_options
def simulate(game: str, players: int | None, count: int, policies: tuple[str, ...],
             rotate: bool, records: Path | None, as_json: bool, seed: int | None,
             run: RunSettings, **extra: Any) -> None:
    """Play many games of GAME; win rates with 95% intervals (progress on stderr).  Each game
    is a unit of work: local processes, a Dask cluster, a journal to resume."""
    from ..app import simulated

    adapter(game, "simulate")
    if records is not None:
        simulated.check_folder(records, count)
    table = app.Table(count, players, policies, rotate)
    prepared = prepare(game, "simulate", given_options(extra, seed=seed), as_json,
                       {"rotate": rotate, simulated.OPTION: str(records) if records else None},
                       table)
    emit(simulate_games(prepared, run, table), as_json, seed)


@cli.command(cls=GameVerb, verb="render")
@click.argument("file", type=DocumentFile())
@click.option("-o", "--output", "output", type=click.Path(path_type=Path),
              required=True, help="The picture to write: OUTPUT.svg (SVG) or OUTPUT.png (PNG).")
@click.option("--hint", "with_hint", is_flag=True, help="Draw the suggested move as arrows.")
@click.option("--force", is_flag=True,
              help="Replace OUTPUT even when it is an existing file other than a picture.")
@budget_options
def render(file: Document, output: Path, with_hint: bool, force: bool, as_json: bool,
           seed: int | None, time_limit: float | None, **extra: Any) -> None:
    """Draw the position in FILE as an SVG or PNG picture, by OUTPUT's suffix (written only
    when it succeeds)."""
    paths.check_output(output, "--output", (".svg", ".png"), file.source, force,
                       pictures.is_picture)
    fmt = pictures.picture_format(output, "--output")
    prepared = prepare(file.game, "render", given_options(extra, seed=seed,
                                                          time_limit=time_limit), as_json,
                       {"hint": with_hint})
    with working("render"):
        picture = pictures.encode(prepared.report(file).text, fmt)
    paths.write_atomically(output, picture)
    data = {"game": file.game, "output": str(output), "format": fmt, "bytes": len(picture)}
    emit(Report(data, f"wrote {output}"), as_json)


@cli.command(cls=GameVerb, verb="generate")
@click.argument("game", type=GAME)
@click.option("--count", type=whole("count", 1), default=1, show_default=True,
              help="Number of puzzles to generate.")
@click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Folder to write the puzzle files to (created if missing; existing files "
                   "are never replaced).")
@output_options
def generate(game: str, count: int, out: Path, as_json: bool, seed: int | None,
             **extra: Any) -> None:
    """Generate puzzles of GAME with a unique answer (answers hidden unless --reveal)."""
    prepared = prepare(game, "generate", given_options(extra, seed=seed), as_json)
    names = prepared.commands.generated_names(count, prepared.options)
    paths.check_folder(out, "--out", names)  # before any work
    with click.progressbar(length=count, label="generating", file=sys.stderr) as bar:
        report = prepared.report(count=count, progress=bar.update)
    items = report.data["puzzles"]
    taken = [str(out / item["name"]) for item in items if (out / item["name"]).exists()]
    if taken:
        raise BadInput(f"bad input: --out: {taken[0]!r} exists already (generated puzzles never "
                       "replace a file; choose another folder, or --first)")
    out.mkdir(parents=True, exist_ok=True)
    for item in items:
        path = out / item.pop("name")
        paths.write_atomically(path, item.pop("text"))
        item["file"] = str(path)
    emit(Report(report.data, "\n".join(f"wrote {out / line}" for line in
                                       report.text.splitlines())), as_json, seed)


@cli.command(name="apply")
@click.argument("file", type=DocumentFile())
@click.argument("moves", nargs=-1)
@click.option("-o", "--output", "output", type=click.Path(path_type=Path), default=None,
              help="Write the new position to this new file (atomically) instead of to stdout.")
@click.option("--force", is_flag=True,
              help="Allow --output to replace an existing file (the input file too).")
@click.option("--random", "draw", is_flag=True,
              help="Draw the chance outcomes the moves leave out (reproducible with --seed).")
@click.option("--record", "record", type=click.Path(path_type=Path), default=None,
              help="Append the steps to this game record (created from FILE if missing).")
@click.option("--upto", type=whole("upto", 0), default=None,
              help="FILE is a record: start from its position after N steps.")
@output_options
def apply_moves(file: Document, moves: tuple[str, ...], output: Path | None, force: bool,
                draw: bool, record: Path | None, upto: int | None, as_json: bool,
                seed: int | None) -> None:
    """Play MOVES (moves and chance outcomes, in the game's notation) on the position in FILE
    and print the new position (a position file in FILE's format, or a record's position).

    The notation is what `hint` prints; short forms and player names work too.  Where the
    next step is chance, give its outcome (`draw cleric`), or pass --random.  From a seat's
    log (Pool Party Stars, Party-Time), enter what that seat sees."""
    paths.check_distinct([("--output", output), ("--record", record)])
    if output is not None:
        paths.check_output(output, "--output", DOCUMENT_SUFFIXES, file.source, force,
                           paths.nothing, input_when_forced=True)
    existing = None
    if record is not None:
        paths.check_output(record, "--record", DOCUMENT_SUFFIXES, file.source, True,
                           input_when_forced=True)
        existing = app.read(str(record)) if record.exists() else None
    from ..app import playalong  # the notation of every game: only for apply and review
    from ..models.documents import format_document

    applied = playalong.apply(file, moves, seed, draw, upto)
    as_json_file = file.source.endswith(".json")
    if record is not None:
        same = existing is not None and paths.same_file(record, file.source)
        kept = playalong.appended(None if same else existing, applied, file.source)
        paths.write_atomically(record, format_document(kept.to_document(), as_json=str(
            record).endswith(".json")))
    text = format_document(applied.position.to_document(), as_json=as_json_file)
    if output is not None:
        paths.write_atomically(output, text)
    report = applied.report()
    if as_json:
        emit(report, True, seed)
    elif output is None and record is None:
        click.echo(text, nl=False)
    else:
        emit(report, False)


@cli.command()
@click.argument("record", type=DocumentFile())
@click.option("--players", "players", default=None, metavar="NAMES",
              help="Review only these players (names separated by commas; default: all).")
@click.option("--time-limit", type=Spec(TIME_LIMIT), default=None,
              help="Budget of the hint at each decision, in seconds.")
@output_options
def review(record: Document, players: str | None, time_limit: float | None, as_json: bool,
           seed: int | None) -> None:
    """Mark every move of the game RECORD against the hint: the best move, the value given up,
    and inaccuracies, mistakes and blunders, then a summary per player and each player's swing
    split into skill and luck: what their decisions gave up against the best move, and what
    the draws, dice and cards gave or took against their expectation (docs/solvers.md)."""
    from ..app import playalong

    adapter(record.game, "hint")
    given = {"time_limit": time_limit, "seed": seed, "players": players}
    steps = playalong.review_steps(record, given)  # bad input before the bar
    with click.progressbar(length=steps, label="reviewing", file=sys.stderr) as bar:
        report = playalong.review_document(record, given, bar.update)
    emit(report, as_json, seed)


@cli.command(cls=GameVerb, verb="hint")
@click.argument("start", metavar="FILE|GAME")
@click.option("--players", type=whole("players", 1), default=None,
              help="GAME: the number of players of the new game (default: the game's usual "
                   "table).")
@click.option("--bot", "bots", multiple=True, metavar="NAME=POLICY",
              help="A policy plays this seat (a player's name or seat number; the policies "
                   "of simulate: random, greedy, hint, as the game offers), repeated.")
@click.option("--auto-chance", is_flag=True,
              help="Chance outcomes draw themselves (else enter them, or type 'random').")
@click.option("--time-limit", type=Spec(TIME_LIMIT), default=None,
              help="Budget of each hint, in seconds.")
@click.option("--seed", type=Spec(SEED), default=None,
              help="Seed the new game's set-up, the draws and the bots (default 0); hints "
                   "then leave wall-clock times out.")
def play(start: str, players: int | None, bots: tuple[str, ...], auto_chance: bool,
         time_limit: float | None, seed: int | None, **extra: Any) -> None:
    """Play the position or record in FILE (or GAME:NAME), or a new game of GAME, move by
    move in the terminal: moves in the game's notation, hint, moves, undo, redo, show, save
    FILE, help, quit.  Lines may come from a pipe (no prompts then).  The hint's options
    (such as --playouts) apply to every hint of the session."""
    from ..app import session
    from . import terminal

    ctx = click.get_current_context()
    options = {"time_limit": time_limit, "seed": seed} | {
        name: value for name, value in extra.items() if _given(ctx, name)}
    if start in game_keys() and not Path(start).exists():
        game_session = session.Session.new_game(start, players, bots, seed or 0, auto_chance,
                                                options)
    else:
        if players is not None:
            raise BadInput("bad input: --players: only for a new game (GAME); a file says "
                           "its players")
        if start == "-":
            raise BadInput("bad input: FILE: expected a file or GAME:NAME (play reads its "
                           "commands from standard input)")
        game_session = session.Session.open(DocumentFile().convert(start, None, None), bots,
                                            seed or 0, auto_chance, options)
    terminal.converse(game_session, lambda text_: click.echo(fitted(text_, columns())))


@cli.command()
@click.argument("verb", type=click.Choice(SCHEMA_VERBS), metavar="VERB")
def schema(verb: str) -> None:
    """Print the JSON Schema of VERB's --json output (the same for every game)."""
    click.echo(json.dumps(contract.schema(verb), indent=2))


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (another than 127.0.0.1 lets others on the network "
                   "in: a warning says so).")
@click.option("--port", type=whole("port", 0, 65535), default=8000, show_default=True,
              help="Port to listen on.")
@click.option("--open", "open_browser", is_flag=True, help="Open the board in a browser.")
@click.option("--workers", type=whole("workers", 1), default=None,
              help="Solver worker processes (default: one per core, at most 4).")
def serve(host: str, port: int, open_browser: bool, workers: int | None) -> None:
    """Start the local web analysis board and JSON API (Ctrl+C stops it)."""
    if BOARD is None:
        raise BadInput("bad input: serve: the web board is not part of this command line (the "
                       "partysolver command and python -m partysolver have it)")
    server = BOARD()
    try:
        server.check_port(host, port)
    except OSError as error:
        raise BadInput(f"bad input: --host/--port: cannot listen on {host}:{port} "
                       f"({error.strerror or error})") from None
    server.serve(host, port, open_browser, workers)


class Board(Protocol):
    """The web board as ``serve`` starts it (:mod:`partysolver.web.server`).  The command line
    imports nothing of the web: the command's composition root, :mod:`partysolver.console`,
    gives it (:data:`BOARD`)."""

    def check_port(self, host: str, port: int) -> None: ...

    def serve(self, host: str, port: int, open_browser: bool, workers: int | None) -> None: ...


BOARD: Callable[[], Board] | None = None
"""Loads the web board for ``serve``: set by :mod:`partysolver.console` (``None``: this command
line has no board)."""


DOCUMENT_SUFFIXES = (".toml", ".json")


def main() -> None:
    try:
        cli(prog_name="partysolver")
    finally:
        # The process ends here: keep the interpreter's last garbage collections from walking
        # every object the libraries made (numpy, pandas, OR-Tools, numba: 0.06-0.10 s of the
        # exit, measured 3 December 2026). Objects still die by reference count, and every
        # output was written and closed before this; ``--time-limit`` counts to the exit.
        gc.freeze()


__all__ = ["cli", "main", "VERBS"]

"""What every game plugs into the front ends: one :class:`GameCommands` object per game.

A game's commands live in ``partysolver/app/<game_key_with_underscores>.py`` and export
``COMMANDS``.  They turn a loaded :class:`Document` and :class:`Options` into a :class:`Report`
(the data of the JSON contract and the text for people).  Front ends (``partysolver.cli``,
``partysolver.web``) only parse their input into these, call a verb and print or serve the
report; nothing here knows about click or HTTP.

Options a game adds to a verb are declared as :class:`OptionSpec` values, which both front ends
read: the CLI turns them into ``--flags``, the web API into JSON fields, and both check values
with :meth:`OptionSpec.convert`, so a bad value gets the same one-line message everywhere.
"""

from __future__ import annotations

import importlib
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from ..models.errors import MISSING, InputError, Problem
from ..models.numbers import decimal_number, whole_number
from ..models.registry import broken_game, game_keys, is_game, is_plugin, package_of
from .inputs import BadRequest as BadRequest
from .inputs import Document as Document
from .inputs import document as document
from .inputs import parse as parse
from .inputs import read as read
from .kinds import DocumentKind, Figures, default_kinds, find
from .text import problems_text

if TYPE_CHECKING:
    from ..models.protocol import GameInfo

VERBS = ("hint", "solve", "verify", "simulate", "render", "generate")


class NotAnOption(InputError):
    """An option given that ``game``'s ``verb`` does not take; ``takes`` are those it takes."""

    def __init__(self, name: str, game: str, verb: str, takes: Sequence[str],
                 got: object = MISSING) -> None:
        listed = " and ".join(filter(None, (", ".join(takes[:-1]), takes[-1]))) if takes \
            else "none"
        super().__init__(None, name, f"an option of {game} {verb} (it takes {listed})", got,
                         reason=f"not an option of {game} {verb} (it takes {listed})",
                         option=True)
        self.game = game
        self.verb = verb

    def line(self, names: bool = False) -> str:
        if names:
            return super().line(names)
        return f"{self.named()} does not apply to {self.game} {self.verb}"


# -- options ------------------------------------------------------------------------------------

Kind = Literal["int", "float", "choice", "flag", "text"]


@dataclass(frozen=True)
class OptionSpec:
    """An option a verb takes, whatever the front end: ``--name`` in the CLI, ``name`` in JSON.

    ``convert`` checks a value given as text (CLI) or as JSON and returns it typed, or raises
    :class:`InputError` naming the option and what was expected."""

    name: str
    """The Python name (``exact_nodes``); the flag is ``--exact-nodes``."""
    kind: Kind
    help: str
    default: Any = None
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] = ()
    metavar: str | None = None
    show_default: bool = False
    required: bool = False
    expects: str | None = None
    """What a good value is, in words, when the kind and bounds do not say it well."""
    check: Callable[[Any], str | None] | None = None
    """A further test: returns what was expected when the value fails it, else ``None``."""

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")

    def expected(self) -> str:
        if self.expects is not None:
            return self.expects
        if self.kind == "choice":
            return "one of " + ", ".join(self.choices)
        if self.kind == "flag":
            return "true or false"
        if self.kind == "text":
            return "a text"
        noun = "an integer" if self.kind == "int" else "a number"
        low, high = self.minimum, self.maximum
        if low is not None and high is not None:
            return f"{noun} from {_num(low)} to {_num(high)}"
        if low is not None:
            return f"{noun} of at least {_num(low)}"
        if high is not None:
            return f"{noun} of at most {_num(high)}"
        return noun

    def fail(self, value: Any, expected: str | None = None) -> InputError:
        return InputError.of_option(self.name, expected or self.expected(), value)

    def convert(self, value: Any) -> Any:
        """``value`` checked and typed (``None`` stays ``None``: the option was not given)."""
        if value is None:
            return None
        typed = self._typed(value)
        if self.check is not None and (failed := self.check(typed)) is not None:
            raise self.fail(value, failed)
        return typed

    def _typed(self, value: Any) -> Any:
        if self.kind == "flag":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in ("true", "false", "1", "0", "yes",
                                                              "no"):
                return value.lower() in ("true", "1", "yes")
            raise self.fail(value)
        if self.kind == "text":
            if not isinstance(value, str) or not value or "\x00" in value:
                raise self.fail(value, "a non-empty text")
            return value
        if self.kind == "choice":
            if not isinstance(value, str) or value not in self.choices:
                raise self.fail(value)
            return value
        number = _number(value, integer=self.kind == "int")
        if number is None:
            raise self.fail(value)
        if (self.minimum is not None and number < self.minimum) or (
                self.maximum is not None and number > self.maximum):
            raise self.fail(value)
        return number


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _number(value: Any, integer: bool) -> int | float | None:
    """An int (or a finite float) from text or JSON; ``None`` when it is not one."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        text = value.strip()
        try:  # ASCII digits of a sane length only: the one parser of typed numbers
            return whole_number(text, signed=True) if integer else decimal_number(text)
        except ValueError:
            return None
    if isinstance(value, int):
        return value if integer else float(value)
    if isinstance(value, float) and not integer:
        return _finite(value)
    return None


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


SECONDS = "a number of seconds greater than 0 (such as 2 or 0.5)"
TIME_LIMIT = OptionSpec("time_limit", "float", metavar="SECONDS", expects=SECONDS,
                        help="Wall-clock budget in seconds, counted from the command's start "
                             "(reading the file, loading and searching all spend it); past it "
                             "a search answers with what it has and says the answer is "
                             "partial.  Without it each search "
                             "has the default budget docs/solvers.md lists ('Default "
                             "budgets'): counts of nodes or iterations, so a seed gives the "
                             "same output, except the few wall-clock defaults it names.",
                        check=lambda v: SECONDS if v <= 0 else None)
TOP = OptionSpec("top", "int", minimum=1, metavar="K", expects="a number of moves of at least 1",
                 help="Show only the K best moves.")
SEED_MAX = 2**64 - 1
SEED = OptionSpec("seed", "int", minimum=0, maximum=SEED_MAX, metavar="N",
                  expects=f"a whole number from 0 to {SEED_MAX}",
                  help="Seed every source of chance: same input and seed, same output "
                       "(wall-clock times are then left out), unless a --time-limit cuts a "
                       "search (how far it gets depends on the machine).")


REVIEW_PLAYERS = OptionSpec("players", "text", metavar="NAMES",
                            expects="players' names separated by commas",
                            help="Review only these players (names separated by commas; "
                                 "default: all).")
"""The option ``review`` takes besides the common ones, whatever the game."""

COMMON = (TIME_LIMIT, TOP, SEED)
"""The options every verb on a document takes, whatever the game."""


@dataclass(frozen=True)
class Options:
    """The common options, and the verb's game-specific ones in ``extra``."""

    json: bool = False
    seed: int | None = None
    time_limit: float | None = None
    top: int | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    notice: Callable[[str], None] | None = None
    """Where a verb says, in one line, what the reader waits for (a first-run compile)."""
    started: float | None = field(default=None, compare=False)
    """When the command started (``time.perf_counter``): ``time_limit`` counts from it, so
    reading the file, loading the game and building a model spend the limit as the search
    does.  The command line starts it before it reads the file, :func:`prepare` otherwise (the
    web: when the job starts).  ``None`` (options made for one search at a time, such as a
    review's valuations): each search gets the whole limit."""

    def time_left(self, keep: float = 0.0) -> float | None:
        """The seconds of ``time_limit`` not yet spent (0 when none is left; ``None`` without a
        limit): what a search may still take, less ``keep`` seconds for the work the command
        does after it (``render --hint``: the picture drawn after the hint).  A search given 0
        answers with what it has before searching (its status says the answer is partial)."""
        if self.time_limit is None:
            return None
        spent = 0.0 if self.started is None else time.perf_counter() - self.started
        return max(0.0, self.time_limit - spent - keep)

    def tell(self, text: str) -> None:
        """Pass a one-line notice to the front end (nothing when it takes none)."""
        if self.notice is not None:
            self.notice(text)

    @property
    def rng_seed(self) -> int:
        return 0 if self.seed is None else self.seed

    @property
    def timings(self) -> bool:
        """Whether output may show wall-clock times: not in a seeded run, whose output must be
        identical from run to run."""
        return self.seed is None


def game_options(commands: GameCommands, verb: str, given: Mapping[str, Any],
                 always: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The game-specific options of ``verb``: each of ``commands``' own options, converted, or
    its default when not given (``None`` in ``given``); an option given that the game does not
    take is a :class:`NotAnOption`.  ``always`` are verb options every game gets."""
    own = {spec.name: spec for spec in commands.options.get(verb, [])}
    chosen: dict[str, Any] = {}
    for name, value in given.items():
        if name in own:
            typed = own[name].convert(value)
            chosen[name] = own[name].default if typed is None else typed
        elif value is not None:
            raise NotAnOption(name, commands.info.key, verb,
                              [*own, *(spec.name for spec in COMMON)], value)
    for name, spec in own.items():
        chosen.setdefault(name, spec.default)
        if spec.required and chosen[name] is None:
            raise InputError.of_option(spec.name, spec.expected(), reason=(
                f"expected {spec.expected()} ({commands.info.key} {verb} needs it)"))
    return chosen | dict(always or {})


# -- reports ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Report:
    """What a verb produced: ``data`` for ``--json`` (it always names the game) and ``text``."""

    data: dict[str, Any]
    text: str
    exit_code: int = 0


def is_timing(key: str) -> bool:
    """Whether a report key holds a wall-clock figure (``seconds``, ``build_seconds``,
    ``wall_time``, ``games_per_second``): a seeded run leaves these out."""
    return key.endswith(("seconds", "per_second")) or key.startswith("wall")


def json_safe(data: Any, timings: bool = True) -> Any:
    """``data`` with every non-finite number (an unbounded interval's end) as ``null``: JSON
    has no infinity, and a strict parser rejects the ``Infinity`` Python would write.  Without
    ``timings`` (a seeded run, whose output must be identical) every wall-clock figure goes
    (:func:`is_timing`)."""
    if isinstance(data, float):
        return data if math.isfinite(data) else None
    if isinstance(data, dict):
        return {key: json_safe(value, timings) for key, value in data.items()
                if timings or not is_timing(str(key))}
    if isinstance(data, list | tuple):
        return [json_safe(value, timings) for value in data]
    return data


@dataclass(frozen=True)
class Thresholds:
    """How much value a move may give up before a review calls it an inaccuracy, a mistake or
    a blunder (in the units of the game's hint value, as a chess review does with pawns)."""

    inaccuracy: float
    mistake: float
    blunder: float
    unit: str
    percent: bool = False
    """Values are chances (0 to 1): the text shows them in percentage points."""

    def shown(self, value: float) -> str:
        """``value`` as the review's text shows it, with its unit."""
        return f"{self.scale * value:.3g} {self.shown_unit}"

    @property
    def scale(self) -> int:
        """What a value is multiplied by in the text (percentage points for chances)."""
        return 100 if self.percent else 1

    @property
    def shown_unit(self) -> str:
        return f"percentage points {self.unit}" if self.percent else self.unit

    def label(self, lost: float) -> str | None:
        if lost >= self.blunder:
            return "blunder"
        if lost >= self.mistake:
            return "mistake"
        if lost >= self.inaccuracy:
            return "inaccuracy"
        return None


@dataclass(frozen=True)
class Valuation:
    """Every player's value of a position as the game's hint values it (the figure of its
    ``value_text``: a chance to win, points, strips, VIPs; higher is better for that player,
    in the units of :class:`Thresholds`), and whether the values are exact (proved) or
    estimates.  What a review's luck and graph are computed from (``app/luck.py``)."""

    values: Mapping[str, float]
    exact: bool
    why: str = ""
    """With no values: why the game values no position here, in a few words for the review
    (its chance points are then not computed, and their luck says so)."""


PLAY_ALONG = ("apply", "play", "review")
"""The verbs every game takes through its notation (``app/playalong.py``), besides its own."""


class GameCommands:
    """Base class of the game commands; a subclass overrides the verbs it offers."""

    info: ClassVar[GameInfo]
    verbs: ClassVar[frozenset[str]] = frozenset()
    options: ClassVar[dict[str, list[OptionSpec]]] = {}
    """Game-specific options per verb."""
    policies: ClassVar[tuple[str, ...]] = ()
    """Policy names ``simulate`` accepts."""
    review: ClassVar[Thresholds] = Thresholds(0.05, 0.15, 0.4, "points")
    """What ``review`` calls an inaccuracy, a mistake and a blunder (docs/solvers.md)."""
    players: ClassVar[int] = 2
    """The usual table: the number of players of ``simulate`` and of a new game of ``play``
    when none is given."""
    kinds: ClassVar[tuple[DocumentKind, ...]] = ()
    """The kinds of document the game reads, each with the verbs it supports and what it keeps
    back (``app/kinds.py``); none declared: a position and a record (:meth:`document_kinds`)."""
    figures: ClassVar[Figures] = Figures()
    """How a ranked move's figures read on the board: label and unit (``73.3% to win``)."""
    warm_up: ClassVar[dict[str, Any] | None] = {}
    """The options of the quick hint the web runs once on the default example before any
    worker starts (it compiles or loads the game's kernels); ``None``: no warm-up."""
    unplayable: ClassVar[dict[str, str]] = {}
    """Why a good file is no game to play on, in words, by the field the loader refuses."""

    def document_kinds(self) -> tuple[DocumentKind, ...]:
        return self.kinds or default_kinds(self.verbs)

    def kind_of(self, document: Document) -> str:
        """The name of ``document``'s kind (one of :meth:`document_kinds`), from a look at its
        fields (never bad input: the verbs judge the content)."""
        return "record" if document.data.get("kind") == "record" else "position"

    def kind(self, document: Document) -> DocumentKind:
        return find(self.document_kinds(), self.kind_of(document))

    def shipped_names(self) -> dict[str, set[str]]:
        """Fields of a document that may name a file beside it (the loader reads it), with the
        shipped names allowed there where no file may be read (the web)."""
        return {}

    def check(self, document: Document, answer: str, given: Mapping[str, Any]) -> Report:
        """The judgement of ``answer`` to the puzzle ``document`` (of a kind with a ``puzzle``
        form; ``given`` are solve options): see ``app/answers.py``."""
        raise self.unsupported("check")

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

    def generate(self, count: int, options: Options, progress: Any) -> Report:
        """``count`` puzzles; ``data["puzzles"]`` lists each file's ``name`` and ``text``."""
        raise self.unsupported("generate")

    def generated_names(self, count: int, options: Options) -> list[str]:
        """The file names :meth:`generate` gives ``count`` puzzles, known before any is made
        (so that the output folder is checked before the work)."""
        raise self.unsupported("generate")

    def board(self, document: Document) -> str:
        """The position of ``document`` in a few lines for people: what ``play`` shows."""
        raise self.unsupported("play")

    def played_move(self, document: Document, move: str, options: Options
                    ) -> dict[str, Any] | None:
        """``move`` in ``document``'s position as the hint would list it (``move``, ``value``,
        ``figures``), for a review whose hint did not list it (``None``: the game cannot value
        one move alone; the review then gives a lower bound of what it gave up)."""
        return None

    def position_values(self, document: Document, options: Options) -> Valuation | None:
        """Every player's value of ``document``'s position, by the hint's own evaluator
        (exact where the hint is exact), for a review's luck and graph (``app/luck.py``).
        ``None``: the game cannot value this position for every player (a review then says
        'not computed'); at a chance node it may also return ``None`` and leave the review to
        average the values after each outcome (:meth:`chance_outcomes`); a valuation with no
        values says that neither this position nor those after its outcomes are valued (not
        computed, and not averaged; its ``why``, if given, is what the review says)."""
        return None

    def chance_outcomes(self, position: Any) -> list[tuple[Any, float]] | None:
        """The outcomes of the chance point ``position`` (a
        :class:`~partysolver.models.notation.Playable` that awaits chance) with their
        probabilities, as the hint sees them: by default those of the full state it plays on;
        ``None`` (not computed) for one seat's view, unless the game says what the seat
        expects."""
        from ..models.playable import full_state

        state = full_state(position)
        if state is None:
            return None
        return [(outcome, float(chance)) for outcome, chance in state.chance_outcomes()]

    def seat_names(self, state: Any) -> tuple[str, ...]:
        """The players of a full state of the game, in seat order."""
        raise self.unsupported("play")

    def policy(self, name: str) -> Any:
        """The policy ``name`` (one of :attr:`policies`) as ``simulate`` plays it: a callable
        ``policy(state, rng) -> action`` on full states, to take a seat in ``play``."""
        raise self.unsupported("simulate")

    def offered(self) -> list[str]:
        """Every verb the game takes: its own and the play-along verbs every game has."""
        return sorted(set(self.verbs) | set(PLAY_ALONG))

    def unsupported(self, verb: str) -> InputError:
        return not_offered(self.info.key, verb, self.offered())


def module_name(game: str) -> str:
    """The module exporting ``COMMANDS`` for ``game``: ``partysolver.app.<game>`` for this
    package's games, the registered module for a game another package registers (a plugin:
    see :mod:`partysolver.models.registry`)."""
    if is_plugin(game):
        return package_of(game)
    return f"{__package__}.{game.replace('-', '_')}"


@cache
def _commands_of(game: str) -> tuple[GameCommands | None, str | None]:
    """The commands of ``game`` alone (only its modules are imported), or why they failed to
    load (``None`` and ``None``: a game with no commands yet, or no such game)."""
    if not is_game(game):
        return None, None
    if (why := broken_game(game)) is not None:  # a plugin whose game cannot load has no commands
        return None, why
    try:
        return importlib.import_module(module_name(game)).COMMANDS, None
    except Exception as error:  # one broken game must not take the others down
        if is_plugin(game) or not (isinstance(error, ModuleNotFoundError)
                                   and error.name == module_name(game)):
            return None, f"{type(error).__name__}: {error}"
        return None, None  # a game of this package with no commands yet


@cache
def _load_commands() -> tuple[dict[str, GameCommands], dict[str, str]]:
    found: dict[str, GameCommands] = {}
    broken: dict[str, str] = {}
    for key in game_keys():
        commands_, why = _commands_of(key)
        if commands_ is not None:
            found[key] = commands_
        elif why is not None:
            broken[key] = why
    return found, broken


def clear_commands() -> None:
    """Forget the commands loaded (a test that breaks a game's, or installs a plugin)."""
    _commands_of.cache_clear()
    _load_commands.cache_clear()


def all_commands() -> dict[str, GameCommands]:
    """The commands of every registered game that has them and loads (each game's modules
    imported: a verb on one game's file asks :func:`commands_for` or :func:`commands`)."""
    return _load_commands()[0]


def broken_commands() -> dict[str, str]:
    """The games whose commands module failed to load, with the error (a bug to report)."""
    return _load_commands()[1]


def commands_for(game: str) -> GameCommands | None:
    """The commands of ``game``, loading only that game (``None``: none, or they fail to
    load)."""
    return _commands_of(game)[0]


def commands(game: str, verb: str) -> GameCommands:
    """The commands of ``game``, which must offer ``verb`` (only that game is loaded)."""
    found, why = _commands_of(game)
    if why is not None:
        culprit = f"the package that registers it ({package_of(game)})" if is_plugin(game) \
            else "partysolver"
        raise RuntimeError(f"the {game} commands failed to load ({why}); "
                           f"this is a bug in {culprit}")
    if found is None or verb not in found.verbs:
        raise not_offered(game, verb, found.offered() if found else [])
    return found


def not_offered(game: str, verb: str, offered: Sequence[str]) -> InputError:
    """The refusal of ``verb`` by ``game``, which offers the verbs ``offered``."""
    listed = ", ".join(offered) or "none yet"
    return InputError(None, "verb", f"a verb {game} supports ({listed})", verb,
                      reason=f"{game} does not support '{verb}' (it supports: {listed})",
                      refusal=True)


def common_options(given: Mapping[str, Any]) -> dict[str, Any]:
    """``seed``, ``time_limit`` and ``top`` of ``given``, each converted by its spec."""
    return {spec.name: spec.convert(given.get(spec.name)) for spec in COMMON}


@dataclass(frozen=True)
class Table:
    """What ``simulate`` plays: ``games`` games of ``players`` (``None``: the game's usual
    table), ``policies`` by seat (rotated each game with ``rotate``)."""

    games: int = 200
    players: int | None = None
    policies: tuple[str, ...] = ()
    rotate: bool = False


@dataclass(frozen=True)
class Prepared:
    """A verb of a game with its options checked: :meth:`report` runs it."""

    game: str
    verb: str
    commands: GameCommands
    options: Options

    def report(self, document: Document | None = None, table: Table | None = None,
               count: int = 1, progress: Any = None) -> Report:
        """The report of the verb: on ``document`` (``hint``, ``solve``, ``verify``,
        ``render``: a record is read as its last position), of ``table`` (``simulate``) or of
        ``count`` puzzles (``generate``).  ``render``'s report holds the SVG picture, in
        ``data["svg"]`` and as its text."""
        if self.verb == "simulate":
            table = table or Table()
            return self.commands.simulate(table.players, table.games, table.policies,
                                          self.options, progress)
        if self.verb == "generate":
            return self.commands.generate(count, self.options, progress)
        if document is None:
            raise InputError(None, "document", f"a {self.game} document to {self.verb}")
        if document.game != self.game:
            raise InputError(document.source, "game", repr(self.game), document.game)
        if self.verb in PLAY_ALONG:  # they play in the game's notation: app/playalong.py
            raise ValueError(f"{self.verb} runs through app.playalong (review: "
                             "playalong.review_document), not Prepared.report")
        if document.data.get("kind") == "record":  # the play-along code: only for a record
            from .records import current

            document = current(document)
        if self.verb == "render":
            svg = self.commands.render(document, self.options)
            return Report({"game": self.game, "format": "svg", "svg": svg}, svg)
        report: Report = getattr(self.commands, self.verb)(document, self.options)
        return report


def prepare(game: str, verb: str, given: Mapping[str, Any] | None = None, *,
            as_json: bool = False, always: Mapping[str, Any] | None = None,
            notice: Callable[[str], None] | None = None, table: Table | None = None,
            started: float | None = None) -> Prepared:
    """``verb`` of ``game`` with the options ``given`` by name (``seed``, ``time_limit``,
    ``top`` and the game's own, as text or JSON values), each checked by its spec: bad input
    is an :class:`InputError` before any work.  ``always`` are options the front end gives
    every game (``simulate``'s ``rotate``); ``table``, what ``simulate`` is to seat;
    ``started``, when the command started (the time limit counts from it; now when not
    given)."""
    commands_ = commands(game, "hint" if verb == "review" else verb)  # review: by the hint
    given = {key: value for key, value in (given or {}).items()}
    common = common_options(given)
    extra = {key: value for key, value in given.items() if key not in common}
    if verb == "review":  # the play-along verb of every game (app.playalong.review_document)
        always = dict(always or {}) | {"players": REVIEW_PLAYERS.convert(extra.pop("players",
                                                                                  None))}
    if verb == "simulate":
        table = table or Table()
        check_simulation(commands_, table.players, table.policies, table.rotate)
        common["time_limit"] = common["top"] = None
    options = Options(as_json, common["seed"], common["time_limit"], common["top"],
                      game_options(commands_, verb, extra, always), notice,
                      time.perf_counter() if started is None else started)
    return Prepared(game, verb, commands_, options)


def dispatch(game: str, verb: str, document: Document | None = None,
             given: Mapping[str, Any] | None = None, *, as_json: bool = False,
             always: Mapping[str, Any] | None = None,
             notice: Callable[[str], None] | None = None, table: Table | None = None,
             count: int = 1, progress: Any = None) -> Report:
    """The report of ``verb`` of ``game`` on ``document`` with the options ``given`` as the
    front end got them: the one way every front end runs a verb (:func:`prepare`, then
    :meth:`Prepared.report`)."""
    prepared = prepare(game, verb, given, as_json=as_json, always=always, notice=notice,
                       table=table)
    return prepared.report(document, table, count, progress)


def run(verb: str, document: Document, given: Mapping[str, Any] | None = None,
        as_json: bool = False, always: Mapping[str, Any] | None = None) -> Report:
    """The report of ``verb`` on ``document`` (see :func:`dispatch`)."""
    return dispatch(document.game, verb, document, given, as_json=as_json, always=always)


def run_simulation(game: str, games: int, policies: Sequence[str] = (),
                   players: int | None = None, given: Mapping[str, Any] | None = None,
                   workers: int = 1, rotate: bool = False, as_json: bool = False,
                   progress: Any = None) -> Report:
    """The report of ``simulate`` for ``game`` (see :func:`dispatch`)."""
    return dispatch(game, "simulate", None, given, as_json=as_json,
                    always={"workers": workers, "rotate": rotate},
                    table=Table(games, players, tuple(policies), rotate), progress=progress)


MAX_GAMES = 10_000_000
"""The most games one ``simulate`` plays (each is a unit of the runner, kept with its figures
until the report): a larger count is bad input, not a run that never ends."""


def check_simulation(commands: GameCommands, players: int | None, policies: Sequence[str],
                     rotate: bool) -> None:
    """Refuse, before any game is played, a table the game cannot seat or policies it does not
    know or that would never play."""
    if players is not None and len(policies) > players and not rotate:
        raise InputError.of_option(
            "policy", f"at most {players} policies for {players} seats", list(policies),
            reason=f"{len(policies)} policies for {players} seats: the last "
                   f"{len(policies) - players} would never play (add --rotate to let every "
                   "policy take every seat in turn)")
    unknown = [p for p in policies if p not in commands.policies]
    if unknown:
        raise InputError.of_option(
            "policy", f"one of {', '.join(commands.policies)} for {commands.info.key}",
            unknown[0])
    info = commands.info
    if players is not None and players not in info.player_counts():
        raise InputError.of_option(
            "players", f"{info.min_players} to {info.max_players} players", players,
            reason=f"{info.key} takes {info.min_players} to {info.max_players} players, "
                   f"not {players}")


def require_valid(problems: Sequence[Problem], source: str) -> None:
    """Hint and solve need a legal position: rule problems are bad input."""
    if problems:
        listed = "; ".join(f"{p.field}: {p.message}" if p.field else p.message
                           for p in problems)
        raise InputError(source, None, f"a legal position ({listed}); "
                         "run 'partysolver verify' for the full list")


def problems_report(game: str, problems: Sequence[Problem], described: Callable[[], str],
                    verdict: str | None = None, **extra: Any) -> Report:
    """``verify``'s report of a position: every problem at once (exit 1), or ``valid`` and
    ``described()``, the position in words."""
    from .contract import verify_data

    data = verify_data(game, problems, verdict, **extra)
    text = problems_text(problems)
    if not problems:
        text += "\n" + described()
    return Report(data, text, exit_code=1 if problems else 0)

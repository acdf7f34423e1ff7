"""An interactive game session, whatever the front end: ``partysolver play`` in a terminal, and
any other front end that sends lines of text and shows the replies.

A :class:`Session` holds a game from its start: the start position, every step taken since
(a record's steps first, when it began from a record), the steps taken back by ``undo`` (for
``redo``), the bots at their seats and the random streams.  :meth:`Session.handle` takes one
line, a command or a step in the game's notation, and answers with a :class:`Reply` (text, and
whether the session is over); bad input is one line of text and changes nothing.

The commands (:data:`COMMANDS`):

* a move or a chance outcome in notation (what ``hint`` prints; short forms work);
* ``random``: draw the chance outcome (or, from a seat, what the seat sees) at random;
* ``hint [K]``: the game's hint report for the position (the K best moves);
* ``moves [WORDS]``: the legal steps in canonical spelling (those that start with WORDS);
* ``undo`` / ``redo``: take back the last thing entered (with the bots' moves and the chance
  that followed it) / play it again;
* ``show``: the position as text; ``save FILE``: the position, or the game record (see
  :meth:`Session.save`); ``help``; ``quit``.

After a step, the bots move and (with ``auto_chance``) chance resolves itself until the session
waits for its user again: a seat without a bot is to act, or a chance outcome is to be entered.
``undo`` goes back to the last position where the session waited, so that it takes back one
thing the user entered.
"""

from __future__ import annotations

import random
import shlex
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..models.documents import format_document
from ..models.errors import InputError
from ..models.notation import NotationError, Playable, normalise
from ..models.numbers import whole_number
from ..models.playable import StatePlayable, full_state
from ..models.protocol import CHANCE, TERMINAL
from ..models.registry import get_game
from . import paths
from .base import (
    BadRequest,
    Document,
    GameCommands,
    commands_for,
    common_options,
    document,
    game_options,
    run,
)
from .playalong import Record, Step, is_record, load_record, new_record, playable, start_document

COMMANDS = ("hint", "moves", "random", "undo", "redo", "show", "save", "help", "quit")
"""The words a line may start with to be a command rather than a step (also ``exit``)."""

RECORD_SUFFIXES = (".record.toml", ".record.json")
"""``save FILE`` writes the game record when FILE's name ends in one of these."""

LISTED = 200
"""``moves`` lists at most this many steps (then says how many more there are)."""

HELP = """\
commands:
  MOVE            a move or chance outcome in the game's notation (what hint prints; short
                  forms and player names work; Tab completes on a terminal)
  random          draw the chance outcome (from a seat: what it sees) at random
  hint [K]        the hint for this position (its K best moves)
  moves [WORDS]   the legal moves or outcomes (those starting with WORDS)
  undo / redo     take back the last thing entered (with the bots' moves after it) / replay it
  show            the position
  save FILE       write the position to FILE (.toml or .json); the game record when FILE ends
                  in .record.toml or .record.json, or with save --record FILE; an existing
                  file is replaced only when this session wrote it, or with save --force FILE
  help            this list
  quit            end the session (so does the end of the input)"""


@dataclass(frozen=True)
class Reply:
    """What the session answers to a line: text to show, and whether the session is over."""

    text: str
    done: bool = False


@dataclass(frozen=True)
class Bot:
    """A policy playing one seat of a full game."""

    seat: int
    name: str
    """The seat's player."""
    policy_name: str
    policy: Any = field(compare=False)


@dataclass(frozen=True)
class Taken:
    """A step taken in the session: the step, its record entry and the position after it."""

    step: Hashable
    entry: Step
    after: Playable


def parse_bots(given: Sequence[str], commands_: GameCommands, position: Playable
               ) -> tuple[Bot, ...]:
    """``NAME=POLICY`` texts (a player's name or seat number, and one of the game's policies)
    as bots; only a full game (every hand known) can seat them."""
    if not given:
        return ()
    state = full_state(position)
    if state is None:
        raise InputError.of_option("bot", reason="bots play from a full game (every hand "
                                   "known); this position is one seat's view, where you enter "
                                   "what the others do")
    names = commands_.seat_names(state)
    offered = ", ".join(commands_.policies)
    bots: dict[int, Bot] = {}
    for text in given:
        who, equals, policy = text.partition("=")
        policy = policy.strip().lower()
        if not equals or not who.strip() or not policy:
            raise InputError.of_option("bot", f"NAME=POLICY (a player and one of {offered})",
                                       text)
        seat = _seat(who.strip(), names)
        if seat is None:
            raise InputError.of_option("bot", f"a player ({', '.join(names)}) or a seat "
                                       f"number from 1 to {len(names)}", who.strip())
        if policy not in commands_.policies:
            raise InputError.of_option("bot", f"a policy of {commands_.info.key} ({offered})",
                                       policy)
        bots[seat] = Bot(seat, names[seat], policy, commands_.policy(policy))
    return tuple(bots[seat] for seat in sorted(bots))


def _seat(text: str, names: Sequence[str]) -> int | None:
    folded = [name.casefold() for name in names]
    if text.casefold() in folded:
        return folded.index(text.casefold())
    try:
        number = whole_number(text)
    except ValueError:
        return None
    return number - 1 if 1 <= number <= len(names) else None


class Session:
    """A game played line by line (see the module docstring).  Not thread-safe; each front end
    keeps one per user."""

    def __init__(self, game: str, start: Record, source: str, bots: Sequence[str] = (),
                 seed: int = 0, auto_chance: bool = False,
                 hint_options: Mapping[str, Any] | None = None) -> None:
        """A session on the game ``start`` (a record: its start position, and the steps
        already taken); ``bots`` as ``NAME=POLICY`` texts (see :func:`parse_bots`)."""
        self.game = game
        self.commands = _any_commands(game)
        self.source = source
        self.start = start.start
        self.auto_chance = auto_chance
        self.hint_options = dict(hint_options or {})
        if "hint" in self.commands.verbs:  # a hint option the game does not take: one line now
            common = common_options(self.hint_options)
            game_options(self.commands, "hint", {k: v for k, v in self.hint_options.items()
                                                 if k not in common})
        self.seed = seed
        self.chance_rng = random.Random(seed * 64 + 1)
        self.bot_rng = random.Random(seed * 64 + 2)
        self.first = playable(start_document(start, source))
        self.taken: list[Taken] = []
        self.undone: list[list[Taken]] = []
        self.saved: set[Path] = set()
        self._spelled: tuple[Playable, list[str]] | None = None
        position = self.first
        for entry in start.steps:
            step = position.parse(entry.move)
            position = position.apply(step)
            self.taken.append(Taken(step, entry, position))
        self.bots = {bot.seat: bot for bot in parse_bots(bots, self.commands, position)}
        self.opening = self._play_on()
        """The steps the bots and chance took before the user's first turn."""

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def open(cls, doc: Document, bots: Sequence[str] = (), seed: int = 0,
             auto_chance: bool = False, hint_options: Mapping[str, Any] | None = None
             ) -> Session:
        """A session on the position or record ``doc`` (a record goes on from its last step)."""
        record = load_record(doc) if is_record(doc) else new_record(doc)
        return cls(doc.game, record, doc.source, bots, seed, auto_chance, hint_options)

    @classmethod
    def new_game(cls, game: str, players: int | None = None, bots: Sequence[str] = (),
                 seed: int = 0, auto_chance: bool = False,
                 hint_options: Mapping[str, Any] | None = None) -> Session:
        """A new game of ``game`` for ``players`` (default: the game's usual table), set up
        with ``GAME.initial_state`` from ``seed``."""
        game_commands = _any_commands(game)
        info = game_commands.info
        n = players or game_commands.players
        if n not in info.player_counts():
            raise InputError.of_option(
                "players", f"{info.min_players} to {info.max_players} players", n,
                reason=f"{info.key} takes {info.min_players} to {info.max_players} players, "
                       f"not {n}")
        registered = get_game(game)
        state = registered.initial_state(n, random.Random(seed * 64))
        data = registered.state_to_document(state)
        source = f"a new {game} game"
        return cls(game, Record(game, data, ()), source, bots, seed, auto_chance, hint_options)

    # -- where the game stands ----------------------------------------------------------------

    @property
    def position(self) -> Playable:
        return self.taken[-1].after if self.taken else self.first

    def record(self) -> Record:
        """The game so far as a record: the start and every step to the current position."""
        return Record(self.game, self.start, tuple(t.entry for t in self.taken))

    def _bot(self, position: Playable) -> Bot | None:
        """The bot to act in ``position``, if a bot's seat is to act."""
        if not self.bots or position.is_over() or position.awaits_chance():
            return None
        state = full_state(position)
        player = state.current_player() if state is not None else TERMINAL
        return self.bots.get(player) if player not in (CHANCE, TERMINAL) else None

    def waits(self, position: Playable) -> bool:
        """Whether the session waits for its user in ``position`` (or the game is over)."""
        if position.is_over():
            return True
        if position.awaits_chance():
            return not self.auto_chance
        return self._bot(position) is None

    def prompt(self) -> str:
        position = self.position
        if position.is_over():
            return "game over> "
        who = position.actor()
        if position.awaits_chance():
            who += " (chance)" if isinstance(position, StatePlayable) else " (you see)"
        return f"{len(self.taken) + 1}. {who}> "

    def intro(self) -> str:
        """What a front end shows first: the game, the seats, the board and who acts."""
        lines = [f"{self.commands.info.title}: {self.source}"
                 + (f" (from a record of {len(self.taken) - len(self.opening)} steps)"
                    if len(self.taken) > len(self.opening) else "")]
        if self.bots:
            lines.append("bots: " + ", ".join(f"{b.name} plays {b.policy_name}"
                                               for b in self.bots.values()))
        lines += [_step_line(t.entry) for t in self.opening]
        lines.append(self.board())
        lines.append("type a move, 'moves' for the legal ones, 'hint', or 'help'")
        return "\n".join(lines)

    def board(self) -> str:
        """The position as text, and who acts next (or how the game ended)."""
        position = self.position
        here = document(position.to_document(), self.source)
        return f"{self.commands.board(here)}\n{self.status()}"

    def status(self) -> str:
        position = self.position
        if position.is_over():
            return "the game is over" + _result(position, self.commands)
        if position.awaits_chance():
            what = "the outcome" if isinstance(position, StatePlayable) else "what you see"
            return (f"next: {position.actor()} (enter {what}, or 'random'; 'moves' lists "
                    "the possibilities)")
        return f"next: {position.actor()}"

    # -- lines ----------------------------------------------------------------------------------

    def handle(self, line: str) -> Reply:
        """The answer to one line (a command or a step); bad input is one line of text."""
        text = line.strip()
        if not text:
            return Reply("")
        word, _, rest = text.partition(" ")
        word = word.lower()
        rest = rest.strip()
        try:
            if word in ("quit", "exit"):
                return Reply("", done=True)
            if word in COMMANDS:
                answer: str = getattr(self, f"_{word}")(rest)
                return Reply(answer)
            return Reply(self._step(text))
        except (InputError, NotationError) as error:
            return Reply(_one_line(error))

    def _help(self, rest: str) -> str:
        return HELP

    def _show(self, rest: str) -> str:
        return self.board()

    def _moves(self, rest: str) -> str:
        position = self.position
        if position.is_over():
            return "the game is over: no move is legal"
        spelled = self.spellings()
        if rest:
            words = normalise(rest).split(" ")
            spelled = [s for s in spelled if _starts_with(normalise(s), words)]
            if not spelled:
                raise BadRequest(f"no legal {self._what()} starts with {rest!r}")
        shown = spelled[:LISTED]
        more = len(spelled) - len(shown)
        lines = [f"{len(spelled)} legal {self._what()}{'s' if len(spelled) != 1 else ''}"
                 f" ({position.actor()}):", *(f"  {s}" for s in shown)]
        if more:
            lines.append(f"  ... and {more} more ('moves WORDS' lists those starting with "
                         "WORDS)")
        return "\n".join(lines)

    def _what(self) -> str:
        return "chance outcome" if self.position.awaits_chance() else "move"

    def spellings(self) -> list[str]:
        """The canonical spelling of every legal step, in the game's order (cached per
        position: the completion of a terminal asks again at every key)."""
        position = self.position
        cached = self._spelled
        if cached is not None and cached[0] is position:
            return list(cached[1])
        spelled = [position.format(step) for step in position.legal_steps()]
        self._spelled = (position, spelled)
        return list(spelled)

    def completions(self, typed: str) -> list[str]:
        """What a line that starts with ``typed`` may become: the canonical spellings of the
        legal steps and the commands that start with it (ignoring case)."""
        folded = typed.lstrip().casefold()
        steps = [] if self.position.is_over() else self.spellings()
        found = [s for s in steps if s.casefold().startswith(folded)]
        found += [c for c in (*COMMANDS, "exit") if c.startswith(folded) and folded.strip()]
        return found

    def _hint(self, rest: str) -> str:
        given: dict[str, Any] = dict(self.hint_options)
        if rest:
            try:
                given["top"] = whole_number(rest)
            except ValueError:
                given["top"] = 0
            if given["top"] < 1:
                raise InputError("hint", None, "a number of moves of at least 1", rest)
        position = self.position
        if position.is_over():
            raise BadRequest("the game is over: nothing to hint")
        if "hint" not in self.commands.verbs:
            raise BadRequest(f"{self.game} does not support 'hint'")
        here = document(position.to_document(), f"{self.source}, step {len(self.taken) + 1}")
        report = run("hint", here, given)
        moves = [m["move"] for m in report.data.get("moves", []) if m.get("move")]
        if not moves:
            return report.text
        return report.text + "\nto enter: " + "; ".join(f"{rank}. {move}" for rank, move
                                                       in enumerate(moves, 1))

    def _random(self, rest: str) -> str:
        position = self.position
        if position.is_over():
            raise BadRequest("the game is over: nothing to draw")
        if not position.awaits_chance():
            raise BadRequest(f"random draws chance outcomes; {position.actor()} is to move "
                             "(enter a move)")
        step = position.random_step(self.chance_rng)
        return self._take(step, "drawn at random")

    def _undo(self, rest: str) -> str:
        back = [i for i in range(len(self.taken)) if self.waits(self._before(i))]
        if not back:
            raise BadRequest("nothing to undo: this is where the game began")
        target = back[-1]
        self.undone.append(self.taken[target:])
        del self.taken[target:]
        return "took back: " + "; ".join(t.entry.move for t in self.undone[-1]) + \
            "\n" + self.board()

    def _before(self, index: int) -> Playable:
        return self.taken[index - 1].after if index else self.first

    def _redo(self, rest: str) -> str:
        if not self.undone:
            raise BadRequest("nothing to redo")
        again = self.undone.pop()
        self.taken += again
        return "\n".join([*(_step_line(t.entry) for t in again), self.board()])

    def _save(self, rest: str) -> str:
        try:
            words = shlex.split(rest)
        except ValueError as error:  # an unclosed quote
            raise InputError(None, "save", "save [--record] [--force] FILE", rest,
                             reason=f"{error} in {rest!r}") from None
        flags = {w for w in words if w.startswith("--")}
        names = [w for w in words if not w.startswith("--")]
        unknown = flags - {"--record", "--force"}
        if unknown or len(names) != 1:
            raise InputError(None, "save", "save [--record] [--force] FILE",
                             ("save " + rest).strip())
        return self.save(Path(names[0]), "--record" in flags, "--force" in flags)

    def save(self, path: Path, as_record: bool = False, force: bool = False) -> str:
        """Write the position to ``path`` (TOML, or JSON when it ends in ``.json``), or the
        game record when ``as_record`` or its name ends in ``.record.toml``/``.record.json``.
        An existing file is replaced only when this session wrote it, or with ``force``."""
        record = as_record or path.name.lower().endswith(RECORD_SUFFIXES)
        paths.check_output(path, "save", (".toml", ".json"), force=True)
        resolved = path.resolve()
        if path.exists() and not force and resolved not in self.saved:
            raise InputError(None, "save", "a new file", str(path), reason=(
                f"{str(path)!r} exists already (save --force {path} replaces it)"))
        data = self.record().to_document() if record else self.position.to_document()
        try:
            paths.write_atomically(path, format_document(data, as_json=path.suffix.lower()
                                                         == ".json"))
        except OSError as error:
            raise InputError(None, "save", "a file that can be written", str(path), reason=(
                f"could not write {str(path)!r} ({error.strerror or error})")) from None
        self.saved.add(resolved)
        what = f"the record of {len(self.taken)} steps" if record else "the position"
        return f"saved {what} to {path}"

    # -- steps ----------------------------------------------------------------------------------

    def _step(self, text: str) -> str:
        position = self.position
        if position.is_over():
            raise BadRequest(f"the game is over: no move is legal ({text!r})")
        bot = self._bot(position)
        if bot is not None:  # its move was interrupted (Ctrl-C in a terminal)
            raise BadRequest(f"{bot.name} is a bot ({bot.policy_name}) and did not move: "
                             "'undo' takes back your last move")
        step = position.parse(text)
        return self._take(step, None)

    def _take(self, step: Hashable, comment: str | None) -> str:
        """Apply the user's ``step``, then let the bots and chance play on."""
        before = len(self.taken)
        self._apply(step, comment)
        self.undone.clear()
        self._play_on()
        lines = [_step_line(t.entry) for t in self.taken[before:]]
        return "\n".join([*lines, self.board()])

    def _apply(self, step: Hashable, comment: str | None) -> None:
        position = self.position
        entry = Step(len(self.taken) + 1, position.actor(), position.format(step), comment)
        self.taken.append(Taken(step, entry, position.apply(step)))

    def _play_on(self) -> list[Taken]:
        """The bots' moves and chance (with ``auto_chance``) until the session waits."""
        first = len(self.taken)
        while not self.waits(position := self.position):
            if position.awaits_chance():
                self._apply(position.random_step(self.chance_rng), "drawn at random")
                continue
            bot = self._bot(position)
            assert bot is not None
            state = full_state(position)
            assert state is not None, "a bot's position is a full state"
            self._apply(bot.policy(state, self.bot_rng), f"{bot.policy_name} bot")
        return self.taken[first:]


def _any_commands(game: str) -> GameCommands:
    found = commands_for(game)
    if found is None:
        raise BadRequest(f"{game} has no commands yet: play is not available for it")
    return found


def _starts_with(spelling: str, words: Sequence[str]) -> bool:
    theirs = spelling.split(" ")
    return len(words) <= len(theirs) and all(theirs[i].startswith(w)
                                             for i, w in enumerate(words))


def _step_line(entry: Step) -> str:
    return f"{entry.number}. {entry.actor}: {entry.move}" + (
        f"  ({entry.comment})" if entry.comment else "")


def _result(position: Playable, game_commands: GameCommands) -> str:
    """How a full game ended: the winners and their shares."""
    state = full_state(position)
    if state is None:
        return ""
    shares = state.returns()
    names = game_commands.seat_names(state)
    winners = [names[seat] for seat, share in enumerate(shares) if share > 0]
    if not winners:
        return ": nobody wins"
    return f": {' and '.join(winners)} {'wins' if len(winners) == 1 else 'share the win'}"


def _one_line(error: Exception) -> str:
    text = error.line() if isinstance(error, InputError) else str(error)
    return " ".join(text.split())


__all__ = ["Bot", "COMMANDS", "HELP", "Reply", "Session", "parse_bots"]

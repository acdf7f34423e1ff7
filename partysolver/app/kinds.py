"""What a front end may know of a game's documents and figures, declared by the game.

A game's commands (:class:`~.base.GameCommands`) declare

- the **kinds of document** it reads (:class:`DocumentKind`: a position, a puzzle, a
  scenario, a seat log, a record, ...), which verbs each kind supports, and what each may show
  before the player asks (a puzzle's answer is kept back: :attr:`DocumentKind.secret`,
  :func:`conceal`);
- how a ranked move's **figures** read (:class:`Figures`: ``73.3% to win``, ``+0.50 stress``,
  ``exp. loss 0.005 [0.001, 0.014]``).

The front ends read only these declarations: they name no game.  A game that declares nothing
reads a position and a record, each supporting every document verb the game offers
(:func:`default_kinds`), and shows a move's value as a plain number with its interval.

This module knows no game and imports nothing of the application layer but at type-checking
time (``base`` imports it).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal

from ..models.documents import format_document, parse_document
from ..models.errors import InputError

DOCUMENT_VERBS = ("hint", "solve", "verify", "render", "apply", "play", "review", "check")
"""The verbs that take a document, in the order they are listed."""

PLAY_ALONG = ("apply", "play")
"""The play-along verbs of a position (a record adds ``review``)."""

SECRET = re.compile(r"^#\s*(recorded answer|answer|proven optimum|solution)\b", re.IGNORECASE)
"""Comment lines of a puzzle file that give its answer away (kept back unless revealed)."""


@dataclass(frozen=True)
class DocumentKind:
    """A kind of document a game reads, and what the front ends may do with it."""

    name: str
    """``position``, ``puzzle``, ``scenario``, ``seat log``, ``record``, ``park``, ..."""
    verbs: tuple[str, ...]
    """The verbs the kind supports (of :data:`DOCUMENT_VERBS`): the board offers only these."""
    what: str = ""
    """What a file of this kind is, in words (``a layout puzzle, not a game in progress``)."""
    puzzle: str | None = None
    """The form of a puzzle's answer (``rule``, ``layout``, ``yes-no``; ``None``: no puzzle):
    the board opens puzzle mode and ``check`` judges an answer."""
    secret: tuple[str, ...] = ()
    """Top-level fields that hold the answer: left out of the text and the data a front end
    shows (:func:`conceal`); the solver still reads them from the shipped file."""
    reveals: tuple[str, ...] = ("hint", "solve")
    """The verbs whose answer gives the puzzle's answer away: puzzle mode does not offer them
    (Show the answer asks for ``solve``).  ``next`` among them: the board's Next step would
    too (a yes-or-no question, whose first step of a winning line says "yes" and whose lack of
    one says "no")."""
    question: str = ""
    """The puzzle's question as the board asks it."""
    answer_help: str = ""
    """What an answer looks like (``M07 at 0,2 turned 90``), for a free-text answer."""
    choices: tuple[str, ...] = ()
    """The answers to pick from (empty: a free text)."""

    def supports(self, verb: str) -> bool:
        return verb in self.verbs

    def as_json(self) -> dict[str, Any]:
        data = asdict(self)
        for key in ("verbs", "secret", "reveals", "choices"):
            data[key] = list(data[key])
        return data


@dataclass(frozen=True)
class Figure:
    """How the board writes one figure of a ranked move, with its label and unit."""

    label: str
    """The words with the number: ``to win``, ``stress``, ``exp. loss``."""
    key: str = "value"
    """``value``: the move's value; else the figure of that name in the move's ``figures``."""
    style: Literal["number", "percent", "signed"] = "number"
    """``percent``: a chance from 0 to 1 as ``70.8%``; ``signed``: ``+0.50`` or ``−0.50``."""
    digits: int = 3
    before: bool = False
    """The label goes before the number (``exp. loss 0.005``)."""
    interval: bool = False
    """Add the figure's interval (the move's ``interval`` for the value, else
    ``figures.intervals[key]``) as ``[low, high]``."""
    floor: float | None = None
    """The interval's low end is shown no lower than this."""
    optional: bool = False
    """A further figure left out when it is missing or zero (``, 12.3% to win``)."""
    needs: str | None = None
    """A figure the move must carry as a number for this way of writing to apply."""
    marks: tuple[tuple[str, str], ...] = ()
    """``(figure, words)``: ``(words)`` after the number when the figure is true
    (``(exact)`` for a proved value)."""
    better: Literal["higher", "lower"] = "higher"
    """Which way the figure ranks a move first (in :attr:`Figures.ranks`)."""


@dataclass(frozen=True)
class Figures:
    """How a game's ranked moves read on the board: the first figure that applies to a move,
    then the further (optional) ones, joined by commas; none that applies: the value, with its
    interval."""

    shown: tuple[Figure, ...] = ()
    column: str = "value"
    """The heading of a column of values (the best answer to each draw)."""
    negated: str = ""
    """Words the hint's ``value_text`` begins with when the value is a figure negated to sort
    (``minus ``): the board says the figure instead."""
    ranks: tuple[Figure, ...] = ()
    """The figures that rank the moves, the first first, when the value alone does not (a
    tie on one is broken by the next): the board shows each move the one that set it apart
    from its neighbour.  Empty: the value ranks them."""

    def as_json(self) -> dict[str, Any]:
        def figure_json(figure: Figure) -> dict[str, Any]:
            return asdict(figure) | {"marks": [list(m) for m in figure.marks]}

        return {"shown": [figure_json(figure) for figure in self.shown],
                "column": self.column, "negated": self.negated,
                "ranks": [figure_json(figure) for figure in self.ranks]}


def default_kinds(verbs: Iterable[str]) -> tuple[DocumentKind, ...]:
    """A position and a record, each with every document verb in ``verbs`` and play along (a
    record adds ``review``): what a game that declares no kinds reads."""
    own = [verb for verb in DOCUMENT_VERBS if verb in set(verbs) and verb != "check"]
    return (DocumentKind("position", ordered([*own, *PLAY_ALONG]), "a game position"),
            record_kind(own))


def record_kind(verbs: Iterable[str], what: str = "a game record") -> DocumentKind:
    """A record of a game whose positions support ``verbs``: the verbs work on its last
    position, and it can be played on and reviewed."""
    return DocumentKind("record", ordered([*verbs, *PLAY_ALONG, "review"]), what)


def ordered(verbs: Iterable[str]) -> tuple[str, ...]:
    """``verbs`` without repeats, in the order of :data:`DOCUMENT_VERBS`."""
    chosen = set(verbs)
    return tuple(verb for verb in DOCUMENT_VERBS if verb in chosen)


def find(kinds: Sequence[DocumentKind], name: str) -> DocumentKind:
    """The kind called ``name`` (a game's table must hold every name its ``kind_of`` gives)."""
    for kind in kinds:
        if kind.name == name:
            return kind
    raise LookupError(f"no document kind {name!r} declared (the kinds: "
                      f"{', '.join(k.name for k in kinds)})")


# -- keeping a puzzle's answer back ------------------------------------------------------------


def conceal(kind: DocumentKind, data: Mapping[str, Any], text: str | None, source: str
            ) -> tuple[dict[str, Any], str]:
    """``data`` and its ``text`` as a front end may show them before the player asks: without
    the answer's comment lines (:data:`SECRET`) and, for a puzzle, without its
    :attr:`DocumentKind.secret` fields.  The text keeps its comments and layout where the
    fields can be cut out line by line (checked by reading it back); else it is written afresh
    from the data, after its first comment lines.  ``text=None``: the data written as TOML."""
    hidden = [key for key in kind.secret if key in data]
    kept = {key: value for key, value in data.items() if key not in hidden}
    if text is None:
        return kept, format_document(kept)
    lines = [line for line in text.splitlines(keepends=True) if not SECRET.match(line)]
    if not hidden:
        return kept, "".join(lines)
    as_json = text.lstrip().startswith("{")
    if not as_json:
        cut = _cut_toml("".join(lines), set(hidden))
        if _reads_as(cut, kept, source):
            return kept, cut
    head = "" if as_json else "".join(_leading_comments(lines))
    return kept, head + format_document(kept, as_json=as_json)


def _leading_comments(lines: Sequence[str]) -> list[str]:
    head = []
    for line in lines:
        if not line.startswith("#"):
            break
        head.append(line)
    return head


_HEADER = re.compile(r"^\s*\[\[?\s*([A-Za-z0-9_-]+)")
_KEY = re.compile(r"^\s*([A-Za-z0-9_-]+)\s*=(.*)$", re.DOTALL)


def _cut_toml(text: str, keys: set[str]) -> str:
    """``text`` without the top-level keys ``keys``: their ``key = ...`` lines (a value over
    several lines too) before the first table, and their ``[key]``, ``[key.x]`` and
    ``[[key]]`` tables."""
    kept: list[str] = []
    in_table = skipping = False
    depth = 0
    for line in text.splitlines(keepends=True):
        if depth > 0:  # the rest of a value being cut
            depth += _balance(line)
            continue
        header = _HEADER.match(line)
        if header is not None:
            in_table, skipping = True, header.group(1) in keys
        if skipping:
            continue
        key = _KEY.match(line)
        if not in_table and key is not None and key.group(1) in keys:
            depth = max(0, _balance(key.group(2)))
            continue
        kept.append(line)
    return "".join(kept)


def _balance(text: str) -> int:
    """Brackets opened minus closed in ``text`` (outside a trailing comment)."""
    text = text.split("#", 1)[0]
    return sum(text.count(c) for c in "[{") - sum(text.count(c) for c in "]}")


def _reads_as(text: str, data: Mapping[str, Any], source: str) -> bool:
    try:
        return parse_document(text, source) == dict(data)
    except InputError:
        return False

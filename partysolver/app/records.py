"""Game records: a start position (a document, or a shipped position by name) and the
steps from it in the game's notation, each with an optional comment; replaying them, and
a record read as its last position (:func:`current`, which every verb on a document
uses).  Below :mod:`.base`, which reads records through it, and :mod:`.playalong`
(``apply``, ``play``, ``review``), which writes them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..models.documents import Fields, item_path
from ..models.errors import InputError
from ..models.notation import NotationError, Playable
from ..models.registry import get_game
from .inputs import BadRequest, Document, document
from .shipped import reference


@dataclass(frozen=True)
class Step:
    """One applied step: its number (from 1), who took it, its canonical notation and an
    optional comment."""

    number: int
    actor: str
    move: str
    comment: str | None = None

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"number": self.number, "actor": self.actor, "move": self.move}
        if self.comment:
            data["comment"] = self.comment
        return data


def playable(doc: Document) -> Playable:
    """The position of ``doc`` to play on: a full state, or one seat's view."""
    return get_game(doc.game).playable(doc.data, doc.source)


def full_state_of(doc: Document) -> Any:
    """The full state of ``doc``'s position (``None``: one seat's view, which does not say what
    the others hold): what a review values every player on."""
    from ..models.playable import full_state

    return full_state(playable(doc))


def step(position: Playable, text: str, where: str) -> Any:
    """The legal step ``text`` names, or bad input naming ``where`` it was given."""
    try:
        return position.parse(text)
    except NotationError as error:
        raise InputError(None, where, f"a legal step for {position.actor()}", text,
                         reason=f"{error} ({position.actor()} to act)") from None


def advance(position: Playable, texts: Sequence[str], rng: random.Random | None = None,
            first: int = 1, comments: Sequence[str | None] = ()) -> tuple[Playable, list[Step]]:
    """``position`` after the steps ``texts`` (numbered from ``first``).  With ``rng``, the
    chance outcomes (and, from a seat, what the seat observes) that the texts leave out are
    drawn: whenever chance is next and the next text does not name one of its outcomes, and
    after the last text until someone has to decide."""
    applied: list[Step] = []
    number = first

    def take(chosen: Any, comment: str | None) -> None:
        nonlocal position, number
        applied.append(Step(number, position.actor(), position.format(chosen), comment))
        position = position.apply(chosen)
        number += 1

    for index, text in enumerate(texts):
        comment = comments[index] if index < len(comments) else None
        while True:
            if position.is_over():
                raise InputError(None, f"step {number} ({text!r})", "no step: the game is over",
                                 text, reason="the game is over, no move is legal")
            if rng is None or not position.awaits_chance():
                take(step(position, text, f"step {number}"), comment)
                break
            try:
                take(position.parse(text), comment)
                break
            except NotationError:
                take(position.random_step(rng), "drawn at random")
    while rng is not None and position.awaits_chance() and not position.is_over():
        take(position.random_step(rng), "drawn at random")
    return position, applied


# -- records ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Record:
    """A game record: the start position's document and the steps from it."""

    game: str
    start: Mapping[str, Any] | str
    """The start position: a document, or the name ``GAME:NAME`` of a shipped one."""
    steps: tuple[Step, ...]
    variations: Mapping[int, list[list[dict[str, Any]]]] = field(default_factory=dict)
    """The lines played instead of a step, by the step's index (from 0): each a list of steps
    as written (``{"move", "comment", "variations"}``), checked when the record is read.  They
    are kept and written back; every verb plays the main line (``steps``)."""

    def to_document(self) -> dict[str, Any]:
        data: dict[str, Any] = {"game": self.game, "kind": "record", "start": self.start}
        data["steps"] = [{"move": s.move} | ({"comment": s.comment} if s.comment else {})
                         | ({"variations": self.variations[i]} if self.variations.get(i) else {})
                         for i, s in enumerate(self.steps)]
        return data


def is_record(doc: Document) -> bool:
    return doc.data.get("kind") == "record"


def load_record(doc: Document) -> Record:
    """The record in ``doc``; every step is checked by replaying it."""
    fields = Fields(doc.data, doc.source)
    fields.text("game")
    fields.text("kind", choices=("record",))
    raw = fields.raw("start")
    if isinstance(raw, str):
        try:
            known = reference(raw) is not None
        except (InputError, BadRequest):  # a game's name, but none of its shipped positions
            known = False
        if not known:
            raise fields.error("start", "a shipped position as GAME:NAME (partysolver example "
                               "--list) or a table with the start position", raw)
        if raw.partition(":")[0] != doc.game:  # another game's position: no record of this one
            raise fields.error("start", f"a shipped position of the record's game {doc.game!r}",
                               raw)
        start: Mapping[str, Any] | str = raw
    elif isinstance(raw, Mapping):
        start = dict(raw)
        if start.get("game", doc.game) != doc.game:
            raise fields.error("start.game", f"the record's game {doc.game!r}",
                               start.get("game"))
        start = {"game": doc.game} | {k: v for k, v in start.items() if k != "game"}
    else:
        raise fields.error("start", "a shipped position (GAME:NAME) or a table", raw)
    read = _read_steps(fields.tables("steps", []))
    fields.done()
    record = Record(doc.game, start, ())
    position = playable(start_document(record, doc.source))
    try:
        _, steps = advance(position, [item[0] for item in read], None,
                           comments=[item[1] for item in read])
    except InputError as error:
        raise error.within(doc.source, "steps") from None
    variations = {index: [[_written(entry) for entry in line] for line in item[2]]
                  for index, item in enumerate(read) if item[2]}
    if variations:
        _check_lines(position, read, 1, doc.source)
    return Record(doc.game, start, tuple(steps), variations)


_Entry = tuple[str, str | None, list[list[Any]], str]
"""A step as read: its move, its comment, its variations (lines of entries) and the field
path of its variations."""


def _read_steps(items: Sequence[Fields]) -> list[_Entry]:
    """Steps as written: ``move``, an optional ``comment`` and optional ``variations``, the
    lines played instead of this step (each a non-empty list of steps, which may have their
    own)."""
    read: list[_Entry] = []
    for item in items:
        move, comment = item.text("move"), item.text("comment", None)
        where = item.field("variations")
        lines = []
        for index, line in enumerate(item.array("variations", [])):
            path = item_path(where, index)
            if not isinstance(line, list) or not line:
                raise InputError(item.source, path, "a line of steps played instead of this "
                                 "one (a non-empty list of tables with a move)", line)
            lines.append(_read_steps([Fields(entry, item.source, item_path(path, number))
                                      for number, entry in enumerate(line)]))
        item.done()
        read.append((move, comment, lines, where))
    return read


def _written(entry: _Entry) -> dict[str, Any]:
    move, comment, lines, _ = entry
    return ({"move": move} | ({"comment": comment} if comment else {})
            | ({"variations": [[_written(e) for e in line] for line in lines]} if lines else {}))


def _check_lines(position: Playable, entries: Sequence[_Entry], number: int,
                 source: str) -> None:
    """Every variation of ``entries`` replayed from the position before the step it stands
    for: each of its steps must be legal there, as a record's steps are."""
    for move, _, lines, where in entries:
        for index, line in enumerate(lines):
            path = item_path(where, index)
            try:
                advance(position, [entry[0] for entry in line], None, first=number)
            except InputError as error:
                raise error.within(source, path) from None
            _check_lines(position, line, number, source)
        position = position.apply(step(position, move, f"step {number}"))
        number += 1


def start_document(record: Record, source: str) -> Document:
    if isinstance(record.start, str):
        found = reference(record.start)
        assert found is not None
        return found.document()
    return document(record.start, f"{source}: start")


def start_of(doc: Document) -> tuple[Playable, list[Step]]:
    """The position to begin from and the steps already taken: a record's start and steps, or
    a position file and none."""
    if is_record(doc):
        record = load_record(doc)
        return playable(start_document(record, doc.source)), list(record.steps)
    return playable(doc), []


def current(doc: Document) -> Document:
    """The position a verb works on: ``doc`` itself, or a record's last position (so that
    ``hint``, ``solve``, ``verify`` and ``render`` read a record as the game so far)."""
    if not is_record(doc):
        return doc
    position, steps = position_after(doc, None)
    return document(position.to_document(), f"{doc.source} (after step {len(steps)})")


def position_after(doc: Document, upto: int | None) -> tuple[Playable, list[Step]]:
    """A record's position after its first ``upto`` steps (all of them when ``None``)."""
    start, steps = start_of(doc)
    if upto is not None:
        if upto < 0 or upto > len(steps):
            raise InputError.of_option("upto", f"a step number from 0 to {len(steps)}", upto)
        steps = steps[:upto]
    position, replayed = advance(start, [s.move for s in steps], None,
                                 comments=[s.comment for s in steps])
    return position, replayed


def new_record(doc: Document) -> Record:
    """A record starting from the position ``doc`` (a ``GAME:NAME`` source stays a name)."""
    if is_record(doc):
        return load_record(doc)
    name = doc.source if reference(doc.source) is not None else None
    start: Mapping[str, Any] | str = name or {k: v for k, v in doc.data.items()}
    return Record(doc.game, start, ())


def extended(record: Record, steps: Sequence[Step]) -> Record:
    return Record(record.game, record.start, record.steps + tuple(steps), record.variations)

"""Puzzle mode: judging a player's own answer to a shipped (or uploaded) puzzle.

Whatever the front end and the game, "check my answer" is one call, :func:`check`, answering in
one shape (``check`` in the JSON contract, :func:`answer_data`): ``correct`` (``true``,
``false``, or ``null`` when the solver could not decide within its budget), a one-line
``verdict``, the ``problems`` of the answer and, where the puzzle has a number to reach, the
answer's ``value`` and the ``best``.

Which documents are puzzles, and the form of their answer, each game declares in its kinds
(:attr:`.kinds.DocumentKind.puzzle`); each judges an answer in its own ``check`` hook (a Pool
Party Stars rule, a Meeple Land layout, a Meeple Party yes or no: see their modules).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..models.errors import InputError, Problem
from .base import Document, Report, all_commands, commands_for
from .contract import problem_json
from .kinds import DocumentKind, conceal, default_kinds


def puzzle_kind(document: Document) -> DocumentKind | None:
    """The kind of ``document`` when it is a puzzle (a kind with an answer to check), else
    ``None``."""
    commands = commands_for(document.game)
    found = commands.kind(document) if commands is not None else None
    return found if found is not None and found.puzzle is not None else None


def kind(document: Document) -> str | None:
    """The form of ``document``'s answer when it is a puzzle (``rule``, ``layout``,
    ``yes-no``, ...), ``None`` when it is no puzzle."""
    found = puzzle_kind(document)
    return found.puzzle if found is not None else None


def shown(document: Document, text: str | None) -> dict[str, Any]:
    """What a front end may show of ``document`` before the player asks: its ``data`` and
    ``text`` without a puzzle's answer (:func:`.kinds.conceal`; ``text=None``: written from
    the data), its kind (``document_kind``: the verbs it supports, ``verbs``, and for a
    puzzle the question and the form of the answer) and the form of its answer (``puzzle``:
    ``None`` for no puzzle)."""
    commands = commands_for(document.game)
    kind = commands.kind(document) if commands is not None else default_kinds(())[0]
    data, text = conceal(kind, document.data, text, document.source)
    return {"data": data, "text": text, "document_kind": kind.as_json(),
            "verbs": list(kind.verbs), "puzzle": kind.puzzle}


def puzzles_text() -> str:
    """Every kind of puzzle the games read, in words: what ``check`` takes."""
    found = [f"a {commands.info.title} {item.name}" for commands in all_commands().values()
             for item in commands.document_kinds() if item.puzzle is not None]
    if not found:
        return "a puzzle"
    return found[0] if len(found) == 1 else ", ".join(found[:-1]) + " or " + found[-1]


def check(document: Document, answer: str, given: Mapping[str, Any] | None = None) -> Report:
    """The judgement of ``answer`` to the puzzle ``document``; ``given`` are solve options."""
    commands = commands_for(document.game)
    if commands is None or puzzle_kind(document) is None:
        raise InputError(document.source, None, f"a puzzle ({puzzles_text()}) to check an "
                         "answer against")
    if not isinstance(answer, str) or not answer.strip():
        raise InputError(None, "answer", "a non-empty text")
    return commands.check(document, answer, dict(given or {}))


def answer_data(game: str, correct: bool | None, verdict: str, answer: str,
                problems: list[Problem] | None = None, **extra: Any) -> dict[str, Any]:
    """A judgement as ``check`` answers it."""
    return {"game": game, "correct": correct, "verdict": verdict, "answer": answer,
            "problems": [problem_json(p) for p in problems or []]} | extra

"""Batch ``verify DIR`` and ``solve DIR``: one unit of work per file.

A file's unit runs the same report as ``partysolver verify FILE`` with the same options (the
same ``--seed`` too), so a batch line is what the file alone would give.  :func:`file_report`
is the one place that asks a game for its report.  The file's text travels to the worker with
the unit (workers need no shared folder); files a document names itself (a custom catalogue)
must exist at the same path on the workers.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..models.errors import InputError
from .base import Document, Options, Prepared, commands, parse

SUFFIXES = (".toml", ".json")
"""The files a batch takes from its folder (not its subfolders)."""


def folder_files(folder: Path) -> list[Path]:
    """The position and puzzle files of ``folder``, sorted by name (a unit's index is its
    place in this list)."""
    return sorted(p for p in folder.iterdir() if p.suffix in SUFFIXES and p.is_file())


def read_text(path: Path) -> str | None:
    """The file's text, or ``None`` when it cannot be read (its unit then fails, saying why)."""
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def load(source: str, text: str | None) -> Document:
    """The document in ``text``, naming a known game; bad input otherwise."""
    if text is None:
        from ..models.documents import read_document

        read_document(source)  # raises the reason the file cannot be read
        raise InputError(source, None, "a readable file")
    return parse(text, source)


def game_of(source: str, text: str | None) -> str | None:
    """The game ``text`` names, or ``None`` when it is bad input (its unit will say why)."""
    try:
        return load(source, text).game
    except InputError:
        return None


def file_report(verb: str, document: Document, options: Options) -> dict[str, Any]:
    """``verb``'s report on one document: ``{"data", "text", "exit_code"}``, as
    ``partysolver VERB FILE`` would print it."""
    try:
        found = commands(document.game, verb)
    except InputError as error:
        raise InputError(document.source, "game", f"a game that supports '{verb}' "
                         f"({error})") from None
    report = Prepared(document.game, verb, found, options).report(document)
    return {"data": report.data, "text": report.text, "exit_code": report.exit_code}


@dataclass(frozen=True)
class FileReports:
    """The units of a batch: unit ``index`` is ``verb``'s report on ``files[index]`` (its
    source and text), with the options of its game (a game missing from ``options`` does not
    offer ``verb``)."""

    verb: str
    files: tuple[tuple[str, str | None], ...]
    options: Mapping[str, Options]

    def __call__(self, seed: int, index: int) -> dict[str, Any]:
        started = time.perf_counter()  # each file's time limit counts from its own start
        source, text = self.files[index]
        document = load(source, text)
        options = self.options.get(document.game, Options())
        return file_report(self.verb, document, replace(options, started=started))

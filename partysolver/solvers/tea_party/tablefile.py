"""The compiled exact search's table kept on disk between runs (``solve --table FILE``).

A file is one line :data:`MAGIC`, one JSON line (the search's :func:`stamp`, the number of
entries, the byte order, the table's keys: ``codec``), then the entries as the table keeps
them: four native 64-bit integers each, or two with compact keys (``codec[0]`` 1;
``kernel.Table.write`` and ``Table.load``).  This module reads and checks the head
only, without the kernel (so that a command checks its file before any work)."""

from __future__ import annotations

import ast
import functools
import hashlib
import json
import sys
from math import comb
from pathlib import Path
from typing import IO, Any

MAGIC = b"partysolver tea-party exact table 1\n"
"""The first line of a table file."""


CODEC = 16
"""The numbers that describe a table's keys (``kernel.codec_for``): ``codec[0]`` 1 for
compact keys, ``codec[1 + t]`` the most loose heroes of kind ``t`` (a Queen counted as a King),
``codec[8 + r]`` the most a stomach holds of rank ``r``."""

RANKS = (0, 1, 2, 3, 4, 6)
"""The ranks of a stomach's heroes (Fighter, Cleric, Rogue, Wizard, Ranger or Bard, King or
Queen: the nibbles of ``kernel._by_rank``)."""

HEADS = 5
"""A compact key's head: the form of a draw's key (0 to 3) or the end of the game (4)."""

COMPACT_LIMIT = 1 << 56
"""Compact keys stay below it (a row's top 8 bits keep its subtree's size class)."""


def compact_keys(kinds: list[int], ranks: list[int]) -> int:
    """How many compact keys the bounds ``kinds`` (7 numbers) and ``ranks`` (8, by nibble)
    allow: in forms 0 and 1 each kind's bag and teacup counts together (C(n + 3, 3) ways), in
    forms 2 and 3 its bag count alone; each rank's two stomach counts (forms 0 and 2, the end
    of the game) or their difference (forms 1 and 3); four Ranger flags (form 2, the end);
    times the heads."""
    together = alone = both = difference = 1
    for n in kinds:
        together *= comb(n + 3, 3)
        alone *= n + 1
    for r in RANKS:
        both *= (ranks[r] + 1) ** 2
        difference *= 2 * ranks[r] + 1
    return HEADS * max(together * both, together * difference, alone * both * 4,
                       alone * difference)


class TableFileError(ValueError):
    """A file that cannot be used as the search's table; the message says what was expected."""


def _sources() -> tuple[bytes, ...]:
    """The compiled search's module and the rules' modules it restates, as they are now."""
    from ...models.tea_party import game, state

    return tuple(module.read_bytes() for module in (
        Path(__file__).with_name("kernel.py"), Path(game.__file__), Path(state.__file__)))


class _Prose(ast.NodeTransformer):
    """Drops the statements that are only a string: docstrings, attribute notes."""

    def visit_Expr(self, node: ast.Expr) -> ast.AST | None:
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return None
        return node


def _digest(sources: tuple[bytes, ...]) -> str:
    """The SHA-256 of the modules' code: their syntax trees without docstrings (comments and
    layout are not in a tree), so that rewording a docstring keeps the tables it made.  The
    dump of a tree may differ from one Python version to the next: a table saved under one
    is refused under another, as made by another search (safe, if surprising)."""
    digest = hashlib.sha256()
    for source in sources:
        digest.update(ast.dump(_Prose().visit(ast.parse(source))).encode())
    return digest.hexdigest()


_SOURCES = _sources()
"""Read when this module is first imported (the kernel imports it), so that a long search
stamps its table with the code it runs, even if the files change before it saves (hashed
when first asked for: parsing them costs some 50 to 70 ms, which only ``--table`` needs)."""


@functools.cache
def stamp() -> str:
    """What made a table: the SHA-256 of the code of the compiled search's module and of the
    rules' modules it restates (any change of code may change the keys or the values)."""
    return _digest(_SOURCES)


def is_table(head: bytes) -> bool:
    """Whether a file starting with ``head`` is a table file (one ``--table`` may replace)."""
    return head.startswith(MAGIC)


def header(head: bytes) -> dict[str, Any]:
    """The header of a table file (its second line), which must be one this version of the
    search wrote; raises :class:`TableFileError`."""
    try:
        data = json.loads(head)
        entries = int(data["entries"])
    except (ValueError, KeyError, TypeError, RecursionError):
        raise TableFileError("a table whose second line is a JSON header with its entries"
                             ) from None
    if entries < 0:
        raise TableFileError("a table whose header counts its entries")
    if data.get("stamp") != stamp() or data.get("byteorder") != sys.byteorder:
        raise TableFileError("a table made by this version of the exact search (this one was "
                             "made by another, whose keys may differ: name a new file)")
    codec = data.get("codec")
    if not (isinstance(codec, list) and len(codec) == CODEC
            and all(type(v) is int and 0 <= v <= 15 for v in codec) and codec[0] in (0, 1)
            and (not codec[0] or compact_keys(codec[1:8], codec[8:]) <= COMPACT_LIMIT)):
        raise TableFileError(f"a table whose header describes its keys (\"codec\": {CODEC} "
                             "whole numbers from 0 to 15, compact keys within 56 bits)")
    return data


def open_table(source: IO[bytes]) -> dict[str, Any]:
    """Read and check a table file's head from ``source``, which is left at its first entry."""
    if source.read(len(MAGIC)) != MAGIC:
        raise TableFileError("a table written by partysolver's Tea Party exact search")
    return header(source.readline(1 << 16))


def check(path: Path) -> None:
    """Refuse a table file this search cannot load (an absent one is fine: it is made)."""
    if path.exists():
        with path.open("rb") as source:
            open_table(source)


def new_header(entries: int, codec: list[int]) -> bytes:
    """The head of a table file of ``entries`` entries made by this version of the search,
    with the keys of ``codec``."""
    return MAGIC + json.dumps({"stamp": stamp(), "entries": entries, "byteorder": sys.byteorder,
                               "codec": codec}).encode() + b"\n"

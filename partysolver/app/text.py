"""Text output shared by every game: ranked-move tables, problem lists and rate tables.

Tables fit the reader's screen: a front end sets the width of its text (the terminal's
columns) around a verb with :func:`width`, and :func:`table` wraps its widest text columns
(reasons, moves) to fit, continuing a cell on the next lines under itself.  Without a width
(JSON, the web board, which wraps on its own) tables keep their natural width.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from ..models.errors import Problem

WIDTH: ContextVar[int | None] = ContextVar("WIDTH", default=None)
"""The width text should fit in (``None``: no limit)."""

NARROWEST = 16
"""A wrapped column is never made narrower than this."""

STACKED = 40
"""A last column that would be narrower than this goes under its row instead."""


@contextmanager
def width(columns: int | None) -> Iterator[None]:
    """Make the tables built inside fit ``columns`` characters."""
    token = WIDTH.set(columns)
    try:
        yield
    finally:
        WIDTH.reset(token)


def percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``1 token``, ``2 tokens`` (``many`` for irregular plurals)."""
    return f"{count:,} {noun if count == 1 else many or noun + 's'}"


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]], right: Sequence[int] = (),
          legend: str | None = None) -> str:
    """A plain text table; columns whose index is in ``right`` are right-aligned.

    Past the width set by :func:`width`, the widest left-aligned columns wrap; when that would
    leave the last column (a reason, say) narrower than :data:`STACKED`, it goes under its row
    instead, indented, at the full width.  ``legend`` (what the columns mean) follows."""
    cells = [[str(h) for h in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    limit = WIDTH.get()
    under = False
    if limit is not None and sum(widths) + 2 * (len(widths) - 1) > limit:
        wrappable = [i not in right for i in range(len(headers))]
        fitted = _fit(widths, wrappable, limit)
        last = len(headers) - 1
        if len(headers) > 1 and wrappable[last] and fitted[last] < min(STACKED, widths[last]):
            under = True
            fitted = _fit(widths[:last], wrappable[:last], limit)
        widths = fitted
    lines = []
    for number, row in enumerate(cells):
        shown = row[:len(widths)]
        pieces = [textwrap.wrap(c, w) or [""] if len(c) > w else [c]
                  for c, w in zip(shown, widths, strict=True)]
        for k in range(max(len(p) for p in pieces)):
            parts = [(p[k] if k < len(p) else "").rjust(w) if i in right else
                     (p[k] if k < len(p) else "").ljust(w)
                     for i, (p, w) in enumerate(zip(pieces, widths, strict=True))]
            lines.append("  ".join(parts).rstrip())
        if number == 0:
            lines.append("  ".join("-" * w for w in widths))
        elif under and row[-1]:
            assert limit is not None
            lines += textwrap.wrap(row[-1], limit, initial_indent="   ",
                                   subsequent_indent="   ")
    if under:
        lines.insert(0, f"({headers[-1]}: under each row)")
    if legend:
        lines += textwrap.wrap(legend, limit) if limit else [legend]
    return "\n".join(lines)


def _fit(widths: list[int], wrappable: list[bool], limit: int) -> list[int]:
    """Column widths that fit ``limit`` (with two spaces between columns): the widest
    wrappable column gives up a character at a time, none below :data:`NARROWEST`."""
    fitted = list(widths)
    excess = sum(fitted) + 2 * (len(fitted) - 1) - limit
    while excess > 0:
        candidates = [i for i, ok in enumerate(wrappable) if ok and fitted[i] > NARROWEST]
        if not candidates:
            break
        widest = max(candidates, key=lambda i: fitted[i])
        fitted[widest] -= 1
        excess -= 1
    return fitted


def problems_text(problems: Sequence[Problem]) -> str:
    if not problems:
        return "valid: no problems found"
    lines = [f"invalid: {plural(len(problems), 'problem')}"]
    lines += [f"  [{p.code}] {p.field + ': ' if p.field else ''}{p.message}" for p in problems]
    return "\n".join(lines)


def top(items: Sequence[Any], k: int | None) -> Sequence[Any]:
    return items if k is None else items[:k]

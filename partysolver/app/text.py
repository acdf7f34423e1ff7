"""Text output shared by every game: ranked-move tables, problem lists and rate tables."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..models.errors import Problem


def percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]], right: Sequence[int] = ()
          ) -> str:
    """A plain text table; columns whose index is in ``right`` are right-aligned."""
    cells = [[str(h) for h in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    lines = []
    for row in cells:
        parts = [c.rjust(w) if i in right else c.ljust(w)
                 for i, (c, w) in enumerate(zip(row, widths, strict=True))]
        lines.append("  ".join(parts).rstrip())
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def problems_text(problems: Sequence[Problem]) -> str:
    if not problems:
        return "valid: no problems found"
    lines = [f"invalid: {len(problems)} problem(s)"]
    lines += [f"  [{p.code}] {p.field + ': ' if p.field else ''}{p.message}" for p in problems]
    return "\n".join(lines)


def problems_json(problems: Sequence[Problem]) -> list[dict[str, str]]:
    return [p.as_json() for p in problems]


def top(items: Sequence[Any], k: int | None) -> Sequence[Any]:
    return items if k is None else items[:k]

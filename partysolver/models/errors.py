"""Bad input and rule problems, the two ways a position can be wrong.

*Malformed* input (not TOML, a wrong type, an unknown field, a name that does not exist) cannot
be loaded at all: the loader raises :class:`InputError`, naming the file, the field path and what
was expected.  A well-formed position can still break the rules (seven Rangers): that is a
:class:`Problem`, and ``problems()`` lists every one of them at once.  Commands that need a legal
position turn a non-empty problem list into an :class:`InputError` with :func:`require_no_problems`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .words import plural

MISSING: Any = object()
"""Sentinel: no value given."""


class InputError(Exception):
    """Malformed or impossible input."""

    def __init__(
        self, source: str, field: str | None, expected: str, got: object = MISSING
    ) -> None:
        self.source = source
        self.field = field
        self.expected = expected
        self.got = got
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{self.source}: {self.field}" if self.field else self.source
        text = f"{where}: expected {self.expected}"
        if self.got is not MISSING:
            text += f", got {_show(self.got)}"
        return text


def _show(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


@dataclass(frozen=True, slots=True)
class Problem:
    """One rule problem of a well-formed position."""

    code: str
    message: str
    field: str | None = None

    def as_json(self) -> dict[str, str]:
        data = {"code": self.code, "message": self.message}
        if self.field:
            data["field"] = self.field
        return data


def require_no_problems(problems: Iterable[Problem], source: str) -> None:
    """Raise one :class:`InputError` listing every problem, if there is any."""
    found = list(problems)
    if found:
        listed = "; ".join(
            f"{p.field}: {p.message}" if p.field else p.message for p in found
        )
        raise InputError(source, None, f"a legal position ({plural(len(found), 'problem')}: "
                                        f"{listed})")

"""Bad input and rule problems, the two ways a position can be wrong.

*Malformed* input (not TOML, a wrong type, an unknown field, a name that does not exist) cannot
be loaded at all: the loader raises :class:`InputError`, naming the file, the field path and what
was expected.  A well-formed position can still break the rules (seven Rangers): that is a
:class:`Problem`, and ``problems()`` lists every one of them at once.  Commands that need a legal
position turn a non-empty problem list into an :class:`InputError` with :func:`require_no_problems`.

:class:`InputError` is the one error type of bad input, whatever found it (a loader, an option's
check, a verb a game does not offer): it is data (the source, the field, what was expected, what
was got, and a free-form reason where no expectation says it), and each front end words it from
that data: the command line as one line (:meth:`InputError.line`), the web API as JSON fields
(:meth:`InputError.as_json`).  No front end reads a message back.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .words import plural


class _Missing:
    """The type of :data:`MISSING` (one object, which stays itself when pickled)."""

    def __repr__(self) -> str:
        return "MISSING"

    def __reduce__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()
"""Sentinel: no value given."""

BAD_INPUT = "bad input: "
"""How the one line of bad input begins (a refusal, such as a verb a game does not offer,
does not)."""


def one_line(text: str) -> str:
    """``text`` with every control character and line or paragraph separator written as its
    escape (``\\n``, ``\\x1b``, ``\\u2028``): a message stays one line whatever a file
    put in the names it quotes."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch == " " else
                   ch.encode("unicode_escape").decode("ascii") for ch in text)


class InputError(Exception):
    """Malformed or impossible input, or a request that cannot be served as asked.

    - ``source``: the file (or label) the input came from; ``None`` for an option or a field
      of the request itself.
    - ``field``: the field path in ``source`` (``cups.Blue``), or, with ``option``, the name of
      an option (``time_limit``: the command line shows it as ``--time-limit``).
    - ``expected``: what a good value is, in words; ``got``: the value given (:data:`MISSING`
      when there is none to show).
    - ``reason``: free words that replace "expected ..., got ..." in the message when an
      expectation does not say it well (a verb a game does not offer, an option that does not
      apply); ``expected`` and ``got`` may still be given as data.
    - ``refusal``: the request is well formed but the game cannot serve it: the line does not
      begin with "bad input: ".
    """

    def __init__(self, source: str | None, field: str | None = None,
                 expected: str | None = None, got: object = MISSING, *,
                 reason: str | None = None, option: bool = False,
                 refusal: bool = False) -> None:
        self.source = source
        self.field = field
        self.expected = expected
        self.got = got
        self.reason = reason
        self.option = option
        self.refusal = refusal
        super().__init__(str(self))

    @classmethod
    def of_option(cls, name: str, expected: str | None = None, got: object = MISSING, *,
                  reason: str | None = None) -> InputError:
        """Bad input in the option ``name`` (its Python name: ``time_limit``)."""
        return cls(None, name.lstrip("-").replace("-", "_"), expected, got, reason=reason,
                   option=True)

    @classmethod
    def refused(cls, reason: str, field: str | None = None, *,
                option: bool = False) -> InputError:
        """A request a game cannot serve (a verb it does not offer): ``reason`` is the line."""
        return cls(None, field, None, reason=reason, option=option, refusal=True)

    def within(self, source: str, field: str) -> InputError:
        """This error as found inside ``field`` of the document ``source`` (a record's steps)."""
        inner = f"{field}: {self.field}" if self.field else field
        return InputError(source, inner, self.expected, self.got, reason=self.reason)

    def named(self, names: bool = False) -> str | None:
        """The field as a front end names it: an option as ``--time-limit`` (the command line)
        or, with ``names``, as ``time_limit`` (a JSON request)."""
        if self.field is None or not self.option:
            return self.field
        return self.field if names else "--" + self.field.replace("_", "-")

    def where(self, names: bool = False) -> str:
        """The source and the field, as the message begins."""
        return ": ".join(part for part in (self.source, self.named(names)) if part)

    def detail(self, names: bool = False) -> str:
        """The message without "bad input: ": where, then the reason or what was expected (a
        refusal's reason is the whole message)."""
        if self.refusal and self.reason is not None:
            return self.reason
        if self.reason is not None:
            said = self.reason
        elif self.expected is not None:
            said = f"expected {self.expected}"
            if self.got is not MISSING:
                said += f", got {_show(self.got)}"
        else:
            said = ""
        where = self.where(names)
        return one_line(f"{where}: {said}" if where and said else where or said)

    def line(self, names: bool = False) -> str:
        """The one line a front end shows (``names``: options by their JSON names)."""
        return self.detail(names) if self.refusal else BAD_INPUT + self.detail(names)

    def as_json(self) -> dict[str, Any]:
        """The error as the web API answers it: the line in ``message``, and its parts."""
        data: dict[str, Any] = {"message": self.line(names=True), "source": self.source,
                                "field": self.named(names=True), "expected": self.expected}
        if self.got is not MISSING:
            data["got"] = _json_value(self.got)
        if self.reason is not None:
            data["reason"] = self.reason
        return data

    def __str__(self) -> str:
        return self.detail()

    def __reduce__(self) -> tuple[Any, ...]:
        # Its parts, not its text, cross a process boundary (a unit of work that failed).
        return (_rebuilt, (type(self), dict(self.__dict__)))


def _rebuilt(kind: type[InputError], state: dict[str, Any]) -> InputError:
    error = kind.__new__(kind)
    error.__dict__.update(state)
    Exception.__init__(error, str(error))
    return error


def _show(value: object) -> str:
    try:
        text = repr(value)
    except ValueError:  # an integer too long for Python to write in decimal
        return "an integer too long to show"
    return text if len(text) <= 60 else text[:57] + "..."


def _json_value(value: object) -> Any:
    """``value`` as JSON can carry it: a short text, a bool, a number, ``null``; else as the
    message shows it."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int) and abs(value) < 2**53:
        return value
    if isinstance(value, float) and math.isfinite(value):
        return value
    if isinstance(value, str) and len(value) <= 200:
        return value
    return _show(value)


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

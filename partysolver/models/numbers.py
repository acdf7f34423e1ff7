"""Numbers read from text: the one parser of every number a person types.

A command line option, a line of a ``play`` session, a seat number, a cell of a move in a
game's notation: each is read by :func:`whole_number` or :func:`decimal_number`, which accept
ASCII digits only, of a sane length.  Python's ``int()`` and ``float()`` accept much more:
other scripts' digits (``"١٢"``), underscores (``"1_000"``), ``"nan"`` and ``"inf"``, and
``str.isdigit()`` says yes to ``"²"`` and ``"①"``, which ``int()`` then refuses; an integer
of more than 4,300 digits makes ``int()`` itself refuse.  Both raise :class:`ValueError`,
the exception every notation parser already turns into its own message.
"""

from __future__ import annotations

import math
import re

MAX_DIGITS = 30
"""The most digits a number may have, in text and in documents.  The largest number any
option or format takes is a seed below 2**64 (20 digits): a few more let a number just out of
range get its own range's message rather than this limit's."""

_WHOLE = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]{1,3})?")


def digits(text: str) -> int:
    """How many digits the number in ``text`` has (its sign, point and exponent left out)."""
    mantissa = re.split(r"[eE]", text, maxsplit=1)[0]
    return sum(c in "0123456789" for c in mantissa)


def whole_number(text: str, signed: bool = False) -> int:
    """The integer written in ``text``: ASCII digits only (a leading ``-`` or ``+`` only when
    ``signed``), at most :data:`MAX_DIGITS` of them, no spaces; else :class:`ValueError`."""
    if not isinstance(text, str) or not _WHOLE.fullmatch(text) or (
            not signed and text[0] in "+-"):
        raise ValueError(f"not a whole number: {text!r}")
    if digits(text) > MAX_DIGITS:
        raise ValueError(f"a whole number of more than {MAX_DIGITS} digits")
    return int(text, 10)


def decimal_number(text: str) -> float:
    """The finite number written in ``text`` (``2``, ``0.5``, ``-1.5e3``): ASCII digits only,
    at most :data:`MAX_DIGITS` of them, no spaces; else :class:`ValueError` (also for
    ``nan``, ``inf`` and a number too big for a float)."""
    if not isinstance(text, str) or not _DECIMAL.fullmatch(text):
        raise ValueError(f"not a number: {text!r}")
    if digits(text) > MAX_DIGITS:
        raise ValueError(f"a number of more than {MAX_DIGITS} digits")
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"a number too big: {text!r}")
    return value


__all__ = ["MAX_DIGITS", "decimal_number", "digits", "whole_number"]

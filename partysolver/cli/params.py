"""The common options' value types, each refusing a bad value with an :class:`InputError` that
says what was expected (``--time-limit: expected a number of seconds greater than 0, got
'nan'``; the command group prints it in one line, exit code 2), and click's own bad-value errors
(any other option) in the same one-line form."""

from __future__ import annotations

import math
from typing import Any

import click

from ..models.errors import InputError

SEED_MAX = 2**64 - 1
"""``--seed`` takes 0 to 2**64 - 1; each solver maps it into its library's range."""


class _OneLine(click.ParamType):
    expected = ""

    def refuse(self, value: Any, param: click.Parameter | None) -> InputError:
        return InputError(option_name(param), None, self.expected, str(value))


class Seconds(_OneLine):
    """A finite number of seconds greater than 0 (not ``nan``, not ``inf``)."""

    name = "seconds"
    expected = "a number of seconds greater than 0 (such as 2 or 0.5)"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None
                ) -> float:
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            raise self.refuse(value, param) from None
        if not math.isfinite(seconds) or seconds <= 0:
            raise self.refuse(value, param)
        return seconds


class WholeNumber(_OneLine):
    """An integer from ``low`` to ``high``."""

    name = "integer"

    def __init__(self, low: int, high: int | None = None, what: str = "an integer") -> None:
        self.low, self.high = low, high
        self.expected = (f"{what} from {low} to {high}" if high is not None
                         else f"{what} of at least {low}")

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None
                ) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            try:
                number = int(str(value).strip())
            except ValueError:
                raise self.refuse(value, param) from None
        if number < self.low or (self.high is not None and number > self.high):
            raise self.refuse(value, param)
        return number


SECONDS = Seconds()
TOP = WholeNumber(1, what="a number of moves")
SEED = WholeNumber(0, SEED_MAX, what="a whole number")


def option_name(param: click.Parameter | None) -> str:
    if param is None:
        return "value"
    if isinstance(param, click.Option) and param.opts:
        return max(param.opts, key=len)
    return (param.name or "value").upper()


def one_line(error: click.BadParameter) -> str:
    """Click's error for a bad option value (a usage block of four lines) as one line."""
    return f"{option_name(error.param)}: {error.message.rstrip('.')}"

"""Words shared by every game's texts: counts with the right plural."""

from __future__ import annotations


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``1 token``, ``2 tokens``, ``0 tokens`` (``many``: an irregular plural)."""
    return f"{count:,} {noun if count == 1 else many or noun + 's'}"


def noun(count: int, noun: str, many: str | None = None) -> str:
    """The noun alone, singular for one: ``is 1 time`` / ``3 times``."""
    return noun if count == 1 else many or noun + "s"

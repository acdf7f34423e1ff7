"""Helpers to build Tea Party positions by hand."""

from __future__ import annotations

from collections.abc import Mapping

from partysolver.models.tea_party import Hero, TeaPartyState

NAMES = ("Blue", "Green", "Orange", "Purple")


def counts(spec: Mapping[str, int] | None = None) -> tuple[int, ...]:
    found = [0] * 8
    for name, n in (spec or {}).items():
        found[Hero.parse(name)] += n
    return tuple(found)


def position(bag: Mapping[str, int] | None = None, cups=None, stomachs=None, players: int = 2,
             current: int = 0, held: str | None = None) -> TeaPartyState:
    cups = cups or [{}] * players
    stomachs = stomachs or [{}] * players
    return TeaPartyState.from_counts(NAMES[:players], counts(bag), [counts(c) for c in cups],
                                     [counts(s) for s in stomachs], current,
                                     None if held is None else Hero.parse(held))



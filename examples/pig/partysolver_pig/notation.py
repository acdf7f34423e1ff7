"""Pig's move notation: one canonical spelling per step, and the other spellings it reads.

Canonical spellings (what ``hint`` prints as ``move``, what records store):

- ``roll``: roll the die; ``hold``: bank the turn's total;
- chance: the face the die shows, ``1`` to ``6``.

Also read: ``r`` and ``h`` (word prefixes), ``bank``, ``pass`` and ``stop`` for ``hold``;
``rolled 4``, ``a 4``, ``face 4``, ``four`` and ``pig`` (for a 1) at a rolling die; the
readable sentence of ``describe_action``; any case.
"""

from __future__ import annotations

from collections.abc import Iterable

from partysolver.models.playable import StepNotation
from partysolver.models.protocol import Action

from .game import Face, Hold, Roll
from .state import PigState

WORDS = ("one", "two", "three", "four", "five", "six")


class PigNotation(StepNotation):
    """The notation of Pig (see the module docstring)."""

    def actor(self, state: PigState) -> str:
        return state.to_act()

    def format(self, state: PigState, step: Action) -> str:
        return str(step)

    def variants(self, state: PigState, step: Action) -> Iterable[str]:
        yield state.describe_action(step)
        if isinstance(step, Hold):
            yield from ("bank", "pass", "stop")
        elif isinstance(step, Roll):
            yield "roll again" if state.turn_total else "roll the die"
        elif isinstance(step, Face):
            face = step.value
            yield from (f"rolled {face}", f"a {face}", f"face {face}", WORDS[face - 1],
                        f"rolled {WORDS[face - 1]}")
            if face == 1:
                yield "pig"


NOTATION = PigNotation()

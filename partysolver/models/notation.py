"""Move notation shared by every game: a formatter and a parser, the pair python-chess keeps
for SAN.

Each game's ``notation`` module formats every action and chance outcome of a state as one line
of text (the *canonical spelling*, what ``hint`` prints) and may offer more spellings of the same
step (short forms, seat numbers, player names).  Parsing is then the same for every game: the
spellings of the steps that are legal now make one index
(:class:`~partysolver.models.playable.Spellings`, with the game's
:class:`~partysolver.models.playable.StepNotation`), which looks the typed text up among them
and otherwise hands it to :func:`match`.

Matching ignores case, repeated spaces and a trailing full stop, and tries, in order:

1. a spelling equal to the text;
2. every word of the text the start of the matching word of a spelling, word for word, with as
   many words as the spelling (``sq rog on bl take rog``);
3. the same with fewer words than the spelling (``squish rogue``), when that leaves one step.

The first tier that finds anything decides: one step is the answer, several distinct steps are
ambiguous.  Nothing found, or an ambiguity, is a :class:`NotationError` whose one-line message
says what was not understood and lists the closest legal steps.
"""

from __future__ import annotations

import difflib
import random
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol


class NotationError(ValueError):
    """Text that names no legal step, or more than one; the message is one line."""

    def __init__(self, text: str, problem: str, closest: Sequence[str] = ()) -> None:
        self.text = text
        self.problem = problem
        self.closest = tuple(closest)
        message = f"{problem}: {quoted(text)}"
        if self.closest:
            message += "; closest legal: " + ", ".join(repr(c) for c in self.closest)
        super().__init__(message)


QUOTED = 80
"""The most characters of a mistyped step a message quotes (the rest is counted)."""


def quoted(text: str) -> str:
    """``text`` as a message quotes it: whole when short, else its start and its length."""
    if len(text) <= QUOTED:
        return repr(text)
    return f"{text[:QUOTED]!r}... ({len(text):,} characters)"


@dataclass(frozen=True, slots=True)
class Spelling:
    """One way to write a step; ``canonical`` marks the spelling :func:`match` suggests."""

    text: str
    step: Hashable
    canonical: bool = True


def normalise(text: str) -> str:
    """Lower case, single spaces, no surrounding spaces or trailing full stop."""
    return " ".join(text.casefold().replace("\t", " ").split()).rstrip(".").strip()


def match(text: str, spellings: Iterable[Spelling], what: str = "move",
          closest: int = 3) -> Hashable:
    """The one legal step ``text`` names among ``spellings`` (see the module's rules)."""
    typed = normalise(text)
    listed = list(spellings)
    if not listed:
        raise NotationError(text, f"no {what} is legal here")
    if not typed:
        raise NotationError(text, f"expected a {what}", _suggest(typed, listed, closest))
    longest = max(len(spelling.text) for spelling in listed)
    if len(typed) > 2 * longest + 16:  # no spelling fits: the suggestions from its start
        raise NotationError(text, f"longer than any legal {what}",
                            _suggest(typed[:longest], listed, closest))
    words = typed.split(" ")
    exact: list[Spelling] = []
    complete: list[Spelling] = []
    partial: list[Spelling] = []
    for spelling in listed:
        written = normalise(spelling.text)
        if written == typed:
            exact.append(spelling)
            continue
        theirs = written.split(" ")
        if len(words) <= len(theirs) and all(
                mine and theirs[i].startswith(mine) for i, mine in enumerate(words)):
            (complete if len(words) == len(theirs) else partial).append(spelling)
    for tier in (exact, complete, partial):
        steps = _distinct(tier)
        if len(steps) == 1:
            return steps[0]
        if len(steps) > 1:
            names = _canonical_names(listed, steps)
            raise NotationError(text, f"ambiguous {what} ({len(steps)} legal {what}s fit)",
                                names[:max(closest, 5)])
    raise NotationError(text, f"not a legal {what} here", _suggest(typed, listed, closest))


def _distinct(found: Sequence[Spelling]) -> list[Hashable]:
    steps: list[Hashable] = []
    for spelling in found:
        if spelling.step not in steps:
            steps.append(spelling.step)
    return steps


def _canonical_names(listed: Sequence[Spelling], steps: Sequence[Hashable]) -> list[str]:
    names: list[str] = []
    for step in steps:
        own = [s.text for s in listed if s.step == step]
        canonical = [s.text for s in listed if s.step == step and s.canonical]
        names.append((canonical or own)[0])
    return names


def _suggest(typed: str, listed: Sequence[Spelling], count: int) -> list[str]:
    """The canonical spellings most like ``typed``, most alike first."""
    canonical = {normalise(s.text): s.text for s in listed if s.canonical}
    if not canonical:
        canonical = {normalise(s.text): s.text for s in listed}
    ranked = sorted(canonical, key=lambda c: (-difflib.SequenceMatcher(None, typed, c).ratio(), c))
    return [canonical[c] for c in ranked[:count]]


class Playable(Protocol):
    """A position one can play on from a file, step by step, in the game's notation.

    For a perfect-information game it wraps the full state; for a hidden-information game it is
    one seat's view of the game (a Pool Party Stars seat log, a Party-Time view), whose steps
    include what that seat *sees* (the answers to a proposal, the card it drew, the others'
    plays), so that the position written back stays a valid seat log or view.

    ``parse(format(step)) == step`` for every step in ``legal_steps()``."""

    def actor(self) -> str:
        """Who or what acts next, in words: a player's name, or what chance does ("the bag")."""
        ...

    def is_over(self) -> bool: ...

    def awaits_chance(self) -> bool:
        """Whether the next step is chance (or, from a seat, something the seat observes)."""
        ...

    def legal_steps(self) -> Sequence[Hashable]:
        """Every step that may come next, in a fixed order (moves, or chance outcomes)."""
        ...

    def format(self, step: Hashable) -> str:
        """``step`` in the game's notation (what ``hint`` prints as ``move``)."""
        ...

    def parse(self, text: str) -> Hashable:
        """The legal step ``text`` names; :class:`NotationError` otherwise."""
        ...

    def apply(self, step: Hashable) -> Playable:
        """The position after ``step``; never changes ``self``."""
        ...

    def random_step(self, rng: random.Random) -> Hashable:
        """A chance outcome drawn with its probability (only when :meth:`awaits_chance`)."""
        ...

    def to_document(self) -> dict[str, Any]:
        """The position file of this position (it loads back to an equal position)."""
        ...


__all__ = ["NotationError", "Playable", "Spelling", "match", "normalise"]

"""The one notation stack every game uses, and the position one plays on from a full state.

Every game's notation is a :class:`StepNotation` over its full states (``GAME.notation``): for
each step legal now (an action, or a chance outcome at a chance node) it writes one *canonical*
spelling (:meth:`StepNotation.format`) and any number of *variants* (what ``hint`` printed
before, the readable ``describe_action`` sentence, player names or seat numbers, short forms).
The steps legal in one position and their spellings make one index, :class:`Spellings`, which
parses.  Parsing looks the typed text up, in this order:

1. a canonical spelling equal to the text (it wins over a variant of another step);
2. a variant equal to the text (two steps sharing that variant: ambiguous);
3. :func:`~partysolver.models.notation.match` over every spelling (word prefixes, fewer words).

Before comparing, both the typed text and every spelling go through the game's *vocabulary*
(:class:`Vocabulary`, the rewrite hook): multi-word names and plurals become one canonical word
("living room" -> ``living_room``, "rogues" -> ``rogue``), so any of them may be typed anywhere.
A game whose texts need more (the player names kept as they are, punctuation read as spaces, a
guest's attributes put in one order) builds its vocabulary with those options or overrides
:meth:`Vocabulary.arrange`.

:class:`StatePlayable` follows :class:`~partysolver.models.notation.Playable` over a full state
(the whole truth: every game's full game, and every position of a perfect-information game): it
wraps the state, ``GAME.notation`` and ``GAME.state_to_document``.  A hidden-information game
also plays on one seat's view (a Pool Party Stars seat log, a Party-Time view), whose steps
include what the seat observes; its own :class:`~partysolver.models.notation.Playable` over the
view writes and reads them with the same spellings, through the same :class:`Spellings` index
(built from the game's spelling functions for that seat).  A game offers either as
``GAME.playable(document, source)``.

Several steps may be entered as one line separated by ``|`` (what the Meeple Party turn hint
prints as a turn): :meth:`StatePlayable.parse` then returns a :class:`Line`, whose steps are
parsed one after the other on the positions they lead to, and :meth:`StatePlayable.apply`
applies them in order.
"""

from __future__ import annotations

import random
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol

from .notation import NotationError, Playable, Spelling, match, normalise
from .protocol import CHANCE, TERMINAL, Action, State, sample_chance

SEPARATOR = "|"
"""Separates the steps of a :class:`Line` typed as one piece of text."""


@dataclass(frozen=True, slots=True)
class Line:
    """Several steps entered as one line of notation (``a | b | c``), applied in order."""

    steps: tuple[Hashable, ...]

    def __str__(self) -> str:
        return f" {SEPARATOR} ".join(map(str, self.steps))


# -- vocabulary -------------------------------------------------------------------------------


class Vocabulary:
    """Phrases (one or more words) that stand for the words the spellings use: the rewrite hook
    of a game's notation, applied alike to what is typed and to every spelling.

    :meth:`rewrite` reads the characters ``separators`` matches (a regular expression) as
    spaces, normalises the text (:func:`~partysolver.models.notation.normalise`), applies the
    ``patterns`` (regular expressions and their replacements, for forms that are not whole
    words, such as ``(3, 2)`` for ``3,2``), replaces every phrase, longest first, by its words
    (none: the phrase is dropped), and hands the words to :meth:`arrange`.  A phrase given for
    two different targets is dropped from the table: it names neither.  A game that keeps some
    words as they are (its players' names) leaves the phrases that would change them out of
    the table."""

    __slots__ = ("_starting", "_separators", "_patterns", "_memo")

    MEMO = 50_000
    """Texts remembered with their rewriting (the same spellings are rewritten again and
    again as a position is parsed); forgotten all at once when full."""

    def __init__(self, phrases: Iterable[tuple[str, str]] = (),
                 patterns: Sequence[tuple[str, str]] = (), separators: str | None = None
                 ) -> None:
        self._separators = re.compile(separators) if separators else None
        self._patterns = tuple((re.compile(p), r) for p, r in patterns)
        found: dict[tuple[str, ...], str] = {}
        clashes: set[tuple[str, ...]] = set()
        for phrase, word in phrases:
            words = tuple(normalise(phrase).split(" "))
            target = normalise(word)
            if not words[0] or words == tuple(target.split(" ")):
                continue
            if words in found and found[words] != target:
                clashes.add(words)
            found[words] = target
        for words in clashes:
            del found[words]
        starting: dict[str, list[tuple[tuple[str, ...], str]]] = {}
        for words, target in sorted(found.items(), key=lambda item: -len(item[0])):
            starting.setdefault(words[0], []).append((words, target))
        self._starting = starting
        """The phrases by their first word, longest first."""
        self._memo: dict[str, str] = {}

    def rewrite(self, text: str) -> str:
        done = self._memo.get(text)
        if done is not None:
            return done
        plain = normalise(self._separators.sub(" ", text) if self._separators else text)
        for pattern, replacement in self._patterns:
            plain = pattern.sub(replacement, plain)
        words = plain.split()
        out: list[str] = []
        i, n = 0, len(words)
        while i < n:
            for phrase, target in self._starting.get(words[i], ()):
                size = len(phrase)
                if tuple(words[i:i + size]) == phrase:
                    if target:
                        out.append(target)
                    i += size
                    break
            else:
                out.append(words[i])
                i += 1
        done = " ".join(self.arrange(out))
        if len(self._memo) >= self.MEMO:
            self._memo.clear()
        self._memo[text] = done
        return done

    def arrange(self, words: list[str]) -> list[str]:
        """The last step of :meth:`rewrite`, over its words: none by default (Pool Party Stars
        puts a guest's three attributes in one order)."""
        return words


NO_VOCABULARY = Vocabulary()


def plural(word: str) -> str:
    """``flirts``, ``party_animals``; enough for the game words we use."""
    return word + ("es" if word.endswith(("s", "x", "ch", "sh")) else "s")


# -- spellings of the steps legal now ---------------------------------------------------------


class Spellings:
    """Every spelling of every step legal in one position, indexed for :meth:`parse`: the one
    spelling index of every game, for a full state (:meth:`StepNotation.spellings`) and for a
    seat's view alike.

    ``format`` writes a step's canonical spelling, ``variants`` its other spellings, both in
    the position's context; ``vocabulary`` rewrites texts before they are compared; ``what``
    names the steps in messages ("move", "chance outcome", "observation").  The canonical
    spellings are written at once; the variants only when the text typed is not a canonical
    spelling (most lookups, ``parse(format(step))`` among them, never need them)."""

    __slots__ = ("steps", "vocabulary", "what", "_format", "_variants", "_canonical",
                 "_canonical_index", "_listed", "_rewritten", "_variant_index")

    def __init__(self, steps: Sequence[Action], format: Callable[[Action], str],  # noqa: A002
                 variants: Callable[[Action], Iterable[str]],
                 vocabulary: Vocabulary = NO_VOCABULARY, what: str = "move") -> None:
        self.steps = steps
        self.vocabulary = vocabulary
        self.what = what
        self._format = format
        self._variants = variants
        self._canonical = [format(step) for step in steps]
        self._canonical_index = self._index(zip(self._canonical, steps, strict=True))
        self._listed: list[Spelling] | None = None
        self._rewritten: list[Spelling] | None = None
        self._variant_index: dict[str, list[Hashable]] | None = None

    def _index(self, pairs: Iterable[tuple[str, Hashable]]) -> dict[str, list[Hashable]]:
        index: dict[str, list[Hashable]] = {}
        for text, step in pairs:
            steps = index.setdefault(self.vocabulary.rewrite(text), [])
            if step not in steps:
                steps.append(step)
        return index

    @property
    def listed(self) -> list[Spelling]:
        """Every spelling, step by step in the order of the legal steps, canonical first."""
        if self._listed is None:
            listed: list[Spelling] = []
            for canonical, step in zip(self._canonical, self.steps, strict=True):
                listed.append(Spelling(canonical, step))
                seen = {normalise(canonical)}
                for variant in self._variants(step):
                    key = normalise(variant)
                    if key and key not in seen:
                        seen.add(key)
                        listed.append(Spelling(variant, step, canonical=False))
            self._listed = listed
        return self._listed

    def parse(self, text: str) -> Hashable:
        typed = self.vocabulary.rewrite(text)
        found = self._canonical_index.get(typed)
        if found is not None and len(found) == 1:
            return found[0]
        if self._variant_index is None:
            self._variant_index = self._index((s.text, s.step) for s in self.listed
                                              if not s.canonical)
        found = self._variant_index.get(typed)
        if found is not None and len(found) == 1:
            return found[0]
        if self._rewritten is None:
            self._rewritten = [Spelling(self.vocabulary.rewrite(s.text), s.step, s.canonical)
                               for s in self.listed]
        try:
            return match(typed, self._rewritten, self.what)
        except NotationError as error:
            raise NotationError(text, error.problem, self._originals(error.closest)) from None

    def _originals(self, closest: Sequence[str]) -> list[str]:
        """The suggestions as the game writes them (not as rewritten for matching)."""
        assert self._rewritten is not None
        by_text: dict[tuple[str, bool], str] = {}
        for original, rewritten in zip(self.listed, self._rewritten, strict=True):
            by_text.setdefault((rewritten.text, rewritten.canonical), original.text)
        return [by_text.get((normalise(c), True)) or by_text.get((normalise(c), False)) or c
                for c in closest]

    def of(self, step: Hashable) -> list[str]:
        """Every spelling of ``step``, canonical first."""
        return [s.text for s in self.listed if s.step == step]


class StepNotation(ABC):
    """A game's notation over its full states (see the module docstring): ``GAME.notation``.

    A game writes :meth:`format`, :meth:`variants` and :meth:`actor`, and may give a
    :meth:`vocabulary`; :meth:`parse` goes through the :class:`Spellings` of the position.  A
    game whose positions share their spellings often may override :meth:`spellings` to keep
    the indexes it builds (by what the spellings depend on)."""

    @abstractmethod
    def format(self, state: Any, step: Action) -> str:
        """The canonical spelling of ``step``, legal in ``state``."""

    @abstractmethod
    def variants(self, state: Any, step: Action) -> Iterable[str]:
        """More spellings of ``step``: what ``hint`` printed before, the readable sentence,
        names or seat numbers, short forms."""

    @abstractmethod
    def actor(self, state: Any) -> str:
        """Who or what acts next, in words."""

    def vocabulary(self, state: Any) -> Vocabulary:
        """The rewrite hook: phrases that stand for one word of this game's spellings."""
        return NO_VOCABULARY

    def what(self, state: State) -> str:
        """What the steps legal in ``state`` are called in messages."""
        return "chance outcome" if state.current_player() == CHANCE else "move"

    def steps(self, state: State) -> list[Action]:
        """The steps legal now: the actions of the player to act, or the chance outcomes."""
        player = state.current_player()
        if player == TERMINAL:
            return []
        if player == CHANCE:
            return [outcome for outcome, _ in state.chance_outcomes()]
        return list(state.legal_actions())

    def spellings(self, state: Any) -> Spellings:
        """Every spelling of every step legal in ``state``."""
        return Spellings(self.steps(state), partial(self.format, state),
                         partial(self.variants, state), self.vocabulary(state),
                         self.what(state))

    def parse(self, state: State, text: str) -> Action:
        """The legal step ``text`` names; :class:`NotationError` otherwise."""
        if state.current_player() == TERMINAL:
            raise NotationError(text, "the game is over: no move is legal")
        return self.spellings(state).parse(text)


# -- the playable position --------------------------------------------------------------------


class PlayableGame(Protocol):
    """What :class:`StatePlayable` needs of a registered game (``GAME``)."""

    @property
    def notation(self) -> StepNotation: ...

    def state_to_document(self, state: Any) -> dict[str, Any]: ...


class StatePlayable:
    """A full state to play on in the game's notation (follows
    :class:`~partysolver.models.notation.Playable`); immutable."""

    __slots__ = ("game", "state", "_spellings", "_legal", "_legal_set")

    def __init__(self, game: PlayableGame, state: State) -> None:
        self.game = game
        self.state = state
        self._spellings: Spellings | None = None
        self._legal: list[Action] | None = None
        self._legal_set: frozenset[Action] | None = None

    @property
    def notation(self) -> StepNotation:
        return self.game.notation

    def __repr__(self) -> str:
        return f"StatePlayable({self.state!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, StatePlayable) and other.state == self.state

    def __hash__(self) -> int:
        return hash(self.state)

    def key(self) -> Hashable:
        return self.state.key()

    def actor(self) -> str:
        return self.notation.actor(self.state)

    def is_over(self) -> bool:
        return self.state.current_player() == TERMINAL

    def awaits_chance(self) -> bool:
        return self.state.current_player() == CHANCE

    def legal_steps(self) -> Sequence[Action]:
        if self._legal is None:
            self._legal = self.notation.steps(self.state)
        return self._legal

    def spellings(self) -> Spellings:
        """Every spelling of every legal step (cached: the position never changes)."""
        if self._spellings is None:
            self._spellings = self.notation.spellings(self.state)
        return self._spellings

    def format(self, step: Hashable) -> str:
        if isinstance(step, Line):
            parts, position = [], self
            for part in step.steps:
                parts.append(position.format(part))
                position = position.apply(part)
            return f" {SEPARATOR} ".join(parts)
        self._check(step)
        return self.notation.format(self.state, step)

    def parse(self, text: str) -> Hashable:
        parts = text.split(SEPARATOR)
        if len(parts) == 1:
            return self._parse_one(text)
        steps, position = [], self
        for number, part in enumerate(parts, 1):
            if not part.strip():
                raise NotationError(text, f"step {number} of the line is empty")
            try:
                step = position._parse_one(part)
            except NotationError as error:
                raise NotationError(part.strip(), f"step {number} of the line: {error.problem}",
                                    error.closest) from None
            steps.append(step)
            position = position.apply(step)
        return Line(tuple(steps))

    def _parse_one(self, text: str) -> Hashable:
        if self.is_over():
            raise NotationError(text, "the game is over: no move is legal")
        return self.spellings().parse(text)

    def apply(self, step: Hashable) -> StatePlayable:
        if isinstance(step, Line):
            position = self
            for part in step.steps:
                position = position.apply(part)
            return position
        self._check(step)
        return StatePlayable(self.game, self.state.apply(step))

    def _check(self, step: Hashable) -> None:
        if self._legal_set is None:
            self._legal_set = frozenset(self.legal_steps())
        if step not in self._legal_set:
            raise ValueError(f"{step} is not legal here ({self.actor()} to act)")

    def random_step(self, rng: random.Random) -> Hashable:
        if not self.awaits_chance():
            raise ValueError(f"no chance step here: {self.actor()} is to act")
        return sample_chance(self.state, rng)

    def to_document(self) -> dict[str, Any]:
        return self.game.state_to_document(self.state)


if TYPE_CHECKING:  # mypy checks that StatePlayable follows the Playable protocol
    _FOLLOWS_PLAYABLE: type[Playable] = StatePlayable


def steps_of(step: Hashable) -> tuple[Hashable, ...]:
    """The single steps of ``step`` (a :class:`Line`'s, or the step itself)."""
    return step.steps if isinstance(step, Line) else (step,)


def full_state(position: Playable) -> State | None:
    """The full state ``position`` plays on (every hand known), or ``None`` for one seat's
    view (which holds no full state)."""
    return position.state if isinstance(position, StatePlayable) else None


def random_walk(position: Playable, steps: int, rng: random.Random
                ) -> tuple[Playable, list[str]]:
    """``position`` after up to ``steps`` random steps (a chance outcome with its probability,
    a decision uniformly), and the canonical spelling of each step taken: what the tests and
    the fuzz benchmark play to reach positions."""
    texts = []
    for _ in range(steps):
        if position.is_over():
            break
        step = (position.random_step(rng) if position.awaits_chance()
                else rng.choice(list(position.legal_steps())))
        texts.append(position.format(step))
        position = position.apply(step)
    return position, texts


__all__ = ["Line", "NO_VOCABULARY", "PlayableGame", "SEPARATOR", "Spellings", "StatePlayable",
           "StepNotation", "Vocabulary", "full_state", "plural", "random_walk", "steps_of"]

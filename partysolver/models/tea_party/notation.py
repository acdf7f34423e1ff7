"""Tea Party move notation: the formatter and the parser of every move and chance outcome.

Canonical spellings (see ``docs/formats.md``, "Move notation"):

- ``cup``: put the hero in hand in your teacup;
- ``squish HERO [as ABILITY] [on PLAYER] [take HERO]``: squish the hero in hand (``HERO``) for
  its ability, or a King's or Queen's copied one (``as ABILITY``), on a monster's teacup
  (``on Green``: a Rogue steals from it, a Wizard pours it, a Bard swaps with it) and, for a
  Rogue, the hero it steals (``take queen``): ``squish king as rogue on Green take rogue``;
- chance: ``draw HERO`` (a hero comes out of the bag), ``throw up HERO and HERO`` (what a
  monster throws up after drinking a Ranger; one hero when its stomach holds only one).

Also accepted: seat numbers for players (``on 2``, counted from 1 in seat order), what
``hint`` printed before (``squish as rogue on 2 take rogue``, ``throw up fighter rogue``), the
readable sentence of ``describe_action``, ``keep`` for ``cup``, the squish without the hero in
hand (``squish as wizard on Green``) or as the ability alone (``wizard on Green``, ``rogue on 2
take queen``, ``drink`` for a Fighter's, ``draw again`` for a Cleric's), a hero alone at a draw
(``cleric``), plurals and any case.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache

from ..playable import StepNotation, Vocabulary, plural
from ..protocol import Action
from .game import HEROES, Cup, Draw, Hero, Squish, ThrowUp
from .state import CHOOSE, DRAW, THROW_UP, TeaPartyState


def hero_word(hero: Hero | int) -> str:
    return HEROES[hero].name.lower()


class TeaPartyNotation(StepNotation):
    """The notation of Epic Monster Tea Party (see the module docstring)."""

    def actor(self, state: TeaPartyState) -> str:
        if state.phase == CHOOSE:
            return state.name(state.player)
        if state.phase == DRAW:
            return "the bag"
        if state.phase == THROW_UP:
            return f"{state.name(state.thrower)}'s stomach"
        return "nobody: the game is over"

    def format(self, state: TeaPartyState, step: Action) -> str:
        return _spell(state, step, _name(state))

    def variants(self, state: TeaPartyState, step: Action) -> Iterable[str]:
        yield _spell(state, step, _seat)
        yield str(step)
        yield state.describe_action(step)
        if isinstance(step, Cup):
            yield "keep"
            yield f"keep {hero_word(state.held)}"
            yield f"cup {hero_word(state.held)}"
        elif isinstance(step, Squish):
            for seat_word in (_name(state), _seat):
                text = _spell(state, step, seat_word)
                held = f"squish {hero_word(state.held)}"
                yield text.replace(held, "squish", 1)
                yield text.replace(held + " as ", "", 1).replace(held, hero_word(step.ability), 1)
            if step.ability == Hero.FIGHTER:
                yield "drink"
            elif step.ability == Hero.CLERIC:
                yield "draw again"
        elif isinstance(step, Draw):
            yield hero_word(step.hero)
            yield f"draw a {hero_word(step.hero)}"
        elif isinstance(step, ThrowUp):
            words = [hero_word(h) for h in step.heroes]
            yield "throw up " + " and ".join(reversed(words))
            yield "throw up " + " ".join(reversed(words))
            if len(words) == 2 and words[0] == words[1]:
                yield f"throw up 2 {plural(words[0])}"

    def vocabulary(self, state: TeaPartyState) -> Vocabulary:
        return _vocabulary()


SeatWord = Callable[[int], str]
"""How a spelling names a monster: by its name, or by its seat number."""


def _name(state: TeaPartyState) -> SeatWord:
    return state.name


def _seat(seat: int) -> str:
    return str(seat + 1)


def _spell(state: TeaPartyState, step: Action, word: SeatWord) -> str:
    """The canonical spelling, with ``word(seat)`` naming a monster."""
    if isinstance(step, Cup):
        return "cup"
    if isinstance(step, Squish):
        text = f"squish {hero_word(state.held)}"
        if step.copied:
            text += f" as {hero_word(step.ability)}"
        if step.target is not None:
            text += f" on {word(step.target)}"
        if step.take is not None:
            text += f" take {hero_word(step.take)}"
        return text
    if isinstance(step, Draw):
        return f"draw {hero_word(step.hero)}"
    if isinstance(step, ThrowUp):
        if not step.heroes:
            return "throw up nothing"
        return "throw up " + " and ".join(hero_word(h) for h in step.heroes)
    raise ValueError(f"not a Tea Party step: {step!r}")


@lru_cache(maxsize=1)
def _vocabulary() -> Vocabulary:
    """Plurals of the heroes (``rogues``, ``fighters``) stand for the hero."""
    return Vocabulary((plural(hero_word(h)), hero_word(h)) for h in HEROES)


NOTATION = TeaPartyNotation()

__all__ = ["NOTATION", "TeaPartyNotation", "hero_word"]

"""Party-Time move notation, and the positions one plays on from a file.

**Steps of the full game** (a :class:`~.state.PartyTimeState`), canonical spelling first:

* a play from hand or a revealed card carried out: ``play 3``, ``play 3 return 1`` (the 3
  returning one token), ``play R``, ``play black``, ``play star``, ``play ?``; also what
  ``hint`` printed (``3-1``, ``play the 3 returning 1 token``), the sentence of the play
  (``Ann plays the 3 returning 1 token: the bottle moves 2``), ``Ann plays 3 return 1``, card
  names (``play three``, ``play question mark``, ``play black square``), and in the carry-out
  step ``return 1``;
* chance: ``draw 5`` (the player who played draws back to three), ``reveal 4`` (the player hit
  by a question mark turns over the top card; also ``turn over 4``).

**Steps of a seat** (a position seen from ``me``, :class:`ViewPosition`): its own plays as
above, and what it *sees*: the others' plays, ``Cat plays 4`` or ``Cat plays 4 return 1`` (also
without the name), the cards turned over after a question mark, ``reveal 4``, the others'
carry-outs (``Cat plays 4 return 1``), and the card it draws, ``draw 5``.  The others' draws are
not seen: they happen by themselves after their turn (a loaded position waiting for one offers
the single step ``Cat draws``).  A reshuffle is no step either: when the last card of the pile
is taken, the played cards become the new pile, as the position shows.

Parsing (the shared :class:`~partysolver.models.playable.Spellings` index, for the full game
and for a seat alike) ignores case; ``-``, ``:`` and ``,`` count as spaces, ``the``, ``card``,
``token`` and ``tokens`` are left out, ``returning`` is ``return``, and card names stand for
their notation (``question mark``, ``question`` -> ``?``, ``black square``, ``square`` ->
``black``, ``reverse`` -> ``R``, ``one`` to ``five``), so that every spelling may be typed with
any of them (this game's :func:`vocabulary`).  Players are named or numbered (from 1, in the
order of ``players``); every word may be shortened to an unambiguous prefix (``pl 3 ret 1``).
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..errors import require_no_problems
from ..notation import NotationError, normalise
from ..playable import PlayableGame, Spellings, StatePlayable, StepNotation, Vocabulary
from ..protocol import CHANCE, sample_chance
from .game import CARDS, DRAWS, REVEALS, Draw, Play, Reveal, cards_of
from .position import load_position, view_to_document
from .state import (
    CARRY_OUT,
    DRAW,
    OVER,
    PLAY,
    REVEAL,
    PartyTimeState,
    PartyTimeView,
    deal,
    describe_play,
    plays_for,
)

# -- the seat's observations ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class UnseenDraw:
    """Another player draws back to three: the seat does not see the card."""

    seat: int


# -- spellings --------------------------------------------------------------------------------

_SEPARATORS = r"[-:,;!]+"
_PHRASES = {
    "question mark": "?", "question": "?", "black square": "black", "square": "black",
    "reverse": "r", "cocktail": "r", "returning": "return", "returns": "return", "the": "",
    "card": "", "token": "", "tokens": "", "turns over": "reveals", "turn over": "reveal",
    "one": "1", "two": "2", "three": "3", "four": "4", "five": "5",
}


@lru_cache(maxsize=64)
def vocabulary(names: tuple[str, ...] = ()) -> Vocabulary:
    """How texts are read at a table of ``names`` (see the module docstring): a player's name
    is never rewritten (a phrase with one in it is left out)."""
    kept = {normalise(name) for name in names}
    return Vocabulary([(phrase, word) for phrase, word in _PHRASES.items()
                       if not kept & set(phrase.split(" "))], separators=_SEPARATORS)


def format_play(play: Play) -> str:
    """``play 3``, ``play 3 return 1``, ``play R``: a play by the player to act (what ``hint``
    prints as its ``move``)."""
    text = f"play {play.card.notation}"
    return text + (f" return {play.tokens}" if play.tokens else "")


def _tokens(play: Play) -> str:
    return f" return {play.tokens}" if play.tokens else ""


def hint_text(play: Play) -> str:
    """The readable text ``hint`` printed beside the play: ``play the 3 returning 1 token``."""
    text = f"play {play.card.label}"
    if play.tokens:
        text += f" returning {play.tokens} token{'s' if play.tokens > 1 else ''}"
    return text


def format_step(step: Hashable, names: Sequence[str], actor: int, mine: bool = True) -> str:
    """The canonical spelling of ``step`` taken by ``actor``; ``mine = False`` names the
    player, as a seat writes another player's play."""
    if isinstance(step, Play):
        return format_play(step) if mine else \
            f"{names[actor]} plays {step.card.notation}{_tokens(step)}"
    if isinstance(step, Draw):
        return f"draw {step.card.notation}"
    if isinstance(step, Reveal):
        return f"reveal {step.card.notation}"
    if isinstance(step, UnseenDraw):
        return f"{names[step.seat]} draws"
    raise ValueError(f"not a Party-Time step: {step!r}")


def step_variants(step: Hashable, names: Sequence[str], actor: int, mine: bool = True,
                  carry_out: bool = False) -> list[str]:
    """More spellings of ``step`` (see :func:`format_step`): what ``hint`` printed, the
    sentence of the play, names and seat numbers, short forms."""
    who, number = names[actor], str(actor + 1)
    if isinstance(step, Play):
        card, tokens = step.card.notation, _tokens(step)
        found = [format_play(step), f"{who} plays {card}{tokens}", f"{number} plays {card}"
                 f"{tokens}", str(step), f"play {step}", hint_text(step),
                 describe_play(who, step)]
        if carry_out:
            found += [f"return {step.tokens}", f"carry out {card}{tokens}"]
        return found
    if isinstance(step, Draw):
        return [f"{who} draws {step.card.notation}", f"{who} draws {step.card.label}"]
    if isinstance(step, Reveal):
        card = step.card.notation
        return [f"turn over {card}", f"{who} turns over {card}", f"{who} reveals {card}",
                f"{number} reveals {card}", f"{who} turns over {step.card.label}"]
    if isinstance(step, UnseenDraw):
        return ["draw", f"{number} draws"]
    raise ValueError(f"not a Party-Time step: {step!r}")


@lru_cache(maxsize=1 << 12)
def spellings(steps: tuple[Hashable, ...], names: tuple[str, ...], actor: int, mine: bool,
              carry_out: bool, what: str) -> Spellings:
    """The index of every spelling of ``steps``, all taken by ``actor`` (kept: the few
    distinct situations of a game come back again and again)."""
    return Spellings(steps, lambda step: format_step(step, names, actor, mine),
                     lambda step: step_variants(step, names, actor, mine, carry_out),
                     vocabulary(names), what)


# -- the full game ----------------------------------------------------------------------------


def _doer(state: PartyTimeState | PartyTimeView) -> int:
    return state.refill if state.phase == DRAW else state.turn


class PartyTimeNotation(StepNotation):
    """The notation of the full game's actions and chance outcomes (``GAME.notation``)."""

    def format(self, state: PartyTimeState, step: Hashable) -> str:
        return format_step(step, state.names, _doer(state))

    def variants(self, state: PartyTimeState, step: Hashable) -> list[str]:
        return step_variants(step, state.names, _doer(state),
                             carry_out=state.phase == CARRY_OUT)

    def actor(self, state: PartyTimeState) -> str:
        return _actor(state)

    def vocabulary(self, state: PartyTimeState) -> Vocabulary:
        return vocabulary(state.names)

    def spellings(self, state: PartyTimeState) -> Spellings:
        """The index of the position (kept: see :func:`spellings`)."""
        return spellings(tuple(self.steps(state)), state.names, _doer(state), True,
                         state.phase == CARRY_OUT, self.what(state))


def _actor(state: PartyTimeState | PartyTimeView) -> str:
    names, phase = state.names, state.phase
    if phase == DRAW:
        return f"the pile ({names[state.refill]} draws)"
    if phase == REVEAL:
        return f"the pile ({names[state.turn]} turns over the top card)"
    if phase in (PLAY, CARRY_OUT):
        return names[state.turn]
    return "nobody: the game is over"


NOTATION = PartyTimeNotation()


# -- one seat ---------------------------------------------------------------------------------


class ViewPosition:
    """A position seen from one seat to play on: the seat's own plays, and what it observes
    (the others' plays and carry-outs, the cards turned over, the card it draws).

    Only the public effects of a step change the view (the bottle, tokens, strips, played cards,
    whose turn), and they do not depend on where the unseen cards are: a step is applied to a
    full state that places the unseen cards so that the step can happen (the card played in the
    player's hand, the card drawn on the pile), and the seat's view of the result is kept."""

    __slots__ = ("view", "_legal", "_steps")

    def __init__(self, view: PartyTimeView) -> None:
        self.view = view
        self._steps: list[Hashable] | None = None
        self._legal: frozenset[Hashable] | None = None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ViewPosition) and other.view == self.view

    def __hash__(self) -> int:
        return hash(self.view)

    def __repr__(self) -> str:
        return f"ViewPosition({self.view.names[self.view.player]}, {_actor(self.view)})"

    @property
    def me(self) -> int:
        return self.view.player

    def _mine(self) -> bool:
        """Whether the next step is the seat's own decision."""
        view = self.view
        return view.phase in (PLAY, CARRY_OUT) and view.turn == view.player

    def actor(self) -> str:
        view = self.view
        if view.phase == DRAW and view.refill != view.player:
            return f"{view.names[view.refill]} (draws a card you do not see)"
        return _actor(view)

    def is_over(self) -> bool:
        return self.view.phase == OVER

    def awaits_chance(self) -> bool:
        """Whether the seat observes the next step (everything but its own plays)."""
        return not self.is_over() and not self._mine()

    def legal_steps(self) -> list[Hashable]:
        if self._steps is None:
            self._steps = self._list_steps()
        return self._steps

    def _list_steps(self) -> list[Hashable]:
        view = self.view
        if self.is_over():
            return []
        if self._mine():
            return list(view.legal_actions())
        unseen = view.unseen()
        if view.phase == PLAY:
            tokens = view.tokens[view.turn]
            return [play for card in CARDS if unseen[card] for play in plays_for(card, tokens)]
        if view.phase == CARRY_OUT:
            return list(plays_for(view.revealed, view.tokens[view.turn]))
        if view.phase == REVEAL:
            return [REVEALS[card] for card in CARDS if unseen[card]]
        if view.refill == view.player:
            return [DRAWS[card] for card in CARDS if unseen[card]]
        return [UnseenDraw(view.refill)]

    def _doer(self) -> int:
        return _doer(self.view)

    def format(self, step: Hashable) -> str:
        self._check(step)
        return format_step(step, self.view.names, self._doer(), self._mine())

    def variants(self, step: Hashable) -> list[str]:
        """The other spellings of ``step`` that :meth:`parse` reads."""
        self._check(step)
        return step_variants(step, self.view.names, self._doer(), self._mine(),
                             self.view.phase == CARRY_OUT)

    def parse(self, text: str) -> Hashable:
        if self.is_over():
            raise NotationError(text, "the game is over: no move is legal")
        what = "move" if self._mine() else "observation"
        return spellings(tuple(self.legal_steps()), self.view.names, self._doer(),
                         self._mine(), self.view.phase == CARRY_OUT, what).parse(text)

    def _check(self, step: Hashable) -> None:
        if self._legal is None:
            self._legal = frozenset(self.legal_steps())
        if step not in self._legal:
            raise ValueError(f"{step} is not legal here ({self.actor()} to act)")

    def apply(self, step: Hashable) -> ViewPosition:
        self._check(step)
        view = self.view
        if isinstance(step, UnseenDraw):
            state = self._witness().apply(_any_draw(self._witness()))
        elif isinstance(step, Play) and view.phase == PLAY and not self._mine():
            state = self._witness(view.turn, step.card).apply(step)
        elif isinstance(step, Draw | Reveal):
            state = self._witness(-1, step.card).apply(step)
        else:
            state = self._witness().apply(step)
        while state.phase == DRAW and state.refill != view.player:
            state = state.apply(_any_draw(state))
        return ViewPosition(state.view(view.player))

    def _witness(self, place: int | None = None, card: int | None = None) -> PartyTimeState:
        """A full state this seat cannot tell from the truth, with ``card`` in the hand of
        seat ``place`` (``-1``: on top of the pile)."""
        view = self.view
        unseen = list(view.unseen())
        if card is not None:
            unseen[card] -= 1
        sizes = [0 if seat == view.player else view.hand_size(seat)
                 for seat in range(view.num_players)]
        if place is not None and place >= 0:
            sizes[place] -= 1
        hands, pile = deal(cards_of(tuple(unseen)), sizes)
        if place is not None and card is not None:
            if place >= 0:
                hands[place] = tuple(n + (c == card) for c, n in enumerate(hands[place]))
            else:
                pile = tuple(n + (c == card) for c, n in enumerate(pile))
        hands[view.player] = view.hand
        return PartyTimeState(view.rules, view.names, view.phase, view.turn, view.refill,
                              view.revealed, view.direction, view.bottle, view.tokens,
                              view.strips, tuple(hands), pile, view.played)

    def random_step(self, rng: random.Random) -> Hashable:
        """An observation drawn from what the seat knows: the unseen cards dealt uniformly
        over the others' hands and the pile, and another player's play drawn uniformly among
        the plays of the hand dealt to them (a stand-in for their unknown policy)."""
        if not self.awaits_chance():
            raise ValueError(f"no step to observe here: {self.actor()} is to act")
        steps = self.legal_steps()
        if isinstance(steps[0], UnseenDraw):
            return steps[0]
        sample = self.view.sample(rng)
        if sample.current_player() == CHANCE:
            return sample_chance(sample, rng)
        return rng.choice(sample.legal_actions())

    def to_document(self) -> dict[str, Any]:
        return view_to_document(self.view)


def _any_draw(state: PartyTimeState) -> Draw:
    """A draw the seat cannot see: which card it is does not change the seat's view."""
    return next(DRAWS[card] for card in CARDS if state.pile[card])


# -- from a file ------------------------------------------------------------------------------


def playable(document: Mapping[str, Any], source: str, game: PlayableGame
             ) -> ViewPosition | StatePlayable:
    """The position of a file to play on: seen from ``me`` (the seat enters what it sees), or
    the full game of ``game`` (``GAME``) when every hand is given."""
    position = load_position(document, source)
    require_no_problems(position.problems(), source)
    if position.is_full():
        return StatePlayable(game, position.to_state(source))
    return ViewPosition(position.to_view(source))


def move_text(play: Play) -> str:
    """What ``hint`` prints as the ``move`` of a play (the canonical spelling)."""
    return format_play(play)


__all__ = ["NOTATION", "PartyTimeNotation", "UnseenDraw", "ViewPosition", "format_play",
           "format_step", "hint_text", "move_text", "playable", "spellings", "step_variants",
           "vocabulary"]

"""Meeple Party move notation: the formatter and the parser of every move and chance outcome.

Words: a meeple is its kind as in position files (``flirt``, ``party_animal``, ``cool``,
``wallflower``, ``jerk``, ``white``, ``cat``, ``dog``) or a roommate (``roommate_cool``); a room
is its id in the house (``kitchen``, ``living_room``, ``bedroom_1``, ``door``); a card is its id
(``kitchen-flirting``).  Canonical spellings (see ``docs/formats.md``, "Move notation"):

- ``welcome cool to kitchen pull flirt from dining_room and jerk from door``: place the drawn
  guest in a room, then its action: ``pull MEEPLE from ROOM`` (Flirt, Party Animal; a Cool pulls
  two, ``... and MEEPLE from ROOM``, or ``pull 2 flirts from ROOM``) or ``push MEEPLE to ROOM``
  (Wallflower, Jerk: a meeple of the room it arrived in); nothing after the room when the action
  has no target;
- ``mingle jerk from dining_room to door push flirt to kitchen``: the mingle, then the moved
  meeple's action the same way; a Cat adds the personality it acts as (``mingle cat from kitchen
  to dining_room as flirt pull ...``); a white meeple's surprise follows as a chance outcome;
- ``stand up flirt in living_room``: the mingle spent standing a laid-down meeple up;
- ``no refresh`` / ``refresh photo kitchen-flirting`` / ``refresh disaster fight-club``: the
  optional stress refresh of step 2 (the card named is the one replaced);
- choices inside a surprise or a clock icon: ``move from kitchen to door`` (or ``move to door``
  when the card moves meeples from everywhere), ``conga from kitchen to outside``,
  ``remove 2 flirts in kitchen and jerk in door``, ``lay down cool in outside``,
  ``stand up flirt in kitchen``, ``add jerk at door`` (a meeple drawn by a surprise or the Add a
  Guest icon, when the house has several doors), ``nothing``;
- chance: ``draw cool`` (the meeple drawn from the bag; ``draw nothing`` from an empty bag),
  ``surprise fire-fighter``, ``photo kitchen-flirting``, ``disaster fight-club`` (the card turned
  over; ``photo deck empty`` when none is left).

A whole turn is one line with ``|`` between its steps (what ``hint`` prints as the best turn).
Also accepted: what ``hint`` printed before (``welcome@3 party_animal:1>3``, ``mingle
flirt:0>2``, ``stand-up flirt@3``, ``no-refresh``, ``refresh photo:0:1``, ``pick @2``, ``photo
12``), the readable sentence of ``describe_action``, room names (``Living Room``, ``Front
Door``), ``party animal``, plurals, ``Cool roommate`` or the player's name for a roommate (``pull
Ana from kitchen``), card names, ``refresh Ana disaster`` / ``refresh 1 disaster`` / ``refresh
communal``, a mingle without its ``from ROOM`` when that is unambiguous, and any case.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from ..playable import StepNotation, Vocabulary, plural
from ..protocol import Action
from .game import (
    BAG_KINDS,
    CAT,
    DOG,
    PERSONALITIES,
    PERSONALITY_KEYS,
    ROOMMATE,
    Dealt,
    Drawn,
    Mingle,
    Pick,
    Refresh,
    Slot,
    StandUp,
    Step,
    Welcome,
    piece_key,
)
from .setup import Setup
from .state import (
    DRAW,
    EFFECT,
    LAY_DOWN,
    OVER,
    PLACE,
    REFRESH_DRAW,
    RESTOCK,
    SURPRISE,
    MeeplePartyState,
    slot_deck,
)

KEYWORDS = frozenset({"welcome", "to", "pull", "push", "from", "and", "mingle", "as", "stand",
                      "up", "in", "no", "refresh", "add", "at", "lay", "down", "move", "conga",
                      "remove", "nothing", "draw", "photo", "disaster", "surprise", "deck",
                      "empty", "communal"})
"""Words of the grammar: never taken as a player's name for a roommate."""

EFFECT_VERBS = {"remove": "remove", "lay_down": "lay down", "stand_up": "stand up"}


class MeeplePartyNotation(StepNotation):
    """The notation of Meeple Party (see the module docstring)."""

    def actor(self, state: MeeplePartyState) -> str:
        phase = state.phase
        if phase == OVER:
            return f"nobody: the party is over ({state.outcome})"
        if phase in (DRAW, EFFECT) and state.current_player() < 0:
            return "the bag"
        if phase == SURPRISE:
            return "the surprise deck"
        if phase in (REFRESH_DRAW, RESTOCK):
            return f"the {slot_deck(state.pending[0])} deck"
        return state.setup.players[state.active]

    def format(self, state: MeeplePartyState, step: Action) -> str:
        return _spell(state, step)

    def variants(self, state: MeeplePartyState, step: Action) -> Iterable[str]:
        yield str(step)
        yield state.describe_action(step)
        house = state.setup.house
        if isinstance(step, Welcome):
            kind = BAG_KINDS[state.drawn]
            room = house.rooms[step.room].id
            action = _action_text(state, step.steps, step.room)
            yield f"welcome {kind} in {room}{action}"
            yield f"welcome to {room}{action}"
        elif isinstance(step, Mingle):
            yield _spell(state, step).replace(f" from {house.rooms[step.src].id} ", " ", 1)
        elif isinstance(step, Refresh) and step.slot is not None:
            yield from _refresh_variants(state, step.slot)
        elif isinstance(step, Drawn):
            yield "nothing" if step.kind < 0 else BAG_KINDS[step.kind]
        elif isinstance(step, Dealt) and step.card >= 0:
            card = state.setup.cards.deck(step.deck)[step.card]
            yield f"draw {step.deck} {card.id}"
            yield card.id
            yield f"{step.deck} {card.name}"
            yield card.name

    def vocabulary(self, state: MeeplePartyState) -> Vocabulary:
        return _vocabulary(state.setup)


# -- canonical spellings ----------------------------------------------------------------------


def _spell(state: MeeplePartyState, step: Action) -> str:
    house = state.setup.house
    if isinstance(step, Welcome):
        return (f"welcome {BAG_KINDS[state.drawn]} to {house.rooms[step.room].id}"
                + _action_text(state, step.steps, step.room))
    if isinstance(step, Mingle):
        text = (f"mingle {piece_key(step.piece)} from {house.rooms[step.src].id} "
                f"to {house.rooms[step.dst].id}")
        if step.as_kind >= 0:
            text += f" as {PERSONALITY_KEYS[step.as_kind]}"
        return text + _action_text(state, step.steps, step.dst)
    if isinstance(step, StandUp):
        return f"stand up {piece_key(step.piece)} in {house.rooms[step.room].id}"
    if isinstance(step, Refresh):
        if step.slot is None:
            return "no refresh"
        deck = slot_deck(step.slot)
        return f"refresh {deck} {state.setup.cards.deck(deck)[state.card_at(step.slot)].id}"
    if isinstance(step, Pick):
        return _pick_text(state, step)
    if isinstance(step, Drawn):
        return f"draw {BAG_KINDS[step.kind] if step.kind >= 0 else 'nothing'}"
    if isinstance(step, Dealt):
        if step.card < 0:
            return f"{step.deck} deck empty"
        return f"{step.deck} {state.setup.cards.deck(step.deck)[step.card].id}"
    raise ValueError(f"not a Meeple Party step: {step!r}")


def _action_text(state: MeeplePartyState, steps: Sequence[Step], room: int) -> str:
    """`` pull flirt from kitchen and jerk from door`` or `` push flirt to kitchen``."""
    if not steps:
        return ""
    house = state.setup.house
    pulls = [(s.piece, house.rooms[s.src].id) for s in steps if s.dst == room]
    pushes = [(s.piece, house.rooms[s.dst].id) for s in steps if s.dst != room]
    parts = []
    if pulls:
        parts.append("pull " + _listed(pulls, "from"))
    if pushes:
        parts.append("push " + _listed(pushes, "to"))
    return " " + " ".join(parts)


def _listed(items: Sequence[tuple[int, str]], joint: str) -> str:
    """``flirt from kitchen and 2 jerks from door``: identical meeples counted."""
    counted: dict[tuple[int, str], int] = {}
    for item in items:
        counted[item] = counted.get(item, 0) + 1
    return " and ".join(_meeples(piece, n) + f" {joint} {room}"
                        for (piece, room), n in counted.items())


def _meeples(piece: int, n: int) -> str:
    return piece_key(piece) if n == 1 else f"{n} {plural(piece_key(piece))}"


def _pick_text(state: MeeplePartyState, pick: Pick) -> str:
    """A choice inside a surprise or a clock icon, in the words of what it does."""
    house = state.setup.house
    rooms = [house.rooms[r].id for r in pick.rooms]
    if state.phase in (PLACE, EFFECT) and state.drawn >= 0:
        return f"add {BAG_KINDS[state.drawn]} at {rooms[0]}"
    if state.phase == LAY_DOWN:
        verb = "lay down"
    elif state.phase == EFFECT:
        do = state.setup.cards.surprises[state.surprise].effects[state.effect].do
        if do in ("move", "conga") and rooms:
            if len(rooms) == 1:
                return f"{do} to {rooms[0]}"
            return f"{do} from {rooms[0]} to {rooms[1]}"
        verb = EFFECT_VERBS.get(do, "choose")
    else:
        verb = "choose"
    if not pick.meeples:
        return "nothing" if not rooms else f"{verb} " + " ".join(rooms)
    return f"{verb} " + _listed([(piece, house.rooms[room].id) for room, piece in pick.meeples],
                                "in")


def _refresh_variants(state: MeeplePartyState, slot: Slot) -> Iterable[str]:
    kind, seat, index = slot
    deck = slot_deck(slot)
    card = state.setup.cards.deck(deck)[state.card_at(slot)]
    yield f"refresh {card.id}"
    yield f"refresh {card.name}"
    yield f"refresh {deck} {card.name}"
    if kind == "communal":
        yield "refresh communal"
        yield "refresh communal disaster"
        return
    for who in (state.setup.players[seat], str(seat + 1)):
        yield f"refresh {who} {kind}" + (f" {index + 1}" if kind == "photo" else "")
        if kind == "photo":
            yield f"refresh {who} photo {card.id}"


# -- the vocabulary ---------------------------------------------------------------------------


@lru_cache(maxsize=16)
def _vocabulary(setup: Setup) -> Vocabulary:
    """Room names, ``party animal``, plurals, ``Cool roommate`` and the players' names for
    their roommates, card names: each stands for the word the spellings use."""
    phrases: list[tuple[str, str]] = []
    words = set(KEYWORDS)
    for kind in BAG_KINDS:
        words.add(kind)
        phrases += [(plural(kind), kind), (kind.replace("_", " "), kind),
                    (plural(kind.replace("_", " ")), kind)]
    phrases += [("white surprise", "white"), ("white surprises", "white"),
                ("surprise meeple", "white")]
    for p, personality in enumerate(PERSONALITIES):
        token = piece_key(ROOMMATE + p)
        words.add(token)
        label = personality.label.lower()
        phrases += [(f"{label} roommate", token), (f"roommate {label}", token),
                    (f"the {label} roommate", token), (token.replace("_", " "), token)]
    words |= {piece_key(CAT), piece_key(DOG)}
    house = setup.house
    for room in house.rooms:
        words.add(room.id)
        phrases += [(room.name, room.id), (room.id.replace("_", " "), room.id),
                    (f"the {room.name}", room.id)]
    for deck in ("photo", "disaster", "surprise"):
        for card in setup.cards.deck(deck):
            words.add(card.id)
            phrases.append((card.name, card.id))
    for seat, name in enumerate(setup.players):
        token = piece_key(ROOMMATE + setup.roommates[seat])
        if name.casefold() not in words:
            phrases += [(f"{name}'s roommate", token)]
    # A player's name alone stands for their roommate in a meeple's place; it is a plain word
    # elsewhere ("refresh Ana disaster") and both sides are rewritten alike, so it still matches.
    for seat, name in enumerate(setup.players):
        if name.casefold() not in words and " " not in name.strip():
            phrases.append((name, piece_key(ROOMMATE + setup.roommates[seat])))
    return Vocabulary(phrases)


NOTATION = MeeplePartyNotation()

__all__ = ["MeeplePartyNotation", "NOTATION"]

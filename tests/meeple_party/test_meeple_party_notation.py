"""Meeple Party notation: welcomes and mingles with their action targets, stand-ups, the stress
refresh, surprise and clock choices, draws and cards; a whole turn as one line (what `hint`
prints as a turn); room names, player names, plurals and prefixes; one-line errors; and the file
written after every step of a turn loads back."""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterator
from functools import lru_cache

import pytest

from partysolver import puzzles
from partysolver.models.documents import read_document
from partysolver.models.errors import InputError
from partysolver.models.meeple_party import GAME, Mingle, Refresh, Step, Welcome, new_game
from partysolver.models.meeple_party.board import roommate_room
from partysolver.models.meeple_party.game import (
    CAT,
    ROOMMATE,
    WHITE,
    Dealt,
    Drawn,
    Personality,
)
from partysolver.models.meeple_party.state import (
    CLOCK,
    EFFECT,
    MINGLE,
    PHASES,
    REFRESH,
    MeeplePartyState,
)
from partysolver.models.notation import NotationError
from partysolver.models.playable import Line, StatePlayable
from partysolver.models.protocol import CHANCE, TERMINAL, sample_chance
from partysolver.solvers.meeple_party.turn import describe_plan, turn_hint

FLIRT, PARTY_ANIMAL, COOL, WALLFLOWER, JERK = (int(p) for p in Personality)


def example(name: str) -> StatePlayable:
    document, source = read_document(puzzles.examples("meeple-party")[name])
    return GAME.playable(document, source)


def room(position: StatePlayable, room_id: str) -> int:
    return position.state.setup.house.index(room_id)  # type: ignore[attr-defined]


def test_a_welcome_names_the_guest_the_room_and_its_pulls() -> None:
    ana = example("default")  # Ana (the Flirt) drew a Cool
    assert ana.actor() == "Ana" and not ana.awaits_chance()
    kitchen, dining = room(ana, "kitchen"), room(ana, "dining_room")
    welcome = Welcome(kitchen, (Step(PARTY_ANIMAL, dining, kitchen), Step(JERK, dining, kitchen)))
    assert ana.format(welcome) == ("welcome cool to kitchen pull party_animal from dining_room "
                                   "and jerk from dining_room")
    for text in ("welcome cool to kitchen", "WELCOME COOL TO KITCHEN",
                 "welcome@0 party_animal:1>0 jerk:1>0",
                 "welcome the Cool into the Kitchen: pull a Party Animal from Dining Room to "
                 "Kitchen; pull a Jerk from Dining Room to Kitchen",
                 "welcome cool to kitchen pull party animal from dining room and jerk from "
                 "dining room", "wel co to kit"):
        assert ana.parse(text) == welcome, text


def test_rooms_and_roommates_by_name_label_or_player() -> None:
    ana = example("default")
    living, bathroom, bedroom = (room(ana, r) for r in ("living_room", "bathroom", "bedroom_1"))
    roommate_flirt = ROOMMATE + FLIRT
    welcome = Welcome(living, (Step(WALLFLOWER, bathroom, living),
                               Step(roommate_flirt, bedroom, living)))
    canonical = ("welcome cool to living_room pull wallflower from bathroom and roommate_flirt "
                 "from bedroom_1")
    assert ana.format(welcome) == canonical
    for text in (canonical,
                 "welcome cool to Living Room pull wallflower from Bathroom and Flirt roommate "
                 "from Bedroom 1",
                 "welcome cool to living room pull wallflowers from bathroom and Ana from "
                 "bedroom 1"):
        assert ana.parse(text) == welcome, text


def test_two_identical_meeples_pulled_are_counted() -> None:
    spread = example("spread-out")
    pairs = [s for s in decisions_met(spread) if isinstance(s, Welcome | Mingle)
             and len(s.steps) == 2 and s.steps[0] == s.steps[1]]
    assert pairs
    for step in pairs:
        position = next(p for p in _positions_of(spread) if step in p.legal_steps())
        text = position.format(step)
        assert " pull 2 " in text and position.parse(text) == step


def _positions_of(position: StatePlayable) -> Iterator[StatePlayable]:
    rng = random.Random(5)
    for _ in range(30):
        current = position
        for _ in range(6):
            if current.is_over():
                break
            if current.awaits_chance():
                current = current.apply(current.random_step(rng))
                continue
            yield current
            current = current.apply(rng.choice(list(current.legal_steps())))


def decisions_met(position: StatePlayable) -> Iterator[Hashable]:
    """Every decision of a few random turns from ``position``."""
    for current in _positions_of(position):
        yield from current.legal_steps()


def test_ambiguous_and_unknown_text_get_one_line_with_the_closest_legal_moves() -> None:
    ana = example("default")
    with pytest.raises(NotationError) as caught:
        ana.parse("wel co to liv")
    message = str(caught.value)
    assert message.startswith("ambiguous move") and "\n" not in message
    assert "'welcome cool to living_room pull" in message
    with pytest.raises(NotationError) as caught:
        ana.parse("welcome cool to garage")
    assert caught.value.problem == "not a legal move here" and len(caught.value.closest) == 3
    assert all(c.startswith("welcome cool to ") for c in caught.value.closest)


def turn(position: StatePlayable) -> Iterator[tuple[StatePlayable, Hashable]]:
    """The steps of the hint's best turn, with the position each is played in."""
    state = position.state
    plan = turn_hint(state, top=1).options[0].plan  # type: ignore[arg-type]
    for action in plan:
        yield position, action
        position = position.apply(action)


@pytest.mark.parametrize("name", ["last-photo", "spread-out"])
def test_the_hints_turn_parses_as_one_line_in_every_spelling_it_prints(name: str) -> None:
    position = example(name)
    plan = turn_hint(position.state, top=1).options[0].plan  # type: ignore[arg-type]
    old = " | ".join(str(a) for a in plan)  # hint --json "move" today
    line = position.parse(old)
    assert isinstance(line, Line) and line.steps == plan
    canonical = position.format(line)
    assert canonical.count(" | ") == len(plan) - 1 and position.parse(canonical) == line
    steps = describe_plan(position.state, plan)  # hint --json "steps" today
    assert position.parse(" | ".join(steps)) == line
    expected = position
    for action in plan:
        expected = expected.apply(action)
    assert position.apply(line).key() == expected.key()


def test_every_step_of_a_turn_writes_a_file_that_loads_back_mid_turn() -> None:
    """The position file carries the turn's phase ([progress]): after the welcome, the
    mingle and the refresh each, the file loads back to the same position."""
    position = example("last-photo")
    phases = []
    for now, step in turn(position):
        after = now.apply(step)
        document = after.to_document()
        phases.append(document["progress"]["phase"])
        again = GAME.playable(document, "mid-turn.toml")
        assert again.key() == after.key()
    assert phases[0] == "mingle" and phases[1] == "refresh"


def refresh_position() -> StatePlayable:
    position = example("default")
    for now, _ in turn(position):
        if now.state.phase == REFRESH:  # type: ignore[attr-defined]
            return now
    raise AssertionError("the turn has no refresh")


def test_the_stress_refresh_names_the_card_or_its_holder() -> None:
    at = refresh_position()
    steps = at.legal_steps()
    assert steps[0] == Refresh(None) and at.format(steps[0]) == "no refresh"
    assert at.parse("no-refresh") == Refresh(None) and at.parse("no") == Refresh(None)
    fight_club = Refresh(("disaster", 0, 0))
    assert at.format(fight_club) == "refresh disaster fight-club"
    for text in ("refresh fight-club", "refresh Fight Club", "refresh Ana disaster",
                 "refresh 1 disaster", "refresh disaster:0:0", "ref dis fi"):
        assert at.parse(text) == fight_club, text
    photo = Refresh(("photo", 1, 0))
    card = at.state.setup.cards.photos[at.state.photos[1][0]]  # type: ignore[attr-defined]
    assert at.format(photo) == f"refresh photo {card.id}"
    assert at.parse("refresh Ben photo 1") == photo
    assert at.parse("refresh 2 photo 1") == photo


def test_draws_and_cards_are_chance_outcomes_in_words() -> None:
    ben = example("before-the-draw")
    assert ben.awaits_chance() and ben.actor() == "the bag"
    assert [ben.format(s) for s in ben.legal_steps()][:2] == ["draw flirt", "draw party_animal"]
    for text in ("draw party animal", "draw a party animal", "party animals", "dr pa",
                 "draw party_animal"):
        assert ben.parse(text) == Drawn(PARTY_ANIMAL), text
    white = ben.apply(Drawn(WHITE))
    assert white.actor() == "the surprise deck"
    cards = white.state.setup.cards  # type: ignore[attr-defined]
    fire = cards.surprise_ids["fire-fighter"]
    assert white.format(Dealt("surprise", fire)) == "surprise fire-fighter"
    for text in ("surprise fire-fighter", "The Fire Fighter", "surprise the fire fighter",
                 "fire-fighter", f"surprise {fire}"):
        assert white.parse(text) == Dealt("surprise", fire), text


@lru_cache(maxsize=1)
def decisions() -> dict[tuple[str, ...], StatePlayable]:
    """One decision of each kind met on seeded random games: a choice inside a surprise (by
    its effect), the Lay One Down icon, a welcome at the clock."""
    found: dict[tuple[str, ...], StatePlayable] = {}
    rng = random.Random(11)
    for seed in range(60):
        state = GAME.initial_state(1 + seed % 5, random.Random(seed))
        while state.current_player() != TERMINAL:
            if state.current_player() == CHANCE:
                state = state.apply(sample_chance(state, rng))
                continue
            kind: tuple[str, ...] = (PHASES[state.phase],)
            if state.phase == EFFECT:
                kind += (state.setup.cards.surprises[state.surprise].effects[state.effect].do,)
            elif state.stage == CLOCK:
                kind += ("clock",)
            found.setdefault(kind, StatePlayable(GAME, state))  # type: ignore[arg-type]
            state = state.apply(rng.choice(list(state.legal_actions())))
    ben = example("before-the-draw").apply(Drawn(WHITE))  # the Conga Line, drawn on purpose
    conga = ben.state.setup.cards.surprise_ids["conga-line"]  # type: ignore[attr-defined]
    found[("effect", "conga")] = ben.apply(Dealt("surprise", conga))
    return found


@pytest.mark.parametrize(("kind", "verb"), [
    (("effect", "conga"), "conga from "), (("effect", "move"), "move "),
    (("effect", "remove"), "remove "), (("effect", "lay_down"), "lay down "),
    (("lay-down", "clock"), "lay down "), (("place", "clock"), "welcome ")])
def test_choices_inside_surprises_and_clock_icons_say_what_they_do(
        kind: tuple[str, ...], verb: str) -> None:
    at = decisions()[kind]
    for step in at.legal_steps():
        text = at.format(step)
        assert text.startswith(verb) or text == "nothing", text
        assert at.parse(text) == step
        assert at.parse(str(step)) == step  # what hint printed before ("pick ...")


def test_a_mingled_cat_says_what_it_acts_as() -> None:
    state: MeeplePartyState = example("default").state  # type: ignore[assignment]
    rooms = list(state.board)
    kitchen = state.setup.house.index("kitchen")
    rooms[kitchen] += 1 << (3 * CAT)
    at = StatePlayable(GAME, state._with(board=tuple(rooms), phase=MINGLE, stage=1, drawn=-1))  # type: ignore[arg-type]
    cats = [s for s in at.legal_steps() if isinstance(s, Mingle) and s.piece == CAT]
    assert cats
    for step in cats:
        text = at.format(step)
        assert text.startswith("mingle cat from kitchen to ") and " as " in text
        assert at.parse(text) == step


def test_a_surprise_on_the_first_turn_may_bring_roommates_together_and_the_file_loads() -> None:
    """The roommates start in different rooms, but a surprise drawn on the first turn (Dance
    Party: every Party Animal to the Living Room) may move the Party Animal roommate in with
    another before any guest arrives; that position is legal and its file loads back."""
    state = new_game(3, random.Random(0))
    living = state.setup.house.index("living_room")
    assert roommate_room(state.board, PARTY_ANIMAL) != living
    assert living in [roommate_room(state.board, p) for p in (FLIRT, COOL, WALLFLOWER, JERK)]
    start = StatePlayable(GAME, state)  # type: ignore[arg-type]
    dance = state.setup.cards.surprise_ids["dance-party"]
    after = start.parse(f"draw white | surprise {start.state.setup.cards.surprises[dance].id}")
    moved = start.apply(after)
    assert roommate_room(moved.state.board, PARTY_ANIMAL) == living  # type: ignore[attr-defined]
    assert moved.state.turn == 1 and moved.actor() == "Ana"  # type: ignore[attr-defined]
    again = GAME.playable(moved.to_document(), "first-turn.toml")
    assert again.key() == moved.key()
    refused = start.to_document()
    rooms = refused["rooms"]
    rooms["kitchen"] = {"roommates": [r for room in rooms.values()
                                      for r in room.get("roommates", [])]}
    for room_id in [r for r in rooms if r != "kitchen"]:
        del rooms[room_id]
    with pytest.raises(InputError, match="start together"):
        GAME.playable(refused, "start.toml")

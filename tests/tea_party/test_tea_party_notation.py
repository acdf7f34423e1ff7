"""Tea Party notation: the canonical spellings, the short forms a player types (prefixes, seat
numbers, plurals, any case), what `hint` printed before, and one-line errors."""

from __future__ import annotations

import pytest
from tea_party_positions import position as made

from partysolver import puzzles
from partysolver.models.documents import read_document
from partysolver.models.notation import NotationError
from partysolver.models.playable import StatePlayable
from partysolver.models.tea_party import GAME, Cup, Draw, Hero, Squish, ThrowUp
from partysolver.models.tea_party.state import DRAW, THROW_UP


def example(name: str) -> StatePlayable:
    document, source = read_document(puzzles.examples("tea-party")[name])
    return GAME.playable(document, source)


def playable(**kwargs: object) -> StatePlayable:
    return StatePlayable(GAME, made(**kwargs))  # type: ignore[arg-type]


KING_STEAL_QUEEN = Squish(Hero.ROGUE, 1, Hero.QUEEN, copied=True)


def test_canonical_spellings_name_the_hero_the_ability_the_monster_and_the_take() -> None:
    king = example("default")
    assert king.actor() == "Blue"
    assert [king.format(s) for s in king.legal_steps()] == [
        "cup", "squish king as fighter", "squish king as cleric",
        "squish king as rogue on Green take rogue", "squish king as rogue on Green take queen",
        "squish king as wizard on Blue", "squish king as wizard on Green",
        "squish king as bard on Green"]
    wizard = example("midgame")
    assert wizard.format(Squish(Hero.WIZARD, 2)) == "squish wizard on Orange"


@pytest.mark.parametrize("text", [
    "squish king as rogue on Green take queen", "SQUISH KING AS ROGUE ON GREEN TAKE QUEEN",
    "sq k as rog on gr take qu", "squish king as rogue on 2 take queen",
    "squish as rogue on 2 take queen",  # what hint printed before
    "squish as rogue on Green take queens", "rogue on green take queen",
    "squish the King as a Rogue: steal a Queen from Green's teacup",  # describe_action
    "squish king as rogue on green take queen.",
])
def test_a_player_may_type_any_of_these_for_one_squish(text: str) -> None:
    assert example("default").parse(text) == KING_STEAL_QUEEN


def test_short_forms_cup_drink_and_seat_numbers() -> None:
    king = example("default")
    assert king.parse("keep") == Cup() and king.parse("cu") == Cup()
    assert king.parse("squish king as wizard on 1") == Squish(Hero.WIZARD, 0, None, True)
    assert king.parse("drink") == Squish(Hero.FIGHTER, None, None, True)
    assert king.parse("draw again") == Squish(Hero.CLERIC, None, None, True)
    wizard = example("midgame")
    assert wizard.parse("squish on 2") == Squish(Hero.WIZARD, 1)  # hint's old spelling
    assert wizard.parse("wizard on orange") == Squish(Hero.WIZARD, 2)


def test_ambiguous_and_unknown_text_get_one_line_with_the_closest_legal_moves() -> None:
    king = example("default")
    with pytest.raises(NotationError) as caught:
        king.parse("squish as wizard")
    message = str(caught.value)
    assert "ambiguous move (2 legal moves fit)" in message and "\n" not in message
    assert "'squish king as wizard on Blue'" in message
    assert "'squish king as wizard on Green'" in message
    with pytest.raises(NotationError) as caught:
        king.parse("squish king as ranger")
    assert caught.value.problem == "not a legal move here" and len(caught.value.closest) == 3
    with pytest.raises(NotationError, match="not a legal move"):
        king.parse("squish king as wizard on 3")  # only two monsters


def test_draws_name_the_hero_and_take_plurals() -> None:
    bag = playable(bag={"fighter": 2, "cleric": 1}, cups=[{}, {}])
    assert bag.state.phase == DRAW and bag.actor() == "the bag"  # type: ignore[attr-defined]
    assert [bag.format(s) for s in bag.legal_steps()] == ["draw fighter", "draw cleric"]
    for text in ("draw cleric", "Cleric", "draw clerics", "draw a cleric", "dr cl",
                 "Blue draws a Cleric"):
        assert bag.parse(text) == Draw(Hero.CLERIC), text
    with pytest.raises(NotationError, match="not a legal chance outcome"):
        bag.parse("draw ranger")


def test_throw_ups_list_the_heroes_in_either_order() -> None:
    document = {"game": "tea-party", "players": ["Blue", "Green"], "current": "Blue",
                "throw_up": "Blue", "bag": {"fighter": 3},
                "stomachs": {"Blue": {"fighter": 2, "rogue": 1, "ranger": 1}}}
    sick = GAME.playable(document, "sick.toml")
    assert sick.state.phase == THROW_UP and sick.actor() == "Blue's stomach"  # type: ignore[attr-defined]
    pair = ThrowUp((Hero.FIGHTER, Hero.ROGUE))
    assert sick.format(pair) == "throw up fighter and rogue"
    for text in ("throw up fighter and rogue", "throw up rogue and fighter",
                 "throw up fighter rogue", "THROW UP ROGUE FIGHTER"):
        assert sick.parse(text) == pair, text
    double = ThrowUp((Hero.FIGHTER, Hero.FIGHTER))
    assert sick.parse("throw up 2 fighters") == double
    assert sick.parse("throw up fighter and fighter") == double


def test_every_move_hint_prints_parses_on_the_shipped_examples() -> None:
    """hint --json prints ``str(move)`` as ``move`` and ``describe_action`` as ``text`` for
    every option of the hero in hand; before a draw, the same for each hero drawn."""
    for name in puzzles.examples("tea-party"):
        position = example(name)
        positions = [position] if not position.awaits_chance() else \
            [position.apply(draw) for draw in position.legal_steps()]
        for now in positions:
            for step in now.legal_steps():
                assert now.parse(str(step)) == step, (name, str(step))
                assert now.parse(now.state.describe_action(step)) == step  # type: ignore[attr-defined]


def test_apply_writes_a_position_that_loads_back() -> None:
    king = example("default")
    after = king.apply(king.parse("squish king as rogue on green take queen"))
    assert after.actor() == "Blue" and after.state.held_hero == Hero.QUEEN  # type: ignore[attr-defined]
    again = GAME.playable(after.to_document(), "after.toml")
    assert again.key() == after.key()
    assert again.parse("cup") == Cup()

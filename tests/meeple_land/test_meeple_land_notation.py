"""Meeple Land notation: buying and placing tiles (column, row, clockwise turn), the extension,
the extra entrance, the advert, passing with a bus, and the chance outcomes (tiles, adverts and
buses); what `hint` printed before; short forms and one-line errors; a market round played to
its end through position files."""

from __future__ import annotations

import random

import pytest

from partysolver import puzzles
from partysolver.models.documents import format_document, parse_document, read_document
from partysolver.models.errors import InputError
from partysolver.models.meeple_land import GAME, Placement
from partysolver.models.meeple_land.game import (
    Advertise,
    Buy,
    BuyEntrance,
    BuyExtension,
    DrawBus,
    DrawTile,
    Pass,
    RevealAdvert,
    Side,
)
from partysolver.models.notation import NotationError
from partysolver.models.playable import StatePlayable


def example() -> StatePlayable:
    document, source = read_document(puzzles.examples("meeple-land")["default"])
    return GAME.playable(document, source)


def test_canonical_spellings_of_each_kind_of_move() -> None:
    green = example()
    assert green.actor() == "Green" and not green.awaits_chance()
    turned = Buy(Placement("M14", (6, 2), 90))
    assert green.format(turned) == "buy M14 at 6,2 turned 90"
    assert green.format(Buy(Placement("S30", (2, 1)))) == "buy S30 at 2,1"
    assert green.format(BuyExtension(Side.N, 0)) == "extension north at column 0"
    assert green.format(BuyExtension(Side.E, 2)) == "extension east at row 2"
    assert green.format(BuyEntrance(((0, 0), Side.N))) == "entrance N0"
    assert green.format(BuyEntrance(((6, 2), Side.E))) == "entrance E2"
    assert green.format(Advertise()) == "advert"
    assert green.format(Pass("B11")) == "pass bus B11"
    kinds = {type(s) for s in green.legal_steps()}
    assert kinds == {Buy, BuyExtension, BuyEntrance, Advertise, Pass}


@pytest.mark.parametrize("text", [
    "buy M14 at 6,2 turned 90", "BUY M14 AT 6,2 TURNED 90", "buy m14@6,2r90",
    "buy M14 at (6, 2) rotated 90°", "buy M14 at 6, 2 r90", "M14 at 6,2 turned 90",
    "buy M14 at 6,2 turned 90 clockwise",
    "Green buys M14 spinning-cups ($3) and places it at 6,2, turned 90°",
])
def test_a_player_may_type_any_of_these_for_one_placement(text: str) -> None:
    assert example().parse(text) == Buy(Placement("M14", (6, 2), 90))


def test_short_forms_of_the_other_moves() -> None:
    green = example()
    assert green.parse("advertise") == Advertise() == green.parse("adv")
    for text in ("pass B11", "take bus b11", "bus B11", "pass bus b11", "pa bus b11"):
        assert green.parse(text) == Pass("B11"), text
    for text in ("extension n at col 0", "extension N0", "extension north 0"):
        assert green.parse(text) == BuyExtension(Side.N, 0), text
    for text in ("entrance E2", "entrance e 2", "entrance east at row 2", "entrance 6,2:E",
                 "entrance 6,2 east"):
        assert green.parse(text) == BuyEntrance(((6, 2), Side.E)), text


def test_ambiguous_and_unknown_text_get_one_line_with_the_closest_legal_moves() -> None:
    green = example()
    with pytest.raises(NotationError) as caught:
        green.parse("buy M14")
    message = str(caught.value)
    assert message.startswith("ambiguous move") and "\n" not in message
    assert "'buy M14 at " in message
    with pytest.raises(NotationError) as caught:
        green.parse("buy M14 at 0,0")
    assert caught.value.problem == "not a legal move here"
    assert all(c.startswith("buy M14 at ") for c in caught.value.closest[:1])


def test_every_move_hint_prints_parses() -> None:
    """hint --json prints ``str(move)`` as ``move`` and ``describe_action`` as ``text``."""
    green = example()
    for step in green.legal_steps():
        assert green.parse(str(step)) == step, str(step)
        assert green.parse(green.state.describe_action(step)) == step  # type: ignore[attr-defined]


def test_chance_outcomes_name_the_tile_the_advert_and_the_bus() -> None:
    green = example()
    bought = green.apply(green.parse("buy S30 at 2,1"))
    assert bought.awaits_chance() and bought.actor() == "the small pile"
    tile = bought.legal_steps()[0]  # the small pile's top tile comes into the market...
    assert isinstance(tile, DrawTile) and bought.format(tile) == f"draw {tile.tile}"
    assert bought.parse(tile.tile.lower()) == tile == bought.parse(f"tile {tile.tile}")
    refilled = bought.apply(tile)
    assert refilled.actor() == "the small pile"
    reveal = refilled.legal_steps()[0]  # ...and the next one shows its advert
    assert isinstance(reveal, RevealAdvert)
    assert refilled.format(reveal) == f"top advert {reveal.advert}"
    assert refilled.parse(reveal.advert) == reveal == refilled.parse(f"advert {reveal.advert}")


def finish_round(position: StatePlayable, rng: random.Random) -> StatePlayable:
    """Pass (and draw chance) until a bus has to arrive: the round's end."""
    while not position.awaits_chance() or not isinstance(position.legal_steps()[0], DrawBus):
        if position.awaits_chance():
            position = position.apply(position.random_step(rng))
        else:
            passes = [s for s in position.legal_steps() if isinstance(s, Pass)]
            position = position.apply(passes[0])
    return position


def test_buses_arrive_in_words_at_the_end_of_the_round() -> None:
    at = finish_round(example(), random.Random(1))
    assert at.actor() == "the bus pile"
    bus = at.legal_steps()[0]
    assert isinstance(bus, DrawBus) and at.format(bus) == f"bus {bus.bus} arrives"
    for text in (bus.bus, f"bus {bus.bus}", f"draw bus {bus.bus}", f"{bus.bus} arrives"):
        assert at.parse(text) == bus, text


def test_a_market_round_played_step_by_step_round_trips_through_its_files() -> None:
    """Every position of the rest of a round, chance steps included, writes a file (TOML and
    JSON) that loads back to the same position."""
    rng = random.Random(4)
    position = example()
    for _ in range(12):
        step = position.random_step(rng) if position.awaits_chance() else \
            rng.choice(list(position.legal_steps()))
        assert position.parse(position.format(step)) == step
        position = position.apply(step)
        document = position.to_document()
        for as_json in (False, True):
            source = "round.json" if as_json else "round.toml"
            again = GAME.playable(parse_document(format_document(document, as_json), source),
                                  source)
            assert again.key() == position.key()


def test_only_a_game_position_is_playable() -> None:
    document, source = read_document(puzzles.examples("meeple-land")["puzzle"])
    with pytest.raises(InputError, match="kind"):
        GAME.playable(document, source)

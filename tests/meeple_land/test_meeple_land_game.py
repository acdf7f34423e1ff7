"""The full game: set-up, turns, chance, the end of a round, the end of the game."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from partysolver.models.meeple_land import GAME
from partysolver.models.meeple_land.catalogue import house_catalogue
from partysolver.models.meeple_land.game import (
    Advertise,
    Buy,
    BuyEntrance,
    BuyExtension,
    DrawBus,
    DrawTile,
    Pass,
    Placement,
    RevealAdvert,
    Side,
)
from partysolver.models.meeple_land.park import Layout, Piece, legal_placements
from partysolver.models.meeple_land.state import (
    MeepleLandState,
    ParkState,
    next_first_player,
)
from partysolver.models.protocol import CHANCE, TERMINAL, sample_chance

CATALOGUE = house_catalogue()
GOLDEN = Path(__file__).with_name("golden_game.txt")


def new(players: int = 2, seed: int = 0) -> MeepleLandState:
    return MeepleLandState.new_game(CATALOGUE, ["Ann", "Bob", "Cy", "Di"][:players],
                                    random.Random(seed))


def settle(state: MeepleLandState, rng: random.Random) -> MeepleLandState:
    while state.current_player() == CHANCE:
        state = state.apply(sample_chance(state, rng))
    return state


def entrance_placement(tile_id: str) -> Placement:
    """The first legal placement of a tile in an empty default park (on the entrance)."""
    return legal_placements(ParkState().layout(CATALOGUE), CATALOGUE.tile(tile_id))[0][0]


def test_set_up() -> None:
    state = new(4)
    assert [p.money for p in state.parks] == [15, 16, 17, 18]  # start money + round 1 grant
    assert (len(state.market.small), len(state.market.medium), len(state.market.large)) == \
        (5, 5, 3)
    assert len(state.parking) == 5
    assert state.advert is not None
    assert state.current_player() == 0 and state.round == 1
    assert (state.market.extensions, state.market.entrances) == (4, 4)


def test_actions_in_documented_order() -> None:
    state = new()
    actions = state.legal_actions()
    kinds = [type(a).__name__ for a in actions]
    order = ["Buy", "BuyExtension", "BuyEntrance", "Advertise", "Pass"]
    assert kinds == sorted(kinds, key=order.index)
    assert {a.bus for a in actions if isinstance(a, Pass)} == {b for b, _ in state.parking}
    # Every tile bought must connect: in an empty park, to the printed entrance N3.
    empty = state.parks[0].layout(CATALOGUE)
    for action in actions:
        if isinstance(action, Buy):
            tile = CATALOGUE.tile(action.placement.tile)
            placed = Layout(empty.plot, [Piece.make(0, action.placement, tile)])
            assert placed.entrance_pieces == {0}
            assert tile.cost <= 15


def test_buying_places_pays_and_refills() -> None:
    state = new()
    buy = next(a for a in state.legal_actions() if isinstance(a, Buy)
               and CATALOGUE.tile(a.placement.tile).size == "medium")
    tile = CATALOGUE.tile(buy.placement.tile)
    after = state.apply(buy)
    assert after.parks[0].placed == (buy.placement,)
    assert after.parks[0].money == 15 - tile.cost
    assert after.current_player() == CHANCE and after.pending == ("medium",)
    outcomes = after.chance_outcomes()
    assert sum(p for _, p in outcomes) == 1
    assert all(isinstance(o, DrawTile) for o, _ in outcomes)
    assert len(outcomes) == 40 - 5  # the medium pile
    refilled = after.apply(outcomes[0][0])
    assert len(refilled.market.medium) == 5 and refilled.current_player() == 1


def test_a_small_tile_comes_from_the_pile_top_showing_its_advert() -> None:
    state = new()
    buy = next(a for a in state.legal_actions() if isinstance(a, Buy)
               and CATALOGUE.tile(a.placement.tile).size == "small")
    after = state.apply(buy)
    assert after.pending == ("small", "advert")
    front = after.chance_outcomes()
    # The new market tile is the pile's top: its back shows the advert that was on top.
    assert all(isinstance(o, DrawTile) and CATALOGUE.tile(o.tile).advert == state.advert
               for o, _ in front)
    drawn = after.apply(front[0][0])
    assert drawn.advert is None and drawn.pending == ("advert",)
    backs = drawn.chance_outcomes()
    assert all(isinstance(o, RevealAdvert) for o, _ in backs)
    assert sum(p for _, p in backs) == 1


def test_advertise_brings_visitors_and_puts_the_tile_under_the_pile() -> None:
    state = new()
    advert = CATALOGUE.adverts[state.advert or ""]
    after = state.apply(Advertise())
    assert after.parks[0].visitors == advert.visitors
    assert after.parks[0].money == 15 - advert.price
    assert after.under == (advert.id,)
    # The tile put under is not in the shuffled part any more.
    weights = after.advert_weights()
    unseen = [CATALOGUE.tile(t).advert for t in after.pile("small")]
    assert weights[advert.id] == unseen.count(advert.id) - 1
    assert after.chance_outcomes()[0][1] == Fraction(weights[sorted(weights)[0]],
                                                    sum(weights.values()))


def test_extension_and_entrance() -> None:
    state = new()
    extension = BuyExtension(Side.E, 2)
    after = state.apply(extension)
    park = after.parks[0]
    assert park.plot.extension is not None and park.money == 15 - 6
    assert after.market.extensions == 3
    # North extensions over the printed entrance are not offered.
    assert BuyExtension(Side.N, 2) not in state.legal_actions()
    entrance = BuyEntrance(((0, 3), Side.W))
    after = after.apply(Pass(after.parking[0][0]))  # Bob passes; Ann again
    assert entrance in after.legal_actions()
    after = after.apply(entrance)
    assert after.parks[0].plot.entrances[-1] == ((0, 3), Side.W)
    assert after.parks[0].money == 15 - 6 - 3
    assert after.current_player() == 0  # Bob has passed
    assert not any(isinstance(a, (BuyEntrance, BuyExtension)) for a in after.legal_actions())


def test_passing_takes_a_bus_and_skips_the_player() -> None:
    state = new(3)
    bus = state.parking[1][0]
    after = state.apply(Pass(bus))
    assert after.parks[0].bus == bus and after.passed == {0}
    assert bus not in dict(after.parking)
    after = after.apply(Pass(after.parking[0][0]))
    assert after.current_player() == 2
    after = after.apply(next(a for a in after.legal_actions() if isinstance(a, Buy)))
    after = settle(after, random.Random(1))
    assert after.current_player() == 2  # Ann and Bob have passed


def test_first_player_rule() -> None:
    assert next_first_player([5, 3, 8], 0) == 1  # least money
    # Tied: the closest clockwise from the current first player...
    assert next_first_player([3, 5, 3, 3], 1) == 2
    # ...who cannot stay first when tied.
    assert next_first_player([3, 5, 3, 9], 0) == 2
    assert next_first_player([3, 5, 4, 9], 0) == 0  # alone with the least: stays first


def test_end_of_round_welcomes_pays_and_brings_buses() -> None:
    rng = random.Random(4)
    state = new(2, seed=4)
    first_bus, second_bus = state.parking[0], state.parking[1]
    state = state.apply(Pass(first_bus[0])).apply(Pass(second_bus[0]))
    # Everybody passed: welcome (visitors join the parks), revenue 0 (no spaces), grants.
    assert state.round == 2
    assert state.parks[0].visitors == first_bus[1]
    assert state.parks[1].visitors == second_bus[1]
    assert [p.money for p in state.parks] == [15 + 10, 16 + 10]
    assert state.first == 0  # Ann has the least money
    assert state.pending == ("bus", "bus")
    assert all(isinstance(o, DrawBus) for o, _ in state.chance_outcomes())
    state = settle(state, rng)
    assert len(state.parking) == 3
    assert set(state.buses_gone) == {first_bus[0], second_bus[0]}


def test_revenue_seats_for_money() -> None:
    # A park with a carousel (M31: two green spaces) reachable from the entrance.
    state = new(2)
    park = ParkState(placed=(entrance_placement("M31"),), money=0)
    layout = park.layout(CATALOGUE)
    assert layout.unreachable == []
    state = replace(state, parks=(park, state.parks[1]))
    bus, on_board = max(state.parking, key=lambda item: item[1][0])  # the greenest bus
    state = state.apply(Pass(bus))
    state = state.apply(Pass(state.parking[0][0]))
    # Revenue: $1 per seated visitor; only green ones fit the carousel's two spaces.
    assert state.parks[0].money == min(2, on_board[0]) + 10


def test_game_end_and_tie_breaks() -> None:
    state = new(3)
    cross = Placement("S01", (3, 0), 0)  # a fountain on the entrance path
    parks = (
        ParkState(placed=(cross,), visitors=(1, 0, 0, 0)),  # fountain seats 1 green: +1
        ParkState(visitors=(0, 0, 0, 0)),  # nothing: 0
        ParkState(placed=(Placement("S02", (3, 0), 0),), visitors=(2, 0, 0, 0)),  # +1 -1 = 0
    )
    final = replace(state, parks=parks, round=4, finished=True, pending=())
    assert final.current_player() == TERMINAL
    assert final.returns() == (1.0, 0.0, 0.0)
    # Ann with nothing: Bob and Ann tie at 0 with nothing deducted and nobody inside.
    parks = (ParkState(), parks[1], parks[2])
    final = replace(final, parks=parks)
    # Cy also has 0 but lost 1 point at the entrance: Ann and Bob share.
    assert final.returns() == (0.5, 0.5, 0.0)
    # Equal points, equal deductions: most visitors inside wins.
    parks = (ParkState(placed=(cross,), visitors=(1, 0, 0, 0)),
             ParkState(placed=(entrance_placement("M31"),), visitors=(1, 0, 0, 0)),
             ParkState())
    final = replace(final, parks=parks)
    assert [final.score(i).total for i in range(3)] == [1, 1, 0]
    assert final.returns() == (0.5, 0.5, 0.0)


def test_illegal_actions_are_refused() -> None:
    state = new()
    with pytest.raises(ValueError):
        state.apply(Buy(Placement("M01", (0, 6), 0)))  # not connected (and maybe not offered)
    with pytest.raises(ValueError):
        state.apply(DrawBus("B01"))  # no chance event pending


def test_money_never_goes_negative_and_games_end() -> None:
    for seed in (3,):
        rng = random.Random(seed)
        state = GAME.initial_state(seed, rng)
        steps = 0
        while state.current_player() != TERMINAL:
            if state.current_player() == CHANCE:
                state = state.apply(sample_chance(state, rng))
            else:
                state = state.apply(rng.choice(state.legal_actions()))
            assert all(p.money >= 0 for p in state.parks)
            assert all(n >= 0 for n in state.stock())
            steps += 1
        assert state.round == 4 and steps < 3000
        for seat in range(state.num_players):
            assert state.parks[seat].layout(CATALOGUE).unreachable == []


def transcript(seed: int = 7) -> list[str]:
    """One seeded game of two random players, written move by move."""
    rng = random.Random(seed)
    state = GAME.initial_state(2, rng)
    lines = []
    while state.current_player() != TERMINAL:
        if state.current_player() == CHANCE:
            action = sample_chance(state, rng)
        else:
            action = rng.choice(state.legal_actions())
        lines.append(f"r{state.round} {state.describe_action(action)}")
        state = state.apply(action)
    lines.append("final: " + ", ".join(f"{state.names[i]} {state.score(i).total}"
                                       for i in range(2)) + f" -> {state.returns()}")
    return lines


def test_golden_transcript() -> None:
    """A seeded game replays move for move (regenerate with ``python -m`` on this file only
    when a rule change is intended)."""
    assert transcript() == GOLDEN.read_text(encoding="utf-8").splitlines()


if __name__ == "__main__":  # pragma: no cover - regenerates the golden file
    GOLDEN.write_text("\n".join(transcript()) + "\n", encoding="utf-8")


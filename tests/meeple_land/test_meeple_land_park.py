"""The park verifier, worked by hand: geometry, connections, dead ends, services, scoring."""

from __future__ import annotations

import pytest

from partysolver.models.meeple_land.catalogue import house_catalogue
from partysolver.models.meeple_land.game import (
    Extension,
    PathEnd,
    Placement,
    Plot,
    Side,
    Space,
    Tile,
    footprint,
    parse_entrance,
    variety_points,
)
from partysolver.models.meeple_land.park import DeadEnd, Layout, Piece, Score, legal_placements
from partysolver.models.meeple_land.seating import Seating

N, E, S, W = Side.N, Side.E, Side.S, Side.W


def tile(tile_id: str, paths: str, shape: str = "1x1", attraction: str | None = "carousel",
         services: tuple[str, ...] = (), spaces: tuple[Space, ...] = (), cost: int = 3) -> Tile:
    """A tile from a compact path list such as ``"N0 S0"``."""
    ends = tuple(sorted(PathEnd(Side[p[0]], int(p[1:] or 0)) for p in paths.split()))
    return Tile(tile_id, shape, ends, cost, None if services else attraction, services, spaces)


def layout(plot: Plot, *placed: tuple[Tile, tuple[int, int], int]) -> Layout:
    pieces = [Piece.make(i, Placement(t.id, at, r), t) for i, (t, at, r) in enumerate(placed)]
    return Layout(plot, pieces)


PLOT = Plot(3, 3, (((1, 0), N),))
STRAIGHT = tile("NS", "N S")
ACROSS = tile("EW", "E W", attraction="ferris-wheel")


# -- geometry ---------------------------------------------------------------------------------


def test_a_medium_tile_turns_clockwise() -> None:
    medium = tile("M", "N0 E0", shape="1x2")
    flat = footprint(medium, (0, 0), 0)
    assert flat.cells == ((0, 0), (1, 0))
    assert flat.ends == (((0, 0), N), ((1, 0), E))
    # Turned 90° clockwise it stands on two rows; its top-left cell is still (0, 0).
    upright = footprint(medium, (0, 0), 90)
    assert upright.cells == ((0, 0), (0, 1))
    # N0 (top of the left cell) becomes the east side of the top cell; E0 the south side of
    # the bottom cell.
    assert set(upright.ends) == {((0, 0), E), ((0, 1), S)}
    assert set(footprint(medium, (2, 3), 180).ends) == {((3, 3), S), ((2, 3), W)}


def test_a_large_tile_has_eight_segments_and_turns() -> None:
    large = tile("L", "N0 E1", shape="2x2")
    assert len(large.boundary()) == 8
    turned = footprint(large, (1, 1), 270)
    assert turned.cells == ((1, 1), (1, 2), (2, 1), (2, 2))
    # N0 (top edge, left cell) turned three times clockwise faces west on the bottom row.
    assert set(turned.ends) == {((1, 2), W), ((2, 1), N)}


def test_entrance_notation_reads_both_forms() -> None:
    assert parse_entrance("N3", 7, 7) == ((3, 0), N)
    assert parse_entrance("E2", 7, 7) == ((6, 2), E)
    assert parse_entrance("S0", 7, 7) == ((0, 6), S)
    assert parse_entrance("8,1:e", 7, 7) == ((8, 1), E)


def test_extension_cells_and_entrances() -> None:
    plot = Plot(7, 7, (((3, 0), N),))
    east = Extension(E, 2)
    assert set(east.cells(7, 7)) == {(x, y) for x in (7, 8, 9) for y in (2, 3, 4)}
    # Flush along each side: 5 offsets per side, and the north ones over column 3 would cover
    # the printed entrance.
    options = plot.extension_options()
    assert len(options) == 4 * 5 - 3
    assert Extension(N, 2) not in options and Extension(N, 0) in options
    extended = plot.with_extension(east)
    assert extended.inside((8, 3)) and extended.on_boundary(((9, 3), E))
    assert not extended.on_boundary(((6, 3), E))


# -- connections, reachability, dead ends -----------------------------------------------------


def test_a_tile_on_the_entrance_path_is_connected() -> None:
    park = layout(PLOT, (STRAIGHT, (1, 0), 0))
    assert park.entrance_pieces == {0}
    assert park.unreachable == []
    # Its south path end faces an empty cell: no cost.
    assert park.dead_ends == ()
    assert park.build_order() == [0]


def test_a_path_cut_off_by_a_tile_is_a_dead_end() -> None:
    # The straight tile's south end runs into the cross-ways tile, which has no north end.
    park = layout(PLOT, (STRAIGHT, (1, 0), 0), (ACROSS, (1, 1), 0))
    assert park.dead_ends == (DeadEnd(((1, 0), S), 0, 1),)
    assert park.unreachable == [1]
    assert park.build_order() is None
    # Turning the second tile a quarter makes it connect: no dead end, and it is reachable.
    park = layout(PLOT, (STRAIGHT, (1, 0), 0), (ACROSS, (1, 1), 90))
    assert park.dead_ends == ()
    assert park.connections == ((0, 1, ((1, 0), S)),)
    assert park.build_order() == [0, 1]


def test_paths_facing_the_boundary_or_an_empty_cell_cost_nothing() -> None:
    park = layout(PLOT, (STRAIGHT, (1, 0), 0), (tile("X", "N E S W"), (1, 1), 0),
                  (ACROSS, (2, 1), 0))
    # X's west end faces an empty cell; the ferris wheel's east end faces the boundary and
    # its west end meets X's east end.
    assert park.dead_ends == ()
    assert park.unreachable == []
    assert len(park.open_ends()) == 2  # X west and X south


def test_an_entrance_blocked_by_a_tile_is_a_dead_end() -> None:
    park = layout(PLOT, (ACROSS, (1, 0), 0))
    assert park.dead_ends == (DeadEnd(((1, 0), N), None, 0),)
    assert park.unreachable == [0]


def test_both_sides_dead_end_count_twice() -> None:
    # Two tiles back to back with path ends that miss each other: each one's end hits a wall.
    left = tile("A", "E")
    up = tile("B", "N", attraction="ferris-wheel")
    park = layout(Plot(2, 1, (((0, 0), W),)), (left, (0, 0), 0), (up, (1, 0), 0))
    assert {d.edge for d in park.dead_ends} == {((0, 0), E), ((0, 0), W)}


def test_build_order_connects_every_tile_when_placed() -> None:
    cross = tile("X", "N E S W")
    park = layout(Plot(3, 3, (((1, 0), N),)), (cross, (1, 2), 0), (cross, (1, 1), 0),
                  (cross, (1, 0), 0), (cross, (0, 1), 0))
    order = park.build_order()
    assert order is not None and order[0] == 2
    for i in range(1, len(order)):
        before = Layout(park.plot, [park.pieces[k] for k in order[:i]])
        assert before.connects(park.pieces[order[i]])


def test_placement_rule_needs_a_connecting_path_end() -> None:
    park = layout(PLOT, (STRAIGHT, (1, 0), 0))
    options = legal_placements(park, tile("Q", "N"))
    # Only the cell below the straight tile, turned so its path end faces north, connects.
    assert [(p.at, p.rotation) for p, _ in options] == [((1, 1), 0)]
    cross = [p for p, _ in legal_placements(park, tile("X", "N E S W"))]
    assert cross == [Placement("X", (1, 1), 0)]  # its four turns are one placement


# -- services and spaces ----------------------------------------------------------------------


def test_a_service_serves_only_a_directly_connected_attraction() -> None:
    ride = tile("R", "N S", spaces=(Space("pink"), Space("pink", "restaurant")))
    food = tile("F", "N E", services=("restaurant",))
    other = tile("O", "W", attraction="ferris-wheel", spaces=(Space("blue", "restaurant"),))
    plot = Plot(3, 3, (((1, 0), N),))
    park = layout(plot, (ride, (1, 0), 0), (food, (1, 1), 0), (other, (2, 1), 0))
    assert park.served(0) == {"restaurant"}
    assert park.served(2) == {"restaurant"}  # the restaurant's east end meets its west end
    assert [s.usable for s in park.slots] == [True, True, True]
    # Turned a quarter, the restaurant's ends face east and south: it still serves the
    # ferris wheel, but no longer the ride above it (adjacent is not enough).
    park = layout(plot, (ride, (1, 0), 0), (food, (1, 1), 90), (other, (2, 1), 0))
    assert park.served(0) == frozenset()
    assert park.served(2) == {"restaurant"}
    assert [s.usable for s in park.slots] == [True, False, True]


# -- scoring ----------------------------------------------------------------------------------


def test_variety_table() -> None:
    assert [variety_points(n) for n in range(14)] == [0] * 7 + [2, 6, 10, 15, 20, 25, 25]


def test_the_rulebooks_scoring_example() -> None:
    """11 types = 20; 9 green + 5 blue = 14; 6 pink + 3 yellow = 18; 2 blue, 1 yellow and 2
    pink at the entrance = -8; 5 dead ends = -10: 34 points."""
    seating = Seating((), (9, 5, 6, 3), (0, 2, 2, 1), 0, 0)
    dead = tuple(DeadEnd(((i, 0), N), 0, 0) for i in range(5))
    score = Score(tuple(f"type{i}" for i in range(11)), variety_points(11), seating, dead)
    assert (score.variety, score.visitors_inside, score.visitors_waiting) == (20, 32, 8)
    assert score.dead_end_points == -10
    assert score.total == 34
    assert score.deducted == 18


def test_score_of_a_small_park_by_hand() -> None:
    ride = tile("R", "N S", spaces=(Space("pink"), Space("pink", "restaurant")))
    food = tile("F", "N", services=("restaurant",))
    park = layout(PLOT, (ride, (1, 0), 0), (food, (1, 1), 0))
    score = park.score((0, 1, 3, 0))
    # Two pink seated (+4), one pink and one blue wait (-3); one type (0); no dead end.
    assert score.seating.seated == (0, 0, 2, 0)
    assert score.total == 4 - 3
    assert park.revenue((0, 1, 3, 0)) == 3  # $1 + $2 on the special space


def test_house_catalogue_respects_the_published_numbers() -> None:
    catalogue = house_catalogue()
    tiles = list(catalogue.tiles.values())
    assert catalogue.house
    assert len(tiles) == 101
    assert sum(t.size == "small" for t in tiles) == 32
    assert sum(t.size == "medium" for t in tiles) == 40
    assert sum(t.size == "large" for t in tiles) == 29
    assert len(catalogue.attraction_types) == 12 and "fountain" in catalogue.attraction_types
    assert {t.attraction for t in tiles if t.attraction} == set(catalogue.attraction_types)
    assert {s for t in tiles for s in t.services} == {"restaurant", "toilets", "boutique"}
    assert any(len(t.services) == 2 for t in tiles)
    assert all(t.advert for t in tiles if t.size == "small")
    rides = [t for t in tiles if t.attraction and t.attraction != "fountain"]
    assert all(3 <= t.cost <= 7 for t in rides)
    yellow = sum(1 for t in rides if t.spaces[0].colour == "yellow")
    assert yellow < min(sum(1 for t in rides if t.spaces[0].colour == c)
                        for c in ("green", "blue", "pink"))
    assert len(catalogue.buses) == 17
    for bus in catalogue.buses.values():
        assert 5 <= sum(bus.visitors) <= 6
        assert sum(1 for n in bus.visitors if n) == 2
    assert all(sum(a.visitors) == 2 for a in catalogue.adverts.values())
    for t in tiles:
        assert t.paths and all(
            (p.index < (t.cols if p.side in (N, S) else t.rows)) for p in t.paths)


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_footprint_keeps_cells_and_path_count(rotation: int) -> None:
    for t in house_catalogue().tiles.values():
        where = footprint(t, (2, 2), rotation)
        assert len(where.cells) == t.area
        assert len(set(where.ends)) == len(t.paths)
        for cell, side in where.ends:  # every path end lies on the tile's boundary
            step = {N: (0, -1), E: (1, 0), S: (0, 1), W: (-1, 0)}[side]
            assert (cell[0] + step[0], cell[1] + step[1]) not in where.cells

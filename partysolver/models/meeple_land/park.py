"""A player's park: tiles on a plot, their connections, services, dead ends and score.

This is the *park verifier*: every other part of the package (the game engine, the layout
solver, the brute force, the hint) judges a park through it, and every layout the CP-SAT model
returns is re-checked here.  Rules (``spec/meeple-land.md``):

- two tiles are *connected* across a shared segment when both have a path end on it; an
  entrance connects to the tile whose path end lies on the entrance's segment;
- a park is legal when every tile is reachable from an entrance through connections; a build
  order then exists (every tile connects to the park when it is placed);
- a service is *provided* to an attraction directly connected to the service tile;
- a *dead end* is a path end facing a segment where another tile has no path end (-2 each).
  A path end facing the park's boundary or an empty cell costs nothing.  An entrance whose
  path runs into a tile without a path end there is cut off too, and counts as a dead end
  (``docs/rules.md``: the printed entrance path is a path like any other).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

from .game import (
    DEAD_END_PENALTY,
    NO_VISITORS,
    ROTATIONS,
    Cell,
    Counts,
    Edge,
    Placement,
    Plot,
    Space,
    Tile,
    counts_value,
    edge_text,
    facing,
    footprint,
    variety_points,
)
from .seating import Goal, Seating, SpaceClass, seat


@dataclass(frozen=True, slots=True)
class Piece:
    """A tile on the board: which tile, where, and the cells and path ends it covers."""

    index: int
    placement: Placement
    tile: Tile
    cells: tuple[Cell, ...]
    ends: tuple[Edge, ...]

    @classmethod
    def make(cls, index: int, placement: Placement, tile: Tile) -> Piece:
        where = footprint(tile, placement.at, placement.rotation)
        return cls(index, placement, tile, where.cells, where.ends)

    @property
    def name(self) -> str:
        return f"{self.tile.label} at {self.placement.at[0]},{self.placement.at[1]}"


@dataclass(frozen=True, slots=True)
class DeadEnd:
    """A path cut off by a tile: ``edge`` is the side of ``piece`` (or the entrance) whose path
    runs into ``blocker``, which has no path end there."""

    edge: Edge
    piece: int | None
    """The tile whose path is cut off; ``None`` for an entrance."""
    blocker: int

    def describe(self, pieces: Sequence[Piece]) -> str:
        blocker = pieces[self.blocker].name
        if self.piece is None:
            return f"the entrance on the {edge_text(self.edge)} runs into {blocker}"
        return f"{pieces[self.piece].name}: path on the {edge_text(self.edge)} runs into " \
               f"{blocker}"


@dataclass(frozen=True, slots=True)
class Link:
    """A service tile directly connected to an attraction across ``edge``."""

    service: int
    attraction: int
    edge: Edge


@dataclass(frozen=True, slots=True)
class SpaceSlot:
    """One visitor space of a placed attraction, and whether it is usable."""

    piece: int
    index: int
    space: Space
    usable: bool
    """Special spaces are usable only when their service is directly connected."""

    @property
    def cls(self) -> SpaceClass:
        return (self.space.colour, self.space.service is not None)


@dataclass(frozen=True)
class Score:
    """The end-game reputation of a park, term by term (the rulebook's scorecard)."""

    types: tuple[str, ...]
    variety: int
    seating: Seating
    dead_ends: tuple[DeadEnd, ...]

    @property
    def visitors_inside(self) -> int:
        return counts_value(self.seating.seated)

    @property
    def visitors_waiting(self) -> int:
        return counts_value(self.seating.waiting)

    @property
    def dead_end_points(self) -> int:
        return -DEAD_END_PENALTY * len(self.dead_ends)

    @property
    def deducted(self) -> int:
        """Points lost (positive): visitors at the entrance and dead ends (the first
        tie-break: fewer is better)."""
        return self.visitors_waiting + DEAD_END_PENALTY * len(self.dead_ends)

    @property
    def total(self) -> int:
        return self.variety + self.visitors_inside - self.deducted


class Layout:
    """The geometry of tiles on a plot: who covers which cell and which path ends face where.

    ``pieces`` must fit the plot without overlapping (the position checks that first and leaves
    out the pieces that do not).
    """

    def __init__(self, plot: Plot, pieces: Sequence[Piece]) -> None:
        self.plot = plot
        self.pieces = tuple(pieces)
        self.owner: dict[Cell, int] = {}
        self.end_owner: dict[Edge, int] = {}
        for k, piece in enumerate(self.pieces):
            for cell in piece.cells:
                self.owner[cell] = k
            for edge in piece.ends:
                self.end_owner[edge] = k
        self.entrances = frozenset(plot.entrances)

    # -- connections --------------------------------------------------------------------------

    @cached_property
    def connections(self) -> tuple[tuple[int, int, Edge], ...]:
        """Connected pairs ``(a, b, edge)`` (``a < b``; ``edge`` is a's side)."""
        found = []
        for edge, a in self.end_owner.items():
            b = self.end_owner.get(facing(edge))
            if b is not None and a < b:
                found.append((a, b, edge))
        return tuple(sorted(found))

    @cached_property
    def neighbours(self) -> tuple[frozenset[int], ...]:
        links: list[set[int]] = [set() for _ in self.pieces]
        for a, b, _ in self.connections:
            links[a].add(b)
            links[b].add(a)
        return tuple(frozenset(s) for s in links)

    @cached_property
    def entrance_pieces(self) -> frozenset[int]:
        """Pieces with a path end on an entrance."""
        return frozenset(k for edge, k in self.end_owner.items() if edge in self.entrances)

    def open_points(self) -> list[Edge]:
        """Edges where a new tile's path end would connect: entrances on an empty cell, and
        the far side of every path end that faces an empty park cell."""
        points = [edge for edge in self.entrances if edge[0] not in self.owner]
        for edge in self.end_owner:
            other = facing(edge)
            if other[0] not in self.owner and self.plot.inside(other[0]):
                points.append(other)
        return points

    def connects(self, piece: Piece) -> bool:
        """Whether a *new* piece would connect to this park (placement rule)."""
        for edge in piece.ends:
            if edge in self.entrances:
                return True
            if facing(edge) in self.end_owner:
                return True
        return False

    @cached_property
    def reachable(self) -> frozenset[int]:
        seen = set(self.entrance_pieces)
        todo = list(seen)
        while todo:
            k = todo.pop()
            for j in self.neighbours[k]:
                if j not in seen:
                    seen.add(j)
                    todo.append(j)
        return frozenset(seen)

    @property
    def unreachable(self) -> list[int]:
        return [k for k in range(len(self.pieces)) if k not in self.reachable]

    def build_order(self, first: Iterable[int] = ()) -> list[int] | None:
        """An order in which every tile connects when placed (pieces in ``first`` as early as
        possible, then by index); ``None`` when some tile is unreachable."""
        preferred = set(first)
        heap = [(k not in preferred, k) for k in self.entrance_pieces]
        heapq.heapify(heap)
        queued = set(self.entrance_pieces)
        order = []
        while heap:
            _, k = heapq.heappop(heap)
            order.append(k)
            for j in self.neighbours[k]:
                if j not in queued:
                    queued.add(j)
                    heapq.heappush(heap, (j not in preferred, j))
        return order if len(order) == len(self.pieces) else None

    # -- dead ends, services, spaces -------------------------------------------------------

    @cached_property
    def dead_ends(self) -> tuple[DeadEnd, ...]:
        found = []
        for edge, k in sorted(self.end_owner.items()):
            other = facing(edge)
            blocker = self.owner.get(other[0])
            if blocker is not None and blocker != k and other not in self.end_owner:
                found.append(DeadEnd(edge, k, blocker))
        for edge in sorted(self.entrances):
            blocker = self.owner.get(edge[0])
            if blocker is not None and edge not in self.end_owner:
                found.append(DeadEnd(edge, None, blocker))
        return tuple(found)

    @cached_property
    def links(self) -> tuple[Link, ...]:
        found = []
        for a, b, edge in self.connections:
            ta, tb = self.pieces[a].tile, self.pieces[b].tile
            if ta.is_service and not tb.is_service:
                found.append(Link(a, b, edge))
            elif tb.is_service and not ta.is_service:
                found.append(Link(b, a, facing(edge)))
        return tuple(found)

    def served(self, k: int) -> frozenset[str]:
        """The services provided to piece ``k`` (directly connected service tiles)."""
        return frozenset(s for link in self.links if link.attraction == k
                         for s in self.pieces[link.service].tile.services)

    @cached_property
    def slots(self) -> tuple[SpaceSlot, ...]:
        found = []
        for k, piece in enumerate(self.pieces):
            served = self.served(k) if any(s.service for s in piece.tile.spaces) else frozenset()
            for i, space in enumerate(piece.tile.spaces):
                usable = space.service is None or space.service in served
                found.append(SpaceSlot(k, i, space, usable))
        return tuple(found)

    def free_classes(self) -> list[SpaceClass]:
        return [slot.cls for slot in self.slots if slot.usable]

    @cached_property
    def types(self) -> tuple[str, ...]:
        return tuple(sorted({p.tile.attraction for p in self.pieces
                             if p.tile.attraction is not None}))

    def seat(self, visitors: Counts, goal: Goal = "points") -> Seating:
        return seat(self.free_classes(), visitors, goal)

    def score(self, visitors: Counts = NO_VISITORS) -> Score:
        """The end-game reputation with ``visitors`` seated as well as possible."""
        return Score(self.types, variety_points(len(self.types)), self.seat(visitors),
                     self.dead_ends)

    def revenue(self, visitors: Counts) -> int:
        """The round's income: visitors seated for the most money."""
        return self.seat(visitors, "revenue").revenue

    def free_cells(self) -> list[Cell]:
        return [c for c in self.plot.sorted_cells() if c not in self.owner]

    def open_ends(self) -> list[Edge]:
        """Path ends facing an empty park cell (where the park can grow)."""
        return [edge for edge in self.end_owner if self.plot.inside(facing(edge)[0])
                and facing(edge)[0] not in self.owner]

    def entrance_open(self, edge: Edge) -> bool:
        return edge[0] not in self.owner


def fits(plot: Plot, layout: Layout, piece: Piece) -> bool:
    """Whether ``piece`` lies wholly inside the plot on empty cells."""
    return all(plot.inside(c) and c not in layout.owner for c in piece.cells)


def legal_placements(layout: Layout, tile: Tile) -> list[tuple[Placement, Piece]]:
    """Every distinct legal placement of ``tile`` in the park (placement rule: it fits and at
    least one of its path ends connects to a path end or an entrance).  Rotations that give
    the same cells and path ends are listed once (the smallest rotation)."""
    candidates, by_end = candidate_pieces(layout.plot, tile)
    chosen: set[int] = set()
    for edge in layout.open_points():
        chosen.update(by_end.get(edge, ()))
    found = []
    seen: set[tuple[tuple[Cell, ...], tuple[Edge, ...]]] = set()
    for k in sorted(chosen):
        placement, piece = candidates[k]
        if (piece.cells, piece.ends) in seen:
            continue
        if all(c not in layout.owner for c in piece.cells):
            seen.add((piece.cells, piece.ends))
            found.append((placement, piece))
    return found


@lru_cache(maxsize=8192)
def candidate_pieces(plot: Plot, tile: Tile) -> tuple[tuple[tuple[Placement, Piece], ...],
                                                      dict[Edge, tuple[int, ...]]]:
    """Every placement of ``tile`` wholly inside ``plot`` (any rotation; by rotation, row,
    column), ignoring the tiles already there, and for each edge the placements with a path
    end on it."""
    x0, y0, x1, y1 = plot.bounds()
    found = []
    for rotation in ROTATIONS:
        for y in range(y0, y1 + 1):
            for x in range(x0, x1 + 1):
                placement = Placement(tile.id, (x, y), rotation)
                piece = Piece.make(0, placement, tile)
                if all(plot.inside(c) for c in piece.cells):
                    found.append((placement, piece))
    by_end: dict[Edge, list[int]] = {}
    for k, (_, piece) in enumerate(found):
        for edge in piece.ends:
            by_end.setdefault(edge, []).append(k)
    return tuple(found), {edge: tuple(ks) for edge, ks in by_end.items()}

"""The house: rooms (tiles) and which rooms share a wall, as a graph.

A house file gives the rooms and either a ``grid`` of tile cells (a long room covers two cells;
two rooms are adjacent when cells of theirs share a wall) or explicit ``adjacent`` pairs.
Movement follows the spec: *adjacent* is one edge away; *two rooms away* is the end of any walk
of exactly two steps that does not end where it started (not necessarily the shortest route).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from ..documents import Fields, item_path
from ..errors import InputError, Problem
from ..words import plural
from .game import (
    BEDROOMS_NEEDED,
    KIND_LABELS,
    MIN_TILES,
    PILLOWS_PER_BEDROOM,
    REQUIRED_KINDS,
    ROOM_KINDS,
)

if TYPE_CHECKING:
    import networkx as nx

ROOM_ID = re.compile(r"^[a-z][a-z0-9_]*$")
FLAGS_BY_KIND = {"hot_tub": (True, True), "office": (True, False)}
"""Room rules by kind: (no welcome into it, a roommate ending a turn there drops 1 stress)."""


@dataclass(frozen=True, slots=True)
class Room:
    """One room tile."""

    id: str
    kind: str
    name: str
    pillows: int = 0
    no_welcome: bool = False
    relieves_stress: bool = False

    def as_document(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"id": self.id, "kind": self.kind}
        if self.name != default_name(self.id, self.kind):
            doc["name"] = self.name
        if self.kind == "bedroom" and self.pillows != PILLOWS_PER_BEDROOM:
            doc["pillows"] = self.pillows
        if self.kind != "bedroom" and self.pillows:
            doc["pillows"] = self.pillows
        default_no_welcome, default_relief = FLAGS_BY_KIND.get(self.kind, (False, False))
        if self.no_welcome != default_no_welcome:
            doc["no_welcome"] = self.no_welcome
        if self.relieves_stress != default_relief:
            doc["relieves_stress"] = self.relieves_stress
        return doc


def default_name(room_id: str, kind: str) -> str:
    """``Bedroom 2`` for ``bedroom_2``; the kind's label otherwise."""
    label = KIND_LABELS[kind]
    suffix = room_id.rsplit("_", 1)[-1]
    return f"{label} {suffix}" if suffix.isdigit() else label


@dataclass(frozen=True)
class House:
    """Rooms in a fixed order (room ``i`` is ``rooms[i]``) and the walls they share."""

    name: str
    rooms: tuple[Room, ...]
    edges: frozenset[tuple[int, int]]
    """Adjacent room pairs ``(i, j)`` with ``i < j``."""
    grid: tuple[tuple[int, ...], ...] | None = None
    """Tile cells by row (room index, ``-1`` for no tile), when the house was given as a grid."""
    title: str = ""
    _index: dict[str, int] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        self._index.update({room.id: i for i, room in enumerate(self.rooms)})

    def __hash__(self) -> int:
        return hash((self.name, self.rooms, self.edges))

    @property
    def size(self) -> int:
        return len(self.rooms)

    def index(self, room_id: str) -> int:
        return self._index[room_id]

    def has(self, room_id: str) -> bool:
        return room_id in self._index

    def label(self, room: int) -> str:
        return self.rooms[room].name

    @cached_property
    def graph(self) -> nx.Graph:
        import networkx as nx  # here, not at import: only a picture lays the graph out

        graph = nx.Graph()
        graph.add_nodes_from(range(self.size))
        graph.add_edges_from(self.edges)
        return graph

    @cached_property
    def adjacent(self) -> tuple[tuple[int, ...], ...]:
        """Rooms one wall away, by room (from the edges: a hint needs no graph library)."""
        near: list[set[int]] = [set() for _ in range(self.size)]
        for a, b in self.edges:
            if a != b:
                near[a].add(b)
                near[b].add(a)
        return tuple(tuple(sorted(rooms)) for rooms in near)

    @cached_property
    def two_away(self) -> tuple[tuple[int, ...], ...]:
        """Ends of every two-step walk that does not return to its start, by room."""
        adj = self.adjacent
        return tuple(tuple(sorted({far for mid in adj[r] for far in adj[mid] if far != r}))
                     for r in range(self.size))

    @cached_property
    def distance(self) -> tuple[tuple[int, ...], ...]:
        """Fewest steps between two rooms (``size`` when unreachable)."""
        return tuple(tuple(self._steps_from(a).get(b, self.size) for b in range(self.size))
                     for a in range(self.size))

    def _steps_from(self, start: int) -> dict[int, int]:
        """Fewest steps from ``start`` to every room it reaches (breadth first)."""
        steps = {start: 0}
        frontier = [start]
        while frontier:
            following = []
            for room in frontier:
                for near in self.adjacent[room]:
                    if near not in steps:
                        steps[near] = steps[room] + 1
                        following.append(near)
            frontier = following
        return steps

    def parts(self) -> list[list[int]]:
        """The rooms in groups that meeples can cross between, each sorted, by first room."""
        found: list[list[int]] = []
        seen: set[int] = set()
        for room in range(self.size):
            if room not in seen:
                part = sorted(self._steps_from(room))
                seen.update(part)
                found.append(part)
        return found

    @cached_property
    def doors(self) -> tuple[int, ...]:
        return self.of_kind("door")

    def of_kind(self, kind: str) -> tuple[int, ...]:
        return tuple(i for i, room in enumerate(self.rooms) if room.kind == kind)

    @cached_property
    def welcome_rooms(self) -> tuple[int, ...]:
        return tuple(i for i, room in enumerate(self.rooms) if not room.no_welcome)

    @cached_property
    def relief_rooms(self) -> tuple[int, ...]:
        return tuple(i for i, room in enumerate(self.rooms) if room.relieves_stress)

    def is_easy(self) -> bool:
        """The rulebook's easy set-up: every room touches at least 2 others."""
        return all(len(n) >= 2 for n in self.adjacent)

    def pillows(self) -> int:
        return sum(room.pillows for room in self.rooms)

    # -- the rulebook's set-up checks ---------------------------------------------------------

    def problems(self, players: int, field_name: str = "house") -> list[Problem]:
        """Every set-up rule this house breaks for ``players`` players, at once."""
        found: list[Problem] = []
        if self.size < MIN_TILES:
            found.append(Problem("tiles", f"the house has {self.size} tiles; it needs at "
                                 f"least {MIN_TILES}", field_name))
        for kind in REQUIRED_KINDS:
            if not self.of_kind(kind):
                found.append(Problem("required-room", f"the house has no {KIND_LABELS[kind]}, "
                                     "a required room", field_name))
        needed = BEDROOMS_NEEDED.get(players, 1)
        bedrooms = len(self.of_kind("bedroom"))
        if bedrooms < needed:
            found.append(Problem("bedrooms", f"{plural(players, 'player')} need at least "
                                 f"{plural(needed, 'bedroom')}; the house has {bedrooms}",
                                 field_name))
        if self.pillows() < players:
            found.append(Problem("pillows", f"{plural(players, 'player')} need a pillow each; the "
                                 f"bedrooms have {self.pillows()}", field_name))
        for i, room in enumerate(self.rooms):
            if not self.adjacent[i]:
                found.append(Problem("isolated-room", f"{room.name} shares no wall with "
                                     "another room", item_path(f"{field_name}.rooms", i)))
        parts = self.parts()
        if len(parts) > 1:
            listed = "; ".join(", ".join(self.rooms[r].name for r in part) for part in parts)
            found.append(Problem("disconnected", f"the house falls into {len(parts)} parts "
                                 f"that no meeple can cross between: {listed}", field_name))
        if not self.welcome_rooms:
            found.append(Problem("no-welcome", "no room accepts a welcomed guest", field_name))
        return found

    def as_document(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"name": self.name}
        if self.title:
            doc["title"] = self.title
        doc["rooms"] = [room.as_document() for room in self.rooms]
        if self.grid is not None:
            doc["grid"] = [" ".join(self.rooms[c].id if c >= 0 else "." for c in row)
                           for row in self.grid]
        else:
            doc["adjacent"] = [[self.rooms[a].id, self.rooms[b].id] for a, b in sorted(self.edges)]
        return doc


# -- reading ----------------------------------------------------------------------------------


def load_house(fields: Fields) -> House:
    """A house from its table (a house file, or ``[house]`` inside a position file)."""
    name = fields.text("name", "custom")
    title = fields.text("title", "")
    rooms = tuple(_room(item) for item in fields.tables("rooms"))
    if not rooms:
        raise fields.error("rooms", "at least one room")
    ids = [room.id for room in rooms]
    for i, room_id in enumerate(ids):
        if room_id in ids[:i]:
            raise fields.error("rooms", "rooms with different ids", room_id)
    index = {room_id: i for i, room_id in enumerate(ids)}
    has_grid, has_pairs = fields.has("grid"), fields.has("adjacent")
    if has_grid == has_pairs:
        raise fields.error("grid", "either a grid of tiles or a list of adjacent pairs "
                           "(exactly one of 'grid' and 'adjacent')")
    if has_grid:
        grid = _grid(fields, index)
        edges = _grid_edges(grid)
        _check_grid_rooms(fields, grid, rooms)
    else:
        grid = None
        edges = _pairs(fields, index)
    fields.done()
    return House(name, rooms, frozenset(edges), grid, title)


def _room(fields: Fields) -> Room:
    room_id = fields.text("id")
    if not ROOM_ID.match(room_id):
        raise fields.error("id", "a room id of lower-case letters, digits and _ "
                           "(starting with a letter)", room_id)
    kind = fields.text("kind", choices=ROOM_KINDS)
    name = fields.text("name", default_name(room_id, kind))
    default_pillows = PILLOWS_PER_BEDROOM if kind == "bedroom" else 0
    pillows = fields.integer("pillows", default_pillows, minimum=0, maximum=9)
    no_welcome, relief = FLAGS_BY_KIND.get(kind, (False, False))
    no_welcome = fields.flag("no_welcome", no_welcome)
    relief = fields.flag("relieves_stress", relief)
    fields.done()
    return Room(room_id, kind, name, pillows, no_welcome, relief)


def _grid(fields: Fields, index: Mapping[str, int]) -> tuple[tuple[int, ...], ...]:
    rows = fields.array("grid")
    if not rows:
        raise fields.error("grid", "at least one row")
    grid = []
    for r, row in enumerate(rows):
        if not isinstance(row, str):
            raise fields.error("grid", "rows as strings of room ids and '.'", row)
        cells = []
        for token in row.split():
            if token == ".":
                cells.append(-1)
            elif token in index:
                cells.append(index[token])
            else:
                raise InputError(fields.source, item_path(fields.field("grid"), r),
                                 "room ids of the rooms table or '.'", token)
        grid.append(tuple(cells))
    if len({len(row) for row in grid}) != 1:
        raise fields.error("grid", "rows of the same number of cells", rows)
    return tuple(grid)


def _grid_edges(grid: tuple[tuple[int, ...], ...]) -> set[tuple[int, int]]:
    edges = set()
    for r, row in enumerate(grid):
        for c, room in enumerate(row):
            for other in (row[c + 1] if c + 1 < len(row) else -1,
                          grid[r + 1][c] if r + 1 < len(grid) else -1):
                if room >= 0 and other >= 0 and other != room:
                    edges.add((min(room, other), max(room, other)))
    return edges


def _check_grid_rooms(fields: Fields, grid: tuple[tuple[int, ...], ...],
                      rooms: tuple[Room, ...]) -> None:
    """Each room covers one cell, or two cells that share a wall (a long room)."""
    cells: dict[int, list[tuple[int, int]]] = {}
    for r, row in enumerate(grid):
        for c, index in enumerate(row):
            if index >= 0:
                cells.setdefault(index, []).append((r, c))
    for i, room in enumerate(rooms):
        found = cells.get(i, [])
        if not found:
            raise fields.error("grid", f"room {room.id!r} placed on the grid")
        if len(found) > 2:
            raise fields.error("grid", f"room {room.id!r} on one cell, or two for a long room",
                               f"{len(found)} cells")
        if len(found) == 2:
            (r1, c1), (r2, c2) = found
            if abs(r1 - r2) + abs(c1 - c2) != 1:
                raise fields.error("grid", f"the two cells of long room {room.id!r} side by "
                                   "side")


def _pairs(fields: Fields, index: Mapping[str, int]) -> set[tuple[int, int]]:
    edges = set()
    for i, pair in enumerate(fields.array("adjacent")):
        where = item_path(fields.field("adjacent"), i)
        if (not isinstance(pair, list) or len(pair) != 2
                or not all(isinstance(p, str) for p in pair)):
            raise InputError(fields.source, where, "a pair of room ids", pair)
        for room_id in pair:
            if room_id not in index:
                raise InputError(fields.source, where, "room ids of the rooms table", room_id)
        a, b = index[pair[0]], index[pair[1]]
        if a == b:
            raise InputError(fields.source, where, "two different rooms", pair)
        edges.add((min(a, b), max(a, b)))
    return edges

"""Meeple Land: what the game is, as data, and its value types.

Public numbers (the rulebook and ``spec/meeple-land.md``) are constants here: grants, start
money, prices of the extension and the extra entrance, the visitor supply and the scoring tables.
The individual tiles, buses and adverts are not public: the *house* catalogue
(``partysolver/puzzles/meeple-land/catalogue/house.toml``) invents them within every published
number, and users can load their real ones in the same format (see :mod:`.catalogue`).

Geometry conventions, used everywhere in this package:

- a *cell* is ``(x, y)``: column ``x`` from the left, row ``y`` from the top; the plot is
  ``0 <= x < width``, ``0 <= y < height`` and an extension may add cells outside it;
- a *side* of a cell is a direction ``N, E, S, W`` (0..3, clockwise); a *segment* is the edge
  between a cell and its neighbour in that direction (or the park's boundary);
- a tile lies in its *base frame* with ``rows x cols`` cells; a *path end* of a tile is written
  ``N0`` .. ``N{cols-1}`` (top edge, left to right), ``S0`` .. (bottom edge, left to right),
  ``E0`` .. ``E{rows-1}`` and ``W0`` .. (right and left edges, top to bottom); a 1x1 tile also
  accepts ``N``, ``E``, ``S``, ``W``;
- a *placement* puts a tile turned clockwise by ``rotation`` degrees (0, 90, 180, 270) with the
  top-left cell of its turned footprint on the cell ``at``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from functools import lru_cache

from ..numbers import whole_number
from ..protocol import GameInfo

INFO = GameInfo(
    key="meeple-land",
    title="Meeple Land",
    min_players=2,
    max_players=4,
    chance=True,
    hidden_information=False,
    summary="build an amusement park of tiles; seat visitors, link services, avoid dead ends",
    house_data=("the 101 attraction/service tiles, 17 buses and the adverts are a house "
                "catalogue (the publisher's are not public); it respects every published "
                "number and your own catalogue loads in the same format"),
)

# -- public numbers ---------------------------------------------------------------------------

ROUNDS = 4
GRANTS = (15, 10, 5, 0)
"""The grant every player receives at the start of rounds 1..4."""
START_MONEY = (0, 1, 2, 3)
"""Money by position in the turn order, starting with the first player."""
EXTENSION_COST = 6
ENTRANCE_COST = 3
EXTENSIONS_IN_GAME = 4
ENTRANCES_IN_GAME = 4
EXTENSION_SIZE = 3
MARKET_SLOTS = {"small": 5, "medium": 5, "large": 3}
DEFAULT_WIDTH = 7
DEFAULT_HEIGHT = 7
DEAD_END_PENALTY = 2

COLOURS = ("green", "blue", "pink", "yellow")
"""Visitor colours, in this order in every count tuple."""
VISITOR_SUPPLY = (35, 35, 30, 24)
VISITOR_VALUE = (1, 1, 2, 2)
"""Reputation per visitor inside the park (and lost per visitor left at the entrance)."""
JOKER = "any"
"""The colour of a fountain's joker space: it takes a visitor of any colour."""
SERVICES = ("restaurant", "toilets", "boutique")

VARIETY_POINTS = {7: 2, 8: 6, 9: 10, 10: 15, 11: 20, 12: 25}
"""Reputation for the number of different attraction types (fewer than 7: nothing)."""
MAX_VARIETY = 12


def variety_points(types: int) -> int:
    """The variety table: 7 -> 2, 8 -> 6, ..., 12 or more -> 25; fewer than 7 -> 0."""
    return VARIETY_POINTS[min(types, MAX_VARIETY)] if types >= 7 else 0


Counts = tuple[int, int, int, int]
"""Visitors by colour (green, blue, pink, yellow)."""
NO_VISITORS: Counts = (0, 0, 0, 0)


def add_counts(a: Counts, b: Counts) -> Counts:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3])


def sub_counts(a: Counts, b: Counts) -> Counts:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3])


def counts_value(counts: Counts) -> int:
    return sum(n * v for n, v in zip(counts, VISITOR_VALUE, strict=True))


def counts_text(counts: Counts) -> str:
    """``3 green, 1 pink``; ``no visitors`` when empty."""
    parts = [f"{n} {c}" for n, c in zip(counts, COLOURS, strict=True) if n]
    return ", ".join(parts) if parts else "no visitors"


def counts_dict(counts: Counts) -> dict[str, int]:
    return {c: n for c, n in zip(COLOURS, counts, strict=True) if n}


# -- geometry ---------------------------------------------------------------------------------


class Side(IntEnum):
    """A side of a cell, clockwise from the top."""

    N = 0
    E = 1
    S = 2
    W = 3

    @property
    def opposite(self) -> Side:
        return _SIDES[(self + 2) % 4]

    def turned(self, quarters: int) -> Side:
        return _SIDES[(self + quarters) % 4]

    @property
    def step(self) -> tuple[int, int]:
        return STEPS[self]

    @property
    def word(self) -> str:
        return ("north", "east", "south", "west")[self]

    @classmethod
    def parse(cls, text: str) -> Side:
        """``N``/``north`` (any case)."""
        word = text.strip().lower()
        for side in cls:
            if word in (side.name.lower(), side.word):
                return side
        raise KeyError(text)


STEPS = {Side.N: (0, -1), Side.E: (1, 0), Side.S: (0, 1), Side.W: (-1, 0)}
SIDES = _SIDES = tuple(Side)
_FACING = {side: ((STEPS[side]), _SIDES[(side + 2) % 4]) for side in _SIDES}

Cell = tuple[int, int]
Edge = tuple[Cell, Side]
"""A side of a cell: the segment between ``cell`` and its neighbour towards ``side``."""


def neighbour(cell: Cell, side: Side) -> Cell:
    dx, dy = STEPS[side]
    return (cell[0] + dx, cell[1] + dy)


def facing(edge: Edge) -> Edge:
    """The same segment seen from the other cell."""
    (x, y), side = edge
    (dx, dy), back = _FACING[side]
    return (x + dx, y + dy), back


def segment(edge: Edge) -> Edge:
    """The canonical name of a segment: seen from the cell below it or to its right."""
    cell, side = edge
    return facing(edge) if side in (Side.S, Side.E) else edge


def cell_text(cell: Cell) -> str:
    return f"({cell[0]},{cell[1]})"


def edge_text(edge: Edge) -> str:
    return f"{edge[1].word} side of {cell_text(edge[0])}"


# -- tiles ------------------------------------------------------------------------------------

SHAPES = {"1x1": (1, 1), "1x2": (1, 2), "2x2": (2, 2)}
"""Tile shapes as ``rows x cols`` in the base frame (a medium tile lies flat)."""
SIZE_OF_SHAPE = {"1x1": "small", "1x2": "medium", "2x2": "large"}
SIZES = ("small", "medium", "large")


@dataclass(frozen=True, slots=True, order=True)
class PathEnd:
    """A path end on the boundary of a tile, in the tile's base frame (``N0``, ``E1`` ...)."""

    side: Side
    index: int

    def __str__(self) -> str:
        return f"{self.side.name}{self.index}"


@dataclass(frozen=True, slots=True)
class Space:
    """A visitor space: a colour (or ``any`` for a fountain joker), and the service a special
    space needs connected to its attraction (it then earns $1 more)."""

    colour: str
    service: str | None = None

    def accepts(self, colour: str) -> bool:
        return self.colour == JOKER or self.colour == colour

    def __str__(self) -> str:
        return self.colour + (f":{self.service}" if self.service else "")


@dataclass(frozen=True, slots=True)
class Tile:
    """An attraction or service tile as printed (base frame)."""

    id: str
    shape: str
    paths: tuple[PathEnd, ...]
    cost: int
    attraction: str | None = None
    """The attraction type (``fountain`` counts as one); ``None`` for a service tile."""
    services: tuple[str, ...] = ()
    spaces: tuple[Space, ...] = ()
    advert: str | None = None
    """The advert printed on the back (small tiles)."""

    @property
    def rows(self) -> int:
        return SHAPES[self.shape][0]

    @property
    def cols(self) -> int:
        return SHAPES[self.shape][1]

    @property
    def size(self) -> str:
        return SIZE_OF_SHAPE[self.shape]

    @property
    def area(self) -> int:
        return self.rows * self.cols

    @property
    def is_service(self) -> bool:
        return self.attraction is None

    @property
    def label(self) -> str:
        what = self.attraction or " + ".join(self.services)
        return f"{self.id} {what}"

    def local_cells(self) -> tuple[Cell, ...]:
        return tuple((c, r) for r in range(self.rows) for c in range(self.cols))

    def local_edge(self, end: PathEnd) -> Edge:
        """The (local cell, side) of a path end in the base frame."""
        rows, cols = self.rows, self.cols
        side, i = end.side, end.index
        if side == Side.N:
            return (i, 0), side
        if side == Side.S:
            return (i, rows - 1), side
        if side == Side.E:
            return (cols - 1, i), side
        return (0, i), side

    def boundary(self) -> tuple[PathEnd, ...]:
        """Every segment on the tile's boundary, as path-end names."""
        return tuple(PathEnd(side, i) for side in SIDES
                     for i in range(self.cols if side in (Side.N, Side.S) else self.rows))


# -- adverts and buses ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Advert:
    """The back of a small tile: buy it to receive its visitors."""

    id: str
    price: int
    visitors: Counts

    def __str__(self) -> str:
        return f"advert {self.id} (${self.price}: {counts_text(self.visitors)})"


@dataclass(frozen=True, slots=True)
class Bus:
    """A bus tile: the visitors it brings."""

    id: str
    visitors: Counts

    def __str__(self) -> str:
        return f"bus {self.id} ({counts_text(self.visitors)})"


# -- placements -------------------------------------------------------------------------------

ROTATIONS = (0, 90, 180, 270)


@dataclass(frozen=True, slots=True, order=True)
class Placement:
    """A tile laid on the park: turned clockwise by ``rotation`` degrees, its turned footprint's
    top-left cell on ``at``."""

    tile: str
    at: Cell
    rotation: int = 0

    def __str__(self) -> str:
        return f"{self.tile}@{self.at[0]},{self.at[1]}" + (
            f"r{self.rotation}" if self.rotation else "")


@dataclass(frozen=True, slots=True)
class Footprint:
    """Where a placed tile lies: its cells and its path ends (as board edges)."""

    cells: tuple[Cell, ...]
    ends: tuple[Edge, ...]


@lru_cache(maxsize=65536)
def footprint(tile: Tile, at: Cell, rotation: int) -> Footprint:
    """The cells and path-end edges of ``tile`` placed at ``at`` turned by ``rotation``: its
    footprint at the origin, moved (a move keeps the sorted order)."""
    local = _turned(tile, rotation)
    dx, dy = at
    if not dx and not dy:
        return local
    return Footprint(tuple((x + dx, y + dy) for x, y in local.cells),
                     tuple(((x + dx, y + dy), side) for (x, y), side in local.ends))


@lru_cache(maxsize=4096)
def _turned(tile: Tile, rotation: int) -> Footprint:
    """``tile``'s footprint turned by ``rotation``, its top-left cell at the origin."""
    quarters = (rotation // 90) % 4
    rows, cols = tile.rows, tile.cols

    def turn(cell: Cell) -> Cell:
        x, y = cell
        h, w = rows, cols
        for _ in range(quarters):
            x, y = h - 1 - y, x
            h, w = w, h
        return (x, y)

    cells = tuple(sorted(turn(c) for c in tile.local_cells()))
    ends = []
    for end in tile.paths:
        local, side = tile.local_edge(end)
        ends.append((turn(local), side.turned(quarters)))
    return Footprint(cells, tuple(sorted(ends)))


# -- actions and chance outcomes --------------------------------------------------------------


@dataclass(frozen=True, slots=True, order=True)
class Buy:
    """Buy the market tile ``placement.tile`` and place it."""

    placement: Placement

    def __str__(self) -> str:
        return f"buy {self.placement}"


@dataclass(frozen=True, slots=True, order=True)
class BuyExtension:
    """Buy the plot extension ($6) and attach it on ``side`` at ``offset``."""

    side: Side
    offset: int

    def __str__(self) -> str:
        return f"extension {self.side.name}{self.offset}"


@dataclass(frozen=True, slots=True, order=True)
class BuyEntrance:
    """Buy the extra entrance ($3) and put it on the boundary ``edge``."""

    edge: Edge

    def __str__(self) -> str:
        (x, y), side = self.edge
        return f"entrance {x},{y}:{side.name}"


@dataclass(frozen=True, slots=True, order=True)
class Advertise:
    """Buy the advert on the back of the small pile's top tile."""

    def __str__(self) -> str:
        return "advertise"


@dataclass(frozen=True, slots=True, order=True)
class Pass:
    """Pass for the rest of the round and take bus ``bus`` (``None``: no bus is left)."""

    bus: str | None

    def __str__(self) -> str:
        return f"pass {self.bus}" if self.bus else "pass"


Move = Buy | BuyExtension | BuyEntrance | Advertise | Pass


@dataclass(frozen=True, slots=True, order=True)
class DrawTile:
    """Chance: ``tile`` comes off a pile into the market."""

    tile: str

    def __str__(self) -> str:
        return f"draw {self.tile}"


@dataclass(frozen=True, slots=True, order=True)
class RevealAdvert:
    """Chance: the small pile's new top tile shows ``advert`` on its back."""

    advert: str

    def __str__(self) -> str:
        return f"top advert {self.advert}"


@dataclass(frozen=True, slots=True, order=True)
class DrawBus:
    """Chance: ``bus`` arrives in the parking lot."""

    bus: str

    def __str__(self) -> str:
        return f"bus {self.bus} arrives"


Outcome = DrawTile | RevealAdvert | DrawBus


@dataclass(frozen=True, slots=True)
class Extension:
    """A 3x3 plot extension on ``side`` of the plot; ``offset`` is its first column (north,
    south) or row (east, west)."""

    side: Side
    offset: int

    def cells(self, width: int, height: int) -> tuple[Cell, ...]:
        k = EXTENSION_SIZE
        o = self.offset
        if self.side == Side.N:
            xs, ys = range(o, o + k), range(-k, 0)
        elif self.side == Side.S:
            xs, ys = range(o, o + k), range(height, height + k)
        elif self.side == Side.E:
            xs, ys = range(width, width + k), range(o, o + k)
        else:
            xs, ys = range(-k, 0), range(o, o + k)
        return tuple((x, y) for y in ys for x in xs)

    def __str__(self) -> str:
        return f"{self.side.word} extension at {self.offset}"


@dataclass(frozen=True)
class Plot:
    """A player's plot: its size, the optional extension and the entrances."""

    width: int = DEFAULT_WIDTH
    height: int = DEFAULT_HEIGHT
    entrances: tuple[Edge, ...] = (((DEFAULT_WIDTH // 2, 0), Side.N),)
    extension: Extension | None = None
    _cells: frozenset[Cell] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        cells = {(x, y) for x in range(self.width) for y in range(self.height)}
        if self.extension is not None:
            cells |= set(self.extension.cells(self.width, self.height))
        object.__setattr__(self, "_cells", frozenset(cells))

    @property
    def cells(self) -> frozenset[Cell]:
        return self._cells

    def sorted_cells(self) -> list[Cell]:
        return sorted(self._cells, key=lambda c: (c[1], c[0]))

    def inside(self, cell: Cell) -> bool:
        return cell in self._cells

    def on_boundary(self, edge: Edge) -> bool:
        """Whether ``edge`` is a side of a park cell facing outside the park."""
        cell, side = edge
        return cell in self._cells and neighbour(cell, side) not in self._cells

    def boundary(self) -> list[Edge]:
        return [(c, s) for c in self.sorted_cells() for s in SIDES if self.on_boundary((c, s))]

    def with_extension(self, extension: Extension) -> Plot:
        return Plot(self.width, self.height, self.entrances, extension)

    def with_entrance(self, edge: Edge) -> Plot:
        return Plot(self.width, self.height, (*self.entrances, edge), self.extension)

    def extension_options(self) -> list[Extension]:
        """Every legal place for the extension (none once there is one): flush along a side,
        never covering an entrance."""
        if self.extension is not None:
            return []
        found = []
        for side in SIDES:
            length = self.width if side in (Side.N, Side.S) else self.height
            for offset in range(length - EXTENSION_SIZE + 1):
                extension = Extension(side, offset)
                if not self.covers_entrance(extension):
                    found.append(extension)
        return found

    def covers_entrance(self, extension: Extension) -> bool:
        added = set(extension.cells(self.width, self.height))
        return any(neighbour(cell, side) in added for cell, side in self.entrances)

    def bounds(self) -> tuple[int, int, int, int]:
        """``(min_x, min_y, max_x, max_y)`` of the park's cells."""
        xs = [c[0] for c in self._cells]
        ys = [c[1] for c in self._cells]
        return min(xs), min(ys), max(xs), max(ys)


def entrance_text(edge: Edge, plot: Plot | None = None) -> str:
    """``N3`` on the plot's own edge (side and column or row), else ``x,y:S``."""
    (x, y), side = edge
    if plot is not None:
        w, h = plot.width, plot.height
        if side == Side.N and y == 0 and 0 <= x < w:
            return f"N{x}"
        if side == Side.S and y == h - 1 and 0 <= x < w:
            return f"S{x}"
        if side == Side.W and x == 0 and 0 <= y < h:
            return f"W{y}"
        if side == Side.E and x == w - 1 and 0 <= y < h:
            return f"E{y}"
    return f"{x},{y}:{side.name}"


def parse_entrance(text: str, width: int, height: int) -> Edge:
    """Inverse of :func:`entrance_text`; ``ValueError`` when malformed."""
    text = text.strip()
    if ":" in text:
        where, side_text = text.split(":", 1)
        parts = where.split(",")
        if len(parts) != 2:
            raise ValueError(text)
        side = Side.parse(side_text)
        return (whole_number(parts[0].strip(), signed=True),
                whole_number(parts[1].strip(), signed=True)), side
    if len(text) < 2 or text[0].upper() not in "NESW":
        raise ValueError(text)
    side = Side.parse(text[0])
    index = whole_number(text[1:].strip())
    if side == Side.N:
        return (index, 0), side
    if side == Side.S:
        return (index, height - 1), side
    if side == Side.W:
        return (0, index), side
    return (width - 1, index), side

"""Meeple Land position files: plots, parks and full game states (puzzles: :mod:`.puzzle`).

Every file says ``game = "meeple-land"`` and its ``kind``:

- ``park``: one player's park (plot, placed tiles with optional seating, visitors at the
  entrance) for ``verify``, ``render`` and ``solve`` (the best seating);
- ``game``: a full game state, for ``hint``, ``render`` and ``verify``; every state reached in
  play round-trips through it;
- ``puzzle``: a layout puzzle (:mod:`.puzzle`).

Malformed input (a wrong type, an unknown field, a name that does not exist) raises
:class:`InputError`; a well-formed position that breaks a rule loads, and ``problems()`` lists
every rule problem at once.  See ``docs/formats.md`` for full examples.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ..documents import Fields, check_int, item_path
from ..errors import InputError, Problem, require_no_problems
from ..words import plural
from .catalogue import HOUSE, Catalogue, parse_counts, resolve_catalogue
from .game import (
    COLOURS,
    DEFAULT_HEIGHT,
    DEFAULT_WIDTH,
    ENTRANCES_IN_GAME,
    EXTENSION_SIZE,
    EXTENSIONS_IN_GAME,
    INFO,
    MARKET_SLOTS,
    NO_VISITORS,
    ROTATIONS,
    ROUNDS,
    SIZES,
    VISITOR_SUPPLY,
    Cell,
    Counts,
    Extension,
    Placement,
    Plot,
    Side,
    add_counts,
    cell_text,
    counts_dict,
    counts_text,
    entrance_text,
    parse_entrance,
)
from .park import Layout, Piece
from .state import PENDING, Market, MeepleLandState, ParkState

KINDS = ("park", "game", "puzzle")
MAX_SIDE = 20


def document_kind(document: Mapping[str, Any], source: str) -> str:
    root = Fields(document, source)
    game = root.text("game")
    if game != INFO.key:
        raise root.error("game", repr(INFO.key), game)
    kind: str = root.text("kind", "game", choices=KINDS)
    return kind


def _check_game(root: Fields, kind: str) -> None:
    game = root.text("game")
    if game != INFO.key:
        raise root.error("game", repr(INFO.key), game)
    root.text("kind", kind, choices=(kind,))


# -- plots ------------------------------------------------------------------------------------


def load_plot(root: Fields, key: str = "plot") -> Plot:
    """The ``[plot]`` table (default: the 7x7 plot with its printed entrance on top)."""
    if not root.has(key):
        root.raw(key, None)
        return Plot()
    fields = root.table(key)
    width = fields.integer("width", DEFAULT_WIDTH, minimum=1, maximum=MAX_SIDE)
    height = fields.integer("height", DEFAULT_HEIGHT, minimum=1, maximum=MAX_SIDE)
    default = [entrance_text(((width // 2, 0), Side.N))]
    entrances = []
    for text in fields.array("entrances", default):
        try:
            entrances.append(parse_entrance(text, width, height))
        except (ValueError, KeyError, AttributeError, TypeError):
            raise fields.error("entrances", "entrances such as 'N3' (side and column or row "
                               "of the plot's edge) or '7,2:E' (a side of a cell)",
                               text) from None
    extension = None
    if fields.has("extension"):
        table = fields.table("extension")
        side_text = table.text("side")
        try:
            side = Side.parse(side_text)
        except KeyError:
            raise table.error("side", "north, east, south or west", side_text) from None
        offset = table.integer("offset", minimum=-MAX_SIDE, maximum=MAX_SIDE)
        table.done()
        extension = Extension(side, offset)
    fields.done()
    return Plot(width, height, tuple(entrances), extension)


def plot_document(plot: Plot) -> dict[str, Any]:
    doc: dict[str, Any] = {"width": plot.width, "height": plot.height,
                           "entrances": [entrance_text(e, plot) for e in plot.entrances]}
    if plot.extension is not None:
        doc["extension"] = {"side": plot.extension.side.word, "offset": plot.extension.offset}
    return doc


def plot_problems(plot: Plot, field: str = "plot") -> list[Problem]:
    """Entrances off the park's boundary or repeated; an extension not flush along a side or
    covering an entrance."""
    found = []
    extension = plot.extension
    if extension is not None:
        length = plot.width if extension.side in (Side.N, Side.S) else plot.height
        if not 0 <= extension.offset <= length - EXTENSION_SIZE:
            found.append(Problem("extension", f"the {extension} does not lie along the "
                                 f"plot's {extension.side.word} side (offsets 0 to "
                                 f"{length - EXTENSION_SIZE})", f"{field}.extension"))
        if plot.covers_entrance(extension):
            found.append(Problem("extension", f"the {extension} covers an entrance",
                                 f"{field}.extension"))
    for i, edge in enumerate(plot.entrances):
        where = item_path(f"{field}.entrances", i)
        if not plot.on_boundary(edge):
            found.append(Problem("entrance", f"entrance {entrance_text(edge, plot)} is not on "
                                 "the park's boundary", where))
        if edge in plot.entrances[:i]:
            found.append(Problem("entrance", f"entrance {entrance_text(edge, plot)} is "
                                 "listed twice", where))
    return found


# -- placed tiles -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Entry:
    """A placed tile as written in a file (it may break rules: ``check_entries`` says)."""

    tile: str
    at: Cell
    rotation: int
    seated: tuple[str, ...] | None = None
    """Colours on the tile's spaces in order (``""`` for an empty space), when given."""

    @property
    def placement(self) -> Placement:
        return Placement(self.tile, self.at, self.rotation)


def load_entries(root: Fields, key: str, seating: bool) -> tuple[Entry, ...]:
    entries = []
    for table in root.tables(key, []):
        tile = table.text("tile")
        at = table.array("at")
        if len(at) != 2:
            raise table.error("at", "a cell [x, y]", at)
        x = check_int(at[0], table.source, table.field("at") + "[0]", -MAX_SIDE, 2 * MAX_SIDE)
        y = check_int(at[1], table.source, table.field("at") + "[1]", -MAX_SIDE, 2 * MAX_SIDE)
        rotation = table.integer("rotation", 0, minimum=-720, maximum=720)
        seated = None
        if seating and table.has("seated"):
            seated = tuple(table.array("seated"))
            for colour in seated:
                if colour not in (*COLOURS, ""):
                    raise table.error("seated", "visitor colours on the tile's spaces in "
                                      "order (" + ", ".join(COLOURS) + ", or \"\" for empty)",
                                      colour)
        table.done()
        entries.append(Entry(tile, (x, y), rotation, seated))
    return tuple(entries)


def entry_document(entry: Entry | Placement) -> dict[str, Any]:
    doc: dict[str, Any] = {"tile": entry.tile, "at": list(entry.at)}
    if entry.rotation:
        doc["rotation"] = entry.rotation
    if isinstance(entry, Entry) and entry.seated is not None:
        doc["seated"] = list(entry.seated)
    return doc


@dataclass(frozen=True)
class Checked:
    """Placed tiles checked against the rules: the ones that lie legally on the plot (as a
    :class:`Layout`, with ``kept[k]`` the entry index of piece ``k``) and every problem."""

    layout: Layout
    kept: tuple[int, ...]
    problems: tuple[Problem, ...]


def check_entries(plot: Plot, entries: Sequence[Entry | Placement], catalogue: Catalogue,
                  field: str = "placed", reach: bool = True) -> Checked:
    """Unknown tiles, bad rotations, a tile used twice, tiles off the plot, overlaps and (with
    ``reach``) tiles no entrance reaches: all of them at once."""
    found: list[Problem] = []
    pieces: list[Piece] = []
    kept: list[int] = []
    owner: dict[Cell, int] = {}
    for i, entry in enumerate(entries):
        where = item_path(field, i)
        if entry.tile not in catalogue.tiles:
            found.append(Problem("unknown-tile", f"tile {entry.tile!r} is not in the "
                                 f"{catalogue.name} catalogue", where))
            continue
        tile = catalogue.tile(entry.tile)
        if entry.rotation not in ROTATIONS:
            found.append(Problem("bad-rotation", f"{tile.label} is turned {entry.rotation}°; "
                                 "tiles turn by 0, 90, 180 or 270", where))
            continue
        if any(e.tile == entry.tile for e in entries[:i]):
            found.append(Problem("duplicate-tile", f"{tile.label} is placed twice (the game "
                                 "has one of each tile)", where))
        piece = Piece.make(len(pieces), entry.placement if isinstance(entry, Entry)
                           else entry, tile)
        outside = [c for c in piece.cells if not plot.inside(c)]
        if outside:
            found.append(Problem("off-plot", f"{piece.name} lies off the plot at "
                                 + ", ".join(map(cell_text, outside)), where))
            continue
        clash = sorted({owner[c] for c in piece.cells if c in owner})
        if clash:
            others = ", ".join(f"{item_path(field, kept[k])} {pieces[k].tile.label}" for k in clash)
            cells = ", ".join(cell_text(c) for c in piece.cells if c in owner)
            found.append(Problem("overlap", f"{piece.name} overlaps {others} on {cells}",
                                 where))
            continue
        for c in piece.cells:
            owner[c] = len(pieces)
        kept.append(i)
        pieces.append(piece)
    layout = Layout(plot, pieces)
    if reach:
        for k in layout.unreachable:
            found.append(Problem("unreachable", f"{pieces[k].name} is not connected to an "
                                 "entrance through paths", item_path(field, kept[k])))
    return Checked(layout, tuple(kept), tuple(found))


# -- parks ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ParkPosition:
    """A park file: the plot, the placed tiles (optionally with visitors seated on them) and the
    visitors waiting at the entrance."""

    catalogue: Catalogue
    plot: Plot
    entries: tuple[Entry, ...]
    waiting: Counts
    name: str = ""

    @cached_property
    def checked(self) -> Checked:
        return check_entries(self.plot, self.entries, self.catalogue)

    @property
    def layout(self) -> Layout:
        return self.checked.layout

    def seated_claims(self) -> Counts:
        counts = [0, 0, 0, 0]
        for entry in self.entries:
            for colour in entry.seated or ():
                if colour:
                    counts[COLOURS.index(colour)] += 1
        return (counts[0], counts[1], counts[2], counts[3])

    def visitors(self) -> Counts:
        """Every visitor of the park: seated as written plus waiting at the entrance."""
        return add_counts(self.waiting, self.seated_claims())

    def problems(self) -> list[Problem]:
        found = plot_problems(self.plot) + list(self.checked.problems)
        found += self._seating_problems()
        found += _supply_problems(self.visitors(), "visitors")
        return found

    def _seating_problems(self) -> list[Problem]:
        found = []
        layout, kept = self.layout, self.checked.kept
        for k, i in enumerate(kept):
            entry = self.entries[i]
            if entry.seated is None:
                continue
            piece = layout.pieces[k]
            spaces = piece.tile.spaces
            where = item_path("placed", i) + ".seated"
            if len(entry.seated) > len(spaces):
                found.append(Problem("seat-count", f"{piece.name} has {len(spaces)} "
                                     f"space(s), not {len(entry.seated)}", where))
            served = layout.served(k)
            for j, (colour, space) in enumerate(zip(entry.seated, spaces, strict=False)):
                if not colour:
                    continue
                if not space.accepts(colour):
                    found.append(Problem("wrong-colour", f"a {colour} visitor sits on "
                                         f"{piece.name}'s {space.colour} space {j}", where))
                if space.service and space.service not in served:
                    found.append(Problem("service-not-connected", f"a visitor sits on "
                                         f"{piece.name}'s {space.service} space {j}, but no "
                                         f"{space.service} is directly connected to it", where))
        return found


def load_park(document: Mapping[str, Any], source: str) -> ParkPosition:
    root = Fields(document, source)
    _check_game(root, "park")
    name = root.text("name", "")
    catalogue = resolve_catalogue(root.text("catalogue", HOUSE), source)
    plot = load_plot(root)
    entries = load_entries(root, "placed", seating=True)
    waiting = parse_counts(root, "visitors", NO_VISITORS)
    root.done()
    return ParkPosition(catalogue, plot, entries, waiting, name)


def park_document(park: ParkPosition) -> dict[str, Any]:
    doc: dict[str, Any] = {"game": INFO.key, "kind": "park"}
    if park.name:
        doc["name"] = park.name
    doc["catalogue"] = park.catalogue.reference
    doc["plot"] = plot_document(park.plot)
    doc["visitors"] = counts_dict(park.waiting)
    doc["placed"] = [entry_document(e) for e in park.entries]
    return doc


def _supply_problems(total: Counts, field: str) -> list[Problem]:
    return [Problem("supply", f"{n} {colour} visitors, but the game has only {limit}", field)
            for colour, n, limit in zip(COLOURS, total, VISITOR_SUPPLY, strict=True) if n > limit]


# -- full game states -------------------------------------------------------------------------


def state_to_document(state: MeepleLandState) -> dict[str, Any]:
    """The position file of a game state (round-trips through :func:`load_state`)."""
    market = state.market
    doc: dict[str, Any] = {
        "game": INFO.key, "kind": "game", "catalogue": state.catalogue.reference,
        "round": state.round, "first": state.names[state.first],
        "current": state.names[state.current],
        "passed": [state.names[s] for s in sorted(state.passed)],
        "pending": list(state.pending), "finished": state.finished,
        "buses_gone": list(state.buses_gone),
        "market": {"small": list(market.small), "medium": list(market.medium),
                   "large": list(market.large), "extensions": market.extensions,
                   "entrances": market.entrances, "advert": state.advert,
                   "under": list(state.under)},
        "parking": [{"bus": bus, "visitors": counts_dict(counts)}
                    for bus, counts in state.parking],
        "player": [],
    }
    for name, park in zip(state.names, state.parks, strict=True):
        entry: dict[str, Any] = {"name": name, "money": park.money,
                                 "visitors": counts_dict(park.visitors)}
        if park.bus is not None:
            entry["bus"] = park.bus
            entry["bus_visitors"] = counts_dict(park.bus_visitors)
        entry["plot"] = plot_document(park.plot)
        entry["placed"] = [entry_document(p) for p in park.placed]
        doc["player"].append(entry)
    return doc


def load_state(document: Mapping[str, Any], source: str) -> MeepleLandState:
    """Parse a game document (rule problems are left to :func:`game_problems`)."""
    root = Fields(document, source)
    _check_game(root, "game")
    catalogue = resolve_catalogue(root.text("catalogue", HOUSE), source)
    players = root.tables("player")
    if not INFO.min_players <= len(players) <= INFO.max_players:
        raise root.error("player", f"{INFO.min_players} to {INFO.max_players} [[player]] "
                         "tables", len(players))
    names: list[str] = []
    parks = []
    for table in players:
        name = table.text("name")
        if not name.strip() or name in names:
            raise table.error("name", "a non-empty name, different for each player", name)
        names.append(name)
        parks.append(_load_player(table, catalogue))
    round_ = root.integer("round", minimum=1, maximum=ROUNDS)
    first = _seat(root, "first", names)
    current = _seat(root, "current", names)
    passed = frozenset(_seat_of(root, "passed", names, n) for n in root.array("passed", []))
    pending = tuple(root.array("pending", []))
    for event in pending:
        if not isinstance(event, str) or event not in PENDING:
            raise root.error("pending", "chance events among " + ", ".join(PENDING), event)
    finished = root.flag("finished", False)
    gone = root.array("buses_gone", [])
    for bus in gone:
        if not isinstance(bus, str) or bus not in catalogue.buses:
            raise root.error("buses_gone", "bus ids of the catalogue", bus)
    market_fields = root.table("market")
    market, advert, under = _load_market(market_fields, catalogue)
    parking = []
    for table in root.tables("parking", []):
        bus = table.text("bus")
        if bus not in catalogue.buses:
            raise table.error("bus", "a bus id of the catalogue", bus)
        counts = parse_counts(table, "visitors", catalogue.buses[bus].visitors)
        table.done()
        parking.append((bus, counts))
    root.done()
    return MeepleLandState(catalogue, tuple(names), round_, first, current, passed,
                           tuple(parks), market, advert, under, tuple(sorted(parking)),
                           tuple(sorted(gone)), pending, finished)


def _load_player(table: Fields, catalogue: Catalogue) -> ParkState:
    money = table.integer("money", minimum=0, maximum=999)
    visitors = parse_counts(table, "visitors", NO_VISITORS)
    bus = table.text("bus", None)
    if bus is not None and bus not in catalogue.buses:
        raise table.error("bus", "a bus id of the catalogue", bus)
    default = catalogue.buses[bus].visitors if bus else NO_VISITORS
    bus_visitors = parse_counts(table, "bus_visitors", default)
    plot = load_plot(table)
    placed = tuple(e.placement for e in load_entries(table, "placed", seating=False))
    table.done()
    return ParkState(plot, placed, visitors, money, bus, bus_visitors)


def _load_market(fields: Fields, catalogue: Catalogue
                 ) -> tuple[Market, str | None, tuple[str, ...]]:
    sizes = {}
    for size in SIZES:
        ids = fields.array(size, [])
        if not all(isinstance(t, str) for t in ids):
            raise fields.error(size, "a list of tile ids", ids)
        sizes[size] = tuple(sorted(ids))
    extensions = fields.integer("extensions", EXTENSIONS_IN_GAME, minimum=0,
                                maximum=EXTENSIONS_IN_GAME)
    entrances = fields.integer("entrances", ENTRANCES_IN_GAME, minimum=0,
                               maximum=ENTRANCES_IN_GAME)
    advert = fields.text("advert", None)
    if advert is not None and advert not in catalogue.adverts:
        raise fields.error("advert", "an advert id of the catalogue: "
                           + ", ".join(catalogue.adverts), advert)
    under = tuple(fields.array("under", []))
    for item in under:
        if not isinstance(item, str) or item not in catalogue.adverts:
            raise fields.error("under", "advert ids of the catalogue", item)
    fields.done()
    return Market(sizes["small"], sizes["medium"], sizes["large"], extensions,
                  entrances), advert, under


def _seat(root: Fields, key: str, names: list[str]) -> int:
    return _seat_of(root, key, names, root.text(key))


def _seat_of(root: Fields, key: str, names: list[str], name: Any) -> int:
    if name not in names:
        raise root.error(key, "one of the players " + ", ".join(map(repr, names)), name)
    return names.index(name)


def game_problems(state: MeepleLandState) -> list[Problem]:
    """Every rule problem of a game state at once."""
    catalogue = state.catalogue
    found: list[Problem] = []
    where: dict[str, list[str]] = {}
    market = state.market
    for size in SIZES:
        ids = market.of(size)
        if len(ids) > MARKET_SLOTS[size]:
            found.append(Problem("market", f"{len(ids)} {size} tiles in the market; it has "
                                 f"{MARKET_SLOTS[size]} slots", f"market.{size}"))
        for tile_id in ids:
            where.setdefault(tile_id, []).append(f"market.{size}")
            if tile_id not in catalogue.tiles:
                found.append(Problem("unknown-tile", f"tile {tile_id!r} is not in the "
                                     f"{catalogue.name} catalogue", f"market.{size}"))
            elif catalogue.tile(tile_id).size != size:
                found.append(Problem("market", f"{catalogue.tile(tile_id).label} is "
                                     f"{catalogue.tile(tile_id).size}, not {size}",
                                     f"market.{size}"))
    total = NO_VISITORS
    buses: dict[str, list[str]] = {b: ["buses_gone"] for b in state.buses_gone}
    for bus, counts in state.parking:
        buses.setdefault(bus, []).append("parking")
        total = add_counts(total, counts)
        found += _bus_load_problems(catalogue, bus, counts, "parking")
    if len(state.parking) > state.num_players + 1:
        found.append(Problem("parking", f"{len(state.parking)} buses in the parking lot; it "
                             f"holds players + 1 = {state.num_players + 1}", "parking"))
    owned_extensions = owned_entrances = 0
    for seat, (name, park) in enumerate(zip(state.names, state.parks, strict=True)):
        field = item_path("player", seat)
        for tile_id in (p.tile for p in park.placed):
            where.setdefault(tile_id, []).append(f"{name}'s park")
        found += plot_problems(park.plot, f"{field}.plot")
        if park.plot.width != DEFAULT_WIDTH or park.plot.height != DEFAULT_HEIGHT:
            found.append(Problem("plot", f"{name}'s plot is {park.plot.width}x"
                                 f"{park.plot.height}; game plots are {DEFAULT_WIDTH}x"
                                 f"{DEFAULT_HEIGHT}", f"{field}.plot"))
        if len(park.plot.entrances) > 2:
            found.append(Problem("entrance", f"{name} has {len(park.plot.entrances) - 1} extra "
                                 "entrances; a player may buy one", f"{field}.plot.entrances"))
        owned_extensions += park.has_extension
        owned_entrances += park.has_extra_entrance
        found += list(check_entries(park.plot, park.placed, catalogue,
                                    f"{field}.placed").problems)
        total = add_counts(add_counts(total, park.visitors), park.bus_visitors)
        if park.bus is not None:
            buses.setdefault(park.bus, []).append(f"{name}'s bus")
            found += _bus_load_problems(catalogue, park.bus, park.bus_visitors, f"{field}.bus")
        if park.bus is not None and seat not in state.passed:
            found.append(Problem("bus", f"{name} holds bus {park.bus} but has not passed",
                                 f"{field}.bus"))
    if owned_extensions + market.extensions > EXTENSIONS_IN_GAME:
        found.append(Problem("extension", f"{owned_extensions} extensions built and "
                             f"{market.extensions} in the market: the game has "
                             f"{EXTENSIONS_IN_GAME}", "market.extensions"))
    if owned_entrances + market.entrances > ENTRANCES_IN_GAME:
        found.append(Problem("entrance", f"{owned_entrances} extra entrances built and "
                             f"{market.entrances} in the market: the game has "
                             f"{ENTRANCES_IN_GAME}", "market.entrances"))
    for tile_id, places in sorted(where.items()):
        if len(places) > 1:
            found.append(Problem("tile-twice", f"tile {tile_id} is in {' and '.join(places)}",
                                 tile_id))
    for bus, places in sorted(buses.items()):
        if len(places) > 1:
            found.append(Problem("bus-twice", f"bus {bus} is in {' and '.join(places)}", bus))
    found += _supply_problems(total, "visitors")
    found += _advert_problems(state)
    if not state.finished and not state.pending and state.current in state.passed:
        found.append(Problem("turn", f"{state.names[state.current]} has passed and cannot "
                             "play this round", "current"))
    if state.finished and state.round != ROUNDS:
        found.append(Problem("turn", f"the game ends after round {ROUNDS}", "finished"))
    return found


def _bus_load_problems(catalogue: Catalogue, bus: str, counts: Counts, field: str
                       ) -> list[Problem]:
    printed = catalogue.buses[bus].visitors
    return [Problem("bus", f"bus {bus} carries {printed[c]} {colour} visitors, not "
                    f"{counts[c]}", field)
            for c, colour in enumerate(COLOURS) if counts[c] > printed[c]]


def _advert_problems(state: MeepleLandState) -> list[Problem]:
    """The advert on top and the adverts under the pile must be backs of unseen small
    tiles."""
    unseen = Counter(state.catalogue.tile(t).advert for t in state.pile("small")
                     if t in state.catalogue.tiles)
    wanted = Counter(state.under)
    if state.advert is not None:
        wanted[state.advert] += 1
    return [Problem("advert", f"{n} small tile(s) with advert {advert} are face down, but "
                    f"{wanted[advert]} are needed for the top and under the pile", "market")
            for advert, n in ((a, unseen[a]) for a in sorted(wanted)) if wanted[advert] > n]


def state_from_document(document: Mapping[str, Any], source: str) -> MeepleLandState:
    """Load a game document; rule problems are bad input here."""
    state = load_state(document, source)
    unknown = [t for t in state.market.tiles() if t not in state.catalogue.tiles]
    if unknown:
        raise InputError(source, "market", "tile ids of the catalogue", unknown[0])
    require_no_problems(game_problems(state), source)
    return state


def describe_park(layout: Layout, visitors: Counts) -> list[str]:
    """The score breakdown of a park, line by line, with each dead end located."""
    score = layout.score(visitors)
    lines = [f"variety: {plural(len(score.types), 'attraction type')} -> "
             f"{plural(score.variety, 'point')}"
             + (f" ({', '.join(score.types)})" if score.types else "")]
    seated, waiting = score.seating.seated, score.seating.waiting
    lines.append(f"visitors inside: {counts_text(seated)} -> +{score.visitors_inside}")
    if any(waiting):
        lines.append(f"visitors at the entrance: {counts_text(waiting)} -> "
                     f"-{score.visitors_waiting}")
    lines.append(f"dead ends: {len(score.dead_ends)} -> {score.dead_end_points}")
    lines += [f"  {d.describe(layout.pieces)}" for d in score.dead_ends]
    lines.append(f"reputation: {score.total} (revenue per round: "
                 f"${layout.revenue(visitors)})")
    return lines


__all__ = ["KINDS", "Checked", "Entry", "ParkPosition", "check_entries",
           "describe_park", "document_kind", "game_problems", "load_park", "load_plot",
           "load_state", "park_document", "plot_document", "plot_problems",
           "state_from_document", "state_to_document"]

"""The tile catalogue: attraction and service tiles, adverts and buses, in a file users can type.

The publisher's tiles are not public, so partysolver ships a *house* catalogue
(``partysolver/puzzles/meeple-land/catalogue/house.toml``) that respects every published number.
Your own catalogue has the same format (``docs/formats.md``, "Meeple Land tile catalogue")::

    game = "meeple-land"
    kind = "catalogue"
    name = "my tiles"
    attraction_types = ["fountain", "carousel", ...]

    [[advert]]
    id = "A1"
    price = 2
    visitors = { green = 2 }

    [[tile]]
    id = "M01"
    shape = "1x2"                      # 1x1, 1x2 (one row of two) or 2x2
    attraction = "carousel"            # or: services = ["restaurant", "toilets"]
    paths = ["W0", "N1", "E0"]         # path ends in the base frame
    spaces = ["green", "green:restaurant"]
    cost = 4

    [[bus]]
    id = "B01"
    visitors = { green = 3, blue = 2 }

Position files name their catalogue with ``catalogue = "house"`` (the default) or a path to such
a file, relative to the position file.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from ..documents import Fields, parse_document, read_document
from ..numbers import whole_number
from .game import (
    COLOURS,
    JOKER,
    SERVICES,
    SHAPES,
    SIZES,
    Advert,
    Bus,
    Counts,
    PathEnd,
    Side,
    Space,
    Tile,
    counts_dict,
)

HOUSE = "house"


@dataclass(frozen=True, eq=False)
class Catalogue:
    """Every tile, advert and bus of one edition of the game (or of a user's collection)."""

    name: str
    attraction_types: tuple[str, ...]
    tiles: Mapping[str, Tile]
    adverts: Mapping[str, Advert]
    buses: Mapping[str, Bus]
    house: bool = False
    reference: str = HOUSE
    """How position files name this catalogue (``house`` or a path)."""

    def tile(self, tile_id: str) -> Tile:
        return self.tiles[tile_id]

    def by_size(self, size: str) -> list[Tile]:
        return [t for t in self.tiles.values() if t.size == size]

    def with_tiles(self, extra: Iterable[Tile]) -> Catalogue:
        tiles = dict(self.tiles)
        tiles.update({t.id: t for t in extra})
        return Catalogue(self.name, self.attraction_types, tiles, self.adverts, self.buses,
                         self.house, self.reference)


# -- reading ----------------------------------------------------------------------------------


def parse_counts(fields: Fields, key: str, default: Any = None) -> Counts:
    """A ``{ green = 2, pink = 1 }`` table of visitors."""
    if default is not None and not fields.has(key):
        fields.raw(key, default)
        return default
    table = fields.table(key)
    counts = [0, 0, 0, 0]
    for name in list(table.keys()):
        if name not in COLOURS:
            raise table.error(name, "a visitor colour: " + ", ".join(COLOURS), name)
        counts[COLOURS.index(name)] = table.integer(name, minimum=0, maximum=200)
    table.done()
    return (counts[0], counts[1], counts[2], counts[3])


def parse_path_end(text: Any, shape: str) -> PathEnd:
    """``N0``..``W{rows-1}``; a 1x1 tile also takes ``N``, ``E``, ``S``, ``W``."""
    if not isinstance(text, str) or not text or text[0].upper() not in "NESW":
        raise ValueError(text)
    side = Side.parse(text[0])
    rows, cols = SHAPES[shape]
    index = whole_number(text[1:]) if len(text) > 1 else 0
    if len(text) == 1 and shape != "1x1":
        raise ValueError(text)
    limit = cols if side in (Side.N, Side.S) else rows
    if not 0 <= index < limit:
        raise ValueError(text)
    return PathEnd(side, index)


def parse_space(text: Any) -> Space:
    """``pink``, ``any`` (joker) or ``pink:restaurant`` (special space)."""
    if not isinstance(text, str):
        raise ValueError(text)
    colour, _, service = text.partition(":")
    if colour not in (*COLOURS, JOKER) or (service and service not in SERVICES):
        raise ValueError(text)
    return Space(colour, service or None)


def catalogue_id(fields: Fields, what: str) -> str:
    """The ``id`` of a tile, advert or bus (``what``: "a tile id"): a name others refer to and
    messages quote, so not empty and of printable characters (spaces inside it allowed)."""
    value: str = fields.text("id")
    if not value.strip() or not value.isprintable():
        raise fields.error("id", f"{what}: a name of printable characters", value)
    return value


def load_tile(fields: Fields, attraction_types: tuple[str, ...] | None,
              adverts: Mapping[str, Advert] | None) -> Tile:
    """One ``[[tile]]`` table."""
    tile_id = catalogue_id(fields, "a tile id")
    shape = fields.text("shape", choices=tuple(SHAPES))
    cost = fields.integer("cost", minimum=0, maximum=99)
    attraction = fields.text("attraction", None)
    services = fields.array("services", [])
    if (attraction is None) == (not services):
        raise fields.error("attraction", "either an attraction type or a list of services "
                           "(a tile is one or the other)", attraction)
    if attraction is not None and attraction_types is not None \
            and attraction not in attraction_types:
        raise fields.error("attraction", "one of the catalogue's attraction_types: "
                           + ", ".join(attraction_types), attraction)
    for i, service in enumerate(services):
        if service not in SERVICES or service in services[:i]:
            raise fields.error("services", "different services among "
                               + ", ".join(SERVICES), service)
    raw_paths = fields.array("paths")
    paths: list[PathEnd] = []
    for text in raw_paths:
        try:
            end = parse_path_end(text, shape)
        except (ValueError, KeyError):
            raise fields.error("paths", f"path ends of a {shape} tile such as "
                               + ", ".join(_examples(shape)), text) from None
        if end in paths:
            raise fields.error("paths", "each path end once", text)
        paths.append(end)
    if not paths:
        raise fields.error("paths", "at least one path end (a tile must connect)", raw_paths)
    spaces = []
    for text in fields.array("spaces", []):
        try:
            spaces.append(parse_space(text))
        except ValueError:
            raise fields.error("spaces", "spaces such as 'green', 'any' (fountain joker) or "
                               "'pink:restaurant' (special)", text) from None
    advert = fields.text("advert", None)
    if advert is not None and adverts is not None and advert not in adverts:
        raise fields.error("advert", "an advert id of the catalogue: " + ", ".join(adverts),
                           advert)
    fields.done()
    return Tile(tile_id, shape, tuple(sorted(paths)), cost, attraction, tuple(services),
                tuple(spaces), advert)


def _examples(shape: str) -> list[str]:
    rows, cols = SHAPES[shape]
    return [f"N{cols - 1}", f"E{rows - 1}", "S0", "W0"]


def load_catalogue(document: Mapping[str, Any], source: str, reference: str) -> Catalogue:
    """Parse a catalogue document."""
    root = Fields(document, source)
    game = root.text("game")
    if game != "meeple-land":
        raise root.error("game", "'meeple-land'", game)
    root.text("kind", "catalogue", choices=("catalogue",))
    name = root.text("name")
    house = root.flag("house", False)
    types = root.array("attraction_types")
    if not types or not all(isinstance(t, str) and t for t in types) \
            or len(set(types)) != len(types):
        raise root.error("attraction_types", "a list of different attraction type names", types)
    adverts: dict[str, Advert] = {}
    for table in root.tables("advert", []):
        advert = Advert(catalogue_id(table, "an advert id"), table.integer("price", minimum=0, maximum=99),
                        parse_counts(table, "visitors"))
        table.done()
        if advert.id in adverts:
            raise table.error("id", "a new advert id", advert.id)
        adverts[advert.id] = advert
    tiles: dict[str, Tile] = {}
    for table in root.tables("tile"):
        tile = load_tile(table, tuple(types), adverts)
        if tile.id in tiles:
            raise table.error("id", "a new tile id", tile.id)
        tiles[tile.id] = tile
    buses: dict[str, Bus] = {}
    for table in root.tables("bus", []):
        bus = Bus(catalogue_id(table, "a bus id"), parse_counts(table, "visitors"))
        table.done()
        if bus.id in buses:
            raise table.error("id", "a new bus id", bus.id)
        buses[bus.id] = bus
    root.done()
    return Catalogue(name, tuple(types), tiles, adverts, buses, house, reference)


def house_text() -> str:
    place = resources.files("partysolver.puzzles").joinpath("meeple-land", "catalogue",
                                                             "house.toml")
    return place.read_text(encoding="utf-8")


@cache
def house_catalogue() -> Catalogue:
    """The shipped house catalogue (house data, not the publisher's)."""
    source = "house.toml"
    return load_catalogue(parse_document(house_text(), source), source, HOUSE)


_loaded: dict[str, Catalogue] = {}


def resolve_catalogue(reference: str, source: str, field: str = "catalogue") -> Catalogue:
    """``house`` or a catalogue file (relative to the folder of ``source``)."""
    if reference == HOUSE:
        return house_catalogue()
    base = Path(source).parent if source not in ("<stdin>", "-") else Path(".")
    path = base / reference
    key = os.path.abspath(path)
    if key not in _loaded:
        data, where = read_document(path, (source, field,
                                           "catalogue file (or 'house', the shipped one)"))
        _loaded[key] = load_catalogue(data, where, reference)
    return _loaded[key]


# -- writing ----------------------------------------------------------------------------------


def tile_document(tile: Tile) -> dict[str, Any]:
    doc: dict[str, Any] = {"id": tile.id, "shape": tile.shape}
    if tile.attraction is not None:
        doc["attraction"] = tile.attraction
    else:
        doc["services"] = list(tile.services)
    doc["paths"] = [path_end_text(e, tile.shape) for e in tile.paths]
    if tile.spaces:
        doc["spaces"] = [str(s) for s in tile.spaces]
    doc["cost"] = tile.cost
    if tile.advert is not None:
        doc["advert"] = tile.advert
    return doc


def path_end_text(end: PathEnd, shape: str) -> str:
    return end.side.name if shape == "1x1" else str(end)


def catalogue_document(catalogue: Catalogue) -> dict[str, Any]:
    return {
        "game": "meeple-land", "kind": "catalogue", "name": catalogue.name,
        "house": catalogue.house, "attraction_types": list(catalogue.attraction_types),
        "advert": [{"id": a.id, "price": a.price, "visitors": counts_dict(a.visitors)}
                   for a in catalogue.adverts.values()],
        "tile": [tile_document(t) for t in catalogue.tiles.values()],
        "bus": [{"id": b.id, "visitors": counts_dict(b.visitors)}
                for b in catalogue.buses.values()],
    }


def size_counts(catalogue: Catalogue) -> dict[str, int]:
    return {size: len(catalogue.by_size(size)) for size in SIZES}



"""Pictures of parks: an SVG drawing and a plain-text (ASCII) picture.

The SVG shows the grid (plot and extension) with its columns numbered along the top and its
rows down the left, every tile with its code and paths, its visitor spaces (coloured rings; a
letter for the service a special space needs) with the seated visitors filled in, service
links (dashed), dead ends (red crosses), entrances, and on request the build order as numbers
and a suggested tile (dashed outline, with an arrow from the tile in the market through free
cells).  The market (or a puzzle's pool) is drawn as tiles under the parks, and a legend says
what every mark means and what every tile code shown is.

The ASCII picture draws each cell as ``[ A ]``-like boxes: tiles are letters (a legend follows),
``o`` marks a connection across a segment, ``x`` a dead end, ``.`` a path end facing an empty
cell or the boundary, ``E`` an entrance.
"""

from __future__ import annotations

import string
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..svg import Svg, Swatch, text_width, wrap
from .game import JOKER, Cell, Counts, Edge, Side, Tile, entrance_text, facing
from .park import Layout, Piece
from .seating import Seating

CELL = 64
MARGIN = 44
ABOVE = 62
"""Room above a park's grid: its title, the entrances (IN) and the column numbers."""
BELOW = 60
"""Room under a park's grid: south entrances, then the lane an arrow from the market takes."""
VISITOR_FILL = {"green": "#3a9d3a", "blue": "#2f6fd6", "pink": "#e0559b", "yellow": "#e8c21c"}
TILE_FILL = {"green": "#d8f0d0", "blue": "#d6e4fa", "pink": "#fadbe9", "yellow": "#fbf1c4",
             JOKER: "#dff6f6"}
SERVICE_FILL = "#e6e0f0"
PATH = "#b08850"
SERVICE_LETTER = {"restaurant": "R", "toilets": "T", "boutique": "B"}
ARROW = "#d62728"
CHIP_W, CHIP_H = 46, 24
CODE_COLUMN = 230
"""The width of a column of the tile codes in the legend."""


@dataclass(frozen=True)
class Picture:
    """What to draw for one park."""

    layout: Layout
    visitors: Counts
    title: str = ""
    order: Sequence[int] | None = None
    """Build order (indices of ``layout.pieces``) to number the tiles, or ``None``."""
    suggestion: Piece | None = None
    """A suggested tile placement (drawn dashed, with an arrow from the market)."""
    caption: str = ""


@dataclass(frozen=True)
class Shelf:
    """Tiles on offer drawn under the parks: the market's rows, or a puzzle's pool."""

    title: str
    rows: Sequence[tuple[str, Sequence[str]]]
    """``(label, tile codes)`` per row, e.g. ``("small", ("S12", "S30"))``."""


def _tile_colour(tile: Tile) -> str:
    if tile.is_service:
        return SERVICE_FILL
    colours = [s.colour for s in tile.spaces]
    return TILE_FILL.get(colours[0], "#eee") if colours else "#eee"


def tile_text(tile: Tile) -> str:
    """What a tile code stands for: ``fountain, small ($2)``."""
    what = tile.attraction or " + ".join(tile.services) or "path"
    return f"{what.replace('-', ' ')}, {tile.size} (${tile.cost})"


class _Frame:
    """Pixel positions of a park drawn at ``(left, top)``."""

    def __init__(self, layout: Layout, left: float, top: float) -> None:
        self.x0, self.y0, self.x1, self.y1 = layout.plot.bounds()
        self.left, self.top = left, top

    @property
    def width(self) -> float:
        return (self.x1 - self.x0 + 1) * CELL

    @property
    def height(self) -> float:
        return (self.y1 - self.y0 + 1) * CELL

    def corner(self, cell: Cell) -> tuple[float, float]:
        return (self.left + (cell[0] - self.x0) * CELL, self.top + (cell[1] - self.y0) * CELL)

    def centre(self, cells: Sequence[Cell]) -> tuple[float, float]:
        xs = [self.corner(c)[0] + CELL / 2 for c in cells]
        ys = [self.corner(c)[1] + CELL / 2 for c in cells]
        return sum(xs) / len(xs), sum(ys) / len(ys)

    def midpoint(self, edge: Edge) -> tuple[float, float]:
        (cx, cy), side = self.corner(edge[0]), edge[1]
        return {Side.N: (cx + CELL / 2, cy), Side.S: (cx + CELL / 2, cy + CELL),
                Side.W: (cx, cy + CELL / 2), Side.E: (cx + CELL, cy + CELL / 2)}[side]


def _draw_park(svg: Svg, picture: Picture, frame: _Frame, number: int) -> None:
    layout = picture.layout
    plot = layout.plot
    left, top = frame.left, frame.top
    if picture.title:
        svg.text(left, top - 44, picture.title, font_size=15, font_weight="bold")
    for cell in plot.sorted_cells():
        x, y = frame.corner(cell)
        inside_plot = 0 <= cell[0] < plot.width and 0 <= cell[1] < plot.height
        svg.rect(x, y, CELL, CELL, fill="#f4faf0" if inside_plot else "#eef4e4",
                 stroke="#c9d8c0", stroke_width=1)
    with svg.group(f"coordinates-{number}", fill="#777", font_size=10):
        for column in range(frame.x0, frame.x1 + 1):
            svg.text(frame.corner((column, frame.y0))[0] + CELL / 2, top - 5, str(column),
                     text_anchor="middle")
        for row in range(frame.y0, frame.y1 + 1):
            svg.text(left - 6, frame.corner((frame.x0, row))[1] + CELL / 2 + 4, str(row),
                     text_anchor="end")
    seating = layout.seat(picture.visitors)
    assigned = _assigned(layout, seating)
    for k, piece in enumerate(layout.pieces):
        _draw_piece(svg, frame, layout, k, piece, assigned)
    for link in layout.links:
        a = frame.centre(layout.pieces[link.service].cells)
        b = frame.centre(layout.pieces[link.attraction].cells)
        svg.line(a[0], a[1], b[0], b[1], stroke="#7a4fb0", stroke_width=2,
                 stroke_dasharray="5,4", opacity=0.8)
    for dead in layout.dead_ends:
        mx, my = frame.midpoint(dead.edge)
        _cross(svg, mx, my)
    for edge in plot.entrances:
        mx, my = frame.midpoint(edge)
        dx, dy = {Side.N: (0, -1), Side.S: (0, 1), Side.W: (-1, 0), Side.E: (1, 0)}[edge[1]]
        _entrance(svg, mx + dx * 30, my + dy * 30)
    if picture.order is not None:
        for place, k in enumerate(picture.order, 1):
            cx, cy = frame.centre(layout.pieces[k].cells)
            svg.circle(cx, cy, 11, fill="#222", opacity=0.85)
            svg.text(cx, cy + 4, str(place), font_size=12, fill="#fff", text_anchor="middle")
    if picture.suggestion is not None:
        _draw_suggestion(svg, frame, picture.suggestion)


def _cross(svg: Svg, x: float, y: float, size: float = 7) -> None:
    svg.line(x - size, y - size, x + size, y + size, stroke="#d62728", stroke_width=3)
    svg.line(x - size, y + size, x + size, y - size, stroke="#d62728", stroke_width=3)


def _entrance(svg: Svg, x: float, y: float) -> None:
    svg.rect(x - 13, y - 9, 26, 18, fill="#333", rx=4)
    svg.text(x, y + 4, "IN", font_size=11, fill="#fff", text_anchor="middle",
             font_weight="bold")


def _assigned(layout: Layout, seating: Seating) -> dict[tuple[int, int], str]:
    usable = [slot for slot in layout.slots if slot.usable]
    return {(slot.piece, slot.index): colour
            for slot, colour in zip(usable, seating.assigned, strict=True) if colour}


def _draw_piece(svg: Svg, frame: _Frame, layout: Layout, k: int, piece: Piece,
                assigned: dict[tuple[int, int], str]) -> None:
    xs = [c[0] for c in piece.cells]
    ys = [c[1] for c in piece.cells]
    x, y = frame.corner((min(xs), min(ys)))
    w = (max(xs) - min(xs) + 1) * CELL
    h = (max(ys) - min(ys) + 1) * CELL
    svg.rect(x + 3, y + 3, w - 6, h - 6, fill=_tile_colour(piece.tile), stroke="#555",
             stroke_width=1.5, rx=6)
    cx, cy = frame.centre(piece.cells)
    for edge in piece.ends:
        mx, my = frame.midpoint(edge)
        svg.line(cx, cy, mx, my, stroke=PATH, stroke_width=7, stroke_linecap="round",
                 opacity=0.85)
    tile = piece.tile
    svg.text(x + 8, y + 17, tile.id, font_size=12, font_weight="bold")
    spaces = tile.spaces
    for i, space in enumerate(spaces):
        sx = x + 12 + i * 16
        sy = y + h - 14
        ring = "#888" if space.colour == JOKER else VISITOR_FILL[space.colour]
        usable = space.service is None or space.service in layout.served(k)
        fill = VISITOR_FILL.get(assigned.get((k, i), ""), "#fff")
        svg.circle(sx, sy, 6, fill=fill, stroke=ring, stroke_width=2.5,
                   stroke_dasharray=None if usable else "2,2")
        if space.service:
            svg.text(sx, sy - 9, SERVICE_LETTER[space.service], font_size=8,
                     text_anchor="middle", fill="#7a4fb0")


def _box(frame: _Frame, piece: Piece) -> tuple[float, float, float, float]:
    xs = [c[0] for c in piece.cells]
    ys = [c[1] for c in piece.cells]
    x, y = frame.corner((min(xs), min(ys)))
    return x, y, (max(xs) - min(xs) + 1) * CELL, (max(ys) - min(ys) + 1) * CELL


def _draw_suggestion(svg: Svg, frame: _Frame, piece: Piece) -> None:
    x, y, w, h = _box(frame, piece)
    svg.rect(x + 1, y + 1, w - 2, h - 2, fill="#fff3f3", stroke=ARROW, stroke_width=3,
             stroke_dasharray="8,4", opacity=0.9, id="suggestion")
    cx, cy = frame.centre(piece.cells)
    for edge in piece.ends:
        mx, my = frame.midpoint(edge)
        svg.line(cx, cy, mx, my, stroke=PATH, stroke_width=5, stroke_dasharray="4,3")
    svg.text(x + 8, y + 17, piece.tile.id, font_size=12, font_weight="bold", fill=ARROW)


def _free_path(layout: Layout, frame: _Frame, piece: Piece) -> list[Cell] | None:
    """Cells from the row under the grid up to the suggested tile through empty cells only
    (the first is under the grid, the last one of the tile's), or ``None``."""
    target = set(piece.cells)
    below = frame.y1 + 1
    starts = [(x, below) for x in range(frame.x0, frame.x1 + 1)]
    seen: dict[Cell, Cell | None] = dict.fromkeys(starts)
    queue = deque(starts)
    while queue:
        cell = queue.popleft()
        if cell in target:
            path = [cell]
            while (previous := seen[path[-1]]) is not None:
                path.append(previous)
            return path[::-1]
        for dx, dy in ((0, -1), (-1, 0), (1, 0), (0, 1)):
            near = (cell[0] + dx, cell[1] + dy)
            if near in seen or not frame.x0 <= near[0] <= frame.x1 or not \
                    frame.y0 <= near[1] <= frame.y1:
                continue
            if near in target or near not in layout.owner:
                seen[near] = cell
                queue.append(near)
    return None


def _market_arrow(svg: Svg, frame: _Frame, layout: Layout, piece: Piece,
                  chip: tuple[float, float], lane: float) -> None:
    """From the tile in the market up to the lane under the park, then through empty cells
    into the suggested place (straight, when the place is walled in)."""
    cx, top = chip
    path = _free_path(layout, frame, piece)
    if path is None:
        x, y, w, h = _box(frame, piece)
        svg.route([(cx, top), (x + w / 2, y + h - 4)], ARROW, start="market-" + piece.tile.id)
        return
    points = [(cx, top), (cx, lane)]
    first = frame.corner(path[0])[0] + CELL / 2
    points.append((first, lane))
    for cell in path[1:]:
        x, y = frame.corner(cell)
        points.append((x + CELL / 2, y + CELL / 2))
    # end at the tile's edge, not its middle
    (ax, ay), (bx, by) = points[-2], points[-1]
    points[-1] = (bx + (ax - bx) * 0.3, by + (ay - by) * 0.3)
    svg.route(_straightened(points), ARROW, start="market-" + piece.tile.id)


def _straightened(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """``points`` without the middle ones of straight runs."""
    kept = [points[0]]
    for here, after in zip(points[1:], points[2:], strict=False):
        before = kept[-1]
        if (here[0] - before[0]) * (after[1] - here[1]) != (here[1] - before[1]) * \
                (after[0] - here[0]):
            kept.append(here)
    return [*kept, points[-1]]


def _chip(svg: Svg, x: float, y: float, tile: Tile | None, code: str, chosen: bool) -> None:
    svg.rect(x, y, CHIP_W, CHIP_H, rx=4, fill=_tile_colour(tile) if tile else "#eee",
             stroke=ARROW if chosen else "#555", stroke_width=3 if chosen else 1,
             id=f"market-{code}" if chosen else None)
    svg.text(x + CHIP_W / 2, y + 16, code, font_size=11, font_weight="bold",
             text_anchor="middle")


def _shelf_width(shelf: Shelf) -> float:
    widest = max((text_width(label, 12) for label, _ in shelf.rows), default=0)
    return 70 + widest + max((len(codes) for _, codes in shelf.rows), default=0) * (CHIP_W + 6)


def render_parks(pictures: Sequence[Picture], heading: str = "", footer: Sequence[str] = (),
                 shelf: Shelf | None = None, tiles: Mapping[str, Tile] | None = None) -> str:
    """Parks side by side, with a heading, the market or pool (``shelf``), captions, footer
    lines and a legend of the marks and of every tile code shown (``tiles`` names those not
    on a board)."""
    frames = [_Frame(p.layout, 0, 0) for p in pictures]
    columns = [max(f.width + 2 * MARGIN + 40, text_width(p.title, 15, True) + MARGIN)
               for f, p in zip(frames, pictures, strict=True)]
    grid_height = max(f.height for f in frames)
    known = dict(tiles or {})
    for picture in pictures:
        known |= {piece.tile.id: piece.tile for piece in picture.layout.pieces}
        if picture.suggestion is not None:
            known[picture.suggestion.tile.id] = picture.suggestion.tile
    shown = sorted({piece.tile.id for p in pictures for piece in p.layout.pieces}
                   | {code for _, codes in (shelf.rows if shelf else ()) for code in codes}
                   | {p.suggestion.tile.id for p in pictures if p.suggestion is not None})
    width = max(sum(columns) + MARGIN, MARGIN + text_width(heading, 15) + 20,
                MARGIN + (_shelf_width(shelf) if shelf else 0) + 20,
                MARGIN + max((text_width(line, 12) for line in footer), default=0) + 20, 640)
    captions = [line for p in pictures if p.caption
                for line in wrap(p.caption, width - 2 * MARGIN, 13)]
    top = 40 + ABOVE
    shelf_top = top + grid_height + BELOW + 14
    shelf_height = 28 * len(shelf.rows) + 24 if shelf else 0
    text_top = shelf_top + shelf_height + 12
    legend_top = text_top + 20 * len(captions) + 18 * len(footer) + 10
    symbols = _symbol_rows()
    codes = [(code, known[code]) for code in shown if code in known]
    code_columns = max(1, int((width - 2 * MARGIN - 330) // CODE_COLUMN))
    if codes:  # one column wide enough for the longest tile name and code
        longest = max(text_width(code, 11, True) + 8 + text_width(tile_text(tile), 11)
                      for code, tile in codes)
        width = max(width, MARGIN + 330 + longest + 20)
    code_lines = (len(codes) + code_columns - 1) // code_columns
    legend_height = 20 + 18 * max(len(symbols), code_lines) + 10
    height = legend_top + legend_height
    svg = Svg(width, height, title="Meeple Land")
    svg.rect(0, 0, width, height, fill="#ffffff")
    if heading:
        svg.text(MARGIN, 26, heading, font_size=15)
    left: float = MARGIN + 10
    placed: list[_Frame] = []
    for number, (picture, column) in enumerate(zip(pictures, columns, strict=True)):
        here = _Frame(picture.layout, left, top)
        _draw_park(svg, picture, here, number)
        placed.append(here)
        left += column
    chips = _draw_shelf(svg, shelf, known, pictures, shelf_top) if shelf else {}
    for picture, frame in zip(pictures, placed, strict=True):
        piece = picture.suggestion
        if piece is not None and piece.tile.id in chips:
            _market_arrow(svg, frame, picture.layout, piece, chips[piece.tile.id],
                          top + grid_height + BELOW - 8)
    if shelf:  # over the arrows, which may climb through it, with a halo to stay readable
        svg.text(MARGIN, shelf_top + 12, shelf.title, font_size=13, font_weight="bold",
                 stroke="#fff", stroke_width=4, paint_order="stroke")
    for i, line in enumerate(captions):
        svg.text(MARGIN, text_top + 14 + 20 * i, line, font_size=13, fill=ARROW)
    base = text_top + 20 * len(captions) + 14
    for i, line in enumerate(footer):
        svg.text(MARGIN, base + 18 * i, line, font_size=12)
    _legend(svg, symbols, codes, code_columns, MARGIN, legend_top)
    return str(svg)


def _draw_shelf(svg: Svg, shelf: Shelf, known: Mapping[str, Tile],
                pictures: Sequence[Picture], top: float) -> dict[str, tuple[float, float]]:
    """The tiles on offer, row by row (their title is drawn by the caller, over the hint's
    arrows); where each suggested tile's chip is (its top middle)."""
    wanted = {p.suggestion.tile.id for p in pictures if p.suggestion is not None}
    label_width = max((text_width(label, 12) for label, _ in shelf.rows), default=0) + 12
    chips: dict[str, tuple[float, float]] = {}
    for r, (label, codes) in enumerate(shelf.rows):
        y = top + 20 + 28 * r
        svg.text(MARGIN, y + 16, label, font_size=12, fill="#555")
        for k, code in enumerate(codes):
            x = MARGIN + label_width + k * (CHIP_W + 6)
            chosen = code in wanted and code not in chips
            _chip(svg, x, y, known.get(code), code, chosen)
            if chosen:
                chips[code] = (x + CHIP_W / 2, y)
    return chips


def _ring(colour: str, filled: bool = False, dashed: bool = False) -> Swatch:
    def draw(svg: Svg, x: float, y: float) -> None:
        svg.circle(x + 8, y + 8, 6, fill=VISITOR_FILL[colour] if filled else "#fff",
                   stroke=VISITOR_FILL[colour], stroke_width=2.5,
                   stroke_dasharray="2,2" if dashed else None)
    return draw


def _symbol(kind: str) -> Swatch:
    def draw(svg: Svg, x: float, y: float) -> None:
        if kind == "in":
            svg.rect(x, y + 2, 16, 12, fill="#333", rx=3)
            svg.text(x + 8, y + 11, "IN", font_size=8, fill="#fff", text_anchor="middle",
                     font_weight="bold")
        elif kind == "dead":
            _cross(svg, x + 8, y + 8, 5)
        elif kind == "link":
            svg.line(x, y + 8, x + 16, y + 8, stroke="#7a4fb0", stroke_width=2,
                     stroke_dasharray="5,4")
        elif kind == "path":
            svg.line(x, y + 8, x + 16, y + 8, stroke=PATH, stroke_width=6)
        elif kind == "order":
            svg.circle(x + 8, y + 8, 8, fill="#222", opacity=0.85)
            svg.text(x + 8, y + 12, "1", font_size=10, fill="#fff", text_anchor="middle")
        elif kind == "suggestion":
            svg.rect(x, y, 16, 16, fill="#fff3f3", stroke=ARROW, stroke_width=2,
                     stroke_dasharray="4,2")
        elif kind == "service":
            svg.text(x + 8, y + 12, "R", font_size=10, fill="#7a4fb0", text_anchor="middle")
    return draw


def _symbol_rows() -> list[tuple[Swatch, str]]:
    return [
        (_symbol("in"), "entrance of the park"),
        (_symbol("path"), "path"),
        (_ring("green"), "visitor space (its colour), empty"),
        (_ring("pink", filled=True), "a visitor seated there"),
        (_ring("blue", dashed=True), "space whose service is not linked"),
        (_symbol("service"), "R/T/B: needs a restaurant/toilets/boutique"),
        (_symbol("link"), "service link"),
        (_symbol("dead"), "dead end"),
        (_symbol("order"), "build order"),
        (_symbol("suggestion"), "the hint: where the tile goes"),
    ]


def _legend(svg: Svg, symbols: Sequence[tuple[Swatch, str]],
            codes: Sequence[tuple[str, Tile]], columns: int, x: float, y: float) -> None:
    """The marks (left) and the tile codes shown (right, in columns)."""
    with svg.group("legend"):
        svg.text(x, y + 12, "Legend · places are column,row (2,1: column 2, row 1)",
                 font_size=12, font_weight="bold")
        for i, (swatch, words) in enumerate(symbols):
            swatch(svg, x, y + 20 + 18 * i)
            svg.text(x + 22, y + 32 + 18 * i, words, font_size=11)
        if not codes:
            return
        lines = (len(codes) + columns - 1) // columns
        code_width = max(text_width(code, 11, True) for code, _ in codes) + 8
        for i, (code, tile) in enumerate(codes):
            cx = x + 330 + CODE_COLUMN * (i // lines)
            cy = y + 20 + 18 * (i % lines)
            svg.text(cx, cy + 12, code, font_size=11, font_weight="bold")
            svg.text(cx + code_width, cy + 12, tile_text(tile), font_size=11)


# -- ASCII ------------------------------------------------------------------------------------


def letters(n: int) -> list[str]:
    alphabet = string.ascii_uppercase + string.ascii_lowercase
    return [alphabet[i] if i < len(alphabet) else "#" for i in range(n)]


def _marker(layout: Layout, edge: Edge) -> str | None:
    """What a segment shows: o (connection), x (dead end), E (entrance), . (open path end)."""
    other = facing(edge)
    if edge in layout.entrances or other in layout.entrances:
        return "E"
    ends = [e for e in (edge, other) if e in layout.end_owner]
    if not ends:
        return None
    if len(ends) == 2:
        return "o"
    blocked = facing(ends[0])[0] in layout.owner
    return "x" if blocked else "."


def ascii_picture(layout: Layout, names: Sequence[str] | None = None) -> str:
    """The park as text; ``names[k]`` labels piece ``k`` (default: A, B, C ...)."""
    plot = layout.plot
    labels = list(names) if names is not None else letters(len(layout.pieces))
    x0, y0, x1, y1 = plot.bounds()
    owner = layout.owner

    def piece_at(cell: Cell) -> int | None:
        return owner.get(cell)

    def in_park(cell: Cell) -> bool:
        return plot.inside(cell)

    lines = ["    " + "".join(f"{x:^4}" for x in range(x0, x1 + 1))]
    for y in range(y0, y1 + 2):
        top = "    "
        for x in range(x0, x1 + 1):
            above, below = (x, y - 1), (x, y)
            near = [(x - 1, y - 1), (x, y - 1), (x - 1, y), (x, y)]
            top += "+" if any(in_park(c) for c in near) else " "
            if not (in_park(above) or in_park(below)):
                top += "   "
                continue
            same = piece_at(above) is not None and piece_at(above) == piece_at(below)
            mark = _marker(layout, ((x, y), Side.N)) if in_park(below) else \
                _marker(layout, ((x, y - 1), Side.S))
            fill = " " if same else "-"
            top += fill + (mark or fill) + fill
        top += "+" if any(in_park(c) for c in [(x1, y - 1), (x1, y)]) else " "
        lines.append(top.rstrip())
        if y > y1:
            break
        row = f"{y:>3} "
        for x in range(x0, x1 + 2):
            left, here = (x - 1, y), (x, y)
            if in_park(left) or in_park(here):
                same = piece_at(left) is not None and piece_at(left) == piece_at(here)
                mark = _marker(layout, (here, Side.W)) if in_park(here) else \
                    _marker(layout, (left, Side.E))
                row += mark or (" " if same else "|")
            else:
                row += " "
            if x > x1:
                break
            k = piece_at(here)
            if not in_park(here) or k is None:
                row += "   "
            else:
                row += f" {labels[k]} "
        lines.append(row.rstrip())
    return "\n".join(lines)


def legend(layout: Layout, names: Sequence[str] | None = None) -> list[str]:
    labels = list(names) if names is not None else letters(len(layout.pieces))
    out = []
    for k, piece in enumerate(layout.pieces):
        p = piece.placement
        turn = f", turned {p.rotation}°" if p.rotation else ""
        out.append(f"  {labels[k]}  {piece.tile.label} (${piece.tile.cost}) at "
                   f"{p.at[0]},{p.at[1]}{turn}")
    return out


def entrances_text(layout: Layout) -> str:
    return ", ".join(entrance_text(e, layout.plot) for e in layout.plot.entrances)


__all__ = ["Picture", "Shelf", "ascii_picture", "entrances_text", "legend", "letters",
           "render_parks", "tile_text"]

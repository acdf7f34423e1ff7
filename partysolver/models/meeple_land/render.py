"""Pictures of parks: an SVG drawing and a plain-text (ASCII) picture.

The SVG shows the grid (plot and extension), every tile with its type and paths, its visitor
spaces (coloured rings; a letter for the service a special space needs) with the seated
visitors filled in, service links (dashed), dead ends (red crosses), entrances, and on request
the build order as numbers and a suggested tile (dashed outline and an arrow).

The ASCII picture draws each cell as ``[ A ]``-like boxes: tiles are letters (a legend follows),
``o`` marks a connection across a segment, ``x`` a dead end, ``.`` a path end facing an empty
cell or the boundary, ``E`` an entrance.
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from dataclasses import dataclass

from ..svg import Svg
from .game import JOKER, Cell, Counts, Edge, Side, entrance_text, facing
from .park import Layout, Piece
from .seating import Seating

CELL = 64
MARGIN = 44
VISITOR_FILL = {"green": "#3a9d3a", "blue": "#2f6fd6", "pink": "#e0559b", "yellow": "#e8c21c"}
TILE_FILL = {"green": "#d8f0d0", "blue": "#d6e4fa", "pink": "#fadbe9", "yellow": "#fbf1c4",
             JOKER: "#dff6f6"}
SERVICE_FILL = "#e6e0f0"
PATH = "#b08850"
SERVICE_LETTER = {"restaurant": "R", "toilets": "T", "boutique": "B"}


@dataclass(frozen=True)
class Picture:
    """What to draw for one park."""

    layout: Layout
    visitors: Counts
    title: str = ""
    order: Sequence[int] | None = None
    """Build order (indices of ``layout.pieces``) to number the tiles, or ``None``."""
    suggestion: Piece | None = None
    """A suggested tile placement (drawn dashed, with an arrow)."""
    caption: str = ""


def _tile_colour(piece: Piece) -> str:
    tile = piece.tile
    if tile.is_service:
        return SERVICE_FILL
    colours = [s.colour for s in tile.spaces]
    return TILE_FILL.get(colours[0], "#eee") if colours else "#eee"


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


def _draw_park(svg: Svg, picture: Picture, left: float, top: float) -> None:
    layout = picture.layout
    frame = _Frame(layout, left, top)
    plot = layout.plot
    if picture.title:
        svg.text(left, top - 24, picture.title, font_size=15, font_weight="bold")
    for cell in plot.sorted_cells():
        x, y = frame.corner(cell)
        inside_plot = 0 <= cell[0] < plot.width and 0 <= cell[1] < plot.height
        svg.rect(x, y, CELL, CELL, fill="#f4faf0" if inside_plot else "#eef4e4",
                 stroke="#c9d8c0", stroke_width=1)
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
        svg.line(mx - 7, my - 7, mx + 7, my + 7, stroke="#d62728", stroke_width=3)
        svg.line(mx - 7, my + 7, mx + 7, my - 7, stroke="#d62728", stroke_width=3)
    for edge in plot.entrances:
        mx, my = frame.midpoint(edge)
        dx, dy = {Side.N: (0, -1), Side.S: (0, 1), Side.W: (-1, 0), Side.E: (1, 0)}[edge[1]]
        gx, gy = mx + dx * 16, my + dy * 16
        svg.rect(gx - 13, gy - 9, 26, 18, fill="#333", rx=4)
        svg.text(gx, gy + 4, "IN", font_size=11, fill="#fff", text_anchor="middle",
                 font_weight="bold")
    if picture.order is not None:
        for number, k in enumerate(picture.order, 1):
            cx, cy = frame.centre(layout.pieces[k].cells)
            svg.circle(cx, cy, 11, fill="#222", opacity=0.85)
            svg.text(cx, cy + 4, str(number), font_size=12, fill="#fff", text_anchor="middle")
    if picture.suggestion is not None:
        _draw_suggestion(svg, frame, picture.suggestion)
    if picture.caption:
        svg.text(left, top + frame.height + 34, picture.caption, font_size=13)


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
    svg.rect(x + 3, y + 3, w - 6, h - 6, fill=_tile_colour(piece), stroke="#555",
             stroke_width=1.5, rx=6)
    cx, cy = frame.centre(piece.cells)
    for edge in piece.ends:
        mx, my = frame.midpoint(edge)
        svg.line(cx, cy, mx, my, stroke=PATH, stroke_width=7, stroke_linecap="round",
                 opacity=0.85)
    tile = piece.tile
    name = tile.attraction or "+".join(tile.services)
    svg.text(x + 8, y + 16, tile.id, font_size=11, font_weight="bold")
    svg.text(x + 8, y + 28, name[:14], font_size=9, fill="#333")
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


def _draw_suggestion(svg: Svg, frame: _Frame, piece: Piece) -> None:
    xs = [c[0] for c in piece.cells]
    ys = [c[1] for c in piece.cells]
    x, y = frame.corner((min(xs), min(ys)))
    w = (max(xs) - min(xs) + 1) * CELL
    h = (max(ys) - min(ys) + 1) * CELL
    svg.rect(x + 1, y + 1, w - 2, h - 2, fill="#fff3f3", stroke="#d62728", stroke_width=3,
             stroke_dasharray="8,4", opacity=0.9)
    cx, cy = frame.centre(piece.cells)
    for edge in piece.ends:
        mx, my = frame.midpoint(edge)
        svg.line(cx, cy, mx, my, stroke=PATH, stroke_width=5, stroke_dasharray="4,3")
    svg.text(x + 8, y + 16, piece.tile.id, font_size=11, font_weight="bold", fill="#d62728")
    svg.arrow(frame.left + frame.width + 36, cy, x + w - 4, cy)


def render_parks(pictures: Sequence[Picture], heading: str = "", footer: Sequence[str] = ()
                 ) -> str:
    """Parks side by side, with a heading and footer lines."""
    frames = [_Frame(p.layout, 0, 0) for p in pictures]
    width = sum(f.width + 2 * MARGIN + 40 for f in frames) + MARGIN
    height = max(f.height for f in frames) + 2 * MARGIN + 70 + 18 * len(footer)
    svg = Svg(width, height, title="Meeple Land")
    svg.rect(0, 0, width, height, fill="#ffffff")
    if heading:
        svg.text(MARGIN, 24, heading, font_size=15)
    left: float = MARGIN + 10
    for picture, frame in zip(pictures, frames, strict=True):
        _draw_park(svg, picture, left, MARGIN + 40)
        left += frame.width + 2 * MARGIN + 40
    base = MARGIN + 40 + max(f.height for f in frames) + 50
    for i, line in enumerate(footer):
        svg.text(MARGIN, base + 18 * i, line, font_size=12)
    return str(svg)


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


__all__ = ["Picture", "ascii_picture", "entrances_text", "legend", "letters",
           "render_parks"]

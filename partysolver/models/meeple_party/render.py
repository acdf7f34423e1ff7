"""An SVG picture of a Meeple Party position: the house, the meeples in every room, the table.

A house given as a grid is drawn as its tiles (a long room spans its two cells); a house given
as adjacent pairs is laid out as a graph (rooms as tiles, walls as lines).  Meeples are coloured
figures (the rulebook's colours), roommates larger and ringed, laid-down meeples lying on their
side.  Arrows (a suggested turn) join rooms: ``(src, dst, kind)`` with ``kind`` one of
``"welcome"`` (``src`` is ``-1``: from the bag), ``"mingle"`` and ``"action"``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..svg import Svg
from .board import count
from .game import (
    BAG_KINDS,
    CAT,
    DOG,
    LAID,
    LAID_PIECES,
    LAID_ROOMMATE,
    PERSONALITY_KEYS,
    ROOMMATE,
    STANDING_PIECES,
    WHITE,
    standing_of,
)
from .state import PHASES, MeeplePartyState

Arrow = tuple[int, int, str]

COLOURS = {0: "#e377c2", 1: "#8e44ad", 2: "#1f77b4", 3: "#f1c40f", 4: "#2ca02c", WHITE: "#ffffff"}
"""Flirt pink, Party Animal purple, Cool blue, Wallflower yellow, Jerk green, Surprise white."""

ROOM_FILLS = {"kitchen": "#dbe9f6", "living_room": "#fde3c8", "dining_room": "#fdf5c4",
              "bathroom": "#fbdde9", "bedroom": "#e8dcf2", "door": "#f8d3cf",
              "outside": "#d9f0d3", "hot_tub": "#cdeff0", "office": "#e9dfd3",
              "garage": "#e3e3e3", "other": "#eeeeee"}
ARROW_COLOURS = {"welcome": "#2ca02c", "mingle": "#d62728", "action": "#ff7f0e"}

CELL_W, CELL_H, GAP = 180, 140, 10
MARGIN = 20
HEADER = 70


def _room_boxes(state: MeeplePartyState) -> dict[int, tuple[float, float, float, float]]:
    """Each room's box (x, y, width, height) in the picture."""
    house = state.setup.house
    boxes: dict[int, tuple[float, float, float, float]] = {}
    if house.grid is not None:
        cells: dict[int, list[tuple[int, int]]] = {}
        for r, row in enumerate(house.grid):
            for c, room in enumerate(row):
                if room >= 0:
                    cells.setdefault(room, []).append((r, c))
        for room, found in cells.items():
            rows = [r for r, _ in found]
            cols = [c for _, c in found]
            x = MARGIN + min(cols) * CELL_W
            y = HEADER + MARGIN + min(rows) * CELL_H
            w = (max(cols) - min(cols) + 1) * CELL_W - GAP
            h = (max(rows) - min(rows) + 1) * CELL_H - GAP
            boxes[room] = (x, y, w, h)
        return boxes
    import networkx as nx  # here, not at import: only pictures of pair-given houses need it

    positions = nx.spring_layout(house.graph, seed=7, iterations=200) \
        if house.size > 1 else {0: (0.0, 0.0)}
    xs = [float(p[0]) for p in positions.values()]
    ys = [float(p[1]) for p in positions.values()]
    columns = max(3, math.ceil(math.sqrt(house.size)) + 1)
    lines = max(2, math.ceil(house.size / columns) + 1)
    span_x = max(max(xs) - min(xs), 1e-9)
    span_y = max(max(ys) - min(ys), 1e-9)
    free = {(c, r) for c in range(columns) for r in range(lines)}
    # each room takes the free grid cell nearest to its spring-layout place (no overlaps)
    order = sorted(positions, key=lambda n: (float(positions[n][1]), float(positions[n][0])))
    for room in order:
        px = (float(positions[room][0]) - min(xs)) / span_x * (columns - 1)
        py = (float(positions[room][1]) - min(ys)) / span_y * (lines - 1)
        cell = min(free, key=lambda c: ((c[0] - px) ** 2 + (c[1] - py) ** 2, c))
        free.discard(cell)
        left = MARGIN + cell[0] * CELL_W
        top = HEADER + MARGIN + cell[1] * CELL_H
        boxes[int(room)] = (left, top, CELL_W - 3 * GAP, CELL_H - 3 * GAP)
    return boxes


def _figure(svg: Svg, x: float, y: float, piece: int, n: int) -> None:
    """One meeple figure (with ``×n`` when several)."""
    laid = LAID <= piece < ROOMMATE or LAID_ROOMMATE <= piece < CAT
    base = standing_of(piece) if laid else piece
    if base in (CAT, DOG):
        svg.circle(x + 9, y + 12, 9, fill="#c49c6c", stroke="#333")
        svg.text(x + 9, y + 16, "C" if base == CAT else "D", text_anchor="middle", font_size=11)
        return
    roommate = base >= ROOMMATE
    kind = base - ROOMMATE if roommate else base
    fill = COLOURS[kind]
    scale = 1.35 if roommate else 1.0
    stroke = "#000" if roommate else "#555"
    if laid:
        svg.add("ellipse", cx=x + 10, cy=y + 16, rx=11 * scale, ry=5 * scale, fill=fill,
                stroke=stroke)
        svg.circle(x + 10 + 12 * scale, y + 16, 3.5 * scale, fill=fill, stroke=stroke)
    else:
        svg.circle(x + 9, y + 5, 4.5 * scale, fill=fill, stroke=stroke)
        svg.rect(x + 9 - 6 * scale, y + 10, 12 * scale, 12 * scale, rx=3, fill=fill,
                 stroke=stroke, stroke_width=2 if roommate else 1)
    if n > 1:
        svg.text(x + 22 * scale, y + 22, f"×{n}", font_size=11)


def render_svg(state: MeeplePartyState, arrows: Sequence[Arrow] = (), caption: str = "") -> str:
    """The position as a standalone SVG document."""
    setup = state.setup
    house = setup.house
    boxes = _room_boxes(state)
    width = max(x + w for x, _, w, _ in boxes.values()) + MARGIN + 150
    height = max(y + h for _, y, _, h in boxes.values()) + MARGIN + (40 if caption else 10)
    svg = Svg(width, height, title="Meeple Party")
    svg.rect(0, 0, width, height, fill="#fffdf7")
    who = setup.players[state.active]
    drawn = f"; drew a {BAG_KINDS[state.drawn].replace('_', ' ')}" if state.drawn >= 0 else ""
    svg.text(MARGIN, 28, f"Meeple Party — {house.title or house.name}", font_size=17,
             font_weight="bold")
    progress = (f"{state.hot_tub_count()} in the Hot Tub" if setup.variant == "hot-tub" else
                f"clock {state.clock_time()}, {state.taken}/{setup.photos_to_win} photos")
    svg.text(MARGIN, 52, f"turn {state.turn}, {who} to play{drawn} ({PHASES[state.phase]}); "
             f"{progress}; stress "
             + ", ".join(f"{n} {s}" for n, s in zip(setup.players, state.stress, strict=True)),
             font_size=13)
    if house.grid is None:
        for a, b in sorted(house.edges):
            ax, ay, aw, ah = boxes[a]
            bx, by, bw, bh = boxes[b]
            svg.line(ax + aw / 2, ay + ah / 2, bx + bw / 2, by + bh / 2, stroke="#bbb",
                     stroke_width=6)
    for room, (x, y, w, h) in boxes.items():
        info = house.rooms[room]
        svg.rect(x, y, w, h, rx=8, fill=ROOM_FILLS.get(info.kind, "#eee"), stroke="#555")
        label = info.name + (" (no welcome)" if info.no_welcome else "")
        svg.text(x + 8, y + 18, label, font_size=13, font_weight="bold")
        content = state.board[room]
        px, py = x + 8.0, y + 28.0
        for piece in (*STANDING_PIECES, *LAID_PIECES):
            n = count(content, piece)
            if not n:
                continue
            if px > x + w - 40:
                px, py = x + 8, py + 32
            _figure(svg, px, py, piece, n)
            px += 40 if n > 1 else 28
    _legend(svg, width - 140, HEADER + MARGIN)
    for i, (src, dst, kind) in enumerate(arrows):
        dx, dy, dw, dh = boxes[dst]
        end = (dx + dw / 2, dy + dh / 2 + 10)
        if src < 0:
            start = (end[0] - 40, dy - 25)
        else:
            sx, sy, sw, sh = boxes[src]
            start = (sx + sw / 2, sy + sh / 2 + 10)
        # each arrow a little aside from the others, so that a pull and a mingle between the
        # same two rooms both show
        length = math.hypot(end[0] - start[0], end[1] - start[1]) or 1.0
        shift = 8.0 * (i - (len(arrows) - 1) / 2)
        ox, oy = -(end[1] - start[1]) / length * shift, (end[0] - start[0]) / length * shift
        svg.arrow(start[0] + ox, start[1] + oy, end[0] + ox, end[1] + oy,
                  color=ARROW_COLOURS.get(kind, "#d62728"))
    if caption:
        svg.text(MARGIN, height - 14, caption, font_size=13)
    return str(svg)


def _legend(svg: Svg, x: float, y: float) -> None:
    for i, key in enumerate((*PERSONALITY_KEYS, "white")):
        colour = COLOURS[i if i < 5 else WHITE]
        svg.circle(x + 6, y + 18 * i, 6, fill=colour, stroke="#555")
        svg.text(x + 18, y + 18 * i + 4, key.replace("_", " "), font_size=11)
    svg.text(x, y + 18 * 6 + 4, "big: roommate", font_size=11)
    svg.text(x, y + 18 * 7 + 4, "lying: laid down", font_size=11)

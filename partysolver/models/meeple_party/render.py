"""An SVG picture of a Meeple Party position: the house, the meeples in every room, the table.

A house given as a grid is drawn as its tiles (a long room spans its two cells); a house given
as adjacent pairs is laid out as a graph (rooms as tiles, walls as lines).  Meeples are coloured
figures (the rulebook's colours); roommates are the big ones, outlined in black and marked R,
guests the small ones; laid-down meeples lie on their side.  A legend says all of this.

Arrows (a suggested turn) join rooms: ``(src, dst, kind, piece, step)`` with ``kind`` one of
``"welcome"`` (``src`` is ``-1``: from the meeple just drawn, shown beside the house),
``"mingle"`` and ``"action"``; ``piece`` is the meeple moved (``-1``: not known) and ``step``
the number of the turn's action it belongs to, drawn on it when the turn has several.  An
arrow starts at the figure it moves (or where an earlier arrow of the turn left it) and ends
at the next free place in the room it goes to; of a few routes it takes one that crosses no
room name.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..svg import Svg, Swatch, text_width, wrap
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

Arrow = tuple[int, int, str] | tuple[int, int, str, int, int]
Point = tuple[float, float]
Box = tuple[float, float, float, float]

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
LEGEND_W = 190
"""The legend's column, right of the house."""
SLOT_W, SLOT_H = 28, 32
LEGEND_STEP = 24
"""A figure's place in a room (a figure with ``×n`` takes a wider one)."""


def room_boxes(state: MeeplePartyState) -> dict[int, Box]:
    """Each room's box (x, y, width, height) in the picture: the costly part of drawing a
    house given as pairs (its graph layout), which a render with a hint does before the hint's
    search (:func:`render_svg` takes them)."""
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
    """One meeple figure (with ``×n`` when several): a guest small, a roommate big, outlined in
    black and marked R; a laid-down one lying on its side."""
    laid = LAID <= piece < ROOMMATE or LAID_ROOMMATE <= piece < CAT
    base = standing_of(piece) if laid else piece
    if base in (CAT, DOG):
        svg.circle(x + 9, y + 12, 9, fill="#c49c6c", stroke="#333")
        svg.text(x + 9, y + 16, "C" if base == CAT else "D", text_anchor="middle", font_size=11)
        return
    roommate = base >= ROOMMATE
    kind = base - ROOMMATE if roommate else base
    fill = COLOURS[kind]
    scale = 1.35 if roommate else 0.9
    stroke = "#000" if roommate else "#666"
    width = 2.2 if roommate else 1
    ink = "#000" if kind in (3, WHITE) else "#fff"
    if laid:
        svg.add("ellipse", cx=x + 10, cy=y + 16, rx=11 * scale, ry=5 * scale, fill=fill,
                stroke=stroke, stroke_width=width)
        svg.circle(x + 10 + 12 * scale, y + 16, 3.5 * scale, fill=fill, stroke=stroke,
                   stroke_width=width)
        if roommate:
            svg.text(x + 10, y + 19, "R", font_size=8, font_weight="bold", fill=ink,
                     text_anchor="middle")
    else:
        svg.circle(x + 9, y + 5, 4.5 * scale, fill=fill, stroke=stroke, stroke_width=width)
        svg.rect(x + 9 - 6 * scale, y + 10, 12 * scale, 12 * scale, rx=3, fill=fill,
                 stroke=stroke, stroke_width=width)
        if roommate:
            svg.text(x + 9, y + 10 + 8.5 * scale, "R", font_size=10, font_weight="bold",
                     fill=ink, text_anchor="middle")
    if n > 1:
        svg.text(x + 22 * scale, y + 22, f"×{n}", font_size=11)


class _Places:
    """Where each room's figures are drawn, and the free places after them."""

    def __init__(self, boxes: dict[int, Box]) -> None:
        self.boxes = boxes
        self.figures: dict[int, list[tuple[int, Point]]] = {room: [] for room in boxes}
        self.cursor: dict[int, Point] = {room: (x + 8.0, y + 28.0)
                                         for room, (x, y, _, _) in boxes.items()}

    def take(self, room: int, wide: bool = False) -> Point:
        """The next free place in ``room`` (its top-left corner)."""
        x, y, w, _ = self.boxes[room]
        px, py = self.cursor[room]
        if px > x + w - 40:
            px, py = x + 8, py + SLOT_H
        self.cursor[room] = (px + (40 if wide else SLOT_W), py)
        return px, py


def render_svg(state: MeeplePartyState, arrows: Sequence[Arrow] = (), caption: str = "",
               boxes: dict[int, Box] | None = None) -> str:
    """The position as a standalone SVG document (``boxes``: :func:`room_boxes` of ``state``,
    when already found)."""
    setup = state.setup
    house = setup.house
    boxes = room_boxes(state) if boxes is None else boxes
    right = max(x + w for x, _, w, _ in boxes.values()) + MARGIN
    title = f"Meeple Party — {house.title or house.name}"
    who = setup.players[state.active]
    drawn = f"; drew a {BAG_KINDS[state.drawn].replace('_', ' ')}" if state.drawn >= 0 else ""
    progress = (f"{state.hot_tub_count()} in the Hot Tub" if setup.variant == "hot-tub" else
                f"clock {state.clock_time()}, {state.taken}/{setup.photos_to_win} photos")
    status = (f"turn {state.turn}, {who} to play{drawn} ({PHASES[state.phase]}); {progress}; "
              "stress " + ", ".join(f"{n} {s}" for n, s in
                                     zip(setup.players, state.stress, strict=True)))
    width = max(right + LEGEND_W, MARGIN + text_width(title, 17, True) + MARGIN, 560)
    statuses = wrap(status, width - 2 * MARGIN, 13)
    top = HEADER + 18 * (len(statuses) - 1)
    if top != HEADER:
        boxes = {room: (x, y + top - HEADER, w, h) for room, (x, y, w, h) in boxes.items()}
    captions = wrap(caption, width - 2 * MARGIN, 13) if caption else []
    legend = _legend_rows()
    house_bottom = max(y + h for _, y, _, h in boxes.values())
    legend_bottom = top + MARGIN + 70 + 20 + LEGEND_STEP * len(legend)
    height = max(house_bottom, legend_bottom) + MARGIN + 20 * len(captions) + 6
    svg = Svg(width, height, title="Meeple Party")
    svg.rect(0, 0, width, height, fill="#fffdf7")
    svg.text(MARGIN, 28, title, font_size=17, font_weight="bold")
    for i, line in enumerate(statuses):
        svg.text(MARGIN, 52 + 18 * i, line, font_size=13)
    if house.grid is None:
        for a, b in sorted(house.edges):
            ax, ay, aw, ah = boxes[a]
            bx, by, bw, bh = boxes[b]
            svg.line(ax + aw / 2, ay + ah / 2, bx + bw / 2, by + bh / 2, stroke="#bbb",
                     stroke_width=6)
    places = _Places(boxes)
    labels: list[Box] = [(MARGIN, 10, text_width(title, 17, True), 22)]
    labels += [(MARGIN, 40 + 18 * i, text_width(line, 13), 16) for i, line in enumerate(statuses)]
    for room, (x, y, w, h) in boxes.items():
        info = house.rooms[room]
        svg.rect(x, y, w, h, rx=8, fill=ROOM_FILLS.get(info.kind, "#eee"), stroke="#555")
        label = info.name + (" (no welcome)" if info.no_welcome else "")
        svg.text(x + 8, y + 18, label, font_size=13, font_weight="bold")
        labels.append((x + 6, y + 5, text_width(label, 13, True) + 4, 17))
        content = state.board[room]
        for piece in (*STANDING_PIECES, *LAID_PIECES):
            n = count(content, piece)
            if not n:
                continue
            px, py = places.take(room, wide=n > 1)
            _figure(svg, px, py, piece, n)
            # the figure's box, named for the arrows that start at it
            svg.rect(px - 2, py - 3, 24, 28, fill="none", stroke="none",
                     id=f"meeple-{room}-{len(places.figures[room])}")
            places.figures[room].append((piece, (px, py)))
    lx = right + 10
    hand = _drawn_box(svg, state, lx, top + MARGIN)
    bottom = svg.legend(lx, top + MARGIN + 70, legend, step=LEGEND_STEP)
    labels.append((lx - 4, top + MARGIN + 66, LEGEND_W, bottom - top - MARGIN - 66))
    _arrows(svg, state, arrows, places, hand, labels)
    for k, line in enumerate(captions):
        svg.text(MARGIN, height - 14 - 20 * (len(captions) - 1 - k), line, font_size=13)
    return str(svg)


def _drawn_box(svg: Svg, state: MeeplePartyState, x: float, y: float) -> Point | None:
    """The meeple just drawn from the bag (where a welcome's arrow starts), or nothing."""
    svg.rect(x, y, LEGEND_W - 30, 56, rx=8, fill="#f3efe6", stroke="#999", id="drawn")
    svg.text(x + 8, y + 16, "drawn from the bag", font_size=11, fill="#555")
    if state.drawn < 0:
        svg.text(x + 8, y + 40, "nothing yet", font_size=11, fill="#555")
        return None
    _figure(svg, x + 10, y + 24, state.drawn, 1)
    svg.text(x + 36, y + 42, BAG_KINDS[state.drawn].replace("_", " "), font_size=11)
    return x + 19, y + 38


def _arrows(svg: Svg, state: MeeplePartyState, arrows: Sequence[Arrow], places: _Places,
            hand: Point | None, labels: Sequence[Box]) -> None:
    steps = {arrow[4] for arrow in arrows if len(arrow) == 5}
    moved: dict[tuple[int, int], list[Point]] = {}
    """Where an earlier arrow of the turn left a meeple: (room, piece) -> places."""
    for i, arrow in enumerate(arrows):
        src, dst, kind = arrow[0], arrow[1], arrow[2]
        piece, step = (arrow[3], arrow[4]) if len(arrow) == 5 else (-1, i + 1)
        if dst not in places.boxes or (src >= 0 and src not in places.boxes):
            continue
        drop = places.take(dst)
        end = (drop[0] + 9, drop[1] + 14)
        start_id: str | None = "drawn"
        if src < 0:
            start = hand if hand is not None else (end[0], places.boxes[dst][1] - 20)
        else:
            start, start_id = _start(places, moved, src, piece)
        moved.setdefault((dst, piece), []).append(end)
        figures = [(x - 2, y - 3, 24, 28) for room in places.figures
                   for _, (x, y) in places.figures[room]]
        route = _clear_route(start, end, labels, figures)
        svg.route(route, ARROW_COLOURS.get(kind, "#d62728"),
                  number=step if len(steps) > 1 else None, start=start_id)


def _start(places: _Places, moved: dict[tuple[int, int], list[Point]], room: int,
           piece: int) -> tuple[Point, str | None]:
    """Where the meeple ``piece`` leaving ``room`` is: dropped there earlier this turn, else
    its figure (a figure of the same personality when the piece is not known exactly)."""
    if moved.get((room, piece)):
        return moved[(room, piece)].pop(), None
    figures = places.figures[room]
    for same in (lambda found: found == piece,
                 lambda found: piece >= 0 and _personality(found) == _personality(piece)):
        for k, (found, (x, y)) in enumerate(figures):
            if same(found):
                return (x + 9, y + 14), f"meeple-{room}-{k}"
    x, y, w, h = places.boxes[room]
    return (x + w / 2, y + h / 2), None


def _personality(piece: int) -> int:
    if piece < 0 or piece >= CAT:
        return piece
    base = standing_of(piece) if (LAID <= piece < ROOMMATE or piece >= LAID_ROOMMATE) else piece
    return base - ROOMMATE if base >= ROOMMATE else base


def _clear_route(start: Point, end: Point, labels: Sequence[Box], figures: Sequence[Box]
                 ) -> list[Point]:
    """Of a straight line, gentle curves to either side and two right-angle routes, the one
    that crosses no room name (a name counts ten figures) and fewest figures, then the
    shortest."""
    routes = [[start, end]]
    routes += [_curve(start, end, bend) for bend in (0.15, -0.15, 0.3, -0.3, 0.45, -0.45, 0.6, -0.6)]
    routes += [[start, (start[0], end[1]), end], [start, (end[0], start[1]), end]]

    def cost(route: list[Point]) -> tuple[int, float]:
        hits = 10 * sum(_crosses(route, box) for box in labels)
        hits += sum(_crosses(route, box) for box in figures
                    if not _inside(start, box) and not _inside(end, box))
        return hits, sum(math.dist(a, b) for a, b in zip(route, route[1:], strict=False))

    return min(routes, key=cost)


def _curve(start: Point, end: Point, bend: float, pieces: int = 16) -> list[Point]:
    """A quadratic curve from ``start`` to ``end``, its middle pushed aside by ``bend`` times
    its length (positive: to the left going forward)."""
    (ax, ay), (bx, by) = start, end
    cx = (ax + bx) / 2 - (by - ay) * bend
    cy = (ay + by) / 2 + (bx - ax) * bend
    return [((1 - t) ** 2 * ax + 2 * (1 - t) * t * cx + t * t * bx,
             (1 - t) ** 2 * ay + 2 * (1 - t) * t * cy + t * t * by)
            for t in (k / pieces for k in range(pieces + 1))]


def _inside(point: Point, box: Box) -> bool:
    x, y, w, h = box
    return x <= point[0] <= x + w and y <= point[1] <= y + h


def _crosses(route: Sequence[Point], box: Box) -> bool:
    """Whether a segment of ``route`` meets ``box`` (its edges included)."""
    return any(_meets(a, b, box) for a, b in zip(route, route[1:], strict=False))


def _meets(a: Point, b: Point, box: Box) -> bool:
    """Whether the segment from ``a`` to ``b`` meets ``box``: the part of the segment inside
    each of the box's four half-planes, narrowed in turn (Liang and Barsky's clipping), is
    not empty.  Exact, where sampling the segment every 2 px took most of a picture's time
    (0.05-0.1 s for a turn's arrows)."""
    (ax, ay), (bx, by) = a, b
    x, y, w, h = box
    dx, dy = bx - ax, by - ay
    low, high = 0.0, 1.0
    for p, q in ((-dx, ax - x), (dx, x + w - ax), (-dy, ay - y), (dy, y + h - ay)):
        if p == 0:
            if q < 0:
                return False  # parallel to this edge and outside it
            continue
        t = q / p
        if p < 0:
            low = max(low, t)
        else:
            high = min(high, t)
        if low > high:
            return False
    return True


def _meeple(piece: int) -> Swatch:
    def draw(svg: Svg, x: float, y: float) -> None:
        _figure(svg, x, y - 6, piece, 1)
    return draw


def _lying(svg: Svg, x: float, y: float) -> None:
    svg.add("ellipse", cx=x + 7, cy=y + 9, rx=7, ry=3.5, fill=COLOURS[4], stroke="#666")
    svg.circle(x + 16, y + 9, 2.5, fill=COLOURS[4], stroke="#666")


def _dot(colour: str) -> Swatch:
    def draw(svg: Svg, x: float, y: float) -> None:
        svg.circle(x + 8, y + 8, 6, fill=colour, stroke="#555")
    return draw


def _line(colour: str) -> Swatch:
    def draw(svg: Svg, x: float, y: float) -> None:
        svg.line(x, y + 8, x + 16, y + 8, stroke=colour, stroke_width=3)
    return draw


def _legend_rows() -> list[tuple[Swatch, str]]:
    rows: list[tuple[Swatch, str]] = [
        (_dot(COLOURS[i if i < 5 else WHITE]), key.replace("_", " "))
        for i, key in enumerate((*PERSONALITY_KEYS, "white"))]
    rows += [(_meeple(0), "small: a guest"),
             (_meeple(ROOMMATE + 2), "big, R: a roommate"),
             (_lying, "lying: laid down"),
             (_meeple(CAT), "C, D: the cat, the dog")]
    rows += [(_line(ARROW_COLOURS["welcome"]), "arrow: welcome"),
             (_line(ARROW_COLOURS["mingle"]), "arrow: mingle"),
             (_line(ARROW_COLOURS["action"]), "arrow: pull, push, move")]
    return rows

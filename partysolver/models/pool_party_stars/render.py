"""An SVG picture of a Pool Party Stars log: the seats, VIPs, the waiting line, the hand, and
a grid of what is known of every player's rule.

The grid is handed in as probabilities (``grid[player][rule]``, from the deduction engine;
a row of ``None`` is drawn hidden): models never compute it themselves.  An arrow (for a suggested move) joins two *spots*:
``("seat", p)``, ``"centre"`` (the waiting line), or ``("rule", p, r)`` (a cell of the grid).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..svg import Svg, Swatch, text_width, wrap
from .game import ATTRIBUTES, SPECIES, Guest, format_event
from .position import GameLog

Spot = str | tuple[int, ...] | tuple[str, int] | tuple[str, int, int]

SPECIES_COLOURS = ("#e6a157", "#8e6bbf", "#7f8c8d", "#4caf50")
CELL = 42
LEFT = 130
GRID_TOP = 300
CHIP_W = 118
ARROW = "#d62728"


def _guest_chip(svg: Svg, x: float, y: float, guest: Guest, id_: str | None = None) -> None:
    svg.rect(x, y, CHIP_W, 22, rx=6, fill=SPECIES_COLOURS[guest.species], opacity=0.85,
             stroke="#333", id=id_)
    svg.text(x + CHIP_W / 2, y + 15, str(guest), text_anchor="middle", font_size=8.5,
             fill="#111")


def _seat_width(names: Sequence[str]) -> float:
    return max([140.0] + [text_width(name + " (you)", 14, True) + 18 for name in names])


def render_svg(log: GameLog, grid: Sequence[Sequence[float] | None] | None = None,
               arrows: Sequence[tuple[Spot, Spot]] = (), caption: str = "") -> str:
    """The log as a standalone SVG document."""
    names = log.names
    n = len(names)
    record = log.public()
    seat_w = _seat_width(names)
    clues = [] if log.complete else [f"{i + 1}. {format_event(e, names)}"
                                     for i, e in enumerate(log.events)]
    clue_width = max([0.0] + [text_width(line, 11) for line in clues]) + 40
    grid_left = max(LEFT, 30 + max(text_width(name, 12) for name in names))
    cards = max(min(len(record.waiting), 8) + 1 if log.complete else 0,
                len((log.hands[log.seat] or ()) if log.seat is not None else ()))
    width = max(grid_left + CELL * 12 + 40, (seat_w + 10) * n + 30, clue_width,
                20 + (CHIP_W + 6) * cards + 20)
    rows = n if grid is not None else 0
    captions = wrap(caption, width - 40, 13) if caption else []
    grid_top = max(GRID_TOP, 200 + 15 * len(clues))
    legend_top = grid_top + CELL * rows + 16 if grid is not None else grid_top - 40
    height = legend_top + LEGEND_HEIGHT + 20 * len(captions) + 16
    svg = Svg(width, height, title="Pool Party Stars")
    svg.rect(0, 0, width, height, fill="#eefaff")
    centres: dict[Spot, tuple[float, float]] = {}

    # The seats, clockwise from the first player, with VIPs and (known) rules.
    known = log.known_rules()
    for p, name in enumerate(names):
        x = 20 + (seat_w + 10) * p
        mine = p == log.seat
        svg.rect(x, 14, seat_w, 92, rx=10, fill="#fff" if not mine else "#fff6d6",
                 stroke="#2b6cb0" if mine else "#999", id=f"seat-{p}")
        svg.text(x + 8, 32, name + (" (you)" if mine else ""), font_size=14, font_weight="bold")
        vips = len(record.vips[p]) if log.complete else "?"
        svg.text(x + 8, 52, f"VIPs: {vips}", font_size=12)
        hand = record.hand_sizes[p] if log.complete else "?"
        svg.text(x + 8, 70, f"guests in hand: {hand}", font_size=12)
        if p in known:
            rules = known[p]
            svg.text(x + 8, 92, "Forbidden " + rules[-1].label, font_size=11, fill="#b22222")
        centres[("seat", p)] = (x + seat_w / 2, 106)

    # The waiting line, front first; for an excerpt (a puzzle), its clues.
    if log.complete:
        svg.text(20, 136, f"Waiting line ({len(record.waiting)})", font_size=13,
                 font_weight="bold")
        for k, guest in enumerate(record.waiting[:8]):
            _guest_chip(svg, 20 + (CHIP_W + 6) * k, 144, guest)
        shown = min(len(record.waiting), 8)
        if len(record.waiting) > 8:
            svg.text(20 + (CHIP_W + 6) * 8, 160, f"+{len(record.waiting) - 8}", font_size=12)
            shown += 1
        centres["centre"] = (20 + (CHIP_W + 6) * shown + CHIP_W / 2, 166)
    else:
        title = "Clues (an excerpt of a game)"
        if log.puzzle is not None:
            title += f": what is {names[log.puzzle.target]}'s rule?"
        svg.text(20, 136, title, font_size=13, font_weight="bold")
        for k, line in enumerate(clues):
            svg.text(20, 156 + 15 * k, line, font_size=11)

    # The seat's hand.
    if log.seat is not None and log.hands[log.seat] is not None:
        hand_cards = log.hands[log.seat] or ()
        svg.text(20, 196, "Your hand", font_size=13, font_weight="bold")
        for k, guest in enumerate(hand_cards):
            _guest_chip(svg, 20 + (CHIP_W + 6) * k, 204, guest, id_=f"hand-{k}")
            # an arrow leaves a card right of its middle: clear of the title above
            centres[("hand", k)] = (20 + (CHIP_W + 6) * k + CHIP_W - 20, 204)

    if grid is not None:
        _grid(svg, names, grid, centres, grid_top, grid_left)
    for start, end in arrows:
        _arrow(svg, centres, start, end, seat_w)
    _legend(svg, 20, legend_top, grid is not None)
    for k, line in enumerate(captions):
        svg.text(20, height - 14 - 20 * (len(captions) - 1 - k), line, font_size=13,
                 fill=ARROW)
    return str(svg)


def _arrow(svg: Svg, centres: dict[Spot, tuple[float, float]], start: Spot, end: Spot,
           seat_w: float) -> None:
    """A guess: from the guesser's seat to the guessed player's seat, along the lane under the
    seats, and the guessed rule ringed in the grid; a proposal: from the card in hand up to
    the end of the waiting line, along the lane between the two rows."""
    if start not in centres:
        return
    x1, y1 = centres[start]
    if isinstance(end, tuple) and end[0] == "rule" and len(end) == 3:
        target = ("seat", end[1])
        if ("seat", end[1]) in centres and target != start:
            x2, _ = centres[target]
            lane = y1 + 12
            svg.route([(x1, y1 - 4), (x1, lane), (x2, lane), (x2, y1 + 2)], ARROW,
                      start=f"seat-{start[1]}")
        if end in centres:
            cx, cy = centres[end]
            svg.rect(cx - CELL / 2 - 1, cy - CELL / 2 - 1, CELL, CELL, fill="none",
                     stroke=ARROW, stroke_width=3, rx=3, class_="target")
        return
    if end == "centre" and end in centres and isinstance(start, tuple) and start[0] == "hand":
        x2, y2 = centres[end]
        lane = 178.0
        svg.route([(x1, y1 + 4), (x1, lane), (x2, lane), (x2, y2 + 2)], ARROW,
                  start=f"hand-{start[1]}")
        svg.rect(x2 - CHIP_W / 2, 144, CHIP_W, 22, rx=6, fill="none", stroke=ARROW,
                 stroke_dasharray="4,3")


def _chip_swatch(species: int) -> Swatch:
    def draw(svg: Svg, x: float, y: float) -> None:
        svg.rect(x, y + 2, 16, 12, rx=3, fill=SPECIES_COLOURS[species], opacity=0.85,
                 stroke="#333")
    return draw


def _cell_swatch(value: float) -> Swatch:
    def draw(svg: Svg, x: float, y: float) -> None:
        shade = int(255 - 200 * value)
        svg.rect(x, y, 16, 16, fill=f"rgb({shade},{shade},255)" if value else "#ddd",
                 stroke="#fff")
    return draw


def _ring(svg: Svg, x: float, y: float) -> None:
    svg.rect(x + 1, y + 1, 14, 14, fill="none", stroke=ARROW, stroke_width=2.5, rx=2)


LEGEND_ROWS = 4
LEGEND_HEIGHT = 20 + 18 * LEGEND_ROWS + 8


def _legend(svg: Svg, x: float, y: float, with_grid: bool) -> None:
    """Guest colours (their species), what a grid cell says, the hint's marks."""
    species = [(_chip_swatch(int(a)), f"guest card of a{'n' if a.label[0] in 'AEIOU' else ''} "
                f"{a.label}") for a in SPECIES]
    marks: list[tuple[Swatch, str]] = [
        (_cell_swatch(1.0), "rule certain (1)"),
        (_cell_swatch(0.4), "rule possible (its chance)"),
        (_cell_swatch(0.0), "rule ruled out"),
    ] if with_grid else []
    marks.append((_ring, "the hint: a guess, or the card to play"))
    with svg.group("legend"):
        svg.text(x, y + 12, "Legend" + (": a row of the grid is a player's secret rule, "
                                       "Forbidden <column>" if with_grid else ""),
                 font_size=12, font_weight="bold")
        for i, (swatch, words) in enumerate(species):
            swatch(svg, x, y + 20 + 18 * i)
            svg.text(x + 22, y + 32 + 18 * i, words, font_size=11)
        for i, (swatch, words) in enumerate(marks):
            swatch(svg, x + 240, y + 20 + 18 * i)
            svg.text(x + 262, y + 32 + 18 * i, words, font_size=11)


def _grid(svg: Svg, names: Sequence[str], grid: Sequence[Sequence[float] | None],
          centres: dict[Spot, tuple[float, float]], top: float, left: float) -> None:
    svg.text(20, top - 34, "What is known of each rule (probability)", font_size=13,
             font_weight="bold")
    for r, attribute in enumerate(ATTRIBUTES):
        svg.text(left + CELL * r + CELL / 2, top - 8, attribute.label, font_size=8.5,
                 text_anchor="middle")
    for p, name in enumerate(names):
        y = top + CELL * p
        svg.text(20, y + CELL / 2 + 4, name, font_size=12)
        row = grid[p]
        if row is None:  # hidden (a puzzle's answer)
            svg.rect(left, y, CELL * 12 - 2, CELL - 2, fill="#f4f4f4", stroke="#bbb")
            svg.text(left + CELL * 6, y + CELL / 2 + 4, "? -- the puzzle (render --hint shows it)",
                     font_size=12, text_anchor="middle")
            continue
        for r in range(len(ATTRIBUTES)):
            value = row[r]
            shade = int(255 - 200 * value)
            svg.rect(left + CELL * r, y, CELL - 2, CELL - 2,
                     fill=f"rgb({shade},{shade},255)" if value else "#ddd", stroke="#fff")
            if value:
                svg.text(left + CELL * r + CELL / 2 - 1, y + CELL / 2 + 3,
                         "1" if value == 1 else f"{value:.2f}"[1:], font_size=9,
                         text_anchor="middle", fill="#fff" if value > 0.6 else "#000")
            centres[("rule", p, r)] = (left + CELL * r + CELL / 2, y + CELL / 2)

"""An SVG picture of a Pool Party Stars log: the seats, VIPs, the waiting line, the hand, and
a grid of what is known of every player's rule.

The grid is handed in as probabilities (``grid[player][rule]``, from the deduction engine;
a row of ``None`` is drawn hidden): models never compute it themselves.  An arrow (for a suggested move) joins two *spots*:
``("seat", p)``, ``"centre"`` (the waiting line), or ``("rule", p, r)`` (a cell of the grid).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..svg import Svg
from .game import ATTRIBUTES, Guest, format_event
from .position import GameLog

Spot = str | tuple[int, ...] | tuple[str, int] | tuple[str, int, int]

SPECIES_COLOURS = ("#e6a157", "#8e6bbf", "#7f8c8d", "#4caf50")
CELL = 42
LEFT = 130
GRID_TOP = 300


def _guest_chip(svg: Svg, x: float, y: float, guest: Guest) -> None:
    svg.rect(x, y, 118, 22, rx=6, fill=SPECIES_COLOURS[guest.species], opacity=0.85,
             stroke="#333")
    svg.text(x + 59, y + 15, str(guest), text_anchor="middle", font_size=8.5, fill="#111")


def render_svg(log: GameLog, grid: Sequence[Sequence[float] | None] | None = None,
               arrows: Sequence[tuple[Spot, Spot]] = (), caption: str = "") -> str:
    """The log as a standalone SVG document."""
    names = log.names
    n = len(names)
    record = log.public()
    width = max(LEFT + CELL * 12 + 40, 150 * n + 40)
    rows = n if grid is not None else 0
    captions = _wrap(caption, int(width / 7.2)) if caption else []
    clues = [] if log.complete else [f"{i + 1}. {format_event(e, names)}"
                                     for i, e in enumerate(log.events)]
    grid_top = max(GRID_TOP, 200 + 15 * len(clues))
    height = grid_top + 20 + CELL * rows + 20 * len(captions)
    svg = Svg(width, height, title="Pool Party Stars")
    svg.rect(0, 0, width, height, fill="#eefaff")
    centres: dict[Spot, tuple[float, float]] = {}

    # The seats, clockwise from the first player, with VIPs and (known) rules.
    known = log.known_rules()
    for p, name in enumerate(names):
        x = 20 + 150 * p
        mine = p == log.seat
        svg.rect(x, 14, 140, 92, rx=10, fill="#fff" if not mine else "#fff6d6",
                 stroke="#2b6cb0" if mine else "#999")
        svg.text(x + 8, 32, name + (" (you)" if mine else ""), font_size=14, font_weight="bold")
        vips = len(record.vips[p]) if log.complete else "?"
        svg.text(x + 8, 52, f"VIPs: {vips}", font_size=12)
        hand = record.hand_sizes[p] if log.complete else "?"
        svg.text(x + 8, 70, f"guests in hand: {hand}", font_size=12)
        if p in known:
            rules = known[p]
            svg.text(x + 8, 92, "Forbidden " + rules[-1].label, font_size=11, fill="#b22222")
        centres[("seat", p)] = (x + 70, 106)

    # The waiting line, front first; for an excerpt (a puzzle), its clues.
    if log.complete:
        svg.text(20, 136, f"Waiting line ({len(record.waiting)})", font_size=13,
                 font_weight="bold")
        for k, guest in enumerate(record.waiting[:8]):
            _guest_chip(svg, 20 + 124 * k, 144, guest)
        if len(record.waiting) > 8:
            svg.text(20 + 124 * 8, 160, f"+{len(record.waiting) - 8}", font_size=12)
    else:
        title = "Clues (an excerpt of a game)"
        if log.puzzle is not None:
            title += f": what is {names[log.puzzle.target]}'s rule?"
        svg.text(20, 136, title, font_size=13, font_weight="bold")
        for k, line in enumerate(clues):
            svg.text(20, 156 + 15 * k, line, font_size=11)
    centres["centre"] = (width / 2, 170)

    # The seat's hand.
    if log.seat is not None and log.hands[log.seat] is not None:
        hand_cards = log.hands[log.seat] or ()
        svg.text(20, 196, "Your hand", font_size=13, font_weight="bold")
        for k, guest in enumerate(hand_cards):
            _guest_chip(svg, 20 + 124 * k, 204, guest)
            centres[("hand", k)] = (79 + 124 * k, 215)

    if grid is not None:
        _grid(svg, names, grid, centres, grid_top)
    for start, end in arrows:
        if start in centres and end in centres:
            (x1, y1), (x2, y2) = centres[start], centres[end]
            svg.arrow(x1, y1, x2, y2)
    for k, line in enumerate(captions):
        svg.text(20, height - 8 - 20 * (len(captions) - 1 - k), line, font_size=13,
                 fill="#d62728")
    return str(svg)


def _wrap(text: str, width: int) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return [*lines, line] if line else lines


def _grid(svg: Svg, names: Sequence[str], grid: Sequence[Sequence[float] | None],
          centres: dict[Spot, tuple[float, float]], top: float) -> None:
    svg.text(20, top - 34, "What is known of each rule (probability)", font_size=13,
             font_weight="bold")
    for r, attribute in enumerate(ATTRIBUTES):
        svg.text(LEFT + CELL * r + CELL / 2, top - 8, attribute.label, font_size=8.5,
                 text_anchor="middle")
    for p, name in enumerate(names):
        y = top + CELL * p
        svg.text(20, y + CELL / 2 + 4, name, font_size=12)
        row = grid[p]
        if row is None:  # hidden (a puzzle's answer)
            svg.rect(LEFT, y, CELL * 12 - 2, CELL - 2, fill="#f4f4f4", stroke="#bbb")
            svg.text(LEFT + CELL * 6, y + CELL / 2 + 4, "? -- the puzzle (render --hint shows it)",
                     font_size=12, text_anchor="middle")
            continue
        for r in range(len(ATTRIBUTES)):
            value = row[r]
            shade = int(255 - 200 * value)
            svg.rect(LEFT + CELL * r, y, CELL - 2, CELL - 2,
                     fill=f"rgb({shade},{shade},255)" if value else "#ddd", stroke="#fff")
            if value:
                svg.text(LEFT + CELL * r + CELL / 2 - 1, y + CELL / 2 + 3,
                         "1" if value == 1 else f"{value:.2f}"[1:], font_size=9,
                         text_anchor="middle", fill="#fff" if value > 0.6 else "#000")
            centres[("rule", p, r)] = (LEFT + CELL * r + CELL / 2, y + CELL / 2)

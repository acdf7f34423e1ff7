"""An SVG picture of a Party-Time position: the round track with its coloured squares and the
bottle, then one row per player (strips, tokens, hand when known), a legend, and an arrow for a
play: it leaves the bottle and follows the track, inside the ring, to where the bottle stops."""

from __future__ import annotations

import math

from ..svg import Svg, Swatch, text_width, wrap
from .game import GAIN, PLAIN, RETURN, STAR, STRIP_NAMES, STRIPS, Play, count_text
from .position import Position

SQUARE_COLOURS = {STAR: "#f2c14e", GAIN: "#1e7b34", RETURN: "#c0392b", PLAIN: "#a8d5a2"}
BOTTLE = "#5b2c6f"
STRIP = "#8e44ad"
TOKEN = "#e67e22"
SAFE, CROSSING = "#1f77b4", "#d62728"
WIDTH = 760
TRACK = 330  # the track's box (square)
ROW = 34
LEFT = TRACK + 40
"""Where the players' column starts."""


def _radius() -> float:
    return TRACK / 2 - 30


def _point(index: float, length: int, radius: float) -> tuple[float, float]:
    """The point at ``radius`` from the centre in the direction of square ``index`` (the star
    at the top, squares clockwise)."""
    angle = 2 * math.pi * index / length - math.pi / 2
    return TRACK / 2 + 10 + radius * math.cos(angle), TRACK / 2 + 40 + radius * math.sin(angle)


def _centre(index: int, length: int) -> tuple[float, float]:
    return _point(index, length, _radius())


def render_svg(position: Position, play: Play | None = None, caption: str = "") -> str:
    """The position as a standalone SVG document; ``play`` (of the player to act) is drawn as
    an arrow from the bottle along the track to where it stops."""
    rules = position.rules
    n = len(position.players)
    name_width = max([90.0] + [text_width(name + " (you)", 14, True) + 12
                               for name in position.players])
    hands = ["hand: " + (count_text(h) if h is not None else "hidden") for h in position.hands]
    width = max(WIDTH, LEFT + name_width + 130 + max(text_width(h, 12) for h in hands) + 20)
    legend_top = 90 + ROW * n + 30
    captions = wrap(caption, width - 40, 13) if caption else []
    height = max(TRACK + 50, legend_top + LEGEND_HEIGHT) + 20 * len(captions) + 16
    svg = Svg(width, height, title="Party-Time")
    svg.rect(0, 0, width, height, fill="#fffdf7")
    mover = position.players[position.turn]
    svg.text(20, 26, f"Party-Time — {mover} to play", font_size=17, font_weight="bold")
    size = min(26.0, 2 * math.pi * _radius() / rules.length * 0.8)
    _track(svg, position, size)
    if play is not None and play.moves > 0:
        _play_arrow(svg, position, play, size)
    _players(svg, position, name_width)
    _legend(svg, LEFT, legend_top)
    for k, line in enumerate(captions):
        svg.text(20, height - 14 - 20 * (len(captions) - 1 - k), line, font_size=13)
    return str(svg)


def _track(svg: Svg, position: Position, size: float) -> None:
    rules = position.rules
    for index in range(rules.length):
        x, y = _centre(index, rules.length)
        symbol = rules.square(index)
        svg.rect(x - size / 2, y - size / 2, size, size, fill=SQUARE_COLOURS[symbol],
                 stroke="#333", rx=4)
        label = "★" if symbol == STAR else str(index)
        svg.text(x, y + 4, label, font_size=10, text_anchor="middle",
                 fill="#fff" if symbol in (GAIN, RETURN) else "#222")
    bx, by = _centre(position.square, rules.length)
    svg.circle(bx, by, size / 2 + 4, fill="none", stroke=BOTTLE, stroke_width=4, id="bottle")
    cx, cy = _point(0, 1, 0)
    svg.text(cx, cy + 5, "bottle " + (
        "on the star" if position.square == 0 else f"on {position.square}"),
        font_size=14, text_anchor="middle")
    svg.text(cx, cy + 24, f"{rules.length - position.square} to the star",
             font_size=12, text_anchor="middle", fill="#555")


def _play_arrow(svg: Svg, position: Position, play: Play, size: float) -> None:
    """From the bottle's inner side, along the inside of the ring, to the square it stops on
    (red when it crosses the star: a strip lost)."""
    length = position.rules.length
    start, moves = position.bottle, play.moves
    inner = _radius() - size / 2 - 8
    steps = max(8, 6 * moves)
    points = [_point(start + moves * k / steps, length, inner) for k in range(steps + 1)]
    points.append(_point(start + moves, length, _radius() - size / 2 - 3))
    crossed = moves > length - start
    svg.route(points, CROSSING if crossed else SAFE, start="bottle")


def _players(svg: Svg, position: Position, name_width: float) -> None:
    svg.text(LEFT, 60, "players (" + ("clockwise" if position.direction == 1 else
                                      "counter-clockwise") + ")", font_size=15,
             font_weight="bold")
    strips_x = LEFT + name_width
    tokens_x = strips_x + 16 * STRIPS + 14
    hand_x = tokens_x + 60
    for seat, name in enumerate(position.players):
        y = 90 + ROW * seat
        if seat == position.turn:
            svg.rect(LEFT - 8, y - 18, svg.width - LEFT - 4, ROW - 4, fill="#fff1c1", rx=6)
        svg.text(LEFT, y, name + (" (you)" if seat == position.me and not position.is_full()
                                  else ""), font_size=14, font_weight="bold")
        for strip in range(STRIPS):
            kept = strip < position.strips[seat]
            svg.rect(strips_x + 16 * strip, y - 12, 12, 14, fill=STRIP if kept else "#eee",
                     stroke="#555")
        svg.add("title", f"{position.strips[seat]} strips left "
                f"({', '.join(STRIP_NAMES[:position.strips[seat]]) or 'underwear'})")
        for token in range(position.tokens[seat]):
            svg.circle(tokens_x + 5 + 13 * token, y - 5, 5, fill=TOKEN)
        hand = position.hands[seat]
        svg.text(hand_x, y, "hand: " + (count_text(hand) if hand is not None else "hidden"),
                 font_size=12, fill="#333")
    y = 90 + ROW * len(position.players) - 6
    svg.text(LEFT, y, f"played: {count_text(position.played)}", font_size=12)
    svg.text(LEFT, y + 18, f"pile: {position.pile_size()} cards", font_size=12)


def _square(colour: str, label: str = "", ink: str = "#222") -> Swatch:
    def draw(svg: Svg, x: float, y: float) -> None:
        svg.rect(x, y, 16, 16, fill=colour, stroke="#333", rx=3)
        if label:
            svg.text(x + 8, y + 12, label, font_size=10, text_anchor="middle", fill=ink)
    return draw


def _strips(svg: Svg, x: float, y: float) -> None:
    svg.rect(x, y + 1, 7, 14, fill=STRIP, stroke="#555")
    svg.rect(x + 9, y + 1, 7, 14, fill="#eee", stroke="#555")


def _token(svg: Svg, x: float, y: float) -> None:
    svg.circle(x + 8, y + 8, 5, fill=TOKEN)


def _bottle(svg: Svg, x: float, y: float) -> None:
    svg.circle(x + 8, y + 8, 7, fill="none", stroke=BOTTLE, stroke_width=3)


def _arrows(svg: Svg, x: float, y: float) -> None:
    svg.line(x, y + 4, x + 16, y + 4, stroke=SAFE, stroke_width=3)
    svg.line(x, y + 12, x + 16, y + 12, stroke=CROSSING, stroke_width=3)


LEGEND: list[tuple[Swatch, str]] = [
    (_square(SQUARE_COLOURS[STAR], "★"), "the star: who crosses it loses a strip"),
    (_square(SQUARE_COLOURS[GAIN], "4", "#fff"), "dark green: the mover gains a token"),
    (_square(SQUARE_COLOURS[RETURN], "5", "#fff"), "red: the mover returns a token"),
    (_square(SQUARE_COLOURS[PLAIN], "6"), "light green: nothing (numbers: squares)"),
    (_bottle, "the bottle"),
    (_arrows, "the suggested play (red: it crosses the star)"),
    (_strips, "strips kept / lost (none left: game over)"),
    (_token, "a token: each returned takes 1 off a card"),
]
LEGEND_HEIGHT = 20 + 18 * len(LEGEND)


def _legend(svg: Svg, x: float, y: float) -> None:
    svg.legend(x, y, LEGEND)

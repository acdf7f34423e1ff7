"""An SVG picture of a Party-Time position: the round track with its coloured squares and the
bottle, then one row per player (strips, tokens, hand when known), and an arrow for a play."""

from __future__ import annotations

import math

from ..svg import Svg
from .game import GAIN, PLAIN, RETURN, STAR, STRIP_NAMES, STRIPS, Play, count_text
from .position import Position

SQUARE_COLOURS = {STAR: "#f2c14e", GAIN: "#1e7b34", RETURN: "#c0392b", PLAIN: "#a8d5a2"}
WIDTH = 760
TRACK = 330  # the track's box (square)
ROW = 34


def _centre(index: int, length: int) -> tuple[float, float]:
    """The centre of square ``index``: the star at the top, squares clockwise."""
    angle = 2 * math.pi * index / length - math.pi / 2
    radius = TRACK / 2 - 30
    return TRACK / 2 + 10 + radius * math.cos(angle), TRACK / 2 + 10 + radius * math.sin(angle)


def render_svg(position: Position, play: Play | None = None, caption: str = "") -> str:
    """The position as a standalone SVG document; ``play`` (of the player to act) is drawn as
    an arrow from the bottle to where it stops."""
    rules = position.rules
    n = len(position.players)
    height = max(TRACK + 30, 70 + ROW * n + 60) + (30 if caption else 0)
    svg = Svg(WIDTH, height, title="Party-Time")
    svg.rect(0, 0, WIDTH, height, fill="#fffdf7")
    size = min(26.0, 2 * math.pi * (TRACK / 2 - 30) / rules.length * 0.8)
    for index in range(rules.length):
        x, y = _centre(index, rules.length)
        symbol = rules.square(index)
        svg.rect(x - size / 2, y - size / 2, size, size, fill=SQUARE_COLOURS[symbol],
                 stroke="#333", rx=4)
        label = "★" if symbol == STAR else str(index)
        svg.text(x, y + 4, label, font_size=10, text_anchor="middle",
                 fill="#fff" if symbol in (GAIN, RETURN) else "#222")
    bx, by = _centre(position.square, rules.length)
    svg.circle(bx, by, size / 2 + 4, fill="none", stroke="#5b2c6f", stroke_width=4)
    svg.text(TRACK / 2 + 10, TRACK / 2 + 5, "bottle " + (
        "on the star" if position.square == 0 else f"on {position.square}"),
        font_size=14, text_anchor="middle")
    svg.text(TRACK / 2 + 10, TRACK / 2 + 24, f"{rules.length - position.square} to the star",
             font_size=12, text_anchor="middle", fill="#555")
    if play is not None and play.moves > 0:
        target = (position.bottle + play.moves) % rules.length
        tx, ty = _centre(target, rules.length)
        crossed = play.moves > rules.length - position.bottle
        svg.arrow(bx, by, tx, ty, color="#d62728" if crossed else "#1f77b4")
    _players(svg, position)
    if caption:
        svg.text(20, height - 12, caption, font_size=13)
    return str(svg)


def _players(svg: Svg, position: Position) -> None:
    left = TRACK + 40
    svg.text(left, 30, "players (" + ("clockwise" if position.direction == 1 else
                                      "counter-clockwise") + ")", font_size=16,
             font_weight="bold")
    for seat, name in enumerate(position.players):
        y = 60 + ROW * seat
        if seat == position.turn:
            svg.rect(left - 8, y - 18, WIDTH - left - 4, ROW - 4, fill="#fff1c1", rx=6)
        svg.text(left, y, name + (" (you)" if seat == position.me and not position.is_full()
                                  else ""), font_size=14, font_weight="bold")
        for strip in range(STRIPS):
            kept = strip < position.strips[seat]
            svg.rect(left + 90 + 16 * strip, y - 12, 12, 14, fill="#8e44ad" if kept else "#eee",
                     stroke="#555")
        svg.add("title", f"{position.strips[seat]} strips left "
                f"({', '.join(STRIP_NAMES[:position.strips[seat]]) or 'underwear'})")
        for token in range(position.tokens[seat]):
            svg.circle(left + 170 + 14 * token, y - 5, 5, fill="#e67e22")
        hand = position.hands[seat]
        svg.text(left + 220, y, "hand: " + (count_text(hand) if hand is not None else "hidden"),
                 font_size=12, fill="#333")
    y = 60 + ROW * len(position.players) + 10
    svg.text(left, y, f"played: {count_text(position.played)}", font_size=12)
    svg.text(left, y + 18, f"pile: {position.pile_size()} cards", font_size=12)

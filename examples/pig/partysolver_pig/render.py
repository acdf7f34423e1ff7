"""The SVG picture of a Pig position (``partysolver.models.svg``: escaped, measured text).

One row per player: the name, a track from 0 to the goal with the banked score filled in and,
for the player whose turn it is, the turn's total as a lighter stretch after it; the die at the
right of that row (its face when it has just landed is not kept: the position after a face is
the next decision).  A suggested move is an arrow (``data-start`` names where it starts): *hold*
from the turn's total into the banked score, *roll* from the player's name to the die.  A legend
says what every mark means; the caption says the hint in words.
"""

from __future__ import annotations

from collections.abc import Sequence

from partysolver.models.svg import Svg, Swatch, legend_width, wrap

from .game import Hold, Move
from .state import PigState

WIDTH = 640
LEFT, TRACK = 110, 400
ROW, TOP = 46, 56
BANKED, TURN, EMPTY = "#1f77b4", "#9ecae1", "#eeeeee"


def _swatch(color: str) -> Swatch:
    def draw(svg: Svg, x: float, y: float) -> None:
        svg.rect(x, y + 2, 16, 12, fill=color, stroke="#555", stroke_width=0.5)
    return draw


def _die(svg: Svg, x: float, y: float) -> None:
    svg.rect(x, y, 28, 28, rx=5, fill="#fff", stroke="#333", stroke_width=2, id="die")
    for dx, dy in ((8, 8), (20, 20), (14, 14)):
        svg.circle(x + dx, y + dy, 2.5, fill="#333")


def _die_swatch(svg: Svg, x: float, y: float) -> None:
    svg.rect(x, y, 16, 16, rx=3, fill="#fff", stroke="#333", stroke_width=1.5)


def render_svg(state: PigState, suggested: Sequence[Move] = (), caption: str = "") -> str:
    """The picture of ``state``; ``suggested`` (the hint's move) drawn as an arrow."""
    rows = state.num_players
    scale = TRACK / state.goal
    legend_rows: list[tuple[Swatch, str]] = [(_swatch(BANKED), "banked score"), (_swatch(TURN), "this turn's total"),
                   (_swatch(EMPTY), f"still to go to the goal ({state.goal})"),
                   (_die_swatch, "the die (rolling: chance comes next)")]
    if suggested:
        legend_rows.append((_arrow_swatch, "the suggested move"))
    caption_lines = wrap(caption, WIDTH - 32, 13) if caption else []
    legend_top = TOP + rows * ROW + 12
    height = legend_top + 20 + 18 * len(legend_rows) + 16 + 18 * len(caption_lines)
    width = max(WIDTH, 32 + legend_width(legend_rows))
    title = f"Pig to {state.goal}: " + ", ".join(
        f"{n} {s}" for n, s in zip(state.names, state.scores, strict=True))
    svg = Svg(width, height, title)
    svg.text(16, 30, title, font_size=16, font_weight="bold")
    winner = state.winner()
    for seat, (name, score) in enumerate(zip(state.names, state.scores, strict=True)):
        y = TOP + seat * ROW
        mine = seat == state.player and winner is None
        with svg.group(f"player-{seat}", class_="player"):
            label = f"{name} (wins)" if seat == winner else name
            svg.text(16, y + 20, label, font_size=14, font_weight="bold" if mine else "normal",
                     id=f"name-{seat}")
            svg.rect(LEFT, y + 6, TRACK, 20, fill=EMPTY, stroke="#999", stroke_width=0.5)
            banked = min(score, state.goal) * scale
            if banked:
                svg.rect(LEFT, y + 6, banked, 20, fill=BANKED, id=f"banked-{seat}")
            if mine and state.turn_total:
                stretch = min(state.turn_total, state.goal - score) * scale
                svg.rect(LEFT + banked, y + 6, stretch, 20, fill=TURN, id="turn-total")
            total = f" +{state.turn_total}" if mine and state.turn_total else ""
            svg.text(LEFT + TRACK + 10, y + 21, f"{score}{total}", font_size=13)
            if mine:
                _die(svg, WIDTH - 60, y + 2)
                if state.rolling:
                    svg.text(WIDTH - 28, y + 44, "rolling", font_size=10, text_anchor="end")
    for move in suggested:
        _arrow(svg, state, move, scale)
    bottom = svg.legend(16, legend_top, legend_rows)
    for number, line in enumerate(caption_lines):
        svg.text(16, bottom + 20 + 18 * number, line, font_size=13, class_="caption")
    return str(svg)


def _arrow(svg: Svg, state: PigState, move: Move, scale: float) -> None:
    y = TOP + state.player * ROW + 16
    if isinstance(move, Hold):
        start = LEFT + (state.scores[state.player] + state.turn_total / 2) * scale
        end = LEFT + state.scores[state.player] * scale
        svg.route([(start, y + 22), (start, y + 30), (max(LEFT + 4, end - 4), y + 30),
                   (max(LEFT + 4, end - 4), y + 12)], start="turn-total")
    else:  # from what the roll puts at stake (the turn's total, or the banked score) to the die
        at_stake = state.scores[state.player] + state.turn_total
        start = LEFT + max(4.0, min(at_stake, state.goal) * scale - 4)
        named = "turn-total" if state.turn_total else \
            f"banked-{state.player}" if state.scores[state.player] else f"name-{state.player}"
        svg.route([(start, y - 10), (start, y - 22), (WIDTH - 74, y - 22), (WIDTH - 74, y),
                   (WIDTH - 63, y)], start=named)


def _arrow_swatch(svg: Svg, x: float, y: float) -> None:
    svg.line(x, y + 8, x + 16, y + 8, stroke="#d62728", stroke_width=3)

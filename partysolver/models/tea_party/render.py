"""An SVG picture of a Tea Party position: the bag, the hero in hand, every teacup and stomach,
a legend of the heroes, and on request the suggested turn as numbered arrows.

Arrows (for a suggested turn) join two *zones*: ``"bag"``, ``"hand"``, ``"out"``,
``("cup", seat)`` or ``("stomach", seat)``; a Rogue's steal starts at the stolen hero,
``("chip", seat, hero)`` in that seat's teacup.  They run along lanes kept free for them: the
gutter between the teacups and the stomachs (the hand sits at its top), the gutter left of the
teacups, and the gaps between the seats' rows, so that they cross no chip and no words.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..svg import Svg, text_width, wrap
from .game import HEROES, Cup, Hero, Squish
from .state import TeaPartyState, points, unpack

Zone = str | tuple[str, int] | tuple[str, int, int]
ZoneArrow = tuple[Zone, Zone]
StepArrow = tuple[Zone, Zone, int]
"""An arrow of a turn's ``step`` (1, 2, ...: the number drawn on it)."""

COLOURS = {
    Hero.FIGHTER: "#8c8c8c", Hero.CLERIC: "#f2d16b", Hero.ROGUE: "#4d4d4d",
    Hero.WIZARD: "#6a51a3", Hero.RANGER: "#2ca25f", Hero.BARD: "#e6550d",
    Hero.KING: "#c51b8a", Hero.QUEEN: "#dd3497",
}
ABILITY_TEXT = {
    Hero.FIGHTER: "drink your teacup", Hero.CLERIC: "draw again",
    Hero.ROGUE: "steal a hero from a teacup", Hero.WIZARD: "pour a teacup into the bag",
    Hero.RANGER: "no squish; throw up 2 when drunk", Hero.BARD: "swap teacups",
    Hero.KING: "copies any ability", Hero.QUEEN: "copies any ability",
}

ROW = 70
CHIP = 13
STEP = 2 * CHIP + 30
"""Chips are this far apart: eight hero types fit a 460-pixel box."""
BOX = 460
GUTTER = 110
"""The lane between the teacups and the stomachs; the hand sits at its top."""
LEFT_GUTTER = 24
ARROW = "#d62728"
WIDTH = 10 + 110 + LEFT_GUTTER + BOX + GUTTER + BOX + 20
"""The width with the shortest name column (long names widen the picture)."""


def _initials(hero: Hero) -> str:
    """Two letters, unique among the eight heroes (Ro for the Rogue, Ra for the Ranger)."""
    return hero.label[:2]


def _chip(svg: Svg, x: float, y: float, hero: Hero, stroke_width: float = 1,
          id_: str | None = None) -> None:
    svg.circle(x, y, CHIP, fill=COLOURS[hero], stroke="#222", stroke_width=stroke_width,
               id=id_)
    ink = "#222" if hero in (Hero.CLERIC, Hero.FIGHTER) else "#fff"
    svg.text(x, y + 4, _initials(hero), text_anchor="middle", font_size=11, fill=ink,
             font_weight="bold")


class _Layout:
    """Where everything is: the columns (names, teacups, stomachs) and the rows (seats)."""

    def __init__(self, state: TeaPartyState) -> None:
        names = [state.name(seat) + " ▶" for seat in range(state.num_players)]
        self.name_width = max([110.0] + [text_width(n, 15, True) + 16 for n in names])
        self.cup_x = 10 + self.name_width + LEFT_GUTTER
        self.stomach_x = self.cup_x + BOX + GUTTER
        self.width = self.stomach_x + BOX + 20
        self.hand = (self.cup_x + BOX + GUTTER / 2, 84.0)
        self.bar_y = 62.0  # the bag's and the out box's top
        self.top = 122.0  # the first seat's row
        self.chips: dict[Zone, tuple[float, float]] = {}

    def row(self, seat: int) -> float:
        return self.top + ROW * seat

    def middle(self, seat: int) -> float:
        return self.row(seat) + 31

    def gutter(self, offset: float) -> float:
        return self.cup_x + BOX + GUTTER / 2 + offset


def _chips(svg: Svg, layout: _Layout, x: float, y: float, counts: Sequence[int],
           zone: str, seat: int = -1) -> None:
    """One chip per hero type present: its initials and how many."""
    for hero in HEROES:
        n = counts[hero]
        if not n:
            continue
        id_ = f"{zone}-{seat}-{hero.name.lower()}" if seat >= 0 else f"{zone}-{hero.name.lower()}"
        _chip(svg, x + CHIP, y, hero, id_=id_)
        layout.chips[(zone, seat, int(hero))] = (x + CHIP, y)
        svg.text(x + 2 * CHIP + 3, y + 5, f"×{n}", font_size=13)
        x += STEP


def render_svg(state: TeaPartyState, arrows: Sequence[ZoneArrow | StepArrow] = (),
               caption: str = "") -> str:
    """The position as a standalone SVG document; ``arrows`` (the suggested turn, in order)
    carry the number of their step when the turn has several (:func:`turn_arrows`)."""
    layout = _Layout(state)
    seats = state.num_players
    width = layout.width
    legend_top = layout.row(seats) + 6
    legend_rows = _legend_rows()
    columns = 4
    legend_height = 20 + 18 * ((len(legend_rows) + columns - 1) // columns) + 12
    captions = wrap(caption, width - 40, 13) if caption else []
    height = legend_top + legend_height + 20 * len(captions) + 10
    svg = Svg(width, height, title="Epic Monster Tea Party")
    svg.rect(0, 0, width, height, fill="#fffaf0")
    to_play = "" if state.is_terminal() else f" — {state.name(state.player)} to play"
    svg.text(20, 26, f"Epic Monster Tea Party{to_play}", font_size=17, font_weight="bold")
    _top_bar(svg, state, layout)
    _rows(svg, state, layout)
    _draw_legend(svg, legend_rows, 20, legend_top, (width - 40) / columns, columns)
    seen: dict[ZoneArrow, int] = {}
    pairs = [(arrow[0], arrow[1]) for arrow in arrows]
    steps = {arrow[2] for arrow in arrows if len(arrow) == 3}
    for k, arrow in enumerate(arrows):
        start, end = pairs[k]
        # the same move twice in a turn (squish, steal, squish again): side by side
        again = seen[(start, end)] = seen.get((start, end), -1) + 1
        same = pairs.count((start, end))
        points = _route(layout, start, end, k, len(arrows), 18.0 * (again - (same - 1) / 2))
        if points:
            number = arrow[2] if len(arrow) == 3 and len(steps) > 1 else None
            svg.route(points, ARROW, number=number, start=_start_id(start),
                      both=_is_swap(start, end))
    for k, line in enumerate(captions):
        svg.text(20, height - 14 - 20 * (len(captions) - 1 - k), line, font_size=13,
                 fill=ARROW)
    return str(svg)


def _top_bar(svg: Svg, state: TeaPartyState, layout: _Layout) -> None:
    bag = unpack(state.bag)
    y = layout.bar_y
    svg.text(layout.cup_x, y - 8, f"Bag: {sum(bag)} heroes", font_size=14, font_weight="bold")
    svg.rect(layout.cup_x, y, BOX, 44, fill="#e6dccd", rx=10, id="zone-bag")
    _chips(svg, layout, layout.cup_x + 5, y + 22, bag, "bag")
    hx, hy = layout.hand
    svg.text(hx, y - 8, "in hand", font_size=12, text_anchor="middle")
    if state.held_hero is not None:
        _chip(svg, hx, hy, state.held_hero, stroke_width=2.5, id_="zone-hand")
    else:
        svg.circle(hx, hy, CHIP, fill="none", stroke="#aaa", stroke_dasharray="3,3",
                   id="zone-hand")
    out = state.out_of_game()
    svg.text(layout.stomach_x, y - 8, f"Out of the game: {sum(out)}", font_size=13)
    svg.rect(layout.stomach_x, y, BOX, 44, fill="#e4e4e4", rx=10, id="zone-out")
    _chips(svg, layout, layout.stomach_x + 5, y + 22, out, "out")


def _rows(svg: Svg, state: TeaPartyState, layout: _Layout) -> None:
    for seat in range(state.num_players):
        y = layout.row(seat)
        active = seat == state.player and not state.is_terminal()
        svg.rect(10, y, layout.width - 20, ROW - 8, fill="#fff" if not active else "#eef6ff",
                 stroke="#2b6cb0" if active else "#bbb", rx=8)
        label = state.name(seat) + (" ▶" if active else "")
        svg.text(20, y + 36, label, font_size=15, font_weight="bold")
        cup, stomach = state.cups[seat], state.stomachs[seat]
        svg.rect(layout.cup_x, y + 8, BOX, ROW - 24, fill="#fdf2e9", stroke="#d9a066", rx=16,
                 id=f"zone-cup-{seat}")
        _chips(svg, layout, layout.cup_x + 5, y + 31, unpack(cup), "cup", seat)
        svg.text(layout.cup_x + BOX - 8, y + 50, f"teacup {points(cup)} pts", font_size=11,
                 text_anchor="end", fill="#555")
        svg.rect(layout.stomach_x, y + 8, BOX, ROW - 24, fill="#eef7ee", stroke="#79a779",
                 rx=16, id=f"zone-stomach-{seat}")
        _chips(svg, layout, layout.stomach_x + 5, y + 31, unpack(stomach), "stomach", seat)
        svg.text(layout.stomach_x + BOX - 8, y + 50, f"stomach {points(stomach)} pts", font_size=11,
                 text_anchor="end", fill="#555")


def _legend_rows() -> list[tuple[object, str]]:
    rows: list[tuple[object, str]] = []
    for hero in HEROES:
        rows.append((hero, f"{hero.label} ({hero.points}): {ABILITY_TEXT[hero]}"))
    return rows


def _draw_legend(svg: Svg, rows: Sequence[tuple[object, str]], x: float, y: float,
                 column: float, columns: int) -> None:
    """The heroes (initials, name, points, ability) and what the marks mean, in columns."""
    with svg.group("legend"):
        svg.text(x, y + 12, "Legend: hero (points): squish it to ... · ▶ to play · teacup: not "
                 "yet safe · stomach: the score · red arrows: the suggested turn, in order",
                 font_size=12, font_weight="bold")
        for i, (hero, words) in enumerate(rows):
            cx = x + column * (i % columns)
            cy = y + 20 + 18 * (i // columns)
            assert isinstance(hero, Hero)
            svg.circle(cx + 7, cy + 8, 7, fill=COLOURS[hero], stroke="#222")
            svg.text(cx + 7, cy + 11, _initials(hero), font_size=7, text_anchor="middle",
                     fill="#222" if hero in (Hero.CLERIC, Hero.FIGHTER) else "#fff",
                     font_weight="bold")
            svg.text(cx + 19, cy + 12, words, font_size=11)


def _start_id(zone: Zone) -> str:
    if isinstance(zone, str):
        return f"zone-{zone}"
    if len(zone) == 3:  # ("chip", seat, hero)
        return f"cup-{zone[1]}-{Hero(zone[2]).name.lower()}"
    return f"zone-{zone[0]}-{zone[1]}"


def _is_swap(start: Zone, end: Zone) -> bool:
    return (isinstance(start, tuple) and isinstance(end, tuple) and start[0] == end[0] == "cup"
            and start != end)


def _route(layout: _Layout, start: Zone, end: Zone, k: int, n: int, repeat: float
           ) -> list[tuple[float, float]]:
    """The lanes the ``k``-th of ``n`` arrows, from ``start`` to ``end``, follows (empty: not
    drawn); ``repeat`` moves it aside from the same arrow drawn earlier in the turn."""
    hx, hy = layout.hand
    # arrows side by side in a shared lane, all within the hand's chip where they meet it
    spread = max(-CHIP + 4, min(CHIP - 4, 8.0 * (k - (n - 1) / 2)))
    cup_right = layout.cup_x + BOX
    bag_mid = layout.bar_y + 22
    if start == "hand" and end == "out":
        return [(hx + CHIP - 4, hy + repeat), (layout.stomach_x - 2, hy + repeat)]
    if start == "bag" and end == "hand":
        return [(cup_right - 2, bag_mid), (hx - CHIP - 2, hy)]
    if start == "hand" and isinstance(end, tuple) and end[0] == "cup":
        seat = end[1]
        lane = layout.gutter(spread)
        return [(lane, hy + CHIP - 2), (lane, layout.middle(seat)),
                (cup_right + 2, layout.middle(seat))]
    if isinstance(start, tuple) and len(start) == 3 and end == "hand":
        _, seat, hero = start
        where = layout.chips.get(("cup", seat, hero))
        if where is None:
            return []
        cx, cy = where
        lane_y = layout.row(seat) - 4
        lane = layout.gutter(spread)
        return [(cx, cy - CHIP + 4), (cx, lane_y), (lane, lane_y), (lane, hy + CHIP + 2)]
    if isinstance(start, tuple) and start[0] == "cup" and end == "bag":
        mid = layout.middle(start[1])
        lane = layout.cup_x - LEFT_GUTTER / 2
        return [(layout.cup_x + 1, mid), (lane, mid), (lane, bag_mid), (layout.cup_x - 2, bag_mid)]
    if isinstance(start, tuple) and isinstance(end, tuple) and start[0] == "cup":
        if end[0] == "stomach" and end[1] == start[1]:
            mid = layout.middle(start[1])
            return [(cup_right - 4, mid), (layout.stomach_x - 2, mid)]
        if end[0] == "cup":
            lane = layout.gutter(spread)
            a, b = layout.middle(start[1]), layout.middle(end[1])
            return [(cup_right - 4, a + 6), (lane, a + 6), (lane, b - 6), (cup_right - 4, b - 6)]
    return []


def move_arrows(state: TeaPartyState, move: object) -> list[ZoneArrow]:
    """Where heroes go when ``move`` is played: the arrows that draw it, in order."""
    me = state.player
    if isinstance(move, Cup):
        return [("hand", ("cup", me))]
    if not isinstance(move, Squish):
        return []
    arrows: list[ZoneArrow] = [("hand", "out")]
    ability, target = move.ability, move.target
    if ability == Hero.FIGHTER:
        arrows.append((("cup", me), ("stomach", me)))
    elif ability == Hero.CLERIC:
        arrows.append(("bag", "hand"))
    elif target is not None and ability == Hero.ROGUE and move.take is not None:
        arrows.append((("chip", target, int(move.take)), "hand"))
    elif target is not None and ability == Hero.WIZARD:
        arrows.append((("cup", target), "bag"))
    elif target is not None and ability == Hero.BARD:
        arrows.append((("cup", me), ("cup", target)))
    return arrows


def turn_arrows(state: TeaPartyState, moves: Sequence[object]) -> list[StepArrow]:
    """The arrows of a whole turn, ``moves`` played one after the other from ``state`` (a
    Rogue's steal, then what becomes of the stolen hero), each with its move's number."""
    arrows: list[StepArrow] = []
    for step, move in enumerate(moves, 1):
        arrows += [(start, end, step) for start, end in move_arrows(state, move)]
        state = state.apply(move)
    return arrows


__all__ = ["COLOURS", "WIDTH", "move_arrows", "render_svg", "turn_arrows"]

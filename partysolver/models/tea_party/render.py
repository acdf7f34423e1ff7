"""An SVG picture of a Tea Party position: the bag, the hero in hand, every teacup and stomach.

Arrows (for a suggested move) join two *zones*: ``"bag"``, ``"hand"``, ``"out"``,
``("cup", seat)`` or ``("stomach", seat)``.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..svg import Svg
from .game import HEROES, Cup, Hero, Squish
from .state import TeaPartyState, points, unpack

Zone = str | tuple[str, int]

COLOURS = {
    Hero.FIGHTER: "#8c8c8c", Hero.CLERIC: "#f2d16b", Hero.ROGUE: "#4d4d4d",
    Hero.WIZARD: "#6a51a3", Hero.RANGER: "#2ca25f", Hero.BARD: "#e6550d",
    Hero.KING: "#c51b8a", Hero.QUEEN: "#dd3497",
}

WIDTH = 1080
ROW = 70
CHIP = 13
STEP = 2 * CHIP + 30
"""Chips are this far apart: eight hero types fit a 460-pixel box."""
BOX = 460


def _initials(hero: Hero) -> str:
    """Two letters, unique among the eight heroes (Ro for the Rogue, Ra for the Ranger)."""
    return hero.label[:2]


def _chips(svg: Svg, x: float, y: float, counts: Sequence[int]) -> None:
    """One chip per hero type present: its initials and how many."""
    for hero in HEROES:
        n = counts[hero]
        if not n:
            continue
        _chip(svg, x + CHIP, y, hero)
        svg.text(x + 2 * CHIP + 3, y + 5, f"×{n}", font_size=13)
        x += STEP


def _chip(svg: Svg, x: float, y: float, hero: Hero, stroke_width: float = 1) -> None:
    svg.circle(x, y, CHIP, fill=COLOURS[hero], stroke="#222", stroke_width=stroke_width)
    ink = "#222" if hero in (Hero.CLERIC, Hero.FIGHTER) else "#fff"
    svg.text(x, y + 4, _initials(hero), text_anchor="middle", font_size=11, fill=ink,
             font_weight="bold")


def render_svg(state: TeaPartyState, arrows: Sequence[tuple[Zone, Zone]] = (),
               caption: str = "") -> str:
    """The position as a standalone SVG document."""
    seats = state.num_players
    height = 150 + ROW * seats + (30 if caption else 0)
    svg = Svg(WIDTH, height, title="Epic Monster Tea Party")
    svg.rect(0, 0, WIDTH, height, fill="#fffaf0")
    centres: dict[Zone, tuple[float, float]] = {}

    bag = unpack(state.bag)
    svg.text(20, 30, f"Bag: {sum(bag)} heroes", font_size=16, font_weight="bold")
    svg.rect(15, 40, BOX, 44, fill="#333", rx=10, opacity=0.1)
    _chips(svg, 20, 62, bag)
    centres["bag"] = (15 + BOX / 2, 62)

    if state.held_hero is not None:
        svg.text(540, 30, f"In {state.name(state.player)}'s hand", font_size=13,
                 text_anchor="middle")
        _chip(svg, 540, 62, state.held_hero, stroke_width=2)
        centres["hand"] = (540, 62)

    out = state.out_of_game()
    svg.text(605, 30, f"Out of the game: {sum(out)}", font_size=13)
    svg.rect(600, 40, BOX, 44, fill="#999", rx=10, opacity=0.1)
    _chips(svg, 605, 62, out)
    centres["out"] = (600 + BOX / 2, 62)

    top = 110
    svg.text(130, top - 8, "teacup", font_size=12, fill="#555")
    svg.text(605, top - 8, "stomach", font_size=12, fill="#555")
    for seat in range(seats):
        y = top + ROW * seat
        active = seat == state.player and not state.is_terminal()
        svg.rect(10, y, WIDTH - 20, ROW - 8, fill="#fff" if not active else "#eef6ff",
                 stroke="#2b6cb0" if active else "#bbb", rx=8)
        label = state.name(seat) + (" ▶" if active else "")
        svg.text(20, y + 36, label, font_size=15, font_weight="bold")
        cup, stomach = state.cups[seat], state.stomachs[seat]
        svg.rect(125, y + 8, BOX, ROW - 24, fill="#fdf2e9", stroke="#d9a066", rx=16)
        _chips(svg, 130, y + 31, unpack(cup))
        svg.text(125 + BOX - 5, y + 54, f"{points(cup)} pts", font_size=11,
                 text_anchor="end", fill="#555")
        svg.rect(600, y + 8, BOX, ROW - 24, fill="#eef7ee", stroke="#79a779", rx=16)
        _chips(svg, 605, y + 31, unpack(stomach))
        svg.text(600 + BOX - 5, y + 54, f"{points(stomach)} pts", font_size=11,
                 text_anchor="end", fill="#555")
        centres[("cup", seat)] = (125 + BOX / 2, y + 31)
        centres[("stomach", seat)] = (600 + BOX / 2, y + 31)

    for start, end in arrows:
        if start in centres and end in centres:
            (x1, y1), (x2, y2) = centres[start], centres[end]
            svg.arrow(x1, y1, x2, y2)
    if caption:
        svg.text(20, height - 14, caption, font_size=13, fill="#d62728")
    return str(svg)


def move_arrows(state: TeaPartyState, move: object) -> list[tuple[Zone, Zone]]:
    """Where heroes go when ``move`` is played: the arrows that draw it."""
    me = state.player
    if isinstance(move, Cup):
        return [("hand", ("cup", me))]
    if not isinstance(move, Squish):
        return []
    arrows: list[tuple[Zone, Zone]] = [("hand", "out")]
    ability, target = move.ability, move.target
    if ability == Hero.FIGHTER:
        arrows.append((("cup", me), ("stomach", me)))
    elif ability == Hero.CLERIC:
        arrows.append(("bag", "hand"))
    elif target is not None and ability == Hero.ROGUE:
        arrows.append((("cup", target), "hand"))
    elif target is not None and ability == Hero.WIZARD:
        arrows.append((("cup", target), "bag"))
    elif target is not None and ability == Hero.BARD:
        arrows += [(("cup", me), ("cup", target)), (("cup", target), ("cup", me))]
    return arrows

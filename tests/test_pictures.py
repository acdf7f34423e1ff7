"""Every game's picture: well-formed SVG with a legend, arrows that start at the piece they move,
every user-given text escaped, PNG output of the picture's size, and one-line errors for a
file name of another kind."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from partysolver.app import base as app
from partysolver.app import catalog, pictures
from partysolver.cli.main import cli
from partysolver.models.svg import Svg, clean, text_width, wrap

SVG = "{http://www.w3.org/2000/svg}"
EXAMPLES = {  # an example per game, and a player name in it to replace
    "tea-party": ("default", "Green"),
    "party-time": ("near-the-star", "Ben"),
    "pool-party-stars": ("default", "Ben"),
    "meeple-party": ("default", "Ben"),
    "meeple-land": ("default", "Orange"),
}
HOSTILE = ("<script>alert(1)</script>", "O'Neil\"&<b>x</b>")


def run(*args: str, expect: int = 0) -> Result:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == expect, result.output
    return result


def render(game: str, data: Any, hint: bool = False) -> str:
    commands = app.commands(game, "render")
    extra = app.game_options(commands, "render", {}, {"hint": hint})
    return commands.render(app.document(data, f"{game}.json"), app.Options(extra=extra))


def example(game: str, name: str | None = None) -> dict[str, Any]:
    return dict(catalog.open_document(f"{game}:{name or EXAMPLES[game][0]}").data)


def parsed(svg: str) -> ElementTree.Element:
    root = ElementTree.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return root


def by_id(root: ElementTree.Element) -> dict[str, ElementTree.Element]:
    return {e.get("id", ""): e for e in root.iter() if e.get("id")}


def box(element: ElementTree.Element) -> tuple[float, float, float, float]:
    """The bounding box of a rect or a circle: x, y, width, height."""
    if element.tag == f"{SVG}circle":
        cx, cy, r = (float(element.get(k, 0)) for k in ("cx", "cy", "r"))
        return cx - r, cy - r, 2 * r, 2 * r
    return tuple(float(element.get(k, 0)) for k in ("x", "y", "width", "height"))  # type: ignore[return-value]


def arrows(root: ElementTree.Element) -> list[tuple[tuple[float, float], str | None]]:
    """Every arrow's first point and the element it says it starts at."""
    found = []
    for path in root.iter(f"{SVG}path"):
        if path.get("class") == "arrow":
            numbers = [float(n) for n in re.findall(r"-?[\d.]+", path.get("d", ""))]
            found.append(((numbers[0], numbers[1]), path.get("data-start")))
    return found


def assert_arrows_start_at_their_pieces(svg: str, expected: int) -> None:
    root = parsed(svg)
    drawn = arrows(root)
    assert len(drawn) >= expected
    ids = by_id(root)
    for (x, y), start in drawn:
        if start is None:  # a meeple where an earlier arrow of the turn left it
            continue
        left, top, width, height = box(ids[start])
        assert left - 1 <= x <= left + width + 1 and top - 1 <= y <= top + height + 1, start


# -- every game's picture ---------------------------------------------------------------------


@pytest.mark.parametrize("game", sorted(EXAMPLES))
def test_every_game_draws_well_formed_svg_with_a_legend(game: str) -> None:
    root = parsed(render(game, example(game)))
    assert "legend" in by_id(root)
    legend = by_id(root)["legend"]
    assert legend.tag == f"{SVG}g" and len(list(legend.iter(f"{SVG}text"))) >= 4
    width = float(root.get("width", 0))
    for text in root.iter(f"{SVG}text"):  # nothing starts beyond the right edge
        assert float(text.get("x", 0)) < width


@pytest.mark.parametrize("game", sorted(EXAMPLES))
@pytest.mark.parametrize("name", HOSTILE)
def test_every_user_given_text_is_escaped(game: str, name: str) -> None:
    old = EXAMPLES[game][1]

    def swapped(value: Any) -> Any:
        if isinstance(value, str):
            return re.sub(rf"\b{old}\b", name.replace("\\", "\\\\"), value)
        if isinstance(value, list):
            return [swapped(v) for v in value]
        if isinstance(value, dict):
            return {swapped(k): swapped(v) for k, v in value.items()}
        return value

    svg = render(game, swapped(example(game)))
    root = parsed(svg)  # still well-formed XML
    assert not any(e.tag.endswith(("script", "b")) for e in root.iter())
    assert any(name in (e.text or "") for e in root.iter())  # drawn as written
    assert "<script>" not in svg and "<b>" not in svg


def test_tile_codes_and_puzzle_names_are_escaped_too() -> None:
    data = example("meeple-land", "puzzle")
    hostile = '<i>"CAFE"</i>'
    data["pool"] = [hostile if code == "CAFE" else code for code in data["pool"]]
    data["tile"] = [dict(tile, id=hostile) for tile in data["tile"]]
    data["name"] = "<b>Corner</b> 'cafe' & co"
    root = parsed(render("meeple-land", data))
    texts = [e.text or "" for e in root.iter()]
    assert hostile in texts and "<b>Corner</b> 'cafe' & co" in texts
    assert not any(e.tag.endswith(("i", "b")) for e in root.iter())


def test_text_xml_cannot_hold_is_left_out_and_attributes_are_quoted() -> None:
    svg = Svg(100, 40, title="a\x00b\x1b")
    svg.text(1, 2, "x\x07<y>", fill='"red" onload="alert(1)"')
    root = parsed(str(svg))
    text = next(root.iter(f"{SVG}text"))
    assert text.text == "x<y>" and text.get("fill") == '"red" onload="alert(1)"'
    assert next(root.iter(f"{SVG}title")).text == "ab"
    assert clean("ok\tto\nkeep") == "ok\tto\nkeep"


def test_long_text_is_wrapped_to_the_width_it_is_given() -> None:
    words = "the quick brown fox jumps over the lazy dog " * 8
    lines = wrap(words, 300, 13)
    assert len(lines) > 3 and " ".join(lines) == words.strip()
    assert all(text_width(line, 13) <= 300 for line in lines)
    assert wrap("x" * 200, 100, 13)[0].endswith("…")


# -- arrows -----------------------------------------------------------------------------------


def test_tea_party_draws_the_whole_turn_a_steal_and_what_becomes_of_the_stolen_hero() -> None:
    svg = render("tea-party", example("tea-party"), hint=True)
    root = parsed(svg)
    numbers = [t.text for t in root.iter(f"{SVG}text") if t.text in {"1", "2", "3"}]
    assert {"1", "2"} <= set(numbers)  # the squish and the follow-up, numbered in order
    assert "1. squish the King as a Rogue" in svg and "2. " in svg
    assert_arrows_start_at_their_pieces(svg, 4)
    starts = [start for _, start in arrows(root)]
    assert "cup-1-rogue" in starts  # the steal leaves from the stolen hero in Green's teacup


def test_party_time_and_pool_party_stars_arrows_start_at_their_pieces() -> None:
    from partysolver.models.party_time.game import Card, Play
    from partysolver.models.party_time.position import load_position
    from partysolver.models.party_time.render import render_svg

    position = load_position(example("party-time"), "near-the-star")
    svg = render_svg(position, Play(Card.parse("3")), "hint: play the 3")
    assert_arrows_start_at_their_pieces(svg, 1)
    assert_arrows_start_at_their_pieces(render("pool-party-stars", example("pool-party-stars"),
                                               hint=True), 1)


def test_meeple_land_draws_the_suggested_tile_from_the_market_through_free_cells() -> None:
    svg = render("meeple-land", example("meeple-land"), hint=True)
    root = parsed(svg)
    assert_arrows_start_at_their_pieces(svg, 1)
    (start, source), = arrows(root)
    assert source is not None and source.startswith("market-")
    legend = " ".join(t.text or "" for t in by_id(root)["legend"].iter(f"{SVG}text"))
    assert "column" in legend and "row" in legend
    code = source.removeprefix("market-")
    assert code in legend  # the tile code is explained in the legend


def test_meeple_party_arrows_start_at_the_meeple_they_move_and_are_numbered() -> None:
    from partysolver.models.meeple_party import load_position
    from partysolver.models.meeple_party.game import LAID_PIECES, STANDING_PIECES
    from partysolver.models.meeple_party.render import render_svg

    position = load_position(example("meeple-party"), "default")
    state = position.to_state("default")
    occupied = next(room for room in range(len(state.board)) if state.board[room])
    piece = next(p for p in (*STANDING_PIECES, *LAID_PIECES)  # the room's first figure
                 if _count(state.board[occupied], p))
    other = next(room for room in range(len(state.board)) if room != occupied)
    svg = render_svg(state, [(-1, other, "welcome", state.drawn, 1),
                             (occupied, other, "mingle", piece, 2),
                             (other, occupied, "action", piece, 2)], "hint")
    root = parsed(svg)
    drawn = arrows(root)
    assert [start for _, start in drawn][:2] == ["drawn", f"meeple-{occupied}-0"]
    assert drawn[2][1] is None  # the meeple moved on from where the mingle left it
    assert_arrows_start_at_their_pieces(svg, 3)
    badges = [c for c in root.iter(f"{SVG}circle") if c.get("class") == "badge"]
    numbers = [t.text for t in root.iter(f"{SVG}text") if t.text in {"1", "2"}]
    assert len(badges) == 3 and numbers.count("1") == 1 and numbers.count("2") == 2


def test_meeple_party_arrows_see_every_box_they_cross() -> None:
    """An arrow's route counts the room names and figures it crosses exactly: a box narrower
    than the old 2 px sampling step, or only its corner clipped, is still crossed."""
    from partysolver.models.meeple_party.render import _crosses

    line = [(0.0, 0.0), (100.0, 0.0)]
    assert _crosses(line, (2.5, -1.0, 1.0, 2.0))  # between two 2 px samples
    assert not _crosses(line, (2.5, 0.5, 1.0, 2.0))  # just beside it
    diagonal = [(0.0, 0.0), (10.0, 10.0)]
    assert _crosses(diagonal, (4.9, 4.9, 0.2, 0.2)) and not _crosses(diagonal, (6.0, 0.0, 3.0, 3.0))
    assert _crosses([(0.0, 0.0), (0.0, 5.0), (5.0, 5.0)], (4.0, 4.0, 2.0, 2.0))  # second leg


def _count(content: int, piece: int) -> int:
    from partysolver.models.meeple_party.board import count

    return count(content, piece)


def test_meeple_party_tells_guests_from_roommates() -> None:
    root = parsed(render("meeple-party", example("meeple-party")))
    legend = " ".join(t.text or "" for t in by_id(root)["legend"].iter(f"{SVG}text"))
    assert "guest" in legend and "roommate" in legend
    marks = [t.text for t in root.iter(f"{SVG}text") if t.text == "R"]
    assert len(marks) >= 3  # three roommates at this party, each marked


# -- formats ----------------------------------------------------------------------------------


def test_png_has_the_signature_and_the_pictures_size() -> None:
    svg = render("party-time", example("party-time"))
    root = parsed(svg)
    data = pictures.png_from_svg(svg)
    assert data.startswith(pictures.PNG_SIGNATURE)
    assert pictures.png_size(data) == (int(root.get("width", 0)), int(root.get("height", 0)))


def test_render_writes_svg_or_png_by_suffix(tmp_path: Path) -> None:
    for suffix, fmt in ((".svg", "svg"), (".PNG", "png")):
        out = tmp_path / f"picture{suffix}"
        report = json.loads(run("render", "tea-party:opening", "-o", str(out), "--json").output)
        assert report["format"] == fmt and report["bytes"] == out.stat().st_size
        head = out.read_bytes()
        assert head.startswith(pictures.PNG_SIGNATURE) if fmt == "png" else \
            parsed(head.decode()).tag == f"{SVG}svg"
    # re-rendering over an older picture of the other kind is fine
    run("render", "tea-party:opening", "-o", str(tmp_path / "picture.PNG"))


def test_a_bad_suffix_is_one_line_before_any_work(tmp_path: Path) -> None:
    for name in ("x.jpg", "x.svg.txt", "x"):
        result = run("render", "tea-party:opening", "-o", str(tmp_path / name), expect=2)
        assert result.output.count("\n") == 1 and "ending in .svg or .png" in result.output
        result = run("simulate", "meeple-party", "--games", "1", "--policy", "random",
                     "--plot", str(tmp_path / name), expect=2)
        assert result.output.count("\n") == 1 and "--plot" in result.output
        assert "playing" not in result.output
    assert not list(tmp_path.iterdir())


def test_simulation_plot_is_svg_or_png_by_suffix(tmp_path: Path) -> None:
    for name in ("plot.svg", "plot.png"):
        out = tmp_path / name
        run("simulate", "meeple-party", "--games", "3", "--policy", "random", "--players", "1",
            "--difficulty", "easy", "--seed", "1", "--plot", str(out))
        data = out.read_bytes()
        if name.endswith(".png"):
            assert data.startswith(pictures.PNG_SIGNATURE)
        else:  # a real SVG, its words kept as text
            texts = " ".join(t.text or "" for t in parsed(data.decode()).iter(f"{SVG}text"))
            assert "photos to win (12)" in texts and "games" in texts

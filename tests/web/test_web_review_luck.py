"""Skill against luck on the board (issue 28) for every game with chance points besides Tea
Party and Pig (``test_web_board_tree.py`` reviews those), in a real headless Chromium against a
real ``partysolver serve``, at a desktop's size (1366x900) and a phone's (390x844).

A short record of ``simulate GAME --games 1 --seed 1`` travels in the board's URL (your own
file, in the fragment), is opened and reviewed with the board's Review button.  What the board
shows must be what ``partysolver review RECORD --json --time-limit T`` gives for the same record,
computed here through the app layer (``playalong.review_document``) with ``T`` the time limit
the web gives each position (the request's limit over ``REVIEW_SHARE`` times the steps plus
one: figures a search cuts depend on it): a mark on exactly the moves the review marks, each
player's luck (a number, exact or an estimate, with the chance points left out; or "not
computed") and a graph with the value, decision and luck series of each player that has them.

Meeple Land's full game has chance points (the tiles drawn to the market, the advert's top
card) and a review, but its hook values no position (``position_values`` is not given: the
hint's end-game reputation is a heuristic for the mover alone), so every player's luck is "not
computed", the graph has no value or luck line, and only the decisions' line is drawn.
"""

from __future__ import annotations

import base64
import tomllib
import zlib
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from click.testing import CliRunner
from test_web_board_tree import page as page  # noqa: F401 - the browser at each size
from test_web_browser import browser as browser  # noqa: F401 - the session's browser fixture
from test_web_browser import wait
from web_helpers import Server

from partysolver.app import playalong
from partysolver.app.base import document
from partysolver.cli.main import cli
from partysolver.models.documents import format_document
from partysolver.web.jobs import REVIEW_SHARE

try:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select
except ImportError:  # pragma: no cover - test_web_browser skips these tests too
    pass

BOARD_LIMIT = 60
"""The board's time limit for the review (seconds): each position then gets several seconds,
so that every search here finishes within its own budget (nodes, playouts) and the figures
do not depend on how busy the machine is."""

RECORDS = {"meeple-land": 6, "meeple-party": 12, "party-time": 4, "pool-party-stars": 20}
"""The steps of each game's simulated record the board reviews: a few decisions and chance
points each (Pool Party Stars' marks and draws that are luck for one player; Meeple Party's
draws and surprises valued exactly, and chance points between turns not computed; Party-Time's
draws estimated; Meeple Land's not computed)."""

_reviewed: dict[str, tuple[str, dict[str, Any]]] = {}


def reviewed(game: str, folder: Path) -> tuple[str, dict[str, Any]]:
    """The short record of ``game`` (its text) and the command line's review of it (JSON),
    once per game."""
    if game not in _reviewed:
        out = folder / game
        result = CliRunner().invoke(cli, ["simulate", game, "--games", "1", "--seed", "1",
                                          "--records", str(out)])
        assert result.exit_code == 0, result.output
        data = tomllib.loads((out / "game-001.record.toml").read_text())
        steps = RECORDS[game]
        assert len(data["steps"]) > steps
        data["steps"] = data["steps"][:steps]
        text = format_document(data)
        share = BOARD_LIMIT / (REVIEW_SHARE * (steps + 1))
        report = playalong.review_document(document(data, "record"), {"time_limit": share})
        _reviewed[game] = text, report.data
    return _reviewed[game]


def packed(text: str) -> str:
    """``text`` as the board carries a file in its URL: deflate-raw, base64url."""
    squeezer = zlib.compressobj(9, zlib.DEFLATED, -15)
    raw = squeezer.compress(text.encode()) + squeezer.flush()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def shown(value: float, style: str, sign: bool) -> str:
    """A figure as the board's review writes it (board.js, reviewNumber)."""
    scaled = 100 * value if style == "percent" else value
    text = f"{abs(scaled):.{1 if style == 'percent' else 2}f}"
    return ("−" if scaled < -1e-9 else "+" if sign else "") + text


def figure(step: dict[str, Any], kind: str, name: str) -> float | None:
    """A point of a player's line of ``kind`` on the review's graph."""
    if kind == "value":
        return (step["values"] or {}).get(name)
    sums = step["cumulative"].get(name)
    if sums is None:
        return None
    return -sums["decision_loss"] if kind == "decisions" else sums["luck"]


def graph_lines(expected: dict[str, Any]) -> list[tuple[str, str]]:
    """The lines the board's graph draws for a review: (class, player) each."""
    players = list(expected["players"])
    drawn = []
    for kind in ("value", "decisions", "luck"):
        lines: dict[str, list[tuple[int, float]]] = {}
        for name in players:
            numbers = expected["players"][name]
            if kind == "luck" and numbers["chance_points"] and numbers["luck"] is None:
                continue  # not computed: no line
            lines[name] = [(step["number"], value) for step in expected["steps"]
                           if (value := figure(step, kind, name)) is not None]
        first = next(iter(lines.values()), None)
        if len(players) > 1 and len(lines) == len(players) and \
                all(line == first for line in lines.values()):
            lines = {"every player": first or []}
        drawn += [(f"series {kind}", name) for name, line in lines.items() if line]
    return sorted(drawn)


def luck_text(numbers: dict[str, Any], style: str) -> str:
    """A player's luck cell as the command line's review says it."""
    if not numbers["chance_points"]:
        return "–"
    if numbers["luck"] is None:
        return "not computed"
    left = numbers["luck_not_computed"]
    how = ("exact" if numbers["luck_exact"] else "estimate") + \
        (f", {left} not computed" if left else "")
    return f"{shown(numbers['luck'], style, True)} ({how})"


@pytest.mark.parametrize("game", sorted(RECORDS))
def test_a_review_on_the_board_marks_graphs_and_splits_the_luck_as_the_cli(
        page: Any, server: Server, game: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    text, expected = reviewed(game, tmp_path_factory.mktemp("records"))
    fragment = urlencode({"name": f"{game}.record.toml", "doc": packed(text)})
    page.get(f"{server.url}board/{game}#{fragment}")
    steps = RECORDS[game]
    wait(page, lambda d: d.execute_script(
        "const s = window.partysolverBoard; return Boolean(s && s.doc && s.node && "
        "s.node.answer) && document.querySelectorAll('#history button.node').length;") == steps)
    Select(page.find_element(By.ID, "time-limit")).select_by_value(str(BOARD_LIMIT))
    run = page.find_element(By.ID, "review-run")
    page.execute_script("arguments[0].scrollIntoView({block: 'center'})", run)
    run.click()
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#review-players tbody tr"), 120)
    data = page.execute_script("return window.partysolverBoard.review.data")
    assert data["complete"], data.get("stopped_at")

    # Marks: on exactly the decisions the command line marks (the best move too); chance
    # steps and moves that are neither best nor marked have none.
    want: list[str | None] = [None] * steps
    for decision in expected["decisions"]:
        lost = decision["lost"]
        best = lost is not None and lost <= 1e-9 and not decision["at_least"] and \
            not decision.get("missed")
        want[decision["number"] - 1] = decision["label"] or ("best" if best else None)
    buttons = page.find_elements(By.CSS_SELECTOR, "#history button.node")
    assert [b.get_attribute("data-mark") for b in buttons] == want
    assert any(mark not in (None, "best") for mark in want) or game in ("meeple-party",
                                                                       "party-time")

    # Each player's luck: the figures the command line gives, and the cell says them.
    assert list(data["players"]) == list(expected["players"])
    for name, numbers in expected["players"].items():
        mine = data["players"][name]
        for field in ("luck", "luck_exact", "chance_points", "luck_not_computed",
                      "decision_loss"):
            assert mine[field] == numbers[field], (name, field)
    assert data["luck_note"] == expected["luck_note"]
    style = page.execute_script("return JSON.parse(document.getElementById('board-data')"
                                ".textContent).figures.shown[0].style")
    rows = page.find_elements(By.CSS_SELECTOR, "#review-players tbody tr")
    cells = {row.find_element(By.TAG_NAME, "td").text:
             " ".join(row.find_element(By.CSS_SELECTOR, "td.luck").text.split())
             for row in rows}
    assert cells == {name: luck_text(numbers, style)
                     for name, numbers in expected["players"].items()}
    assert any(numbers["chance_points"] for numbers in expected["players"].values())
    # The table fits the page's width: the luck column is seen without scrolling sideways.
    assert page.execute_script("const box = document.getElementById('review-players');"
                               "return box.scrollWidth <= box.clientWidth + 1;")

    # The graph: a value line for each player the review values, a decisions line for each,
    # a luck line for each whose luck was computed; one line where every player's is the same.
    graph = page.find_element(By.CSS_SELECTOR, "#review-graph svg")
    drawn = sorted((line.get_attribute("class"), line.get_attribute("data-player"))
                   for line in graph.find_elements(By.CSS_SELECTOR, "polyline"))
    assert drawn == graph_lines(expected)
    assert any(kind == "series luck" for kind, _ in drawn) or game == "meeple-land"
    # The graph's words are as large on a phone as on a desktop (drawn at the box's width).
    scale = page.execute_script("const svg = document.querySelector('#review-graph svg');"
                                "return svg.getBoundingClientRect().width / "
                                "svg.viewBox.baseVal.width;")
    assert scale == pytest.approx(1.0, abs=0.05)

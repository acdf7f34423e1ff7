"""The board's move tree and its state in the URL (issue 28), in a real headless Chromium
against a real ``partysolver serve``, at a desktop's size (1366x900) and a phone's (390x844):
moves make a tree whose variations are found again in the downloaded record (which the command
line loads), the keys walk it, the picture and the hint follow the selected node, and a reload,
Back/Forward and a copied link restore the same node, for a shipped position and for your own
file carried in the URL."""

from __future__ import annotations

import contextlib
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from test_web_browser import (
    SCREENSHOTS,
    browser,  # noqa: F401 - the session's browser fixture
    paste,
    wait,
)
from web_helpers import Server

try:
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:  # pragma: no cover - test_web_browser skips these tests too
    pass

import test_web_browser  # noqa: E402

SKIP = getattr(test_web_browser, "pytestmark", None)
"""Why the browser tests cannot run here (no selenium, no chromium), or None."""

SIZES = {"desktop": (1366, 900), "phone": (390, 844)}
BOARD_JS = Path(__file__).resolve().parents[2] / "partysolver" / "web" / "static" / "board.js"


@pytest.fixture(params=sorted(SIZES))
def page(browser: Any, server: Server, request: pytest.FixtureRequest) -> Iterator[Any]:  # noqa: F811
    """The browser at each size; a screenshot is written when the test fails."""
    if SKIP is not None:
        pytest.skip(SKIP.kwargs["reason"])
    browser.set_window_size(*SIZES[request.param])
    yield browser
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        name = request.node.name.replace("/", "_").replace("[", "-").replace("]", "")
        browser.save_screenshot(str(SCREENSHOTS / f"{name}.png"))


def ready(driver: Any) -> bool:
    """The board shows a position and no move is on its way."""
    return bool(driver.execute_script(
        "const s = window.partysolverBoard; return Boolean(s && s.doc && s.node && "
        "s.node.answer) && document.querySelector('#picture svg') !== null;"))


def open_board(driver: Any, server: Server, query: str) -> None:
    driver.get(f"{server.url}board/tea-party?{query}")
    wait(driver, ready)


def path(driver: Any) -> list[str]:
    """The moves from the start to the selected node."""
    return list(driver.execute_script(
        "const out = []; for (let n = window.partysolverBoard.node; n && n.parent; "
        "n = n.parent) out.unshift(n.move); return out;"))


def at(driver: Any, moves: list[str]) -> None:
    wait(driver, lambda d: path(d) == moves and d.find_element(By.ID, "to-move").text and
         moves[-1] in d.find_element(By.CSS_SELECTOR, "#history button.node.current").text
         if moves else path(d) == [])


def back_across_pages(driver: Any, landed: Any) -> None:
    """Back to another document, then wait until ``landed`` holds.

    ChromeDriver's Back waits for the load, and between two sites (about:blank and the board)
    it can fail with "aborted by navigation" when the renderer is swapped, though the browser
    does go back. So its error is let pass, and what the test needs is waited for, looking again
    while the new document is not there yet. (The page's own ``history.back()`` would not do:
    Chromium skips the blank page, which no click made.)"""
    with contextlib.suppress(WebDriverException):
        driver.back()
    WebDriverWait(driver, 60, poll_frequency=0.1,
                  ignored_exceptions=(WebDriverException,)).until(landed)


def press_legal(driver: Any, move: str) -> None:
    for button in driver.find_elements(By.CSS_SELECTOR, "#legal button"):
        if button.get_attribute("data-move") == move:
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
            button.click()
            return
    raise AssertionError(f"no legal move {move!r} listed")


def key(driver: Any, name: str) -> None:
    driver.find_element(By.TAG_NAME, "body").send_keys(name)


def moves_in_url(driver: Any) -> list[str]:
    return parse_qs(urlsplit(driver.current_url).query).get("move", [])


def downloaded(driver: Any, button: str) -> tuple[str, str]:
    """The name and the text of the file a button downloads (the blob handed to the link)."""
    driver.execute_script(
        "window.__saved = null; const make = URL.createObjectURL;"
        "URL.createObjectURL = (blob) => { window.__saved = blob; return make(blob); };"
        "const click = HTMLAnchorElement.prototype.click;"
        "HTMLAnchorElement.prototype.click = function () {"
        "  window.__name = this.download; };")
    driver.find_element(By.ID, button).click()
    wait(driver, lambda d: d.execute_script("return window.__saved !== null"))
    text = driver.execute_async_script(
        "const done = arguments[arguments.length - 1]; window.__saved.text().then(done);")
    return driver.execute_script("return window.__name"), text


def test_moves_make_a_tree_that_the_keys_and_clicks_walk(page: Any, server: Server) -> None:
    open_board(page, server, "example=default")
    first_picture = page.find_element(By.CSS_SELECTOR, "#picture svg").get_attribute(
        "outerHTML")
    press_legal(page, "cup")
    at(page, ["cup"])
    press_legal(page, "draw cleric")
    at(page, ["cup", "draw cleric"])
    # Back one move, and another outcome: a variation beside the main line's draw.
    key(page, Keys.ARROW_LEFT)
    at(page, ["cup"])
    press_legal(page, "draw fighter")
    at(page, ["cup", "draw fighter"])
    main = [li.find_element(By.CSS_SELECTOR, "button.node").text
            for li in page.find_elements(By.CSS_SELECTOR, "#history > li")]
    assert main == ["cup", "draw cleric"]
    variation = page.find_element(By.CSS_SELECTOR, "#history .variations .variation")
    assert variation.text == "(2. draw fighter)"
    assert "current" in variation.find_element(By.TAG_NAME, "button").get_attribute("class")
    # Escape leaves the variation (to where it branched), → then goes on along the main line.
    key(page, Keys.ESCAPE)
    at(page, ["cup"])
    key(page, Keys.ARROW_RIGHT)
    at(page, ["cup", "draw cleric"])
    key(page, Keys.HOME)
    at(page, [])
    assert page.find_element(By.ID, "to-move").text == "Blue to move."
    wait(page, lambda d: d.find_element(By.CSS_SELECTOR, "#picture svg").get_attribute(
        "outerHTML") == first_picture)
    key(page, Keys.END)
    at(page, ["cup", "draw cleric"])
    wait(page, lambda d: d.find_element(By.CSS_SELECTOR, "#picture svg").get_attribute(
        "outerHTML") != first_picture)  # the picture follows the node
    key(page, Keys.ARROW_UP)
    at(page, [])
    key(page, Keys.ARROW_DOWN)
    at(page, ["cup", "draw cleric"])
    # A click on a move goes there.
    button = page.find_element(By.CSS_SELECTOR, "#history .variation button")
    page.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()
    at(page, ["cup", "draw fighter"])
    page.find_element(By.CSS_SELECTOR, "#history > li button").click()
    at(page, ["cup"])


def test_the_hint_follows_the_selected_node(page: Any, server: Server) -> None:
    open_board(page, server, "example=default&move=cup&move=draw%20cleric")
    key(page, Keys.HOME)
    at(page, [])
    page.find_element(By.ID, "hint").click()
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#result ol.moves li"))
    assert page.find_element(By.CSS_SELECTOR, "#result .status").text.startswith("Blue: ")
    key(page, Keys.ARROW_RIGHT)  # a chance step: the hint lists each draw
    at(page, ["cup"])
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#result table.draws tbody tr"))
    key(page, Keys.ARROW_RIGHT)  # Green decides
    at(page, ["cup", "draw cleric"])
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#result .status") and d.find_element(
        By.CSS_SELECTOR, "#result .status").text.startswith("Green: "))


def test_a_variation_is_in_the_downloaded_record_which_the_cli_loads(
        page: Any, server: Server, tmp_path: Path) -> None:
    open_board(page, server, "example=default&move=cup&move=draw%20cleric")
    key(page, Keys.ARROW_LEFT)
    at(page, ["cup"])
    press_legal(page, "draw ranger")
    at(page, ["cup", "draw ranger"])
    name, text = downloaded(page, "download-record")
    assert name == "tea-party.record.json"
    record = json.loads(text)
    assert record["kind"] == "record" and record["start"] == "tea-party:examples/default"
    assert [s["move"] for s in record["steps"]] == ["cup", "draw cleric"]
    assert record["steps"][1]["variations"] == [[{"move": "draw ranger"}]]
    saved = tmp_path / name
    saved.write_text(text)
    # The command line plays the main line of it, as of a record without variations.
    shown = subprocess.run([sys.executable, "-m", "partysolver", "apply", str(saved), "--json"],
                           capture_output=True, text=True, check=True)
    assert json.loads(shown.stdout)["steps"] == 2
    # And the board loads it back with its variation.
    paste(page, text)
    wait(page, lambda d: d.find_element(By.ID, "description").text == "your pasted file")
    wait(page, ready)
    assert path(page) == ["cup", "draw cleric"]
    wait(page, lambda d: d.find_element(By.CSS_SELECTOR, "#history .variation").text ==
         "(2. draw ranger)")
    # Without a variation, the record is the server's TOML of the main line.
    open_board(page, server, "example=default&move=cup")
    name, text = downloaded(page, "download-record")
    assert name == "tea-party.record.toml" and 'move = "cup"' in text


def test_the_url_holds_the_position_and_its_moves(page: Any, server: Server) -> None:
    open_board(page, server, "example=default")
    press_legal(page, "cup")
    at(page, ["cup"])
    assert moves_in_url(page) == ["cup"]
    press_legal(page, "draw fighter")
    at(page, ["cup", "draw fighter"])
    assert moves_in_url(page) == ["cup", "draw fighter"]
    assert parse_qs(urlsplit(page.current_url).query)["example"] == ["examples/default"]
    link = page.current_url
    page.refresh()
    wait(page, ready)
    at(page, ["cup", "draw fighter"])
    page.back()
    at(page, ["cup"])
    page.back()
    at(page, [])
    page.forward()
    at(page, ["cup"])
    # A copied link opens the same node on a fresh board.
    page.get("about:blank")
    page.get(link)
    wait(page, ready)
    at(page, ["cup", "draw fighter"])
    # A move the position does not allow is told, and the board stays at the start.
    page.get(f"{server.url}board/tea-party?example=default&move=hand")
    wait(page, lambda d: d.find_element(By.ID, "move-message").text)
    assert "'hand'" in page.find_element(By.ID, "move-message").text
    assert path(page) == []


def test_your_own_file_travels_in_the_url(page: Any, server: Server) -> None:
    open_board(page, server, "example=default")
    text = page.find_element(By.ID, "paste").get_attribute("value")
    own = text.replace("# ", "# my own copy: ", 1) if text.startswith("# ") else \
        "# my own copy\n" + text
    paste(page, own)
    wait(page, lambda d: d.find_element(By.ID, "description").text == "your pasted file")
    wait(page, lambda d: "#" in d.current_url)
    split = urlsplit(page.current_url)
    assert "example" not in parse_qs(split.query)  # the upload replaced the shipped name
    fragment = parse_qs(split.fragment)
    assert fragment["name"] == ["pasted.toml"]
    assert re.fullmatch(r"[A-Za-z0-9_-]+", fragment["doc"][0])
    assert len(fragment["doc"][0]) < len(own)  # compressed
    press_legal(page, "cup")
    at(page, ["cup"])
    link = page.current_url
    page.get("about:blank")
    page.get(link)
    wait(page, ready)
    at(page, ["cup"])
    assert page.find_element(By.ID, "paste").get_attribute("value") == own
    assert page.find_element(By.ID, "description").text == "your file pasted.toml"
    back_across_pages(page, lambda d: d.current_url == "about:blank")  # the blank page
    back_across_pages(page, ready)  # the board of before, opened again from its URL
    at(page, ["cup"])
    page.back()  # the pasted file before its move
    at(page, [])
    assert page.find_element(By.ID, "paste").get_attribute("value") == own


# -- readable and true ---------------------------------------------------------------------------


def picture_width(driver: Any) -> float:
    return float(driver.execute_script(
        "return document.querySelector('#picture svg').getBoundingClientRect().width"))


def test_zoom_and_pan_change_the_pictures_rendered_size(page: Any, server: Server) -> None:
    page.get(f"{server.url}board/meeple-land?example=default")
    wait(page, ready)
    if page.find_element(By.ID, "zoom-fit").is_enabled():  # a phone opens it readable
        page.find_element(By.ID, "zoom-fit").click()
    wait(page, lambda d: d.find_element(By.ID, "zoom-level").text == "100%")
    fit = picture_width(page)
    zoom_in = page.find_element(By.ID, "zoom-in")
    page.execute_script("arguments[0].scrollIntoView({block: 'center'})", zoom_in)
    zoom_in.click()
    wait(page, lambda d: picture_width(d) > 1.4 * fit)
    zoom_in.click()
    wait(page, lambda d: picture_width(d) > 1.9 * fit)
    assert page.find_element(By.ID, "zoom-level").text == "200%"
    # The zoomed picture pans: a drag with the mouse scrolls its box.
    box = page.find_element(By.ID, "picture")
    from selenium.webdriver.common.action_chains import ActionChains
    ActionChains(page).move_to_element(box).click_and_hold().move_by_offset(-80, 0).release() \
        .perform()
    assert page.execute_script("return arguments[0].scrollLeft", box) > 0
    # A new node's picture keeps the zoom.
    page.find_element(By.ID, "zoom-fit").click()
    wait(page, lambda d: abs(picture_width(d) - fit) < 2)
    # Ctrl+wheel (a touchpad's pinch) zooms about the pointer.
    page.execute_script(
        "const box = arguments[0], r = box.getBoundingClientRect();"
        "box.dispatchEvent(new WheelEvent('wheel', {deltaY: -300, ctrlKey: true, bubbles: true,"
        " cancelable: true, clientX: r.left + 20, clientY: r.top + 20}));", box)
    wait(page, lambda d: picture_width(d) > 2 * fit)
    page.find_element(By.ID, "zoom-fit").click()
    wait(page, lambda d: abs(picture_width(d) - fit) < 2)
    # Two fingers spreading apart zoom the picture (the touch events a phone sends).
    page.execute_script("""
        const box = arguments[0], r = box.getBoundingClientRect();
        const [x, y] = [r.left + r.width / 2, r.top + 40];
        const fingers = (spread) => [1, 2].map((id) => new Touch({identifier: id, target: box,
            clientX: x + (id === 1 ? -spread : spread), clientY: y}));
        const send = (type, touches) => box.dispatchEvent(new TouchEvent(type, {touches,
            targetTouches: touches, changedTouches: touches, bubbles: true, cancelable: true}));
        send('touchstart', fingers(20));
        send('touchmove', fingers(40));
        send('touchmove', fingers(60));
        send('touchend', []);""", box)
    wait(page, lambda d: picture_width(d) > 2 * fit)


def test_chance_outcomes_show_their_probability(page: Any, server: Server) -> None:
    open_board(page, server, "example=default&move=cup")
    chances = {b.get_attribute("data-move"): b.find_element(By.CLASS_NAME, "chance").text
               for b in page.find_elements(By.CSS_SELECTOR, "#legal button")}
    assert chances == {"draw fighter": "50.0%", "draw cleric": "25.0%", "draw ranger": "25.0%"}


def test_each_ranked_move_shows_the_figure_that_decided_its_rank(page: Any,
                                                                  server: Server) -> None:
    page.get(f"{server.url}board/meeple-party?example=default")
    wait(page, ready)
    page.find_element(By.ID, "hint").click()
    wait(page, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#result ol.moves li")) > 2)
    ranks = [r["label"] for r in page.execute_script(
        "return JSON.parse(document.getElementById('board-data').textContent).figures.ranks")]
    assert "stress" in ranks and "photos" in ranks
    said = [li.find_element(By.CLASS_NAME, "decided").text
            for li in page.find_elements(By.CSS_SELECTOR, "#result ol.moves li")]
    for text in said:
        found = re.fullmatch(r"ranked by (.+): (\S+) against (\S+) for #\d+", text)
        if found is None:
            assert text.startswith("tied with #"), text
            continue
        assert found.group(1) in ranks and found.group(2) != found.group(3), text


def test_captions_and_verdicts_say_what_happened(page: Any, server: Server) -> None:
    page.get(f"{server.url}board/party-time?example=default")
    wait(page, ready)
    page.find_element(By.ID, "hint").click()
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#result ol.moves li"))
    wait(page, lambda d: d.find_element(By.ID, "progress").get_attribute("hidden") is not None)
    caption = page.find_element(By.ID, "caption").text
    assert "time limit" not in caption, caption
    page.find_element(By.ID, "verify").click()
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#result .status"))
    assert page.find_element(By.ID, "caption").text == ""
    # Puzzle mode: a malformed answer leaves no old verdict under Check.
    page.get(f"{server.url}board/meeple-land?example=puzzle")
    wait(page, lambda d: d.find_elements(By.ID, "answer"))
    answer = page.find_element(By.ID, "answer")
    answer.send_keys("M33 at 0,2")
    page.find_element(By.ID, "check").click()
    wait(page, lambda d: d.find_element(By.ID, "verdict").text)
    answer.clear()
    answer.send_keys("this is no layout")
    page.find_element(By.ID, "check").click()
    wait(page, lambda d: d.find_element(By.CSS_SELECTOR, "#result .error").text)
    assert page.find_element(By.ID, "verdict").text == ""


def test_show_best_move_hides_the_arrows_until_asked(page: Any, server: Server) -> None:
    open_board(page, server, "example=default")
    page.find_element(By.ID, "show-best").click()
    assert not page.find_element(By.ID, "show-best").is_selected()
    page.find_element(By.ID, "hint").click()
    wait(page, lambda d: d.find_elements(By.ID, "reveal-best"))
    assert not any(li.is_displayed()
                   for li in page.find_elements(By.CSS_SELECTOR, "#result ol.moves li"))
    assert not page.find_elements(By.CSS_SELECTOR, "#picture svg [marker-end]")
    page.find_element(By.ID, "reveal-best").click()
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#result ol.moves li"))
    assert page.find_element(By.CSS_SELECTOR, "#result li.best").is_displayed()
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#picture svg [marker-end]"))


# -- practice -------------------------------------------------------------------------------------


def test_practice_plays_the_other_seats_and_the_chance_outcomes(page: Any,
                                                                 server: Server) -> None:
    open_board(page, server, "example=default")
    practice = page.find_element(By.ID, "practice")
    assert practice.text == "Play against the hint"
    page.execute_script("arguments[0].scrollIntoView({block: 'center'})", practice)
    practice.click()
    wait(page, lambda d: d.find_element(By.ID, "practice-status").text.startswith(
        "you play Blue; hint plays the others"))
    press_legal(page, "cup")
    # The draw, then Green's move by the hint policy, then Blue (you) again.
    wait(page, lambda d: len(path(d)) >= 3 and d.find_element(By.ID, "to-move").text in (
        "Blue to move.", "The game is over.") and "thinking" not in d.find_element(
        By.ID, "practice-status").text)
    moves = path(page)
    assert moves[0] == "cup" and moves[1].startswith("draw ")
    assert page.find_element(By.ID, "move-message").text == ""
    page.find_element(By.ID, "practice").click()
    assert page.find_element(By.ID, "practice").text == "Play against the hint"


def test_a_bot_step_is_the_policys_move_or_a_draw_and_bad_input_is_one_line() -> None:
    """The app layer's practice step (the board's apply with ``bot``), as ``play --bot``."""
    from partysolver.app import catalog, practice
    from partysolver.models.errors import InputError

    doc = catalog.find("tea-party", "default").document()
    drawn = {practice.bot_step(doc, ["cup"], "hint", seed) for seed in range(12)}
    assert drawn <= {"draw fighter", "draw cleric", "draw ranger"} and len(drawn) > 1
    assert practice.bot_step(doc, [], "hint", 1) == practice.bot_step(doc, [], "hint", 1)
    with pytest.raises(InputError) as refused:
        practice.bot_step(doc, [], "genius")
    assert refused.value.field == "bot" and "hint" in str(refused.value.expected)


def test_hints_speak_of_the_board_not_a_command_line() -> None:
    """A puzzle's hint and the pictures' captions name no command to run: both front ends
    show them."""
    from partysolver.app import base, catalog

    for game, name in (("pool-party-stars", "easy-01"), ("meeple-land", "puzzle")):
        doc = catalog.find(game, name).document()
        hint = base.dispatch(game, "hint", doc, {"time_limit": 5}, as_json=True)
        assert hint.data["moves"], game
        for move in hint.data["moves"]:
            assert "partysolver" not in move["reason"], move["reason"]
            assert "solving the puzzle shows the whole" in move["reason"], move["reason"]
    for game, name in (("tea-party", "opening"), ("meeple-party", "before-the-draw")):
        doc = catalog.find(game, name).document()
        svg = base.dispatch(game, "render", doc, {"time_limit": 5}, as_json=True,
                            always={"hint": True}).data["svg"]
        assert "partysolver" not in svg and "answers each draw" in svg, game


def test_the_board_names_no_game() -> None:
    """Everything per game comes from the API's declared contract: board.js never branches
    on a game's key."""
    from partysolver.models.registry import game_keys

    script = BOARD_JS.read_text()
    for key in game_keys():
        assert key not in script, key


# -- review -------------------------------------------------------------------------------------


def test_a_review_marks_the_moves_counts_them_and_draws_the_game(page: Any,
                                                                 server: Server) -> None:
    open_board(page, server, "example=default&move=cup&move=draw%20cleric&move=squish%20cleric")
    run = page.find_element(By.ID, "review-run")
    page.execute_script("arguments[0].scrollIntoView({block: 'center'})", run)
    run.click()
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#review-players tbody tr"))
    marks = {b.text.split(". ")[-1]: b.get_attribute("data-mark")
             for b in page.find_elements(By.CSS_SELECTOR, "#history button.node")}
    assert marks["cup??"] == "blunder" and marks["squish cleric?"] == "mistake", marks
    assert marks["draw cleric"] is None  # chance decides nothing
    rows = {row.find_element(By.TAG_NAME, "td").text: row
            for row in page.find_elements(By.CSS_SELECTOR, "#review-players tbody tr")}
    assert set(rows) == {"Blue", "Green"}
    blue = [td.text for td in rows["Blue"].find_elements(By.TAG_NAME, "td")]
    green = [td.text for td in rows["Green"].find_elements(By.TAG_NAME, "td")]
    assert blue[1] == "0%" and blue[4] == "1" and green[3] == "1"
    # Luck is a draw's: what Blue lost by it, Green won (exact, as the CLI's review).
    assert blue[6].startswith("−") and green[6].startswith("+") and "(exact)" in blue[6]
    assert blue[6][1:].split()[0] == green[6][1:].split()[0]
    # A click on a count goes to that move.
    key(page, Keys.HOME)
    at(page, [])
    rows["Blue"].find_element(By.CSS_SELECTOR, "button.count").click()
    at(page, ["cup"])
    rows["Green"].find_element(By.CSS_SELECTOR, "button.count").click()
    at(page, ["cup", "draw cleric", "squish cleric"])
    # The graph: each player's figure, the decisions' loss and the luck; a click goes there.
    graph = page.find_element(By.CSS_SELECTOR, "#review-graph svg")
    kinds = sorted({line.get_attribute("class")
                    for line in graph.find_elements(By.CSS_SELECTOR, "polyline")})
    assert kinds == ["series decisions", "series luck", "series value"]
    assert len(graph.find_elements(By.CSS_SELECTOR, "polyline")) == 6
    # The legend names every mark drawn: each line, the mistake's and the blunder's dots, the
    # selected move's upright line; the words above the table name no command to run.
    dots = sorted(c.get_attribute("class") for c in graph.find_elements(By.CSS_SELECTOR,
                                                                        "circle.dot"))
    assert dots == ["dot mark-blunder", "dot mark-mistake"], dots
    legend = page.find_element(By.CSS_SELECTOR, "#review-graph .legend").text
    assert "● a mistake" in legend and "● a blunder" in legend, legend
    assert "the selected move" in legend and "luck so far" in legend, legend
    assert "partysolver" not in page.find_element(By.ID, "review").text
    page.execute_script("arguments[0].scrollIntoView({block: 'center'})", graph)
    width = graph.rect["width"]
    from selenium.webdriver.common.action_chains import ActionChains
    ActionChains(page).move_to_element_with_offset(graph, -width / 2 + 3, 0).click().perform()
    at(page, [])
    # The review follows the selected move: the graph's marker moves with it.
    here = page.find_element(By.CSS_SELECTOR, "#review-graph line.here").get_attribute("x1")
    key(page, Keys.END)
    at(page, ["cup", "draw cleric", "squish cleric"])
    wait(page, lambda d: d.find_element(By.CSS_SELECTOR, "#review-graph line.here")
         .get_attribute("x1") != here)


def first_example(game: str) -> str:
    from partysolver.app import catalog

    shipped = [item for item in catalog.shipped(game) if item.set == "examples"]
    named = [item for item in shipped if item.name == "default"] or shipped
    return named[0].qualified


@pytest.mark.parametrize("game", sorted(__import__(
    "partysolver.models.registry", fromlist=["game_keys"]).game_keys()))
def test_every_game_keeps_its_moves_in_the_url_and_walks_them_by_key(page: Any, server: Server,
                                                                      game: str) -> None:
    page.get(f"{server.url}board/{game}?example={first_example(game)}")
    wait(page, ready)
    start = path(page)
    first = page.find_element(By.CSS_SELECTOR, "#legal button")
    move = first.get_attribute("data-move")
    page.execute_script("arguments[0].scrollIntoView({block: 'center'})", first)
    first.click()
    at(page, [*start, move])
    assert moves_in_url(page) == [*start, move]
    page.refresh()
    wait(page, ready)
    at(page, [*start, move])
    key(page, Keys.ARROW_LEFT)
    at(page, start)
    page.back()
    at(page, [*start, move])


SMALLEST_WORDS = """
    const svg = document.querySelector('#picture svg');
    const view = svg.getAttribute('viewBox').split(/\\s+/).map(Number);
    const scale = svg.getBoundingClientRect().width / view[2];
    const sizes = Array.from(svg.querySelectorAll('text'))
      .map((t) => parseFloat(getComputedStyle(t).fontSize)).filter((v) => v > 0);
    return Math.min(...sizes) * scale;"""


@pytest.mark.parametrize("game", sorted(__import__(
    "partysolver.models.registry", fromlist=["game_keys"]).game_keys()))
def test_a_phone_opens_the_picture_with_readable_words(browser: Any, server: Server,  # noqa: F811
                                                       game: str) -> None:
    if SKIP is not None:
        pytest.skip(SKIP.kwargs["reason"])
    browser.set_window_size(*SIZES["phone"])
    browser.get(f"{server.url}board/{game}?example={first_example(game)}")
    wait(browser, ready)
    wait(browser, lambda d: d.execute_script(SMALLEST_WORDS) >= 10.9 or
         d.find_element(By.ID, "zoom-level").text == "800%")
    # Fit shows it whole again, and Aa brings the words back to 11 px.
    browser.find_element(By.ID, "zoom-fit").click() if browser.find_element(
        By.ID, "zoom-fit").is_enabled() else None
    wait(browser, lambda d: d.find_element(By.ID, "zoom-level").text == "100%")
    browser.find_element(By.ID, "zoom-read").click()
    wait(browser, lambda d: d.execute_script(SMALLEST_WORDS) >= 10.9 or
         d.find_element(By.ID, "zoom-level").text == "800%")
    assert browser.execute_script("return document.documentElement.scrollWidth") <= 390


def test_a_file_that_is_no_game_has_no_tree_review_or_keys(page: Any, server: Server) -> None:
    open_board(page, server, "example=default&move=cup")
    page.get(f"{server.url}board/meeple-land?example=park")
    wait(page, lambda d: d.find_element(By.ID, "message").text.startswith(
        "Play along is not available"))
    assert not page.find_element(By.ID, "review").is_displayed()
    assert not page.find_element(By.ID, "play").is_displayed()
    key(page, Keys.HOME)
    key(page, Keys.ARROW_RIGHT)
    assert page.find_element(By.ID, "move-message").text == ""
    assert moves_in_url(page) == []


def test_a_review_on_another_game_reads_its_own_figure(page: Any, server: Server) -> None:
    """Pig: a roll and its die, reviewed; the board names no game, the review's figure and
    players come from the answer."""
    page.get(f"{server.url}board/pig?example={first_example('pig')}")
    wait(page, ready)
    press_legal(page, "roll")
    wait(page, lambda d: path(d) == ["roll"] and d.find_elements(By.CSS_SELECTOR, "#legal button"))
    press_legal(page, "1")
    wait(page, lambda d: path(d) == ["roll", "1"])
    run = page.find_element(By.ID, "review-run")
    page.execute_script("arguments[0].scrollIntoView({block: 'center'})", run)
    run.click()
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#review-players tbody tr"))
    rows = page.find_elements(By.CSS_SELECTOR, "#review-players tbody tr")
    assert len(rows) == 2
    lucks = [row.find_element(By.CSS_SELECTOR, "td.luck").text for row in rows]
    assert any(luck.startswith("−") for luck in lucks), lucks  # a 1 is bad luck for the roller
    assert page.find_elements(By.CSS_SELECTOR, "#review-graph svg polyline.value")

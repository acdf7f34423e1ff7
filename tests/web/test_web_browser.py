"""The board in a real headless Chromium (Debian's ``chromium`` and ``chromium-driver``
through selenium), against a real ``partysolver serve``: the start page, every game's board
with a hint drawn as an arrow, a move played and undone, a puzzle step revealed and an answer
checked, a phone-width layout, and hostile player names shown as text.  A failing test leaves
a screenshot in ``build/web-screenshots/``.  Without the browser these tests are skipped with
one line saying why (``make test`` installs it where it can)."""

from __future__ import annotations

import re
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from web_helpers import EVIL, QUOTES, Server, evil_tea_party, start_server, stop_server

from partysolver.models.registry import game_keys

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
SCREENSHOTS = Path(__file__).resolve().parents[2] / "build" / "web-screenshots"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--hide-scrollbars")

try:
    from selenium import webdriver
    from selenium.common.exceptions import (
        NoAlertPresentException,
        StaleElementReferenceException,
    )
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait
except ImportError:  # pragma: no cover - the test extras bring selenium
    webdriver = None

if webdriver is None:
    pytestmark = pytest.mark.skip(reason="browser tests: selenium is not installed "
                                         "(pip install -e '.[test]')")
elif CHROMIUM is None or DRIVER is None:
    pytestmark = pytest.mark.skip(reason="browser tests: no chromium/chromedriver on this "
                                         "machine (apt-get install chromium chromium-driver)")

BOARDS = {"tea-party": "default", "pool-party-stars": "default",
          "party-time": "near-the-star", "meeple-party": "default", "meeple-land": "default"}
"""A position per game whose hint moves something (so that the picture has an arrow)."""


@pytest.fixture(scope="session")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    options = Options()
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tempfile.mkdtemp(prefix='chromium-')}")
    options.add_argument("--window-size=1280,1000")
    options.binary_location = str(CHROMIUM)
    driver = webdriver.Chrome(service=Service(str(DRIVER)), options=options)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


@pytest.fixture
def page(browser: Any, server: Server, request: pytest.FixtureRequest) -> Iterator[Any]:
    """The browser at desktop size; a screenshot is written when the test fails."""
    browser.set_window_size(1280, 1000)
    yield browser
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        name = request.node.name.replace("/", "_").replace("[", "-").replace("]", "")
        browser.save_screenshot(str(SCREENSHOTS / f"{name}.png"))


def wait(driver: Any, condition: Any, seconds: float = 60) -> Any:
    # A redrawn part of the page leaves stale references behind: look again.
    return WebDriverWait(driver, seconds, poll_frequency=0.1,
                         ignored_exceptions=(StaleElementReferenceException,)).until(condition)


def open_board(driver: Any, server: Server, game: str, example: str) -> None:
    driver.get(f"{server.url}board/{game}?example={example}")
    wait(driver, lambda d: d.execute_script(
        "const s = window.partysolverBoard; return s && s.doc && "
        "document.querySelector('#picture svg') !== null;"))
    Select(driver.find_element(By.ID, "time-limit")).select_by_value("10")


def no_alert(driver: Any) -> bool:
    try:
        alert = driver.switch_to.alert
    except NoAlertPresentException:
        return True
    return alert is None


def test_the_start_page_lists_the_games_and_opens_a_board(page: Any, server: Server) -> None:
    page.get(server.url)
    games = page.find_elements(By.CSS_SELECTOR, "section.game")
    own = ("meeple-land", "meeple-party", "party-time", "pool-party-stars", "tea-party")
    listed = [g.get_attribute("id") for g in games]
    assert listed == [f"game-{key}" for key in game_keys()]  # a plugin's game (pig) too
    assert set(listed) >= {f"game-{key}" for key in own}
    page.find_element(By.CSS_SELECTOR, "#game-tea-party a.button").click()
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#picture svg"))
    assert page.find_element(By.TAG_NAME, "h1").text.startswith("Epic Monster Tea Party")


@pytest.mark.parametrize("game", sorted(BOARDS))
def test_every_board_shows_the_hint_as_an_arrow(page: Any, server: Server, game: str) -> None:
    open_board(page, server, game, BOARDS[game])
    assert not page.find_elements(By.CSS_SELECTOR, "#picture svg [marker-end]")
    page.find_element(By.ID, "hint").click()
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#result ol.moves li"))
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#picture svg [marker-end]"))
    best = page.find_element(By.CSS_SELECTOR, "#result li.best .move").text
    assert best
    assert page.find_element(By.ID, "progress").get_attribute("hidden") is not None


def test_a_move_is_played_undone_and_redone(page: Any, server: Server) -> None:
    open_board(page, server, "tea-party", "default")
    assert page.find_element(By.ID, "to-move").text == "Blue to move."
    page.find_element(By.ID, "move").send_keys("cup")
    page.find_element(By.ID, "play-move").click()
    wait(page, lambda d: d.find_element(By.ID, "to-move").text.startswith("Chance"))
    assert [li.text for li in page.find_elements(By.CSS_SELECTOR, "#history li")] == ["cup"]
    outcome = page.find_element(By.CSS_SELECTOR, "#legal button")
    assert outcome.text.startswith("draw ")
    page.find_element(By.ID, "undo").click()
    wait(page, lambda d: d.find_element(By.ID, "to-move").text == "Blue to move.")
    assert page.find_element(By.CSS_SELECTOR, "#history li").get_attribute("class") == "future"
    page.find_element(By.ID, "redo").click()
    wait(page, lambda d: d.find_element(By.ID, "to-move").text.startswith("Chance"))
    page.find_element(By.ID, "random").click()
    wait(page, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#history li")) >= 2)
    assert page.find_elements(By.CSS_SELECTOR, "#history li")[1].text.startswith("draw ")


def test_a_puzzle_reveals_one_step_at_a_time_and_checks_an_answer(page: Any,
                                                                    server: Server) -> None:
    open_board(page, server, "pool-party-stars", "easy-01")
    assert page.find_element(By.ID, "puzzle").is_displayed()
    assert not page.find_element(By.ID, "solve").is_displayed()  # the answer stays hidden
    page.find_element(By.ID, "next-step").click()
    wait(page, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#steps li")) == 1)
    first = page.find_element(By.CSS_SELECTOR, "#steps li").text
    assert first.startswith("#1 ")
    assert "rule is Sport" not in page.find_element(By.TAG_NAME, "body").text
    page.find_element(By.ID, "next-step").click()
    wait(page, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#steps li")) == 2)
    Select(page.find_element(By.ID, "answer")).select_by_value("Monster")
    page.find_element(By.ID, "check").click()
    wait(page, lambda d: d.find_element(By.ID, "verdict").text.startswith("not Monster"))
    Select(page.find_element(By.ID, "answer")).select_by_value("Sport")
    page.find_element(By.ID, "check").click()
    wait(page, lambda d: d.find_element(By.ID, "verdict").text.startswith("right"))


def test_a_layout_puzzle_reveals_placements_on_the_picture(page: Any, server: Server) -> None:
    open_board(page, server, "meeple-land", "puzzle")
    page.find_element(By.ID, "next-step").click()
    wait(page, lambda d: "1 of " in d.find_element(By.ID, "caption").text)
    assert len(page.find_elements(By.CSS_SELECTOR, "#steps li")) == 1


def test_a_problem_is_listed_and_marked_on_the_picture(page: Any, server: Server) -> None:
    open_board(page, server, "meeple-land", "park")
    text = page.find_element(By.ID, "paste").get_attribute("value")
    broken = text.replace('{ tile = "S13", at = [5, 1] }', '{ tile = "S13", at = [5, 5] }')
    assert broken != text
    page.execute_script("document.getElementById('paste-box').open = true;")
    field = page.find_element(By.ID, "paste")
    page.execute_script("arguments[0].value = arguments[1];", field, broken)
    page.find_element(By.ID, "load-paste").click()
    wait(page, lambda d: d.find_element(By.ID, "description").text == "your pasted file")
    page.find_element(By.ID, "verify").click()
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#result ul.problems li"))
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#picture svg rect.mark"))
    # A field counts list items from 1, as its message does: placed[5] is S13, the fifth.
    first = page.find_element(By.CSS_SELECTOR, "#result ul.problems li")
    assert "placed[5]" in first.text and "S13" in first.text
    first.click()
    marked = ("return Array.from(document.querySelectorAll('#picture svg rect.mark'))"
              ".map(m => m.nextElementSibling.textContent)")
    wait(page, lambda d: d.execute_script(marked))
    assert all("S13" in label for label in page.execute_script(marked)), \
        page.execute_script(marked)


def test_the_board_fits_a_phone(page: Any, server: Server) -> None:
    page.set_window_size(360, 800)
    open_board(page, server, "pool-party-stars", "default")
    width = page.execute_script("return document.documentElement.scrollWidth")
    assert width <= 360, f"the page is {width} px wide on a 360 px screen"
    for button in ("hint", "verify", "undo", "play-move"):
        box = page.find_element(By.ID, button).rect
        assert box["x"] >= 0 and box["x"] + box["width"] <= 360
    page.find_element(By.ID, "hint").click()
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#result ol.moves li"))
    assert page.execute_script("return document.documentElement.scrollWidth") <= 360
    page.get(server.url)
    assert page.execute_script("return document.documentElement.scrollWidth") <= 360


def test_hostile_player_names_stay_text(page: Any, server: Server) -> None:
    open_board(page, server, "tea-party", "default")
    page.execute_script("document.getElementById('paste-box').open = true;")
    field = page.find_element(By.ID, "paste")
    page.execute_script("arguments[0].value = arguments[1];", field, evil_tea_party())
    page.find_element(By.ID, "load-paste").click()
    wait(page, lambda d: EVIL in d.find_element(By.ID, "to-move").text)
    texts = ("return Array.from(document.querySelectorAll('#picture svg text'))"
             ".map(t => t.textContent).join(' ')")
    wait(page, lambda d: EVIL in d.execute_script(texts))  # the picture may be redrawn
    page.find_element(By.ID, "hint").click()
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#result ol.moves li"))
    assert no_alert(page)
    assert not page.find_elements(By.CSS_SELECTOR, "#picture script, #result script")
    assert QUOTES in page.execute_script(texts)
    onload = page.execute_script(
        "return Array.from(document.querySelectorAll('#picture *'))"
        ".some(n => Array.from(n.attributes).some(a => a.name.startsWith('on')))")
    assert onload is False


# -- what the review of the board found -------------------------------------------------------


def open_any(driver: Any, server: Server, game: str, example: str) -> None:
    """Open a board on a position that may have no picture (a catalogue, a bad log)."""
    driver.get(f"{server.url}board/{game}?example={example}")
    wait(driver, lambda d: d.execute_script(
        "const s = window.partysolverBoard; return Boolean(s && s.doc) && "
        "document.getElementById('message').textContent !== 'loading…';"))


def paste(driver: Any, text: str) -> None:
    driver.execute_script("document.getElementById('paste-box').open = true;")
    driver.execute_script("arguments[0].value = arguments[1];",
                          driver.find_element(By.ID, "paste"), text)
    driver.find_element(By.ID, "load-paste").click()


def test_a_hint_before_a_draw_lists_each_draw_and_offers_no_draw_move(page: Any,
                                                                     server: Server) -> None:
    open_board(page, server, "tea-party", "opening")
    Select(page.find_element(By.ID, "time-limit")).select_by_value("2")
    page.find_element(By.ID, "hint").click()
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#result table.draws tbody tr"))
    wait(page, lambda d: d.find_element(By.ID, "progress").get_attribute("hidden") is not None)
    rows = page.find_elements(By.CSS_SELECTOR, "#result table.draws tbody tr")
    assert len(rows) == 8  # one a hero: its chance, the best answer and its value
    cells = [cell.text for cell in rows[0].find_elements(By.TAG_NAME, "td")]
    assert cells[0] == "Fighter" and cells[1] == "34.9%"
    assert cells[2] and cells[3].endswith("% to win")
    # The draw is entered under Play along (its outcome buttons): nothing here plays "draw".
    assert not page.find_elements(By.CSS_SELECTOR, "#result button")
    summary = page.find_element(By.CSS_SELECTOR, "#result .draw-summary").text
    assert "% to win before the draw" in summary
    assert "no arrows" not in page.find_element(By.ID, "caption").text
    # Meeple Party's draws list the best turn's steps in words and its figures
    open_board(page, server, "meeple-party", "before-the-draw")
    Select(page.find_element(By.ID, "time-limit")).select_by_value("10")
    page.find_element(By.ID, "hint").click()
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#result table.draws tbody tr"))
    cells = [cell.text for cell in page.find_elements(
        By.CSS_SELECTOR, "#result table.draws tbody tr")[0].find_elements(By.TAG_NAME, "td")]
    assert cells[0] == "Draw a flirt" and cells[1].endswith("%")
    assert cells[2].startswith("welcome the Flirt") and cells[3].endswith(" stress")


def test_hint_values_say_what_they_are(page: Any, server: Server) -> None:
    open_board(page, server, "tea-party", "default")
    Select(page.find_element(By.ID, "time-limit")).select_by_value("2")
    page.find_element(By.ID, "hint").click()
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#result ol.moves li"))
    value = page.find_element(By.CSS_SELECTOR, "#result li.best .value").text
    assert re.fullmatch(r"\d+\.\d% to win( \(exact\))?", value), value
    open_board(page, server, "party-time", "near-the-star")
    page.find_element(By.ID, "hint").click()
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#result ol.moves li"))
    value = page.find_element(By.CSS_SELECTOR, "#result li.best .value").text
    # As the CLI's table: the expected loss and its interval, never the negated sort value.
    assert re.fullmatch(r"exp\. loss \d\.\d{3} \[\d\.\d{3}, \d\.\d{3}\]", value), value


def test_an_illegal_move_is_told_beside_the_move_on_a_phone(page: Any, server: Server) -> None:
    page.set_window_size(390, 844)
    open_board(page, server, "tea-party", "default")
    page.execute_script("document.getElementById('move').scrollIntoView({block: 'center'})")
    page.find_element(By.ID, "move").send_keys("squish queen as bard on Purple")
    page.find_element(By.ID, "play-move").click()
    wait(page, lambda d: d.find_element(By.ID, "move-message").text)
    told = page.find_element(By.ID, "move-message")
    assert told.text.startswith("bad input: step 1: ") and "error" in told.get_attribute("class")
    assert told.get_attribute("aria-live") == "polite"
    top, bottom, height = page.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return [r.top, r.bottom, "
        "window.innerHeight];", told)
    assert top >= 0 and bottom <= height, (top, bottom, height)
    assert page.find_element(By.ID, "message").text == ""


def test_a_broken_file_is_an_error_and_is_not_loaded(page: Any, server: Server) -> None:
    open_board(page, server, "tea-party", "default")
    paste(page, 'game = "tea-party"\nplayers = ["Blue", "Green"]\ncurrent = "Red"\n')
    message = page.find_element(By.ID, "message")
    wait(page, lambda d: "current: expected" in message.text)
    assert "error" in message.get_attribute("class")
    assert "Play along is not available" not in message.text
    assert page.find_element(By.ID, "description").text != "your pasted file"
    assert page.execute_script("return window.partysolverBoard.doc.source") == \
        "tea-party:examples/default"
    assert not page.find_element(By.ID, "caption").text.startswith("no picture")


@pytest.mark.parametrize(("game", "example", "why"), [
    ("meeple-land", "park", "a park on its own"),
    ("meeple-land", "my-catalogue", "a catalogue of tiles"),
    ("pool-party-stars", "conflict", "no assignment of the secret rules fits these events")])
def test_a_good_file_without_play_along_says_why_in_words(page: Any, server: Server, game: str,
                                                          example: str, why: str) -> None:
    open_any(page, server, game, example)
    message = page.find_element(By.ID, "message")
    wait(page, lambda d: message.text.startswith("Play along is not available: "))
    assert why in message.text and "expected" not in message.text
    assert "error" not in message.get_attribute("class")
    assert not page.find_element(By.ID, "play").is_displayed()
    wait(page, lambda d: d.find_element(By.ID, "caption").text
         or d.find_elements(By.CSS_SELECTOR, "#picture svg"))
    assert "bad input" not in page.find_element(By.ID, "caption").text


def test_an_unknown_shipped_position_leaves_nothing_to_press(page: Any, server: Server) -> None:
    page.get(f"{server.url}board/tea-party?example=nope")
    message = page.find_element(By.ID, "message")
    wait(page, lambda d: "nope" in message.text)
    assert "error" in message.get_attribute("class")
    assert not page.find_element(By.ID, "play").is_displayed()  # no Undo, Redo, Random outcome
    for button in ("hint", "solve", "verify", "undo", "redo", "random"):
        assert not page.find_element(By.ID, button).is_enabled() or \
            not page.find_element(By.ID, button).is_displayed()


def test_verify_keeps_a_problems_lines_and_says_invalid_once(page: Any, server: Server) -> None:
    open_any(page, server, "pool-party-stars", "conflict")
    page.find_element(By.ID, "verify").click()
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#result ul.problems li"))
    problem = page.find_element(By.CSS_SELECTOR, "#result ul.problems .problem-text")
    assert "\n" in problem.text and "event 1: " in problem.text.splitlines()[1]
    status = page.find_element(By.CSS_SELECTOR, "#result p").text
    assert status.startswith("invalid — ") and "invalid" not in status[len("invalid"):]


def test_one_worker_serves_the_hint_and_then_its_arrows(page: Any,
                                                        tmp_path_factory: Any) -> None:
    lone = start_server(tmp_path_factory.mktemp("lone"), "--workers", "1")
    try:
        open_board(page, lone, "tea-party", "default")
        Select(page.find_element(By.ID, "time-limit")).select_by_value("2")
        page.find_element(By.ID, "hint").click()
        wait(page, lambda d: d.find_element(By.ID, "progress").get_attribute("hidden")
             is not None and d.find_element(By.ID, "result").text)
        result = page.find_element(By.ID, "result").text
        assert "no worker came free" not in result
        assert page.find_elements(By.CSS_SELECTOR, "#result ol.moves li"), result
        wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#picture svg [marker-end]"))
    finally:
        stop_server(lone)


# -- what each document supports and keeps back (issue 26: the game contract) ------------------


def test_the_board_offers_only_the_verbs_the_document_supports(page: Any,
                                                               server: Server) -> None:
    for game, example, solves in (("meeple-land", "default", False),
                                  ("meeple-party", "default", False),
                                  ("meeple-land", "park", True),
                                  ("tea-party", "default", True)):
        open_any(page, server, game, example)
        wait(page, lambda d: d.find_element(By.ID, "verify").is_enabled())
        assert page.find_element(By.ID, "solve").is_displayed() is solves, (game, example)
        assert page.find_element(By.ID, "verify").is_displayed(), (game, example)
        hints = game != "meeple-land" or example == "default"
        assert page.find_element(By.ID, "hint").is_displayed() is hints, (game, example)


def test_a_puzzles_answer_is_in_neither_the_page_nor_its_paste_box(page: Any,
                                                                   server: Server) -> None:
    for example, recorded in (("puzzle", "layouts = 111"), ("05-blocked-gate", "layouts = 22")):
        open_board(page, server, "meeple-land", example)
        assert page.find_element(By.ID, "puzzle").is_displayed()
        pasted = page.find_element(By.ID, "paste").get_attribute("value")
        assert pasted.startswith("#") and "pool = " in pasted, pasted
        assert "answer" not in pasted.lower() and "layouts" not in pasted, pasted
        assert recorded not in page.page_source and "proven optimum" not in page.page_source
        held = page.execute_script("return JSON.stringify(window.partysolverBoard.doc.data)")
        assert "layouts" not in held and '"answer"' not in held
        assert not page.find_element(By.ID, "solve").is_displayed()
    # The answer is still judged against the file's own (the server reads the shipped file).
    page.find_element(By.ID, "answer").send_keys("M33 at 0,2")
    page.find_element(By.ID, "check").click()
    wait(page, lambda d: d.find_element(By.ID, "verdict").text)
    assert "optimum is 5" in page.find_element(By.ID, "verdict").text or \
        page.find_element(By.ID, "verdict").text.startswith("not a legal answer")


@pytest.mark.parametrize("scenario", ["04-one-jerk", "01-last-photo"])
def test_a_scenario_offers_nothing_that_gives_the_answer_away(page: Any, server: Server,
                                                              scenario: str) -> None:
    # A yes-or-no question: the first step of a winning line would say "yes" and its lack
    # "no", so a "no" scenario and a "yes" one show the same buttons and the same page.
    open_board(page, server, "meeple-party", scenario)
    assert page.find_element(By.ID, "puzzle").is_displayed()
    for button in ("solve", "hint", "next-step"):
        assert not page.find_element(By.ID, button).is_displayed()
    assert page.find_element(By.ID, "check").is_displayed()
    assert page.find_element(By.ID, "show-answer").is_displayed()
    assert [o.text for o in Select(page.find_element(By.ID, "answer")).options][1:] == [
        "yes", "no"]
    said = page.find_element(By.TAG_NAME, "body").text
    assert "unsolvable" not in said and "no line" not in said and "is a proof" not in said


# -- what a look at every board found (a player's tour, at both sizes) --------------------------


def picture_title(driver: Any) -> str:
    return str(driver.execute_script(
        "const t = document.querySelector('#picture svg text'); return t ? t.textContent : '';"))


def hint_then_play(page: Any, server: Server, game: str, move: str,
                   hinted: Callable[[Any], Any]) -> str:
    """On the game's default board: a hint (2 s), waited for until ``hinted``, then ``move``
    played, up to the chance step it leads to; the picture's title before the move."""
    open_board(page, server, game, "default")
    Select(page.find_element(By.ID, "time-limit")).select_by_value("2")
    page.find_element(By.ID, "hint").click()
    wait(page, hinted)
    before = picture_title(page)
    page.find_element(By.ID, "move").send_keys(move)
    page.find_element(By.ID, "play-move").click()
    wait(page, lambda d: d.find_element(By.ID, "to-move").text.startswith("Chance"))
    return before


def test_a_move_redraws_the_picture_at_once_where_the_hint_draws_no_arrows(
        page: Any, server: Server) -> None:
    # The hint follows the moves; at a draw it draws no arrows, and the picture must still
    # show the new position, not the last one with its arrows.
    before = hint_then_play(page, server, "tea-party", "cup",
                            lambda d: d.find_elements(By.CSS_SELECTOR, "#picture svg [marker-end]"))
    assert "Blue to play" in before, before
    wait(page, lambda d: picture_title(d) != before)
    wait(page, lambda d: d.find_element(By.ID, "progress").get_attribute("hidden") is not None)
    assert not page.find_elements(By.CSS_SELECTOR, "#picture svg [marker-end]")
    assert picture_title(page) != before


def test_a_hint_that_follows_to_a_step_of_chance_it_cannot_answer_says_so_in_words(
        page: Any, server: Server) -> None:
    # Party-Time's hint answers the seat's own plays: after Ann plays, her draw and the next
    # players' plays are chance here; the hint, following the moves, is no error there.
    hint_then_play(page, server, "party-time", "play 2", lambda d: d.find_elements(
        By.CSS_SELECTOR, "#result ol.moves li") and d.find_element(
        By.ID, "progress").get_attribute("hidden") is not None)
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#result p.no-hint"))
    said = page.find_element(By.ID, "result").text
    assert said.startswith("No hint at this step: it is a chance step"), said
    assert "bad input" not in said and "expected" not in said, said
    assert not page.find_elements(By.CSS_SELECTOR, "#result .error")
    wait(page, lambda d: "Ann to play" not in picture_title(d))
    # Who is chance here is said once, its own brackets not followed by the board's.
    to_move = page.find_element(By.ID, "to-move").text
    assert to_move.endswith(". Pick the outcome, or press Random outcome."), to_move
    assert ") (" not in to_move, to_move


def test_a_solution_reads_as_words_not_as_json(page: Any, server: Server) -> None:
    # Pool Party Stars' solution nests a table of chances and a chain of reasons in each
    # player's item: each is written out in words, never as JSON.
    open_board(page, server, "pool-party-stars", "default")
    page.find_element(By.ID, "solve").click()
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#result dl.solution"))
    said = page.find_element(By.CSS_SELECTOR, "#result dl.solution").text
    assert "{" not in said and '":' not in said and "[" not in said and "null" not in said, said
    assert "certain: Robot" in said and "certain: none" in said, said
    assert "eliminated: Animal, Monster, " in said, said
    assert "chain: #9 Ben barred Robot-Swimsuit-Book: " in said, said
    assert "; so Ben's rule is Robot" in said, said

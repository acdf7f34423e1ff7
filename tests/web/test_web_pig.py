"""Pig (``examples/pig``, a game another installed package registers) on the web: the JSON API
answers every verb in the shared contract (``POST /api/pig/hint`` with the exact chances), bad
input names its field, the start page lists it, and its board in a real headless Chromium draws
the hint as an arrow and plays a move.  Skipped with one line when the plugin is not installed
(``make test`` installs it); the browser test also when there is no Chromium."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from starlette.testclient import TestClient
from test_web_browser import CHROMIUM, DRIVER, browser, open_board, page, wait, webdriver
from web_helpers import Server

from partysolver.app.contract import schema

pytest.importorskip("partysolver_pig", reason="the Pig plugin is not installed "
                    "(pip install -e examples/pig; make test installs it)")

from partysolver_pig import solver  # noqa: E402

__all__ = ["browser", "page"]  # the browser test's fixtures, shared with test_web_browser

NO_BROWSER = webdriver is None or CHROMIUM is None or DRIVER is None


def post(client: TestClient, verb: str, **body: Any) -> Any:
    return client.post(f"/api/pig/{verb}", json=body)


def test_hint_answers_with_the_exact_chances_in_the_contract(client: TestClient) -> None:
    answer = post(client, "hint", example="default")
    assert answer.status_code == 200, answer.text
    data = answer.json()
    jsonschema.validate(data, schema("hint"))
    table = solver.values(100)
    assert data["status"] == "exact" and data["to_move"] == "Ada"
    assert [m["move"] for m in data["moves"]] == ["roll", "hold"]
    assert data["moves"][0]["value"] == round(table.roll(45, 60, 12), 6)
    assert data["moves"][1]["reason"].startswith("bank 12 points")


def test_every_verb_answers_on_the_shipped_examples(client: TestClient) -> None:
    for verb, example in (("solve", "short"), ("verify", "default")):
        answer = post(client, verb, example=example)
        assert answer.status_code == 200, answer.text
        jsonschema.validate(answer.json(), schema(verb))
    applied = post(client, "apply", example="default", moves=["roll", "4"]).json()
    assert applied["legal_moves"] == ["roll", "hold"] and applied["position"]["turn_total"] == 16
    picture = post(client, "render", example="default", options={"hint": True}).json()
    assert 'data-start="turn-total"' in picture["svg"]
    refused = post(client, "solve", example="three-players")
    assert refused.status_code == 400
    assert "no exact solve" in refused.text and "'solve' does not apply" in refused.text
    # the board reads Pig's kinds and figures from the games' list, as any game's
    declared = next(g for g in client.get("/api/games").json()["games"] if g["game"] == "pig")
    assert [kind["name"] for kind in declared["kinds"]] == ["position", "table", "record"]
    assert declared["figures"]["shown"][0]["label"] == "to win"


def test_a_bad_document_names_its_field_and_expectation(client: TestClient) -> None:
    bad = {"game": "pig", "goal": 1, "players": [{"name": "Ada", "score": 0}]}
    answer = post(client, "hint", document=bad)
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert (error["field"], error["expected"], error["got"]) == (
        "goal", "an integer from 2 to 1000", 1)


def test_the_start_page_lists_pig_and_its_examples(client: TestClient) -> None:
    page_ = client.get("/").text
    assert 'href="/board/pig"' in page_ and "example=examples/short" in page_


@pytest.mark.skipif(NO_BROWSER, reason="browser tests: no selenium or no chromium/chromedriver "
                                       "on this machine (apt-get install chromium "
                                       "chromium-driver)")
def test_the_pig_board_draws_the_hint_and_plays_a_roll(page: Any, server: Server) -> None:
    from selenium.webdriver.common.by import By

    open_board(page, server, "pig", "default")
    page.find_element(By.ID, "hint").click()
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#result ol.moves li"))
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#picture svg [marker-end]"))
    assert page.find_element(By.CSS_SELECTOR, "#result li.best .move").text == "roll"
    value = page.find_element(By.CSS_SELECTOR, "#result li.best .value").text
    assert value.endswith("% to win"), value  # Pig's declared figure, read by the board
    page.find_element(By.CSS_SELECTOR, "#result li.best button.move").click()
    wait(page, lambda d: [li.text for li in d.find_elements(By.CSS_SELECTOR, "#history li")]
         == ["roll"])
    buttons = page.find_elements(By.CSS_SELECTOR, "#legal button")
    outcomes = [b.get_attribute("data-move") for b in buttons]
    assert outcomes[:6] == ["1", "2", "3", "4", "5", "6"]
    assert [b.text for b in buttons[:6]] == [f"{n} 16.7%" for n in outcomes[:6]]  # chances

"""The board reads what each game declares (issue 26, item 1): the kinds of document a game
reads and the verbs each supports, what a puzzle keeps back, and how figures read.  Through
the ASGI test client on a real worker pool."""

from __future__ import annotations

import json
from typing import Any

import pytest
from starlette.testclient import TestClient

from partysolver import puzzles
from partysolver.app.kinds import DOCUMENT_VERBS
from partysolver.models.documents import parse_document


def post(client: TestClient, game: str, verb: str, **body: Any) -> Any:
    return client.post(f"/api/{game}/{verb}", json=body)


def games(client: TestClient) -> dict[str, Any]:
    answer = client.get("/api/games")
    assert answer.status_code == 200
    return {item["game"]: item for item in answer.json()["games"]}


def test_the_games_description_lists_each_kind_with_its_verbs(client: TestClient) -> None:
    described = games(client)
    for key, item in described.items():
        kinds = {kind["name"]: kind for kind in item["kinds"]}
        assert "position" in kinds and "record" in kinds, key
        for kind in kinds.values():
            assert kind["verbs"] and set(kind["verbs"]) <= set(DOCUMENT_VERBS), (key, kind)
            assert (kind["puzzle"] is None) == ("check" not in kind["verbs"]), (key, kind)
        assert "review" in kinds["record"]["verbs"]
        assert item["figures"]["column"], key
    assert "solve" in kinds_of(described, "tea-party")["position"]
    assert "solve" not in kinds_of(described, "meeple-land")["position"]
    assert kinds_of(described, "meeple-land")["puzzle"] == ["hint", "solve", "verify", "render",
                                                            "check"]
    assert kinds_of(described, "meeple-land")["catalogue"] == ["verify"]
    assert "solve" not in kinds_of(described, "meeple-party")["position"]
    assert {"solve", "check"} <= set(kinds_of(described, "meeple-party")["scenario"])
    assert "seat log" in kinds_of(described, "pool-party-stars")


def kinds_of(described: dict[str, Any], game: str) -> dict[str, list[str]]:
    return {kind["name"]: kind["verbs"] for kind in described[game]["kinds"]}


def test_each_game_says_how_its_figures_read(client: TestClient) -> None:
    described = games(client)
    labels = {key: [f["label"] for f in item["figures"]["shown"]]
              for key, item in described.items()}
    assert labels["tea-party"] == ["to win"] and \
        described["tea-party"]["figures"]["shown"][0]["style"] == "percent"
    assert labels["meeple-party"] == ["stress", "to win"]
    assert labels["party-time"] == ["exp. loss"]
    assert labels["meeple-land"] == ["est. reputation"]
    assert described["party-time"]["figures"]["negated"] == "minus "


@pytest.mark.parametrize(("game", "example", "kind", "solve"), [
    ("meeple-land", "default", "position", False),
    ("meeple-land", "puzzle", "puzzle", True),
    ("meeple-land", "park", "park", True),
    ("meeple-party", "default", "position", False),
    ("meeple-party", "04-one-jerk", "scenario", True),
    ("tea-party", "default", "position", True),
    ("pool-party-stars", "easy-01", "puzzle", True),
    ("pool-party-stars", "default", "seat log", True),
])
def test_inspect_gives_the_verbs_of_the_documents_kind(client: TestClient, game: str,
                                                         example: str, kind: str,
                                                         solve: bool) -> None:
    data = post(client, game, "inspect", example=example).json()
    assert data["document_kind"]["name"] == kind
    assert data["verbs"] == data["document_kind"]["verbs"]
    assert ("solve" in data["verbs"]) is solve


def test_solve_where_the_kind_does_not_take_it_is_refused_in_the_boards_words(
        client: TestClient) -> None:
    for game in ("meeple-land", "meeple-party"):
        answer = post(client, game, "solve", example="default")
        assert answer.status_code == 400
        message = answer.json()["error"]["message"]
        assert message.startswith(f"{game}:examples/default is a ")
        assert message.endswith(" in progress: 'solve' does not apply to it (it takes: hint, "
                                "verify, render, apply, play)"), message
        assert "partysolver" not in message  # no command line to run on a web board


PUZZLES = ["puzzle", "05-blocked-gate", "14-grand-opening"]
"""Meeple Land puzzles that record their answer: a one-line table, a [answer] table."""


@pytest.mark.parametrize("name", PUZZLES)
def test_a_puzzle_served_to_the_board_has_no_answer_in_any_field(client: TestClient,
                                                                  name: str) -> None:
    shipped = next(item for folder in ("examples", "puzzles")
                   for key, item in puzzles.files("meeple-land", folder).items() if key == name)
    whole = shipped.read_text(encoding="utf-8")
    recorded = parse_document(whole, name)["answer"]
    assert recorded  # the file holds its answer: the board must not
    served = [post(client, "meeple-land", "inspect", example=name).json(),
              post(client, "meeple-land", "inspect", document=whole).json(),
              post(client, "meeple-land", "inspect",
                   document=parse_document(whole, name)).json(),
              client.get(f"/api/meeple-land/examples/{name}").json()]
    for answer in served:
        assert "[answer]" not in answer["text"] and "\nanswer =" not in answer["text"]
        assert "answer" not in answer["text"].lower()  # no answer line, no answer table
        assert "answer" not in answer.get("data", {})
        assert "layouts" not in json.dumps(answer)
        assert parse_document(answer["text"], "shown.toml") == {
            k: v for k, v in parse_document(whole, name).items() if k != "answer"}
    assert served[0]["text"].startswith("#")  # the description stays


def test_a_concealed_puzzle_is_still_judged(client: TestClient) -> None:
    shown = post(client, "meeple-land", "inspect", example="puzzle").json()
    solved = post(client, "meeple-land", "solve", example="puzzle").json()["solution"]
    layout = "\n".join(f"{p['tile']} at {p['at'][0]},{p['at'][1]} turned {p['rotation']}"
                       for p in solved["placements"])
    judged = post(client, "meeple-land", "check", document=shown["data"], answer=layout).json()
    assert judged["correct"] is True and judged["value"] == judged["best"] == 8


@pytest.mark.parametrize("name", ["04-one-jerk", "07-two-turn-hunt"])
def test_a_scenario_keeps_its_answer_line_back(client: TestClient, name: str) -> None:
    whole = puzzles.files("meeple-party", "scenarios")[name].read_text(encoding="utf-8")
    assert "# Answer: no" in whole
    answer = post(client, "meeple-party", "inspect", example=name).json()
    assert "Answer:" not in answer["text"] and answer["puzzle"] == "yes-no"
    assert answer["document_kind"]["choices"] == ["yes", "no"]

"""``POST /api/GAME/review``: the review the board shows (marks, accuracy, the graph and skill
against luck), from a record or from a position and the moves played on it, through the one
dispatcher: the same report as ``partysolver review --json``."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from partysolver.app.contract import schema
from partysolver.cli.main import cli


def post(client: TestClient, game: str, **body: Any) -> Any:
    return client.post(f"/api/{game}/review", json=body)


ENDGAME = ["squish king as rogue on Green take rogue", "cup"]


def test_a_position_and_moves_are_reviewed_as_their_record(client: TestClient) -> None:
    answer = post(client, "tea-party", example="default", moves=ENDGAME,
                  options={"seed": 1})
    assert answer.status_code == 200, answer.text
    data = answer.json()
    jsonschema.validate(data, schema("review"))
    assert [d["move"] for d in data["decisions"]] == ENDGAME
    assert data["decisions"][1]["label"] == "blunder"
    assert [step["number"] for step in data["steps"]] == [0, 1, 2]
    # the player's sum is the sum of their decisions' losses (the first is 0 when its exact
    # search ends in time, a small estimate when a loaded machine cuts it short)
    assert data["players"]["Blue"]["decision_loss"] == pytest.approx(
        sum(d["lost"] for d in data["decisions"]), abs=2e-6)
    assert data["complete"] and "skill against luck" in data["text"]
    # the record the board downloads, sent back, is reviewed the same way
    applied = client.post("/api/tea-party/apply", json={"example": "default",
                                                        "moves": ENDGAME}).json()
    again = post(client, "tea-party", document=applied["record"], options={"seed": 1}).json()
    assert [(d["move"], d["best"], d["label"]) for d in again["decisions"]] == [
        (d["move"], d["best"], d["label"]) for d in data["decisions"]]


def test_the_web_gives_the_clis_review(client: TestClient, tmp_path: Any) -> None:
    """Pig's values are exact whatever the time limit: the web's review of a record is the
    command line's, field for field."""
    pytest.importorskip("partysolver_pig", reason="the Pig plugin is not installed "
                        "(pip install -e examples/pig; make test installs it)")
    applied = client.post("/api/pig/apply", json={"example": "default",
                                                  "moves": ["roll", "5", "hold"]}).json()
    web = post(client, "pig", document=applied["record"], options={"seed": 1}).json()
    path = tmp_path / "game.record.toml"
    path.write_text(applied["record_text"])
    result = CliRunner().invoke(cli, ["review", str(path), "--json", "--seed", "1"])
    assert result.exit_code == 0, result.output
    printed = json.loads(result.stdout)
    assert {key: web[key] for key in printed} == printed
    assert web["text"] == CliRunner().invoke(cli, ["review", str(path), "--seed", "1"]
                                             ).stdout.rstrip("\n")


def test_a_pig_roll_is_all_luck_on_the_web(client: TestClient) -> None:
    pytest.importorskip("partysolver_pig", reason="the Pig plugin is not installed "
                        "(pip install -e examples/pig; make test installs it)")
    data = post(client, "pig", example="short", moves=["roll", "6"]).json()
    jsonschema.validate(data, schema("review"))
    ben, ada = data["players"]["Ben"], data["players"]["Ada"]
    assert ben["decision_loss"] == 0 and ben["luck"] > 0 and ben["luck_exact"]
    assert ada["luck"] == pytest.approx(-ben["luck"], abs=1e-6)
    assert data["steps"][-1]["luck"]["Ben"] == ben["luck"]


def test_review_refuses_bad_input_in_one_line(client: TestClient) -> None:
    position = post(client, "tea-party", example="default")
    assert position.status_code == 400
    assert "game record" in position.json()["error"]["message"]
    illegal = post(client, "tea-party", example="default", moves=["fly away"])
    assert illegal.status_code == 400 and "fly away" in illegal.json()["error"]["message"]
    moves = post(client, "tea-party", example="default", moves="cup")
    assert moves.status_code == 400 and moves.json()["error"]["field"] == "moves"
    who = post(client, "tea-party", example="default", moves=ENDGAME,
               options={"players": "Zed"})
    assert who.status_code == 400 and who.json()["error"]["field"] == "players"


def test_the_api_describes_review(client: TestClient) -> None:
    described = client.get("/api/openapi.json").json()
    path = described["paths"]["/api/{game}/review"]["post"]
    request = path["requestBody"]["content"]["application/json"]["schema"]
    assert request["properties"]["moves"]["type"] == "array"
    assert described["components"]["schemas"]["review"] == schema("review")
    options = described["components"]["schemas"]["options_review"]["properties"]
    assert {"players", "time_limit", "seed"} <= set(options)

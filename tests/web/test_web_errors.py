"""The web API's errors as data (issue 26 §2) and its one body reader (issue 27 cause 2):
every bad request is 400 with JSON naming the field, what was expected and what was got."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from partysolver.cli.main import cli
from partysolver.web.app import MAX_DEPTH, MAX_DIGITS
from partysolver.web.openapi import ERROR

JSON = {"content-type": "application/json"}


def error_of(answer: Any, status: int = 400) -> dict[str, Any]:
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"].startswith("application/json")
    body = answer.json()
    jsonschema.validate(body, ERROR)  # the shape the OpenAPI description gives
    assert body["status"] == status
    error: dict[str, Any] = body["error"]
    assert "\n" not in error["message"]
    return error


def test_a_bad_document_names_the_field_and_the_expectation_apart(client: TestClient,
                                                                  tmp_path: Path) -> None:
    text = client.get("/api/tea-party/examples/default").json()["text"]
    data = tomllib.loads(text) | {"current": 5}
    error = error_of(client.post("/api/tea-party/verify",
                                 json={"document": data, "filename": "mine.toml"}))
    assert (error["source"], error["field"], error["expected"], error["got"]) == \
        ("mine.toml", "current", "a string", 5)
    # The message is the line the command line prints for the same file.
    path = tmp_path / "mine.toml"
    path.write_text(text.replace('current = "Blue"', "current = 5"))
    printed = CliRunner().invoke(cli, ["verify", str(path)])
    assert printed.exit_code == 2
    assert printed.stderr.strip() == f"Error: {error['message']}".replace("mine.toml",
                                                                          str(path))


def test_a_bad_option_names_the_option_as_the_request_does(client: TestClient) -> None:
    error = error_of(client.post("/api/tea-party/hint",
                                 json={"example": "default", "options": {"time_limit": 61}}))
    assert (error["source"], error["field"], error["got"]) == (None, "time_limit", 61)
    assert "60" in error["expected"] and error["message"].startswith("bad input: time_limit:")
    other = error_of(client.post("/api/tea-party/hint",
                                 json={"example": "default", "options": {"playouts": 2}}))
    assert other["field"] == "playouts" and "exact_nodes" in other["expected"]
    assert other["reason"].startswith("not an option of tea-party hint")


def test_a_verb_a_game_does_not_offer_is_a_reason(client: TestClient) -> None:
    error = error_of(client.post("/api/party-time/solve", json={"example": "default"}))
    assert error["message"] == error["reason"]
    assert error["message"].startswith("party-time does not support 'solve'")
    assert (error["field"], error["got"]) == ("verb", "solve")


def test_a_missing_example_is_404_with_its_parts(client: TestClient) -> None:
    error = error_of(client.post("/api/tea-party/hint", json={"example": "nope"}), 404)
    assert (error["field"], error["got"]) == ("example", "nope")
    assert "GET /api/tea-party/examples" in error["message"]


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 5000, 200_000])
def test_json_nested_too_deep_is_400_naming_the_limit(client: TestClient, depth: int) -> None:
    body = '{"example": "default", "options": {"x": ' + "[" * depth + "]" * depth + "}}"
    error = error_of(client.post("/api/tea-party/hint", content=body, headers=JSON))
    assert error["field"] == "request" and f"{MAX_DEPTH} deep" in error["message"]


def test_json_at_the_nesting_limit_passes_the_reader(client: TestClient) -> None:
    nested = "[" * (MAX_DEPTH - 2) + "]" * (MAX_DEPTH - 2)
    body = '{"example": "default", "options": {"x": ' + nested + "}}"
    error = error_of(client.post("/api/tea-party/hint", content=body, headers=JSON))
    assert error["field"] == "x"  # read, then refused as an option tea-party does not take


@pytest.mark.parametrize("digits", [MAX_DIGITS + 1, 4301, 100_000])
def test_a_huge_integer_is_400_naming_the_limit(client: TestClient, digits: int) -> None:
    body = '{"example": "default", "options": {"seed": -' + "9" * digits + "}}"
    error = error_of(client.post("/api/tea-party/hint", content=body, headers=JSON))
    assert error["field"] == "request" and f"{MAX_DIGITS} digits" in error["expected"]
    assert str(digits) in error["message"]


def test_an_integer_at_the_limit_passes_the_reader(client: TestClient) -> None:
    body = '{"example": "default", "options": {"seed": ' + "9" * MAX_DIGITS + "}}"
    error = error_of(client.post("/api/tea-party/hint", content=body, headers=JSON))
    assert error["field"] == "seed"  # read, then refused by the seed's own range


@pytest.mark.parametrize("body", [b'{"example": "\xff"}', b"\xc3", b'game = "tea-\xe9"'])
@pytest.mark.parametrize("kind", ["application/json", "text/plain"])
def test_a_body_that_is_not_utf8_is_400(client: TestClient, body: bytes, kind: str) -> None:
    error = error_of(client.post("/api/tea-party/verify", content=body,
                                 headers={"content-type": kind}))
    assert error["field"] == "request" and "UTF-8" in error["message"]


@pytest.mark.parametrize("body", ["[1, 2]", '"text"', "null", "3", "true", "{", '{"a": NaN}',
                                  '{"a": Infinity}', "{} {}"])
def test_a_json_body_that_is_no_object_is_400(client: TestClient, body: str) -> None:
    error = error_of(client.post("/api/tea-party/verify", content=body, headers=JSON))
    assert error["field"] == "request" and error["expected"] == "a JSON object"


def test_another_content_type_is_a_document_as_text(client: TestClient) -> None:
    error = error_of(client.post("/api/tea-party/verify", content="players = [",
                                 headers={"content-type": "text/plain"}))
    assert error["source"] == "document.toml" and "TOML" in error["expected"]
    text = client.get("/api/tea-party/examples/default").json()["text"]
    answer = client.post("/api/tea-party/verify", content=text,
                         headers={"content-type": "application/toml"})
    assert answer.status_code == 200 and answer.json()["valid"] is True


def test_every_answer_other_than_200_has_the_same_shape(client: TestClient) -> None:
    for answer, status in ((client.get("/api/nope/examples"), 404),
                           (client.get("/api/tea-party/hint"), 405),
                           (client.post("/api/tea-party/hint", content=b"x" * (2 << 20)), 413)):
        error = error_of(answer, status)
        assert set(error) >= {"message", "source", "field", "expected"}

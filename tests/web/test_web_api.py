"""The JSON API through the ASGI test client (a real worker pool behind it): every game and
verb answers in the shared contract (checked against the shipped schemas), bad input gets the
CLI's one-line message and field, and the limits and the escaping hold."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ElementTree
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient
from web_helpers import EVIL, QUOTES, evil_tea_party

from partysolver.app import catalog
from partysolver.app.contract import schema
from partysolver.cli.main import cli
from partysolver.web import jobs, pages
from partysolver.web.app import MAX_BODY
from partysolver.web.openapi import openapi

GAMES = ("tea-party", "pool-party-stars", "party-time", "meeple-party", "meeple-land")

FAST = {"tea-party": {"time_limit": 2}, "party-time": {"playouts": 0},
        "meeple-party": {"time_limit": 3}, "pool-party-stars": {}, "meeple-land": {}}
"""Options that keep each game's default hint quick."""

SOLVABLE = {"tea-party": "default", "pool-party-stars": "default",
            "meeple-party": "01-last-photo", "meeple-land": "puzzle"}
"""A shipped position ``solve`` takes, per game that has the verb (Party-Time has not)."""


def post(client: TestClient, game: str, verb: str, **body: Any) -> Any:
    return client.post(f"/api/{game}/{verb}", json=body)


def valid(verb: str, data: dict[str, Any]) -> None:
    jsonschema.validate(data, schema(verb))


# -- every game and verb ----------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_hint_answers_in_the_contract(client: TestClient, game: str) -> None:
    answer = post(client, game, "hint", example="default", options=FAST[game] | {"top": 3})
    assert answer.status_code == 200, answer.text
    data = answer.json()
    valid("hint", data)
    assert data["game"] == game
    assert 1 <= len(data["moves"]) <= 3
    assert data["text"]  # what the CLI prints, for people


@pytest.mark.parametrize("game", sorted(SOLVABLE))
def test_solve_answers_in_the_contract(client: TestClient, game: str) -> None:
    answer = post(client, game, "solve", example=SOLVABLE[game], options={"time_limit": 10})
    assert answer.status_code == 200, answer.text
    data = answer.json()
    valid("solve", data)
    assert data["status"] in ("optimal", "solvable")


def test_a_game_without_solve_says_so_in_one_line(client: TestClient) -> None:
    answer = post(client, "party-time", "solve", example="default")
    assert answer.status_code == 400
    assert answer.json()["error"]["message"] == (
        "party-time does not support 'solve' (it supports: "
        "apply, hint, play, render, review, simulate, verify)")


@pytest.mark.parametrize("game", GAMES)
def test_verify_answers_in_the_contract(client: TestClient, game: str) -> None:
    answer = post(client, game, "verify", example="default")
    assert answer.status_code == 200, answer.text
    data = answer.json()
    valid("verify", data)
    assert data["valid"] is True and data["problems"] == []


def test_verify_lists_every_problem_with_its_field(client: TestClient) -> None:
    answer = post(client, "pool-party-stars", "verify", example="lie")
    assert answer.status_code == 200  # a verification that finds problems is an answer
    data = answer.json()
    valid("verify", data)
    assert data["valid"] is False and len(data["problems"]) >= 2
    assert all(problem["message"] for problem in data["problems"])


@pytest.mark.parametrize("game", GAMES)
def test_render_draws_the_hint_as_arrows(client: TestClient, game: str) -> None:
    example = "near-the-star" if game == "party-time" else "default"
    answer = post(client, game, "render", example=example, options=FAST[game] | {"hint": True})
    assert answer.status_code == 200, answer.text
    data = answer.json()
    valid("render", data)
    picture = ElementTree.fromstring(data["svg"])
    assert data["bytes"] == len(data["svg"].encode())
    arrows = [node for node in picture.iter() if node.get("marker-end")]
    assert arrows, f"no arrow in the {game} hint's picture"


def test_render_without_hint_has_no_arrow(client: TestClient) -> None:
    data = post(client, "tea-party", "render", example="default").json()
    assert "marker-end" not in data["svg"]


def test_render_gives_the_svg_itself_when_asked(client: TestClient) -> None:
    answer = client.post("/api/tea-party/render?format=svg",
                         json={"example": "default"})
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("image/svg+xml")
    assert answer.text.startswith("<svg")


@pytest.mark.parametrize("game", GAMES)
def test_apply_plays_a_legal_move(client: TestClient, game: str) -> None:
    start = post(client, game, "apply", example="default", moves=[]).json()
    valid("apply", start)
    assert start["legal"] == len(start["legal_moves"]) > 0 or start["legal"] > jobs.LEGAL_SHOWN
    move = start["legal_moves"][0]
    answer = post(client, game, "apply", example="default", moves=[move])
    assert answer.status_code == 200, answer.text
    data = answer.json()
    valid("apply", data)
    assert [step["move"] for step in data["applied"]] == [move]
    assert data["moves"] == [move]
    assert data["record"]["steps"] == [{"move": move}]
    # The position reached is a document the API takes back, and it verifies.
    again = post(client, game, "verify", document=data["position"])
    assert again.status_code == 200 and again.json()["valid"], again.text
    # The same position, sent as the TOML text the board downloads.
    text = client.post(f"/api/{game}/verify", content=data["position_text"])
    assert text.status_code == 200 and text.json()["valid"], text.text


def test_apply_replays_a_record_and_draws_chance(client: TestClient) -> None:
    first = post(client, "tea-party", "apply", example="default", moves=["cup"], random=True,
                 seed=3).json()
    assert first["moves"][0] == "cup" and first["moves"][1].startswith("draw ")
    record = post(client, "tea-party", "apply", document=first["record"], moves=[]).json()
    assert record["steps"] == len(first["moves"])
    assert record["position"] == first["position"]


def test_a_move_that_is_not_legal_gets_one_line(client: TestClient) -> None:
    answer = post(client, "tea-party", "apply", example="default", moves=["fly away"])
    assert answer.status_code == 400
    message = answer.json()["error"]["message"]
    assert message.startswith("bad input: step 1: ") and "\n" not in message
    assert "closest legal" in message


def test_the_document_may_be_toml_text_with_options_in_the_query(client: TestClient) -> None:
    text = client.get("/api/tea-party/examples/default").json()["text"]
    answer = client.post("/api/tea-party/hint?top=2&time_limit=2", content=text,
                         headers={"content-type": "application/toml"})
    assert answer.status_code == 200, answer.text
    assert len(answer.json()["moves"]) == 2


def test_a_json_body_naming_its_game_is_the_document(client: TestClient) -> None:
    data = post(client, "tea-party", "apply", example="default").json()["position"]
    answer = client.post("/api/tea-party/verify", json=data)
    assert answer.status_code == 200 and answer.json()["valid"]


# -- puzzle mode ------------------------------------------------------------------------------


def test_the_puzzle_hint_is_the_next_single_step(client: TestClient) -> None:
    data = post(client, "pool-party-stars", "hint", example="easy-01").json()
    valid("hint", data)
    assert len(data["moves"]) == 1 and data["moves"][0]["move"].startswith("deduce: ")
    assert "Sport" not in data["moves"][0]["move"]  # the answer stays hidden


def test_check_judges_a_rule_guess(client: TestClient) -> None:
    right = post(client, "pool-party-stars", "check", example="easy-01", answer="Sport").json()
    wrong = post(client, "pool-party-stars", "check", example="easy-01",
                 answer="Forbidden Monster").json()
    assert right["correct"] is True and wrong["correct"] is False
    assert "rule it out" in wrong["verdict"]


def test_check_judges_a_layout(client: TestClient) -> None:
    solved = post(client, "meeple-land", "solve", example="puzzle").json()["solution"]
    layout = "\n".join(f"{p['tile']} at {p['at'][0]},{p['at'][1]} turned {p['rotation']}"
                       for p in solved["placements"])
    best = post(client, "meeple-land", "check", example="puzzle", answer=layout).json()
    assert best["correct"] is True and best["value"] == best["best"] == 8
    worse = post(client, "meeple-land", "check", example="puzzle",
                 answer=layout.splitlines()[0]).json()
    assert worse["correct"] is False
    broken = post(client, "meeple-land", "check", example="puzzle", answer="M07 at 0,2").json()
    assert broken["correct"] is False and broken["problems"][0]["code"] == "unreachable"


def test_check_judges_a_scenario_answer(client: TestClient) -> None:
    yes = post(client, "meeple-party", "check", example="01-last-photo", answer="yes").json()
    no = post(client, "meeple-party", "check", example="04-one-jerk", answer="yes").json()
    assert yes["correct"] is True and no["correct"] is False


def test_check_refuses_a_position_that_is_no_puzzle(client: TestClient) -> None:
    answer = post(client, "tea-party", "check", example="default", answer="yes")
    assert answer.status_code == 400
    assert "expected a puzzle" in answer.json()["error"]["message"]


def test_inspect_refuses_bad_input_and_says_in_words_why_a_file_is_not_playable(
        client: TestClient) -> None:
    broken = post(client, "tea-party", "inspect", filename="pasted.toml",
                  document='game = "tea-party"\nplayers = ["Blue", "Green"]\ncurrent = "Red"\n')
    assert broken.status_code == 400 and broken.json()["error"]["field"] == "current"
    message = broken.json()["error"]["message"]
    assert message.startswith("bad input: pasted.toml: current: expected")
    for game, name, said in (("meeple-land", "park", "a park on its own"),
                             ("meeple-land", "my-catalogue", "a catalogue of tiles"),
                             ("pool-party-stars", "conflict", "no assignment of the secret "
                                                              "rules fits these events"),
                             ("pool-party-stars", "lie", "breaks the game's rules")):
        data = post(client, game, "inspect", example=name).json()
        assert data["playable"] is False, (name, data)
        assert said in data["not_playable"], (name, data["not_playable"])
        assert "expected" not in data["not_playable"] and ":examples/" not in \
            data["not_playable"]


def test_inspect_says_what_a_document_is(client: TestClient) -> None:
    puzzle = post(client, "meeple-land", "inspect", example="puzzle").json()
    assert puzzle["puzzle"] == "layout" and puzzle["playable"] is False
    game = post(client, "meeple-land", "inspect", example="default").json()
    assert game["puzzle"] is None and game["playable"] is True
    assert game["data"]["kind"] == "game" and "\ngame = " in game["text"]


def test_shipped_puzzles_keep_their_answer_lines_back(client: TestClient) -> None:
    text = client.get("/api/meeple-land/examples/puzzle").json()["text"]
    assert "# Answer" not in text
    assert client.get("/api/meeple-land/examples/nothing-like-this").status_code == 404


# -- bad input: the CLI's message and field ---------------------------------------------------


BAD_DOCUMENTS = [
    ("tea-party", 'game = "tea-party"\nplayers = ["A", "B"]\ncolour = 3\n'),
    ("tea-party", "game = [unclosed\n"),
    ("pool-party-stars", 'game = "pool-party-stars"\nplayers = "Ana"\n'),
    ("meeple-land", 'game = "meeple-land"\nkind = "park"\nplaced = 3\n'),
    ("party-time", '{"game": "party-time", "players": 7}'),
]


@pytest.mark.parametrize(("game", "text"), BAD_DOCUMENTS)
def test_bad_documents_get_the_clis_line_and_field(client: TestClient, tmp_path: Any,
                                                   game: str, text: str) -> None:
    name = "bad.json" if text.startswith("{") else "bad.toml"
    answer = client.post(f"/api/{game}/verify", json={"document": text, "filename": name})
    assert answer.status_code == 400
    error = answer.json()
    path = tmp_path / name
    path.write_text(text)
    printed = CliRunner().invoke(cli, ["verify", str(path)])
    assert printed.exit_code == 2
    expected = printed.output.strip().removeprefix("Error: ").replace(str(path), name)
    assert error["error"]["message"] == expected
    assert "\n" not in error["error"]["message"]
    if error["error"]["field"] is not None:
        assert error["error"]["field"] in error["error"]["message"]


def test_a_document_of_another_game_is_refused(client: TestClient) -> None:
    text = client.get("/api/tea-party/examples/default").json()["text"]
    answer = client.post("/api/pool-party-stars/hint", content=text)
    assert answer.status_code == 400
    assert answer.json()["error"]["field"] == "game"


def cli_error(*args: str) -> str:
    """The one line the CLI prints for bad input (exit code 2)."""
    printed = CliRunner().invoke(cli, list(args))
    assert printed.exit_code == 2, printed.output
    return printed.output.strip().removeprefix("Error: ")


def test_bad_options_get_the_clis_line_naming_the_api_field(client: TestClient) -> None:
    # Given as text, as on the command line, the value is quoted the same way; the option is
    # named as the request names it (top, not --top), and the answer names that field.
    top = post(client, "tea-party", "hint", example="default", options={"top": "0"})
    assert top.status_code == 400
    assert top.json() == {"error": {
        "message": cli_error("hint", "tea-party:default", "--top", "0").replace("--top", "top"),
        "source": None, "field": "top", "expected": "a number of moves of at least 1",
        "got": "0"}, "status": 400}
    number = post(client, "tea-party", "hint", example="default", options={"top": 0})
    assert number.json()["error"]["message"].endswith("got 0")
    unknown = post(client, "tea-party", "hint", example="default", options={"depth": 2})
    assert unknown.status_code == 400
    assert unknown.json()["error"]["field"] == "depth"
    message = unknown.json()["error"]["message"]
    assert message.startswith("bad input: depth: not an option of tea-party hint")
    assert "exact_nodes" in message and "--" not in message
    limit = post(client, "tea-party", "hint", example="default", options={"time_limit": 61})
    assert limit.status_code == 400
    message = limit.json()["error"]["message"]
    assert message.startswith("bad input: time_limit: expected ") and "60" in message
    assert message.endswith("got 61") and limit.json()["error"]["field"] == "time_limit"
    upto = post(client, "tea-party", "apply", example="default", upto=-1).json()
    assert upto["error"]["message"].startswith("bad input: upto: ")
    assert upto["error"]["field"] == "upto"
    flag = post(client, "tea-party", "render", example="default", options={"hint": "maybe"})
    assert flag.json()["error"]["message"].startswith("bad input: hint: expected true or false")


def test_unknown_games_verbs_and_examples_are_404(client: TestClient) -> None:
    assert client.post("/api/chess/hint", json={"example": "default"}).status_code == 404
    assert client.post("/api/tea-party/simulate", json={}).status_code == 404
    missing = post(client, "tea-party", "hint", example="no-such-position")
    assert missing.status_code == 404, missing.text
    assert missing.json()["error"]["field"] == "example"
    assert "GET /api/tea-party/examples" in missing.json()["error"]["message"]
    listed = client.get("/api/tea-party/examples/no-such-position")
    assert listed.status_code == 404
    assert "GET /api/tea-party/examples" in listed.json()["error"]["message"]
    assert client.get("/nowhere").status_code == 404


def test_a_method_a_route_does_not_take_is_405_as_json(client: TestClient) -> None:
    answer = client.get("/api/tea-party/hint")
    assert answer.status_code == 405
    assert answer.headers["content-type"].startswith("application/json")
    assert answer.headers["allow"] == "POST"
    assert answer.json()["status"] == 405 and "POST" in answer.json()["error"]["message"]


def test_an_unknown_answer_format_is_400(client: TestClient) -> None:
    gif = client.post("/api/tea-party/render?format=gif", json={"example": "default"})
    assert gif.status_code == 400
    assert gif.json() == {"error": {"message": "bad input: format: expected json or svg, got 'gif'",
                                    "source": None, "field": "format",
                                    "expected": "json or svg", "got": "gif"}, "status": 400}
    assert client.post("/api/tea-party/hint?format=svg",
                       json={"example": "default"}).status_code == 400
    json_asked = client.post("/api/tea-party/render?format=json", json={"example": "default"},
                             headers={"accept": "image/svg+xml"})
    assert json_asked.status_code == 200 and json_asked.json()["svg"].startswith("<svg")


def test_a_body_that_is_not_json_is_one_line(client: TestClient) -> None:
    answer = client.post("/api/tea-party/hint", content=b"{nope",
                         headers={"content-type": "application/json"})
    assert answer.status_code == 400
    assert answer.json()["error"]["message"].startswith("bad input: request")


# -- limits and paths -------------------------------------------------------------------------


def test_a_body_over_one_megabyte_is_413(client: TestClient) -> None:
    big = b"# " + b"x" * MAX_BODY + b"\n"
    answer = client.post("/api/tea-party/verify", content=big)
    assert answer.status_code == 413
    streamed = client.post("/api/tea-party/verify", content=iter([big[:MAX_BODY // 2]] * 3))
    assert streamed.status_code == 413
    assert client.post("/api/tea-party/verify", content=big[:MAX_BODY - 10]).status_code == 400


def test_no_request_names_a_path_on_the_server(client: TestClient, tmp_path: Any) -> None:
    secret = tmp_path / "house.toml"
    secret.write_text('game = "meeple-party"\n')
    text = client.get("/api/meeple-party/examples/default").json()["text"]
    pointed = text.replace('house = "easy"', f'house = "{secret}"')
    assert pointed != text
    answer = client.post("/api/meeple-party/verify", content=pointed)
    assert answer.status_code == 400
    assert answer.json()["error"]["field"] == "house"
    assert "reads no file on the server" in answer.json()["error"]["message"]
    catalogue = post(client, "meeple-land", "verify", document={
        "game": "meeple-land", "kind": "park", "catalogue": "/etc/passwd", "placed": []})
    assert catalogue.status_code == 400 and catalogue.json()["error"]["field"] == "catalogue"
    traversal = post(client, "tea-party", "hint", example="../../../../etc/passwd")
    assert traversal.status_code == 404  # a name no shipped position has, never a path
    # A file name is a label, never a path read.
    labelled = post(client, "tea-party", "verify", document="game = 1",
                    filename="/etc/passwd")
    assert labelled.json()["error"]["message"].startswith("bad input: passwd: game:")


def test_every_answer_carries_the_security_headers(client: TestClient) -> None:
    for path in ("/", "/board/tea-party", "/docs", "/api/games"):
        headers = client.get(path).headers
        assert "script-src 'self'" in headers["content-security-policy"]
        assert headers["x-content-type-options"] == "nosniff"


# -- escaping ---------------------------------------------------------------------------------


def test_player_names_are_escaped_in_the_svg(client: TestClient) -> None:
    answer = client.post("/api/tea-party/render", json={"document": evil_tea_party(),
                                                        "options": {"hint": True}})
    assert answer.status_code == 200, answer.text
    svg = answer.json()["svg"]
    assert "<script" not in svg.lower() and "onload=" not in svg.replace("onload='", "")
    picture = ElementTree.fromstring(svg)  # well-formed: every quote and bracket escaped
    texts = " ".join("".join(node.itertext()) for node in picture.iter())
    assert EVIL in texts and QUOTES in texts
    for node in picture.iter():
        assert not any(name.lower().startswith("on") for name in node.attrib)


def test_player_names_come_back_as_plain_json_text(client: TestClient) -> None:
    data = client.post("/api/tea-party/hint", json={"document": evil_tea_party(),
                                                    "options": {"time_limit": 2}}).json()
    assert data["to_move"] == EVIL
    assert json.loads(json.dumps(data))["to_move"] == EVIL


def test_pages_escape_what_they_show() -> None:
    page = pages.layout(EVIL, f"<p>{pages._e(QUOTES)}</p>")
    assert EVIL not in page and "&lt;script&gt;" in page
    assert "&quot;" in page and "&#x27;" in page
    board = pages.board_page("tea-party")
    block = board.split('id="board-data">')[1].split("</script>")[0]
    assert "<" not in block and json.loads(block)["game"] == "tea-party"


# -- descriptions -----------------------------------------------------------------------------


def test_the_api_is_described(client: TestClient) -> None:
    described = client.get("/api/openapi.json").json()
    assert described == json.loads(json.dumps(openapi()))
    assert described["openapi"].startswith("3.1")
    for verb in ("hint", "solve", "verify", "apply", "render"):
        assert f"/api/{{game}}/{verb}" in described["paths"]
        assert described["components"]["schemas"][verb] == schema(verb)
        assert client.get(f"/api/schemas/{verb}.json").json() == schema(verb)
    docs = client.get("/docs").text
    assert "POST /api/GAME/VERB" in docs and "/api/openapi.json" in docs


def test_the_start_page_lists_every_game_and_its_shipped_positions(client: TestClient) -> None:
    page = client.get("/").text
    for game in pages.games_data()["games"]:
        assert f'href="/board/{game["game"]}"' in page
        for item in game["shipped"]:
            assert f'example={item["qualified"]}"' in page


def test_every_page_names_an_icon_the_server_serves(client: TestClient) -> None:
    """The browser asks for the page's icon (without one, a 404 on every page load)."""
    import re

    for path in ("/", "/board/tea-party"):
        page = client.get(path)
        assert page.status_code == 200, path
        icon = re.search(r'<link rel="icon" href="([^"]+)"', page.text)
        assert icon, path
        served = client.get(icon.group(1))
        assert served.status_code == 200 and served.text.startswith("<svg")


def test_the_start_page_lists_only_what_a_board_offers(client: TestClient) -> None:
    page = client.get("/").text
    for game in pages.games_data()["games"]:
        card = page.split(f'id="game-{game["game"]}"')[1]
        offered = card.split(" players; ")[1].split(")")[0]
        assert "simulate" not in offered and "generate" not in offered, offered
        assert offered.startswith("hint, ") and offered.endswith("verify, play along")


def test_shipped_descriptions_on_the_pages_name_no_command(client: TestClient) -> None:
    # The files end their description with a command-line tip ("Try: partysolver hint
    # default.toml"): a page shows the description without it, the story before it intact.
    page = client.get("/").text
    for game in client.get("/api/games").json()["games"]:
        for item in game["shipped"]:
            said = item["description"]
            assert "partysolver hint" not in said and "partysolver solve" not in said, said
            assert "Try:" not in said and "THIS_FILE" not in said, said
            assert said.rstrip().endswith((".", "?", ")", '"')), said
            shown = client.get(f"/api/{game['game']}/examples/{item['qualified']}").json()
            assert shown["description"] == said
    assert "Try: partysolver" not in page and "Solve it: partysolver" not in page
    full = catalog.find("tea-party", "default").description()
    assert full.startswith(pages.shown_description(catalog.find("tea-party", "default")))
    assert "Small enough to solve exactly." in client.get("/").text


def test_texts_count_one_point_and_one_photo_in_the_singular(client: TestClient) -> None:
    # Blue draws a Fighter (1 point) at the start: putting it in the teacup is "+1 point".
    drawn = post(client, "tea-party", "apply", example="opening",
                 moves=["draw fighter"]).json()["position"]
    hint = post(client, "tea-party", "hint", document=drawn,
                 options={"time_limit": 2, "top": 8}).json()
    reasons = {move["move"]: move["reason"] for move in hint["moves"]}
    assert reasons["cup"].startswith("+1 point in your teacup"), reasons["cup"]
    solved = post(client, "meeple-party", "solve", example="01-last-photo").json()
    assert "won (1 photo)" in solved["verdict"], solved["verdict"]


def test_status_shows_the_pool(client: TestClient) -> None:
    status = client.get("/api/status").json()
    assert status["workers"] == 2 and len(status["pids"]) == 2

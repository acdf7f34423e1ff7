"""The API's machine-readable description (OpenAPI 3.1), built from what the app layer
declares: the games, each verb's options (:class:`~partysolver.app.base.OptionSpec`) and the
shipped JSON Schemas of the answers.  OpenAPI 3.1 takes JSON Schema 2020-12 as it is, so the
contract's schemas are its components unchanged."""

from __future__ import annotations

from functools import cache
from typing import Any

from ..app.base import REVIEW_PLAYERS, SEED, TOP, all_commands
from ..app.contract import schema
from ..models.registry import all_games

ANSWERS = ("hint", "solve", "verify", "apply", "render")


def _option_schema(kind: str, spec: Any) -> dict[str, Any]:
    if kind == "int":
        found: dict[str, Any] = {"type": "integer"}
    elif kind == "float":
        found = {"type": "number"}
    elif kind == "flag":
        found = {"type": "boolean"}
    elif kind == "choice":
        found = {"enum": list(spec.choices)}
    else:
        found = {"type": "string"}
    if spec.minimum is not None:
        found["minimum"] = spec.minimum
    if spec.maximum is not None:
        found["maximum"] = spec.maximum
    found["description"] = spec.help
    return found


def options_schema(verb: str) -> dict[str, Any]:
    """Every option ``verb`` takes in some game (each game checks its own)."""
    from .jobs import WEB_TIME_LIMIT

    properties: dict[str, Any] = {spec.name: _option_schema(spec.kind, spec)
                                  for spec in (WEB_TIME_LIMIT, TOP, SEED)}
    for commands in all_commands().values():
        for spec in commands.options.get(verb, []):
            if spec.metavar and "FILE" in spec.metavar:
                continue
            properties.setdefault(spec.name, _option_schema(spec.kind, spec))
    if verb == "render":
        properties["hint"] = {"type": "boolean", "description": "Draw the hint's move as "
                              "arrows (a puzzle's picture then shows its answer)."}
    if verb == "review":
        properties["players"] = _option_schema(REVIEW_PLAYERS.kind, REVIEW_PLAYERS)
        properties["time_limit"] = properties["time_limit"] | {"description": (
            "The request's time limit in seconds (default 10, at most 60), shared out among "
            "the record's positions: each hint and each valuing for the luck gets a part.")}
    return {"type": "object", "properties": properties, "additionalProperties": True}


def request_schema(verb: str) -> dict[str, Any]:
    properties: dict[str, Any] = {
        "document": {"description": "The document: a JSON object, or TOML/JSON text.",
                     "oneOf": [{"type": "object"}, {"type": "string"}]},
        "example": {"type": "string", "description": "A shipped position by name, instead "
                    "of a document."},
        "filename": {"type": "string", "description": "A label for the document in "
                     "messages (never a path)."},
        "options": {"$ref": f"#/components/schemas/options_{verb}"},
    }
    if verb == "apply":
        properties |= {"moves": {"type": "array", "items": {"type": "string"}},
                       "random": {"type": "boolean"}, "seed": {"type": "integer"},
                       "upto": {"type": "integer", "minimum": 0},
                       "bot": {"type": "string", "description":
                               "a policy of the game (GET /api/games: policies): one more "
                               "step, that policy's move for the seat to act, or a chance "
                               "outcome drawn"}}
    if verb == "check":
        properties["answer"] = {"type": "string"}
    if verb == "review":
        properties["moves"] = {"type": "array", "items": {"type": "string"}, "description":
                               "Moves played on from the document (a position, or a "
                               "record): their record is reviewed."}
    return {"type": "object", "properties": properties}


_TEXT = {"type": ["string", "null"]}
ERROR = {"type": "object", "required": ["error", "status"],
         "properties": {"status": {"type": "integer"}, "error": {
             "type": "object", "required": ["message", "source", "field", "expected"],
             "properties": {"message": {"type": "string"}, "source": _TEXT, "field": _TEXT,
                            "expected": _TEXT, "got": {}, "reason": {"type": "string"}}}}}
"""Every answer other than 200: the parts of the application layer's ``InputError``."""


@cache
def openapi() -> dict[str, Any]:
    games = list(all_games())
    components: dict[str, Any] = {"error": ERROR}
    paths: dict[str, Any] = {}
    for verb in (*ANSWERS, "check", "inspect", "review"):
        option_verb = verb if verb in ("hint", "solve", "verify", "render", "review") \
            else "solve"
        components[f"options_{verb}"] = options_schema(option_verb)
        answer: dict[str, Any] = {"type": "object"}
        if verb in (*ANSWERS, "review"):
            components[verb] = schema(verb)
            answer = {"$ref": f"#/components/schemas/{verb}"}
        errors = {str(code): {"description": what, "content": {"application/json": {
            "schema": {"$ref": "#/components/schemas/error"}}}} for code, what in (
            (400, "bad input: its parts (source, field, expected, got, reason) and the "
                  "one line of the CLI (an option by its name here: time_limit, not "
                  "--time-limit)"),
            (404, "no such game, verb or shipped position (GET /api/GAME/examples lists "
                  "the shipped positions)"),
            (405, "a method other than POST"), (413, "a body over 1 MB"),
            (503, "the pool is full: try again after Retry-After seconds"),
            (504, "the job ran past its time limit and was stopped"))}
        paths[f"/api/{{game}}/{verb}"] = {"post": {
            "summary": f"{verb} on a document of GAME",
            "parameters": [{"name": "game", "in": "path", "required": True,
                            "schema": {"enum": games}},
                           {"name": "format", "in": "query", "required": False,
                            "description": "the answer's format: json (the default)" + (
                                ", or svg for the picture itself" if verb == "render" else
                                ""), "schema": {"enum": ["json", "svg"] if verb == "render"
                                                else ["json"]}}],
            "requestBody": {"required": True, "content": {
                "application/json": {"schema": request_schema(verb)},
                "application/toml": {"schema": {"type": "string", "description": "the "
                                     "document as TOML or JSON text (as text/plain it needs "
                                     "the board's token, X-Partysolver-Token); options in "
                                     "the query"}}}},
            "responses": {"200": {"description": f"the {verb} report", "content": {
                "application/json": {"schema": answer}}}} | errors}}
    for path, what in (("/api/games", "the games, their verbs, options and shipped "
                        "positions"), ("/api/status", "the worker pool"),
                       ("/api/{game}/examples", "a game's shipped positions")):
        paths[path] = {"get": {"summary": what, "responses": {"200": {
            "description": what, "content": {"application/json": {"schema": {
                "type": "object"}}}}}}}
    return {"openapi": "3.1.0",
            "info": {"title": "partysolver", "version": "1",
                     "description": "Hints, solutions and verifications for five party board "
                                    "games; the answers follow the JSON contract of "
                                    "partysolver VERB --json."},
            "paths": paths, "components": {"schemas": components}}

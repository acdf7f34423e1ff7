"""Every game's ``--json`` output follows the shared contract (the shipped JSON Schemas).

The reports are asked for through the application layer directly, on every shipped example of
every game, with small budgets; a verb a file is not for (a hint on a puzzle, say) is skipped,
but every verb a game offers must produce at least one valid report here.
"""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest

from partysolver.app import catalog
from partysolver.app.base import (
    BadRequest,
    Options,
    Report,
    all_commands,
    commands_for,
    json_safe,
)
from partysolver.app.contract import SCHEMA_VERBS, schema
from partysolver.models.errors import InputError
from partysolver.models.registry import all_games

FILE_VERBS = ("hint", "solve", "verify")
GAMES = list(all_games())


def check(verb: str, data: dict[str, Any]) -> None:
    """``data`` as the CLI prints it (strict JSON) validates against ``verb``'s schema."""
    printed = json.loads(json.dumps(json_safe(data), allow_nan=False))
    jsonschema.validate(printed, schema(verb))


def options(**extra: Any) -> Options:
    return Options(json=True, seed=1, time_limit=3.0, top=3, extra=extra)


def test_every_schema_is_a_valid_json_schema() -> None:
    for verb in SCHEMA_VERBS:
        jsonschema.Draft202012Validator.check_schema(schema(verb))


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("verb", FILE_VERBS)
def test_file_verbs_follow_the_contract_on_every_example(game: str, verb: str) -> None:
    commands = commands_for(game)
    assert commands is not None
    if verb not in commands.verbs:
        pytest.skip(f"{game} has no {verb}")
    answered = 0
    shipped = catalog.shipped(game)
    chosen = [item for item in shipped if item.set == "examples"]
    for folder in ("puzzles", "scenarios"):  # the first two of each puzzle set
        chosen += [item for item in shipped if item.set == folder][:2]
    for item in chosen:
        document = item.document()
        extra = {spec.name: spec.default for spec in commands.options.get(verb, [])}
        try:
            report: Report = getattr(commands, verb)(document, options(**extra))
        except (InputError, BadRequest):
            continue  # not a file for this verb (a puzzle for hint, a game for solve)
        assert report.data["game"] == game
        check(verb, report.data)
        answered += 1
    assert answered, f"no shipped example of {game} answers {verb}"


@pytest.mark.parametrize("game", GAMES)
def test_simulate_follows_the_contract(game: str) -> None:
    commands = all_commands()[game]
    extra = {spec.name: spec.default for spec in commands.options.get("simulate", [])}
    extra |= {"workers": 1, "rotate": False}
    if game == "meeple-party":
        extra["hint_nodes"] = 200
    policy = "random" if "random" in commands.policies else commands.policies[0]
    report = commands.simulate(None, 2, (policy,), options(**extra), None)
    check("simulate", report.data)

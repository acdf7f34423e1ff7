"""The shipped positions by name: every set of every game, answers kept back, GAME:NAME."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from partysolver import puzzles
from partysolver.app import catalog
from partysolver.cli.main import cli
from partysolver.models.errors import InputError
from partysolver.models.registry import all_games


def test_every_shipped_position_of_every_game_is_listed_and_loads() -> None:
    listed = catalog.listing_report(None).data["examples"]
    for game in all_games():
        names = {(e["set"], e["name"]) for e in listed if e["game"] == game}
        for folder in catalog.SETS:
            assert {(folder, name) for name in puzzles.files(game, folder)} <= names
        for item in catalog.shipped(game):
            assert catalog.find(game, item.qualified).document().game == game


def test_a_puzzle_keeps_its_answer_unless_revealed() -> None:
    item = catalog.find("meeple-land", "08-impossible-promise")
    assert "Recorded answer" not in item.text() and "Recorded answer" in item.text(reveal=True)
    assert "Recorded answer" not in item.description()
    cafe = catalog.find("meeple-land", "puzzle")
    assert "optimum" not in cafe.text() and "optimum" not in cafe.description()
    proof = catalog.find("meeple-party", "04-one-jerk")
    assert "Answer" not in proof.text() and "Answer: no" in proof.text(reveal=True)


def test_unknown_names_say_how_to_list_and_ambiguous_prefixes_suggest() -> None:
    with pytest.raises(InputError, match="--list"):
        catalog.find("tea-party", "nope")
    with pytest.raises(InputError, match="did you mean 08-impossible-promise"):
        catalog.find("meeple-land", "08")


def test_the_cli_prints_puzzles_by_name_and_reads_game_colon_name() -> None:
    runner = CliRunner()
    shown = runner.invoke(cli, ["example", "meeple-land", "08-impossible-promise"])
    assert shown.exit_code == 0 and shown.output.startswith("# Impossible promise")
    listed = json.loads(runner.invoke(cli, ["example", "--list", "--json"]).output)
    assert {e["game"] for e in listed["examples"]} == set(all_games())
    verified = runner.invoke(cli, ["verify", "tea-party:midgame", "--json"])
    assert verified.exit_code == 0 and json.loads(verified.output)["valid"] is True
    missing = runner.invoke(cli, ["verify", "tea-party:nope"])
    assert missing.exit_code == 2 and missing.output.count("\n") == 1

"""A review's valuations are planned from their time limit, not stopped by the clock:
Party-Time's playouts (``app.party_time.review_playouts``) and Meeple Party's turn search nodes
(``app.meeple_party.review_nodes``).  The cards of one draw, which share one limit, are valued
by the same playouts (common random numbers), and a review gives the same figures on a busy
machine as on an idle one (the board's review is compared with the command line's in
``tests/web/test_web_review_luck.py``)."""

from __future__ import annotations

import time
import tomllib
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from partysolver.app import base as app
from partysolver.app import catalog
from partysolver.app.base import document
from partysolver.app.luck import Valuer
from partysolver.app.meeple_party import REVIEW_NODES, REVIEW_NODES_PER_SECOND, review_nodes
from partysolver.app.party_time import (
    LEAST_PLAYOUTS,
    PLAYOUT_SECONDS,
    REVIEW_PLAYOUTS,
    review_playouts,
)
from partysolver.app.playalong import load_record, playable, players_of, start_document
from partysolver.cli.main import cli
from partysolver.models.notation import Playable


def first_draw(tmp_path: Path) -> Playable:
    """The position of ``simulate party-time --seed 1``'s game after its first play: the
    player draws a card."""
    result = CliRunner().invoke(cli, ["simulate", "party-time", "--games", "1", "--seed", "1",
                                      "--records", str(tmp_path)])
    assert result.exit_code == 0, result.output
    path = tmp_path / "game-001.record.toml"
    doc = document(tomllib.loads(path.read_text()), str(path))
    record = load_record(doc)
    position = playable(start_document(record, doc.source))
    position = position.apply(position.parse(record.steps[0].move))
    assert position.awaits_chance()
    return position


def test_the_playouts_are_what_the_limit_buys_between_the_least_and_the_most() -> None:
    assert review_playouts(None) == REVIEW_PLAYOUTS
    assert review_playouts(0.0) == LEAST_PLAYOUTS
    assert review_playouts(30 * PLAYOUT_SECONDS) == 30
    assert review_playouts(30.5 * PLAYOUT_SECONDS) == 30
    assert review_playouts(10.0) == REVIEW_PLAYOUTS


def test_a_slow_clock_changes_no_value(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same position and limit give the same values when every reading of the clock says
    a second has passed (a busy machine): the count comes from the limit alone."""
    position = first_draw(tmp_path)
    after = position.apply(position.legal_steps()[0])
    commands = app.commands_for("party-time")
    assert commands is not None
    doc = document(after.to_document(), "test")
    options = app.Options(seed=1, time_limit=40 * PLAYOUT_SECONDS)
    calm = commands.position_values(doc, options)
    busy_clock(monkeypatch)
    hurried = commands.position_values(doc, options)
    assert calm is not None and hurried is not None
    assert hurried.values == calm.values
    # 40 playouts: every mean is a number of strips over 40
    assert all(abs(v * 40 - round(v * 40)) < 1e-9 for v in calm.values.values())
    assert any(abs(v * 20 - round(v * 20)) > 1e-9 for v in calm.values.values())


def test_the_cards_of_a_draw_are_valued_by_the_same_playouts(tmp_path: Path) -> None:
    """A draw averaged within one limit: each card gets an equal share of it, so the same
    number of playouts; the luck over the cards averages to 0."""
    position = first_draw(tmp_path)
    commands = app.commands_for("party-time")
    assert commands is not None
    outcomes = commands.chance_outcomes(position)
    assert outcomes is not None and len(outcomes) > 1
    limit = 0.5
    valuer = Valuer(commands, "test", app.Options(seed=1, time_limit=limit),
                    players_of(position, "party-time") or ())
    count = review_playouts(limit / len(outcomes))
    assert LEAST_PLAYOUTS < count < REVIEW_PLAYOUTS
    found: list[tuple[float, dict[str, Any]]] = []
    for outcome, chance in outcomes:
        luck = valuer.luck(position, outcome)
        assert luck.by_player is not None, luck.why
        after = valuer.point(position.apply(outcome))
        assert after is not None
        assert all(abs(v * count - round(v * count)) < 1e-9 for v in after.values.values())
        found.append((chance, dict(luck.by_player)))
    for name in found[0][1]:
        assert sum(chance * luck[name] for chance, luck in found) == pytest.approx(0, abs=1e-9)


def busy_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every reading of the clock says a second has passed (a very busy machine)."""
    clock = {"now": time.monotonic()}

    def busy() -> float:
        clock["now"] += 1.0
        return clock["now"]

    monkeypatch.setattr(time, "monotonic", busy)
    monkeypatch.setattr(time, "perf_counter", busy)


def test_meeple_party_nodes_are_what_the_limit_buys_up_to_the_budget() -> None:
    assert review_nodes(None) == REVIEW_NODES
    assert review_nodes(0.5) == int(0.5 * REVIEW_NODES_PER_SECOND)
    assert review_nodes(0.0) == 1
    assert review_nodes(1000.0) == REVIEW_NODES


def test_a_meeple_party_draw_is_valued_alike_on_a_busy_machine(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Before Ben's draw: the exact search over the bag within a limit's nodes gives the same
    value when the clock races (it stopped the search before: not computed); with too few
    nodes the draw is not computed (an empty valuation), whatever the clock."""
    doc = catalog.find("meeple-party", "before-the-draw").document()
    commands = app.commands_for("meeple-party")
    assert commands is not None
    enough = app.Options(seed=1, time_limit=REVIEW_NODES / REVIEW_NODES_PER_SECOND)
    calm = commands.position_values(doc, enough)
    assert calm is not None and calm.values and calm.exact
    too_few = commands.position_values(doc, app.Options(seed=1, time_limit=0.0))
    assert too_few is not None and not too_few.values
    busy_clock(monkeypatch)
    assert commands.position_values(doc, enough) == calm


def test_a_meeple_party_chance_point_not_computed_says_why(tmp_path: Path) -> None:
    """The first 12 steps of ``simulate meeple-party --seed 1``: within a small limit the
    draws' searches run out of the nodes it buys and say so; the chance points between turns
    say that the turn search does not reach them; the note counts each reason."""
    result = CliRunner().invoke(cli, ["simulate", "meeple-party", "--games", "1", "--seed", "1",
                                      "--records", str(tmp_path)])
    assert result.exit_code == 0, result.output
    data = tomllib.loads((tmp_path / "game-001.record.toml").read_text())
    data["steps"] = data["steps"][:12]
    from partysolver.app import playalong

    limit = 0.04  # a chance point's own try: half of it, 500 nodes
    review = playalong.review_document(document(data, "record"), {"time_limit": limit}).data
    why = [step["luck_not_computed"] for step in review["steps"]
           if "outcomes" in step and step["luck"] is None]
    budget = f"its search needs more than {review_nodes(limit / 2):,} nodes"
    turns = "between turns: the turn search does not reach the turns its outcomes act on"
    assert set(why) == {budget, turns}
    assert f"{why.count(turns)}: {turns}" in review["luck_note"]
    assert f"{why.count(budget)}: {budget}" in review["luck_note"]
    calm = playalong.review_document(document(data, "record"), {}).data
    assert {step["luck_not_computed"] for step in calm["steps"]
            if "outcomes" in step and step["luck"] is None} == {turns}
    assert calm["luck_note"].endswith(f"not computed ({turns}): the sums leave them out")

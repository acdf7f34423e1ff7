"""Skill against luck in ``partysolver review``: each player's swing split into what their
decisions gave up and what the chance points gave or took (``app/luck.py``), on records whose
split can be computed by hand.

- Pig (``examples/pig``, exact values by value iteration): a record decided by one roll of the
  die is all luck, and the luck is the die's face against the average of the six faces, worked
  out from the solver's table; over a whole game, every player's change of value is their luck
  minus their decisions' loss plus the other's (a two-player game whose chances add to 1).
- Tea Party: a record whose every draw is certain (one kind of hero in the bag) has a luck of
  exactly 0, and the swing is all the decisions.
- A record without a chance point has a luck of 0 and says so; a seat's log whose chance
  points the game cannot value says 'not computed' instead of a number.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from reviews import reviewed, run

from partysolver.app import base as app
from partysolver.app import catalog, playalong
from partysolver.app.contract import schema
from partysolver.models.documents import format_document
from partysolver.models.errors import InputError


def recorded(tmp_path: Path, start: str, *moves: str) -> Path:
    record = tmp_path / "game.record.toml"
    run("apply", start, *moves, "--record", str(record))
    return record


# -- Pig: all luck, and the swing adds up ------------------------------------------------------


def pig_solver() -> Any:
    return pytest.importorskip("partysolver_pig.solver", reason="the Pig plugin is not "
                               "installed (pip install -e examples/pig; make test installs it)")


@pytest.mark.parametrize("face", [6, 1])
def test_a_pig_game_decided_by_one_roll_is_all_luck(face: int, tmp_path: Path) -> None:
    """pig:short: Ben (14 banked, 4 this turn, goal 20) rolls.  Faces 2 to 6 win at once; a 1
    loses the turn (Ada to play at 17 against 14).  With w, Ben's chance after a 1, the roll
    is worth 5/6 + w/6, so a 6 brings Ben 1 - (5/6 + w/6) = (1 - w)/6 and a 1 brings him
    w - (5/6 + w/6) = 5/6 (w - 1); Ada gets the opposite."""
    solver = pig_solver()
    from partysolver_pig.state import PigState

    after_a_one = PigState(20, ("Ada", "Ben"), (17, 14), player=0)
    w = solver.win_chances(after_a_one)[1]
    luck = (1 - w) / 6 if face == 6 else 5 / 6 * (w - 1)
    data = reviewed(recorded(tmp_path, "pig:short", "roll", str(face)))
    ben, ada = data["players"]["Ben"], data["players"]["Ada"]
    assert ben["decisions"] == 1 and ben["decision_loss"] == 0  # rolling is right
    assert ben["luck"] == pytest.approx(luck, abs=1e-6)
    assert ada["luck"] == pytest.approx(-luck, abs=1e-6)
    assert ben["luck_exact"] and ada["luck_exact"] and ben["chance_points"] == 1
    assert ada["decisions"] == 0 and ada["accuracy"] is None
    start, rolled, landed = data["steps"]
    assert landed["number"] == 2 and landed["move"] == str(face) and landed["outcomes"] == 6
    assert landed["luck"]["Ben"] == pytest.approx(luck, abs=1e-6)
    assert landed["cumulative"]["Ben"] == {"decision_loss": 0.0, "luck": ben["luck"]}
    assert start["exact"] and start["values"]["Ben"] == pytest.approx(
        solver.win_chances(PigState(20, ("Ada", "Ben"), (17, 14), 1, 4))[1], abs=1e-6)
    # all luck: Ben's whole swing is his luck
    swing = landed["values"]["Ben"] - start["values"]["Ben"]
    assert swing == pytest.approx(luck, abs=1e-5)
    assert "luck" not in rolled and rolled["decision_loss"] == 0
    assert rolled["played_value"] == data["decisions"][0]["value"] == start["values"]["Ben"]
    text = run("review", str(tmp_path / "game.record.toml")).output
    assert "skill against luck" in text and "exact" in text
    assert f"Ben: decisions gave up 0 (exact); luck {100 * luck:+.3g} (exact)" in text
    assert f"2. the die: {face}  (luck: Ada {-100 * luck:+.3g}, Ben {100 * luck:+.3g})" in text


def test_over_a_whole_pig_game_each_swing_is_luck_minus_loss_plus_the_others(
        tmp_path: Path) -> None:
    """Two players' chances add to 1: what one gives up the other gains, and the chance
    points move them in opposite ways; so each player's change of value from the first
    position to the last is their luck minus their own decisions' loss plus the other's."""
    pig_solver()
    folder = tmp_path / "games"
    run("simulate", "pig", "--games", "1", "--seed", "11", "--goal", "30", "--policy",
        "random", "--policy", "hold20", "--records", str(folder))
    data = reviewed(folder / "game-001.record.toml", "--seed", "1")
    players = data["players"]
    assert sum(p["chance_points"] for p in players.values()) > 0
    assert any(p["decision_loss"] > 0.01 for p in players.values())  # a random player errs
    first, last = data["steps"][0]["values"], data["steps"][-1]["values"]
    for me, other in (("Ada", "Ben"), ("Ben", "Ada")):
        mine = players[me]
        expected = mine["luck"] - mine["decision_loss"] + players[other]["decision_loss"]
        assert last[me] - first[me] == pytest.approx(expected, abs=1e-4)
        assert mine["luck_exact"] and mine["decision_loss_exact"]
    assert players["Ada"]["luck"] == pytest.approx(-players["Ben"]["luck"], abs=1e-5)
    final = data["steps"][-1]["cumulative"]
    assert {name: sums["luck"] for name, sums in final.items()} == {
        name: players[name]["luck"] for name in players}


# -- Tea Party: certain draws, all skill -------------------------------------------------------


def test_a_game_whose_every_draw_is_certain_is_all_skill(tmp_path: Path) -> None:
    """The endgame of tea-party:default with only Fighters in the bag: every draw has one
    outcome, so no player has any luck, and Blue's blunder (squishing the King as a Cleric,
    100 percentage points behind the best) is his whole swing from a sure win to a loss."""
    start = tomllib.loads(catalog.example_text("tea-party", "default", False))
    start["bag"] = {"fighter": 2}
    position = tmp_path / "certain.toml"
    position.write_text(format_document(start))
    record = recorded(tmp_path, str(position), "squish king as cleric", "draw fighter", "cup",
                      "draw fighter", "cup")
    data = reviewed(record)
    blue, green = data["players"]["Blue"], data["players"]["Green"]
    for player in (blue, green):
        assert player["luck"] == 0.0 and player["luck_exact"]
        assert player["chance_points"] == 2 and player["luck_not_computed"] == 0
    assert [step["luck"] for step in data["steps"] if "luck" in step] == [
        {"Blue": 0.0, "Green": 0.0}] * 2
    assert [step["outcomes"] for step in data["steps"] if "outcomes" in step] == [1, 1]
    assert blue["decision_loss"] == pytest.approx(1.0) and blue["decision_loss_exact"]
    assert green["decision_loss"] == 0
    first, last = data["steps"][0]["values"], data["steps"][-1]["values"]
    assert first == {"Blue": 1.0, "Green": 0.0} and last == {"Blue": 0.0, "Green": 1.0}
    assert last["Blue"] - first["Blue"] == pytest.approx(-blue["decision_loss"])


# -- no chance at all; chance the game cannot value --------------------------------------------


def test_a_record_without_chance_has_no_luck_and_says_so(tmp_path: Path) -> None:
    record = recorded(tmp_path, "tea-party:default", "squish king as rogue on Green take rogue",
                      "cup")
    data = reviewed(record)
    assert all(p["luck"] == 0 and p["chance_points"] == 0 and p["luck_exact"]
               for p in data["players"].values())
    assert data["luck_note"].startswith("no chance point in this record")
    assert "no chance point in this record" in run("review", str(record)).output


def test_a_chance_point_the_game_cannot_value_is_not_computed(tmp_path: Path) -> None:
    """A Pool Party Stars seat's log: what the seat sees of the others is chance to it, but
    the game gives no values of those positions for every player: no number is invented."""
    record = recorded(tmp_path, "pool-party-stars:default", "guess ben robot", "right")
    data = reviewed(record)
    dani = data["players"]["Dani"]
    assert dani["luck"] is None and not dani["luck_exact"]
    assert dani["luck_not_computed"] == dani["chance_points"] == 1
    [chance] = [step for step in data["steps"] if "outcomes" in step]
    assert chance["luck"] is None and chance["luck_not_computed"]
    assert "not computed" in data["luck_note"]
    assert "Dani: decisions gave up 0 (exact); luck not computed" in \
        run("review", str(record)).output


# -- the dispatcher ----------------------------------------------------------------------------


def test_review_checks_its_options_as_every_verb_does(tmp_path: Path) -> None:
    """``review_document``, what the CLI and the web call: its ``players`` option and the
    common ones are checked by the dispatcher's ``prepare`` before any work."""
    record = recorded(tmp_path, "tea-party:default", "squish king as rogue on Green take rogue",
                      "cup")
    document = app.read(str(record))
    report = playalong.review_document(document, {"players": "blue", "seed": "1"})
    assert list(report.data["players"]) == ["Blue"]
    assert [d["actor"] for d in report.data["decisions"]] == ["Blue", "Blue"]
    cli = json.loads(run("review", str(record), "--players", "blue", "--json", "--seed",
                         "1").stdout)
    assert cli == app.json_safe(report.data, timings=False)
    with pytest.raises(InputError) as caught:
        playalong.review_document(document, {"players": "Zed"})
    assert caught.value.field == "players" and "Blue, Green" in str(caught.value.expected)
    for bad in ({"exact_nodes": 5}, {"time_limit": "-1"}, {"players": ""}):
        with pytest.raises(InputError) as caught:
            playalong.review_document(document, bad)
        assert caught.value.field == next(iter(bad))


def test_the_schema_describes_the_new_figures() -> None:
    printed = json.loads(run("schema", "review").stdout)
    player = printed["properties"]["players"]["additionalProperties"]
    for field in ("decision_loss", "decision_loss_exact", "luck", "luck_exact",
                  "chance_points", "luck_not_computed"):
        assert field in player["required"]
    assert {"luck_note", "steps"} <= set(printed["required"])
    bad = {"game": "tea-party", "value_text": "", "decisions": [], "luck_note": "",
           "thresholds": {"inaccuracy": 0, "mistake": 0, "blunder": 0, "unit": ""},
           "steps": [], "complete": True, "stopped_at": None, "players": {"Blue": {
               "decisions": 0, "accuracy": None, "mean_lost": 0, "inaccuracy": 0,
               "mistake": 0, "blunder": 0, "biggest": None, "decision_loss": 0,
               "decision_loss_exact": True, "luck": "lucky", "luck_exact": True,
               "chance_points": 0, "luck_not_computed": 0}}}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema("review"))
    bad["players"]["Blue"]["luck"] = 0.25
    jsonschema.validate(bad, schema("review"))


def test_a_review_past_its_deadline_covers_the_steps_before_and_says_so(tmp_path: Path
                                                                       ) -> None:
    """The web gives a review a deadline (within its request's time limit): the steps not
    reached are left out, and the report says where it stopped."""
    import time

    record = recorded(tmp_path, "tea-party:default", "squish king as rogue on Green take rogue",
                      "cup")
    document = app.read(str(record))
    whole = playalong.review_document(document, {"seed": "1"})
    assert whole.data["complete"] and whole.data["stopped_at"] is None
    late = playalong.review_document(document, {"seed": "1"}, until=time.monotonic() - 1)
    jsonschema.validate(app.json_safe(late.data), schema("review"))
    assert not late.data["complete"] and late.data["stopped_at"] == 1
    assert late.data["decisions"] == [] and len(late.data["steps"]) == 1
    assert late.data["steps"][0] == whole.data["steps"][0]
    assert "stopped before step 1 of 2: the review's time limit ran out" in late.text


def test_a_chance_point_shares_the_time_limit_among_its_outcomes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Under --time-limit the hook's own try at a chance point takes at most half the limit
    and the outcomes share the rest: a review takes about the limit a step, not a step's
    outcomes times the limit (198 s for a Tea Party record at 0.5 s before).  Here Pig's
    hook values no chance point, so the roll is averaged over its six faces."""
    pig_solver()
    commands = app.commands_for("pig")
    assert commands is not None
    real = type(commands).position_values
    given: list[tuple[bool, float | None]] = []

    def spy(self: Any, document: Any, options: app.Options) -> Any:
        at_chance = playalong.playable(document).awaits_chance()
        given.append((at_chance, options.time_left()))
        return None if at_chance else real(self, document, options)

    record = recorded(tmp_path, "pig:short", "roll", "6")
    monkeypatch.setattr(type(commands), "position_values", spy)
    data = reviewed(record, "--time-limit", "0.6")
    assert data["players"]["Ben"]["chance_points"] == 1
    tries = [left for at_chance, left in given if at_chance]
    after = [left for at_chance, left in given if not at_chance]
    assert tries and all(left == pytest.approx(0.3) for left in tries)  # half the limit
    # the six faces shared the 0.6 s (the try took none of it): 0.1 s each, never more
    faces = [left for left in after if left is not None and left <= 0.1 + 1e-9]
    assert len(faces) >= 6 and all(left is not None and left <= 0.6 for left in after)

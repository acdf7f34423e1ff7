"""Skill against luck for the games whose hint values one move for the mover (Meeple Party,
Party-Time, Pool Party Stars): their ``position_values`` hooks (each game's ``app`` module) value a
full state for every player, so that ``review`` gives each player's luck in the unit of the
game's decision loss, not "not computed".

Checked by hand on small cases: a move with no alternative gives up nothing, a chance point's
luck over all its outcomes averages to 0 weighted by their chances, a card only its drawer sees
is luck for the drawer alone, the value of a game that is over is its final count, and the
cooperative game gives every player the same figure.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from reviews import reviewed, run

from partysolver.app import base as app
from partysolver.app import catalog
from partysolver.app.luck import Valuer
from partysolver.app.party_time import LEAST_PLAYOUTS
from partysolver.app.playalong import load_record, playable, players_of, start_document
from partysolver.models.documents import format_document
from partysolver.models.notation import Playable


def valuer(game: str, position: Playable, seed: int = 1) -> Valuer:
    commands = app.commands_for(game)
    assert commands is not None
    return Valuer(commands, "test", app.Options(seed=seed), players_of(position, game) or ())


def every_outcome(game: str, position: Playable) -> list[tuple[float, dict[str, float], bool]]:
    """Each outcome of the chance point ``position``: its chance, every player's luck and
    whether that is exact (one review's values, as ``review`` computes them)."""
    commands = app.commands_for(game)
    assert commands is not None and position.awaits_chance()
    outcomes = commands.chance_outcomes(position)
    assert outcomes and len(outcomes) > 1
    judge = valuer(game, position)
    found = []
    for outcome, chance in outcomes:
        luck = judge.luck(position, outcome)
        assert luck.by_player is not None, luck.why
        found.append((chance, dict(luck.by_player), luck.exact))
    return found


def weighted(found: list[tuple[float, dict[str, float], bool]], name: str) -> float:
    return sum(chance * luck[name] for chance, luck, _ in found)


def simulated_record(tmp_path: Path, game: str, steps: int | None = None) -> Path:
    """Game 1 of ``simulate GAME --seed 1`` as a record, cut to its first ``steps`` steps."""
    run("simulate", game, "--games", "1", "--seed", "1", "--records", str(tmp_path / "games"))
    path = tmp_path / "games" / "game-001.record.toml"
    if steps is not None:
        data = tomllib.loads(path.read_text())
        data["steps"] = data["steps"][:steps]
        path = tmp_path / "short.record.toml"
        path.write_text(format_document(data))
    return path


def position_of(record: Path, steps: int) -> Playable:
    """The position of ``record`` after its first ``steps`` steps."""
    from partysolver.app.base import document
    from partysolver.models.documents import read_document

    data, source = read_document(record)
    doc = document(data, source)
    loaded = load_record(doc)
    position = playable(start_document(loaded, source))
    for step in loaded.steps[:steps]:
        position = position.apply(position.parse(step.move))
    return position


# -- Pool Party Stars ---------------------------------------------------------------------------


def pool_party_draw() -> Playable:
    """The omniscient example after Dani proposes Robot-Sport-Drink (Lari, whose rule is
    Sport, bars it): Dani draws a guest."""
    position = playable(catalog.find("pool-party-stars", "full-state").document())
    position = position.apply(position.parse("propose Robot-Sport-Drink"))
    assert position.awaits_chance()
    return position


def test_a_pool_party_draw_that_cannot_beat_a_sure_action_is_no_luck() -> None:
    """Dani can guess Ben's rule (Robot) for certain: one VIP, half the waiting line rounded
    up.  No guest brings more than one VIP, so whatever she draws her best next action is
    worth the same: every outcome's luck is 0 for every player, exactly."""
    found = every_outcome("pool-party-stars", pool_party_draw())
    assert all(exact for _, _, exact in found)
    assert all(value == pytest.approx(0.0, abs=1e-9) for _, luck, _ in found
               for value in luck.values())


def test_a_pool_party_guest_is_the_drawers_luck_alone_and_averages_to_zero(
        tmp_path: Path) -> None:
    """Ana's draw at step 20 of a simulated game (the answers so far make some guests likelier
    to pass than others): the guest goes to her hand, which no other seat sees, so only her
    value moves with it; over the deck her luck averages to 0, exactly."""
    record = simulated_record(tmp_path, "pool-party-stars", 20)
    position = position_of(record, 19)
    assert position.actor() == "the guest deck (Ana draws)"
    found = every_outcome("pool-party-stars", position)
    assert all(exact for _, _, exact in found)
    for name in ("Ben", "Cat", "Dani"):
        assert all(luck[name] == pytest.approx(0.0, abs=1e-9) for _, luck, _ in found)
    assert weighted(found, "Ana") == pytest.approx(0.0, abs=1e-6)
    assert len({round(luck["Ana"], 6) for _, luck, _ in found}) > 1


def test_a_pool_party_value_is_the_vips_plus_the_best_actions_expectation() -> None:
    """Dani to act in the example: her value is her VIPs plus the hint's value of her best
    option (the hint says so for her seat); a game that is over is worth its VIPs."""
    doc = catalog.find("pool-party-stars", "full-state").document()
    commands = app.commands_for("pool-party-stars")
    assert commands is not None
    found = commands.position_values(doc, app.Options(seed=1))
    assert found is not None and found.exact
    hint = app.run("hint", doc, {}).data
    vips = playable(doc).state.public.vips[0]  # type: ignore[attr-defined]
    assert found.values["Dani"] == pytest.approx(len(vips) + hint["moves"][0]["value"])


def test_review_of_a_pool_party_game_gives_every_player_a_luck(tmp_path: Path) -> None:
    data = reviewed(simulated_record(tmp_path, "pool-party-stars"))
    assert "not computed" not in data["luck_note"]
    for name, mine in data["players"].items():
        assert isinstance(mine["luck"], float | int), name
        assert mine["luck_exact"] and mine["luck_not_computed"] == 0
    values = [step["values"] for step in data["steps"]]
    assert all(v is not None for v in values)


# -- Party-Time ---------------------------------------------------------------------------------


def test_a_party_time_draw_averages_to_zero_and_is_estimated(tmp_path: Path) -> None:
    """The first draw of a simulated game: each player's luck over every card the pile can
    give averages to 0 (the expectation is the average of the same estimates), flagged
    estimated; the black square Cat draws later costs Dan, who comes after her, most."""
    record = simulated_record(tmp_path, "party-time", 16)
    found = every_outcome("party-time", position_of(record, 1))
    assert not any(exact for _, _, exact in found)
    for name in ("Ann", "Ben", "Cat", "Dan"):
        assert weighted(found, name) == pytest.approx(0.0, abs=1e-9)
    data = reviewed(record)
    black = next(step for step in data["steps"] if step.get("move") == "draw black")
    assert black["actor"] == "the pile (Cat draws)"
    assert min(black["luck"], key=black["luck"].get) == "Dan"


def test_a_party_time_play_with_no_alternative_gives_up_nothing(tmp_path: Path) -> None:
    """Ben holds three 4s and no token: 'play 4' is his only play, so it loses nothing."""
    record = simulated_record(tmp_path, "party-time", 4)
    data = tomllib.loads(record.read_text())
    assert data["start"]["hands"]["Ben"] == ["4", "4", "4"]
    assert data["start"]["tokens"]["Ben"] == 0
    review = reviewed(record)
    ben = [d for d in review["decisions"] if d["actor"] == "Ben"]
    assert [d["move"] for d in ben] == ["play 4"]
    assert ben[0]["lost"] == 0 and ben[0]["label"] is None
    assert review["players"]["Ben"]["decision_loss"] == 0


def test_a_party_time_game_over_is_worth_its_strips(tmp_path: Path) -> None:
    """The last position of a simulated game: every player's strips, exactly."""
    from partysolver.app.base import document

    record = simulated_record(tmp_path, "party-time")
    steps = len(tomllib.loads(record.read_text())["steps"])
    position = position_of(record, steps)
    assert position.is_over()
    commands = app.commands_for("party-time")
    assert commands is not None
    found = commands.position_values(document(position.to_document(), "test"),
                                     app.Options(seed=1))
    state = position.state  # type: ignore[attr-defined]
    assert found is not None and found.exact
    assert found.values == {name: float(state.strips[seat])
                            for seat, name in enumerate(state.names)}
    assert min(found.values.values()) == 0  # someone has lost their last strip


def test_party_time_playouts_give_way_to_a_time_limit(tmp_path: Path) -> None:
    """Under a time limit a position is valued by fewer playouts, never fewer than
    LEAST_PLAYOUTS; the values stay each player's strips (0 to 4)."""
    record = simulated_record(tmp_path, "party-time", 4)
    from partysolver.app.base import document

    position = position_of(record, 2)
    doc = document(position.to_document(), "test")
    commands = app.commands_for("party-time")
    assert commands is not None
    found = commands.position_values(doc, app.Options(seed=1, time_limit=0.0))
    assert found is not None and not found.exact
    assert all(0 <= v <= 4 for v in found.values.values())
    # the least playouts: every mean is a multiple of 1/LEAST_PLAYOUTS
    assert all(abs(v * LEAST_PLAYOUTS - round(v * LEAST_PLAYOUTS)) < 1e-9
               for v in found.values.values())


# -- Meeple Party -------------------------------------------------------------------------------


def test_a_meeple_party_draw_is_everyones_luck_and_averages_to_zero() -> None:
    """Before Ben's draw (cooperative: one figure for everyone): the exact turn search values
    every meeple the bag can give; over the bag the luck averages to 0 and it is the same
    for both players."""
    position = playable(catalog.find("meeple-party", "before-the-draw").document())
    found = every_outcome("meeple-party", position)
    assert all(exact for _, _, exact in found)
    assert all(luck["Ana"] == luck["Ben"] for _, luck, _ in found)
    assert weighted(found, "Ana") == pytest.approx(0.0, abs=1e-5)
    assert len({round(luck["Ana"], 6) for _, luck, _ in found}) > 1


def test_review_of_a_meeple_party_record_gives_numbers(tmp_path: Path) -> None:
    data = reviewed(simulated_record(tmp_path, "meeple-party", 12))
    assert "not computed" not in data["luck_note"] or data["players"]
    for name, mine in data["players"].items():
        assert isinstance(mine["luck"], float | int), name
    lucks = [step["luck"] for step in data["steps"] if step.get("luck")]
    assert lucks and all(len(set(luck.values())) == 1 for luck in lucks)  # cooperative

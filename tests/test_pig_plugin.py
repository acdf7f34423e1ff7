"""Pig (``examples/pig``), a game registered by another installed package through the entry-point
group ``partysolver.games`` (issue 26, item 4): the registry finds it like the package's own
games, a broken plugin takes no other game down, its rules and file format hold, its exact
two-player values agree with an independent exact method, and every generic verb of the CLI
works on its shipped example.  The web API and a browser test are in ``tests/web/test_web_pig.py``.

``make test`` installs the plugin (``pip install -e examples/pig``); without it these tests are
skipped with one line saying so.
"""

from __future__ import annotations

import importlib.metadata
import json
import random
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from partysolver.app import base, catalog
from partysolver.cli.main import cli
from partysolver.models import registry
from partysolver.models.errors import InputError
from partysolver.models.protocol import CHANCE, TERMINAL

pig = pytest.importorskip("partysolver_pig", reason="the Pig plugin is not installed "
                          "(pip install -e examples/pig; make test installs it)")

from partysolver_pig import commands as pig_commands  # noqa: E402
from partysolver_pig import solver  # noqa: E402
from partysolver_pig.game import HOLD, ROLL, Face  # noqa: E402
from partysolver_pig.position import load_position, load_state, state_to_document  # noqa: E402
from partysolver_pig.state import PigState  # noqa: E402


def run(*args: str, expect: int = 0, input: str | None = None) -> Result:
    result = CliRunner().invoke(cli, list(args), input=input)
    assert result.exit_code == expect, result.output
    assert "Traceback" not in result.output
    return result


def state(*scores: int, player: int = 0, total: int = 0, rolling: bool = False,
          goal: int = 100) -> PigState:
    names = ("Ada", "Ben", "Cleo", "Dev", "Eli", "Fay")[:len(scores)]
    return PigState(goal, names, scores, player, total, rolling)


# -- the registration ---------------------------------------------------------------------------


def test_the_entry_point_registers_pig_like_the_package_own_games() -> None:
    points = importlib.metadata.entry_points(group=registry.GROUP)
    assert [(p.name, p.value) for p in points if p.name == "pig"] == [("pig", "partysolver_pig")]
    assert "pig" in registry.game_keys() and registry.is_plugin("pig")
    assert not registry.is_plugin("tea-party")
    assert registry.package_of("pig") == "partysolver_pig"
    assert registry.get_game("pig") is pig.GAME
    assert base.commands_for("pig") is pig.COMMANDS
    assert registry.broken_games() == {} and "pig" not in base.broken_commands()
    assert [item.name for item in catalog.shipped("pig")] == ["default", "short",
                                                              "three-players"]


def test_the_conformance_suite_plays_pig() -> None:
    import test_conformance

    assert "pig" in [game.info.key for game in test_conformance.GAMES]


@pytest.fixture
def ghost_plugins(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Three more installed plugins: one whose module does not exist, one that claims
    tea-party, one whose module registers another key; the registry's caches emptied before
    and after."""
    real = importlib.metadata.entry_points

    def entry_points(**selection: Any) -> Any:
        if selection.get("group") != registry.GROUP:
            return real(**selection)
        group = registry.GROUP
        return [*real(**selection),
                importlib.metadata.EntryPoint("ghost", "no_such_pig_module", group),
                importlib.metadata.EntryPoint("tea-party", "partysolver_pig", group),
                importlib.metadata.EntryPoint("hog", "partysolver_pig", group)]

    def clear() -> None:
        registry.clear()
        base.clear_commands()

    clear()
    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    yield
    monkeypatch.undo()
    clear()


def test_a_broken_plugin_takes_no_other_game_down(ghost_plugins: None, tmp_path: Path) -> None:
    broken = registry.broken_games()
    assert set(broken) == {"ghost", "tea-party (partysolver_pig)", "hog"}
    assert "ModuleNotFoundError" in broken["ghost"]
    assert "already has" in broken["tea-party (partysolver_pig)"]
    assert "'pig'" in broken["hog"] and "'hog'" in broken["hog"]
    assert set(base.broken_commands()) == {"ghost", "hog"}
    assert {"pig", "tea-party", "meeple-land"} <= set(registry.all_games())
    assert registry.get_game("tea-party").info.title == "Epic Monster Tea Party"
    listing = run("games").output
    assert "ghost              unavailable: registered by no_such_pig_module" in listing
    assert "Pig (2-6 players)" in listing and "Epic Monster Tea Party" in listing
    assert run("hint", "pig:default").output.startswith("Ada to play")
    ghost = tmp_path / "ghost.toml"
    ghost.write_text('game = "ghost"\n')
    output = run("verify", str(ghost), expect=1).output
    assert "failed to load" in output and "no_such_pig_module" in output


# -- the rules ----------------------------------------------------------------------------------


def test_a_turn_starts_with_a_roll_and_the_die_is_a_chance_player() -> None:
    start = state(0, 0)
    assert start.legal_actions() == (ROLL,)
    rolled = start.apply(ROLL)
    assert rolled.current_player() == CHANCE and rolled.legal_actions() == ()
    assert rolled.chance_outcomes() == tuple((Face(f), Fraction(1, 6)) for f in range(1, 7))
    four = rolled.apply(Face(4))
    assert (four.player, four.turn_total, four.rolling) == (0, 4, False)
    assert four.legal_actions() == (ROLL, HOLD)
    held = four.apply(HOLD)
    assert (held.scores, held.player, held.turn_total) == ((4, 0), 1, 0)
    assert start.key() == state(0, 0).key()  # apply never changes a state


def test_a_one_loses_the_turn_total_and_passes_the_die() -> None:
    pigged = state(30, 50, total=17, rolling=True).apply(Face(1))
    assert (pigged.scores, pigged.player, pigged.turn_total) == ((30, 50), 1, 0)
    assert state(30, 50, player=1, total=3, rolling=True).apply(Face(1)).player == 0


def test_reaching_the_goal_ends_the_game_at_once() -> None:
    won = state(95, 99, total=3, rolling=True).apply(Face(2))
    assert won.current_player() == TERMINAL and won.scores == (100, 99)
    assert won.returns() == (1.0, 0.0) and won.legal_actions() == ()
    three = state(10, 20, 49, player=2, total=0, rolling=True, goal=50).apply(Face(6))
    assert three.returns() == (0.0, 0.0, 1.0)


def test_random_playouts_keep_the_rules_invariants() -> None:
    for seed in range(200):
        rng = random.Random(seed)
        current = pig.GAME.initial_state(2 + seed % 5, rng)
        while current.current_player() != TERMINAL:
            actions = current.chance_outcomes() and [a for a, _ in current.chance_outcomes()]
            step = rng.choice(actions or list(current.legal_actions()))
            after = current.apply(step)
            assert all(b >= a for a, b in zip(current.scores, after.scores, strict=True))
            gained = sum(after.scores) - sum(current.scores)
            assert gained in (0, current.turn_total) or (
                isinstance(step, Face) and gained == current.turn_total + step.value)
            assert after.turn_total == 0 or after.player == current.player
            current = after
        assert sum(current.returns()) == 1.0
        assert sum(score >= current.goal for score in current.scores) == 1


# -- the position file --------------------------------------------------------------------------


DOC = {"game": "pig", "goal": 30, "turn": "Ben", "turn_total": 8,
       "players": [{"name": "Ada", "score": 12}, {"name": "Ben", "score": 20}]}


def test_a_position_round_trips_and_the_goal_may_be_smaller() -> None:
    loaded = load_state(DOC, "doc.toml")
    assert (loaded.goal, loaded.player, loaded.turn_total) == (30, 1, 8)
    assert state_to_document(loaded) == DOC
    assert load_state({k: v for k, v in DOC.items() if k != "goal"}, "x").goal == 100


@pytest.mark.parametrize(("change", "field", "expected"), [
    ({"goal": 1}, "goal", "an integer from 2 to 1000"),
    ({"goal": "high"}, "goal", "an integer"),
    ({"turn_total": -2}, "turn_total", "an integer from 0 to 1000"),
    ({"rolling": "yes"}, "rolling", "true or false"),
    ({"players": []}, "players", "a list of players"),
    ({"players": [{"name": "Ada", "score": -1}]}, "players[1].score", "an integer from 0"),
    ({"players": [{"name": "Ada", "points": 3}]}, "players[1].points", "a known field"),
    ({"dice": 2}, "dice", "a known field"),
])
def test_malformed_input_names_its_field_and_expectation(change: dict[str, Any], field: str,
                                                         expected: str) -> None:
    with pytest.raises(InputError) as raised:
        load_position(DOC | change, "bad.toml")
    assert raised.value.field == field and expected in raised.value.expected


def test_problems_lists_every_rule_problem_at_once() -> None:
    document = DOC | {"turn": "Cleo", "turn_total": 1,
                      "players": [{"name": "Ada", "score": 30}, {"name": "ada", "score": 31}]}
    codes = [p.code for p in load_position(document, "x").problems()]
    assert codes == ["duplicate-name", "unknown-player", "two-winners", "play-after-the-end",
                     "impossible-total"]
    near = DOC | {"turn_total": 10}
    assert [p.code for p in load_position(near, "x").problems()] == ["goal-reached"]


def test_bad_input_through_the_cli_is_one_line_exit_2_and_nothing_written(tmp_path: Path
                                                                          ) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "pig"\ngoal = 0\n[[players]]\nname = "Ada"\n')
    out = tmp_path / "out.toml"
    for args in (("hint", str(bad)), ("apply", str(bad), "roll", "-o", str(out)),
                 ("render", str(bad), "-o", str(tmp_path / "x.svg"))):
        result = run(*args, expect=2)
        assert result.output.strip().splitlines() == [
            f"Error: bad input: {bad}: goal: expected an integer from 2 to 1000, got 0"] or \
            "goal: expected an integer from 2 to 1000" in result.output.strip()
        assert len(result.output.strip().splitlines()) == 1
    assert not out.exists() and not (tmp_path / "x.svg").exists()


# -- the exact values ---------------------------------------------------------------------------


def policy_iteration(goal: int) -> dict[tuple[int, int, int], Fraction]:
    """Pig's two-player values by policy iteration in exact fractions, an oracle independent
    of the value iteration: the values of a fixed policy solve a linear system (Gauss-Jordan
    elimination over Fractions); the policy then takes the better move everywhere, until it no
    longer changes."""
    states = [(i, j, k) for i in range(goal) for j in range(goal) for k in range(goal - i)]
    index = {s: n for n, s in enumerate(states)}
    policy = {s: "roll" for s in states}
    sixth = Fraction(1, 6)

    def terms(s: tuple[int, int, int], move: str) -> tuple[Fraction, dict[int, Fraction]]:
        """The value of ``move`` as a constant plus coefficients of other states' values."""
        i, j, k = s
        if move == "hold":
            return Fraction(1), {index[(j, i + k, 0)]: Fraction(-1)} if i + k < goal else {}
        constant, coefficients = sixth, {index[(j, i, 0)]: -sixth}
        for face in range(2, 7):
            if i + k + face >= goal:
                constant += sixth
            else:
                row = index[(i, j, k + face)]
                coefficients[row] = coefficients.get(row, 0) + sixth
        return constant, coefficients

    while True:
        size = len(states)
        matrix = [[Fraction(0)] * (size + 1) for _ in range(size)]
        for row, s in enumerate(states):
            constant, coefficients = terms(s, policy[s])
            matrix[row][row] += 1
            for column, c in coefficients.items():
                matrix[row][column] -= c
            matrix[row][size] = constant
        for column in range(size):
            pivot = next(r for r in range(column, size) if matrix[r][column] != 0)
            matrix[column], matrix[pivot] = matrix[pivot], matrix[column]
            lead = matrix[column][column]
            matrix[column] = [x / lead for x in matrix[column]]
            for r in range(size):
                if r != column and matrix[r][column] != 0:
                    factor = matrix[r][column]
                    matrix[r] = [a - factor * b for a, b in zip(matrix[r], matrix[column],
                                                                 strict=True)]
        value = {s: matrix[index[s]][size] for s in states}

        def of(s: tuple[int, int, int], move: str, value: dict[Any, Fraction]) -> Fraction:
            constant, coefficients = terms(s, move)
            return constant + sum(c * value[states[column]] for column, c in coefficients.items())

        better = {s: "hold" if s[2] > 0 and of(s, "hold", value) > of(s, "roll", value)
                  else "roll" for s in states}
        if better == policy:
            return value
        policy = better


def test_value_iteration_agrees_with_exact_policy_iteration_on_a_small_goal() -> None:
    goal = 6
    exact = policy_iteration(goal)
    table = solver.values(goal)
    for (i, j, k), value in exact.items():
        assert abs(table.decide(i, j, k) - float(value)) < 1e-12, (i, j, k)
        if k > 0:
            best = "hold" if table.hold(i, j, k) > table.roll(i, j, k) else "roll"
            if abs(table.hold(i, j, k) - table.roll(i, j, k)) > 1e-9:
                assert str(table.best(i, j, k)) == best
    assert exact[(0, 0, 0)] > Fraction(1, 2)  # the first player's advantage


def test_the_compiled_iteration_is_the_interpreted_one() -> None:
    compiled, interpreted = solver.values(12), solver.values(12, compiled=False)
    assert (compiled.table == interpreted.table).all()
    assert compiled.passes == interpreted.passes < solver.MAX_PASSES


def test_the_table_is_kept_on_disk_and_a_damaged_one_is_computed_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A new process loads the table of a goal instead of computing it (no numba to import):
    the same values; a damaged or foreign file is computed again and written over; a cache
    that cannot be written changes nothing but the next run's time."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    solver.values.cache_clear()
    first = solver.values(14)
    path = solver.table_file(14)
    assert path.is_file() and path.parent == tmp_path / "partysolver"
    solver.values.cache_clear()
    monkeypatch.setattr(solver, "_compiled", lambda: pytest.fail("computed, not loaded"))
    loaded = solver.values(14)
    assert (loaded.table == first.table).all() and loaded.passes == first.passes
    monkeypatch.undo()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    import numpy as np

    for damage in ("bytes", "shape"):
        if damage == "bytes":
            path.write_bytes(b"not a table")
        else:  # a sound file of the wrong shape
            np.savez(path, table=np.zeros((3, 3, 3)), passes=np.int64(1))
        solver.values.cache_clear()
        assert (solver.values(14).table == first.table).all()
        with np.load(path) as kept:  # written over with the right table
            assert (kept["table"] == first.table).all()
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))  # no folder can be made under a file
    solver.values.cache_clear()
    try:
        assert (solver.values(14).table == first.table).all()
    finally:
        solver.values.cache_clear()


def test_the_goal_of_100_gives_neller_and_presser_first_player_chance() -> None:
    # Neller and Presser (2004): the first player wins 53.06% of games with optimal play.
    table = solver.values(100)
    assert abs(table.decide(0, 0, 0) - 0.5306) < 5e-5
    assert table.passes < solver.MAX_PASSES
    # near the goal, rolling for the win beats holding short of it
    assert table.best(90, 99, 8) == ROLL and table.best(0, 0, 30) == HOLD


def test_the_option_default_stated_by_the_commands_is_the_solver_own() -> None:
    assert pig_commands.PLAYOUTS_DEFAULT == solver.PLAYOUTS


# -- every generic verb on the shipped example ----------------------------------------------------


def test_hint_ranks_roll_and_hold_by_the_exact_chance_to_win_with_reasons() -> None:
    data = json.loads(run("hint", "pig:default", "--json").stdout)
    assert data["game"] == "pig" and data["status"] == "exact" and data["to_move"] == "Ada"
    moves = {move["move"]: move for move in data["moves"]}
    table = solver.values(100)
    assert moves["roll"]["value"] == round(table.roll(45, 60, 12), 6)
    assert moves["hold"]["value"] == round(table.hold(45, 60, 12), 6)
    assert data["moves"][0]["move"] == str(table.best(45, 60, 12))
    assert "a 1 (1 in 6) loses the 12 points" in moves["roll"]["reason"]
    assert "bank 12 points: 57 to Ben's 60" in moves["hold"]["reason"]


def test_hint_for_three_players_is_an_estimate_with_intervals() -> None:
    data = json.loads(run("hint", "pig:three-players", "--seed", "1", "--playouts", "300",
                          "--json").stdout)
    assert data["status"] == "estimate" and data["search"]["playouts"] == 300
    for move in data["moves"]:
        low, high = move["interval"]
        assert low <= move["value"] <= high
    again = run("hint", "pig:three-players", "--seed", "1", "--playouts", "300", "--json")
    assert json.loads(again.stdout) == data


def test_solve_is_exact_for_two_and_says_not_supported_for_more() -> None:
    data = json.loads(run("solve", "pig:short", "--json").stdout)
    assert data["status"] == "optimal"
    assert data["objective"]["value"] == round(solver.values(20).decide(14, 17, 4), 6)
    assert data["solution"]["best"] == "roll" and data["solution"]["holds_at"] is None
    refused = run("solve", "pig:three-players", expect=2).output.strip()
    assert "not supported for 3 players" in refused and len(refused.splitlines()) == 1


def test_verify_render_apply_review_and_simulate(tmp_path: Path) -> None:
    assert run("verify", "pig:default").output.startswith("valid")
    picture = tmp_path / "pig.svg"
    run("render", "pig:default", "-o", str(picture), "--hint")
    svg = picture.read_text()
    assert 'id="legend"' in svg and 'data-start="turn-total"' in svg and "hint: roll" in svg
    record = tmp_path / "game.record.toml"
    after = tmp_path / "after.toml"
    run("apply", "pig:default", "roll", "5", "hold", "--record", str(record), "-o", str(after))
    assert 'turn = "Ben"' in after.read_text()
    assert '{ name = "Ada", score = 62 }' in after.read_text()
    review = json.loads(run("review", str(record), "--json").stdout)
    assert [d["move"] for d in review["decisions"]] == ["roll", "hold"]
    assert review["decisions"][0]["label"] is None  # rolling was the best move
    args = ("simulate", "pig", "--games", "20", "--policy", "hint", "--policy", "hold20",
            "--rotate", "--goal", "30", "--seed", "4", "--json")
    alone = json.loads(run(*args).stdout)
    assert alone["games"] == 20 and alone["goal"] == 30
    assert json.loads(run(*args, "--workers", "2").stdout) == alone
    three = json.loads(run("simulate", "pig", "--players", "3", "--games", "2", "--goal", "15",
                           "--policy", "hint", "--policy", "random", "--rotate", "--seed", "1",
                           "--json").stdout)
    assert three["players"] == 3 and three["games"] == 2


def test_a_hint_bot_plays_a_table_of_three() -> None:
    output = run("play", "pig:three-players", "--bot", "Ada=hint", "--bot", "Ben=hint",
                 "--seed", "2", input="hold\nquit\n").output
    assert "1. Cleo: hold" in output and "Ada: roll  (hint bot)" in output


def test_play_takes_moves_chance_and_a_hint(tmp_path: Path) -> None:
    saved = tmp_path / "after.toml"
    output = run("play", "pig:short", "--seed", "1",
                 input=f"hint 1\nroll\nrolled four\nsave {saved}\nquit\n").output
    assert "to enter: 1. roll" in output and "2. the die: 4" in output
    assert "Ben has won" in output or "game is over" in output
    assert 'name = "Ben", score = 22' in saved.read_text()


def test_every_spelling_of_every_step_parses_back_on_random_playouts() -> None:
    from partysolver.models.playable import StatePlayable

    notation = pig.GAME.notation
    for seed in range(60):
        rng = random.Random(seed)
        position = StatePlayable(pig.GAME, pig.GAME.initial_state(2 + seed % 3, rng))
        position = StatePlayable(pig.GAME, PigState(20, position.state.names,
                                                    position.state.scores))
        while not position.is_over():
            steps = list(position.legal_steps())
            spelled = [position.format(step) for step in steps]
            assert len(set(spelled)) == len(spelled)
            for step, text in zip(steps, spelled, strict=True):
                assert position.parse(text) == step and position.parse(text.upper()) == step
                for variant in notation.variants(position.state, step):
                    assert position.parse(variant) == step, variant
            chosen = position.random_step(rng) if position.awaits_chance() else rng.choice(steps)
            position = position.apply(chosen)
            assert load_state(position.to_document(), "x").key() == position.state.key()


GOLDEN = Path(__file__).parent / "pig_golden.txt"
"""One seeded game to 30, the hint policy against hold20, as its record and its review."""


def golden_transcript(folder: Path) -> str:
    run("simulate", "pig", "--games", "1", "--seed", "11", "--goal", "30", "--policy", "hint",
        "--policy", "hold20", "--records", str(folder))
    record = folder / "game-001.record.toml"
    review = run("review", str(record), "--seed", "1").stdout
    return f"{record.read_text()}\n# partysolver review\n{review}"


def test_a_seeded_game_and_its_review_match_the_golden_transcript(tmp_path: Path) -> None:
    assert golden_transcript(tmp_path / "records") == GOLDEN.read_text()


def test_the_registry_lists_pig_without_importing_it() -> None:
    import subprocess
    import sys

    script = ("import json, sys\nfrom partysolver.models.registry import game_keys\n"
              "print(json.dumps([list(game_keys()), sorted(sys.modules)]))")
    keys, modules = json.loads(subprocess.run([sys.executable, "-c", script], check=True,
                                              capture_output=True, text=True).stdout)
    assert "pig" in keys
    assert not [m for m in modules if m.startswith(("partysolver_pig", "numpy", "numba"))]


PIG_RANKS = {"game": 0, "state": 0, "position": 0, "notation": 0, "render": 0, "solver": 1,
             "commands": 2}
"""Pig's modules on partysolver's floors: the rules (models), the searches (solvers), the
commands (app); the package itself (``GAME``) is a rules module (``COMMANDS`` loads by name, on
first use: tests/test_startup.py checks what each command imports)."""


def test_pig_layers_point_one_way_like_partysolver() -> None:
    import test_layers

    root = Path(pig.__file__).parent
    known = test_layers.modules() | test_layers.modules(root)
    for name, path in test_layers.modules(root).items():
        rank = PIG_RANKS.get(name.rpartition(".")[2], 0 if name == "partysolver_pig" else -1)
        assert rank >= 0, f"{name}: a module on no floor"
        for item in test_layers.imports(name, path, known):
            assert item.target != "click", item
            if item.target.startswith("partysolver_pig"):
                assert PIG_RANKS[item.target.rpartition(".")[2]] <= rank, item
            else:
                assert test_layers.layer(item.target)[1] <= rank, item

"""The playable position of the perfect-information games, and their notations, on seeded random
playouts: every legal step formats and parses back, every other spelling of a step played parses
to it, and every position reached writes a file that loads back to the same position.

A playout starts from a position of a pool (new games of every size, the shipped examples and
positions met on a few whole random games, so late and rare phases are in it too) and plays a
few steps; the pool is built once per game.  The default suite plays 1,000 playouts per game
(Meeple Land's rules generate its legal placements slowly, so its playouts are one step long);
``-m slow`` plays longer ones.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from partysolver import puzzles
from partysolver.models.documents import format_document, parse_document, read_document
from partysolver.models.notation import NotationError
from partysolver.models.playable import Line, StatePlayable, steps_of
from partysolver.models.protocol import CHANCE, TERMINAL, sample_chance
from partysolver.models.registry import get_game

KEYS = ("tea-party", "meeple-party", "meeple-land")


@dataclass(frozen=True)
class Plan:
    """How a game is walked: whole random games feeding the pool, playouts and their length."""

    games: int
    playouts: int
    steps: int


PLANS = {"tea-party": Plan(games=6, playouts=1000, steps=2),
         "meeple-party": Plan(games=6, playouts=1000, steps=1),
         "meeple-land": Plan(games=1, playouts=1000, steps=1)}
SLOW_PLANS = {"tea-party": Plan(games=30, playouts=1000, steps=40),
              "meeple-party": Plan(games=20, playouts=1000, steps=20),
              "meeple-land": Plan(games=4, playouts=1000, steps=8)}


def random_games(key: str, count: int) -> Iterator[object]:
    """Every state of ``count`` seeded random games, the sizes taking turns."""
    game = get_game(key)
    sizes = list(game.info.player_counts())
    for seed in range(count):
        rng = random.Random(1000 + seed)
        state = game.initial_state(sizes[seed % len(sizes)], rng)
        while True:
            yield state
            player = state.current_player()
            if player == TERMINAL:
                break
            action = sample_chance(state, rng) if player == CHANCE else \
                rng.choice(list(state.legal_actions()))
            state = state.apply(action)


def examples(key: str) -> list[StatePlayable]:
    game = get_game(key)
    found = []
    for path in puzzles.examples(key).values():
        document, source = read_document(path)
        if key == "meeple-land" and document.get("kind", "game") != "game":
            continue
        found.append(game.playable(document, source))  # type: ignore[attr-defined]
    return found


def pool(key: str, plan: Plan) -> list[StatePlayable]:
    game = get_game(key)
    states = list(random_games(key, plan.games))
    return examples(key) + [StatePlayable(game, state) for state in states]  # type: ignore[arg-type]


def check_all_steps(position: StatePlayable) -> None:
    """Every legal step: ``parse(format(step)) == step``; canonical spellings never collide."""
    steps = position.legal_steps()
    assert len(set(steps)) == len(steps)
    texts = [position.format(step) for step in steps]
    assert len({t.casefold() for t in texts}) == len(texts), "two steps share a canonical text"
    for step, text in zip(steps, texts, strict=True):
        assert one_line(text)
        assert position.parse(text) == step, text
        assert position.parse(text.upper()) == step, text


def one_line(text: str) -> bool:
    return "|" not in text and "\n" not in text and text == text.strip()


def check_played(position: StatePlayable, step: Hashable, as_text: bool) -> StatePlayable:
    """Every spelling of ``step`` parses to it (or, shared with another step, is ambiguous);
    the next position's file loads back to an equal key (through TOML and JSON text when
    ``as_text``)."""
    for text in position.spellings().of(step):
        try:
            assert position.parse(text) == step, text
        except NotationError as error:
            assert error.problem.startswith("ambiguous"), (text, str(error))
            listed = error.closest
            assert position.format(step) in listed or len(listed) >= 5, (text, str(error))
    child = position.apply(step)
    game = position.game
    document = child.to_document()
    texts = [("played.toml", format_document(document)),
             ("played.json", format_document(document, as_json=True))] if as_text else []
    loaded = [game.playable(document, "played")]  # type: ignore[attr-defined]
    loaded += [game.playable(parse_document(text, source), source)  # type: ignore[attr-defined]
               for source, text in texts]
    for other in loaded:
        assert other.key() == child.key(), f"the file after {step} loads differently"
    return child


def walk(key: str, plan: Plan) -> int:
    positions = pool(key, plan)
    checked: set[int] = set()
    played = 0
    for seed in range(plan.playouts):
        rng = random.Random(seed)
        position = positions[rng.randrange(len(positions))]
        for _ in range(plan.steps):
            if position.is_over():
                assert position.legal_steps() == [] and not position.awaits_chance()
                break
            if id(position) not in checked:
                check_all_steps(position)
                checked.add(id(position))
            step = position.random_step(rng) if position.awaits_chance() else \
                rng.choice(list(position.legal_steps()))
            position = check_played(position, step, as_text=seed % 10 == 0)
            played += 1
    return played


@pytest.mark.parametrize("key", KEYS)
def test_random_playouts_format_parse_and_round_trip(key: str) -> None:
    assert walk(key, PLANS[key]) >= PLANS[key].playouts // 2


@pytest.mark.slow
@pytest.mark.parametrize("key", KEYS)
def test_long_random_playouts_format_parse_and_round_trip(key: str) -> None:
    assert walk(key, SLOW_PLANS[key]) >= SLOW_PLANS[key].playouts


# -- the playable position --------------------------------------------------------------------


@pytest.mark.parametrize("key", KEYS)
def test_random_step_draws_each_outcome_with_its_probability(key: str) -> None:
    position = next(p for p in pool(key, Plan(1, 0, 0)) if p.awaits_chance()
                    and len(p.legal_steps()) > 1)
    outcomes = dict(position.state.chance_outcomes())  # type: ignore[attr-defined]
    rng = random.Random(7)
    draws = 4000
    seen: dict[Hashable, int] = {}
    for _ in range(draws):
        step = position.random_step(rng)
        seen[step] = seen.get(step, 0) + 1
    assert set(seen) <= set(outcomes)
    for step, probability in outcomes.items():
        expected = float(probability) * draws
        assert abs(seen.get(step, 0) - expected) <= 5 * (expected * (1 - float(probability))) ** 0.5 + 1
    assert sum(outcomes.values()) == Fraction(1)


def player_names(position: StatePlayable) -> tuple[str, ...]:
    state = position.state
    for owner in (state, getattr(state, "table", None), getattr(state, "setup", None)):
        for field in ("names", "players"):
            names = getattr(owner, field, None)
            if isinstance(names, tuple):
                return names
    raise AssertionError("no player names")


@pytest.mark.parametrize("key", KEYS)
def test_actor_names_the_player_or_what_chance_does(key: str) -> None:
    kinds = set()
    for position in pool(key, Plan(1, 0, 0)):
        actor = position.actor()
        assert actor and "\n" not in actor
        player = position.state.current_player()
        if player >= 0:
            assert actor == player_names(position)[player]
        else:
            assert actor not in player_names(position)
            kinds.add("chance" if position.awaits_chance() else "over")
    assert kinds == {"chance", "over"}


@pytest.mark.parametrize("key", KEYS)
def test_decisions_refuse_random_steps_and_illegal_steps(key: str) -> None:
    position = next(p for p in examples(key) if not p.awaits_chance() and not p.is_over())
    with pytest.raises(ValueError, match="no chance step"):
        position.random_step(random.Random(0))
    chance = next(p for p in pool(key, Plan(1, 0, 0)) if p.awaits_chance())
    with pytest.raises(ValueError, match="not legal here"):
        position.apply(chance.legal_steps()[0])


@pytest.mark.parametrize("key", KEYS)
def test_a_line_of_steps_parses_applies_and_formats(key: str) -> None:
    rng = random.Random(3)
    position = examples(key)[0]
    steps: list[Hashable] = []
    current = position
    for _ in range(3):
        if current.is_over():
            break
        step = current.random_step(rng) if current.awaits_chance() else \
            rng.choice(list(current.legal_steps()))
        steps.append(step)
        current = current.apply(step)
    text = " | ".join(p for p in _formats(position, steps))
    line = position.parse(text)
    assert isinstance(line, Line) and line.steps == tuple(steps)
    assert position.format(line) == text
    assert position.apply(line).key() == current.key()


def _formats(position: StatePlayable, steps: list[Hashable]) -> Iterator[str]:
    for step in steps:
        yield position.format(step)
        position = position.apply(step)


@pytest.mark.parametrize("key", KEYS)
def test_a_bad_step_of_a_line_is_named_in_one_line(key: str) -> None:
    position = examples(key)[0]
    first = position.format(position.legal_steps()[0])
    with pytest.raises(NotationError) as caught:
        position.parse(f"{first} | no such step here")
    message = str(caught.value)
    assert "step 2 of the line" in message and "\n" not in message
    with pytest.raises(NotationError, match="step 2 of the line is empty"):
        position.parse(f"{first} |  ")


# -- what hint prints today -------------------------------------------------------------------

HINT_OPTIONS = {"tea-party": ["--exact-nodes", "2000", "--mcts-iterations", "50"],
                "meeple-party": [], "meeple-land": []}


def hinted_texts(position: StatePlayable, data: dict[str, Any]) -> Iterator[
        tuple[StatePlayable, str]]:
    """Every move ``hint --json`` printed, with the position it is a move of: ``move`` and
    ``text`` of each ranked move (a Meeple Party turn's ``steps`` too, as one line) and, before
    a draw, the best answer to each outcome in the position after it."""
    for move in data.get("moves", []):
        if position.awaits_chance():
            continue  # Tea Party's "draw": nothing to decide before the draw (see draws)
        yield position, move["move"]
        if move.get("text"):
            yield position, move["text"]
        if move.get("steps"):
            yield position, " | ".join(move["steps"])
    for draw in data.get("draws", []):
        label = draw.get("hero") or draw["outcome"]
        outcome = position.parse(label if "hero" not in draw else f"draw {label}")
        after = position.apply(outcome)
        best = draw.get("best")
        if isinstance(best, dict):
            yield after, best["move"]
            yield after, best["text"]
        elif best and not after.awaits_chance() and not after.is_over():
            yield after, " | ".join(best)


@pytest.mark.slow
@pytest.mark.parametrize("key", KEYS)
def test_every_move_hint_prints_on_the_shipped_examples_parses(key: str) -> None:
    from click.testing import CliRunner

    from partysolver.cli.main import cli

    game = get_game(key)
    for name, path in puzzles.examples(key).items():
        document, source = read_document(path)
        if key == "meeple-land" and document.get("kind", "game") != "game":
            continue
        position = game.playable(document, source)  # type: ignore[attr-defined]
        result = CliRunner().invoke(cli, ["hint", str(path), "--json", *HINT_OPTIONS[key]],
                                    catch_exceptions=False)
        assert result.exit_code == 0, result.output
        texts = list(hinted_texts(position, json.loads(result.output)))
        assert texts or position.is_over(), name
        for where, text in texts:
            step = where.parse(text)
            assert all(s in where.legal_steps() for s in steps_of(step)[:1]), (name, text)


# -- the documented examples ------------------------------------------------------------------

FORMATS = Path(__file__).resolve().parent.parent / "docs" / "formats.md"
NOTATION_BLOCKS = re.findall(r"```text\n# partysolver example (\S+) (\S+)[^\n]*\n(.*?)```",
                             FORMATS.read_text(), re.S)


def test_every_game_documents_its_notation_with_examples() -> None:
    assert {key for key, _, _ in NOTATION_BLOCKS} >= set(KEYS)
    for key in KEYS:
        assert f"### Move notation (`{key}`)" in FORMATS.read_text()


@pytest.mark.parametrize(("key", "name", "block"), NOTATION_BLOCKS,
                         ids=[f"{k}-{n}" for k, n, _ in NOTATION_BLOCKS])
def test_every_documented_move_parses_on_its_example(key: str, name: str, block: str) -> None:
    document, source = read_document(puzzles.examples(key)[name])
    position = get_game(key).playable(document, source)  # type: ignore[attr-defined]
    lines = [line for line in block.splitlines() if line.strip()]
    assert lines
    for line in lines:
        step = position.parse(line)
        assert position.format(step) and position.apply(step).to_document()

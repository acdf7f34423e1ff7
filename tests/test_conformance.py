"""One conformance test over every registered game: seeded random playouts through the protocol.

Every game must pass it unchanged: legal actions apply, chance probabilities are exact and sum
to 1, keys are stable, every state round-trips through its position file (TOML and JSON),
terminal states score, and a player's view is unchanged by resampling what it cannot see.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest

from partysolver.models.documents import format_document, parse_document
from partysolver.models.protocol import CHANCE, TERMINAL, Game, State
from partysolver.models.registry import all_games

GAMES = list(all_games().values())
SEEDS = range(3)
MAX_STEPS = 3000


def playout_cases() -> list[tuple[Game, int, int]]:
    cases = []
    for game in GAMES:
        counts = sorted({game.info.min_players, game.info.max_players})
        cases += [(game, n, seed) for n in counts for seed in SEEDS]
    return cases


def round_trip(game: Game, state: State) -> None:
    document = game.state_to_document(state)
    for as_json in (False, True):
        text = format_document(document, as_json=as_json)
        source = "round-trip.json" if as_json else "round-trip.toml"
        loaded = game.state_from_document(parse_document(text, source), source)
        assert loaded.key() == state.key(), f"{source} changed the state"
        assert game.state_to_document(loaded) == document


def check_views(game: Game, state: State, rng: random.Random) -> None:
    for player in range(state.num_players):
        view = state.view(player)
        assert view.player == player
        for _ in range(2):
            sample = view.sample(rng)
            assert sample.view(player).key() == view.key(), "a sample changes the view"
            if not game.info.hidden_information:
                assert sample.key() == state.key()


@pytest.mark.parametrize(("game", "players", "seed"), playout_cases(),
                         ids=lambda v: getattr(getattr(v, "info", None), "key", str(v)))
def test_random_playout(game: Game, players: int, seed: int) -> None:
    rng = random.Random(seed)
    state = game.initial_state(players, rng)
    assert state.num_players == players
    for step in range(MAX_STEPS):
        key = state.key()
        hash(key)
        assert state.key() == key, "key() is not stable"
        if step % 7 == 0:
            round_trip(game, state)
            check_views(game, state, rng)
        player = state.current_player()
        if player == TERMINAL:
            break
        if player == CHANCE:
            outcomes = list(state.chance_outcomes())
            assert outcomes, "a chance node without outcomes"
            assert all(isinstance(p, Fraction) and p > 0 for _, p in outcomes)
            assert sum(p for _, p in outcomes) == 1
            assert len({a for a, _ in outcomes}) == len(outcomes), "repeated chance outcomes"
            assert not state.legal_actions()
            action = rng.choices([a for a, _ in outcomes], [float(p) for _, p in outcomes])[0]
            fast = getattr(state, "sample_outcome", None)
            if fast is not None:
                assert fast(rng) in {a for a, _ in outcomes}, "sample_outcome is off the list"
        else:
            assert 0 <= player < players
            actions = list(state.legal_actions())
            assert actions, "a decision node without legal actions"
            assert len(set(actions)) == len(actions), "repeated legal actions"
            for candidate in actions:
                assert str(candidate) and state.describe_action(candidate)
            action = rng.choice(actions)
        child = state.apply(action)
        assert state.key() == key, "apply() changed the state it was called on"
        assert state.apply(action).key() == child.key(), "apply() is not deterministic"
        state = child
    else:
        pytest.fail(f"no end after {MAX_STEPS} steps")
    returns = state.returns()
    assert len(returns) == players
    assert all(isinstance(r, float) and math.isfinite(r) for r in returns)
    round_trip(game, state)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.info.key)
def test_declaration(game: Game) -> None:
    info = game.info
    assert info.key and info.title and info.summary
    assert 1 <= info.min_players <= info.max_players
    with pytest.raises(ValueError):
        game.initial_state(info.max_players + 1, random.Random(0))

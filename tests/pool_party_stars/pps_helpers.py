"""Shared helpers of the Pool Party Stars tests: seeded games and the shipped files."""

from __future__ import annotations

import random
from pathlib import Path

from partysolver.models.documents import read_document
from partysolver.models.pool_party_stars.evidence import Knowledge
from partysolver.models.pool_party_stars.game import Table
from partysolver.models.pool_party_stars.position import DEFAULT_NAMES, GameLog, load_log
from partysolver.models.pool_party_stars.state import TURN, PoolPartyState
from partysolver.models.protocol import CHANCE, TERMINAL, sample_chance
from partysolver.solvers.pool_party_stars.policies import MixedPolicy

SHIPPED = Path(__file__).resolve().parents[2] / "partysolver" / "puzzles" / "pool-party-stars"
EXAMPLES = SHIPPED / "examples"
PUZZLES = SHIPPED / "puzzles"


def play(players: int, seed: int, events: int | None = None, skill: float = 0.5,
         competitive: bool = False) -> PoolPartyState:
    """A seeded game by mixed bots, stopped at a decision after ``events`` events (or at the
    end)."""
    rng = random.Random(seed)
    state = PoolPartyState.deal(Table(DEFAULT_NAMES[:players], competitive=competitive), rng)
    policy = MixedPolicy(skill)
    while state.current_player() != TERMINAL:
        if state.current_player() == CHANCE:
            state = state.apply(sample_chance(state, rng))
            continue
        if events is not None and len(state.events) >= events and state.phase == TURN:
            break
        state = state.apply(policy(state, rng))
    return state


def seat_logs(players: int, seeds: range, length: int) -> list[Knowledge]:
    """Knowledge of every seat (and an onlooker) in seeded games stopped at ``length``."""
    found = []
    for seed in seeds:
        state = play(players, seed, length)
        found.append(state.knowledge(None))
        found += [state.knowledge(p) for p in range(players)]
    return found


def load(path: Path) -> GameLog:
    document, source = read_document(path)
    return load_log(document, source)

"""A golden transcript: one seeded three-player game of greedy players, step by step (the
bottle's square, tokens and strips after each card), compared with the stored transcript."""

from __future__ import annotations

import random
from pathlib import Path

from partysolver.models.party_time import GAME
from partysolver.models.party_time.game import Play
from partysolver.models.party_time.state import PartyTimeState
from partysolver.models.protocol import CHANCE, sample_chance
from partysolver.solvers.party_time.policies import GreedyPolicy

GOLDEN = Path(__file__).with_name("party_time_golden.txt")


def transcript(seed: int = 2026) -> str:
    rng = random.Random(seed)
    state: PartyTimeState = GAME.initial_state(3, rng)
    greedy = GreedyPolicy()
    lines = []
    while not state.is_terminal():
        player = state.current_player()
        action = sample_chance(state, rng) if player == CHANCE else greedy(state, rng)
        text = state.describe_action(action)
        state = state.apply(action)
        if isinstance(action, Play) or "turns over" in text:
            text += (f" | square {state.square()}, tokens {state.tokens}, "
                     f"strips {state.strips}")
        lines.append(text)
    return "\n".join(lines) + "\n"


def test_golden_transcript() -> None:
    assert transcript() == GOLDEN.read_text()

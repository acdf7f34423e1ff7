"""A golden transcript: one seeded solo party played by the hint policy (node budgets keep it
deterministic).  A rules or solver change that alters play shows up here as a readable diff;
regenerate deliberately with ``python tests/meeple_party/test_meeple_party_golden.py``."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from partysolver.models.meeple_party import new_game
from partysolver.models.protocol import CHANCE, TERMINAL, sample_chance
from partysolver.solvers.meeple_party.policies import HintPolicy

GOLDEN = Path(__file__).parent / "data" / "golden-game.txt"


def transcript() -> list[str]:
    rng = random.Random(2024)
    state = new_game(1, rng, difficulty="hard", length="casual")
    policy = HintPolicy(300)
    lines = []
    while state.current_player() != TERMINAL:
        if state.current_player() == CHANCE:
            action = sample_chance(state, rng)
        else:
            action = policy(state, rng)
        who = state.setup.players[state.active]
        lines.append(f"turn {state.turn} {who}: {state.describe_action(action)}")
        state = state.apply(action)
    lines.append(f"end: {state.outcome}, {state.taken} photos, stress {list(state.stress)}")
    return lines


def test_the_seeded_party_plays_as_recorded() -> None:
    assert transcript() == GOLDEN.read_text(encoding="utf-8").splitlines()


if __name__ == "__main__":
    GOLDEN.write_text("\n".join(transcript()) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN}", file=sys.stderr)

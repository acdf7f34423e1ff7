"""Move notation round trip, python-chess style: ``format(parse(x)) == x`` for every canonical
move.

For each of the five games, over seeded random playouts (from every shipped position one can
play on, and from new games of every table size, played through the game's rules and then
through its :class:`~partysolver.models.notation.Playable`), at every position reached: every
legal step's canonical spelling parses back to that very step and formats to the same text;
the canonical spellings of a position are distinct; and the spelling typed as a person might
(other case, runs of spaces, a full stop) names the same step.  Chance outcomes and, from a
seat, what the seat observes are steps too.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_formats_properties import played

from partysolver.app import catalog, playalong
from partysolver.app.base import BadRequest, document
from partysolver.models.errors import InputError
from partysolver.models.notation import Playable
from partysolver.models.registry import all_games

GAMES = sorted(key for key, game in all_games().items() if hasattr(game, "playable"))
PLAYOUT = 12
"""Steps of a playout, each position along it checked whole."""
LISTED = 400
"""Legal steps checked per position at most (a sample beyond that, drawn from the seed)."""


@cache
def shipped_starts(game: str) -> tuple[str, ...]:
    """The shipped positions of ``game`` one can play on (``GAME:SET/NAME``)."""
    found = []
    for item in catalog.shipped(game):
        try:
            playalong.playable(item.document())
        except (InputError, BadRequest):  # a puzzle, a log no rules fit, a catalogue
            continue
        found.append(f"{game}:{item.qualified}")
    return tuple(found)


def start(game: str, choice: int, players: int, seed: int) -> Playable:
    """A shipped position (``choice`` among them), or a new game of ``players`` after a few
    random steps through the rules (``choice`` past the shipped ones)."""
    names = shipped_starts(game)
    if choice < len(names):
        found = catalog.reference(names[choice])
        assert found is not None
        return playalong.playable(found.document())
    rules = all_games()[game]
    size = rules.info.min_players + players % (rules.info.max_players - rules.info.min_players
                                               + 1)
    state = played(rules, size, seed, seed % 7)
    return playalong.playable(document(rules.state_to_document(state), "new.toml"))


def typed_like_a_person(text: str, rng: random.Random) -> str:
    words = text.split(" ")
    words = [w.upper() if rng.random() < 0.3 else w for w in words]
    return "  ".join(words) + rng.choice(["", ".", " ", "\t"])


def check_position(position: Playable, rng: random.Random) -> None:
    steps: list[Hashable] = list(position.legal_steps())
    if len(steps) > LISTED:
        steps = rng.sample(steps, LISTED)
    spelled: dict[str, Hashable] = {}
    for step in steps:
        text = position.format(step)
        assert text and "\n" not in text and text == text.strip(), (text, step)
        assert position.parse(text) == step, (position.actor(), text, step)
        assert position.format(position.parse(text)) == text
        assert spelled.setdefault(text, step) == step, f"{text!r} spells two steps"
        assert position.parse(typed_like_a_person(text, rng)) == step, text


@pytest.mark.parametrize("game", GAMES)
def test_every_canonical_move_parses_back_and_formats_the_same(game: str) -> None:
    examples = 10 if game == "meeple-land" else 30  # its market lists hundreds of placements

    @settings(max_examples=examples, deadline=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(st.integers(0, 40), st.integers(0, 5), st.integers(0, 10**6))
    def round_trip(choice: int, players: int, seed: int) -> None:
        rng = random.Random(seed)
        position = start(game, choice % (len(shipped_starts(game)) + 3), players, seed)
        for _ in range(PLAYOUT):
            if position.is_over():
                break
            check_position(position, rng)
            step = (position.random_step(rng) if position.awaits_chance()
                    else rng.choice(list(position.legal_steps())))
            position = position.apply(position.parse(position.format(step)))

    round_trip()


def test_every_game_has_a_shipped_position_to_play_on() -> None:
    assert all(shipped_starts(game) for game in GAMES)

"""Fuzzed moves (issue 27, item 2): whatever text is typed as a move, on any position of any
game, the notation answers a legal step or one line saying what was not understood, and
``apply`` answers the next position or one line of bad input, never another exception.

The texts are a legal step's canonical spelling mutated the way the fuzz benchmark
(``benchmarks/fuzz.py``) mutates it: cut, words dropped, doubled, swapped, replaced by odd
words (``²``, ``①``, 5,000 digits, NUL, right-to-left marks, ``|``), word prefixes, other
case, several steps joined by ``|``, or any text at all.  The positions are the shipped ones
one can play on and those reached from them by seeded random steps.  A few seconds per game.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_roundtrip_moves import GAMES, shipped_starts

from partysolver.app import catalog, playalong
from partysolver.app.base import BadRequest, document
from partysolver.models.errors import InputError
from partysolver.models.notation import NotationError, Playable
from partysolver.models.playable import Line, random_walk

HUGE = "9" * 5000
ODD_WORDS = ["", " ", "²", "①", "٣", "１", "0", "-1", "1e3", HUGE, "\0", "\udcff", "é", "🎉",
             "|", " | ", "||", "x" * 3000, "\t", "\x1b[2J", "\u202e", "on", "take", "random",
             "None", "nan", "inf", "../../x", "%s", "{}", "'", '"', "\\", "2147483648", "Ⅻ",
             "𝟗"]
odd_words = st.sampled_from(ODD_WORDS) | st.text(max_size=8)


def one_line(message: str) -> None:
    """A clean error: one line, ``bad input:`` (if said) only at its start."""
    assert message and "\n" not in message, message
    assert "bad input:" not in message[1:], message


@cache
def position_at(name: str, seed: int, steps: int) -> Playable:
    """The shipped position ``name`` after ``steps`` seeded random steps."""
    found = catalog.reference(name)
    assert found is not None
    position = playalong.playable(found.document())
    return random_walk(position, steps, random.Random(seed))[0]


@st.composite
def positions(draw: st.DrawFn, game: str) -> Playable:
    name = draw(st.sampled_from(shipped_starts(game)))
    return position_at(name, draw(st.integers(0, 3)), draw(st.sampled_from([0, 0, 1, 3, 8])))


@st.composite
def typed_moves(draw: st.DrawFn, position: Playable) -> str:
    """What someone might type at ``position``: a legal step's spelling, mutated."""
    legal = [] if position.is_over() else list(position.legal_steps())
    text = position.format(draw(st.sampled_from(legal))) if legal else "cup"
    words = text.split(" ")
    kind = draw(st.sampled_from(["keep", "cut", "drop", "double", "swap", "replace", "insert",
                                 "case", "prefix", "line", "odd"]))
    if kind == "cut":
        return text[:draw(st.integers(0, len(text)))]
    if kind == "drop":
        del words[draw(st.integers(0, len(words) - 1))]
    elif kind == "double":
        at = draw(st.integers(0, len(words) - 1))
        words.insert(at, words[at])
    elif kind == "swap":
        a, b = draw(st.integers(0, len(words) - 1)), draw(st.integers(0, len(words) - 1))
        words[a], words[b] = words[b], words[a]
    elif kind == "replace":
        words[draw(st.integers(0, len(words) - 1))] = draw(odd_words)
    elif kind == "insert":
        words.insert(draw(st.integers(0, len(words))), draw(odd_words))
    elif kind == "case":
        return text.swapcase()
    elif kind == "prefix":
        words = [w[:draw(st.integers(1, max(1, len(w))))] for w in words]
    elif kind == "line":
        return f"{text} | {draw(st.sampled_from([text, '', 'cup', HUGE]))}"
    elif kind == "odd":
        return draw(odd_words)
    return " ".join(words)


def budget(game: str) -> settings:
    slow = game in ("meeple-land", "meeple-party")  # hundreds of spellings to suggest from
    return settings(max_examples=15 if slow else 50, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def steps_of(found: Hashable) -> tuple[Hashable, ...]:
    return found.steps if isinstance(found, Line) else (found,)


@pytest.mark.parametrize("game", GAMES)
def test_a_typed_move_is_a_legal_step_or_one_line(game: str) -> None:
    @budget(game)
    @given(st.data())
    def typed(data: st.DataObject) -> None:
        position = data.draw(positions(game))
        text = data.draw(typed_moves(position))
        try:
            found = position.parse(text)
        except NotationError as error:
            one_line(str(error))
            return
        here = position
        for step in steps_of(found):  # each step legal where it stands, and spelled again
            assert step in here.legal_steps(), (text, step)
            assert here.parse(here.format(step)) == step
            here = here.apply(step)
        assert position.apply(found).to_document() == here.to_document()

    typed()


@pytest.mark.parametrize("game", GAMES)
def test_apply_answers_a_position_or_one_line_of_bad_input(game: str) -> None:
    @budget(game)
    @given(st.data(), st.booleans(), st.integers(0, 99))
    def applied(data: st.DataObject, draw_chance: bool, seed: int) -> None:
        position = data.draw(positions(game))
        texts = data.draw(st.lists(typed_moves(position), min_size=1, max_size=2))
        doc = document(position.to_document(), "pos.toml")
        try:
            done = playalong.apply(doc, texts, seed, draw_chance)
        except (InputError, BadRequest) as error:
            one_line(str(error))
            return
        assert len(done.new) >= len(texts)
        again = playalong.playable(document(done.position.to_document(), "next.toml"))
        assert again.to_document() == done.position.to_document()
        replayed, _ = playalong.advance(position, [s.move for s in done.new])
        assert replayed.to_document() == done.position.to_document()

    applied()

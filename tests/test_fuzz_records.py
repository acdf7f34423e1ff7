"""Fuzzed game records (issue 27, item 2): a record mutated in any way (a step's move
mistyped, a field of the wrong type, deleted or unknown, an odd start, steps emptied or
repeated, an odd comment, the text cut) either loads, and then replays to a record that
writes back the same, or is one line of bad input naming the file, never another exception.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fuzz_moves import HUGE, odd_words, one_line, typed_moves
from test_roundtrip_moves import GAMES, shipped_starts
from test_roundtrip_records import a_record

from partysolver.app import playalong
from partysolver.app.base import BadRequest, parse
from partysolver.models.documents import format_document
from partysolver.models.errors import InputError

ODD_VALUES = [None, 1, -1, 2**64, 1.5, True, "", "x", [], {}, [1, "a"], {"move": 1}, HUGE,
              "tea-party:default"]
odd_values = st.sampled_from(ODD_VALUES) | odd_words


@st.composite
def records(draw: st.DrawFn, game: str) -> dict[str, Any]:
    return a_record(game, draw(st.integers(0, 30)), draw(st.integers(0, 10**6)),
                    draw(st.integers(0, 6)), [])


@st.composite
def mutated(draw: st.DrawFn, game: str) -> tuple[str, str]:
    """(text, file name) of a mutated record."""
    record = copy.deepcopy(draw(records(game)))
    steps = record["steps"]
    kind = draw(st.sampled_from(["move", "move", "field", "delete", "unknown", "start",
                                 "steps", "comment", "cut", "none"]))
    if kind == "move" and steps:
        at = draw(st.integers(0, len(steps) - 1))
        start = shipped_starts(game)[0]
        from test_fuzz_moves import position_at

        steps[at]["move"] = draw(typed_moves(position_at(start, 0, 0))) \
            if draw(st.booleans()) else draw(odd_words)
    elif kind == "field":
        key = draw(st.sampled_from(["game", "kind", "start", "steps"]))
        record[key] = draw(odd_values)
    elif kind == "delete":
        del record[draw(st.sampled_from(["game", "kind", "start", "steps"]))]
    elif kind == "unknown":
        target = draw(st.sampled_from(steps)) if steps and draw(st.booleans()) else record
        target[draw(st.sampled_from(["zzz", "", "Move", "number"]))] = draw(odd_values)
    elif kind == "start":
        record["start"] = draw(st.sampled_from([f"{game}:nope", f"{game}:", "../x", "",
                                                "tea-party:default", "pool-party-stars:default",
                                                f"{game}:examples/../../x", "x" * 3000]))
    elif kind == "steps":
        record["steps"] = draw(st.sampled_from([[], steps * 3, [{}], [{"move": None}],
                                                [{"move": "cup"}] * 50, "cup"]))
    elif kind == "comment" and steps:
        steps[0]["comment"] = draw(odd_values)
    as_json = draw(st.booleans())
    try:
        text = format_document(record, as_json)
    except (TypeError, ValueError):
        text, as_json = format_document(record, True), True
    if kind == "cut":
        text = text[:draw(st.integers(0, len(text)))]
    return text, "game.record.json" if as_json else "game.record.toml"


@pytest.mark.parametrize("game", GAMES)
def test_a_mutated_record_loads_and_replays_or_is_one_line(game: str) -> None:
    @settings(max_examples=12 if game == "meeple-land" else 40, deadline=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(mutated(game))
    def loaded(mutant: tuple[str, str]) -> None:
        text, source = mutant
        try:
            record = playalong.load_record(parse(text, source))
        except (InputError, BadRequest) as error:
            one_line(str(error))
            assert source in str(error), str(error)
            return
        as_json = source.endswith(".json")
        written = format_document(record.to_document(), as_json)
        again = playalong.load_record(parse(written, source))  # written as it loaded: fixed
        assert format_document(again.to_document(), as_json) == written
        assert [s.move for s in again.steps] == [s.move for s in record.steps]
        playalong.position_after(parse(written, source), None)  # its last position too

    loaded()


@pytest.mark.parametrize("game", GAMES)
def test_a_record_starting_from_another_games_position_is_one_line(game: str) -> None:
    """(Found by the fuzz benchmark: ``review`` of such a record crashed.)"""
    other = next(g for g in GAMES if g != game and g != "pig")
    text = f'game = "{game}"\nkind = "record"\nstart = "{other}:default"\nsteps = []\n'
    with pytest.raises((InputError, BadRequest)) as refused:
        playalong.load_record(parse(text, "game.record.toml"))
    one_line(str(refused.value))
    assert "game.record.toml" in str(refused.value) and "start" in str(refused.value)


def test_a_huge_step_number_in_a_record_is_one_line() -> None:
    """``apply --upto`` past the record, and a record of one illegal step: one line each."""
    record = a_record("tea-party", 0, 1, 2, [])
    doc = parse(format_document(record), "game.record.toml")
    for upto in (-1, 3, 10**30):
        with pytest.raises(InputError) as caught:
            playalong.apply(doc, [], upto=upto)
        one_line(str(caught.value))
    record["steps"].append({"move": "fly to the moon"})
    with pytest.raises((InputError, BadRequest)) as refused:
        playalong.load_record(parse(format_document(record), "game.record.toml"))
    one_line(str(refused.value))
    assert "game.record.toml" in str(refused.value) and "step 3" in str(refused.value)
    random.Random(0)  # (the record above is seeded: the same three steps every run)

"""Position files: parsing, field paths in errors, and fuzzing the loaders."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from partysolver.models.documents import Fields, format_document, parse_document
from partysolver.models.errors import InputError, Problem, require_no_problems
from partysolver.models.registry import all_games
from partysolver.models.tea_party import load_position

JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 20) | st.floats(allow_nan=False)
    | st.sampled_from(["fighter", "Blue", "Green", "tea-party", "ranger", "x", ""]),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.sampled_from(["game", "players", "current", "drawn", "bag", "cups",
                                       "stomachs", "out", "fighter", "ranger", "Blue", "Green",
                                       "throw_up", "drinking", "king", "zzz"]),
                      children, max_size=5),
    max_leaves=20)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.sampled_from(["game", "players", "current", "drawn", "bag", "cups",
                                        "stomachs", "out", "throw_up", "drinking", "other"]),
                       JSONISH, max_size=8))
def test_any_document_loads_or_fails_cleanly(document: dict) -> None:
    document.setdefault("game", "tea-party")
    try:
        position = load_position(document, "fuzz.toml")
    except InputError as error:
        assert str(error).startswith("fuzz.toml")
        return
    position.problems()  # a well-formed position can always be checked


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=200))
def test_any_text_parses_or_fails_cleanly(text: str) -> None:
    for source in ("fuzz.toml", "fuzz.json"):
        try:
            assert isinstance(parse_document(text, source), dict)
        except InputError as error:
            assert str(error).startswith(source)


def test_fields_name_the_path_and_suggest_close_names() -> None:
    root = Fields({"bag": {"fightr": 2}}, "p.toml")
    bag = root.table("bag")
    bag.integer("fighter", 0)
    with pytest.raises(InputError) as caught:
        bag.done()
    assert str(caught.value).startswith("p.toml: bag.fightr: expected a known field "
                                        "(did you mean 'fighter'?)")
    with pytest.raises(InputError, match=r"p.toml: bag.n: expected an integer from 0 to 3, "
                                         r"got 9"):
        Fields({"bag": {"n": 9}}, "p.toml").table("bag").integer("n", minimum=0, maximum=3)
    with pytest.raises(InputError, match="p.toml: x: expected this field"):
        Fields({}, "p.toml").text("x")


def test_documents_format_as_toml_and_json_and_parse_back() -> None:
    document = {"game": "tea-party", "players": ["A", "B"], "bag": {"fighter": 2},
                "drawn": None}
    for as_json in (False, True):
        text = format_document(document, as_json)
        assert parse_document(text, "x.json" if as_json else "x.toml") == \
            ({k: v for k, v in document.items() if v is not None} if not as_json else document)


def test_problems_become_one_input_error_listing_them_all() -> None:
    problems = [Problem("a", "first", "x"), Problem("b", "second")]
    with pytest.raises(InputError, match="2 problem.*x: first; second"):
        require_no_problems(problems, "p.toml")
    require_no_problems([], "p.toml")


def test_the_registry_finds_the_games() -> None:
    assert "tea-party" in all_games()


def test_a_json_key_given_twice_is_bad_input() -> None:
    with pytest.raises(InputError) as caught:
        parse_document('{"game": "tea-party", "bag": {"fighter": 1, "fighter": 2}}', "p.json")
    assert "p.json: fighter: expected each key once" in str(caught.value)

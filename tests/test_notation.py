"""The shared notation matcher: exact spellings, word prefixes, ambiguity and suggestions."""

from __future__ import annotations

import pytest

from partysolver.models.notation import NotationError, Spelling, match, normalise

SPELLINGS = [
    Spelling("cup", "cup"),
    Spelling("squish as rogue on Green take rogue", "rogue-rogue"),
    Spelling("squish as rogue on Green take queen", "rogue-queen"),
    Spelling("squish as wizard on Green", "wizard-green"),
    Spelling("squish as wizard on 2", "wizard-green", canonical=False),
    Spelling("squish as wizard on Blue", "wizard-blue"),
]


def test_normalise_ignores_case_spaces_and_a_full_stop() -> None:
    assert normalise("  Squish   AS\tRogue. ") == "squish as rogue"


def test_exact_then_word_prefixes_then_fewer_words() -> None:
    assert match("CUP", SPELLINGS) == "cup"
    assert match("sq as rog on gr take qu", SPELLINGS) == "rogue-queen"
    assert match("squish as wizard on 2", SPELLINGS) == "wizard-green"
    assert match("squish as wizard on b", SPELLINGS) == "wizard-blue"


def test_an_exact_spelling_wins_over_a_longer_one_it_starts() -> None:
    spellings = [Spelling("draw", 1), Spelling("draw again", 2)]
    assert match("draw", spellings) == 1
    assert match("draw a", spellings) == 2


def test_ambiguous_text_lists_the_steps_it_fits_in_one_line() -> None:
    with pytest.raises(NotationError) as caught:
        match("squish as rogue", SPELLINGS)
    message = str(caught.value)
    assert "ambiguous move (2 legal moves fit)" in message and "\n" not in message
    assert "take rogue" in message and "take queen" in message


def test_unknown_text_suggests_the_closest_canonical_spellings() -> None:
    with pytest.raises(NotationError) as caught:
        match("squish as bard", SPELLINGS)
    error = caught.value
    assert error.problem == "not a legal move here" and len(error.closest) == 3
    assert "on 2" not in str(error)  # only canonical spellings are suggested


def test_no_legal_step_and_empty_text_are_errors() -> None:
    with pytest.raises(NotationError, match="no move is legal"):
        match("cup", [])
    with pytest.raises(NotationError, match="expected a move"):
        match("   ", SPELLINGS)


def test_a_huge_text_is_refused_at_once_and_quoted_short() -> None:
    """Fuzz case 7171 of seed 7: a 200,000-character line typed in `play` took 69 s (the
    closest spellings were ranked against all of it) and its message quoted all of it.  Now
    a text longer than any spelling could be is refused before any matching, the suggestions
    come from its start, and the message quotes 80 characters and the length."""
    text = "squish" + "x" * 200_000
    with pytest.raises(NotationError) as raised:
        match(text, SPELLINGS)
    message = str(raised.value)
    assert message.startswith("longer than any legal move: 'squishxxx")
    assert "(200,006 characters)" in message and len(message) < 400
    assert raised.value.closest and raised.value.closest[0].startswith("squish")
    # a text a little longer than a spelling is still matched and suggested as before
    with pytest.raises(NotationError, match="not a legal move here"):
        match("squish as rogue on Green take the rogue and the queen", SPELLINGS)

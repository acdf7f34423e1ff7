"""Issue 30: the hint before a surprise card, and the white meeples' options, answered with less
work and the same ranking.

Before a draw the hint gives the best turn for each card that can come; where a card makes the
active player choose first (remove, lay down), that best turn is now :func:`best_turn`'s (the
search's own expectimax) instead of the first of a ranking of every option.  A white meeple's
option at the root is now also compared with the bound of the next option waiting, and its
cards are valued loosest ceiling first.  Each is checked against the reference: the plain
ranking (every option valued exactly, then sorted), interpreted, on shipped positions cut to a
few surprise cards so that the reference is quick."""

from __future__ import annotations

import json
import tomllib
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_meeple_party_bounds import plain_ranking, shipped

from partysolver import puzzles
from partysolver.cli.main import cli
from partysolver.models.documents import format_document
from partysolver.models.meeple_party.state import EFFECT, MINGLE, PLACE, MeeplePartyState
from partysolver.models.protocol import CHANCE
from partysolver.solvers import compiled as kernels
from partysolver.solvers.meeple_party.evaluate import figures, rank_key
from partysolver.solvers.meeple_party.turn import best_turn, describe_plan, turn_hint

DECK = ("fire-fighter", "the-landlord", "spa-day", "rides-home", "the-cops", "drama-llama",
        "karaoke")
"""A few surprise cards of 23-hard-white-20's deck: stress alone, relief, a move, removals (a
choice first), one whose ceiling is loose (the Fire Fighter's removal could bring a photo)."""

PATHS = ["interpreted"] + (["kernel"] if kernels.ready(kernels.MEEPLE_PARTY_TURN) else [])
"""The kernel's path where it is compiled already (the kernel's own tests compile it)."""


def with_deck(state: MeeplePartyState, cards: tuple[str, ...]) -> MeeplePartyState:
    ids = state.setup.cards.surprise_ids
    return replace(state, surprise_deck=tuple(ids[c] for c in cards))


def after_card(card: str, deck: tuple[str, ...] = DECK) -> MeeplePartyState:
    """23-hard-white-20 (a white meeple drawn, two more at the party) once the surprise
    ``card`` came, the deck cut to ``deck`` less that card."""
    state = with_deck(shipped("23-hard-white-20"), deck)
    ident = state.setup.cards.surprise_ids[card]
    for outcome, _ in state.chance_outcomes():
        if getattr(outcome, "card", None) == ident:
            return state.apply(outcome)
    raise AssertionError(card)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("card", ["rides-home", pytest.param("the-cops", marks=pytest.mark.slow)])
def test_the_best_turn_after_a_surprise_choice_is_the_first_of_the_plain_ranking(
        card: str, path: str) -> None:
    root = after_card(card)
    assert root.phase == EFFECT and root.current_player() != CHANCE
    plain = plain_ranking(root)
    assert any(not o.certain and o.code is not None for o in plain)  # a white meeple's
    best = best_turn(root, compiled=path == "kernel")
    assert (best.search.kernel is not None) == (path == "kernel")
    assert best.value is not None
    assert best.plan == plain[0].plan
    assert rank_key(best.value) == rank_key(plain[0].value)


@pytest.mark.parametrize("path", PATHS)
def test_the_ranking_after_a_surprise_choice_is_the_plain_ranking(path: str) -> None:
    """The root's white meeples' options are compared with the next bound waiting as well as
    the best option valued: the top options and their order are still the plain ranking's."""
    root = after_card("rides-home")
    plain = plain_ranking(root)
    hint = turn_hint(root, top=6, compiled=path == "kernel")
    assert len(hint.options) == len(plain)
    assert [(o.plan, rank_key(o.value)) for o in hint.options[:6]] == \
        [(o.plan, rank_key(o.value)) for o in plain[:6]]


@pytest.mark.parametrize("path", PATHS)
def test_white_meeples_at_the_welcome_rank_as_in_the_plain_ranking(path: str) -> None:
    """A drawn guest's welcome with white meeples at the party (03-spa-cool-25, its deck cut
    to the cards above): every option, read to the end, in the plain ranking's order."""
    state = with_deck(shipped("03-spa-cool-25"), DECK)
    root = next(child for _, child in state.children() if child.phase == MINGLE)
    plain = plain_ranking(root)
    assert sum(1 for o in plain if not o.certain and o.code is not None) >= 2
    everything = list(turn_hint(root, top=2, compiled=path == "kernel").options)
    assert [(o.plan, rank_key(o.value)) for o in everything] == \
        [(o.plan, rank_key(o.value)) for o in plain]


def test_the_hint_before_a_surprise_card_gives_each_cards_best_turn(tmp_path: Path) -> None:
    """``hint`` before the surprise card: for every card, the best turn and its figures are
    the first option of the plain ranking after that card (the choice of the Rides Home and
    the Cops, a white meeple's mingle among the options)."""
    source = puzzles.files("meeple-party", "positions")["23-hard-white-20"]
    data = tomllib.loads(Path(source).read_text())
    data["decks"]["surprises"] = list(DECK)
    path = tmp_path / "cut.toml"
    path.write_text(format_document(data, "toml"))
    result = CliRunner().invoke(cli, ["hint", str(path), "--json"])
    assert result.exit_code == 0, result.output
    draws = json.loads(result.output)["draws"]
    state = with_deck(shipped("23-hard-white-20"), DECK)
    outcomes = state.chance_outcomes()
    assert len(draws) == len(outcomes) == len(DECK)
    by_card = {draw["outcome"]: draw for draw in draws}
    chose = 0
    for outcome, _ in outcomes:
        draw = by_card[state.describe_action(outcome).replace("_", " ")]
        child = state.apply(outcome)
        assert child.phase in (EFFECT, MINGLE, PLACE)
        chose += child.phase == EFFECT
        reference = plain_ranking(child)[0]
        assert draw["best"] == describe_plan(child, reference.plan)
        assert draw["value"] == figures(reference.value)
    assert chose == 2


@pytest.mark.parametrize("name", ["03-spa-cool-25", "19-easy-flirt-21", "23-hard-white-20"])
def test_a_removals_ceiling_counts_only_meeples_whose_removal_can_help(name: str) -> None:
    """A surprise card that removes meeples can bring an own photo within reach only by taking
    away meeples its clauses want absent (or any, for EXACTLY): its ceiling on the board says
    so, every card of the deck still keeps to its ceiling after every white meeple's mingle
    looked at, and the removals' reach is tighter than counting every removed meeple.
    (23-hard-white-20: the mingles after a few of the Rides Home's choices, the whole deck.)"""
    from test_meeple_party_bounds import below_ceiling, mingle_roots, white_mingles

    from partysolver.models.meeple_party.state import deck_outcomes
    from partysolver.solvers.meeple_party.turn import TurnSearch

    state = shipped(name)
    if name == "23-hard-white-20":
        chosen = after_card("rides-home", tuple(state.setup.cards.surprise_ids))
        roots = [child for _, child in chosen.children()][::40][:2]
    else:
        roots = mingle_roots(state, 2)
    assert roots and all(root.phase == MINGLE for root in roots)
    removals = tighter = checked = 0
    cards = state.setup.cards.surprises
    for mingle in roots:
        search = TurnSearch(mingle, compiled=False)
        for dst, after in white_mingles(mingle):
            relieved = search.evaluator.relief_of(after)
            for outcome, _ in deck_outcomes("surprise", mingle.surprise_deck,
                                            mingle.setup.ordered):
                card = outcome.card  # type: ignore[attr-defined]
                value = search._effects(mingle, card, 0, after, mingle.stress, mingle.bag, 0,
                                        dst)
                ceiling, traded = search._card_ceiling(mingle, card, relieved, after)
                assert below_ceiling(value, ceiling, traded), (cards[card].name, value, ceiling)
                checked += 1
                if any(e.do == "remove" for e in cards[card].effects):
                    removals += 1
                    assert search._photo_types is not None
                    for _, read, drop in search._photo_types:
                        plain = search._reach(mingle, card, after, read)
                        refined = search._reach(mingle, card, after, read, drop)
                        assert plain is not None and refined is not None
                        assert refined <= plain
                        tighter += refined < plain
    assert checked > 50 and removals > 5
    assert tighter > 0


def test_the_best_turn_out_of_budget_claims_nothing() -> None:
    """Out of its node budget, ``best_turn`` gives no value and no plan (the hint then shows
    the card as not searched, and no expectation over the draws)."""
    from partysolver.solvers.budget import Budget

    root = after_card("rides-home")
    best = best_turn(root, Budget(nodes=50))
    assert best.value is None and best.plan == ()
    assert best_turn(root).value is not None

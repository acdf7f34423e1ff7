"""Market hints: consistent with their own estimate, exact seating inside, sensible reasons."""

from __future__ import annotations

from dataclasses import replace

from partysolver.models.documents import parse_document
from partysolver.models.meeple_land import GAME
from partysolver.models.meeple_land.game import Buy, Pass, add_counts
from partysolver.models.meeple_land.park import legal_placements
from partysolver.models.meeple_land.state import MeepleLandState, ParkState
from partysolver.puzzles import examples
from partysolver.solvers.meeple_land.hint import (
    _after,
    best_placement,
    estimate,
    expected_pick,
    rank_moves,
)


def default() -> MeepleLandState:
    text = examples("meeple-land")["default"].read_text(encoding="utf-8")
    state = GAME.state_from_document(parse_document(text, "default.toml"), "default.toml")
    assert isinstance(state, MeepleLandState)
    return state


def test_each_tile_gets_its_best_placement() -> None:
    state = default()
    ranked = rank_moves(state)
    for move in ranked:
        if isinstance(move.move, Buy):
            tile = move.move.placement.tile
            best = best_placement(state, tile)
            assert best is not None
            assert abs(best[1].total - move.value) < 0.01
    park = state.parks[state.current]
    affordable = {t for t in state.market.tiles()
                  if state.catalogue.tile(t).cost <= park.money
                  and legal_placements(park.layout(state.catalogue), state.catalogue.tile(t))}
    assert {m.move.placement.tile for m in ranked if isinstance(m.move, Buy)} == affordable
    assert {m.move.bus for m in ranked if isinstance(m.move, Pass)} == \
        {b for b, _ in state.parking}


def test_passing_seats_the_bus_exactly() -> None:
    state = default()
    for bus, on_board in state.parking:
        park, incoming, can_act = _after(state, Pass(bus))
        value = estimate(state, park, incoming, can_act)
        layout = park.layout(state.catalogue)
        exact = layout.score(add_counts(park.visitors, on_board))
        assert value.terms["now"] == exact.total
        assert not can_act


def test_other_actions_expect_a_later_bus() -> None:
    state = default()
    park = state.parks[state.current]
    buses = [counts for _, counts in state.parking]
    assert expected_pick(state, park) in buses


def test_in_the_last_round_money_is_only_worth_what_it_buys() -> None:
    state = default()
    last = replace(state, round=4)
    ranked = rank_moves(last)
    passes = [m for m in ranked if isinstance(m.move, Pass)]
    assert all(m.estimate.terms["money"] == 0 for m in passes)
    best_buy = max(m.value for m in ranked if isinstance(m.move, Buy))
    assert best_buy > max(m.value for m in passes)
    assert "worth nothing" in passes[0].reason


def test_a_service_hint_names_the_link() -> None:
    state = default()
    ranked = {str(m.move): m for m in rank_moves(state)}
    toilets = ranked["buy S13@5,1"]
    assert "links toilets to drop-tower M17" in toilets.reason


def test_nothing_to_rank_at_chance_or_after_the_end() -> None:
    state = default()
    assert rank_moves(replace(state, pending=("bus",))) == []
    assert rank_moves(replace(state, finished=True)) == []
    empty = replace(state, parks=tuple(ParkState() for _ in state.parks))
    assert rank_moves(empty)


def test_the_hint_policy_plays_the_hint_and_greedy_the_reputation_now() -> None:
    """simulate's `hint` plays the hint's first option; `greedy` an action with the highest
    reputation right after it (no look-ahead), which the hint's estimate may rank lower."""
    import random

    from partysolver.solvers.meeple_land.hint import GreedyPolicy, HintPolicy

    state = default()
    rng = random.Random(0)
    assert HintPolicy()(state, rng) == rank_moves(state)[0].move
    now = {move: estimate(state, *_after(state, move)).score_now
           for move in state.legal_actions()}
    chosen = GreedyPolicy()(state, rng)
    assert now[chosen] == max(now.values())
    assert GreedyPolicy.name == "greedy" and HintPolicy.name == "hint"

"""The hint: hand-worked positions, the closed form against enumeration over individual cards,
and the expectimax against a Monte Carlo estimate on the rules engine."""

from __future__ import annotations

import random
from math import comb
from pathlib import Path
from typing import Any

import pytest

from partysolver.models.documents import Fields, parse_document
from partysolver.models.party_time import GAME, HOUSE_RULES, load_position
from partysolver.models.party_time.game import Card, Play
from partysolver.models.party_time.position import load_rules
from partysolver.models.party_time.state import PartyTimeState, PartyTimeView
from partysolver.models.protocol import CHANCE, sample_chance
from partysolver.solvers.budget import Budget
from partysolver.solvers.party_time.belief import BeliefSearch, rank_root
from partysolver.solvers.party_time.brute import EnumerationSearch
from partysolver.solvers.party_time.hint import HintPolicy, RankedPlay, hint
from partysolver.solvers.party_time.montecarlo import compare_long_run, estimate, play_to_end
from partysolver.solvers.party_time.policies import GreedyPolicy, number_choice

EXAMPLES = Path(__file__).parents[2] / "partysolver" / "puzzles" / "party-time" / "examples"
NUMBERS_AND_BLACK = {"1": 10, "2": 10, "3": 10, "black": 4}


def view_of(**fields: Any) -> PartyTimeView:
    document: dict[str, Any] = {"game": "party-time", "players": ["Ann", "Ben"], "turn": "Ann"}
    document |= fields
    return load_position(document, "test.toml").to_view("test.toml")


def by_play(found: list[RankedPlay] | tuple[RankedPlay, ...]) -> dict[str, RankedPlay]:
    return {str(move.play): move for move in found}


def test_rulebook_token_example() -> None:
    """On the star with 2, 2, 3 and two tokens: the 2 returning both tokens saves the strip.

    With a deck of numbers and black squares only, Ben (no tokens, the bottle on the star)
    plays a black square if he holds one (greedy), which costs me a strip; else he crosses.
    """
    view = view_of(bottle=0, hands={"Ann": ["2", "2", "3"]}, played={"1": 2},
                   tokens={"Ann": 2}, rules={"deck": NUMBERS_AND_BLACK})
    moves = by_play(hint(view).moves)
    best = hint(view).moves[0]
    assert str(best.play) == "2-2"
    unseen = 34 - 3 - 2
    holds_black = 1 - comb(unseen - 4, 3) / comb(unseen, 3)
    assert best.loss == pytest.approx(holds_black)
    assert best.lose_chance == pytest.approx(holds_black)
    assert best.others == pytest.approx(1 - holds_black)  # otherwise Ben crosses
    assert "moves 0: the bottle stays" in best.reason
    for other in ("2", "2-1", "3", "3-1", "3-2"):
        assert moves[other].lose_chance == pytest.approx(1.0)
        assert moves[other].loss >= 1.0
        assert "crosses the star" in moves[other].reason


def test_landing_on_the_star_is_safe_crossing_it_is_not() -> None:
    """Four squares before the star: the 4 stops on it, the 5 crosses it, the 1 is short."""
    view = view_of(bottle=20, hands={"Ann": ["1", "4", "5"]}, played={"2": 1},
                   rules={"deck": {"1": 8, "2": 8, "3": 8, "4": 8, "5": 8}})
    found = hint(view).moves
    moves = by_play(found)
    assert moves["5"].loss == pytest.approx(1.0) and moves["5"].lose_chance == 1.0
    assert moves["4"].loss == 0.0 and moves["4"].lose_chance == 0.0
    assert moves["4"].others == pytest.approx(1.0)  # Ben must leave the star: he crosses
    assert "stops exactly on the star" in moves["4"].reason
    # The 1 leaves Ben 3 squares: he crosses only without a 1, 2 or 3 among his 3 cards.
    unseen = 40 - 3 - 1
    short = 7 + 7 + 8  # the 1s, 2s and 3s neither in my hand nor played
    assert moves["1"].loss == 0.0
    assert moves["1"].others == pytest.approx(comb(unseen - short, 3) / comb(unseen, 3))
    assert str(found[0].play) == "4"  # equal safety: the 4 hurts Ben most


def test_r_card_sends_the_bottle_back_to_the_player_on_the_right() -> None:
    """On the star with R, 1, 1: the R is the only play that keeps my strip (no black squares,
    no question marks in this deck); Cat, on my right, must leave the star."""
    view = view_of(players=["Ann", "Ben", "Cat"], bottle=0, hands={"Ann": ["R", "1", "1"]},
                   rules={"deck": {"1": 10, "2": 10, "3": 10, "R": 3}}, played={"3": 1})
    found = hint(view).moves
    assert str(found[0].play) == "R"
    assert found[0].loss == 0.0 and found[0].lose_chance == 0.0
    assert "Cat, on your right" in found[0].reason
    assert by_play(found)["1"].lose_chance == 1.0


def test_black_square_costs_the_next_player_a_strip() -> None:
    view = view_of(players=["Ann", "Ben", "Cat"], bottle=5, hands={"Ann": ["black", "1", "1"]},
                   rules={"deck": {"1": 10, "2": 10, "black": 3}})
    moves = by_play(hint(view).moves)
    black = moves["black"]
    assert black.losses[1] >= 1.0  # Ben removes a strip, and may lose more later
    assert "makes Ben remove a strip" in black.reason
    assert moves["1"].losses[1] < 1.0


def test_question_mark_chain_back_to_me() -> None:
    """Two players, on the star, ?, 1, 1, a deck of numbers and question marks.  Ben turns over
    the top card: a number crosses the star (Ben loses); a question mark passes the duty back
    to me, and my number card crosses (I lose) unless I turn over another question mark."""
    view = view_of(bottle=0, hands={"Ann": ["?", "1", "1"]}, played={"2": 1},
                   rules={"deck": {"1": 10, "2": 10, "?": 4}})
    moves = by_play(hint(view).moves)
    unseen = 24 - 3 - 1
    q = 3
    mine = q / unseen * (unseen - q) / (unseen - 1)
    assert moves["?"].loss == pytest.approx(mine)
    assert moves["?"].lose_chance == pytest.approx(mine)
    assert moves["?"].losses[1] == pytest.approx((unseen - q) / unseen)
    assert moves["1"].lose_chance == 1.0
    assert str(hint(view).moves[0].play) == "?"


def random_views(players: int, count: int, seed: int, deck: dict[str, int] | None = None
                 ) -> list[PartyTimeView]:
    """Views of the player to act in positions reached by greedy play."""
    rng = random.Random(seed)
    greedy = GreedyPolicy()
    views: list[PartyTimeView] = []
    while len(views) < count:
        state = GAME.initial_state(players, rng)
        if deck is not None:
            state = _new_game(players, deck, rng)
        for _ in range(rng.randrange(3, 40)):
            if state.is_terminal():
                break
            player = state.current_player()
            state = state.apply(sample_chance(state, rng) if player == CHANCE
                                else greedy(state, rng))
        while not state.is_terminal() and state.current_player() == CHANCE:
            state = state.apply(sample_chance(state, rng))
        if not state.is_terminal():
            views.append(state.view(state.turn))
    return views


def _new_game(players: int, deck: dict[str, int], rng: random.Random) -> PartyTimeState:
    rules = load_rules(Fields({"deck": deck}, "test"), HOUSE_RULES)
    return GAME.initial_state(players, rng, rules)


SMALL_DECK = {"1": 3, "2": 2, "3": 2, "4": 1, "5": 1, "R": 1, "black": 1, "star": 1, "?": 1}


@pytest.mark.parametrize("seed", range(4))
def test_closed_form_equals_enumeration_over_individual_cards(seed: int) -> None:
    for view in random_views(2, 2, seed, SMALL_DECK):
        fast = BeliefSearch(view.rules, 2, view.player, 1)
        slow = EnumerationSearch(view.rules, 2, view.player, 1)
        node_fast, node_slow = fast.root(view), slow.root(view)
        assert node_fast is not None and node_slow is not None
        for (play, value, _), (play2, value2, _) in zip(rank_root(fast, node_fast),
                                                        rank_root(slow, node_slow), strict=True):
            assert play == play2
            assert value[0] == pytest.approx(value2[0], abs=1e-12)
            assert value[1] == pytest.approx(value2[1], abs=1e-12)
            assert value[2] == pytest.approx(value2[2], abs=1e-12)


def test_closed_form_equals_enumeration_at_depth_two() -> None:
    view = random_views(2, 1, 11, {"1": 3, "2": 2, "3": 1, "black": 1, "star": 1, "?": 1})[0]
    fast = rank_root(BeliefSearch(view.rules, 2, view.player, 2),
                     BeliefSearch(view.rules, 2, view.player, 2).root(view))  # type: ignore[arg-type]
    slow_search = EnumerationSearch(view.rules, 2, view.player, 2)
    slow = rank_root(slow_search, slow_search.root(view))  # type: ignore[arg-type]
    for (_, value, _), (_, value2, _) in zip(fast, slow, strict=True):
        assert value[0] == pytest.approx(value2[0], abs=1e-12)


@pytest.mark.parametrize(("players", "depth"), [(3, 1), (4, 1), (2, 2)])
def test_forgetting_irrelevant_detail_changes_no_value(players: int, depth: int) -> None:
    for view in random_views(players, 3, 7):
        kept = BeliefSearch(view.rules, players, view.player, depth, forget=False)
        forgot = BeliefSearch(view.rules, players, view.player, depth)
        for (_, a, _), (_, b, _) in zip(rank_root(kept, kept.root(view)),  # type: ignore[arg-type]
                                        rank_root(forgot, forgot.root(view)),  # type: ignore[arg-type]
                                        strict=True):
            assert a[0] == pytest.approx(b[0], abs=1e-12)
            assert a[1] == pytest.approx(b[1], abs=1e-12)


def test_expectimax_within_monte_carlo_interval() -> None:
    """Every play's expected loss (every seat) and my chance of losing a strip, in 4-player
    house positions, agree with 1,500 playouts on the rules engine.  About ten plays are
    compared, so the check allows 4 standard errors (a 95% interval is 1.96), the standard
    error bounded from the larger of the two means (a playout loses at most 2 strips a seat,
    so the variance is at most twice the mean) so that rare losses are covered too."""
    rng = random.Random(5)
    samples = 1500

    def carry_out(state: PartyTimeState) -> Play:
        returned, _ = number_choice(state.rules, state.bottle, state.tokens[state.turn],
                                    state.revealed)
        return Play(Card(state.revealed), returned)

    def tolerance(a: float, b: float) -> float:
        return 4 * (2 * max(a, b, 1 / samples) / samples) ** 0.5

    compared = 0
    carrying_out = load_position(parse_document(EXAMPLES.joinpath("question-mark.toml")
                                                .read_text(encoding="utf-8"), "q.toml"),
                                 "q.toml").to_view("q.toml")
    for view in [*random_views(4, 2, 3), carrying_out]:
        for move in hint(view).moves:
            mc = estimate(view, move.play, samples, rng, carry_out)
            for seat in range(view.num_players):
                assert abs(move.losses[seat] - mc.losses[seat]) <= \
                    tolerance(move.losses[seat], mc.losses[seat]), (str(move.play), seat)
            assert abs(move.lose_chance - mc.lose_rate) <= \
                tolerance(move.lose_chance, mc.lose_rate), str(move.play)
            compared += 1
    assert compared >= 9


def test_budget_runs_out_honestly() -> None:
    view = random_views(4, 1, 2)[0]
    found = hint(view, depth=2, budget=Budget(nodes=50))
    assert found.status == "unknown"
    assert found.depth < 2 and found.asked == 2


def test_depth_two_is_exact_when_it_fits() -> None:
    view = view_of(bottle=20, hands={"Ann": ["1", "4", "5"]}, played={"2": 1},
                   rules={"deck": {"1": 3, "2": 3, "4": 2, "5": 2}})
    found = hint(view, depth=2)
    assert found.status == "optimal" and found.depth == 2
    assert found.moves[0].loss <= hint(view).moves[0].loss + 1.0


def test_hint_policy_plays_a_legal_move() -> None:
    rng = random.Random(1)
    state = GAME.initial_state(4, rng)
    while state.current_player() == CHANCE:
        state = state.apply(sample_chance(state, rng))
    assert HintPolicy()(state, rng) in state.legal_actions()


def test_long_run_comparison_is_paired() -> None:
    """A play against itself differs by exactly nothing: both see the same deal and stream."""
    view = view_of(bottle=10, hands={"Ann": ["1", "4", "5"]}, played={"2": 1})
    same = compare_long_run(view, Play(Card.FOUR), Play(Card.FOUR), 40, random.Random(3))
    assert same.samples == 40
    assert same.difference == 0.0
    assert same.interval.low == same.interval.high == 0.0


def test_long_run_comparison_counts_the_strip_lost_now() -> None:
    """Ann has one strip left, four squares before the star: the 5 crosses and ends the game
    with her last strip, while the 4 stops on the star and Ben must cross it (he holds only
    number cards), which ends the game without costing Ann anything."""
    view = view_of(bottle=20, hands={"Ann": ["1", "4", "5"]}, played={"2": 1},
                   strips={"Ann": 1, "Ben": 1},
                   rules={"deck": {"1": 8, "2": 8, "3": 8, "4": 8, "5": 8}})
    crossing = compare_long_run(view, Play(Card.FIVE), Play(Card.FOUR), 30, random.Random(5))
    assert crossing.difference == 1.0
    assert play_to_end(view.sample(random.Random(1)).apply(Play(Card.FOUR)), 0,
                       random.Random(2)) == 0

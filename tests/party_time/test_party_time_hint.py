"""The hint: hand-worked positions, the one-deal search against every individual deal on the
rules engine, the impossible reported as exactly 0, the figures named where the player expects
them, the expectimax against a Monte Carlo estimate on the rules engine, and the estimates."""

from __future__ import annotations

import random
import time
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
from partysolver.solvers.party_time.belief import DealSearch, rank_root
from partysolver.solvers.party_time.brute import enumerate_moves
from partysolver.solvers.party_time.hint import HintPolicy, RankedPlay, hint
from partysolver.solvers.party_time.montecarlo import compare_long_run, estimate, play_to_end
from partysolver.solvers.party_time.playouts import COMPILE_NOTICE
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
    found = hint(view)
    assert found.status == "exact" and found.deals == 0
    moves = by_play(found.moves)
    best = found.moves[0]
    assert str(best.play) == "2-2"
    unseen = 34 - 3 - 2
    holds_black = 1 - comb(unseen - 4, 3) / comb(unseen, 3)
    assert best.this_turn == 0.0
    assert best.loss == pytest.approx(holds_black)
    assert best.before_next == pytest.approx(holds_black)
    assert best.others == pytest.approx(1 - holds_black)  # otherwise Ben crosses
    assert "moves 0: the bottle stays" in best.reason
    for other in ("2", "2-1", "3", "3-1", "3-2"):
        assert moves[other].this_turn == 1.0 and moves[other].lose_chance == 1.0
        assert moves[other].loss >= 1.0
        assert "crosses the star" in moves[other].reason
        assert "another strip before your next turn" in moves[other].reason


def test_landing_on_the_star_is_safe_crossing_it_is_not() -> None:
    """Four squares before the star: the 4 stops on it, the 5 crosses it, the 1 is short."""
    view = view_of(bottle=20, hands={"Ann": ["1", "4", "5"]}, played={"2": 1},
                   rules={"deck": {"1": 8, "2": 8, "3": 8, "4": 8, "5": 8}})
    found = hint(view).moves
    moves = by_play(found)
    assert moves["5"].loss == pytest.approx(1.0) and moves["5"].this_turn == 1.0
    assert moves["4"].loss == 0.0 and moves["4"].lose_chance == 0.0
    assert "no risk of losing a strip before your next turn" in moves["4"].reason
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


def test_question_mark_chain_back_to_me_is_my_next_turn() -> None:
    """Two players, on the star, ?, 1, 1, a deck of numbers and question marks.  Ben turns over
    the top card: a number crosses the star (Ben loses); a question mark passes the duty back
    to me, and my number card crosses (I lose) unless I turn over another question mark.
    Carrying out that card is my next turn (the rulebook: the player hit carries out the card
    instead of playing from hand), so its strip is counted there, not before it."""
    view = view_of(bottle=0, hands={"Ann": ["?", "1", "1"]}, played={"2": 1},
                   rules={"deck": {"1": 10, "2": 10, "?": 4}})
    found = hint(view)
    moves = by_play(found.moves)
    unseen = 24 - 3 - 1
    q = 3
    mine = q / unseen * (unseen - q) / (unseen - 1)
    question = moves["?"]
    assert question.this_turn == 0.0 and question.before_next == 0.0 and question.loss == 0.0
    assert question.next_play == pytest.approx(mine)
    assert question.value == pytest.approx(mine)
    assert question.losses[1] == pytest.approx((unseen - q) / unseen)
    assert "no risk of losing a strip before your next turn" in question.reason
    assert f"{100 * mine:.1f}% that your next turn costs you one" in question.reason
    assert moves["1"].this_turn == 1.0 and moves["1"].lose_chance == 1.0
    assert str(found.moves[0].play) == "?"


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


def assert_same_values(fast: list[Any], slow: list[Any]) -> None:
    """The search's values equal the enumeration's exact fractions (to floating point), play by
    play, and a figure the enumeration makes exactly 0 is exactly 0."""
    assert len(fast) == len(slow)
    for (play, value, _), (play2, value2) in zip(fast, slow, strict=True):
        assert play == play2
        pairs = [*zip(value[0], value2[0], strict=True), (value[1], value2[1]),
                 (value[2], value2[2])]
        for got, want in pairs:
            assert got == pytest.approx(float(want), abs=1e-12), str(play)
            if want == 0:
                assert got == 0.0, str(play)


def small_views(players: int, count: int, seed: int, unseen: int,
                deck: dict[str, int] | None = None) -> list[PartyTimeView]:
    """Views of greedy play on a small deck with at most ``unseen`` unseen cards."""
    found = []
    for attempt in range(50):
        for view in random_views(players, count, seed * 100 + attempt, deck or SMALL_DECK):
            if sum(view.unseen()) <= unseen and len(found) < count:
                found.append(view)
        if len(found) >= count:
            break
    assert len(found) == count
    return found


@pytest.mark.parametrize(("players", "seed", "unseen"), [(2, 0, 9), (2, 1, 9), (3, 2, 7)])
def test_one_deal_search_equals_every_individual_deal(players: int, seed: int,
                                                      unseen: int) -> None:
    """Small positions (2 and 3 players, short piles): the search over deals by type counts
    gives exactly what plain enumeration gives: every way to deal the individual unseen cards,
    played on the rules engine, every individual card of the pile a branch of its own."""
    for view in small_views(players, 3, seed, unseen):
        search = DealSearch(view.rules, players, view.player, 1)
        node = search.root(view)
        assert node is not None
        assert_same_values(rank_root(search, node), enumerate_moves(view, 1))


def test_one_deal_search_equals_every_individual_deal_at_depth_two() -> None:
    """At depth 2 my next turn's choice is the best on average over the deals I cannot tell
    apart: the search's grouping agrees with the enumeration's, which groups individual deals
    by what I saw."""
    for view in small_views(2, 2, 11, 7):
        search = DealSearch(view.rules, 2, view.player, 2)
        node = search.root(view)
        assert node is not None
        assert_same_values(rank_root(search, node), enumerate_moves(view, 2))


@pytest.mark.parametrize(("players", "depth"), [(3, 1), (4, 1), (2, 2)])
def test_forgetting_irrelevant_detail_changes_no_value(players: int, depth: int) -> None:
    for view in small_views(players, 2, 7, 9 if players < 4 else 10):
        kept = DealSearch(view.rules, players, view.player, depth, forget=False)
        forgot = DealSearch(view.rules, players, view.player, depth)
        for (_, a, _), (_, b, _) in zip(rank_root(kept, kept.root(view)),  # type: ignore[arg-type]
                                        rank_root(forgot, forgot.root(view)),  # type: ignore[arg-type]
                                        strict=True):
            assert a[0] == pytest.approx(b[0], abs=1e-12)
            assert a[1] == pytest.approx(b[1], abs=1e-12)
            assert a[2] == pytest.approx(b[2], abs=1e-12)


def reshuffle_view() -> PartyTimeView:
    text = Path(__file__).with_name("reshuffle.toml").read_text(encoding="utf-8")
    return load_position(parse_document(text, "reshuffle.toml"), "reshuffle.toml") \
        .to_view("reshuffle.toml")


def test_no_chance_for_a_loss_no_deal_allows() -> None:
    """The issue's position, built by hand: four players, one card left in the pile, so it is
    rebuilt from the played cards (both black squares, both question marks, both R cards
    among them) as soon as I draw.  The other hands can only hold 1s to 5s and star cards:
    nobody can play a black square on me, or make me carry out a card, before my next turn.
    The chance is exactly 0 for every play (re-dealing the hands after the reshuffle, as the
    hint did before, gave 6-7%: ``benchmarks/party_time.py`` prints both)."""
    view = reshuffle_view()
    assert view.pile_size() == 1 and view.num_players == 4
    unseen = view.unseen()
    assert not any(unseen[card] for card in (Card.R, Card.BLACK, Card.QUESTION))
    assert all(view.played[card] == 2 for card in (Card.R, Card.BLACK, Card.QUESTION))
    found = hint(view, playouts=0)
    assert found.status == "exact"
    assert len(found.moves) == 2
    for move in found.moves:
        assert move.before_next == 0.0 and move.this_turn == 0.0 and move.exact
        assert "no risk of losing a strip before your next turn" in move.reason


def test_expectimax_within_monte_carlo_interval() -> None:
    """Every play's expected loss (every seat), my chance of losing a strip before my next turn
    and the next turn's loss, in two- and three-player house positions and a carry-out
    position, agree with 1,500 playouts on the rules engine (one deal each, played forward).
    About twenty plays are compared, so the check allows 4 standard errors (a 95% interval is
    1.96), the standard error bounded from the larger of the two means (a playout loses at
    most 2 strips a seat, so the variance is at most twice the mean) so that rare losses are
    covered too."""
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
    for view in [*random_views(2, 2, 3), *small_views(3, 2, 4, 12), carrying_out]:
        search = DealSearch(view.rules, view.num_players, view.player, 1)
        node = search.root(view)
        assert node is not None
        for play, (losses, hit, after), _ in rank_root(search, node):
            mc = estimate(view, play, samples, rng, carry_out)
            for seat in range(view.num_players):
                assert abs(losses[seat] - mc.losses[seat]) <= \
                    tolerance(losses[seat], mc.losses[seat]), (str(play), seat)
            assert abs(hit - mc.lose_rate) <= tolerance(hit, mc.lose_rate), str(play)
            assert abs(after - mc.next_play) <= tolerance(after, mc.next_play), str(play)
            compared += 1
    assert compared >= 15


def test_budget_runs_out_honestly() -> None:
    view = random_views(4, 1, 2)[0]
    found = hint(view, depth=2, budget=Budget(nodes=50))
    assert found.status == "unknown"
    assert found.depth < 2 and found.asked == 2


def test_depth_two_is_exact_when_it_fits() -> None:
    view = view_of(bottle=20, hands={"Ann": ["1", "4", "5"]}, played={"2": 1},
                   rules={"deck": {"1": 3, "2": 3, "4": 2, "5": 2}})
    found = hint(view, depth=2)
    assert found.status == "exact" and found.depth == 2
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


def test_estimates_cover_the_exact_values() -> None:
    """Where the exact search fits, forcing the estimate (``allow_exact=False``) gives
    figures whose 95% intervals, over the same positions, hold the exact values (allowing
    twice the interval's half-width: a miss beyond that is a bug, not chance); the estimate
    says so (status, deals, intervals) and the exact hint says it is exact."""
    checked = 0
    for view in small_views(3, 3, 9, 12):
        exact = hint(view, playouts=0)
        assert exact.status == "exact" and exact.deals == 0
        assert all(move.exact and move.intervals is None for move in exact.moves)
        sampled = hint(view, playouts=0, seed=4, allow_exact=False)
        assert sampled.status == "estimate" and sampled.deals == 1000
        truth = by_play(exact.moves)
        for move in sampled.moves:
            assert not move.exact and move.intervals is not None and move.deals == 1000
            want = truth[str(move.play)]
            assert move.this_turn == want.this_turn
            for got, interval, value in (
                    (move.value, move.intervals.value, want.value),
                    (move.before_next, move.intervals.before_next, want.before_next),
                    (move.next_play, move.intervals.next_play, want.next_play),
                    (move.loss, move.intervals.loss, want.loss),
                    (move.others, move.intervals.others, want.others)):
                assert interval.low <= got <= interval.high
                half = max(got - interval.low, interval.high - got)
                assert abs(got - value) <= 2 * half, (str(move.play), got, value)
                checked += 1
    assert checked >= 30


@pytest.mark.parametrize(("players", "depth"), [(2, 1), (3, 1), (4, 1), (4, 2), (2, 3)])
def test_a_tenth_of_a_second_gets_a_ranked_answer(players: int, depth: int) -> None:
    """Any budget of 0.1 s or more answers: every play ranked, with a status (exact or
    estimate at depth 1; unknown, showing depth 1, when a deeper horizon does not fit)."""
    for view in random_views(players, 2, 30 + players):
        found = hint(view, depth, Budget(time=0.1), playouts=50, deals=200)
        assert {move.play for move in found.moves} == set(view.legal_actions())
        assert found.depth >= 1
        if found.depth < depth:
            assert found.status == "unknown"
        else:
            assert found.status in ("exact", "estimate")
        assert all(move.exact == (move.intervals is None) for move in found.moves)


def test_a_short_limit_estimates_from_fewer_deals() -> None:
    """The estimate's playouts run on the clock of a limit that counts from the command's
    start: a short limit cuts the deals and playouts to what it allows (at least
    FEWEST_DEALS), a long one or none keeps them all, and the hint says how many it used."""
    from partysolver.solvers.party_time.hint import FEWEST_DEALS, deals_within

    assert deals_within(None, 6, 1000) == 1000
    assert deals_within(60.0, 6, 1000) == 1000
    assert deals_within(0.0, 6, 1000) == FEWEST_DEALS
    assert deals_within(0.0, 6, 40) == 40
    assert FEWEST_DEALS < deals_within(0.1, 2, 1000) < 1000
    view = random_views(4, 1, 7)[0]
    short = hint(view, 1, Budget(time=0.0), playouts=1000, deals=1000, allow_exact=False)
    assert short.deals == FEWEST_DEALS and short.status == "estimate"
    whole = hint(view, 1, Budget(), playouts=1000, deals=1000, allow_exact=False)
    assert whole.deals == 1000


def test_time_spent_outside_the_search_is_not_charged() -> None:
    """Compiling and running the playouts happen outside the budget: the meter's clock and
    deadline move on by the time spent there."""
    meter = Budget(time=0.01).start()
    time.sleep(0.05)
    assert meter.exhausted()
    meter.exclude(60.0)
    assert not meter.exhausted() and meter.elapsed < 0


def test_the_compile_is_announced_before_it_happens(monkeypatch: pytest.MonkeyPatch) -> None:
    """Asked for the compiled playouts (``compiled=True``: a caller that runs many hints), the
    hint tells its ``notice`` callback, once, before the playouts run when they must be
    compiled first, and says nothing when they need not be."""
    from partysolver.solvers.party_time import playouts

    view = random_views(4, 1, 8)[0]
    told: list[str] = []
    monkeypatch.setattr(playouts, "needs_compile", lambda: True)
    hint(view, playouts=20, deals=20, notice=told.append, compiled=True)
    assert told == [COMPILE_NOTICE]
    monkeypatch.setattr(playouts, "needs_compile", lambda: False)
    hint(view, playouts=20, deals=20, notice=told.append, compiled=True)
    assert told == [COMPILE_NOTICE]

"""The compiled playouts (``solvers/party_time/playouts.py``) against the rules engine."""

from __future__ import annotations

import random
from itertools import product

import numpy as np
import pytest
from party_time_positions import carry_out_states, decisions

from partysolver.models.party_time import GAME, HOUSE_RULES, Rules
from partysolver.models.party_time.game import (
    CARDS,
    DRAWS,
    MAX_TOKENS,
    NO_CARDS,
    REVEALS,
    Card,
    Play,
)
from partysolver.models.party_time.state import (
    DRAW,
    PLAY,
    PartyTimeState,
    legal_plays,
    plays_for,
    resolve,
)
from partysolver.models.protocol import CHANCE
from partysolver.solvers.party_time import playouts
from partysolver.solvers.party_time.belief import DealSearch
from partysolver.solvers.party_time.deals import Deals, sample_deals
from partysolver.solvers.party_time.montecarlo import habits_to_end
from partysolver.solvers.party_time.policies import (
    GreedyPolicy,
    HabitPolicy,
    greedy_choice,
    habit_choice,
    number_choice,
)
from partysolver.solvers.simulate import play_game

REVERSE = Rules(HOUSE_RULES.board, HOUSE_RULES.deck, "reverse")
SHORT = Rules("*+-.+", (3, 2, 2, 1, 1, 1, 1, 1, 2))


@pytest.mark.parametrize("rules", [HOUSE_RULES, REVERSE, SHORT])
@pytest.mark.parametrize("players", [2, 4])
def test_a_card_does_what_the_engine_says(rules: Rules, players: int) -> None:
    """Every card, with every number of tokens it may return, from every place of the bottle,
    by every seat in either direction: the compiled rules leave what ``state.resolve`` does."""
    t = playouts.tables(rules)
    rng = random.Random(players)
    checked = 0
    for bottle in range(rules.length + 1):
        for card in range(len(CARDS)):
            for held in range(MAX_TOKENS + 1):
                for play, actor, direction in product(plays_for(card, held), range(players),
                                                      (1, -1)):
                    tokens = tuple(held if seat == actor else rng.randrange(4)
                                   for seat in range(players))
                    strips = tuple(rng.randrange(1, 5) for _ in range(players))
                    want = resolve(rules, bottle, tokens, strips, direction, actor, card,
                                   play.tokens)
                    s = np.array([bottle, direction, -1], dtype=np.int64)
                    got_tokens = np.array(tokens, dtype=np.int64)
                    got_strips = np.array(strips, dtype=np.int64)
                    played = np.zeros(len(CARDS), dtype=np.int64)
                    nxt, reveal, over = playouts._resolve(
                        t.squares, t.reverse, s, got_tokens, got_strips, played, actor, card,
                        play.tokens)
                    assert (int(s[0]), int(s[1]), nxt, reveal, over) == (
                        want.bottle, want.direction, want.next_player, want.reveal, want.over)
                    assert tuple(got_tokens) == want.tokens and tuple(got_strips) == want.strips
                    assert played[card] == 1 and played.sum() == 1
                    checked += 1
    assert checked > 20 * (rules.length + 1)


@pytest.mark.parametrize("rules", [HOUSE_RULES, SHORT])
def test_the_policy_tables_choose_as_the_policies(rules: Rules) -> None:
    """Greedy and the habits read from the tables choose what the Python policies choose, from
    random hands, and so do their ways of carrying out a revealed card."""
    t = playouts.tables(rules)
    rng = random.Random(7)
    for _ in range(3000):
        bottle, tokens = rng.randrange(rules.length + 1), rng.randrange(MAX_TOKENS + 1)
        hand = [0] * len(CARDS)
        for _ in range(3):
            hand[rng.randrange(len(CARDS))] += 1
        array = np.array(hand, dtype=np.int64)
        assert playouts._first(t.greedy, bottle, tokens, array, -1) == \
            greedy_choice(rules, bottle, tokens, tuple(hand))
        want = habit_choice(rules, bottle, tokens, legal_plays(PLAY, tuple(hand), -1, tokens))
        assert playouts._first(t.habits, bottle, tokens, array, -1) == \
            (int(want.card), want.tokens)
        revealed = rng.randrange(int(Card.FIVE) + 1)
        assert playouts._first(t.greedy, bottle, tokens, array, revealed) == \
            (revealed, number_choice(rules, bottle, tokens, revealed)[0])
        want = habit_choice(rules, bottle, tokens, plays_for(revealed, tokens))
        assert playouts._first(t.habits, bottle, tokens, array, revealed) == \
            (revealed, want.tokens)


def _engine_games(rules: Rules, players: int, games: int, me: int, seed: int) -> np.ndarray:
    rng = random.Random(seed)
    policies = [HabitPolicy() if seat == me else GreedyPolicy() for seat in range(players)]
    lost = []
    for _ in range(games):
        final, _ = play_game(GAME.initial_state(players, rng, rules), policies, rng)
        assert isinstance(final, PartyTimeState)
        lost.append([4 - strips for strips in final.strips])
    return np.array(lost, dtype=np.float64)


@pytest.mark.parametrize(("rules", "players", "me"),
                         [(HOUSE_RULES, 4, -1), (HOUSE_RULES, 3, 1), (REVERSE, 4, 2),
                          (SHORT, 2, 0)])
def test_whole_games_lose_what_the_engine_loses(rules: Rules, players: int, me: int) -> None:
    """Whole games, everyone greedy (or one seat playing the habits): the strips each seat
    loses on average in compiled games agree with games on the rules engine within four
    standard errors of the engine's mean (seeded: the same figures every run)."""
    engine = _engine_games(rules, players, 1500, me, seed=players)
    compiled = playouts.games(rules, players, 100_000, seed=players, me=me)
    for seat in range(players):
        error = engine[:, seat].std() / np.sqrt(len(engine))
        assert abs(compiled[:, seat].mean() - engine[:, seat].mean()) < 4 * error, seat


def test_long_run_agrees_with_playouts_on_the_engine() -> None:
    """The long-run value of every play in positions of greedy play (one a question-mark
    carry-out) agrees with the same playouts on the rules engine within four standard errors."""
    states = decisions(4, 3, 5) + carry_out_states(HOUSE_RULES, 3, 1, 3)
    for state in states:
        view = state.view(state.current_player())
        plays = view.legal_actions()
        run = playouts.long_run(view, plays, 20_000, seed=1)
        for index, play in enumerate(plays):
            engine = np.array(habits_to_end(view, play, 400, random.Random(index)),
                              dtype=np.float64)
            error = np.hypot(engine.std() / np.sqrt(len(engine)),
                             run.lost[index].std() / np.sqrt(run.samples))
            assert abs(run.mean(index) - engine.mean()) < 4 * error, (str(state), str(play))


def test_long_run_is_paired_and_reproducible() -> None:
    """The same play twice gives the same playouts (the plays share deals and streams), the
    same seed the same figures, and a play that crosses the star now costs its strip."""
    state = next(s for s in decisions(4, 40, 9)
                 if any(s.apply(p).strips != s.strips for p in s.legal_actions()))
    view = state.view(state.current_player())
    plays = view.legal_actions()
    run = playouts.long_run(view, [*plays, plays[0]], 500, seed=4)
    assert (run.lost[0] == run.lost[-1]).all()
    again = playouts.long_run(view, plays, 500, seed=4)
    assert (again.lost == run.lost[:-1]).all()
    assert playouts.long_run(view, plays, 500, seed=5).lost.tolist() != again.lost.tolist()
    me = view.player
    for index, play in enumerate(plays):
        if state.apply(play).strips[me] < state.strips[me]:
            assert (run.lost[index] >= 1).all()
    assert run.figure(0) == run.figure(len(plays))
    for index in range(len(plays)):
        figure = run.figure(index)
        assert 0 <= figure.interval.low <= figure.mean <= figure.interval.high
        assert figure.interval.high <= view.strips[me]


def test_long_run_needs_the_players_turn() -> None:
    state = decisions(3, 1, 2)[0]
    other = (state.current_player() + 1) % 3
    with pytest.raises(ValueError, match="no decision"):
        playouts.long_run(state.view(other), [Play(Card.ONE)], 10)


QUESTIONS = Rules(HOUSE_RULES.board, (2, 2, 2, 1, 1, 2, 1, 1, 5), "reverse")
"""A 17-card deck with five question marks and the reverse R: long chains, many reshuffles."""


@pytest.mark.parametrize(("rules", "players"),
                         [(HOUSE_RULES, 2), (HOUSE_RULES, 4), (QUESTIONS, 3), (QUESTIONS, 4)])
def test_a_playout_is_the_engines_game_card_for_card(monkeypatch: pytest.MonkeyPatch,
                                                     rules: Rules, players: int) -> None:
    """The playout code run as plain Python (numba's ``py_func``) from the engine's own deal
    (given as the playout's deal), every card it takes and every choice logged; then the
    engine replayed from the same position with those cards.  Before every card taken the
    pile and the played cards are the same, every decision chooses the same play, and the
    strips lost are the same.  Positions in the carry-out step are included."""
    log: list[tuple[object, ...]] = []
    plain_take, plain_first = playouts._take.py_func, playouts._first.py_func

    def take(pile: np.ndarray, played: np.ndarray) -> int:
        before = (tuple(int(c) for c in pile), tuple(int(c) for c in played))
        card = plain_take(pile, played)
        log.append(("take", card, *before))
        return card

    def first(table: np.ndarray, bottle: int, tokens: int, hand: np.ndarray, only: int
              ) -> tuple[int, int]:
        choice = plain_first(table, bottle, tokens, hand, only)
        log.append(("choose", (int(choice[0]), int(choice[1]))))
        return choice

    for name in ("_resolve", "_carry_on", "_long_run", "_arrays", "_start", "_pick", "_stuck",
                 "_close"):
        monkeypatch.setattr(playouts, name, getattr(playouts, name).py_func)
    monkeypatch.setattr(playouts, "_take", take)
    monkeypatch.setattr(playouts, "_first", first)
    states = decisions(players, 12, players, rules=rules) + \
        carry_out_states(rules, players, 6, players)
    reshuffles = 0
    for state in states:
        me = state.current_player()
        deal = Deals((tuple(NO_CARDS if seat == me else hand
                            for seat, hand in enumerate(state.hands)),), (state.pile,))
        for play in state.legal_actions():
            log.clear()
            lost = playouts.long_run(state.view(me), [play], 1, deals=deal).lost[0, 0]
            final, reshuffled = _replay(state.apply(play), me, log)
            assert state.strips[me] - final.strips[me] == lost
            reshuffles += reshuffled
    assert reshuffles > 0


def _replay(state: PartyTimeState, me: int, log: list[tuple[object, ...]]
            ) -> tuple[PartyTimeState, int]:
    """The engine played on from ``state`` with the cards of ``log``, checking it event by
    event; the final state and the number of reshuffles."""
    policies = [HabitPolicy() if seat == me else GreedyPolicy()
                for seat in range(state.num_players)]
    events = iter(log)
    reshuffles = 0
    while not state.is_terminal():
        event = next(events)
        player = state.current_player()
        if player == CHANCE:
            kind, card, pile, played = event
            assert kind == "take" and (state.pile, state.played) == (pile, played)
            reshuffles += sum(pile) == 1
            state = state.apply((DRAWS if state.phase == DRAW else REVEALS)[card])
        else:
            play = policies[player](state, random.Random(0))
            assert event == ("choose", (int(play.card), play.tokens))
            state = state.apply(play)
    assert next(events, None) is None
    return state, reshuffles


@pytest.mark.parametrize("players", [2, 3, 4])
def test_playouts_and_search_read_the_same_deals(players: int) -> None:
    """From one sampled deal (the same object both read), the compiled playouts' figures until
    my next turn (every seat's loss, whether I lost a strip between turns, what my next turn's
    play cost), averaged over many pile orders, agree with the search's exact value of that
    deal over the pile's order, play by play, within four standard errors."""
    compared = 0
    for state in decisions(players, 3, 40 + players):
        view = state.view(state.current_player())
        me, n = view.player, players
        drawn = sample_deals(view, 2, 7)
        for k in range(2):
            one = Deals(drawn.hands[k:k + 1], drawn.piles[k:k + 1])
            search = DealSearch(view.rules, n, me, 1)
            node = search.deal_root(view, drawn.hands[k], drawn.piles[k])
            assert node is not None
            moves = search.my_moves(node)
            run = playouts.long_run(view, [play for play, _, _ in moves], 3000, seed=k,
                                    deals=one)
            for index, (play, branch, outcome) in enumerate(moves):
                losses, hit, after = search.move_value(node, branch)
                windows = run.windows[index].astype(np.float64)
                own = [1.0 if seat == outcome.loser else 0.0 for seat in range(n)]
                pairs = [(losses[seat] - own[seat], windows[:, seat]) for seat in range(n)]
                pairs += [(hit, windows[:, n]), (after, windows[:, n + 1])]
                for exact, column in pairs:
                    error = max(column.std() / np.sqrt(len(column)), 2e-3)
                    assert abs(column.mean() - exact) < 4 * error, (str(state), str(play))
                    compared += 1
    assert compared >= 12 * (players + 2)

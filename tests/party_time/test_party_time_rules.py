"""The rules engine, worked by hand: crossing and stopping on the star, tokens, every special
card, the question-mark chain, drawing back to three, the reshuffle, the end and the shared win.

The house track (square: symbol): 0 star, 2 +, 4 -, 6 +, 9 -, 10 +, 13 +, 14 -, 16 +, 18 -,
20 +, 21 -, 23 -; the others light green (``.``).  24 squares.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest

from partysolver.models.party_time import load_state
from partysolver.models.party_time.game import HOUSE_BOARD, Card, Draw, Play, Reveal
from partysolver.models.party_time.state import (
    CARRY_OUT,
    DRAW,
    OVER,
    PLAY,
    REVEAL,
    PartyTimeState,
    win_shares,
)

ANN, BEN, CAT = 0, 1, 2


def state_of(**fields: Any) -> PartyTimeState:
    document: dict[str, Any] = {
        "game": "party-time", "players": ["Ann", "Ben", "Cat"], "turn": "Ann", "bottle": 5,
        "hands": {"Ann": ["1", "2", "3"], "Ben": ["1", "2", "3"], "Cat": ["1", "2", "3"]},
    }
    document |= fields
    return load_state(document, "test.toml")


def test_house_track() -> None:
    assert len(HOUSE_BOARD) == 24 and HOUSE_BOARD[0] == "*"
    assert (HOUSE_BOARD.count("+"), HOUSE_BOARD.count("-"), HOUSE_BOARD.count(".")) == (6, 6, 11)


def test_stopping_on_the_star_is_safe_and_crossing_costs_a_strip() -> None:
    near = state_of(bottle=21, hands={"Ann": ["3", "4", "5"], "Ben": ["1", "1", "1"],
                                      "Cat": ["2", "2", "2"]})
    stopped = near.apply(Play(Card.THREE))
    assert stopped.strips == (4, 4, 4) and stopped.on_star() and stopped.distance() == 0
    crossed = near.apply(Play(Card.FOUR))
    assert crossed.strips == (3, 4, 4) and crossed.square() == 1
    # Ben must now leave the star Ann stopped on: any move crosses it.
    ben = stopped.apply(Draw(Card.ONE)).apply(Play(Card.ONE))
    assert ben.strips == (4, 3, 4) and ben.square() == 1


def test_leaving_the_star_of_the_set_up_is_free() -> None:
    start = state_of(bottle=0, untouched=True, hands={"Ann": ["5", "5", "5"],
                                                      "Ben": ["1", "1", "1"],
                                                      "Cat": ["2", "2", "2"]})
    after = start.apply(Play(Card.FIVE))
    assert after.strips == (4, 4, 4) and after.square() == 5


def test_the_rulebooks_token_example() -> None:
    """On the star with 2, 2, 3 and two tokens: the 2 returning both tokens moves 0."""
    start = state_of(bottle=0, hands={"Ann": ["2", "2", "3"], "Ben": ["1", "1", "1"],
                                      "Cat": ["4", "4", "4"]}, tokens={"Ann": 2})
    plays = [str(p) for p in start.legal_actions()]
    assert plays == ["2", "2-1", "2-2", "3", "3-1", "3-2"]
    after = start.apply(Play(Card.TWO, 2))
    assert after.strips == (4, 4, 4) and after.tokens == (0, 0, 0)
    assert after.on_star() and after.bottle == start.bottle


def test_tokens_on_the_squares() -> None:
    # Dark green: +1; a fourth token loses all three.
    assert state_of(bottle=1).apply(Play(Card.ONE)).tokens[ANN] == 1
    assert state_of(bottle=1, tokens={"Ann": 3}).apply(Play(Card.ONE)).tokens[ANN] == 0
    # Red: return one if any.
    assert state_of(bottle=3, tokens={"Ann": 2}).apply(Play(Card.ONE)).tokens[ANN] == 1
    assert state_of(bottle=3).apply(Play(Card.ONE)).tokens[ANN] == 0
    # Returned tokens are gone before the square acts: 3 - 1 returned = 2 on, +1 on green.
    after = state_of(bottle=0, tokens={"Ann": 3}).apply(Play(Card.THREE, 1))
    assert after.square() == 2 and after.tokens[ANN] == 3
    # Light green: nothing.
    assert state_of(bottle=4, tokens={"Ann": 1}).apply(Play(Card.ONE)).tokens[ANN] == 1


def test_r_card_gives_the_turn_to_the_player_on_the_right() -> None:
    start = state_of(hands={"Ann": ["R", "1", "1"], "Ben": ["1", "1", "1"],
                            "Cat": ["2", "2", "2"]})
    after = start.apply(Play(Card.R)).apply(Draw(Card.ONE))
    assert after.turn == CAT and after.bottle == start.bottle and after.direction == 1
    then = after.apply(Play(Card.TWO)).apply(Draw(Card.ONE))
    assert then.turn == ANN  # play goes on clockwise from Cat


def test_reverse_variant_turns_the_direction() -> None:
    start = state_of(hands={"Ann": ["R", "1", "1"], "Ben": ["1", "1", "1"],
                            "Cat": ["2", "2", "2"]}, rules={"r_card": "reverse"})
    after = start.apply(Play(Card.R)).apply(Draw(Card.ONE))
    assert after.turn == CAT and after.direction == -1
    then = after.apply(Play(Card.TWO)).apply(Draw(Card.ONE))
    assert then.turn == BEN  # counter-clockwise now


def test_black_square_strips_the_next_player_who_then_plays() -> None:
    start = state_of(hands={"Ann": ["black", "1", "1"], "Ben": ["1", "1", "1"],
                            "Cat": ["2", "2", "2"]})
    after = start.apply(Play(Card.BLACK)).apply(Draw(Card.ONE))
    assert after.strips == (4, 3, 4) and after.turn == BEN and after.phase == PLAY


def test_black_square_can_end_the_game() -> None:
    start = state_of(hands={"Ann": ["black", "1", "1"], "Ben": ["1", "1", "1"],
                            "Cat": ["2", "2", "2"]}, strips={"Ben": 1, "Cat": 3})
    after = start.apply(Play(Card.BLACK))
    assert after.phase == OVER and after.returns() == (1.0, 0.0, 0.0)


def test_star_card_puts_the_bottle_on_the_star() -> None:
    start = state_of(bottle=20, hands={"Ann": ["star", "1", "1"], "Ben": ["1", "1", "1"],
                                       "Cat": ["2", "2", "2"]})
    after = start.apply(Play(Card.STAR))
    assert after.on_star() and after.strips == (4, 4, 4) and after.distance() == 0


def test_question_mark_chain() -> None:
    """Ann plays ?; Ben turns over a ?; it passes to Cat, who turns over a 5 from 21 and
    crosses; then Ann (after Cat) plays, once Ann has drawn back to three."""
    start = state_of(bottle=21, hands={"Ann": ["?", "1", "1"], "Ben": ["1", "1", "1"],
                                       "Cat": ["2", "2", "2"]})
    after = start.apply(Play(Card.QUESTION))
    assert after.phase == REVEAL and after.turn == BEN and after.refill == ANN
    outcomes = dict(after.chance_outcomes())
    assert outcomes[Reveal(Card.QUESTION)] == Fraction(1, sum(after.pile))
    chained = after.apply(Reveal(Card.QUESTION))
    assert chained.phase == REVEAL and chained.turn == CAT
    crossed = chained.apply(Reveal(Card.FIVE))
    assert crossed.strips == (4, 4, 3) and crossed.phase == DRAW and crossed.turn == ANN
    drawn = crossed.apply(Draw(Card.TWO))
    assert drawn.phase == PLAY and sum(drawn.hands[ANN]) == 3


def test_revealed_number_card_with_tokens_is_a_choice() -> None:
    start = state_of(bottle=21, hands={"Ann": ["?", "1", "1"], "Ben": ["1", "1", "1"],
                                       "Cat": ["2", "2", "2"]}, tokens={"Ben": 2})
    choosing = start.apply(Play(Card.QUESTION)).apply(Reveal(Card.FIVE))
    assert choosing.phase == CARRY_OUT and choosing.turn == BEN
    assert [str(p) for p in choosing.legal_actions()] == ["5", "5-1", "5-2"]
    safe = choosing.apply(Play(Card.FIVE, 2))
    assert safe.strips == (4, 4, 4) and safe.on_star() and safe.turn == CAT
    with pytest.raises(ValueError):
        choosing.apply(Play(Card.FOUR))


def test_exhausted_pile_is_rebuilt_from_the_played_cards() -> None:
    deck = {"1": 4, "2": 3, "3": 3, "4": 3}
    start = state_of(rules={"deck": deck}, played={"1": 3},
                     hands={"Ann": ["2", "2", "2"], "Ben": ["3", "3", "3"],
                            "Cat": ["4", "4", "4"]})
    assert start.pile == (1, 0, 0, 0, 0, 0, 0, 0, 0)
    after = start.apply(Play(Card.TWO)).apply(Draw(Card.ONE))
    assert after.pile == (3, 1, 0, 0, 0, 0, 0, 0, 0) and sum(after.played) == 0
    assert after.hands[ANN] == (1, 2, 0, 0, 0, 0, 0, 0, 0)


def test_shared_win() -> None:
    assert win_shares((3, 3, 0, 1)) == (0.5, 0.5, 0.0, 0.0)
    assert win_shares((4, 0, 2)) == (1.0, 0.0, 0.0)


def test_view_hides_other_hands_and_the_pile() -> None:
    state = state_of()
    view = state.view(ANN)
    assert view.hand == state.hands[ANN]
    assert sum(view.unseen()) == sum(state.pile) + 6
    sample = view.sample(random.Random(0))
    assert sample.view(ANN).key() == view.key() and sample.hands[ANN] == state.hands[ANN]


def test_random_games_keep_every_card_and_every_count_in_range() -> None:
    """Seeded random games (every player count, both R-card rules): the hands, the pile, the
    played cards and the card being carried out always make up the deck; tokens stay 0-3,
    strips 0-4, hands 3 (2 while drawing back); the game ends with exactly one player out."""
    from partysolver.models.party_time import GAME, HOUSE_RULES, Rules
    from partysolver.models.protocol import CHANCE, sample_chance

    for players in range(2, 7):
        for r_card in ("right", "reverse"):
            rules = Rules(HOUSE_RULES.board, HOUSE_RULES.deck, r_card)
            rng = random.Random(players * 10 + len(r_card))
            state = GAME.initial_state(players, rng, rules)
            while not state.is_terminal():
                total = [sum(cards) for cards in zip(*state.hands, state.pile, state.played,
                                                     strict=True)]
                if state.revealed >= 0:
                    total[state.revealed] += 1
                assert tuple(total) == rules.deck
                assert all(0 <= t <= 3 for t in state.tokens)
                assert all(1 <= s <= 4 for s in state.strips)
                assert all(sum(hand) == state.hand_size(seat)
                           for seat, hand in enumerate(state.hands))
                player = state.current_player()
                state = state.apply(sample_chance(state, rng) if player == CHANCE
                                    else rng.choice(state.legal_actions()))
            assert sorted(state.strips)[0] == 0 and sorted(state.strips)[1] > 0


def test_in_the_reverse_variant_a_question_mark_goes_the_way_of_play() -> None:
    """The rulebook's "left-hand neighbour" is the next player of clockwise play; once the
    reverse R has turned play around, the duty goes to the next player the other way (Cat's
    left-hand neighbour, Ann, would then hand the turn back to Cat)."""
    start = state_of(hands={"Ann": ["R", "1", "1"], "Ben": ["1", "1", "1"],
                            "Cat": ["?", "2", "2"]}, rules={"r_card": "reverse"})
    cat = start.apply(Play(Card.R)).apply(Draw(Card.ONE))
    assert cat.turn == CAT and cat.direction == -1
    asked = cat.apply(Play(Card.QUESTION))
    assert asked.phase == REVEAL and asked.turn == BEN and asked.refill == CAT
    moved = asked.apply(Reveal(Card.ONE))
    assert moved.phase == DRAW and moved.turn == ANN  # the player after Ben, counter-clockwise


def test_a_revealed_question_mark_is_shuffled_in_when_the_next_reveal_empties_the_pile() -> None:
    """The question mark Ben turned over has done its part once Cat turns over the last card:
    it is among the played cards the new pile is made of; Cat's card, still being carried
    out, is not."""
    deck = {"1": 4, "2": 3, "3": 4, "?": 2}
    start = state_of(rules={"deck": deck}, played={"1": 2},
                     hands={"Ann": ["?", "2", "2"], "Ben": ["3", "3", "3"],
                            "Cat": ["1", "1", "2"]})
    assert sum(start.pile) == 2  # one 3 and one ?
    asked = start.apply(Play(Card.QUESTION)).apply(Reveal(Card.QUESTION))
    assert asked.turn == CAT and sum(asked.pile) == 1
    after = asked.apply(Reveal(Card.THREE))
    # The new pile: the two played 1s and both question marks (Ann's and Ben's).
    assert sum(after.pile) == 4 and after.pile[Card.QUESTION] == 2 and sum(after.played) == 1

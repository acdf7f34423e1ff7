"""The hint's habits: its order among equally safe plays, hand-worked on the house board.

House board squares from the star: 1 ``.``, 2 ``+``, 3 ``.``, 4 ``-``, 5 ``.``, 6 ``+``, ...,
13 ``+``, 14 ``-``, 15 ``.``, 16 ``+``, 17 ``.``, 18 ``-``, 19 ``.``, 20 ``+``, 21 ``-``.
"""

from __future__ import annotations

from partysolver.models.party_time import HOUSE_RULES
from partysolver.models.party_time.game import Card, Play
from partysolver.models.party_time.state import plays_for
from partysolver.solvers.party_time.policies import SPECIAL_WORTH, habit_choice, habit_key


def choose(bottle: int, tokens: int, *cards: Card) -> Play:
    plays = [play for card in cards for play in plays_for(int(card), tokens)]
    return habit_choice(HOUSE_RULES, bottle, tokens, plays)


def test_the_play_keeping_most_tokens_comes_first() -> None:
    """From square 10 with one token: the 3 stops on 13 (dark green: 2 tokens), the 4 on 14
    (red: 0 tokens), the 4 returning its token on 13 (1 token).  The 3 keeps the most."""
    assert choose(10, 1, Card.THREE, Card.FOUR) == Play(Card.THREE)


def test_a_fourth_token_counts_as_none() -> None:
    """With three tokens, stopping on dark green loses them all: from square 10 the 3 (onto
    13, dark green) leaves no token, the 5 (onto 15, light green) keeps all three."""
    assert habit_key(HOUSE_RULES, 10, 3, int(Card.THREE), 0)[1] == 0.0
    assert choose(10, 3, Card.THREE, Card.FIVE) == Play(Card.FIVE)


def test_equal_tokens_play_the_biggest_card() -> None:
    """From square 10 with no token the 1 (onto 11) and the 5 (onto 15) keep none either way:
    the 5 goes, the small card stays for when the star is near."""
    assert choose(10, 0, Card.ONE, Card.FIVE) == Play(Card.FIVE)


def test_a_special_card_rather_than_spending_two_tokens() -> None:
    """Three squares before the star (square 21) with two tokens: the 5 is safe only returning
    both; the star card keeps them.  With the 4 (one token) the number card goes."""
    assert SPECIAL_WORTH < 2
    assert choose(21, 2, Card.FIVE, Card.STAR) == Play(Card.STAR)
    assert choose(21, 2, Card.FOUR, Card.STAR) == Play(Card.FOUR, 1)


def test_a_safe_play_before_any_crossing_one() -> None:
    """On the star (the bottle must leave it) with no token every number card crosses: the R
    card is safe.  Without a special card, the crossing play keeping most tokens goes: the 2
    onto square 2 (dark green) gains one."""
    assert choose(24, 0, Card.TWO, Card.R) == Play(Card.R)
    assert choose(24, 0, Card.TWO, Card.THREE) == Play(Card.TWO)


def test_habit_policy_always_plays_a_legal_play() -> None:
    from party_time_positions import decisions

    from partysolver.solvers.budget import Budget
    from partysolver.solvers.party_time.hint import TOLERANCE, hint

    checked = 0
    for state in decisions(3, 16, 12):
        me = state.current_player()
        moves = hint(state.view(me), 1, Budget(nodes=50_000), playouts=0).moves
        if not moves:
            continue
        least = min(move.value for move in moves)
        near = [move.play for move in moves if move.value <= least + TOLERANCE]
        assert moves[0].play == habit_choice(state.rules, state.bottle, state.tokens[me], near)
        rest = [move.value for move in moves[len(near):]]
        assert rest == sorted(rest) and all(value > least + TOLERANCE for value in rest)
        checked += 1
    assert checked >= 12

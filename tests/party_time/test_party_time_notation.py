"""Party-Time notation: every step of seeded random games parses back from its spellings, and a
position seen from one seat, played step by step, stays a valid position that sees what the
table shows."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from click.testing import CliRunner

from partysolver.cli.main import cli
from partysolver.models.documents import format_document, parse_document, read_document
from partysolver.models.errors import InputError
from partysolver.models.notation import NotationError
from partysolver.models.party_time import GAME, HOUSE_RULES, Play, Rules, load_position
from partysolver.models.party_time.game import Card, Draw, Reveal
from partysolver.models.party_time.notation import (
    NOTATION,
    UnseenDraw,
    ViewPosition,
)
from partysolver.models.party_time.state import CARRY_OUT, DRAW, PLAY, REVEAL
from partysolver.models.playable import StatePlayable
from partysolver.models.protocol import CHANCE, TERMINAL, sample_chance
from partysolver.puzzles import examples

EXAMPLES = examples("party-time")
SMALL = Rules(HOUSE_RULES.board, (2, 2, 2, 2, 2, 1, 1, 1, 2), "reverse")
"""A small deck (15 cards) with the reverse R card: reshuffles come often."""


def load_example(name: str) -> Any:
    document, source = read_document(EXAMPLES[name])
    return GAME.playable(document, source)


# -- the full game: every step met on random playouts ---------------------------------------


def random_playouts(seeds: range) -> int:
    """Random games through the full-game notation: at every position met, every legal step
    parses back from its canonical spelling and from each of its other spellings.  Positions
    with the same parser (the same legal steps, players, actor and step) are checked once."""
    checked: set[int] = set()
    steps = 0
    for seed in seeds:
        rng = random.Random(seed)
        players = 2 + seed % 5
        rules = SMALL if seed % 4 == 3 and players < 4 else HOUSE_RULES
        state = GAME.initial_state(players, rng, rules)
        while state.current_player() != TERMINAL:
            legal = NOTATION.steps(state)
            parser = NOTATION.spellings(state)
            if id(parser) not in checked:
                checked.add(id(parser))
                for step in legal:
                    assert parser.parse(NOTATION.format(state, step)) == step
                    for variant in NOTATION.variants(state, step):
                        assert parser.parse(variant) == step, (variant, step)
                    steps += 1
            state = state.apply(rng.choice(legal))
    return steps


def test_every_step_of_random_games_parses_back() -> None:
    assert random_playouts(range(60)) > 2000


@pytest.mark.slow
def test_every_step_of_a_thousand_random_games_parses_back() -> None:
    assert random_playouts(range(1000)) > 4000


# -- typed forms ------------------------------------------------------------------------------


def test_what_hint_prints_and_short_forms_parse() -> None:
    position = load_example("default")
    forms = {
        "2-2": Play(Card.TWO, 2), "play 2 return 2": Play(Card.TWO, 2),
        "play the 2 returning 2 tokens": Play(Card.TWO, 2), "PL 2 RET 2": Play(Card.TWO, 2),
        "play two return two tokens": Play(Card.TWO, 2), "Ann plays 2 return 2": Play(Card.TWO, 2),
        "1 plays 3": Play(Card.THREE), "3": Play(Card.THREE), "play 3.": Play(Card.THREE),
        "Ann plays the 3 returning 1 token: the bottle moves 2": Play(Card.THREE, 1),
    }
    for text, step in forms.items():
        assert position.parse(text) == step, text
    near = load_example("near-the-star")
    assert near.parse("play black square") == near.parse("black") == Play(Card.BLACK)
    assert near.format(Play(Card.BLACK)) == "play black"


def test_unknown_and_ambiguous_text_is_one_line_with_the_closest_legal_moves() -> None:
    position = load_example("default")
    with pytest.raises(NotationError) as caught:
        position.parse("play 4")
    message = str(caught.value)
    assert message.startswith("not a legal move here: 'play 4'; closest legal: ")
    assert "'play 2'" in message and "\n" not in message
    with pytest.raises(NotationError) as caught:
        position.parse("play 2 ret")
    assert "ambiguous move (2 legal moves fit)" in str(caught.value)
    assert "'play 2 return 1', 'play 2 return 2'" in str(caught.value)


def test_every_move_and_text_hint_prints_on_the_shipped_examples_parses() -> None:
    for name in EXAMPLES:
        result = CliRunner().invoke(cli, ["hint", str(EXAMPLES[name]), "--json", "--playouts",
                                          "0"])
        moves = json.loads(result.stdout)["moves"]
        position = load_example(name)
        assert len(moves) == len(position.legal_steps())
        for move in moves:
            step = position.parse(move["move"])
            assert position.format(step) == move["move"] and position.parse(move["text"]) == step


# -- a position seen from one seat ----------------------------------------------------------


def reload(position: ViewPosition) -> ViewPosition:
    """The position written as TOML and read back (it verifies)."""
    text = format_document(position.to_document())
    loaded = load_position(parse_document(text, "seat.toml"), "seat.toml")
    assert loaded.problems() == []
    return ViewPosition(loaded.to_view("seat.toml"))


def check_spellings(position: ViewPosition) -> None:
    for step in position.legal_steps():
        assert position.parse(position.format(step)) == step
        for variant in position.variants(step):
            assert position.parse(variant) == step, (variant, step)


def follow_a_game(players: int, seed: int, me: int, rules: Rules = HOUSE_RULES
                  ) -> tuple[ViewPosition, int]:
    """A seeded game of random plays, followed from ``me``'s seat: what the table shows is
    entered at each step and must be among the steps the seat finds legal; the seat's view
    is the true one whenever the game waits for something the seat sees.  Returns the last
    position and how many reshuffles the game had."""
    rng = random.Random(seed)
    state = GAME.initial_state(players, rng, rules)
    position = ViewPosition(state.view(me))
    reshuffles = 0
    while state.current_player() != TERMINAL:
        unseen = state.phase == DRAW and state.refill != me
        if state.current_player() == CHANCE:
            step = sample_chance(state, rng)
            assert unseen or position.awaits_chance()
        else:
            step = rng.choice(state.legal_actions())
            assert position.awaits_chance() == (state.turn != me)
        played = sum(state.played)
        state = state.apply(step)
        reshuffles += sum(state.played) < played
        if not unseen:
            assert step in position.legal_steps()
            check_spellings(position)
            position = position.apply(position.parse(position.format(step)))
        if not (state.phase == DRAW and state.refill != me):
            assert position.view == state.view(me)
            assert reload(position) == position
    assert position.is_over()
    return position, reshuffles


@pytest.mark.parametrize(("players", "seed", "me"), [(2, 1, 0), (3, 2, 1), (4, 3, 3),
                                                     (6, 4, 2)])
def test_a_seat_sees_every_step_of_a_real_game_as_legal(players: int, seed: int,
                                                        me: int) -> None:
    follow_a_game(players, seed, me)


def test_reshuffles_and_the_reverse_card_are_followed_from_a_seat() -> None:
    reshuffles = [follow_a_game(3, seed, seed, SMALL)[1] for seed in range(3)]
    assert min(reshuffles) >= 2


def test_random_seat_playouts_stay_valid_positions() -> None:
    runner = CliRunner()
    for seed in range(4):
        rng = random.Random(seed)
        state = GAME.initial_state(3 + seed % 3, rng)
        position = ViewPosition(state.view(seed % 3))
        while not position.is_over():
            step = position.random_step(rng) if position.awaits_chance() else \
                rng.choice(position.legal_steps())
            assert step in position.legal_steps()
            position = position.apply(step)
        assert reload(position) == position
        result = runner.invoke(cli, ["verify", "-", "--json"],
                               input=format_document(position.to_document()))
        assert json.loads(result.stdout)["valid"] is True, result.output


def test_the_seat_enters_its_draw_and_the_others_plays() -> None:
    position = load_example("default")
    assert position.actor() == "Ann" and not position.awaits_chance()
    played = position.apply(position.parse("2-2"))
    assert played.awaits_chance() and played.actor() == "the pile (Ann draws)"
    assert played.to_document()["step"] == "draw" and reload(played) == played
    drawn = played.apply(played.parse("draw five"))
    assert drawn.view.hand[Card.FIVE] == 1 and drawn.actor() == "Ben"
    ben = drawn.parse("Ben plays 4 return 1")
    assert ben == drawn.parse("4-1") == drawn.parse("2 plays 4 ret 1") == Play(Card.FOUR, 1)
    assert drawn.format(ben) == "Ben plays 4 return 1"
    with pytest.raises(NotationError):
        drawn.parse("Ben plays 4 return 2")  # Ben holds one token
    after = drawn.apply(ben)
    assert after.actor() == "Cat" and after.view.tokens[1] == 0  # Ben drew out of sight
    question = after.apply(after.parse("cat plays question mark"))
    assert question.actor() == "the pile (Dan turns over the top card)"
    revealed = question.apply(question.parse("dan turns over 3"))
    assert revealed.view.phase == CARRY_OUT and revealed.view.revealed == Card.THREE
    assert revealed.actor() == "Dan" and reload(revealed) == revealed
    assert [revealed.format(s) for s in revealed.legal_steps()] == [
        "Dan plays 3", "Dan plays 3 return 1", "Dan plays 3 return 2", "Dan plays 3 return 3"]
    assert revealed.parse("return 2") == Play(Card.THREE, 2)


def test_a_question_mark_carried_out_from_a_seat() -> None:
    position = load_example("question-mark")
    assert [position.format(s) for s in position.legal_steps()] == [
        "play 4", "play 4 return 1", "play 4 return 2"]
    assert position.parse("return 2") == Play(Card.FOUR, 2)
    after = position.apply(Play(Card.FOUR, 2))
    assert after.view.bottle == 24 and after.view.turn == 0  # on the star; Ben drew unseen
    assert after.actor() == "Ann" and reload(after) == after


def test_a_loaded_position_waiting_for_an_unseen_draw() -> None:
    document, source = read_document(EXAMPLES["default"])
    document = {**document, "turn": "Cat", "step": "draw", "drawing": "Ben"}
    position = GAME.playable(document, source)
    assert position.legal_steps() == [UnseenDraw(1)]
    assert position.actor() == "Ben (draws a card you do not see)"
    assert position.parse("ben draws") == position.random_step(random.Random(0))
    after = position.apply(UnseenDraw(1))
    assert after.actor() == "Cat" and after.view.phase == PLAY


def test_observations_are_drawn_from_the_unseen_cards() -> None:
    rng = random.Random(7)
    position = load_example("default")
    played = position.apply(Play(Card.TWO, 2))
    unseen = played.view.unseen()
    draws = [played.random_step(random.Random(seed)) for seed in range(60)]
    assert all(isinstance(d, Draw) and unseen[d.card] for d in draws)
    assert len(set(draws)) > 3
    ben = played.apply(Draw(Card.ONE))
    plays = [ben.random_step(random.Random(seed)) for seed in range(30)]
    assert all(play in ben.legal_steps() for play in plays) and len(set(plays)) > 3
    question = ben.apply(Play(Card.QUESTION))
    assert question.view.phase == REVEAL and isinstance(question.random_step(rng), Reveal)


# -- files ----------------------------------------------------------------------------------


def test_which_files_are_played_from_a_seat() -> None:
    for name in ("default", "near-the-star", "question-mark"):
        assert isinstance(load_example(name), ViewPosition)
    full = load_example("own-rules")
    assert isinstance(full, StatePlayable) and full.actor() == "Eve"
    after = full.apply(full.parse("play 4 return 1"))
    assert after.awaits_chance() and after.actor() == "the pile (Eve draws)"
    drawn = after.apply(after.random_step(random.Random(1)))
    assert GAME.state_from_document(drawn.to_document(), "x.toml") == drawn.state
    document, source = read_document(EXAMPLES["default"])
    with pytest.raises(InputError, match="tokens.Ann"):
        GAME.playable({**document, "tokens": {"Ann": 5}}, source)


def test_the_full_game_names_its_chance_steps() -> None:
    state = GAME.initial_state(3, random.Random(5))
    state = state.apply(state.legal_actions()[0])
    assert state.phase == DRAW
    card = next(Card(c) for c, n in enumerate(state.pile) if n)
    assert NOTATION.format(state, Draw(card)) == f"draw {card.notation}"
    assert NOTATION.parse(state, f"Ann draws {card.label}") == Draw(card)
    assert NOTATION.actor(state) == "the pile (Ann draws)"
    reveal = Reveal(card)
    assert NOTATION.format(state, reveal) == f"reveal {card.notation}"

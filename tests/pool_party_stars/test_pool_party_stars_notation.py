"""Pool Party Stars notation: every step of seeded random games parses back from its spellings,
and a seat log played step by step stays a valid seat log that sees what the table sees."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from click.testing import CliRunner
from pps_helpers import EXAMPLES, PUZZLES

from partysolver.cli.main import cli
from partysolver.models.documents import format_document, parse_document, read_document
from partysolver.models.errors import InputError
from partysolver.models.notation import NotationError
from partysolver.models.playable import StatePlayable
from partysolver.models.pool_party_stars import GAME, Propose
from partysolver.models.pool_party_stars.game import (
    ATTRIBUTES,
    DrawGuest,
    DrawRule,
    Guess,
    GuessOutcome,
    Proposal,
    Table,
)
from partysolver.models.pool_party_stars.notation import (
    NOTATION,
    Answers,
    SeatPosition,
    Verdict,
    spellings,
)
from partysolver.models.pool_party_stars.position import (
    DEFAULT_NAMES,
    knowledge_log,
    load_log,
)
from partysolver.models.pool_party_stars.state import DRAW_GUEST, DRAW_RULE, PoolPartyState
from partysolver.models.protocol import CHANCE, TERMINAL, sample_chance

PROPOSE_SHARE = 0.8
"""How often the random playouts propose when they can (guesses alone never end a game)."""


def load_example(name: str) -> Any:
    document, source = read_document(EXAMPLES / f"{name}.toml")
    return GAME.playable(document, source)


# -- the full game: every step met on random playouts ---------------------------------------


def random_playouts(seeds: range) -> int:
    """Random games through the full-game notation: at every position met, every legal step
    parses back from its canonical spelling and from each of its other spellings.  Positions
    with the same parser (the same legal steps, players, actor and hand) are checked once."""
    checked: set[int] = set()
    steps = 0
    for seed in seeds:
        rng = random.Random(seed)
        players = 2 + seed % 5
        state = GAME.initial_state(players, rng)
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
            proposals = [m for m in legal if isinstance(m, Propose)]
            if proposals and rng.random() < PROPOSE_SHARE:
                state = state.apply(rng.choice(proposals))
            else:
                state = state.apply(rng.choice(legal))
    return steps


def test_every_step_of_random_games_parses_back() -> None:
    assert random_playouts(range(12)) > 5000


@pytest.mark.slow
def test_every_step_of_a_thousand_random_games_parses_back() -> None:
    assert random_playouts(range(1000)) > 100_000


def test_chance_steps_and_their_spellings() -> None:
    rng = random.Random(4)
    state = GAME.initial_state(3, rng)
    state = state.apply(Propose(state.hands[0][0]))
    assert state.phase == DRAW_GUEST
    guest = state.stock[0]
    assert NOTATION.format(state, DrawGuest(guest)) == f"draw {guest}"
    assert NOTATION.parse(state, f"ana draws {guest}") == DrawGuest(guest)
    assert NOTATION.actor(state) == "the guest deck (Ana draws)"
    state = state.apply(DrawGuest(guest))
    target_rule = state.rules[2][-1]
    state = state.apply(Guess(2, target_rule))
    assert state.phase == DRAW_RULE
    free = [outcome for outcome, _ in state.chance_outcomes()]
    rule = free[0].rule
    for text in (f"draw rule {rule.label}", f"new rule {rule.label.lower()}",
                 f"Cat draws the rule Forbidden {rule.label}"):
        assert NOTATION.parse(state, text) == DrawRule(rule)


# -- typed forms ------------------------------------------------------------------------------


def test_names_seat_numbers_prefixes_and_any_order() -> None:
    position = load_example("default")
    hand = position.hand
    forms = {
        "guess Ben is Robot": Guess(3, ATTRIBUTES[2]),
        "GUESS BEN ROBOT": Guess(3, ATTRIBUTES[2]),
        "g b r": Guess(3, ATTRIBUTES[2]),
        "guess 4 rob": Guess(3, ATTRIBUTES[2]),
        "guess seat 2 is Forbidden Sport": Guess(1, ATTRIBUTES[5]),
        "guess l sp": Guess(1, ATTRIBUTES[5]),
        "propose 2": Propose(hand[1]),
        "propose Drink Swimsuit Plant": Propose(hand[2]),
        "propose plant/swimsuit/drink.": Propose(hand[2]),
        "pro rob pa": Propose(hand[1]),
        "Dani proposes Robot-Sport-Drink": Propose(hand[0]),
    }
    for text, step in forms.items():
        assert position.parse(text) == step, text


def test_unknown_and_ambiguous_text_is_one_line_with_the_closest_legal_moves() -> None:
    position = load_example("default")
    with pytest.raises(NotationError) as caught:
        position.parse("guess ben")
    message = str(caught.value)
    assert "ambiguous move (12 legal moves fit)" in message and "\n" not in message
    assert "'guess Ben Robot'" in message
    with pytest.raises(NotationError) as caught:
        position.parse("propose Monster-Sport-Food")
    message = str(caught.value)
    assert message.startswith("not a legal move here: 'propose Monster-Sport-Food'")
    assert "closest legal: 'propose " in message and "\n" not in message
    rng = random.Random(1)
    state = GAME.initial_state(2, rng)
    while state.current_player() != TERMINAL:
        if state.current_player() == CHANCE:
            state = state.apply(sample_chance(state, rng))
        else:
            state = state.apply(Propose(state.hands[state.player][0]))
    with pytest.raises(NotationError, match="game is over"):
        StatePlayable(GAME, state).parse("propose 1")


def test_every_move_hint_prints_on_the_shipped_examples_parses() -> None:
    for name in ("default", "full-state"):
        result = CliRunner().invoke(cli, ["hint", str(EXAMPLES / f"{name}.toml"), "--json"])
        moves = json.loads(result.stdout)["moves"]
        assert len(moves) == 16
        position = load_example(name)
        names = ["Dani", "Lari", "Ana", "Ben"]
        for move in moves:
            step = position.parse(move["move"])
            assert position.format(step) == move["move"]  # the canonical spelling
            assert position.parse(move["text"]) == step  # and the words beside it
            words = move["move"].split()
            if words[0] == "guess":
                assert step == Guess(names.index(words[1]), ATTRIBUTES[[
                    a.label for a in ATTRIBUTES].index(words[2])])


# -- a seat log, step by step ---------------------------------------------------------------


def reload(position: SeatPosition) -> SeatPosition:
    """The position written as TOML and read back."""
    text = format_document(position.to_document())
    log = load_log(parse_document(text, "seat.toml"), "seat.toml")
    assert log.problems() == []
    return SeatPosition(log)


def check_spellings(position: SeatPosition, every_variant: bool) -> None:
    """Every legal step parses back from its canonical spelling (and from its other
    spellings when ``every_variant``)."""
    for step in position.legal_steps():
        assert position.parse(position.format(step)) == step
        if every_variant:
            for variant in position.variants(step):
                assert position.parse(variant) == step, (variant, step)


def follow_a_game(players: int, seed: int, seat: int) -> tuple[PoolPartyState, SeatPosition]:
    """A seeded game by random players, followed from ``seat``'s log: what the table shows is
    entered at each step, and must be among the steps the seat finds legal."""
    rng = random.Random(seed)
    state = PoolPartyState.deal(Table(DEFAULT_NAMES[:players]), rng)
    position = SeatPosition(knowledge_log(state.knowledge(seat)))
    while state.current_player() != TERMINAL:
        if state.current_player() == CHANCE:
            outcome = sample_chance(state, rng)
            drawer = state.drawer
            state = state.apply(outcome)
            if drawer == seat:
                assert position.awaits_chance() and outcome in position.legal_steps()
                position = position.apply(position.parse(position.format(outcome)))
        else:
            legal = state.legal_actions()
            proposals = [m for m in legal if isinstance(m, Propose)]
            move = rng.choice(proposals) if rng.random() < PROPOSE_SHARE else rng.choice(legal)
            mover = state.player
            state = state.apply(move)
            event = state.events[-1]
            if mover == seat:
                assert not position.awaits_chance() and move in position.legal_steps()
                position = position.apply(move)
                seen: Any = Answers(event.answers) if isinstance(event, Proposal) else \
                    Verdict(event.right)
            else:
                seen = event
            assert position.awaits_chance() and seen in position.legal_steps()
            check_spellings(position, every_variant=False)
            position = position.apply(position.parse(position.format(seen)))
        assert position.is_over() == (state.current_player() == TERMINAL)
        if state.current_player() != CHANCE:
            truth = state.knowledge(seat)
            assert position.log.events == truth.events and position.log.rules[seat] == \
                truth.rules
            assert sorted(position.hand or (), key=lambda g: g.id) == list(truth.hand or ())
    return state, position


@pytest.mark.parametrize(("players", "seed", "seat"), [(2, 1, 0), (3, 2, 2), (4, 3, 1),
                                                       (6, 4, 5)])
def test_a_seat_sees_every_step_of_a_real_game_as_legal(players: int, seed: int,
                                                        seat: int) -> None:
    state, position = follow_a_game(players, seed, seat)
    assert position.is_over() and reload(position) == position
    assert position.log.events == state.events and position.log.pending is None


def test_random_seat_playouts_stay_valid_seat_logs() -> None:
    runner = CliRunner()
    for seed in range(3):
        rng = random.Random(seed)
        players = 3 + seed
        state = PoolPartyState.deal(Table(DEFAULT_NAMES[:players]), rng)
        seat = seed % players
        position = SeatPosition(knowledge_log(state.knowledge(seat)))
        steps = 0
        while not position.is_over() and steps < 40:
            if position.awaits_chance():
                step = position.random_step(rng)
            else:
                proposals = [s for s in position.legal_steps() if isinstance(s, Propose)]
                step = rng.choice(proposals or position.legal_steps())
            assert step in position.legal_steps()
            if steps % 10 == 0:
                check_spellings(position, every_variant=True)
            position = position.apply(step)
            assert reload(position) == position
            steps += 1
        result = runner.invoke(cli, ["verify", "-", "--json"],
                               input=format_document(position.to_document()))
        assert json.loads(result.stdout)["valid"] is True, result.output


def test_the_seat_enters_answers_then_draws() -> None:
    position = load_example("default")
    assert isinstance(position, SeatPosition) and position.actor() == "Dani"
    guest = position.hand[2]
    waiting = position.apply(position.parse(f"propose {guest}"))
    document = waiting.to_document()
    assert document["pending"] == f"propose {guest}" and reload(waiting) == waiting
    assert waiting.awaits_chance() and "answering Dani's proposal" in waiting.actor()
    assert [waiting.format(s) for s in waiting.legal_steps()] == ["Lari bars", "Ana bars",
                                                                  "nobody bars"]
    for text in ("Lari in, Ana bars", "lari lets in, ana barred", "2 in, 3 bars", "ana b"):
        assert waiting.format(waiting.parse(text)) == "Ana bars"
    assert waiting.format(waiting.parse("everyone in")) == "nobody bars"
    answered = waiting.apply(waiting.parse("Ana bars"))
    assert answered.log.events[-1] == Proposal(0, guest, answered.log.events[-1].answers)
    assert "pending" not in answered.to_document() and len(answered.hand or ()) == 2
    assert answered.actor() == "the guest deck (Dani draws)"
    drawn = answered.apply(answered.parse("draw animal swimsuit drink"))
    assert drawn.hand is not None and str(drawn.hand[-1]) == "Animal-Swimsuit-Drink"
    assert drawn.actor() == "Lari" and reload(drawn) == drawn


def test_a_guess_waits_for_right_or_wrong() -> None:
    position = load_example("default")
    certain = position.apply(position.parse("guess Ben Robot"))
    assert [certain.format(s) for s in certain.legal_steps()] == ["right"]
    assert certain.to_document()["pending"] == "guess Ben Robot"
    open_guess = position.apply(position.parse("guess Ana Gift"))
    assert open_guess.legal_steps() == [Verdict(False), Verdict(True)]
    assert open_guess.parse("incorrect") == Verdict(False)
    after = open_guess.apply(Verdict(True))
    assert after.log.events[-1] == GuessOutcome(0, 2, ATTRIBUTES[11], True)
    assert after.actor() == "Lari" and reload(after) == after


def test_the_others_turns_are_entered_as_the_log_writes_them() -> None:
    position = load_example("default")
    lari = position.apply(position.parse("guess Ana Gift")).apply(Verdict(False))
    assert lari.actor() == "Lari" and lari.awaits_chance()
    event = lari.parse("Lari proposes Animal-Swimsuit-Food: Ana lets in, Ben lets in, "
                       "Dani lets in")
    assert isinstance(event, Proposal) and event.barred_by is None
    assert lari.format(event) == "Lari proposes Animal-Swimsuit-Food: nobody bars"
    # Dani holds Pajamas now: Ana and Ben cannot bar Plant-Pajamas-Gift, so Dani does.
    barred = lari.parse("lari proposes plant pajamas gift")
    assert isinstance(barred, Proposal) and barred.barred_by == 0
    assert lari.parse("Lari proposes Plant-Pajamas-Gift: Ana in, Ben in") == barred
    with pytest.raises(NotationError, match="not a legal observation"):
        lari.parse("Lari proposes Plant-Pajamas-Gift: nobody bars")
    with pytest.raises(NotationError, match="ambiguous observation"):
        lari.parse("lari proposes animal pajamas drink")  # Ana may bar it too
    guess = lari.parse("2 guesses 1 pajamas: right")
    assert guess == GuessOutcome(1, 0, ATTRIBUTES[7], True)
    with pytest.raises(NotationError):
        lari.parse("Lari guesses Dani Plant: right")  # Dani knows their own rule
    redraw = lari.apply(guess)
    assert redraw.actor() == "the rule deck (Dani's new rule)"
    assert DrawRule(ATTRIBUTES[7]) in redraw.legal_steps()  # the card may come back
    fresh = redraw.apply(redraw.parse("draw rule Food"))
    assert fresh.log.rules[0] == (ATTRIBUTES[3], ATTRIBUTES[7], ATTRIBUTES[9])
    assert reload(fresh) == fresh


def test_random_observations_never_read_the_truth() -> None:
    """Two logs that differ only in what the seat cannot see give the same observations."""
    full = load_example("full-state")
    assert isinstance(full, StatePlayable)
    position = load_example("default")
    assert position.log == knowledge_log(full.state.knowledge(0))
    waiting = position.apply(position.parse("propose Robot-Sport-Drink"))
    drawn = [waiting.random_step(random.Random(seed)) for seed in range(40)]
    assert all(step in waiting.legal_steps() for step in drawn)
    assert len(set(drawn)) > 1  # not the one true answer


# -- files ----------------------------------------------------------------------------------


def test_which_logs_can_be_played_on() -> None:
    assert isinstance(load_example("full-state"), StatePlayable)
    assert isinstance(load_example("default"), SeatPosition)
    assert isinstance(load_example("puzzle"), SeatPosition)  # its four events are the game
    with pytest.raises(InputError, match="hands"):
        load_example("rulebook")  # every rule but no hand: neither a seat nor a full state
    with pytest.raises(InputError, match="conflict"):
        load_example("conflict")
    with pytest.raises(InputError, match="complete"):
        document, source = read_document(PUZZLES / "easy-01.toml")
        GAME.playable(document, source)


def test_a_full_state_plays_on_and_writes_a_full_log() -> None:
    position = load_example("full-state")
    assert position.actor() == "Dani"
    after = position.apply(position.parse("propose 3"))
    assert after.awaits_chance() and after.actor() == "the guest deck (Dani draws)"
    step = after.random_step(random.Random(0))
    done = after.apply(step)
    document = done.to_document()
    assert GAME.state_from_document(document, "x.toml") == done.state
    assert "seat" not in document and len(document["hands"]) == 4


def test_a_pending_move_is_the_seats_own_at_its_turn() -> None:
    document, source = read_document(EXAMPLES / "default.toml")
    assert load_log({**document, "pending": "guess Lari is Food"}, source).problems() == []
    log = load_log({**document, "pending": "propose Monster-Sport-Food"}, source)
    assert [p.code for p in log.problems()] == ["pending"]
    assert "not in Dani's hand" in log.problems()[0].message
    early = {**document, "events": document["events"][:-1], "pending": "guess Lari Food"}
    assert "it is Ben's turn" in load_log(early, source).problems()[0].message
    with pytest.raises(InputError, match="pending"):
        load_log({**document, "pending": "dance"}, source)
    omniscient, source = read_document(EXAMPLES / "full-state.toml")
    with pytest.raises(InputError, match="seat log"):
        load_log({**omniscient, "pending": "guess Lari Food"}, source)


def test_equal_positions_share_one_parser() -> None:
    """Equal positions share one parser (the cache the random playouts rely on)."""
    state = GAME.initial_state(4, random.Random(9))
    first = NOTATION.spellings(state)
    again = GAME.state_from_document(GAME.state_to_document(state), "x.toml")
    assert NOTATION.spellings(again) is first
    assert spellings(tuple(NOTATION.steps(state)), state.table.players, 0, state.hands[0],
                     "move") is first


def test_guests_in_hand_are_numbered_from_one() -> None:
    state = GAME.initial_state(3, random.Random(2))
    position = StatePlayable(GAME, state)
    for k, guest in enumerate(state.hands[0], 1):
        assert position.parse(f"propose {k}") == Propose(guest)
    with pytest.raises(NotationError):
        position.parse("propose 4")


def test_names_the_notation_needs_are_not_player_names() -> None:
    document, source = read_document(EXAMPLES / "puzzle.toml")
    for name in ("Nobody", "3", "everyone"):
        with pytest.raises(InputError, match="'nobody' or a number"):
            load_log({**document, "players": ["Dani", "Lari", name]}, source)

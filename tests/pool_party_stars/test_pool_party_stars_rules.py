"""Pool Party Stars rules, worked by hand: the rulebook's examples, guesses, the waiting line,
the end of the game and its tie-breaks, the house deck and the notation."""

from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction

import pytest
from pps_helpers import SHIPPED, load, play

from partysolver.models.documents import read_document
from partysolver.models.pool_party_stars import GAME
from partysolver.models.pool_party_stars.game import (
    ATTRIBUTES,
    GUESTS,
    HOUSE_DECK,
    INFO,
    Answer,
    Attribute,
    DrawGuest,
    DrawRule,
    Guess,
    GuessOutcome,
    Proposal,
    Propose,
    Public,
    Table,
    format_event,
    parse_event,
    parse_guest,
    vip_to_lose,
    win_shares,
)
from partysolver.models.pool_party_stars.position import load_deck, load_log, state_log
from partysolver.models.pool_party_stars.state import (
    DRAW_GUEST,
    DRAW_RULE,
    OVER,
    TURN,
    PoolPartyState,
)
from partysolver.models.protocol import TERMINAL

A, M, R, P = Attribute.ANIMAL, Attribute.MONSTER, Attribute.ROBOT, Attribute.PLANT
COSTUME, ANIMAL, MONSTER = Attribute.COSTUME, Attribute.ANIMAL, Attribute.MONSTER


def g(text: str):
    return parse_guest(text)


def rulebook_state() -> PoolPartyState:
    """Dani, Lari (Forbidden Costume) and Ana (Forbidden Animal), as in the rulebook; Dani's
    rule and the hands are made up (Dani holds the rulebook's Animal-Swimsuit-Food)."""
    document = {
        "game": "pool-party-stars", "players": ["Dani", "Lari", "Ana"],
        "rules": {"Dani": ["Monster"], "Lari": ["Costume"], "Ana": ["Animal"]},
        "hands": {"Dani": ["Animal-Swimsuit-Food", "Robot-Sport-Gift", "Plant-Pajamas-Book"],
                  "Lari": ["Monster-Costume-Food", "Robot-Swimsuit-Book", "Plant-Swimsuit-Drink"],
                  "Ana": ["Animal-Pajamas-Gift", "Monster-Sport-Drink", "Plant-Costume-Book"]}}
    return load_log(document, "rulebook.toml").to_state("rulebook.toml")


# -- components and notation ---------------------------------------------------------------------


def test_house_deck_has_each_attribute_on_ten_distinct_cards() -> None:
    assert len(HOUSE_DECK) == 40 == len(set(HOUSE_DECK))
    counts = Counter(a for guest in HOUSE_DECK for a in guest.attributes)
    assert counts == {a: 10 for a in ATTRIBUTES}
    assert INFO.house_data and "house" in INFO.house_data


def test_shipped_house_deck_file_is_the_house_deck() -> None:
    document, source = read_document(SHIPPED / "decks" / "house.toml")
    assert load_deck(document, source) == HOUSE_DECK
    assert "HOUSE DATA" in (SHIPPED / "decks" / "house.toml").read_text(encoding="utf-8")


def test_guest_notation_round_trips_and_accepts_any_order() -> None:
    for guest in GUESTS:
        assert parse_guest(str(guest)) == guest
    assert parse_guest("food / animal  SWIMSUIT") == g("Animal-Swimsuit-Food")
    for bad in ("Animal-Monster-Food", "Animal-Swimsuit", "Animal-Swimsuit-Food-Gift",
                "Cat-Swimsuit-Food"):
        with pytest.raises(ValueError):
            parse_guest(bad)


def test_event_notation_round_trips_on_played_games() -> None:
    state = play(5, seed=3)
    names = state.table.players
    assert state.events
    for event in state.events:
        assert parse_event(format_event(event, names), names) == event


def test_event_shorthands() -> None:
    names = ("Dani", "Lari", "Ana", "Ben")
    barred = parse_event("Dani proposes Animal-Swimsuit-Food: Ana bars", names)
    assert barred == Proposal(0, g("Animal-Swimsuit-Food"),
                              (Answer(1, False), Answer(2, True)))
    everyone = parse_event("Ben proposes Plant-Sport-Food: everyone lets in", names)
    assert everyone == Proposal(3, g("Plant-Sport-Food"),
                                (Answer(0, False), Answer(1, False), Answer(2, False)))
    guess = parse_event("Lari guesses Ana is Forbidden Animal: right", names)
    assert guess == GuessOutcome(1, 2, ANIMAL, True)


# -- the rulebook's examples -------------------------------------------------------------------------


def test_rulebook_example_1_introducing_a_guest() -> None:
    state = rulebook_state()
    assert state.current_player() == 0 and state.phase == TURN
    after = state.apply(Propose(g("Animal-Swimsuit-Food")))
    # Lari (Costume) lets the guest in; Ana (Animal) bars it; nobody after Ana is asked.
    assert after.events[-1] == Proposal(0, g("Animal-Swimsuit-Food"),
                                        (Answer(1, False), Answer(2, True)))
    assert after.public.waiting == (g("Animal-Swimsuit-Food"),)
    assert after.public.vips == ((), (), ())
    # Dani draws a new guest (chance: each of the 31 guests left, equally likely) ...
    assert after.phase == DRAW_GUEST and after.current_player() < 0
    outcomes = after.chance_outcomes()
    assert len(outcomes) == 31 and all(p == Fraction(1, 31) for _, p in outcomes)
    drawn = after.apply(outcomes[0][0])
    # ... keeping three in hand, and the turn passes to Lari.
    assert len(drawn.hands[0]) == 3 and drawn.current_player() == 1


def test_rulebook_example_2_deducing_a_secret_rule() -> None:
    state = rulebook_state().apply(Propose(g("Animal-Swimsuit-Food")))
    state = state.apply(DrawGuest(g("Robot-Costume-Food")))
    right = state.apply(Guess(2, ANIMAL))
    assert right.events[-1] == GuessOutcome(1, 2, ANIMAL, True)
    # Lari takes half the waiting line, rounded up: the one waiting guest.
    assert right.public.vips[1] == (g("Animal-Swimsuit-Food"),) and right.public.waiting == ()
    # Ana shuffles her card back and draws one of the 10 rules the others do not hold --
    # Animal included: the same card may come back.
    assert right.phase == DRAW_RULE
    outcomes = dict(right.chance_outcomes())
    assert set(outcomes) == {DrawRule(a) for a in ATTRIBUTES if a not in (MONSTER, COSTUME)}
    assert all(p == Fraction(1, 10) for p in outcomes.values())
    again = right.apply(DrawRule(ANIMAL))
    assert again.rules[2] == (ANIMAL, ANIMAL) and again.current_player() == 2
    with pytest.raises(ValueError):
        right.apply(DrawRule(COSTUME))  # Lari holds it


def test_wrong_guess_changes_nothing_in_friendly_mode() -> None:
    state = rulebook_state()
    wrong = state.apply(Guess(1, ANIMAL))
    assert wrong.events[-1] == GuessOutcome(0, 1, ANIMAL, False)
    assert wrong.public == state.public and wrong.rules == state.rules
    assert wrong.current_player() == 1


def test_wrong_guess_costs_a_vip_in_competitive_mode() -> None:
    table = Table(("Dani", "Lari", "Ana"), competitive=True)
    record = Public.deal(table)
    record = record.after(Proposal(1, g("Robot-Sport-Gift"), (Answer(2, False), Answer(0, False))),
                          True)
    assert record.vips[1] == (g("Robot-Sport-Gift"),)
    lost = record.after(GuessOutcome(1, 2, ANIMAL, False), True)
    assert lost.vips[1] == () and lost.lost == (g("Robot-Sport-Gift"),)
    nothing = record.after(GuessOutcome(2, 1, ANIMAL, False), True)  # Ana has no VIP
    assert nothing.vips == record.vips and nothing.lost == ()
    friendly = record.after(GuessOutcome(1, 2, ANIMAL, False), False)
    assert friendly.vips == record.vips


def test_the_vip_lost_keeps_the_best_variety() -> None:
    vips = [g("Robot-Sport-Gift"), g("Robot-Swimsuit-Book"), g("Plant-Swimsuit-Drink")]
    # Losing the second keeps 2 species, 2 outfits and 2 items: the best tie-break.
    assert vip_to_lose(vips) == 1
    assert vip_to_lose([g("Robot-Sport-Gift"), g("Robot-Sport-Gift")]) == 0


def test_right_guess_takes_the_front_half_of_the_waiting_line_rounded_up() -> None:
    table = Table(("Dani", "Lari", "Ana"))
    waiting = tuple(HOUSE_DECK[:5])
    record = Public(waiting, ((), (), ()), (), (3, 3, 3), 31)
    after = record.after(GuessOutcome(0, 1, ANIMAL, True), table.competitive)
    assert after.vips[0] == waiting[:3] and after.waiting == waiting[3:]
    empty = Public((), ((), (), ()), (), (3, 3, 3), 31).after(GuessOutcome(0, 1, ANIMAL, True),
                                                               False)
    assert empty.vips[0] == ()


# -- the end of the game -------------------------------------------------------------------------------


def test_game_ends_when_the_player_to_act_has_no_guest() -> None:
    deck = tuple(sorted(HOUSE_DECK[:9], key=lambda guest: guest.id))
    state = PoolPartyState.deal(Table(("Dani", "Lari", "Ana"), deck), random.Random(1))
    assert not state.stock
    for _ in range(9):
        assert state.phase == TURN
        me = state.current_player()
        state = state.apply(Propose(state.hands[me][0]))
    assert state.phase == OVER and state.current_player() == TERMINAL
    assert not state.legal_actions()  # no guess either
    shares = state.returns()
    assert sum(shares) == pytest.approx(1.0)
    assert shares == win_shares(state.public.vips)


def test_ties_break_on_species_then_outfits_then_items() -> None:
    # The rulebook's example: A has only Robots and Monsters, B also a Plant: B wins.
    a = [g("Robot-Swimsuit-Book"), g("Monster-Sport-Drink"), g("Robot-Sport-Gift")]
    b = [g("Robot-Costume-Food"), g("Monster-Costume-Gift"), g("Plant-Costume-Book")]
    assert win_shares([a, b]) == (0.0, 1.0)
    # Same species variety: outfits decide.
    c = [g("Robot-Swimsuit-Book"), g("Monster-Sport-Drink")]
    d = [g("Robot-Costume-Food"), g("Monster-Costume-Gift")]
    assert win_shares([c, d]) == (1.0, 0.0)
    # Same species and outfits: items decide; then the victory is shared.
    e = [g("Robot-Costume-Food"), g("Monster-Pajamas-Drink")]
    f = [g("Robot-Costume-Food"), g("Monster-Pajamas-Food")]
    assert win_shares([e, f]) == (1.0, 0.0)
    assert win_shares([e, e, []]) == (0.5, 0.5, 0.0)
    # More VIPs beats any variety.
    assert win_shares([a, c]) == (1.0, 0.0)


# -- actions, views and files ----------------------------------------------------------------------------


def test_legal_actions_are_proposals_then_guesses_clockwise() -> None:
    state = rulebook_state()
    actions = state.legal_actions()
    hand = state.hands[0]
    assert actions[:3] == [Propose(guest) for guest in hand]
    assert actions[3:] == [Guess(t, a) for t in (1, 2) for a in ATTRIBUTES]
    with pytest.raises(ValueError):
        state.apply(Guess(0, ANIMAL))  # not your own rule
    with pytest.raises(ValueError):
        state.apply(Propose(g("Robot-Costume-Food")))  # not in Dani's hand


def test_views_resample_consistently_and_hide_the_rest() -> None:
    rng = random.Random(5)
    state = play(4, seed=11, events=20)
    for player in range(4):
        view = state.view(player)
        for _ in range(5):
            sample = view.sample(rng)
            assert sample.view(player).key() == view.key()
            assert sample.rules[player] == state.rules[player]
            assert sample.hands[player] == state.hands[player]
            assert not state_log(sample).problems(), "a sample breaks the no-lying rule"
            assert sorted(g.id for g in sample.stock + sum(sample.hands, ())) == \
                sorted(g.id for g in state.stock + sum(state.hands, ()))


def test_view_samples_rules_uniformly_among_consistent_assignments() -> None:
    # After the rulebook's examples, from Dani's seat (Monster): Lari let in
    # Animal-Swimsuit-Food, so 8 rules remain for her; Ana's new rule is any but Monster and
    # Lari's: 8 x 10 = 80 assignments, Animal, Swimsuit and Food in 8 of them, the others in 7.
    state = rulebook_state().apply(Propose(g("Animal-Swimsuit-Food")))
    state = state.apply(DrawGuest(g("Robot-Costume-Food"))).apply(Guess(2, ANIMAL))
    state = state.apply(DrawRule(Attribute.PLANT))
    view = state.view(0)
    rng = random.Random(2)
    draws = 4000
    lari = Counter()
    ana = Counter()
    for _ in range(draws):
        sample = view.sample(rng)
        lari[sample.rules[1][-1]] += 1
        ana[sample.rules[2][-1]] += 1
    expected_ana = {a: Fraction(8 if a in (ANIMAL, Attribute.SWIMSUIT, Attribute.FOOD) else 7, 80)
                    for a in ATTRIBUTES if a != MONSTER}
    expected_lari = {a: Fraction(1, 8) for a in ATTRIBUTES
                     if a not in (ANIMAL, Attribute.SWIMSUIT, Attribute.FOOD, MONSTER)}
    for counts, expected in ((lari, expected_lari), (ana, expected_ana)):
        assert set(counts) == set(expected)
        for rule, p in expected.items():
            sigma = math.sqrt(draws * p * (1 - p))
            assert abs(counts[rule] - draws * p) < 4.5 * sigma, (rule, counts[rule])


@pytest.mark.parametrize("phase_after", ["propose", "right-guess"])
def test_pending_draws_round_trip_through_the_log(phase_after: str) -> None:
    state = rulebook_state()
    if phase_after == "propose":
        state = state.apply(Propose(g("Animal-Swimsuit-Food")))
        assert state.phase == DRAW_GUEST
    else:
        state = state.apply(Guess(2, ANIMAL))
        assert state.phase == DRAW_RULE
    document = GAME.state_to_document(state)
    again = GAME.state_from_document(document, "pending.toml")
    assert again.key() == state.key() and again.phase == state.phase


def test_rulebook_example_file_replays() -> None:
    log = load(SHIPPED / "examples" / "rulebook.toml")
    assert not log.problems()
    record = log.public()
    assert record.vips[1] == (g("Animal-Swimsuit-Food"),) and record.waiting == ()
    assert log.events[1] == GuessOutcome(1, 2, ANIMAL, True)


def test_a_deck_too_small_to_deal_is_a_problem() -> None:
    document = {"game": "pool-party-stars", "players": ["Dani", "Lari"],
                "deck": ["Animal-Swimsuit-Food"] * 5}
    problems = load_log(document, "small.toml").problems()
    assert [p.code for p in problems] == ["deck"]
    assert "too few to deal 3 to each of 2 players" in problems[0].message
    with pytest.raises(ValueError):
        PoolPartyState.deal(Table(("Dani", "Lari"), tuple(parse_guest("Animal-Swimsuit-Food")
                                                          for _ in range(5))), random.Random(0))

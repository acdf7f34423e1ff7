"""The rules of Epic Monster Tea Party, worked by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest
from tea_party_positions import counts, position

from partysolver.models.protocol import CHANCE, TERMINAL
from partysolver.models.tea_party import Cup, Draw, Hero, Squish, ThrowUp
from partysolver.models.tea_party.state import throw_up_outcomes, win_shares


def moves(state):
    return {str(m) for m in state.legal_actions()}


def test_a_turn_is_a_draw_then_a_choice() -> None:
    state = position({"fighter": 2, "ranger": 1})
    assert state.current_player() == CHANCE
    assert dict((str(a), p) for a, p in state.chance_outcomes()) == {
        "draw fighter": Fraction(2, 3), "draw ranger": Fraction(1, 3)}
    drawn = state.apply(Draw(Hero.FIGHTER))
    assert drawn.current_player() == 0 and drawn.held_hero == Hero.FIGHTER
    assert drawn.bag_counts() == counts({"fighter": 1, "ranger": 1})


def test_the_ranger_cannot_be_squished() -> None:
    state = position({"fighter": 1}, held="ranger")
    assert moves(state) == {"cup"}
    with pytest.raises(ValueError):
        state.apply(Squish(Hero.RANGER))


def test_cup_puts_the_hero_in_the_teacup_and_passes_the_turn() -> None:
    after = position({"fighter": 1}, held="wizard").apply(Cup())
    assert after.cup_counts(0) == counts({"wizard": 1})
    assert after.current_player() == CHANCE and after.player == 1


def test_fighter_drinks_the_whole_teacup() -> None:
    state = position({"cleric": 1}, cups=[{"rogue": 2, "cleric": 1}, {}], held="fighter")
    after = state.apply(Squish(Hero.FIGHTER))
    assert after.cup_counts(0) == counts({})
    assert after.stomach_counts(0) == counts({"rogue": 2, "cleric": 1})
    assert after.out_of_game()[Hero.FIGHTER] == 15  # the squished Fighter left the game


def test_a_ranger_drink_throws_up_two_heroes_at_random_once() -> None:
    state = position({"cleric": 1}, cups=[{"ranger": 2}, {}],
                     stomachs=[{"fighter": 2, "cleric": 1}, {}], held="fighter")
    after = state.apply(Squish(Hero.FIGHTER))
    assert after.current_player() == CHANCE and after.phase_name == "throw-up"
    # stomach: 2 Fighters, 1 Cleric, 2 Rangers = 5 heroes, 20 ordered pairs
    odds = {tuple(h.name for h in a.heroes): p for a, p in after.chance_outcomes()}
    assert odds == {
        ("FIGHTER", "FIGHTER"): Fraction(2, 20), ("FIGHTER", "CLERIC"): Fraction(4, 20),
        ("FIGHTER", "RANGER"): Fraction(8, 20), ("CLERIC", "RANGER"): Fraction(4, 20),
        ("RANGER", "RANGER"): Fraction(2, 20)}
    done = after.apply(ThrowUp((Hero.RANGER, Hero.RANGER)))
    assert done.stomach_counts(0) == counts({"fighter": 2, "cleric": 1})
    assert done.current_player() == CHANCE and done.phase_name == "draw" and done.player == 1


def test_throw_up_of_a_small_stomach_takes_what_there_is() -> None:
    ranger = counts({"ranger": 1})
    from partysolver.models.tea_party.state import pack

    assert [(str(a), p) for a, p in throw_up_outcomes(pack(ranger))] == [
        ("throw up ranger", Fraction(1))]


def test_cleric_draws_again_for_the_same_monster() -> None:
    state = position({"wizard": 1}, held="cleric")
    after = state.apply(Squish(Hero.CLERIC))
    assert after.current_player() == CHANCE and after.player == 0
    assert after.apply(Draw(Hero.WIZARD)).current_player() == 0


def test_cleric_with_an_empty_bag_does_nothing_and_the_game_ends() -> None:
    state = position({}, stomachs=[{"fighter": 1}, {}], held="cleric")
    after = state.apply(Squish(Hero.CLERIC))
    assert after.current_player() == TERMINAL
    assert after.returns() == (1.0, 0.0)


def test_rogue_steals_then_the_thief_chooses_again() -> None:
    state = position({"fighter": 1}, cups=[{}, {"ranger": 1, "king": 1}], held="rogue")
    assert moves(state) == {"cup", "squish on 2 take ranger", "squish on 2 take king"}
    stolen = state.apply(Squish(Hero.ROGUE, 1, Hero.KING))
    assert stolen.current_player() == 0 and stolen.held_hero == Hero.KING
    assert stolen.cup_counts(1) == counts({"ranger": 1})
    # a stolen Ranger must go in the cup
    ranger = state.apply(Squish(Hero.ROGUE, 1, Hero.RANGER))
    assert moves(ranger) == {"cup"}


def test_rogue_with_nothing_to_steal_is_a_plain_discard() -> None:
    state = position({"fighter": 1}, held="rogue")
    assert moves(state) == {"cup", "squish"}
    after = state.apply(Squish(Hero.ROGUE))
    assert after.player == 1 and after.out_of_game()[Hero.ROGUE] == 7


def test_wizard_pours_any_teacup_back_into_the_bag() -> None:
    state = position({"fighter": 1}, cups=[{"cleric": 1}, {"ranger": 2}], held="wizard")
    assert moves(state) == {"cup", "squish on 1", "squish on 2"}
    after = state.apply(Squish(Hero.WIZARD, 1))
    assert after.bag_counts() == counts({"fighter": 1, "ranger": 2})
    assert after.cup_counts(1) == counts({})


def test_a_wizard_may_pour_an_empty_teacup_a_free_discard() -> None:
    # Green's own teacup is empty: pouring it is legal, changes nothing, and is listed beside
    # the useful pour of Blue's teacup.
    state = position({"fighter": 1}, cups=[{"cleric": 1}, {}], held="wizard", current=1)
    assert moves(state) == {"cup", "squish on 1", "squish on 2"}
    idle = state.apply(Squish(Hero.WIZARD, 1))
    assert idle.player == 0 and idle.cups == state.cups and idle.bag == state.bag
    assert idle.out_of_game()[Hero.WIZARD] == 5
    assert state.describe_action(Squish(Hero.WIZARD, 1)) == \
        "squish the Wizard for no effect (pour your empty teacup)"


def test_empty_teacups_give_one_no_effect_option() -> None:
    state = position({"fighter": 1}, cups=[{}, {}, {"rogue": 1}], players=3, held="wizard")
    assert moves(state) == {"cup", "squish on 1", "squish on 3"}  # seats 1 and 2: one option
    nothing = position({"fighter": 1}, players=3, held="wizard")
    assert moves(nothing) == {"cup", "squish on 1"}
    assert nothing.apply(Squish(Hero.WIZARD)) == nothing.apply(Squish(Hero.WIZARD, 2))


def test_a_wizard_with_no_target_is_refused_when_every_teacup_is_full() -> None:
    state = position({"fighter": 1}, cups=[{"cleric": 1}, {"rogue": 1}], held="wizard")
    with pytest.raises(ValueError):
        state.apply(Squish(Hero.WIZARD))
    with pytest.raises(ValueError):
        state.apply(Squish(Hero.FIGHTER, 1))  # a Wizard in hand is not a Fighter


def test_a_wizard_pour_on_the_last_draw_keeps_the_game_going() -> None:
    state = position({}, cups=[{}, {"fighter": 1}], held="wizard")
    after = state.apply(Squish(Hero.WIZARD, 1))
    assert after.current_player() == CHANCE and after.player == 1
    assert after.bag_counts() == counts({"fighter": 1})


def test_bard_swaps_teacups() -> None:
    state = position({"fighter": 1}, cups=[{"cleric": 1}, {"queen": 1}], held="bard")
    after = state.apply(Squish(Hero.BARD, 1))
    assert after.cup_counts(0) == counts({"queen": 1})
    assert after.cup_counts(1) == counts({"cleric": 1})


def test_a_bard_may_swap_equal_teacups_a_free_discard() -> None:
    state = position({"fighter": 1}, cups=[{"cleric": 1}, {"cleric": 1}, {"rogue": 1}],
                     players=3, held="bard")
    assert moves(state) == {"cup", "squish on 2", "squish on 3"}
    assert state.apply(Squish(Hero.BARD, 1)).cups == state.cups
    assert "no effect" in state.describe_action(Squish(Hero.BARD, 1))
    with pytest.raises(ValueError):
        state.apply(Squish(Hero.BARD, 0))  # not with its own teacup


def test_a_royal_lists_one_no_effect_option_for_all_its_idle_copies() -> None:
    # An empty teacup (Fighter copy), an empty bag (Cleric), nothing to steal (Rogue), two
    # empty teacups (Wizard) and equal teacups (Bard): all the same state, one option.
    state = position({}, stomachs=[{"rogue": 1}, {}], held="king")
    assert moves(state) == {"cup", "squish as fighter"}
    assert state.describe_action(Squish(Hero.FIGHTER, copied=True)) == \
        "squish the King as a Fighter for no effect (your teacup is empty)"
    # With something in Blue's teacup, the idle Wizard (on Green's) is still listed.
    full = position({"fighter": 1}, cups=[{"ranger": 1}, {}], held="queen")
    assert moves(full) == {"cup", "squish as fighter", "squish as cleric",
                           "squish as rogue", "squish as wizard on 1", "squish as bard on 2"}
    assert not full.has_effect(Squish(Hero.ROGUE, copied=True))


def test_king_and_queen_copy_any_other_ability() -> None:
    state = position({"fighter": 1}, cups=[{"cleric": 1}, {"rogue": 1}], held="queen")
    assert moves(state) == {"cup", "squish as fighter", "squish as cleric",
                            "squish as rogue on 2 take rogue", "squish as wizard on 1",
                            "squish as wizard on 2", "squish as bard on 2"}
    with pytest.raises(ValueError):
        state.apply(Squish(Hero.WIZARD, 1))  # a Queen must say it copies


def test_end_of_game_everyone_drinks_with_the_ranger_rule() -> None:
    state = position({}, cups=[{"ranger": 1}, {"fighter": 3}],
                     stomachs=[{"wizard": 1}, {}], held="cleric")
    after = state.apply(Cup())
    # Blue drinks first: a Ranger, so Blue throws up (everything: 2 heroes + the cleric = 3)
    assert after.current_player() == CHANCE and after.thrower == 0
    outcome = next(a for a, _ in after.chance_outcomes()
                   if {h.name for h in a.heroes} == {"WIZARD", "RANGER"})
    final = after.apply(outcome)
    assert final.current_player() == TERMINAL
    assert final.stomach_counts(0) == counts({"cleric": 1})
    assert final.stomach_counts(1) == counts({"fighter": 3})
    assert final.returns() == (1.0, 0.0)  # 3 points each: a Cleric (3) beats Fighters (1)


@pytest.mark.parametrize(("blue", "green", "shares"), [
    ({"king": 1}, {"ranger": 1, "fighter": 1}, (1.0, 0.0)),          # a 7 beats a 6
    ({"ranger": 1, "fighter": 1}, {"wizard": 1, "fighter": 2}, (1.0, 0.0)),  # a 6 beats a 5
    ({"wizard": 2}, {"wizard": 1, "rogue": 1, "fighter": 1}, (1.0, 0.0)),    # 2 Wizards beat 1
    ({"king": 1}, {"queen": 1}, (0.5, 0.5)),                          # same rank: shared
    ({"ranger": 1}, {"bard": 1}, (0.5, 0.5)),
    ({"cleric": 2}, {"fighter": 6}, (1.0, 0.0)),
    ({"fighter": 7}, {"cleric": 2}, (1.0, 0.0)),                      # points first
])
def test_tie_break(blue, green, shares) -> None:
    from partysolver.models.tea_party.state import pack

    assert win_shares([pack(counts(blue)), pack(counts(green))]) == shares
    assert win_shares([pack(counts(green)), pack(counts(blue))]) == shares[::-1]


def test_three_way_tie_shares_a_third() -> None:
    from partysolver.models.tea_party.state import pack

    same = pack(counts({"rogue": 1}))
    assert win_shares([same, same, same]) == (1 / 3, 1 / 3, 1 / 3)


def test_turns_go_clockwise_around_the_table() -> None:
    state = position({"fighter": 3}, players=3, current=2, held="fighter")
    assert state.apply(Cup()).player == 0


def test_a_whole_game_uses_every_hero_once() -> None:
    import random

    from partysolver.models.protocol import sample_chance
    from partysolver.models.tea_party import TeaPartyState

    rng = random.Random(7)
    state = TeaPartyState.new_game(("A", "B", "C"))
    while state.current_player() != TERMINAL:
        if state.current_player() == CHANCE:
            state = state.apply(sample_chance(state, rng))
        else:
            state = state.apply(rng.choice(state.legal_actions()))
        total = [a + b for a, b in zip(state.out_of_game(), state.bag_counts(), strict=True)]
        for seat in range(3):
            total = [t + c + s for t, c, s in zip(total, state.cup_counts(seat),
                                                  state.stomach_counts(seat), strict=True)]
        if state.held_hero is not None:
            total[state.held_hero] += 1
        assert total == [15, 9, 7, 5, 4, 1, 1, 1]
    assert state.bag_size() == 0 and all(state.cups[s] == 0 for s in range(3))


def test_fast_sampling_matches_the_exact_odds() -> None:
    import random
    from collections import Counter

    from partysolver.models.tea_party.state import THROW_UP, TeaPartyState, pack

    rng = random.Random(1)
    stomach = pack(counts({"fighter": 2, "cleric": 1, "ranger": 2}))
    state = TeaPartyState(position({}).table, THROW_UP, 0, -1, 0, (0, 0), (stomach, 0), 0)
    for chance in (state, position({"fighter": 3, "ranger": 1, "king": 2})):
        odds = dict(chance.chance_outcomes())
        seen = Counter(chance.sample_outcome(rng) for _ in range(20_000))
        assert set(seen) == set(odds)
        for outcome, p in odds.items():
            assert abs(seen[outcome] / 20_000 - float(p)) < 0.015


def test_the_picture_shows_every_hero_type_inside_its_box() -> None:
    import xml.etree.ElementTree as ElementTree

    from partysolver.models.tea_party.render import WIDTH, render_svg

    every = {hero.name.lower(): 1 for hero in Hero}
    state = position({"fighter": 3, "cleric": 1, "rogue": 1, "wizard": 1, "ranger": 1},
                     cups=[every, {}], stomachs=[{}, every], held="bard")
    root = ElementTree.fromstring(render_svg(state))
    texts = [(float(t.get("x", 0)), t.text or "") for t in root.iter() if t.tag.endswith("text")]
    assert all(x < WIDTH - 15 for x, _ in texts)
    labels = [text for _, text in texts]
    for hero in Hero:  # once in Blue's teacup, once in Green's stomach; unique initials
        assert labels.count(hero.label[:2]) >= 2
    assert len({hero.label[:2] for hero in Hero}) == len(Hero)

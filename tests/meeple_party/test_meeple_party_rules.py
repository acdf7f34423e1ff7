"""The rules engine against the rulebook's own examples and hand-worked positions."""

from __future__ import annotations

import random

import pytest

from partysolver.models.documents import parse_document
from partysolver.models.meeple_party import data, load_state, new_game
from partysolver.models.meeple_party.game import (
    CAT,
    DOG,
    LAID,
    ROOMMATE,
    WHITE,
    Dealt,
    Drawn,
    Mingle,
    Pick,
    Refresh,
    StandUp,
    Welcome,
)
from partysolver.models.meeple_party.state import (
    EFFECT,
    LAY_DOWN,
    MINGLE,
    OVER,
    PLACE,
    REFRESH,
    RESTOCK,
    SURPRISE,
    MeeplePartyState,
)
from partysolver.models.protocol import CHANCE

EASY = data.house("easy")
FLIRT_PIECE, PARTY_ANIMAL_PIECE, COOL_PIECE, WALLFLOWER_PIECE, JERK_PIECE = range(5)


def names(house, rooms) -> set[str]:
    return {house.rooms[r].id for r in rooms}


def position(body: str = "", **settings: object) -> MeeplePartyState:
    """A position on the easy house with the house decks; ``body`` adds rooms and fields."""
    head = {"game": "meeple-party", "house": "easy", "difficulty": "standard"} | settings
    text = "\n".join(f"{k} = {v!r}".replace("'", '"') for k, v in head.items())
    text += """
active = "Ana"
[[players]]
name = "Ana"
roommate = "flirt"
photos = ["kitchen-flirting", "velvet-rope"]
disaster = "fight-club"
[[players]]
name = "Ben"
roommate = "cool"
photos = ["dance-off", "alone-at-last"]
disaster = "too-many-cooks"
""" + body
    if "[rooms." not in body:
        text += ROOMMATES
    return load_state(parse_document(text, "test.toml"), "test.toml")


ROOMMATES = """
[rooms.bedroom_1]
roommates = ["flirt"]
[rooms.bedroom_2]
roommates = ["cool"]
[rooms.kitchen]
roommates = ["wallflower"]
[rooms.dining_room]
roommates = ["jerk"]
[rooms.bathroom]
roommates = ["party_animal"]
"""


def welcome_targets(state: MeeplePartyState, room_id: str) -> set[tuple[str, ...]]:
    """The action targets of every welcome into a room, as readable step tuples."""
    room = EASY.index(room_id) if state.setup.house is EASY else state.setup.house.index(room_id)
    house = state.setup.house
    return {tuple(f"{s.piece}:{house.rooms[s.src].id}>{house.rooms[s.dst].id}" for s in a.steps)
            for a in state.legal_actions() if isinstance(a, Welcome) and a.room == room}


# -- the rulebook's movement examples -----------------------------------------------------------


def test_living_room_neighbours_are_the_rulebooks() -> None:
    """"If a Meeple was in the Living Room moving to an adjacent room would mean ... the
    Bathroom or Bedroom ... 2 rooms away ... the other Bedroom, the Front Door, or the Outside."""
    living = EASY.index("living_room")
    assert names(EASY, EASY.adjacent[living]) == {"bathroom", "bedroom_1"}
    assert names(EASY, EASY.two_away[living]) == {"bedroom_2", "door", "outside"}


def test_jerk_pushes_from_outside_follow_every_two_step_walk() -> None:
    """The rulebook's Jerk example lists the walks from the Outside (not only the shortest);
    its list leaves out Dining Room to Door, which the house's walls allow (see the spec)."""
    outside = EASY.index("outside")
    walks = {(EASY.rooms[mid].id, EASY.rooms[far].id)
             for mid in EASY.adjacent[outside] for far in EASY.adjacent[mid] if far != outside}
    assert walks == {("bathroom", "living_room"), ("bathroom", "bedroom_2"),
                     ("bathroom", "door"), ("door", "bathroom"), ("door", "bedroom_1"),
                     ("door", "dining_room"), ("dining_room", "kitchen"),
                     ("dining_room", "door")}
    state = position(drawn="jerk", body=ROOMMATES + "[rooms.outside]\nflirt = 1\n")
    pushes = welcome_targets(state, "outside")
    assert {step[0].split(">")[1] for step in pushes} == {
        "living_room", "bedroom_2", "door", "bathroom", "bedroom_1", "dining_room", "kitchen"}
    assert all(step[0].startswith(f"{FLIRT_PIECE}:outside") for step in pushes)


def test_a_flirt_in_the_garage_of_the_spread_out_house_pulls_only_from_the_bedroom() -> None:
    hard = data.house("hard")
    garage = hard.index("garage")
    assert names(hard, hard.adjacent[garage]) == {"bedroom_1"}
    state = new_game(2, random.Random(1), house="hard")
    pulls = {a.steps[0].src for a in state._with(phase=PLACE, drawn=0).legal_actions()
             if isinstance(a, Welcome) and a.room == garage and a.steps}
    assert pulls <= {hard.index("bedroom_1")}


def test_shipped_houses_pass_setup_for_their_tables_and_easy_is_easy() -> None:
    assert not data.house("easy").problems(4) and data.house("easy").is_easy()
    assert not data.house("hard").problems(4) and not data.house("hard").is_easy()
    assert not data.house("spa").problems(5)
    assert [p.code for p in data.house("easy").problems(5)] == ["bedrooms", "pillows"]


# -- meeple actions -------------------------------------------------------------------------------


def test_cool_pulls_two_and_identical_meeples_are_one_choice() -> None:
    body = ROOMMATES.replace("[rooms.kitchen]\n", "[rooms.kitchen]\nflirt = 3\n")
    state = position(body, drawn="cool")
    options = welcome_targets(state, "dining_room")
    # Kitchen: 3 Flirts + the Wallflower roommate; Outside, Door: empty.  Two Flirts is one
    # choice, a Flirt and the roommate another, whatever Flirt is taken.
    assert options == {(f"{FLIRT_PIECE}:kitchen>dining_room", f"{FLIRT_PIECE}:kitchen>dining_room"),
                       (f"{FLIRT_PIECE}:kitchen>dining_room",
                        f"{ROOMMATE + 3}:kitchen>dining_room")}


def test_cool_with_one_meeple_in_reach_pulls_just_that_one() -> None:
    layout = """
[rooms.bedroom_1]
roommates = ["flirt"]
[rooms.bedroom_2]
roommates = ["cool"]
[rooms.kitchen]
roommates = ["wallflower"]
[rooms.living_room]
roommates = ["jerk"]
[rooms.bathroom]
roommates = ["party_animal"]
"""
    state = position(drawn="cool", body=layout)
    assert welcome_targets(state, "outside") == {(f"{ROOMMATE + 1}:bathroom>outside",)}


def test_an_action_without_a_target_does_nothing_and_the_actor_never_moves_itself() -> None:
    state = position(ROOMMATES, drawn="wallflower")
    assert welcome_targets(state, "outside") == {()}
    state = position(ROOMMATES + "[rooms.outside]\nwallflower = 1\n", drawn="wallflower")
    pushed = welcome_targets(state, "outside")
    assert {p[0].split(":")[0] for p in pushed} == {str(WALLFLOWER_PIECE)}
    assert len(pushed) == len(EASY.adjacent[EASY.index("outside")])


def test_laid_down_meeples_are_not_pulled_and_standing_up_does_not_act() -> None:
    body = ROOMMATES.replace("[rooms.kitchen]\n", "[rooms.kitchen]\nlaid = { jerk = 1 }\n")
    state = position(body, drawn="flirt")
    assert all(step[0].split(":")[0] != str(JERK_PIECE + LAID)
               for step in welcome_targets(state, "dining_room") if step)
    state = state.apply(state.legal_actions()[0])
    assert state.phase == MINGLE
    kitchen = EASY.index("kitchen")
    stand = StandUp(JERK_PIECE + LAID, kitchen)
    assert stand in state.legal_actions()
    after = state.apply(stand)
    assert after.board[kitchen] - state.board[kitchen] == \
        (1 << 3 * JERK_PIECE) - (1 << 3 * (JERK_PIECE + LAID))
    assert after.phase == REFRESH and after.stress == state.stress


def test_mingling_a_white_meeple_draws_a_surprise_and_it_goes_back_to_the_bag() -> None:
    state = position(ROOMMATES + "[rooms.outside]\nwhite = 1\n[progress]\nphase = \"mingle\"\n"
                     "stage = \"mingle\"\n")
    move = Mingle(WHITE, EASY.index("outside"), EASY.index("door"))
    assert move in state.legal_actions()
    after = state.apply(move)
    assert after.phase == SURPRISE and after.current_player() == CHANCE
    conga = state.setup.cards.surprise_ids["mystery-guest"]
    stays = after.apply(Dealt("surprise", conga))
    assert stays.board[EASY.index("door")] >> (3 * WHITE) & 7 == 1  # "stays" card
    other = after.apply(Dealt("surprise", state.setup.cards.surprise_ids["spa-day"]))
    assert other.bag_counts()[WHITE] == state.bag_counts()[WHITE] + 1
    assert all(room >> (3 * WHITE) & 7 == 0 for room in other.board)


def test_dog_goes_to_any_room_with_a_roommate_and_cat_acts_as_the_chosen_personality() -> None:
    state = position(ROOMMATES + "[rooms.outside]\ndog = true\ncat = true\n[progress]\n"
                     "phase = \"mingle\"\nstage = \"mingle\"\n")
    dog = {a.dst for a in state.legal_actions() if isinstance(a, Mingle) and a.piece == DOG}
    assert names(EASY, dog) == {"bedroom_1", "bedroom_2", "kitchen", "dining_room", "bathroom"}
    cat = {a.as_kind for a in state.legal_actions() if isinstance(a, Mingle) and a.piece == CAT}
    assert cat == {0, 1, 2, 3, 4}


# -- steps 3 to 6 ----------------------------------------------------------------------------------


def refresh_state(body: str, **settings: object) -> MeeplePartyState:
    return position(body + "[progress]\nphase = \"refresh\"\nstage = \"mingle\"\n", **settings)


JERK_DINNER = ROOMMATES.replace('roommates = ["jerk"]', 'roommates = ["jerk"]\njerk = 1')
"""The Jerk roommate and a Jerk guest in the Dining Room: Ana's Fight Club is met."""


def test_a_party_foul_stresses_every_roommate_and_the_disaster_is_replaced() -> None:
    calm = refresh_state(ROOMMATES + "[rooms.door]\njerk = 1\n").apply(Refresh(None))
    assert calm.stress == (0, 0)
    after = refresh_state(JERK_DINNER).apply(Refresh(None))
    assert after.stress == (1, 1)
    assert after.phase == RESTOCK and ("disaster", 0, 0) in after.pending
    assert after.disasters[0] == -1
    capped = refresh_state(JERK_DINNER)._with(stress=(3, 1)).apply(Refresh(None))
    assert capped.stress == (3, 2)


def test_every_roommate_at_three_loses_the_party_before_photos() -> None:
    body = JERK_DINNER.replace("[rooms.kitchen]\n", "[rooms.kitchen]\nflirt = 2\n")
    state = refresh_state(body)._with(stress=(2, 2))
    after = state.apply(Refresh(None))
    assert after.phase == OVER and after.outcome == "lost" and after.returns() == (0.0, 0.0)
    assert after.taken == 0


def test_two_photos_in_one_turn_relieve_a_stress_and_the_clock_moves_twice() -> None:
    # Kitchen Flirting (2 Flirts in the Kitchen) and Velvet Rope (a Cool and a Jerk at the Door).
    body = ROOMMATES.replace("[rooms.kitchen]\n", "[rooms.kitchen]\nflirt = 2\n") + \
        "[rooms.door]\ncool = 1\njerk = 1\n"
    state = refresh_state(body, photos_taken=4)._with(stress=(1, 0))
    after = state.apply(Refresh(None))
    assert after.taken == 6 and after.stress == (0, 0)
    # from 2:00 (4 photos after 12:00) two spaces to 3:00: only Refresh Disasters acts,
    # the Add Surprise of 2:30 does not.
    assert after.clock_time() == "3:00" and after.by_clock == 2
    assert after.disasters == (-1, -1)
    assert set(after.pending) == {("photo", 0, 0), ("photo", 0, 1), ("disaster", 0, 0),
                                  ("disaster", 1, 0)}


def test_the_clock_only_acts_when_it_moves() -> None:
    body = ROOMMATES.replace("[rooms.kitchen]\n", "[rooms.kitchen]\nflirt = 2\n")
    state = refresh_state(body, photos_taken=3)  # 1:30 -> 2:00, Lay One Down
    after = state.apply(Refresh(None))
    assert after.phase == LAY_DOWN and after.clock_time() == "2:00"
    nothing = refresh_state(ROOMMATES, photos_taken=3).apply(Refresh(None))
    assert nothing.active == 1 and nothing.phase != LAY_DOWN


def test_winning_photo_ends_the_party() -> None:
    body = ROOMMATES.replace("[rooms.kitchen]\n", "[rooms.kitchen]\nflirt = 2\n")
    after = refresh_state(body, photos_taken=11).apply(Refresh(None))
    assert after.phase == OVER and after.outcome == "won" and after.returns() == (1.0, 1.0)


def test_the_stress_refresh_costs_one_stress_and_replaces_the_card() -> None:
    state = refresh_state(ROOMMATES)
    slot = ("disaster", 1, 0)
    assert Refresh(slot) in state.legal_actions()
    drawing = state.apply(Refresh(slot))
    assert drawing.stress == (1, 0) and drawing.current_player() == CHANCE
    card = drawing.chance_outcomes()[0][0]
    assert isinstance(card, Dealt)
    after = drawing.apply(card)
    assert after.disasters[1] == card.card
    maxed = refresh_state(ROOMMATES)._with(stress=(3, 0))
    assert maxed.legal_actions() == (Refresh(None),)


def test_the_hot_tub_relieves_and_takes_no_welcome() -> None:
    spa = data.house("spa")
    state = new_game(2, random.Random(3), house="spa")
    state = state._with(stress=(2, 2), disasters=(-1, -1), communal=-1)
    board = list(state.board)
    hot_tub = spa.index("hot_tub")
    mine = ROOMMATE + state.setup.roommates[0]
    for r, room in enumerate(board):
        if room >> (3 * mine) & 7:
            board[r] -= 1 << (3 * mine)
    board[hot_tub] += 1 << (3 * mine)
    state = state._with(board=tuple(board), phase=PLACE, drawn=0)
    welcomes = state.legal_actions()
    assert all(isinstance(a, Welcome) for a in welcomes)
    assert all(a.room not in (hot_tub, spa.index("office"))  # type: ignore[attr-defined]
               for a in welcomes)
    ended = state._with(phase=REFRESH, drawn=-1).apply(Refresh(None))
    assert ended.stress == (1, 2)


def test_sunrise_ends_a_party_that_never_finishes() -> None:
    after = new_game(1, random.Random(0), turn_limit=1)._with(phase=REFRESH)
    while after.phase != OVER and after.turn == 1:
        if after.current_player() == CHANCE:
            after = after.apply(after.chance_outcomes()[0][0])
        else:
            after = after.apply(after.legal_actions()[0])
    assert after.phase == OVER and after.outcome == "sunrise" and after.returns() == (0.0,)


# -- surprises -------------------------------------------------------------------------------------


def pick_actions(state: MeeplePartyState) -> list[Pick]:
    """The legal actions of a choice inside a surprise (each a :class:`Pick`)."""
    found = list(state.legal_actions())
    assert all(isinstance(a, Pick) for a in found)
    return found  # type: ignore[return-value]


def surprise(card: str, body: str) -> MeeplePartyState:
    state = position(body + "[progress]\nphase = \"surprise\"\nstage = \"welcome\"\nwhite = \"hand\"\n")
    return state.apply(Dealt("surprise", state.setup.cards.surprise_ids[card]))


def test_the_conga_line_moves_the_fullest_room_to_the_emptiest() -> None:
    body = ROOMMATES.replace("[rooms.kitchen]\n", "[rooms.kitchen]\nflirt = 2\njerk = 1\n"
                             "laid = { cool = 1 }\n")
    after = surprise("conga-line", body)
    kitchen = EASY.index("kitchen")
    # Kitchen (5 counted) is the fullest; Outside, Door and the Living Room are empty: a choice.
    assert after.phase == EFFECT and after.current_player() == 0
    picks = pick_actions(after)
    assert {names(EASY, [p.rooms[1]]).pop() for p in picks} == {"outside", "door", "living_room"}
    moved = after.apply(Pick((kitchen, EASY.index("outside"))))
    assert moved.board[kitchen] == 1 << 3 * (COOL_PIECE + LAID)  # the laid Cool stays
    assert moved.phase == MINGLE and moved.bag_counts()[WHITE] == after.bag_counts()[WHITE] + 1


def test_the_fire_fighter_removes_three_guests_never_roommates_or_laid_meeples() -> None:
    body = ROOMMATES.replace("[rooms.kitchen]\n", "[rooms.kitchen]\nflirt = 2\njerk = 1\n"
                             "cool = 1\nlaid = { cool = 1 }\n")
    after = surprise("fire-fighter", body)
    options = after.legal_actions()
    assert len(options) == 3  # which 3 of {2 Flirts, a Jerk, a Cool}: leave a Flirt, Jerk or Cool
    kitchen = EASY.index("kitchen")
    left = after.apply(options[0]).board[kitchen]
    assert left >> (3 * (ROOMMATE + 3)) & 7 == 1 and left >> (3 * (COOL_PIECE + LAID)) & 7 == 1
    one = surprise("fire-fighter", ROOMMATES.replace("[rooms.kitchen]\n",
                                                     "[rooms.kitchen]\nflirt = 1\n"))
    assert one.phase == MINGLE and one.board[kitchen] == 1 << 3 * (ROOMMATE + 3)
    assert one.bag_counts()[0] == 6


def test_party_crashers_join_at_the_door_without_acting() -> None:
    after = surprise("party-crasher", ROOMMATES)
    assert after.current_player() == CHANCE
    first = after.apply(Drawn(JERK_PIECE))
    second = first.apply(Drawn(JERK_PIECE))
    assert second.phase == MINGLE
    assert second.board[EASY.index("door")] >> (3 * JERK_PIECE) & 7 == 2


def test_a_stress_surprise_can_end_the_party_at_once() -> None:
    state = surprise("drama-llama", ROOMMATES)  # every other roommate takes 1
    assert state.stress == (0, 1)
    lost = position(ROOMMATES + "[progress]\nphase = \"surprise\"\nstage = \"welcome\"\n"
                    "white = \"hand\"\n")._with(stress=(3, 2))
    after = lost.apply(Dealt("surprise", lost.setup.cards.surprise_ids["drama-llama"]))
    assert after.phase == OVER and after.outcome == "lost"


@pytest.mark.parametrize("players", [1, 3, 5])
def test_new_games_deal_by_difficulty(players: int) -> None:
    for difficulty, personal, communal in (("easy", False, True), ("standard", True, False),
                                           ("hard", True, True)):
        state = new_game(players, random.Random(players), difficulty=difficulty)
        assert all(all(c >= 0 for c in pair) for pair in state.photos)
        assert all((d >= 0) == personal for d in state.disasters)
        assert (state.communal >= 0) == communal
        rooms = [r for p in range(5) for r, room in enumerate(state.board)
                 if room >> (3 * (ROOMMATE + p)) & 7]
        assert len(set(rooms)) == 5


def test_hot_tub_challenge_takes_out_the_eight_named_disasters() -> None:
    state = new_game(2, random.Random(0), variant="hot-tub")
    cards = state.setup.cards
    named = {"noise-violation", "overcrowding", "jealous-rage", "heated-debate",
             "peer-pressure", "dirty-tricks", "scandal", "fight-club"}
    left = {cards.disasters[c].id for c in (*state.disaster_deck, *state.disasters)}
    assert not left & named and len(left) == 16
    assert state.photos == ((-1, -1), (-1, -1))


def count(state: MeeplePartyState, room_id: str, piece: int) -> int:
    return state.board[EASY.index(room_id)] >> (3 * piece) & 7


def test_a_kind_from_everywhere_moves_standing_meeples_roommates_included() -> None:
    body = ROOMMATES + ("[rooms.outside]\nparty_animal = 2\n"
                        "[rooms.living_room]\nlaid = { party_animal = 1 }\n")
    after = surprise("pizza-delivery", body)  # every Party Animal to the Kitchen
    assert after.phase == MINGLE  # one Kitchen: nothing to choose
    assert count(after, "kitchen", PARTY_ANIMAL_PIECE) == 2
    assert count(after, "kitchen", ROOMMATE + PARTY_ANIMAL_PIECE) == 1
    assert count(after, "outside", PARTY_ANIMAL_PIECE) == 0
    assert count(after, "living_room", PARTY_ANIMAL_PIECE + LAID) == 1  # laid ones stay


def test_a_move_from_any_room_is_the_active_players_choice() -> None:
    body = ROOMMATES.replace("[rooms.kitchen]\n", "[rooms.kitchen]\njerk = 1\n")
    after = surprise("fire-drill", body)  # every meeple of one room goes Outside
    assert after.phase == EFFECT and after.current_player() == 0
    sources = {names(EASY, [p.rooms[0]]).pop() for p in pick_actions(after)}
    # Every room but the Outside and the empty rooms (empty ones change nothing).
    assert {"kitchen", "dining_room", "bathroom", "bedroom_1", "bedroom_2"} <= sources
    moved = after.apply(next(p for p in pick_actions(after)
                             if p.rooms[0] == EASY.index("kitchen")))
    assert count(moved, "outside", JERK_PIECE) == 1
    assert count(moved, "outside", ROOMMATE + WALLFLOWER_PIECE) == 1
    assert moved.board[EASY.index("kitchen")] == 0


def test_lay_down_one_of_a_kind_is_a_choice_and_all_of_a_room_is_not() -> None:
    body = ROOMMATES.replace("[rooms.kitchen]\n", "[rooms.kitchen]\nflirt = 2\njerk = 1\n") + \
        "[rooms.outside]\nflirt = 1\n"
    after = surprise("snooping-ex", body)  # the active player takes 1; lay down 1 Flirt
    assert after.stress == (1, 0) and after.phase == EFFECT
    options = pick_actions(after)
    # The Flirt roommate (Bedroom 1), a Kitchen Flirt, the Outside Flirt: two Kitchen Flirts are one.
    assert len(options) == 3
    laid = after.apply(next(p for p in options if p.meeples[0][0] == EASY.index("kitchen")))
    assert count(laid, "kitchen", FLIRT_PIECE) == 1 and count(laid, "kitchen", FLIRT_PIECE + LAID) == 1
    coma = surprise("food-coma", body)  # every guest in the Kitchen lies down
    assert coma.phase == MINGLE
    assert count(coma, "kitchen", FLIRT_PIECE + LAID) == 2 and count(coma, "kitchen", JERK_PIECE + LAID) == 1
    assert count(coma, "kitchen", ROOMMATE + WALLFLOWER_PIECE) == 1  # roommates are not guests


def test_stand_up_everywhere_and_stress_relief_floored_at_zero() -> None:
    body = ROOMMATES + "[rooms.outside]\nlaid = { jerk = 2, cool = 1 }\n"
    woken = surprise("wake-up-call", body)
    assert count(woken, "outside", JERK_PIECE) == 2 and count(woken, "outside", COOL_PIECE) == 1
    assert count(woken, "outside", JERK_PIECE + LAID) == 0
    spa = position(ROOMMATES + "[progress]\nphase = \"surprise\"\nstage = \"welcome\"\n"
                   "white = \"hand\"\n")._with(stress=(2, 0))
    relaxed = spa.apply(Dealt("surprise", spa.setup.cards.surprise_ids["group-hug"]))
    assert relaxed.stress == (1, 0)  # every roommate relieves 1; none goes below 0
    own = spa.apply(Dealt("surprise", spa.setup.cards.surprise_ids["spa-day"]))
    assert own.stress == (1, 0)


def test_stress_to_the_roommates_in_a_room() -> None:
    body = ROOMMATES.replace("[rooms.bedroom_2]\nroommates = [\"cool\"]",
                             "[rooms.living_room]\nroommates = [\"cool\"]")
    after = surprise("the-landlord", body)  # roommates in the Living Room take 1
    assert after.stress == (0, 1)
    assert count(after, "door", WHITE) == 1  # the Landlord stays at the party


def test_ending_fouls_name_what_step_three_sets_off() -> None:
    """`ending_fouls(action)` names the disasters that go off when `action` ends the turn:
    over random playouts, each foul raises every player's stress by one (less at most one for
    a roommate's relief; capped), and a turn that ends with none raises no player's stress
    but the active player's own refresh."""
    from meeple_party_helpers import random_small

    from partysolver.models.meeple_party.game import Dealt, Refresh
    from partysolver.models.meeple_party.state import MAX_STRESS, OVER, REFRESH, REFRESH_DRAW
    from partysolver.models.protocol import sample_chance

    fouled = quiet = 0
    for seed in range(20):
        rng = random.Random(seed)
        state = random_small(seed, guests=6)
        for _ in range(400):
            if state.phase == OVER:
                break
            if state.current_player() == CHANCE:
                action = sample_chance(state, rng)
            else:
                action = rng.choice(state.legal_actions())
            fouls = state.ending_fouls(action)
            after = state.apply(action)
            ending = (state.phase == REFRESH and isinstance(action, Refresh)
                      and action.slot is None) or \
                (state.phase == REFRESH_DRAW and isinstance(action, Dealt))
            assert not fouls or ending
            if ending and after.phase != OVER:
                for seat, before in enumerate(state.stress):
                    raised = min(MAX_STRESS, before + len(fouls))
                    relief = 2 if seat == state.active else 1  # a roommate; both photos
                    assert raised - relief <= after.stress[seat] <= raised
                fouled += bool(fouls)
                quiet += not fouls
            state = after
    assert fouled > 0 and quiet > 0

"""The Meeple Party state: the board as counts per room, the bag, the cards and the turn's phase.

A turn follows the rulebook's six steps, as phases of this state:

1. ``draw`` (chance: a meeple from the bag), then ``place`` (welcome the guest into a room and
   carry out its action, one decision) or, for a white meeple, ``surprise`` (chance: the top
   surprise card) and its ``effect`` decisions and draws;
2. ``mingle``: move a standing meeple to an adjacent room and carry out its action, or stand a
   laid-down meeple up (a mingled white meeple draws a surprise instead);
   then ``refresh``: the optional stress refresh (take 1 stress to replace any one photo or
   disaster at the table; ``refresh-draw`` is the chance of the new card);
3. and 4. (no decision) party fouls from the active player's and the communal disaster, then
   the active player's photos, the photo bonus and the Hot Tub's relief;
5. the clock's icon when it moved (a surprise, a welcome, a guest at the Door, ``lay-down``...);
6. ``restock`` (chance: new cards for the empty slots), then the next player's turn.

Identical meeples in a room are one choice: moves name pieces and rooms, never individuals.
``key()`` is a tuple of counts and card indices; the bag and the decks are multisets (sorted
tuples of counts or card indices), or sequences when the setup is ``ordered`` (scenarios).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, fields
from fractions import Fraction
from typing import Any

from ..protocol import CHANCE, TERMINAL, Action, PerfectInformationView
from . import effects as fx
from .board import (
    UNIT,
    Board,
    MingleCode,
    action_outcomes,
    add,
    apply_steps,
    counted,
    lay_down,
    mingle_boards,
    move,
    roommate_room,
    stand_up,
    standing_in,
)
from .game import (
    BAG_KINDS,
    CAT,
    CLOCK_SPACES,
    DOG,
    MAX_STRESS,
    PERSONALITIES,
    WHITE,
    Dealt,
    Drawn,
    Mingle,
    Pick,
    Refresh,
    Slot,
    StandUp,
    Step,
    Welcome,
    piece_label,
    space_time,
)
from .setup import Setup

DRAW, PLACE, SURPRISE, EFFECT, MINGLE, REFRESH, REFRESH_DRAW, LAY_DOWN, RESTOCK, OVER = range(10)
PHASES = ("draw", "place", "surprise", "effect", "mingle", "refresh", "refresh-draw",
          "lay-down", "restock", "over")
TURN, MINGLING, CLOCK = range(3)
STAGES = ("welcome", "mingle", "clock")
"""Which part of the turn a draw or a surprise belongs to (what follows it)."""

NO_WHITE, WELCOMED_WHITE = -2, -1
"""``white``: no surprise meeple in hand, or one drawn at the welcome; ``r >= 0``: one mingled
into room ``r`` (it comes back there if its card says it stays)."""

OUTCOMES = ("won", "lost", "sunrise", "hot-tub")


@dataclass(frozen=True, slots=True)
class MeeplePartyState:
    """An immutable Meeple Party position (see the module docstring for the phases)."""

    setup: Setup
    board: Board
    bag: tuple[int, ...]
    """Counts per bag kind (flirt ... jerk, white), or the bag's order when ``ordered``."""
    by_clock: int
    stress: tuple[int, ...]
    photos: tuple[tuple[int, int], ...]
    """Each seat's two photo opportunities (card indices; ``-1``: an empty slot)."""
    disasters: tuple[int, ...]
    communal: int
    photo_deck: tuple[int, ...]
    disaster_deck: tuple[int, ...]
    surprise_deck: tuple[int, ...]
    taken: int
    """Photos taken so far: the clock stands ``taken`` spaces after the start."""
    turn: int
    active: int
    phase: int
    stage: int = TURN
    drawn: int = -1
    surprise: int = -1
    effect: int = 0
    adding: int = 0
    white: int = NO_WHITE
    pending: tuple[Slot, ...] = ()
    outcome: str = ""

    # -- the protocol ------------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        return self.setup.num_players

    def current_player(self) -> int:
        phase = self.phase
        if phase == OVER:
            return TERMINAL
        if phase in (DRAW, SURPRISE, REFRESH_DRAW, RESTOCK):
            return CHANCE
        if phase == EFFECT and self.drawn < 0 and self._effect().do == "add":
            return CHANCE
        return self.active

    def legal_actions(self) -> Sequence[Action]:
        """Decisions in a fixed order: rooms in house order, pieces in piece order."""
        phase = self.phase
        if self.current_player() < 0:
            return ()
        if phase == PLACE:
            if self.stage == CLOCK and self.clock_icon() == "add_guest":
                return tuple(Pick((door,)) for door in self.setup.house.doors)
            return tuple(action for action, _ in self.welcomes())
        if phase == MINGLE:
            return tuple(action for action, _ in self.mingles())
        if phase == REFRESH:
            return (Refresh(None), *(Refresh(slot) for slot in self.refreshable()))
        if phase == LAY_DOWN:
            return tuple(Pick((), ((room, piece),)) for room, piece in self.layable())
        assert phase == EFFECT
        if self.drawn >= 0:
            return tuple(Pick((door,)) for door in self.setup.house.doors)
        return tuple(pick for pick, _, _ in self.effect_choices())

    def chance_outcomes(self) -> Sequence[tuple[Action, Fraction]]:
        phase = self.phase
        if phase in (DRAW, EFFECT):
            return self.bag_outcomes()
        if phase == SURPRISE:
            return deck_outcomes("surprise", self.surprise_deck, self.setup.ordered)
        if phase in (REFRESH_DRAW, RESTOCK):
            deck = slot_deck(self.pending[0])
            return deck_outcomes(deck, self.deck(deck), self.setup.ordered)
        return ()

    def apply(self, action: Action) -> MeeplePartyState:
        phase = self.phase
        if phase == DRAW:
            assert isinstance(action, Drawn)
            return self._drawn(action.kind)
        if phase == PLACE:
            if isinstance(action, Pick):
                state = self._with(board=add(self.board, self.drawn, action.rooms[0]), drawn=-1)
                return state._to_restock()
            assert isinstance(action, Welcome)
            return self._welcome(action)
        if phase == SURPRISE:
            assert isinstance(action, Dealt)
            return self._surprise_drawn(action.card)
        if phase == EFFECT:
            return self._effect_done(action)
        if phase == MINGLE:
            return self._mingled(action)
        if phase == REFRESH:
            assert isinstance(action, Refresh)
            return self._refreshed(action.slot)
        if phase == REFRESH_DRAW:
            assert isinstance(action, Dealt)
            state = self._dealt(action)
            return state._steps_three_and_four()
        if phase == LAY_DOWN:
            assert isinstance(action, Pick)
            room, piece = action.meeples[0]
            return self._with(board=lay_down(self.board, piece, room))._to_restock()
        if phase == RESTOCK:
            assert isinstance(action, Dealt)
            return self._dealt(action)._to_restock()
        raise ValueError("the party is over: no action applies")

    def returns(self) -> tuple[float, ...]:
        """Cooperative: every seat gets 1.0 for a won party, 0.0 otherwise; in the Hot Tub
        challenge, the share of the 30 guests in the Hot Tub (capped at 1)."""
        if self.setup.variant == "hot-tub":
            value = min(1.0, self.hot_tub_count() / 30)
        else:
            value = 1.0 if self.outcome == "won" else 0.0
        return (value,) * self.num_players

    def key(self) -> Hashable:
        return (self.setup.fingerprint, self.board, self.bag, self.by_clock, self.stress,
                self.photos, self.disasters, self.communal, self.photo_deck,
                self.disaster_deck, self.surprise_deck, self.taken, self.turn, self.active,
                self.phase, self.stage, self.drawn, self.surprise, self.effect, self.adding,
                self.white, self.pending, self.outcome)

    def view(self, player: int) -> PerfectInformationView:
        """Everything at the table is public; the deck order is unknown to everyone alike
        (chance), so each player's view is the whole state."""
        return PerfectInformationView(self, player)

    def describe_action(self, action: Action) -> str:
        return describe(self, action)

    # -- what the state knows ----------------------------------------------------------------

    @property
    def house(self) -> Any:
        return self.setup.house

    @property
    def active_personality(self) -> int:
        return self.setup.roommates[self.active]

    def clock_space(self) -> int:
        return (self.setup.start_space + self.taken) % CLOCK_SPACES

    def clock_time(self) -> str:
        return space_time(self.clock_space())

    def clock_icon(self) -> str:
        return self.setup.clock.icons[self.clock_space()]

    def deck(self, name: str) -> tuple[int, ...]:
        return {"photo": self.photo_deck, "disaster": self.disaster_deck,
                "surprise": self.surprise_deck}[name]

    def bag_size(self) -> int:
        """Meeples in the bag (an ordered bag is a sequence of kinds, so not ``any(bag)``)."""
        return len(self.bag) if self.setup.ordered else sum(self.bag)

    def bag_counts(self) -> tuple[int, ...]:
        if not self.setup.ordered:
            return self.bag
        return tuple(self.bag.count(k) for k in range(len(BAG_KINDS)))

    def bag_outcomes(self) -> list[tuple[Action, Fraction]]:
        if self.setup.ordered:
            return [(Drawn(self.bag[0] if self.bag else -1), Fraction(1))]
        total = sum(self.bag)
        if not total:
            return [(Drawn(-1), Fraction(1))]
        return [(Drawn(k), Fraction(n, total)) for k, n in enumerate(self.bag) if n]

    def hot_tub_count(self) -> int:
        return sum(counted(self.board[r]) for r in self.setup.house.of_kind("hot_tub"))

    def card_at(self, slot: Slot) -> int:
        kind, seat, index = slot
        if kind == "photo":
            return self.photos[seat][index]
        if kind == "disaster":
            return self.disasters[seat]
        return self.communal

    def slots(self) -> list[Slot]:
        """Every card slot of this game, photos first, in seat order."""
        found: list[Slot] = []
        n = self.num_players
        if self.setup.uses_photos:
            found += [("photo", seat, i) for seat in range(n) for i in range(2)]
        if self.setup.personal_disasters:
            found += [("disaster", seat, 0) for seat in range(n)]
        if self.setup.communal_disaster:
            found.append(("communal", -1, 0))
        return found

    def refreshable(self) -> list[Slot]:
        """Slots the active player may refresh (a card there, and one left in its deck)."""
        if self.stress[self.active] >= MAX_STRESS:
            return []
        return [slot for slot in self.slots()
                if self.card_at(slot) >= 0 and self.deck(slot_deck(slot))]

    def welcomes(self) -> list[tuple[Welcome, Board]]:
        """Every distinct welcome of the drawn guest: room, then its action's targets."""
        found = []
        kind = self.drawn
        for room in self.setup.house.welcome_rooms:
            placed = add(self.board, kind, room)
            for steps, board in action_outcomes(placed, self.setup.house, kind, room, kind):
                found.append((Welcome(room, steps), board))
        return found

    def mingles(self) -> list[tuple[Mingle | StandUp, Board]]:
        """Every distinct mingle: a standing meeple to a room and its action, or a stand-up.
        A mingled white meeple's board is the one before its surprise."""
        return [(mingle_action(code), board)
                for code, board in mingle_boards(self.board, self.setup.house)]

    def layable(self) -> list[tuple[int, int]]:
        """``(room, piece)`` the Lay One Down icon may pick (any standing meeple, no pet)."""
        return [(room, piece) for room, here in enumerate(self.board)
                for piece in standing_in(here) if piece not in (CAT, DOG)]

    def _effect(self) -> Any:
        return self.setup.cards.surprises[self.surprise].effects[self.effect]

    def effect_choices(self) -> list[fx.Choice]:
        return fx.choices(self._effect(), self.setup.house, self.board, self.active_personality)

    def photo_met(self, card: int, board: Board | None = None) -> bool:
        condition = self.setup.condition("photo", card, self.active_personality)
        return condition.met(self.board if board is None else board)

    def disaster_met(self, card: int, board: Board | None = None) -> bool:
        condition = self.setup.condition("disaster", card, self.active_personality)
        return condition.met(self.board if board is None else board)

    def checked_disasters(self) -> list[Slot]:
        """The disasters step 3 checks on this turn: the active player's and the communal."""
        found: list[Slot] = []
        if self.disasters and self.disasters[self.active] >= 0:
            found.append(("disaster", self.active, 0))
        if self.communal >= 0:
            found.append(("communal", -1, 0))
        return found

    # -- transitions -------------------------------------------------------------------------

    def _with(self, **changes: Any) -> MeeplePartyState:
        values: list[Any] = [self.setup, self.board, self.bag, self.by_clock, self.stress, self.photos,
                  self.disasters, self.communal, self.photo_deck, self.disaster_deck,
                  self.surprise_deck, self.taken, self.turn, self.active, self.phase, self.stage,
                  self.drawn, self.surprise, self.effect, self.adding, self.white, self.pending,
                  self.outcome]
        for name, value in changes.items():
            values[FIELD_INDEX[name]] = value
        return MeeplePartyState(*values)

    def _drawn(self, kind: int) -> MeeplePartyState:
        icon = self.clock_icon() if self.stage == CLOCK else ""
        if kind < 0:
            return self._to_mingle() if self.stage == TURN else self._to_restock()
        state = self._with(bag=bag_without(self.bag, kind, self.setup.ordered))
        if icon == "add_guest":
            doors = self.setup.house.doors
            if len(doors) == 1:
                return state._with(board=add(state.board, kind, doors[0]))._to_restock()
            return state._with(phase=PLACE, drawn=kind)
        if kind == WHITE:
            return state._with(phase=SURPRISE, white=WELCOMED_WHITE)
        return state._with(phase=PLACE, drawn=kind)

    def _welcome(self, action: Welcome) -> MeeplePartyState:
        board = apply_steps(add(self.board, self.drawn, action.room), action.steps)
        state = self._with(board=board, drawn=-1)
        return state._to_mingle() if self.stage == TURN else state._to_restock()

    def _surprise_drawn(self, card: int) -> MeeplePartyState:
        if card < 0:
            return self._end_surprise()
        deck = deck_without(self.surprise_deck, card, self.setup.ordered)
        return self._with(surprise_deck=deck, surprise=card, effect=0, adding=0)._run_effects()

    def _run_effects(self) -> MeeplePartyState:
        """Carry out the surprise's effects up to the next decision or draw."""
        state = self
        effects = state.setup.cards.surprises[state.surprise].effects
        while state.effect < len(effects):
            effect = effects[state.effect]
            if effect.do == "stress":
                state = state._stress_effect(effect)
                if state.phase == OVER:
                    return state
                state = state._with(effect=state.effect + 1)
                continue
            if effect.do == "add":
                adding = state.adding or effect.count
                if not state.bag_size():
                    state = state._with(effect=state.effect + 1, adding=0)
                    continue
                return state._with(phase=EFFECT, adding=adding, drawn=-1)
            options = fx.choices(effect, state.setup.house, state.board,
                                 state.active_personality)
            if len(options) > 1:
                return state._with(phase=EFFECT)
            _, board, back = options[0]
            state = state._with(board=board, bag=bag_with(state.bag, back, state.setup.ordered),
                                effect=state.effect + 1)
        return state._end_surprise()

    def _effect_done(self, action: Action) -> MeeplePartyState:
        if isinstance(action, Drawn):
            state = self._with(bag=bag_without(self.bag, action.kind, self.setup.ordered))
            doors = self.setup.house.doors
            if len(doors) > 1:
                return state._with(drawn=action.kind)
            return state._added(action.kind, doors[0])
        assert isinstance(action, Pick)
        if self.drawn >= 0:
            return self._added(self.drawn, action.rooms[0])
        _, board, back = fx.apply_pick(self._effect(), self.setup.house, self.board,
                                       self.active_personality, action)
        return self._picked(board, back)

    def _picked(self, board: Board, back: tuple[int, ...]) -> MeeplePartyState:
        return self._with(board=board, bag=bag_with(self.bag, back, self.setup.ordered),
                          effect=self.effect + 1)._run_effects()

    def children(self) -> list[tuple[Action, MeeplePartyState]]:
        """Every legal action with the position it leads to (what ``apply`` gives, computed
        without looking each action up again)."""
        if self.phase == PLACE and not (self.stage == CLOCK and self.clock_icon() == "add_guest"):
            found: list[tuple[Action, MeeplePartyState]] = []
            for action, board in self.welcomes():
                child = self._with(board=board, drawn=-1)
                found.append((action, child._to_mingle() if self.stage == TURN
                              else child._to_restock()))
            return found
        if self.phase == EFFECT and self.drawn < 0 and self.current_player() >= 0:
            return [(pick, self._picked(board, back))
                    for pick, board, back in self.effect_choices()]
        return [(action, self.apply(action)) for action in self.legal_actions()]

    def _added(self, kind: int, door: int) -> MeeplePartyState:
        adding = self.adding - 1
        state = self._with(board=add(self.board, kind, door), drawn=-1, adding=adding)
        if adding <= 0 or not state.bag_size():
            state = state._with(effect=state.effect + 1, adding=0)
        return state._run_effects()

    def _stress_effect(self, effect: Any) -> MeeplePartyState:
        stress = stress_after(self, effect, self.board, self.stress)
        return self._with(stress=stress)._check_stressed_out()

    def _check_stressed_out(self) -> MeeplePartyState:
        if all(s >= MAX_STRESS for s in self.stress):
            return self._with(phase=OVER, outcome="lost", drawn=-1, pending=())
        return self

    def _end_surprise(self) -> MeeplePartyState:
        stays = self.surprise >= 0 and self.setup.cards.surprises[self.surprise].stays
        board, bag = self.board, self.bag
        if self.white == WELCOMED_WHITE:
            if stays:
                board = add(board, WHITE, self.setup.house.doors[0])
            else:
                bag = bag_with(bag, (WHITE,), self.setup.ordered)
        elif self.white >= 0:
            if stays:
                board = add(board, WHITE, self.white)
            else:
                bag = bag_with(bag, (WHITE,), self.setup.ordered)
        state = self._with(board=board, bag=bag, white=NO_WHITE, surprise=-1, effect=0,
                           adding=0, drawn=-1)
        if self.stage == TURN:
            return state._to_mingle()
        if self.stage == MINGLING:
            return state._to_refresh()
        return state._to_restock()

    def _to_mingle(self) -> MeeplePartyState:
        return self._with(phase=MINGLE, stage=MINGLING, drawn=-1)

    def _mingled(self, action: Action) -> MeeplePartyState:
        if isinstance(action, StandUp):
            return self._with(board=stand_up(self.board, action.piece, action.room))._to_refresh()
        assert isinstance(action, Mingle)
        if action.piece == WHITE:
            rooms = list(self.board)
            rooms[action.src] -= UNIT[WHITE]
            return self._with(board=tuple(rooms), phase=SURPRISE, white=action.dst)
        board = apply_steps(move(self.board, action.piece, action.src, action.dst), action.steps)
        return self._with(board=board)._to_refresh()

    def _to_refresh(self) -> MeeplePartyState:
        """Every turn stops here before step 3, even when no refresh is possible (then the only
        choice is "no refresh"): the one point where the turn's meeple moves are all done."""
        return self._with(phase=REFRESH)

    def ending_fouls(self, action: Action) -> list[int]:
        """The disaster cards that go off (party fouls) at the end of the turn that ``action``
        ends: step 3 checks the active player's and the communal disaster on the board the
        turn left.  Empty when ``action`` does not end the turn (a refresh choice that draws
        a card first, any other step)."""
        if self.phase == REFRESH and isinstance(action, Refresh) and action.slot is None:
            state = self
        elif self.phase == REFRESH_DRAW and isinstance(action, Dealt):
            state = self._dealt(action)
        else:
            return []
        return [state.card_at(slot) for slot in state.checked_disasters()
                if state.disaster_met(state.card_at(slot), state.board)]

    def _refreshed(self, slot: Slot | None) -> MeeplePartyState:
        if slot is None:
            return self._steps_three_and_four()
        stress = list(self.stress)
        stress[self.active] += 1
        state = self._with(stress=tuple(stress))._check_stressed_out()
        if state.phase == OVER:
            return state
        state = state._set_card(slot, -1)
        if slot[0] == "photo":
            slot = ("photo", slot[1], state.photos[slot[1]].index(-1))
        return state._with(phase=REFRESH_DRAW, pending=(slot,))

    def _set_card(self, slot: Slot, card: int) -> MeeplePartyState:
        kind, seat, index = slot
        if kind == "photo":
            photos = list(self.photos)
            pair = list(photos[seat])
            pair[index] = card
            photos[seat] = photo_pair(pair)
            return self._with(photos=tuple(photos))
        if kind == "disaster":
            disasters = list(self.disasters)
            disasters[seat] = card
            return self._with(disasters=tuple(disasters))
        return self._with(communal=card)

    def _dealt(self, action: Dealt) -> MeeplePartyState:
        slot = self.pending[0]
        state = self._with(pending=self.pending[1:])
        if action.card < 0:
            return state
        deck = deck_without(self.deck(action.deck), action.card, self.setup.ordered)
        state = state._set_card(slot, action.card)
        return state._with(**{f"{action.deck}_deck": deck})

    def _steps_three_and_four(self) -> MeeplePartyState:
        """Step 3 (party fouls), step 4 (photos, the bonus), the Hot Tub, then the clock."""
        state = self._with(phase=REFRESH, pending=())
        board = state.board
        fouls = [slot for slot in state.checked_disasters()
                 if state.disaster_met(state.card_at(slot), board)]
        stress = list(state.stress)
        for _ in fouls:
            stress = [min(MAX_STRESS, s + 1) for s in stress]
        state = state._with(stress=tuple(stress))._check_stressed_out()
        if state.phase == OVER:
            return state
        for slot in fouls:
            state = state._set_card(slot, -1)
        taken: list[Slot] = []
        if state.setup.uses_photos:
            seat = state.active
            pair = state.photos[seat]
            kept = [card for card in pair if card >= 0 and not state.photo_met(card, board)]
            met = sum(1 for card in pair if card >= 0) - len(kept)
            if met:
                photos = list(state.photos)
                photos[seat] = photo_pair(kept)
                state = state._with(photos=tuple(photos))
                taken = [("photo", seat, i) for i in range(len(kept), len(kept) + met)]
        stress = list(state.stress)
        if len(taken) == 2:
            stress[state.active] = max(0, stress[state.active] - 1)
        for seat, personality in enumerate(state.setup.roommates):
            if roommate_room(board, personality) in state.setup.house.relief_rooms:
                stress[seat] = max(0, stress[seat] - 1)
        state = state._with(stress=tuple(stress), taken=state.taken + len(taken),
                            pending=tuple(sorted(fouls + taken, key=slot_order)))
        if state.setup.uses_photos and state.taken >= state.setup.photos_to_win:
            return state._with(phase=OVER, outcome="won", pending=())
        if taken:
            return state._clock_icon()
        return state._to_restock()

    def _clock_icon(self) -> MeeplePartyState:
        """Step 5: the icon of the space the clock reached acts."""
        state = self._with(stage=CLOCK)
        icon = state.clock_icon()
        if icon == "surprise":
            return state._with(phase=SURPRISE, white=NO_WHITE)
        if icon == "add_surprise":
            if state.by_clock:
                state = state._with(by_clock=state.by_clock - 1,
                                    bag=bag_with(state.bag, (WHITE,), state.setup.ordered))
            return state._to_restock()
        if icon in ("welcome", "add_guest"):
            return state._with(phase=DRAW)
        if icon == "lay_down":
            return state._with(phase=LAY_DOWN) if state.layable() else state._to_restock()
        if icon == "refresh_disasters":
            slots = [slot for slot in state.slots() if slot[0] != "photo"]
            for slot in slots:
                state = state._set_card(slot, -1)
            pending = tuple(sorted(set(state.pending) | set(slots), key=slot_order))
            return state._with(pending=pending)._to_restock()
        return state._to_restock()

    def _to_restock(self) -> MeeplePartyState:
        if self.pending:
            pending = tuple(sorted(set(self.pending), key=slot_order))
            return self._with(phase=RESTOCK, stage=CLOCK, pending=pending, drawn=-1)
        return self._end_turn()

    def _end_turn(self) -> MeeplePartyState:
        state = self._with(active=(self.active + 1) % self.num_players, turn=self.turn + 1)
        return state._start_turn()

    def _start_turn(self) -> MeeplePartyState:
        base = self._with(stage=TURN, drawn=-1, surprise=-1, effect=0, adding=0,
                          white=NO_WHITE, pending=())
        if self.setup.variant == "hot-tub" and not any(self.bag_counts()[:WHITE]):
            return base._with(phase=OVER, outcome="hot-tub")
        if self.turn > self.setup.turn_limit:
            return base._with(phase=OVER, outcome="sunrise")
        return base._with(phase=DRAW)

    # -- text ----------------------------------------------------------------------------------

    def summary(self) -> str:
        """A few lines on the table: clock, stress, cards."""
        setup = self.setup
        lines = [f"turn {self.turn}: {setup.players[self.active]} to play; clock "
                 f"{self.clock_time()} ({self.taken}/{setup.photos_to_win} photos); "
                 f"{PHASES[self.phase]}"]
        lines.append("stress: " + ", ".join(f"{setup.players[s]} {v}"
                                             for s, v in enumerate(self.stress)))
        return "\n".join(lines)


def mingle_action(code: MingleCode) -> Mingle | StandUp:
    """The move value of a :func:`mingle_boards` code."""
    piece, src, dst, as_kind, steps = code
    if dst < 0:
        return StandUp(piece, src)
    if steps is None:
        return Mingle(piece, src, dst)
    return Mingle(piece, src, dst, tuple(Step(*step) for step in steps), as_kind)


FIELD_INDEX = {f.name: i for i, f in enumerate(fields(MeeplePartyState))}


# -- bag and decks ------------------------------------------------------------------------------


def stress_after(state: MeeplePartyState, effect: Any, board: Board,
                 stress: tuple[int, ...]) -> tuple[int, ...]:
    """The stress after a surprise's stress effect on ``board``: ``who`` is the active
    roommate, all, the others, the next player's, or the players' roommates in ``source``
    rooms; each roommate stays within 0 and 3."""
    n = state.num_players
    who = effect.who
    active = state.active
    if who == "active":
        seats = [active]
    elif who == "all":
        seats = list(range(n))
    elif who == "others":
        seats = [s for s in range(n) if s != active]
    elif who == "next":
        seats = [(active + 1) % n]
    else:
        rooms = set(fx.resolve_rooms(effect.source, state.setup.house, board,
                                     state.active_personality))
        seats = [s for s in range(n)
                 if roommate_room(board, state.setup.roommates[s]) in rooms]
    changed = list(stress)
    for seat in seats:
        changed[seat] = max(0, min(MAX_STRESS, changed[seat] + effect.amount))
    return tuple(changed)


def photo_pair(cards: Sequence[int]) -> tuple[int, int]:
    """A player's photos in canonical order (a set of up to two cards; ``-1`` fills)."""
    held = sorted(c for c in cards if c >= 0)
    held += [-1] * (2 - len(held))
    return held[0], held[1]


def bag_without(bag: tuple[int, ...], kind: int, ordered: bool) -> tuple[int, ...]:
    if ordered:
        return bag[1:]
    counts = list(bag)
    counts[kind] -= 1
    return tuple(counts)


def bag_with(bag: tuple[int, ...], kinds: Sequence[int], ordered: bool) -> tuple[int, ...]:
    """Meeples back into the bag (at the bottom of an ordered bag, in order)."""
    if not kinds:
        return bag
    if ordered:
        return bag + tuple(kinds)
    counts = list(bag)
    for kind in kinds:
        counts[kind] += 1
    return tuple(counts)


def deck_without(deck: tuple[int, ...], card: int, ordered: bool) -> tuple[int, ...]:
    if ordered:
        return deck[1:]
    i = deck.index(card)
    return deck[:i] + deck[i + 1:]


def deck_outcomes(name: str, deck: tuple[int, ...], ordered: bool
                  ) -> list[tuple[Action, Fraction]]:
    if not deck:
        return [(Dealt(name, -1), Fraction(1))]
    if ordered:
        return [(Dealt(name, deck[0]), Fraction(1))]
    return [(Dealt(name, card), Fraction(1, len(deck))) for card in deck]


def slot_deck(slot: Slot) -> str:
    return "photo" if slot[0] == "photo" else "disaster"


def slot_order(slot: Slot) -> tuple[int, int, int]:
    return ({"photo": 0, "disaster": 1, "communal": 2}[slot[0]], slot[1], slot[2])


# -- describing moves ---------------------------------------------------------------------------


def step_text(state: MeeplePartyState, step: Step, verb: str) -> str:
    house = state.setup.house
    return (f"{verb} a {piece_label(step.piece)} from {house.label(step.src)} to "
            f"{house.label(step.dst)}")


def steps_text(state: MeeplePartyState, steps: Sequence[Step], room: int) -> str:
    if not steps:
        return "its action has no target"
    parts = [step_text(state, s, "pull" if s.dst == room else "push") for s in steps]
    return "; ".join(parts)


def slot_text(state: MeeplePartyState, slot: Slot) -> str:
    kind, seat, index = slot
    card = state.card_at(slot)
    cards = state.setup.cards
    if kind == "photo":
        name = cards.photos[card].name if card >= 0 else "an empty slot"
        return f"{state.setup.players[seat]}'s photo {name!r}"
    name = cards.disasters[card].name if card >= 0 else "an empty slot"
    if kind == "disaster":
        return f"{state.setup.players[seat]}'s disaster {name!r}"
    return f"the communal disaster {name!r}"


def describe(state: MeeplePartyState, action: Action) -> str:
    house = state.setup.house
    if isinstance(action, Welcome):
        text = f"welcome the {piece_label(state.drawn)} into the {house.label(action.room)}"
        return f"{text}: {steps_text(state, action.steps, action.room)}"
    if isinstance(action, Mingle):
        text = (f"mingle a {piece_label(action.piece)} from {house.label(action.src)} to "
                f"{house.label(action.dst)}")
        if action.piece == WHITE:
            return text + ": a surprise card is drawn"
        if action.as_kind >= 0:
            text += f" acting as a {PERSONALITIES[action.as_kind].label}"
        return f"{text}: {steps_text(state, action.steps, action.dst)}"
    if isinstance(action, StandUp):
        return f"stand up the {piece_label(action.piece)} in {house.label(action.room)}"
    if isinstance(action, Refresh):
        if action.slot is None:
            return "no stress refresh"
        return f"take 1 stress to refresh {slot_text(state, action.slot)}"
    if isinstance(action, Pick):
        parts = []
        if state.phase in (PLACE, EFFECT) and state.drawn >= 0:
            return f"add the {piece_label(state.drawn)} at {house.label(action.rooms[0])}"
        if action.rooms:
            parts.append(" to ".join(house.label(r) for r in action.rooms))
        if action.meeples:
            parts.append(", ".join(f"{piece_label(p)} in {house.label(r)}"
                                   for r, p in action.meeples))
        verb = "lay down" if state.phase == LAY_DOWN else "choose"
        return f"{verb} " + ("; ".join(parts) if parts else "nothing")
    if isinstance(action, Drawn):
        return "the bag is empty" if action.kind < 0 else f"draw a {BAG_KINDS[action.kind]}"
    if isinstance(action, Dealt):
        if action.card < 0:
            return f"the {action.deck} deck is empty"
        card = state.setup.cards.deck(action.deck)[action.card]
        return f"{action.deck} card {card.name!r}"
    return str(action)

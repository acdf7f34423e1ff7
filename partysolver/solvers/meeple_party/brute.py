"""The brute-force oracle and baseline of the turn hint: every meeple individually.

It knows nothing of the count-based move generators: it lists the meeples of the board one by
one (three Flirts in a room are three choices), finds rooms one and two steps away from the
house's wall list itself, and plays every choice through the rules engine
(:meth:`MeeplePartyState.apply`), without a transposition table.  Two ways to score the end of
the turn:

* ``"rules"`` (the oracle, small positions only): the refresh is a decision like any other, its
  new card a chance node over the deck, and steps 3 and 4 are played by the rules engine; the
  value is read off the position after step 4 (:func:`naive_value`), the party fouls off the
  position before step 3;
* ``"evaluator"`` (the benchmark baseline): each end of the turn is scored by
  :meth:`Evaluator.end` in its plain form (``memo=False``): the same end-of-turn logic as the
  search, but every card evaluated on the whole board and nothing remembered.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from math import comb

from ...models.meeple_party.board import Board
from ...models.meeple_party.game import (
    BITS,
    CAT,
    DOG,
    LAID_PIECES,
    STANDING_PIECES,
    WHITE,
    Dealt,
    Mingle,
    Pick,
    Refresh,
    Slot,
    StandUp,
    Step,
    Welcome,
    personality_of,
)
from ...models.meeple_party.house import House
from ...models.meeple_party.state import (
    EFFECT,
    MINGLE,
    OVER,
    PLACE,
    REFRESH,
    REFRESH_DRAW,
    MeeplePartyState,
)
from ...models.protocol import CHANCE, Action
from ..budget import Budget, Meter
from .evaluate import W_DISASTER, Evaluator, Value, mean, rank_key
from .turn import in_turn

Meeple = tuple[int, int, int]
"""``(id, piece, room)``: one individual meeple."""

FLIRT_KIND, PARTY_ANIMAL_KIND, COOL_KIND, WALLFLOWER_KIND, JERK_KIND, DOG_KIND = range(6)
"""The actions, written out again here: a personality's, or a mingled Dog's pull."""


class Neighbourhood:
    """Rooms one and two steps away, recomputed from the house's wall list."""

    def __init__(self, house: House) -> None:
        near: dict[int, set[int]] = {r: set() for r in range(house.size)}
        for a, b in house.edges:
            near[a].add(b)
            near[b].add(a)
        self.near = near
        self.far = {r: {c for b in near[r] for c in near[b] if c != r} for r in near}


def meeples(board: Board) -> list[Meeple]:
    """Every standing meeple (and pet) on the board, one entry each."""
    found: list[Meeple] = []
    for room, content in enumerate(board):
        for piece in STANDING_PIECES:
            for _ in range((content >> (3 * piece)) & 7):
                found.append((len(found), piece, room))
    return found


def laid_meeples(board: Board) -> list[Meeple]:
    found: list[Meeple] = []
    for room, content in enumerate(board):
        for piece in LAID_PIECES:
            for _ in range((content >> (3 * piece)) & 7):
                found.append((len(found), piece, room))
    return found


def action_steps(crowd: list[Meeple], actor: int, kind: int, room: int,
                 hood: Neighbourhood) -> list[tuple[Step, ...]]:
    """Every individual choice of targets for an action of ``kind`` by the meeple ``actor``
    (an id of ``crowd``) arriving in ``room``; ``[()]`` when nothing can be targeted."""
    others = [m for m in crowd if m[0] != actor]
    found: list[tuple[Step, ...]]
    if kind in (FLIRT_KIND, PARTY_ANIMAL_KIND, DOG_KIND):
        rooms = hood.far[room] if kind == PARTY_ANIMAL_KIND else hood.near[room]
        found = [(Step(p, r, room),) for _, p, r in others if r in rooms]
    elif kind == COOL_KIND:
        near = [m for m in others if m[2] in hood.near[room]]
        if len(near) == 1:
            found = [(Step(near[0][1], near[0][2], room),)]
        else:
            found = [(Step(a[1], a[2], room), Step(b[1], b[2], room))
                     for a, b in combinations(near, 2)]
    else:
        rooms = hood.near[room] if kind == WALLFLOWER_KIND else hood.far[room]
        found = [(Step(p, room, dst),) for _, p, r in others if r == room for dst in sorted(rooms)]
    return found or [()]


def welcome_choices(state: MeeplePartyState, hood: Neighbourhood) -> Iterator[Action]:
    kind = state.drawn
    house = state.setup.house
    for room in range(house.size):
        if house.rooms[room].no_welcome:
            continue
        crowd = meeples(state.board) + [(-1, kind, room)]
        for steps in action_steps(crowd, -1, kind, room, hood):
            yield Welcome(room, steps)


def mingle_choices(state: MeeplePartyState, hood: Neighbourhood) -> Iterator[Action]:
    crowd = meeples(state.board)
    roommate_rooms = {r for r, content in enumerate(state.board)
                      for p in range(12, 22) if (content >> (3 * p)) & 7}
    for ident, piece, src in crowd:
        targets = sorted(roommate_rooms - {src}) if piece == DOG else sorted(hood.near[src])
        for dst in targets:
            moved = [(i, p, dst if i == ident else r) for i, p, r in crowd]
            if piece == WHITE:
                yield Mingle(piece, src, dst)
                continue
            if piece == CAT:
                kinds = list(range(5))
            elif piece == DOG:
                kinds = [DOG_KIND]
            else:
                personality = personality_of(piece)
                assert personality is not None
                kinds = [personality]
            for kind in kinds:
                for steps in action_steps(moved, ident, kind, dst, hood):
                    yield Mingle(piece, src, dst, steps, kind if piece == CAT else -1)
    for _, piece, room in laid_meeples(state.board):
        yield StandUp(piece, room)


def effect_choices(state: MeeplePartyState) -> Iterator[Action]:
    """The engine's distinct choices, each repeated once per individual-meeple selection that
    gives it (choosing 2 of 3 Flirts in a room is 3 individual choices)."""
    for action in state.legal_actions():
        times = individual_picks(state.board, action) if isinstance(action, Pick) else 1
        for _ in range(times):
            yield action


def individual_picks(board: Board, pick: Pick) -> int:
    """How many selections of individual meeples on ``board`` give ``pick`` (choosing 2 of
    the 3 Flirts of a room is 3 selections; a pick of no meeple is 1)."""
    picked: dict[tuple[int, int], int] = {}
    for room, piece in pick.meeples:
        picked[(room, piece)] = picked.get((room, piece), 0) + 1
    times = 1
    for (room, piece), k in picked.items():
        times *= comb((board[room] >> (BITS * piece)) & 7, k)
    return times


def fouls_before_step_three(state: MeeplePartyState, slot: Slot | None = None,
                             card: int = -1) -> int:
    """The party fouls step 3 finds on ``state`` (the active player's and the communal disaster
    met on its board), with ``card`` in ``slot`` (a refresh's new card) when given."""
    checked: list[Slot] = []
    if state.setup.personal_disasters:
        checked.append(("disaster", state.active, 0))
    if state.setup.communal_disaster:
        checked.append(("communal", -1, 0))
    fouls = 0
    for place in checked:
        held = card if place == slot else state.card_at(place)
        if held >= 0 and state.disaster_met(held):
            fouls += 1
    return fouls


def naive_value(root: MeeplePartyState, state: MeeplePartyState, fouls: int = 0) -> Value:
    """The turn's value read off the position after step 4 (see :mod:`.evaluate`), with the
    party fouls step 3 found (:func:`fouls_before_step_three`)."""
    setup = root.setup
    added = -float(sum(state.stress) - sum(root.stress))
    if state.phase == OVER and state.outcome == "lost":
        return (0.0, -1.0, added, -float(fouls), 0.0, 0.0)
    if setup.uses_photos:
        progress = float(state.taken - root.taken)
        if state.phase == OVER and state.outcome == "won":
            return (1.0, 0.0, added, -float(fouls), progress, 0.0)
    else:
        progress = float(state.hot_tub_count())
    a = root.active
    personality = root.active_personality
    board = state.board
    disasters = sum(1 for s, d in enumerate(state.disasters) if s != a and d >= 0
                    and setup.condition("disaster", d, personality).met(board))
    distance = sum(setup.condition("photo", c, personality).cost(board)
                   for pair in state.photos for c in pair if c >= 0)
    return (0.0, 0.0, added, -float(fouls), progress, -float(W_DISASTER * disasters + distance))


class BruteForce:
    """One brute-force search of the rest of a turn (see the module docstring)."""

    def __init__(self, root: MeeplePartyState, scoring: str = "rules",
                 budget: Budget | None = None) -> None:
        self.root = root
        self.scoring = scoring
        self.hood = Neighbourhood(root.setup.house)
        self.meter: Meter = (budget or Budget()).start()
        self.leaves = 0
        self.evaluator = Evaluator(root, memo=False)

    def value(self, state: MeeplePartyState) -> Value:
        self.meter.node()
        if state.phase == OVER or not (in_turn(state, self.root)
                                       or state.phase == REFRESH_DRAW):
            self.leaves += 1
            return naive_value(self.root, state)
        if state.phase == REFRESH and self.scoring == "evaluator":
            self.leaves += 1
            value, _ = self.evaluator.end(state.board, state.stress)
            return value
        if state.phase == REFRESH:
            return self.refresh(state)
        if state.current_player() == CHANCE:
            return mean([(float(p), self.value(state.apply(o)))
                         for o, p in state.chance_outcomes()])
        best: Value | None = None
        for action in self.choices(state):
            value = self.value(state.apply(action))
            if best is None or rank_key(value) > rank_key(best):
                best = value
        assert best is not None
        return best

    def refresh(self, state: MeeplePartyState) -> Value:
        """The refresh decision, its new card a chance node, then steps 3 and 4 by the rules
        engine; the party fouls are counted on the position before step 3."""
        best: Value | None = None
        for action in state.legal_actions():
            assert isinstance(action, Refresh)
            child = state.apply(action)
            if action.slot is None:
                value = self.leaf(child, fouls_before_step_three(state))
            elif child.phase == REFRESH_DRAW:
                slot = child.pending[0]
                parts = []
                for outcome, p in child.chance_outcomes():
                    assert isinstance(outcome, Dealt)
                    fouls = fouls_before_step_three(child, slot, outcome.card)
                    parts.append((float(p), self.leaf(child.apply(outcome), fouls)))
                value = mean(parts)
            else:  # the refresh's stress ended the party before step 3
                value = self.leaf(child, 0)
            if best is None or rank_key(value) > rank_key(best):
                best = value
        assert best is not None
        return best

    def leaf(self, state: MeeplePartyState, fouls: int) -> Value:
        self.meter.node()
        self.leaves += 1
        return naive_value(self.root, state, fouls)

    def choices(self, state: MeeplePartyState) -> Iterator[Action]:
        if state.phase == PLACE and state.drawn >= 0:
            return welcome_choices(state, self.hood)
        if state.phase == MINGLE:
            return mingle_choices(state, self.hood)
        if state.phase == EFFECT:
            return effect_choices(state)
        return iter(state.legal_actions())


def brute_force(state: MeeplePartyState, scoring: str = "rules",
                budget: Budget | None = None) -> tuple[Value, int]:
    """The exact value of the rest of the turn, and how many ends of the turn it scored."""
    search = BruteForce(state, scoring, budget)
    return search.value(state), search.leaves


__all__ = ["BruteForce", "brute_force", "naive_value"]

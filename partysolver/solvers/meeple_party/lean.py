"""The benchmark's baseline for the turn search: a lean per-meeple brute force.

The plain algorithm, written efficiently over lists and ints: every meeple is a choice of its
own (three Flirts in a room are three movers, and three targets of a pull), every end of the
turn is counted, nothing is pruned, and no position of the search is remembered (no
transposition table).  The scorer alone remembers, within one mingle, the ends it scored (by
the changed rooms and their contents): an end reached again (the same piece moved from a room
holding several like it, or other moves to the same rooms) is counted and not scored again.
The welcome and the mingle, where nearly all ends come from, run on packed boards (one int per
room, as the engine packs them, changed in place and restored) with the house's neighbours as
lists.  An end is scored from each card's cost: the clauses' per-room costs (the evaluator's
table by room content) of the rooms the moves touched against the least costs of the other
rooms.  Steps 3 and 4 without a refresh run inline (:meth:`LeanBruteForce.make_plain`, the same
arithmetic as :meth:`~.evaluate.Evaluator.assemble`); an end where a refresh may beat not
refreshing goes to the evaluator's end of the turn (:meth:`~.evaluate.Evaluator.end`: each
refresh worth trying over its deck; it remembers its answers by the cards' costs and stress,
so an expectation over a deck is not recomputed for an end that scores the same).  A white
meeple mingled has its surprise carried out on packed boards too (:meth:`LeanBruteForce.white`:
every card of the deck, every choice of its effects repeated once per individual meeple it
picks, as in :mod:`.brute`; the ends scored against the mingle's board).  The rest of chance
and of a surprise's choices (a drawn white meeple, a card that adds guests from the bag) goes
through the rules engine.

:attr:`LeanBruteForce.raw` counts the ends reached (raw one-turn outcomes).  The oracle of the
tests stays :mod:`.brute` (every choice played through the rules engine); the tests compare
this baseline's best values with it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ...models.meeple_party import effects as fx
from ...models.meeple_party.board import UNIT, Board, add, counted
from ...models.meeple_party.cards import CAP
from ...models.meeple_party.game import (
    BITS,
    CAT,
    DOG,
    LAID_PIECES,
    ROOMMATE,
    STANDING_PIECES,
    WHITE,
    Dealt,
    Mingle,
    standing_of,
)
from ...models.meeple_party.state import (
    MAX_STRESS,
    MINGLE,
    OVER,
    PLACE,
    REFRESH,
    TURN,
    MeeplePartyState,
    bag_with,
    deck_outcomes,
    stress_after,
)
from ...models.protocol import CHANCE
from ..budget import Budget, Meter
from .brute import effect_choices, individual_picks, naive_value
from .evaluate import (
    W_DISASTER,
    Evaluator,
    NearBoard,
    Value,
    _different_rooms,
    mean,
    rank_key,
)
from .turn import in_turn

FLIRT, PARTY_ANIMAL, COOL, WALLFLOWER, JERK, DOG_KIND = range(6)
Key = tuple[float, ...]
"""A value's :func:`rank_key`."""
ROOMMATE_FIELDS = sum(7 << (BITS * p) for p in range(ROOMMATE, ROOMMATE + 10))
"""Every roommate's field (standing and laid down) of a packed room."""


class LeanBruteForce:
    """One lean brute-force search of the rest of a turn (see the module docstring)."""

    def __init__(self, root: MeeplePartyState, budget: Budget | None = None) -> None:
        self.root = root
        self.meter: Meter = (budget or Budget()).start()
        self.evaluator = Evaluator(root)
        house = root.setup.house
        self.near = [list(rooms) for rooms in house.adjacent]
        self.far = [list(rooms) for rooms in house.two_away]
        self.raw = 0
        """Ends of the turn reached (raw outcomes)."""
        table = self.evaluator.terms
        self.identity = table.simple and table.firsts == list(range(len(table.columns)))
        """Each card is one clause, in order: the clauses' least costs are the cards' costs."""
        decks = self.evaluator.decks
        self.refreshable = any(decks["photo" if slot[0] == "photo" else "disaster"]
                               for slot in self.evaluator.refresh_order)
        self.photo_deck = bool(decks["photo"])
        self.simple = table.simple
        self.firsts = table.firsts
        self.plain = self.make_plain()
        self.base: list[tuple[int, ...]] = []
        """The per-room costs of the board the current mingle started from."""
        self.reduced: dict[tuple[int, ...], list[Any]] = {}
        """Per set of changed rooms of the current mingle, what the other rooms bring to each
        several-clause card (:meth:`reduce`)."""
        setup = root.setup
        self.house = setup.house
        self.ordered = setup.ordered
        self.personality = root.active_personality
        self.surprises = setup.cards.surprises
        self.adds = [any(effect.do == "add" for effect in card.effects)
                     for card in self.surprises]
        """Per surprise card: an effect draws from the bag (the card goes through the engine)."""
        self.stress0 = sum(root.stress)
        self.mingle_near: NearBoard | None = None
        """The current mingle's first board as the evaluator's :class:`~.evaluate.NearBoard`:
        its per-room costs, the least costs of the rooms outside each set of changed rooms, and
        the decks' counts at an end that may refresh."""
        self.exact = True
        """The last end scored had no refresh worth trying: its value is a sum of whole
        numbers, exact (compared without rounding)."""

    # -- the search ----------------------------------------------------------------------------

    def value(self, state: MeeplePartyState) -> Value:
        """The exact value of the rest of the turn from ``state``."""
        if state.phase == OVER or not in_turn(state, self.root):
            self._count()
            return naive_value(self.root, state)
        if state.phase == REFRESH:
            return self.score(list(state.board), state.stress, None, ())
        if state.phase == PLACE and state.stage == TURN:
            return self.welcome(state)
        if state.phase == MINGLE:
            return self.mingle(state, list(state.board))
        if state.current_player() == CHANCE:
            return mean([(float(p), self.value(state.apply(o)))
                         for o, p in state.chance_outcomes()])
        best: Value | None = None
        for action in effect_choices(state):
            best = _better(best, self.value(state.apply(action)))
        assert best is not None
        return best

    def welcome(self, state: MeeplePartyState) -> Value:
        """Every room the drawn guest may go, with every individual target of its action, then
        the mingle."""
        kind = state.drawn
        board = list(state.board)
        best: Value | None = None
        mingling = state._to_mingle()
        for room in state.setup.house.welcome_rooms:
            board[room] += UNIT[kind]
            for steps in self.targets(board, kind, room, kind):
                self.apply(board, steps, 1)
                best = _better(best, self.mingle(mingling, board))
                self.apply(board, steps, -1)
            board[room] -= UNIT[kind]
        assert best is not None
        return best

    def mingle(self, state: MeeplePartyState, board: list[int]) -> Value:
        """Every standing meeple to every room it may go, with every individual target of its
        action (a white meeple's surprise: :meth:`white`), then every laid-down meeple stood
        up; ``board`` is changed in place and restored.  Each end is scored here, inline (the
        hot loop): the cards' costs are the per-room costs of the rooms that changed against
        the least costs of the others (kept per set of changed rooms by the mingle's
        :class:`~.evaluate.NearBoard`), then :meth:`score_costs`."""
        base = tuple(board)
        table = self.evaluator.terms
        memo, vector = table.memo, table.vector
        near = self.mingle_near = table.near(base)
        vectors = near.vectors
        if not self.simple:
            self.base = vectors
            self.reduced = {}
        rests = near.rest
        stress = state.stress
        score = self.score_costs
        best: Value | None = None
        best_key: tuple[float, ...] = ()
        exact = True
        """The best is a value without a refresh (exact; best_key is then unused)."""
        sets: dict[tuple[int, ...], tuple[int, ...]] = {}
        ends: dict[tuple[object, ...], tuple[Value, bool]] = {}
        """The ends scored in this mingle, by the changed rooms and their contents."""
        surprise_ends: dict[tuple[object, ...], tuple[Value, Key]] = {}
        """The ends after a white meeple's surprise, by the board and the stress."""
        count = self._count
        roommate_rooms = [r for r, room in enumerate(board) if room & ROOMMATE_FIELDS]
        for src, piece in self.movers(board):
            targets = [r for r in roommate_rooms if r != src] if piece == DOG \
                else self.near[src]
            unit = UNIT[piece]
            for dst in targets:
                if piece == WHITE:
                    value = self.white(state, near, surprise_ends, src, dst)
                    key = rank_key(value)
                    if best is None or key > (best_key if not exact else rank_key(best)):
                        best, best_key, exact = value, key, False
                    continue
                board[src] -= unit
                board[dst] += unit
                for kind in _kinds(piece):
                    for steps in self.targets(board, kind, dst, piece):
                        rooms: tuple[int, ...] = (src, dst)
                        for p, a, b in steps:
                            board[a] -= UNIT[p]
                            board[b] += UNIT[p]
                            rooms += (a, b)
                        changed = sets.get(rooms)
                        if changed is None:
                            changed = sets[rooms] = tuple(sorted(set(rooms)))
                        # the end is the mingle's board but for the changed rooms: one
                        # already scored (the same piece moved from a room holding several,
                        # or other moves to the same rooms) is counted and not scored again
                        end = (changed, *[board[r] for r in changed])
                        known = ends.get(end)
                        if known is not None:
                            count()
                            value, self.exact = known
                        else:
                            rest = rests.get(changed)
                            if rest is None:
                                rest = near.rest_of(changed)
                            fresh = []
                            for r in changed:
                                found = memo[r].get(board[r])
                                fresh.append(found if found is not None
                                             else vector(r, board[r]))
                            value = score(board, stress, list(map(min, rest, *fresh)), changed,
                                          vectors, fresh)
                            ends[end] = (value, self.exact)
                        # values of ends without a refresh are exact (sums of whole numbers):
                        # compared as they are; expectations after rounding (rank_key)
                        if best is None:
                            best, exact = value, self.exact
                            best_key = () if exact else rank_key(value)
                        elif exact and self.exact:
                            if value > best:
                                best = value
                        else:
                            key = rank_key(value)
                            if key > (best_key if not exact else rank_key(best)):
                                best, best_key, exact = value, key, False
                        for p, a, b in steps:
                            board[a] += UNIT[p]
                            board[b] -= UNIT[p]
                board[src] += unit
                board[dst] -= unit
        for room, laid in self.laid(board):
            unit = UNIT[standing_of(laid)] - UNIT[laid]
            board[room] += unit
            mins = list(map(min, *vectors)) if len(vectors) > 1 else list(vectors[0])
            value = score(board, stress, mins, (room,), vectors)
            if best is None or (value > best if exact and self.exact
                                else rank_key(value) > rank_key(best)):
                best, exact = value, self.exact
                best_key = () if exact else rank_key(value)
            board[room] -= unit
        assert best is not None
        return best

    # -- a white meeple's surprise ---------------------------------------------------------------

    def white(self, state: MeeplePartyState, near: NearBoard,
              ends: dict[tuple[object, ...], tuple[Value, Key]], src: int, dst: int) -> Value:
        """A white meeple mingled from ``src`` to ``dst`` on the mingle's board (``near``): the
        mean over the surprise deck's draws (:func:`deck_outcomes`, as the rules engine deals)
        of each card's effects carried out (:meth:`effects`).  A card with an effect that
        draws from the bag goes through the rules engine."""
        base = near.base
        board = list(base)
        board[src] -= UNIT[WHITE]
        moved: MeeplePartyState | None = None
        parts = []
        for action, p in deck_outcomes("surprise", state.surprise_deck, self.ordered):
            assert isinstance(action, Dealt)
            card = action.card
            if card >= 0 and self.adds[card]:
                if moved is None:
                    moved = state._with(board=base).apply(Mingle(WHITE, src, dst))
                value = self.value(moved.apply(action))
            else:
                value, _ = self.effects(card, 0, tuple(board), state.bag, state.stress, dst,
                                        near, ends)
            parts.append((float(p), value))
        return mean(parts)

    def effects(self, card: int, e: int, board: Board, bag: tuple[int, ...],
                stress: tuple[int, ...], white: int, near: NearBoard,
                ends: dict[tuple[object, ...], tuple[Value, Key]]) -> tuple[Value, Key]:
        """The surprise ``card``'s effects from number ``e`` on (none when ``card`` is -1: the
        deck was empty), as :meth:`MeeplePartyState._run_effects` carries them out: a stress
        effect at once (everyone stressed out: the party is lost), a choice with one outcome
        at once, a choice with several through every individual choice (as
        :func:`.brute.effect_choices` repeats it); then the white meeple stays in ``white`` if
        the card says so, and the turn ends (:meth:`surprise_end`).  The value with its
        :func:`rank_key`."""
        effects = self.surprises[card].effects if card >= 0 else ()
        while e < len(effects):
            effect = effects[e]
            if effect.do == "stress":
                stress = stress_after(self.root, effect, board, stress)
                if min(stress) >= MAX_STRESS:
                    self._count()
                    lost = (0.0, -1.0, -float(sum(stress) - self.stress0), -0.0, 0.0, 0.0)
                    return lost, rank_key(lost)
                e += 1
                continue
            options = fx.choices(effect, self.house, board, self.personality)
            if len(options) > 1:
                best: tuple[Value, Key] | None = None
                for pick, after, back in options:
                    rest = bag_with(bag, back, self.ordered)
                    for _ in range(individual_picks(board, pick)):
                        found = self.effects(card, e + 1, after, rest, stress, white, near,
                                             ends)
                        if best is None or found[1] > best[1]:
                            best = found
                assert best is not None
                return best
            _, board, back = options[0]
            bag = bag_with(bag, back, self.ordered)
            e += 1
        if card >= 0 and self.surprises[card].stays:
            board = add(board, WHITE, white)
        return self.surprise_end(board, stress, near, ends)

    def surprise_end(self, board: Board, stress: tuple[int, ...], near: NearBoard,
                     ends: dict[tuple[object, ...], tuple[Value, Key]]) -> tuple[Value, Key]:
        """The end of the turn after a white meeple's surprise, scored as the mingle scores
        its ends: the rooms that differ from the mingle's board (``near``) against the least
        costs of the others; an end already scored in this mingle is counted, not scored
        again.  The value with its :func:`rank_key`."""
        key = (board, stress)
        known = ends.get(key)
        if known is not None:
            self._count()
            return known
        base = near.base
        changed = tuple(r for r, content in enumerate(board) if content != base[r])
        table = self.evaluator.terms
        fresh = [table.vector(r, board[r]) for r in changed]
        rest = near.rest.get(changed)
        if rest is None:  # (a surprise may change every room: then nothing else counts)
            rest = near.rest_of(changed)
        mins = list(map(min, rest, *fresh)) if fresh else list(rest)
        value = self.score_costs(list(board), stress, mins, changed, near.vectors, fresh)
        found = ends[key] = (value, rank_key(value))
        return found

    # -- individual meeples ----------------------------------------------------------------------

    @staticmethod
    def movers(board: Sequence[int]) -> list[tuple[int, int]]:
        """Every standing meeple (and pet) as ``(room, piece)``, once per meeple."""
        found = []
        for room, content in enumerate(board):
            if content:
                for piece in STANDING_PIECES:
                    for _ in range((content >> (BITS * piece)) & 7):
                        found.append((room, piece))
        return found

    @staticmethod
    def laid(board: Sequence[int]) -> list[tuple[int, int]]:
        found = []
        for room, content in enumerate(board):
            if content:
                for piece in LAID_PIECES:
                    for _ in range((content >> (BITS * piece)) & 7):
                        found.append((room, piece))
        return found

    def targets(self, board: list[int], kind: int, room: int, actor: int
                ) -> list[list[tuple[int, int, int]]]:
        """Every individual choice of targets of an action of ``kind`` by ``actor`` just
        arrived in ``room`` (itself never a target), as lists of ``(piece, src, dst)``;
        ``[[]]`` when nothing can be targeted."""
        found: list[list[tuple[int, int, int]]] = []
        if kind in (FLIRT, PARTY_ANIMAL, DOG_KIND):
            rooms = self.far[room] if kind == PARTY_ANIMAL else self.near[room]
            for src in rooms:
                for piece in _each(board[src]):
                    found.append([(piece, src, room)])
        elif kind == COOL:
            reach = [(piece, src) for src in self.near[room] for piece in _each(board[src])]
            if len(reach) == 1:
                found.append([(reach[0][0], reach[0][1], room)])
            for i, (p, a) in enumerate(reach):
                for q, b in reach[i + 1:]:
                    found.append([(p, a, room), (q, b, room)])
        else:
            rooms = self.near[room] if kind == WALLFLOWER else self.far[room]
            others = _each(board[room])
            others.remove(actor)
            for piece in others:
                for dst in rooms:
                    found.append([(piece, room, dst)])
        return found or [[]]

    @staticmethod
    def apply(board: list[int], steps: list[tuple[int, int, int]], sign: int) -> None:
        for piece, src, dst in steps:
            board[src] -= sign * UNIT[piece]
            board[dst] += sign * UNIT[piece]

    # -- an end of the turn --------------------------------------------------------------------

    def score(self, board: list[int], stress: tuple[int, ...], near: object,
              changed: tuple[int, ...]) -> Value:
        """The value of ending the turn on ``board`` (every card evaluated on it)."""
        packed: Board = tuple(board)
        table = self.evaluator.terms
        vectors = [table.vector(r, content) for r, content in enumerate(packed)]
        mins = list(map(min, *vectors)) if len(vectors) > 1 else list(vectors[0])
        return self.score_costs(board, stress, mins, changed, vectors)

    def score_costs(self, board: list[int], stress: tuple[int, ...], mins: list[int],
                    changed: tuple[int, ...], vectors: list[tuple[int, ...]],
                    fresh: list[tuple[int, ...]] | None = None) -> Value:
        """The value of ending the turn on ``board``, from each clause's least cost over the
        rooms (``mins``; ``vectors``: the per-room costs of the board the mingle started from,
        the ``changed`` rooms excepted): steps 3 and 4 on the cards' costs when no refresh is
        worth trying (:meth:`plain`), else the evaluator's whole end of the turn
        (:meth:`Evaluator.end`, whose values are remembered by the cards' costs)."""
        self.raw += 1
        self.meter.node()
        if self.simple:
            m = mins if self.identity else [mins[k] for k in self.firsts]
        else:
            m = self.several(board, mins, changed, vectors, fresh)
        value = self.plain(m, stress, board)
        self.exact = value is not None
        if value is None:
            # near the mingle's board, the evaluator counts the decks' cards from the changed
            # rooms too (the photo deck's costs, the met cards)
            near = self.mingle_near
            if not changed or near is None or vectors is not near.vectors:
                near = None
            value, _ = self.evaluator.end(tuple(board), stress, m, near, changed)
        return value

    def several(self, board: list[int], mins: list[int], changed: tuple[int, ...],
                vectors: list[tuple[int, ...]], fresh: list[tuple[int, ...]] | None
                ) -> list[int]:
        """The cards' costs when some card has several clauses (in any rooms: the sum of their
        least costs; in different rooms: their per-room costs combined).  On a
        board of the current mingle (``vectors`` its first board's per-room costs) the rooms
        that did not change count through :meth:`reduce`, the ``changed`` ones through their
        per-room costs (``fresh`` when given)."""
        table = self.evaluator.terms
        m = [mins[k] for k in self.firsts]
        plans = None
        costed: list[tuple[int, ...]] = []
        """The changed rooms' per-room costs (with ``plans``)."""
        if vectors is self.base and changed:
            costed = fresh if fresh is not None else [table.vector(r, board[r])
                                                      for r in changed]
            plans = self.reduced.get(changed)
            if plans is None:
                plans = self.reduced[changed] = self.reduce(changed)
        for i, (t, kind, ks) in enumerate(table.several):
            if kind == "impossible":
                m[t] = CAP
            elif kind == "any":
                total = sum(mins[k] for k in ks)
                m[t] = total if total < CAP else CAP
            elif plans is not None:
                m[t] = min(CAP, _different_rooms([column + [costs[k] for costs in costed]
                                                  for column, k in zip(plans[i], ks, strict=True)]))
            else:  # a whole board's costs (score), or a mingle's after a white meeple's
                # surprise ran a mingle of its own (self.base is then that one's): patched
                columns = [[v[k] for v in vectors] for k in ks]
                for r in changed:
                    costs = table.vector(r, board[r])
                    for column, k in zip(columns, ks, strict=True):
                        column[r] = costs[k]
                m[t] = min(CAP, _different_rooms(columns))
        return m

    def reduce(self, changed: tuple[int, ...]) -> list[Any]:
        """Per several-clause card, what the rooms of the mingle's first board outside
        ``changed`` bring to its cost: in different rooms, each clause's costs in the rooms that may take a clause
        (for each clause, its ``len(ks)`` cheapest rooms: a clause in another room could move
        to one of those left free by the others, at no more cost)."""
        rest = [(r, v) for r, v in enumerate(self.base) if r not in changed]
        plans: list[Any] = []
        for _, kind, ks in self.evaluator.terms.several:
            if kind == "different":
                rooms: set[int] = set()
                for k in ks:
                    rooms.update(r for r, _ in sorted(rest, key=lambda item: item[1][k])[:len(ks)])
                kept = [v for r, v in rest if r in rooms]
                plans.append([[v[k] for v in kept] for k in ks])
            else:
                plans.append(None)
        return plans

    def make_plain(self) -> Callable[[list[int], tuple[int, ...], list[int]], Value | None]:
        """Steps 3 and 4 on the cards' costs ``m`` (:meth:`Evaluator.assemble` without a
        refresh) as one function with everything it reads at hand, or ``None`` when a refresh
        may beat not refreshing (:meth:`Evaluator._candidates`, an unmet photo of the active
        player counted whenever it could bring the bonus or the win, as if a deck photo were
        met): then the evaluator's end decides."""
        evaluator = self.evaluator
        a = evaluator.active
        sum0 = evaluator.sum0
        checked = list(evaluator.checked)
        own = list(evaluator.own_photos) if evaluator.party else []
        others = list(evaluator.other_photos)
        rivals = list(evaluator.other_disasters)
        party = evaluator.party
        taken0, target = evaluator.taken0, evaluator.target
        icons = evaluator.refresh_icon
        relief = bool(evaluator.relief_rooms)
        relieved = evaluator.relieved
        hot_tubs = evaluator.hot_tubs
        refreshable = self.refreshable
        photo_deck = self.photo_deck
        n_own = len(own)
        if evaluator.photos_first:  # ranking photos first: every end is the evaluator's
            return lambda m, stress, board: None

        def plain(m: list[int], stress: tuple[int, ...], board: list[int]) -> Value | None:
            fouls = 0
            for i in checked:
                if m[i] == 0:
                    fouls += 1
            met = 0
            distance = 0
            for i in own:
                if m[i] == 0:
                    met += 1
                else:
                    distance += m[i]
            flags = relieved(board) if relief else ()
            if refreshable and stress[a] < 3:
                if fouls:
                    return None
                reliefs = (1 if met == 2 else 0) + (1 if flags and flags[a] else 0)
                if stress[a] < reliefs:
                    return None
                if met < n_own and photo_deck and (met == 1 or taken0 + met + 1 >= target):
                    return None
            if fouls:
                s = [x + fouls if x + fouls < 3 else 3 for x in stress]
                if min(s) >= 3:
                    return (0.0, -1.0, -float(sum(s) - sum0), -float(fouls), 0.0, 0.0)
            else:
                s = list(stress)
            if met == 2 and s[a] > 0:
                s[a] -= 1
            for seat, flag in enumerate(flags):
                if flag and s[seat] > 0:
                    s[seat] -= 1
            added = -float(sum(s) - sum0)
            if not party:
                progress = float(sum(counted(board[r]) for r in hot_tubs))
                met = 0
            else:
                progress = float(met)
                if taken0 + met >= target:
                    return (1.0, 0.0, added, -float(fouls), progress, 0.0)
            for i in others:
                distance += m[i]
            disasters = 0
            if not (met and icons[met]):
                for i in rivals:
                    if m[i] == 0:
                        disasters += 1
            return (0.0, 0.0, added, -float(fouls), progress,
                    -float(W_DISASTER * disasters + distance))

        return plain

    def _count(self) -> None:
        self.raw += 1
        self.meter.node()


def _each(content: int) -> list[int]:
    """The standing pieces of a packed room, once per meeple."""
    found = []
    if content:
        for piece in STANDING_PIECES:
            found.extend([piece] * ((content >> (BITS * piece)) & 7))
    return found


def _kinds(piece: int) -> tuple[int, ...]:
    """The actions a moved piece may carry out (the Cat's: the player picks)."""
    if piece == CAT:
        return (FLIRT, PARTY_ANIMAL, COOL, WALLFLOWER, JERK)
    if piece == DOG:
        return (DOG_KIND,)
    return (piece if piece < ROOMMATE else piece - ROOMMATE,)


def _better(best: Value | None, value: Value) -> Value:
    return value if best is None or rank_key(value) > rank_key(best) else best


def lean_brute_force(state: MeeplePartyState, budget: Budget | None = None
                     ) -> tuple[Value, int]:
    """The exact value of the rest of the turn, and how many ends it scored."""
    search = LeanBruteForce(state, budget)
    return search.value(state), search.raw


__all__ = ["LeanBruteForce", "lean_brute_force"]

"""The Epic Monster Tea Party state: counts of heroes in the bag, teacups and stomachs.

Heroes of one type are identical, so a state holds counts, never individual meeples.  A turn is
a chance node (the draw), then the active monster's decision about the hero in hand (cup it, or
squish it for an ability).  A Rogue's steal and a Cleric's second draw lead to a further
decision of the same monster; a drink containing a Ranger leads to a throw-up chance node.
When the bag is empty after a turn, every monster drinks (in seat order) and the game is scored.

Hot path: a *zone* (bag, teacup or stomach) is one int holding eight 4-bit counts, one per hero
type (no type has more than 15 meeples), so moving heroes is integer addition.  Use
:func:`pack` and :func:`unpack` to convert from and to per-type count tuples.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from ..protocol import CHANCE, TERMINAL, Action, PerfectInformationView
from .game import (
    ABILITIES,
    HEROES,
    POINTS,
    RANK_VALUES,
    SUPPLY,
    Counts,
    Cup,
    Draw,
    Hero,
    Move,
    Squish,
    ThrowUp,
    count_text,
)

# -- packed zones -----------------------------------------------------------------------------

Zone = int
"""Eight 4-bit hero counts in one int: bits 4h..4h+3 count heroes of type h."""

ONE = tuple(1 << (4 * h) for h in range(8))
RANGER, KING, QUEEN = int(Hero.RANGER), int(Hero.KING), int(Hero.QUEEN)


def pack(counts: Sequence[int]) -> Zone:
    return sum(n << (4 * h) for h, n in enumerate(counts))


def unpack(zone: Zone) -> Counts:
    return tuple((zone >> (4 * h)) & 15 for h in range(8))  # type: ignore[return-value]


def count(zone: Zone, hero: int) -> int:
    return (zone >> (4 * hero)) & 15


def present(zone: Zone) -> list[int]:
    """The hero types with at least one meeple in ``zone``."""
    return [h for h in range(8) if (zone >> (4 * h)) & 15]


def _byte_tables(weights: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """For a quantity linear in the counts: its value for every byte (two hero types)."""
    return tuple(tuple((b & 15) * weights[2 * i] + (b >> 4) * weights[2 * i + 1]
                       for b in range(256)) for i in range(4))


def _linear(tables: tuple[tuple[int, ...], ...], zone: Zone) -> int:
    t0, t1, t2, t3 = tables
    return t0[zone & 255] + t1[(zone >> 8) & 255] + t2[(zone >> 16) & 255] + t3[zone >> 24]


_RANK_SHIFT = {value: 4 * (len(RANK_VALUES) - 1 - i) for i, value in enumerate(RANK_VALUES)}
_POINTS_TABLES = _byte_tables(POINTS)
STANDING_WEIGHTS = tuple((POINTS[h] << 32) + (1 << _RANK_SHIFT[POINTS[h]]) for h in range(8))
"""Per hero: its weight in a standing (points, then counts by point value from the highest)."""
_STANDING_TABLES = _byte_tables(STANDING_WEIGHTS)


def points(zone: Zone) -> int:
    return _linear(_POINTS_TABLES, zone)


def standing(zone: Zone) -> int:
    """Points, then the count of heroes of each point value from the highest down, as one
    comparable int (the rulebook's tie-break: more of the highest-valued hero wins)."""
    return _linear(_STANDING_TABLES, zone)


def size(zone: Zone) -> int:
    return _linear(_SIZE_TABLES, zone)


_SIZE_TABLES = _byte_tables([1] * 8)


_BY_POINTS = sorted(range(8), key=lambda h: -POINTS[h])


def without_best(zone: Zone, k: int) -> Zone:
    """``zone`` after losing its ``k`` most valuable heroes (the worst a stomach can end up
    as after ``k / 2`` throw-ups: the certain-win test, here and in the solvers' searches)."""
    for hero in _BY_POINTS:
        if k <= 0:
            break
        n = min(count(zone, hero), k)
        zone -= n * ONE[hero]
        k -= n
    return zone


def merge_royals(zone: Zone) -> Zone:
    """King and Queen are the same in every rule: count Queens as Kings (for keys)."""
    return (zone & ((1 << 28) - 1)) + ((zone >> 28) << 24)


def by_rank(zone: Zone) -> Zone:
    """A stomach by rank: Bards counted as Rangers, Queens as Kings (same points, same rank)."""
    bards = count(zone, int(Hero.BARD))
    return merge_royals(zone) - bards * ONE[int(Hero.BARD)] + bards * ONE[int(Hero.RANGER)]


_TOUCHING = frozenset(int(h) for h in (Hero.ROGUE, Hero.WIZARD, Hero.BARD, Hero.KING, Hero.QUEEN))
RANGERS = 15 * ONE[RANGER]
"""The bits of a zone's Ranger count: ``zone & RANGERS`` is nonzero when it holds a Ranger
(a drink of it means a throw-up)."""
_QUEENS = 15 * ONE[QUEEN]
_BARDS_AND_QUEENS = 15 * ONE[int(Hero.BARD)] + _QUEENS
TOUCHES_CUPS = sum(15 * ONE[h] for h in _TOUCHING)
"""The bits of the counts of the heroes whose ability reaches a teacup other than by its own
drink (Rogue, Wizard, Bard, King, Queen): ``bag & TOUCHES_CUPS`` is nonzero while one is left
to draw.  Public for the solvers' searches, which key their tables as :meth:`TeaPartyState.key`
does."""

SUPPLY_ZONE = pack(SUPPLY)


@dataclass(frozen=True, slots=True)
class Table:
    """What does not change during a game: who sits at the table, in turn order."""

    players: tuple[str, ...]

    @property
    def size(self) -> int:
        return len(self.players)


# -- phases -----------------------------------------------------------------------------------

DRAW, CHOOSE, THROW_UP, OVER = 0, 1, 2, 3
PHASE_NAMES = ("draw", "choose", "throw-up", "over")

CUP = Cup()
DRAWS = tuple(Draw(hero) for hero in HEROES)


@cache
def _squish(ability: Hero, target: int | None, take: int | None, copied: bool) -> Squish:
    return Squish(ability, target, None if take is None else HEROES[take], copied)


@cache
def _fraction(numerator: int, denominator: int) -> Fraction:
    return Fraction(numerator, denominator)


class TeaPartyState:
    """An immutable position of Epic Monster Tea Party (see the module docstring)."""

    __slots__ = ("table", "phase", "player", "held", "bag", "cups", "stomachs", "thrower",
                 "final", "_key")

    table: Table
    phase: int
    player: int
    """The active monster (whose turn it is), also during its throw-ups."""
    held: int
    """The hero type in the active monster's hand (``choose`` phase), else -1."""
    bag: Zone
    cups: tuple[Zone, ...]
    stomachs: tuple[Zone, ...]
    thrower: int
    """The monster about to throw up (``throw-up`` phase), else -1."""
    final: bool
    """Whether the pending throw-up belongs to the end-of-game drinking."""

    def __init__(self, table: Table, phase: int, player: int, held: int, bag: Zone,
                 cups: tuple[Zone, ...], stomachs: tuple[Zone, ...], thrower: int = -1,
                 final: bool = False) -> None:
        self.table = table
        self.phase = phase
        self.player = player
        self.held = held
        self.bag = bag
        self.cups = cups
        self.stomachs = stomachs
        self.thrower = thrower
        self.final = final
        self._key: tuple[object, ...] | None = None

    # -- construction ---------------------------------------------------------------------------

    @classmethod
    def new_game(cls, players: Sequence[str]) -> TeaPartyState:
        """All 43 heroes in the bag, empty teacups and stomachs, the first player to draw."""
        empty = (0,) * len(players)
        return cls(Table(tuple(players)), DRAW, 0, -1, SUPPLY_ZONE, empty, empty)

    @classmethod
    def from_counts(cls, players: Sequence[str], bag: Counts, cups: Sequence[Counts],
                    stomachs: Sequence[Counts], current: int = 0, held: Hero | None = None
                    ) -> TeaPartyState:
        """A position from per-type counts: a draw if nothing is in hand, else a decision."""
        phase = DRAW if held is None else CHOOSE
        return cls(Table(tuple(players)), phase, current, -1 if held is None else int(held),
                   pack(bag), tuple(map(pack, cups)), tuple(map(pack, stomachs)))

    def _next(self, phase: int, player: int, held: int, bag: Zone, cups: tuple[Zone, ...],
              stomachs: tuple[Zone, ...], thrower: int = -1, final: bool = False
              ) -> TeaPartyState:
        return TeaPartyState(self.table, phase, player, held, bag, cups, stomachs, thrower, final)

    # -- identity -------------------------------------------------------------------------------

    def key(self) -> Hashable:
        """A canonical key: states with equal keys have equal values for every player.

        Beyond the plain state it forgets what can no longer matter:

        * King and Queen are the same in every rule; in a stomach a Bard is a Ranger
          (6 points, same rank), since heroes there never act again;
        * with no Ranger left outside the stomachs, no throw-up can happen: a stomach counts
          only by its standing, relative to the first monster's;
        * with no Rogue, Wizard, Bard, King or Queen left to draw or in hand, nothing can
          touch a teacup but its own monster's drink, which empties it whole: each monster's
          teacup and stomach merge, with a flag for a Ranger in the teacup (a throw-up at
          the next drink), or into one relative standing when no Ranger is loose either.
        """
        key = self._key
        if key is None:
            key = self._key = self._canonical()
        return key

    def _canonical(self) -> tuple[object, ...]:
        phase, held, bag, cups, stomachs = self.phase, self.held, self.bag, self.cups, self.stomachs
        cups_seen = stomachs_seen = 0
        for cup in cups:
            cups_seen |= cup
        for stomach in stomachs:
            stomachs_seen |= stomach
        if (bag | cups_seen | stomachs_seen) & _QUEENS or held == QUEEN:
            held = KING if held == QUEEN else held
            bag, cups = merge_royals(bag), tuple(map(merge_royals, cups))
        if stomachs_seen & _BARDS_AND_QUEENS:
            stomachs = tuple(map(by_rank, stomachs))
        rangers_loose = (bag | cups_seen) & RANGERS or held == RANGER or phase == THROW_UP
        if bag & TOUCHES_CUPS or held in _TOUCHING:
            if rangers_loose:
                return (0, phase, self.player, held, bag, self.thrower, self.final, cups,
                        stomachs)
            base = standing(stomachs[0])
            return (1, phase, self.player, held, bag, cups,
                    tuple(standing(s) - base for s in stomachs))
        if rangers_loose:
            merged = tuple(s + c for s, c in zip(stomachs, cups, strict=True))
            if (cups_seen | stomachs_seen) & _BARDS_AND_QUEENS:
                merged = tuple(map(by_rank, merged))
            return (2, phase, self.player, held, bag, self.thrower, self.final, merged,
                    tuple((c & RANGERS) > 0 for c in cups))
        base = standing(stomachs[0] + cups[0])
        return (3, phase, self.player, held, bag,
                tuple(standing(s + c) - base for s, c in zip(stomachs, cups, strict=True)))

    def _fields(self) -> tuple[object, ...]:
        return (self.table, self.phase, self.player, self.held, self.bag, self.cups,
                self.stomachs, self.thrower, self.final)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TeaPartyState) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return f"TeaPartyState({self.summary()})"

    # -- the protocol ---------------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        return len(self.cups)

    def current_player(self) -> int:
        phase = self.phase
        if phase == CHOOSE:
            return self.player
        return TERMINAL if phase == OVER else CHANCE

    def is_terminal(self) -> bool:
        return self.phase == OVER

    @property
    def held_hero(self) -> Hero | None:
        return None if self.held < 0 else HEROES[self.held]

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    def legal_actions(self) -> list[Move]:
        """``cup`` first, then the squishes (abilities in hero order, targets in seat order).

        Every use the rules allow is an option, and options are merged only when their
        resulting states are equal: every squish that changes nothing (a Wizard on an empty
        teacup, a Bard with a teacup like its own, a Fighter with an empty teacup, a Cleric
        with an empty bag, a Rogue with nothing to steal; for a King or Queen, every copy of
        these) is one option, listed where the first of them comes, even beside useful ones.
        Any two other options lead to different states.
        """
        if self.phase != CHOOSE:
            return []
        held = self.held
        moves: list[Move] = [CUP]
        if held == RANGER:
            return moves
        copied = held in (KING, QUEEN)
        idle = False  # a squish with no effect is listed
        for ability in ABILITIES if copied else (HEROES[held],):
            for move in self._uses(ability, copied):
                if self.has_effect(move):
                    moves.append(move)
                elif not idle:
                    moves.append(move)
                    idle = True
        return moves

    def _uses(self, ability: Hero, copied: bool) -> list[Squish]:
        """Every use of ``ability`` the rules allow, equal results not merged: the Fighter and
        the Cleric have no target; a Rogue takes any hero from any other teacup (with none
        anywhere it is a plain discard); a Wizard pours any teacup, its own included, empty
        ones too; a Bard swaps with any other teacup."""
        cups = self.cups
        if ability == Hero.ROGUE:
            steals = [_squish(ability, victim, h, copied)
                      for victim in self._others() for h in present(cups[victim])]
            return steals or [_squish(ability, None, None, copied)]
        if ability == Hero.WIZARD:
            return [_squish(ability, seat, None, copied) for seat in range(len(cups))]
        if ability == Hero.BARD:
            return [_squish(ability, seat, None, copied) for seat in self._others()]
        return [_squish(ability, None, None, copied)]

    def has_effect(self, move: Move) -> bool:
        """Whether ``move`` (legal here) changes anything but the hero in hand: a cup always
        does; a squish with no effect only discards the hero and ends the turn."""
        if not isinstance(move, Squish):
            return True
        me, target, ability = self.player, move.target, move.ability
        if ability == Hero.FIGHTER:
            return self.cups[me] != 0
        if ability == Hero.CLERIC:
            return self.bag != 0
        if target is None:
            return False
        if ability == Hero.WIZARD:
            return self.cups[target] != 0
        if ability == Hero.BARD:
            return self.cups[target] != self.cups[me]
        return True

    def _others(self) -> list[int]:
        """The other monsters, clockwise from the active one's left."""
        n = len(self.cups)
        return [(self.player + k) % n for k in range(1, n)]

    def chance_outcomes(self) -> Sequence[tuple[Action, Fraction]]:
        if self.phase == DRAW:
            bag = self.bag
            total = size(bag)
            return [(DRAWS[h], _fraction(count(bag, h), total)) for h in present(bag)]
        if self.phase == THROW_UP:
            return throw_up_outcomes(self.stomachs[self.thrower])
        return ()

    def sample_outcome(self, rng: random.Random) -> Action:
        """One chance outcome drawn with its exact probability, without listing them all: a
        uniformly random meeple of the bag, or two of the thrower's stomach."""
        if self.phase == DRAW:
            return DRAWS[_nth_hero(self.bag, rng.randrange(size(self.bag)))]
        if self.phase == THROW_UP:
            stomach = self.stomachs[self.thrower]
            total = size(stomach)
            if total <= 2:
                return throw_up_outcomes(stomach)[0][0]
            first = _nth_hero(stomach, rng.randrange(total))
            second = _nth_hero(stomach - ONE[first], rng.randrange(total - 1))
            return _throw_up(min(first, second), max(first, second))
        raise ValueError(f"no chance outcome in the {self.phase_name} phase")

    def apply(self, action: Action) -> TeaPartyState:
        phase = self.phase
        if phase == CHOOSE:
            if action is CUP or isinstance(action, Cup):
                return self._cup()
            if isinstance(action, Squish):
                return self._squish(action)
        elif phase == DRAW and isinstance(action, Draw):
            hero = int(action.hero)
            if count(self.bag, hero):
                return self._next(CHOOSE, self.player, hero, self.bag - ONE[hero], self.cups,
                                  self.stomachs)
        elif phase == THROW_UP and isinstance(action, ThrowUp):
            return self._after_throw_up(action)
        raise ValueError(f"{action} is not legal in the {self.phase_name} phase of {self!r}")

    def returns(self) -> tuple[float, ...]:
        if self.phase != OVER:
            raise ValueError("returns() of a game that is not over")
        return win_shares(self.stomachs)

    def settled_returns(self) -> tuple[float, ...] | None:
        """The returns when the winner is already certain, else ``None``.

        A monster has certainly won when the worst its stomach can end up as (every loose
        Ranger drunk by it, each throw-up taking its two best heroes) still beats the best any
        other stomach can end up as (every hero in the bag, the teacups and the hand drunk).
        """
        if self.phase == OVER:
            return self.returns()
        loose = self.bag + sum(self.cups) + (ONE[self.held] if self.held >= 0 else 0)
        stomachs = self.stomachs
        # Quick necessary test, on points alone: the leader's stomach must beat every other
        # stomach with all the loose heroes added.
        scores = [points(s) for s in stomachs]
        ranked = sorted(scores)
        if ranked[-2] + points(loose) > ranked[-1]:
            return None
        leader = scores.index(ranked[-1])
        throw_ups = count(loose, RANGER) + (self.phase == THROW_UP)
        low = standing(without_best(stomachs[leader], 2 * throw_ups))
        if all(low > standing(s + loose) for i, s in enumerate(stomachs) if i != leader):
            return tuple(1.0 if i == leader else 0.0 for i in range(len(stomachs)))
        return None

    def view(self, player: int) -> PerfectInformationView:
        """Everything is public: the bag's contents are known, only the order is chance."""
        return PerfectInformationView(self, player)

    # -- applying moves -------------------------------------------------------------------------

    def _cup(self) -> TeaPartyState:
        me = self.player
        cups = list(self.cups)
        cups[me] += ONE[self.held]
        return self._end_turn(self.bag, tuple(cups), self.stomachs)

    def _squish(self, move: Squish) -> TeaPartyState:
        self._check_squish(move)
        me, ability, target = self.player, move.ability, move.target
        bag, cups, stomachs = self.bag, self.cups, self.stomachs
        if ability == Hero.FIGHTER:
            return self._drink(me, False, bag, cups, stomachs)
        if ability == Hero.CLERIC:
            if bag:
                return self._next(DRAW, me, -1, bag, cups, stomachs)
            return self._end_turn(bag, cups, stomachs)
        if target is None:  # the no-effect use of a Rogue, Wizard or Bard
            return self._end_turn(bag, cups, stomachs)
        new_cups = list(cups)
        if ability == Hero.ROGUE:
            assert move.take is not None
            stolen = int(move.take)
            new_cups[target] -= ONE[stolen]
            return self._next(CHOOSE, me, stolen, bag, tuple(new_cups), stomachs)
        if ability == Hero.WIZARD:
            new_cups[target] = 0
            return self._end_turn(bag + cups[target], tuple(new_cups), stomachs)
        new_cups[me], new_cups[target] = cups[target], cups[me]  # Bard: swap teacups
        return self._end_turn(bag, tuple(new_cups), stomachs)

    def _check_squish(self, move: Squish) -> None:
        held, ability, target = self.held, move.ability, move.target
        ok = (held != RANGER and ability in ABILITIES
              and (held == ability or ((held in (KING, QUEEN)) and move.copied)))
        if ok and target is None and ability in (Hero.ROGUE, Hero.WIZARD, Hero.BARD):
            # No target: the no-effect use, legal only where one exists (an empty teacup to
            # pour, a teacup like mine to swap with, nothing anywhere to steal).
            ok = not all(self.has_effect(use) for use in self._uses(ability, move.copied))
        elif ok and target is not None:
            if not 0 <= target < len(self.cups):
                ok = False
            elif ability == Hero.ROGUE:
                ok = (target != self.player and move.take is not None
                      and count(self.cups[target], move.take) > 0)
            elif ability == Hero.BARD:
                ok = target != self.player
            else:
                ok = ability == Hero.WIZARD
        if not ok:
            raise ValueError(f"{move} is not legal with a {HEROES[held].label} in hand")

    def _drink(self, seat: int, final: bool, bag: Zone, cups: tuple[Zone, ...],
               stomachs: tuple[Zone, ...]) -> TeaPartyState:
        """``seat`` drinks its whole teacup; a Ranger in the drink means a throw-up (chance)."""
        cup = cups[seat]
        new_cups, new_stomachs = list(cups), list(stomachs)
        new_cups[seat] = 0
        new_stomachs[seat] += cup
        after_cups, after_stomachs = tuple(new_cups), tuple(new_stomachs)
        if count(cup, RANGER):
            return self._next(THROW_UP, self.player, -1, bag, after_cups, after_stomachs,
                              seat, final)
        if final:
            return self._drink_from(seat + 1, after_cups, after_stomachs)
        return self._end_turn(bag, after_cups, after_stomachs)

    def _after_throw_up(self, outcome: ThrowUp) -> TeaPartyState:
        seat = self.thrower
        stomach = self.stomachs[seat]
        for hero in outcome.heroes:
            if not count(stomach, hero):
                raise ValueError(f"{outcome} is not possible from {count_text(unpack(stomach))}")
            stomach -= ONE[hero]
        stomachs = list(self.stomachs)
        stomachs[seat] = stomach
        if self.final:
            return self._drink_from(seat + 1, self.cups, tuple(stomachs))
        return self._end_turn(self.bag, self.cups, tuple(stomachs))

    def _end_turn(self, bag: Zone, cups: tuple[Zone, ...], stomachs: tuple[Zone, ...]
                  ) -> TeaPartyState:
        if bag:
            return self._next(DRAW, (self.player + 1) % len(cups), -1, bag, cups, stomachs)
        return self._drink_from(0, cups, stomachs)

    def _drink_from(self, seat: int, cups: tuple[Zone, ...], stomachs: tuple[Zone, ...]
                    ) -> TeaPartyState:
        """End of the game: monsters from ``seat`` on drink what is left in their teacups."""
        for next_seat in range(seat, len(cups)):
            if cups[next_seat]:
                return self._drink(next_seat, True, 0, cups, stomachs)
        return self._next(OVER, self.player, -1, 0, cups, stomachs)

    # -- reading the position -------------------------------------------------------------------

    def out_of_game(self) -> Counts:
        """Squished and thrown-up heroes: the supply minus everything still in play."""
        in_play = self.bag + sum(self.cups) + sum(self.stomachs)
        if self.held >= 0:
            in_play += ONE[self.held]
        return tuple(s - n for s, n in zip(SUPPLY, unpack(in_play), strict=True))  # type: ignore[return-value]

    def bag_counts(self) -> Counts:
        return unpack(self.bag)

    def cup_counts(self, seat: int) -> Counts:
        return unpack(self.cups[seat])

    def stomach_counts(self, seat: int) -> Counts:
        return unpack(self.stomachs[seat])

    def bag_size(self) -> int:
        return size(self.bag)

    def scores(self) -> tuple[int, ...]:
        return tuple(points(s) for s in self.stomachs)

    def name(self, seat: int) -> str:
        return self.table.players[seat]

    def describe_action(self, action: Action) -> str:
        """The action in words, with player names."""
        if isinstance(action, Draw):
            return f"{self.name(self.player)} draws a {action.hero.label}"
        if isinstance(action, ThrowUp):
            heroes = " and ".join(h.label for h in action.heroes) or "nothing"
            return f"{self.name(self.thrower)} throws up {heroes}"
        held = HEROES[self.held].label if self.held >= 0 else "hero"
        if isinstance(action, Cup):
            return f"put the {held} in your teacup"
        assert isinstance(action, Squish)
        how = f"squish the {held}" + (f" as a {action.ability.label}" if action.copied else "")
        target = None if action.target is None else self.name(action.target)
        if not self.has_effect(action):
            return f"{how} for no effect ({self._idle_reason(action)})"
        if action.ability == Hero.FIGHTER:
            return f"{how}: drink your teacup ({count_text(self.cup_counts(self.player))})"
        if action.ability == Hero.CLERIC:
            return f"{how}: draw again"
        if action.ability == Hero.ROGUE:
            assert action.take is not None
            return f"{how}: steal a {action.take.label} from {target}'s teacup"
        if action.ability == Hero.WIZARD:
            assert action.target is not None
            whose = "your" if action.target == self.player else f"{target}'s"
            return (f"{how}: pour {whose} teacup back into the bag "
                    f"({count_text(self.cup_counts(action.target))})")
        return f"{how}: swap teacups with {target}"

    def _idle_reason(self, action: Squish) -> str:
        """Why a squish changes nothing (it is then a free discard)."""
        if action.ability == Hero.FIGHTER:
            return "your teacup is empty"
        if action.ability == Hero.CLERIC:
            return "the bag is empty"
        if action.target is None:
            return "no teacup to use it on"
        if action.ability == Hero.WIZARD:
            whose = "your" if action.target == self.player else f"{self.name(action.target)}'s"
            return f"pour {whose} empty teacup"
        return f"swap with {self.name(action.target)}'s teacup, the same as yours"

    def summary(self) -> str:
        seats = "; ".join(f"{self.name(i)} cup [{count_text(unpack(c))}] "
                          f"stomach [{count_text(unpack(s))}]"
                          for i, (c, s) in enumerate(zip(self.cups, self.stomachs, strict=True)))
        held = f", {HEROES[self.held].label} in hand" if self.held >= 0 else ""
        return (f"{self.phase_name}, {self.name(self.player)} to play{held}; "
                f"bag [{count_text(unpack(self.bag))}]; {seats}")


# -- chance and scoring -----------------------------------------------------------------------


def _nth_hero(zone: Zone, index: int) -> int:
    """The hero type of the ``index``-th meeple of ``zone`` (types in order)."""
    for hero in range(8):
        index -= (zone >> (4 * hero)) & 15
        if index < 0:
            return hero
    raise IndexError("no such meeple")


@cache
def _throw_up(first: int, second: int) -> ThrowUp:
    return ThrowUp((HEROES[first], HEROES[second]))


@cache
def throw_up_outcomes(stomach: Zone) -> tuple[tuple[Action, Fraction], ...]:
    """Two heroes drawn blindly from the stomach (all of them when it holds fewer than two)."""
    counts = unpack(stomach)
    total = sum(counts)
    if total <= 2:
        everything = tuple(HEROES[h] for h, n in enumerate(counts) for _ in range(n))
        return ((ThrowUp(everything), Fraction(1)),)
    pairs = total * (total - 1)
    outcomes: list[tuple[Action, Fraction]] = []
    for a, na in enumerate(counts):
        if not na:
            continue
        if na >= 2:
            outcomes.append((_throw_up(a, a), Fraction(na * (na - 1), pairs)))
        for b in range(a + 1, len(counts)):
            if counts[b]:
                outcomes.append((_throw_up(a, b), Fraction(2 * na * counts[b], pairs)))
    return tuple(outcomes)


def win_shares(stomachs: Sequence[Zone]) -> tuple[float, ...]:
    """1 to the single best stomach; ``1/k`` each to ``k`` stomachs tied on points and rank."""
    standings = [standing(s) for s in stomachs]
    best = max(standings)
    winners = standings.count(best)
    return tuple(1.0 / winners if s == best else 0.0 for s in standings)

"""The Meeple Land game state: parks, purses, the market, the piles and the parking lot.

A round is a series of turns in seat order from the first player; on a turn a player buys a
market tile and places it, buys the plot extension or the extra entrance, buys the advert on the
small pile, or passes and takes a bus.  When everybody has passed: visitors are welcomed,
revenue is paid, the player with the least money becomes first player, new buses arrive and the
next round's grant is paid.  After round 4 the parks are scored.

Chance is explicit: refilling a market slot, the advert that shows on the small pile's new top
tile, and each new bus are chance nodes with exact probabilities.  Nothing is hidden: the piles
are face down and shuffled, so their order is not part of the state until a tile is drawn.  The
small pile's top shows its advert (its back): the state records that back, and the front drawn
later is uniform among the unseen small tiles with that back (they are exchangeable).  Adverts
bought go under the pile (``under``, top to bottom) and come back only when the rest is gone.

Visitors may be moved at any time, so a park holds a *number* of visitors per colour and the
seating is always the best one (:mod:`.seating`): for revenue at the round's end, for
reputation at the game's end.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cached_property, lru_cache

from ..protocol import CHANCE, TERMINAL, Action, PerfectInformationView
from .catalogue import Catalogue
from .game import (
    ENTRANCE_COST,
    ENTRANCES_IN_GAME,
    EXTENSION_COST,
    EXTENSIONS_IN_GAME,
    GRANTS,
    MARKET_SLOTS,
    NO_VISITORS,
    ROUNDS,
    SIZES,
    START_MONEY,
    VISITOR_SUPPLY,
    Advertise,
    Buy,
    BuyEntrance,
    BuyExtension,
    Counts,
    DrawBus,
    DrawTile,
    Extension,
    Pass,
    Placement,
    Plot,
    RevealAdvert,
    add_counts,
    counts_text,
    entrance_text,
    sub_counts,
)
from .park import Layout, Piece, Score, legal_placements

DEFAULT_NAMES = ("Blue", "Green", "Orange", "Purple")
PENDING = ("small", "medium", "large", "advert", "bus")
"""Chance events waiting to happen, in order: refill a market slot of a size, reveal the
advert on the small pile's new top, bring a bus to the parking lot."""


@dataclass(frozen=True, slots=True)
class ParkState:
    """One player's plot, tiles (in build order), visitors, purse and bus of this round."""

    plot: Plot = Plot()
    placed: tuple[Placement, ...] = ()
    visitors: Counts = NO_VISITORS
    money: int = 0
    bus: str | None = None
    bus_visitors: Counts = NO_VISITORS

    @property
    def has_extension(self) -> bool:
        return self.plot.extension is not None

    @property
    def has_extra_entrance(self) -> bool:
        return len(self.plot.entrances) > 1

    def layout(self, catalogue: Catalogue) -> Layout:
        return _layout(self.plot, self.placed, catalogue)

    def key(self) -> Hashable:
        return (self.plot.width, self.plot.height, self.plot.entrances, self.plot.extension,
                self.placed, self.visitors, self.money, self.bus, self.bus_visitors)


@lru_cache(maxsize=4096)
def _layout(plot: Plot, placed: tuple[Placement, ...], catalogue: Catalogue) -> Layout:
    pieces = [Piece.make(i, p, catalogue.tile(p.tile)) for i, p in enumerate(placed)]
    return Layout(plot, pieces)


@dataclass(frozen=True, slots=True)
class Market:
    """The tiles face up in the parking lot (sorted ids per size) and what is left of the
    extensions and extra entrances."""

    small: tuple[str, ...] = ()
    medium: tuple[str, ...] = ()
    large: tuple[str, ...] = ()
    extensions: int = EXTENSIONS_IN_GAME
    entrances: int = ENTRANCES_IN_GAME

    def of(self, size: str) -> tuple[str, ...]:
        ids: tuple[str, ...] = getattr(self, size)
        return ids

    def tiles(self) -> tuple[str, ...]:
        return self.small + self.medium + self.large

    def with_size(self, size: str, ids: Sequence[str]) -> Market:
        ordered = tuple(sorted(ids))
        if size == "small":
            return replace(self, small=ordered)
        if size == "medium":
            return replace(self, medium=ordered)
        return replace(self, large=ordered)


@dataclass(frozen=True)
class MeepleLandState:
    """A position of the full game (see the module docstring for the flow of a round)."""

    catalogue: Catalogue
    names: tuple[str, ...]
    round: int
    first: int
    current: int
    passed: frozenset[int]
    parks: tuple[ParkState, ...]
    market: Market
    advert: str | None
    """The advert on the back of the small pile's top tile (``None``: no tile on top)."""
    under: tuple[str, ...] = ()
    """Adverts of tiles put back under the small pile, top to bottom."""
    parking: tuple[tuple[str, Counts], ...] = ()
    """Buses in the parking lot with the visitors actually on board (sorted by id)."""
    buses_gone: tuple[str, ...] = ()
    """Buses welcomed in earlier rounds (back in the box), sorted."""
    pending: tuple[str, ...] = ()
    finished: bool = False

    # -- set-up ---------------------------------------------------------------------------------

    @classmethod
    def new_game(cls, catalogue: Catalogue, names: Sequence[str], rng: random.Random,
                 first: int = 0) -> MeepleLandState:
        """Set up: buses (players + 1), 5 small, 5 medium and 3 large tiles, the advert on the
        small pile, start money by turn order and the first round's grant."""
        n = len(names)
        tiles = {size: sorted(t.id for t in catalogue.by_size(size)) for size in SIZES}
        market = Market()
        for size in SIZES:
            market = market.with_size(size, rng.sample(tiles[size],
                                                       min(MARKET_SLOTS[size], len(tiles[size]))))
        parks = tuple(ParkState(money=START_MONEY[(seat - first) % n] + GRANTS[0])
                      for seat in range(n))
        state = cls(catalogue, tuple(names), 1, first, first, frozenset(), parks, market, None)
        buses = sorted(catalogue.buses)
        for bus in rng.sample(buses, min(n + 1, len(buses))):
            state = state._bus_arrives(bus)
        backs = state.advert_weights()
        if backs:
            pick = rng.choices(sorted(backs), [backs[b] for b in sorted(backs)])[0]
            state = replace(state, advert=pick)
        return state

    # -- the protocol -------------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        return len(self.names)

    def current_player(self) -> int:
        if self.finished:
            return TERMINAL
        if self.pending:
            return CHANCE
        return self.current

    def key(self) -> Hashable:
        return ("meeple-land", self.catalogue.reference, self.names, self.round, self.first,
                self.current, tuple(sorted(self.passed)), tuple(p.key() for p in self.parks),
                self.market, self.advert, self.under, self.parking, self.buses_gone,
                self.pending, self.finished)

    def view(self, player: int) -> PerfectInformationView:
        return PerfectInformationView(self, player)

    def legal_actions(self) -> list[Action]:
        """For the player to act, in this order: buy each affordable market tile (small,
        medium, large; by id) at each legal placement, the extension at each legal place, the
        extra entrance on each free boundary segment, the advert, and pass with each bus."""
        return list(self._legal)

    @cached_property
    def _legal(self) -> tuple[Action, ...]:
        if self.finished or self.pending:
            return ()
        park = self.parks[self.current]
        actions: list[Action] = []
        layout = park.layout(self.catalogue)
        for tile_id in self.market.tiles():
            tile = self.catalogue.tile(tile_id)
            if tile.cost <= park.money:
                actions += [Buy(p) for p, _ in legal_placements(layout, tile)]
        if not park.has_extension and self.market.extensions and park.money >= EXTENSION_COST:
            actions += [BuyExtension(e.side, e.offset) for e in park.plot.extension_options()]
        if not park.has_extra_entrance and self.market.entrances \
                and park.money >= ENTRANCE_COST:
            actions += [BuyEntrance(edge) for edge in park.plot.boundary()
                        if edge not in park.plot.entrances]
        if self.advert is not None and self.advert_price() <= park.money:
            actions.append(Advertise())
        buses = [bus for bus, _ in self.parking]
        actions += [Pass(bus) for bus in buses] if buses else [Pass(None)]
        return tuple(actions)

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        if self.finished or not self.pending:
            return []
        event = self.pending[0]
        if event == "advert":
            weights = self.advert_weights()
            total = sum(weights.values())
            return [(RevealAdvert(b), Fraction(weights[b], total)) for b in sorted(weights)]
        if event == "bus":
            pile = self.bus_pile()
            return [(DrawBus(b), Fraction(1, len(pile))) for b in pile]
        pile = self.pile(event)
        if event == "small":
            pile = [t for t in pile if self.catalogue.tile(t).advert == self.advert]
        return [(DrawTile(t), Fraction(1, len(pile))) for t in pile]

    def apply(self, action: Action) -> MeepleLandState:
        if self.pending:
            return self._resolve(action)
        if action not in self._legal:
            raise ValueError(f"illegal action {action} for {self.names[self.current]}")
        if isinstance(action, Buy):
            return self._buy(action.placement)
        if isinstance(action, BuyExtension):
            return self._extend(action)
        if isinstance(action, BuyEntrance):
            return self._entrance(action)
        if isinstance(action, Advertise):
            return self._advertise()
        assert isinstance(action, Pass)
        return self._pass(action.bus)

    def returns(self) -> tuple[float, ...]:
        """Each player's share of the win: most reputation; then fewest points deducted; then
        most visitors inside the park; then shared."""
        if not self.finished:
            raise ValueError("the game is not over")
        standings = [self.standing(seat) for seat in range(self.num_players)]
        best = max(standings)
        winners = [s for s, v in enumerate(standings) if v == best]
        return tuple(1.0 / len(winners) if s in winners else 0.0
                     for s in range(self.num_players))

    def describe_action(self, action: Action) -> str:
        who = self.names[self.current] if not self.pending else "chance"
        if isinstance(action, Buy):
            tile = self.catalogue.tile(action.placement.tile)
            p = action.placement
            turn = f", turned {p.rotation}° clockwise" if p.rotation else ""
            return f"{who} buys {tile.label} (${tile.cost}) and places it at column " \
                   f"{p.at[0]}, row {p.at[1]}{turn}"
        if isinstance(action, BuyExtension):
            along = "column" if action.side.word in ("north", "south") else "row"
            return f"{who} buys the plot extension (${EXTENSION_COST}) on the " \
                   f"{action.side.word} side from {along} {action.offset}"
        if isinstance(action, BuyEntrance):
            return f"{who} buys an extra entrance (${ENTRANCE_COST}) at " \
                   f"{entrance_text(action.edge, self.parks[self.current].plot)}"
        if isinstance(action, Advertise):
            advert = self.catalogue.adverts[self.advert or ""]
            return f"{who} buys the advert (${advert.price}) for " \
                   f"{counts_text(advert.visitors)}"
        if isinstance(action, Pass):
            if action.bus is None:
                return f"{who} passes (no bus left)"
            on_board = dict(self.parking)[action.bus]
            return f"{who} passes and takes bus {action.bus} ({counts_text(on_board)})"
        if isinstance(action, DrawTile):
            return f"{self.catalogue.tile(action.tile).label} comes into the market"
        if isinstance(action, RevealAdvert):
            return f"the small pile now shows {self.catalogue.adverts[action.advert]}"
        if isinstance(action, DrawBus):
            return f"{self.catalogue.buses[action.bus]} arrives in the parking lot"
        return str(action)

    # -- what is where ------------------------------------------------------------------------

    @cached_property
    def _unseen(self) -> dict[str, list[str]]:
        seen = set(self.market.tiles())
        for park in self.parks:
            seen.update(p.tile for p in park.placed)
        return {size: sorted(t.id for t in self.catalogue.by_size(size) if t.id not in seen)
                for size in SIZES}

    def pile(self, size: str) -> list[str]:
        """The face-down tiles of a size (for small tiles: with the top and those under it)."""
        return self._unseen[size]

    def advert_weights(self) -> dict[str, int]:
        """For the next top of the small pile drawn from its shuffled part: how many tiles
        show each advert (the top and the tiles put under are not in the shuffled part)."""
        backs = Counter(self.catalogue.tile(t).advert for t in self.pile("small"))
        if self.advert is not None:
            backs[self.advert] -= 1
        for b in self.under:
            backs[b] -= 1
        return {b: n for b, n in backs.items() if b is not None and n > 0}

    def advert_price(self) -> int:
        return self.catalogue.adverts[self.advert].price if self.advert else 0

    def bus_pile(self) -> list[str]:
        out = set(self.buses_gone) | {b for b, _ in self.parking} | \
            {p.bus for p in self.parks if p.bus}
        return sorted(b for b in self.catalogue.buses if b not in out)

    def stock(self) -> Counts:
        """Visitors still in the supply."""
        used = NO_VISITORS
        for park in self.parks:
            used = add_counts(add_counts(used, park.visitors), park.bus_visitors)
        for _, counts in self.parking:
            used = add_counts(used, counts)
        return sub_counts(VISITOR_SUPPLY, used)

    def take_from_stock(self, wanted: Counts) -> Counts:
        """As many of ``wanted`` as the supply holds."""
        stock = self.stock()
        return (min(wanted[0], stock[0]), min(wanted[1], stock[1]), min(wanted[2], stock[2]),
                min(wanted[3], stock[3]))

    def score(self, seat: int) -> Score:
        park = self.parks[seat]
        return park.layout(self.catalogue).score(park.visitors)

    def standing(self, seat: int) -> tuple[int, int, int]:
        """(reputation, -points deducted, visitors inside): larger is better."""
        score = self.score(seat)
        return score.total, -score.deducted, sum(score.seating.seated)

    # -- moves --------------------------------------------------------------------------------

    def _with_park(self, seat: int, park: ParkState) -> tuple[ParkState, ...]:
        return tuple(park if s == seat else p for s, p in enumerate(self.parks))

    def _next_turn(self, state: MeepleLandState) -> MeepleLandState:
        """Hand the turn to the next player who has not passed (or end the round)."""
        n = self.num_players
        if len(state.passed) == n:
            return state._end_round()
        seat = (state.current + 1) % n
        while seat in state.passed:
            seat = (seat + 1) % n
        return replace(state, current=seat)

    def _buy(self, placement: Placement) -> MeepleLandState:
        tile = self.catalogue.tile(placement.tile)
        park = self.parks[self.current]
        park = replace(park, placed=(*park.placed, placement), money=park.money - tile.cost)
        market = self.market.with_size(tile.size, [t for t in self.market.of(tile.size)
                                                   if t != tile.id])
        pending = ("small", "advert") if tile.size == "small" else (tile.size,)
        state = replace(self, parks=self._with_park(self.current, park), market=market,
                        pending=pending)
        return self._next_turn(state)._settle()

    def _extend(self, action: BuyExtension) -> MeepleLandState:
        park = self.parks[self.current]
        park = replace(park, plot=park.plot.with_extension(Extension(action.side, action.offset)),
                       money=park.money - EXTENSION_COST)
        market = replace(self.market, extensions=self.market.extensions - 1)
        return self._next_turn(replace(self, parks=self._with_park(self.current, park),
                                       market=market))

    def _entrance(self, action: BuyEntrance) -> MeepleLandState:
        park = self.parks[self.current]
        park = replace(park, plot=park.plot.with_entrance(action.edge),
                       money=park.money - ENTRANCE_COST)
        market = replace(self.market, entrances=self.market.entrances - 1)
        return self._next_turn(replace(self, parks=self._with_park(self.current, park),
                                       market=market))

    def _advertise(self) -> MeepleLandState:
        assert self.advert is not None
        advert = self.catalogue.adverts[self.advert]
        park = self.parks[self.current]
        gained = self.take_from_stock(advert.visitors)
        park = replace(park, visitors=add_counts(park.visitors, gained),
                       money=park.money - advert.price)
        state = replace(self, parks=self._with_park(self.current, park), advert=None,
                        under=(*self.under, advert.id), pending=("advert",))
        return self._next_turn(state)._settle()

    def _pass(self, bus: str | None) -> MeepleLandState:
        park = self.parks[self.current]
        parking = dict(self.parking)
        if bus is not None:
            park = replace(park, bus=bus, bus_visitors=parking.pop(bus))
        state = replace(self, parks=self._with_park(self.current, park),
                        passed=self.passed | {self.current},
                        parking=tuple(sorted(parking.items())))
        return self._next_turn(state)

    def _end_round(self) -> MeepleLandState:
        """Welcome visitors, receive revenue, choose the first player, bring new buses and
        start the next round (or end the game after round 4)."""
        parks = []
        gone = set(self.buses_gone)
        for park in self.parks:
            visitors = add_counts(park.visitors, park.bus_visitors)
            if park.bus:
                gone.add(park.bus)
            income = _layout(park.plot, park.placed, self.catalogue).revenue(visitors)
            parks.append(replace(park, visitors=visitors, money=park.money + income, bus=None,
                                 bus_visitors=NO_VISITORS))
        first = next_first_player([p.money for p in parks], self.first)
        state = replace(self, parks=tuple(parks), buses_gone=tuple(sorted(gone)), first=first,
                        current=first, passed=frozenset())
        if self.round == ROUNDS:
            return replace(state, finished=True, pending=())
        grant = GRANTS[self.round]
        parks = [replace(p, money=p.money + grant) for p in state.parks]
        missing = self.num_players + 1 - len(state.parking)
        state = replace(state, round=self.round + 1, parks=tuple(parks),
                        pending=state.pending + ("bus",) * missing)
        return state._settle()

    # -- chance -------------------------------------------------------------------------------

    def _resolve(self, outcome: Action) -> MeepleLandState:
        event = self.pending[0]
        rest = replace(self, pending=self.pending[1:])
        if isinstance(outcome, RevealAdvert) and event == "advert":
            if outcome.advert not in self.advert_weights():
                raise ValueError(f"no small tile with advert {outcome.advert} is left")
            return replace(rest, advert=outcome.advert)._settle()
        if isinstance(outcome, DrawBus) and event == "bus":
            if outcome.bus not in self.bus_pile():
                raise ValueError(f"bus {outcome.bus} is not in the pile")
            return rest._bus_arrives(outcome.bus)._settle()
        if isinstance(outcome, DrawTile) and event in ("small", "medium", "large"):
            if outcome not in dict(self.chance_outcomes()):
                raise ValueError(f"{outcome.tile} cannot be drawn now")
            market = self.market.with_size(event, [*self.market.of(event), outcome.tile])
            advert = None if event == "small" else self.advert
            return replace(rest, market=market, advert=advert)._settle()
        raise ValueError(f"{outcome} does not resolve the pending {event!r}")

    def _bus_arrives(self, bus: str) -> MeepleLandState:
        on_board = self.take_from_stock(self.catalogue.buses[bus].visitors)
        return replace(self, parking=tuple(sorted((*self.parking, (bus, on_board)))))

    def _settle(self) -> MeepleLandState:
        """Drop pending events that cannot happen and do those with a single, certain
        outcome that needs no draw (the small pile's shuffled part is empty)."""
        state = self
        while state.pending:
            event = state.pending[0]
            rest = replace(state, pending=state.pending[1:])
            if event == "advert":
                if state.advert is not None:  # a top is showing already
                    state = rest
                    continue
                if state.advert_weights():
                    return state
                if state.under:  # only the tiles put under are left: they come back in order
                    state = replace(rest, advert=state.under[0], under=state.under[1:])
                    continue
                state = rest
                continue
            if event == "bus":
                if state.bus_pile() and len(state.parking) < state.num_players + 1:
                    return state
                state = rest
                continue
            if event == "small" and state.advert is None:
                state = rest
                continue
            if event in ("small", "medium", "large") and (
                    not state.pile(event)
                    or len(state.market.of(event)) >= MARKET_SLOTS[event]):
                state = rest
                continue
            return state
        return state


def next_first_player(money: Sequence[int], first: int) -> int:
    """The player with the least money; among several, the closest clockwise from the current
    first player, who cannot be first player again when tied."""
    n = len(money)
    least = min(money)
    tied = [s for s in range(n) if money[s] == least]
    if len(tied) > 1:
        tied = [s for s in tied if s != first]
    return min(tied, key=lambda s: (s - first) % n)


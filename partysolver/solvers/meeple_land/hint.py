"""Market hints: rank one player's actions by an estimate of their end-game reputation.

For every action of the player to act (buy each affordable market tile at its best placement,
the advert, the extension at its best place, the extra entrance at its best place, pass with
each bus) the park after the action is valued by :func:`estimate`, a documented sum of terms.
Every action is valued with one bus arriving at the end of the round: the bus taken when
passing, and otherwise the bus the player can expect to get later (the second best of the
parking lot for this park: somebody else may take the best one).

``now``
    the park's exact reputation if the game ended after this round's welcome: the variety
    table, the player's visitors and the bus seated exactly
    (:mod:`~partysolver.models.meeple_land.seating`), minus 2 per dead end;
``variety``
    progress along the variety table: the table, interpolated, at today's types plus the new
    types the player can still expect (``BUYS_PER_ROUND`` tiles per round to come, each a new
    type with probability ``types missing / 12``), minus the table at today's types;
``future visitors``
    the buses of the remaining rounds (their mean content, one per round) seated exactly on the
    spaces left free, at ``FUTURE_WEIGHT``;
``waiting``
    visitors left at the entrance may still be seated while the player can build:
    ``WAITING_RECOVERY`` of their penalty is given back;
``money``
    ``MONEY_RATE`` points per dollar that will still buy something: the money left (only if a
    later round remains: money is worth nothing at the end) and the revenue of the rounds that
    still pay before the last;
``growth``
    ``GROWTH`` per place where the park can grow (a path end or an entrance facing an empty
    cell, up to ``GROWTH_CAP``) while the player can build;
``exposure``
    ``EXPOSURE`` per path end facing an enclosed empty cell (no empty neighbour): a likely
    future dead end.

The estimate is a heuristic (a value, not a proof); the seating inside it is exact.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ...models.meeple_land.game import (
    COLOURS,
    DEAD_END_PENALTY,
    ENTRANCE_COST,
    EXTENSION_COST,
    MAX_VARIETY,
    NO_VISITORS,
    ROUNDS,
    VISITOR_VALUE,
    Advertise,
    Buy,
    BuyEntrance,
    BuyExtension,
    Counts,
    Extension,
    Move,
    Pass,
    add_counts,
    counts_text,
    entrance_text,
    facing,
    neighbour,
    variety_points,
)
from ...models.meeple_land.park import Layout, SpaceSlot, legal_placements
from ...models.meeple_land.seating import seat
from ...models.meeple_land.state import MeepleLandState, ParkState, _layout
from ...models.words import plural

BUYS_PER_ROUND = 3
MONEY_RATE = 0.6
FUTURE_WEIGHT = 0.6
WAITING_RECOVERY = 0.5
GROWTH = 0.4
GROWTH_CAP = 6
EXPOSURE = -0.75


@dataclass(frozen=True)
class Estimate:
    """The estimated end-game reputation of a park, term by term."""

    terms: dict[str, float]
    score_now: int
    types: int
    seated: Counts
    waiting: Counts
    dead_ends: int
    revenue: int

    @property
    def total(self) -> float:
        return sum(self.terms.values())


@dataclass(frozen=True)
class RankedMove:
    move: Move
    text: str
    value: float
    reason: str
    estimate: Estimate


def smooth_variety(types: float) -> float:
    """The variety table, linear between whole numbers of types."""
    low = int(types)
    if low >= MAX_VARIETY:
        return float(variety_points(MAX_VARIETY))
    frac = types - low
    return (1 - frac) * variety_points(low) + frac * variety_points(low + 1)


def expected_bus(state: MeepleLandState) -> tuple[float, float, float, float]:
    """The mean visitors of a bus still to come (pile and parking lot)."""
    buses = [state.catalogue.buses[b].visitors for b in state.bus_pile()]
    buses += [counts for _, counts in state.parking]
    if not buses:
        return (0.0, 0.0, 0.0, 0.0)
    n = len(buses)
    return tuple(sum(b[c] for b in buses) / n for c in range(4))  # type: ignore[return-value]


def estimate(state: MeepleLandState, park: ParkState, incoming: Counts, can_act: bool
             ) -> Estimate:
    """The estimated end-game reputation of ``park`` (see the module docstring).

    ``incoming``: the bus arriving at this round's end; ``can_act``: the player may still buy
    this round (has not passed)."""
    layout = _layout(park.plot, park.placed, state.catalogue)
    known = add_counts(park.visitors, incoming)
    score = layout.score(known)
    rounds_after = ROUNDS - state.round
    can_build = can_act or rounds_after > 0
    revenue = layout.revenue(known)
    types = len(score.types)
    terms: dict[str, float] = {"now": float(score.total)}
    buys = BUYS_PER_ROUND * (rounds_after + (0.5 if can_act else 0.0))
    gained = min(MAX_VARIETY - types, buys * (MAX_VARIETY - types) / MAX_VARIETY)
    terms["variety"] = smooth_variety(types + gained) - variety_points(types)
    free = [slot.cls for slot, filled in zip(_usable(layout), score.seating.assigned,
                                             strict=True) if filled is None]
    mean = expected_bus(state)
    future = tuple(round(mean[c] * rounds_after) for c in range(4))
    if any(future):
        later = seat(free, future)  # type: ignore[arg-type]
        terms["future visitors"] = FUTURE_WEIGHT * (later.points + _value(future))
    waiting_value = _value(score.seating.waiting)
    if can_build and waiting_value:
        terms["waiting"] = WAITING_RECOVERY * waiting_value
    usable_money = (park.money if rounds_after > 0 else 0) + revenue * rounds_after
    terms["money"] = MONEY_RATE * usable_money
    if can_build:
        terms["growth"] = GROWTH * min(GROWTH_CAP, len(layout.open_ends()) + sum(
            1 for e in layout.plot.entrances if layout.entrance_open(e)))
    enclosed = _enclosed_ends(layout)
    if enclosed:
        terms["exposure"] = EXPOSURE * enclosed
    return Estimate(terms, score.total, types, score.seating.seated, score.seating.waiting,
                    len(score.dead_ends), revenue)


def expected_pick(state: MeepleLandState, park: ParkState) -> Counts:
    """The bus a player who has not passed can expect: the second best of the parking lot for
    this park (the best when it is the only one)."""
    if not state.parking:
        return NO_VISITORS
    layout = _layout(park.plot, park.placed, state.catalogue)
    ranked = sorted(state.parking, key=lambda item: -layout.score(
        add_counts(park.visitors, item[1])).total)
    return ranked[1][1] if len(ranked) > 1 else ranked[0][1]


def _usable(layout: Layout) -> list[SpaceSlot]:
    return [slot for slot in layout.slots if slot.usable]


def _value(counts: Sequence[int]) -> int:
    return sum(n * v for n, v in zip(counts, VISITOR_VALUE, strict=True))


def _enclosed_ends(layout: Layout) -> int:
    count = 0
    for edge in layout.open_ends():
        cell = facing(edge)[0]
        if not any(layout.plot.inside(n) and n not in layout.owner
                   for n in (neighbour(cell, s) for s in range(4))):  # type: ignore[arg-type]
            count += 1
    return count


# -- ranking the market -----------------------------------------------------------------------


def _after(state: MeepleLandState, move: Move) -> tuple[ParkState, Counts, bool]:
    """The acting player's park after ``move`` (ignoring the market refill), the visitors
    still arriving this round and whether they may still act."""
    seat_ = state.current
    park = state.parks[seat_]
    catalogue = state.catalogue
    if isinstance(move, Buy):
        tile = catalogue.tile(move.placement.tile)
        after = replace(park, placed=(*park.placed, move.placement),
                        money=park.money - tile.cost)
    elif isinstance(move, BuyExtension):
        plot = park.plot.with_extension(Extension(move.side, move.offset))
        after = replace(park, plot=plot, money=park.money - EXTENSION_COST)
    elif isinstance(move, BuyEntrance):
        plot = park.plot.with_entrance(move.edge)
        after = replace(park, plot=plot, money=park.money - ENTRANCE_COST)
    elif isinstance(move, Advertise):
        advert = catalogue.adverts[state.advert or ""]
        gained = state.take_from_stock(advert.visitors)
        after = replace(park, visitors=add_counts(park.visitors, gained),
                        money=park.money - advert.price)
    if not isinstance(move, Pass):
        return after, expected_pick(state, after), True
    on_board = dict(state.parking).get(move.bus or "", NO_VISITORS)
    return park, on_board, False


def rank_moves(state: MeepleLandState) -> list[RankedMove]:
    """Every kind of action of the player to act, best first; for each market tile, each
    extension and entrance, only its best placement."""
    if state.current_player() != state.current or state.finished or state.pending:
        return []
    park = state.parks[state.current]
    base = estimate(state, park, expected_pick(state, park), True)
    best: dict[str, RankedMove] = {}
    order: list[str] = []
    for move in state.legal_actions():
        group = _group(move)
        park, incoming, can_act = _after(state, move)  # type: ignore[arg-type]
        value = estimate(state, park, incoming, can_act)
        if group not in best or value.total > best[group].value + 1e-9:
            if group not in best:
                order.append(group)
            best[group] = RankedMove(move, state.describe_action(move), value.total, "",  # type: ignore[arg-type]
                                     value)
    ranked = []
    for group in order:
        item = best[group]
        reason = explain(state, item.move, item.estimate, base)
        ranked.append(replace(item, value=round(item.value, 2), reason=reason))
    ranked.sort(key=lambda m: -m.value)
    return ranked


def _group(move: object) -> str:
    if isinstance(move, Buy):
        return f"buy {move.placement.tile}"
    if isinstance(move, BuyExtension):
        return "extension"
    if isinstance(move, BuyEntrance):
        return "entrance"
    return str(move)


def explain(state: MeepleLandState, move: Move, after: Estimate, before: Estimate) -> str:
    """Why, in game terms: what the action changes in the park."""
    parts: list[str] = []
    catalogue = state.catalogue
    park = state.parks[state.current]
    if isinstance(move, Buy):
        tile = catalogue.tile(move.placement.tile)
        if tile.attraction and after.types > before.types:
            parts.append(f"a new type: {tile.attraction} ({after.types} types)")
        elif tile.attraction:
            parts.append(f"{tile.attraction} again (no new type)")
        else:
            parts.append(f"brings {' + '.join(tile.services)}")
        links = _new_links(state, move)
        if links:
            parts.append("links " + ", ".join(links))
        spaces = len(tile.spaces)
        if spaces:
            parts.append(plural(spaces, "space"))
    elif isinstance(move, BuyExtension):
        parts.append(f"9 more cells on the {move.side.word} side")
    elif isinstance(move, BuyEntrance):
        parts.append(f"a new way in at {entrance_text(move.edge, park.plot)}")
    elif isinstance(move, Advertise):
        advert = catalogue.adverts[state.advert or ""]
        parts.append(f"{counts_text(advert.visitors)} for ${advert.price}")
    elif isinstance(move, Pass):
        on_board = dict(state.parking).get(move.bus or "", NO_VISITORS)
        parts.append(f"takes {counts_text(on_board)}" if move.bus else "no bus left")
        if state.round == ROUNDS:
            parts.append("money left is worth nothing after the last round")
    seated = sum(after.seated) - sum(before.seated)
    if seated > 0:
        parts.append(f"seats {plural(seated, 'more visitor')}")
    waiting = sum(after.waiting)
    if waiting and (isinstance(move, (Pass, Advertise))):
        parts.append(f"{waiting} would wait at the entrance")
    dead = after.dead_ends - before.dead_ends
    if dead > 0:
        parts.append(f"creates {plural(dead, 'dead end')} (-{DEAD_END_PENALTY * dead})")
    elif dead < 0:
        parts.append(f"closes {plural(-dead, 'dead end')}")
    delta = after.score_now - before.score_now
    if delta:
        parts.append(f"reputation once this round's bus is seated {before.score_now} -> "
                     f"{after.score_now}")
    return "; ".join(parts)


def _new_links(state: MeepleLandState, move: Buy) -> list[str]:
    park = state.parks[state.current]
    before = _layout(park.plot, park.placed, state.catalogue)
    after = _layout(park.plot, (*park.placed, move.placement), state.catalogue)
    old = {(before.pieces[lk.service].tile.id, before.pieces[lk.attraction].tile.id)
           for lk in before.links}
    found = []
    for lk in after.links:
        s, a = after.pieces[lk.service].tile, after.pieces[lk.attraction].tile
        if (s.id, a.id) not in old:
            found.append(f"{' + '.join(s.services)} to {a.attraction} {a.id}")
    return found


def best_placement(state: MeepleLandState, tile_id: str) -> tuple[Buy, Estimate] | None:
    """The best placement of one market tile for the player to act."""
    park = state.parks[state.current]
    layout = _layout(park.plot, park.placed, state.catalogue)
    options = []
    for placement, _ in legal_placements(layout, state.catalogue.tile(tile_id)):
        move = Buy(placement)
        after, incoming, can_act = _after(state, move)
        options.append((estimate(state, after, incoming, can_act).total, move))
    if not options:
        return None
    value, move = max(options, key=lambda o: o[0])
    after, incoming, can_act = _after(state, move)
    return move, estimate(state, after, incoming, can_act)


class HintPolicy:
    """Plays the hint's best action (for ``simulate``): the best estimated end-game
    reputation."""

    name = "hint"

    def __call__(self, state: MeepleLandState, rng: object) -> Move:
        return rank_moves(state)[0].move


class GreedyPolicy:
    """Plays for the reputation now (for ``simulate``): the action after which the player's
    park would score the most if the game ended there, then the most revenue, then the least
    money spent; the first such action in the engine's order.  No look-ahead: a baseline for
    the hint."""

    name = "greedy"

    def __call__(self, state: MeepleLandState, rng: object) -> Move:
        seat = state.current
        money = state.parks[seat].money
        best: tuple[tuple[int, int, int], Move] | None = None
        for move in state.legal_actions():
            park, incoming, can_act = _after(state, move)  # type: ignore[arg-type]
            value = estimate(state, park, incoming, can_act)
            key = (value.score_now, value.revenue, park.money - money)
            if best is None or key > best[0]:
                best = (key, move)  # type: ignore[assignment]
        assert best is not None, "greedy asked to act where no action is legal"
        return best[1]


COLOUR_NAMES = COLOURS

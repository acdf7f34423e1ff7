"""A quick greedy layout: the CP-SAT model's warm start (solution hint) and its fallback.

The park grows one tile at a time by the game's placement rule (each new tile connects to a
path end or an entrance, so every layout along the way is reachable and has a build order).
Each step adds the pool tile and placement with the best *shaped* value, a heuristic that
looks one tile ahead:

``objective``
    the puzzle's objective after the addition (final reputation, types or visitors seated),
    with the variety table smoothed below 10 types to ``VARIETY_SLOPE`` a type (the table pays
    nothing below 7 types, so a greedy on the table alone never collects them);
``growth``
    ``GROWTH`` per place where the park can still grow (a path end or an entrance facing an
    empty cell), up to ``GROWTH_CAP``: a park that seals itself in cannot take more tiles;
``money``
    ``-MONEY`` per dollar spent when the puzzle has a budget (``-TIE_MONEY`` otherwise: the
    cheaper of two equal tiles);
``required``
    ``REQUIRED`` per required tile still missing, so they come first.

With ``no_dead_ends`` an addition that makes a dead end is never taken (dead ends only ever
grow as tiles are added).  Growth stops when no addition raises the shaped value.  Every layout
along the way that meets all the puzzle's requirements is a candidate; the best one by the
objective (judged by the park verifier, :meth:`Puzzle.judge`) is the answer, else the last
layout grown is returned as a hint only.

Each addition is valued incrementally (:class:`GrowthStep`): the dead ends, service links, spaces
and types it adds to the park as it stands, with the seating solved exactly from the space
counts (:func:`~partysolver.models.meeple_land.seating.seating_plan`).  A heuristic: no
claim of optimality.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from dataclasses import dataclass

from ...models.meeple_land.game import (
    DEAD_END_PENALTY,
    SIDES,
    VISITOR_VALUE,
    Placement,
    facing,
    variety_points,
)
from ...models.meeple_land.park import Layout, Piece, legal_placements
from ...models.meeple_land.puzzle import Puzzle
from ...models.meeple_land.seating import CLASSES, seating_plan

VARIETY_SLOPE = 1.5
"""Shaped points per attraction type below 10 types (the table reaches 15 at 10)."""
GROWTH = 0.5
GROWTH_CAP = 4
MONEY = 0.15
TIE_MONEY = 0.01
REQUIRED = 50.0


@dataclass(frozen=True, slots=True)
class GreedyLayout:
    """The greedy's answer: ``legal`` when it meets every requirement of the puzzle."""

    placements: tuple[Placement, ...]
    """The best legal layout grown (pool tiles only), or the last one grown when none was
    legal (then only a hint)."""
    value: int | None
    """The objective's value (park verifier) when ``legal``."""
    legal: bool
    steps: int
    """Tiles added before growth stopped."""
    seconds: float


@dataclass(frozen=True, slots=True)
class Gain:
    """What one addition does to the park: the park's figures after it."""

    dead_ends: int
    capacity: tuple[int, ...]
    types: int
    open_ends: int


class GrowthStep:
    """The park as it stands at one step of the growth, ready to value additions."""

    def __init__(self, puzzle: Puzzle, layout: Layout) -> None:
        self.puzzle = puzzle
        self.layout = layout
        self.owner = layout.owner
        self.end_owner = layout.end_owner
        self.served = [layout.served(k) if any(s.service for s in p.tile.spaces) else frozenset()
                       for k, p in enumerate(layout.pieces)]
        self.capacity = tuple(sum(1 for slot in layout.slots if slot.usable and slot.cls == k)
                              for k in CLASSES)
        self.types = set(layout.types)
        self.dead_ends = len(layout.dead_ends)
        self.open_ends = self._open_ends()

    def _open_ends(self) -> int:
        plot = self.layout.plot
        ends = sum(1 for edge in self.end_owner
                   if plot.inside(facing(edge)[0]) and facing(edge)[0] not in self.owner)
        return ends + sum(1 for edge in plot.entrances if edge[0] not in self.owner)

    def gain(self, piece: Piece) -> Gain:
        """The park's figures with ``piece`` added (it must fit on empty cells)."""
        cells = set(piece.cells)
        ends = set(piece.ends)
        dead = self.dead_ends
        opened = 0
        linked: set[int] = set()
        for edge in piece.ends:  # the new tile's paths
            other = facing(edge)
            if other in self.end_owner:
                linked.add(self.end_owner[other])
            elif other[0] in self.owner:
                dead += 1  # runs into a tile with no path end there
            elif other[0] not in cells and self.layout.plot.inside(other[0]):
                opened += 1
        closed = 0
        for cell in piece.cells:  # paths of the park running into the new tile
            for side in SIDES:
                other = facing((cell, side))
                if other in self.end_owner:
                    closed += 1
                    if (cell, side) not in ends:
                        dead += 1
        for edge in self.layout.plot.entrances:
            if edge[0] in cells:
                closed += 1
                if edge not in ends:
                    dead += 1
        capacity = list(self.capacity)
        tile = piece.tile
        pieces = self.layout.pieces
        if tile.is_service:
            for k in linked:
                if pieces[k].tile.is_service:
                    continue
                new = set(tile.services) - self.served[k]
                for space in pieces[k].tile.spaces:
                    if space.service in new:
                        capacity[CLASSES.index((space.colour, True))] += 1
        else:
            served = {s for k in linked if pieces[k].tile.is_service
                      for s in pieces[k].tile.services}
            for space in tile.spaces:
                if space.service is None or space.service in served:
                    capacity[CLASSES.index((space.colour, space.service is not None))] += 1
        types = len(self.types | {tile.attraction}) if tile.attraction else len(self.types)
        return Gain(dead, tuple(capacity), types, self.open_ends - closed + opened)


def objective_value(puzzle: Puzzle, gain: Gain) -> int:
    """The puzzle's objective of a park with these figures (the park verifier's score)."""
    seated = [sum(row) for row in seating_plan(gain.capacity, puzzle.visitors)]
    if puzzle.objective == "variety":
        return gain.types
    if puzzle.objective == "seated":
        return sum(seated)
    inside = sum(n * v for n, v in zip(seated, VISITOR_VALUE, strict=True))
    everybody = sum(n * v for n, v in zip(puzzle.visitors, VISITOR_VALUE, strict=True))
    return variety_points(gain.types) + 2 * inside - everybody - \
        DEAD_END_PENALTY * gain.dead_ends


def shaped_value(puzzle: Puzzle, gain: Gain, spent: int, missing: int) -> float:
    """The greedy's ranking of a park (see the module docstring)."""
    value: float = objective_value(puzzle, gain)
    if puzzle.objective == "reputation" and gain.types < 10:
        value += VARIETY_SLOPE * gain.types - variety_points(gain.types)
    value += GROWTH * min(gain.open_ends, GROWTH_CAP)
    value -= (MONEY if puzzle.budget is not None else TIE_MONEY) * spent
    return value - REQUIRED * missing


def greedy_layout(puzzle: Puzzle, time_limit: float | None = None) -> GreedyLayout:
    """Grow a layout greedily (module docstring); stop early after ``time_limit`` seconds."""
    started = time.perf_counter()
    deadline = math.inf if time_limit is None else started + time_limit
    copies = Counter(puzzle.pool_counts())
    wanted = Counter(puzzle.required)
    tiles = puzzle.pool_tiles()
    chosen: list[Placement] = []
    spent = 0
    best: tuple[int, tuple[Placement, ...]] | None = None
    layout = puzzle.layout_of(chosen)
    steps = 0
    while True:
        problems, _, score = puzzle.judge(chosen)
        if not problems and score is not None:
            value = puzzle.value(score)
            if best is None or value > best[0]:
                best = (value, tuple(chosen))
        if time.perf_counter() > deadline:
            break
        here = GrowthStep(puzzle, layout)
        missing = sum(wanted.values())
        current = shaped_value(puzzle, Gain(here.dead_ends, here.capacity, len(here.types),
                                            here.open_ends), spent, missing)
        pick: tuple[float, Placement, Piece] | None = None
        for tile in tiles:
            if not copies[tile.id]:
                continue
            if puzzle.budget is not None and spent + tile.cost > puzzle.budget:
                continue
            for placement, piece in legal_placements(layout, tile):
                gain = here.gain(piece)
                if puzzle.no_dead_ends and gain.dead_ends:
                    continue
                still = missing - (1 if wanted[tile.id] else 0)
                shaped = shaped_value(puzzle, gain, spent + tile.cost, still)
                if shaped > current and (pick is None or shaped > pick[0]):
                    pick = (shaped, placement, piece)
        if pick is None:
            break
        _, placement, piece = pick
        chosen.append(placement)
        copies[placement.tile] -= 1
        if wanted[placement.tile]:
            wanted[placement.tile] -= 1
        spent += piece.tile.cost
        layout = Layout(layout.plot, [*layout.pieces, Piece.make(len(layout.pieces), placement,
                                                                 piece.tile)])
        steps += 1
    seconds = time.perf_counter() - started
    if best is None:
        return GreedyLayout(tuple(chosen), None, False, steps, seconds)
    return GreedyLayout(best[1], best[0], True, steps, seconds)


"""The brute-force oracle for layout puzzles: every subset of the pool, every position and turn.

Independent of the CP-SAT model: it walks the park's cells in reading order and at each empty
cell either leaves it empty or lays there any pool tile still available, in any turn, whose
turned footprint starts on that cell (its first cell in reading order).  Every layout is
enumerated exactly once; each complete one is judged by the park verifier
(:meth:`Puzzle.check`, :meth:`Layout.score`).  Exponential: for small plots only (tests and
the benchmark's baseline).
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ...models.meeple_land.game import Cell, Placement, Tile, footprint
from ...models.meeple_land.park import legal_placements
from ...models.meeple_land.puzzle import Puzzle
from ..budget import Budget, BudgetExhausted, Status


@dataclass(frozen=True)
class BruteResult:
    status: Status
    objective: int | None
    optimal_layouts: tuple[tuple[Placement, ...], ...] = ()
    layouts_seen: int = 0
    usage: dict[str, Any] = field(default_factory=dict)


def _shapes(tile: Tile) -> list[tuple[int, Cell, tuple[Cell, ...]]]:
    """The distinct turns of ``tile``: (rotation, first cell (reading order) of the tile
    turned and placed at (0, 0), cells relative to that first cell)."""
    found = []
    seen = set()
    for rotation in (0, 90, 180, 270):
        where = footprint(tile, (0, 0), rotation)
        first = min(where.cells, key=lambda c: (c[1], c[0]))
        cells = tuple(sorted((x - first[0], y - first[1]) for x, y in where.cells))
        ends = tuple(sorted(((x - first[0], y - first[1]), s) for (x, y), s in where.ends))
        if (cells, ends) not in seen:
            seen.add((cells, ends))
            found.append((rotation, first, cells))
    return found


def brute_force(puzzle: Puzzle, budget: Budget | None = None) -> BruteResult:
    """The optimum and every optimal layout of ``puzzle`` by exhaustive enumeration."""
    meter = (budget or Budget()).start()
    order = puzzle.plot.sorted_cells()
    taken: set[Cell] = set()
    for placement in puzzle.pre_placed():
        tile = puzzle.catalogue.tile(placement.tile)
        taken.update(footprint(tile, placement.at, placement.rotation).cells)
    counts = puzzle.pool_counts()
    shapes = {t: _shapes(puzzle.catalogue.tile(t)) for t in counts}
    left = Counter(counts)
    chosen: list[Placement] = []
    best: list[Any] = [None, []]
    seen = [0]

    def judge() -> None:
        seen[0] += 1
        problems, _, score = puzzle.judge(chosen)
        if problems or score is None:
            return
        value = puzzle.value(score)
        if best[0] is None or value > best[0]:
            best[0], best[1] = value, [tuple(sorted(chosen))]
        elif value == best[0]:
            best[1].append(tuple(sorted(chosen)))

    def walk(i: int) -> None:
        meter.node()
        while i < len(order) and order[i] in taken:
            i += 1
        if i == len(order):
            judge()
            return
        cell = order[i]
        walk(i + 1)  # leave the cell empty
        for tile_id in counts:
            if not left[tile_id]:
                continue
            for rotation, first, rel in shapes[tile_id]:
                cells = [(cell[0] + dx, cell[1] + dy) for dx, dy in rel]
                if not all(puzzle.plot.inside(c) and c not in taken for c in cells):
                    continue
                anchor = (cell[0] - first[0], cell[1] - first[1])
                chosen.append(Placement(tile_id, anchor, rotation))
                taken.update(cells)
                left[tile_id] -= 1
                walk(i + 1)
                left[tile_id] += 1
                taken.difference_update(cells)
                chosen.pop()

    try:
        walk(0)
    except BudgetExhausted:
        return BruteResult("unknown", best[0], tuple(best[1]), seen[0], meter.usage())
    if best[0] is None:
        return BruteResult("infeasible", None, (), seen[0], meter.usage())
    return BruteResult("optimal", best[0], tuple(sorted(set(best[1]))), seen[0],
                       meter.usage() | {"seconds": round(meter.elapsed, 4)})


def grow_search(puzzle: Puzzle, budget: Budget | None = None) -> BruteResult:
    """The optimum and every optimal layout by exhaustive *growth*: a second exact baseline,
    independent of the CP-SAT model, that reaches plots the plain brute force cannot.

    A legal park has a build order in which every tile connects when placed, so every legal
    layout is reached from the pre-placed tiles by adding, one at a time, a pool tile still
    available at a placement allowed by the game's placement rule
    (:func:`~partysolver.models.meeple_land.park.legal_placements`).  The search walks those
    additions depth first, remembering each layout (a set of placements) so that it is judged
    once, by the park verifier as in :func:`brute_force`.  Layouts over the budget are not
    grown further (costs only grow).  Exact; exponential in the number of legal layouts."""
    meter = (budget or Budget()).start()
    counts = puzzle.pool_counts()
    tiles = {t: puzzle.catalogue.tile(t) for t in counts}
    seen: set[frozenset[Placement]] = {frozenset()}
    stack: list[frozenset[Placement]] = [frozenset()]
    best: list[Any] = [None, []]
    try:
        while stack:
            meter.node()
            chosen = stack.pop()
            placements = sorted(chosen)
            problems, layout, score = puzzle.judge(placements)
            if not problems and score is not None:
                value = puzzle.value(score)
                if best[0] is None or value > best[0]:
                    best[0], best[1] = value, [tuple(placements)]
                elif value == best[0]:
                    best[1].append(tuple(placements))
            spent = sum(tiles[p.tile].cost for p in placements)
            if puzzle.budget is not None and spent > puzzle.budget:
                continue
            used = Counter(p.tile for p in placements)
            board = layout if layout is not None else puzzle.layout_of(placements)
            for tile_id, tile in tiles.items():
                if used[tile_id] >= counts[tile_id]:
                    continue
                for placement, _ in legal_placements(board, tile):
                    grown = chosen | {placement}
                    if grown not in seen:
                        seen.add(grown)
                        stack.append(grown)
    except BudgetExhausted:
        return BruteResult("unknown", best[0], tuple(best[1]), len(seen), meter.usage())
    if best[0] is None:
        return BruteResult("infeasible", None, (), len(seen), meter.usage())
    return BruteResult("optimal", best[0], tuple(sorted(best[1])), len(seen),
                       meter.usage() | {"seconds": round(meter.elapsed, 4)})


def timed(puzzle: Puzzle, budget: Budget | None = None) -> tuple[BruteResult, float]:
    started = time.perf_counter()
    result = brute_force(puzzle, budget)
    return result, time.perf_counter() - started

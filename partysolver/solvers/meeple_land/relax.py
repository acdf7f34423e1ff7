"""Strengthening a layout model: tile dominance and bounds by the number of attraction types.

Two kinds of *redundant* facts about a layout puzzle, each valid for every optimum the model
can return (``LayoutModel(..., strengthen=True)`` adds them; ``docs/solvers.md``):

* **tile dominance** (:func:`dominance_pairs`): pool tile ``A`` dominates ``B`` when both have
  the same attraction type and the same placements (the same cells and path ends wherever
  they lie), ``A`` provides every service ``B`` does, every visitor space of ``B`` can be
  matched to a distinct space of ``A`` that takes at least the same visitors without needing
  more (same colour or a joker; no service, or the same one), and ``A`` costs no more.
  Swapping ``B`` for ``A`` in any layout keeps it legal (the same path ends) and never lowers
  the score, the seating, the services or the types; so some optimum places ``B`` only when it
  places ``A``.  Identical tiles dominate each other; the first listed is kept first.
* **bounds by the number of types** (:func:`type_count_bounds`): for each number ``k`` of
  attraction types, the best final reputation of a *relaxation* without geometry — any
  multiset of pool tiles within the budget and the park's area, a special space usable as soon
  as some chosen tile provides its service, visitors seated by colour on the spaces, no dead
  end — with exactly ``k`` types.  Every layout with ``k`` types is a solution of that
  relaxation, so its reputation is at most the bound.  The variety table is a step function
  of ``k``, which a linear relaxation of the layout model cannot see: told the bound for each
  ``k``, CP-SAT's bound falls to the best of them at once (the 7x7 park from the whole house
  catalogue at $30: from 54 after ten minutes to 41 at the root).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from ortools.sat.python import cp_model

from ...models.meeple_land.game import (
    COLOURS,
    JOKER,
    SERVICES,
    VISITOR_VALUE,
    Placement,
    Space,
    Tile,
    variety_points,
)
from ...models.meeple_land.park import Piece, candidate_pieces
from ...models.meeple_land.puzzle import Puzzle
from ...models.meeple_land.seating import CLASSES

RELAX_SECONDS = 5.0
"""CP-SAT's time for each relaxation (tiny models: milliseconds); when it runs out the
relaxation's proven bound is used, which is still a bound."""


def _spaces_cover(strong: Sequence[Space], weak: Sequence[Space]) -> bool:
    """Whether every space of ``weak`` matches a distinct space of ``strong`` that takes the
    same visitors (its colour or a joker) and needs no other service (none, or the same)."""
    matched: dict[int, int] = {}

    def fits(s: Space, w: Space) -> bool:
        return s.colour in (w.colour, JOKER) and s.service in (None, w.service)

    def augment(i: int, seen: set[int]) -> bool:
        for j, s in enumerate(strong):
            if j in seen or not fits(s, weak[i]):
                continue
            seen.add(j)
            if j not in matched or augment(matched[j], seen):
                matched[j] = i
                return True
        return False

    return all(augment(i, set()) for i in range(len(weak)))


def dominates(puzzle: Puzzle, strong: Tile, weak: Tile) -> bool:
    """Whether ``strong`` can replace ``weak`` in any layout of ``puzzle`` without loss."""
    if strong.attraction != weak.attraction or strong.shape != weak.shape \
            or strong.cost > weak.cost or not set(weak.services) <= set(strong.services):
        return False
    if not _spaces_cover(strong.spaces, weak.spaces):
        return False
    where = {(p.cells, p.ends) for _, p in candidate_pieces(puzzle.plot, strong)[0]}
    return where == {(p.cells, p.ends) for _, p in candidate_pieces(puzzle.plot, weak)[0]}


def dominance_pairs(puzzle: Puzzle) -> list[tuple[str, str]]:
    """``(A, B)`` pairs of pool tiles, ``A`` dominating ``B``: some optimum places ``B`` only
    when it places ``A``.  Only tiles with one copy in the pool, never a required tile as
    ``B``; between identical tiles only the first listed dominates, so the pairs are
    consistent (a layout maximising the tiles placed earliest in the pool meets them all)."""
    counts = puzzle.pool_counts()
    tiles = [t for t in puzzle.pool_tiles() if counts[t.id] == 1]
    required = set(puzzle.required)
    order = {t.id: i for i, t in enumerate(tiles)}
    pairs = []
    for a in tiles:
        for b in tiles:
            if a is b or b.id in required or not dominates(puzzle, a, b):
                continue
            if dominates(puzzle, b, a) and order[b.id] < order[a.id]:
                continue  # equivalent: the first listed comes first
            pairs.append((a.id, b.id))
    # Strict dominance can still run both ways only between equivalent tiles (handled above),
    # so ordering the pool by "dominated by fewer" is a linear extension: no cycle.
    return pairs


def type_count_bounds(puzzle: Puzzle, seconds: float = RELAX_SECONDS) -> list[int | None]:
    """For each number of attraction types ``k`` (0 to the number of types in the pool and
    the pre-placed tiles), an upper bound on the final reputation of any layout of ``puzzle``
    whose model counts ``k`` types, from the geometry-free relaxation of the module
    docstring; ``None`` when no layout can have ``k`` types."""
    pool = puzzle.pool_counts()
    fixed = Counter(p.tile for p in puzzle.pre_placed())
    tiles = {t.id: t for t in puzzle.pool_tiles()}
    tiles |= {t: puzzle.catalogue.tile(t) for t in fixed}
    kinds = sorted({t.attraction for t in tiles.values() if t.attraction is not None})
    bounds: list[int | None] = []
    for k in range(len(kinds) + 1):
        bounds.append(_relaxation(puzzle, tiles, pool, fixed, kinds, k, seconds))
    return bounds


def _relaxation(puzzle: Puzzle, tiles: dict[str, Tile], pool: dict[str, int],
                fixed: Counter[str], kinds: list[str], k: int, seconds: float) -> int | None:
    """The bound for ``k`` types (see :func:`type_count_bounds`); ``None``: infeasible."""
    model = cp_model.CpModel()
    # Tiles that differ only in their path ends are one class: the relaxation has no geometry.
    classes: dict[tuple[object, ...], list[str]] = {}
    for tile_id, tile in tiles.items():
        key: tuple[object, ...] = (tile.attraction, tile.cost, tile.area, tuple(sorted(tile.services)),
               tuple(sorted((s.colour, s.service or "") for s in tile.spaces)))
        classes.setdefault(key, []).append(tile_id)
    count: dict[tuple[object, ...], cp_model.IntVar] = {}
    most_of: dict[tuple[object, ...], int] = {}
    spent, area = [], []
    for key, ids in classes.items():
        low = sum(fixed[i] for i in ids)
        high = low + sum(pool.get(i, 0) for i in ids)
        var = model.new_int_var(low, high, f"n_{ids[0]}")
        count[key] = var
        most_of[key] = high
        tile = tiles[ids[0]]
        spent.append(tile.cost * (var - low))
        area.append(tile.area * var)
    model.add(sum(area) <= len(puzzle.plot.cells))
    if puzzle.budget is not None:
        model.add(sum(spent) <= puzzle.budget)
    # services: a special space is usable once some chosen tile provides its service
    provided = {}
    for service in SERVICES:
        providers = [count[key] for key, ids in classes.items()
                     if service in tiles[ids[0]].services]
        var = model.new_bool_var(f"has_{service}")
        model.add(var <= sum(providers)) if providers else model.add(var == 0)
        provided[service] = var
    capacity: list[object] = [0] * len(CLASSES)
    for c, (colour, special) in enumerate(CLASSES):
        if not special:
            capacity[c] = sum(count[key] * sum(1 for s in tiles[ids[0]].spaces
                                               if s.colour == colour and s.service is None)
                              for key, ids in classes.items())
            continue
        parts = []
        for service in SERVICES:
            most = sum(most_of[key] * sum(
                1 for s in tiles[ids[0]].spaces if s.colour == colour and s.service == service)
                for key, ids in classes.items())
            if not most:
                continue
            part = model.new_int_var(0, most, f"special_{colour}_{service}")
            model.add(part <= sum(count[key] * sum(
                1 for s in tiles[ids[0]].spaces if s.colour == colour and s.service == service)
                for key, ids in classes.items()))
            model.add(part <= most * provided[service])
            parts.append(part)
        capacity[c] = sum(parts)
    visitors = puzzle.visitors
    seated = []
    flows: dict[tuple[int, int], cp_model.IntVar] = {}
    for v, colour in enumerate(COLOURS):
        for c, (accepts, _) in enumerate(CLASSES):
            if visitors[v] and accepts in (colour, JOKER):
                flows[(v, c)] = model.new_int_var(0, visitors[v], f"seat_{colour}_{c}")
        mine = [f for (vv, _), f in flows.items() if vv == v]
        model.add(sum(mine) <= visitors[v])
        seated.append(sum(mine))
    for c in range(len(CLASSES)):
        into = [f for (_, cc), f in flows.items() if cc == c]
        if into:
            model.add(sum(into) <= capacity[c])  # type: ignore[operator]
    has = []
    for kind in kinds:
        var = model.new_bool_var(f"type_{kind}")
        model.add(var <= sum(count[key] for key, ids in classes.items()
                             if tiles[ids[0]].attraction == kind))
        has.append(var)
    model.add(sum(has) == k)
    if puzzle.budget is not None:
        # redundant: each type present costs at least its cheapest pool tile (nothing when a
        # pre-placed tile has it); without it CP-SAT did not prove in 5 s that 11 types are
        # out of reach at $30 (at least $32)
        cheapest = [min((0 if any(fixed[i] for i in key_ids) else tiles[key_ids[0]].cost)
                        for key_ids in classes.values() if tiles[key_ids[0]].attraction == kind)
                    for kind in kinds]
        model.add(sum(c * h for c, h in zip(cheapest, has, strict=True)) <= puzzle.budget)
    everybody = sum(n * value for n, value in zip(visitors, VISITOR_VALUE, strict=True))
    model.maximize(variety_points(k) - everybody + 2 * sum(
        value * s for value, s in zip(VISITOR_VALUE, seated, strict=True)))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    # the full linear relaxation: with CP-SAT's default one the search found no solution for
    # 10 types at $30 within 30 s; with it, the optimum 41 is proven in 0.03 s
    solver.parameters.linearization_level = 2
    solver.parameters.max_time_in_seconds = seconds
    code = solver.solve(model)
    if code == cp_model.INFEASIBLE:
        return None
    if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        # out of time without a solution: the ceiling of the objective
        return variety_points(k) + everybody
    return math.floor(solver.best_objective_bound + 1e-6)


def respect_dominance(puzzle: Puzzle, placements: Sequence[Placement],
                      pairs: Sequence[tuple[str, str]]) -> list[Placement]:
    """``placements`` with each dominated tile swapped for the tile dominating it while that
    one is unplaced (same cells and path ends), until every pair holds: a layout at least as
    good that meets :func:`dominance_pairs` (so it can seed the strengthened model)."""
    chosen = list(placements)
    changed = True
    while changed:
        changed = False
        used = {p.tile for p in chosen}
        for strong, weak in pairs:
            if weak not in used or strong in used:
                continue
            i = next(i for i, p in enumerate(chosen) if p.tile == weak)
            piece = Piece.make(0, chosen[i], puzzle.catalogue.tile(weak))
            chosen[i] = next(p for p, q in candidate_pieces(
                puzzle.plot, puzzle.catalogue.tile(strong))[0]
                if (q.cells, q.ends) == (piece.cells, piece.ends))
            changed = True
            break
    return chosen

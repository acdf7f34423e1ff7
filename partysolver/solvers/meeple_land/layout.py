"""Layout puzzles in CP-SAT: which pool tiles to place, where and how turned.

One model, built in named steps (:class:`LayoutModel`), every variable named:

1. *placements*: a literal per (tile, anchor cell, rotation) that lies inside the park; turns
   that give the same cells and path ends are one literal (a symmetric tile is not counted
   four times); copies of a tile share its literals (``sum <= copies``), so copies need no
   symmetry breaking.  Each pre-placed tile has one literal, ``keep``;
2. *coverage*: ``add_at_most_one`` over the literals covering each cell; ``cover[c]``;
3. *path ends*: ``end[c,d]`` = a placed tile has a path end on side ``d`` of cell ``c``;
4. *connections*: ``conn`` across each inner segment needs a path end on both sides;
5. *connectivity* inside the model, as a rank/parent tree rooted at the entrances: every
   covered cell picks exactly one parent arc, either from an entrance its tile's path end lies
   on, or from a neighbouring cell of the same tile, or across a connection, and ranks grow
   along arcs (so the arcs form a tree and every tile is reachable);
6. *dead ends*: ``dead`` >= a path end facing a covered cell without a path end back (and an
   entrance running into a tile with no path end there);
7. *services*: ``served[p,s]`` only when a tile providing ``s`` has a path end facing one of
   placement ``p``'s path ends (a direct connection);
8. *seating*: a transportation of the visitors (by colour) to space classes (colour or joker,
   special or not), whose capacities count the placed tiles' spaces and the served special
   ones: the exact weighted matching of :mod:`~partysolver.models.meeple_land.seating`;
9. *variety*: ``has[type]`` and the variety table as an element constraint;
10. *requirements*: budget, no dead ends, seat everybody, targets, required and pre-placed
    tiles, each enforced by its own literal (assumptions name the conflicting ones);
11. *redundant* constraints, labelled: every placed tile has a path end facing a path end or
    an entrance, and the placed area fits the free area;
12. optionally (``strengthen``, :mod:`.relax`), more: tile dominance, and the final
    reputation capped by a geometry-free relaxation's bound for each number of types.

Every returned layout is re-checked by the park verifier (:meth:`Puzzle.check` and the
:class:`~partysolver.models.meeple_land.park.Layout` score).
"""

from __future__ import annotations

import hashlib
import math
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal

from ...models.meeple_land.game import (
    COLOURS,
    JOKER,
    SERVICES,
    SIDES,
    VISITOR_VALUE,
    Cell,
    Edge,
    Placement,
    Tile,
    facing,
    neighbour,
    variety_points,
)
from ...models.meeple_land.park import Layout, Piece, candidate_pieces
from ...models.meeple_land.puzzle import Puzzle, Requirement
from ...models.meeple_land.seating import CLASSES, seating_plan
from ..budget import Status, Verdict
from .greedy import greedy_layout

if TYPE_CHECKING:  # OR-Tools loads when CP-SAT is to run (ORTOOLS_IMPORT_SECONDS)
    from ortools.sat.python import cp_model

DEFAULT_COUNT_LIMIT = 1000
Mode = Literal["optimize", "explain", "count"]


@dataclass(frozen=True)
class Candidate:
    """A placement the model may choose (``fixed``: a pre-placed tile)."""

    placement: Placement
    piece: Piece
    literal: cp_model.IntVar
    fixed: int | None = None
    """Index of the pre-placed tile, ``None`` for a pool tile."""

    @property
    def tile(self) -> Tile:
        return self.piece.tile


@dataclass(frozen=True)
class LayoutResult:
    """A solved (or not) layout puzzle."""

    status: Status
    objective: int | None
    """The objective's value of the layout found (from the park verifier)."""
    bound: int | None
    """The best proven bound on the objective (equals ``objective`` when optimal)."""
    placements: tuple[Placement, ...] = ()
    """The pool tiles placed (pre-placed tiles are not repeated)."""
    layout: Layout | None = None
    build_order: tuple[int, ...] = ()
    """Indices into ``layout.pieces``: every tile connects when placed."""
    conflict: tuple[Requirement, ...] = ()
    """For ``infeasible``: requirements that cannot all hold together (minimal, unless
    ``conflict_minimal`` says the time limit cut the explanation)."""
    conflict_minimal: bool = True
    """Whether ``conflict`` is proven minimal (each of its requirements is needed)."""
    count: int | None = None
    """Distinct optimal layouts (projected onto placements), when counted."""
    count_complete: bool = False
    usage: dict[str, Any] = field(default_factory=dict)


# -- the model --------------------------------------------------------------------------------


class LayoutModel:
    """The CP-SAT model of one puzzle (see the module docstring for the steps)."""

    def __init__(self, puzzle: Puzzle, mode: Mode = "optimize",
                 strengthen: Sequence[str] = ()) -> None:
        self.puzzle = puzzle
        self.plot = puzzle.plot
        self.mode = mode
        self.explain = mode == "explain"
        self.exact = mode == "count"
        """Counting: every auxiliary variable is a function of the placement literals, so
        each solution of the model is a different layout (but for the seating flows)."""
        from ortools.sat.python import cp_model

        self.model = cp_model.CpModel()
        self.model.name = f"meeple-land layout {puzzle.name or ''}".strip()
        self.cells: list[Cell] = self.plot.sorted_cells()
        self.requirement_literals: dict[str, cp_model.IntVar] = {}
        self._add_placements()
        self._add_coverage()
        self._add_path_ends()
        self._add_connections()
        if self.exact:
            self._add_distances()
        else:
            self._add_connectivity()
        self._add_dead_ends()
        self._add_services()
        self._add_seating()
        self._add_variety()
        self._add_requirements()
        self._add_redundant()
        self.type_count: dict[int, cp_model.IntVar] = {}
        self.dominance: list[tuple[str, str]] = []
        self.type_bounds: list[int | None] = []
        if mode == "optimize":
            self._add_objective()
            if "dominance" in strengthen:
                self._add_dominance()
            if "types" in strengthen:
                self._add_type_bounds()

    # 1. placements -------------------------------------------------------------------------

    def _add_placements(self) -> None:
        self.candidates: list[Candidate] = []
        self.by_tile: dict[str, list[Candidate]] = {}
        for i, placement in enumerate(self.puzzle.pre_placed()):
            tile = self.puzzle.catalogue.tile(placement.tile)
            piece = Piece.make(0, placement, tile)
            literal = self.model.new_bool_var(f"keep_{i}_{placement}")
            self.candidates.append(Candidate(placement, piece, literal, i))
        for tile in self.puzzle.pool_tiles():
            seen: set[tuple[tuple[Cell, ...], tuple[Edge, ...]]] = set()
            options = []
            for placement, piece in candidate_pieces(self.plot, tile)[0]:
                if (piece.cells, piece.ends) in seen:
                    continue
                seen.add((piece.cells, piece.ends))
                literal = self.model.new_bool_var(f"place_{tile.id}_{placement.at[0]}_"
                                                  f"{placement.at[1]}_r{placement.rotation}")
                options.append(Candidate(placement, piece, literal))
            self.by_tile[tile.id] = options
            self.candidates += options
            copies = self.puzzle.pool_counts()[tile.id]
            self.model.add(sum(c.literal for c in options) <= copies)
        self.covering: dict[Cell, list[Candidate]] = {c: [] for c in self.cells}
        self.ending: dict[Edge, list[Candidate]] = {}
        for cand in self.candidates:
            for cell in cand.piece.cells:
                self.covering[cell].append(cand)
            for edge in cand.piece.ends:
                self.ending.setdefault(edge, []).append(cand)

    # 2. coverage ---------------------------------------------------------------------------

    def _add_coverage(self) -> None:
        self.cover: dict[Cell, cp_model.IntVar] = {}
        for cell in self.cells:
            literals = [c.literal for c in self.covering[cell]]
            var = self.model.new_bool_var(f"cover_{cell[0]}_{cell[1]}")
            self.model.add_at_most_one(literals)
            self.model.add(var == sum(literals))
            self.cover[cell] = var

    # 3. path ends --------------------------------------------------------------------------

    def _add_path_ends(self) -> None:
        self.end: dict[Edge, cp_model.IntVar] = {}
        for edge, cands in sorted(self.ending.items()):
            var = self.model.new_bool_var(f"end_{edge[0][0]}_{edge[0][1]}_{edge[1].name}")
            self.model.add(var == sum(c.literal for c in cands))
            self.end[edge] = var

    # 4. connections ------------------------------------------------------------------------

    def _add_connections(self) -> None:
        """``conn[(a, d)]``: the tiles on both sides of the segment have a path end on it."""
        self.conn: dict[Edge, cp_model.IntVar] = {}
        for edge, here in self.end.items():
            other = facing(edge)
            there = self.end.get(other)
            if there is None or edge > other:
                continue
            var = self.model.new_bool_var(f"conn_{edge[0][0]}_{edge[0][1]}_{edge[1].name}")
            self.model.add_implication(var, here)
            self.model.add_implication(var, there)
            if self.exact:
                self.model.add_bool_or([var, here.negated(), there.negated()])
            self.conn[edge] = self.conn[other] = var

    # 5. connectivity -----------------------------------------------------------------------

    def _add_connectivity(self) -> None:
        """A rank/parent tree rooted at the entrances spans every covered cell."""
        n = len(self.cells)
        self.rank = {c: self.model.new_int_var(0, n, f"rank_{c[0]}_{c[1]}") for c in self.cells}
        self.arcs: dict[tuple[Cell, Cell], cp_model.IntVar] = {}
        self.roots: dict[Edge, cp_model.IntVar] = {}
        for cell in self.cells:
            parents = []
            for edge in self.plot.entrances:
                if edge[0] == cell and edge in self.end:
                    root = self.model.new_bool_var(f"root_{cell[0]}_{cell[1]}_{edge[1].name}")
                    self.model.add_implication(root, self.end[edge])
                    self.model.add(self.rank[cell] == 0).only_enforce_if(root)
                    parents.append(root)
                    self.roots[edge] = root
            for side in SIDES:
                other = neighbour(cell, side)
                if other not in self.cover:
                    continue
                same = [c.literal for c in self.covering[cell]
                        if other in c.piece.cells]
                link = self.conn.get((cell, side))
                if not same and link is None:
                    continue
                arc = self.model.new_bool_var(f"arc_{other[0]}_{other[1]}_to_{cell[0]}_"
                                              f"{cell[1]}")
                self.model.add(arc <= sum(same) + (link if link is not None else 0))
                self.model.add(self.rank[cell] >= self.rank[other] + 1).only_enforce_if(arc)
                self.arcs[(other, cell)] = arc
                parents.append(arc)
            self.model.add(sum(parents) == self.cover[cell])

    def _add_distances(self) -> None:
        """Connectivity for counting: ``dist[c]`` is the exact number of steps from an
        entrance (the unique solution of ``dist = min(0 at an entrance path end, neighbour +
        1 across a connection or inside a tile)``); a covered cell must have a finite one."""
        far = len(self.cells) + 1
        self.dist = {c: self.model.new_int_var(0, far, f"dist_{c[0]}_{c[1]}")
                     for c in self.cells}
        for cell in self.cells:
            terms: list[Any] = []
            for edge in self.plot.entrances:
                if edge[0] == cell and edge in self.end:
                    terms.append(far - far * self.end[edge])
            for side in SIDES:
                other = neighbour(cell, side)
                if other not in self.cover:
                    continue
                same = [c.literal for c in self.covering[cell] if other in c.piece.cells]
                link = self.conn.get((cell, side))
                if not same and link is None:
                    continue
                active = self.model.new_bool_var(f"step_{other[0]}_{other[1]}_to_{cell[0]}_"
                                                 f"{cell[1]}")
                self.model.add(active == sum(same) + (link if link is not None else 0))
                term = self.model.new_int_var(1, far, f"via_{other[0]}_{other[1]}_to_"
                                              f"{cell[0]}_{cell[1]}")
                self.model.add(term == self.dist[other] + 1).only_enforce_if(active)
                self.model.add(term == far).only_enforce_if(active.negated())
                terms.append(term)
            if terms:
                self.model.add_min_equality(self.dist[cell], terms)
            else:
                self.model.add(self.dist[cell] == far)
            self.model.add(self.dist[cell] < far).only_enforce_if(self.cover[cell])

    # 6. dead ends --------------------------------------------------------------------------

    def _add_dead_ends(self) -> None:
        self.dead: dict[Edge, cp_model.IntVar] = {}
        self.entrance_dead: dict[Edge, cp_model.IntVar] = {}
        for edge, here in self.end.items():
            other = facing(edge)
            if other[0] not in self.cover:
                continue  # the park's boundary: no cost
            var = self.model.new_bool_var(f"dead_{edge[0][0]}_{edge[0][1]}_{edge[1].name}")
            back = self.end.get(other, 0)
            self.model.add(var >= here + self.cover[other[0]] - back - 1)
            if self.exact:
                self.model.add_implication(var, here)
                self.model.add_implication(var, self.cover[other[0]])
                self.model.add(var + back <= 1)
            self.dead[edge] = var
        for edge in self.plot.entrances:
            if edge[0] not in self.cover:
                continue
            var = self.model.new_bool_var(f"dead_entrance_{edge[0][0]}_{edge[0][1]}_"
                                          f"{edge[1].name}")
            self.model.add(var >= self.cover[edge[0]] - self.end.get(edge, 0))
            if self.exact:
                self.model.add_implication(var, self.cover[edge[0]])
                self.model.add(var + self.end.get(edge, 0) <= 1)
            self.entrance_dead[edge] = var
        self.dead_count = sum(self.dead.values()) + sum(self.entrance_dead.values())

    # 7. services ---------------------------------------------------------------------------

    def _add_services(self) -> None:
        """``served[(candidate, service)]`` only when a tile providing the service is directly
        connected to the candidate attraction."""
        self.service_end: dict[tuple[Edge, str], Any] = {}
        for edge, cands in self.ending.items():
            for service in SERVICES:
                providers = [c.literal for c in cands if service in c.tile.services]
                if providers:
                    self.service_end[(edge, service)] = sum(providers)
        self.served: dict[tuple[int, str], cp_model.IntVar] = {}
        for k, cand in enumerate(self.candidates):
            needed = sorted({s.service for s in cand.tile.spaces if s.service})
            for service in needed:
                supply = [self.service_end[(facing(e), service)] for e in cand.piece.ends
                          if (facing(e), service) in self.service_end]
                var = self.model.new_bool_var(f"served_{cand.placement}_{service}")
                self.model.add_implication(var, cand.literal)
                self.model.add(var <= sum(supply))
                if self.exact:
                    for one in supply:
                        self.model.add(var >= cand.literal + one - 1)
                self.served[(k, service)] = var

    # 8. seating ----------------------------------------------------------------------------

    def _add_seating(self) -> None:
        visitors = self.puzzle.visitors
        self.seated: list[Any] = [0, 0, 0, 0]
        self.flows: dict[tuple[int, int], cp_model.IntVar] = {}
        puzzle = self.puzzle
        matters = puzzle.objective != "variety" or puzzle.seat_all \
            or puzzle.min_reputation is not None
        if not any(visitors) or not matters:
            return
        capacity: list[Any] = [0] * len(CLASSES)
        for k, cand in enumerate(self.candidates):
            for space in cand.tile.spaces:
                cls = CLASSES.index((space.colour, space.service is not None))
                literal = self.served[(k, space.service)] if space.service else cand.literal
                capacity[cls] = capacity[cls] + literal
        flows = self.flows
        for c, colour in enumerate(COLOURS):
            if not visitors[c]:
                continue
            for k, (accepts, _) in enumerate(CLASSES):
                if accepts in (colour, JOKER) and not isinstance(capacity[k], int):
                    flows[(c, k)] = self.model.new_int_var(0, visitors[c],
                                                           f"seat_{colour}_on_{accepts}_{k}")
            self.seated[c] = sum(v for (cc, _), v in flows.items() if cc == c)
            self.model.add(self.seated[c] <= visitors[c])
        for k in range(len(CLASSES)):
            into = [v for (_, kk), v in flows.items() if kk == k]
            if into:
                self.model.add(sum(into) <= capacity[k])

    def seated_value(self) -> Any:
        return sum(VISITOR_VALUE[c] * self.seated[c] for c in range(len(COLOURS)))

    # 9. variety ----------------------------------------------------------------------------

    def _add_variety(self) -> None:
        kinds: dict[str, list[cp_model.IntVar]] = {}
        for cand in self.candidates:
            if cand.tile.attraction is not None:
                kinds.setdefault(cand.tile.attraction, []).append(cand.literal)
        self.has = {}
        for kind, literals in sorted(kinds.items()):
            var = self.model.new_bool_var(f"has_{kind}")
            self.model.add(var <= sum(literals))
            if self.exact:
                for literal in literals:
                    self.model.add_implication(literal, var)
            self.has[kind] = var
        self.types = self.model.new_int_var(0, len(kinds), "types")
        self.model.add(self.types == sum(self.has.values()))
        self.variety = self.model.new_int_var(0, variety_points(len(kinds)), "variety_points")
        self.model.add_element(self.types, [variety_points(i) for i in range(len(kinds) + 1)],
                               self.variety)

    def reputation_expr(self) -> Any:
        total = sum(n * v for n, v in zip(self.puzzle.visitors, VISITOR_VALUE, strict=True))
        return self.variety + 2 * self.seated_value() - total - 2 * self.dead_count

    def objective_expr(self) -> Any:
        if self.puzzle.objective == "variety":
            return self.types
        if self.puzzle.objective == "seated":
            return sum(self.seated)
        return self.reputation_expr()

    def _add_objective(self) -> None:
        """``objective`` = the objective, in a domain no layout can leave: at most every type
        and every visitor seated, at least every visitor waiting and every possible dead end.
        Redundant (the expression implies it), but CP-SAT's presolve rewrites the objective
        over the placement literals and may lose these plain limits: a 7x7 ``seated`` puzzle
        with 24 visitors kept a bound of 78 without them."""
        everybody = sum(n * v for n, v in zip(self.puzzle.visitors, VISITOR_VALUE, strict=True))
        dead = len(self.dead) + len(self.entrance_dead)
        low, high = {
            "variety": (0, len(self.has)),
            "seated": (0, sum(self.puzzle.visitors)),
        }.get(self.puzzle.objective, (-everybody - 2 * dead,
                                      variety_points(len(self.has)) + everybody))
        self.objective = self.model.new_int_var(low, high, "objective")
        self.model.add(self.objective == self.objective_expr())
        self.model.maximize(self.objective)

    # 10. requirements ----------------------------------------------------------------------

    def _requirement(self, requirement: Requirement) -> cp_model.IntVar:
        literal = self.model.new_bool_var(f"require_{requirement.key}")
        if not self.explain:
            self.model.add(literal == 1)
        self.requirement_literals[requirement.key] = literal
        return literal

    def _add_requirements(self) -> None:
        puzzle = self.puzzle
        self.requirements = puzzle.requirements()
        by_key = {r.key: r for r in self.requirements}
        pool = [c for c in self.candidates if c.fixed is None]
        self.spent = sum(c.tile.cost * c.literal for c in pool)
        for requirement in self.requirements:
            literal = self._requirement(requirement)
            key = requirement.key
            if key == "budget":
                assert puzzle.budget is not None
                self.model.add(self.spent <= puzzle.budget).only_enforce_if(literal)
            elif key == "no-dead-ends":
                self.model.add(self.dead_count == 0).only_enforce_if(literal)
            elif key == "seat-all":
                self.model.add(sum(self.seated) == sum(puzzle.visitors)).only_enforce_if(literal)
            elif key == "min-reputation":
                self.model.add(self.reputation_expr() >= puzzle.min_reputation
                               ).only_enforce_if(literal)
            elif key == "min-variety":
                self.model.add(self.types >= puzzle.min_variety).only_enforce_if(literal)
            elif key.startswith("required:"):
                tile_id = key.split(":", 1)[1]
                wanted = puzzle.required.count(tile_id)
                self.model.add(sum(c.literal for c in self.by_tile[tile_id]) >= wanted
                               ).only_enforce_if(literal)
            elif key.startswith("placed:"):
                index = int(key.split(":", 1)[1])
                keep = next(c for c in self.candidates if c.fixed == index)
                self.model.add(keep.literal == 1).only_enforce_if(literal)
            else:  # pragma: no cover - every requirement kind is handled above
                raise ValueError(f"unknown requirement {by_key[key]}")

    # 11. redundant constraints -------------------------------------------------------------

    def _add_redundant(self) -> None:
        """Implied by the rules; stated to help propagation."""
        entrances = set(self.plot.entrances)
        for cand in self.candidates:
            # Redundant: a placed tile is reachable, so one of its path ends meets a path end
            # of another tile or an entrance.
            if any(e in entrances for e in cand.piece.ends):
                continue
            facing_ends = [self.end[facing(e)] for e in cand.piece.ends if facing(e) in self.end]
            self.model.add(sum(facing_ends) >= cand.literal)
        # Redundant: the placed area fits the park.
        self.model.add(sum(c.tile.area * c.literal for c in self.candidates) <= len(self.cells))
        # Redundant: every attraction type present takes a tile of its own, at least as large
        # and (unless pre-placed) as dear as the type's smallest and cheapest candidate.  As
        # knapsacks over has[type] they keep the default linear relaxation's bound on the
        # number of types honest: presolve turns has[type] <= its placements into a clause,
        # which that relaxation leaves out (a 7x7 variety puzzle with a budget of $30: bound
        # 11 types without them, the optimum 8 with).
        area: dict[str, int] = {}
        cost: dict[str, int] = {}
        for cand in self.candidates:
            kind = cand.tile.attraction
            if kind is not None:
                area[kind] = min(area.get(kind, cand.tile.area), cand.tile.area)
                price = 0 if cand.fixed is not None else cand.tile.cost
                cost[kind] = min(cost.get(kind, price), price)
        self.model.add(sum(area[k] * has for k, has in self.has.items()) <= len(self.cells))
        if "budget" in self.requirement_literals:
            assert self.puzzle.budget is not None
            self.model.add(sum(cost[k] * has for k, has in self.has.items()) <=
                           self.puzzle.budget).only_enforce_if(
                               self.requirement_literals["budget"])

    # 12. strengthening (optional) ---------------------------------------------------------

    def _add_dominance(self) -> None:
        """Redundant for the optimum (:func:`~.relax.dominance_pairs`): a dominated pool tile
        is placed only when the tile dominating it is."""
        from .relax import dominance_pairs

        self.dominance = dominance_pairs(self.puzzle)
        for strong, weak in self.dominance:
            self.model.add(sum(c.literal for c in self.by_tile[weak])
                           <= sum(c.literal for c in self.by_tile[strong]))

    def _add_type_bounds(self) -> None:
        """Redundant (:func:`~.relax.type_count_bounds`): the number of types, one-hot
        (``types_is[k]``), caps the final reputation by the geometry-free relaxation's bound
        for ``k`` types.  Reputation objective only."""
        from .relax import type_count_bounds

        if self.puzzle.objective != "reputation":
            return
        self.type_bounds = type_count_bounds(self.puzzle)
        for k, bound in enumerate(self.type_bounds):
            var = self.model.new_bool_var(f"types_is_{k}")
            if bound is None:
                self.model.add(var == 0)
            self.type_count[k] = var
        self.model.add_exactly_one(self.type_count.values())
        self.model.add(self.types == sum(k * v for k, v in self.type_count.items()))
        self.model.add(self.objective <= sum((b or 0) * self.type_count[k]
                                             for k, b in enumerate(self.type_bounds)))

    # -- the warm start ----------------------------------------------------------------------

    def add_hint(self, placements: Sequence[Placement]) -> None:
        """A complete solution hint from a layout (CP-SAT follows a hint of every variable far
        better than one of the placements alone): the pre-placed tiles and the pool
        ``placements`` placed, every other candidate not, and each auxiliary variable as that
        layout makes it (cover, path ends, connections, a breadth-first parent tree from the
        entrances with its depths as ranks, dead ends, services, the best seating's flows,
        types, requirements).  Turns with the same cells and path ends are one literal, so a
        placement is matched by its tile, cells and path ends.  Optimisation models only.  A
        hint is advice: a wrong one costs time, never correctness."""
        assert self.mode == "optimize"
        wanted = set()
        for placement in placements:
            piece = Piece.make(0, placement, self.puzzle.catalogue.tile(placement.tile))
            wanted.add((placement.tile, piece.cells, piece.ends))
        values: dict[int, tuple[cp_model.IntVar, int]] = {}

        def hint(var: cp_model.IntVar, value: int | bool) -> None:
            values[var.index] = (var, int(value))

        placed = [c.fixed is not None or (c.tile.id, c.piece.cells, c.piece.ends) in wanted
                  for c in self.candidates]
        owner: dict[Cell, Candidate] = {}
        end_owner: dict[Edge, Candidate] = {}
        for cand, on in zip(self.candidates, placed, strict=True):
            hint(cand.literal, on)
            if on:
                owner.update((cell, cand) for cell in cand.piece.cells)
                end_owner.update((edge, cand) for edge in cand.piece.ends)
        for cell, var in self.cover.items():
            hint(var, cell in owner)
        for edge, var in self.end.items():
            hint(var, edge in end_owner)
        for edge, var in self.conn.items():
            hint(var, edge in end_owner and facing(edge) in end_owner)
        self._hint_tree(owner, end_owner, hint)
        for edge, var in self.dead.items():
            other = facing(edge)
            hint(var, edge in end_owner and other[0] in owner and other not in end_owner)
        for edge, var in self.entrance_dead.items():
            hint(var, edge[0] in owner and edge not in end_owner)
        served: dict[tuple[int, str], bool] = {}
        for (k, service), var in self.served.items():
            cand = self.candidates[k]
            served[(k, service)] = placed[k] and any(
                facing(e) in end_owner and service in end_owner[facing(e)].tile.services
                for e in cand.piece.ends)
            hint(var, served[(k, service)])
        capacity = [0] * len(CLASSES)
        for k, cand in enumerate(self.candidates):
            for space in cand.tile.spaces:
                usable = served[(k, space.service)] if space.service else placed[k]
                capacity[CLASSES.index((space.colour, space.service is not None))] += usable
        plan = seating_plan(tuple(capacity), self.puzzle.visitors)
        for (c, k), var in self.flows.items():
            hint(var, plan[c][k])
        kinds = {c.tile.attraction for c in owner.values() if c.tile.attraction is not None}
        for kind, var in self.has.items():
            hint(var, kind in kinds)
        hint(self.types, len(kinds))
        for k, var in self.type_count.items():
            hint(var, k == len(kinds))
        hint(self.variety, variety_points(len(kinds)))
        for var in self.requirement_literals.values():
            hint(var, True)
        layout = self.puzzle.layout_of(placements)
        hint(self.objective, self.puzzle.value(layout.score(self.puzzle.visitors)))
        for var, value in values.values():
            self.model.add_hint(var, value)

    def _hint_tree(self, owner: dict[Cell, Candidate], end_owner: dict[Edge, Candidate],
                   hint: Callable[[cp_model.IntVar, int | bool], None]) -> None:
        """The parent tree of a layout: breadth first from the entrances' path ends, each
        covered cell's parent the first cell it is reached from (inside one tile or across a
        connection), its rank the depth."""
        depth: dict[Cell, int] = {}
        parent: set[int] = set()
        queue: deque[Cell] = deque()
        for edge, root in sorted(self.roots.items()):
            if edge in end_owner and edge[0] not in depth:
                depth[edge[0]] = 0
                parent.add(root.index)
                queue.append(edge[0])
        while queue:
            here = queue.popleft()
            for side in SIDES:
                there = neighbour(here, side)
                arc = self.arcs.get((here, there))
                if arc is None or there in depth or there not in owner:
                    continue
                if owner[there] is owner[here] or (
                        (here, side) in end_owner and facing((here, side)) in end_owner):
                    depth[there] = depth[here] + 1
                    parent.add(arc.index)
                    queue.append(there)
        for var in [*self.roots.values(), *self.arcs.values()]:
            hint(var, var.index in parent)
        for cell, var in self.rank.items():
            hint(var, depth.get(cell, 0))

    # -- reading a solution ------------------------------------------------------------------

    def chosen(self, solver: cp_model.CpSolver) -> list[Candidate]:
        return [c for c in self.candidates if solver.boolean_value(c.literal)]


# -- solving ----------------------------------------------------------------------------------


SEED_RANGE = 2**31
"""CP-SAT's ``random_seed`` is an int32: seeds are mapped into ``[0, 2**31)``."""


def cp_sat_seed(seed: int) -> int:
    """``seed`` as a CP-SAT ``random_seed``: the seed itself when it fits
    (``0 <= seed < 2**31``), otherwise a deterministic hash of it into that range, so that any
    integer the CLI accepts (``--seed 2147483648``, ``--seed -1``) gives a reproducible search."""
    if 0 <= seed < SEED_RANGE:
        return seed
    digest = hashlib.blake2b(str(seed).encode("ascii"), digest_size=8).digest()
    return int.from_bytes(digest, "big") % SEED_RANGE


@dataclass(frozen=True, slots=True)
class SearchSettings:
    """The CP-SAT parameters of a layout search, and whether the greedy layout seeds it.

    ``benchmarks/meeple_land.py`` times several against each other; :data:`DEFAULT_SETTINGS`
    is the one chosen by that measurement (``docs/solvers.md``)."""

    name: str
    workers: int | None = 1
    """Threads; ``None``: by the model's size (:meth:`for_model`)."""
    interleave: bool = True
    """CP-SAT's deterministic interleaved search: its subsolvers (full-problem searches, and
    the LNS workers that improve a layout) take turns in batches on ``workers`` threads, and
    the search is the same whatever the number of threads."""
    subsolvers: tuple[str, ...] = ()
    """Full-problem subsolvers (empty: CP-SAT's own choice for the number of workers)."""
    full_subsolvers: int | None = None
    """Workers given to full-problem subsolvers (``None``: CP-SAT's choice, which gives a
    2-worker search one, and its other thread to LNS and local search)."""
    linearization_level: int | None = None
    symmetry_level: int | None = None
    probing_level: int | None = 0
    search_branching: str | None = None
    """A ``SatParameters.SearchBranching`` name (``None``: CP-SAT's default)."""
    warm_start: bool = True
    """Seed the search with the greedy layout (a solution hint) and fall back to it."""
    strengthen: tuple[str, ...] = ()
    """Redundant constraints to add (:mod:`.relax`): ``dominance`` (tile dominance) and
    ``types`` (bounds by the number of types); see :data:`STRENGTHENED`."""
    budget_lp: bool = False
    """On a model below :data:`LARGE_MODEL` placements with a budget, CP-SAT's full linear
    relaxation (``max_lp``): the budget's knapsack row closes small budget puzzles at the
    root, where on a 7x7 model the relaxation's thousands of rows eat the search."""

    def for_model(self, placements: int, budget: bool = False) -> SearchSettings:
        """These settings for a model of ``placements`` placement literals, ``budget`` saying
        whether it has a budget constraint to optimise under: with ``workers`` unset, one
        thread below :data:`LARGE_MODEL` placements, two from there; with ``budget_lp``, on one
        thread below :data:`LARGE_MODEL` with a budget, CP-SAT's full linear relaxation (what
        was measured; several threads keep CP-SAT's own mix)."""
        chosen = self
        if chosen.workers is None:
            chosen = replace(chosen, workers=1 if placements < LARGE_MODEL else 2)
        if chosen.budget_lp and budget and placements < LARGE_MODEL and chosen.workers == 1 \
                and chosen.linearization_level is None:
            chosen = replace(chosen, linearization_level=2)
        return chosen

    def apply(self, params: Any, seed: int | None, time_limit: float | None) -> None:
        from ortools.sat.python import cp_model_helper

        assert self.workers is not None, "settings without workers: call for_model() first"
        params.num_workers = self.workers
        params.interleave_search = self.interleave
        params.subsolvers.extend(self.subsolvers)
        if self.full_subsolvers is not None:
            params.num_full_subsolvers = self.full_subsolvers
        if self.linearization_level is not None:
            params.linearization_level = self.linearization_level
        if self.symmetry_level is not None:
            params.symmetry_level = self.symmetry_level
        if self.probing_level is not None:
            params.cp_model_probing_level = self.probing_level
        if self.search_branching is not None:
            params.search_branching = getattr(cp_model_helper.SatParameters.SearchBranching,
                                              self.search_branching)
        if seed is not None:
            params.random_seed = cp_sat_seed(seed)
        if time_limit is not None:
            params.max_time_in_seconds = max(0.01, time_limit)


LARGE_MODEL = 2000
"""Placement literals from which the default search runs two threads (the 7x7 puzzles with 20
or more candidate tiles have 2,900-3,900; the 6x6 one 1,140)."""

DEFAULT_SETTINGS = SearchSettings("CP-SAT's own portfolio, 1 worker below 2,000 placements "
                                  "(max_lp there when a budget is set) and 2 from there, "
                                  "warm start", workers=None,
                                  interleave=False, budget_lp=True)
"""The default search (chosen by ``benchmarks/meeple_land.py``; ``docs/solvers.md``)."""

STRENGTHENED = ("dominance", "types")
"""Every strengthening of :class:`LayoutModel` (``SearchSettings.strengthen``)."""

GREEDY_SHARE = 0.25
"""At most this share of a time limit goes to the greedy warm start."""


def search_settings(settings: SearchSettings | None = None, workers: int | None = None,
                    seed: int | None = None) -> SearchSettings:
    """The settings of a search: ``settings`` (default :data:`DEFAULT_SETTINGS`) with
    ``workers`` threads if given; a seeded search runs on one thread."""
    chosen = settings or DEFAULT_SETTINGS
    if seed is not None:
        return replace(chosen, name=f"{chosen.name}; seeded: 1 worker", workers=1)
    if workers is not None and workers != chosen.workers:
        return replace(chosen, name=f"{chosen.name} ({workers} workers)", workers=workers)
    return chosen


@dataclass(frozen=True, slots=True)
class Progress:
    """One report of an anytime layout search: the best so far, after an improvement."""

    value: int | None
    """The best objective value found so far (``None``: no layout yet)."""
    bound: int | None
    """The best proven bound on the objective so far (``None``: none yet)."""
    seconds: float
    """Since the search started (the greedy and the model building included)."""
    source: str
    """What improved: ``greedy`` (the warm start), ``cp-sat`` (a better layout) or ``bound``."""

    def __str__(self) -> str:
        best = "no layout yet" if self.value is None else f"best {self.value}"
        bound = "" if self.bound is None else f", bound {self.bound}"
        return f"{best}{bound} after {self.seconds:.1f} s ({self.source})"


ProgressCallback = Callable[[Progress], None]


class _Tracker:
    """The best value (``best``) and bound (``proven``) of a search; reports each improvement to ``report``.

    CP-SAT calls it from its worker threads (solutions through :meth:`callback`, and bounds
    through ``best_bound_callback``), hence the lock; values only rise and bounds only fall,
    so the reports are monotone whatever the order the threads arrive in."""

    def __init__(self, started: float, report: ProgressCallback | None) -> None:
        self.started = started
        self.report = report
        self.best: int | None = None
        self.proven: int | None = None
        self.lock = threading.Lock()

    def offer(self, value: int | None, bound: int | None, source: str) -> None:
        with self.lock:
            better_value = value is not None and (self.best is None or value > self.best)
            better_bound = bound is not None and (self.proven is None or bound < self.proven)
            if better_value:
                self.best = value
            if better_bound:
                self.proven = bound
            if (better_value or better_bound) and self.report is not None:
                self.report(Progress(self.best, self.proven,
                                     round(time.perf_counter() - self.started, 3), source))

    def callback(self) -> cp_model.CpSolverSolutionCallback:
        """A CP-SAT solution callback offering each layout CP-SAT finds (it imports OR-Tools,
        which a search that ends at the greedy layout never does)."""
        from ortools.sat.python import cp_model

        offer = self.offer

        class Solutions(cp_model.CpSolverSolutionCallback):
            def on_solution_callback(self) -> None:
                offer(round(self.objective_value), _floor(self.best_objective_bound), "cp-sat")

        return Solutions()

    def on_bound(self, bound: float) -> None:
        self.offer(None, _floor(bound), "bound")


def _floor(bound: float) -> int | None:
    """A bound on an integer objective (maximised) as an integer; ``None`` if infinite."""
    return math.floor(bound + 1e-6) if math.isfinite(bound) else None


def objective_ceiling(puzzle: Puzzle) -> int:
    """A bound no layout can beat, from the puzzle alone: every attraction type of the pool
    and the pre-placed tiles, every visitor seated (and no dead end)."""
    tiles = [*puzzle.pool_tiles(), *(puzzle.catalogue.tile(p.tile) for p in puzzle.pre_placed())]
    kinds = len({t.attraction for t in tiles if t.attraction is not None})
    if puzzle.objective == "variety":
        return kinds
    if puzzle.objective == "seated":
        return sum(puzzle.visitors)
    return variety_points(kinds) + sum(
        n * v for n, v in zip(puzzle.visitors, VISITOR_VALUE, strict=True))


MIN_SEARCH = 0.1
"""Seconds that must be left of a time limit after the greedy, besides the model's building
(:func:`build_estimate`), to build it and search; with less, the greedy layout is the answer
at once.  Building takes about 0.15 ms a placement
literal (0.5 s for the 7x7 puzzles' 3,300), and CP-SAT proves the small puzzles in a few
hundredths of a second, so a short limit still searches."""
MIN_SOLVE = 0.02
"""Seconds that must be left after building the model for CP-SAT to be started at all."""
BUILD_SECONDS = 0.00015
"""Seconds the model takes to build per placement literal (measured on the 7x7 puzzles)."""
ORTOOLS_IMPORT_SECONDS = 0.3
"""Seconds importing OR-Tools' CP-SAT takes when no earlier search loaded it (measured at
0.29-0.45 s, ``from ortools.sat.python import cp_model`` in a fresh interpreter on the
2-core machine, issue 27): counted with :data:`MIN_SEARCH` and the model's building
(:func:`build_estimate`) before CP-SAT is started, so a short time limit ends at the greedy
layout without loading OR-Tools at all."""


def ortools_loaded() -> bool:
    """Whether OR-Tools' CP-SAT is already imported (then starting CP-SAT costs no import)."""
    return "ortools.sat.python.cp_model" in sys.modules


def search_cost(puzzle: Puzzle) -> float:
    """Seconds that must be left after the greedy layout for CP-SAT to be worth starting:
    :data:`MIN_SEARCH`, the model's building and, unless already done, importing OR-Tools."""
    return MIN_SEARCH + build_estimate(puzzle) + (0.0 if ortools_loaded()
                                                  else ORTOOLS_IMPORT_SECONDS)


def build_estimate(puzzle: Puzzle) -> float:
    """Seconds the model will take to build, at most: every pool tile at every cell of the
    plot's bounding box in every rotation (the literals are fewer: a tile must fit)."""
    x0, y0, x1, y1 = puzzle.plot.bounds()
    return BUILD_SECONDS * len(puzzle.pool_tiles()) * (x1 - x0 + 1) * (y1 - y0 + 1) * 4


def solve_layout(puzzle: Puzzle, time_limit: float | None = None, workers: int | None = None,
                 seed: int | None = None, count: bool = False,
                 count_limit: int = DEFAULT_COUNT_LIMIT, progress: ProgressCallback | None = None,
                 settings: SearchSettings | None = None,
                 start: Sequence[Placement] | None = None) -> LayoutResult:
    """Solve ``puzzle`` to proven optimality within ``time_limit`` seconds (``None``: no
    limit), anytime.

    The greedy layout (:func:`~.greedy.greedy_layout`) comes first: it seeds CP-SAT as a
    complete solution hint and, when it meets every requirement, it is the answer if CP-SAT
    finds nothing better in time (status ``feasible``, with the best bound proven so far), so
    a time limit never leaves a puzzle the greedy solves without a layout.  When less than
    :func:`search_cost` seconds remain after the greedy (:data:`MIN_SEARCH`, the model's
    building and OR-Tools' import), CP-SAT is not started, nor OR-Tools imported.  ``progress``
    is called (from CP-SAT's threads) with each improvement of the best value or bound:
    values never fall, bounds never rise.  With ``seed`` the search uses one worker and is
    reproducible (but for the time limit).  ``start``: a known layout (for instance the best
    of a smaller pool), used instead of the greedy's when it meets every requirement and is
    better."""
    started = time.perf_counter()
    chosen = search_settings(settings, workers, seed)
    tracker = _Tracker(started, progress)
    usage: dict[str, Any] = {"settings": chosen.name, "greedy": None}

    def left() -> float | None:
        return None if time_limit is None else time_limit - (time.perf_counter() - started)

    # 1. The warm start.
    warm = None
    if chosen.warm_start:
        warm = greedy_layout(puzzle, None if time_limit is None else time_limit * GREEDY_SHARE)
        usage["greedy"] = warm.value
        source = "greedy"
        if start is not None and not puzzle.check(start):
            value = puzzle.value(puzzle.layout_of(start).score(puzzle.visitors))
            usage["start"] = value
            if not warm.legal or warm.value is None or value > warm.value:
                warm = replace(warm, placements=tuple(start), value=value, legal=True)
                source = "start"
        if warm.legal:
            tracker.offer(warm.value, None, source)
    usage["greedy_seconds"] = round(time.perf_counter() - started, 3)
    remaining = left()
    if warm is not None and warm.legal and remaining is not None \
            and remaining < search_cost(puzzle):
        tracker.offer(None, objective_ceiling(puzzle), "bound")
        usage["workers"] = 0  # CP-SAT not started
        usage["cp_sat_started"] = False
        usage["seconds"] = round(time.perf_counter() - started, 3)
        return _answer(puzzle, [_verified(puzzle, warm.placements, "greedy")], tracker.proven,
                       False, usage)
    # 2. The model, seeded with the greedy layout; the objective's domain is a first bound.
    from ortools.sat.python import cp_model

    built = LayoutModel(puzzle, strengthen=chosen.strengthen)
    if warm is not None and warm.legal and built.dominance:
        from .relax import respect_dominance

        warm = replace(warm, placements=tuple(respect_dominance(puzzle, warm.placements,
                                                                built.dominance)))
    if warm is not None:
        built.add_hint(warm.placements)
    tracker.offer(None, max(built.objective.proto.domain), "bound")
    chosen = chosen.for_model(len(built.candidates), puzzle.budget is not None)
    usage.update(workers=chosen.workers, max_lp=chosen.linearization_level == 2,
                 build_seconds=round(time.perf_counter() - started - usage["greedy_seconds"], 3),
                 variables=len(built.model.proto.variables),
                 constraints=len(built.model.proto.constraints),
                 placements=len(built.candidates))
    # 3. The search (skipped when the greedy layout already reaches the first bound).
    code, ran = cp_model.UNKNOWN, False
    solver = cp_model.CpSolver()
    remaining = left()
    out_of_time = remaining is not None and remaining < MIN_SOLVE and warm is not None \
        and warm.legal
    if (tracker.best is None or tracker.best != tracker.proven) and not out_of_time:
        chosen.apply(solver.parameters, seed, left())  # the limit covers steps 1 and 2 too
        solver.best_bound_callback = tracker.on_bound
        code, ran = solver.solve(built.model, tracker.callback()), True
        usage.update(conflicts=solver.num_conflicts, branches=solver.num_branches,
                     wall_time=round(solver.wall_time, 3),
                     deterministic_time=round(solver.deterministic_time, 3))
    usage["cp_sat_started"] = ran
    usage["seconds"] = round(time.perf_counter() - started, 3)
    # 4. The answer: the better of CP-SAT's layout and the greedy's, both verified.
    if code == cp_model.INFEASIBLE:
        if warm is not None and warm.legal:
            raise RuntimeError("CP-SAT finds the puzzle infeasible but the greedy layout meets "
                               "every requirement: the model is wrong")
        conflict, minimal = explain(puzzle, left())
        usage["seconds"] = round(time.perf_counter() - started, 3)
        return LayoutResult("infeasible", None, None, conflict=conflict,
                            conflict_minimal=minimal, usage=usage)
    layouts = []
    if code in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        tracker.offer(None, _floor(solver.best_objective_bound), "bound")
        placements = sorted(c.placement for c in built.chosen(solver) if c.fixed is None)
        found = _verified(puzzle, placements, "cp-sat")
        if code == cp_model.OPTIMAL and found[0] != round(solver.objective_value):
            raise RuntimeError(f"the park verifier scores the optimal layout {found[0]}, the "
                               f"model {round(solver.objective_value)}: the model is wrong")
        layouts.append(found)
    if warm is not None and warm.legal:
        layouts.append(_verified(puzzle, warm.placements, "greedy"))
    result = _answer(puzzle, layouts, tracker.proven, code == cp_model.OPTIMAL, usage)
    if count and result.status == "optimal":
        assert result.objective is not None
        n, complete = count_optimal(puzzle, result.objective, left(), count_limit)
        usage["seconds"] = round(time.perf_counter() - started, 3)
        return replace(result, count=n, count_complete=complete)
    return result


Verified = tuple[int, str, tuple[Placement, ...], Layout]
"""A layout the park verifier accepted: its value, its source, its placements, itself."""


def _verified(puzzle: Puzzle, placements: Sequence[Placement], source: str) -> Verified:
    layout, value = verify_layout(puzzle, placements)
    return value, source, tuple(sorted(placements)), layout


def _answer(puzzle: Puzzle, layouts: list[Verified], bound: int | None, proven: bool,
            usage: dict[str, Any]) -> LayoutResult:
    """The best of ``layouts`` (the first on ties) with the best bound: ``optimal`` when
    CP-SAT proved it or the bound meets it, else ``feasible``; ``unknown`` without one."""
    if not layouts:
        return LayoutResult("unknown", None, bound, usage=usage)
    value, source, placements, layout = max(layouts, key=lambda v: v[0])
    usage["source"] = source
    if bound is not None and bound < value:
        raise RuntimeError(f"the proven bound {bound} is below a verified layout's value "
                           f"{value}: the model is wrong")
    optimal = proven or bound == value
    order = layout.build_order(range(len(puzzle.placed)))
    assert order is not None
    return LayoutResult("optimal" if optimal else "feasible", value,
                        value if optimal else bound, placements, layout, tuple(order),
                        usage=usage)


@dataclass(frozen=True)
class Feasibility:
    """Whether a puzzle's requirements can all hold: a witness layout or the conflict."""

    verdict: Verdict
    layout: Layout | None = None
    conflict: tuple[Requirement, ...] = ()
    minimal: bool = True
    """Whether ``conflict`` is proven minimal (not cut by the time limit)."""


def feasibility(puzzle: Puzzle, time_limit: float | None = None, workers: int | None = None,
                seed: int | None = None) -> Feasibility:
    """Any layout meeting every requirement (no objective), or the requirements that
    conflict; ``unknown`` when the time runs out first.  The greedy layout is tried first: a
    legal one is a witness at once."""
    started = time.perf_counter()
    warm = greedy_layout(puzzle, None if time_limit is None else time_limit * GREEDY_SHARE)
    if warm.legal:
        return Feasibility("solvable", verify_layout(puzzle, warm.placements)[0])
    from ortools.sat.python import cp_model

    built = LayoutModel(puzzle)
    built.model.clear_objective()
    solver = cp_model.CpSolver()
    # no objective here: the budget_lp rule (measured on optimisations) does not apply
    search_settings(None, workers, seed).for_model(len(built.candidates)).apply(
        solver.parameters, seed,
        None if time_limit is None else time_limit - (time.perf_counter() - started))
    code = solver.solve(built.model)
    if code in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        placements = sorted(c.placement for c in built.chosen(solver) if c.fixed is None)
        layout, _ = verify_layout(puzzle, placements)
        return Feasibility("solvable", layout)
    if code == cp_model.INFEASIBLE:
        left = None if time_limit is None else time_limit - (time.perf_counter() - started)
        conflict, minimal = explain(puzzle, left)
        return Feasibility("unsolvable", conflict=conflict, minimal=minimal)
    return Feasibility("unknown")


def verify_layout(puzzle: Puzzle, placements: Sequence[Placement]) -> tuple[Layout, int]:
    """Re-check a layout with the park verifier; its objective value.  A layout the verifier
    rejects is a bug of the model, never an answer."""
    problems = puzzle.check(placements)
    if problems:
        listed = "; ".join(p.message for p in problems)
        raise RuntimeError(f"the park verifier rejects the model's layout: {listed}")
    layout = puzzle.layout_of(placements)
    return layout, puzzle.value(layout.score(puzzle.visitors))


def count_optimal(puzzle: Puzzle, value: int, time_limit: float | None,
                  limit: int = DEFAULT_COUNT_LIMIT) -> tuple[int, bool]:
    """How many distinct layouts (sets of placements) reach ``value``.

    The counting model (``mode="count"``) defines every auxiliary variable as a function of
    the placement literals (exact distances instead of a parent tree, reified connections,
    dead ends, services and types), requires the objective to reach ``value`` and lets CP-SAT
    enumerate every solution (one worker, as enumeration needs); layouts are collected as
    sets of placements, so alternative seatings of the same layout count once.  Every layout
    is re-checked by the park verifier.  Returns the count and whether it is complete (not cut
    by the time limit or ``limit``)."""
    from ortools.sat.python import cp_model

    class Collector(cp_model.CpSolverSolutionCallback):
        """Collects the distinct layouts (sets of pool placements) of an enumeration."""

        def __init__(self, pool: list[Candidate], limit: int) -> None:
            super().__init__()
            self.pool = pool
            self.limit = limit
            self.layouts: set[frozenset[Placement]] = set()
            self.stopped = False

        def on_solution_callback(self) -> None:
            self.layouts.add(frozenset(c.placement for c in self.pool
                                       if self.boolean_value(c.literal)))
            if len(self.layouts) >= self.limit:
                self.stopped = True
                self.stop_search()

    built = LayoutModel(puzzle, "count")
    built.model.add(built.objective_expr() >= value)
    pool = [c for c in built.candidates if c.fixed is None]
    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = max(0.01, time_limit)
    collector = Collector(pool, limit)
    code = solver.solve(built.model, collector)
    for layout in collector.layouts:
        _, again = verify_layout(puzzle, sorted(layout))
        if again != value:
            raise RuntimeError(f"a counted layout scores {again}, not the optimum {value}: "
                               "the counting model is wrong")
    complete = code == cp_model.OPTIMAL and not collector.stopped
    return len(collector.layouts), complete


EXPLAIN_FLOOR = 0.05
"""The seconds the explanation of an infeasible puzzle may take in all when its time limit is
shorter or already spent (CP-SAT needs a positive limit): with :data:`EXPLAIN_PROBING` and
:data:`EXPLAIN_PRESOLVE` its solves are short enough for ``08-impossible-promise``'s minimal
conflict within it (about 0.03 s: its first core and the two deletions that prove it
minimal)."""

EXPLAIN_PROBING = 0
"""CP-SAT's ``cp_model_probing_level`` for the explanation's solves: presolve probing took
most of each solve (0.05 of 0.05 s on ``08-impossible-promise``, seconds on 7x7 plots), as
it does for the optimisation (:attr:`SearchSettings.probing_level`)."""

EXPLAIN_PRESOLVE = 1
"""CP-SAT's ``max_presolve_iterations`` for the explanation's solves (its default, 3, repeats
the presolve for nothing on these small satisfaction models)."""


def explain_infeasible(puzzle: Puzzle, time_limit: float | None = None
                       ) -> tuple[Requirement, ...]:
    """A minimal set of the puzzle's requirements that cannot hold together (within
    ``time_limit``, perhaps not minimal: see :func:`explain`)."""
    return explain(puzzle, time_limit)[0]


def explain(puzzle: Puzzle, time_limit: float | None = None
            ) -> tuple[tuple[Requirement, ...], bool]:
    """A set of the puzzle's requirements that cannot hold together, and whether it is proven
    minimal.

    The model is built with one literal per requirement, passed to CP-SAT as assumptions (no
    objective, one worker: what assumptions need); the core CP-SAT returns
    (``sufficient_assumptions_for_infeasibility``) is then shrunk by deletion: a requirement
    stays only if dropping it makes the rest feasible, so the set is minimal once every
    requirement of it is tried.  A deletion is first tried without CP-SAT: the greedy layout
    of the puzzle keeping only the other requirements (:func:`relaxed`), when the park
    verifier accepts it, shows them feasible together (a few milliseconds against a solve's
    tens).  Within ``time_limit`` (counted from the call; at least
    :data:`EXPLAIN_FLOOR` in all) the set is shrunk as far as the time allows: it still cannot
    hold together, and when a deletion was cut (not tried, or its solve out of time) it is not
    claimed minimal; out of time before the first core, every requirement is a suspect.
    """
    from ortools.sat.python import cp_model

    started = time.perf_counter()
    deadline = None if time_limit is None else started + max(time_limit, EXPLAIN_FLOOR)
    built = LayoutModel(puzzle, "explain")
    literals = built.requirement_literals
    by_index = {literals[r.key].index: r.key for r in built.requirements}

    def core_of(keys: list[str]) -> list[str] | bool:
        """The core of ``keys`` when they are infeasible together, ``True`` when they are
        feasible, ``False`` when that is unknown (out of time)."""
        built.model.clear_assumptions()
        built.model.add_assumptions([literals[k] for k in keys])
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.cp_model_probing_level = EXPLAIN_PROBING
        solver.parameters.max_presolve_iterations = EXPLAIN_PRESOLVE
        if deadline is not None:
            solver.parameters.max_time_in_seconds = max(1e-3, deadline - time.perf_counter())
        code = solver.solve(built.model)
        if code != cp_model.INFEASIBLE:
            return code in (cp_model.OPTIMAL, cp_model.FEASIBLE)
        core = {by_index[i] for i in solver.sufficient_assumptions_for_infeasibility()
                if i in by_index}
        return [k for k in keys if k in core] or keys

    first = core_of([r.key for r in built.requirements])
    if isinstance(first, bool):  # out of time: every requirement is a suspect
        return tuple(built.requirements), False
    needed, minimal = first, True
    for key in list(needed):
        if key not in needed:
            continue
        if deadline is not None and time.perf_counter() >= deadline:
            minimal = False  # out of time: a set that cannot hold together, perhaps not minimal
            break
        rest = [k for k in needed if k != key]
        greedy_time = None if deadline is None else deadline - time.perf_counter()
        smaller = True if _feasible_by_greedy(puzzle, rest, greedy_time) else core_of(rest)
        if isinstance(smaller, list):
            needed = smaller
        elif not smaller:  # unknown: the requirement stays, not proven needed
            minimal = False
    return tuple(r for r in built.requirements if r.key in needed), minimal


def relaxed(puzzle: Puzzle, keep: Sequence[str]) -> Puzzle | None:
    """``puzzle`` with only the requirements named in ``keep`` (:meth:`Puzzle.requirements`'
    keys); ``None`` when one left out is a pre-placed tile's (a puzzle cannot say "this tile
    may go")."""
    kept = set(keep)
    if any(r.key.startswith("placed:") and r.key not in kept for r in puzzle.requirements()):
        return None
    return replace(puzzle, budget=puzzle.budget if "budget" in kept else None,
                   no_dead_ends=puzzle.no_dead_ends and "no-dead-ends" in kept,
                   seat_all=puzzle.seat_all and "seat-all" in kept,
                   min_reputation=puzzle.min_reputation if "min-reputation" in kept else None,
                   min_variety=puzzle.min_variety if "min-variety" in kept else None,
                   required=tuple(t for t in puzzle.required if f"required:{t}" in kept))


def _feasible_by_greedy(puzzle: Puzzle, keep: Sequence[str], time_limit: float | None
                        ) -> bool:
    """Whether the greedy layout (grown for at most ``time_limit`` seconds) shows the
    requirements ``keep`` feasible together (``False``: not shown, perhaps feasible all the
    same)."""
    easier = relaxed(puzzle, keep)
    if easier is None:
        return False
    grown = greedy_layout(easier, time_limit)
    return grown.legal and not easier.check(grown.placements)

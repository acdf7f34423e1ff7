"""Layout puzzles: a plot, a pool of tiles and an objective; choose what to place, where, how.

A puzzle file (``kind = "puzzle"``)::

    game = "meeple-land"
    kind = "puzzle"
    name = "Corner shop"
    catalogue = "house"
    pool = ["M03", "S07", "S07", "L02"]    # tiles you may place; repeat an id for copies
    required = ["L02"]                     # optional: tiles that must be placed
    budget = 12                            # optional: the most you may spend
    visitors = { pink = 3, green = 2 }     # optional: visitors to seat
    objective = "reputation"               # reputation (default), variety or seated
    no_dead_ends = false                   # true: a hard constraint
    seat_all = false                       # true: every visitor must be seated
    min_reputation = 10                    # optional targets
    min_variety = 3

    [plot]                                 # as in park files
    width = 3
    height = 3
    entrances = ["N1"]

    [[placed]]                             # optional pre-placed (fixed) tiles
    tile = "S01"
    at = [1, 0]

    [[tile]]                               # optional inline tiles, catalogue format
    ...

    [answer]                               # the proven optimum, as recorded
    status = "optimal"                     # or "feasible": a layout and a proven bound
    objective = 12
    layouts = 3                            # distinct optimal layouts (solve --count)
    bound = 12                             # optional: the proven bound (>= objective)

    [[answer.layout]]                      # optional: a layout scoring ``objective``
    tile = "M03"                           # (the pool tiles placed; verify re-scores it)
    at = [0, 1]
    rotation = 90

*Reputation* is the final reputation of the park alone: variety points, visitors seated (+1 or
+2) or left at the entrance (-1 or -2), and -2 per dead end.  Every placed tile (pre-placed
ones included) must be reachable from an entrance.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..documents import Fields, item_path
from ..errors import Problem
from ..words import plural
from .catalogue import HOUSE, Catalogue, load_tile, parse_counts, resolve_catalogue, tile_document
from .game import (
    INFO,
    NO_VISITORS,
    Counts,
    Placement,
    Plot,
    Tile,
    counts_dict,
    counts_text,
)
from .park import Layout, Piece, Score
from .position import (
    Entry,
    check_entries,
    entry_document,
    load_entries,
    load_plot,
    plot_document,
    plot_problems,
)

OBJECTIVES = ("reputation", "variety", "seated")
OBJECTIVE_TEXT = {"reputation": "final reputation", "variety": "different attraction types",
                  "seated": "visitors seated"}


@dataclass(frozen=True, slots=True)
class Answer:
    """A puzzle's recorded optimum."""

    status: str
    objective: int | None
    layouts: int | None = None
    bound: int | None = None
    """A proven upper bound on the objective (``feasible``: the optimum lies between)."""
    layout: tuple[Entry, ...] = ()
    """A layout (pool tiles placed, the pre-placed ones not repeated) that scores
    ``objective``; ``verify`` re-scores it."""


@dataclass(frozen=True, slots=True)
class Requirement:
    """A hard requirement of a puzzle, named for infeasibility explanations."""

    key: str
    text: str


@dataclass(frozen=True)
class Puzzle:
    """A layout puzzle as loaded (``problems()`` says whether it is well posed)."""

    catalogue: Catalogue
    plot: Plot
    pool: tuple[str, ...]
    placed: tuple[Entry, ...] = ()
    budget: int | None = None
    visitors: Counts = NO_VISITORS
    objective: str = "reputation"
    no_dead_ends: bool = False
    seat_all: bool = False
    min_reputation: int | None = None
    min_variety: int | None = None
    required: tuple[str, ...] = ()
    name: str = ""
    difficulty: str = ""
    inline: tuple[Tile, ...] = ()
    answer: Answer | None = None
    notes: str = ""

    def pool_counts(self) -> dict[str, int]:
        """Copies of each pool tile, in first-listed order."""
        return dict(Counter(self.pool))

    def pool_tiles(self) -> list[Tile]:
        return [self.catalogue.tile(t) for t in self.pool_counts()]

    def pre_placed(self) -> list[Placement]:
        return [e.placement for e in self.placed]

    def requirements(self) -> list[Requirement]:
        """Every hard requirement, by name (the base rules are not listed: a park with nothing
        added is always legal when the pre-placed tiles are)."""
        found = []
        if self.budget is not None:
            found.append(Requirement("budget", f"spend at most ${self.budget}"))
        if self.no_dead_ends:
            found.append(Requirement("no-dead-ends", "no dead ends"))
        if self.seat_all:
            found.append(Requirement("seat-all", f"seat all visitors "
                                     f"({counts_text(self.visitors)})"))
        if self.min_reputation is not None:
            found.append(Requirement("min-reputation",
                                     f"reach at least {self.min_reputation} reputation"))
        if self.min_variety is not None:
            found.append(Requirement("min-variety",
                                     f"have at least {self.min_variety} attraction types"))
        for tile_id, n in Counter(self.required).items():
            label = self.catalogue.tiles[tile_id].label if tile_id in self.catalogue.tiles \
                else tile_id
            copies = f"{n} copies of " if n > 1 else ""
            found.append(Requirement(f"required:{tile_id}", f"place {copies}{label}"))
        for i, entry in enumerate(self.placed):
            label = self.catalogue.tiles[entry.tile].label if entry.tile in \
                self.catalogue.tiles else entry.tile
            found.append(Requirement(f"placed:{i}", f"keep the pre-placed {label} at "
                                     f"{entry.at[0]},{entry.at[1]}"))
        return found

    def problems(self) -> list[Problem]:
        """Everything that makes the puzzle ill-posed, at once."""
        found = plot_problems(self.plot)
        for i, tile_id in enumerate(self.pool):
            if tile_id not in self.catalogue.tiles:
                found.append(Problem("unknown-tile", f"pool tile {tile_id!r} is neither in the "
                                     f"{self.catalogue.name} catalogue nor an inline tile",
                                     item_path("pool", i)))
        available = Counter(self.pool)
        for tile_id, n in Counter(self.required).items():
            if available[tile_id] < n:
                found.append(Problem("required", f"{n} {tile_id} required but the pool has "
                                     f"{available[tile_id]}", "required"))
        checked = check_entries(self.plot, self.placed, self.catalogue, reach=False)
        found += [p for p in checked.problems if p.code != "duplicate-tile"]
        found += self.answer_problems()
        # the recorded layout is judged on a well-posed puzzle only
        return found or self.recorded_layout_problems()

    def answer_problems(self) -> list[Problem]:
        """A recorded answer that contradicts itself or the objective's range."""
        answer, found = self.answer, list[Problem]()
        if answer is None:
            return found
        if answer.status == "infeasible":
            if answer.layout:
                found.append(Problem("answer", "an infeasible puzzle has no layout to record",
                                     "answer.layout"))
            if answer.objective is not None:
                found.append(Problem("answer", "an infeasible puzzle has no optimum to record",
                                     "answer.objective"))
            if answer.layouts:
                found.append(Problem("answer", f"an infeasible puzzle has no layout, not "
                                     f"{answer.layouts}", "answer.layouts"))
            return found
        if answer.layouts == 0:
            found.append(Problem("answer", "an optimum is reached by at least one layout, not 0",
                                 "answer.layouts"))
        if answer.objective is not None and answer.objective < 0 \
                and self.objective != "reputation":
            found.append(Problem("answer", f"{OBJECTIVE_TEXT[self.objective]} is a count, not "
                                 f"{answer.objective}", "answer.objective"))
        if answer.bound is not None and answer.objective is not None:
            if answer.bound < answer.objective:
                found.append(Problem("answer", f"the bound {answer.bound} is below the "
                                     f"recorded objective {answer.objective}", "answer.bound"))
            elif answer.status == "optimal" and answer.bound != answer.objective:
                found.append(Problem("answer", f"an optimal answer's bound is its objective "
                                     f"{answer.objective}, not {answer.bound}", "answer.bound"))
        if answer.status == "feasible" and (answer.objective is None or not answer.layout):
            found.append(Problem("answer", "a feasible answer records its objective and its "
                                 "layout", "answer"))
        return found

    def recorded_layout_problems(self) -> list[Problem]:
        """The recorded layout (``[[answer.layout]]``) judged by the park verifier: every rule
        or requirement it breaks, else whether it scores the recorded objective."""
        answer = self.answer
        if answer is None or not answer.layout or answer.status == "infeasible":
            return []
        placements = [e.placement for e in answer.layout]
        broken, _, score = self.judge(placements)
        if broken or score is None:
            return [Problem(p.code, f"the recorded layout: {p.message}", "answer.layout")
                    for p in broken]
        value = self.value(score)
        if answer.objective is not None and value != answer.objective:
            return [Problem("answer", f"the recorded layout scores {value} "
                            f"({OBJECTIVE_TEXT[self.objective]}), not the recorded "
                            f"{answer.objective}", "answer.objective")]
        return []

    def recorded_layout(self) -> list[Placement]:
        """The recorded layout's placements (empty without one)."""
        return [] if self.answer is None else [e.placement for e in self.answer.layout]

    # -- judging a layout (the park verifier) --------------------------------------------------

    def layout_of(self, placements: Sequence[Placement]) -> Layout:
        """The pre-placed tiles followed by ``placements``."""
        pieces = [Piece.make(i, p, self.catalogue.tile(p.tile))
                  for i, p in enumerate([*self.pre_placed(), *placements])]
        return Layout(self.plot, pieces)

    def value(self, score: Score) -> int:
        """The objective's value of a scored park."""
        if self.objective == "variety":
            return len(score.types)
        if self.objective == "seated":
            return sum(score.seating.seated)
        return score.total

    def check(self, placements: Sequence[Placement]) -> list[Problem]:
        """Every way a proposed answer breaks the puzzle's rules or requirements."""
        return self.judge(placements)[0]

    def judge(self, placements: Sequence[Placement]
              ) -> tuple[list[Problem], Layout | None, Score | None]:
        """The problems of a proposed answer, and its layout and score when it is legal."""
        found = []
        used = Counter(p.tile for p in placements)
        pool = Counter(self.pool)
        for tile_id, n in used.items():
            if n > pool[tile_id]:
                found.append(Problem("pool", f"{n} {tile_id} placed; the pool has "
                                     f"{pool[tile_id]}"))
        checked = check_entries(self.plot, [*self.pre_placed(), *placements], self.catalogue)
        found += [p for p in checked.problems if p.code != "duplicate-tile"]
        if found:
            return found, None, None
        layout = checked.layout
        score = layout.score(self.visitors)
        spent = sum(self.catalogue.tile(p.tile).cost for p in placements)
        if self.budget is not None and spent > self.budget:
            found.append(Problem("budget", f"${spent} spent; the budget is ${self.budget}"))
        if self.no_dead_ends and score.dead_ends:
            found.append(Problem("dead-end", plural(len(score.dead_ends), "dead end")))
        if self.seat_all and any(score.seating.waiting):
            found.append(Problem("seat-all", f"{counts_text(score.seating.waiting)} not "
                                 "seated"))
        if self.min_reputation is not None and score.total < self.min_reputation:
            found.append(Problem("min-reputation", f"reputation {score.total} < "
                                 f"{self.min_reputation}"))
        if self.min_variety is not None and len(score.types) < self.min_variety:
            found.append(Problem("min-variety", f"{len(score.types)} types < "
                                 f"{self.min_variety}"))
        for tile_id, n in Counter(self.required).items():
            if used[tile_id] < n:
                found.append(Problem("required", f"{tile_id} is required"))
        return found, layout, score


def load_puzzle(document: Mapping[str, Any], source: str) -> Puzzle:
    root = Fields(document, source)
    game = root.text("game")
    if game != INFO.key:
        raise root.error("game", repr(INFO.key), game)
    root.text("kind", choices=("puzzle",))
    name = root.text("name", "")
    difficulty = root.text("difficulty", "")
    notes = root.text("notes", "")
    catalogue = resolve_catalogue(root.text("catalogue", HOUSE), source)
    inline = tuple(load_tile(table, catalogue.attraction_types, catalogue.adverts)
                   for table in root.tables("tile", []))
    for i, tile in enumerate(inline):
        if tile.id in catalogue.tiles or tile.id in [t.id for t in inline[:i]]:
            raise root.error(item_path("tile", i), "a tile id not used by the catalogue or another "
                             "inline tile", tile.id)
    catalogue = catalogue.with_tiles(inline)
    plot = load_plot(root)
    pool = root.array("pool")
    if not all(isinstance(t, str) for t in pool):
        raise root.error("pool", "a list of tile ids", pool)
    required = root.array("required", [])
    if not all(isinstance(t, str) for t in required):
        raise root.error("required", "a list of tile ids", required)
    placed = load_entries(root, "placed", seating=False)
    budget = root.integer("budget", None, minimum=0, maximum=9999)
    visitors = parse_counts(root, "visitors", NO_VISITORS)
    objective = root.text("objective", "reputation", choices=OBJECTIVES)
    no_dead_ends = root.flag("no_dead_ends", False)
    seat_all = root.flag("seat_all", False)
    min_reputation = root.integer("min_reputation", None, minimum=-999, maximum=999)
    min_variety = root.integer("min_variety", None, minimum=0, maximum=99)
    answer = None
    if root.has("answer"):
        table = root.table("answer")
        answer = Answer(table.text("status", choices=("optimal", "feasible", "infeasible")),
                        table.integer("objective", None, minimum=-999, maximum=999),
                        table.integer("layouts", None, minimum=0),
                        table.integer("bound", None, minimum=-999, maximum=999),
                        load_entries(table, "layout", seating=False))
        table.done()
    root.done()
    return Puzzle(catalogue, plot, tuple(pool), placed, budget, visitors, objective,
                  no_dead_ends, seat_all, min_reputation, min_variety, tuple(required), name,
                  difficulty, inline, answer, notes)


def puzzle_document(puzzle: Puzzle) -> dict[str, Any]:
    doc: dict[str, Any] = {"game": INFO.key, "kind": "puzzle"}
    for key in ("name", "difficulty", "notes"):
        if getattr(puzzle, key):
            doc[key] = getattr(puzzle, key)
    doc["catalogue"] = puzzle.catalogue.reference
    doc["objective"] = puzzle.objective
    doc["pool"] = list(puzzle.pool)
    if puzzle.required:
        doc["required"] = list(puzzle.required)
    if puzzle.budget is not None:
        doc["budget"] = puzzle.budget
    if any(puzzle.visitors):
        doc["visitors"] = counts_dict(puzzle.visitors)
    for key in ("no_dead_ends", "seat_all"):
        if getattr(puzzle, key):
            doc[key] = True
    for key in ("min_reputation", "min_variety"):
        if getattr(puzzle, key) is not None:
            doc[key] = getattr(puzzle, key)
    doc["plot"] = plot_document(puzzle.plot)
    if puzzle.placed:
        doc["placed"] = [entry_document(e) for e in puzzle.placed]
    if puzzle.inline:
        doc["tile"] = [tile_document(t) for t in puzzle.inline]
    if puzzle.answer is not None:
        answer: dict[str, Any] = {"status": puzzle.answer.status}
        if puzzle.answer.objective is not None:
            answer["objective"] = puzzle.answer.objective
        if puzzle.answer.layouts is not None:
            answer["layouts"] = puzzle.answer.layouts
        if puzzle.answer.bound is not None:
            answer["bound"] = puzzle.answer.bound
        if puzzle.answer.layout:
            answer["layout"] = [entry_document(e) for e in puzzle.answer.layout]
        doc["answer"] = answer
    return doc

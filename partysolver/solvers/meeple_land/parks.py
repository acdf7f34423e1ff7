"""The best park a catalogue allows (issue 31): the solo layout puzzle whose pool is a whole
catalogue (or a band of it by tile size), on a square park with the entrance in the middle of
the top edge, solved by CP-SAT with the strengthened model (:mod:`.relax`).

The puzzle is the layout puzzle format's own (``docs/rules.md``, *Layout puzzles*): the final
reputation of the park alone for a set of visitors, every tile reachable from the entrance,
the cost of the tiles placed within a budget.  The defaults are the game's: a budget of $30,
the grants of the four rounds ($15 + $10 + $5 + $0), and 24 visitors, four buses of six
(7 green, 7 blue, 6 pink, 4 yellow) — the benchmark's "moonshot".
"""

from __future__ import annotations

from collections.abc import Sequence

from ...models.meeple_land.catalogue import Catalogue, house_catalogue
from ...models.meeple_land.game import Counts, Plot, Side
from ...models.meeple_land.puzzle import Puzzle

PARK_BUDGET = 30
"""Dollars: the grants of the four rounds."""
PARK_VISITORS: Counts = (7, 7, 6, 4)
"""Green, blue, pink, yellow: four buses of six."""
BANDS = ("small", "medium", "large")


def park_puzzle(size: int, bands: Sequence[str] = BANDS, budget: int | None = PARK_BUDGET,
                visitors: Counts = PARK_VISITORS, catalogue: Catalogue | None = None,
                pool: Sequence[str] | None = None) -> Puzzle:
    """The best-park puzzle on a ``size`` x ``size`` park (entrance on the top edge of the
    middle column, ``size // 2``), pool: every tile of ``catalogue`` (default: the house
    one) of the size ``bands`` (``pool``: these tile ids instead)."""
    if size < 1:
        raise ValueError(f"a park of at least 1x1, not {size}x{size}")
    unknown = [b for b in bands if b not in BANDS]
    if unknown or not bands:
        raise ValueError(f"size bands among {', '.join(BANDS)}, not {', '.join(unknown) or 'none'}")
    catalogue = catalogue or house_catalogue()
    if pool is None:
        pool = sorted(t.id for band in bands for t in catalogue.by_size(band))
    plot = Plot(size, size, (((size // 2, 0), Side.N),))
    bands_text = "the whole catalogue" if set(bands) == set(BANDS) else \
        "the " + " and ".join(bands) + " tiles"
    return Puzzle(catalogue, plot, tuple(pool), budget=budget, visitors=visitors,
                  name=f"The best {size}x{size} park from {bands_text}")


def cheap_pool(puzzle: Puzzle) -> tuple[str, ...]:
    """The pool tiles with the most seats per dollar: the attraction tiles of at most $3 and
    the medium ones with three spaces.  A heuristic choice, for a small model where CP-SAT
    finds good parks fast; what is proven comes from the whole pool's model."""
    chosen = []
    for tile_id in puzzle.pool:
        tile = puzzle.catalogue.tile(tile_id)
        if tile.attraction is not None and (
                tile.cost <= 3 or (tile.size == "medium" and len(tile.spaces) == 3)):
            chosen.append(tile_id)
    return tuple(chosen)

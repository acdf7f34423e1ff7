"""Seating visitors: an exact weighted bipartite matching of visitors to free spaces.

Visitors of one colour are interchangeable, and so are two free spaces with the same colour
(or joker) and the same revenue, so the matching is a small transportation problem: colours on
one side, *space classes* ``(colour or any, special)`` on the other, and an "entrance" bypass
for visitors left outside.  It is solved exactly as a min-cost flow (network simplex), with a
lexicographic weight: reputation first, then revenue (``points``), or revenue first, then
reputation (``revenue``, what a player does just before collecting the round's income — visitors
may be moved at any time).

Seating a visitor of value ``v`` (green/blue 1, pink/yellow 2) changes the reputation by ``2v``
(``+v`` inside instead of ``-v`` at the entrance); it earns $1, or $2 on a special space.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from .game import COLOURS, JOKER, VISITOR_VALUE, Counts

Goal = Literal["points", "revenue"]
SpaceClass = tuple[str, bool]
"""``(colour or 'any', special)``: spaces that take the same visitors for the same money."""

CLASSES: tuple[SpaceClass, ...] = tuple((c, s) for c in (*COLOURS, JOKER) for s in (False, True))
_BIG = 100_000


@dataclass(frozen=True, slots=True)
class Seating:
    """The best seating: ``assigned[i]`` is the colour on free space ``i`` (or ``None``)."""

    assigned: tuple[str | None, ...]
    seated: Counts
    waiting: Counts
    points: int
    """Reputation of the visitors: seated ones count, waiting ones are deducted."""
    revenue: int
    """$1 per seated visitor, $1 more on a special space."""


@lru_cache(maxsize=65536)
def _transport(capacity: tuple[int, ...], visitors: Counts, goal: Goal
               ) -> tuple[tuple[int, ...], ...]:
    """How many visitors of each colour go to each space class (``CLASSES`` order)."""
    import networkx as nx

    graph = nx.DiGraph()
    total = sum(visitors)
    graph.add_node("source", demand=-total)
    graph.add_node("sink", demand=total)
    for c, colour in enumerate(COLOURS):
        if not visitors[c]:
            continue
        graph.add_edge("source", colour, capacity=visitors[c], weight=0)
        graph.add_edge(colour, "sink", capacity=visitors[c], weight=0)  # left at the entrance
        points = 2 * VISITOR_VALUE[c]
        for k, (accepts, special) in enumerate(CLASSES):
            if capacity[k] and accepts in (colour, JOKER):
                revenue = 2 if special else 1
                gain = points * _BIG + revenue if goal == "points" else revenue * _BIG + points
                graph.add_edge(colour, k, capacity=capacity[k], weight=-gain)
    for k in range(len(CLASSES)):
        if capacity[k]:
            graph.add_edge(k, "sink", capacity=capacity[k], weight=0)
    flow = nx.min_cost_flow(graph)
    return tuple(tuple(flow.get(colour, {}).get(k, 0) for k in range(len(CLASSES)))
                 for colour in COLOURS)


def seating_plan(capacity: tuple[int, ...], visitors: Counts) -> tuple[tuple[int, ...], ...]:
    """The best seating (``points``) as counts: ``plan[c][k]`` visitors of colour ``c`` on
    spaces of class ``CLASSES[k]``, given the free spaces of each class (``CLASSES`` order).
    For searches that need the score, not the spaces (cached, like :func:`seat`)."""
    return _transport(capacity, visitors, "points")


def load() -> None:
    """Import the flow library the seating uses now (a third of a second, once), so that a
    search with a time limit does not pay it on the clock."""
    import networkx  # noqa: F401


def clear_seating_cache() -> None:
    """Forget every cached seating (benchmarks time each run as a fresh process would)."""
    _transport.cache_clear()


def seat(spaces: Sequence[SpaceClass], visitors: Counts, goal: Goal = "points") -> Seating:
    """Seat ``visitors`` on the free ``spaces`` (each a class) as well as possible."""
    capacity = tuple(sum(1 for s in spaces if s == k) for k in CLASSES)
    plan = _transport(capacity, visitors, goal)
    assigned: list[str | None] = [None] * len(spaces)
    seated = [0, 0, 0, 0]
    revenue = 0
    for c, colour in enumerate(COLOURS):
        for k, cls in enumerate(CLASSES):
            n = plan[c][k]
            for i, space in enumerate(spaces):
                if n == 0:
                    break
                if space == cls and assigned[i] is None:
                    assigned[i] = colour
                    n -= 1
                    seated[c] += 1
                    revenue += 2 if cls[1] else 1
    waiting = tuple(v - s for v, s in zip(visitors, seated, strict=True))
    inside = sum(n * v for n, v in zip(seated, VISITOR_VALUE, strict=True))
    outside = sum(n * v for n, v in zip(waiting, VISITOR_VALUE, strict=True))
    return Seating(tuple(assigned), (seated[0], seated[1], seated[2], seated[3]),
                   waiting, inside - outside, revenue)  # type: ignore[arg-type]

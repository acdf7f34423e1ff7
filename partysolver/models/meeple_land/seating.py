"""Seating visitors: an exact weighted bipartite matching of visitors to free spaces.

Visitors of one colour are interchangeable, and so are two free spaces with the same colour
(or joker) and the same revenue, so the matching is a small transportation problem: colours on
one side, *space classes* ``(colour or any, special)`` on the other, and an "entrance" bypass
for visitors left outside.  It is solved exactly as a min-cost flow (successive shortest paths), with a
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
_UNREACHED = 1 << 62


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
    """How many visitors of each colour go to each space class (``CLASSES`` order).

    A min-cost flow by successive shortest paths: the source gives each colour its visitors,
    a colour sends them to the classes that accept it (cost: minus the gain of seating one
    there) or to the sink past the entrance (cost 0), a class takes at most its free spaces.
    Each step sends visitors along the cheapest path of the residual network (Bellman-Ford:
    sixteen nodes, costs of either sign); the path costs never fall, so the flow is of least
    cost at every size, and the steps stop when no path gains.  The network is so small that
    this answers in microseconds, where a general library cost a tenth of a second to import
    (measured 3 December 2026)."""
    # Nodes: 0 the source, 1-4 the colours, 5-14 the classes, 15 the sink.  Each edge is kept
    # with its reverse (``e ^ 1``): head, residual capacity, cost.
    head: list[int] = []
    room: list[int] = []
    cost: list[int] = []
    out: list[list[int]] = [[] for _ in range(16)]

    def edge(a: int, b: int, cap: int, price: int) -> None:
        for frm, to, c, p in ((a, b, cap, price), (b, a, 0, -price)):
            out[frm].append(len(head))
            head.append(to)
            room.append(c)
            cost.append(p)

    seat_edges: dict[tuple[int, int], int] = {}
    for c, colour in enumerate(COLOURS):
        if not visitors[c]:
            continue
        edge(0, 1 + c, visitors[c], 0)
        points = 2 * VISITOR_VALUE[c]
        for k, (accepts, special) in enumerate(CLASSES):
            if capacity[k] and accepts in (colour, JOKER):
                revenue = 2 if special else 1
                gain = points * _BIG + revenue if goal == "points" else revenue * _BIG + points
                seat_edges[c, k] = len(head)
                edge(1 + c, 5 + k, capacity[k], -gain)
        edge(1 + c, 15, visitors[c], 0)  # left at the entrance
    for k in range(len(CLASSES)):
        if capacity[k]:
            edge(5 + k, 15, capacity[k], 0)
    while True:
        distance = [0] + [_UNREACHED] * 15
        came: list[int] = [-1] * 16
        for _ in range(15):  # Bellman-Ford: no negative cycle in a residual of least cost
            changed = False
            for node in range(16):
                if distance[node] == _UNREACHED:
                    continue
                for e in out[node]:
                    if room[e] and distance[node] + cost[e] < distance[head[e]]:
                        distance[head[e]] = distance[node] + cost[e]
                        came[head[e]] = e
                        changed = True
            if not changed:
                break
        if distance[15] >= 0:  # every visitor placed, or no path gains any more
            break
        path, node = [], 15
        while node:
            path.append(came[node])
            node = head[came[node] ^ 1]
        amount = min(room[e] for e in path)
        for e in path:
            room[e] -= amount
            room[e ^ 1] += amount
    return tuple(tuple(room[seat_edges[c, k] ^ 1] if (c, k) in seat_edges else 0
                       for k in range(len(CLASSES))) for c in range(len(COLOURS)))


def seating_plan(capacity: tuple[int, ...], visitors: Counts) -> tuple[tuple[int, ...], ...]:
    """The best seating (``points``) as counts: ``plan[c][k]`` visitors of colour ``c`` on
    spaces of class ``CLASSES[k]``, given the free spaces of each class (``CLASSES`` order).
    For searches that need the score, not the spaces (cached, like :func:`seat`)."""
    return _transport(capacity, visitors, "points")


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

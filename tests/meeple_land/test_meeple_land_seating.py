"""Seating is an exact weighted matching: checked against every possible assignment."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from partysolver.models.meeple_land.game import COLOURS, JOKER, VISITOR_VALUE
from partysolver.models.meeple_land.seating import CLASSES, SpaceClass, seat


def brute(spaces: list[SpaceClass], visitors: tuple[int, int, int, int], goal: str
          ) -> tuple[int, int]:
    """The best (points, revenue) or (revenue, points) over every assignment of visitors to
    spaces (each space empty or holding one visitor of a colour it accepts)."""
    best = None
    options = [[None] + [c for c in range(4) if s[0] in (COLOURS[c], JOKER)] for s in spaces]
    for choice in itertools.product(*options):
        used = [sum(1 for x in choice if x == c) for c in range(4)]
        if any(u > v for u, v in zip(used, visitors, strict=True)):
            continue
        inside = sum(VISITOR_VALUE[c] * used[c] for c in range(4))
        outside = sum(VISITOR_VALUE[c] * (visitors[c] - used[c]) for c in range(4))
        revenue = sum((2 if spaces[i][1] else 1) for i, x in enumerate(choice) if x is not None)
        key = (inside - outside, revenue) if goal == "points" else (revenue, inside - outside)
        best = key if best is None or key > best else best
    assert best is not None
    return best


spaces_strategy = st.lists(st.sampled_from(CLASSES), min_size=0, max_size=6)
visitors_strategy = st.tuples(*[st.integers(0, 3)] * 4)


@settings(max_examples=150, deadline=None)
@given(spaces_strategy, visitors_strategy)
def test_seating_matches_brute_force(spaces: list[SpaceClass],
                                     visitors: tuple[int, int, int, int]) -> None:
    for goal in ("points", "revenue"):
        result = seat(spaces, visitors, goal)
        got = (result.points, result.revenue) if goal == "points" else \
            (result.revenue, result.points)
        assert got == brute(spaces, visitors, goal)
        # The assignment is real: each seated visitor on a space that accepts it.
        for space, colour in zip(spaces, result.assigned, strict=True):
            assert colour is None or space[0] in (colour, JOKER)
        seated = [sum(1 for c in result.assigned if c == colour) for colour in COLOURS]
        assert tuple(seated) == result.seated
        assert all(s + w == v for s, w, v in zip(result.seated, result.waiting, visitors,
                                                  strict=True))


def test_revenue_breaks_ties_between_equal_points() -> None:
    # One green visitor: a plain green space or the fountain's special joker space.  Same
    # reputation, but the special space earns $1 more.
    result = seat([("green", False), (JOKER, True)], (1, 0, 0, 0))
    assert result.assigned == (None, "green")
    assert (result.points, result.revenue) == (1, 2)


def test_the_joker_goes_to_the_most_valuable_visitor() -> None:
    # A green and a pink visitor, one green space and one fountain: both seated.
    both = seat([("green", False), (JOKER, False)], (1, 0, 1, 0))
    assert both.assigned == ("green", "pink") and both.points == 3
    # Only the fountain: the pink one (2 points) sits, the green one waits (-1).
    one = seat([(JOKER, False)], (1, 0, 1, 0))
    assert one.assigned == ("pink",) and one.points == 2 - 1


def test_revenue_goal_can_prefer_money_over_reputation() -> None:
    # A special joker: a yellow visitor is worth 2 points but a green one on the special
    # space earns the same $2; with only one space, points prefer yellow.
    assert seat([(JOKER, True)], (1, 0, 0, 1)).assigned == ("yellow",)
    # Revenue first: $2 either way; then points: still yellow.
    assert seat([(JOKER, True)], (1, 0, 0, 1), "revenue").assigned == ("yellow",)
    # Two spaces (green plain, joker special), two green visitors and one pink: points seat the
    # pink one on the joker (2 + 1 - 1 = 2, $3); revenue seats the same ($3).
    result = seat([("green", False), (JOKER, True)], (2, 0, 1, 0), "revenue")
    assert result.revenue == 3


@settings(max_examples=200, deadline=None)
@given(st.tuples(*[st.integers(0, 12)] * len(CLASSES)), st.tuples(*[st.integers(0, 15)] * 4),
       st.sampled_from(("points", "revenue")))
def test_the_transport_matches_a_general_min_cost_flow(capacity: tuple[int, ...],
                                                       visitors: tuple[int, int, int, int],
                                                       goal: str) -> None:
    """Parks too big to enumerate: the seating's own flow gains what networkx's network
    simplex gains on the same network (the solver it replaced), and its plan is a flow."""
    import networkx as nx

    from partysolver.models.meeple_land import seating

    plan = seating._transport(capacity, visitors, goal)  # type: ignore[arg-type]
    graph = nx.DiGraph()
    graph.add_node("source", demand=-sum(visitors))
    graph.add_node("sink", demand=sum(visitors))
    gains: dict[tuple[int, int], int] = {}
    for c, colour in enumerate(COLOURS):
        graph.add_edge("source", colour, capacity=visitors[c], weight=0)
        graph.add_edge(colour, "sink", capacity=visitors[c], weight=0)
        for k, (accepts, special) in enumerate(CLASSES):
            if accepts in (colour, JOKER):
                points, revenue = 2 * VISITOR_VALUE[c], 2 if special else 1
                gains[c, k] = points * 100_000 + revenue if goal == "points" else \
                    revenue * 100_000 + points
                graph.add_edge(colour, k, capacity=capacity[k], weight=-gains[c, k])
    for k in range(len(CLASSES)):
        graph.add_edge(k, "sink", capacity=capacity[k], weight=0)
    best = -nx.cost_of_flow(graph, nx.min_cost_flow(graph))
    assert sum(gains.get((c, k), 0) * plan[c][k] for c in range(4)
               for k in range(len(CLASSES))) == best
    assert all(plan[c][k] == 0 for c in range(4) for k in range(len(CLASSES))
               if (c, k) not in gains)
    assert all(sum(plan[c]) <= visitors[c] for c in range(4))
    assert all(sum(plan[c][k] for c in range(4)) <= capacity[k] for k in range(len(CLASSES)))

"""The budgets of Epic Monster Tea Party's searches: the defaults a hint and ``solve`` are
given, and when an exact search is tried.

Kept apart from the searches so that the application layer states the defaults in its help
without loading them."""

from __future__ import annotations

from ...models.tea_party.state import TeaPartyState, size

DEFAULT_EXACT_NODES = 300_000
"""Nodes the exact search may use before a hint falls back to MCTS (three or four monsters:
the generic search expands some 25,000 nodes a second)."""


DEFAULT_EXACT_NODES_TWO = 10_000_000
"""The same for two monsters, whose compiled search expands some 5 million nodes a second (its
table, made for the budget up front, up to 256 MiB, grows past that only when full)."""


DEFAULT_MCTS_ITERATIONS = 3_000
"""MCTS iterations a hint without a time limit runs (a hint before the draw shares them among
the draws): the three-monster midgame, the slowest shipped position, takes some 4 s with them
on this 2-core machine under the load of a shared session (10,000 took minutes before the
subtree searches shared a node budget, and still 8 s after; 5,000 took 10 s for render --hint
at a load average of 7)."""


DEFAULT_SUBTREE_NODES = 100_000
"""Nodes MCTS's exact subtree searches may expand in all when a hint has no time limit, three
or four monsters (the generic search, some 25,000 nodes a second: a few seconds), so that
the default hint ends on every position, deterministically (a seed gives the same answer)."""


DEFAULT_SUBTREE_NODES_TWO = 10_000_000
"""The same for two monsters (the compiled search, some 5 million nodes a second)."""


def subtree_nodes_default(state: TeaPartyState, compiled: bool) -> int:
    """What MCTS's subtree searches may expand in all, with no time limit."""
    return DEFAULT_SUBTREE_NODES_TWO if state.num_players == 2 and compiled else \
        DEFAULT_SUBTREE_NODES


DEFAULT_SOLVE_NODES = 150_000
"""Nodes an exact ``solve`` may use by default, three or four monsters (the table holds about
as many entries, some 300 bytes each): some 5 s of the generic search, so that ``solve``
without a time limit ends on every shipped position (10,000,000 ran for minutes on the
midgame; ``--max-nodes`` asks for more)."""


DEFAULT_SOLVE_NODES_TWO = 4_000_000
"""The same for two monsters (the compiled search's table: 21 to 85 bytes an entry, rows of
16 or 32 bytes at most 75% full, 1.5 times that while it doubles): some 3 s on the opening,
which it does not solve (20,000,000 took 15 s there on a busy machine, the table's memory
included)."""


def exact_nodes_default(state: TeaPartyState) -> int:
    """A hint's default exact-search budget for this many monsters."""
    return DEFAULT_EXACT_NODES_TWO if state.num_players == 2 else DEFAULT_EXACT_NODES


def solve_nodes_default(state: TeaPartyState) -> int:
    """``solve``'s default node budget for this many monsters."""
    return DEFAULT_SOLVE_NODES_TWO if state.num_players == 2 else DEFAULT_SOLVE_NODES


EXACT_LOOSE = 18
"""Positions with more heroes loose than this are never tried exactly (they cannot fit)."""


SUBTREE_LOOSE_TWO = EXACT_LOOSE
"""MCTS's exact subtree searches (:class:`.exact.ExactSubtrees`) take positions of at most
this many heroes loose, two monsters; a bigger one is only checked for a certain winner.
Measured for issue 30 (``benchmarks/tea_party_subtrees.py --every-size``: every subtree
search of the default hints of the opening and of 8 random positions of 19 to 32 heroes
loose, each searched at every size as before): of 26,469 offers of bigger positions, 25.6
million nodes of the compiled search, none finished (240 smaller ones did); nor did the exact
search of two random positions of 19 loose within 10,000,000 nodes each."""


SUBTREE_LOOSE_MORE = 12
"""The same for three or four monsters (the generic search).  Measured the same way on the
midgame and 24 random positions of three or four monsters (11 to 30 heroes loose): of 74,024
offers of positions of 13 or more heroes loose, 2.3 million nodes (on the midgame, its whole
100,000: 1.2 s of its 1.6 s), none finished; 18 smaller ones did, of 4 to 11 loose; one random
position of 12 loose in seven was solved within 100,000 nodes (in 87)."""


def subtree_loose(num_players: int) -> int:
    """The most heroes loose in a position MCTS's subtree searches take."""
    return SUBTREE_LOOSE_TWO if num_players == 2 else SUBTREE_LOOSE_MORE


EXACT_SHARE = 0.25
"""The share of a time limit the exact attempt may take before MCTS has the rest."""


EXACT_FRACTIONS = 20_000
"""Distinct positions :func:`exact_fractions` may visit before it gives up (some 4,000 a second
in Python: ``solve`` tries up to this many, ``hint`` a quarter)."""


BOUNDS_SHARE = 0.5
"""The share of a time limit a hint with proven bounds (``--bounds``) leaves to the bounds
search (the hint's own search has the rest first; an exact hint needs none)."""

WRITE_RESERVE = 0.03
"""Seconds a time-limited hint with proven bounds leaves unsearched at its end for the answer
to be written (measured: about 0.01 s for the opening's eight draws), so that the command ends
within its limit, not just past it."""


BOUNDS_NODES = 200_000
"""Nodes the bounds search may expand when a hint with proven bounds has no time limit (a
few seconds interpreted, its leaves' exact searches not counted: each has its own budget)."""


HINT_SLOTS = 1 << 24
"""The most slots of a time-limited hint's compiled table with full keys (16 million, 512 MiB:
room for a root of 12 million states, reached from a limit of 5 s; 2 s gets 8 million slots;
made compact for the hint's position, the same memory holds 32 million slots).  The
system clears its memory as the search first touches it, some 0.35 s for 256 MiB here."""


COMPILE_WORTH = 1.0
"""Seconds: under this time limit the caller wants a quick answer, and the compiled search is
used only if it is compiled already (compiling takes some ten seconds, once)."""


def loose_heroes(state: TeaPartyState) -> int:
    """Heroes still outside the stomachs: in the bag, the teacups and the hand."""
    return size(state.bag + sum(state.cups)) + (state.held >= 0)

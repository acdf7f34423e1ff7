"""Tea Party's default budgets end (issue 27, cause 8): without ``--time-limit`` a hint did
not answer in 240 s on the midgame.  Now MCTS's subtree searches share one node budget, a
hint before a draw shares the default iterations among the draws, and the defaults are
counts, so a seed gives the same answer."""

from __future__ import annotations

import math
import random

import pytest
from reports import data as report_data
from tea_party_positions import position

from partysolver.solvers.budget import Budget
from partysolver.solvers.tea_party import exact
from partysolver.solvers.tea_party import hint as hints

SMALL = {"cups": [{"ranger": 1}, {}], "stomachs": [{"king": 1, "fighter": 1},
                                                  {"wizard": 1, "rogue": 1}]}


def test_mcts_subtrees_share_one_node_budget() -> None:
    """Once the total is spent no subtree is valued, even one that fits its own budget
    (before, a midgame hint spent 89 s of 91 in these searches)."""
    small = position({}, held="fighter", **SMALL)
    free = exact.ExactSubtrees(2, False)
    assert free(small, 1_000, math.inf) is not None
    used = free.search.meter.nodes
    assert used > 1
    capped = exact.ExactSubtrees(2, False, total=used - 1)
    assert capped(small, 1_000, math.inf) is None  # its total ran out inside the search
    assert capped.left is not None and capped.left <= 0
    assert capped(small, 1_000, math.inf) is None  # nothing left: not even tried
    assert capped.solved == 0


def test_a_share_of_the_default_iterations() -> None:
    """A hint before a draw is one search per draw: each gets its share of the default
    iterations (each ran all of them before: the opening took 104 s)."""
    bag = {"fighter": 3, "cleric": 2, "rogue": 2, "wizard": 2}
    state = position(bag, cups=[{"ranger": 1}, {"queen": 1}], held="fighter")
    found = hints.search(state, Budget(), random.Random(1), exact_nodes=1,
                         mcts_iterations=400, portion=0.25)
    assert found.usage["iterations"] == 100
    before = position(bag, cups=[{"ranger": 1}, {"queen": 1}])
    drawn = hints.draw_hints(before, Budget(iterations=200), random.Random(1), exact_nodes=1)
    assert sum(h.hint.result.usage.get("iterations", 0) for h in drawn) <= 200


def test_the_default_hint_is_deterministic_with_a_seed() -> None:
    first = report_data("hint", "tea-party:midgame", seed=7, mcts_iterations=300)
    second = report_data("hint", "tea-party:midgame", seed=7, mcts_iterations=300)
    assert first == second and first["search"]["iterations"] == 300


@pytest.mark.parametrize("verb, example, statuses", [
    ("hint", "default", ("exact", "estimate", "unknown")),
    ("solve", "opening", ("unknown",))])
def test_a_short_time_limit_loads_no_compiled_search(verb: str, example: str,
                                                     statuses: tuple[str, ...]) -> None:
    """Under COMPILE_WORTH a hint or a solve does not even load the compiled search from
    numba's cache (half a second at best, seconds on a busy machine: a hint with --time-limit
    0.1 took 5.4 s, a solve of the opening 0.56 s): in a fresh process the command answers and
    the compiled search stays unloaded."""
    import subprocess
    import sys

    code = ("import random\n"
            "from partysolver.app import catalog\n"
            "from partysolver.app.base import run\n"
            "from partysolver.solvers.tea_party import exact\n"
            f"data = run({verb!r}, catalog.open_document('tea-party:{example}'),"
            " {'time_limit': 0.1, 'seed': 1}).data\n"
            "print(data['status'], exact.loaded())\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=True)
    status, loaded = done.stdout.split()
    assert status in statuses and loaded == "False"

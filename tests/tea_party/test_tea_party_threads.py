"""The compiled search on several threads sharing one table (``CompiledExpectimax.threads``):
each lane takes the children in its own order and sums a chance node's terms in the first
lane's order, so every lane values every state to the same bits; the table's rows are written
so that a row read mid-write matches no key, and a slot is claimed by one store only."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest
from numba import njit
from tea_party_positions import position
from test_tea_party_compiled import reached_states

from partysolver.solvers.budget import Budget, BudgetExhausted
from partysolver.solvers.tea_party import kernel
from partysolver.solvers.tea_party.kernel import CompiledExpectimax, Table

NINE = position({"fighter": 3, "cleric": 1, "rogue": 1, "ranger": 1, "queen": 1},
                cups=[{"ranger": 1}, {"cleric": 1}],
                stomachs=[{"fighter": 2, "bard": 1}, {"rogue": 1}])
"""Nine heroes loose: some 100,000 entries, a fraction of a second."""


def _bits(value: float) -> int:
    return int(np.float64(value).view(np.int64))


def _live(table: Table) -> int:
    return sum(len(block) for block in table._live())


@njit(cache=False)
def _claim(used: np.ndarray, i: int) -> bool:
    return kernel._claim(used, i)  # (an intrinsic: callable from compiled code only)


@pytest.mark.parametrize("order", [1, 2, 3, 6])
def test_a_lane_in_any_order_values_every_state_to_the_same_bits(order: int) -> None:
    """The order of the children changes which are searched first, never a value's bits: a
    chance node sums its terms in the first lane's order (with and without the table)."""
    checked = 0
    for state in reached_states(21, 400, (2, 4)):
        if state.phase not in (0, 1) or checked >= 40:
            continue
        values = []
        for lane in (0, order):
            for use in (True, False):
                search = CompiledExpectimax(Budget(nodes=300_000), transpositions=use)
                search.counters[kernel._ORDER] = lane
                try:
                    values.append(search.value(state))
                except BudgetExhausted:
                    break
        if len(values) == 4:
            assert len(set(values)) == 1, (state, values)
            checked += 1
    assert checked == 40


@pytest.mark.parametrize("threads", [2, 3])
@pytest.mark.parametrize("most", [0, 1 << 12])
def test_several_threads_give_the_one_thread_value_to_the_bit(
        monkeypatch: pytest.MonkeyPatch, threads: int, most: int) -> None:
    """Lanes stop and resume together many times (a chunk of 97 nodes), the table grows from
    64 slots between rounds, or, capped far below the search, is purged between them; the
    value is the one-thread value to the last bit, and the table counts what it holds."""
    expected = CompiledExpectimax(Budget()).value(NINE)
    monkeypatch.setattr(CompiledExpectimax, "CHUNK", 97)
    table = Table(64) if most == 0 else Table(64, most=most)
    search = CompiledExpectimax(Budget(), table=table, threads=threads)
    assert search.value(NINE) == expected
    assert len(search._lanes()) == threads
    assert len(table) == _live(table) <= table.grow_at
    if most:
        assert table.purges > 0 and table.slots == 2 * most
    else:
        assert table.slots > 64 and table.purges == 0
    # What the lanes stored are the exact values: one lane on the same table agrees.
    assert CompiledExpectimax(Budget(), table=table).value(NINE) == expected


def test_one_lane_on_a_fixed_table_or_without_the_table() -> None:
    fixed = CompiledExpectimax(Budget(), table=Table(1 << 16, fixed=True), threads=2)
    without = CompiledExpectimax(Budget(), transpositions=False, threads=2)
    assert len(fixed._lanes()) == len(without._lanes()) == 1


def test_the_lanes_share_a_node_budget_and_a_cut_search_proves_its_interval() -> None:
    value = CompiledExpectimax(Budget()).value(NINE)[0]
    table = Table()
    cut = CompiledExpectimax(Budget(nodes=20_000), table=table, threads=2)
    with pytest.raises(BudgetExhausted):
        cut.value(NINE)
    assert cut.meter.nodes <= 20_000
    bounds = cut.cut_bounds()
    assert bounds is not None and bounds[0][0] <= value <= bounds[0][1]
    again = CompiledExpectimax(Budget(), table=table, threads=2)
    assert again.value(NINE)[0] == value


def test_a_row_read_mid_write_matches_no_key() -> None:
    """Each key word is kept XORed with the value's bits: a row whose value word comes from
    another write than its key word, or a slot claimed but not yet written (zeros), matches
    no key; a whole row gives its value."""
    table = Table(64)
    rows, used = table.rows, table.used
    k0, k1, k2, size = 12345, 678, 910, 3
    assert kernel._store(rows, used, 5, k0 | size << kernel._SIZE_SHIFT, k1, k2, 0.25)
    assert kernel._find(rows, used, 5, k0, k1, k2) == (5, True, 0.25)
    assert kernel._row_key(rows, 5) == (k0, k1, k2) and kernel._row_class(rows, 5) == size
    # A second store into the claimed slot writes nothing.
    assert not kernel._store(rows, used, 5, 99 | 1 << kernel._SIZE_SHIFT, 0, 0, 0.5)
    assert kernel._find(rows, used, 5, k0, k1, k2) == (5, True, 0.25)
    rows[5, 3] = _bits(0.75)  # torn: the value of another write
    slot, hit, _ = kernel._find(rows, used, 5, k0, k1, k2)
    assert not hit and slot == 6
    assert _claim(used, 7) and not _claim(used, 7)  # claimed, not written
    assert not kernel._find(rows, used, 7, 0, 0, 0)[1]
    # The plain rows, as a table file keeps them.
    rows[5, 3] = _bits(0.25)
    table.entries = 1
    plain = np.concatenate(list(table._live()))
    assert [int(w) for w in plain[0]] == [k0 | size << kernel._SIZE_SHIFT, k1, k2, _bits(0.25)]


def test_an_error_in_one_lane_waits_for_the_others(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table may be saved right after an error or Ctrl+C: no lane is left writing it."""
    finished = threading.Event()

    def fake(root, rows, used, classes, codec, counters, stop, *work):  # noqa: ANN001, ANN202
        if counters is search.counters:
            raise KeyboardInterrupt
        while not stop[0]:
            time.sleep(0.001)
        time.sleep(0.05)
        finished.set()
        return 0.0

    search = CompiledExpectimax(Budget(), table=Table(), threads=2)
    monkeypatch.setattr(kernel, "_search", fake)
    with pytest.raises(KeyboardInterrupt):
        search._round(search._lanes(), kernel.packed(NINE))
    assert finished.is_set()

"""The compiled search's compact keys (issue 32): one 56-bit word a state instead of three, so
that a table holds twice the entries in the same memory.  Each code is the full key's parts
one to one, within the bounds of the position a search starts from; a table searched with
them reaches the same states and values as with full keys; a table meets a wider position by
coding its entries again, and keeps every value."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from tea_party_positions import position
from test_tea_party_compiled import reached_states

from partysolver.app import paths
from partysolver.models.protocol import CHANCE, TERMINAL, sample_chance
from partysolver.models.tea_party import TeaPartyState
from partysolver.models.tea_party.state import DRAW, OVER, THROW_UP
from partysolver.solvers.budget import Budget
from partysolver.solvers.tea_party import kernel
from partysolver.solvers.tea_party.kernel import (
    CompiledExpectimax,
    Table,
    codec_fits,
    codec_for,
    packed,
)

# Nine heroes loose, two monsters: some 100,000 states (as the capped-table test's).
NINE = position({"fighter": 3, "cleric": 1, "rogue": 1, "ranger": 1, "queen": 1},
                cups=[{"ranger": 1}, {"cleric": 1}],
                stomachs=[{"fighter": 2, "bard": 1}, {"rogue": 1}])
FIVE = position({"fighter": 2, "rogue": 1, "ranger": 1}, stomachs=[{"fighter": 2}, {"rogue": 1}])


def below(root: TeaPartyState, rng: random.Random, games: int) -> list[TeaPartyState]:
    """States met along random games from ``root`` (the game over left out: the kernel never
    keys it)."""
    found = []
    for _ in range(games):
        state = root
        while (player := state.current_player()) != TERMINAL:
            found.append(state)
            state = state.apply(sample_chance(state, rng) if player == CHANCE
                                else rng.choice(state.legal_actions()))
    return [s for s in found if s.phase != OVER and not s.final]


def old_key(phase: int, held: int, bag: int, c0: int, c1: int, s0: int, s1: int
            ) -> tuple[int, int, int]:
    """The kernel's key before compact keys (commit ab35622's ``_key``, frozen here in plain
    Python as the oracle of the key's equivalence)."""
    merge, by_rank, standing = (kernel._merge_royals.py_func, kernel._by_rank.py_func,
                                kernel._standing.py_func)
    if held == kernel._QUEEN:
        held = kernel._KING
    bag, c0, c1 = merge(bag), merge(c0), merge(c1)
    rangers = ((bag | c0 | c1) & kernel._RANGERS) != 0 or held == kernel._RANGER \
        or phase == THROW_UP
    touching = (bag & kernel._TOUCHES) != 0 or ((1 << (held + 1)) & kernel._TOUCHING_HELD) != 0
    head = phase << 3 | (held + 1) << 5 | bag << 9
    flags = (1 if c0 & kernel._RANGERS else 0) | (2 if c1 & kernel._RANGERS else 0)
    if touching:
        if rangers:
            return (head, c0 | c1 << 32, by_rank(s0) | by_rank(s1) << 32)
        return (head | 1, c0 | c1 << 32, standing(s1) - standing(s0))
    if rangers:
        return (head | 2, by_rank(s0 + c0) | by_rank(s1 + c1) << 32, flags)
    return (head | 3, standing(s1 + c1) - standing(s0 + c0), 0)


def old_final_key(c0: int, c1: int, s0: int, s1: int) -> tuple[int, int, int]:
    by_rank = kernel._by_rank.py_func
    return (kernel._FINAL_FORM, by_rank(s0 + c0) | by_rank(s1 + c1) << 32,
            (1 if c0 & kernel._RANGERS else 0) | (2 if c1 & kernel._RANGERS else 0))


def keyed(state: TeaPartyState) -> list[tuple[tuple[int, ...], tuple[int, int, int]]]:
    """A state's key parts and its old key, and those of the end of the game with its
    teacups and stomachs."""
    phase, held, bag, c0, c1, s0, s1 = (int(v) for v in packed(state))
    return [(kernel._parts(phase, held, bag, c0, c1, s0, s1),
             old_key(phase, held, bag, c0, c1, s0, s1)),
            (kernel._final_parts(c0, c1, s0, s1), old_final_key(c0, c1, s0, s1))]


def test_the_key_parts_are_the_old_key() -> None:
    """Parts and the old keys go one to one: the parts' words are the old key, and two
    states with the same old key have the same parts (the stomachs' difference, kept per
    rank, is the old standing difference)."""
    parts_of: dict[tuple[int, int, int], tuple[int, ...]] = {}
    for state in reached_states(1, 6000, (0, 12)):
        if state.phase == OVER or state.final:
            continue
        for parts, old in keyed(state):
            assert kernel._words(*parts) == old
            assert parts_of.setdefault(old, parts) == parts
    assert len(parts_of) > 5000


def test_a_compact_key_is_the_full_key_in_one_word() -> None:
    """Every state the table stores below a root (draws, and ends of the game), on random
    roots of up to 14 heroes loose: its code is below 2^56 and unpacks to its parts, so two
    states share a code only if they share their parts.  Other states have no code."""
    rng = random.Random(32)
    compact = others = 0
    for root in reached_states(7, 400, (2, 9))[::10]:
        if root.phase == OVER or root.final:
            continue
        codec = codec_for(packed(root))
        if not codec[0]:
            continue
        compact += 1
        for state in [root, *below(root, rng, 8)]:
            (parts, _), (final, _) = keyed(state)
            for stored in ([parts] if state.phase == DRAW else []) + [final]:
                code = kernel._pack(*stored, codec)
                assert 0 <= code < 1 << 56
                assert kernel._unpack(code, codec) == stored
            if state.phase != DRAW:
                others += 1
                with pytest.raises(ValueError, match="never stores"):
                    kernel._pack(*parts, codec)
    assert compact >= 30 and others >= 100


def test_a_state_outside_the_codec_is_refused() -> None:
    codec = codec_for(packed(FIVE))
    more = position({"fighter": 3, "rogue": 1, "ranger": 1},
                    stomachs=[{"fighter": 2}, {"rogue": 1}])
    with pytest.raises(ValueError, match="outside"):
        kernel._pack(*keyed(more)[0][0], codec)


def test_a_position_too_big_for_one_word_keeps_full_keys() -> None:
    """The opening: 43 heroes loose, far past 56 bits."""
    opening = TeaPartyState.new_game(["Blue", "Green"])
    assert not codec_for(packed(opening))[0]
    table = Table()
    table.adopt(packed(opening))
    assert table.width == 4


@pytest.mark.parametrize("state", [NINE, FIVE], ids=["nine", "five"])
def test_compact_and_full_keys_search_the_same_states(state: TeaPartyState,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    compact = CompiledExpectimax(Budget())
    value = compact.value(state)
    assert compact.kernel_table.width == 2
    monkeypatch.setattr(kernel, "codec_for", lambda root, wider=None: np.zeros(16, np.int64))
    full = CompiledExpectimax(Budget())
    assert full.value(state) == value  # the same sums in the same order
    assert full.kernel_table.width == 4
    assert full.meter.nodes == compact.meter.nodes
    assert len(full.kernel_table) == len(compact.kernel_table)


def entries(table: Table) -> set[tuple[tuple[int, ...], int, int]]:
    """A compact table's entries: each state's key parts, size class and value bits."""
    rows = np.concatenate(list(table._live()))
    return {(kernel._unpack(int(row[0]) & kernel._KEY0, table.codec), int(row[0]) >> 56,
             int(row[1])) for row in rows}


def test_a_table_meets_a_wider_position_by_coding_its_entries_again() -> None:
    table = Table()
    first = CompiledExpectimax(Budget(), table=table)
    small = first.value(FIVE)
    narrow, before = table.codec.copy(), entries(table)
    table.adopt(packed(NINE))  # coded again, wider: the same entries
    assert table.width == 2 and (table.codec >= narrow).all() and (table.codec != narrow).any()
    assert entries(table) == before and len(table) == len(before)
    wider = CompiledExpectimax(Budget(), table=table)
    assert wider.value(NINE) == CompiledExpectimax(Budget()).value(NINE)
    assert len(table) > len(before)
    again = CompiledExpectimax(Budget(), table=table)  # the first position's values kept
    assert again.value(FIVE) == small and again.meter.nodes <= 1


def test_without_its_table_a_search_ignores_a_table_keyed_for_another_position() -> None:
    table = Table()
    CompiledExpectimax(Budget(), table=table).value(FIVE)
    codec = table.codec.copy()
    alone = CompiledExpectimax(Budget(), transpositions=False, table=table)
    assert alone.value(NINE) == pytest.approx(CompiledExpectimax(Budget()).value(NINE),
                                              abs=1e-12)
    assert (table.codec == codec).all()


def test_a_fixed_table_takes_compact_keys_only_from_the_widest_root() -> None:
    """A time-limited hint's table is never coded again (it would stall like a growth): its
    searches alone leave it with full keys; the hint's own position, given first, makes them
    compact; a wider position after all empties it rather than code it again."""
    table = Table(1 << 16, fixed=True)
    CompiledExpectimax(Budget(), table=table).value(FIVE)
    assert table.width == 4 and not table.codec[0] and len(table) > 0
    table = Table(1 << 16, fixed=True)
    table.adopt(packed(FIVE), widest=True)
    assert table.width == 2 and table.slots == 1 << 17  # the same memory
    CompiledExpectimax(Budget(), table=table).value(FIVE)
    assert len(table) > 0 and table.width == 2
    table.adopt(packed(NINE))  # wider after all: emptied, not coded again
    assert len(table) == 0 and codec_fits(table.codec, packed(NINE))
    assert CompiledExpectimax(Budget(), table=table).value(NINE) == \
        CompiledExpectimax(Budget()).value(NINE)
    assert table.width == 2 and table.slots == 1 << 17


def test_a_growing_table_keeps_the_keys_of_the_widest_root_given_first() -> None:
    table = Table()
    table.adopt(packed(NINE), widest=True)
    wide = table.codec.copy()
    table.adopt(packed(FIVE))  # a narrower search after it: the same keys
    assert (table.codec == wide).all()


@pytest.mark.parametrize("seconds", [None, 2.0], ids=["growing", "fixed"])
def test_a_hints_tables_and_the_bounds_leaves_take_the_hints_position_keys(
        seconds: float | None) -> None:
    from partysolver.solvers.tea_party.bounds import CompiledExact
    from partysolver.solvers.tea_party.exact import Tables

    table = Tables(seconds, root=NINE).compiled
    assert table.width == 2 and codec_fits(table.codec, packed(NINE))
    assert table.fixed == (seconds is not None)
    oracle = CompiledExact(NINE, 1000, entries=1 << 12)
    assert oracle.search.kernel_table.width == 2
    assert codec_fits(oracle.search.kernel_table.codec, packed(NINE))


@pytest.mark.parametrize("compact", [True, False], ids=["compact", "full"])
def test_a_table_file_keeps_its_keys(compact: bool, tmp_path: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Written and loaded, a table keeps its rows' width and codec; a compact one loaded and
    given a wider position codes its entries again and keeps every value."""
    if not compact:
        monkeypatch.setattr(kernel, "codec_for", lambda root, wider=None: np.zeros(16, np.int64))
    table = Table()
    value = CompiledExpectimax(Budget(), table=table).value(FIVE)
    path = tmp_path / "five.table"
    paths.write_atomically(path, table.write)
    loaded = Table()
    assert loaded.load(path) == len(table)
    assert loaded.width == table.width == (2 if compact else 4)
    assert (loaded.codec == table.codec).all()
    wider = CompiledExpectimax(Budget(), table=loaded)
    assert wider.value(NINE) == pytest.approx(CompiledExpectimax(Budget()).value(NINE),
                                              abs=1e-12)
    again = CompiledExpectimax(Budget(), table=loaded)
    assert again.value(FIVE) == value and again.meter.nodes <= 1


@pytest.mark.parametrize("most", [1 << 20, 1 << 10], ids=["roomy", "full"])
def test_compact_keys_go_back_to_full_ones_keeping_what_fits(most: int) -> None:
    """Coded back to full keys (what a position too wide for one word does to a table of
    compact ones), in the same memory: every value kept if it fits, else the biggest
    subtrees' (the smallest dropped first)."""
    table = Table(64, most=most)
    value = CompiledExpectimax(Budget(), table=table).value(NINE)
    entries, slots = len(table), table.slots
    table._rekey(np.zeros(16, dtype=np.int64))
    assert table.width == 4 and table.most == most
    if most == 1 << 10:  # 1,536 entries at most in compact rows, 768 in full ones
        assert table.slots == slots // 2 and entries >= 0.75 * table.slots
        assert len(table) < entries
    else:  # it grows to hold them
        assert table.slots >= slots // 2 and len(table) == entries
    again = CompiledExpectimax(Budget(), table=table)
    assert again.value(NINE) == pytest.approx(value, abs=1e-12)
    if len(table) == entries:
        assert again.meter.nodes <= 1

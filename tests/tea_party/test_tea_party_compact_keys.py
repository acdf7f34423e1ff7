"""The compiled search's compact keys (issue 32): one 56-bit word a state instead of three, so
that a table holds twice the entries in the same memory.  Each code is the full key's parts
one to one, within the bounds of the position a search starts from; a table searched with
them reaches the same states and values as with full keys; a table meets a wider position by
coding its entries again, and keeps every value."""

from __future__ import annotations

import random

import numpy as np
import pytest
from tea_party_positions import position
from test_tea_party_compiled import reached_states

from partysolver.models.protocol import CHANCE, TERMINAL, sample_chance
from partysolver.models.tea_party import TeaPartyState
from partysolver.models.tea_party.state import OVER
from partysolver.solvers.budget import Budget
from partysolver.solvers.tea_party import kernel
from partysolver.solvers.tea_party.kernel import CompiledExpectimax, Table, codec_for, packed

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


def keyed(state: TeaPartyState) -> list[tuple[int, ...]]:
    """A state's key parts, and those of the end of the game with its teacups and stomachs."""
    _, held, bag, c0, c1, s0, s1 = (int(v) for v in packed(state))
    return [kernel._parts(state.phase, held, bag, c0, c1, s0, s1),
            kernel._final_parts(c0, c1, s0, s1)]


def test_a_compact_key_is_the_full_key_in_one_word() -> None:
    """Every state below a root, on random roots of up to 14 heroes loose: its code is below
    2^56, unpacks to its parts, and two states share a code only if they share their parts
    (so their full keys: ``_words`` of the parts)."""
    rng = random.Random(32)
    compact = 0
    for root in reached_states(7, 400, (2, 9))[::10]:
        if root.phase == OVER or root.final:
            continue
        codec = codec_for(packed(root))
        if not codec[0]:
            continue
        compact += 1
        seen: dict[int, tuple[int, ...]] = {}
        for state in [root, *below(root, rng, 8)]:
            for parts in keyed(state):
                code = kernel._pack(*parts, codec)
                assert 0 <= code < 1 << 56
                assert kernel._unpack(code, codec) == parts
                assert seen.setdefault(code, parts) == parts
    assert compact >= 30


def test_a_state_outside_the_codec_is_refused() -> None:
    codec = codec_for(packed(FIVE))
    more = position({"fighter": 3, "rogue": 1, "ranger": 1},
                    stomachs=[{"fighter": 2}, {"rogue": 1}])
    with pytest.raises(ValueError, match="outside"):
        kernel._pack(*keyed(more)[0], codec)


def test_a_position_too_big_for_one_word_keeps_full_keys() -> None:
    """The opening: 43 heroes loose, far past 56 bits (and counts past 15)."""
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


def test_a_table_meets_a_wider_position_by_coding_its_entries_again() -> None:
    table = Table()
    first = CompiledExpectimax(Budget(), table=table)
    small = first.value(FIVE)
    narrow = table.codec.copy()
    entries = len(table)
    wider = CompiledExpectimax(Budget(), table=table)
    assert wider.value(NINE) == CompiledExpectimax(Budget()).value(NINE)
    assert table.width == 2 and (table.codec >= narrow).all() and (table.codec != narrow).any()
    assert len(table) > entries
    again = CompiledExpectimax(Budget(), table=table)  # the first position's values kept
    assert again.value(FIVE) == small and again.meter.nodes <= 1


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

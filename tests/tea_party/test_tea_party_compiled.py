"""The compiled two-player search against the rules engine: the generic expectimax over
``TeaPartyState`` is the oracle, on random positions of every phase and both seats."""

from __future__ import annotations

import random

import pytest
from tea_party_positions import position
from test_tea_party_solvers import random_position

from partysolver.models.protocol import CHANCE, TERMINAL, sample_chance
from partysolver.models.tea_party import GAME, Hero, TeaPartyState
from partysolver.models.tea_party.state import THROW_UP
from partysolver.solvers.budget import Budget, BudgetExhausted
from partysolver.solvers.expectimax import Expectimax, expectimax
from partysolver.solvers.tea_party.budgets import loose_heroes
from partysolver.solvers.tea_party.kernel import MAX_SLOTS, CompiledExpectimax, Table


def reached_states(seed: int, count: int, bag: tuple[int, int]) -> list[TeaPartyState]:
    """States met along random playouts from random two-monster positions: draws, choices
    (a Rogue's stolen hero included), throw-ups during a turn and at the end, game over."""
    rng = random.Random(seed)
    found: list[TeaPartyState] = []
    while len(found) < count:
        state = random_position(rng, 2)
        extra = rng.randint(*bag)
        heroes = list(Hero)
        for _ in range(extra):  # a bigger bag than the small positions of the other tests
            hero = rng.choice(heroes)
            state = TeaPartyState(state.table, state.phase, state.player, state.held,
                                  state.bag + (1 << (4 * int(hero))), state.cups,
                                  state.stomachs)
        while True:
            found.append(state)
            player = state.current_player()
            if player == TERMINAL:
                break
            state = state.apply(sample_chance(state, rng) if player == CHANCE
                                else rng.choice(state.legal_actions()))
    return found


def generic(state: TeaPartyState, nodes: int | None = None) -> tuple[float, ...]:
    """The oracle: the generic search over the rules engine, without a table (so without the
    canonical key the kernel restates)."""
    return Expectimax(Budget(nodes=nodes), transpositions=False).value(state)


def test_compiled_values_equal_the_rules_engine_on_every_phase_and_seat() -> None:
    search = CompiledExpectimax(Budget())
    seen: dict[tuple[int, int, bool], int] = {}
    for state in reached_states(3, 3000, (0, 2)):
        kind = (state.phase, state.player, state.final)
        if seen.get(kind, 0) >= 25:  # a spread over the kinds of state, not 3,000 of them
            continue
        try:
            truth = generic(state, 10_000)
        except BudgetExhausted:
            continue
        assert search.value(state) == pytest.approx(truth, abs=1e-9), state
        seen[kind] = seen.get(kind, 0) + 1
    assert {(THROW_UP, 0, False), (THROW_UP, 1, False)} <= set(seen)  # throw-ups in a turn
    assert {(phase, seat, False) for phase in (0, 1) for seat in (0, 1)} <= set(seen)


def test_compiled_root_options_equal_the_generic_search_on_bigger_bags() -> None:
    rng = random.Random(8)
    checked = 0
    for state in reached_states(5, 300, (3, 5)):
        if state.phase != 1 or rng.random() < 0.5:  # decisions only, a sample of them
            continue
        truth = expectimax(state, Budget(nodes=20_000), line=False)
        if truth.status != "optimal":
            continue
        compiled = expectimax(state, line=True, kind=CompiledExpectimax)
        assert compiled.status == "optimal" and compiled.method.endswith("compiled (numba)")
        assert compiled.values == pytest.approx(truth.values, abs=1e-9)
        assert [m.value for m in compiled.moves] == pytest.approx(
            [m.value for m in truth.moves], abs=1e-9)
        first = next(m for m in compiled.moves if m.action == compiled.line[0])
        assert first.value == pytest.approx(compiled.moves[0].value, abs=1e-9)
        checked += 1
        if checked == 12:
            break
    assert checked == 12


def test_without_the_table_the_values_are_the_same() -> None:
    checked = 0
    for state in reached_states(11, 60, (0, 2)):
        without = CompiledExpectimax(Budget(nodes=200_000), transpositions=False)
        try:
            value = without.value(state)
        except BudgetExhausted:
            continue
        assert value == pytest.approx(CompiledExpectimax(Budget()).value(state), abs=1e-12)
        assert without.size() == 0
        checked += 1
    assert checked >= 40


def test_a_search_cut_into_chunks_resumes_to_the_same_value(monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    state = position({"fighter": 2, "rogue": 1, "ranger": 1, "queen": 1},
                     cups=[{"ranger": 1}, {"cleric": 1}],
                     stomachs=[{"fighter": 2, "bard": 1}, {"rogue": 2}], current=1)
    whole = CompiledExpectimax(Budget())
    value = whole.value(state)
    assert value == pytest.approx(generic(state), abs=1e-9)
    monkeypatch.setattr(CompiledExpectimax, "CHUNK", 7)  # shorter than the way down
    chunked = CompiledExpectimax(Budget())
    assert chunked.value(state) == pytest.approx(value, abs=1e-12)
    # Each chunk goes on from the stack the last one left: not a node is searched twice.
    assert chunked.meter.nodes == whole.meter.nodes


def test_out_of_nodes_it_raises_and_keeps_only_finished_values() -> None:
    state = position({"fighter": 3, "cleric": 1, "rogue": 1, "ranger": 1},
                     cups=[{"ranger": 1}, {"cleric": 1}], stomachs=[{"fighter": 2}, {"cleric": 1}])
    table = Table()
    cut = CompiledExpectimax(Budget(nodes=200), table=table)
    with pytest.raises(BudgetExhausted):
        cut.value(state)
    assert cut.meter.nodes == 200
    partial = len(table)
    assert 0 < partial <= 200
    resumed = CompiledExpectimax(Budget(), table=table)  # the same table, unlimited
    fresh = CompiledExpectimax(Budget())
    assert resumed.value(state) == pytest.approx(fresh.value(state), abs=1e-12)
    # Each finished value kept saves its subtree (at least its own node; a draw's subtree
    # holds the choices, which are not stored), and no more than the cut search took.
    assert fresh.meter.nodes - 200 <= resumed.meter.nodes <= fresh.meter.nodes - partial


def test_out_of_budget_the_exact_result_claims_nothing() -> None:
    state = position({"fighter": 6, "cleric": 2, "rogue": 2, "wizard": 1, "ranger": 2},
                     stomachs=[{"fighter": 2}, {"cleric": 1}])
    result = expectimax(state, Budget(nodes=1_000), kind=CompiledExpectimax)
    assert result.status == "unknown" and result.values is None
    assert result.usage["nodes"] <= 1_000


@pytest.mark.parametrize("state", [
    position({"fighter": 7, "cleric": 1, "rogue": 1, "wizard": 1, "ranger": 1},
             stomachs=[{"fighter": 3, "cleric": 1}, {"rogue": 1}], current=1),
    position({"fighter": 5, "cleric": 1, "rogue": 1, "wizard": 1, "ranger": 1},
             cups=[{"ranger": 1}, {"fighter": 2}], stomachs=[{"fighter": 3}, {"rogue": 1}],
             held="queen")], ids=["Green's draw", "Blue holds the Queen"])
def test_a_search_cut_short_proves_an_interval_that_holds_the_value(state: TeaPartyState
                                                                     ) -> None:
    """Out of budget, the result carries both monsters' proven intervals, read from the
    compiled search's stack: each holds the exact value, at a draw and at a decision, from
    either seat, and a later cut only narrows it (every node after the same, in the same
    order)."""
    whole = expectimax(state, line=False, kind=CompiledExpectimax)
    assert whole.status == "optimal" and whole.values is not None and whole.bounds is None
    nodes = whole.usage["nodes"]
    assert nodes > 10_000
    before = (0.0, 1.0)
    widths = []
    for share in (0.01, 0.3, 0.7, 0.95, 0.999):
        cut = expectimax(state, Budget(nodes=int(nodes * share)), kind=CompiledExpectimax)
        assert cut.status == "unknown" and cut.values is None and cut.bounds is not None
        for seat in (0, 1):
            low, high = cut.bounds[seat]
            assert low - 1e-12 <= whole.values[seat] <= high + 1e-12
        (low0, high0), (low1, high1) = cut.bounds
        assert low1 == pytest.approx(1 - high0) and high1 == pytest.approx(1 - low0)
        assert before[0] - 1e-12 <= low0 <= high0 <= before[1] + 1e-12
        before = (low0, high0)
        widths.append(high0 - low0)
    assert widths[-1] < 0.5 * widths[0]


def test_the_compiled_search_refuses_more_than_two_monsters() -> None:
    with pytest.raises(ValueError, match="two monsters"):
        CompiledExpectimax(Budget()).value(position({"fighter": 1}, players=3))


def test_a_table_that_grows_mid_search_gives_the_same_values(monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    state = position({"fighter": 2, "rogue": 1, "ranger": 1, "queen": 1},
                     cups=[{"ranger": 1}, {"cleric": 1}],
                     stomachs=[{"fighter": 2, "bard": 1}, {"rogue": 2}])
    expected = CompiledExpectimax(Budget()).value(state)
    monkeypatch.setattr(CompiledExpectimax, "CHUNK", 50)
    table = Table(64)
    grown = CompiledExpectimax(Budget(), table=table)
    assert grown.value(state) == pytest.approx(expected, abs=1e-12)
    assert table.slots >= len(table) / 0.75 and table.slots >= 1024


def test_a_long_search_reports_its_progress_as_it_goes(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """The share done, read from the stack between chunks, only grows, stays within [0, 1],
    and the search's value is the same as in one piece."""
    state = position({"fighter": 4, "cleric": 1, "rogue": 2, "wizard": 1, "ranger": 2,
                      "queen": 1}, stomachs=[{"fighter": 2}, {"cleric": 1}])
    whole = CompiledExpectimax(Budget()).value(state)
    monkeypatch.setattr(CompiledExpectimax, "CHUNK", 500)
    monkeypatch.setattr(CompiledExpectimax, "PROGRESS_EVERY", 0.0)
    search = CompiledExpectimax(Budget())
    shares: list[float] = []
    search.progress = lambda running: shares.append(running.done_share())
    assert search.value(state) == pytest.approx(whole, abs=1e-12)
    assert len(shares) >= 5
    assert all(0.0 <= a <= b <= 1.0 for a, b in zip(shares, shares[1:], strict=False))
    assert shares[-1] > shares[0]


def test_a_time_limit_stops_the_search_between_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    state = position({"fighter": 4, "cleric": 1, "rogue": 2, "wizard": 1, "ranger": 2,
                      "queen": 1}, stomachs=[{"fighter": 2}, {"cleric": 1}])
    monkeypatch.setattr(CompiledExpectimax, "CHUNK", 1_000)
    search = CompiledExpectimax(Budget(time=0.0))
    with pytest.raises(BudgetExhausted):
        search.value(state)
    assert search.meter.nodes <= 1_000  # one chunk, then the clock


def test_a_search_that_used_its_whole_budget_still_reads_its_table() -> None:
    state = position({"fighter": 3, "cleric": 1, "rogue": 1, "ranger": 1},
                     cups=[{"ranger": 1}, {"cleric": 1}], stomachs=[{"fighter": 2}, {"cleric": 1}])
    needed = expectimax(state, line=False, kind=CompiledExpectimax).usage["nodes"]
    exact = expectimax(state, Budget(nodes=needed), line=True, kind=CompiledExpectimax)
    assert exact.status == "optimal" and exact.line


def test_it_refuses_what_it_cannot_solve() -> None:
    """Three monsters (or another game) go to the generic search; asked directly, the compiled
    one says so instead of answering for two."""
    three = GAME.initial_state(3, random.Random(1))
    with pytest.raises(ValueError, match="two monsters only"):
        expectimax(three, Budget(nodes=10), kind=CompiledExpectimax)


def random_play_value(state: TeaPartyState) -> tuple[float, ...]:
    """The oracle of a random playout's mean: the exact expectation of uniformly random play
    over the rules engine's options (chance with its odds)."""
    player = state.current_player()
    if player == TERMINAL:
        return tuple(state.returns())
    if player == CHANCE:
        pairs = [(float(p), random_play_value(state.apply(o))) for o, p in state.chance_outcomes()]
    else:
        moves = state.legal_actions()
        pairs = [(1 / len(moves), random_play_value(state.apply(m))) for m in moves]
    return tuple(sum(p * v[i] for p, v in pairs) for i in range(state.num_players))


def test_compiled_playouts_average_to_the_value_of_random_play() -> None:
    from partysolver.solvers.tea_party.kernel import Playouts

    playouts = Playouts(20_000)
    rng = random.Random(4)
    checked = set()
    for state in reached_states(21, 400, (0, 1)):
        kind = (state.phase, state.player)
        if (state.is_terminal() or (state.phase == THROW_UP and state.final) or kind in checked
                or loose_heroes(state) > 5):
            continue
        truth = random_play_value(state)
        # 20,000 playouts: a standard error under 0.0036; 0.015 is four of them
        assert playouts(state, rng) == pytest.approx(truth, abs=0.015), state
        checked.add(kind)
    assert {(phase, seat) for phase in (0, 1, 2) for seat in (0, 1)} <= checked


def test_a_fixed_table_is_emptied_when_full_and_never_grown() -> None:
    """A time-limited hint's table never grows (a rehash would stall the search past its
    deadline): a search that fills it empties it and starts afresh, to the same value; a
    search too big for it alone runs out of budget instead of looping."""
    first = position({"fighter": 2, "rogue": 1, "ranger": 1, "queen": 1},
                     cups=[{"ranger": 1}, {"cleric": 1}],
                     stomachs=[{"fighter": 2, "bard": 1}, {"rogue": 2}])
    second = position({"fighter": 3, "cleric": 1, "rogue": 1, "ranger": 1},
                      cups=[{"ranger": 1}, {"cleric": 1}], stomachs=[{"fighter": 2}, {"cleric": 1}])
    sizes, expected = [], []
    for state in (first, second):
        alone = CompiledExpectimax(Budget())
        expected.append(alone.value(state))
        sizes.append(len(alone.kernel_table))
    slots = 64
    while slots * 0.75 <= max(sizes):
        slots *= 2
    assert sum(sizes) >= slots * 0.75  # both do not fit together: the second empties it
    table = Table(slots, fixed=True)
    for state, value in zip((first, second), expected, strict=True):
        assert CompiledExpectimax(Budget(), table=table).value(state) == \
            pytest.approx(value, abs=1e-12)
    assert table.slots == slots and 0 < len(table) <= sizes[1]
    with pytest.raises(BudgetExhausted):
        CompiledExpectimax(Budget(), table=Table(64, fixed=True)).value(first)


def test_a_table_capped_far_below_the_search_drops_entries_and_keeps_every_value(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A table that may not grow past ``most`` slots keeps the values of its biggest subtrees
    when full and drops the rest (``_purge``): the value stays exact, the search only searches
    again what it dropped, and the table never grows past its cap."""
    state = position({"fighter": 3, "cleric": 1, "rogue": 1, "ranger": 1, "queen": 1},
                     cups=[{"ranger": 1}, {"cleric": 1}],
                     stomachs=[{"fighter": 2, "bard": 1}, {"rogue": 1}])  # 9 heroes loose
    whole = CompiledExpectimax(Budget())
    expected = whole.value(state)
    needed = len(whole.kernel_table)  # some 100,000 entries
    for most, chunk in ((1 << 10, CompiledExpectimax.CHUNK), (1 << 12, 97), (3 << 10, 97)):
        # A chunk of 97 nodes: the search stops and resumes on its stack, the table grows
        # from 64 slots to its cap on the way (every slot moves), then purges.  The cap need
        # not be a power of two (3,072 slots: the last growth goes from 2,048 to 3,072).
        monkeypatch.setattr(CompiledExpectimax, "CHUNK", chunk)
        table = Table(64, most=most)
        capped = CompiledExpectimax(Budget(), table=table)
        assert capped.value(state) == pytest.approx(expected, abs=1e-12)
        assert needed > 4 * most  # far too small to hold the search
        # Compact keys (16-byte rows): twice the slots in the memory of ``most`` full rows.
        assert table.width == 2 and table.rows.nbytes == most * 32
        assert table.purges > 0 and table.slots == table.most == 2 * most
        assert len(table) < 2 * most
        assert capped.meter.nodes > whole.meter.nodes  # what it dropped, searched again
        # What it kept are exact values: a search on the same table agrees, in fewer nodes.
        again = CompiledExpectimax(Budget(), table=table)
        assert again.value(state) == pytest.approx(expected, abs=1e-12)


def test_a_table_within_a_memory_cap() -> None:
    assert Table.within(8).most == 1 << 28  # 32-byte rows: 8 GiB
    assert Table.within(12).most == 12 << 25  # any whole number of 2^22 slots, not only 2^k
    assert Table.within(12.1).most == 12 << 25  # rounded down to 128 MiB
    assert Table.within(0.001).most == 1 << 16  # at least 65,536
    assert Table.within(10_000).most == MAX_SLOTS  # within the hash's reach (64 GiB)
    assert Table().most == 1 << 28  # a growing table stops at 8 GiB by default
    for gib in (0.01, 0.3, 12, 20, 1024):
        table = Table.within(gib)
        slots = table.slots  # it starts small and each growth doubles it, up to the most
        assert slots <= 1 << 16 or slots % 128  # (halved no further: bitmap words)
        while slots < table.most:
            slots *= 2
        assert slots == table.most

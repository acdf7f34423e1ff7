"""A budget always answers: short time limits, the exact attempt's share, compiling outside
the clock, and the interpreted search for what it finishes (no timing assertions)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from tea_party_positions import position

from partysolver.models.documents import parse_document
from partysolver.models.tea_party import Hero, TeaPartyState, load_state
from partysolver.puzzles import examples
from partysolver.solvers import compiled
from partysolver.solvers.budget import Budget, SearchResult
from partysolver.solvers.tea_party import budgets, exact
from partysolver.solvers.tea_party import hint as hints


def example(name: str) -> TeaPartyState:
    path: Path = examples("tea-party")[name]
    return load_state(parse_document(path.read_text(), path.name), name)


def opening_draw() -> TeaPartyState:
    state = TeaPartyState.new_game(("Blue", "Green"))
    return state.apply(next(a for a, _ in state.chance_outcomes() if a.hero == Hero.CLERIC))


@pytest.mark.parametrize("make", [lambda: example("default"), lambda: example("midgame"),
                                  opening_draw], ids=["default", "midgame", "opening"])
def test_a_tenth_of_a_second_gives_a_ranked_answer(make) -> None:
    state = make()
    hint = hints.hint(state, Budget(time=0.1), random.Random(0), exact_nodes=1)
    assert hint.status == "estimate"
    assert hint.result.usage["iterations"] >= len(state.legal_actions()) > 0
    assert all(m.value.visits > 0 and 0.0 <= m.value.value <= 1.0 for m in hint.moves)
    assert {m.move for m in hint.moves} == set(state.legal_actions())


def test_before_the_draw_a_short_budget_answers_every_draw() -> None:
    state = TeaPartyState.new_game(("Blue", "Green"))
    for item in hints.draw_hints(state, Budget(time=0.1), random.Random(0)):
        assert item.hint.status in ("estimate", "exact")
        assert item.hint.result.usage["iterations"] > 0 or item.hint.exact


def test_each_draw_gets_its_share_of_the_time_still_left(monkeypatch) -> None:
    """Before a draw, each draw's hint gets the time still left over the draws still to
    answer: a draw that overran its share is taken out of the later ones' (the opening with
    --bounds --time-limit 2 ended past 2 s when every draw had a fixed eighth)."""
    import time

    given: list[float] = []
    real = hints.hint

    def slow(state, budget, *args, **kwargs):  # the first draw overruns by its whole share
        given.append(budget.time)
        if len(given) == 1:
            time.sleep(budget.time * 2)
        return real(state, Budget(iterations=8), *args, **kwargs)

    monkeypatch.setattr(hints, "hint", slow)
    state = TeaPartyState.new_game(("Blue", "Green"))
    draws = len(state.chance_outcomes())
    hints.draw_hints(state, Budget(time=0.4), random.Random(0), exact_nodes=1)
    assert len(given) == draws and given[0] == pytest.approx(0.4 / draws, rel=1e-3)
    # the second draw shares what the first left (it slept two shares) with the rest: less
    # than its own share, which a fixed share would have given it
    assert given[1] <= (0.4 - 2 * given[0]) / (draws - 1) + 1e-6 < given[0]


def test_the_exact_attempt_takes_a_share_and_mcts_the_rest(monkeypatch) -> None:
    seen: dict[str, Budget] = {}
    real_exact, real_mcts = exact.exact_search, hints.mcts

    spent: list[float] = []

    def exact_spy(state, budget, **kwargs) -> SearchResult:
        seen["exact"] = budget
        result = real_exact(state, budget, **kwargs)
        spent.append(result.usage["seconds"])
        return result

    def mcts(state, budget, rng, **kwargs) -> SearchResult:
        seen["mcts"] = budget
        return real_mcts(state, budget, rng, **kwargs)

    monkeypatch.setattr(exact, "exact_search", exact_spy)
    monkeypatch.setattr(hints, "mcts", mcts)
    state = opening_draw()
    big = TeaPartyState(state.table, state.phase, state.player, state.held,
                        state.bag - sum(n << (4 * h) for h, n in enumerate((13, 7, 5, 3, 3))),
                        state.cups, state.stomachs)  # 14 heroes loose: tried exactly
    result = hints.search(big, Budget(time=0.4), random.Random(0), exact_nodes=1_000)
    assert seen["exact"].time == pytest.approx(0.4 * budgets.EXACT_SHARE)
    assert seen["exact"].time < 0.5 * 0.4
    assert seen["mcts"].time == pytest.approx(max(0.4 - spent[0], 0.0))  # the rest
    assert result.status == "feasible" and result.usage["iterations"] > 0


def test_a_time_limited_hint_compiles_in_the_background_and_answers_now(monkeypatch) -> None:
    # A compile takes some ten seconds: past any short limit (the web's 504).  A hint with a
    # time limit starts it in a process of its own and answers with the interpreted search,
    # with the whole limit; a later hint finds the compiled search ready.
    started: list[str] = []
    limits: list[Budget] = []
    real_mcts = hints.mcts

    def mcts(state, budget, rng, **kwargs) -> SearchResult:
        limits.append(budget)
        return real_mcts(state, budget, rng, **kwargs)

    def refuse(notice=None) -> float:
        raise AssertionError("compiled in the foreground under a time limit")

    monkeypatch.setattr(exact, "needs_compile", lambda: True)
    monkeypatch.setattr(exact, "load_compiled", refuse)
    monkeypatch.setattr(compiled, "compile_in_background",
                        lambda kernel: started.append(kernel.key) or True)
    monkeypatch.setattr(hints, "mcts", mcts)
    result = hints.search(opening_draw(), Budget(time=1.5), random.Random(0), exact_loose=-1)
    assert started == [compiled.TEA_PARTY_SEARCH.key]
    assert limits[0].time == 1.5
    assert result.usage["iterations"] > 0


def test_without_a_time_limit_the_compile_is_announced_and_done_first(monkeypatch) -> None:
    told: list[str] = []
    loads: list[bool] = []
    monkeypatch.setattr(exact, "needs_compile", lambda: True)
    monkeypatch.setattr(exact, "loaded", lambda: False)
    monkeypatch.setattr(compiled, "compile_in_background",
                        lambda kernel: pytest.fail("no background compile without a limit"))
    monkeypatch.setattr(exact, "load_compiled",
                        lambda notice=None: loads.append(True) or (notice and notice("compiling"))
                        or 0.0)
    hints.search(opening_draw(), Budget(iterations=20), random.Random(0), exact_loose=-1,
                 notice=told.append)
    assert loads and told == ["compiling"]


def test_under_a_second_nothing_is_compiled(monkeypatch) -> None:
    def refuse(notice=None) -> float:
        raise AssertionError("compiled under a one-second limit")

    monkeypatch.setattr(exact, "needs_compile", lambda: True)
    monkeypatch.setattr(exact, "load_compiled", refuse)
    hint = hints.hint(opening_draw(), Budget(time=0.5), random.Random(0))
    assert hint.status == "estimate" and hint.result.usage["iterations"] > 0


def test_the_default_example_is_answered_by_the_interpreted_search(monkeypatch) -> None:
    def refuse(notice=None) -> float:
        raise AssertionError("the compiled search was loaded for a small position")

    monkeypatch.setattr(exact, "needs_compile", lambda: True)
    monkeypatch.setattr(exact, "load_compiled", refuse)
    hint = hints.hint(example("default"), Budget(), random.Random(0))
    assert hint.exact and hint.result.method == "exact expectimax, interpreted"


def test_once_loaded_the_compiled_search_needs_no_compile() -> None:
    exact.load_compiled()
    assert not exact.needs_compile()
    told: list[str] = []
    assert exact.load_compiled(told.append) >= 0.0 and told == []


def test_solve_uses_the_compiled_search_beyond_the_interpreted_one(monkeypatch) -> None:
    monkeypatch.setattr(exact, "LEAN_NODES_READY", 100)
    monkeypatch.setattr(exact, "LEAN_NODES_COLD", 100)
    state = position({"fighter": 3, "cleric": 1, "rogue": 1, "ranger": 1},
                     cups=[{"ranger": 1}, {"cleric": 1}], stomachs=[{"fighter": 2}, {"cleric": 1}])
    solution = exact.solve(state, Budget(nodes=1_000_000))
    assert solution.result.status == "optimal"
    assert solution.result.method == "exact expectimax, compiled (numba)"


def test_the_interpreted_search_goes_first_only_where_it_pays(monkeypatch) -> None:
    """Compiled on disk but not loaded in this process: a small position goes to the
    interpreted search first (it answers without loading the compiled one), a big one at once
    to the compiled search (the interpreted search's nodes would be lost: it seldom finishes
    there, and the compiled one starts afresh).  Once loaded, every position goes to the
    compiled search."""
    interpreted, compiled = "exact expectimax, interpreted", "exact expectimax, compiled (numba)"
    exact.load_compiled()
    small = example("default")
    big = opening_draw()
    assert budgets.loose_heroes(small) <= exact.LEAN_LOOSE < budgets.loose_heroes(big)
    monkeypatch.setattr(exact, "needs_compile", lambda: False)
    monkeypatch.setattr(exact, "loaded", lambda: False)  # as if not loaded yet
    assert exact.exact_search(small, Budget(nodes=100_000)).method == interpreted
    assert exact.exact_search(big, Budget(nodes=1_000)).method == compiled
    monkeypatch.undo()
    assert exact.exact_search(small, Budget(nodes=100_000)).method == compiled


def test_a_time_limited_hint_makes_its_table_once_for_the_whole_limit() -> None:
    """Under a time limit the compiled table is made for what half the limit can search (at
    most ``HINT_SLOTS``) and never grown, so no search of the hint stalls on a rehash past its
    deadline; without one it starts small and grows."""
    from partysolver.solvers.tea_party.kernel import CompiledExpectimax

    short, long = exact.Tables(0.1).compiled, exact.Tables(60.0).compiled
    assert short.fixed and long.fixed
    assert short.slots * 0.75 > 0.1 * CompiledExpectimax.NODES_PER_SECOND / 2
    assert short.slots < long.slots == budgets.HINT_SLOTS
    unlimited = exact.Tables().compiled
    assert not unlimited.fixed and unlimited.slots < short.slots

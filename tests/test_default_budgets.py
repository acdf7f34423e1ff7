"""Budgets always end (issue 27, causes 7 and 8): ``--top`` is capped by the options before
anything is sized, for every game, and a short time limit does not load what it cannot spare
the time for (Tea Party's default budgets: ``tests/tea_party/test_tea_party_defaults.py``)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from reports import data as report_data

from partysolver.models.errors import InputError
from partysolver.models.registry import game_keys
from partysolver.solvers.budget import Budget
from partysolver.solvers.meeple_party.turn import KERNEL_WORTH, use_kernel

HUGE = 2**31
"""``--top 2147483648``: Meeple Party's kernel asked for 224 GiB before the cap."""


@pytest.mark.parametrize("game", sorted(game_keys()))
def test_a_huge_top_lists_every_option_and_no_more(game: str) -> None:
    """Each game's example (Meeple Party's last photo: its default has 17,521 turns) with
    ``--top`` past any count: the same ranking as a top the size of the options."""
    example = "meeple-party:last-photo" if game == "meeple-party" else f"{game}:default"
    given = {"seed": 1, "time_limit": 5.0}
    try:
        everything = report_data("hint", example, top=HUGE, **given)
    except InputError as error:  # a game without a hint refuses in one line, sizing nothing
        assert "hint" in error.line()
        return
    moves = everything["moves"]
    assert moves
    again = report_data("hint", example, top=len(moves), **given)["moves"]
    assert [m["move"] for m in again] == [m["move"] for m in moves]


def test_a_short_time_limit_keeps_the_turn_search_interpreted() -> None:
    """Loading Meeple Party's compiled kernel takes about a second: under KERNEL_WORTH the
    search stays interpreted, and answers within its limit (unknown when it cannot finish)."""
    assert not use_kernel(Budget(time=0.1), None)
    assert not use_kernel(Budget(time=KERNEL_WORTH / 2), None)
    data = report_data("hint", "meeple-party:default", time_limit=0.1)
    assert data["search"].get("compiled") is not True
    assert data["status"] in ("exact", "unknown")


def test_a_hint_before_a_surprise_card_shares_its_time_limit(monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    """Each card's turn search had the whole limit: --time-limit 0.1 took 2.9 s over 30
    cards.  Now each gets its share of the time still left (what is left over the cards not
    yet searched), a card met with no time left is not searched, and --max-nodes stays each
    search's own.  Here every search overruns its share twice over, so the time runs out
    part of the way through the cards."""
    import time

    from partysolver.solvers.meeple_party import turn

    seen: list[tuple[int, Budget]] = []  # (the draw's place, its budget) of every search
    real_hint, real_best = turn.turn_hint, turn.best_turn

    def busy(budget: Budget) -> Budget:
        seen.append((len(seen), budget))
        time.sleep(2 * budget.time)
        return replace(budget, time=None)

    def hint_spy(state, budget=None, top=5, compiled=None):  # type: ignore[no-untyped-def]
        return real_hint(state, busy(budget), top, compiled)

    def best_spy(state, budget=None, compiled=None):  # type: ignore[no-untyped-def]
        return real_best(state, busy(budget), compiled)

    monkeypatch.setattr(turn, "turn_hint", hint_spy)
    monkeypatch.setattr(turn, "best_turn", best_spy)
    data = report_data("hint", "meeple-party:positions/23-hard-white-20", time_limit=0.3,
                       max_nodes=50)
    draws = data["draws"]
    searched = [d for d in draws if d["value"] is not None]
    assert 1 < len(seen) < len(draws) and len(searched) <= len(seen)
    assert all(d["value"] is None for d in draws[len(seen):])  # met with no time left
    assert draws[-1]["value"] is None and data["status"] == "unknown"
    # the draws are searched in order: the k-th search's share is at most the limit over the
    # draws not yet searched, and each later one no more than what its predecessor left
    for k, budget in seen:
        assert 0 < budget.time <= 0.3 / (len(draws) - k) + 1e-9 and budget.nodes == 50
    for (_, first), (_, second) in zip(seen, seen[1:], strict=False):
        assert second.time <= first.time


def test_the_time_left_counts_from_the_command_start() -> None:
    """``--time-limit`` counts from the command's start: options started long ago have no time
    left (never less than 0); options with no start give each search the whole limit."""
    import time

    from partysolver.app.base import Options

    assert Options(time_limit=2.0).time_left() == 2.0
    assert Options().time_left() is None
    assert Options(time_limit=2.0, started=time.perf_counter() - 10).time_left() == 0.0
    left = Options(time_limit=2.0, started=time.perf_counter() - 0.5).time_left()
    assert left is not None and 1.0 < left <= 1.5


def test_the_time_left_can_keep_some_for_what_follows_the_search() -> None:
    """``time_left(keep)``: what a search may take when the command still has work after it
    (a picture to draw), never below 0; with no start, the whole limit less ``keep``."""
    import time

    from partysolver.app.base import Options

    assert Options(time_limit=2.0).time_left(0.5) == 1.5
    assert Options().time_left(0.5) is None
    assert Options(time_limit=2.0, started=time.perf_counter() - 1.8).time_left(0.5) == 0.0
    left = Options(time_limit=2.0, started=time.perf_counter() - 0.5).time_left(0.25)
    assert left is not None and 0.75 < left <= 1.25


def test_the_command_line_starts_the_clock_before_it_reads_the_file(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI passes the start it took before reading the file to the application layer, so
    loading spends the limit too."""
    import time

    from click.testing import CliRunner

    from partysolver.app import base
    from partysolver.cli import main

    seen: list[float | None] = []
    real = base.prepare

    def spy(*args, started=None, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(started)
        return real(*args, started=started, **kwargs)

    monkeypatch.setattr(main.app, "prepare", spy)
    before = time.perf_counter()
    result = CliRunner().invoke(main.cli, ["hint", "tea-party:default", "--time-limit", "1",
                                           "--seed", "1", "--json"])
    assert result.exit_code == 0, result.output
    assert len(seen) == 1 and seen[0] is not None and before <= seen[0] <= time.perf_counter()


def test_each_file_of_a_batch_has_its_own_time_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """A directory's files are searched one by one: each counts its limit from its own start,
    not from the batch's."""
    import time

    from partysolver.app import batch
    from partysolver.app.base import Options

    seen: list[Options] = []
    monkeypatch.setattr(batch, "file_report",
                        lambda verb, document, options: seen.append(options) or {})
    started_long_ago = Options(time_limit=1.0, started=time.perf_counter() - 100)
    reports = batch.FileReports("verify", [("a.toml", "x")], {"tea-party": started_long_ago})
    monkeypatch.setattr(batch, "load", lambda source, text: type("D", (), {"game": "tea-party"}))
    reports(0, 0)
    left = seen[0].time_left()
    assert left is not None and left > 0.5


@pytest.mark.parametrize("game", sorted(game_keys()))
def test_a_hint_with_no_time_left_still_answers(game: str) -> None:
    """A hint whose limit was spent before its search (reading, loading) answers at once with
    what it has (a game whose hint needs no search, Pig's table or Pool Party Stars' 30
    assignments, may still be exact)."""
    import time

    from partysolver.app import base, catalog

    example = "meeple-party:last-photo" if game == "meeple-party" else f"{game}:default"
    document = catalog.open_document(example)
    prepared = base.prepare(game, "hint", {"seed": 1, "time_limit": 0.5}, as_json=True,
                            started=time.perf_counter() - 10)
    try:
        report = prepared.report(document)
    except InputError as error:  # a game without a hint
        assert "hint" in error.line()
        return
    status = report.data["status"]
    # a ranking, or (Meeple Party's turn search: no turn proven) an unknown that says so
    assert report.data["moves"] or (status == "unknown" and "no turn" in report.text)


def test_a_budget_shares_its_time_still_left_among_parts_run_in_turn() -> None:
    """Budget.shares, what the draws of a hint run on: each part gets the time still left
    over the parts not yet run, read as it starts; the nodes are ``each``'s; without a time
    limit every part gets ``each`` as it is."""
    import time

    whole = Budget(time=0.2, nodes=1_000)
    given = []
    for share in whole.shares(4, Budget(nodes=250)):
        given.append(share)
        time.sleep(0.1 if not given[1:] else 0.0)  # the first part overruns its 0.05 s
    assert given[0].time == pytest.approx(0.05, abs=0.01) and given[0].nodes == 250
    # the 0.1 s it took is out of the later parts': 0.1 s left over the three parts to run
    assert given[1].time == pytest.approx(0.1 / 3, abs=0.01)
    assert all(share.time <= 0.1 / (4 - k) + 0.005 for k, share in enumerate(given) if k)
    assert [share.nodes for share in given] == [250] * 4
    spent = Budget(time=0.0)
    assert [share.time for share in spent.shares(3)] == [0.0, 0.0, 0.0]
    assert list(Budget(nodes=9).shares(2, Budget(nodes=3))) == [Budget(nodes=3)] * 2

"""Budgets always end (issue 27, causes 7 and 8): ``--top`` is capped by the options before
anything is sized, for every game, and a short time limit does not load what it cannot spare
the time for (Tea Party's default budgets: ``tests/tea_party/test_tea_party_defaults.py``)."""

from __future__ import annotations

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
    cards.  Now each gets its share; --max-nodes stays each search's own."""
    from partysolver.solvers.meeple_party import turn

    seen: list[Budget] = []
    real = turn.turn_hint

    def spy(state, budget=None, top=5, compiled=None):  # type: ignore[no-untyped-def]
        seen.append(budget)
        return real(state, budget, top, compiled)

    monkeypatch.setattr(turn, "turn_hint", spy)
    data = report_data("hint", "meeple-party:positions/23-hard-white-20", time_limit=0.3,
                       max_nodes=50)
    assert len(seen) > 1 and len(data["draws"]) >= len(seen)
    assert all(b.time == pytest.approx(0.3 / len(data["draws"])) for b in seen)
    assert all(b.nodes == 50 for b in seen)

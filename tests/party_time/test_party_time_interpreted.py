"""The interpreted playouts (``solvers/party_time/interpreted.py``) against the compiled ones,
and the hint that answers with them until the compiled playouts are ready."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import numpy as np
import pytest
from click.testing import CliRunner
from party_time_positions import carry_out_states, decisions

from partysolver.cli.main import cli
from partysolver.models.party_time import HOUSE_RULES, Rules
from partysolver.models.party_time.state import CARRY_OUT, PartyTimeState
from partysolver.puzzles import examples
from partysolver.solvers import compiled
from partysolver.solvers.party_time import interpreted, playouts
from partysolver.solvers.party_time.deals import sample_deals
from partysolver.solvers.party_time.hint import hint
from partysolver.solvers.party_time.interpreted import Streams

REVERSE = Rules(HOUSE_RULES.board, HOUSE_RULES.deck, "reverse")
QUESTIONS = Rules(HOUSE_RULES.board, (2, 2, 2, 1, 1, 2, 1, 1, 5), "reverse")
"""A 17-card deck with five question marks and the reverse R: long chains, many reshuffles."""


def test_the_streams_are_the_mersenne_twister_numba_seeds() -> None:
    """Each row is MT19937 started from its seed by ``init_genrand`` (what ``np.random.seed``
    does in numba and in NumPy's legacy generator), past two regenerations of the state."""
    seeds = [0, 1, 5489, 2**31 - 1]
    streams = Streams(np.array(seeds))
    streams.reach(1500)
    assert streams.raw[2, 0] == 3499211612  # the reference's first output for seed 5489
    for row, seed in enumerate(seeds):
        _, key, position, *_ = np.random.RandomState(seed).get_state()
        reference = np.random.MT19937()
        reference.state = {"bit_generator": "MT19937", "state": {"key": key, "pos": position}}
        assert streams.raw[row, :1500].tolist() == reference.random_raw(1500).tolist()


@pytest.mark.parametrize(("rules", "players"),
                         [(HOUSE_RULES, 2), (HOUSE_RULES, 4), (REVERSE, 6), (QUESTIONS, 3)])
def test_the_interpreted_playouts_are_the_compiled_ones(rules: Rules, players: int) -> None:
    """Playout for playout the same strips lost and the same windows until my next turn, from
    deals drawn in the playouts and from deals given, in the play step and the carry-out
    step: the same rules, the same policies and the same random numbers."""
    states = decisions(players, 4, players, rules=rules) + \
        carry_out_states(rules, players, 2, players)
    assert any(state.phase == CARRY_OUT for state in states)
    for index, state in enumerate(states):
        view = state.view(state.current_player())
        plays = view.legal_actions()
        for deals in (None, sample_deals(view, 7, index)):
            fast = playouts.long_run(view, plays, 120, seed=index * 31 + players, deals=deals)
            slow = interpreted.long_run(view, plays, 120, seed=index * 31 + players,
                                        deals=deals)
            assert (fast.compiled, slow.compiled) == (True, False)
            assert slow.lost.tolist() == fast.lost.tolist(), str(state)
            assert slow.windows.tolist() == fast.windows.tolist(), str(state)
            assert slow.lost.any()


def test_many_playouts_are_played_in_slices(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past :data:`interpreted.LANES` lanes the playouts run in slices, the last one short:
    the same playouts as in one go."""
    view = next(s for s in decisions(4, 10, 3) if len(s.legal_actions()) >= 3)
    view = view.view(view.current_player())
    plays = view.legal_actions()
    whole = interpreted.long_run(view, plays, 90, seed=12)
    monkeypatch.setattr(interpreted, "LANES", 20 * len(plays))
    sliced = interpreted.long_run(view, plays, 90, seed=12)
    assert sliced.lost.tolist() == whole.lost.tolist()
    assert sliced.windows.tolist() == whole.windows.tolist()


def _estimated_views() -> list[PartyTimeState]:
    """Positions the hint estimates, where some plays are near-equal (so the long run orders
    them too)."""
    from partysolver.solvers.party_time.hint import fits_exactly

    found = [state for state in decisions(4, 40, 21)
             if not fits_exactly(state.view(state.current_player()))]
    assert len(found) >= 3
    return found[:3]


def test_a_first_run_hint_answers_interpreted_and_starts_the_compile(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With the compiled playouts not ready (an empty numba cache), the hint runs no compiled
    code, asks once for the compile in the background, and ranks every play as the compiled
    path does, with the same figures; ``compiled`` says which path answered."""
    states = _estimated_views()
    warm = [hint(state.view(state.current_player()), playouts=200, deals=200, seed=5,
                 compiled=True) for state in states]
    assert all(found.compiled for found in warm)
    assert any(found.playouts for found in warm), "no position exercised the long run"

    monkeypatch.setattr(compiled, "ready", lambda kernel: False)
    monkeypatch.delenv(compiled.INTERPRETED, raising=False)
    started: list[compiled.Kernel] = []
    monkeypatch.setattr(compiled, "compile_in_background",
                        lambda kernel: started.append(kernel) or True)

    def refuse(*args: object) -> None:
        raise AssertionError("a first-run hint must not run (and compile) the kernel")

    monkeypatch.setattr(playouts, "_long_run", refuse)
    for state, before in zip(states, warm, strict=True):
        found = hint(state.view(state.current_player()), playouts=200, deals=200, seed=5)
        assert not found.compiled and found.status == before.status == "estimate"
        assert [(m.play, m.value, m.long_run, m.intervals, m.reason) for m in found.moves] == \
            [(m.play, m.value, m.long_run, m.intervals, m.reason) for m in before.moves]
    assert started == [compiled.PARTY_TIME_PLAYOUTS] * len(states)


def _hint_json(env: dict[str, str] | None = None) -> dict[str, object]:
    result = CliRunner().invoke(cli, ["hint", str(examples("party-time")["near-the-star"]),
                                      "--json", "--playouts", "300"], env=env,
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "compiling" not in result.stderr
    found: dict[str, object] = json.loads(result.stdout)
    return found


def test_the_json_says_which_playouts_answered() -> None:
    """``PARTYSOLVER_INTERPRETED`` asks for the interpreted playouts: ``search.compiled`` is
    false (true for the compiled ones, when ready), and every move and figure is the same."""
    playouts.warm_kernel()  # ready (compiles only if the suite has not)
    fast = _hint_json()
    slow = _hint_json({compiled.INTERPRETED: "1"})
    assert fast["search"]["compiled"] is True  # type: ignore[index]
    assert slow["search"]["compiled"] is False  # type: ignore[index]
    assert "interpreted paired playouts" in slow["search"]["method"]  # type: ignore[index]
    assert slow["search"]["playouts"] == 300  # type: ignore[index]
    assert slow["moves"] == fast["moves"]


def test_an_interpreted_hint_never_imports_numba() -> None:
    """A new process asked for the interpreted playouts answers an estimated hint without
    numba (what a first run saves: importing it and loading the kernel), and says so."""
    code = ("import json, sys\nfrom click.testing import CliRunner\n"
            "from partysolver.cli.main import cli\n"
            f"result = CliRunner().invoke(cli, ['hint', {str(examples('party-time')['default'])!r},"
            " '--json'])\n"
            "assert result.exit_code == 0, result.output\n"
            "print(json.dumps([json.loads(result.stdout)['search'], 'numba' in sys.modules]))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, env=dict(os.environ, **{compiled.INTERPRETED: "1"}),
                          timeout=300)
    search, numba = json.loads(done.stdout)
    assert search["deals"] == 1000 and search["compiled"] is False
    assert numba is False


def test_which_playouts_a_hint_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled playouts when they are loaded, or ready and worth loading (more than
    ``LEAN_PLAYOUTS``); not ready, the interpreted ones and the compile in the background,
    unless they would take longer than the compile (more than ``COMPILE_PLAYOUTS``);
    ``PARTYSOLVER_INTERPRETED``, the interpreted ones whatever the size."""
    from partysolver.solvers.party_time.hint import COMPILE_PLAYOUTS, LEAN_PLAYOUTS, use_compiled

    started: list[compiled.Kernel] = []
    monkeypatch.setattr(compiled, "compile_in_background",
                        lambda kernel: started.append(kernel) or True)
    monkeypatch.delenv(compiled.INTERPRETED, raising=False)
    monkeypatch.setattr(compiled, "ready", lambda kernel: True)
    monkeypatch.setattr(compiled, "loaded", lambda kernel: False)
    assert not use_compiled(LEAN_PLAYOUTS) and use_compiled(LEAN_PLAYOUTS + 1)
    monkeypatch.setattr(compiled, "loaded", lambda kernel: True)
    assert use_compiled(10)
    assert started == []
    monkeypatch.setattr(compiled, "ready", lambda kernel: False)
    assert not use_compiled(COMPILE_PLAYOUTS)
    assert started == [compiled.PARTY_TIME_PLAYOUTS]
    assert use_compiled(COMPILE_PLAYOUTS + 1)
    monkeypatch.setenv(compiled.INTERPRETED, "1")
    assert not use_compiled(10 * COMPILE_PLAYOUTS)
    assert started == [compiled.PARTY_TIME_PLAYOUTS]


def test_the_background_compile_warms_the_playouts(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel says how to compile it (what ``python -m partysolver.solvers.compiled --all``
    and the background compile run): a paired playout of a new house game of four."""
    import importlib

    warmed: list[PartyTimeState] = []
    monkeypatch.setattr(playouts, "warm_up",
                        lambda new_game: warmed.append(new_game(random.Random(0))))
    module, name = compiled.PARTY_TIME_PLAYOUTS.warm.split(":")
    assert compiled.PARTY_TIME_PLAYOUTS in compiled.KERNELS
    getattr(importlib.import_module(module), name)()
    [state] = warmed
    assert state.num_players == 4 and state.rules == HOUSE_RULES

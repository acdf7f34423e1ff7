"""The first run of a compiled kernel: telling whether it will compile, the notice before it,
and the command line's stderr while a verb works (notices, the working line)."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from partysolver import puzzles
from partysolver.cli.main import cli
from partysolver.cli.waiting import Screen
from partysolver.solvers import compiled
from partysolver.solvers.notices import listening, notice, status

KERNEL = '''
from numba import njit

@njit(cache=True)
def triple(x):
    return 3 * x
'''

PROBE = '''
import json, sys
sys.path.insert(0, sys.argv[1])
from partysolver.solvers import compiled
from partysolver.solvers.notices import listening
triple = compiled.Kernel("triple", "kernel", ("triple",), "the triple", 1)
told = []
with listening(told.append):
    before = compiled.ready(triple)
    compiled.before_compiling(triple)
    import kernel
    kernel.triple(2)
    after = compiled.ready(triple)
    compiled.before_compiling(triple)
print(json.dumps({"before": before, "after": after, "told": told}))
'''


def probe(folder: Path, cache: Path) -> dict[str, object]:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    done = subprocess.run([sys.executable, "-c", PROBE, str(folder)], env=env, check=True,
                          capture_output=True, text=True, timeout=300)
    found: dict[str, object] = json.loads(done.stdout)
    return found


def test_a_kernel_is_known_to_compile_on_its_first_run_only(tmp_path: Path) -> None:
    (tmp_path / "kernel.py").write_text(KERNEL)
    cache = tmp_path / "cache"
    first = probe(tmp_path, cache)
    assert first == {"before": False, "after": True, "told": [
        "compiling the triple, first run only (about 1 s on an idle machine)"]}
    second = probe(tmp_path, cache)  # a new process: numba loads it from the cache
    assert second == {"before": True, "after": True, "told": []}
    (tmp_path / "kernel.py").write_text(KERNEL + "\n# changed\n")
    os.utime(tmp_path / "kernel.py", (time.time() + 5, time.time() + 5))
    assert probe(tmp_path, cache)["before"] is False  # a changed source compiles again


def test_a_marker_for_another_numba_or_source_is_not_believed(tmp_path: Path) -> None:
    """The marker vouches only for the source, numba and Python it was written for: another
    numba version's (its cache is numba's own, per version) or a stale one is not ready, and a
    kernel whose module cannot be found is never ready."""
    (tmp_path / "kernel.py").write_text(KERNEL)
    cache = tmp_path / "cache"
    probe(tmp_path, cache)  # runs the kernel: writes the marker
    [marker] = cache.glob("partysolver-ready.triple.json")
    assert probe(tmp_path, cache)["before"] is True
    stamp = json.loads(marker.read_text())
    marker.write_text(json.dumps(stamp | {"numba": "0.0.0"}))
    assert probe(tmp_path, cache)["before"] is False  # and the run marks it again
    assert probe(tmp_path, cache)["before"] is True
    missing = compiled.Kernel("missing", "partysolver.no_such_kernel", ("f",), "nothing", 1)
    assert not compiled.ready(missing) and compiled.needs_compile(missing)


def test_every_compiled_function_belongs_to_a_declared_kernel() -> None:
    """Every module of the package with a function numba caches on disk is declared in
    ``compiled.KERNELS``, with entry points that exist there."""
    import importlib

    import partysolver

    root = Path(partysolver.__file__).parent
    decorator = re.compile(r"^\s*(@njit|\w+ = njit)\(.*cache=True", re.MULTILINE)
    cached = {".".join(("partysolver", *path.relative_to(root).with_suffix("").parts))
              for path in root.rglob("*.py") if decorator.search(path.read_text())}
    declared = {kernel.module for kernel in compiled.KERNELS}
    assert cached == declared
    assert len({kernel.key for kernel in compiled.KERNELS}) == len(compiled.KERNELS)
    for kernel in compiled.KERNELS:
        module = importlib.import_module(kernel.module)
        for name in kernel.entry_points:
            assert getattr(module, name).signatures is not None, (kernel.key, name)


def test_notices_reach_the_listener_and_no_one_else() -> None:
    told: list[str] = []
    states: list[str] = []
    notice("nobody listens")
    with listening(told.append, states.append):
        notice("compiling")
        notice("compiling")  # said once
        status("best 3")
    notice("gone")
    assert told == ["compiling"] and states == ["best 3"]


# -- the command line's stderr --------------------------------------------------------------------


def launches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """As if numba's cache (in ``tmp_path``) were empty; the commands of the background
    compiles started, none run (compiling for real takes a quarter of a minute)."""
    monkeypatch.setattr(compiled, "ready", lambda kernel: False)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv(compiled.INTERPRETED, raising=False)
    started: list[list[str]] = []
    monkeypatch.setattr(subprocess, "Popen", lambda command, **_: started.append(command))
    return started


def test_a_kernel_compiling_is_one_line_on_stderr_and_stdout_stays_the_answer(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    started = launches(tmp_path, monkeypatch)
    position = tmp_path / "token.toml"
    position.write_text(puzzles.examples("party-time")["default"].read_text())
    result = CliRunner().invoke(cli, ["hint", str(position), "--json", "--playouts", "20"])
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == [
        f"compiling the Party-Time playouts in the background, first run only (about "
        f"{compiled_seconds('party-time')} s of CPU on an idle machine); until it is ready the "
        "answers are the interpreted search's (the same ranking)"]
    assert json.loads(result.stdout)["game"] == "party-time"
    assert len(started) == 1


def test_a_small_tea_party_position_needs_no_compile(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The default Tea Party example is answered by the interpreted exact search on a first
    run: nothing to announce, nothing compiled.  (A first run: numba's cache is empty and
    the compiled search is not loaded, whatever earlier tests of this process loaded.)"""
    from partysolver.solvers.tea_party import exact

    monkeypatch.setattr(compiled, "ready", lambda kernel: False)
    monkeypatch.setattr(exact, "needs_compile", lambda: True)
    position = tmp_path / "endgame.toml"
    position.write_text(puzzles.examples("tea-party")["default"].read_text())
    result = CliRunner().invoke(cli, ["hint", str(position), "--json"])
    assert result.exit_code == 0, result.output
    assert "compiling" not in result.stderr
    assert json.loads(result.stdout)["status"] == "exact"


def test_the_party_time_playouts_compile_in_the_background(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A first-run Party-Time hint does not wait for its playouts' compile: it starts it once
    in a process of its own (``python -m partysolver.solvers.compiled``, its lock held) and
    answers with the interpreted playouts; a second hint while it runs starts none."""
    started = launches(tmp_path, monkeypatch)
    position = tmp_path / "token.toml"
    position.write_text(puzzles.examples("party-time")["default"].read_text())
    for _ in range(2):
        result = CliRunner().invoke(cli, ["hint", str(position), "--json", "--playouts", "20"])
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["search"]["compiled"] is False
    [command] = started
    assert command[1:3] == ["-m", "partysolver.solvers.compiled"]
    assert json.loads(command[3])["warm"] == compiled.PARTY_TIME_PLAYOUTS.warm
    assert (tmp_path / "cache" / "partysolver-compiling.party-time-playouts.lock").exists()


def compiled_seconds(kernel: str) -> float:
    if kernel == "tea":
        return compiled.TEA_PARTY_SEARCH.seconds
    return compiled.PARTY_TIME_PLAYOUTS.seconds


def test_the_working_line_shows_time_and_status_and_is_cleared() -> None:
    stream = io.StringIO()
    screen = Screen(stream, terminal=True, delay=0.0, every=0.01)
    with screen.waiting("solve"):
        screen.status("best 31, bound 34")
        time.sleep(0.2)
        screen.notice("compiling the search")
        time.sleep(0.1)
    text = stream.getvalue()
    assert "solve: 0 s  best 31, bound 34" in text
    assert "\r\x1b[Kcompiling the search\n" in text  # the line is cleared for the notice
    assert text.endswith("\r\x1b[K")  # and at the end
    assert screen.latest == ""


def test_off_a_terminal_only_notices_are_printed() -> None:
    stream = io.StringIO()
    screen = Screen(stream, terminal=False, delay=0.0, every=0.01)
    with screen.waiting("hint"):
        screen.status("best 3")
        time.sleep(0.05)
        screen.notice("compiling")
    assert stream.getvalue() == "compiling\n"


def test_a_quick_verb_draws_no_working_line() -> None:
    stream = io.StringIO()
    screen = Screen(stream, terminal=True, delay=1.0)
    with screen.waiting("verify"):
        pass
    assert stream.getvalue() == ""


def test_a_meeple_party_hint_on_a_first_run_answers_interpreted_without_compiling(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Until the Meeple Party turn kernel is compiled, a hint answers with the interpreted
    search and starts its compile in the background: it never waits for it, and it answers
    the kernel's moves; the JSON says which path answered."""
    from partysolver.solvers.meeple_party import compiled as meeple_compiled
    from partysolver.solvers.meeple_party import turn

    position = tmp_path / "party.toml"
    position.write_text(puzzles.examples("meeple-party")["default"].read_text())
    args = ["hint", str(position), "--json", "--top", "3"]
    turn.warm_up()  # compiles only if the suite has not (the kernel's tests do)
    built: list[object] = []
    real_init = meeple_compiled.Kernel.__init__

    def spy(self: object, evaluator: object) -> None:
        built.append(evaluator)
        real_init(self, evaluator)  # type: ignore[arg-type]

    monkeypatch.setattr(meeple_compiled.Kernel, "__init__", spy)
    warm = CliRunner().invoke(cli, args)
    assert warm.exit_code == 0, warm.output
    assert built, "the warm hint goes through the kernel"

    monkeypatch.setattr(compiled, "ready", lambda kernel: False)  # as if the cache were empty
    assert meeple_compiled.needs_compile()
    started: list[compiled.Kernel] = []
    monkeypatch.setattr(compiled, "compile_in_background",
                        lambda kernel: started.append(kernel) or True)

    def refuse(self: object, evaluator: object) -> None:
        raise AssertionError("a first-run hint must not build (and compile) the kernel")

    monkeypatch.setattr(meeple_compiled.Kernel, "__init__", refuse)
    cold = CliRunner().invoke(cli, args)
    assert cold.exit_code == 0, cold.output
    assert "compiling" not in cold.stderr
    assert started == [compiled.MEEPLE_PARTY_TURN]  # the compile goes on in the background
    first, second = json.loads(warm.stdout), json.loads(cold.stdout)
    assert first["status"] == second["status"] == "exact"
    assert (first["search"]["compiled"], second["search"]["compiled"]) == (True, False)
    assert [m["move"] for m in first["moves"]] == [m["move"] for m in second["moves"]]
    assert [m["figures"] for m in first["moves"]] == [m["figures"] for m in second["moves"]]


def test_compiling_the_meeple_party_kernel_is_announced(monkeypatch: pytest.MonkeyPatch) -> None:
    """Asked for explicitly (``python -m partysolver.solvers.meeple_party``, a search with
    ``compiled=True``), a kernel that will compile says so first, in the shared words."""
    from partysolver.solvers.meeple_party import compiled as meeple_compiled

    monkeypatch.setattr(compiled, "ready", lambda kernel: False)
    told: list[str] = []
    with listening(told.append):
        assert meeple_compiled.announce()
    assert told == [compiled.compile_notice("the Meeple Party turn search",
                                            compiled.MEEPLE_PARTY_TURN.seconds)]


@pytest.mark.parametrize(("game", "module", "compile"), [
    ("tea-party", "partysolver.solvers.tea_party.exact", "load_compiled"),
    ("party-time", "partysolver.solvers.party_time.playouts", "warm_up"),
])
def test_simulate_compiles_the_hint_once_before_its_workers_start(
        game: str, module: str, compile: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """With an empty numba cache, what the hint policy runs is compiled in this process
    before worker processes start (they load it from the cache instead of each compiling
    it); with the games here, or without the hint policy, nothing is compiled up front."""
    import importlib

    from click.testing import CliRunner

    from partysolver.cli.main import cli
    from partysolver.solvers import simulate as simulation_module
    from partysolver.solvers.runner import runs_elsewhere

    events: list[str] = []
    kernel = importlib.import_module(module)
    monkeypatch.setattr(kernel, "needs_compile", lambda: True)
    monkeypatch.setattr(kernel, compile, lambda *args: events.append("compile") or 0.0)
    real = simulation_module.simulate

    def simulate(*args, **kwargs):
        events.append(f"games {'elsewhere' if runs_elsewhere(kwargs['workers']) else 'here'}")
        return real(*args, **(kwargs | {"workers": 1}))  # played here all the same

    monkeypatch.setattr(simulation_module, "simulate", simulate)

    def before_the_games(*args: str) -> list[str]:
        events.clear()
        result = CliRunner().invoke(cli, ["simulate", game, "--games", "1", "--players", "2",
                                          *args], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return events[:next(i for i, e in enumerate(events) if e.startswith("games")) + 1]

    assert before_the_games("--policy", "hint", "--policy", "greedy", "--workers", "2") == \
        ["compile", "games elsewhere"]
    assert before_the_games("--policy", "hint", "--policy", "greedy") == ["games here"]
    assert before_the_games("--policy", "greedy", "--workers", "2") == ["games elsewhere"]


def test_party_time_playouts_warm_up_runs_one_paired_playout(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from partysolver.app.party_time import NewGame
    from partysolver.models.party_time.game import HOUSE_RULES
    from partysolver.solvers.party_time import playouts

    calls = []
    monkeypatch.setattr(playouts, "long_run",
                        lambda view, plays, samples: calls.append((view, plays, samples)))
    playouts.warm_up(NewGame(3, HOUSE_RULES))
    [(view, plays, samples)] = calls
    assert samples == 1 and len(plays) >= 2 and view.player == view.turn


# -- the interpreted path, asked for; the compile in the background ---------------------------


def hint_json(position: Path, **env: str) -> dict[str, object]:
    """``partysolver hint POSITION --json --top 5`` in a fresh process, its JSON."""
    done = subprocess.run([sys.executable, "-m", "partysolver", "hint", str(position), "--json",
                           "--top", "5"], env=dict(os.environ, **env), capture_output=True,
                          text=True, check=True, timeout=600)
    found: dict[str, object] = json.loads(done.stdout)
    return found


@pytest.mark.parametrize("name", ["07-easy-cool-24", "04-easy-jerk-30"])
def test_a_hint_without_its_kernel_ranks_as_the_kernel_does(tmp_path: Path, name: str) -> None:
    """``PARTYSOLVER_INTERPRETED`` takes the interpreted turn search in a new process: the same
    moves and figures as the compiled one, and ``search.compiled`` says which answered (two
    turns too big for the interpreted search's first try, ``turn.LEAN_NODES``)."""
    from partysolver.solvers.meeple_party import turn

    turn.warm_up()  # the compiled path ready (compiles only if the suite has not)
    shipped = {**puzzles.examples("meeple-party"), **puzzles.files("meeple-party", "positions")}
    position = tmp_path / "party.toml"
    position.write_text(shipped[name].read_text())
    fast = hint_json(position)
    slow = hint_json(position, **{compiled.INTERPRETED: "1"})
    assert fast["search"]["compiled"] is True  # type: ignore[index]
    assert slow["search"]["compiled"] is False  # type: ignore[index]
    moves = [[(m["move"], m["figures"]) for m in found["moves"]]  # type: ignore[attr-defined]
             for found in (fast, slow)]
    assert moves[0] == moves[1] and len(moves[0]) == 5


TOY = compiled.Kernel("toy-triple", "kernel", ("triple",), "the triple", 1, "kernel:warm")
TOY_SOURCE = KERNEL + "\n\ndef warm():\n    triple(2)\n"


def test_a_kernel_compiles_in_the_background_once(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The first use of a kernel that is not ready starts its compile in a process of its own
    and says so once; while that process holds the lock no second compile starts; when it is
    done the kernel is ready and the lock is gone.  A lock whose process is gone is taken
    over, and ``PARTYSOLVER_INTERPRETED`` starts nothing."""
    (tmp_path / "kernel.py").write_text(TOY_SOURCE)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv(compiled.INTERPRETED, raising=False)
    lock = tmp_path / "cache" / "partysolver-compiling.toy-triple.lock"
    lock.parent.mkdir()
    lock.write_text(f"{os.getpid()}\n")  # another process compiles it now
    told: list[str] = []
    with listening(told.append):
        assert compiled.compiling(TOY)
        assert not compiled.compile_in_background(TOY)
        assert told == []
        dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                              capture_output=True, text=True, check=True).stdout.strip()
        lock.write_text(f"{dead}\n")  # its process is gone: a stale lock
        assert not compiled.compiling(TOY)
        monkeypatch.setenv(compiled.INTERPRETED, "1")
        assert not compiled.compile_in_background(TOY)
        monkeypatch.delenv(compiled.INTERPRETED)
        assert compiled.compile_in_background(TOY)
        assert not compiled.compile_in_background(TOY)  # held (or done)
    assert len(told) == 1 and told[0].startswith("compiling the triple in the background")
    deadline = time.monotonic() + 240
    while lock.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not lock.exists()
    assert compiled.ready(TOY)
    assert "the triple compiled" in lock.with_suffix(".log").read_text()
    with listening(told.append):
        assert not compiled.compile_in_background(TOY)  # ready: nothing to do
    assert len(told) == 1


def test_a_small_turn_answers_before_the_kernel_would_load(tmp_path: Path) -> None:
    """With the kernel ready but loaded through numba (``PARTYSOLVER_NATIVE=0``: its object
    aside, ``meeple_party/native.py``), a new process's hint on a turn of fewer than
    ``LEAN_NODES`` nodes answers with the interpreted search (loading numba would take
    longer); here, where the kernel is loaded already, the same hint goes through it: the same
    moves and figures."""
    from partysolver.solvers.meeple_party import native, turn

    turn.warm_up()
    position = tmp_path / "party.toml"
    position.write_text(puzzles.examples("meeple-party")["default"].read_text())
    lean = hint_json(position, **{native.NATIVE: "0"})
    assert lean["search"]["compiled"] is False  # type: ignore[index]
    assert lean["search"]["outcomes"] < turn.LEAN_NODES  # type: ignore[index]
    here = CliRunner().invoke(cli, ["hint", str(position), "--json", "--top", "5"])
    assert here.exit_code == 0, here.output
    loaded = json.loads(here.stdout)
    assert loaded["search"]["compiled"] is True
    assert [(m["move"], m["figures"]) for m in loaded["moves"]] == \
        [(m["move"], m["figures"]) for m in lean["moves"]]  # type: ignore[attr-defined]

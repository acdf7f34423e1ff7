"""The compiled Meeple Party turn search loaded without numba (``solvers/meeple_party/
native.py``, issue 30): its machine code written once as an object file, loaded by llvmlite
alone in a later process, answering as numba's dispatcher does; anything it was not made for
is not loaded."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from partysolver import puzzles
from partysolver.app import shipped
from partysolver.app.meeple_party import _load
from partysolver.solvers.meeple_party import compiled, native, turn

POSITIONS = ["default", "spa-hot-tub", "01-easy-flirt-15", "14-hard-white-17",
             "22-easy-jerk-15"]
"""Shipped turns: a drawn guest, the Hot Tub, a drawn white meeple."""


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the object, written from the kernel numba compiled (or loaded)."""
    turn.warm_up()  # numba's cache ready (compiles only if the suite has not)
    folder = tmp_path_factory.mktemp("native")
    assert native.build(folder, again=True)
    return folder


def state_of(name: str) -> object:
    return _load(shipped.open_document(f"meeple-party:{name}"))[1]


def ranking(state: object, module: object) -> list[tuple[object, ...]]:
    """The turn hint's top 8 with ``module`` as the kernel: each option's value and move."""
    real = compiled.kernel_module
    compiled.kernel_module = lambda: module  # type: ignore[assignment,return-value]
    try:
        hint = turn.turn_hint(state, top=8, compiled=True)  # type: ignore[arg-type]
        return [(option.value, repr(option)) for option in hint.options][:8]
    finally:
        compiled.kernel_module = real  # type: ignore[assignment]


@pytest.mark.parametrize("name", POSITIONS)
def test_the_object_answers_as_numba_does(built: Path, name: str) -> None:
    """The same ranking, value for value and move for move, as the numba dispatcher's."""
    from partysolver.solvers.meeple_party import kernel

    loaded = native.load(built)
    assert loaded is not None
    state = state_of(name)
    assert ranking(state, loaded) == ranking(state, kernel)


def test_a_new_process_runs_it_without_importing_numba(built: Path) -> None:
    """In a fresh interpreter the object loads with llvmlite alone: numba is never imported,
    and the hint is the one numba's kernel gives here."""
    from partysolver.solvers.meeple_party import kernel

    script = f"""
import json, sys
from pathlib import Path
from partysolver.app import shipped
from partysolver.app.meeple_party import _load
from partysolver.solvers.meeple_party import compiled, native, turn
loaded = native.load(Path({str(built)!r}))
compiled.kernel_module = lambda: loaded
state = _load(shipped.open_document("meeple-party:default"))[1]
hint = turn.turn_hint(state, top=8, compiled=True)
print(json.dumps({{"loaded": loaded is not None, "numba": "numba" in sys.modules,
                  "moves": [repr(option) for option in hint.options][:8]}}))
"""
    env = {key: value for key, value in os.environ.items() if not key.startswith("NUMBA_")}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, check=True, timeout=300)
    found = json.loads(done.stdout)
    assert found["loaded"] and not found["numba"]
    assert found["moves"] == [move for _, move in ranking(state_of("default"), kernel)]


def test_an_object_made_for_something_else_is_not_loaded(
        built: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another source, processor or object than the description says, a numba setting in the
    environment, ``PARTYSOLVER_NATIVE=0`` or ``PARTYSOLVER_INTERPRETED``: numba loads the
    kernel instead (``None``)."""
    obj, meta = native.artifact(built)
    description = json.loads(meta.read_text())
    for change in ({"stamp": {**description["stamp"], "llvmlite": "0.0"}},
                   {"processor": {**description["processor"], "cpu": "another"}},
                   {"sha256": "0" * 64}):
        folder = tmp_path / str(len(list(tmp_path.iterdir())))
        folder.mkdir()
        mine = native.artifact(folder)
        mine[0].write_bytes(obj.read_bytes())
        mine[1].write_text(json.dumps(description | change))
        assert native.load(folder) is None, change
    native.load.cache_clear()
    assert native.load(built) is not None
    for name, value in (("NUMBA_BOUNDSCHECK", "1"), (native.NATIVE, "0"),
                        ("PARTYSOLVER_INTERPRETED", "1")):
        native.load.cache_clear()
        with monkeypatch.context() as patched:
            patched.setenv(name, value)
            assert native.load(built) is None, name
    native.load.cache_clear()


def test_its_arrays_are_checked_before_the_call(built: Path) -> None:
    """The machine code reads raw memory: an array of another type or layout is refused."""
    loaded = native.load(built)
    assert loaded is not None
    good = np.zeros(8, dtype=np.int64)
    floats = np.zeros(8)
    with pytest.raises(TypeError, match="F must be a contiguous 1-d float64"):
        loaded.walk(good, good, good, good, good, -1)
    with pytest.raises(TypeError, match="board must be a contiguous 1-d int64"):
        loaded.walk(good, good, floats, np.zeros((2, 4), dtype=np.int64), good, -1)
    with pytest.raises(TypeError, match="stress must be"):
        loaded.walk(good, good, floats, good, np.zeros(16, dtype=np.int64)[::2], -1)


def test_a_hint_in_a_new_process_goes_to_the_loaded_kernel_soon(tmp_path: Path) -> None:
    """With the object beside numba's cache, a new process's hint goes to the kernel past
    ``turn.LEAN_NODES_NATIVE`` nodes, on a turn the interpreted search would finish within
    ``turn.LEAN_NODES`` (the shipped example); with ``PARTYSOLVER_NATIVE=0`` that turn is the
    interpreted search's, as before (loading numba would take longer): the same moves and
    figures.  A turn of fewer nodes is the interpreted search's either way."""
    turn.warm_up()  # writes the object beside numba's cache too
    position = tmp_path / "party.toml"
    position.write_text(puzzles.examples("meeple-party")["default"].read_text())
    found = []
    for env in ({}, {native.NATIVE: "0"}):
        done = subprocess.run([sys.executable, "-m", "partysolver", "hint", str(position),
                               "--json", "--top", "5"], env=dict(os.environ, **env),
                              capture_output=True, text=True, check=True, timeout=600)
        found.append(json.loads(done.stdout))
    assert [answer["search"]["compiled"] for answer in found] == [True, False]
    assert [[(m["move"], m["figures"]) for m in answer["moves"]] for answer in found][0] == \
        [(m["move"], m["figures"]) for m in found[1]["moves"]]
    small = subprocess.run([sys.executable, "-m", "partysolver", "hint",
                            "meeple-party:last-photo", "--json"], capture_output=True,
                           text=True, check=True, timeout=600)
    answer = json.loads(small.stdout)
    assert answer["search"]["compiled"] is False
    assert answer["search"]["outcomes"] < turn.LEAN_NODES_NATIVE

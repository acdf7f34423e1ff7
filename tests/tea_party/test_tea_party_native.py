"""The compiled Tea Party playouts loaded without numba (``solvers/tea_party/native.py``,
issue 30): the same machine code as numba's, so the same playouts for the same seed, and a
new process that runs them never imports numba."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from tea_party_positions import position

from partysolver.models.tea_party.state import TeaPartyState
from partysolver.solvers.tea_party import kernel, native

POSITIONS = (
    TeaPartyState.new_game(("Blue", "Green")),
    position({"fighter": 5, "cleric": 2, "rogue": 2, "ranger": 1}, cups=[{"ranger": 1}, {}],
             stomachs=[{"wizard": 1}, {"king": 1}], held="rogue"),
    position({"fighter": 3, "wizard": 1, "bard": 1}, cups=[{"queen": 1}, {"cleric": 2}],
             stomachs=[{"fighter": 2}, {"rogue": 1}], current=1),
)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    kernel.warm_up()  # compiles only if the suite has not
    where = tmp_path_factory.mktemp("native")
    assert native.build(where)
    return where


def test_the_same_playouts_as_numbas(built: Path) -> None:
    found = native.load(built)
    assert found is not None
    call, children = found
    ours = native.NativePlayouts(16, 0.75, call, children)
    numbas = kernel.Playouts(16, 0.75)
    for state in POSITIONS:
        for seed in (1, 2, 3):
            assert ours(state, random.Random(seed)) == numbas(state, random.Random(seed))


def test_a_stale_object_or_the_environment_sends_back_to_numba(
        built: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    obj, meta = native.artifact(built)
    copy_obj, copy_meta = native.artifact(tmp_path)
    copy_obj.write_bytes(obj.read_bytes())
    description = json.loads(meta.read_text())
    copy_meta.write_text(json.dumps(description | {"stamp": {"kernel": "another"}}))
    native.load.cache_clear()
    assert native.load(tmp_path) is None  # made for another source
    copy_meta.write_text(json.dumps(description))
    native.load.cache_clear()
    assert native.load(tmp_path) is not None  # the same object and description: loaded
    copy_obj.write_bytes(obj.read_bytes()[:-1] + bytes([obj.read_bytes()[-1] ^ 1]))
    native.load.cache_clear()
    assert native.load(tmp_path) is None  # not the object described
    for name, value in (("PARTYSOLVER_NATIVE", "0"), ("NUMBA_BOUNDSCHECK", "1")):
        with monkeypatch.context() as patch:
            patch.setenv(name, value)
            native.load.cache_clear()
            assert native.load(built) is None
    native.load.cache_clear()
    assert native.load(built) is not None


RUN = ("import json, sys\n"
       "from partysolver.app import catalog\n"
       "from partysolver.app.base import run\n"
       "data = run('hint', catalog.open_document('tea-party:opening'),"
       " {'seed': 4, 'mcts_iterations': 400}).data\n"
       "print(json.dumps(data, sort_keys=True))\n"
       "print('numba' in sys.modules)\n")


def test_a_new_process_answers_the_same_without_numba() -> None:
    """The opening's hint (a search per draw, two monsters, none of its subtrees small
    enough to search) as a new process: with the object, numba is never imported; with
    ``PARTYSOLVER_NATIVE=0`` numba loads the kernel; the same answer."""
    kernel.warm_up()
    assert native.build()  # the object where a hint looks for it (kept if it is there)
    native.load.cache_clear()
    answers = {}
    for value in ("1", "0"):
        env = dict(os.environ, PARTYSOLVER_NATIVE=value)
        done = subprocess.run([sys.executable, "-c", RUN], capture_output=True, text=True,
                              timeout=300, check=True, env=env)
        data, imported = done.stdout.strip().splitlines()
        answers[value] = (json.loads(data), imported)
    assert answers["1"][1] == "False" and answers["0"][1] == "True"
    assert answers["1"][0] == answers["0"][0]
    assert answers["1"][0]["draws"]


def test_a_missing_object_is_built_once_in_the_background(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With no object beside numba's cache, ``build_in_background`` starts one detached build
    (``python -m partysolver.solvers.tea_party.native``, under a lock beside the object: a
    second call meanwhile starts nothing); when it is done the lock is gone, its log says it
    wrote the object, and the object loads.  ``PARTYSOLVER_NATIVE=0`` starts nothing."""
    import time

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))  # (the kernel compiles there first)
    obj, meta = native.artifact()
    assert obj.parent == tmp_path and not native.available()
    with monkeypatch.context() as patch:
        patch.setenv(native.NATIVE, "0")
        assert not native.build_in_background()
    assert not list(tmp_path.iterdir())
    assert native.build_in_background()
    assert not native.build_in_background()  # held
    lock = obj.with_name(obj.name.replace(".o", ".lock"))
    deadline = time.monotonic() + 300
    while lock.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not lock.exists()
    assert f"wrote {obj}" in lock.with_name(lock.name.replace(".lock", ".log")).read_text()
    assert native.available() and meta.exists()
    native.load.cache_clear()
    assert native.load() is not None
    native.load.cache_clear()

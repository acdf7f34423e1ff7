"""A sample of the fuzz benchmark in the default suite (``benchmarks/fuzz.py`` runs 10,000):
mutants of the shipped files through every verb end cleanly, as a result or one-line error."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

FUZZ = Path(__file__).resolve().parent.parent / "benchmarks" / "fuzz.py"


@pytest.fixture(scope="module")
def fuzz() -> ModuleType:
    spec = importlib.util.spec_from_file_location("partysolver_fuzz", FUZZ)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_a_sample_of_mutants_ends_cleanly(fuzz: ModuleType, tmp_path: Path) -> None:
    seeds, extras = fuzz.seed_files(), fuzz.simulate_files()
    found = []
    for index in range(20_000, 20_030):
        mutant = fuzz.make(index, seeds, extras)
        kind, detail = fuzz.run(mutant, tmp_path)
        assert kind in ("clean", "clean error"), (index, kind, detail)
        found.append(kind)
    assert "clean error" in found

"""A sample of the fuzz benchmark in the default suite (``benchmarks/fuzz.py`` runs 10,000):
mutants of the shipped files through every verb, and cases of the other command-line families
(moves, records, play sessions, odd options), end cleanly, as a result or one-line error."""

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
        assert kind in ("ok", "clean error"), (index, kind, detail)
        found.append(kind)
    assert "clean error" in found and "ok" in found


def test_a_sample_of_every_command_line_family_ends_cleanly(fuzz: ModuleType,
                                                             tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    found = fuzz.seeds(with_records=False)
    monkeypatch.chdir(tmp_path)
    families = []
    for index in range(40):
        case = fuzz.make_case(index, 20_000, found, web=False)
        if case.family == "document":
            continue
        kind, detail = fuzz.run_case(case, tmp_path)
        assert kind in ("ok", "clean error"), (index, case.family, case.args, kind, detail)
        families.append(case.family)
    assert {"move", "record", "play", "option"} <= set(families)

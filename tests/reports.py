"""Reports asked for through the application layer, as the front ends ask for them: the tests
of what a report says call this, and the CLI tests check only the wiring."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from partysolver.app import base, catalog


def report(verb: str, source: str | Path, **given: Any) -> base.Report:
    """``verb``'s report on the file (or ``GAME:NAME``) ``source``; ``given`` are options by
    name (``seed=3``, ``exact_nodes=200``)."""
    return base.run(verb, catalog.open_document(str(source)), given, as_json=True)


def strict(report_: base.Report, seeded: bool) -> dict[str, Any]:
    """The report's data as the CLI prints it: strict JSON, wall-clock times left out of a
    seeded run."""
    printed = json.dumps(base.json_safe(report_.data, not seeded), allow_nan=False)
    data: dict[str, Any] = json.loads(printed)
    return data


def data(verb: str, source: str | Path, **given: Any) -> dict[str, Any]:
    """``verb``'s JSON on ``source``, as ``partysolver VERB SOURCE --json`` prints it."""
    return strict(report(verb, source, **given), given.get("seed") is not None)


def simulation(game: str, games: int, *policies: str, players: int | None = None,
               workers: int = 1, rotate: bool = False, **given: Any) -> dict[str, Any]:
    """``partysolver simulate GAME --json``'s data."""
    found = base.run_simulation(game, games, policies, players, given, workers, rotate,
                                as_json=True)
    return strict(found, given.get("seed") is not None)

"""Shared test set-up.

- This folder is importable, so every test can use :mod:`reports`.
- Hypothesis profiles: ``ci`` (chosen when ``CI`` is set, as ``.ci/run`` does) derandomizes
  every property test, so a CI run tries the same examples each time; locally new ones are
  tried on every run.
- ``--random-games N``: seeded random games per game in ``tests/test_invariants.py``
  (``make bench`` plays 100,000).
"""

from __future__ import annotations

import os

from hypothesis import settings

if os.environ.get("PYTEST_XDIST_WORKER"):
    # pytest-xdist's workers are started with COLUMNS=80 and LINES=24, which the CLI reads as
    # a terminal's width and wraps its text to: the tests see what a pipe gets, as without -n.
    for name in ("COLUMNS", "LINES"):
        os.environ.pop(name, None)

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI")
                                     else "dev"))


def pytest_addoption(parser: object) -> None:
    parser.addoption("--random-games", type=int, default=1000,  # type: ignore[attr-defined]
                     help="seeded random games per game in tests/test_invariants.py "
                          "(make bench: 100000)")

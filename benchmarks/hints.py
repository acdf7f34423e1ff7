"""Every ``hint`` on every shipped example, and on every shipped Meeple Party turn, as a new
process (issue 30: at most 1.0 s of wall time each, warm caches).

For each document (``partysolver example --list``: every game's ``examples`` set and Meeple
Party's ``positions``, the benchmark turns), ``partysolver hint GAME:SET/NAME`` runs
``--repeats`` times as a user runs it (the installed script, a fresh process, output to a
pipe), every document once per round so that a change in the machine's load touches them
alike.  It prints the median wall time, the median CPU time of the process (user and system:
what the command costs whatever the load) and the exit code, and the load average; a document
the hint refuses (a park is solved, not hinted: exit code 2) is listed as such.

The machine is shared: under a load average above the number of cores a process waits for one,
and the wall time grows while the CPU time does not; both are printed.

``--compare-native`` runs each Meeple Party hint a second time with ``PARTYSOLVER_NATIVE=0``
(the compiled kernel loaded through numba, with the interpreted first try of
``turn.LEAN_NODES``: the path before ``solvers/meeple_party/native.py``), interleaved.

``PYTHONDONTWRITEBYTECODE`` is taken out of the commands' environment (an installed package
runs with its bytecode; a session that sets it would time the compiler).  Every command runs
once before timing (numba's cache and the kernel's object must be warm: a hint never waits for
a compile, it would answer interpreted and start one).

Run: ``.venv/bin/python benchmarks/hints.py`` (``--only meeple-party`` for one game's,
``--repeats 5``).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

TARGET = 1.0
"""Seconds of wall time a hint may take as a new process (issue 30)."""

SETS = {"examples": None, "positions": "meeple-party"}
"""The shipped sets whose documents are timed (a set of one game only: that game's)."""


@dataclass
class Timings:
    walls: list[float] = field(default_factory=list)
    cpus: list[float] = field(default_factory=list)
    codes: set[int] = field(default_factory=set)


def partysolver() -> list[str]:
    script = Path(sys.executable).parent / "partysolver"
    return [str(script)] if script.exists() else [sys.executable, "-m", "partysolver"]


def documents(only: str | None) -> list[str]:
    """``GAME:SET/NAME`` of every shipped document timed, in the listing's order."""
    listing = subprocess.run([*partysolver(), "example", "--list", "--json"],
                             capture_output=True, text=True, check=True)
    found = []
    for entry in json.loads(listing.stdout)["examples"]:
        game, kind = entry["game"], entry["set"]
        if kind in SETS and SETS[kind] in (None, game) and (only is None or only == game):
            found.append(f"{game}:{kind}/{entry['name']}")
    return found


def run(argv: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds (user and system) and exit code of ``argv``."""
    import time

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    code = subprocess.run(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu, code


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--only", help="one game's documents")
    parser.add_argument("--compare-native", action="store_true",
                        help="each Meeple Party hint also with PARTYSOLVER_NATIVE=0")
    args = parser.parse_args()
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    numba_env = dict(env, PARTYSOLVER_NATIVE="0")
    cases: list[tuple[str, str, dict[str, str]]] = []
    for name in documents(args.only):
        cases.append((name, "", env))
        if args.compare_native and name.startswith("meeple-party:"):
            cases.append((name, "numba", numba_env))
    timings = {(name, how): Timings() for name, how, _ in cases}
    loads = []
    for round_ in range(args.repeats + 1):
        for name, how, case_env in cases:
            wall, cpu, code = run([*partysolver(), "hint", name], case_env)
            loads.append(os.getloadavg()[0])
            if round_:  # the first round warms the caches (bytecode, numba's, the object)
                found = timings[name, how]
                found.walls.append(wall)
                found.cpus.append(cpu)
                found.codes.add(code)
        print(f"  round {round_} done, load average {os.getloadavg()[0]:.1f}", file=sys.stderr,
              flush=True)
    print(f"hint as a new process, median of {args.repeats} (wall and CPU seconds); load "
          f"average {statistics.median(loads):.1f} (from {min(loads):.1f} to {max(loads):.1f}) "
          f"on {os.cpu_count()} cores")
    print(f"{'wall s':>7} {'cpu s':>7}  {'target':<8} document")
    over = counted = 0
    for name, how, _ in cases:
        found = timings[name, how]
        wall, cpu = statistics.median(found.walls), statistics.median(found.cpus)
        if found.codes == {2}:
            verdict = "refused"
        elif how:
            verdict = f"[{how}]"
        else:
            counted += 1
            verdict = "ok" if wall <= TARGET else "OVER"
            over += wall > TARGET
        print(f"{wall:7.2f} {cpu:7.2f}  {verdict:<8} {name}")
    print(f"{counted - over} of {counted} hints within {TARGET:g} s of wall time")


if __name__ == "__main__":
    main()

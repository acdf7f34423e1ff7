"""Start-up benchmark: how long the ``partysolver`` command takes to answer, against Python
starting and importing click (``python -c "import click"``), measured in the same run.

The targets (issue 16): ``--version`` and ``--help`` at most 2x the baseline, ``games`` at most
3x, ``hint`` on the Pool Party Stars example at most 4x.  Each command runs as a user runs it
(the installed ``partysolver`` script in a fresh process, output to a pipe), ``--repeats``
times, interleaved with the baseline so that a change in the machine's load touches every
figure alike; the median of each is printed with its ratio to the baseline's.

Python compiles a module the first time it is imported and keeps the bytecode beside it; an
installed partysolver runs with that bytecode.  So every command runs once before timing, and
``PYTHONDONTWRITEBYTECODE`` is taken out of the commands' environment (a session that sets it
would otherwise time the compiler, and so would the baseline's site packages).

With ``--modules`` the benchmark also lists, for each command, the partysolver modules and
the heavy libraries it imported (``python -X importtime`` shows where the time goes).

Run: ``nice -n 10 .venv/bin/python benchmarks/startup.py`` (``--repeats 5`` for a quick look).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HEAVY = ("ortools", "numba", "matplotlib", "networkx", "numpy", "dask", "distributed", "resvg_py",
         "scipy")


@dataclass(frozen=True)
class Command:
    name: str
    argv: tuple[str, ...]
    limit: float | None
    """At most this many times the baseline (``None``: the baseline itself)."""


def partysolver() -> list[str]:
    """The installed ``partysolver`` script beside this Python, else ``python -m``."""
    script = Path(sys.executable).parent / "partysolver"
    return [str(script)] if script.exists() else [sys.executable, "-m", "partysolver"]


def commands(folder: Path) -> list[Command]:
    example = folder / "game.toml"
    with example.open("w") as out:
        subprocess.run([*partysolver(), "example", "pool-party-stars"], stdout=out, check=True)
    ps = tuple(partysolver())
    return [Command('python -c "import click"', (sys.executable, "-c", "import click"), None),
            Command("partysolver --version", (*ps, "--version"), 2.0),
            Command("partysolver --help", (*ps, "--help"), 2.0),
            Command("partysolver games", (*ps, "games"), 3.0),
            Command("partysolver hint game.toml (Pool Party Stars)", (*ps, "hint", str(example)),
                    4.0)]


def environment() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def timed(argv: tuple[str, ...], env: dict[str, str], cwd: Path) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, cwd=cwd, capture_output=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}): "
                         f"{done.stderr.decode().strip()}")
    return seconds


def imported(argv: tuple[str, ...], env: dict[str, str], cwd: Path) -> tuple[list[str], int]:
    """The heavy libraries and the number of partysolver modules ``argv`` imports (read from
    ``python -X importtime``)."""
    if argv[0] != sys.executable:
        argv = (sys.executable, "-m", "partysolver", *argv[1:])
    done = subprocess.run((sys.executable, "-X", "importtime", *argv[1:]), env=env, cwd=cwd,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    names = [line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()
             if line.startswith("import time:") and "|" in line]
    heavy = sorted({name.split(".")[0] for name in names} & set(HEAVY))
    return heavy, sum(1 for name in names if name.startswith("partysolver"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=15, help="runs of each command")
    parser.add_argument("--modules", action="store_true",
                        help="also list what each command imports")
    args = parser.parse_args()
    env = environment()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        todo = commands(folder)
        for command in todo:  # bytecode written, file caches warm
            timed(command.argv, env, folder)
        times: dict[str, list[float]] = {command.name: [] for command in todo}
        for _ in range(args.repeats):
            for command in todo:
                times[command.name].append(timed(command.argv, env, folder))
        baseline = statistics.median(times[todo[0].name])
        print(f"start-up, median of {args.repeats} runs each, interleaved "
              f"({os.cpu_count()} cores, load average "
              f"{os.getloadavg()[0]:.1f})")
        width = max(len(command.name) for command in todo)
        print(f"{'command':<{width}}  {'median s':>8}  {'x click':>7}  {'target':>6}")
        for command in todo:
            median = statistics.median(times[command.name])
            ratio = median / baseline
            target = "" if command.limit is None else f"<= {command.limit:g}x"
            verdict = "" if command.limit is None else ("  ok" if ratio <= command.limit
                                                        else "  OVER")
            print(f"{command.name:<{width}}  {median:>8.3f}  {ratio:>7.2f}  {target:>6}"
                  f"{verdict}")
            if args.modules and command.limit is not None:
                heavy, ours = imported(command.argv, env, folder)
                print(f"{'':<{width}}  imports {ours} partysolver modules; heavy libraries: "
                      f"{', '.join(heavy) or 'none'}")


if __name__ == "__main__":
    main()

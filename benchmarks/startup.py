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

**The first run** (issue 30; ``--part first``): a fresh virtual environment in a temporary folder
(no system site packages) gets ``pip install .`` of this checkout, as a user's would (from the
index pip is configured with), and an empty numba cache (``NUMBA_CACHE_DIR``).  Then each
game's ``hint GAME:default`` runs in order as a new process (target: at most 3 s each; Python
writes its bytecode on this first run, as it does for a user), the Meeple Party hint starts the
compile of its kernel in the background and so does the Party-Time hint for its playouts.
The benchmark waits for the playouts' marker (``partysolver-ready.party-time-playouts.json``:
a default Party-Time hint in a new process runs them interpreted even then), then asks a big
Meeple Party turn's hint (:data:`BIG_TURN`) every few seconds until its JSON says
``search.compiled: true``: how long after the first hint the compiled path answers by itself,
with nothing typed.  Last, the
warm times (median of 3) of every game's hint and of the big turn's, and where the warm Meeple
Party hint's time goes (``python -X importtime``: the heavy libraries' import times).

Run: ``nice -n 10 .venv/bin/python benchmarks/startup.py`` (``--repeats 5`` for a quick look;
``--part ratios`` or ``--part first`` for one half).
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


ROOT = Path(__file__).resolve().parent.parent
GAMES = ("meeple-land", "meeple-party", "party-time", "pool-party-stars", "tea-party")
BIG_TURN = "meeple-party:04-easy-jerk-30"
"""A turn the interpreted search does not finish within ``turn.LEAN_NODES`` (115,347 outcomes):
its hint goes to the kernel once the kernel is ready (the default example's never does)."""
FIRST_TARGET = 3.0
"""Seconds the first hint of each game may take on a fresh install (issue 30)."""


def first_run(poll: float, patience: float) -> None:
    """The first run of a fresh install (see the module docstring)."""
    import json

    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        venv = folder / "venv"
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet",
                        str(ROOT)], check=True, cwd=folder)
        installed = time.perf_counter() - start
        env = environment() | {"NUMBA_CACHE_DIR": str(folder / "numba-cache")}
        env.pop("PARTYSOLVER_INTERPRETED", None)
        command = (str(venv / "bin" / "partysolver"), "hint")
        print(f"first run: fresh venv and pip install . in {installed:.1f} s; empty numba "
              f"cache ({os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f})")
        print(f"{'first hint':<28}  {'s':>6}  {'target':>7}  compiled  stderr")
        began = party_began = None
        for game in GAMES:
            started = time.perf_counter()
            done = subprocess.run((*command, f"{game}:default", "--json"), env=env, cwd=folder,
                                  capture_output=True, text=True)
            seconds = time.perf_counter() - started
            if game == "meeple-party":
                began = started
            if game == "party-time":
                party_began = started
            answer = json.loads(done.stdout) if done.returncode == 0 else {}
            verdict = "ok" if seconds <= FIRST_TARGET else "OVER"
            told = " | ".join(done.stderr.strip().splitlines())[:90]
            print(f"{game:<28}  {seconds:>6.2f}  <= {FIRST_TARGET:g} {verdict:>2}  "
                  f"{str(answer.get('search', {}).get('compiled', '-')).lower():>8}  {told}")
        assert began is not None and party_began is not None
        ready = Path(env["NUMBA_CACHE_DIR"]) / "partysolver-ready.party-time-playouts.json"
        while not ready.exists() and time.perf_counter() - party_began < patience:
            time.sleep(0.5)
        print(f"the Party-Time playouts' background compile was done "
              f"{time.perf_counter() - party_began:.1f} s after their first hint"
              if ready.exists() else
              f"the Party-Time playouts were not compiled within {patience:g} s")
        compiled_after = None
        while time.perf_counter() - began < patience:
            done = subprocess.run((*command, BIG_TURN, "--json"), env=env,
                                  cwd=folder, capture_output=True, text=True)
            if done.returncode == 0 and json.loads(done.stdout)["search"]["compiled"]:
                compiled_after = time.perf_counter() - began
                break
            time.sleep(poll)
        if compiled_after is None:
            print(f"the compiled Meeple Party search did not answer within {patience:g} s")
        else:
            print(f"the compiled Meeple Party search answered ({BIG_TURN}) by itself "
                  f"{compiled_after:.1f} s "
                  "after the first hint (its compile ran in the background, nothing typed)")
        print(f"{'warm hint (median of 3)':<34}  {'s':>6}  compiled")
        for target in (*(f"{game}:default" for game in GAMES), BIG_TURN):
            times, answer = [], {}
            for _ in range(3):
                started = time.perf_counter()
                done = subprocess.run((*command, target, "--json"), env=env,
                                      cwd=folder, capture_output=True, text=True, check=True)
                times.append(time.perf_counter() - started)
                answer = json.loads(done.stdout)
            print(f"{target:<34}  {statistics.median(times):>6.2f}  "
                  f"{str(answer['search']['compiled']).lower():>8}")
        steps(venv / "bin" / "python", env, folder)


def steps(python: Path, env: dict[str, str], folder: Path) -> None:
    """Where a warm Meeple Party hint's time goes: the heavy libraries' imports (cumulative,
    from ``-X importtime``) and the whole."""
    started = time.perf_counter()
    done = subprocess.run((str(python), "-X", "importtime", "-m", "partysolver", "hint",
                           "meeple-party:default"), env=env, cwd=folder, capture_output=True,
                          text=True, check=True)
    total = time.perf_counter() - started
    cumulative: dict[str, float] = {}
    for row in done.stderr.splitlines():
        if row.startswith("import time:") and "|" in row:
            _, spent, name = row.split("|")
            if name.strip() in (*HEAVY, "partysolver", "click"):
                cumulative[name.strip()] = int(spent) / 1e6
    parts = ", ".join(f"{name} {seconds:.2f} s" for name, seconds in sorted(cumulative.items()))
    print(f"warm Meeple Party hint under -X importtime: {total:.2f} s; imports: {parts}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=15, help="runs of each command")
    parser.add_argument("--modules", action="store_true",
                        help="also list what each command imports")
    parser.add_argument("--part", choices=("both", "ratios", "first"), default="both")
    parser.add_argument("--patience", type=float, default=600.0,
                        help="seconds to wait for the compiled path in the first run")
    args = parser.parse_args()
    if args.part in ("both", "first"):
        first_run(5.0, args.patience)
        if args.part == "first":
            return
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

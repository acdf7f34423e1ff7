"""Budget benchmark: every shipped example through every verb with ``--time-limit T``.

The promise (issue 14): a verb given ``--time-limit T`` returns within T + 1 s, and when it
stopped early its status says the answer is partial.  For T = 1 and T = 5 this runs every
example of every game through ``hint``, ``solve``, ``verify`` and ``render`` (each verb that
takes the file), in-process with ``click.testing.CliRunner`` and ``--json``, and prints per
game and verb the worst overrun (wall-clock seconds past T; negative: returned in time), the
file it happened on and the status reported.  Runs whose file the verb refuses (exit 2) are
counted apart.  Numba compiles its kernels on first use (cached on disk afterwards): the
first run of a game is run once more if it overran, and the second timing kept.

Run: ``nice -n 10 .venv/bin/python benchmarks/budgets.py`` (``--limits 1`` for T = 1 only).

``--bounds`` runs the other case (issue 27, "budgets always end"): every verb that searches
(``hint``, ``solve``, ``verify``, ``render --hint``) on every shipped document of every game
(examples, puzzles, positions, scenarios), once without a time limit and once with
``--time-limit 0.1``, each as a user runs it (the installed script in a fresh process, the
JSON to a pipe), and prints per command its wall time and whether it met its bound: 10 s
without a limit, 0.1 s plus the start-up with one.  The start-up is measured in the same run:
the median of ``partysolver --help`` (a fresh process, the CLI loaded, no game), plus what the
command imports beyond it (its modules and libraries: numpy, numba, OR-Tools; read from
``python -X importtime`` on the same command); both figures are printed, and the verdict
against the bare ``--help`` start-up too.
A command still running at 120 s is killed and counted as a hang.  Runs whose file the verb
refuses (exit 2) are counted apart.  ``--games`` and ``--verbs`` narrow it.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from click.testing import CliRunner

from partysolver import puzzles
from partysolver.cli.main import cli

GAMES = ("meeple-party", "meeple-land", "pool-party-stars", "party-time", "tea-party")
VERBS = ("hint", "solve", "verify", "render")
PARTIAL = {"unknown", "feasible", "partial", "estimate"}


@dataclass(frozen=True)
class Run:
    game: str
    verb: str
    example: str
    limit: float
    seconds: float
    exit_code: int
    status: str

    @property
    def overrun(self) -> float:
        return self.seconds - self.limit


def status_of(stdout: str) -> str:
    """The status, verdict or validity a JSON report gives (``?`` when it gives none)."""
    try:
        data = json.loads(stdout)
    except ValueError:
        return "?"
    for key in ("status", "verdict"):
        if isinstance(data.get(key), str):
            return str(data[key])
    if "valid" in data:
        return "valid" if data["valid"] else "invalid"
    return "written" if "output" in data else "?"


def run_one(game: str, verb: str, name: str, path: Path, limit: float, folder: Path) -> Run:
    args = [verb, str(path), "--time-limit", str(limit), "--json"]
    if verb == "render":
        args += ["-o", str(folder / "out.svg"), "--hint"]
    start = time.perf_counter()
    result = CliRunner().invoke(cli, args)
    seconds = time.perf_counter() - start
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        status = f"crash: {type(result.exception).__name__}"
    else:
        status = status_of(result.stdout)
    return Run(game, verb, name, limit, seconds, result.exit_code, status)


NO_LIMIT_BOUND = 10.0
"""Seconds any command may take without ``--time-limit`` (the default budgets' promise)."""
SHORT_LIMIT = 0.1
HANG = 120.0


def partysolver() -> list[str]:
    """The installed ``partysolver`` script beside this Python, else ``python -m``."""
    script = Path(sys.executable).parent / "partysolver"
    return [str(script)] if script.exists() else [sys.executable, "-m", "partysolver"]


def environment() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # time the bytecode users run, not the compiler
    return env


@dataclass(frozen=True)
class Bounded:
    """One command of the ``--bounds`` case and its outcome."""

    argv: tuple[str, ...]
    seconds: float
    bound: float
    exit_code: int | None
    """``None``: killed at :data:`HANG` seconds."""
    status: str
    imports: float = 0.0
    """Seconds the command spends importing beyond what ``--help`` imports (limited runs)."""
    startup: float = 0.0
    """The bare start-up (``partysolver --help``)."""

    @property
    def met(self) -> bool:
        return self.exit_code is not None and self.seconds <= self.bound

    @property
    def met_bare(self) -> bool:
        """Met 0.1 s plus the bare ``--help`` start-up, imports counted against it."""
        return self.exit_code is not None and self.seconds <= self.bound - self.imports

    @property
    def shown(self) -> str:
        """The command as a user types it (the picture's temporary path left out)."""
        limit = " --time-limit " + self.argv[-1] if "--time-limit" in self.argv else ""
        extra = " --hint" if self.argv[0] == "render" else ""
        return f"partysolver {self.argv[0]} {self.argv[1]}{extra}{limit}"


def timed(argv: list[str], folder: Path) -> tuple[float, int | None, str]:
    start = time.perf_counter()
    try:
        done = subprocess.run(argv, env=environment(), cwd=folder, capture_output=True,
                              text=True, timeout=HANG)
    except subprocess.TimeoutExpired:
        return time.perf_counter() - start, None, "hang"
    seconds = time.perf_counter() - start
    status = status_of(done.stdout)
    if "Traceback" in done.stderr:
        status = "crash: " + done.stderr.strip().splitlines()[-1][:60]
    return seconds, done.returncode, status


def import_seconds(argv: list[str], folder: Path) -> float:
    """Seconds ``partysolver ARGV`` spends importing modules (the top-level imports of
    ``python -X importtime``; nested ones are inside them)."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "partysolver", *argv],
                          env=environment(), cwd=folder, capture_output=True, text=True,
                          timeout=HANG)
    total = 0
    for line in done.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            _, cumulative, name = line.split("|")
            if not name.startswith("  ") and cumulative.strip().isdigit():
                total += int(cumulative)
    return total / 1e6


def documents(games: list[str]) -> list[tuple[str, str]]:
    """Every shipped document of ``games``: (game, ``game:set/name``)."""
    from partysolver.app import catalog

    return [(game, f"{game}:{item.qualified}") for game in games
            for item in catalog.shipped(game)]


def bounds(games: list[str], verbs: list[str]) -> None:
    from partysolver.models.registry import game_keys

    games = [g for g in games if g in game_keys()] if games else list(game_keys())
    ps = partysolver()
    runs: list[Bounded] = []
    with tempfile.TemporaryDirectory(prefix="partysolver-bounds-") as place:
        folder = Path(place)
        timed([*ps, "--help"], folder)  # bytecode written, file caches warm
        startups = [timed([*ps, "--help"], folder)[0] for _ in range(5)]
        startup = statistics.median(startups)
        helped = statistics.median(import_seconds(["--help"], folder) for _ in range(3))
        print(f"start-up (partysolver --help, median of 5): {startup:.2f} s, of which "
              f"{helped:.2f} s importing; {os.cpu_count()} cores, load average "
              f"{os.getloadavg()[0]:.1f}", flush=True)
        for _, source in documents(games):
            for verb in verbs:
                for limit in (None, SHORT_LIMIT):
                    argv = [*ps, verb, source, "--json"]
                    if verb == "render":
                        argv += ["-o", str(folder / "out.svg"), "--force", "--hint"]
                    if limit is not None:
                        argv += ["--time-limit", str(limit)]
                    seconds, code, status = timed(argv, folder)
                    extra = 0.0
                    if limit is not None and code != 2:
                        extra = max(0.0, import_seconds(argv[len(ps):], folder) - helped)
                    bound = NO_LIMIT_BOUND if limit is None else limit + startup + extra
                    found = Bounded(tuple(argv[len(ps):]), seconds, bound, code, status,
                                    extra, startup)
                    runs.append(found)
                    verdict = "refused" if code == 2 else "met" if found.met else "OVER"
                    imports = f"(start-up {startup:.2f} + imports {extra:.2f})" \
                        if limit is not None else ""
                    print(f"{seconds:7.2f} s  bound {bound:5.2f} s {imports:<27} {verdict:<7}  "
                          f"exit {'-' if code is None else code}  {status[:24]:<24}  "
                          f"{found.shown}", flush=True)
    taken = [r for r in runs if r.exit_code != 2]
    for name, keep in (("without a time limit (bound 10 s)", lambda r: "--time-limit" not in
                        r.argv),
                       (f"with --time-limit {SHORT_LIMIT:g} (bound {SHORT_LIMIT:g} s + "
                        f"start-up {startup:.2f} s + the command's own imports)",
                        lambda r: "--time-limit" in r.argv)):
        mine = [r for r in taken if keep(r)]
        over = [r for r in mine if not r.met]
        worst = max(mine, key=lambda r: r.seconds - r.bound) if mine else None
        print(f"\n{name}: {len(mine) - len(over)} of {len(mine)} commands met their bound"
              + (f"; worst {worst.seconds:.2f} s ({worst.shown})" if worst else ""))
        for r in over:
            print(f"  OVER {r.seconds:.2f} s (bound {r.bound:.2f} s): {r.shown} ({r.status})")
        if mine and "--time-limit" in mine[0].argv:
            bare = sum(r.met_bare for r in mine)
            print(f"  against the bare start-up (--help, {startup:.2f} s, imports counted as "
                  f"time past it): {bare} of {len(mine)} met 0.1 s + start-up")
    print(f"{len(runs) - len(taken)} runs refused their file (exit 2: the verb does not take "
          "it)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limits", type=float, nargs="+", default=[1.0, 5.0])
    parser.add_argument("--games", nargs="+", default=None)
    parser.add_argument("--bounds", action="store_true",
                        help="every verb on every shipped document, without a time limit and "
                             "with --time-limit 0.1, against their bounds")
    parser.add_argument("--verbs", nargs="+", default=list(VERBS))
    args = parser.parse_args()
    if args.bounds:
        bounds(args.games or [], args.verbs)
        return
    args.games = args.games or list(GAMES)
    runs: list[Run] = []
    with tempfile.TemporaryDirectory(prefix="partysolver-budgets-") as place:
        folder = Path(place)
        warm: set[str] = set()
        for limit in args.limits:
            for game in args.games:
                for name, item in puzzles.examples(game).items():
                    path = folder / f"{name}.toml"
                    path.write_text(item.read_text(encoding="utf-8"), encoding="utf-8")
                    for verb in VERBS:
                        found = run_one(game, verb, name, path, limit, folder)
                        if game not in warm and found.overrun > 1:
                            found = run_one(game, verb, name, path, limit, folder)
                        warm.add(game)
                        runs.append(found)
                        print(f"  {game} {verb} {name} T={limit:g}: {found.seconds:.2f} s, "
                              f"exit {found.exit_code}, {found.status}", flush=True)
    print("\nWorst overrun per game and verb (seconds past T; the promise is at most 1 s)")
    print(f"{'game':<18} {'verb':<7} " + "  ".join(f"{'T=' + format(t, 'g'):>30}"
                                                    for t in args.limits))
    for game in args.games:
        for verb in VERBS:
            cells = []
            for limit in args.limits:
                mine = [r for r in runs if r.game == game and r.verb == verb
                        and r.limit == limit and r.exit_code != 2]
                if not mine:
                    cells.append(f"{'(no file it takes)':>30}")
                    continue
                worst = max(mine, key=lambda r: r.overrun)
                flag = " !" if worst.overrun > 1 else ""
                cells.append(f"{worst.overrun:>+7.2f} s {worst.example[:11]:>11} "
                             f"{worst.status[:8]:>8}{flag}")
            print(f"{game:<18} {verb:<7} " + "  ".join(cells))
    over = [r for r in runs if r.overrun > 1 and r.exit_code != 2]
    print(f"\n{len(over)} of {len(runs)} runs overran T + 1 s" + (":" if over else ""))
    for r in over:
        print(f"  partysolver {r.verb} {r.game}/examples/{r.example}.toml --time-limit "
              f"{r.limit:g}: {r.seconds:.1f} s ({r.status})")


if __name__ == "__main__":
    main()

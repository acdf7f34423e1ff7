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
"""

from __future__ import annotations

import argparse
import json
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limits", type=float, nargs="+", default=[1.0, 5.0])
    parser.add_argument("--games", nargs="+", default=list(GAMES))
    args = parser.parse_args()
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

"""The README tour, timed: every ``partysolver`` command of README.md's code blocks, run in
order in a temporary folder, first with an empty numba cache and then again (warm).

For each command it prints its wall time: the seconds to its first words (the first byte on
stdout or stderr: a wait longer than that is silent) and to its answer, cold and warm, against
Python starting
and importing click (``python -c "import click"``) in the same run.  Commands whose warm answer
takes more than ``--slow`` seconds (5 by default; issue 16 asks for every other tour command to
answer within 5 s on a warm machine, or to print progress and a best-so-far answer) are marked;
the last lines give each pass's median answer, the warm one against issue 30's target of at
most 0.4 s (the issue sets it for a warm cache).

*Cold* means numba's cache is empty: ``NUMBA_CACHE_DIR`` points at a fresh folder, so every
compiled kernel is compiled on its first use (as on a fresh install).  Python's own bytecode is
written on the first pass, as it is on a user's first run.  The commands see a pipe, not a
terminal: they print their notices (``compiling ...``) but no spinner.

The tour's relative paths (``partysolver/puzzles/...``) are the repository's: the temporary
folder links ``partysolver`` to the package.

Run: ``nice -n 10 .venv/bin/python benchmarks/tour.py`` (``--only hint`` runs the commands that
contain ``hint``, with the ``example`` commands they need; ``--pass warm`` skips the cold pass).
"""

from __future__ import annotations

import argparse
import os
import re
import selectors
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Step:
    """A tour command: its words and the file its stdout goes to (``> file``), if any."""

    line: str
    argv: tuple[str, ...]
    stdout: str | None


@dataclass(frozen=True)
class Timing:
    first: float | None
    """Seconds to the first byte on stdout or stderr (``None``: it printed nothing)."""
    total: float
    code: int
    stderr: str


def tour(readme: Path) -> list[Step]:
    """Every ``partysolver`` line of the README's ``sh`` code blocks, in order, comments cut."""
    steps = []
    for block in re.findall(r"```sh\n(.*?)```", readme.read_text(), re.S):
        for raw in block.splitlines():
            line = re.sub(r"\s+#.*$", "", raw).strip()
            if not line.startswith("partysolver "):
                continue
            words = shlex.split(line)
            if words[1] in SERVERS:
                continue  # it serves until stopped: no answer to time (tests/web times it)
            stdout = None
            if ">" in words:
                at = words.index(">")
                stdout, words = words[at + 1], words[:at]
            steps.append(Step(line, tuple(words[1:]), stdout))
    return steps


MEDIAN_TARGET = 0.4
"""Seconds the median command of the tour may take to answer with the cache warm (issue 30)."""

SERVERS = ("serve",)
"""Verbs that run until stopped: left out of the tour's timings."""


def partysolver() -> list[str]:
    script = Path(sys.executable).parent / "partysolver"
    return [str(script)] if script.exists() else [sys.executable, "-m", "partysolver"]


def run(argv: list[str], cwd: Path, env: dict[str, str], stdout: Path | None) -> Timing:
    """Run ``argv``; the time to its first output and to its end."""
    start = time.perf_counter()
    sink = stdout.open("wb") if stdout is not None else None
    process = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                               stdout=sink or subprocess.PIPE, stderr=subprocess.PIPE)
    first = None
    errors = b""
    selector = selectors.DefaultSelector()
    for stream in (process.stdout, process.stderr):
        if stream is not None:
            selector.register(stream, selectors.EVENT_READ)
    while selector.get_map():
        for key, _ in selector.select():
            chunk = os.read(key.fd, 65536)
            if not chunk:
                selector.unregister(key.fileobj)
                continue
            if first is None:
                first = time.perf_counter() - start
            if key.fileobj is process.stderr:
                errors += chunk
    code = process.wait()
    total = time.perf_counter() - start
    if sink is not None:
        sink.close()
        if first is None and stdout is not None and stdout.stat().st_size:
            first = total  # written to the file: the answer is the first output
    return Timing(first, total, code, errors.decode(errors="replace"))


def baseline(env: dict[str, str], repeats: int = 5) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import click"], env=env, check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def chosen(steps: list[Step], only: str | None) -> list[Step]:
    """The steps whose line contains ``only``, with the steps that write the files they read."""
    if only is None:
        return steps
    wanted = [step for step in steps if only in step.line]
    needed = {word for step in wanted for word in step.argv}
    return [step for step in steps
            if step in wanted or step.stdout is not None and step.stdout in needed]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="run only the commands containing this text")
    parser.add_argument("--pass", dest="passes", choices=("both", "cold", "warm"),
                        default="both")
    parser.add_argument("--slow", type=float, default=5.0,
                        help="mark warm answers slower than this many seconds")
    args = parser.parse_args()
    steps = chosen(tour(ROOT / "README.md"), args.only)
    names = {"cold": ("cold",), "warm": ("warm",), "both": ("cold", "warm")}[args.passes]
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        env = dict(os.environ)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["NUMBA_CACHE_DIR"] = str(folder / "numba-cache")
        env.setdefault("COLUMNS", "100")
        click_seconds = baseline(env)
        timings: dict[str, list[Timing]] = {}
        if names == ("warm",):
            for _ in play(steps, workspace(folder, "warming"), env):  # fills the caches
                pass
        for pass_name in names:
            for step, timing in play(steps, workspace(folder, pass_name), env):
                timings.setdefault(step.line, []).append(timing)
                print(f"  {pass_name} {timing.total:7.2f} s  {step.line}", file=sys.stderr,
                      flush=True)
        report(steps, timings, names, click_seconds, args.slow)


def workspace(folder: Path, name: str) -> Path:
    """A fresh folder for one pass over the tour (its files do not exist yet), where
    ``partysolver/`` is the package (the tour's shipped paths)."""
    work = folder / name
    work.mkdir()
    (work / "partysolver").symlink_to(ROOT / "partysolver")
    return work


def play(steps: list[Step], work: Path, env: dict[str, str]) -> Iterator[tuple[Step, Timing]]:
    """Each step run in ``work``, in order, as it finishes."""
    for step in steps:
        yield step, run([*partysolver(), *step.argv], work, env,
                        work / step.stdout if step.stdout else None)


def report(steps: list[Step], timings: dict[str, list[Timing]], names: tuple[str, ...],
           click_seconds: float, slow: float) -> None:
    print(f"README tour: {len(steps)} commands; python -c \"import click\" takes "
          f"{click_seconds:.2f} s here (median of 5); load average {os.getloadavg()[0]:.1f}")
    print("seconds to the first words / to the answer; x: the answer against the click "
          "baseline")
    head = "  ".join(f"{n + ' first':>10}  {n + ' answer':>11}" for n in names)
    print(f"{head}  {'x warm' if 'warm' in names else 'x':>7}  command")
    slow_lines = []
    for step in steps:
        cells = []
        for timing in timings[step.line]:
            first = "-" if timing.first is None else f"{timing.first:.2f}"
            cells.append(f"{first:>10}  {timing.total:>11.2f}")
        last = timings[step.line][-1]
        marks = []
        if last.code not in (0, 1):
            marks.append(f"exit {last.code}")
        if "warm" in names and last.total > slow:
            marks.append(f"over {slow:g} s warm")
            slow_lines.append(step.line)
        notices = [line for line in timings[step.line][0].stderr.splitlines()
                   if line.startswith("compiling")]
        marks += notices
        note = f"  [{'; '.join(marks)}]" if marks else ""
        print(f"{'  '.join(cells)}  {last.total / click_seconds:>7.1f}  {step.line}{note}")
    for index, name in enumerate(names):
        median = statistics.median(timings[step.line][index].total for step in steps)
        if name != "warm":  # the target is the warm cache's (issue 30, item 1)
            print(f"median {name} answer: {median:.2f} s over {len(steps)} commands (no "
                  "target: the first run writes Python's bytecode and compiles every kernel)")
            continue
        verdict = "ok" if median <= MEDIAN_TARGET else "OVER"
        print(f"median {name} answer: {median:.2f} s over {len(steps)} commands (target at "
              f"most {MEDIAN_TARGET:g} s: {verdict})")
    if slow_lines:
        print(f"\n{len(slow_lines)} commands take more than {slow:g} s warm:")
        for line in slow_lines:
            print(f"  {line}")


if __name__ == "__main__":
    main()

"""The command line's side of the units-of-work runner: where units run (``--workers``,
``--scheduler``, ``--cluster local``), the journal (``--out``, ``--resume``), the progress
drawn on stderr, units that failed, and the batch ``verify DIR`` / ``solve DIR``.

Where units run, first match wins: ``--scheduler ADDRESS``; ``--cluster local`` (a local Dask
cluster of ``--workers`` processes, default one a core); ``--workers N`` given on the command
line (local processes); the ``PARTYSOLVER_SCHEDULER`` variable; one worker, in this process.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import click

from ..app.base import GameCommands, Options, Prepared, Report, Table, commands_for, json_safe
from ..models.errors import InputError

if TYPE_CHECKING:  # the runner (processes, Dask, journals) loads only for a run: start-up
    from ..solvers.runner import Outcome, Progress, RunPlan

SCHEDULER_VARIABLE = "PARTYSOLVER_SCHEDULER"
FAILED_EXIT = 3
"""The exit code of a run in which some units failed (each is reported with its index)."""


@dataclass(frozen=True, slots=True)
class RunSettings:
    """The run options as given."""

    workers: int = 1
    workers_given: bool = False
    scheduler: str | None = None
    cluster: str | None = None
    out: Path | None = None
    resume: bool = False

    def given(self) -> list[str]:
        """The run options given on the command line."""
        found = [("--workers", self.workers_given), ("--scheduler", self.scheduler),
                 ("--cluster", self.cluster), ("--out", self.out), ("--resume", self.resume)]
        return [name for name, value in found if value]

    def check(self) -> None:
        if self.scheduler and self.cluster:
            raise InputError(None, None, "one of --scheduler and --cluster",
                             reason="--scheduler and --cluster: expected one of them (a "
                                    "running cluster, or a local one started for the run)")
        if self.resume and self.out is None:
            raise InputError.of_option("resume", "--out FILE, the results to continue")

    def plan(self, parameters: dict[str, Any], view: ProgressView) -> RunPlan:
        from ..solvers.runner import RunPlan, executor_for

        self.check()
        scheduler = self.scheduler
        if not (scheduler or self.cluster or self.workers_given):
            scheduler = os.environ.get(SCHEDULER_VARIABLE) or None
        workers = self.workers if self.workers_given or not self.cluster else \
            (os.cpu_count() or 1)
        return RunPlan(executor_for(workers, scheduler, self.cluster == "local"), self.out,
                       self.resume, parameters, view.outcome, view.progress)


def run_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--workers``, ``--scheduler``, ``--cluster``, ``--out`` and ``--resume``, handed to the
    command as one ``run`` argument (:class:`RunSettings`)."""

    @functools.wraps(func)
    def command(*args: Any, workers: int | None, scheduler: str | None, cluster: str | None,
                out: Path | None, resume: bool, **kwargs: Any) -> Any:
        settings = RunSettings(workers or 1, workers is not None, scheduler, cluster, out,
                               resume)
        return func(*args, run=settings, **kwargs)

    decorators = [
        click.option("--workers", type=click.IntRange(min=1), default=None,
                     help="Worker processes on this machine (default 1: this process), or the "
                          "size of a --cluster local. Results do not depend on it."),
        click.option("--scheduler", metavar="tcp://HOST:PORT", default=None,
                     help=f"Run the units on this Dask cluster (default: ${SCHEDULER_VARIABLE} "
                          "unless --workers is given). Needs partysolver[cluster]."),
        click.option("--cluster", type=click.Choice(["local"]), default=None,
                     help="Start a local Dask cluster of --workers processes for the run."),
        click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
                     help="Stream one JSON line per finished unit to this file (a new file, "
                          "or with --resume the one to continue)."),
        click.option("--resume", is_flag=True,
                     help="Continue the killed run in --out: skip its finished units, append "
                          "the rest (refused when its parameters differ)."),
    ]
    for decorator in reversed(decorators):
        command = decorator(command)
    return command


def refuse_run_options(settings: RunSettings, verb: str) -> None:
    """A single file is one unit, run here: the run options apply to a folder."""
    given = settings.given()
    if given:
        raise InputError.of_option(given[0], f"a folder of files to {verb} (the run options "
                                   f"apply to '{verb} DIR')")


def _clock(seconds: float | None) -> str:
    if seconds is None:
        return "--:--"
    seconds = round(seconds)
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02}:{rest % 60:02}" if hours else f"{rest // 60}:{rest % 60:02}"


@dataclass
class ProgressView:
    """Draws a run's progress on ``stream``: a bar with units a second and the time left on a
    terminal, else a line every ``every`` seconds; reports each failed unit as it comes."""

    label: str
    noun: str
    stream: TextIO = field(default_factory=lambda: sys.stderr)
    every: float = 5.0
    terminal: bool | None = None
    failures: list[Outcome] = field(default_factory=list)
    _last: float = -math.inf
    _drawn: bool = False
    _latest: Progress | None = None
    _shown: Progress | None = None

    def __post_init__(self) -> None:
        if self.terminal is None:
            self.terminal = self.stream.isatty()

    def outcome(self, outcome: Outcome) -> None:
        if not outcome.ok:
            self.failures.append(outcome)
            self._clear()
            print(outcome.describe(self.noun.rstrip("s")), file=self.stream, flush=True)

    def progress(self, progress: Progress) -> None:
        self._latest = progress
        now = time.monotonic()
        wait = 0.1 if self.terminal else self.every
        if now - self._last >= wait or progress.done == progress.total and self.terminal:
            self._last = now
            self._draw(progress)

    def close(self) -> None:
        """The final state: the bar completed, or a last summary line."""
        if self._latest is not None and self._latest is not self._shown:
            self._draw(self._latest)
        if self._drawn and self.terminal:
            print(file=self.stream, flush=True)
        self._drawn = False
        self._latest = None

    def text(self, p: Progress) -> str:
        rate = f"{p.rate:.1f} {self.noun}/s" if p.rate >= 0.95 else \
            (f"{60 * p.rate:.1f} {self.noun}/min" if p.rate else f"- {self.noun}/s")
        extra = [f"{p.resumed} resumed"] if p.resumed else []
        extra += [f"{p.failed} failed"] if p.failed else []
        notes = f" ({', '.join(extra)})" if extra else ""
        return f"{p.done}/{p.total} {self.noun}{notes}  {rate}  {_clock(p.seconds_left)} left"

    def _draw(self, p: Progress) -> None:
        self._shown = p
        if self.terminal:
            width = 24
            filled = width * p.done // p.total if p.total else width
            bar = "#" * filled + "-" * (width - filled)
            print(f"\r{self.label} [{bar}] {self.text(p)}\x1b[K", end="", file=self.stream,
                  flush=True)
            self._drawn = True
        else:
            print(f"{self.label}: {self.text(p)}", file=self.stream, flush=True)

    def _clear(self) -> None:
        if self._drawn and self.terminal:
            print("\r\x1b[K", end="", file=self.stream)


def failure_summary(failures: list[Outcome], total: int, noun: str) -> str:
    return (f"{len(failures)} of {total} {noun} failed (each reported on stderr with its "
            "index and seed); the results leave them out")


@contextmanager
def watched_run(settings: RunSettings, label: str, noun: str,
                parameters: dict[str, Any]) -> Iterator[tuple[RunPlan, ProgressView]]:
    """A plan for a run that draws its progress; every unit failing is exit code 3."""
    from ..solvers.simulate import GamesFailed

    view = ProgressView(label, noun)
    plan = settings.plan(parameters, view)
    try:
        yield plan, view
    except GamesFailed as error:
        view.close()
        raise _Failed(str(error)) from None
    finally:
        view.close()


class _Failed(click.ClickException):
    exit_code = FAILED_EXIT


def with_failures(report: Report, failures: list[Outcome], total: int, noun: str) -> Report:
    """``report`` telling which units failed: their number in ``failed``, each one in
    ``errors`` (index, seed, error), a line in the text, exit code 3."""
    if not failures:
        return report
    data = report.data | {"failed": len(failures), "errors": [
        {"index": o.index, "seed": o.seed, "error": o.error} for o in failures]}
    text = report.text + "\n" + failure_summary(failures, total, noun)
    return Report(data, text, max(report.exit_code, FAILED_EXIT))


def simulate_games(prepared: Prepared, settings: RunSettings, table: Table) -> Report:
    """``simulate``'s report (``prepared``: its options checked), its games run as
    ``settings`` says."""
    options = prepared.options
    parameters = {"verb": "simulate", "game": prepared.game, "players": table.players,
                  "policies": list(table.policies), "options": dict(options.extra)}
    with watched_run(settings, "playing", "games", parameters) as (plan, view):
        extra = {**options.extra, "workers": plan}
        report = replace(prepared, options=replace(options, extra=extra)).report(table=table)
    return with_failures(report, view.failures, table.games, "games")


def run_batch(verb: str, folder: Path, settings: RunSettings,
              options_for: Callable[[GameCommands], Options], as_json: bool,
              seed: int | None) -> None:
    """``verb`` on every file of ``folder``, one unit each; the reports in file order as they
    finish (``--json``: one JSON line per file, without wall-clock figures when ``seed`` is
    given), then a summary.  Exit code: 3 when a file's unit failed, else 1 when any report
    says so."""
    from ..app.batch import FileReports, folder_files, game_of, read_text
    from ..solvers.runner import RunPlan, run

    files = folder_files(folder)
    if not files:
        raise InputError(str(folder), None, "a folder with .toml or .json files")
    inputs = tuple((str(path), read_text(path)) for path in files)
    games = {game for source, text in inputs if (game := game_of(source, text))}
    options = {game: options_for(commands) for game in sorted(games)
               if (commands := commands_for(game)) and verb in commands.verbs}
    parameters = {"verb": verb, "folder": str(folder), "files": _fingerprint(inputs),
                  "options": {game: _options_json(o) for game, o in options.items()}}
    printer = _InOrder(len(files), lambda o: _print_file(o, inputs, as_json, seed))
    label = {"verify": "verifying", "solve": "solving"}.get(verb, verb)
    with watched_run(settings, label, "files", parameters) as (plan, _):
        told = plan.on_outcome

        def on_outcome(outcome: Outcome) -> None:
            if told:
                told(outcome)
            printer.offer(outcome)

        result = run(FileReports(verb, inputs, options), len(files), seed or 0,
                     RunPlan(plan.executor, plan.journal, plan.resume, plan.parameters,
                             on_outcome, plan.on_progress))
    summary = _summary(verb, [o.result for o in result.outcomes if o.ok], len(files),
                       result.failures)
    click.echo(summary, err=as_json)
    codes = [o.result["exit_code"] for o in result.outcomes if o.ok]
    code = FAILED_EXIT if result.failures else max(codes, default=0)
    if code:
        sys.exit(code)


def _fingerprint(inputs: tuple[tuple[str, str | None], ...]) -> dict[str, Any]:
    """The files of a batch, short: how many, and a digest of their names and contents (a
    journal is not resumed over changed files)."""
    digest = hashlib.sha256()
    for source, text in inputs:
        digest.update(f"{Path(source).name}\0{text}\0".encode())
    return {"count": len(inputs), "sha256": digest.hexdigest()[:16]}


def _options_json(options: Options) -> dict[str, Any]:
    return {"json": options.json, "seed": options.seed, "time_limit": options.time_limit,
            "top": options.top, "extra": dict(options.extra)}


class _InOrder:
    """Prints outcomes in index order as soon as every earlier one has come."""

    def __init__(self, total: int, show: Callable[[Outcome], None]) -> None:
        self.waiting: dict[int, Outcome] = {}
        self.next = 0
        self.total = total
        self.show = show

    def offer(self, outcome: Outcome) -> None:
        self.waiting[outcome.index] = outcome
        while self.next in self.waiting:
            self.show(self.waiting.pop(self.next))
            self.next += 1


def _print_file(outcome: Outcome, inputs: tuple[tuple[str, str | None], ...], as_json: bool,
                seed: int | None) -> None:
    source = inputs[outcome.index][0]
    if as_json:
        line = {"file": source} | (json_safe(outcome.result["data"], seed is None)
                                   if outcome.ok else {"error": outcome.error})
        click.echo(json.dumps(line, allow_nan=False))
    else:
        body = outcome.result["text"] if outcome.ok else f"failed: {outcome.error}"
        click.echo(f"== {source} ==\n{body}\n")


def _summary(verb: str, reports: list[dict[str, Any]], total: int,
             failures: list[Outcome]) -> str:
    counts: dict[str, int] = {}
    for report in reports:
        data = report["data"]
        if verb == "verify":
            kind = "valid" if data.get("valid", report["exit_code"] == 0) else "invalid"
        else:
            kind = str(data.get("status", "done"))
        counts[kind] = counts.get(kind, 0) + 1
    parts = [f"{n} {kind}" for kind, n in sorted(counts.items())]
    parts += [f"{len(failures)} failed"] if failures else []
    return f"{verb} {total} files: " + ", ".join(parts)

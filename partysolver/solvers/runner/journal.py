"""The journal of a run: one JSON line per finished unit, so a killed run loses nothing.

The first line is the header, ``{"partysolver_run": 1, "version": ..., "parameters": {...}}``;
every other line is a finished unit, ``{"index", "seed", "result"}`` or ``{"index", "seed",
"error", "trace"}``, written and flushed the moment the unit's result reaches the driver.
Resuming reads the finished units back, refuses a journal whose parameters differ from the
run's (naming what differs), drops a last line cut short by the kill, and appends.  A unit that
failed is run again on resume; one that succeeded is not.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import IO, Any

from ...models.errors import InputError
from .core import Outcome

FORMAT = 1
"""The journal format's version (the header's ``partysolver_run``)."""


def package_version() -> str:
    try:
        return version("partysolver")
    except PackageNotFoundError:  # run from a source tree without installing
        from ... import __version__

        return __version__


def _normal(data: Any) -> Any:
    """``data`` as it reads back from JSON (tuples as lists, paths as text)."""
    return json.loads(json.dumps(data, default=str))


class Journal:
    """An open journal, appending; ``finished`` holds the units a resumed journal had."""

    def __init__(self, path: Path, handle: IO[str], finished: list[Outcome]) -> None:
        self.path = path
        self.handle = handle
        self.finished = finished

    @classmethod
    def open(cls, path: Path, parameters: Mapping[str, Any], resume: bool) -> Journal:
        header = {"partysolver_run": FORMAT, "version": package_version(),
                  "parameters": _normal(dict(parameters))}
        source = str(path)
        try:
            if path.is_dir():
                raise InputError(source, None, "a file for the run's results, not a folder")
            exists = path.exists() and path.stat().st_size > 0
        except OSError as error:  # a folder name too long on the way, a loop of links
            raise InputError(source, None, "a file that can be written in an existing folder "
                             f"({error.strerror})") from None
        if exists and not resume:
            raise InputError(source, None, "a new file (it holds results: --resume continues "
                             "that run, or choose another file)")
        try:
            handle = path.open("a+", encoding="utf-8")
        except OSError as error:
            raise InputError(source, None, "a file that can be written in an existing folder "
                             f"({error.strerror})") from None
        try:
            _lock(handle, source)
            finished: list[Outcome] = []
            if exists:
                finished = _read(handle, source, header)
            else:
                handle.write(json.dumps(header) + "\n")
                handle.flush()
        except BaseException:
            handle.close()
            raise
        return cls(path, handle, finished)

    def write(self, outcome: Outcome) -> None:
        self.handle.write(json.dumps(outcome.as_json()) + "\n")
        self.handle.flush()

    def close(self) -> None:
        if not self.handle.closed:
            self.handle.flush()
            os.fsync(self.handle.fileno())
            self.handle.close()


def _lock(handle: IO[str], source: str) -> None:
    """Two runs appending to one journal would interleave their lines: the second is refused."""
    try:
        import fcntl
    except ImportError:  # no advisory locks here (Windows): trust the user
        return
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        raise InputError(source, None, "a journal no other run is writing (another partysolver "
                         "run has it open)") from None


def _read(handle: IO[str], source: str, header: dict[str, Any]) -> list[Outcome]:
    """The finished units of the journal in ``handle``, after checking its header against
    ``header``; a last line cut short (no newline: the run was killed while writing it) is
    removed from the file."""
    handle.seek(0)
    text = handle.read()
    complete = text[:text.rfind("\n") + 1]
    if len(complete) < len(text):
        handle.truncate(len(complete.encode("utf-8")))
    lines = complete.splitlines()
    if not lines:
        raise InputError(source, "line 1", "a partysolver run's header line (the run was killed "
                         "before it started: remove the file)")
    _check_header(_parse(lines[0], source, 1), source, header)
    finished: dict[int, Outcome] = {}
    for number, line in enumerate(lines[1:], start=2):
        entry = _parse(line, source, number)
        outcome = _outcome(entry, source, number, header["parameters"])
        if outcome.ok or outcome.index not in finished:
            finished[outcome.index] = outcome
    return [o for o in finished.values() if o.ok]


def _parse(line: str, source: str, number: int) -> dict[str, Any]:
    try:
        entry = json.loads(line)
    except json.JSONDecodeError as error:
        raise InputError(source, f"line {number}", f"a JSON line ({error.msg})") from None
    if not isinstance(entry, dict):
        raise InputError(source, f"line {number}", "a JSON object", entry)
    return entry


def _check_header(found: dict[str, Any], source: str, header: dict[str, Any]) -> None:
    if found.get("partysolver_run") != FORMAT:
        raise InputError(source, "line 1", "the header of a partysolver run "
                         f"(format {FORMAT})", found)
    if found.get("version") != header["version"]:
        raise InputError(source, "version", f"partysolver {header['version']}, which runs this "
                         "resume (units may give other results under another version)",
                         found.get("version"))
    theirs, ours = found.get("parameters"), header["parameters"]
    if theirs != ours:
        if not isinstance(theirs, dict):
            raise InputError(source, "parameters", "the run's parameters", theirs)
        differ = sorted(k for k in ours.keys() | theirs.keys() if ours.get(k) != theirs.get(k))
        shown = "; ".join(f"{k}: journal {json.dumps(theirs.get(k))}, now "
                          f"{json.dumps(ours.get(k))}" for k in differ)
        raise InputError(source, "parameters", "the same parameters to resume the run, "
                         f"but they differ ({shown})")


def _outcome(entry: dict[str, Any], source: str, number: int,
             parameters: dict[str, Any]) -> Outcome:
    index, seed = entry.get("index"), int(parameters["seed"])
    units = int(parameters["units"])
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < units:
        raise InputError(source, f"line {number}: index", f"a unit index below {units}", index)
    if entry.get("seed") != seed:
        raise InputError(source, f"line {number}: seed", f"the run's seed {seed}",
                         entry.get("seed"))
    if "result" in entry:
        return Outcome(index, seed, entry["result"])
    if isinstance(entry.get("error"), str):
        return Outcome(index, seed, error=entry["error"], trace=str(entry.get("trace", "")))
    raise InputError(source, f"line {number}", "a unit's result or error", entry)

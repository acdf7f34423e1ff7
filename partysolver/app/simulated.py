"""Simulated games written down as game records (``simulate --records DIR``), so that any of
them can be replayed with ``apply``/``play`` and reviewed with ``review``.

Each game of the run comes back from wherever it ran (this process, a worker process, a Dask
worker) with its start position's document and its steps in the game's notation
(:class:`~partysolver.solvers.simulate.Played`); once the run is over, every finished game is
written to ``DIR/game-NNN.record.toml`` (``NNN`` its number in the run, from 1), in the record
format of :mod:`.playalong` with a comment line naming the run, the seed and each seat's
policy.  The folder is checked before any game is played: it is a folder or can be made, and
none of the files the run would write exists (a record is never replaced).  Writing games down
changes neither the games nor the figures.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..models.documents import format_document
from ..models.errors import InputError
from ..models.playable import full_state
from ..solvers.runner import runs_elsewhere
from ..solvers.simulate import GameRecord, Notation, SimulationResult
from . import paths
from .base import Options, Report, commands_for, document
from .playalong import Record, Step, playable

OPTION = "records"
"""The name of the option (in :attr:`Options.extra`) holding the records folder."""


def record_name(index: int, games: int) -> str:
    """The file name of game ``index`` (from 0) of a run of ``games`` games."""
    width = max(3, len(str(games)))
    return f"game-{index + 1:0{width}d}.record.toml"


def check_folder(folder: Path, games: int) -> None:
    """Refuse, before any game, a records folder that is a file, cannot be made or written
    into, or already holds a file the run would write (:func:`paths.check_folder`)."""
    paths.check_folder(folder, "--records", [record_name(i, games) for i in range(games)])


def compile_first(options: Options, compile: Callable[[Callable[[str], None]], object]) -> None:
    """Before the games go to worker processes (or a cluster): ``compile`` what their policies
    run, here and once, telling the user through the notice it is given; the workers then load
    it from numba's cache instead of each compiling it (some ten seconds of every core)."""
    if runs_elsewhere(options.extra.get("workers", 1)):
        compile(options.tell)


def notation(game: str, options: Options) -> Notation | None:
    """The notation to write the games down in, when the run writes records."""
    return Notation(game) if options.extra.get(OPTION) else None


def noted(game: str, report: Report, result: SimulationResult, options: Options) -> Report:
    """``report`` after writing every finished game of ``result`` to the records folder (when
    the run writes records): its ``records`` data and a line naming the folder."""
    folder = options.extra.get(OPTION)
    if not folder:
        return report
    folder = Path(folder)
    games = len(result.records) + len(result.failures)
    written = write(game, folder, result, games, options.rng_seed)
    data = report.data | {"records": {"folder": str(folder), "files": [p.name for p in written]}}
    line = (f"wrote {len(written)} game records to {folder} (partysolver review "
            f"{folder / written[0].name} reviews the first)" if written else
            f"no game finished: no record written to {folder}")
    return Report(data, f"{report.text}\n{line}", report.exit_code)


def write(game: str, folder: Path, result: SimulationResult, games: int, seed: int
          ) -> list[Path]:
    """Write each finished game of ``result`` as a record file in ``folder``; the files."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for index, record in zip(result.indices, result.records, strict=True):
        if record.played is None:
            continue
        path = folder / record_name(index, games)
        if path.exists():
            raise InputError("--records", None, "a folder without the records of this run "
                             f"({path.name} appeared during the run; records are never "
                             "replaced)", str(folder))
        text = format_document(as_record(game, record).to_document())
        header = f"# partysolver simulate {game}: game {index + 1} of {games}, seed {seed}"
        seats = _seating(game, record, result.policies)
        paths.write_atomically(path, f"{header}{seats}\n{text}")
        written.append(path)
    return written


def as_record(game: str, record: GameRecord) -> Record:
    """A simulated game as a game record (the steps as played: who took each is found again
    when the record is read)."""
    assert record.played is not None
    return Record(game, dict(record.played.start), tuple(
        Step(number, "", move) for number, move in enumerate(record.played.steps, 1)))


def _seating(game: str, record: GameRecord, policies: tuple[str, ...]) -> str:
    """``: Blue greedy, Green random`` (each seat's player and policy), when the game names
    its seats."""
    commands = commands_for(game)
    played = record.played
    if commands is None or played is None:
        return ""
    position: Any = playable(document(played.start, f"simulated {game} game"))
    state = full_state(position)
    if state is None:
        return ""
    names = commands.seat_names(state)
    return ": " + ", ".join(f"{name} {policies[record.seating[seat]]}"
                            for seat, name in enumerate(names))


__all__ = ["OPTION", "as_record", "check_folder", "notation", "noted", "record_name", "write"]

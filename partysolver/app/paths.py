"""Output files: checked before any work, written whole or not at all.

Only click-free code (errors are :class:`InputError`, which the command group turns into one
line and exit code 2), so that every front end can use it.

Every verb that writes checks each of its outputs here, *before* it solves, simulates or
generates anything: :func:`check_output` for a file, :func:`check_folder` for a folder of new
files (``generate --out``, ``simulate --records``), and :func:`check_distinct` when one command
writes two outputs.  They refuse, in one line naming the option, every output that would fail
or lose something: a missing folder, a folder we cannot write into (``/proc``), a name too long
for the file system (the file's or any folder's on the way), a NUL character, the input itself,
a folder, the wrong suffix, or (without ``--force``) an existing file of another kind, or any
existing file for an output that only writes new files (:func:`nothing`); and two outputs of
one command that name the same file.  Whatever the file system answers (every
:class:`OSError`) is such a line, never a traceback.  :func:`write_atomically` then writes
through a temporary file in the same folder, so a failure leaves the old file as it was.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from ..models.errors import InputError

TEMPORARY_PREFIX = ".partysolver-"
"""Temporary files are named ``.partysolver-`` and eight random characters (short: any name
that fits, fits)."""


def check_output(path: Path, option: str, suffix: str | tuple[str, ...],
                 source: str | None = None, force: bool = False,
                 replaceable: Callable[[bytes], bool] | None = None,
                 input_when_forced: bool = False, forcible: bool = True) -> None:
    """Refuse ``path`` as the output of ``option`` (see the module's text): its name must end
    in ``suffix`` (one of them, when several).  ``replaceable`` tells, from its first 512 bytes,
    a file this command may replace without ``force`` (by default: any; :func:`nothing`: none,
    only a new file).  The input file itself is refused, unless ``force`` and
    ``input_when_forced`` (a command that may replace its input when told to).  ``forcible``:
    the command has a ``--force`` that the message may suggest."""
    text = str(path)
    suffixes = (suffix,) if isinstance(suffix, str) else suffix

    def refuse(expected: str) -> InputError:
        return InputError(option, None, expected, text)

    with _system_errors(refuse):
        _check_file(path, refuse, suffixes, source, force, replaceable, input_when_forced,
                    forcible)


def _check_file(path: Path, refuse: Callable[[str], InputError], suffixes: tuple[str, ...],
                source: str | None, force: bool, replaceable: Callable[[bytes], bool] | None,
                input_when_forced: bool, forcible: bool) -> None:
    if "\0" in str(path):
        raise refuse("a file name without NUL characters")
    directory = path.parent if str(path.parent) else Path(".")
    if not directory.is_dir():
        raise refuse("a file in an existing folder")
    _check_name(path.name, directory, refuse, "file")
    if path.is_dir():
        raise refuse("a file, not a folder")
    if source is not None and same_file(path, source) and not (force and input_when_forced):
        raise refuse("a new file, not the input file"
                     + (" (--force replaces it)" if input_when_forced else ""))
    if path.suffix.lower() not in suffixes:
        raise refuse(f"a file name ending in {' or '.join(suffixes)}")
    if path.exists() and not force and replaceable and not replaceable(_head(path)):
        if replaceable is nothing:
            raise refuse("a new file, not an existing one"
                         + (" (--force replaces it)" if forcible else ""))
        raise refuse(f"a new file or a {path.suffix.lower()} file to replace"
                     + (" (--force replaces any file)" if forcible else ""))
    _probe(directory, refuse)


def check_folder(folder: Path, option: str, names: Sequence[str]) -> None:
    """Refuse ``folder`` as the output of ``option``, which writes the new files ``names`` in
    it (made if missing, in an existing folder): it must be a folder, or a name for one, where
    we can write, and hold none of ``names`` (they are never replaced); each name must fit the
    file system."""
    text = str(folder)

    def refuse(expected: str) -> InputError:
        return InputError(option, None, expected, text)

    with _system_errors(refuse):
        if "\0" in text:
            raise refuse("a folder name without NUL characters")
        if folder.exists() and not folder.is_dir():
            raise refuse("a folder (this is a file)")
        if not folder.is_dir():
            parent = folder.parent if str(folder.parent) else Path(".")
            if not parent.is_dir():
                raise refuse("a folder in an existing folder")
            _check_name(folder.name, parent, refuse, "folder")
            _probe(parent, refuse, folder=True)
            for name in names:  # the new folder's names are the parent's file system's
                _check_name(name, parent, refuse, "file")
            return
        taken = [name for name in names if (folder / name).exists()]
        if taken:
            raise refuse(f"a folder without the files this command writes ({taken[0]} exists "
                         "already; they are never replaced)")
        for name in names:
            _check_name(name, folder, refuse, "file")
        if names:  # one probe: the others differ only in their names, checked above
            _check_file(folder / names[0], refuse, (Path(names[0]).suffix.lower(),), None,
                        False, nothing, False, False)


def check_distinct(outputs: Sequence[tuple[str, Path | None]]) -> None:
    """Refuse two outputs of one command (``(option, path)``, ``None`` when not given) that
    name the same file, however written (``./a.toml``, a link to it, ``x/../a.toml``): the
    second write would lose the first."""
    seen: dict[Path, str] = {}
    for option, path in outputs:
        if path is None:
            continue

        def refuse(expected: str, option: str = option, path: Path = path) -> InputError:
            return InputError(option, None, expected, str(path))

        with _system_errors(refuse):
            resolved = path.resolve()
        if resolved in seen:
            raise refuse(f"a file other than {seen[resolved]}'s (one would overwrite the "
                         "other)")
        seen[resolved] = option


def nothing(head: bytes) -> bool:
    """For :func:`check_output`'s ``replaceable``: no existing file may be replaced (without
    ``force``), the output must be a new file."""
    return False


def same_file(path: Path, source: str) -> bool:
    """Whether ``path`` is the file ``source`` names."""
    return path.exists() and Path(source).exists() and path.resolve() == Path(source).resolve()


@contextmanager
def _system_errors(refuse: Callable[[str], InputError]) -> Iterator[None]:
    """Whatever the file system answers while an output is checked (a folder name too long
    on the way, a loop of links, a folder we may not look into) as the one-line refusal."""
    try:
        yield
    except OSError as error:
        raise refuse(f"a path the file system accepts ({error.strerror or error})") from None


def _check_name(name: str, directory: Path, refuse: Callable[[str], InputError],
                what: str) -> None:
    limit = _name_max(directory)
    if len(os.fsencode(name)) > limit:
        raise refuse(f"a {what} name of at most {limit} bytes")


def _name_max(directory: Path) -> int:
    try:
        return os.pathconf(directory, "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):
        return 255


def _probe(directory: Path, refuse: Callable[[str], InputError], folder: bool = False) -> None:
    """Create and remove a temporary file (or ``folder``) where the output will go: the
    folder is writable."""
    try:
        if folder:
            os.rmdir(tempfile.mkdtemp(prefix=TEMPORARY_PREFIX, dir=directory))
            return
        handle, temporary = tempfile.mkstemp(prefix=TEMPORARY_PREFIX, dir=directory)
    except OSError as error:
        raise refuse(f"a {'folder' if folder else 'file'} in a folder we can write into "
                     f"({error.strerror})") from None
    os.close(handle)
    os.unlink(temporary)


def _head(path: Path) -> bytes:
    try:
        with path.open("rb") as handle:
            return handle.read(512)
    except OSError:
        return b""


def write_atomically(path: Path, data: str | bytes | Callable[[BinaryIO], None]) -> None:
    """Write ``data`` to ``path`` through a temporary file: a failure (or Ctrl+C) leaves
    ``path`` as it was.  ``data`` may be a function that writes to the open file (a big
    output written in parts).  The file gets the usual permissions (those of a replaced file,
    else the umask's); its folder exists (:func:`check_output` said so before any work)."""
    if path.exists():
        mode = path.stat().st_mode & 0o777
    else:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    handle, temporary = tempfile.mkstemp(prefix=TEMPORARY_PREFIX, dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            if callable(data):
                data(out)
            else:
                out.write(data.encode("utf-8") if isinstance(data, str) else data)
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise

"""Output files: checked before any work, written whole or not at all.

Only click-free code (errors are :class:`InputError`, which the command group turns into one
line and exit code 2), so that every front end can use it.

:func:`check_output` refuses, in one line naming the option, every output path that would fail
or lose something, *before* a command solves or simulates anything: a missing folder, a folder
we cannot write into (``/proc``), a name too long for the file system, a NUL character, the
input itself, a folder, the wrong suffix, or (without ``--force``) an existing file of another
kind, or any existing file for an output that only writes new files (:func:`nothing`).
:func:`write_atomically` then writes through a temporary file in the same folder, so a failure
leaves the old file as it was.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

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

    if "\0" in text:
        raise refuse("a file name without NUL characters")
    directory = path.parent if str(path.parent) else Path(".")
    if not directory.is_dir():
        raise refuse("a file in an existing folder")
    limit = _name_max(directory)
    if len(os.fsencode(path.name)) > limit:
        raise refuse(f"a file name of at most {limit} bytes")
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


def nothing(head: bytes) -> bool:
    """For :func:`check_output`'s ``replaceable``: no existing file may be replaced (without
    ``force``), the output must be a new file."""
    return False


def same_file(path: Path, source: str) -> bool:
    """Whether ``path`` is the file ``source`` names."""
    return path.exists() and Path(source).exists() and path.resolve() == Path(source).resolve()


def _name_max(directory: Path) -> int:
    try:
        return os.pathconf(directory, "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):
        return 255


def _probe(directory: Path, refuse: Callable[[str], InputError]) -> None:
    """Create and remove a temporary file where the output will go: the folder is writable."""
    try:
        handle, temporary = tempfile.mkstemp(prefix=TEMPORARY_PREFIX, dir=directory)
    except OSError as error:
        raise refuse(f"a file in a folder we can write into ({error.strerror})") from None
    os.close(handle)
    os.unlink(temporary)


def _head(path: Path) -> bytes:
    try:
        with path.open("rb") as handle:
            return handle.read(512)
    except OSError:
        return b""


def write_atomically(path: Path, data: str | bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file: a failure leaves ``path`` as it was.
    The file gets the usual permissions (those of a replaced file, else the umask's); its
    folder exists (:func:`check_output` said so before any work)."""
    if path.exists():
        mode = path.stat().st_mode & 0o777
    else:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    handle, temporary = tempfile.mkstemp(prefix=TEMPORARY_PREFIX, dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data.encode("utf-8") if isinstance(data, str) else data)
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise

"""Reading and writing position files: TOML for people, JSON with the same schema for programs.

:class:`Fields` walks a parsed document and remembers the path of every field, so that every
error names the file, the field and what was expected.  Each loader calls :meth:`Fields.done`
on every table it reads, which rejects unknown fields (with a "did you mean" where one is close).
"""

from __future__ import annotations

import difflib
import json
import re
import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import tomli_w

from .errors import MISSING, InputError
from .numbers import MAX_DIGITS, digits

MAX_DEPTH = 32
"""How deeply tables and lists may nest in a document (no format needs more than a few levels;
a deeper document is refused before anything recurses into it)."""

MAX_BYTES = 16 * 1024 * 1024
"""The largest document file read, in bytes (the longest record of a long game is some
hundred kilobytes; a bigger file, or one that never ends such as ``/dev/zero``, is refused
after reading this much, not read into memory whole)."""


def read_text(path: str | Path, source: str | None = None, field: str | None = None,
              what: str = "file") -> str:
    """The UTF-8 text of the file at ``path``.  Every way of failing is an :class:`InputError`:
    naming the path itself, or, when another file or an option named it, that ``source`` (a
    position file, or an option such as ``--house``), its ``field`` and ``what`` it should be."""
    try:
        with Path(path).open("rb") as handle:
            data = handle.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            expected = f"a {what} of at most {MAX_BYTES // 1024 // 1024} MiB"
        else:
            # as text mode reads it: \r\n and \r are new lines
            return data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
    except FileNotFoundError:
        expected = f"an existing {what}"
    except IsADirectoryError:
        expected = f"a {what}, not a directory"
    except UnicodeDecodeError as error:
        expected = f"UTF-8 text (byte {error.start} is not)"
    except ValueError:  # an embedded NUL character: no file can have that name
        expected = f"a {what} name without NUL characters"
    except OSError as error:
        expected = f"a readable {what} ({error.strerror})"
    if source is None:
        raise InputError(str(path), None, expected)
    raise InputError(source, field, expected, str(path))


def read_document(path: str | Path, refer: tuple[str, str | None, str] | None = None
                  ) -> tuple[dict[str, Any], str]:
    """Parse a TOML or JSON file (by suffix; ``-`` reads standard input).  Returns (doc, source).

    ``refer`` = (source, field, what): the file or option that named ``path``, its field and
    what the file should be (see :func:`read_text`).  A file named so is never standard input
    (``-`` there is a file name: standard input holds the document that named it, if any)."""
    source = str(path)
    if source == "-" and refer is None:
        import sys

        try:
            text = sys.stdin.read(MAX_BYTES + 1)
        except UnicodeDecodeError:
            raise InputError("<stdin>", None, "UTF-8 text") from None
        if len(text) > MAX_BYTES:
            raise InputError("<stdin>", None, f"a document of at most "
                             f"{MAX_BYTES // 1024 // 1024} MiB")
        source = "<stdin>"
    elif refer is not None:
        text = read_text(path, *refer)
    else:
        text = read_text(path)
    return parse_document(text, source), source


def parse_document(text: str, source: str) -> dict[str, Any]:
    """Parse TOML, or JSON when the source ends in ``.json`` or the text starts with ``{``.

    Every document is checked once here for what no format allows: nesting deeper than
    :data:`MAX_DEPTH`, integers of more than :data:`~partysolver.models.numbers.MAX_DIGITS`
    digits, and strings (keys or values) holding a NUL character or a lone surrogate (which no
    file encoding can write back).  Whatever the text, the parsers' every way of failing is an
    :class:`InputError`."""
    if source.endswith(".json") or text.lstrip().startswith("{"):
        try:
            data = json.loads(text, object_pairs_hook=_unique_keys, parse_int=_json_int)
        except json.JSONDecodeError as error:
            raise InputError(
                source, f"line {error.lineno} column {error.colno}", f"valid JSON ({error.msg})"
            ) from None
        except _DuplicateKey as error:
            raise InputError(source, str(error), "each key once in an object, not twice "
                             "(TOML refuses duplicates too)") from None
        except RecursionError:
            raise InputError(source, None, f"lists and objects nested at most {MAX_DEPTH} "
                             "deep") from None
        except ValueError as error:  # none is known (the hook keeps integers short): a guard
            raise InputError(source, None, f"valid JSON ({error})") from None
        if not isinstance(data, dict):
            raise InputError(source, None, "a JSON object at the top level", data)
    else:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            raise InputError(source, None, f"valid TOML ({error})") from None
        except RecursionError:
            raise InputError(source, None, f"arrays and tables nested at most {MAX_DEPTH} "
                             "deep") from None
        except ValueError as error:  # int() refused a decimal integer of over 4,300 digits
            raise InputError(source, _long_integer_line(text), _INTEGER) if _long_integer(
                error) else InputError(source, None, f"valid TOML ({error})") from None
    check_values(data, source)
    return data


_INTEGER = f"an integer of at most {MAX_DIGITS} digits"
_TOO_BIG = 10**MAX_DIGITS


class _LongInteger:
    """What the JSON parser makes of an integer of more than ``MAX_DIGITS`` digits, without
    converting it (:func:`check_values` then refuses it, naming its field)."""


_LONG = _LongInteger()


def _json_int(text: str) -> int | _LongInteger:
    return _LONG if digits(text) > MAX_DIGITS else int(text)


def _long_integer(error: ValueError) -> bool:
    return "integer string conversion" in str(error)


def _long_integer_line(text: str) -> str | None:
    """Where the first run of more than 4,300 digits is in a TOML text (for a message)."""
    found = re.search(r"[0-9](?:_?[0-9]){4300}", text)
    return f"line {text.count(chr(10), 0, found.start()) + 1}" if found else None


def check_values(document: Mapping[str, Any], source: str) -> None:
    """Refuse nesting deeper than :data:`MAX_DEPTH`, integers of more than
    :data:`~partysolver.models.numbers.MAX_DIGITS` digits and strings with a NUL character or a
    lone surrogate, naming the field.  Iterative, so that it cannot itself recurse too deep."""
    stack: list[tuple[Any, str, int]] = [(document, "", 0)]
    while stack:
        value, path, depth = stack.pop()
        if isinstance(value, str):
            _check_string(value, source, path)
            continue
        if value is _LONG or (isinstance(value, int) and abs(value) >= _TOO_BIG):
            raise InputError(source, path or None, _INTEGER)
        if not isinstance(value, dict | list):
            continue
        if depth >= MAX_DEPTH:
            raise InputError(source, path or None,
                             f"lists and tables nested at most {MAX_DEPTH} deep")
        if isinstance(value, dict):
            for key, item in value.items():
                name = str(key) if _BARE_KEY.fullmatch(str(key)) else json.dumps(str(key))
                field = f"{path}.{name}" if path else name
                _check_string(str(key), source, path or None, key=True)
                stack.append((item, field, depth + 1))
        else:
            stack.extend((item, item_path(path, i), depth + 1) for i, item in enumerate(value))


def _check_string(text: str, source: str, field: str | None, key: bool = False) -> None:
    what = "a key" if key else "text"
    if "\x00" in text:
        raise InputError(source, field, f"{what} without NUL characters", text)
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise InputError(source, field, f"{what} without lone surrogates (a \\ud800 to "
                             "\\udfff escape that is not half of a pair)", text) from None


class _DuplicateKey(ValueError):
    """A JSON object names one key twice (``json`` would silently keep the last)."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise _DuplicateKey(key)
        found[key] = value
    return found


def format_document(document: Mapping[str, Any], as_json: bool = False) -> str:
    """The text of a document, as TOML or as indented JSON."""
    if as_json:
        return json.dumps(document, indent=2) + "\n"
    return tomli_w.dumps(_drop_none(document))


def _drop_none(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _drop_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, list | tuple):
        return [_drop_none(v) for v in value]
    return value


_BARE_KEY = re.compile(r"[^\s\"']+")
"""A key written as it is in a field path; any other (empty, or with spaces or quotes) is
quoted.  Callers may pass a path such as ``players[1]`` as a key: it stays as written."""


def item_path(path: str, index: int) -> str:
    """The field path of item ``index`` (counted from 0 in code) of the list at ``path``, counted
    from 1 as every message and report counts: ``players[1]`` is the first player, ``events[4]``
    the fourth event."""
    return f"{path}[{index + 1}]"


class Fields:
    """A table of a document, with its path, that hands out typed fields and remembers reads."""

    def __init__(self, data: Mapping[str, Any], source: str, path: str = "") -> None:
        if not isinstance(data, Mapping):
            raise InputError(source, path or None, "a table", data)
        self.data = data
        self.source = source
        self.path = path
        self._read: set[str] = set()

    # -- paths and errors ---------------------------------------------------------------------

    def field(self, key: str | int) -> str:
        if isinstance(key, int):
            return item_path(self.path, key)
        if not _BARE_KEY.fullmatch(key):  # "" or "my key": quoted, as TOML writes it
            key = json.dumps(key)
        return f"{self.path}.{key}" if self.path else key

    def error(self, key: str | int | None, expected: str, got: Any = MISSING) -> InputError:
        return InputError(self.source, self.field(key) if key is not None else self.path or None,
                          expected, got)

    # -- fields -------------------------------------------------------------------------------

    def has(self, key: str) -> bool:
        return key in self.data

    def keys(self) -> Iterator[str]:
        return iter(self.data.keys())

    def raw(self, key: str, default: Any = MISSING) -> Any:
        self._read.add(key)
        if key in self.data:
            return self.data[key]
        if default is MISSING:
            raise self.error(key, "this field (it is required)")
        return default

    def text(self, key: str, default: Any = MISSING, choices: Any = None) -> Any:
        value = self.raw(key, default)
        if value is default and default is not MISSING:
            return value
        if not isinstance(value, str):
            raise self.error(key, "a string", value)
        if choices is not None and value not in choices:
            raise self.error(key, "one of " + ", ".join(map(repr, choices)), value)
        return value

    def integer(self, key: str, default: Any = MISSING, minimum: int | None = None,
            maximum: int | None = None) -> Any:
        value = self.raw(key, default)
        if value is default and default is not MISSING:
            return value
        return check_int(value, self.source, self.field(key), minimum, maximum)

    def number(self, key: str, default: Any = MISSING, minimum: float | None = None,
              maximum: float | None = None) -> Any:
        value = self.raw(key, default)
        if value is default and default is not MISSING:
            return value
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.error(key, "a number", value)
        if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
            raise self.error(key, f"a number from {minimum} to {maximum}", value)
        return float(value)

    def flag(self, key: str, default: Any = MISSING) -> Any:
        value = self.raw(key, default)
        if not isinstance(value, bool):
            raise self.error(key, "true or false", value)
        return value

    def array(self, key: str, default: Any = MISSING) -> Any:
        value = self.raw(key, default)
        if value is default and default is not MISSING:
            return value
        if not isinstance(value, list):
            raise self.error(key, "a list", value)
        return value

    def table(self, key: str, default: Any = MISSING) -> Any:
        value = self.raw(key, default)
        if value is default and default is not MISSING:
            return value
        return Fields(value, self.source, self.field(key))

    def tables(self, key: str, default: Any = MISSING) -> Any:
        """A list of tables (TOML ``[[key]]``)."""
        items = self.array(key, default)
        if items is default and default is not MISSING:
            return items
        return [Fields(item, self.source, item_path(self.field(key), i))
                for i, item in enumerate(items)]

    def done(self) -> None:
        """Reject every field that was never read: it is unknown to this format."""
        unknown = [k for k in self.data if k not in self._read]
        if unknown:
            key = unknown[0]
            close = difflib.get_close_matches(key, [k for k in self._read if k not in self.data]
                                              or list(self._read), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            known = ", ".join(sorted(self._read)) or "none"
            raise self.error(key, f"a known field{hint}; this table takes: {known}", key)


def check_int(value: Any, source: str, field: str, minimum: int | None = None,
              maximum: int | None = None) -> int:
    """A field that must be an integer within bounds."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(source, field, "an integer", value)
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        if maximum is None:
            bounds = f"an integer of at least {minimum}"
        elif minimum is None:
            bounds = f"an integer of at most {maximum}"
        else:
            bounds = f"an integer from {minimum} to {maximum}"
        raise InputError(source, field, bounds, value)
    return value

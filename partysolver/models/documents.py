"""Reading and writing position files: TOML for people, JSON with the same schema for programs.

:class:`Fields` walks a parsed document and remembers the path of every field, so that every
error names the file, the field and what was expected.  Each loader calls :meth:`Fields.done`
on every table it reads, which rejects unknown fields (with a "did you mean" where one is close).
"""

from __future__ import annotations

import difflib
import json
import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import tomli_w

from .errors import MISSING, InputError


def read_document(path: str | Path) -> tuple[dict[str, Any], str]:
    """Parse a TOML or JSON file (by suffix; ``-`` reads standard input).  Returns (doc, source)."""
    source = str(path)
    try:
        if source == "-":
            import sys

            text = sys.stdin.read()
            source = "<stdin>"
        else:
            text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(source, None, "an existing file") from None
    except IsADirectoryError:
        raise InputError(source, None, "a file, not a directory") from None
    except UnicodeDecodeError:
        raise InputError(source, None, "UTF-8 text") from None
    except OSError as error:
        raise InputError(source, None, f"a readable file ({error.strerror})") from None
    return parse_document(text, source), source


def parse_document(text: str, source: str) -> dict[str, Any]:
    """Parse TOML, or JSON when the source ends in ``.json`` or the text starts with ``{``."""
    if source.endswith(".json") or text.lstrip().startswith("{"):
        try:
            data = json.loads(text, object_pairs_hook=_unique_keys)
        except json.JSONDecodeError as error:
            raise InputError(
                source, f"line {error.lineno} column {error.colno}", f"valid JSON ({error.msg})"
            ) from None
        except _DuplicateKey as error:
            raise InputError(source, str(error), "each key once in an object, not twice "
                             "(TOML refuses duplicates too)") from None
        if not isinstance(data, dict):
            raise InputError(source, None, "a JSON object at the top level", data)
        return data
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise InputError(source, None, f"valid TOML ({error})") from None


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
            return f"{self.path}[{key}]"
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
        return [Fields(item, self.source, self.field(key) + f"[{i}]")
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

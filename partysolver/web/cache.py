"""Work never done twice (issue 29, item 1): the web's answers, kept by what determines them.

A job's answer is a function of its game, its verb (the job's kind and, for a report, the
verb), the document in a canonical form (parsed, then written as sorted JSON: the same
position as TOML or JSON text, or as a JSON object, is one document), the name it goes by in
messages, its options and the job's own fields (moves, answer).  :func:`key_of` digests all of
it.  The time limit is no part of the key unless the request is seeded (a seeded run repeats
itself exactly, so only the same budget may answer for it).

:class:`AnswerCache` keeps the answers (200s only), least recently used first out, within
:data:`MAX_ENTRIES` answers and :data:`MAX_BYTES` of their JSON.  An answer is reused when it
is *exact* (:func:`is_exact`: a proved hint or solve, a picture without the hint, a document
inspected, moves applied without an unseeded draw), or when the time limit it had is no
shorter than the one asked: a longer search answers at least as well as a shorter one.  A job
whose answer is random and unseeded (moves applied with ``random`` and no ``seed``) is never
kept: its client asked for a fresh draw.
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from ..models.documents import parse_document

MAX_ENTRIES = 2048
"""The most answers kept."""

MAX_BYTES = 64 * 1024 * 1024
"""The most bytes of answers (as JSON) kept."""

PROVED_SOLVES = ("optimal", "infeasible", "solvable", "unsolvable")
"""The statuses of a solve that are proofs, not the best found in the time."""


def canonical(document: dict[str, Any]) -> Any:
    """The document part of a job (:func:`jobs.load`'s ``example``, ``text`` or ``data``), in
    the form that makes equal documents equal."""
    example, text, data = document.get("example"), document.get("text"), document.get("data")
    if example is not None:
        return ["example", example]
    if isinstance(text, str):
        try:
            return ["data", parse_document(text, "document")]
        except Exception:  # bad input: the job answers it; the text itself is its key
            return ["text", text]
    return ["data", data]


def key_of(kind: str, args: dict[str, Any]) -> str | None:
    """The digest of what determines the answer of job ``kind`` with ``args``, or ``None`` for
    a job whose answer must not be reused (an unseeded random draw)."""
    from . import jobs

    if kind == "apply" and args.get("random") and args.get("seed") is None:
        return None
    options = dict(args.get("options") or {})
    if options.get("seed") is None:
        options.pop("time_limit", None)
    document = dict(args.get("document") or {})
    text = document.get("text")
    source = jobs.source_name(document.get("filename"), text if isinstance(text, str) else "{")
    rest = {key: value for key, value in args.items() if key not in ("document", "options")}
    whole = {"kind": kind, "document": canonical(document), "source": source,
             "options": options, "rest": rest}
    try:
        text = json.dumps(whole, sort_keys=True, separators=(",", ":"), default=repr)
    except (TypeError, ValueError):
        return None
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def is_exact(kind: str, args: dict[str, Any], data: dict[str, Any]) -> bool:
    """Whether an answer holds for any time limit: no search cut it short."""
    if kind == "verb":
        verb = args.get("verb")
        if verb == "hint":
            return data.get("status") == "exact"
        if verb == "solve":
            return data.get("status") in PROVED_SOLVES
        return False
    if kind == "render":
        return not (args.get("options") or {}).get("hint")
    return kind in ("apply", "inspect")


@dataclass
class Entry:
    data: dict[str, Any]
    limit: float
    exact: bool
    size: int


class AnswerCache:
    """The answers, by :func:`key_of`; see the module."""

    def __init__(self, max_entries: int = MAX_ENTRIES, max_bytes: int = MAX_BYTES) -> None:
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self._entries: OrderedDict[str, Entry] = OrderedDict()
        self.bytes = 0
        self.hits = 0
        self.misses = 0
        self.twins = 0
        """Requests that waited for an identical one being computed."""

    def get(self, key: str, limit: float) -> dict[str, Any] | None:
        """The answer kept for ``key``, when it is exact or had a time limit of at least
        ``limit``."""
        entry = self._entries.get(key)
        if entry is None or not (entry.exact or entry.limit >= limit):
            self.misses += 1
            return None
        self._entries.move_to_end(key)
        self.hits += 1
        return entry.data

    def put(self, key: str, data: dict[str, Any], limit: float, exact: bool) -> None:
        """Keep ``data`` (the answer of a job with time limit ``limit``), unless a better
        answer is kept already (exact, or from a longer search)."""
        old = self._entries.get(key)
        if old is not None and (old.exact or old.limit > limit) and not exact:
            return
        try:
            size = len(json.dumps(data, separators=(",", ":"))) + len(key)
        except (TypeError, ValueError):
            return
        if size > self.max_bytes // 8:
            return  # one answer never takes much of the room
        if old is not None:
            self._drop(key)
        self._entries[key] = Entry(data, limit, exact, size)
        self.bytes += size
        while len(self._entries) > self.max_entries or self.bytes > self.max_bytes:
            self._drop(next(iter(self._entries)))

    def _drop(self, key: str) -> None:
        entry = self._entries.pop(key)
        self.bytes -= entry.size

    def __len__(self) -> int:
        return len(self._entries)

    def status(self) -> dict[str, Any]:
        return {"entries": len(self._entries), "bytes": self.bytes,
                "max_entries": self.max_entries, "max_bytes": self.max_bytes,
                "hits": self.hits, "misses": self.misses, "twins": self.twins}

"""The terminal side of ``partysolver play``: lines in, replies out, a prompt and Tab
completion on a terminal; the session itself is :class:`partysolver.app.session.Session`.

On a terminal (standard input is a TTY) each line is read with a prompt naming the step and
who acts, through ``readline`` where Python has it: Tab completes the canonical spelling of the
legal moves and the commands, and the arrow keys recall earlier lines.  From a pipe or a file,
lines are read as they come and no prompt is printed, so that a scripted session prints what
an interactive one does, minus the prompts; the end of the input ends the session.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TextIO

from ..app.session import Session


def complete_with(session: Session) -> Callable[[str, int], str | None]:
    """A ``readline`` completer over the whole line typed so far."""
    found: list[str] = []

    def complete(text: str, state: int) -> str | None:
        if state == 0:
            found[:] = session.completions(text)
        return found[state] if state < len(found) else None

    return complete


def _readline() -> Any:
    try:
        import readline
    except ImportError:  # Python built without it (Windows): no completion, plain input
        return None
    return readline


def use_readline(session: Session) -> None:
    """Tab completion of moves and commands, when ``readline`` exists."""
    readline = _readline()
    if readline is None:
        return
    readline.set_completer(complete_with(session))
    readline.set_completer_delims("")  # complete the whole line: spellings hold spaces
    if "libedit" in (readline.__doc__ or ""):
        readline.parse_and_bind("bind ^I rl_complete")
    else:
        readline.parse_and_bind("tab: complete")


NOT_TEXT = "bad input: standard input: expected a line of UTF-8 text"


def _read_line(stdin: TextIO) -> str:
    """The next line from a pipe (``""`` at its end), read as bytes and decoded alone, so that
    a line that is not UTF-8 is refused by itself (:class:`UnicodeDecodeError`) and the lines
    after it are still read."""
    raw = getattr(stdin, "buffer", None)
    if raw is None:
        return stdin.readline()
    data: bytes = raw.readline()
    return data.decode("utf-8")


def converse(session: Session, show: Callable[[str], None], stdin: TextIO | None = None,
             interactive: bool | None = None) -> None:
    """Read lines until ``quit`` or the end of the input, showing each reply."""
    stdin = stdin or sys.stdin
    if interactive is None:
        interactive = stdin.isatty() and sys.stdout.isatty()
    if interactive:
        use_readline(session)
    show(session.intro())
    while True:
        try:
            line = input(session.prompt()) if interactive else _read_line(stdin)
        except EOFError:
            if interactive:
                show("")
            return
        except UnicodeDecodeError:  # the line is dropped, as a bad line is; the rest is read
            show(NOT_TEXT)
            continue
        except KeyboardInterrupt:  # Ctrl-C drops the line typed; 'quit' or Ctrl-D ends
            show("\n(interrupted: 'quit' ends the session)")
            continue
        if not interactive and not line:
            return
        try:
            reply = session.handle(line)
        except KeyboardInterrupt:  # a long hint cut short
            show("interrupted")
            continue
        if reply.text:
            show(reply.text)
        if reply.done:
            return


__all__ = ["complete_with", "converse", "use_readline"]

"""The ``partysolver`` command: the command line (:mod:`partysolver.cli`) with the web board
(:mod:`partysolver.web`) behind its ``serve``.

The one module that knows both front ends, above them both: neither imports the other (the
layers contract, ``tests/test_layers.py``), so this composition root hands the command line the
board it starts.  The board loads only when ``serve`` runs (start-up).
"""

from __future__ import annotations

from .cli import main as command_line
from .cli.main import cli


def board() -> command_line.Board:
    """The web board (Starlette, uvicorn: imported only for ``serve``)."""
    from .web import server

    return server


command_line.BOARD = board


def main() -> None:
    """The ``partysolver`` command (``python -m partysolver`` too)."""
    command_line.main()


__all__ = ["cli", "main"]

"""``python -m partysolver``: the same as the ``partysolver`` command."""

from .console import main

main()

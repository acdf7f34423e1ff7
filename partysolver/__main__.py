"""``python -m partysolver``: the same as the ``partysolver`` command."""

from .cli.main import main

main()

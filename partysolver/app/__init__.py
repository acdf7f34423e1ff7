"""The application layer: per-game commands that turn a document and options into a report.

``cli`` (click) and ``web`` (the local web board) are two thin front ends on it: they parse
their input into a :class:`~partysolver.app.base.Document` and
:class:`~partysolver.app.base.Options`, call a verb of the game's
:class:`~partysolver.app.base.GameCommands` and print or serve the
:class:`~partysolver.app.base.Report` (text for people, data in the JSON contract).  Nothing
here imports click.  Dependencies point one way: ``cli, web -> app -> solvers -> models``.
"""

"""The web front end: ``partysolver serve``, a local analysis board and JSON API.

A second thin front end on the application layer, beside ``cli``: it parses HTTP input, calls
the app layer (in a bounded pool of worker processes) and serves the report.  It never imports
click.  Starlette on uvicorn: see :mod:`partysolver.web.app`.
"""

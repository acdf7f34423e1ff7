"""The ``partysolver`` command line (click)."""

"""Shared test set-up: this folder is importable, so every test can use :mod:`reports`."""

"""What the worker pool's forkserver imports once, before it forks any worker: every game's
commands and solvers (:func:`jobs.warm`), so that a worker starts warm and in a moment."""

from __future__ import annotations

from .jobs import warm

warm()

"""partysolver: solvers and puzzle analysis for five party board games.

``models`` holds the rules engines (one per game, one shared protocol), ``solvers`` the
generic and game-specific searches, ``puzzles`` the shipped instances, ``app`` the per-game
commands that turn a document into a report, and ``cli`` (and ``web``) the front ends on them.
"""

__version__ = "0.1.0"

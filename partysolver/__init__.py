"""partysolver: solvers and puzzle analysis for five party board games.

``models`` holds the rules engines (one per game, one shared protocol), ``solvers`` the
generic and game-specific searches, ``puzzles`` the shipped instances, ``cli`` the commands.
"""

__version__ = "0.1.0"

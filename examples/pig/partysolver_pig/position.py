"""Pig position files: the schema, the loader, the writer and ``problems()``.

TOML for people, JSON with the same schema for programs::

    game = "pig"
    goal = 100                 # optional: 100 unless given (2 to 1000)
    turn = "Ada"               # whose turn it is (a player's name)
    turn_total = 12            # optional: the points rolled this turn, not yet banked (0)
    rolling = false            # optional: true when the die is rolling (chance comes next)

    [[players]]                # in seat order, 2 to 6 of them
    name = "Ada"
    score = 45
    [[players]]
    name = "Ben"
    score = 60

Loading fails only on malformed input (:class:`~partysolver.models.errors.InputError`, naming
the file, the field and what was expected); a well-formed position that breaks the rules is
listed by :meth:`PigPosition.problems`, every problem at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from partysolver.models.documents import Fields
from partysolver.models.errors import Problem, require_no_problems

from .game import DEFAULT_GOAL, INFO, MAX_GOAL, MIN_GOAL
from .state import PigState


@dataclass(frozen=True)
class PigPosition:
    """A well-formed position file, before the rules are checked."""

    goal: int
    names: tuple[str, ...]
    scores: tuple[int, ...]
    turn: str
    turn_total: int
    rolling: bool

    def problems(self) -> list[Problem]:
        """Every rule problem of the position, at once."""
        found: list[Problem] = []
        count = len(self.names)
        if not INFO.min_players <= count <= INFO.max_players:
            found.append(Problem("player-count", f"Pig takes {INFO.min_players} to "
                                 f"{INFO.max_players} players, not {count}", "players"))
        seen: set[str] = set()
        for seat, name in enumerate(self.names):
            if name.casefold() in seen:
                found.append(Problem("duplicate-name", f"two players are called {name!r}",
                                     f"players[{seat}].name"))
            seen.add(name.casefold())
        if self.turn not in self.names:
            found.append(Problem("unknown-player", f"{self.turn!r} is none of the players "
                                 f"({', '.join(self.names)})", "turn"))
        winners = [seat for seat, score in enumerate(self.scores) if score >= self.goal]
        if len(winners) > 1:
            names = " and ".join(self.names[seat] for seat in winners)
            found.append(Problem("two-winners", f"{names} have both reached the goal "
                                 f"({self.goal}): the game ended when the first did",
                                 f"players[{winners[1]}].score"))
        if winners and (self.turn_total or self.rolling):
            found.append(Problem("play-after-the-end", f"{self.names[winners[0]]} has reached "
                                 "the goal, so the game is over: no turn is under way",
                                 "turn_total" if self.turn_total else "rolling"))
        if self.turn_total == 1:
            found.append(Problem("impossible-total", "a turn's total of 1 cannot be rolled "
                                 "(a 1 ends the turn with nothing; the other faces are 2 to 6)",
                                 "turn_total"))
        if not winners and self.turn in self.names and \
                self.scores[self.names.index(self.turn)] + self.turn_total >= self.goal:
            found.append(Problem("goal-reached", f"{self.turn}'s score plus the turn's total "
                                 f"reaches the goal ({self.goal}): the game is already won "
                                 "(give the banked score instead)", "turn_total"))
        return found

    def to_state(self, source: str) -> PigState:
        """The state of a position without problems (bad input otherwise)."""
        require_no_problems(self.problems(), source)
        winner = next((seat for seat, score in enumerate(self.scores) if score >= self.goal),
                      None)
        player = self.names.index(self.turn) if winner is None else winner
        return PigState(self.goal, self.names, self.scores, player, self.turn_total,
                        self.rolling)


def load_position(document: Mapping[str, Any], source: str) -> PigPosition:
    """The position of a Pig document (malformed input:
    :class:`~partysolver.models.errors.InputError`)."""
    fields = Fields(document, source)
    fields.text("game", choices=(INFO.key,))
    goal = fields.integer("goal", DEFAULT_GOAL, minimum=MIN_GOAL, maximum=MAX_GOAL)
    names: list[str] = []
    scores: list[int] = []
    for item in fields.tables("players"):
        name = item.text("name")
        if not name.strip():
            raise item.error("name", "a player's name (not empty)", name)
        names.append(name)
        scores.append(item.integer("score", 0, minimum=0, maximum=10 * MAX_GOAL))
        item.done()
    if not names:
        raise fields.error("players", "a list of players ([[players]] tables with name and "
                           "score)", [])
    turn = fields.text("turn", names[0])
    turn_total = fields.integer("turn_total", 0, minimum=0, maximum=MAX_GOAL)
    rolling = fields.flag("rolling", False)
    fields.done()
    return PigPosition(goal, tuple(names), tuple(scores), turn, turn_total, rolling)


def load_state(document: Mapping[str, Any], source: str) -> PigState:
    """The state of a Pig document; malformed input or a rule problem: ``InputError``."""
    return load_position(document, source).to_state(source)


def state_to_document(state: PigState) -> dict[str, Any]:
    """The position file of ``state`` (it loads back to an equal state)."""
    data: dict[str, Any] = {"game": INFO.key, "goal": state.goal,
                            "turn": state.names[state.player],
                            "turn_total": state.turn_total}
    if state.rolling:
        data["rolling"] = True
    data["players"] = [{"name": name, "score": score}
                       for name, score in zip(state.names, state.scores, strict=True)]
    return data


def describe_position(position: PigPosition) -> str:
    """The position in a few lines for people."""
    lines = [f"Pig to {position.goal}: " + ", ".join(
        f"{name} {score}" for name, score in zip(position.names, position.scores, strict=True))]
    winners = [n for n, s in zip(position.names, position.scores, strict=True)
               if s >= position.goal]
    if winners:
        lines.append(f"{winners[0]} has won")
    else:
        die = "; the die is rolling" if position.rolling else ""
        lines.append(f"{position.turn} to play, turn total {position.turn_total}{die}")
    return "\n".join(lines)


__all__ = ["PigPosition", "describe_position", "load_position", "load_state",
           "state_to_document"]

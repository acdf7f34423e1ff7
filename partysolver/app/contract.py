"""The JSON contract every game's reports follow, one shape per verb.

The shapes are shipped as JSON Schema (``partysolver/app/schemas/<verb>.json``, printed by
``partysolver schema VERB``) and every game builds its data with the helpers here, so that a
front end reads a hint, a solution or a verification the same way whatever the game:

- **hint**: ``to_move``, ``status`` (``exact``, ``estimate``, ``unknown``), ``value_text`` and
  ``moves`` best first, each with ``move`` (notation), ``value`` (higher is better for the player
  to move), ``reason``, ``figures`` and, for estimates, ``interval`` (``interval_text`` says what
  it covers); exact solvers add ``exact`` fractions;
- **solve**: ``status``, ``objective`` ``{name, text, value, bound}``, ``verdict``, ``solution``;
- **verify**: ``valid``, ``problems`` ``[{code, field, message}]``, ``verdict``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from importlib import resources
from typing import Any, Literal

from ..models.errors import Problem
from ..models.registry import game_keys

SCHEMA_VERBS = ("hint", "solve", "verify", "simulate", "render", "generate", "apply", "review")

HintStatus = Literal["exact", "estimate", "unknown"]
SolveStatus = Literal["optimal", "feasible", "infeasible", "unknown", "solvable", "unsolvable"]


@cache
def schema(verb: str) -> dict[str, Any]:
    """The JSON Schema of ``verb``'s ``--json`` output.  Its ``game`` is one of the games
    registered where it runs (the shipped files list this package's own; a game another
    installed package registers is one too: ``partysolver.models.registry``)."""
    if verb not in SCHEMA_VERBS:
        raise KeyError(verb)
    text = resources.files(__package__).joinpath("schemas", f"{verb}.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    game = data.get("properties", {}).get("game")
    if isinstance(game, dict) and "enum" in game:
        game["enum"] = list(game_keys())
    return data


def rounded(value: float | None, digits: int = 6) -> float | None:
    return None if value is None else round(value, digits)


def fraction_text(value: Fraction | None) -> str | None:
    if value is None:
        return None
    return str(value.numerator) if value.denominator == 1 else \
        f"{value.numerator}/{value.denominator}"


@dataclass(frozen=True)
class Move:
    """One ranked move of a hint."""

    move: str
    """The move in the game's notation."""
    value: float | None
    """One number, higher is better for the player to move (``None``: not searched)."""
    reason: str
    figures: Mapping[str, Any] = field(default_factory=dict)
    text: str | None = None
    """The move in words, when the notation is terse."""
    interval: tuple[float, float] | None = None
    exact: Fraction | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    """Further game-specific keys."""

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"move": self.move}
        if self.text is not None:
            data["text"] = self.text
        data |= {"value": rounded(self.value), "reason": self.reason,
                 "figures": dict(self.figures)}
        if self.interval is not None:
            data["interval"] = [rounded(self.interval[0]), rounded(self.interval[1])]
        if self.exact is not None:
            data["exact"] = fraction_text(self.exact)
        return data | dict(self.extra)


def hint_data(game: str, to_move: str, status: HintStatus, value_text: str,
              moves: Sequence[Move], interval_text: str | None = None, note: str | None = None,
              search: Mapping[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    """A hint in the contract's shape; ``extra`` are further game-specific keys.  ``search``
    always says ``compiled``: whether a compiled kernel answered (``false`` unless the game's
    search says so)."""
    data: dict[str, Any] = {"game": game, "to_move": to_move, "status": status,
                            "value_text": value_text}
    if interval_text is not None:
        data["interval_text"] = interval_text
    data["moves"] = [move.as_json() for move in moves]
    if note is not None:
        data["note"] = note
    data["search"] = dict(search or {})
    data["search"].setdefault("compiled", False)
    return data | extra


@dataclass(frozen=True)
class Objective:
    """What a solve optimises or decides, and how far it got."""

    name: str
    text: str
    value: float | None
    bound: float | None
    exact: Fraction | None = None

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name, "text": self.text,
                                "value": _plain(self.value), "bound": _plain(self.bound)}
        if self.exact is not None:
            data["exact"] = fraction_text(self.exact)
        return data


def _plain(value: float | None) -> float | int | None:
    if value is None:
        return None
    if isinstance(value, int) or float(value).is_integer():
        return int(value)
    return round(value, 6)


def solve_data(game: str, status: SolveStatus, objective: Objective, verdict: str,
               solution: Mapping[str, Any] | None, search: Mapping[str, Any] | None = None,
               **extra: Any) -> dict[str, Any]:
    """A solution in the contract's shape."""
    data: dict[str, Any] = {"game": game, "status": status, "objective": objective.as_json(),
                            "verdict": verdict,
                            "solution": None if solution is None else dict(solution)}
    if search is not None:
        data["search"] = dict(search)
    return data | extra


def problem_json(problem: Problem) -> dict[str, Any]:
    return {"code": problem.code, "field": problem.field, "message": problem.message}


def verify_data(game: str, problems: Sequence[Problem], verdict: str | None = None,
                **extra: Any) -> dict[str, Any]:
    """A verification in the contract's shape; the verdict defaults to the count of
    problems."""
    if verdict is None:
        verdict = ("valid: no problems found" if not problems else
                   f"invalid: {len(problems)} problem{'s' if len(problems) > 1 else ''}")
    return {"game": game, "valid": not problems, "problems": [problem_json(p) for p in problems],
            "verdict": verdict} | extra


WIN_INTERVAL_TEXT = ("win rates: 95% Wilson score interval of the expected win share (a tie "
                     "shares the win) of that seat or policy in games drawn like these (the "
                     "same set-up, seats, policies and options), not of any one game's "
                     "outcome; means: 95% interval of the expected value of that figure over "
                     "games drawn like these (Student's t; Wilson's for a figure within 0 and "
                     "1)")
"""What a simulation's intervals are intervals of (``interval_text`` of the JSON)."""

WIN_RATE_HEADER = ("win rate with the 95% interval of its expected value over games like "
                   "these; ties share")
"""The same, in a simulation table's heading."""


def simulation_data(game: str, result: Any, seat_names: Sequence[str], policies: Sequence[str],
                    rotate: bool, seat_figures: Sequence[Mapping[str, Any]] | None = None,
                    by_policy: Mapping[str, Mapping[str, Any]] | None = None,
                    figures: Mapping[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    """A simulation (a :class:`~partysolver.solvers.simulate.SimulationResult`) in the
    contract's shape: each seat's policy, win rate and figures; each policy's win rate over the
    seats it held (when several policies played); the table's figures."""
    rates = result.seat_rates()
    seats = []
    for seat, rate in enumerate(rates):
        entry: dict[str, Any] = {"seat": seat_names[seat],
                                 "policy": None if rotate else policies[seat % len(policies)],
                                 "win": rate.as_json()}
        if seat_figures is not None:
            entry["figures"] = dict(seat_figures[seat])
        seats.append(entry)
    if by_policy is None:
        by_policy = {name: {"win": rate.as_json()}
                     for name, rate in result.policy_rates().items()}
    if figures is None:
        figures = {name: figure.as_json() for name, figure in result.figures().items()}
    return {"game": game, "players": len(seat_names), "games": result.games,
            "policies": list(policies), "rotate": rotate, "interval_text": WIN_INTERVAL_TEXT,
            "seats": seats, "by_policy": dict(by_policy), "figures": dict(figures)} | extra

"""Puzzle mode: judging a player's own answer to a shipped (or uploaded) puzzle.

Whatever the front end, "check my answer" is one call, :func:`check`, answering in one shape
(``check`` in the JSON contract): ``correct`` (``true``, ``false``, or ``null`` when the solver
could not decide within its budget), a one-line ``verdict``, the ``problems`` of the answer and,
where the puzzle has a number to reach, the answer's ``value`` and the ``best``.

- a Pool Party Stars deduction puzzle: the answer is a rule (``Sport``, ``Forbidden Sport``),
  judged against ``solve``'s deduction;
- a Meeple Land layout puzzle: the answer is a layout, one placement a line or separated by
  ``;`` (``M07 at 0,2 turned 90``; the ``buy`` of the game notation and the file's ``@``/``r``
  short form read too; the pre-placed tiles may be left out or written out), judged by the
  park verifier (pool, overlaps, paths, budget and every
  requirement) and scored against the proven optimum (the file's recorded answer, else
  ``solve``);
- a Meeple Party scenario: the answer is ``yes`` (the goal can be reached) or ``no``, judged
  against ``solve``'s proof.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..models.errors import InputError, Problem
from .base import BadRequest, Document, Report, run
from .contract import problem_json

PLACEMENT = re.compile(
    r"^(?:buy\s+)?(?P<tile>[A-Za-z0-9_-]+)\s*(?:at|@)\s*\(?\s*(?P<x>-?\d+)\s*,\s*(?P<y>-?\d+)"
    r"\s*\)?\s*(?:(?:turned|rotated|r)\s*(?P<r>-?\d+)\s*°?(?:\s*degrees)?)?$", re.IGNORECASE)


def kind(document: Document) -> str | None:
    """What sort of puzzle ``document`` is (``rule``, ``layout``, ``yes-no``), ``None`` when it
    is no puzzle."""
    data = document.data
    if document.game == "pool-party-stars" and isinstance(data.get("puzzle"), Mapping):
        return "rule"
    if document.game == "meeple-land" and data.get("kind") == "puzzle":
        return "layout"
    if document.game == "meeple-party" and data.get("ordered") is True:
        return "yes-no"
    return None


def choices(game: str) -> list[str] | None:
    """The answers a player picks from, where there is a short list (``None``: free text)."""
    if game == "pool-party-stars":
        from ..models.pool_party_stars.game import ATTRIBUTES

        return [a.name.capitalize() for a in ATTRIBUTES]
    if game == "meeple-party":
        return ["yes", "no"]
    return None


def check(document: Document, answer: str, given: Mapping[str, Any] | None = None) -> Report:
    """The judgement of ``answer`` to the puzzle ``document``; ``given`` are solve options."""
    found = kind(document)
    if found is None:
        raise BadRequest(f"bad input: {document.source}: expected a puzzle (a Pool Party Stars "
                         "deduction puzzle, a Meeple Land layout puzzle or a Meeple Party "
                         "scenario) to check an answer against")
    if not isinstance(answer, str) or not answer.strip():
        raise BadRequest("bad input: answer: expected a non-empty text")
    options = dict(given or {})
    if found == "rule":
        return _check_rule(document, answer.strip(), options)
    if found == "layout":
        return _check_layout(document, answer, options)
    return _check_yes_no(document, answer.strip(), options)


def _data(game: str, correct: bool | None, verdict: str, answer: str,
          problems: list[Problem] | None = None, **extra: Any) -> dict[str, Any]:
    return {"game": game, "correct": correct, "verdict": verdict, "answer": answer,
            "problems": [problem_json(p) for p in problems or []]} | extra


def _check_rule(document: Document, answer: str, options: dict[str, Any]) -> Report:
    from ..models.pool_party_stars.game import ATTRIBUTES

    labels = {a.name.casefold(): a.name.capitalize() for a in ATTRIBUTES}
    word = re.sub(r"^forbidden\s+", "", answer, flags=re.IGNORECASE).strip().casefold()
    if word not in labels:
        raise BadRequest(f"bad input: answer: expected a rule ({', '.join(labels.values())}), "
                         f"got {answer!r}")
    guess = labels[word]
    solution = run("solve", document, options).data
    target = solution["solution"]["target"]
    rule = solution["solution"]["rule"]
    possible = solution["solution"]["possible"]
    if rule is None:
        correct = False
        verdict = (f"the clues do not pin {target}'s rule down ({', '.join(possible)} remain)"
                   + ("" if guess in possible else f"; and {guess} is already ruled out"))
    else:
        correct = guess == rule
        verdict = (f"right: {target}'s rule is Forbidden {rule}" if correct else
                   f"not {guess}: the clues rule it out" if guess not in possible else
                   f"not {guess}")
    data = _data(document.game, correct, verdict, guess, target=target)
    return Report(data, verdict)


def _check_yes_no(document: Document, answer: str, options: dict[str, Any]) -> Report:
    said = answer.casefold()
    if said not in ("yes", "no"):
        raise BadRequest(f"bad input: answer: expected yes (the goal can be reached) or no, "
                         f"got {answer!r}")
    solution = run("solve", document, options).data
    status = solution["status"]
    if status not in ("solvable", "unsolvable"):
        verdict = f"undecided: {solution['verdict']}"
        return Report(_data(document.game, None, verdict, said), verdict)
    truth = "yes" if status == "solvable" else "no"
    correct = said == truth
    verdict = ("right: " if correct else "wrong: ") + solution["verdict"]
    return Report(_data(document.game, correct, verdict, said), verdict)


def _check_layout(document: Document, answer: str, options: dict[str, Any]) -> Report:
    from ..models.meeple_land.game import Placement
    from ..models.meeple_land.puzzle import OBJECTIVE_TEXT, load_puzzle

    puzzle = load_puzzle(document.data, document.source)
    placements = []
    for number, line in enumerate(re.split(r"[;\n]", answer), 1):
        text = line.strip()
        if not text:
            continue
        found = PLACEMENT.match(text)
        if found is None:
            raise InputError("answer", f"placement {number}",
                             "a tile, a cell and a turn such as 'M07 at 0,2 turned 90'", text)
        rotation = int(found["r"] or 0)
        if rotation % 90:
            raise InputError("answer", f"placement {number}", "a turn of 0, 90, 180 or 270",
                             rotation)
        placements.append(Placement(found["tile"].upper() if found["tile"].upper() in
                                    puzzle.catalogue.tiles else found["tile"],
                                    (int(found["x"]), int(found["y"])), rotation % 360))
    for kept in puzzle.pre_placed():  # a pre-placed tile written out again stays where it is
        if kept in placements:
            placements.remove(kept)
    unknown = [p.tile for p in placements if p.tile not in puzzle.catalogue.tiles]
    if unknown:
        raise InputError("answer", "tile", f"a tile of the pool ({', '.join(puzzle.pool)})",
                         unknown[0])
    problems, _, score = puzzle.judge(placements)
    shown = "; ".join(f"{p.tile} at {p.at[0]},{p.at[1]}"
                      + (f" turned {p.rotation}" if p.rotation else "") for p in placements)
    objective = OBJECTIVE_TEXT[puzzle.objective]
    best, proven = _best(document, puzzle, options)
    if problems or score is None:
        verdict = f"not a legal answer: {len(problems)} problem" + (
            "s" if len(problems) != 1 else "") + " (listed)"
        if best is None and proven:
            verdict = "right: no layout meets every requirement, and neither does this one"
            return Report(_data(document.game, True, verdict, shown, problems), verdict)
        return Report(_data(document.game, False, verdict, shown, problems, best=best),
                      verdict)
    value = puzzle.value(score)
    if not proven:
        verdict = (f"legal, {objective} {value}; the best is unknown within the time limit"
                   + (f" (at least {best})" if best is not None else ""))
        correct = None if best is None or value < best else True
    elif best is None:
        verdict = "the puzzle has no legal layout, yet this one passes: please report it"
        correct = None
    else:
        correct = value >= best
        verdict = (f"right: {objective} {value}, the proven optimum" if correct else
                   f"legal, but {objective} {value}; the optimum is {best}")
    return Report(_data(document.game, correct, verdict, shown, value=value, best=best),
                  verdict)


def _best(document: Document, puzzle: Any, options: dict[str, Any]) -> tuple[int | None, bool]:
    """The puzzle's optimum and whether it is proven: the recorded answer when the file has
    one, else ``solve`` within the options' time limit."""
    if puzzle.answer is not None:
        if puzzle.answer.status == "infeasible":
            return None, True
        return puzzle.answer.objective, puzzle.answer.objective is not None
    solution = run("solve", document, options).data
    status = solution["status"]
    value = solution["objective"]["value"]
    if status == "infeasible":
        return None, True
    return value, status == "optimal"

"""Playing along: moves and chance outcomes in the game's notation, applied to a position, and
game records (a start position and the steps from it, each with an optional comment).

A record is a TOML (or JSON) document::

    game = "GAME"
    kind = "record"
    start = "GAME:default"               # a shipped position, or an inline [start] table
    [[steps]]
    move = "squish king as rogue on Green take rogue"   # a move in the game's notation
    comment = "the hint's first choice"

Every step is checked when the record is read (it must be legal where it stands), so a record
that loads can always be replayed; ``apply --record`` appends to one, ``apply RECORD --upto N``
extracts the position after ``N`` steps.  Reading and replaying records is :mod:`.records`
(whose names this module gives too); this module applies steps (``apply``) and reviews a
record's decisions (``review``).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..models.errors import InputError
from ..models.notation import NotationError, Playable
from ..models.playable import StatePlayable
from .base import Document, Options, Prepared, Report, Thresholds, commands_for, document
from .records import Record as Record
from .records import Step as Step
from .records import advance as advance
from .records import extended as extended
from .records import is_record as is_record
from .records import load_record as load_record
from .records import new_record as new_record
from .records import playable as playable
from .records import position_after as position_after
from .records import start_document as start_document
from .records import start_of as start_of
from .text import plural


def summary(position: Playable) -> dict[str, Any]:
    """Where the position stands: who acts next, and whether chance (or what the seat
    observes) comes first."""
    return {"over": position.is_over(), "to_move": None if position.is_over()
            else position.actor(), "awaits_chance": position.awaits_chance(),
            "legal": len(position.legal_steps()) if not position.is_over() else 0}


@dataclass(frozen=True)
class Applied:
    """What ``apply`` did: the record of the game so far and the position it reached."""

    record: Record
    position: Playable
    new: tuple[Step, ...]
    """The steps this call applied (the record's earlier steps are in ``record.steps``)."""

    def report(self) -> Report:
        data = {"game": self.record.game, "applied": [s.as_json() for s in self.new],
                "steps": len(self.record.steps)} | summary(self.position)
        lines = [f"{s.number}. {s.actor}: {s.move}" + (f"  ({s.comment})" if s.comment else "")
                 for s in self.new]
        where = "the game is over" if self.position.is_over() else (
            f"next: {self.position.actor()}"
            + (" (chance: give the outcome, or --random)" if self.position.awaits_chance()
               else ""))
        return Report(data, "\n".join([*lines, where]))


def apply(doc: Document, texts: Sequence[str], seed: int | None = None, draw: bool = False,
          upto: int | None = None) -> Applied:
    """``texts`` applied to the position (or the record's position after ``upto`` steps) of
    ``doc``; with ``draw``, chance outcomes left out are drawn from ``seed``."""
    record = new_record(doc)
    if upto is not None and not is_record(doc):
        raise InputError.of_option("upto", "a record file to extract a position from (this "
                                   "is a position)", upto)
    position, history = position_after(doc, upto)
    rng = random.Random(0 if seed is None else seed) if draw else None
    if draw and not texts and not position.awaits_chance():
        step = "the game is over" if position.is_over() else \
            f"the next step is {position.actor()}'s decision (give it as a move)"
        raise InputError.of_option("random", "a chance outcome to draw", reason=(
            f"expected a chance outcome to draw, but {step}"))
    position, new = advance(position, texts, rng, first=len(history) + 1)
    kept = {index: lines for index, lines in record.variations.items() if index < len(history)}
    record = Record(record.game, record.start, tuple(history) + tuple(new), kept)
    return Applied(record, position, tuple(new))


def appended(existing: Document | None, applied: Applied, source: str) -> Record:
    """The record ``existing`` (or a new one) with ``applied``'s steps at its end: its last
    position must be where ``applied`` began."""
    if existing is None:
        return applied.record
    record = load_record(existing)
    position, _ = position_after(existing, None)
    begun = len(applied.record.steps) - len(applied.new)
    before = Record(applied.record.game, applied.record.start, applied.record.steps[:begun])
    start, _ = advance(playable(start_document(before, source)), [s.move for s in before.steps])
    if position.to_document() != start.to_document():
        raise InputError.of_option("record", "a record that ends where the moves were applied",
                                   existing.source, reason=(
                                       f"{existing.source} ends in another position than the "
                                       "one the moves were applied to"))
    first = len(record.steps) + 1
    renumbered = [Step(first + i, s.actor, s.move, s.comment) for i, s in enumerate(applied.new)]
    return extended(record, renumbered)


# -- review -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Judged:
    """One reviewed decision."""

    step: Step
    best: str
    best_value: float | None
    value: float | None
    lost: float | None
    at_least: bool
    """Whether the played move was not among the moves the hint valued, so that ``lost`` is
    only a lower bound (the gap to the worst move it valued)."""
    label: str | None
    status: str
    missed: str = ""
    """What the played move gives up that ranks above its value (a Meeple Party turn that
    loses chances to win or not to lose the party), in words; a blunder then."""

    @property
    def is_best(self) -> bool:
        return self.lost is not None and self.lost <= 1e-9 and not self.at_least and \
            not self.missed

    def as_json(self) -> dict[str, Any]:
        return self.step.as_json() | {
            "best": self.best, "best_value": _round(self.best_value),
            "value": _round(self.value), "lost": _round(self.lost), "at_least": self.at_least,
            "label": self.label, "status": self.status} | (
            {"missed": self.missed} if self.missed else {})


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 6)


def to_review(doc: Document, players: Sequence[str] | None
              ) -> tuple[Record, Playable, set[str] | None]:
    """The record ``doc`` to review: the record, its start position and the chosen players
    (casefolded; ``None``: all).  Bad input: ``doc`` is no record, or a name in ``players`` is
    none of the record's players (``--players``, one line listing them)."""
    if not is_record(doc):
        raise InputError(doc.source, None, "a game record (kind = \"record\"; partysolver "
                         "apply --record writes one)")
    record = load_record(doc)
    position = playable(start_document(record, doc.source))
    if players is None:
        return record, position, None
    known = players_of(position, doc.game)
    if known is not None:
        folded = {name.casefold() for name in known}
        unknown = [name for name in players if name.casefold() not in folded]
        if unknown:
            raise InputError.of_option("players", f"players of {doc.source} "
                                       f"({', '.join(known)}), separated by commas", unknown[0])
    return record, position, {name.casefold() for name in players}


def players_of(position: Playable, game: str) -> tuple[str, ...] | None:
    """The players at the table of ``position`` in seat order (a full state's seats, or those
    a seat's view names); ``None`` when the position does not tell."""
    if isinstance(position, StatePlayable):
        found = commands_for(game)
        try:
            return tuple(found.seat_names(position.state)) if found else None
        except InputError:
            return None
    view = getattr(position, "view", position)  # a Party-Time view, a Pool Party Stars seat
    names = getattr(view, "names", None)
    return tuple(names) if names else None


def review_document(doc: Document, given: Mapping[str, Any] | None = None,
                    progress: Any = None, until: float | None = None) -> Report:
    """The review of the record ``doc`` with the options ``given`` as the front end got them
    (``players``, names separated by commas; ``seed``; ``time_limit``, each hint's budget),
    checked by :func:`~.base.prepare` before any work: the one way every front end reviews
    (the CLI's ``review``, the web's ``POST /api/GAME/review``, which stops at ``until``, a
    :func:`time.monotonic` time, to answer within its request's time limit)."""
    prepared, players = _review_options(doc, given)
    budget = {"seed": prepared.options.seed, "time_limit": prepared.options.time_limit}
    return review(doc, players, budget, prepared.commands.review, progress, until)


def review_steps(doc: Document, given: Mapping[str, Any] | None = None) -> int:
    """The number of steps :func:`review_document` goes through, once ``doc`` and the options
    ``given`` are checked (bad input before any work: a front end may then show progress)."""
    _, players = _review_options(doc, given)
    return len(to_review(doc, players)[0].steps)


def _review_options(doc: Document, given: Mapping[str, Any] | None
                    ) -> tuple[Prepared, list[str] | None]:
    from .base import prepare

    prepared = prepare(doc.game, "review", given)
    names = prepared.options.extra.get("players")
    return prepared, [name.strip() for name in names.split(",")] if names else None


def review(doc: Document, players: Sequence[str] | None, given: Mapping[str, Any],
           thresholds: Thresholds, progress: Any = None, until: float | None = None
           ) -> Report:
    """Every decision of ``players`` (all when ``None``) in the record ``doc`` marked against
    the hint at that point: the best move, the value given up and a label; then each player's
    swing split into decision loss and luck (``app/luck.py``), and the game's figure after
    every step (bad input: see :func:`to_review`).  Past ``until`` (a :func:`time.monotonic`
    time) no further step is reviewed: the report covers the steps before and says so."""
    import time

    from .base import common_options, run
    from .luck import Tally, Valuer

    record, position, chosen = to_review(doc, players)
    commands = commands_for(doc.game)
    assert commands is not None
    common = common_options(given)
    budget = Options(seed=common["seed"], time_limit=common["time_limit"])
    """What valuing a played move alone may take (the hint's own budget)."""
    table = players_of(position, doc.game) or ()
    tracked = [name for name in table if chosen is None or name.casefold() in chosen]
    valuer = Valuer(commands, f"{doc.source}: a position of the record", budget, table)
    tallies: dict[str, Tally] = {name: Tally() for name in tracked}
    judged: list[Judged] = []
    series = [_point(valuer, position, 0, None, tallies)]
    value_text = ""
    stopped: int | None = None
    for item in record.steps:
        if until is not None and time.monotonic() > until:
            stopped = item.number
            break
        decides = not position.awaits_chance() and not position.is_over()
        step = position.parse(item.move)
        mine = chosen is None or item.actor.casefold() in chosen
        point: dict[str, Any] = {}
        if decides and mine:
            here = document(position.to_document(), f"{doc.source}: before step {item.number}")
            hint = run("hint", here, dict(given) | {"top": None}).data
            value_text = hint.get("value_text", value_text)
            verdict = _judge(position, item, hint, thresholds, functools.partial(
                commands.played_move, here, item.move, budget))
            judged.append(verdict)
            tally = tallies.setdefault(item.actor, Tally())
            tally.lose(verdict.lost, verdict.status == "exact" and not verdict.at_least)
            point |= {"decision_loss": _round(verdict.lost),
                      "played_value": _round(verdict.value)}
        elif position.awaits_chance():
            luck = valuer.luck(position, step)
            for name, tally in tallies.items():
                share = 0.0 if luck.outcomes == 1 else None if luck.by_player is None \
                    else luck.by_player.get(name)
                tally.draw(share, luck.exact and share is not None)
            point |= luck.as_json()
        position = position.apply(step)
        series.append(_point(valuer, position, item.number, item, tallies) | point)
        if progress is not None:
            progress(1)
    return _review_report(doc.game, judged, thresholds, value_text, tallies, series,
                          (stopped, len(record.steps)))


def _point(valuer: Any, position: Playable, number: int, item: Step | None,
           tallies: Mapping[str, Any] | None) -> dict[str, Any]:
    """One point of the review's graph: the game's figure for every player after step
    ``number`` (0: the start) and each tracked player's running sums."""
    found = valuer.point(position)
    point: dict[str, Any] = {"number": number}
    if item is not None:
        point |= {"actor": item.actor, "move": item.move}
    point |= {"values": None if found is None else
              {name: round(value, 6) for name, value in found.values.items()},
              "exact": found is not None and found.exact,
              "cumulative": {name: tally.cumulative() for name, tally in (tallies or {}).items()}}
    return point


def _judge(position: Playable, item: Step, hint: Mapping[str, Any], thresholds: Thresholds,
           value_of: Callable[[], Mapping[str, Any] | None] | None = None) -> Judged:
    """The played move against the hint's best; one the hint did not list is valued alone
    (``value_of``) where the game can, else its loss is the lower bound of the gap to the
    last move listed."""
    moves = hint.get("moves", [])
    played = position.parse(item.move)
    valued = [m for m in moves if m.get("value") is not None]
    if not valued:
        return Judged(item, "", None, None, None, False, None, str(hint.get("status")))
    best = valued[0]
    mine = next((m for m in valued if _names(position, m["move"]) == played), None)
    if mine is None and value_of is not None:
        mine = value_of()
    if mine is not None:
        lost = max(0.0, best["value"] - mine["value"])
        missed = _missed(best.get("figures") or {}, mine.get("figures") or {})
        return Judged(item, best["move"], best["value"], mine["value"], lost, False,
                      "blunder" if missed else thresholds.label(lost), str(hint.get("status")),
                      missed)
    floor = max(0.0, best["value"] - valued[-1]["value"])
    return Judged(item, best["move"], best["value"], None, floor, True,
                  thresholds.label(floor), str(hint.get("status")))


def _missed(best: Mapping[str, Any], mine: Mapping[str, Any]) -> str:
    """What ranks above the value and the played move gives up, in words ("" for nothing):
    where the hint ranks moves by the chance to win, then not to lose (Meeple Party's turns,
    whose value, the stress, only comes next)."""
    parts = []
    for figure, worse, words in (("win", -1, "of the chance to win"),
                                 ("loss", 1, "more chance to lose")):
        if isinstance(best.get(figure), float | int) and \
                isinstance(mine.get(figure), float | int):
            given = worse * (mine[figure] - best[figure])
            if given > 1e-9:
                parts.append(f"{100 * given:.3g} percentage points {words}")
    return " and ".join(parts)


def _names(position: Playable, text: str) -> Any:
    try:
        return position.parse(text)
    except NotationError:
        return None


def _review_report(game: str, judged: Sequence[Judged], thresholds: Thresholds,
                   value_text: str, tallies: Mapping[str, Any] | None = None,
                   series: Sequence[Mapping[str, Any]] = (),
                   stopped: tuple[int | None, int] = (None, 0)) -> Report:
    summary: dict[str, dict[str, Any]] = {}

    def blank() -> dict[str, Any]:
        return {"decisions": 0, "best": 0, "lost": 0.0, "inaccuracy": 0, "mistake": 0,
                "blunder": 0, "biggest": None}

    for name in tallies or {}:
        summary[name] = blank()
    for item in judged:
        mine = summary.setdefault(item.step.actor, blank())
        mine["decisions"] += 1
        lost = item.lost or 0.0
        if item.is_best:
            mine["best"] += 1
        mine["lost"] += lost
        if item.label:
            mine[item.label] += 1
        if item.lost is not None and (mine["biggest"] is None or lost > mine["biggest"]["lost"]):
            mine["biggest"] = {"number": item.step.number, "move": item.step.move,
                               "lost": round(lost, 6)}
    for name, mine in summary.items():
        decisions = mine["decisions"]
        best, lost = mine.pop("best"), mine.pop("lost")
        mine["accuracy"] = round(best / decisions, 6) if decisions else None
        mine["mean_lost"] = round(lost / decisions, 6) if decisions else 0.0
        if tallies is not None:
            from .luck import Tally

            mine |= tallies.get(name, Tally()).as_json()
    note = _luck_note([point for point in series if "outcomes" in point])
    data: dict[str, Any] = {
        "game": game, "value_text": value_text,
        "thresholds": {"inaccuracy": thresholds.inaccuracy, "mistake": thresholds.mistake,
                       "blunder": thresholds.blunder, "unit": thresholds.unit},
        "decisions": [item.as_json() for item in judged], "players": summary,
        "luck_note": note, "steps": list(series), "complete": stopped[0] is None,
        "stopped_at": stopped[0]}
    lines: list[tuple[int, str]] = [
        (point["number"], _chance_line(point, thresholds)) for point in series
        if point.get("luck") and any(point["luck"].values())]
    for item in judged:
        mark = {"blunder": "??", "mistake": "?", "inaccuracy": "?!"}.get(item.label or "", "")
        if item.lost is None:
            verdict = "not valued (the hint had no value here)"
        elif item.is_best:
            verdict = "best"
        else:
            how = "at least " if item.at_least else "about " if item.status != "exact" else ""
            given = f"{item.missed} (and {thresholds.shown(item.lost)})" if item.missed else \
                thresholds.shown(item.lost)
            verdict = (f"{item.label or 'fine'}: gives up {how}{given}; best was {item.best}")
        lines.append((item.step.number, f"{item.step.number}. {item.step.actor}: "
                      f"{item.step.move}{mark}  ({verdict})"))
    ordered = [line for _, line in sorted(lines, key=lambda pair: pair[0])]
    if stopped[0] is not None:
        ordered.append(f"stopped before step {stopped[0]} of {stopped[1]}: the review's time "
                       f"limit ran out (every figure covers steps 1 to {stopped[0] - 1})")
    return Report(data, _review_text(ordered, summary, thresholds, judged, tallies, note))


def _chance_line(point: Mapping[str, Any], thresholds: Thresholds) -> str:
    """A chance step that moved someone's value: the outcome and each player's luck."""
    luck = ", ".join(f"{name} {thresholds.scale * value:+.3g}"
                     for name, value in point["luck"].items() if value)
    return f"{point['number']}. {point['actor']}: {point['move']}  (luck: {luck})"


def _review_text(lines: list[str], summary: Mapping[str, Mapping[str, Any]],
                 thresholds: Thresholds, judged: Sequence[Judged],
                 tallies: Mapping[str, Any] | None, note: str) -> str:
    scale = thresholds.scale
    lines.append(f"thresholds ({thresholds.shown_unit} given up): inaccuracy "
                 f"{scale * thresholds.inaccuracy:g}, mistake {scale * thresholds.mistake:g}, "
                 f"blunder {scale * thresholds.blunder:g}")
    if any(not item.is_best and not item.at_least and item.lost is not None
           and item.status != "exact" for item in judged):
        lines.append("'about': the hint's values there are estimates (its search did not "
                     "finish: see hint's status), so are the losses")
    for player, mine in summary.items():
        if not mine["decisions"]:
            continue
        biggest = mine["biggest"]
        worst = (f"; biggest loss {thresholds.shown(biggest['lost'])} at step "
                 f"{biggest['number']} ({biggest['move']})"
                 if biggest and biggest["lost"] > 0 else "")
        lines.append(f"{player}: {plural(mine['decisions'], 'decision')}, accuracy "
                     f"{100 * mine['accuracy']:.0f}% (the best move), mean loss "
                     f"{thresholds.shown(mine['mean_lost'])}; "
                     f"{plural(mine['inaccuracy'], 'inaccuracy', 'inaccuracies')}, "
                     f"{plural(mine['mistake'], 'mistake')}, {plural(mine['blunder'], 'blunder')}"
                     f"{worst}")
    if not judged:
        lines.append("no decision of the chosen players in this record")
    if tallies:
        lines += _swing_lines(summary, thresholds, note)
    return "\n".join(lines)


def _luck_note(chance: Sequence[Mapping[str, Any]]) -> str:
    """What the luck figures rest on, in a few words."""
    if not chance:
        return ("no chance point in this record (no draw, die or card): every player's luck "
                "is 0 and the swing is all decisions")
    left = sum(1 for point in chance if point.get("luck") is None)
    points = f"{len(chance)} chance point{'s' if len(chance) != 1 else ''}"
    if left:
        # why, as each chance point says it (app/luck.py), the commonest first
        reasons: dict[str, int] = {}
        for point in chance:
            if point.get("luck") is None:
                why = point.get("luck_not_computed") or \
                    "the game cannot value the positions after them for every player"
                reasons[why] = reasons.get(why, 0) + 1
        said = "; ".join(f"{count}: {why}" if len(reasons) > 1 else why for why, count in
                         sorted(reasons.items(), key=lambda pair: -pair[1]))
        return f"{points}, {left} not computed ({said}): the sums leave them out"
    if all(point.get("luck_exact") for point in chance):
        return f"{points}, {'every one ' if len(chance) > 1 else ''}valued exactly"
    return f"{points}, estimated where the hint's values are estimates"


def _swing_lines(summary: Mapping[str, Mapping[str, Any]], thresholds: Thresholds,
                 note: str) -> list[str]:
    """Each player's swing, decision loss against luck, in the text of the review."""
    lines = [f"skill against luck ({thresholds.shown_unit}; luck is the value after a chance "
             f"outcome minus the value expected over its outcomes): {note}"]
    for player, mine in summary.items():
        how = "exact" if mine["decision_loss_exact"] else "estimated"
        decided = "no decision reviewed" if not mine["decisions"] else \
            f"decisions gave up {thresholds.scale * mine['decision_loss']:.3g} ({how})"
        if mine["luck"] is None:
            luck = "luck not computed"
        else:
            kind = "exact" if mine["luck_exact"] else "estimated"
            if mine["luck_not_computed"]:
                kind += f", {mine['luck_not_computed']} chance points not computed"
            shown = thresholds.scale * mine["luck"]
            luck = f"luck {shown:+.3g} ({kind})" if shown else f"luck 0 ({kind})"
        lines.append(f"  {player}: {decided}; {luck}")
    return lines

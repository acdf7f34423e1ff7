"""The commands of Meeple Land.

Files say ``kind = "puzzle"`` (layout puzzles: ``solve``, ``verify``, ``render``), ``"park"``
(one park: ``verify``, ``solve`` = best seating, ``render``) or ``"game"`` (a full game state:
``hint``, ``verify``, ``render``).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ..models.errors import InputError
from ..models.meeple_land import GAME
from ..models.meeple_land.game import (
    INFO,
    counts_dict,
    counts_text,
    entrance_text,
)
from .answers import answer_data
from .base import (
    Document,
    Options,
    OptionSpec,
    Report,
    Thresholds,
    problems_report,
    read,
    require_valid,
    run,
)
from .contract import (
    WIN_RATE_HEADER,
    HintStatus,
    Move,
    Objective,
    hint_data,
    simulation_data,
    solve_data,
    verify_data,
)
from .kinds import DocumentKind, Figure, Figures, record_kind
from .simulation import Plan, Run, SimulatingCommands
from .text import plural, problems_text, table, top

if TYPE_CHECKING:  # the rules engine and the searches load when a verb runs (start-up)
    from ..models.meeple_land.park import Layout, Piece, Score
    from ..models.meeple_land.position import ParkPosition
    from ..models.meeple_land.puzzle import Answer, Puzzle, Requirement
    from ..models.meeple_land.state import MeepleLandState
    from ..solvers.meeple_land.layout import Progress

DRAWING_SECONDS = 0.01
"""Seconds ``render --hint`` of a puzzle keeps of the time limit for drawing the picture after
the hint's search (the drawing took about 0.004 s on the shipped puzzles)."""

NOT_MINIMAL = "(perhaps not all of them are needed: the time limit cut the explanation)"
"""Said of an infeasible puzzle's conflict that the time limit kept from being shown minimal."""

COUNT = OptionSpec("count", "flag", default=False,
                   help="meeple-land: also count the distinct optimal layouts (projected "
                        "onto placements).")
COUNT_LIMIT = OptionSpec("count_limit", "int", minimum=1, default=1000, show_default=True,
                         metavar="N",
                         help="meeple-land: stop counting optimal layouts at this many.")
SEARCH_WORKERS = OptionSpec("search_workers", "int", minimum=1, metavar="N",
                            help="meeple-land: CP-SAT workers (default: 1 below 2,000 "
                                 "placement literals, 2 from there; always 1 with --seed).")
BUILD_ORDER = OptionSpec("build_order", "flag", default=False,
                         help="meeple-land: number the tiles in a legal build order.")


# -- shared pieces ----------------------------------------------------------------------------


def _placement_json(piece: Piece, label: str) -> dict[str, Any]:
    p = piece.placement
    return {"label": label, "tile": p.tile, "at": list(p.at), "rotation": p.rotation,
            "kind": piece.tile.attraction or "+".join(piece.tile.services),
            "cost": piece.tile.cost}


def _score_json(layout: Layout, score: Score) -> dict[str, Any]:
    return {
        "types": list(score.types), "variety": score.variety,
        "seated": counts_dict(score.seating.seated),
        "waiting": counts_dict(score.seating.waiting),
        "visitors_inside": score.visitors_inside, "visitors_waiting": -score.visitors_waiting,
        "dead_ends": [{"edge": {"cell": list(d.edge[0]), "side": d.edge[1].word},
                       "tile": None if d.piece is None else layout.pieces[d.piece].tile.id,
                       "blocked_by": layout.pieces[d.blocker].tile.id,
                       "text": d.describe(layout.pieces)} for d in score.dead_ends],
        "dead_end_points": score.dead_end_points, "deducted": score.deducted,
        "reputation": score.total,
    }


def _order_text(order: list[int] | tuple[int, ...] | None, names: list[str]) -> str:
    if order is None:
        return "no legal build order (some tile is not connected to an entrance)"
    return " -> ".join(names[k] for k in order) if order else "nothing to build"


def _kind(document: Document) -> str:
    from ..models.meeple_land.position import document_kind

    return document_kind(document.data, document.source)


# -- the adapter ------------------------------------------------------------------------------


GAME_VERBS = ("hint", "verify", "render", "apply", "play")
"""What a game position takes (``solve`` is for a puzzle or a park)."""

PLACEMENT = re.compile(
    r"^(?:buy\s+)?(?P<tile>[A-Za-z0-9_-]+)\s*(?:at|@)\s*\(?\s*(?P<x>-?\d+)\s*,\s*(?P<y>-?\d+)"
    r"\s*\)?\s*(?:(?:turned|rotated|r)\s*(?P<r>-?\d+)\s*°?(?:\s*degrees)?)?$", re.IGNORECASE)
"""One placement of a layout puzzle's answer (``M07 at 0,2 turned 90``)."""


def _best(document: Document, puzzle: Puzzle, given: Mapping[str, Any]
          ) -> tuple[int | None, bool]:
    """The puzzle's optimum and whether it is proven: the recorded answer when the file has
    one, else ``solve`` within the options' time limit."""
    if puzzle.answer is not None:
        if puzzle.answer.status == "infeasible":
            return None, True
        return puzzle.answer.objective, puzzle.answer.objective is not None \
            and puzzle.answer.status == "optimal"
    solution = run("solve", document, given).data
    if solution["status"] == "infeasible":
        return None, True
    return solution["objective"]["value"], solution["status"] == "optimal"


class MeepleLandCommands(SimulatingCommands):
    info = INFO
    verbs = frozenset({"hint", "solve", "verify", "simulate", "render"})
    options: ClassVar[dict[str, list[OptionSpec]]] = {
        "solve": [COUNT, COUNT_LIMIT, SEARCH_WORKERS],
        "verify": [SEARCH_WORKERS],
        "render": [BUILD_ORDER, SEARCH_WORKERS],
    }
    policies = ("random", "greedy", "hint")
    review = Thresholds(1.0, 3.0, 6.0, "reputation")
    players = 2
    kinds = (
        DocumentKind("position", GAME_VERBS, "a game in progress"),
        DocumentKind("puzzle", ("hint", "solve", "verify", "render", "check"),
             "a layout puzzle, not a game in progress", puzzle="layout", secret=("answer",),
             question="Build the best layout: reveal the optimal layout one placement at a "
                      "time (in a legal build order), or type your own layout (one placement "
                      "a line, such as M07 at 0,2 turned 90) and check it.",
             answer_help="M07 at 0,2 turned 90\nS30 at 1,1"),
        DocumentKind("park", ("solve", "verify", "render"),
             "a park on its own (a layout to verify, solve or draw), not a game in progress"),
        DocumentKind("catalogue", ("verify",), "a catalogue of tiles, not a game"),
        record_kind(GAME_VERBS))
    figures = Figures((Figure("est. reputation", digits=1),))

    def kind_of(self, document: Document) -> str:
        kind = document.data.get("kind", "game")
        if kind in ("puzzle", "park", "catalogue", "record"):
            return str(kind)
        return "position"

    def shipped_names(self) -> dict[str, set[str]]:
        return {"catalogue": {"house"}}

    # -- check (puzzle mode) ------------------------------------------------------------------

    def check(self, document: Document, answer: str, given: Mapping[str, Any]) -> Report:
        """A layout puzzle's answer, one placement a line or separated by ``;`` (``M07 at 0,2
        turned 90``; the ``buy`` of the game notation and the file's ``@``/``r`` short form
        read too; the pre-placed tiles may be left out or written out), judged by the park
        verifier (pool, overlaps, paths, budget and every requirement) and scored against the
        proven optimum (the file's recorded answer, else ``solve``)."""
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
                                 "a tile, a cell and a turn such as 'M07 at 0,2 turned 90'",
                                 text)
            rotation = int(found["r"] or 0)
            if rotation % 90:
                raise InputError("answer", f"placement {number}",
                                 "a turn of 0, 90, 180 or 270", rotation)
            tile = found["tile"].upper() if found["tile"].upper() in puzzle.catalogue.tiles \
                else found["tile"]
            placements.append(Placement(tile, (int(found["x"]), int(found["y"])),
                                        rotation % 360))
        for kept in puzzle.pre_placed():  # a pre-placed tile written out again stays put
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
        best, proven = _best(document, puzzle, given)
        if problems or score is None:
            verdict = f"not a legal answer: {plural(len(problems), 'problem')} (listed)"
            if best is None and proven:
                verdict = "right: no layout meets every requirement, and neither does this one"
                return Report(answer_data(INFO.key, True, verdict, shown, problems), verdict)
            return Report(answer_data(INFO.key, False, verdict, shown, problems, best=best),
                          verdict)
        value = puzzle.value(score)
        correct: bool | None
        if not proven:
            verdict = (f"legal, {objective} {value}; the best is unknown within the time "
                       "limit" + (f" (at least {best})" if best is not None else ""))
            correct = None if best is None or value < best else True
        elif best is None:
            verdict = "the puzzle has no legal layout, yet this one passes: please report it"
            correct = None
        else:
            correct = value >= best
            verdict = (f"right: {objective} {value}, the proven optimum" if correct else
                       f"legal, but {objective} {value}; the optimum is {best}")
        return Report(answer_data(INFO.key, correct, verdict, shown, value=value, best=best),
                      verdict)

    # -- tiles (partysolver games meeple-land --tiles) ---------------------------------------

    def tiles(self, source: str | None) -> Report:
        """Every tile of the house catalogue (or of the catalogue file ``source``) by code:
        size, what it is, cost, paths, visitor spaces and the advert on its back."""
        from ..models.meeple_land.catalogue import (
            house_catalogue,
            load_catalogue,
            tile_document,
        )

        if source is None:
            catalogue = house_catalogue()
        else:
            document = read(source)
            catalogue = load_catalogue(document.data, document.source, document.source)
        rows, tiles = [], []
        for tile in catalogue.tiles.values():
            tiles.append(tile_document(tile) | {"size": tile.size})
            what = tile.attraction or "service: " + ", ".join(tile.services)
            spaces = ", ".join(str(space) for space in tile.spaces) or "-"
            paths = " ".join(tiles[-1]["paths"]) or "-"
            rows.append((tile.id, f"{tile.size} {tile.shape}", what, f"${tile.cost}", paths,
                         spaces, tile.advert or "-"))
        origin = ("house data, not the publisher's" if catalogue.house else
                  f"from {source}")
        head = f"{catalogue.name}: {plural(len(rows), 'tile')} ({origin})"
        data = {"game": INFO.key, "catalogue": catalogue.name, "house": catalogue.house,
                "tiles": tiles}
        return Report(data, head + "\n" + table(
            ["code", "size", "what", "cost", "paths", "spaces", "advert"], rows,
            legend="size: small, medium or large, and the shape in rows x columns; paths: "
                   "the sides a path leaves by (N, E, S, W; on larger tiles the cell too); "
                   "spaces: a visitor colour each (any: a fountain joker; :service, the service "
                   "it must be linked to for $1 more)"))

    # -- play ---------------------------------------------------------------------------------

    def board(self, document: Document) -> str:
        from ..models.meeple_land.position import state_from_document

        if _kind(document) != "game":
            raise InputError(document.source, None, "a game position (kind = \"game\") to "
                             "play on")
        return describe_game(state_from_document(document.data, document.source))

    def seat_names(self, state: MeepleLandState) -> tuple[str, ...]:
        return state.names

    def policy(self, name: str) -> Any:
        return make_policy(name)

    # -- hint ---------------------------------------------------------------------------------

    def hint(self, document: Document, options: Options) -> Report:
        from ..solvers.meeple_land.hint import rank_moves

        if (kind := _kind(document)) == "puzzle":
            return self._puzzle_step(document, options)
        if kind != "game":
            raise InputError(document.source, "kind", "\"game\" or \"puzzle\" for hint "
                             "(solve a park with 'partysolver solve')", kind)
        state = _game(document)
        who = state.names[state.current]
        value_text = (f"{who}'s estimated reputation at the end of the game (a documented "
                      "heuristic; the seating in it is exact)")
        if state.finished:
            note = "the game is over: " + _winners(state)
            return Report(hint_data(INFO.key, who, "exact", value_text, [], note=note,
                                    standings=_standings(state)), note)
        if state.pending:
            note = f"chance must act first ({state.pending[0]}): nothing to decide"
            return Report(hint_data(INFO.key, who, "exact", value_text, [], note=note,
                                    pending=list(state.pending)), note)
        ranked = rank_moves(state)
        shown = top(ranked, options.top)
        moves = [Move(GAME.notation.format(state, m.move), m.value, m.reason,
                      {k: round(v, 2) for k, v in m.estimate.terms.items()}, text=m.text)
                 for m in shown]
        data = hint_data(INFO.key, who, "estimate", value_text, moves,
                         search={"method": "estimate of end-game reputation (exact seating)",
                                 "options": len(ranked)},
                         round=state.round, money=state.parks[state.current].money)
        rows = [(i, move.move, f"{m.value:.1f}", f"{m.text}; {m.reason}")
                for i, (m, move) in enumerate(zip(shown, moves, strict=True), 1)]
        head = (f"{who}, round {state.round}, ${state.parks[state.current].money}: "
                f"{plural(len(ranked), 'option')} ranked by estimated end-game reputation "
                "(heuristic; seating exact)")
        return Report(data, head + "\n" + table(
            ["#", "move", "value", "why"], rows, right=(0,),
            legend="value: your estimated reputation at the end of the game after the move "
                   "(a documented heuristic: docs/solvers.md)"))

    def _puzzle_step(self, document: Document, options: Options) -> Report:
        """A layout puzzle's next single step: the first tile, in a legal build order, of the
        best layout found (the rest of the answer stays hidden: ``solve`` shows it)."""
        step = _next_step(_puzzle(document), options)
        if step.move is None:
            return Report(hint_data(INFO.key, "you", step.status, step.value_text, [],
                                    note=step.note, search=step.search, puzzle=True),
                          step.note)
        data = hint_data(INFO.key, "you", step.status, step.value_text, [step.move],
                         search=step.search, puzzle=True)
        text = (f"puzzle: next step (1 of {step.tiles}): {step.move.text}\n"
                f"  {step.move.reason}")
        return Report(data, text)

    # -- solve --------------------------------------------------------------------------------

    def solve(self, document: Document, options: Options) -> Report:
        kind = _kind(document)
        if kind == "puzzle":
            return self._solve_puzzle(document, options)
        if kind == "park":
            return self._seat_park(document, options)
        raise InputError(document.source, "kind", "\"puzzle\" or \"park\" for solve (a game "
                         "position is for 'partysolver hint')", kind)

    def _solve_puzzle(self, document: Document, options: Options) -> Report:
        from ..models.meeple_land.position import describe_park
        from ..models.meeple_land.puzzle import OBJECTIVE_TEXT
        from ..models.meeple_land.render import ascii_picture, legend, letters
        from ..solvers.meeple_land.layout import solve_layout

        puzzle = _puzzle(document)
        result = solve_layout(puzzle, time_limit=options.time_left(),
                              workers=options.extra.get("search_workers"), seed=options.seed,
                              progress=_progress(),
                              count=bool(options.extra.get("count")),
                              count_limit=options.extra.get("count_limit", 1000))
        objective = Objective(puzzle.objective, OBJECTIVE_TEXT[puzzle.objective],
                              result.objective, result.bound)
        search = {"workers": result.usage.get("workers"), **result.usage}
        workers = int(result.usage.get("workers") or 0) \
            if result.usage.get("cp_sat_started", True) else 0
        how = (f"{result.usage.get('seconds', 0):.2f} s, " if options.timings else "") + \
            (plural(workers, "CP-SAT worker") if workers else "the greedy layout only")
        if result.usage.get("source") == "greedy":
            how += "; the best layout is the greedy warm start's"

        if result.status == "infeasible":
            cut = "" if result.conflict_minimal else f" {NOT_MINIMAL}"
            verdict = ("infeasible: these requirements cannot all hold together: "
                       + "; ".join(r.text for r in result.conflict) + cut)
            data = solve_data(INFO.key, "infeasible", objective, verdict, None, search=search,
                              conflict=[{"requirement": r.key, "text": r.text}
                                        for r in result.conflict],
                              conflict_minimal=result.conflict_minimal)
            lines = [f"infeasible ({how}): these requirements cannot all hold together"
                     f"{cut}:"]
            lines += [f"  - {r.text}" for r in result.conflict]
            return _recorded_report(puzzle.answer, data, lines, "infeasible")
        if result.layout is None:
            verdict = f"unknown: no layout found within the budget ({how}); nothing is claimed"
            return Report(solve_data(INFO.key, "unknown", objective, verdict, None,
                                     search=search), verdict)
        layout = result.layout
        names = letters(len(layout.pieces))
        score = layout.score(puzzle.visitors)
        solution: dict[str, Any] = {
            "placements": [_placement_json(p, names[k]) for k, p in enumerate(layout.pieces)],
            "pre_placed": len(puzzle.placed),
            "build_order": [names[k] for k in result.build_order],
            "spent": sum(p.tile.cost for p in layout.pieces[len(puzzle.placed):]),
            "breakdown": _score_json(layout, score),
            "revenue": layout.revenue(puzzle.visitors),
            "picture": ascii_picture(layout, names),
        }
        if result.count is not None:
            solution["count"] = {"layouts": result.count, "complete": result.count_complete}
        if result.status == "optimal":
            head = f"optimal: {OBJECTIVE_TEXT[puzzle.objective]} {result.objective} " \
                   f"(proven; {how})"
            verdict = f"the best layout reaches {OBJECTIVE_TEXT[puzzle.objective]} " \
                      f"{result.objective}, proven optimal"
        else:
            head = f"feasible: {OBJECTIVE_TEXT[puzzle.objective]} {result.objective}, best " \
                   f"bound {result.bound} (out of time: {how})"
            verdict = f"a layout reaches {OBJECTIVE_TEXT[puzzle.objective]} " \
                      f"{result.objective}; no layout can beat {result.bound} (not proven " \
                      "optimal: out of time)"
        data = solve_data(INFO.key, result.status, objective, verdict, solution, search=search)
        lines = [head, ascii_picture(layout, names), *legend(layout, names),
                 "build order: " + _order_text(result.build_order, names),
                 f"spent: ${solution['spent']}"
                 + (f" of ${puzzle.budget}" if puzzle.budget is not None else "")]
        lines += describe_park(layout, puzzle.visitors)
        if result.count is not None:
            exact = "" if result.count_complete else " at least (stopped by the limit or time)"
            lines.append(f"distinct optimal layouts: {result.count}{exact}")
        return _recorded_report(puzzle.answer, data, lines, result.status, result.objective,
                                result.count, result.count_complete)

    def _seat_park(self, document: Document, options: Options) -> Report:
        from ..models.meeple_land.position import load_park

        park = load_park(document.data, document.source)
        require_valid(park.problems(), document.source)
        layout = park.layout
        visitors = park.visitors()
        seating = layout.seat(visitors)
        usable = [slot for slot in layout.slots if slot.usable]
        seats = [{"tile": layout.pieces[slot.piece].tile.id, "space": slot.index,
                  "accepts": str(slot.space), "visitor": colour}
                 for slot, colour in zip(usable, seating.assigned, strict=True)]
        verdict = (f"optimal seating (exact matching): {counts_text(seating.seated)} inside, "
                   f"{counts_text(seating.waiting)} at the entrance")
        objective = Objective("visitor_points", "reputation from the visitors (inside minus "
                              "waiting), then revenue", seating.points, seating.points)
        data = solve_data(INFO.key, "optimal", objective, verdict,
                          {"seats": seats, "seated": counts_dict(seating.seated),
                           "waiting": counts_dict(seating.waiting),
                           "revenue": seating.revenue})
        lines = [verdict,
                 f"visitor reputation {seating.points:+d}, revenue ${seating.revenue} per round"]
        by_tile: dict[str, list[str]] = {}
        for slot, colour in zip(usable, seating.assigned, strict=True):
            if colour:
                by_tile.setdefault(layout.pieces[slot.piece].tile.id, []).append(
                    f"{colour} on {slot.space}")
        lines += [f"  {tile}: {', '.join(items)}" for tile, items in by_tile.items()]
        return Report(data, "\n".join(lines))

    # -- verify -------------------------------------------------------------------------------

    def verify(self, document: Document, options: Options) -> Report:
        from ..models.meeple_land.position import game_problems, load_park, load_state

        if document.data.get("kind") == "catalogue":
            return self._verify_catalogue(document)
        kind = _kind(document)
        if kind == "park":
            return self._verify_park(load_park(document.data, document.source))
        if kind == "puzzle":
            return self._verify_puzzle(document, options)
        state = load_state(document.data, document.source)
        problems = game_problems(state)
        standings = _standings(state) if not problems else []
        report = problems_report(INFO.key, problems, lambda: "\n".join(
            f"{s['player']}: ${s['money']}, reputation now {s['reputation']}"
            for s in standings))
        if not problems:
            report.data["standings"] = standings
        return report

    def _verify_catalogue(self, document: Document) -> Report:
        """A tile catalogue loads or names its first bad field; say what it holds."""
        from ..models.meeple_land.catalogue import load_catalogue, size_counts

        catalogue = load_catalogue(document.data, document.source, document.source)
        sizes = size_counts(catalogue)
        held = (f"catalogue {catalogue.name!r}: {sum(sizes.values())} tiles ("
                + ", ".join(f"{n} {size}" for size, n in sizes.items())
                + f"), {len(catalogue.attraction_types)} attraction types, "
                f"{len(catalogue.adverts)} adverts, {len(catalogue.buses)} buses")
        data = verify_data(INFO.key, [], f"valid: {held}", kind="catalogue", tiles=sizes,
                           attraction_types=list(catalogue.attraction_types),
                           adverts=len(catalogue.adverts), buses=len(catalogue.buses))
        return Report(data, f"{problems_text([])}\n{held}")

    def _verify_park(self, park: ParkPosition) -> Report:
        from ..models.meeple_land.position import describe_park

        problems = park.problems()
        layout = park.layout
        names = [p.tile.id for p in layout.pieces]
        order = layout.build_order() if layout.pieces else []
        score = layout.score(park.visitors())
        data = verify_data(INFO.key, problems, None,
                           build_order=None if order is None else [names[k] for k in order],
                           breakdown=_score_json(layout, score),
                           revenue=layout.revenue(park.visitors()))
        lines = [problems_text(problems), "build order: " + _order_text(order, names)]
        lines += describe_park(layout, park.visitors())
        return Report(data, "\n".join(lines), exit_code=1 if problems else 0)

    def _verify_puzzle(self, document: Document, options: Options) -> Report:
        from ..models.meeple_land.puzzle import OBJECTIVE_TEXT, load_puzzle
        from ..models.meeple_land.render import ascii_picture, legend, letters
        from ..solvers.meeple_land.layout import feasibility

        puzzle = load_puzzle(document.data, document.source)
        problems = puzzle.problems()
        text = [problems_text(problems)]
        if problems:
            return Report(verify_data(INFO.key, problems, None, solvable="unknown"),
                          "\n".join(text), exit_code=1)
        recorded = puzzle.recorded_layout()
        if recorded:  # already judged by problems(): legal, and scoring the recorded objective
            from ..solvers.meeple_land.layout import Feasibility

            verdict = Feasibility("solvable", puzzle.layout_of(recorded))
        else:
            verdict = feasibility(puzzle, options.time_left(),
                                  options.extra.get("search_workers"), options.seed)
        sentence = {"solvable": "valid and solvable: a layout meets every requirement",
                    "unsolvable": "valid but unsolvable: "
                                  + _cannot_hold(verdict.conflict, verdict.minimal),
                    "unknown": "valid; solvable or not is unknown: out of time before a "
                               "layout or a proof"}[verdict.verdict]
        data = verify_data(INFO.key, [], sentence, solvable=verdict.verdict)
        if recorded:
            answer = puzzle.answer
            assert answer is not None
            data["recorded"] = {"status": answer.status, "objective": answer.objective,
                                "bound": answer.bound, "layout_scores": answer.objective}
            bound = "" if answer.bound is None else f", proven bound {answer.bound}"
            text.append(f"the recorded layout is legal and scores {answer.objective} "
                        f"({OBJECTIVE_TEXT[puzzle.objective]}), as recorded "
                        f"({answer.status}{bound})")
        if verdict.verdict == "solvable":
            layout = verdict.layout
            assert layout is not None
            names = letters(len(layout.pieces))
            data["witness"] = [_placement_json(p, names[k]) for k, p in enumerate(layout.pieces)]
            text.append("solvable: a layout meets every requirement, for instance")
            text += [ascii_picture(layout, names), *legend(layout, names)]
        elif verdict.verdict == "unsolvable":
            data["conflict"] = [{"requirement": r.key, "text": r.text}
                                for r in verdict.conflict]
            data["conflict_minimal"] = verdict.minimal
            text.append("unsolvable: these requirements cannot all hold together"
                        + ("" if verdict.minimal else f" {NOT_MINIMAL}") + ":")
            text += [f"  - {r.text}" for r in verdict.conflict]
        else:
            text.append("unknown: out of time before finding a layout or a proof")
        return Report(data, "\n".join(text))

    # -- simulate -----------------------------------------------------------------------------

    def plan_simulation(self, players: int, names: tuple[str, ...], options: Options) -> Plan:
        return Plan(new_game_factory(players), [make_policy(name) for name in names],
                    final_scores)

    def simulation_report(self, run: Run) -> Report:
        from ..models.meeple_land.state import DEFAULT_NAMES

        result, n, names = run.result, run.players, run.names
        seats = result.seat_rates()
        figures = result.figures()
        data = simulation_data(
            INFO.key, result, DEFAULT_NAMES[:n], names, run.rotate,
            seat_figures=[{"reputation": figures[f"reputation_{i + 1}"].as_json()}
                          for i in range(n)])
        seat_policies = run.seat_policies()
        rows = [(DEFAULT_NAMES[i], "rotating" if run.rotate else seat_policies[i], str(rate),
                 f"{figures[f'reputation_{i + 1}'].mean:.1f}") for i, rate in enumerate(seats)]
        text = [f"{run.games} games, {n} players ({WIN_RATE_HEADER})",
                table(["seat", "policy", "win rate", "mean reputation"], rows)]
        if len(set(names)) > 1:
            text.append(table(["policy", "win rate"],
                              [(name, str(rate)) for name, rate in result.policy_rates().items()]))
        return Report(data, "\n".join(text))

    # -- render -------------------------------------------------------------------------------

    def render(self, document: Document, options: Options) -> str:
        from ..models.meeple_land.position import describe_park, load_park
        from ..models.meeple_land.render import Picture, render_parks

        kind = _kind(document)
        numbered = bool(options.extra.get("build_order"))
        if kind == "park":
            park = load_park(document.data, document.source)
            layout = park.layout
            order = layout.build_order() if numbered else None
            return render_parks([Picture(layout, park.visitors(), park.name or "park", order)],
                                f"Meeple Land park — entrances "
                                f"{', '.join(entrance_text(e, park.plot) for e in park.plot.entrances)}",
                                describe_park(layout, park.visitors()))
        if kind == "puzzle":
            return self._render_puzzle(document, options, numbered)
        return self._render_game(document, options, numbered)

    def _render_puzzle(self, document: Document, options: Options, numbered: bool) -> str:
        from ..models.meeple_land.position import describe_park
        from ..models.meeple_land.puzzle import OBJECTIVE_TEXT
        from ..models.meeple_land.render import Picture, Shelf, render_parks

        puzzle = _puzzle(document)
        recorded = puzzle.recorded_layout()
        layout = puzzle.layout_of(recorded)  # a recorded answer's layout when the file has one
        suggestion, caption = None, ""
        if recorded and puzzle.answer is not None:
            caption = (f"recorded layout: {OBJECTIVE_TEXT[puzzle.objective]} "
                       f"{puzzle.answer.objective} ({puzzle.answer.status})")
        if options.extra.get("hint"):  # what 'hint' gives: the next placement, not the answer
            step = _next_step(puzzle, options, DRAWING_SECONDS)
            suggestion = step.piece
            caption = (f"hint: {step.move.text} ({step.move.reason})" if step.move else
                       f"hint: {step.note}")
        order = layout.build_order() if numbered else None
        # With a recorded layout the picture is the answer: the pool (a whole catalogue, for
        # the published parks) is left out; the placed tiles are on the board and the legend.
        pool = None if recorded else Shelf("Pool: the tiles the puzzle offers",
                                           [("tiles", puzzle.pool)])
        return render_parks([Picture(layout, puzzle.visitors, puzzle.name or "puzzle", order,
                                     suggestion, caption)],
                            f"Meeple Land puzzle — objective: "
                            f"{OBJECTIVE_TEXT[puzzle.objective]}",
                            describe_park(layout, puzzle.visitors), pool,
                            None if recorded else
                            {tile.id: tile for tile in puzzle.pool_tiles()})

    def _render_game(self, document: Document, options: Options, numbered: bool) -> str:
        from ..models.meeple_land.park import Piece
        from ..models.meeple_land.render import Picture, Shelf, render_parks

        state = _game(document)
        suggestion, caption = None, ""
        if options.extra.get("hint") and not state.pending and not state.finished:
            from ..models.meeple_land.game import Buy
            from ..solvers.meeple_land.hint import rank_moves

            best = rank_moves(state)[0]
            caption = f"hint: {best.text} ({best.reason})"
            if isinstance(best.move, Buy):
                p = best.move.placement
                suggestion = Piece.make(0, p, state.catalogue.tile(p.tile))
        pictures = []
        for seat, (name, park) in enumerate(zip(state.names, state.parks, strict=True)):
            layout = park.layout(state.catalogue)
            order = layout.build_order() if numbered else None
            title = f"{name}: ${park.money}, reputation {layout.score(park.visitors).total}"
            pictures.append(Picture(layout, park.visitors, title, order,
                                    suggestion if seat == state.current else None,
                                    caption if seat == state.current else ""))
        market = state.market
        shelf = Shelf("Market", [("small", market.small), ("medium", market.medium),
                                 ("large", market.large)])
        footer = ["buses: " + ", ".join(f"{b} ({counts_text(c)})" for b, c in state.parking)]
        return render_parks(pictures, f"Meeple Land — round {state.round}, "
                                      f"{state.names[state.current]} to play", footer, shelf,
                            {code: state.catalogue.tile(code) for code in market.tiles()})


# -- helpers ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Step:
    """A layout puzzle's next single step, as ``hint`` gives it (and ``render --hint`` draws
    it): ``move`` and the ``piece`` it places, or ``None`` with a ``note`` saying why not."""

    status: HintStatus
    value_text: str
    search: dict[str, Any]
    note: str = ""
    move: Move | None = None
    piece: Piece | None = None
    tiles: int = 0
    """How many tiles the best layout found places (the step is the first of them)."""


def _cannot_hold(conflict: Sequence[Requirement], minimal: bool) -> str:
    """An infeasible puzzle's conflict in one sentence, saying when it may not be minimal."""
    return ("; ".join(r.text for r in conflict) + " cannot all hold together"
            + ("" if minimal else f" {NOT_MINIMAL}"))


def _next_step(puzzle: Puzzle, options: Options, keep: float = 0.0) -> _Step:
    """The first tile, in a legal build order, of the best layout found for ``puzzle`` (within
    the time left less ``keep`` seconds for what follows: see :meth:`Options.time_left`)."""
    from ..models.meeple_land.park import Piece
    from ..models.meeple_land.puzzle import OBJECTIVE_TEXT
    from ..solvers.meeple_land.layout import solve_layout

    result = solve_layout(puzzle, time_limit=options.time_left(keep),
                          workers=options.extra.get("search_workers"), seed=options.seed,
                          progress=_progress())
    goal = OBJECTIVE_TEXT[puzzle.objective]
    value_text = f"the puzzle's objective ({goal}) of the best layout found"
    search = {"method": "CP-SAT layout model", **result.usage}
    if result.layout is None:
        note = ("no layout meets every requirement: "
                + _cannot_hold(result.conflict, result.conflict_minimal)
                if result.status == "infeasible" else
                "no layout found within the budget: no step to suggest")
        return _Step("exact" if result.status == "infeasible" else "unknown", value_text,
                     search, note)
    layout = result.layout
    order = [k for k in result.build_order if k >= len(puzzle.placed)]
    if not order:
        if result.status == "optimal":
            return _Step("exact", value_text, search, "nothing to place: the pre-placed "
                         "tiles are already the best layout")
        return _Step("unknown", value_text, search,
                     f"no step to suggest: the best layout found within the budget places "
                     f"no tile ({goal} {result.objective}; no layout beats {result.bound}, "
                     "not proven: give it more time)")
    piece = layout.pieces[order[0]]
    p = piece.placement
    turned = f" turned {p.rotation}" if p.rotation else ""
    proven = result.status == "optimal"
    reason = (f"the first of {plural(len(order), 'tile')} to place, in a build order where "
              f"each connects, of a layout reaching {goal} {result.objective} "
              + ("(proven optimal)" if proven else f"(the best found; no layout beats "
                                                   f"{result.bound})")
              + "; solving the puzzle shows the whole layout")
    move = Move(f"place {p.tile} at {p.at[0]},{p.at[1]}{turned}", result.objective, reason,
                {"tiles_to_place": len(order), "bound": result.bound},
                text=f"place {piece.tile.label} at column {p.at[0]}, row {p.at[1]}"
                     + (f", turned {p.rotation}° clockwise" if p.rotation else ""))
    # on the puzzle as given (its pre-placed tiles), the step is the next piece
    return _Step("exact" if proven else "estimate", value_text, search, move=move,
                 piece=Piece.make(len(puzzle.placed), p, piece.tile), tiles=len(order))



def _game(document: Document) -> MeepleLandState:
    """A legal game state (rule problems are bad input, with a pointer to ``verify``)."""
    from ..models.meeple_land.position import game_problems, load_state

    state = load_state(document.data, document.source)
    unknown = [t for t in state.market.tiles() if t not in state.catalogue.tiles]
    if unknown:
        raise InputError(document.source, "market", "tile ids of the catalogue", unknown[0])
    require_valid(game_problems(state), document.source)
    return state


def _puzzle(document: Document) -> Puzzle:
    from ..models.meeple_land.puzzle import load_puzzle

    puzzle = load_puzzle(document.data, document.source)
    problems = puzzle.problems()
    if problems:
        listed = "; ".join(f"{p.field}: {p.message}" if p.field else p.message
                           for p in problems)
        raise InputError(document.source, None, f"a well-posed puzzle ({listed}); run "
                         "'partysolver verify' for the full list")
    return puzzle


def _recorded_report(answer: Answer | None, data: dict[str, Any], lines: list[str],
                     status: str, optimum: int | None = None, count: int | None = None,
                     complete: bool = False) -> Report:
    """A puzzle's solve report, with its recorded answer (``recorded`` in the JSON) compared to
    what the search proved: exit code 1 when the file claims something false."""
    if answer is None:
        return Report(data, "\n".join(lines))
    data["recorded"] = {"status": answer.status, "objective": answer.objective,
                        "layouts": answer.layouts}
    differs, said = _compare_recorded(answer, status, optimum, count, complete)
    if said:
        data["recorded"] |= {"matches": not differs, "differs": differs}
    return Report(data, "\n".join(lines + said), exit_code=1 if differs else 0)


def _compare_recorded(answer: Answer, status: str, optimum: int | None = None,
                      count: int | None = None, complete: bool = False
                      ) -> tuple[list[str], list[str]]:
    """What the search proved (``status``: a layout found, ``optimal`` or ``feasible``, or
    ``infeasible``; a proven optimum and, with ``--count``, its count of distinct optimal
    layouts) against the puzzle's recorded answer: the fields that differ (``status``,
    ``objective``, ``layouts``) and a line for each field compared (none when nothing recorded
    could be compared)."""
    differs: list[str] = []
    lines: list[str] = []
    if (answer.status == "infeasible") != (status == "infeasible"):
        found = "no layout meets every requirement" if status == "infeasible" \
            else "a layout meets every requirement"
        return ["status"], [f"recorded answer: {answer.status} (DIFFERS: {found})"]
    if status == "infeasible":
        return [], ["recorded answer: infeasible (matches)"]
    if status != "optimal":
        return [], []
    if answer.status == "feasible":  # a recorded layout and bound: the optimum lies between
        inside = (answer.objective is None or answer.objective <= (optimum or 0)) and (
            answer.bound is None or (optimum or 0) <= answer.bound)
        return ([] if inside else ["objective"]), [
            f"recorded best {answer.objective}, bound {answer.bound} ("
            + ("matches" if inside else "DIFFERS") + f": the optimum is {optimum})"]
    if answer.objective is not None:
        same = answer.objective == optimum
        lines.append(f"recorded optimum: {answer.objective} "
                     f"({'matches' if same else 'DIFFERS'})")
        if not same:
            differs.append("objective")
    if answer.layouts is not None and count is not None:
        if complete:
            same = answer.layouts == count
            lines.append(f"recorded optimal layouts: {answer.layouts} ("
                         + ("matches" if same else f"DIFFERS: {count} counted") + ")")
        else:  # counting stopped: only fewer layouts than already counted is known false
            same = answer.layouts >= count
            lines.append(f"recorded optimal layouts: {answer.layouts} ("
                         + (f"not checked: the count stopped at {count}" if same else
                            f"DIFFERS: at least {count} counted") + ")")
        if not same:
            differs.append("layouts")
    return differs, lines


def _standings(state: MeepleLandState) -> list[dict[str, Any]]:
    out = []
    for seat, name in enumerate(state.names):
        score = state.score(seat)
        out.append({"player": name, "money": state.parks[seat].money,
                    "reputation": score.total, "deducted": score.deducted,
                    "visitors_inside": sum(score.seating.seated)})
    return out


def _winners(state: MeepleLandState) -> str:
    shares = state.returns()
    names = [state.names[i] for i, s in enumerate(shares) if s > 0]
    scores = ", ".join(f"{state.names[i]} {state.score(i).total}"
                       for i in range(state.num_players))
    verb = "wins" if len(names) == 1 else "share the win"
    return f"{' and '.join(names)} {verb} ({scores})"


def make_policy(name: str) -> Any:
    from ..solvers.meeple_land.hint import GreedyPolicy, HintPolicy
    from ..solvers.simulate import RandomPolicy

    return {"greedy": GreedyPolicy, "hint": HintPolicy}.get(name, RandomPolicy)()


def describe_game(state: MeepleLandState) -> str:
    """A game position in a few lines: the round, the market and the parking lot, each
    player's purse, reputation and bus, and the park of the player to act (drawn as text)."""
    from ..models.meeple_land.render import ascii_picture, legend

    market = state.market
    to_act = "the game is over" if state.finished else f"{state.names[state.current]} to act"
    lines = [f"round {state.round}; {to_act}" + ("; passed: " + ", ".join(
        state.names[s] for s in sorted(state.passed)) if state.passed else "")]
    lines.append("market: " + ", ".join(
        f"{size} {' '.join(market.of(size)) or '-'}" for size in ("small", "medium", "large"))
        + f"; {market.extensions} extensions, {market.entrances} entrances left"
        + (f"; advert on the small pile: {state.advert}" if state.advert else ""))
    if state.parking:
        lines.append("parking lot: " + "; ".join(f"bus {bus} ({counts_text(on)})"
                                                 for bus, on in state.parking))
    for seat, name in enumerate(state.names):
        park = state.parks[seat]
        bus = f"; bus {park.bus} ({counts_text(park.bus_visitors)})" if park.bus else ""
        lines.append(f"{name}: ${park.money}, reputation now {state.score(seat).total}, "
                     f"{plural(len(park.placed), 'tile')}, visitors {counts_text(park.visitors)}"
                     + bus)
    if not state.finished:
        seat = state.current
        layout = state.parks[seat].layout(state.catalogue)
        if layout.pieces:
            lines.append(f"{state.names[seat]}'s park:")
            lines += [ascii_picture(layout), *legend(layout)]
    return "\n".join(lines)


class new_game_factory:  # noqa: N801 - a picklable function object
    """Makes a new house-catalogue game for ``players`` (for worker processes)."""

    def __init__(self, players: int) -> None:
        self.players = players

    def __call__(self, rng: random.Random) -> MeepleLandState:
        from ..models.meeple_land.catalogue import house_catalogue
        from ..models.meeple_land.state import DEFAULT_NAMES, MeepleLandState

        return MeepleLandState.new_game(house_catalogue(), DEFAULT_NAMES[:self.players], rng)


def final_scores(state: MeepleLandState) -> dict[str, float]:
    return {f"reputation_{i + 1}": float(state.score(i).total)
            for i in range(state.num_players)}


COMMANDS = MeepleLandCommands()


def _progress() -> Callable[[Progress], None]:
    """Each improvement of a layout search (best score, bound, seconds) as the status line a
    front end shows while it waits (the command line: on stderr, on a terminal only)."""
    from ..solvers.notices import status_reporter

    report = status_reporter()
    return lambda progress: report(str(progress))

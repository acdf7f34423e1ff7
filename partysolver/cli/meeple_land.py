"""The command-line adapter of Meeple Land.

Files say ``kind = "puzzle"`` (layout puzzles: ``solve``, ``verify``, ``render``), ``"park"``
(one park: ``verify``, ``solve`` = best seating, ``render``) or ``"game"`` (a full game state:
``hint``, ``verify``, ``render``).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import click

from ..models.errors import InputError
from ..models.meeple_land.catalogue import house_catalogue, load_catalogue, size_counts
from ..models.meeple_land.game import (
    INFO,
    counts_dict,
    counts_text,
    entrance_text,
)
from ..models.meeple_land.park import Layout, Piece, Score
from ..models.meeple_land.position import (
    ParkPosition,
    describe_park,
    document_kind,
    game_problems,
    load_park,
    load_state,
)
from ..models.meeple_land.puzzle import OBJECTIVE_TEXT, Puzzle, load_puzzle
from ..models.meeple_land.render import Picture, ascii_picture, legend, letters, render_parks
from ..models.meeple_land.state import DEFAULT_NAMES, MeepleLandState
from .adapters import (
    BadInput,
    Document,
    GameCommands,
    Options,
    Report,
    problems_report,
    require_valid,
)
from .output import problems_json, problems_text, table, top

COUNT = click.Option(["--count"], is_flag=True, default=False,
                     help="meeple-land: also count the distinct optimal layouts (projected "
                          "onto placements).")
COUNT_LIMIT = click.Option(["--count-limit"], type=click.IntRange(min=1), default=1000,
                           show_default=True,
                           help="meeple-land: stop counting optimal layouts at this many.")
SEARCH_WORKERS = click.Option(["--search-workers"], type=click.IntRange(min=1), default=None,
                              help="meeple-land: CP-SAT workers (default: up to 8, one per "
                                   "core; always 1 with --seed).")
BUILD_ORDER = click.Option(["--build-order"], is_flag=True, default=False,
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
    return document_kind(document.data, document.source)


# -- the adapter ------------------------------------------------------------------------------


class MeepleLandCommands(GameCommands):
    info = INFO
    verbs = frozenset({"hint", "solve", "verify", "simulate", "render"})
    options: ClassVar[dict[str, list[click.Option]]] = {
        "solve": [COUNT, COUNT_LIMIT, SEARCH_WORKERS],
        "verify": [SEARCH_WORKERS],
        "render": [BUILD_ORDER, SEARCH_WORKERS],
    }
    policies = ("random", "greedy")

    # -- hint ---------------------------------------------------------------------------------

    def hint(self, document: Document, options: Options) -> Report:
        from ..solvers.meeple_land.hint import rank_moves

        if _kind(document) != "game":
            raise BadInput(f"{document.source}: hint needs a game position (kind = \"game\"); "
                           "solve a puzzle or a park with 'partysolver solve'")
        state = _game(document)
        data: dict[str, Any] = {"game": INFO.key}
        if state.finished:
            data |= {"status": "optimal", "moves": [], "standings": _standings(state)}
            return Report(data, "the game is over: " + _winners(state))
        if state.pending:
            data |= {"status": "unknown", "moves": [], "pending": list(state.pending)}
            return Report(data, f"chance must act first ({state.pending[0]}): nothing to "
                                "decide")
        who = state.names[state.current]
        ranked = rank_moves(state)
        shown = top(ranked, options.top)
        data |= {"player": who, "round": state.round, "money": state.parks[state.current].money,
                 "status": "feasible", "method": "estimate of end-game reputation "
                 "(exact seating)",
                 "moves": [{"move": str(m.move), "text": m.text, "value": m.value,
                            "reason": m.reason,
                            "terms": {k: round(v, 2) for k, v in m.estimate.terms.items()}}
                           for m in shown]}
        rows = [(i, m.text, f"{m.value:.1f}", m.reason) for i, m in enumerate(shown, 1)]
        head = (f"{who}, round {state.round}, ${state.parks[state.current].money}: "
                f"{len(ranked)} option(s) ranked by estimated end-game reputation "
                "(heuristic; seating exact)")
        return Report(data, head + "\n" + table(["#", "move", "value", "why"], rows, right=(0,)))

    # -- solve --------------------------------------------------------------------------------

    def solve(self, document: Document, options: Options) -> Report:
        kind = _kind(document)
        if kind == "puzzle":
            return self._solve_puzzle(document, options)
        if kind == "park":
            return self._seat_park(document, options)
        raise BadInput(f"{document.source}: solve takes a puzzle or a park (a game position "
                       "is for 'partysolver hint')")

    def _solve_puzzle(self, document: Document, options: Options) -> Report:
        from ..solvers.meeple_land.layout import solve_layout

        puzzle = _puzzle(document)
        result = solve_layout(puzzle, time_limit=options.time_limit,
                              workers=options.extra.get("search_workers"), seed=options.seed,
                              count=bool(options.extra.get("count")),
                              count_limit=options.extra.get("count_limit", 1000))
        objective = {"name": puzzle.objective, "text": OBJECTIVE_TEXT[puzzle.objective],
                     "value": result.objective, "bound": result.bound}
        data: dict[str, Any] = {"game": INFO.key, "status": result.status,
                                "objective": objective, "usage": result.usage}
        how = (f"{result.usage.get('seconds', 0):.2f} s, " if options.timings else "") + \
            f"{result.usage.get('workers')} worker(s)"
        if result.status == "infeasible":
            data["solution"] = None
            data["conflict"] = [{"requirement": r.key, "text": r.text} for r in result.conflict]
            lines = [f"infeasible ({how}): these requirements cannot all hold together:"]
            lines += [f"  - {r.text}" for r in result.conflict]
            return Report(data, "\n".join(lines))
        if result.layout is None:
            data["solution"] = None
            return Report(data, f"unknown: no layout found within the budget ({how}); nothing "
                                "is claimed")
        layout = result.layout
        names = letters(len(layout.pieces))
        score = layout.score(puzzle.visitors)
        data["solution"] = {
            "placements": [_placement_json(p, names[k]) for k, p in enumerate(layout.pieces)],
            "pre_placed": len(puzzle.placed),
            "build_order": [names[k] for k in result.build_order],
            "spent": sum(p.tile.cost for p in layout.pieces[len(puzzle.placed):]),
            "breakdown": _score_json(layout, score),
            "revenue": layout.revenue(puzzle.visitors),
            "picture": ascii_picture(layout, names),
        }
        if result.count is not None:
            data["count"] = {"layouts": result.count, "complete": result.count_complete}
        if puzzle.answer is not None:
            data["recorded"] = {"status": puzzle.answer.status,
                                "objective": puzzle.answer.objective,
                                "layouts": puzzle.answer.layouts}
        if result.status == "optimal":
            head = f"optimal: {OBJECTIVE_TEXT[puzzle.objective]} {result.objective} " \
                   f"(proven; {how})"
        else:
            head = f"feasible: {OBJECTIVE_TEXT[puzzle.objective]} {result.objective}, best " \
                   f"bound {result.bound} (out of time: {how})"
        lines = [head, ascii_picture(layout, names), *legend(layout, names),
                 "build order: " + _order_text(result.build_order, names),
                 f"spent: ${data['solution']['spent']}"
                 + (f" of ${puzzle.budget}" if puzzle.budget is not None else "")]
        lines += describe_park(layout, puzzle.visitors)
        if result.count is not None:
            exact = "" if result.count_complete else " at least (stopped by the limit or time)"
            lines.append(f"distinct optimal layouts: {result.count}{exact}")
        if puzzle.answer is not None and puzzle.answer.objective is not None \
                and result.status == "optimal":
            same = puzzle.answer.objective == result.objective
            lines.append(f"recorded optimum: {puzzle.answer.objective} "
                         f"({'matches' if same else 'DIFFERS'})")
        return Report(data, "\n".join(lines))

    def _seat_park(self, document: Document, options: Options) -> Report:
        park = load_park(document.data, document.source)
        require_valid(park.problems(), document.source)
        layout = park.layout
        visitors = park.visitors()
        seating = layout.seat(visitors)
        usable = [slot for slot in layout.slots if slot.usable]
        seats = [{"tile": layout.pieces[slot.piece].tile.id, "space": slot.index,
                  "accepts": str(slot.space), "visitor": colour}
                 for slot, colour in zip(usable, seating.assigned, strict=True)]
        data = {"game": INFO.key, "status": "optimal",
                "objective": {"points": seating.points, "revenue": seating.revenue},
                "solution": {"seats": seats, "seated": counts_dict(seating.seated),
                             "waiting": counts_dict(seating.waiting)}}
        lines = [f"optimal seating (exact matching): {counts_text(seating.seated)} inside, "
                 f"{counts_text(seating.waiting)} at the entrance",
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
        catalogue = load_catalogue(document.data, document.source, document.source)
        sizes = size_counts(catalogue)
        data: dict[str, Any] = {"game": INFO.key, "valid": True, "problems": [],
                                "kind": "catalogue", "tiles": sizes,
                                "attraction_types": list(catalogue.attraction_types),
                                "adverts": len(catalogue.adverts),
                                "buses": len(catalogue.buses)}
        text = (f"{problems_text([])}\ncatalogue {catalogue.name!r}: "
                f"{sum(sizes.values())} tiles ("
                + ", ".join(f"{n} {size}" for size, n in sizes.items())
                + f"), {len(catalogue.attraction_types)} attraction types, "
                f"{len(catalogue.adverts)} adverts, {len(catalogue.buses)} buses")
        return Report(data, text)

    def _verify_park(self, park: ParkPosition) -> Report:
        problems = park.problems()
        layout = park.layout
        names = [p.tile.id for p in layout.pieces]
        order = layout.build_order() if layout.pieces else []
        score = layout.score(park.visitors())
        data: dict[str, Any] = {
            "game": INFO.key, "valid": not problems, "problems": problems_json(problems),
            "build_order": None if order is None else [names[k] for k in order],
            "breakdown": _score_json(layout, score),
            "revenue": layout.revenue(park.visitors()),
        }
        lines = [problems_text(problems), "build order: " + _order_text(order, names)]
        lines += describe_park(layout, park.visitors())
        return Report(data, "\n".join(lines), exit_code=1 if problems else 0)

    def _verify_puzzle(self, document: Document, options: Options) -> Report:
        from ..solvers.meeple_land.layout import feasibility

        puzzle = load_puzzle(document.data, document.source)
        problems = puzzle.problems()
        data: dict[str, Any] = {"game": INFO.key, "valid": not problems,
                                "problems": problems_json(problems)}
        text = [problems_text(problems)]
        if problems:
            data["verdict"] = "unknown"
            return Report(data, "\n".join(text), exit_code=1)
        verdict = feasibility(puzzle, options.time_limit, options.extra.get("search_workers"),
                              options.seed)
        data["verdict"] = verdict.verdict
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
            text.append("unsolvable: these requirements cannot all hold together:")
            text += [f"  - {r.text}" for r in verdict.conflict]
        else:
            text.append("unknown: out of time before finding a layout or a proof")
        return Report(data, "\n".join(text))

    # -- simulate -----------------------------------------------------------------------------

    def simulate(self, players: int | None, games: int, policies: tuple[str, ...],
                 options: Options, progress: Any) -> Report:
        from ..solvers.meeple_land.hint import GreedyPolicy
        from ..solvers.simulate import RandomPolicy, simulate

        n = players or 2
        names = policies or ("greedy",)
        chosen = [GreedyPolicy() if name == "greedy" else RandomPolicy() for name in names]
        seat_policies = [names[seat % len(names)] for seat in range(n)]
        rotate = bool(options.extra.get("rotate", False))
        result = simulate(new_game_factory(n), chosen, games, seed=options.rng_seed,
                          rotate=rotate, stats=final_scores,
                          workers=options.extra.get("workers", 1), progress=progress)
        seats = result.seat_rates()
        figures = result.figures()
        data: dict[str, Any] = {
            "game": INFO.key, "players": n, "games": games, "policies": list(names),
            "rotate": rotate,
            "seats": [{"seat": DEFAULT_NAMES[i], "policy": None if rotate else seat_policies[i]}
                      | rate.as_json() for i, rate in enumerate(seats)],
            "by_policy": {name: rate.as_json() for name, rate in result.policy_rates().items()},
            "figures": {k: f.as_json() for k, f in figures.items()},
        }
        rows = [(DEFAULT_NAMES[i], "rotating" if rotate else seat_policies[i], str(rate),
                 f"{figures[f'reputation_{i + 1}'].mean:.1f}") for i, rate in enumerate(seats)]
        text = [f"{games} games, {n} players (win rate with 95% interval; ties share)",
                table(["seat", "policy", "win rate", "mean reputation"], rows)]
        if len(set(names)) > 1:
            text.append(table(["policy", "win rate"],
                              [(name, str(rate)) for name, rate in result.policy_rates().items()]))
        return Report(data, "\n".join(text))

    # -- render -------------------------------------------------------------------------------

    def render(self, document: Document, options: Options) -> str:
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
        puzzle = _puzzle(document)
        layout = puzzle.layout_of([])
        caption = f"pool: {', '.join(puzzle.pool)}"
        if options.extra.get("hint"):
            from ..solvers.meeple_land.layout import solve_layout

            result = solve_layout(puzzle, time_limit=options.time_limit,
                                  workers=options.extra.get("search_workers"), seed=options.seed)
            if result.layout is not None:
                layout = result.layout
                caption = f"{result.status}: {OBJECTIVE_TEXT[puzzle.objective]} " \
                          f"{result.objective}"
        order = layout.build_order() if numbered else None
        return render_parks([Picture(layout, puzzle.visitors, puzzle.name or "puzzle", order,
                                     caption=caption)],
                            f"Meeple Land puzzle — objective: "
                            f"{OBJECTIVE_TEXT[puzzle.objective]}",
                            describe_park(layout, puzzle.visitors))

    def _render_game(self, document: Document, options: Options, numbered: bool) -> str:
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
        footer = [f"market: small {', '.join(market.small) or '-'}; medium "
                  f"{', '.join(market.medium) or '-'}; large {', '.join(market.large) or '-'}",
                  "buses: " + ", ".join(f"{b} ({counts_text(c)})" for b, c in state.parking)]
        return render_parks(pictures, f"Meeple Land — round {state.round}, "
                                      f"{state.names[state.current]} to play", footer)


# -- helpers ----------------------------------------------------------------------------------


def _game(document: Document) -> MeepleLandState:
    """A legal game state (rule problems are bad input, with a pointer to ``verify``)."""
    state = load_state(document.data, document.source)
    unknown = [t for t in state.market.tiles() if t not in state.catalogue.tiles]
    if unknown:
        raise InputError(document.source, "market", "tile ids of the catalogue", unknown[0])
    require_valid(game_problems(state), document.source)
    return state


def _puzzle(document: Document) -> Puzzle:
    puzzle = load_puzzle(document.data, document.source)
    problems = puzzle.problems()
    if problems:
        listed = "; ".join(f"{p.field}: {p.message}" if p.field else p.message
                           for p in problems)
        raise InputError(document.source, None, f"a well-posed puzzle ({listed}); run "
                         "'partysolver verify' for the full list")
    return puzzle


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


class new_game_factory:  # noqa: N801 - a picklable function object
    """Makes a new house-catalogue game for ``players`` (for worker processes)."""

    def __init__(self, players: int) -> None:
        self.players = players

    def __call__(self, rng: random.Random) -> MeepleLandState:
        return MeepleLandState.new_game(house_catalogue(), DEFAULT_NAMES[:self.players], rng)


def final_scores(state: MeepleLandState) -> dict[str, float]:
    return {f"reputation_{i + 1}": float(state.score(i).total)
            for i in range(state.num_players)}


COMMANDS = MeepleLandCommands()

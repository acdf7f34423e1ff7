"""The command-line adapter of Epic Monster Tea Party."""

from __future__ import annotations

import math
import random
from typing import Any, ClassVar

import click

from ..models.protocol import TERMINAL
from ..models.tea_party import INFO, TeaPartyState, load_position
from ..models.tea_party.position import Position, describe_position
from ..models.tea_party.render import move_arrows, render_svg
from ..models.tea_party.state import CHOOSE, DRAW, THROW_UP
from ..solvers import tea_party as solver
from ..solvers.budget import Budget, SearchResult
from ..solvers.simulate import RandomPolicy, simulate
from .adapters import (
    Document,
    GameCommands,
    Options,
    Report,
    problems_report,
    require_valid,
)
from .output import percent, table, top

EXACT_NODES = click.Option(["--exact-nodes"], type=click.IntRange(min=1), default=None,
                           help="tea-party: nodes the exact search may use before MCTS "
                                f"(default {solver.DEFAULT_EXACT_NODES_TWO:,} for two "
                                f"monsters, {solver.DEFAULT_EXACT_NODES:,} for more).")
ITERATIONS = click.Option(["--mcts-iterations"], type=click.IntRange(min=1), default=None,
                          help="tea-party: MCTS iterations when the exact search does not fit "
                               f"(default {solver.DEFAULT_MCTS_ITERATIONS}).")
SOLVE_NODES = click.Option(["--max-nodes"], type=click.IntRange(min=1), default=None,
                           help="Node budget of an exact search (its table grows with it: "
                                "43 to 85 bytes a node for two monsters, 300 for more; "
                                f"default {solver.DEFAULT_SOLVE_NODES_TWO:,} for two, "
                                f"{solver.DEFAULT_SOLVE_NODES:,} for more).")


def _load(document: Document) -> tuple[Position, TeaPartyState]:
    position = load_position(document.data, document.source)
    require_valid(position.problems(), document.source)
    return position, position.to_state(document.source)


def _values(state: TeaPartyState, values: tuple[float, ...] | None) -> dict[str, float] | None:
    if values is None:
        return None
    return {state.name(i): round(v, 6) for i, v in enumerate(values)}


def _usage_text(result: SearchResult, timings: bool = True) -> str:
    usage = result.usage
    seconds = f", {usage.get('seconds', 0):.2f} s" if timings else ""
    if result.method.startswith("MCTS"):
        return f"{result.method}, {usage.get('iterations', 0):,} iterations{seconds}"
    return f"{result.method}, {usage.get('nodes', 0):,} nodes{seconds}"


def _estimate(move: solver.RankedMove, exact: bool) -> tuple[dict[str, Any], str]:
    """A ranked move as JSON (its value; for an estimate also its visits, whether the search
    proved it, and no interval) and its win chance as text; a move the budget never reached is
    "not searched"."""
    value = move.value
    searched = exact or value.visits > 0
    entry: dict[str, Any] = {"move": str(move.move), "text": move.text,
                             "value": round(value.value, 6) if searched else None,
                             "reason": move.reason}
    win = percent(value.value) if searched else "not searched"
    if not exact:
        entry |= {"visits": value.visits, "exact": value.exact, "interval": None}
        if searched:
            win += " (exact)" if value.exact else f" ({value.visits:,} visits)"
    return entry, win


def _hint_rows(hint: solver.Hint, k: int | None) -> tuple[list[dict[str, Any]], str]:
    exact = hint.exact
    rows, lines = [], []
    best = hint.moves[0].value.value if hint.moves else 0.0
    for rank, move in enumerate(top(hint.moves, k), 1):
        entry, win = _estimate(move, exact)
        searched = entry["value"] is not None
        entry |= {"values": _values(hint.state, move.value.values) if searched else None,
                  "exact": exact}
        rows.append(entry)
        gap = "" if not searched else "best" if rank == 1 else \
            f"{100 * (move.value.value - best):+.1f}"
        lines.append((rank, move.text, win, gap, move.reason))
    text = table(["#", "move", "win", "vs best (pp)", "why"], lines, right=(0, 3))
    return rows, text


class TeaPartyCommands(GameCommands):
    info = INFO
    verbs = frozenset({"hint", "solve", "verify", "simulate", "render"})
    options: ClassVar[dict[str, list[click.Option]]] = {
        "hint": [EXACT_NODES, ITERATIONS],
        "render": [EXACT_NODES, ITERATIONS],
        "solve": [SOLVE_NODES],
    }
    policies = ("random", "greedy", "hint")

    # -- hint ---------------------------------------------------------------------------------

    def _budget(self, options: Options) -> Budget:
        return Budget(time=options.time_limit, iterations=options.extra.get("mcts_iterations"))

    def hint(self, document: Document, options: Options) -> Report:
        _, state = _load(document)
        rng = random.Random(options.rng_seed)
        budget, nodes = self._budget(options), options.extra.get("exact_nodes")
        who = state.name(state.player)
        data: dict[str, Any] = {"game": INFO.key, "player": who}
        if state.phase == CHOOSE:
            hint = solver.hint(state, budget, rng, nodes, _notice)
            rows, text = _hint_rows(hint, options.top)
            held = state.held_hero
            assert held is not None
            data |= {"drawn": held.name.lower(), "status": hint.result.status,
                     "method": hint.result.method, "exact": hint.exact,
                     "values": _values(state, hint.result.values), "moves": rows,
                     "usage": hint.result.usage}
            options_text = "1 option" if len(hint.moves) == 1 else f"{len(hint.moves)} options"
            head = (f"{who} holds a {held.label}: {options_text}, ranked by {who}'s chance to "
                    f"win ({_usage_text(hint.result, options.timings)})")
            if not hint.exact:
                head += f"\n{hint.values_are}"
            return Report(data, f"{head}\n{text}")
        if state.phase == DRAW:
            return self._draw_report(state, budget, rng, nodes, options, data)
        if state.current_player() == TERMINAL:
            data |= {"status": "optimal", "moves": [], "values": _values(state, state.returns())}
            return Report(data, "the game is over: " + _winners(state))
        assert state.phase == THROW_UP
        data |= {"status": "optimal", "moves": []}
        return Report(data, f"{state.name(state.thrower)} must throw up first: nothing to "
                            "decide (use 'solve' for the odds)")

    def _draw_report(self, state: TeaPartyState, budget: Budget, rng: random.Random,
                     nodes: int | None, options: Options, data: dict[str, Any]) -> Report:
        hints = solver.draw_hints(state, budget, rng, nodes, _notice)
        draws, lines = [], []
        expected = 0.0
        for item in hints:
            best = item.hint.moves[0]
            answer, win = _estimate(best, item.hint.exact)
            searched = answer["value"] is not None
            expected += item.probability * (best.value.value if searched else math.nan)
            draws.append({"hero": item.hero.name.lower(), "probability": round(item.probability, 6),
                          "best": answer, "exact": item.hint.exact})
            lines.append((item.hero.label, percent(item.probability), best.text, win))
        exact = all(item.hint.exact for item in hints)
        who = state.name(state.player)
        draw = {"move": "draw", "text": "draw a hero from the bag",
                "value": round(expected, 6) if math.isfinite(expected) else None,
                "reason": f"nothing to decide before the draw: {who}'s chance to win with the "
                          "best answer to each draw (see draws)", "exact": exact}
        data |= {"status": "optimal" if exact else "feasible", "moves": [draw], "draws": draws}
        text = (f"{who} has not drawn yet: the best answer to each draw "
                f"({'exact' if exact else 'estimated by MCTS, no interval'})\n"
                + table(["draw", "chance", "best answer", "win"], lines, right=(1,)))
        if math.isfinite(expected):
            text += f"\n{who}'s chance to win before the draw: {percent(expected)}"
        return Report(data, text)

    # -- solve --------------------------------------------------------------------------------

    def solve(self, document: Document, options: Options) -> Report:
        _, state = _load(document)
        budget = Budget(time=options.time_limit, nodes=options.extra.get("max_nodes")
                        or solver.solve_nodes_default(state))
        solution = solver.solve(state, budget, _notice)
        result = solution.result
        values = _values(state, result.values)
        data: dict[str, Any] = {"game": INFO.key, "status": result.status,
                                "objective": values, "usage": result.usage,
                                "solution": {"line": list(solution.line),
                                             "moves": [{"move": str(m.action),
                                                        "text": state.describe_action(m.action),
                                                        "value": round(m.value, 6)}
                                                       for m in top(result.moves, options.top)]}}
        if result.status != "optimal":
            return Report(data, f"unknown: the exact search ran out of its budget "
                                f"({_usage_text(result, options.timings)}); no value is "
                                "claimed")
        lines = [f"optimal ({_usage_text(result, options.timings)})",
                 "win probability: " + ", ".join(
            f"{name} {percent(v)}" for name, v in (values or {}).items())]
        if result.moves:
            lines.append("options: " + "; ".join(
                f"{state.describe_action(m.action)} {percent(m.value)}"
                for m in top(result.moves, options.top)))
        lines.append("best line:")
        lines += [f"  {step}" for step in solution.line]
        return Report(data, "\n".join(lines))

    # -- verify -------------------------------------------------------------------------------

    def verify(self, document: Document, options: Options) -> Report:
        position = load_position(document.data, document.source)
        return problems_report(INFO.key, position.problems(),
                               lambda: describe_position(position))

    # -- simulate -----------------------------------------------------------------------------

    def simulate(self, players: int | None, games: int, policies: tuple[str, ...],
                 options: Options, progress: Any) -> Report:
        n = players or 2
        names = policies or ("greedy",)
        chosen = [make_policy(name) for name in names]
        seat_policies = [names[seat % len(names)] for seat in range(n)]

        result = simulate(solver.NewGame(DEFAULT_SEATS[:n]), chosen, games, seed=options.rng_seed,
                          rotate=options.extra.get("rotate", False), stats=final_scores,
                          workers=options.extra.get("workers", 1), progress=progress)
        seats = result.seat_rates()
        data: dict[str, Any] = {
            "game": INFO.key, "players": n, "games": games, "policies": list(names),
            "rotate": options.extra.get("rotate", False),
            "seats": [{"seat": DEFAULT_SEATS[i], "policy": None if options.extra.get("rotate")
                       else seat_policies[i]} | rate.as_json() for i, rate in enumerate(seats)],
            "by_policy": {name: rate.as_json() for name, rate in result.policy_rates().items()},
            "figures": {k: f.as_json() for k, f in result.figures().items()},
        }
        rows = [(DEFAULT_SEATS[i], "rotating" if options.extra.get("rotate") else
                 seat_policies[i], str(rate)) for i, rate in enumerate(seats)]
        text = [f"{games} games, {n} players (win rate with 95% interval; ties share)",
                table(["seat", "policy", "win rate"], rows)]
        if len(set(names)) > 1:
            text.append(table(["policy", "win rate"],
                              [(name, str(rate)) for name, rate in result.policy_rates().items()]))
        scores = result.figures()
        text.append("mean final score: " + ", ".join(
            f"{DEFAULT_SEATS[i]} {scores[f'score_{i + 1}'].mean:.1f}" for i in range(n)))
        return Report(data, "\n".join(text))

    # -- render -------------------------------------------------------------------------------

    def render(self, document: Document, options: Options) -> str:
        _, state = _load(document)
        arrows, caption = [], ""
        if options.extra.get("hint") and state.phase == CHOOSE:
            hint = solver.hint(state, self._budget(options), random.Random(options.rng_seed),
                               options.extra.get("exact_nodes"), _notice)
            best = hint.moves[0]
            arrows = move_arrows(state, best.move)
            caption = f"hint: {best.text} ({percent(best.value.value)} to win)"
        elif options.extra.get("hint"):
            caption = ("hint: nothing to decide before the draw (partysolver hint FILE answers "
                       "each draw)" if state.phase == DRAW else
                       "hint: nothing to decide: the game is over" if state.is_terminal() else
                       "hint: nothing to decide: a throw-up comes first")
        return render_svg(state, arrows, caption)


DEFAULT_SEATS = ("Blue", "Green", "Orange", "Purple")


def _notice(text: str) -> None:
    """A solver's one-line notice (before compiling), on stderr."""
    click.echo(text, err=True)


def make_policy(name: str) -> Any:
    if name == "random":
        return RandomPolicy()
    if name == "greedy":
        return solver.GreedyPolicy()
    return solver.HintPolicy()


def final_scores(state: TeaPartyState) -> dict[str, float]:
    return {f"score_{i + 1}": float(s) for i, s in enumerate(state.scores())}


def _winners(state: TeaPartyState) -> str:
    shares = state.returns()
    names = [state.name(i) for i, s in enumerate(shares) if s > 0]
    scores = ", ".join(f"{state.name(i)} {p}" for i, p in enumerate(state.scores()))
    verb = "wins" if len(names) == 1 else "share the win"
    return f"{' and '.join(names)} {verb} ({scores})"


COMMANDS = TeaPartyCommands()

"""The commands of Epic Monster Tea Party."""

from __future__ import annotations

import math
import random
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from ..models.errors import InputError
from ..models.protocol import TERMINAL
from ..models.tea_party import GAME, INFO
from .base import (
    Document,
    Options,
    OptionSpec,
    Report,
    Thresholds,
    Valuation,
    problems_report,
    require_valid,
)
from .contract import (
    WIN_RATE_HEADER,
    HintStatus,
    Move,
    Objective,
    fraction_text,
    hint_data,
    simulation_data,
    solve_data,
)
from .kinds import Figure, Figures
from .simulation import Plan, Run, SimulatingCommands
from .text import percent, table, top

if TYPE_CHECKING:  # the rules engine and the searches load when a verb runs (start-up)
    from ..models.tea_party.position import Position
    from ..models.tea_party.state import TeaPartyState
    from ..solvers.budget import Budget, SearchResult
    from ..solvers.tea_party.hint import Hint, RankedMove

SOLVER_DEFAULTS = {"DEFAULT_EXACT_NODES_TWO": 10_000_000, "DEFAULT_EXACT_NODES": 300_000,
                   "DEFAULT_MCTS_ITERATIONS": 3_000, "DEFAULT_SOLVE_NODES_TWO": 4_000_000,
                   "DEFAULT_SOLVE_NODES": 150_000}
"""The search's defaults the help states (``solvers.tea_party.budgets`` decides them; this module
imports it only when a verb runs: ``tests/test_startup.py`` checks the two agree)."""
_D = SOLVER_DEFAULTS

EXACT_NODES = OptionSpec("exact_nodes", "int", minimum=1, metavar="N",
                         help="tea-party: nodes the exact search may use before MCTS "
                                f"(default {_D['DEFAULT_EXACT_NODES_TWO']:,} for two "
                                f"monsters, {_D['DEFAULT_EXACT_NODES']:,} for more).")
ITERATIONS = OptionSpec("mcts_iterations", "int", minimum=1, metavar="N",
                        help="tea-party: MCTS iterations when the exact search does not fit "
                               f"(default without --time-limit: {_D['DEFAULT_MCTS_ITERATIONS']:,}"
                               ", shared among the draws before a draw, their exact subtrees "
                               "sharing a node budget).")
BOUNDS = OptionSpec("bounds", "flag", default=False,
                    help="tea-party, two monsters: also give every option an interval that "
                         "must contain its exact chance to win (proven bounds: a search "
                         "whose unexpanded leaves count at the least and most they can "
                         "end with), and say which option is proved best when the intervals "
                         "separate; half of --time-limit goes to it.")
SOLVE_NODES = OptionSpec("max_nodes", "int", minimum=1, metavar="N",
                         help="Node budget of an exact search (its table grows with it: "
                                "for two monsters up to --max-table-gib, at most 21 to 43 "
                                "bytes a node with compact keys, 43 to 85 with full ones, "
                                "1.5 times that while it doubles; 300 for more; "
                                f"default {_D['DEFAULT_SOLVE_NODES_TWO']:,} for two, "
                                f"{_D['DEFAULT_SOLVE_NODES']:,} for more).")
TABLE_GIB = OptionSpec("max_table_gib", "float", minimum=0.01, maximum=1024,
                       metavar="GIB",
                       help="tea-party, two monsters: the most memory the exact search's table "
                            "grows to, in GiB (default 8; 1.5 times as much while it doubles "
                            "to it). Full, it keeps its biggest subtrees' values and drops the "
                            "others: the value stays exact, the search takes more nodes.")

TABLE_FILE = OptionSpec("table", "text", metavar="FILE",
                        help="tea-party, two monsters: keep the exact search's table in FILE "
                             "(a .table file) between runs: loaded first, saved at the end, "
                             "every 10 minutes and when the search stops early (a limit, "
                             "Ctrl+C), so a long solve stopped goes on where it was. One "
                             "table serves any position; the file holds 16 bytes an entry "
                             "(32 for the widest positions).")

THREADS = OptionSpec("threads", "int", minimum=1, maximum=64, metavar="N",
                     help="tea-party, two monsters: run the exact search as N searches at once, "
                          "one a thread (a core each), sharing its table, each taking the "
                          "choices and draws in another order; the first to finish answers, "
                          "with the same value to the last digit (default 1; on 2 cores, 2 "
                          "solve a big position 1.7 to 2 times faster).")


def _load(document: Document) -> tuple[Position, TeaPartyState]:
    from ..models.tea_party.position import load_position

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


def _move(state: TeaPartyState, move: RankedMove, exact: bool,
          proven: tuple[float, float] | None = None) -> Move:
    """A ranked move in the contract: its value (``None`` when the budget never reached it),
    every monster's chance to win and, for an estimate, the search's visits to the move and
    whether the search proved its value (no interval: none is printed that would not cover);
    with ``proven`` bounds, the interval that must contain its exact value (``bounds``)."""
    value = move.value
    searched = exact or value.visits > 0 or value.exact
    figures: dict[str, Any] = {"win": _values(state, value.values) if searched else None}
    if not exact:
        figures["visits"] = value.visits
        figures["proved"] = value.exact
    extra = {} if proven is None else \
        {"bounds": {"low": proven[0], "high": proven[1], "proven": True}}
    return Move(GAME.notation.format(state, move.move), value.value if searched else None,
                move.reason, figures, text=move.text, extra=extra)


def _tenths(low: float, high: float) -> tuple[float, float]:
    """A proven interval in percent, rounded outwards to a tenth; the bounds come rounded
    outwards to six decimals, so products' last bits are rounded off first (0.57 is 57.0%,
    not 57.1%)."""
    return math.floor(round(low * 1000, 6)) / 10, math.ceil(round(high * 1000, 6)) / 10


def _bounds_text(low: float, high: float) -> str:
    """A proven interval in percent, rounded outwards to a tenth (a point: rounded)."""
    if low == high:
        return percent(low)
    shown = _tenths(low, high)
    return f"[{shown[0]:.1f}%, {shown[1]:.1f}%]"


def _proved_best_text(hint: Hint, timings: bool = True) -> str:
    """Which option the proven bounds show best, or that they do not separate."""
    assert hint.bounds is not None
    best = hint.proved_best
    found = hint.bounds
    seconds = f", {found.seconds:.2f} s" if timings else ""
    how = "exact values" if found.complete else \
        f"{found.depth} plies deep, {found.nodes:,} nodes{seconds}"
    if best is not None:
        return (f"proved best: {hint.state.describe_action(best)} (its proven low is at least "
                f"every other option's high; {how})")
    return f"no option is proved best: the proven intervals overlap ({how})"


def _bounds_data(hint: Hint) -> dict[str, Any]:
    """The JSON of a hint's proven bounds: the option proved best, and how far it got."""
    if hint.bounds is None:
        return {}
    best = hint.proved_best
    found = hint.bounds
    return {"proved_best": None if best is None else GAME.notation.format(hint.state, best),
            "bounds_search": {"depth": found.depth, "nodes": found.nodes,
                              "leaf_nodes": found.leaf_nodes, "seconds": found.seconds,
                              "exact": found.complete}}


def _win_text(move: Move) -> str:
    """The chance to win, and for an estimate how it stands: proved, or the visits behind it."""
    if move.value is None:
        return "not searched"
    text = percent(move.value)
    if "visits" in move.figures:
        text += " (exact)" if move.figures["proved"] else f" ({move.figures['visits']:,} visits)"
    return text


def _hint_rows(hint: Hint, k: int | None, timings: bool = True) -> tuple[list[Move], str]:
    moves = [_move(hint.state, move, hint.exact, hint.proven(move.move))
             for move in top(hint.moves, k)]
    from ..solvers.tea_party import budgets, exact

    if hint.exact:
        fractions = exact.exact_fractions(hint.state, budgets.EXACT_FRACTIONS // 4,
                                          searched=hint.result.usage.get("nodes", 0))
        if fractions is not None:
            player = hint.state.player
            moves = [replace(m, exact=fractions[move.move][player])
                     for m, move in zip(moves, hint.moves, strict=False)]
    best = moves[0].value if moves else None
    lines = []
    for rank, move in enumerate(moves, 1):
        gap = "" if move.value is None or best is None else "best" if rank == 1 else \
            f"{100 * (move.value - best):+.1f}"
        row: tuple[Any, ...] = (rank, move.move, _win_text(move), gap)
        if hint.bounds is not None:
            proven = move.extra["bounds"]
            row += (_bounds_text(proven["low"], proven["high"]),)
        lines.append(row + (f"{move.text}; {move.reason}",))
    legend = ("win: the chance to win after the move; vs best (pp): percentage points of that "
              "chance behind the best move")
    headers = ["#", "move", "win", "vs best (pp)", "why"]
    if hint.bounds is not None:
        headers.insert(4, "proven bounds")
        legend += ("; proven bounds: an interval that must contain the exact chance to win "
                   "(not an estimate)")
    text = table(headers, lines, right=(0, 3), legend=legend)
    if hint.bounds is not None:
        text += "\n" + _proved_best_text(hint, timings)
    return moves, text


def _search(result: SearchResult) -> dict[str, Any]:
    return {"method": result.method, **result.usage, "compiled": _compiled(result)}


def _compiled(result: SearchResult) -> bool:
    """Whether the compiled two-monster search answered: the exact one says so in its method;
    an MCTS of two monsters runs the compiled playouts and subtrees once they are loaded
    (through numba, or the playouts from their object: ``solvers/tea_party/native.py``)."""
    from ..solvers.tea_party import exact, native

    if result.method.startswith("exact"):
        return "compiled" in result.method
    running = exact.loaded() or native.running()
    return result.method.startswith("MCTS") and running and \
        "interpreted" not in result.method and len(result.moves) > 0 and \
        _two_monsters(result)


def _table_file(options: Options) -> Path | None:
    """``--table``'s file, checked before any work: a ``.table`` file that can be written, new
    or one this search wrote (:mod:`..solvers.tea_party.tablefile`)."""
    name = options.extra.get("table")
    if name is None:
        return None
    from ..solvers.tea_party import tablefile
    from . import paths

    path = Path(name)
    paths.check_output(path, "--table", ".table", replaceable=tablefile.is_table,
                       forcible=False)
    try:
        tablefile.check(path)
    except (tablefile.TableFileError, OSError) as error:
        raise InputError.of_option("table", str(error), name) from None
    return path


def _two_monsters(result: SearchResult) -> bool:
    values = result.moves[0].values if result.moves else None
    return values is not None and len(values) == 2


class TeaPartyCommands(SimulatingCommands):
    info = INFO
    verbs = frozenset({"hint", "solve", "verify", "simulate", "render"})
    options: ClassVar[dict[str, list[OptionSpec]]] = {
        "hint": [EXACT_NODES, ITERATIONS, BOUNDS],
        "render": [EXACT_NODES, ITERATIONS],
        "solve": [SOLVE_NODES, TABLE_GIB, TABLE_FILE, THREADS],
    }
    policies = ("random", "greedy", "hint")
    review = Thresholds(0.02, 0.05, 0.15, "of the chance to win", percent=True)
    players = 2
    figures = Figures((Figure("to win", style="percent", marks=(("proved", "exact"),)),),
                      column="win")
    warm_up = {"time_limit": 0.5}

    # -- hint ---------------------------------------------------------------------------------

    def _budget(self, options: Options) -> Budget:
        from ..solvers.budget import Budget

        return Budget(time=options.time_left(), iterations=options.extra.get("mcts_iterations"))

    def hint(self, document: Document, options: Options) -> Report:
        from ..models.tea_party.state import CHOOSE, DRAW, THROW_UP
        from ..solvers.tea_party import hint as hints

        _, state = _load(document)
        rng = random.Random(options.rng_seed)
        budget, nodes = self._budget(options), options.extra.get("exact_nodes")
        who = state.name(state.player)
        value_text = f"{who}'s chance to win (ties share)"
        bounds = _wants_bounds(state, options)
        if state.phase == CHOOSE:
            hint = hints.hint(state, budget, rng, nodes, options.tell, bounds=bounds)
            moves, text = _hint_rows(hint, options.top, options.timings)
            held = state.held_hero
            assert held is not None
            data = hint_data(INFO.key, who, hint.status, value_text, moves,
                             search=_search(hint.result) | {"values_are": hint.values_are},
                             drawn=held.name.lower(), **_bounds_data(hint))
            options_text = "1 option" if len(hint.moves) == 1 else f"{len(hint.moves)} options"
            head = (f"{who} holds a {held.label}: {options_text}, ranked by {who}'s chance to "
                    f"win ({_usage_text(hint.result, options.timings)})")
            if not hint.exact:
                head += f"\n{hint.values_are}"
            return Report(data, f"{head}\n{text}")
        if state.phase == DRAW:
            return self._draw_report(state, budget, rng, nodes, value_text, options, bounds)
        if state.current_player() == TERMINAL:
            note = "the game is over: " + _winners(state)
            return Report(hint_data(INFO.key, who, "exact", value_text, [], note=note), note)
        assert state.phase == THROW_UP
        note = (f"{state.name(state.thrower)} must throw up first: nothing to decide (use "
                "'solve' for the odds)")
        return Report(hint_data(INFO.key, who, "exact", value_text, [], note=note), note)

    def _draw_report(self, state: TeaPartyState, budget: Budget, rng: random.Random,
                     nodes: int | None, value_text: str, options: Options,
                     bounds: bool = False) -> Report:
        from ..solvers.tea_party.hint import draw_hints

        hints = draw_hints(state, budget, rng, nodes, options.tell, bounds=bounds)
        draws, lines = [], []
        expected = 0.0
        for item in hints:
            first = item.hint.moves[0]
            best = _move(item.hint.state, first, item.hint.exact, item.hint.proven(first.move))
            expected += item.probability * (best.value if best.value is not None else math.nan)
            entry: dict[str, Any] = {"hero": item.hero.name.lower(),
                                     "probability": round(item.probability, 6),
                                     "best": best.as_json(), "exact": item.hint.exact}
            line: tuple[str | None, ...] = (item.hero.label, percent(item.probability),
                                            best.text, _win_text(best))
            if item.hint.bounds is not None:
                entry["options"] = [_move(item.hint.state, m, item.hint.exact,
                                          item.hint.proven(m.move)).as_json()
                                    for m in item.hint.moves]
                entry |= _bounds_data(item.hint)
                proved = item.hint.proved_best
                low, high = item.hint.bounds.interval(first.move)
                line += (_bounds_text(low, high),
                         "yes" if proved == first.move else "no" if proved is None else
                         f"no: {item.hint.state.describe_action(proved)} is")
            draws.append(entry)
            lines.append(line)
        exact = all(item.hint.exact for item in hints)
        who = state.name(state.player)
        known = math.isfinite(expected)
        draw = Move("draw", expected if known else None,
                    f"nothing to decide before the draw: {who}'s chance to win with the best "
                    "answer to each draw (see draws)", {"draws": len(hints)},
                    text="draw a hero from the bag")
        status: HintStatus = "exact" if exact else "estimate" if known else "unknown"
        data = hint_data(INFO.key, who, status, value_text, [draw], draws=draws)
        headers = ["draw", "chance", "best answer", "win"]
        if bounds:
            headers += ["proven bounds", "proved best"]
        text = (f"{who} has not drawn yet: the best answer to each draw "
                f"({'exact' if exact else 'estimated by MCTS, no interval'})\n"
                + table(headers, lines, right=(1,)))
        if bounds:
            text += ("\nproven bounds: an interval that must contain the best answer's exact "
                     "chance to win; proved best: whether its low is at least every other "
                     "option's high (--json lists every option's bounds)")
        if known:
            text += f"\n{who}'s chance to win before the draw: {percent(expected)}"
        return Report(data, text)

    def position_values(self, document: Document, options: Options) -> Valuation | None:
        """Every monster's chance to win: the hint's best option with a hero in hand (exact
        where the hint's search is), the shares of a game that is over, and before a draw or
        a throw-up the exact search's values where it finishes (where it does not, the review
        averages the outcomes)."""
        from ..models.tea_party.state import CHOOSE
        from ..solvers.budget import Budget
        from ..solvers.tea_party import budgets, exact
        from ..solvers.tea_party import hint as hints

        _, state = _load(document)
        if state.is_terminal():
            return Valuation(_values(state, state.returns()) or {}, True)
        if state.phase != CHOOSE:
            if budgets.loose_heroes(state) > budgets.EXACT_LOOSE:
                return None
            limit = options.time_left()
            nodes = options.extra.get("exact_nodes") or budgets.exact_nodes_default(state)
            result = exact.exact_search(state, Budget(time=limit, nodes=nodes), compile=(
                limit is None or limit >= budgets.COMPILE_WORTH))
            if result.status != "optimal" or result.values is None:
                return None
            return Valuation(_values(state, result.values) or {}, True)
        hint = hints.hint(state, self._budget(options), random.Random(options.rng_seed),
                          options.extra.get("exact_nodes"))
        best = hint.moves[0].value
        if best.values is None:
            return None
        return Valuation(_values(state, best.values) or {}, hint.exact or best.exact)

    # -- solve --------------------------------------------------------------------------------

    def solve(self, document: Document, options: Options) -> Report:
        from ..solvers.budget import Budget
        from ..solvers.tea_party import budgets, exact
        from ..solvers.tea_party.bounds import outward
        from ..solvers.tea_party.tablefile import TableFileError
        from . import paths

        table = _table_file(options)
        _, state = _load(document)
        budget = Budget(time=options.time_left(), nodes=options.extra.get("max_nodes")
                        or budgets.solve_nodes_default(state))
        try:
            solution = exact.solve(state, budget, options.tell,
                                   options.extra.get("max_table_gib"), table,
                                   paths.write_atomically, options.extra.get("threads") or 1)
        except TableFileError as error:
            raise InputError.of_option("table", str(error), str(table)) from None
        result = solution.result
        values = _values(state, result.values)
        who = state.name(state.player)
        mine = None if result.values is None else result.values[state.player]
        left = options.time_left()
        fractions = exact.exact_fractions(state, seconds=left,
                                          searched=result.usage.get("nodes", 0)) \
            if result.status == "optimal" else None
        proved = None
        if fractions:
            proved = (max(fractions.values(), key=lambda v: v[state.player])[state.player]
                      if None not in fractions else fractions[None][state.player])
        objective = Objective("win_probability",
                              f"{who}'s chance to win when every monster plays its best",
                              mine, mine if result.status == "optimal" else None, proved)
        moves = [{"move": GAME.notation.format(state, m.action),
                  "text": state.describe_action(m.action), "value": round(m.value, 6)}
                 | ({"exact": fraction_text(fractions[m.action][state.player])}
                    if fractions else {})
                 for m in top(result.moves, options.top)]
        if result.status != "optimal":
            verdict = (f"unknown: the exact search ran out of its budget "
                       f"({_usage_text(result, options.timings)}); no value is claimed")
            extra = {}
            low, high = (0.0, 1.0) if result.bounds is None else \
                outward(*result.bounds[state.player])
            if _tenths(low, high) != (0.0, 100.0):  # what the search finished proves, if any
                verdict += (f", but what it finished proves {who}'s chance to win within "
                            f"{_bounds_text(low, high)}")
                objective = replace(objective, bound=high)
                extra = {"bounds": {"low": low, "high": high, "proven": True}}
            data = solve_data(INFO.key, "unknown", objective, verdict, None,
                              search=_search(result), **extra)
            return Report(data, verdict)
        assert mine is not None
        verdict = f"{who} wins {percent(mine)} of the time with best play"
        if result.moves:
            verdict += f", starting with: {state.describe_action(result.moves[0].action)}"
        data = solve_data(INFO.key, "optimal", objective, verdict,
                          {"win": values, "moves": moves, "line": list(solution.line)},
                          search=_search(result))
        lines = [f"optimal ({_usage_text(result, options.timings)})", verdict,
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
        from ..models.tea_party.position import describe_position, load_position

        position = load_position(document.data, document.source)
        return problems_report(INFO.key, position.problems(),
                               lambda: describe_position(position))

    # -- simulate -----------------------------------------------------------------------------

    def plan_simulation(self, players: int, names: tuple[str, ...], options: Options) -> Plan:
        from ..solvers.tea_party import exact
        from ..solvers.tea_party.policies import NewGame

        compile = exact.load_compiled if players == 2 and "hint" in names and \
            exact.needs_compile() else None
        return Plan(NewGame(DEFAULT_SEATS[:players]), [make_policy(name) for name in names],
                    final_scores, compile)

    def simulation_report(self, run: Run) -> Report:
        result, n, names = run.result, run.players, run.names
        seats = result.seat_rates()
        scores = result.figures({f"score_{i + 1}": (0.0, math.inf) for i in range(n)})
        data = simulation_data(
            INFO.key, result, DEFAULT_SEATS[:n], names, run.rotate,
            seat_figures=[{"score": scores[f"score_{i + 1}"].as_json()} for i in range(n)],
            figures={name: figure.as_json() for name, figure in scores.items()})
        seat_policies = run.seat_policies()
        rows = [(DEFAULT_SEATS[i], "rotating" if run.rotate else seat_policies[i], str(rate))
                for i, rate in enumerate(seats)]
        text = [f"{run.games} games, {n} players ({WIN_RATE_HEADER})",
                table(["seat", "policy", "win rate"], rows)]
        if len(set(names)) > 1:
            text.append(table(["policy", "win rate"],
                              [(name, str(rate)) for name, rate in result.policy_rates().items()]))
        text.append("mean final score: " + ", ".join(
            f"{DEFAULT_SEATS[i]} {scores[f'score_{i + 1}'].mean:.1f}" for i in range(n)))
        return Report(data, "\n".join(text))

    # -- play ---------------------------------------------------------------------------------

    def board(self, document: Document) -> str:
        from ..models.tea_party import load_position
        from ..models.tea_party.position import describe_position

        return describe_position(load_position(document.data, document.source))

    def seat_names(self, state: TeaPartyState) -> tuple[str, ...]:
        return tuple(state.name(seat) for seat in range(state.num_players))

    def policy(self, name: str) -> Any:
        return make_policy(name)

    # -- render -------------------------------------------------------------------------------

    def render(self, document: Document, options: Options) -> str:
        from ..models.tea_party.render import render_svg, turn_arrows
        from ..models.tea_party.state import CHOOSE, DRAW
        from ..solvers.tea_party import hint as hints

        _, state = _load(document)
        arrows, caption = [], ""
        if options.extra.get("hint") and state.phase == CHOOSE:
            rng = random.Random(options.rng_seed)
            hint = hints.hint(state, self._budget(options), rng,
                              options.extra.get("exact_nodes"), options.tell)
            best = hint.moves[0]
            moves, words = self._whole_turn(state, hint, options, rng)
            arrows = turn_arrows(state, moves)
            steps = [f"{k}. {text}" for k, text in enumerate(words, 1)] if len(words) > 1 \
                else words
            caption = f"hint: {'; '.join(steps)} ({percent(best.value.value)} to win)"
        elif options.extra.get("hint"):
            caption = ("hint: nothing to decide before the draw (the hint answers each "
                       "draw)" if state.phase == DRAW else
                       "hint: nothing to decide: the game is over" if state.is_terminal() else
                       "hint: nothing to decide: a throw-up comes first")
        return render_svg(state, arrows, caption)

    def _whole_turn(self, state: TeaPartyState, hint: Hint, options: Options,
                    rng: random.Random) -> tuple[list[Any], list[str]]:
        """The suggested move and the same monster's decisions that follow it before the turn
        ends (a Rogue's steal puts the stolen hero in hand: cup it or use it), from the search's
        best line or, when it has none, from a hint on each position that follows."""
        from ..models.tea_party.state import CHOOSE
        from ..solvers.tea_party import hint as hints

        me, line = state.player, list(hint.result.line)
        move = hint.moves[0].move
        moves, words = [move], [state.describe_action(move)]
        line = line[1:] if line and line[0] == move else []
        after = state.apply(move)
        while after.phase == CHOOSE and after.player == me and len(moves) < 8:
            if line:
                move = line.pop(0)
            else:
                move = hints.hint(after, self._budget(options), rng,
                                  options.extra.get("exact_nodes")).moves[0].move
            moves.append(move)
            words.append(after.describe_action(move))
            after = after.apply(move)
        return moves, words


def _wants_bounds(state: TeaPartyState, options: Options) -> bool:
    """Whether the hint gives proven bounds (``--bounds``: two monsters only)."""
    if not options.extra.get("bounds"):
        return False
    if state.num_players != 2:
        from ..models.errors import InputError

        raise InputError.of_option("bounds", reason=f"proven bounds are for two monsters; "
                                   f"this position has {state.num_players}")
    return True


DEFAULT_SEATS = ("Blue", "Green", "Orange", "Purple")


def make_policy(name: str) -> Any:
    from ..solvers.simulate import RandomPolicy
    from ..solvers.tea_party.hint import HintPolicy
    from ..solvers.tea_party.policies import GreedyPolicy

    if name == "random":
        return RandomPolicy()
    if name == "greedy":
        return GreedyPolicy()
    return HintPolicy()


def final_scores(state: TeaPartyState) -> dict[str, float]:
    return {f"score_{i + 1}": float(s) for i, s in enumerate(state.scores())}


def _winners(state: TeaPartyState) -> str:
    shares = state.returns()
    names = [state.name(i) for i, s in enumerate(shares) if s > 0]
    scores = ", ".join(f"{state.name(i)} {p}" for i, p in enumerate(state.scores()))
    verb = "wins" if len(names) == 1 else "share the win"
    return f"{' and '.join(names)} {verb} ({scores})"


COMMANDS = TeaPartyCommands()

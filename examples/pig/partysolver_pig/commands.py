"""The commands of Pig: a document and options in, a report (JSON data and text) out.

What every front end of partysolver calls (the CLI, the web board and its API); this module
imports at its top only partysolver's app layer and the game's declaration, and loads the rules
engine, the searches and numpy inside the verbs (start-up: ``partysolver games`` and commands
on other games never load them).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from partysolver.app.base import (
    BadRequest,
    Document,
    Options,
    OptionSpec,
    Report,
    Thresholds,
    Valuation,
    problems_report,
    require_valid,
)
from partysolver.app.contract import (
    WIN_RATE_HEADER,
    HintStatus,
    Move,
    Objective,
    hint_data,
    simulation_data,
    solve_data,
)
from partysolver.app.kinds import DocumentKind, Figure, Figures, record_kind
from partysolver.app.simulation import Plan, Run, SimulatingCommands
from partysolver.app.text import percent, table, top

from .game import DEFAULT_GOAL, INFO, MAX_GOAL, MIN_GOAL

if TYPE_CHECKING:  # the rules engine and the searches load when a verb runs (start-up)
    from partysolver.solvers.simulate import Policy

    from .state import PigState

PLAYOUTS_DEFAULT = 2_000
"""The playouts a hint for three players or more takes per move (``solver.PLAYOUTS``: a test
checks the two agree)."""

PLAYOUTS = OptionSpec("playouts", "int", minimum=1, maximum=1_000_000, metavar="N",
                      help="pig, 3 or more players: playouts per move, every player then "
                           f"holding at 20 (default {PLAYOUTS_DEFAULT:,}; two players are "
                           "solved exactly).")
GOAL = OptionSpec("goal", "int", minimum=MIN_GOAL, maximum=MAX_GOAL, default=DEFAULT_GOAL,
                  metavar="POINTS", help=f"pig: the goal of the simulated games (default "
                                         f"{DEFAULT_GOAL}).")

NOT_SUPPORTED = ("not supported for {n} players: Pig's exact value (value iteration over "
                 "every score and turn total) is computed for two players; 'partysolver hint' "
                 "estimates a larger table by playouts")


def _state(document: Document) -> PigState:
    from .position import load_position

    position = load_position(document.data, document.source)
    require_valid(position.problems(), document.source)
    return position.to_state(document.source)


class PigCommands(SimulatingCommands):
    info = INFO
    verbs = frozenset({"hint", "solve", "verify", "simulate", "render"})
    options: ClassVar[dict[str, list[OptionSpec]]] = {
        "hint": [PLAYOUTS], "render": [PLAYOUTS], "simulate": [GOAL]}
    policies = ("random", "hold20", "hint")
    default_policies = ("hold20",)
    review = Thresholds(0.02, 0.05, 0.15, "of the chance to win", percent=True)
    players = 2
    kinds = (
        DocumentKind("position", ("hint", "solve", "verify", "render", "apply", "play"),
                     "a game position of two players (solved exactly)"),
        DocumentKind("table", ("hint", "verify", "render", "apply", "play"),
                     "a game position of three players or more (no exact solve: the hint "
                     "estimates by playouts)"),
        record_kind(("hint", "solve", "verify", "render")),
    )
    figures = Figures((Figure("to win", style="percent", interval=True),), column="win")

    def kind_of(self, document: Document) -> str:
        """A record, a table of three or more (no solve), or a two-player position."""
        if document.data.get("kind") == "record":
            return "record"
        players = document.data.get("players")
        return "table" if isinstance(players, list) and len(players) > 2 else "position"

    # -- hint ---------------------------------------------------------------------------------

    def hint(self, document: Document, options: Options) -> Report:
        state = _state(document)
        who = state.name(state.player)
        if state.is_over():
            note = f"the game is over: {who} has reached {state.goal} and wins"
            return Report(hint_data(INFO.key, who, "exact", f"{who}'s chance to win", [],
                                    note=note), note)
        if state.num_players == 2:
            return self._exact_hint(state, options)
        return self._estimated_hint(state, options)

    def _exact_hint(self, state: PigState, options: Options) -> Report:
        from . import solver

        table_ = solver.values(state.goal)
        i, j, k = solver.scores_of(state)
        who, other = state.name(state.player), state.name(1 - state.player)
        value_text = (f"{who}'s chance to win with best play from both (value iteration, "
                      "exact to 1e-15)")
        if state.rolling:
            chance = table_.roll(i, j, k)
            note = (f"the die is rolling: nothing to decide; {who}'s chance to win before it "
                    f"lands is {percent(chance)}")
            data = hint_data(INFO.key, who, "exact", value_text, [], note=note,
                             win={who: round(chance, 6), other: round(1 - chance, 6)})
            return Report(data, note)
        moves = []
        for action in state.legal_actions():
            value = table_.roll(i, j, k) if str(action) == "roll" else table_.hold(i, j, k)
            moves.append(Move(str(action), value, _reason(state, table_, action),
                              {"win": {who: round(value, 6), other: round(1 - value, 6)}},
                              text=state.describe_action(action)))
        moves.sort(key=lambda move: -(move.value or 0.0))
        shown = list(top(moves, options.top))
        best = moves[0].value or 0.0
        rows = [(rank, move.move, percent(move.value or 0.0),
                 "best" if rank == 1 else f"{100 * ((move.value or 0.0) - best):+.1f}",
                 move.reason) for rank, move in enumerate(shown, 1)]
        text = (f"{who} to play, {i} banked + {k} this turn, {other} {j}, goal {state.goal}: "
                f"exact\n" + table(["#", "move", "win", "vs best (pp)", "why"], rows,
                                   right=(0, 3), legend="win: the chance to win after the move "
                                   "with best play from both; vs best (pp): percentage points "
                                   "of that chance behind the best move"))
        data = hint_data(INFO.key, who, "exact", value_text, shown,
                         search={"method": "value iteration", "passes": table_.passes,
                                 "compiled": True})
        return Report(data, text)

    def _estimated_hint(self, state: PigState, options: Options) -> Report:
        from . import solver

        who = state.name(state.player)
        value_text = f"{who}'s chance to win if every player then holds at {solver.HOLD_AT}"
        if state.rolling:
            note = f"the die is rolling: nothing to decide ({who} rolled)"
            return Report(hint_data(INFO.key, who, "estimate", value_text, [], note=note), note)
        rng = random.Random(options.rng_seed)
        playouts = options.extra.get("playouts") or solver.PLAYOUTS
        found = solver.estimate(state, rng, playouts, options.time_left())
        moves = []
        for action, estimate in found.items():
            reason = (f"bank {state.turn_total} points (score "
                      f"{state.scores[state.player] + state.turn_total})"
                      if str(action) == "hold" else _risk(state))
            moves.append(Move(str(action), estimate.value, reason,
                              {"win": round(estimate.value, 6),
                               "playouts": estimate.playouts},
                              text=state.describe_action(action),
                              interval=estimate.interval))
        moves.sort(key=lambda move: -(move.value or 0.0))
        shown = list(top(moves, options.top))
        done = next(iter(found.values())).playouts
        interval_text = ("95% Wilson interval of the chance to win when every player then "
                         f"holds at {solver.HOLD_AT} (playouts, not best play)")
        status: HintStatus = "estimate"
        data = hint_data(INFO.key, who, status, value_text, shown, interval_text=interval_text,
                         search={"method": "playouts", "playouts": done})
        rows = [(rank, move.move, percent(move.value or 0.0),
                 f"[{percent(move.interval[0])}, {percent(move.interval[1])}]"
                 if move.interval else "", move.reason) for rank, move in enumerate(shown, 1)]
        text = (f"{who} to play, {state.num_players} players: estimated by {done:,} playouts a "
                f"move (every player then holds at {solver.HOLD_AT}; no exact method for more "
                "than two)\n" + table(["#", "move", "win", "95% interval", "why"], rows,
                                      right=(0,)))
        return Report(data, text)

    def position_values(self, document: Document, options: Options) -> Valuation | None:
        """Both players' exact chances to win (the hint's table), the die rolling or not;
        three players or more: not computed (the hint's playouts value the mover only)."""
        from . import solver

        state = _state(document)
        if state.num_players != 2:
            return None
        chances = solver.win_chances(state)
        return Valuation({state.name(seat): chances[seat] for seat in range(2)}, True)

    # -- solve --------------------------------------------------------------------------------

    def solve(self, document: Document, options: Options) -> Report:
        from . import solver

        state = _state(document)
        if state.num_players != 2:
            raise BadRequest(f"pig solve: {NOT_SUPPORTED.format(n=state.num_players)}")
        chances = solver.win_chances(state)
        who = state.name(state.player)
        mine = chances[state.player]
        names = {state.name(seat): round(chances[seat], 6) for seat in range(2)}
        objective = Objective("win_probability", f"{who}'s chance to win when both play their "
                              "best", mine, mine)
        solution: dict[str, Any] = {"win": names}
        if state.is_over():
            verdict = f"the game is over: {state.name(state.winner() or 0)} has won"
        elif state.rolling:
            verdict = (f"{who} wins {percent(mine)} of the time with best play from both "
                       "(the die is rolling)")
        else:
            table_ = solver.values(state.goal)
            i, j, k = solver.scores_of(state)
            best = table_.best(i, j, k)
            holds = table_.holds_at(i, j, k)
            solution |= {"best": str(best), "holds_at": holds,
                         "moves": [{"move": str(a),
                                    "value": round(table_.roll(i, j, k) if str(a) == "roll"
                                                   else table_.hold(i, j, k), 6)}
                                   for a in state.legal_actions()]}
            plan = (f"hold once the turn's total reaches {holds}" if holds is not None else
                    "roll until the goal is reached")
            verdict = (f"{who} wins {percent(mine)} of the time with best play from both: "
                       f"{best} now ({plan})")
        data = solve_data(INFO.key, "optimal", objective, verdict, solution,
                          search={"method": "value iteration", "tolerance": solver.TOLERANCE})
        text = [f"optimal (value iteration, exact to {solver.TOLERANCE:g})", verdict,
                "win probability: " + ", ".join(f"{n} {percent(v)}" for n, v in names.items())]
        return Report(data, "\n".join(text))

    # -- verify -------------------------------------------------------------------------------

    def verify(self, document: Document, options: Options) -> Report:
        from .position import describe_position, load_position

        position = load_position(document.data, document.source)
        return problems_report(INFO.key, position.problems(),
                               lambda: describe_position(position))

    # -- simulate -----------------------------------------------------------------------------

    def plan_simulation(self, players: int, names: tuple[str, ...], options: Options) -> Plan:
        from . import solver
        from .state import DEFAULT_NAMES

        goal = options.extra.get("goal") or DEFAULT_GOAL
        compile = (lambda tell: solver.values(goal)) if "hint" in names and players == 2 \
            else None
        return Plan(NewGame(DEFAULT_NAMES[:players], goal), [self.policy(n) for n in names],
                    compile=compile, context=goal)

    def simulation_report(self, run: Run) -> Report:
        from .state import DEFAULT_NAMES

        seats, goal = DEFAULT_NAMES[:run.players], run.plan.context
        data = simulation_data(INFO.key, run.result, seats, run.names, run.rotate, goal=goal)
        policies = run.seat_policies()
        rows = [(seats[seat], "rotating" if run.rotate else policies[seat], str(rate))
                for seat, rate in enumerate(run.result.seat_rates())]
        text = [f"{run.games} games to {goal}, {run.players} players ({WIN_RATE_HEADER})",
                table(["seat", "policy", "win rate"], rows)]
        if len(set(run.names)) > 1:
            text.append(table(["policy", "win rate"], [
                (name, str(rate)) for name, rate in run.result.policy_rates().items()]))
        return Report(data, "\n".join(text))

    # -- play ---------------------------------------------------------------------------------

    def board(self, document: Document) -> str:
        from .position import describe_position, load_position

        return describe_position(load_position(document.data, document.source))

    def seat_names(self, state: PigState) -> tuple[str, ...]:
        return state.names

    def policy(self, name: str) -> Policy:
        from . import solver

        made: dict[str, Policy] = {"random": solver.RandomPolicy(), "hold20": solver.HoldAt(),
                                   "hint": solver.OptimalPolicy()}
        return made[name]

    # -- render -------------------------------------------------------------------------------

    def render(self, document: Document, options: Options) -> str:
        from .game import HOLD, ROLL
        from .render import render_svg

        state = _state(document)
        suggested, caption = [], ""
        if options.extra.get("hint"):
            if state.is_over() or state.rolling:
                caption = ("hint: nothing to decide: the game is over" if state.is_over() else
                           "hint: nothing to decide while the die rolls")
            else:
                report = self.hint(document, options)
                best = report.data["moves"][0]
                suggested = [HOLD if best["move"] == "hold" else ROLL]
                caption = f"hint: {best['move']} ({percent(best['value'])} to win): " \
                          f"{best['reason']}"
        return render_svg(state, suggested, caption)


@dataclass(frozen=True)
class NewGame:
    """A new game of the simulation (picklable: it travels to worker processes)."""

    names: tuple[str, ...]
    goal: int

    def __call__(self, rng: random.Random) -> PigState:
        from .state import PigState

        return PigState.new_game(self.names, self.goal)


def _reason(state: PigState, table_: Any, action: Any) -> str:
    """Why ``action`` has its value, in words (two players, from the exact table)."""
    from . import solver

    i, j, k = solver.scores_of(state)
    other = state.name(1 - state.player)
    if str(action) == "hold":
        after = 1.0 - table_.hold(i, j, k)
        return (f"bank {k} points: {i + k} to {other}'s {j}, and {other} rolls next "
                f"({other} then wins {percent(after)})")
    if k == 0:
        return "a turn starts with a roll (holding nothing is no move)"
    holds = table_.holds_at(i, j, k)
    plan = ("best play rolls on to the goal from here" if holds is None else
            f"best play holds once the turn's total reaches {holds} (score {i + holds})"
            if holds > k else "best play holds now: rolling risks more than it adds")
    return f"{_risk(state)}; {plan}"


def _risk(state: PigState) -> str:
    """What a roll risks and what it may bring, in words."""
    i, k = state.scores[state.player], state.turn_total
    winning = [face for face in range(2, 7) if i + k + face >= state.goal]
    risk = (f"a 1 (1 in 6) loses the {k} points of this turn" if k else
            "a 1 (1 in 6) ends the turn with nothing")
    if winning:
        faces = f"a {winning[0]} or more" if len(winning) > 1 else "a 6"
        return f"{risk}; {faces} ({len(winning)} in 6) reaches {state.goal} and wins"
    return f"{risk}, 2 to 6 add to it"


COMMANDS = PigCommands()

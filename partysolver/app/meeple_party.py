"""The commands of Meeple Party."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from ..models.errors import InputError
from ..models.meeple_party import DEFAULT_NAMES, GAME, INFO, default_house
from ..models.meeple_party.game import (
    BAG_KINDS,
    DIFFICULTIES,
    LENGTHS,
    PERSONALITY_KEYS,
    START_TIMES,
    VARIANTS,
    Mingle,
    Pick,
    Refresh,
    StandUp,
    Welcome,
    piece_label,
)
from ..models.protocol import CHANCE, Action
from . import meeple_party_deals as deals
from .answers import answer_data
from .base import (
    Document,
    Options,
    OptionSpec,
    Report,
    Thresholds,
    Valuation,
    require_valid,
    run,
)
from .contract import (
    HintStatus,
    Move,
    Objective,
    SolveStatus,
    hint_data,
    simulation_data,
    solve_data,
    verify_data,
)
from .kinds import DocumentKind, Figure, Figures, record_kind
from .pictures import expected_picture_file, figure_bytes, is_picture, picture_format
from .simulation import Plan, Run, SimulatingCommands
from .text import percent, plural, problems_text, table

if TYPE_CHECKING:  # the rules engine and the searches load when a verb runs (start-up)
    from ..models.meeple_party.position import Position
    from ..models.meeple_party.render import Arrow
    from ..models.meeple_party.state import MeeplePartyState
    from ..solvers.budget import Budget
    from ..solvers.meeple_party import policies
    from ..solvers.meeple_party.evaluate import Value
    from ..solvers.meeple_party.turn import TurnHint, TurnOption
    from ..solvers.simulate import SimulationResult

MAX_NODES = OptionSpec("max_nodes", "int", minimum=1, metavar="N",
                       help="Node budget of an exact search (default: unlimited).")
VERIFY_GAMES = OptionSpec("games", "int", minimum=1, maximum=10_000, metavar="N",
                          help="meeple-party: also play N games (at most 10,000: each plays "
                               "the hint at every decision) from this position with the hint "
                               "policy and report the win rate.")
LENGTH = OptionSpec("length", "choice", choices=tuple(LENGTHS), default="casual",
                    show_default=True, help="meeple-party: casual (12 photos), serious (18) "
                                            "or epic (24).")
DIFFICULTY = OptionSpec("difficulty", "choice", choices=tuple(DIFFICULTIES),
                        default="standard", show_default=True,
                        help="meeple-party: easy, standard or hard.")
HOUSE = OptionSpec("house", "text", metavar="NAME|FILE",
                   help="meeple-party: a shipped house (easy, hard, spa) or a house file "
                        "(default: easy, spa for 5 players).")
VARIANT = OptionSpec("variant", "choice", choices=tuple(VARIANTS), default="party",
                     show_default=True, help="meeple-party: a party, or the Hot Tub challenge.")
START = OptionSpec("start", "choice", choices=tuple(str(t) for t in START_TIMES), default="12",
                   show_default=True, help="meeple-party: the hour the party starts.")
SIMULATION_NODES = 300
"""The default of ``--hint-nodes``: the hint policy's own (``solvers.meeple_party.policies``,
which this module imports only when a verb runs; ``tests/test_startup.py`` checks the two
agree)."""
HINT_NODES = OptionSpec("hint_nodes", "int", minimum=0, default=SIMULATION_NODES,
                        show_default=True, metavar="N",
                        help="meeple-party: the hint policy's budget per decision in played "
                             "games (nodes; 0: the exact hint every time, slow).")
PLOT = OptionSpec("plot", "text", metavar="FILE", check=expected_picture_file,
                  help="meeple-party: draw the distribution of photos and stress to FILE.svg "
                       "(SVG) or FILE.png (PNG): a new file, or a picture it replaces.")

REVIEW_NODES = 100_000
"""The node budget of one valuation of a review (the exact turn search): a chance point whose
search needs more (a surprise card drawn mid-turn, some thirty cards each with the rest of the
turn) is not computed rather than searched for minutes."""
REVIEW_NODES_PER_SECOND = 25_000
"""What a review's time limit buys of a valuation's search (:func:`review_nodes`): the
interpreted turn search walks 21,000 to 61,000 nodes a second of CPU (44,000 over the
valuations of ``simulate meeple-party --seed 1``'s record, docs/solvers.md)."""


def review_nodes(limit: float | None) -> int:
    """The node budget of a review's valuation within ``limit`` seconds: what the limit buys at
    :data:`REVIEW_NODES_PER_SECOND`, at most :data:`REVIEW_NODES`.  Planned from the limit, not
    stopped by the clock, so that a review's figures (which positions are valued, and so the
    luck) are the same on a busy machine as on an idle one, and the board's review gives what
    the command line gives for the same limit."""
    if limit is None:
        return REVIEW_NODES
    return max(1, min(REVIEW_NODES, int(limit * REVIEW_NODES_PER_SECOND)))


def _load(document: Document) -> tuple[Position, MeeplePartyState]:
    from ..models.meeple_party import load_position

    position = load_position(document.data, document.source)
    require_valid(position.problems(), document.source)
    return position, position.to_state(document.source)


SCENARIO_SECONDS = 30.0
"""``verify`` of a scenario searches this long for its verdict unless --time-limit says."""


def _budget(options: Options, keep: float = 0.0) -> Budget:
    """The hint's budget: the time left (less ``keep`` seconds for what follows the search:
    see :meth:`Options.time_left`) and ``--max-nodes``."""
    from ..solvers.budget import Budget

    return Budget(time=options.time_left(keep), nodes=options.extra.get("max_nodes"))


DRAWING_SECONDS = 0.02
"""Seconds ``render --hint`` keeps of the time limit for drawing the picture after the hint
(the house's layout is found before the hint, as it may import a graph library; what is left,
the SVG and its writing, took 0.006-0.01 s on the shipped positions)."""


SOLVE_STATUS: dict[str, SolveStatus] = {"solvable": "solvable", "unsolvable": "unsolvable",
                                       "unknown": "unknown"}
VALUE_TEXT = ("minus the stress the turn is expected to add to the roommates (moves are ranked "
              "by the chance to win the party this turn, then to lose it, then this value, then "
              "fewer expected party fouls, more photos and the table score)")


def _played_move(state: MeeplePartyState, move: str, budget: Budget) -> dict[str, Any] | None:
    """The turn ``move`` (a plan of the hint's notation) as the hint lists it (its exact
    ``value`` and ``figures``) from
    ``state``: its steps played up to its refresh decision, then that refresh (or none) valued
    on the board, or the rest of the turn searched when chance comes first; ``None`` when the
    budget runs out."""
    from ..models.meeple_party.game import Refresh
    from ..models.meeple_party.state import REFRESH
    from ..models.playable import Line, StatePlayable
    from ..solvers.budget import BudgetExhausted
    from ..solvers.meeple_party.turn import TurnSearch, searchable

    parsed = StatePlayable(GAME, state).parse(move)
    steps = list(parsed.steps) if isinstance(parsed, Line) else [parsed]
    if not searchable(state):  # between turns: the clock's decision, as the hint values it
        figures = _figures(_clock_value(state, state.apply(steps[0])))
        return {"move": move, "value": _value(figures), "figures": figures}
    search = TurnSearch(state, budget)
    here = state
    for step in steps[:-1]:
        here = here.apply(step)
    last = steps[-1]
    try:
        if isinstance(last, Refresh) and here.phase == REFRESH:
            value = search.refresh_option(here, last.slot)
        else:
            value, _ = search.value(here.apply(last))
    except BudgetExhausted:
        return None
    figures = _figures(value)
    return {"move": move, "value": _value(figures), "figures": figures}


def _clock_value(state: MeeplePartyState, child: MeeplePartyState) -> Value:
    """The value of the action from ``state`` to ``child`` at a decision between turns (the
    clock's icon: a welcome, a laid-down meeple...): what the position after it leaves the
    next player before moving (their fouls, photos and table score).  The hint ranks every
    such decision by it, and ``review`` values a played one the hint did not list by it too."""
    from ..solvers.meeple_party.evaluate import Evaluator

    ahead = child._with(active=(state.active + 1) % state.num_players)
    return Evaluator(ahead).plain(child.board, child.stress)


def _plan_notation(state: MeeplePartyState) -> Callable[[Sequence[Action]], str]:
    """Turns from ``state`` in the game's notation, as a line (``StatePlayable.format``), each
    step checked legal where it stands: a position a turn passes through is made once for every
    turn through it, so a ranking of all 17,521 turns (``hint --top`` past the options) checks
    a welcome's mingles once, not once per turn."""
    from ..models.playable import SEPARATOR, StatePlayable

    positions: dict[tuple[Action, ...], StatePlayable] = {(): StatePlayable(GAME, state)}

    def notation(plan: Sequence[Action]) -> str:
        parts = []
        position = positions[()]
        for i, step in enumerate(plan):
            parts.append(position.format(step))
            if i + 1 < len(plan):
                prefix = tuple(plan[:i + 1])
                if prefix not in positions:
                    positions[prefix] = position.apply(step)
                position = positions[prefix]
        return f" {SEPARATOR} ".join(parts)

    return notation


def _value(figures: dict[str, float]) -> float:
    """A move's ``value`` in the contract (higher is better): minus the stress the turn is
    expected to add (:data:`VALUE_TEXT`)."""
    return 0.0 - figures["stress"]


def _figures(value: Value) -> dict[str, float]:
    from ..solvers.meeple_party.evaluate import figures

    return figures(value)


def _card_name(state: MeeplePartyState, deck: str, card: int) -> str:
    cards = state.setup.cards.photos if deck == "photo" else state.setup.cards.disasters
    return cards[card].name


def _reason(hint: TurnHint, option: TurnOption) -> tuple[str, float | None]:
    """What an option achieves in game terms, and its expected party fouls when certain."""
    from ..models.meeple_party.state import slot_text

    state = hint.state
    outcome = hint.explain(option)
    figures = _figures(option.value)
    if outcome is None:
        return (f"expected: {figures['photos']:.2f} photos, {figures['stress']:+.2f} stress, "
                f"{100 * figures['win']:.0f}% win, {100 * figures['loss']:.0f}% loss "
                "(a chance follows)"), None
    parts = []
    if outcome.photos:
        names = " and ".join(repr(_card_name(state, "photo", c)) for c in outcome.photos)
        parts.append(f"takes {names}" + (" (bonus: 1 stress off)" if len(outcome.photos) == 2
                                          else ""))
    fouls = float(len(outcome.fouls))
    if option.refresh is not None:
        if option.refresh[0] != "photo":
            met = hint.evaluator.met_count(option.board)
            deck = len(hint.evaluator.decks["disaster"])
            fouls += met / deck if deck else 0.0
        parts.append(f"1 stress refreshes {slot_text(state, option.refresh)}")
    if outcome.fouls:
        names = ", ".join(slot_text(state, slot) for slot in outcome.fouls)
        parts.append(f"party foul: {names} (every roommate +1 stress)")
    if outcome.won:
        parts.append("wins the party")
    if outcome.lost:
        parts.append("everyone stresses out: the party is lost")
    if state.setup.variant == "hot-tub" and not outcome.lost:
        now = state.hot_tub_count()
        parts.append(f"{plural(round(figures['photos']), 'meeple')} in the Hot Tub "
                     f"({figures['photos'] - now:+.0f})")
        if outcome.disasters_met:
            parts.append(f"leaves {plural(outcome.disasters_met, 'other disaster')} met")
    elif not outcome.won and not outcome.lost:
        if outcome.disasters_met:
            parts.append(f"leaves {plural(outcome.disasters_met, 'other disaster')} met")
        parts.append(f"photos at the table {plural(outcome.distance, 'meeple move')} away")
    return "; ".join(parts) or "no photo, no foul", round(fouls, 6)


def _short(state: MeeplePartyState, plan: Sequence[Action]) -> str:
    """A turn in a few words: ``Cool to Front Door (pulls Party Animal, Flirt); Jerk Dining
    Room to Front Door (pushes Flirt to Kitchen); refresh Fight Club``."""
    house = state.setup.house
    parts = []
    for action in plan:
        if isinstance(action, Welcome | Mingle):
            if isinstance(action, Welcome):
                text = f"{piece_label(state.drawn)} to {house.label(action.room)}"
                room = action.room
            else:
                text = (f"{piece_label(action.piece)} {house.label(action.src)} to "
                        f"{house.label(action.dst)}")
                room = action.dst
            pulls = [piece_label(s.piece) for s in action.steps if s.dst == room]
            pushes = [f"{piece_label(s.piece)} to {house.label(s.dst)}" for s in action.steps
                      if s.dst != room]
            if pulls:
                text += f" (pulls {', '.join(pulls)})"
            if pushes:
                text += f" (pushes {', '.join(pushes)})"
            parts.append(text)
        elif isinstance(action, StandUp):
            parts.append(f"stand up {piece_label(action.piece)} in {house.label(action.room)}")
        elif isinstance(action, Refresh):
            if action.slot is not None:
                card = state.card_at(action.slot)
                deck = "photo" if action.slot[0] == "photo" else "disaster"
                parts.append(f"refresh {_card_name(state, deck, card)}")
        else:
            parts.append(str(action))
    return "; ".join(parts)


def _checked_now(hint: TurnHint) -> list[str]:
    """The checked disasters that are met before the turn moves anybody."""
    from ..models.meeple_party.state import slot_text

    evaluator = hint.evaluator
    m = evaluator.terms.values(hint.state.board)
    return [slot_text(hint.state, evaluator.slots[i])
            for i in (evaluator.own_disaster, evaluator.communal) if i >= 0 and m[i] == 0]


def _plan_arrows(state: MeeplePartyState, plan: Sequence[Action]) -> list[Arrow]:
    """The arrows of a turn's plan, in order: each with the meeple it moves and the number of
    its action in the plan."""
    arrows: list[Arrow] = []
    current = state
    for step, action in enumerate(plan, 1):
        if isinstance(action, Welcome):
            arrows.append((-1, action.room, "welcome", current.drawn, step))
            arrows += [(s.src, s.dst, "action", s.piece, step) for s in action.steps]
        elif isinstance(action, Mingle):
            arrows.append((action.src, action.dst, "mingle", action.piece, step))
            arrows += [(s.src, s.dst, "action", s.piece, step) for s in action.steps]
        elif isinstance(action, Pick) and len(action.rooms) == 2:
            arrows.append((action.rooms[0], action.rooms[1], "action", -1, step))
        if current.current_player() == CHANCE:
            break
        current = current.apply(action)
        if current.current_player() == CHANCE:
            break
    return arrows


POSITION_VERBS = ("hint", "verify", "render", "apply", "play")
"""What an ordinary party position takes (``solve`` proves a scenario's question)."""


class MeeplePartyCommands(SimulatingCommands):
    info = INFO
    verbs = frozenset({"hint", "solve", "verify", "simulate", "render"})
    options: ClassVar[dict[str, list[OptionSpec]]] = {
        "hint": [MAX_NODES],
        "solve": [MAX_NODES],
        "render": [MAX_NODES],
        "verify": [VERIFY_GAMES, HINT_NODES],
        "simulate": [LENGTH, DIFFICULTY, HOUSE, VARIANT, START, PLOT, HINT_NODES,
                     *deals.OPTIONS],
    }
    policies = ("hint", "random")
    default_policies = ("hint",)
    review = Thresholds(0.1, 0.25, 0.5, "stress")
    players = 3
    kinds = (
        DocumentKind("position", POSITION_VERBS, "a party in progress"),
        DocumentKind("scenario", ("hint", "solve", "verify", "render", "apply", "play", "check"),
             "a perfect-information scenario (the bag and the decks in a known order)",
             puzzle="yes-no", reveals=("hint", "solve", "next"),
             question="Can the goal be reached? Answer yes or no and check it, or show the "
             "answer (the winning line, or the proof that there is none).",
             answer_help="yes (the goal can be reached) or no", choices=("yes", "no")),
        record_kind(POSITION_VERBS))
    figures = Figures((Figure("stress", key="stress", style="signed", digits=2),
                       Figure("to win", key="win", style="percent", optional=True)),
                      negated="minus ",
                      ranks=(Figure("to win", key="win", style="percent"),
                             Figure("to lose", key="loss", style="percent", better="lower"),
                             Figure("stress", key="stress", style="signed", digits=2,
                                    better="lower"),
                             Figure("party fouls", key="fouls", digits=2, better="lower"),
                             Figure("photos", key="photos", digits=2),
                             Figure("table score", key="table", digits=0)))
    warm_up = {"time_limit": 0.5}

    def kind_of(self, document: Document) -> str:
        data = document.data
        if data.get("kind") == "record":
            return "record"
        return "scenario" if data.get("ordered") is True else "position"

    def shipped_names(self) -> dict[str, set[str]]:
        from ..models.meeple_party import data

        return {key: set(data.shipped(key)) for key in ("house", "cards", "clock")}

    def check(self, document: Document, answer: str, given: Mapping[str, Any]) -> Report:
        """A scenario's answer, ``yes`` (the goal can be reached) or ``no``, against
        ``solve``'s proof."""
        said = answer.strip().casefold()
        if said not in ("yes", "no"):
            raise InputError(None, "answer", "yes (the goal can be reached) or no",
                             answer.strip())
        solution = run("solve", document, given).data
        status = solution["status"]
        if status not in ("solvable", "unsolvable"):
            verdict = f"undecided: {solution['verdict']}"
            return Report(answer_data(INFO.key, None, verdict, said), verdict)
        correct = said == ("yes" if status == "solvable" else "no")
        verdict = ("right: " if correct else "wrong: ") + solution["verdict"]
        return Report(answer_data(INFO.key, correct, verdict, said), verdict)

    # -- play ---------------------------------------------------------------------------------

    def board(self, document: Document) -> str:
        from ..models.meeple_party import load_position

        return describe_party(load_position(document.data, document.source)
                              .to_state(document.source))

    def seat_names(self, state: MeeplePartyState) -> tuple[str, ...]:
        return state.setup.players

    def policy(self, name: str) -> Any:
        from ..solvers.meeple_party import policies

        return policies.make_policy(name, policies.SIMULATION_NODES)

    # -- hint ---------------------------------------------------------------------------------

    def position_values(self, document: Document, options: Options) -> Valuation | None:
        """A review's value of the position (cooperative: one figure, the same for every
        player): minus the stress the roommates hold at the end of the turn in play, by the
        hint's exact search of the rest of the turn (the stress held now plus what the search
        expects the rest of the turn to add).  A chance point inside a turn (the bag's draw, a
        surprise card) is valued by the same search over every outcome, so the luck of its
        outcomes averages to 0.  Exact (the search finishes within :data:`REVIEW_NODES`, or
        under a time limit the nodes it buys, :func:`review_nodes`; else ``None``).  A position
        between turns (the clock's icon, the cards drawn after a turn) is not valued, and its
        chance points are not computed (their outcomes act on turns the search does not
        reach): an empty valuation, which the review does not average either.  One seat's
        view: ``None``."""
        from ..models.meeple_party.state import OVER
        from ..solvers.budget import Budget, BudgetExhausted
        from ..solvers.meeple_party.evaluate import figures
        from ..solvers.meeple_party.turn import TurnSearch, searchable
        from .records import full_state_of

        state = full_state_of(document)
        if state is None:
            return None
        names = tuple(state.setup.players)
        held = float(sum(state.stress))
        if state.phase == OVER:
            return Valuation(dict.fromkeys(names, -held), True)
        if not searchable(state):  # between turns: the turn search has no turn in play
            return Valuation({}, False, "between turns: the turn search does not reach the "
                                        "turns its outcomes act on")
        nodes = options.extra.get("max_nodes") or review_nodes(options.time_left())
        try:
            value, _ = TurnSearch(state, Budget(nodes=nodes)).value(state)
        except BudgetExhausted:  # a chance point too big to search: not averaged either
            return Valuation({}, False, f"its search needs more than {nodes:,} nodes") \
                if state.current_player() == CHANCE else None
        added = figures(value)["stress"]
        return Valuation(dict.fromkeys(names, -(held + added)), True)

    def played_move(self, document: Document, move: str, options: Options
                    ) -> dict[str, Any] | None:
        _, state = _load(document)
        return _played_move(state, move, _budget(options))

    def hint(self, document: Document, options: Options) -> Report:
        from ..models.meeple_party.state import OVER, PHASES
        from ..solvers.meeple_party.turn import searchable, turn_hint

        _, state = _load(document)
        setup = state.setup
        who = setup.players[state.active]
        data_out: dict[str, Any] = {
            "roommate": PERSONALITY_KEYS[state.active_personality],
            "phase": PHASES[state.phase],
            "drawn": BAG_KINDS[state.drawn] if state.drawn >= 0 else None}
        if state.phase == OVER:
            from ..solvers.meeple_party import policies  # (it imports the simulations)

            note = f"the party is over: {state.outcome} ({policies.category(state)})"
            return Report(hint_data(INFO.key, who, "exact", VALUE_TEXT, [], note=note,
                                    outcome=state.outcome, **data_out), note)
        budget = _budget(options)
        if searchable(state) and state.current_player() == CHANCE:
            return self._chance_hint(state, budget, options, data_out)
        if searchable(state):
            return self._turn_report(turn_hint(state, budget, top=options.top or 5),
                                     options, data_out)
        if state.current_player() == CHANCE:
            note = f"nothing to decide: chance acts next ({PHASES[state.phase]})"
            return Report(hint_data(INFO.key, who, "exact", VALUE_TEXT, [], note=note,
                                    **data_out), note)
        return self._clock_report(state, options, data_out)

    def _turn_report(self, hint: TurnHint, options: Options, out: dict[str, Any]) -> Report:
        from ..models.meeple_party.state import PHASES
        from ..solvers.meeple_party.turn import describe_plan

        state = hint.state
        who = state.setup.players[state.active]
        k = options.top or 5
        moves: list[Move] = []
        rows = []
        notation = _plan_notation(state)
        for rank, option in enumerate(hint.options[:k], 1):
            reason, fouls = _reason(hint, option)
            steps = describe_plan(state, option.plan)
            figures: dict[str, Any] = _figures(option.value)
            moves.append(Move(notation(option.plan),
                              _value(figures),
                              reason, figures if fouls is None else figures | {"fouls": fouls}, text="; ".join(steps),
                              extra={"steps": steps, "certain": option.certain}))
            rows.append((rank, _short(state, option.plan), f"{figures['stress']:+.2f}",
                         f"{figures['photos']:.2f}", f"{figures['table']:.1f}",
                         f"{100 * figures['win']:.0f}%"))
        status: HintStatus = "exact" if hint.status == "optimal" else "unknown"
        search = {"method": "exact search over every distinct outcome of the turn",
                  "outcomes": hint.outcomes, "options": len(hint.options),
                  "positions": hint.positions, "seconds": round(hint.seconds, 4),
                  "compiled": hint.search is not None and hint.search.kernel is not None}
        if not hint.options:
            note = (f"unknown: the search ran out of its budget after {hint.outcomes:,} end "
                    "positions; no turn is claimed best")
            return Report(hint_data(INFO.key, who, "unknown", VALUE_TEXT, [], note=note,
                                    search=search, **out), note)
        best = hint.options[0]
        reason, fouls = _reason(hint, best)
        out["best"] = {"steps": describe_plan(state, best.plan), "achieves": reason,
                       "fouls": fouls, "figures": moves[0].figures,
                       "met_before": _checked_now(hint)}
        data = hint_data(INFO.key, who, status, VALUE_TEXT, moves, search=search, **out)
        drawn = f" drew a {BAG_KINDS[state.drawn].replace('_', ' ').title()}" \
            if state.drawn >= 0 else f" ({PHASES[state.phase]})"
        lines = [f"{who}{drawn}: {len(hint.options):,} distinct turn outcomes ranked, "
                 f"{hint.outcomes:,} end positions examined ({hint.status}, exact over the "
                 f"turn{f', {hint.seconds:.2f} s' if options.timings else ''})"]
        lines.append("best turn:")
        lines += [f"  {i}. {step}" for i, step in enumerate(out["best"]["steps"], 1)]
        lines.append(f"achieves: {reason}")
        lines.append(f"to play it: partysolver apply FILE '{moves[0].move}'")
        figures = _figures(best.value)
        progress = "in the Hot Tub" if state.setup.variant == "hot-tub" else "photos"
        lines.append(f"expected: {figures['stress']:+.2f} stress"
                     + (f", {fouls:.2f} party fouls" if fouls is not None else "")
                     + f", {figures['photos']:.2f} {progress}, win "
                     + f"{percent(figures['win'])}, table score {figures['table']:.1f}")
        met = _checked_now(hint)
        if met:
            lines.append("met before the turn: " + ", ".join(met))
        column = "hot tub" if state.setup.variant == "hot-tub" else "photos"
        lines.append(f"alternatives (ranked: win, loss, stress, fouls, {column}, table score):")
        lines.append(table(["#", "turn", "stress", column, "table", "win"], rows,
                           right=(0, 2, 3, 4, 5), legend=(
                               "stress: the stress the turn is expected to add to the "
                               f"roommates (negative: relieved); {column}: expected "
                               f"{'meeples in the Hot Tub' if column == 'hot tub' else 'photos taken'}"
                               "; table: the look-ahead score of the table (the other players' "
                               "disasters not met and their photos close; higher is better); "
                               "win: the chance the party is won this turn")))
        return Report(data, "\n".join(lines))

    def _chance_hint(self, state: MeeplePartyState, budget: Budget, options: Options,
                     out: dict[str, Any]) -> Report:
        """Before a draw: the best turn for each thing that can be drawn."""

        from ..models.meeple_party.state import MINGLE, OVER, PLACE
        from ..solvers.budget import BudgetExhausted
        from ..solvers.meeple_party.evaluate import VALUE_FIGURES
        from ..solvers.meeple_party.turn import TurnSearch, best_turn, describe_plan, turn_hint

        rows, draws = [], []
        total = [0.0] * len(VALUE_FIGURES)
        exact = True
        compiled = False
        outcomes = state.chance_outcomes()
        # one search per draw: each gets its share of the time still left (each took all of
        # the limit, so --time-limit 0.1 took 2.9 s before one of 30 surprise cards; a share
        # fixed at the start let every draw's overrun add up), and a draw met with no time
        # left is not searched; --max-nodes stays each search's own
        for (outcome, p), share in zip(outcomes, budget.shares(len(outcomes)), strict=True):
            child = state.apply(outcome)
            steps: list[str] = []
            value: Value | None
            if share.time == 0:
                value = None
            elif child.phase == OVER or child.current_player() == CHANCE:
                try:  # rooted before the draw: the same turn, scored from the same stress
                    value = TurnSearch(state, share).value(child)[0]
                except BudgetExhausted:
                    value = None
                steps = [f"the party ends at once: {child.outcome}" if child.phase == OVER
                         else "a surprise card is drawn first: see the hint once it is known"]
            elif child.phase not in (MINGLE, PLACE):
                # a choice inside the surprise first: its best turn alone (the ranking of
                # every option from there lists and bounds every choice's mingle)
                best = best_turn(child, share)
                value = best.value
                compiled |= best.search.kernel is not None
                steps = describe_plan(child, best.plan)
            else:
                hint = turn_hint(child, share, top=1)
                value = hint.value
                compiled |= hint.search is not None and hint.search.kernel is not None
                steps = describe_plan(child, hint.options[0].plan) if hint.options else []
            label = state.describe_action(outcome).replace("_", " ")
            if value is None:
                exact = False
                draws.append({"outcome": label, "probability": round(float(p), 6),
                              "value": None, "best": []})
                rows.append((label, percent(float(p)), "?", "?",
                             "not searched: the budget ran out"))
                continue
            for i in range(len(VALUE_FIGURES)):
                total[i] += float(p) * value[i]
            figures = _figures(value)
            draws.append({"outcome": label, "probability":
                          round(float(p), 6), "value": figures, "best": steps})
            rows.append((label, percent(float(p)),
                         f"{figures['stress']:+.2f}", f"{figures['photos']:.2f}",
                         ("; ".join(steps))[:70]))
        who = state.setup.players[state.active]
        if exact:
            expected: dict[str, Any] | None = _figures(
                (total[0], total[1], total[2], total[3], total[4], total[5]))
            assert expected is not None
            head = (f"{who} has not drawn yet: the best turn for each draw (expected "
                    f"{expected['stress']:+.2f} stress, {expected['photos']:.2f} photos)")
        else:
            expected = None
            head = (f"{who} has not drawn yet: the best turn for each draw; unknown: the budget "
                    "ran out before every draw was searched (no expectation over the draws)")
        draw = Move("draw", None if expected is None else _value(expected),
                    "nothing to decide before the draw: the best turn for each draw (see "
                    "draws)", expected or {}, text="draw a meeple from the bag")
        data = hint_data(INFO.key, who, "exact" if exact else "unknown", VALUE_TEXT, [draw],
                         search={"compiled": compiled}, draws=draws, **out)
        return Report(data, head + "\n" + table(["draw", "chance", "stress", "photos",
                                                 "best turn"], rows, right=(1, 2, 3)))

    def _clock_report(self, state: MeeplePartyState, options: Options,
                      out: dict[str, Any]) -> Report:
        """Between turns (the clock's icon): the next player's look-ahead, best first."""
        from ..solvers.meeple_party.evaluate import rank_key

        ranked = []
        for action, child in state.children():
            value = _clock_value(state, child)
            ranked.append((rank_key(value), action, value))
        ranked.sort(key=lambda item: item[0], reverse=True)
        moves = [Move(GAME.notation.format(state, a), _value(_figures(v)),
                      "the next player's fouls, photos and "
                      "table score before moving", _figures(v), text=state.describe_action(a))
                 for _, a, v in ranked[:options.top or 5]]
        who = state.setup.players[state.active]
        data = hint_data(INFO.key, who, "exact", VALUE_TEXT, moves, **out)
        rows = [(i, m.text, f"{m.figures['stress']:+.2f}", f"{m.figures['table']:.1f}")
                for i, m in enumerate(moves, 1)]
        head = (f"the clock's {state.clock_icon().replace('_', ' ')} ({state.clock_time()}): "
                "ranked by what it leaves the next player")
        return Report(data, head + "\n" + table(["#", "choice", "stress", "table"], rows,
                                                right=(0, 2, 3)))

    # -- solve --------------------------------------------------------------------------------

    def solve(self, document: Document, options: Options) -> Report:
        from ..solvers.meeple_party.scenario import solve_scenario

        _, state = _load(document)
        if not state.setup.ordered:
            raise InputError(document.source, "ordered", "a perfect-information scenario "
                             "(ordered = true, with the bag's and the decks' order)")
        result = solve_scenario(state, _budget(options))
        text = result.text(options.timings)
        proved = result.verdict != "unknown"
        objective = Objective("photos", f"photos taken before the party ends ({result.target} "
                              "win it)", result.photos,
                              result.photos if proved else result.target)
        data = solve_data(INFO.key, SOLVE_STATUS[result.verdict], objective,
                          text.splitlines()[0],
                          {"line": result.line, "stress": list(result.stress)},
                          search=result.usage)
        return Report(data, text)

    # -- verify -------------------------------------------------------------------------------

    def verify(self, document: Document, options: Options) -> Report:
        from ..models.meeple_party import load_position
        from ..models.meeple_party.state import OVER
        from ..solvers.meeple_party import policies
        from ..solvers.notices import counting
        from ..solvers.simulate import simulate

        position = load_position(document.data, document.source)
        problems = position.problems()
        setup = position.setup
        house = setup.house
        impossible = _impossible(setup, "photo")
        out: dict[str, Any] = {"easy_house": house.is_easy(),
                               "impossible_photos": impossible,
                               "impossible_disasters": _impossible(setup, "disaster")}
        lines = [problems_text(problems)]
        lines.append(f"house {house.name!r}: {house.size} tiles, "
                     + ("an easy house (every room touches at least 2 others)" if house.is_easy()
                        else "not an easy house: " + ", ".join(
                            house.rooms[r].name for r in range(house.size)
                            if len(house.adjacent[r]) < 2) + " touch fewer than 2 rooms"))
        if impossible:
            lines.append(f"{plural(len(impossible), 'photo')} can never be taken in this house: "
                         + "; ".join(f"{p['id']} ({p['why']})" for p in impossible))
        games = options.extra.get("games")
        if not problems and setup.ordered and not games:
            lines.append(self._scenario_verdict(position.to_state(document.source), options,
                                                out))
        if games and not problems:
            state = position.to_state(document.source)
            if state.phase == OVER:
                raise InputError(document.source, None, "a party that is not over, to play "
                                 "games from")
            budget = options.extra.get("hint_nodes", policies.SIMULATION_NODES) or None
            # each game takes a while (the hint at every decision): say so before the first
            options.tell(f"playing {plural(games, 'game')} from this position with the hint "
                         "policy")
            result = simulate(policies.FromPosition(state), [policies.HintPolicy(budget)],
                              games, seed=options.rng_seed, stats=policies.party_figures,
                              progress=counting(games, "games played"))
            rate = result.seat_rates()[0]
            wins = [i for i, r in enumerate(result.records, 1) if r.figures["won"]]
            out["simulation"] = {"games": games, "policy": "hint", "win": rate.as_json()}
            out["solvable"] = "solvable" if wins else "unknown"
            if wins:
                out["witness"] = {"game": wins[0], "seed": options.rng_seed}  # from 1
            lines.append(f"hint policy from this position: win {rate} over {plural(games, 'game')} "
                         "(95% interval of its chance to win from here); "
                         + (f"solvable (game {wins[0]} won with --seed {options.rng_seed})"
                            if wins else "no win seen: unknown"))
        verdict = None if problems else "valid: " + lines[1]
        if not problems and "solvable" in out:
            verdict = f"valid; {out['solvable']}: " + lines[-1]
        return Report(verify_data(INFO.key, problems, verdict, **out), "\n".join(lines),
                      exit_code=1 if problems else 0)

    @staticmethod
    def _scenario_verdict(state: MeeplePartyState, options: Options, out: dict[str, Any]
                          ) -> str:
        """A perfect-information scenario: can the party be won?  The scenario search within
        --time-limit (default SCENARIO_SECONDS), a winning line as the witness."""
        from ..solvers.budget import Budget
        from ..solvers.meeple_party.scenario import solve_scenario

        budget = Budget(time=SCENARIO_SECONDS if options.time_limit is None
                        else options.time_left())
        result = solve_scenario(state, budget)
        found = result.as_json()
        out |= {"solvable": result.verdict, "witness": found["solution"]["line"]
                if result.verdict == "solvable" else None}
        return "scenario: " + result.text(options.timings)

    # -- simulate -----------------------------------------------------------------------------

    def simulate(self, players: int | None, games: int, policies: tuple[str, ...],
                 options: Options, progress: Any) -> Report:
        """``simulate``, or with ``--decide`` / ``--deal`` random deals decided with perfect
        information (:mod:`.meeple_party_deals`)."""
        if deals.wanted(options):
            return deals.decide_report(self, players or self.players, games, policies,
                                       options, progress, _simulation_report)
        return super().simulate(players, games, policies, options, progress)

    def plan_simulation(self, players: int, names: tuple[str, ...], options: Options) -> Plan:
        from ..models.meeple_party import data
        from ..solvers.meeple_party import policies
        from . import paths

        n = players
        extra = options.extra
        if extra.get("plot") is not None:  # before any game, not after all of them
            paths.check_output(Path(extra["plot"]), "--plot", (".svg", ".png"),
                               replaceable=is_picture, forcible=False)
        house: Any = extra.get("house")
        if house is not None:
            house = data.house_option(house)
        factory = policies.NewParty(n, house, extra.get("difficulty", "standard"),
                                    extra.get("length", "casual"), extra.get("variant", "party"),
                                    int(extra.get("start", "12")))
        try:
            factory(random.Random(0))
        except ValueError as error:
            raise InputError.of_option("house", f"a house that seats {plural(n, 'player')}",
                                       str(error)) from None
        budget = extra.get("hint_nodes", policies.SIMULATION_NODES) or None
        chosen = [policies.make_policy(name, budget) for name in names]
        return Plan(factory, chosen, policies.party_figures, context=budget)

    def simulation_report(self, run: Run) -> Report:
        from ..solvers.meeple_party.policies import NewParty

        result, names, budget = run.result, run.names, run.plan.context
        factory = run.plan.new_game
        assert isinstance(factory, NewParty)
        report = _simulation_report(result, factory, names)
        if "hint" in names:
            report.data["hint_nodes"] = budget
            report = Report(report.data, report.text + "\nhint policy: " + (
                "the exact turn hint at every decision" if budget is None else
                f"exact when a decision fits in {budget:,} nodes, else the most promising "
                "options first (--hint-nodes)"))
        plot = run.options.extra.get("plot")
        if plot is not None:
            _plot(result, factory, Path(plot))
            report.data["plot"] = str(plot)
            report = Report(report.data, report.text + f"\nplot written to {plot}")
        return report

    # -- render -------------------------------------------------------------------------------

    def render(self, document: Document, options: Options) -> str:
        from ..models.meeple_party.render import render_svg, room_boxes
        from ..solvers.meeple_party.turn import describe_plan, searchable, turn_hint

        _, state = _load(document)
        arrows: list[Arrow] = []
        caption = ""
        boxes = None
        if options.extra.get("hint") and searchable(state) and state.current_player() >= 0:
            # the picture comes out of the same limit: its costly part first, then the hint
            # with what is left but for the rest of the drawing
            boxes = room_boxes(state)
            hint = turn_hint(state, _budget(options, DRAWING_SECONDS), top=1)
            if hint.options:
                best = hint.options[0]
                arrows = _plan_arrows(state, best.plan)
                reason, _ = _reason(hint, best)
                steps = describe_plan(state, best.plan)
                numbered = [f"{k}. {text}" for k, text in enumerate(steps, 1)] \
                    if len(steps) > 1 else steps
                caption = "hint: " + "; ".join(numbered) + " — " + reason
            else:
                caption = (f"hint: none ({hint.status}: no turn claimed best within the time "
                           "limit)")
        elif options.extra.get("hint"):
            player = state.current_player()
            caption = ("hint: nothing to decide before the draw (the hint answers each "
                       "draw)" if player == CHANCE else
                       "hint: nothing to decide: the party is over" if player < 0 else
                       "hint: the turn search does not cover this position (the hint "
                       "says why)")
        return render_svg(state, arrows, caption, boxes)


def describe_party(state: MeeplePartyState) -> str:
    """A party in a few lines: the clock and stress, the meeple drawn, each room's meeples, the
    bag, and each player's photos and disaster."""
    from ..models.meeple_party.board import UNIT, count
    from ..models.meeple_party.state import OVER

    setup = state.setup
    lines = [state.summary()]
    if state.drawn >= 0:
        lines.append(f"drawn: {BAG_KINDS[state.drawn].replace('_', ' ')}")
    for index, room in enumerate(setup.house.rooms):
        here = [f"{count(state.board[index], piece)} {piece_label(piece)}"
                for piece in range(len(UNIT)) if count(state.board[index], piece)]
        if here:
            lines.append(f"  {room.name}: {', '.join(here)}")
    bag = state.bag_counts()
    lines.append("bag: " + (", ".join(f"{n} {BAG_KINDS[k].replace('_', ' ')}"
                                      for k, n in enumerate(bag) if n) or "empty"))
    cards = setup.cards
    for seat, name in enumerate(setup.players):
        photos = [cards.photos[card].name for card in state.photos[seat] if card >= 0]
        disaster = state.disasters[seat] if seat < len(state.disasters) else -1
        lines.append(f"{name} ({PERSONALITY_KEYS[setup.roommates[seat]].replace('_', ' ')} "
                     f"roommate): photos {', '.join(photos) or 'none'}"
                     + (f"; disaster {cards.disasters[disaster].name}" if disaster >= 0 else ""))
    if state.communal >= 0:
        lines.append(f"communal disaster: {cards.disasters[state.communal].name}")
    if state.phase == OVER:
        lines.append(f"the party is over: {state.outcome}")
    return "\n".join(lines)


def _impossible(setup: Any, deck: str) -> list[dict[str, str]]:
    """Cards of a deck that can never be met in this house, and why."""
    from ..models.meeple_party.cards import CompiledCondition

    cards = setup.cards.photos if deck == "photo" else setup.cards.disasters
    found = []
    for card in cards:
        missing = [c.room for c in card.condition.clauses if not setup.resolve(c.room)]
        compiled = CompiledCondition(card.condition, setup.resolve, 0)
        if missing:
            why = "no " + ", ".join(r.lstrip("@").replace("_", " ") for r in missing) + \
                " in this house"
        elif not compiled.possible:
            why = "more meeples than the game has, or not enough different rooms"
        else:
            continue
        found.append({"id": card.id, "why": why})
    return found


def _simulation_report(result: SimulationResult, factory: policies.NewParty,
                       names: Sequence[str]) -> Report:
    from ..solvers.meeple_party import policies

    figures = result.figures(policies.FIGURE_BOUNDS)
    rate = result.seat_rates()[0]
    games = result.games
    hot_tub = factory.variant == "hot-tub"
    counts: dict[str, int] = {}
    for record in result.records:
        if hot_tub:
            label = [name for low, name in policies.HOT_TUB_SCORES
                     if record.figures["hot_tub"] >= low][-1]
        elif record.figures["won"]:
            label = policies.CATEGORIES[int(record.figures["max_stress"])]
        else:
            label = "lost"
        counts[label] = counts.get(label, 0) + 1
    chosen = factory.house or default_house(factory.players, factory.variant)
    house = chosen if isinstance(chosen, str) else chosen.name
    data_out = simulation_data(
        INFO.key, result, DEFAULT_NAMES[:factory.players], names, False, house=house,
        difficulty=factory.difficulty, length=factory.length, variant=factory.variant,
        win=rate.as_json(), categories=counts,
        figures={name: figure.as_json() for name, figure in figures.items()},
        decisions_per_game=round(sum(r.decisions for r in result.records) / games, 2))
    data_out["interval_text"] += ("; the party is cooperative: every seat shares the same "
                                  "win")
    lines = [f"{plural(games, factory.variant + ' game')}, {plural(factory.players, 'player')}, "
             f"{factory.difficulty} {factory.length}, house {house}, "
             f"policy {'/'.join(names)}"]
    if not hot_tub:
        lines.append(f"win rate: {rate} (95% interval of the chance to win a party like "
                     "these)")
    rows = [(k, v, f"{100 * v / games:.1f}%") for k, v in sorted(counts.items(),
                                                                   key=lambda kv: -kv[1])]
    lines.append(table(["score", "games", "share"], rows, right=(1, 2)))
    shown = ["photos", "max_stress", "mean_stress", "turns"] + (["hot_tub"] if hot_tub else [])
    lines.append("means over the games (95% interval of each expected value): " + "; ".join(
        f"{name.replace('_', ' ')} {figures[name].mean:.2f} "
        f"[{figures[name].interval.low:.2f}, {figures[name].interval.high:.2f}]"
        for name in shown if name in figures))
    return Report(data_out, "\n".join(lines))


def _plot(result: SimulationResult, factory: policies.NewParty, path: Path) -> None:
    """Histograms of photos taken (won and lost games apart, with the photos needed to win
    marked) and of the final stress, written to ``path`` as SVG or PNG by its suffix."""
    import matplotlib

    from ..solvers.simulate import rate_of
    from . import paths

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    fmt = picture_format(path, "--plot")
    key = "hot_tub" if factory.variant == "hot-tub" else "photos"
    won = [r.figures[key] for r in result.records if r.figures["won"]]
    lost = [r.figures[key] for r in result.records if not r.figures["won"]]
    stress = [r.figures["max_stress"] for r in result.records]
    target = None if key == "hot_tub" else factory(random.Random(0)).setup.photos_to_win
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4.2))
    top = int(max(won + lost + [1, target or 0])) + 2
    bins = [x - 0.5 for x in range(top)]
    left.hist([won, lost], bins=bins, stacked=True, label=["won", "lost"],
              color=["#2ca02c", "#d62728"])
    if target is not None:
        left.axvline(target, color="#333", linestyle="--", linewidth=1.5,
                     label=f"photos to win ({target})")
    left.set_xlabel("meeples in the Hot Tub at the end" if key == "hot_tub" else
                    "photos taken")
    left.set_ylabel("games")
    left.set_xlim(-0.5, top - 0.5)
    left.set_title("how far each game got")
    left.legend(loc="best")
    right.hist(stress, bins=[-0.5, 0.5, 1.5, 2.5, 3.5], color="#1f77b4", rwidth=0.8)
    right.set_xticks([0, 1, 2, 3])
    right.set_xlabel("highest stress of a player at the end (3: stressed out)")
    right.set_ylabel("games")
    right.set_title("stress at the end")
    # whole numbers of games and of photos: no tick at 2.5 games
    left.xaxis.set_major_locator(MaxNLocator(integer=True))
    for axes in (left, right):
        axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    rate = rate_of([r.returns[0] for r in result.records])
    low, high = rate.interval.low, rate.interval.high
    seats = f"{factory.players} player" + ("s" if factory.players != 1 else "")
    fig.suptitle(f"Meeple Party: {result.games} games, {seats}, "
                 f"{factory.difficulty} {factory.length}; won {percent(rate.rate)} "
                 f"(95% interval of the win chance: {percent(low)} to {percent(high)})")
    fig.tight_layout()
    data = figure_bytes(fig, fmt)
    plt.close(fig)
    paths.write_atomically(path, data)


COMMANDS = MeeplePartyCommands()

"""The commands of Pool Party Stars: hint, solve, verify, simulate, render and generate."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar

from ..models.documents import format_document, read_document
from ..models.errors import InputError, Problem
from ..models.pool_party_stars import INFO, Table
from ..models.pool_party_stars.game import ATTRIBUTES, Guess, Propose, Public, win_shares
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
    WIN_RATE_HEADER,
    Move,
    Objective,
    fraction_text,
    hint_data,
    simulation_data,
    solve_data,
    verify_data,
)
from .kinds import DocumentKind, Figure, Figures, record_kind
from .simulation import Plan, Run, SimulatingCommands
from .text import plural, problems_text, table, top

if TYPE_CHECKING:  # the rules engine and the searches load when a verb runs (start-up)
    from ..models.pool_party_stars import Knowledge
    from ..models.pool_party_stars.position import (
        GameLog,
    )
    from ..models.pool_party_stars.render import Spot
    from ..models.pool_party_stars.state import PoolPartyState
    from ..solvers.budget import Budget
    from ..solvers.pool_party_stars import deduction, hints, puzzles

FROM_SEAT = OptionSpec("from_seat", "text", metavar="NAME",
                       help="pool-party-stars: read an omniscient log from this player's seat "
                            "(only their rule and hand are used).")
COMPETITIVE = OptionSpec("competitive", "flag", default=False,
                         help="pool-party-stars: play the competitive rule (a wrong guess "
                              "costs a VIP).")
DIFFICULTY = OptionSpec("difficulty", "choice", choices=("easy", "medium", "hard"), required=True,
                        help="pool-party-stars: easy (3-4 players), medium (4-5) or hard (5-6).")
FIRST = OptionSpec("first", "int", minimum=1, default=1, show_default=True, metavar="N",
                   help="pool-party-stars: the number of the first puzzle file.")
REVEAL = OptionSpec("reveal", "flag", default=False,
                    help="Print each puzzle's answer too (it is hidden by default).")
OPTIMAL = OptionSpec("optimal", "flag", default=False,
                     help="pool-party-stars: also rank the proposals of your hand by the least "
                          "expected number of your own proposals until every other rule is "
                          "certain (exact; within the time limit, default 20 s; see "
                          "docs/rules.md, the questions solitaire).")
OPTIMAL_TIME = 20.0
"""The time an optimal-questions search gets without --time-limit (a 2-player deal needs
about 5 s of CPU; kept tables make a repeated position instant)."""
NEVER_CERTAIN_PLAYERS = 4
"""``hint --optimal`` counts the chance that no order of proposals makes every rule certain
at tables of at most so many players: some 0.1 s for 4 (990 assignments, 9 guests never
drawn); its cost grows with the square of the assignments and, through the guests never
drawn (12 and 15 for 5 and 6 players), exponentially."""
GUEST_DECK = OptionSpec("guest_deck", "text", metavar="FILE",
                        help="pool-party-stars: a deck file (default: the house deck).")

BLOCKING = ("same-rule", "rule-history")
"""Problems with the known rules themselves: the consistency of the rest is not checked."""


# -- loading --------------------------------------------------------------------------------------


def _load(document: Document) -> GameLog:
    from ..models.pool_party_stars.position import load_log

    log = load_log(document.data, document.source)
    require_valid(log.problems(), document.source)
    return log


def _seat(log: GameLog, options: Options, source: str, required: bool = True) -> int | None:
    """Whose seat to read the log from: the log's seat, ``--from-seat``, or (omniscient log)
    the player to act."""
    name = options.extra.get("from_seat")
    names = log.names
    if name is not None:
        if name not in names:
            raise InputError.of_option("from_seat", "one of the players " + ", ".join(names),
                                       name)
        seat = names.index(name)
        if log.seat is not None and seat != log.seat:
            raise InputError.of_option("from_seat", f"the log's own seat ({names[log.seat]}): "
                                       "a seat log knows only that seat's rule", name)
        if log.rules[seat] is None:
            raise InputError.of_option("from_seat", "a player whose rule the log knows", name)
        return seat
    if log.seat is not None:
        return log.seat
    if log.kind == "omniscient":
        return log.table.turn_of(len(log.events))
    if required:
        raise InputError(source, "seat", "a seat log (seat = NAME and that player's rule), or "
                         "an omniscient log: a public log has no seat to advise")
    return None


def _consistent(knowledge: Knowledge, source: str, options: Options) -> deduction.Posterior:
    """The posterior; an inconsistent log is bad input naming the events that conflict."""
    from ..solvers.pool_party_stars import conflicts, deduction

    post = deduction.posterior(knowledge)
    if not post.consistent:
        found = conflicts.find_conflict(knowledge, _budget(options))
        listed = found.one_line() if found else "the log as a whole"
        raise InputError(source, "events", "events that some assignment of secret rules "
                         f"satisfies; these conflict: {listed}")
    return post


def _budget(options: Options) -> Budget:
    from ..solvers.budget import Budget
    from ..solvers.pool_party_stars import conflicts

    return Budget(time=conflicts.DEFAULT_TIME if options.time_limit is None
                  else options.time_left())


def _percent(value: float) -> str:
    return f"{100 * value:.0f}%"


LOG_VERBS = ("hint", "solve", "verify", "render", "apply", "play")
RULES = tuple(a.name.capitalize() for a in ATTRIBUTES)
"""The rules a deduction puzzle's answer names (``Sport``: the target's Forbidden Sport)."""


class PoolPartyStarsCommands(SimulatingCommands):
    info = INFO
    verbs = frozenset({"hint", "solve", "verify", "simulate", "render", "generate"})
    options: ClassVar[dict[str, list[OptionSpec]]] = {
        "hint": [FROM_SEAT, OPTIMAL],
        "solve": [FROM_SEAT],
        "render": [FROM_SEAT],
        "simulate": [COMPETITIVE, GUEST_DECK],
        "generate": [DIFFICULTY, FIRST, REVEAL],
    }
    policies = ("random", "hint")
    default_policies = ("hint", "random")
    review = Thresholds(0.1, 0.3, 0.6, "VIPs")
    players = 4
    kinds = (
        DocumentKind("seat log", LOG_VERBS, "a game log seen from one seat"),
        DocumentKind("position", LOG_VERBS, "a game log or a full state"),
        DocumentKind("puzzle", ("hint", "solve", "verify", "render", "check"),
             "a deduction puzzle, not a game in progress", puzzle="rule", reveals=("solve",),
             question="Whose rule is it? Reveal one deduction at a time, or pick the rule and "
                      "check it.", answer_help="a rule (" + ", ".join(RULES) + ")",
             choices=RULES),
        record_kind(LOG_VERBS))
    figures = Figures((Figure("exp. VIPs", digits=2, needs="information_bits"),))
    unplayable = {
        "complete": "this log is an excerpt (a puzzle's clues): without the whole game from "
                    "the deal there is no turn order to play on",
        "events": "no assignment of the secret rules fits these events, so no game can go on "
                  "from them: Verify names the events that conflict",
        "seat": "this log is seen from no seat: play along needs a seat log (seat = NAME and "
                "that player's rules) or a log that shows every rule and hand"}

    def kind_of(self, document: Document) -> str:
        data = document.data
        if data.get("kind") == "record":
            return "record"
        if isinstance(data.get("puzzle"), Mapping):
            return "puzzle"
        return "seat log" if isinstance(data.get("seat"), str) else "position"

    def check(self, document: Document, answer: str, given: Mapping[str, Any]) -> Report:
        """A deduction puzzle's answer, a rule (``Sport``, ``Forbidden Sport``), against
        ``solve``'s deduction."""
        answer = answer.strip()
        labels = {rule.casefold(): rule for rule in RULES}
        word = re.sub(r"^forbidden\s+", "", answer, flags=re.IGNORECASE).strip().casefold()
        if word not in labels:
            raise InputError(None, "answer", f"a rule ({', '.join(RULES)})", answer)
        guess = labels[word]
        solution = run("solve", document, given).data["solution"]
        target, rule, possible = solution["target"], solution["rule"], solution["possible"]
        if rule is None:
            correct = False
            verdict = (f"the clues do not pin {target}'s rule down ({', '.join(possible)} "
                       "remain)" + ("" if guess in possible else
                                    f"; and {guess} is already ruled out"))
        else:
            correct = guess == rule
            verdict = (f"right: {target}'s rule is Forbidden {rule}" if correct else
                       f"not {guess}: the clues rule it out" if guess not in possible else
                       f"not {guess}")
        return Report(answer_data(INFO.key, correct, verdict, guess, target=target), verdict)

    # -- play ---------------------------------------------------------------------------------

    def board(self, document: Document) -> str:
        from ..models.pool_party_stars.game import format_event
        from ..models.pool_party_stars.position import describe_log, load_log

        log = load_log(document.data, document.source)
        lines = [describe_log(log)]
        for seat, name in enumerate(log.names):
            hand, rules = log.hands[seat], log.rules[seat]
            if hand is None and not rules:
                continue
            held = f"rule {rules[-1].label}" if rules else "rule unknown"
            if rules and len(rules) > 1:
                held += f" (before: {', '.join(r.label for r in rules[:-1])})"
            guests = ", ".join(str(g) for g in hand) if hand else "none"
            lines.append(f"{name}: {held}; hand: {guests if hand is not None else 'unknown'}")
        recent = log.events[-3:]
        if recent:
            lines.append("last events: " + "; ".join(format_event(e, log.names)
                                                     for e in recent))
        return "\n".join(lines)

    def position_values(self, document: Document, options: Options) -> Valuation | None:
        """A review's value of the position: each player's VIPs plus the VIPs their best
        action is expected to bring on what their seat knows (the hint's exact count of the
        consistent assignments of rules: the value the hint gives that player's best option,
        as if it were their turn).  Exact in the hint's sense (a count, one action ahead).  At
        a draw (a guest, a new rule) ``None``: the review averages the values after each
        outcome, so the luck of a draw is what the card did to the drawer's best next action
        against the average card.  One seat's view: ``None``."""
        from ..models.pool_party_stars.position import load_log
        from ..models.protocol import CHANCE
        from ..solvers.pool_party_stars import deduction, hints
        from .records import full_state_of

        state = full_state_of(document)
        if state is None:
            return None
        names = state.table.players
        vips = state.public.vips
        if state.is_terminal():
            return Valuation({name: float(len(vips[seat])) for seat, name in enumerate(names)},
                             True)
        if state.current_player() == CHANCE:
            return None  # the review averages the values after each outcome
        log = load_log(document.data, document.source)
        values = {}
        for seat, name in enumerate(names):
            knowledge = log.knowledge(seat)
            post = deduction.posterior(knowledge)
            if not post.consistent:
                return None
            advice = hints.hint(knowledge, post)
            best = advice.options[0].value if advice.options else 0.0
            values[name] = len(vips[seat]) + best
        return Valuation(values, True)

    def seat_names(self, state: PoolPartyState) -> tuple[str, ...]:
        return state.table.players

    def policy(self, name: str) -> Any:
        return make_policy(name)

    # -- generate -----------------------------------------------------------------------------

    def generate(self, count: int, options: Options, progress: Any) -> Report:
        extra = options.extra
        return generate_puzzles(extra["difficulty"], count, options.rng_seed, extra["first"],
                                extra["reveal"], progress)

    def generated_names(self, count: int, options: Options) -> list[str]:
        extra = options.extra
        return [puzzle_name(extra["difficulty"], extra["first"] + i) for i in range(count)]

    # -- hint ---------------------------------------------------------------------------------

    def hint(self, document: Document, options: Options) -> Report:
        from ..models.pool_party_stars.notation import move_text
        from ..solvers.pool_party_stars import hints

        log = _load(document)
        seat = _seat(log, options, document.source)
        knowledge = log.knowledge(seat)
        if log.puzzle is not None:
            if options.extra.get("optimal"):
                raise InputError(None, "optimal", reason="--optimal is for a game log (a "
                                 "puzzle's answer is one rule, not a sequence of proposals)",
                                 option=True)
            return self._puzzle_step(log, knowledge, _consistent(knowledge, document.source,
                                                                 options))
        if not knowledge.complete:
            raise InputError(document.source, "complete", "a whole game log (a hint needs the "
                             "waiting line and whose turn it is; this is an excerpt)")
        post = _consistent(knowledge, document.source, options)
        names = log.names
        record = knowledge.public
        assert knowledge.seat is not None
        me = names[knowledge.seat]
        if record.hand_sizes[log.table.turn_of(len(log.events))] == 0:
            return _game_over(names, record, me)
        advice = hints.hint(knowledge, post)
        if log.pending is not None:
            return _waiting(me, log.pending, advice, names, post.total)
        to_act = names[log.table.turn_of(len(log.events))]
        exposures, onlooker = hints.exposure(knowledge, post)
        moves, lines = [], []
        best = advice.options[0].value if advice.options else 0.0
        cited = _cited_events(knowledge, advice)
        for rank, option in enumerate(top(advice.options, options.top), 1):
            reason = option.reason
            if isinstance(option.move, Guess) and option.move.target in cited:
                reason += f" (deduced from events {cited[option.move.target]}: see solve)"
            kind = "propose" if isinstance(option.move, Propose) else "guess"
            chance = "nobody bars it" if kind == "propose" else "the guess is right"
            moves.append(Move(move_text(option.move, names), option.value, reason,
                              {"information_bits": round(option.info, 6),
                               "probability": round(option.probability, 6),
                               "probability_of": chance}, text=option.text,
                              extra={"kind": kind}))
            gap = "" if rank == 1 else f" ({option.value - best:+.2f})"
            lines.append((rank, option.text, f"{option.value:.2f}{gap}", f"{option.info:.2f}",
                          reason))
        optimal: dict[str, Any] = {}
        optimal_text = ""
        if options.extra.get("optimal"):
            optimal, optimal_text = _optimal_questions(knowledge, options, document.source)
        data = hint_data(
            INFO.key, me, "exact", f"{me}'s expected VIPs from the action (ties: the expected "
            "information it reveals, in bits)", moves,
            search={"method": "exact counting of the consistent assignments of rules",
                    "consistent_assignments": post.total},
            to_act=to_act, impossible_guesses_left_out=advice.impossible_guesses,
            exposure=_exposure_json(names, exposures, onlooker))
        if optimal:
            data["optimal_questions"] = optimal
        head = (f"{me}'s options ({post.total:,} consistent assignments of the others' rules; "
                "exact): ranked by expected VIPs, then information (bits)")
        if to_act != me:
            head += f"\nnote: it is {to_act}'s turn; these are {me}'s options on what is known now"
        text = [head]
        if lines:
            text.append(table(["#", "action", "VIPs", "info", "why"], lines, right=(0, 2, 3),
                              legend="VIPs: the VIPs the action is expected to bring you (in "
                                     "brackets: behind the best); info: the information it is "
                                     "expected to reveal about the others' rules, in bits"))
        if advice.impossible_guesses:
            text.append(f"({advice.impossible_guesses} guesses that cannot be right are left "
                        "out)")
        if advice.note:
            text.append(advice.note)
        text.append("exposure: " + hints.exposure_summary(knowledge, exposures))
        if optimal_text:
            text.append(optimal_text)
        return Report(data, "\n".join(text))

    def _puzzle_step(self, log: GameLog, knowledge: Knowledge, post: deduction.Posterior
                     ) -> Report:
        """A puzzle's next single step: the first deduction of the chain, not the answer."""
        from ..solvers.pool_party_stars import puzzles

        assert log.puzzle is not None
        names = log.names
        me = names[log.seat] if log.seat is not None else "you"
        target = names[log.puzzle.target]
        solution = puzzles.solve_puzzle(knowledge, log.puzzle.target, post)
        steps = solution.explanation.steps if solution.explanation else ()
        clues = [step for step in steps if step.kind != "so"]
        value_text = "1 when the step is a proved deduction"
        if not clues:
            note = (f"no single step: {target}'s rule is not pinned down by these clues "
                    f"({len(solution.possible)} rules remain)")
            return Report(hint_data(INFO.key, me, "exact", value_text, [], note=note), note)
        step = clues[0]
        events = [i + 1 for i in step.events]
        move = Move(f"deduce: {step.text}", 1.0,
                    f"the first of {len(clues)} steps to {target}'s rule "
                    f"(solving the puzzle shows the whole chain and the answer)",
                    {"steps": len(clues), "events": events})
        data = hint_data(INFO.key, me, "exact", value_text, [move], puzzle=True,
                         target=target)
        text = (f"puzzle: what is {target}'s rule? Next step (1 of {len(clues)}):\n"
                f"  {step.text}")
        return Report(data, text)

    # -- solve --------------------------------------------------------------------------------

    def solve(self, document: Document, options: Options) -> Report:
        from ..solvers.pool_party_stars import deduction, hints

        log = _load(document)
        seat = _seat(log, options, document.source, required=False)
        knowledge = log.knowledge(seat)
        post = _consistent(knowledge, document.source, options)
        if log.puzzle is not None:
            return self._puzzle(log, knowledge, post)
        names = log.names
        engine = deduction.Eliminator(knowledge)
        players, lines = [], []
        view = f"from {names[seat]}'s seat" if seat is not None else "as an onlooker"
        lines.append(f"exact posterior {view}: {plural(post.total, 'consistent assignment')} of the "
                     "rules held now")
        for belief in post.players:
            p = belief.player
            if p == seat:
                continue
            explanation = engine.explain(p) if belief.certain is not None else None
            entry: dict[str, Any] = {
                "player": names[p],
                "probabilities": {a.label: round(belief.counts[a] / post.total, 6)
                                  for a in ATTRIBUTES if belief.counts[a]},
                "exact": {a.label: fraction_text(Fraction(belief.counts[a], post.total))
                          for a in ATTRIBUTES if belief.counts[a]},
                "certain": belief.certain.label if belief.certain is not None else None,
                "eliminated": [a.label for a in belief.eliminated]}
            if explanation is not None:
                entry["chain"] = [step.as_json() for step in explanation.steps]
            players.append(entry)
            shown = sorted(((belief.counts[a], a) for a in ATTRIBUTES if belief.counts[a]),
                           key=lambda item: -item[0])
            odds = ", ".join(f"{a.label} {_percent(c / post.total)}" for c, a in shown)
            lines.append(f"{names[p]}: " + (f"certainly {belief.certain.label}"
                                            if belief.certain is not None else odds))
            if explanation is not None:
                lines += [f"    {step.text}" for step in explanation.steps]
        certain = sum(1 for entry in players if entry["certain"] is not None)
        verdict = (f"{plural(post.total, 'assignment')} of the rules held now fit the events {view}; "
                   f"{certain} of {len(players)} players' rules are certain")
        solution: dict[str, Any] = {"seat": names[seat] if seat is not None else None,
                                    "players": players}
        data = solve_data(INFO.key, "optimal", Objective(
            "consistent_assignments", "the number of assignments of the rules held now that "
            "fit every event (each equally likely)", post.total, post.total), verdict, solution)
        if seat is not None and knowledge.rules:
            exposures, onlooker = hints.exposure(knowledge, post)
            solution["exposure"] = _exposure_json(names, exposures, onlooker)
            lines.append("what the others can deduce about your rule "
                         f"({knowledge.rules[-1].label}):" if exposures else
                         "exposure: your new rule is not drawn yet")
            for item in exposures:
                lines.append(f"  {names[item.player]}: {_percent(item.expected)} on it "
                             f"(certain in {_percent(item.certain)} of their possible "
                             f"positions, >= 50% in {_percent(item.at_least_half)}; "
                             f"{item.possible:.1f} rules left for you)")
            if onlooker is not None:
                lines.append(f"  an onlooker: {_percent(onlooker)}; "
                             + hints.exposure_summary(knowledge, exposures))
        return Report(data, "\n".join(lines))

    def _puzzle(self, log: GameLog, knowledge: Knowledge, post: deduction.Posterior) -> Report:
        from ..solvers.pool_party_stars import puzzles

        assert log.puzzle is not None
        names = log.names
        target = log.puzzle.target
        solution = puzzles.solve_puzzle(knowledge, target, post)
        unique = solution.rule is not None
        chain = [step.as_json() for step in solution.explanation.steps] \
            if solution.explanation else []
        verdict = (f"{names[target]}'s rule is Forbidden {solution.rule.label}"
                   if solution.rule is not None else f"not unique: {names[target]}'s rule may be "
                   + ", ".join(a.label for a in solution.possible))
        objective = Objective("rules_left", f"the rules {names[target]} may still hold",
                              len(solution.possible), len(solution.possible))
        data = solve_data(INFO.key, "optimal" if unique else "feasible", objective, verdict,
                          {"target": names[target],
                           "rule": solution.rule.label if solution.rule is not None else None,
                           "possible": [a.label for a in solution.possible], "chain": chain,
                           "difficulty": log.puzzle.difficulty})
        if unique:
            assert solution.explanation is not None and solution.rule is not None
            lines = [f"{names[target]}'s rule is Forbidden {solution.rule.label} (the only rule "
                     "consistent with the clues)"]
            lines += [f"  {k}. {step.text}" for k, step in
                      enumerate(solution.explanation.steps, 1)]
        else:
            lines = [f"not unique: {names[target]}'s rule may be "
                     + ", ".join(a.label for a in solution.possible)]
        return Report(data, "\n".join(lines))

    # -- verify -------------------------------------------------------------------------------

    def verify(self, document: Document, options: Options) -> Report:
        from ..models.pool_party_stars.position import describe_log, load_log
        from ..solvers.pool_party_stars import conflicts, deduction, puzzles

        log = load_log(document.data, document.source)
        problems = log.problems()
        extra: dict[str, Any] = {"kind": log.kind}
        notes = []
        if log.kind != "omniscient":
            if any(p.code in BLOCKING for p in problems):
                notes.append("the known rules conflict already: consistency of the rest not "
                             "checked")
            else:
                knowledge = log.knowledge()
                found = conflicts.find_conflict(knowledge, _budget(options))
                if found is not None:
                    problems.append(Problem("inconsistent", found.text(), "events"))
                    extra["conflict"] = {"events": [i + 1 for i in found.events],
                                         "smallest": found.smallest}
                elif (post := deduction.posterior(knowledge)).total == 0:
                    # No conflict among the others' answers: the known rules contradict the
                    # log (the problems above say where), so nothing is consistent.
                    extra["consistent_assignments"] = 0
                    if not problems:
                        problems.append(Problem("inconsistent", "no assignment of rules fits "
                                                "the log", "events"))
                else:
                    extra["consistent_assignments"] = post.total
                    notes.append(f"consistent: {plural(post.total, 'assignment')} of the rules held "
                                 "now fit the events")
                    if log.puzzle is not None:
                        solution = puzzles.solve_puzzle(knowledge, log.puzzle.target, post)
                        extra["solvable"] = "solvable" if solution.rule is not None else "unsolvable"
                        notes.append(f"puzzle: {extra['solvable']} ("
                                     + ("one answer" if solution.rule is not None else
                                        f"{len(solution.possible)} rules remain") + ")")
        if log.puzzle is not None and "solvable" not in extra:
            extra["solvable"] = "unsolvable" if problems else "unknown"
        verdict = None
        if not problems and notes:
            verdict = "valid; " + "; ".join(notes)
        data = verify_data(INFO.key, problems, verdict, **extra)
        text = problems_text(problems)
        if not problems:
            text += "\n" + describe_log(log)
        text = "\n".join([text, *notes])
        return Report(data, text, exit_code=1 if problems else 0)

    # -- simulate -----------------------------------------------------------------------------

    def plan_simulation(self, players: int, names: tuple[str, ...], options: Options) -> Plan:
        from ..models.pool_party_stars.position import DEFAULT_NAMES

        deck = _deck(options.extra.get("guest_deck"), players)
        competitive = bool(options.extra.get("competitive"))
        table_ = Table(DEFAULT_NAMES[:players], deck, competitive)
        return Plan(NewGame(table_), [make_policy(name) for name in names], final_vips,
                    context=table_)

    def simulation_report(self, run: Run) -> Report:
        from ..models.pool_party_stars.position import DEFAULT_NAMES

        result, n, names, table_ = run.result, run.players, run.names, run.plan.context
        competitive = table_.competitive
        seats = result.seat_rates()
        figures = result.figures()
        data = simulation_data(
            INFO.key, result, DEFAULT_NAMES[:n], names, run.rotate,
            seat_figures=[{"vips": figures[f"vips_{i + 1}"].as_json()} for i in range(n)],
            competitive=competitive, deck="house" if table_.house_deck else "custom")
        seat_policies = run.seat_policies()
        rows = [(DEFAULT_NAMES[i], "rotating" if run.rotate else seat_policies[i], str(rate))
                for i, rate in enumerate(seats)]
        text = [f"{run.games} games, {n} players, {'competitive' if competitive else 'friendly'} "
                f"mode ({WIN_RATE_HEADER})",
                table(["seat", "policy", "win rate"], rows)]
        if len(set(names)) > 1:
            text.append(table(["policy", "win rate"], [(name, str(rate)) for name, rate in
                                                       result.policy_rates().items()]))
        text.append("mean VIPs: " + ", ".join(
            f"{DEFAULT_NAMES[i]} {figures[f'vips_{i + 1}'].mean:.1f}" for i in range(n)))
        return Report(data, "\n".join(text))

    # -- render -------------------------------------------------------------------------------

    def render(self, document: Document, options: Options) -> str:
        from ..models.pool_party_stars.render import render_svg
        from ..solvers.pool_party_stars import hints, puzzles

        log = _load(document)
        seat = _seat(log, options, document.source, required=False)
        knowledge = log.knowledge(seat)
        post = _consistent(knowledge, document.source, options)
        grid: list[list[float] | None] = [list(b.probabilities) for b in post.players]
        arrows: list[tuple[Spot, Spot]] = []
        caption = ""
        if log.puzzle is not None:
            if options.extra.get("hint"):
                solution = puzzles.solve_puzzle(knowledge, log.puzzle.target, post)
                caption = (f"answer: {log.names[log.puzzle.target]}'s rule is "
                           + (solution.rule.label if solution.rule is not None else
                              "one of " + ", ".join(a.label for a in solution.possible)))
            else:
                grid[log.puzzle.target] = None
        elif options.extra.get("hint") and seat is not None and knowledge.complete:
            advice = hints.hint(knowledge, post)
            if advice.options:
                best = advice.options[0]
                if isinstance(best.move, Guess):
                    arrows.append((("seat", seat), ("rule", best.move.target,
                                                    int(best.move.rule))))
                else:
                    hand = list(knowledge.hand or ())
                    arrows.append((("hand", hand.index(best.move.guest)), "centre"))
                caption = f"hint: {best.text} ({best.value:.2f} expected VIPs): {best.reason}"
        return render_svg(log, grid, arrows, caption)


def _optimal_questions(knowledge: Knowledge, options: Options, source: str
                       ) -> tuple[dict[str, Any], str]:
    """The proposals of the seat's hand by the least expected number of its own proposals
    until every other rule is certain (:mod:`~partysolver.solvers.pool_party_stars.questions`),
    within the time left; the search's tables are kept under the user cache directory."""
    import time

    from ..solvers.pool_party_stars import questions

    try:
        problem = questions.problem_of(knowledge)
    except ValueError as error:
        name, _, what = str(error).partition(": ")
        raise InputError(source, name, reason=f"--optimal: {what}") from None
    left = len(problem.consistent or ())
    head = (f"optimal questions ({left:,} consistent assignments; your own proposals until "
            "every other rule is certain, others' turns not counted, exact)")
    if left == 1:
        return ({"status": "done", "consistent_assignments": 1, "never_certain": 0.0,
                 "proposals": []}, f"{head}: every other rule is already certain")
    # The chance that no order of proposals makes every rule certain (4 players: above 0 at
    # the deal), told before the search, which may not finish (NEVER_CERTAIN_PLAYERS)
    never = problem.unidentifiable() if problem.players <= NEVER_CERTAIN_PLAYERS else None
    never_line = (f"\n  with a chance of {float(never):.2g} the guests you will still see cannot "
                  "tell every rule apart: then no order of proposals makes them certain, so "
                  "every expected number is infinite" if never else "")
    never_value = None if never is None else float(never)
    if not problem.hand:
        return ({"status": "no guest", "consistent_assignments": left,
                 "never_certain": never_value, "proposals": []},
                f"{head}: you have no guest to propose{never_line}")
    path = questions.table_path(problem.players)
    limit = options.time_left()
    limit = OPTIMAL_TIME if limit is None else limit
    with questions.LOCK:
        search = questions.search_for(problem.players, path)
        search.deadline = time.monotonic() + limit
        kept = len(search.memo_e)
        try:
            ranked = questions.first_proposals(problem, search)
        except questions.TimeUp:
            return ({"status": "unfinished", "consistent_assignments": left,
                     "seconds": limit, "never_certain": never_value, "proposals": []},
                    f"{head}: not finished within {limit:.1f} s (a 2-player deal takes about "
                    "5 s; larger tables early in a game take far longer: --time-limit gives "
                    f"more){never_line}")
        finally:
            search.deadline = None
            if len(search.memo_e) > kept:
                questions.keep_tables(search, path)
    proposals = [{"guest": str(guest),
                  "expected_proposals": round(value, 6) if value < float("inf") else None}
                 for guest, value in ranked]
    lines = [f"  propose {p['guest']}: {p['expected_proposals']:.3f} expected proposals"
             if p["expected_proposals"] is not None else
             f"  propose {p['guest']}: some answers leave rules no guest you may still hold "
             "can tell apart (never certain by proposals alone)" for p in proposals]
    return ({"status": "exact", "consistent_assignments": left, "never_certain": never_value,
             "proposals": proposals},
            "\n".join([head + ":", *lines]) + never_line)


def _cited_events(knowledge: Knowledge, advice: hints.Hint) -> dict[int, str]:
    """For every player whose rule is certain, the events its chain of reasoning cites."""
    from ..solvers.pool_party_stars import deduction

    certain = {o.move.target for o in advice.options
               if isinstance(o.move, Guess) and o.probability == 1}
    if not certain:
        return {}
    engine = deduction.Eliminator(knowledge)
    found = {}
    for target in sorted(certain):
        explanation = engine.explain(target)
        if explanation is not None and explanation.events:
            found[target] = ", ".join(str(i + 1) for i in explanation.events)
    return found


def _waiting(me: str, pending: Any, advice: Any, names: Sequence[str], total: int) -> Report:
    """The hint while the seat's own proposal or guess waits for its answer: nothing is
    for the seat to choose; what the answer may be, with the chances the hint gave it."""
    from ..models.pool_party_stars.notation import move_text

    text = move_text(pending, names)
    option = next((o for o in advice.options if o.move == pending), None)
    kind = "proposal" if isinstance(pending, Propose) else "guess"
    answer = "who bars it (or nobody)" if kind == "proposal" else "whether it is right"
    head = (f"{me}'s move '{text}' waits for its answer: there is nothing for {me} to "
            f"choose until it is given; enter {answer}")
    waiting: dict[str, Any] = {"move": text, "kind": "propose" if kind == "proposal" else
                               "guess"}
    lines = [head]
    if option is not None:
        waiting |= {"value": round(option.value, 6), "probability": round(option.probability, 6),
                    "reason": option.reason}
        lines.append(f"expected VIPs from it: {option.value:.2f} ({total:,} consistent "
                     f"assignments of the others' rules; exact): {option.reason}")
    data = hint_data(INFO.key, me, "exact", f"{me}'s expected VIPs from the action", [],
                     note=head, waiting=waiting)
    return Report(data, "\n".join(lines))


def _game_over(names: tuple[str, ...], record: Public, me: str) -> Report:
    shares = win_shares(record.vips)
    winners = [names[p] for p, share in enumerate(shares) if share > 0]
    vips = ", ".join(f"{names[p]} {len(v)}" for p, v in enumerate(record.vips))
    verb = "wins" if len(winners) == 1 else "share the win"
    note = (f"the game is over (the player to act has no guest): {' and '.join(winners)} "
            f"{verb} (VIPs: {vips})")
    data = hint_data(INFO.key, me, "exact", f"{me}'s expected VIPs", [], note=note, over=True,
                     winners=winners,
                     vips={names[p]: len(v) for p, v in enumerate(record.vips)})
    return Report(data, note)


def _exposure_json(names: tuple[str, ...], exposures: Any, onlooker: float | None
                   ) -> dict[str, Any]:
    return {"players": [{"player": names[e.player], "expected": round(e.expected, 6),
                         "certain": round(e.certain, 6),
                         "at_least_half": round(e.at_least_half, 6),
                         "rules_left": round(e.possible, 6)} for e in exposures],
            "onlooker": None if onlooker is None else round(onlooker, 6)}


def _deck(path: str | None, players: int) -> Any:
    from ..models.pool_party_stars.position import DEFAULT_NAMES, load_deck

    if path is None:
        return Table(DEFAULT_NAMES[:2]).deck
    document, source = read_document(path, ("--guest-deck", None, "deck file"))
    return load_deck(document, source, players)


class NewGame:
    """A fresh deal at ``table`` (a picklable object, for worker processes)."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def __call__(self, rng: random.Random) -> PoolPartyState:
        from ..models.pool_party_stars.state import PoolPartyState

        return PoolPartyState.deal(self.table, rng)


def make_policy(name: str) -> Any:
    from ..solvers.pool_party_stars import policies
    from ..solvers.simulate import RandomPolicy

    return policies.HintPolicy() if name == "hint" else RandomPolicy()


def final_vips(state: PoolPartyState) -> dict[str, float]:
    return {f"vips_{i + 1}": float(len(v)) for i, v in enumerate(state.public.vips)}


COMMANDS = PoolPartyStarsCommands()


# -- the puzzle generator -------------------------------------------------------------------------


def puzzle_name(difficulty: str, number: int) -> str:
    """The file name of generated puzzle ``number``: ``easy-01.toml``."""
    return f"{difficulty}-{number:02d}.toml"


def generate_puzzles(difficulty: str, count: int, seed: int, first: int, reveal: bool,
                     progress: Any = None) -> Report:
    """``count`` deduction puzzles of ``difficulty`` with a unique answer and the fewest clues,
    as files named ``DIFFICULTY-NN.toml`` from number ``first``; the answers are left out of the
    text unless ``reveal``."""
    from ..solvers.pool_party_stars import puzzles

    made: list[dict[str, Any]] = []
    attempt_seed = seed
    while len(made) < count:
        found = puzzles.generate(difficulty, attempt_seed)
        attempt_seed += 1
        if found is None:
            continue
        number = first + len(made)
        made.append({"name": puzzle_name(difficulty, number), "events": len(found.log.events),
                     "answer": found.answer.label, "proven_fewest": found.proven_fewest,
                     "seed": found.seed, "text": puzzle_text(found, number)})
        if progress is not None:
            progress(1)
    lines = [f"{item['name']}: {item['events']} events"
             + (f", answer {item['answer']}" if reveal else "")
             + ("" if item["proven_fewest"] else ", fewest clues not proven") for item in made]
    data = {"game": INFO.key, "difficulty": difficulty, "puzzles": [
        {key: value for key, value in item.items() if reveal or key != "answer"}
        for item in made]}
    return Report(data, "\n".join(lines))


def puzzle_text(found: puzzles.Generated, number: int) -> str:
    from ..models.pool_party_stars.position import log_to_document

    log = found.log
    assert log.puzzle is not None and log.seat is not None
    names = log.names
    rules = log.rules[log.seat] or ()
    held = " then ".join(r.label for r in rules)
    header = [
        f"# Deduction puzzle {log.puzzle.difficulty} {number:02d} (generated from game seed "
        f"{found.seed}).",
        f"# You are {names[log.seat]} (your rule: Forbidden {held}). These "
        f"{len(log.events)} events are an excerpt of a game:",
        f"# what is {names[log.puzzle.target]}'s rule now? Every clue is needed"
        + (" (and no smaller set of clues pins it down)." if found.proven_fewest else "."),
        f"# Try: partysolver solve {log.puzzle.difficulty}-{number:02d}.toml",
    ]
    return "\n".join(header) + "\n" + format_document(log_to_document(log))

"""The command-line adapter of Pool Party Stars.

Run as a module it also offers the puzzle generator:
``python -m partysolver.cli.pool_party_stars generate --difficulty hard --count 3 --out DIR``.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, ClassVar

import click

from ..models.documents import format_document, read_document
from ..models.errors import InputError, Problem
from ..models.pool_party_stars import INFO, Knowledge, Table
from ..models.pool_party_stars.game import ATTRIBUTES, Guess, Propose, Public, win_shares
from ..models.pool_party_stars.position import (
    DEFAULT_NAMES,
    GameLog,
    describe_log,
    load_deck,
    load_log,
    log_to_document,
)
from ..models.pool_party_stars.render import Spot, render_svg
from ..models.pool_party_stars.state import PoolPartyState
from ..solvers.budget import Budget
from ..solvers.pool_party_stars import conflicts, deduction, hints, policies, puzzles
from ..solvers.simulate import RandomPolicy, simulate
from .adapters import Document, GameCommands, Options, Report, require_valid
from .output import problems_json, problems_text, table, top
from .params import SEED

FROM_SEAT = click.Option(["--from-seat"], default=None, metavar="NAME",
                         help="pool-party-stars: read an omniscient log from this player's seat "
                              "(only their rule and hand are used).")
COMPETITIVE = click.Option(["--competitive"], is_flag=True, default=False,
                           help="pool-party-stars: play the competitive rule (a wrong guess "
                                "costs a VIP).")
GUEST_DECK = click.Option(["--guest-deck"], default=None, metavar="FILE",
                          help="pool-party-stars: a deck file (default: the house deck).")

BLOCKING = ("same-rule", "rule-history")
"""Problems with the known rules themselves: the consistency of the rest is not checked."""


# -- loading --------------------------------------------------------------------------------------


def _load(document: Document) -> GameLog:
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
            raise InputError("--from-seat", None, "one of the players " + ", ".join(names), name)
        seat = names.index(name)
        if log.seat is not None and seat != log.seat:
            raise InputError("--from-seat", None, f"the log's own seat ({names[log.seat]}): a "
                             "seat log knows only that seat's rule", name)
        if log.rules[seat] is None:
            raise InputError("--from-seat", None, "a player whose rule the log knows", name)
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
    post = deduction.posterior(knowledge)
    if not post.consistent:
        found = conflicts.find_conflict(knowledge, _budget(options))
        listed = found.one_line() if found else "the log as a whole"
        raise InputError(source, "events", "events that some assignment of secret rules "
                         f"satisfies; these conflict: {listed}")
    return post


def _budget(options: Options) -> Budget:
    return Budget(time=options.time_limit or conflicts.DEFAULT_TIME)


def _percent(value: float) -> str:
    return f"{100 * value:.0f}%"


class PoolPartyStarsCommands(GameCommands):
    info = INFO
    verbs = frozenset({"hint", "solve", "verify", "simulate", "render"})
    options: ClassVar[dict[str, list[click.Option]]] = {
        "hint": [FROM_SEAT],
        "solve": [FROM_SEAT],
        "render": [FROM_SEAT],
        "simulate": [COMPETITIVE, GUEST_DECK],
    }
    policies = ("random", "hint")

    # -- hint ---------------------------------------------------------------------------------

    def hint(self, document: Document, options: Options) -> Report:
        log = _load(document)
        seat = _seat(log, options, document.source)
        knowledge = log.knowledge(seat)
        if not knowledge.complete:
            raise InputError(document.source, "complete", "a whole game log (a hint needs the "
                             "waiting line and whose turn it is; this is an excerpt)")
        post = _consistent(knowledge, document.source, options)
        names = log.names
        record = knowledge.public
        if record.hand_sizes[log.table.turn_of(len(log.events))] == 0:
            return _game_over(names, record)
        advice = hints.hint(knowledge, post)
        assert knowledge.seat is not None
        me = names[knowledge.seat]
        to_act = names[log.table.turn_of(len(log.events))]
        exposures, onlooker = hints.exposure(knowledge, post)
        rows, lines = [], []
        best = advice.options[0].value if advice.options else 0.0
        cited = _cited_events(knowledge, advice)
        for rank, option in enumerate(top(advice.options, options.top), 1):
            reason = option.reason
            if isinstance(option.move, Guess) and option.move.target in cited:
                reason += f" (deduced from events {cited[option.move.target]}: see solve)"
            rows.append({"move": option.text, "value": round(option.value, 6),
                         "info": round(option.info, 6),
                         "probability": round(option.probability, 6), "reason": reason,
                         "kind": "propose" if isinstance(option.move, Propose) else "guess"})
            gap = "" if rank == 1 else f" ({option.value - best:+.2f})"
            lines.append((rank, option.text, f"{option.value:.2f}{gap}", f"{option.info:.2f}",
                          reason))
        data: dict[str, Any] = {
            "game": INFO.key, "seat": me, "to_act": to_act, "status": "optimal",
            "consistent_assignments": post.total, "moves": rows,
            "impossible_guesses_left_out": advice.impossible_guesses,
            "exposure": _exposure_json(names, exposures, onlooker)}
        head = (f"{me}'s options ({post.total:,} consistent assignments of the others' rules; "
                "exact): ranked by expected VIPs, then information (bits)")
        if to_act != me:
            head += f"\nnote: it is {to_act}'s turn; these are {me}'s options on what is known now"
        text = [head]
        if lines:
            text.append(table(["#", "action", "VIPs", "info", "why"], lines, right=(0, 2, 3)))
        if advice.impossible_guesses:
            text.append(f"({advice.impossible_guesses} guesses that cannot be right are left "
                        "out)")
        if advice.note:
            text.append(advice.note)
        text.append("exposure: " + hints.exposure_summary(knowledge, exposures))
        return Report(data, "\n".join(text))

    # -- solve --------------------------------------------------------------------------------

    def solve(self, document: Document, options: Options) -> Report:
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
        lines.append(f"exact posterior {view}: {post.total:,} consistent assignment(s) of the "
                     "rules held now")
        for belief in post.players:
            p = belief.player
            if p == seat:
                continue
            explanation = engine.explain(p) if belief.certain else None
            entry: dict[str, Any] = {
                "player": names[p],
                "probabilities": {a.label: round(belief.counts[a] / post.total, 6)
                                  for a in ATTRIBUTES if belief.counts[a]},
                "certain": belief.certain.label if belief.certain else None,
                "eliminated": [a.label for a in belief.eliminated]}
            if explanation is not None:
                entry["chain"] = [step.as_json() for step in explanation.steps]
            players.append(entry)
            shown = sorted(((belief.counts[a], a) for a in ATTRIBUTES if belief.counts[a]),
                           key=lambda item: -item[0])
            odds = ", ".join(f"{a.label} {_percent(c / post.total)}" for c, a in shown)
            lines.append(f"{names[p]}: " + (f"certainly {belief.certain.label}"
                                            if belief.certain else odds))
            if explanation is not None:
                lines += [f"    {step.text}" for step in explanation.steps]
        data: dict[str, Any] = {"game": INFO.key, "status": "optimal",
                                "objective": post.total,
                                "solution": {"seat": names[seat] if seat is not None else None,
                                             "players": players}}
        if seat is not None and knowledge.rules:
            exposures, onlooker = hints.exposure(knowledge, post)
            data["solution"]["exposure"] = _exposure_json(names, exposures, onlooker)
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
        assert log.puzzle is not None
        names = log.names
        target = log.puzzle.target
        solution = puzzles.solve_puzzle(knowledge, target, post)
        unique = solution.rule is not None
        chain = [step.as_json() for step in solution.explanation.steps] \
            if solution.explanation else []
        data: dict[str, Any] = {
            "game": INFO.key, "status": "optimal" if unique else "feasible",
            "objective": solution.rule.label if solution.rule else None,
            "solution": {"target": names[target],
                         "rule": solution.rule.label if solution.rule else None,
                         "possible": [a.label for a in solution.possible], "chain": chain,
                         "difficulty": log.puzzle.difficulty}}
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
        log = load_log(document.data, document.source)
        problems = log.problems()
        data: dict[str, Any] = {"game": INFO.key, "kind": log.kind}
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
                    data["conflict"] = {"events": [i + 1 for i in found.events],
                                        "smallest": found.smallest}
                elif (post := deduction.posterior(knowledge)).total == 0:
                    # No conflict among the others' answers: the known rules contradict the
                    # log (the problems above say where), so nothing is consistent.
                    data["consistent_assignments"] = 0
                    if not problems:
                        problems.append(Problem("inconsistent", "no assignment of rules fits "
                                                "the log", "events"))
                else:
                    data["consistent_assignments"] = post.total
                    notes.append(f"consistent: {post.total:,} assignment(s) of the rules held "
                                 "now fit the events")
                    if log.puzzle is not None:
                        solution = puzzles.solve_puzzle(knowledge, log.puzzle.target, post)
                        data["verdict"] = "solvable" if solution.rule else "unsolvable"
                        notes.append(f"puzzle: {data['verdict']} ("
                                     + ("one answer" if solution.rule else
                                        f"{len(solution.possible)} rules remain") + ")")
        if log.puzzle is not None and "verdict" not in data:
            data["verdict"] = "unsolvable" if problems else "unknown"
        data["valid"] = not problems
        data["problems"] = problems_json(problems)
        text = problems_text(problems)
        if not problems:
            text += "\n" + describe_log(log)
        text = "\n".join([text, *notes])
        return Report(data, text, exit_code=1 if problems else 0)

    # -- simulate -----------------------------------------------------------------------------

    def simulate(self, players: int | None, games: int, policies: tuple[str, ...],
                 options: Options, progress: Any) -> Report:
        n = players or 4
        names = policies or ("hint", "random")
        seat_policies = [names[seat % len(names)] for seat in range(n)]
        deck = _deck(options.extra.get("guest_deck"), n)
        competitive = bool(options.extra.get("competitive"))
        table_ = Table(DEFAULT_NAMES[:n], deck, competitive)
        chosen = [make_policy(name) for name in names]
        rotate = options.extra.get("rotate", False)
        result = simulate(NewGame(table_), chosen, games, seed=options.rng_seed, rotate=rotate,
                          stats=final_vips, workers=options.extra.get("workers", 1),
                          progress=progress)
        seats = result.seat_rates()
        figures = result.figures()
        data: dict[str, Any] = {
            "game": INFO.key, "players": n, "games": games, "policies": list(names),
            "rotate": rotate, "competitive": competitive,
            "deck": "house" if table_.house_deck else "custom",
            "seats": [{"seat": DEFAULT_NAMES[i], "policy": None if rotate else seat_policies[i]}
                      | rate.as_json() for i, rate in enumerate(seats)],
            "by_policy": {name: rate.as_json() for name, rate in result.policy_rates().items()},
            "figures": {k: f.as_json() for k, f in figures.items()}}
        rows = [(DEFAULT_NAMES[i], "rotating" if rotate else seat_policies[i], str(rate))
                for i, rate in enumerate(seats)]
        text = [f"{games} games, {n} players, {'competitive' if competitive else 'friendly'} "
                "mode (win rate with 95% interval; ties share)",
                table(["seat", "policy", "win rate"], rows)]
        if len(set(names)) > 1:
            text.append(table(["policy", "win rate"], [(name, str(rate)) for name, rate in
                                                       result.policy_rates().items()]))
        text.append("mean VIPs: " + ", ".join(
            f"{DEFAULT_NAMES[i]} {figures[f'vips_{i + 1}'].mean:.1f}" for i in range(n)))
        return Report(data, "\n".join(text))

    # -- render -------------------------------------------------------------------------------

    def render(self, document: Document, options: Options) -> str:
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
                           + (solution.rule.label if solution.rule else
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


def _cited_events(knowledge: Knowledge, advice: hints.Hint) -> dict[int, str]:
    """For every player whose rule is certain, the events its chain of reasoning cites."""
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


def _game_over(names: tuple[str, ...], record: Public) -> Report:
    shares = win_shares(record.vips)
    winners = [names[p] for p, share in enumerate(shares) if share > 0]
    vips = ", ".join(f"{names[p]} {len(v)}" for p, v in enumerate(record.vips))
    verb = "wins" if len(winners) == 1 else "share the win"
    data = {"game": INFO.key, "status": "optimal", "moves": [], "over": True,
            "winners": winners, "vips": {names[p]: len(v) for p, v in enumerate(record.vips)}}
    return Report(data, f"the game is over (the player to act has no guest): "
                        f"{' and '.join(winners)} {verb} (VIPs: {vips})")


def _exposure_json(names: tuple[str, ...], exposures: Any, onlooker: float | None
                   ) -> dict[str, Any]:
    return {"players": [{"player": names[e.player], "expected": round(e.expected, 6),
                         "certain": round(e.certain, 6),
                         "at_least_half": round(e.at_least_half, 6),
                         "rules_left": round(e.possible, 6)} for e in exposures],
            "onlooker": None if onlooker is None else round(onlooker, 6)}


def _deck(path: str | None, players: int) -> Any:
    if path is None:
        return Table(DEFAULT_NAMES[:2]).deck
    document, source = read_document(path, ("--guest-deck", None, "deck file"))
    return load_deck(document, source, players)


class NewGame:
    """A fresh deal at ``table`` (a picklable object, for worker processes)."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def __call__(self, rng: random.Random) -> PoolPartyState:
        return PoolPartyState.deal(self.table, rng)


def make_policy(name: str) -> Any:
    return policies.HintPolicy() if name == "hint" else RandomPolicy()


def final_vips(state: PoolPartyState) -> dict[str, float]:
    return {f"vips_{i + 1}": float(len(v)) for i, v in enumerate(state.public.vips)}


COMMANDS = PoolPartyStarsCommands()


# -- the puzzle generator -------------------------------------------------------------------------


@click.group()
def tools() -> None:
    """Pool Party Stars tools beyond the common verbs."""


@tools.command()
@click.option("--difficulty", type=click.Choice(puzzles.PLAYERS), required=True)
@click.option("--count", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--seed", type=SEED, default=0, show_default=True)
@click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Folder to write DIFFICULTY-NN.toml files to.")
@click.option("--first", type=click.IntRange(min=1), default=1, show_default=True,
              help="Number of the first file.")
def generate(difficulty: str, count: int, seed: int, out: Path, first: int) -> None:
    """Generate deduction puzzles with a unique answer and the fewest clues."""
    out.mkdir(parents=True, exist_ok=True)
    made = 0
    attempt_seed = seed
    while made < count:
        found = puzzles.generate(difficulty, attempt_seed)
        attempt_seed += 1
        if found is None:
            continue
        number = first + made
        path = out / f"{difficulty}-{number:02d}.toml"
        path.write_text(puzzle_text(found, number), encoding="utf-8")
        click.echo(f"wrote {path} ({len(found.log.events)} events, answer "
                   f"{found.answer.label}{'' if found.proven_fewest else ', fewest not proven'})")
        made += 1


def puzzle_text(found: puzzles.Generated, number: int) -> str:
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


if __name__ == "__main__":
    tools()

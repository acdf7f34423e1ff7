"""Meeple Party's ``simulate --decide``: random deals decided with perfect information.

``simulate meeple-party --decide`` deals ``--games`` seeded parties (the bag and every deck in a
fixed order, drawn from the deal's seed: :mod:`partysolver.solvers.meeple_party.deals`) and
decides each: won, cannot be won (the exhausted search), or undecided at ``--deal-nodes``
positions; beside that, the policy (the hint's by default) plays every deal without knowing the
order.  Each deal is one unit of the runner (local processes, a Dask cluster, ``--out`` and
``--resume`` as ``simulate`` does).  ``--deal SEED`` decides one deal, prints its line and, with
``--record FILE``, writes the line as a game record for ``review`` and the board.

The report keeps ``simulate``'s JSON contract (the policy's games are its games) and adds a
``deals`` object (or ``deal`` for one deal): see docs/formats.md.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..models.errors import InputError
from .base import Options, OptionSpec, Report
from .text import plural, table

if TYPE_CHECKING:
    from ..models.meeple_party.state import MeeplePartyState
    from ..solvers.meeple_party.deals import Decided, DecideDeals
    from ..solvers.simulate import SimulationResult
    from .simulation import SimulatingCommands

Summary = Callable[["SimulationResult", Any, Sequence[str]], Report]
"""The game's simulation report on a result, its game factory and the policies' names."""

DEAL_NODES_DEFAULT = 3000
"""``--deal-nodes``'s default: the solver's own (``solvers.meeple_party.deals.DEAL_NODES``,
which this module imports only when a verb runs)."""

DECIDE = OptionSpec("decide", "flag", help="meeple-party: deal each game with the bag and "
                    "the decks in a fixed order and decide it with perfect information (won, "
                    "cannot be won, undecided), beside the policy's play without the order.")
DEAL = OptionSpec("deal", "int", minimum=0, metavar="SEED",
                  help="meeple-party: decide this one deal (a seed a --decide run names) and "
                       "print its verdict and line.")
RECORD = OptionSpec("record", "text", metavar="FILE",
                    help="meeple-party: with --deal, write the deal's line (the win, or the "
                         "best line found) as a game record to FILE (.toml or .json; a new "
                         "file) for review and the board.")
DEAL_NODES = OptionSpec("deal_nodes", "int", minimum=1, maximum=100_000_000,
                        default=DEAL_NODES_DEFAULT, show_default=True, metavar="N",
                        help="meeple-party: with --decide or --deal, the positions one deal's "
                             "search may expand before it is undecided.")
OPTIONS = [DECIDE, DEAL, RECORD, DEAL_NODES]

VERDICT_TEXT = {"won": "won", "lost": "cannot be won", "undecided": "undecided"}
INTERVAL_TEXT = ("95% Wilson intervals of the share of deals like these (this player count, "
                 "difficulty and length) in each verdict")
LISTED = 50
"""Deals named by seed in each of the verdicts lost and undecided (the rest are counted)."""


def wanted(options: Options) -> bool:
    """Whether ``simulate`` decides deals (``--decide`` or ``--deal``); the deal options
    without either are refused."""
    extra = options.extra
    if extra.get("decide") or extra.get("deal") is not None:
        return True
    if extra.get("record") is not None:
        raise InputError.of_option("record", "--deal SEED, the deal whose line to write")
    return False


def decide_report(commands: SimulatingCommands, players: int, games: int,
                  policies: Sequence[str], options: Options, progress: Any,
                  summary: Summary) -> Report:
    """``simulate --decide`` / ``--deal`` (see the module's text); ``summary`` is the game's
    simulation report, which the deals' table comes before."""
    from ..solvers.meeple_party.deals import DecideDeals
    from ..solvers.meeple_party.policies import NewParty
    from ..solvers.runner import RunPlan

    extra = options.extra
    names = tuple(policies) or ("hint",)
    if len(set(names)) > 1:
        raise InputError.of_option("policy", "one policy to play the deals (every seat plays "
                                   "it)", ", ".join(names))
    if extra.get("records"):
        raise InputError.of_option("records", "no records folder with --decide (--deal SEED "
                                   "--record FILE writes one deal's line)")
    if extra.get("plot") is not None:
        raise InputError.of_option("plot", "no plot with --decide or --deal (the table is the "
                                   "result)")
    plan = commands.plan_simulation(players, names[:1], options)
    factory = plan.new_game
    assert isinstance(factory, NewParty)
    if factory.variant != "party":
        raise InputError.of_option("variant", "party: the Hot Tub challenge has no win to "
                                   "decide", factory.variant)
    if factory.start != 12:
        raise InputError.of_option("start", "12 with --decide (deals start at 12)",
                                   factory.start)
    nodes = extra.get("deal_nodes") or DEAL_NODES_DEFAULT
    task = DecideDeals(players, factory.difficulty, factory.length, factory.house,
                       plan.policies[0], nodes)
    runner = extra.get("workers")
    seed = extra.get("deal")
    if seed is not None:
        if isinstance(runner, RunPlan) and runner.journal is not None:
            raise InputError.of_option("out", "no --out with --deal (one deal runs here)")
        return _one_deal(task, seed, names[0], extra.get("record"), commands, factory, summary)
    return _many_deals(task, games, names[0], options, progress, factory, summary)


def _many_deals(task: DecideDeals, games: int, name: str, options: Options, progress: Any,
                factory: Any, summary: Summary) -> Report:
    from ..solvers.runner import counted_plan, run
    from ..solvers.simulate import GameRecord, GamesFailed, SimulationResult

    plan = counted_plan(options.extra.get("workers", 1), progress)
    result = run(task, games, options.rng_seed, plan)
    finished = [o for o in result.outcomes if o.ok]
    if not finished:
        raise GamesFailed(result.failures)
    simulation = SimulationResult((name,), tuple(GameRecord.from_json(o.result["game"])
                                                  for o in finished),
                                  tuple(result.failures), tuple(o.index for o in finished))
    report = summary(simulation, factory, [name])
    data, lines = deals_table([o.result for o in finished], task, name, simulation,
                              options.rng_seed)
    return Report(report.data | {"deals": data}, "\n".join(lines) + "\n\n" + report.text)


def _rate(count: int, total: int) -> dict[str, Any]:
    from ..solvers.stats import wilson_interval

    share = count / total if total else 0.0
    interval = wilson_interval(share, total)
    return {"count": count, "share": round(share, 6),
            "interval": [round(interval.low, 6), round(interval.high, 6)]}


def _shown(rate: dict[str, Any]) -> str:
    low, high = rate["interval"]
    return f"{100 * rate['share']:5.1f}% [{100 * low:5.1f}%, {100 * high:5.1f}%]"


def deals_table(results: list[dict[str, Any]], task: DecideDeals, name: str,
                simulation: SimulationResult, seed: int) -> tuple[dict[str, Any], list[str]]:
    """The verdicts of ``results`` (the units' results, in deal order) as the report's
    ``deals`` data and its lines of text."""
    total = len(results)
    counts = {verdict: sum(r["verdict"] == verdict for r in results)
              for verdict in VERDICT_TEXT}
    policy_won = sum(r["game"]["figures"]["won"] > 0.5 for r in results)
    lost = [{"deal": r["deal"], "photos": r["photos"], "positions": r["positions"]}
            for r in results if r["verdict"] == "lost"]
    undecided = [{"deal": r["deal"], "photos": r["photos"]}
                 for r in results if r["verdict"] == "undecided"]
    positions = [r["positions"] for r in results]
    gap = sum(r["verdict"] == "won" and r["game"]["figures"]["won"] < 0.5 for r in results)
    data: dict[str, Any] = {
        "players": task.players, "difficulty": task.difficulty, "length": task.length,
        "house": _house(task), "deals": total, "seed": seed,
        "deal_nodes": task.nodes, "interval_text": INTERVAL_TEXT,
        "won": _rate(counts["won"], total), "lost": _rate(counts["lost"], total),
        "undecided": _rate(counts["undecided"], total),
        "policy": {"name": name, "win": _rate(policy_won, total)},
        "won_by_search_not_by_policy": gap,
        "lost_deals": lost[:LISTED], "undecided_deals": undecided[:LISTED],
        "positions": {"mean": round(sum(positions) / total, 3) if total else 0.0,
                      "max": max(positions, default=0)}}
    row = (task.players, task.difficulty, task.length, total, _shown(data["won"]),
           _shown(data["lost"]), _shown(data["undecided"]), _shown(data["policy"]["win"]))
    lines = [f"{plural(total, 'deal')} decided with perfect information (the bag and the decks "
             f"in a known order), house {_house(task)}, at most "
             f"{plural(task.nodes or 0, 'position')} a deal, seed {seed}:",
             table(["players", "difficulty", "length", "deals", "won", "cannot be won",
                    "undecided", f"{name} policy, order unknown"], [row],
                   right=(0, 3, 4, 5, 6, 7), legend=INTERVAL_TEXT + "; the policy plays the "
                   "same deals without knowing the order")]
    lines.append(f"deals the search wins and the {name} policy loses: {gap}; positions "
                 f"searched a deal: mean {data['positions']['mean']:.1f}, most "
                 f"{data['positions']['max']:,}")
    for entries, what in ((lost, "cannot be won"), (undecided, "undecided")):
        if entries:
            shown = ", ".join(f"{e['deal']} ({e['photos']} photos)" for e in entries[:LISTED])
            more = f" and {len(entries) - LISTED} more" if len(entries) > LISTED else ""
            lines.append(f"{what} (deal seed, most photos found): {shown}{more}")
    if lost or undecided:
        lines.append("one deal again: partysolver simulate meeple-party --deal SEED "
                     f"--players {task.players} --difficulty {task.difficulty} --length "
                     f"{task.length}")
    return data, lines


def _house(task: DecideDeals) -> str:
    from ..models.meeple_party import default_house

    chosen = task.house or default_house(task.players)
    return chosen if isinstance(chosen, str) else chosen.name


def _one_deal(task: DecideDeals, seed: int, name: str, record: str | None,
              commands: SimulatingCommands, factory: Any, summary: Summary) -> Report:
    from ..models.meeple_party.notation import NOTATION
    from ..solvers.meeple_party.deals import decide
    from ..solvers.meeple_party.scenario import _words
    from ..solvers.simulate import GameRecord, SimulationResult
    from . import paths

    path = None if record is None else Path(record)
    if path is not None:
        paths.check_output(path, "--record", (".toml", ".json"), replaceable=paths.nothing,
                           forcible=False)
    state = task.deal(seed)
    decided = decide(state, task.nodes)
    result = task.one(seed, decided)
    game = GameRecord.from_json(result["game"])
    simulation = SimulationResult((name,), (game,), (), (0,))
    report = summary(simulation, factory, [name])
    moves = [NOTATION.format(before, action) for before, action in decided.line]
    words = _words(decided.line)
    target = decided.target
    head = {"won": f"won: a line takes the {target} photos",
            "lost": f"cannot be won: no line wins; the most photos any line takes is "
                    f"{decided.photos} of {target} (the search was exhausted: "
                    f"{plural(decided.positions, 'position')})",
            "undecided": f"undecided: the budget of {plural(task.nodes or 0, 'position')} ran "
                         f"out; the best line found takes {decided.photos} of {target} "
                         "photos"}[decided.verdict]
    played = game.figures
    lines = [f"deal {seed} ({plural(task.players, 'player')}, {task.difficulty} "
             f"{task.length}, house {_house(task)}): {head} "
             f"({plural(decided.positions, 'position')} searched)"]
    if words:
        lines.append("line:" if decided.verdict == "won" else "best line found:")
        lines += [f"  {i}. {step}" for i, step in enumerate(words, 1)]
    lines.append(f"the {name} policy, not knowing the order: "
                 + ("won" if played["won"] else "lost") + f" ({int(played['photos'])} photos, "
                 f"{int(played['turns'])} turns)")
    departures = [{"step": i + 1, "move": moves[i],
                   "first_tried": NOTATION.format(decided.line[i][0], first)}
                  for i, first in sorted(decided.departures.items())]
    data: dict[str, Any] = {
        "seed": seed, "players": task.players, "difficulty": task.difficulty,
        "length": task.length, "house": _house(task), "verdict": decided.verdict,
        "verdict_text": VERDICT_TEXT[decided.verdict], "photos": decided.photos,
        "target": target, "positions": decided.positions, "deal_nodes": task.nodes,
        "line": moves, "steps": words, "departures": departures,
        "policy": {"name": name, "won": bool(played["won"]),
                   "photos": int(played["photos"])}, "record": None}
    if path is not None:
        _write_record(path, state, decided, moves, seed, task)
        data["record"] = str(path)
        lines.append(f"record written to {path} (partysolver review {path})")
    return Report(report.data | {"deal": data}, "\n".join(lines))


def _write_record(path: Path, state: MeeplePartyState, decided: Decided, moves: list[str],
                  seed: int, task: DecideDeals) -> None:
    from ..models.documents import format_document
    from ..models.meeple_party.notation import NOTATION
    from ..models.meeple_party.position import state_to_document
    from . import paths
    from .records import Record, Step

    steps = []
    for i, move in enumerate(moves):
        comment = None
        first = decided.departures.get(i)
        if first is not None:
            tried = NOTATION.format(decided.line[i][0], first)
            comment = (f"within the win: the move tried first here, '{tried}' (the turn "
                       "hint's), was searched to the end and cannot win")
        steps.append(Step(i + 1, "", move, comment))
    record = Record("meeple-party", state_to_document(state), tuple(steps))
    text = format_document(record.to_document(), as_json=path.suffix == ".json")
    if path.suffix != ".json":
        text = (f"# partysolver simulate meeple-party --deal {seed} --players {task.players} "
                f"--difficulty {task.difficulty} --length {task.length}: "
                f"{VERDICT_TEXT[decided.verdict]} ({decided.photos} of {decided.target} "
                "photos on this line)\n" + text)
    paths.write_atomically(path, text)


__all__ = ["OPTIONS", "decide_report", "deals_table", "wanted"]

"""Pool Party Stars, the optimal questions (issue 32): prints figures, asserts nothing.

From a seat at the deal, with the house deck and its hand, the fewest proposals that identify
every other seat's rule (the model: ``docs/rules.md``, "The questions solitaire"):

1. ``--free``: the free variant (any guest of the deck at every turn, the Wordle form): the
   exact least expected number and least worst case, and the best first guests.  Its values
   are proven lower bounds of the hand game's.
2. ``--deals N``: N seeded deals (the seat's rule and hand), each a unit of work on the
   runner: the exact optimum of the hand game (expected, and worst case over the rules and
   the draws), its first proposals, and on the same deal the exact expected number of the
   hint's policy, of the entropy policy and of the lookahead policy (one step of improvement
   over the entropy policy); with ``--depth D``, the lower bound of depth D.  Printed: the
   averages over the deals (95% intervals of the mean over deals; every deal's own value is
   exact).  Where the optimum is out of reach (three players), ``--no-optimal --no-hint
   --no-worst --depth 4`` brackets it on each deal between the lower bound and the lookahead
   policy, both proven.  The lower bound's leaves count the draws a telling guest must wait
   for too (the waiting bound; ``--no-waiting``: the free variant alone, as published before
   it).  Without ``--no-worst`` (and with ``--no-optimal``) the least worst case is
   bracketed between the waiting bound against dealt draws and the entropy policy's worst
   case, exact where they meet.  For four players the plain search of the free variant is
   out of reach: ``--free --free-depth D`` gives its lower bounds of depth 0 to D, the last exact
   when no leaf of its best proposals was cut short.  Every 4-player deal has a small chance
   that no policy is ever done (printed), so every expected number is infinite; with
   ``--spent`` a spent hand is done with its proposals, and ``--deals N --no-optimal
   --no-hint --no-worst --policies entropy --spent --depth D --free-depth F`` brackets the
   hand game between its lower bound (its leaves the free variant's bound of depth F, less
   the guests never drawn times that chance) and the entropy policy.

With ``--out FILE`` the finished deals are journaled; after a kill, the same command with
``--resume`` continues.  The search's tables are kept on disk between runs (``--tables``,
default under the user cache directory).

    nice -n 10 python benchmarks/pool_party_stars_questions.py --players 2 --free
    nice -n 10 python benchmarks/pool_party_stars_questions.py --players 2 --deals 60 \\
        --out /tmp/pps2.jsonl --resume
    nice -n 10 python benchmarks/pool_party_stars_questions.py --players 3 --deals 6 \\
        --no-optimal --no-hint --no-worst --depth 4 --out /tmp/pps3.jsonl --resume
    nice -n 10 python benchmarks/pool_party_stars_questions.py --players 4 --free \\
        --rules Animal,Book,Swimsuit,Drink --free-depth 12
    nice -n 10 python benchmarks/pool_party_stars_questions.py --players 4 --deals 1 \\
        --no-optimal --no-hint --no-worst --policies entropy --spent --out /tmp/pps4.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import sys
import time
from datetime import date
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from partysolver.models.errors import InputError  # noqa: E402
from partysolver.models.pool_party_stars.game import HOUSE_DECK, Attribute, parse_guest  # noqa: E402
from partysolver.solvers.pool_party_stars.questions import (  # noqa: E402
    DealTask,
    FreeSearch,
    Problem,
    choose_entropy,
    choose_hint,
    free_first_guests,
    house_deal,
    play_policy,
    search_for,
    table_path,
)
from partysolver.solvers.runner import InProcess, Outcome, Progress, RunPlan, run  # noqa: E402
from partysolver.solvers.stats import mean_interval  # noqa: E402


def peak_mb() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024


def _say_free(search: FreeSearch, started: float, what: str) -> None:
    """One line of the free variant: its table, the seat's rule, what was found, the cost."""
    print(f"free, {search.players} players, seat holds {search.problem.mine.label}: {what}; "
          f"{search.nodes:,} states, {time.perf_counter() - started:.1f} s, "
          f"peak {peak_mb():,} MB", flush=True)


def free(players: int, rules: list[Attribute], depth: int | None = None) -> None:
    for mine in rules:
        started = time.perf_counter()
        search = FreeSearch(players, mine, HOUSE_DECK)
        count = len(search.problem.assignments)
        say = partial(_say_free, search, started)
        if depth is not None:  # out of reach: its lower bounds, deeper and deeper
            for d in range(depth + 1):
                low, exact = search.lower_complete(search.start, d)
                say((f"exactly {low:.4f} ({low * count:.0f}/{count})" if exact else
                     f"at least {low:.4f}") + f" (depth {d})")
                if exact:
                    break
            say(f"worst {search.worst(search.start):.0f}")
            continue
        expected = search.expected(search.start)
        worst = search.worst(search.start)
        best = free_first_guests(search)
        say(f"expected {expected:.4f} ({expected * count:.0f}/{count}), worst {worst:.0f}; best "
            f"first guests ({len(best)}): {', '.join(best[:6])}"
            f"{' ...' if len(best) > 6 else ''}")


def deals(players: int, count: int, seed: int, out: Path | None, resume: bool,
          worst: bool, tables: Path, optimal: bool = True, depth: int = 0,
          hint: bool = True, free_depth: int | None = None, policies: str = "both",
          spent: bool = False, first: int = 0, waiting: bool = True) -> None:
    task = DealTask(players, worst, str(tables), optimal, depth, hint, free_depth, policies,
                    spent, first, waiting)
    search_for(players, tables)
    started = time.perf_counter()

    def progress(p: Progress) -> None:
        new = p.done - p.resumed
        left = p.total - p.done
        eta = f"about {p.elapsed / new * left:.0f} s left" if new else \
            "the time left known after the first deal"
        print(f"  {p.done}/{p.total} deals ({p.resumed} resumed), {p.elapsed:.0f} s, {eta}, "
              f"peak {peak_mb():,} MB", file=sys.stderr, flush=True)

    def outcome(o: Outcome) -> None:
        if o.ok:
            r = o.result
            above = r["lookahead"] if r["lookahead"] is not None else r["entropy"]
            high = "not computed" if above is None else f"{above:.4f}"
            known = (f"optimal {r['optimal']:.4f} (first: {r['options'][0][0]})"
                     if r["optimal"] is not None else f"optimal within [{_low(r)}, {high}]")
            policies = "".join(f", {name} {r[name]:.4f}" for name in ("lookahead", "entropy")
                               if r[name] is not None)
            hint_text = "" if r["hint"] is None else f", hint {r['hint']:.4f}"
            never = Fraction(r.get("unidentifiable", "0"))
            if never and r.get("spent"):
                low = "" if r["lower"] is None else f"{_low(r)}"
                known = (f"never done with chance {never} = {float(never):.3e}; a spent hand "
                         f"done with its proposals: optimal within [{low or 'not computed'}, "
                         f"{high}]")
            elif never:  # every policy's expected number is infinite, the optimum's too
                known = (f"never done with chance {never} = {float(never):.3e} (no guest it "
                         "will see tells the rules apart), so every expected number is "
                         "infinite")
            worst = r["worst"] if r.get("worst_entropy") is None else \
                f"within [{r['worst_lower']:.0f}, {r['worst_entropy']:.0f}]"
            print(f"  deal {first + o.index}: {r['mine']} {', '.join(r['hand'])}: {known}"
                  f"{policies}{hint_text}, worst {worst}, {r['cpu_seconds']:.0f} s of CPU",
                  file=sys.stderr, flush=True)
        else:
            print(f"  deal {first + o.index} failed: {o.error}", file=sys.stderr, flush=True)

    plan = RunPlan(InProcess(), out, resume,
                   {"benchmark": "pool party stars questions", "players": players,
                    "worst": worst, **({"first": first} if first else {})}, outcome,
                   progress)
    try:
        result = run(task, count, seed, plan)
    finally:
        search_for(players).save(tables)
    rows = [o.result for o in result.outcomes if o.ok]
    wall = time.perf_counter() - started
    print(f"{players} players, {len(rows)} deals (seed {seed}), {date.today()}, "
          f"{wall:.0f} s wall ({result.resumed} resumed), peak {peak_mb():,} MB")
    summarize(players, rows)


def simulate(players: int, count: int, seed: int, first: int, games: int) -> None:
    """The entropy and hint policies played ``games`` times on each deal, as the game deals
    and answers (:func:`play_policy`), the two policies on the same truths and draws: their
    mean numbers of proposals with 95% intervals, and the hint's excess paired game by game.
    Estimates, not exact values: where the exact expectation is known (the entropy policy's,
    docs/results.md) it checks it; the hint's policy needs labelled states, out of the exact
    searches' reach from 3 players on."""
    print(f"{players} players, deals {first} to {first + count - 1} (seed {seed}), {games:,} "
          f"games a policy a deal, {date.today()}")
    started = time.perf_counter()
    means: dict[str, list[float]] = {"entropy": [], "hint": [], "hint - entropy": []}
    for index in range(first, first + count):
        problem = house_deal(players, seed, index)
        played: dict[str, list[int]] = {"entropy": [], "hint": []}
        spent = 0  # games never done: the same for both policies (the same truth and draws)
        for game in range(games):
            for name, choose in (("entropy", choose_entropy), ("hint", choose_hint)):
                proposals, done = play_policy(
                    problem, choose, random.Random(f"simulate {seed} {index} {game}"))
                played[name].append(proposals)
                spent += not done and name == "entropy"
        excess = [h - e for h, e in zip(played["hint"], played["entropy"], strict=True)]
        row = []
        for name, values in (*played.items(), ("hint - entropy", excess)):
            mean = statistics.mean(values)
            interval = mean_interval(sum(values), sum(v * v for v in values), len(values))
            means[name].append(mean)
            row.append(f"{name} {mean:.4f} [{interval.low:.4f}, {interval.high:.4f}]")
        print(f"  deal {index}: {problem.mine.label}: " + ", ".join(row)
              + (f"; {spent} of the {games:,} games spent the hand first (counted with its "
                 "proposals)" if spent else ""), flush=True)
    for name, values in means.items():
        print(f"  {name}: mean over the deals {_mean(values)}")
    print(f"  {time.perf_counter() - started:.0f} s, peak {peak_mb():,} MB")


def _low(row: dict[str, Any]) -> str:
    """The deal's proven lower bound of the optimum: the deeper bound if computed."""
    if row.get("lower") is not None:
        leaves = "" if row.get("free_depth") is None else \
            f", then the free variant's bound of depth {row['free_depth']}"
        if row.get("waiting"):
            leaves += ", or the waiting bound"
        return f"{row['lower']:.4f} (depth {row['depth']}{leaves})"
    return "free variant"


def summarize(players: int, rows: list[dict[str, Any]]) -> None:
    """The averages over the deals (of what every deal has), the policies against the optimum
    or, where it is out of reach, against the lookahead policy, and how often the policies'
    first proposals are optimal."""
    chances = [Fraction(r.get("unidentifiable", "0")) for r in rows]
    if any(chances):
        print(f"  never done (no guest the seat will see tells the rules apart) with a chance "
              f"above 0 on {sum(c > 0 for c in chances)} of {len(rows)} deals: every expected "
              f"number is infinite there; the chance: mean "
              f"{_mean([float(c) for c in chances], '.3e')}, max {float(max(chances)):.3e}")
    names = [n for n in ("optimal", "lower", "lookahead", "entropy", "hint")
             if rows and all(r.get(n) is not None for r in rows)]
    for name in names:
        values = [r[name] for r in rows]
        print(f"  {name:9s} mean {_mean(values)}, min {min(values):.4f}, "
              f"max {max(values):.4f}")
    base = next((n for n in ("optimal", "lookahead", "entropy") if n in names), None)
    for name in ("hint", "entropy", "lookahead"):
        if name in names and base is not None and name != base:
            gaps = [r[name] - r[base] for r in rows]
            print(f"  {name} - {base}: {_mean(gaps)}")
    if "lower" in names and base == "optimal":
        print(f"  optimal - lower (how far below the optimum the bound stays): "
              f"{_mean([r['optimal'] - r['lower'] for r in rows])}, max "
              f"{max(r['optimal'] - r['lower'] for r in rows):.4f}")
    if "lower" in names and base in ("lookahead", "entropy"):
        gaps = [r[base] - r["lower"] for r in rows]
        print(f"  the optimum's proven interval, {base} - lower: mean "
              f"{statistics.mean(gaps):.4f}, max {max(gaps):.4f}")
    brackets = [(r["worst_lower"], r["worst_entropy"]) for r in rows
                if r.get("worst_lower") is not None and r.get("worst_entropy") is not None]
    if brackets and len(brackets) == len(rows):
        exact = [low for low, high in brackets if low == high]
        print(f"  least worst case (rules and draws): within [waiting bound, entropy policy's] "
              f"= {', '.join(f'[{low:.0f}, {high:.0f}]' for low, high in brackets)}; exact on "
              f"{len(exact)} of {len(rows)} deals"
              + (f" ({', '.join(sorted({f'{v:.0f}' for v in exact}))})" if exact else ""))
    if "optimal" not in names:
        print(f"  cpu seconds a deal: mean {statistics.mean(r['cpu_seconds'] for r in rows):.1f}")
        return
    worsts = [r["worst"] for r in rows if r["worst"] is not None]
    if worsts:
        print(f"  worst case (rules and draws): min {min(worsts)}, mean "
              f"{statistics.mean(worsts):.2f}, max {max(worsts)}")
        lows = [r["worst_lower"] for r in rows if r.get("worst_lower") is not None]
        if len(lows) == len(worsts):
            print(f"  the waiting bound against dealt draws equals it on "
                  f"{sum(a == b for a, b in zip(lows, worsts, strict=True))} of {len(worsts)} "
                  "deals")
    agree = {"hint": 0, "entropy": 0}
    for r in rows:
        problem = Problem.deal(players, Attribute[r["mine"].upper()],
                               [parse_guest(g) for g in r["hand"]], HOUSE_DECK)
        state = problem.start(labelled=True)
        best = r["options"][0][1]
        value = {g: v for g, v in r["options"]}
        for name, choose in (("hint", choose_hint), ("entropy", choose_entropy)):
            if r.get(name) is None:
                continue
            split = choose(state)
            guest = next(g for g in problem.hand
                         if problem.split(g, problem.belief) == split)
            agree[name] += value[str(guest)] <= best + 1e-9
    valued = [name for name in agree if all(r.get(name) is not None for r in rows)]
    if valued:  # only the policies the run valued
        print("  the first proposal is optimal: " + ", ".join(
            f"{name}'s in {agree[name]} of {len(rows)} deals" for name in valued))
    print(f"  cpu seconds a deal: mean {statistics.mean(r['cpu_seconds'] for r in rows):.1f}")


def so_far(paths: list[Path]) -> None:
    """The figures of the deals journaled so far in one or more journals.  A deal is known by
    its seed and number (the journal's ``--first`` plus its place), so runs that computed
    different figures of the same deals (the entropy policy in one, the lower bound in
    another) merge into one row a deal; a figure two journals both hold must agree."""
    merged: dict[tuple[int, int], dict[str, Any]] = {}
    counts = set()
    for path in paths:
        lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        header = next((x for x in lines if "result" not in x), {})
        parameters = header.get("parameters", header)
        counts.add(int(parameters.get("players", 2)))
        for x in lines:
            if x.get("result"):
                deal = (int(x.get("seed", parameters.get("seed", 0))),
                        int(parameters.get("first", 0)) + int(x.get("index", 0)))
                _merge(merged.setdefault(deal, {}), x["result"], f"{path}: deal {deal[1]}")
    if len(counts) > 1:
        raise SystemExit(f"the journals are of {sorted(counts)} players: give one count's")
    players = counts.pop() if counts else 2
    print(f"{players} players, {len(merged)} deals so far in {', '.join(map(str, paths))} "
          f"(deals {', '.join(str(n) for _, n in sorted(merged))})")
    summarize(players, [merged[deal] for deal in sorted(merged)])


def _merge(row: dict[str, Any], result: dict[str, Any], where: str) -> None:
    """Adds one journal's figures of a deal to what others gave: CPU seconds add up, a figure
    only one of them has is taken, and one both have must be the same."""
    for name, value in result.items():
        known = row.get(name)
        if name == "cpu_seconds":
            row[name] = (known or 0.0) + value
        elif known in (None, []):
            row[name] = value
        elif value not in (None, []) and value != known and not (
                isinstance(value, float) and abs(value - known) <= 1e-9):
            raise SystemExit(f"{where}: {name} is {value} here and {known} in another journal")


def _mean(values: list[float], form: str = ".4f") -> str:
    """The mean and its 95% interval over the deals (none from a single deal)."""
    mean = statistics.mean(values)
    if len(values) < 2:
        return f"{mean:{form}} (one deal: no interval)"
    interval = mean_interval(sum(values), sum(v * v for v in values), len(values))
    return f"{mean:{form}} [{interval.low:{form}}, {interval.high:{form}}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--free", action="store_true", help="the free variant (part 1)")
    parser.add_argument("--rules", default="Animal",
                        help="part 1: the seat's rules, comma separated, or all")
    parser.add_argument("--deals", type=int, default=0, help="part 2: how many deals")
    parser.add_argument("--seed", type=int, default=32)
    parser.add_argument("--first", type=int, default=0,
                        help="part 2: the first deal's number (deals FIRST to FIRST+N-1)")
    parser.add_argument("--no-worst", action="store_true",
                        help="part 2: skip the worst case (exact with the optimum; with "
                             "--no-optimal, bracketed by the waiting bound and the entropy "
                             "policy's worst case)")
    parser.add_argument("--no-optimal", action="store_true",
                        help="part 2: skip the optimum (out of reach for 3 or 4 players): "
                             "bracket it between --depth's lower bound and the lookahead policy")
    parser.add_argument("--depth", type=int, default=0,
                        help="part 2: the lower bound's depth (the hand game for so many "
                             "proposals, then the free variant; 0: none)")
    parser.add_argument("--free-depth", type=int, default=None,
                        help="--free: the free variant's lower bounds of depth 0 to this, "
                             "not its value (four players); part 2: the lower bound's leaves "
                             "are the free variant's bound of this depth, not its value")
    parser.add_argument("--no-waiting", action="store_true",
                        help="part 2: the lower bound's leaves are the free variant's alone, "
                             "without the waiting bound (the figures published before it)")
    parser.add_argument("--policies", choices=("both", "entropy", "none"), default="both",
                        help="part 2: the policies valued (four players: the lookahead is out "
                             "of reach; the entropy policy alone bounds the optimum above)")
    parser.add_argument("--spent", action="store_true",
                        help="part 2: the policies count a hand spent before every rule is "
                             "certain as done with all its proposals (four players, where "
                             "every policy has a small chance of never being done)")
    parser.add_argument("--no-hint", action="store_true",
                        help="part 2: skip the hint's policy (labelled states: slow past 2 "
                             "players)")
    parser.add_argument("--simulate", type=int, default=0, metavar="GAMES",
                        help="part 2, instead of the exact values: the entropy and hint "
                             "policies played GAMES times on each deal (estimates with 95%% "
                             "intervals; a check of the exact ones)")
    parser.add_argument("--out", type=Path, default=None, help="journal of the deals")
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--so-far", type=Path, nargs="+", default=None, metavar="FILE",
                        help="print the figures of the deals journaled so far in FILE (several "
                             "journals: their figures of the same deal are merged)")
    parser.add_argument("--tables", type=Path, default=None,
                        help="the kept tables (default: under the user cache directory)")
    args = parser.parse_args()
    print(f"pid {os.getpid()}, nice {os.nice(0)}", file=sys.stderr)
    if args.so_far:
        so_far(args.so_far)
    if args.free:
        names = [a.label for a in Attribute] if args.rules == "all" else args.rules.split(",")
        free(args.players, [Attribute[n.strip().upper()] for n in names], args.free_depth)
    if args.simulate and not args.deals:
        parser.error("--simulate GAMES plays the deals --deals N asks for: give --deals")
    if args.deals and args.simulate:
        simulate(args.players, args.deals, args.seed, args.first, args.simulate)
    elif args.deals:
        deals(args.players, args.deals, args.seed, args.out, args.resume, not args.no_worst,
              args.tables or table_path(args.players, "benchmark"), not args.no_optimal,
              args.depth, not args.no_hint, args.free_depth, args.policies, args.spent,
              args.first, not args.no_waiting)


if __name__ == "__main__":
    try:
        main()
    except InputError as error:  # a journal that cannot be resumed, say: no traceback
        print(f"error: {error}", file=sys.stderr)
        raise SystemExit(2) from None

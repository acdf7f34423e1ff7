"""Party-Time benchmark: printed figures, never asserted.

1. Hint time at depth 1 and 2 for four players on the house board and deck: the expectimax
   over unseen card *types* (closed-form opponent hands, transposition table) against, in the
   same run, the same search by enumeration over individual cards (every 3-card opponent hand,
   every card of the pile, no table: ``EnumerationSearch``) under a time cap per position.
   The positions are a seeded family: greedy self-play, stopped at a decision with two or more
   plays.  A small two-player deck, where the enumeration finishes, checks that both give the
   same values and gives the speed ratio.
1b. The simulation's hint policy (``hint.choose``, lazy) against the full ranking: the same
   play at every decision of one seat in greedy games, and the time of each.
1c. The compiled playouts to the end of the game behind the hint's long run (``playouts.py``)
   against the same playouts on the rules engine (``montecarlo.habits_to_end``): playouts a
   second, and whether every play's mean agrees.
2. Strips lost per game and the loss (first-out) rate of one seat playing hint, greedy or
   random against three greedy players, seats rotating, four players, with 95% intervals.
   "habits" is the hint's last tie-break alone, with no search and no playouts
   (``policies.HabitPolicy``); "long-run" (``--long-run-games``) the least long run among all
   plays, with no search.
   The games run in blocks of 100 deals shared by every policy, so they pair up: the mean
   difference per game from greedy's is printed too, with its interval.
3. What the hint's departures from greedy are worth by the end of the game, for a range of
   tolerances (``hint.TOLERANCE``: plays within it of the safest count as equally safe and
   the habits alone choose among them, as when the tolerance was chosen, before the long
   run): at every decision of one seat in greedy four-player games,
   the play the hint would choose is compared with greedy's, when they differ, by paired
   playouts to the end of the game (the same deal of the unseen cards and the same random
   stream for both plays, everyone greedy after them).  This is how the tolerance was chosen.

    python benchmarks/party_time.py                              # everything (long)
    python benchmarks/party_time.py --games 2000 --hint-games 300
    python benchmarks/party_time.py --skip-games                 # parts 1, 1b and 1c
    python benchmarks/party_time.py --skip-hints --skip-playouts --skip-games --audit-games 0
                                                                 # part 1b only
    python benchmarks/party_time.py --skip-hints --workers 2     # parts 2 and 3
    python benchmarks/party_time.py --skip-hints --skip-games --audit-games 100  # part 3 only
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from partysolver.app.party_time import NewGame, figures  # noqa: E402
from partysolver.models.party_time import GAME, HOUSE_RULES, Rules  # noqa: E402
from partysolver.models.party_time.game import Play  # noqa: E402
from partysolver.models.party_time.state import PartyTimeView  # noqa: E402
from partysolver.models.protocol import CHANCE, sample_chance  # noqa: E402
from partysolver.solvers.budget import Budget, BudgetExhausted  # noqa: E402
from partysolver.solvers.party_time.belief import BeliefSearch, rank_root  # noqa: E402
from partysolver.solvers.party_time.brute import EnumerationSearch  # noqa: E402
from partysolver.solvers.party_time.hint import (  # noqa: E402
    PLAYOUTS,
    TOLERANCE,
    HintPolicy,
    choose,
    first_among_equals,
    hint,
    long_runs,
)
from partysolver.solvers.party_time.montecarlo import (  # noqa: E402
    compare_long_run,
    habits_to_end,
)
from partysolver.solvers.party_time.playouts import long_run  # noqa: E402
from partysolver.solvers.party_time.policies import (  # noqa: E402
    GreedyPolicy,
    HabitPolicy,
    habit_key,
)
from partysolver.solvers.simulate import RandomPolicy, simulate  # noqa: E402
from partysolver.solvers.stats import mean_interval, wilson_interval  # noqa: E402

SMALL = Rules(HOUSE_RULES.board, (3, 2, 2, 1, 1, 1, 1, 1, 1))
"""A 13-card deck for the two-player check, where the enumeration finishes."""


def positions(players: int, count: int, seed: int, rules: Rules = HOUSE_RULES
              ) -> list[PartyTimeView]:
    """Views of the player to act at decisions of greedy self-play (two or more plays)."""
    rng = random.Random(seed)
    greedy = GreedyPolicy()
    found: list[PartyTimeView] = []
    while len(found) < count:
        state = GAME.initial_state(players, rng, rules)
        stop = rng.randrange(4, 60)
        steps = 0
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                state = state.apply(sample_chance(state, rng))
                continue
            if steps >= stop and len(state.legal_actions()) > 1:
                found.append(state.view(player))
                break
            state = state.apply(greedy(state, rng))
            steps += 1
    return found


def timed(search: BeliefSearch, view: PartyTimeView) -> tuple[float, int, bool, list[Any]]:
    node = search.root(view)
    assert node is not None
    started = time.perf_counter()
    try:
        ranked = rank_root(search, node)
        done = True
    except BudgetExhausted:
        ranked, done = [], False
    return time.perf_counter() - started, search.meter.nodes, done, ranked


def hint_figures(count: int, deep: int, seed: int, enum_seconds: float,
                 deep_seconds: float) -> None:
    print("1. Hint time, four players, house board and deck")
    for depth, n, cap in ((1, count, None), (2, deep, deep_seconds)):
        views = positions(4, n, seed + depth)
        times, nodes, unfinished = [], [], 0
        enum_done, enum_nodes = 0, []
        for view in views:
            search = BeliefSearch(view.rules, 4, view.player, depth, Budget(time=cap))
            seconds, explored, done, _ = timed(search, view)
            if done:
                times.append(seconds)
                nodes.append(explored)
            else:
                unfinished += 1
            naive = EnumerationSearch(view.rules, 4, view.player, depth,
                                      Budget(time=enum_seconds))
            _, naive_nodes, naive_done, _ = timed(naive, view)
            enum_done += naive_done
            enum_nodes.append(naive_nodes)
        line = f"   depth {depth}: {len(views)} positions; by type counts "
        if times:
            line += (f"median {statistics.median(times):.3f} s, max {max(times):.3f} s, "
                     f"median {statistics.median(nodes):,.0f} views")
        if unfinished:
            line += f"; {unfinished} unfinished within {cap:g} s"
        print(line)
        print(f"            by individual cards (no table): {enum_done}/{len(views)} finished "
              f"within {enum_seconds:g} s each (median {statistics.median(enum_nodes):,.0f} "
              "nodes explored by then)")
    views = positions(2, count, seed, SMALL)
    fast_t, slow_t, same = [], [], 0
    for view in views:
        fast = timed(BeliefSearch(view.rules, 2, view.player, 1), view)
        slow = timed(EnumerationSearch(view.rules, 2, view.player, 1), view)
        fast_t.append(fast[0])
        slow_t.append(slow[0])
        same += all(abs(a[1][0][i] - b[1][0][i]) < 1e-9 for a, b in zip(fast[3], slow[3],
                                                                          strict=True)
                    for i in range(2))
    print(f"   check, two players, 13-card deck, depth 1, {len(views)} positions: identical "
          f"values in {same}/{len(views)}; median {statistics.median(fast_t) * 1000:.2f} ms by "
          f"type counts vs {statistics.median(slow_t) * 1000:.2f} ms by individual cards "
          f"(x{statistics.median(slow_t) / max(statistics.median(fast_t), 1e-9):.0f})")


def choice_figures(count: int, seed: int) -> None:
    """The hint policy's lazy choice against the full ranking, at every decision (two plays or
    more) of one seat in greedy four-player games."""
    print(f"1b. The hint policy's choice, four players: full ranking vs lazy choice "
          f"(hint.choose), {HintPolicy().nodes:,} views each", flush=True)
    rng = random.Random(seed)
    greedy = GreedyPolicy()
    full_t = lazy_t = 0.0
    decisions = same = unfinished = habitual = 0
    while decisions < count:
        state = GAME.initial_state(4, rng, HOUSE_RULES)
        seat = rng.randrange(4)
        while not state.is_terminal() and decisions < count:
            player = state.current_player()
            if player == CHANCE:
                state = state.apply(sample_chance(state, rng))
                continue
            if player == seat and len(state.legal_actions()) > 1:
                view = state.view(seat)
                started = time.perf_counter()
                found = hint(view, 1, Budget(nodes=HintPolicy().nodes))
                full_t += time.perf_counter() - started
                started = time.perf_counter()
                play, _ = choose(view, 1, Budget(nodes=HintPolicy().nodes))
                lazy_t += time.perf_counter() - started
                decisions += 1
                if found.moves:
                    same += play == found.moves[0].play
                else:
                    unfinished += 1
                habitual += play == HabitPolicy()(state, rng)
            state = state.apply(greedy(state, rng))
    print(f"   {decisions} decisions: the same play in {same}/{decisions - unfinished} where the "
          f"full ranking finished ({unfinished} over its budget); full {full_t:.1f} s, lazy "
          f"{lazy_t:.1f} s (x{full_t / max(lazy_t, 1e-9):.1f}); the habits' own play in "
          f"{habitual}/{decisions}")


def playout_figures(count: int, samples: int, engine_samples: int, seed: int) -> None:
    """The compiled playouts to the end of the game against the same playouts on the rules
    engine (the plain-Python baseline), at decisions of greedy four-player games: playouts a
    second, and whether every play's mean agrees."""
    print(f"1c. Playouts to the end of the game (the hint's long run), four players: compiled "
          f"({samples:,} per play) vs the rules engine ({engine_samples:,} per play)", flush=True)
    views = positions(4, count, seed + 7)
    long_run(views[0], views[0].legal_actions(), 1)  # compile (or load the cache) first
    fast_t = slow_t = 0.0
    fast_n = slow_n = agree = plays = 0
    for index, view in enumerate(views):
        legal = view.legal_actions()
        started = time.perf_counter()
        run = long_run(view, legal, samples, index)
        fast_t += time.perf_counter() - started
        fast_n += samples * len(legal)
        for i, play in enumerate(legal):
            started = time.perf_counter()
            engine = habits_to_end(view, play, engine_samples, random.Random(index))
            slow_t += time.perf_counter() - started
            slow_n += engine_samples
            plays += 1
            error = math.hypot(statistics.pstdev(engine) / math.sqrt(engine_samples),
                               float(run.lost[i].std()) / math.sqrt(samples))
            agree += abs(statistics.mean(engine) - run.mean(i)) <= 4 * max(error, 1e-9)
    fast_rate, slow_rate = fast_n / fast_t, slow_n / slow_t
    print(f"   {len(views)} positions, {plays} plays: compiled {fast_rate:,.0f} playouts/s, "
          f"rules engine {slow_rate:,.0f} playouts/s (x{fast_rate / slow_rate:,.0f}); the "
          f"means agree within 4 standard errors for {agree}/{plays} plays; "
          f"{1000 * fast_t / len(views):.1f} ms a decision")


BLOCK = 100
"""Games per block in part 2: block ``b`` of every policy is the same 100 deals (seeded from
``(seed, b)``), so the games pair up across policies, and a long run reports as it goes."""


class LongRunPolicy:
    """The least long run among *all* plays (then the habits), with no search: the hint's
    playouts alone, without the exact one-turn value and its tolerance (a benchmark
    baseline).  Picklable, for worker processes."""

    name = "long-run"

    def __call__(self, state: Any, rng: random.Random) -> Play:
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        view = state.view(state.turn)
        return first_among_equals(view, long_runs(view, PLAYOUTS, rng.getrandbits(31)))


def game_figures(games: int, hint_games: int, seed: int, workers: int,
                 hint_minutes: float | None = None, long_run_games: int = 0) -> None:
    print("2. One seat's policy against three greedy players, four players, seats rotating "
          "(95% intervals)", flush=True)
    losses: dict[str, list[float]] = {}
    for name, policy, count in (("greedy", GreedyPolicy(), games),
                                ("habits", HabitPolicy(), games),
                                ("random", RandomPolicy(), games),
                                ("long-run", LongRunPolicy(), long_run_games),
                                ("hint", HintPolicy(), hint_games)):
        if count < 1:
            continue
        started = time.perf_counter()
        lost: list[float] = []
        out: list[float] = []
        stopped = False
        for block in range(math.ceil(count / BLOCK)):
            if name == "hint" and hint_minutes is not None \
                    and time.perf_counter() - started > 60 * hint_minutes:
                stopped = True
                break
            result = simulate(NewGame(4, HOUSE_RULES),
                              [policy, GreedyPolicy(), GreedyPolicy(), GreedyPolicy()],
                              min(BLOCK, count - block * BLOCK), seed=seed * 100_003 + block,
                              rotate=True, stats=figures, workers=workers)
            for record in result.records:
                seat = record.seating.index(0)
                lost.append(record.figures[f"lost_{seat}"])
                out.append(record.figures[f"out_{seat}"])
            if name == "hint":
                print(f"   ... {name}: {len(lost)}/{count} games, strips lost "
                      f"{statistics.mean(lost):.3f}, {time.perf_counter() - started:.0f} s",
                      file=sys.stderr, flush=True)
        mean = sum(lost) / len(lost)
        spread = mean_interval(sum(lost), sum(v * v for v in lost), len(lost))
        rate = sum(out) / len(out)
        interval = wilson_interval(rate, len(out))
        note = f" (stopped after {hint_minutes:g} minutes)" if stopped else ""
        print(f"   {name:<8} {len(lost):>5} games: strips lost {mean:.3f} [{spread.low:.3f}, "
              f"{spread.high:.3f}], first out {100 * rate:.1f}% [{100 * interval.low:.1f}%, "
              f"{100 * interval.high:.1f}%]  ({time.perf_counter() - started:.0f} s){note}",
              flush=True)
        losses[name] = lost
    # Game i is the same deal, seating and chance stream under every policy, so the
    # difference per game is paired (common random numbers): a tighter comparison than two
    # separate intervals, printed beside them (the target is the separate intervals).
    print("   paired with greedy on the same deals (strips lost less greedy's, per game):")
    for name in ("hint", "long-run", "habits", "random"):
        if name not in losses or "greedy" not in losses:
            continue
        pairs = list(zip(losses[name], losses["greedy"], strict=False))  # the first games
        diffs = [a - b for a, b in pairs]
        spread = mean_interval(sum(diffs), sum(d * d for d in diffs), len(diffs))
        print(f"   {name:<8} {len(diffs):>5} games: {statistics.mean(diffs):+.3f} "
              f"[{spread.low:+.3f}, {spread.high:+.3f}]")


TOLERANCES = (0.0, 0.01, 0.05, 0.1, 0.2, 0.3, 0.5, math.inf)
"""The tolerances part 3 compares (``inf``: the habits alone decide among all plays)."""


def departure_figures(games: int, samples: int, seed: int) -> None:
    print("3. The hint's departures from greedy, worth by the end of the game, by tolerance "
          f"(current {TOLERANCE:g}); {samples} paired playouts per departure")
    rng = random.Random(seed)
    greedy, nodes = GreedyPolicy(), HintPolicy().nodes
    decisions, unfinished = 0, 0
    totals = {tolerance: [0.0] * games for tolerance in TOLERANCES}
    departed = dict.fromkeys(TOLERANCES, 0)
    started = time.perf_counter()
    for game in range(games):
        seat = game % 4
        state = GAME.initial_state(4, rng, HOUSE_RULES)
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                state = state.apply(sample_chance(state, rng))
                continue
            move = greedy(state, rng)
            assert isinstance(move, Play)
            if player == seat and len(state.legal_actions()) > 1:
                decisions += 1
                view = state.view(seat)
                found = hint(view, 1, Budget(nodes=nodes), playouts=0)
                unfinished += not found.moves
                least = min((ranked.value for ranked in found.moves), default=0.0)
                worth: dict[Play, float] = {}
                stream = rng.getrandbits(64)
                for tolerance in TOLERANCES if found.moves else ():
                    near = [ranked.play for ranked in found.moves
                            if ranked.value <= least + tolerance]
                    chosen = min(near, key=lambda play: habit_key(
                        state.rules, state.bottle, state.tokens[seat], int(play.card),
                        play.tokens))
                    if chosen == move:
                        continue
                    if chosen not in worth:
                        worth[chosen] = compare_long_run(view, chosen, move, samples,
                                                         random.Random(stream)).difference
                    totals[tolerance][game] += worth[chosen]
                    departed[tolerance] += 1
            state = state.apply(move)
    print(f"   {games} games of greedy play, one seat audited (rotating): {decisions:,} "
          f"decisions ({unfinished} over the hint's budget, not audited); difference = strips "
          "the chosen play costs by the end of the game less greedy's play, summed per game "
          "(negative: better than greedy)")
    for tolerance in TOLERANCES:
        per_game = totals[tolerance]
        spread = mean_interval(sum(per_game), sum(d * d for d in per_game), games)
        label = "habits alone" if tolerance == math.inf else f"tolerance {tolerance:g}"
        mark = "  <- the hint" if tolerance == TOLERANCE else ""
        print(f"   {label:<16} {departed[tolerance] / games:5.2f} departures per game: "
              f"{statistics.mean(per_game):+.3f} strips per game "
              f"[{spread.low:+.3f}, {spread.high:+.3f}]{mark}")
    print(f"   ({time.perf_counter() - started:.0f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=10, help="depth-1 positions")
    parser.add_argument("--deep-positions", type=int, default=4, help="depth-2 positions")
    parser.add_argument("--deep-seconds", type=float, default=120.0,
                        help="time cap of a depth-2 hint")
    parser.add_argument("--enum-seconds", type=float, default=10.0,
                        help="time cap of the enumeration baseline per position")
    parser.add_argument("--choice-decisions", type=int, default=100,
                        help="decisions of part 1b (the hint policy's lazy choice)")
    parser.add_argument("--skip-choice", action="store_true")
    parser.add_argument("--playout-positions", type=int, default=20,
                        help="decisions of part 1c (compiled playouts vs the rules engine)")
    parser.add_argument("--skip-playouts", action="store_true")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--hint-games", type=int, default=2000)
    parser.add_argument("--long-run-games", type=int, default=0,
                        help="games of the long run alone (no search), a baseline of part 2")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--hint-minutes", type=float, default=None,
                        help="stop the hint's games after this many minutes (at a block end)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--skip-hints", action="store_true")
    parser.add_argument("--skip-games", action="store_true")
    parser.add_argument("--audit-games", type=int, default=60,
                        help="greedy games whose decisions part 3 audits (0: skip part 3)")
    parser.add_argument("--audit-samples", type=int, default=300,
                        help="paired playouts per departure in part 3")
    args = parser.parse_args()
    if not args.skip_hints:
        hint_figures(args.positions, args.deep_positions, args.seed, args.enum_seconds,
                     args.deep_seconds)
    if not args.skip_choice:
        choice_figures(args.choice_decisions, args.seed)
    if not args.skip_playouts:
        playout_figures(args.playout_positions, PLAYOUTS, 200, args.seed)
    if not args.skip_games:
        game_figures(args.games, args.hint_games, args.seed, args.workers,
                     args.hint_minutes, args.long_run_games)
    if args.audit_games:
        departure_figures(args.audit_games, args.audit_samples, args.seed)


if __name__ == "__main__":
    main()

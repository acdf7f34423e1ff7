"""Party-Time benchmark: printed figures, never asserted.

1. The one-deal model (the hint since issue 19) against the re-deal model (the hint before it,
   kept in ``benchmarks/party_time_redeal.py``), at depth 1, side by side on each position:
   every play's value (expected strips lost until and on my next play) and its parts under
   both models, and the hint's time (the search, and the playouts when they run; compiling
   excluded).  The positions: the issue's reshuffle position (``tests/party_time/
   reshuffle.toml``), then seeded families of greedy self-play with four, three and two
   players on the house board and deck, stopped at a decision with two or more plays.  Then
   the exact search against the plain algorithm (every individual deal played on the rules
   engine, ``brute.enumerate_moves``) on small decks: identical values, and the speed ratio.
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
4. The coverage of every interval Party-Time prints, measured:
   a. the hint's estimates (sampled deals) against the exact values, on positions where the
      exact search fits, for several seeds;
   b. the long run's interval (1,000 playouts) against a run 100 times longer taken as the
      truth;
   c. the simulation's intervals (strips lost, first out, win) of runs of 2,000 compiled
      games against 1,000,000 games taken as the truth.

    python benchmarks/party_time.py                              # everything (long)
    python benchmarks/party_time.py --games 2000 --hint-games 300
    python benchmarks/party_time.py --skip-games --skip-choice --skip-playouts --audit-games 0
                                                                 # parts 1 and 4
    python benchmarks/party_time.py --skip-hints --skip-playouts --skip-games --audit-games 0 \
        --skip-coverage                                          # part 1b only
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
sys.path.insert(0, str(Path(__file__).resolve().parent))

from party_time_redeal import BeliefSearch  # noqa: E402
from party_time_redeal import rank_root as redeal_rank  # noqa: E402

from partysolver.app.party_time import NewGame, figures  # noqa: E402
from partysolver.models.documents import parse_document  # noqa: E402
from partysolver.models.party_time import GAME, HOUSE_RULES, Rules, load_position  # noqa: E402
from partysolver.models.party_time.game import Play  # noqa: E402
from partysolver.models.party_time.notation import move_text  # noqa: E402
from partysolver.models.party_time.state import PartyTimeView  # noqa: E402
from partysolver.models.protocol import CHANCE, sample_chance  # noqa: E402
from partysolver.solvers.budget import Budget, BudgetExhausted, Interval  # noqa: E402
from partysolver.solvers.party_time.belief import DealSearch, rank_root  # noqa: E402
from partysolver.solvers.party_time.brute import enumerate_moves  # noqa: E402
from partysolver.solvers.party_time.deals import distinct_deals  # noqa: E402
from partysolver.solvers.party_time.hint import (  # noqa: E402
    EXACT_DEALS,
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
from partysolver.solvers.party_time.playouts import games as compiled_games  # noqa: E402
from partysolver.solvers.party_time.playouts import long_run  # noqa: E402
from partysolver.solvers.party_time.policies import (  # noqa: E402
    GreedyPolicy,
    HabitPolicy,
    habit_key,
)
from partysolver.solvers.simulate import RandomPolicy, simulate  # noqa: E402
from partysolver.solvers.stats import mean_interval, wilson_interval  # noqa: E402

SMALL = Rules(HOUSE_RULES.board, (3, 2, 2, 1, 1, 1, 1, 1, 1))
"""A 13-card deck for the check against every individual deal, where the plain enumeration
finishes."""

RESHUFFLE = Path(__file__).resolve().parent.parent / "tests" / "party_time" / "reshuffle.toml"


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


def reshuffle_view() -> PartyTimeView:
    text = RESHUFFLE.read_text(encoding="utf-8")
    return load_position(parse_document(text, str(RESHUFFLE)), str(RESHUFFLE)) \
        .to_view(str(RESHUFFLE))


def _pct(value: float) -> str:
    return f"{100 * value:5.1f}%"


def _spread(interval: Interval | None, percent: bool = False) -> str:
    if interval is None:
        return ""
    if percent:
        return f" [{100 * interval.low:.1f}, {100 * interval.high:.1f}]"
    return f" [{interval.low:.3f}, {interval.high:.3f}]"


def compare_models(view: PartyTimeView, label: str, old_seconds: float, seed: int,
                   verbose: bool) -> dict[str, Any]:
    """The new hint and the old re-deal search on ``view``, side by side; their figures."""
    me = view.player
    started = time.perf_counter()
    found = hint(view, 1, playouts=PLAYOUTS, seed=seed)
    new_seconds = time.perf_counter() - started
    old = BeliefSearch(view.rules, view.num_players, me, 1, Budget(time=old_seconds))
    node = old.root(view)
    assert node is not None
    started = time.perf_counter()
    try:
        ranked = redeal_rank(old, node)
    except BudgetExhausted:
        ranked = []
    old_time = time.perf_counter() - started
    old_by = {play: value for play, value, _ in ranked}
    new_by = {move.play: move for move in found.moves}
    stats: dict[str, Any] = {"status": found.status, "new": new_seconds,
                             "search": found.usage.get("seconds", 0.0), "old": old_time,
                             "old_done": bool(ranked), "diffs": [], "zeroed": 0,
                             "first_differs": 0}
    if verbose:
        print(f"   {label}: bottle on square {view.bottle % view.rules.length}, "
              f"{len(new_by)} plays; new {found.status}"
              + (f" ({found.deals:,} deals)" if found.deals else "")
              + f" {new_seconds:.2f} s ({stats['search']:.2f} s search, "
              f"{found.outside_seconds:.2f} s playouts); old "
              + (f"{old_time:.2f} s" if ranked else f"not finished in {old_seconds:g} s"))
    for play in view.legal_actions():
        move = new_by[play]
        spans = move.intervals
        line = (f"      {move_text(play):<17} new value {move.value:.3f}{_spread(move.interval)}: this "
                f"turn {move.this_turn:g}, before next {_pct(move.before_next)}"
                f"{_spread(spans.before_next if spans else None, True)}, next turn "
                f"{_pct(move.next_play)}{_spread(spans.next_play if spans else None, True)}")
        if play in old_by:
            losses, safe, after = old_by[play]
            old_value = losses[me] + after
            stats["diffs"].append(move.value - old_value)
            if move.exact and move.before_next == 0.0 and 1.0 - safe > move.this_turn + 1e-9:
                stats["zeroed"] += 1
            line += (f"  | old value {old_value:.3f}: lose before {_pct(1.0 - safe)}, stuck "
                     f"{_pct(after)}")
        if verbose:
            print(line)
    if ranked:
        old_best = min(ranked, key=lambda item: item[1][0][me] + item[1][2])[0]
        new_best = min(found.moves, key=lambda move: move.value).play
        stats["first_differs"] = int(old_best != new_best)
    return stats


def hint_figures(count: int, seed: int, old_seconds: float, verbose: bool) -> None:
    print("1. The one-deal model (new) against the re-deal model (old: the hint before issue 19), "
          "depth 1; value = expected strips lost until and on my next play", flush=True)
    warm = positions(4, 1, seed)[0]
    long_run(warm, warm.legal_actions(), 2)  # compile (or load the cache) before timing
    groups = [("the issue's reshuffle position", [reshuffle_view()]),
              ("four players", positions(4, count, seed)),
              ("three players", positions(3, count, seed + 1)),
              ("two players", positions(2, count, seed + 2))]
    for name, views in groups:
        results = [compare_models(view, f"{name} #{i + 1}", old_seconds, seed + i, verbose)
                   for i, view in enumerate(views)]
        statuses = {status: sum(r["status"] == status for r in results)
                    for status in ("exact", "estimate", "unknown")}
        diffs = [d for r in results for d in r["diffs"]]
        new_times = [r["new"] for r in results]
        old_times = [r["old"] for r in results if r["old_done"]]
        print(f"   {name}: {len(results)} position(s), "
              + ", ".join(f"{k} {v}" for k, v in statuses.items() if v)
              + f"; new hint median {statistics.median(new_times):.2f} s, max "
              f"{max(new_times):.2f} s (search and playouts, compiling excluded); old search "
              + (f"median {statistics.median(old_times):.2f} s" if old_times else "-")
              + f" ({len(old_times)}/{len(results)} finished in {old_seconds:g} s)"
              + (f"; value new - old: mean {statistics.mean(diffs):+.3f}, largest "
                 f"{max(diffs, key=abs):+.3f} over {len(diffs)} plays" if diffs else "")
              + f"; exact 0 where the old model gave a chance: {sum(r['zeroed'] for r in results)}"
              f" play(s); a different safest play in {sum(r['first_differs'] for r in results)}",
              flush=True)
    for players, rules, seeds in ((2, SMALL, 6), (3, SMALL, 3)):
        views = [view for view in positions(players, seeds * 3, seed + 5, rules)
                 if sum(view.unseen()) <= 8][:seeds]
        fast_t = slow_t = 0.0
        same = 0
        for view in views:
            started = time.perf_counter()
            search = DealSearch(view.rules, players, view.player, 1)
            fast = rank_root(search, search.root(view))  # type: ignore[arg-type]
            fast_t += time.perf_counter() - started
            started = time.perf_counter()
            slow = enumerate_moves(view, 1, exact=False)
            slow_t += time.perf_counter() - started
            same += all(abs(a - b) < 1e-9 for (_, x, _), (_, y) in zip(fast, slow, strict=True)
                        for a, b in [*zip(x[0], y[0], strict=True), (x[1], y[1]),
                                     (x[2], y[2])])
        print(f"   check, {players} players, 13-card deck, {len(views)} positions (8 unseen "
              f"cards at most): identical values in {same}/{len(views)}; exact search "
              f"{1000 * fast_t / max(len(views), 1):.1f} ms vs every individual deal on the "
              f"engine {1000 * slow_t / max(len(views), 1):.1f} ms a position "
              f"(x{slow_t / max(fast_t, 1e-9):.0f})", flush=True)


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


def _covered(interval: Interval, truth: float) -> bool:
    return interval.low - 1e-12 <= truth <= interval.high + 1e-12


def risk_coverage(count: int, seeds: int, seed: int) -> None:
    """The hint's estimates (sampled deals) against the exact values, where the exact search
    fits: how often each 95% interval holds the exact figure."""
    names = ("value", "loss", "before_next", "next_play", "others")
    hits = dict.fromkeys(names, 0)
    checks = 0
    views: list[PartyTimeView] = []
    for players in (2, 3, 4):
        tried = positions(players, count * 6, seed + players)
        views += [view for view in tried if distinct_deals(view, EXACT_DEALS) <= EXACT_DEALS
                  ][:count]
    started = time.perf_counter()
    for view in views:
        exact = hint(view, playouts=0)
        if exact.status != "exact":
            continue
        truth = {move.play: move for move in exact.moves}
        for k in range(seeds):
            sampled = hint(view, playouts=0, seed=seed * 1000 + k, allow_exact=False)
            for move in sampled.moves:
                assert move.intervals is not None
                want = truth[move.play]
                checks += 1
                for name in names:
                    hits[name] += _covered(getattr(move.intervals, name),
                                           want.value if name == "value" else
                                           getattr(want, name))
    print(f"   a. the hint's estimates ({sampled.deals:,} sampled deals) against the exact "
          f"values: {len(views)} positions of 2 to 4 players where the exact search fits, "
          f"{seeds} seeds each, {checks} plays ({time.perf_counter() - started:.0f} s)")
    print("      coverage of the 95% intervals: " + ", ".join(
        f"{name} {100 * hits[name] / max(checks, 1):.1f}%" for name in names), flush=True)


def long_run_coverage(count: int, seeds: int, truth_samples: int, seed: int) -> None:
    """The long run's 95% interval (1,000 playouts) against a run ``truth_samples`` long."""
    views = positions(4, count, seed + 11)
    hits = checks = 0
    widths: list[float] = []
    started = time.perf_counter()
    for index, view in enumerate(views):
        plays = view.legal_actions()
        truth = long_run(view, plays, truth_samples, seed=10**7 + index)
        for k in range(seeds):
            run = long_run(view, plays, PLAYOUTS, seed=seed * 1000 + 37 * index + k)
            for i in range(len(plays)):
                figure = run.figure(i)
                checks += 1
                hits += _covered(figure.interval, truth.mean(i))
                widths.append(figure.interval.high - figure.interval.low)
    print(f"   b. the long run's 95% interval ({PLAYOUTS:,} playouts) against {truth_samples:,} "
          f"playouts taken as the truth: {len(views)} four-player positions, {seeds} seeds, "
          f"{checks} plays: coverage {100 * hits / checks:.1f}%, median width "
          f"{statistics.median(widths):.3f} strips ({time.perf_counter() - started:.0f} s)",
          flush=True)


def simulation_coverage(runs: int, games: int, truth_games: int, seed: int) -> None:
    """The simulation's intervals (strips lost: normal; first out and win: Wilson) of runs of
    ``games`` compiled four-player games against ``truth_games`` games taken as the truth;
    seat 0 plays greedy, then the habits."""
    started = time.perf_counter()
    for me, label in ((-1, "everyone greedy"), (0, "seat 0 by the habits")):
        truth = compiled_games(HOUSE_RULES, 4, truth_games, seed=seed + 101, me=me)
        true_lost = float(truth[:, 0].mean())
        true_out = float((truth[:, 0] == 4).mean())
        true_win = float(statistics.fmean(_win_shares(row)[0] for row in truth.tolist()))
        hits = {"strips lost": 0, "first out": 0, "win": 0}
        for k in range(runs):
            rows = compiled_games(HOUSE_RULES, 4, games, seed=seed * 7919 + k, me=me).tolist()
            lost = [float(row[0]) for row in rows]
            out = [float(row[0] == 4) for row in rows]
            wins = [_win_shares(row)[0] for row in rows]
            spread = mean_interval(sum(lost), sum(v * v for v in lost), games)
            hits["strips lost"] += _covered(spread, true_lost)
            hits["first out"] += _covered(wilson_interval(sum(out) / games, games), true_out)
            hits["win"] += _covered(wilson_interval(sum(wins) / games, games), true_win)
        print(f"   c. the simulation's 95% intervals, {label}: {runs} runs of {games:,} "
              f"games against {truth_games:,} games (seat 0: strips lost {true_lost:.3f}, "
              f"first out {100 * true_out:.1f}%, win {100 * true_win:.1f}%): coverage "
              + ", ".join(f"{name} {100 * hit / runs:.1f}%" for name, hit in hits.items())
              + f" ({time.perf_counter() - started:.0f} s)", flush=True)


def _win_shares(lost: list[int]) -> list[float]:
    """Each seat's share of the win from the strips lost (the most strips left win
    together)."""
    least = min(lost)
    winners = sum(1 for v in lost if v == least)
    return [1.0 / winners if v == least else 0.0 for v in lost]


def coverage_figures(args: argparse.Namespace) -> None:
    print("4. The coverage of the printed 95% intervals, measured", flush=True)
    risk_coverage(args.coverage_positions, args.coverage_seeds, args.seed)
    long_run_coverage(args.coverage_positions, args.coverage_seeds, args.truth_playouts,
                      args.seed)
    simulation_coverage(args.coverage_runs, args.coverage_games, args.truth_games, args.seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=6,
                        help="positions per player count in part 1")
    parser.add_argument("--old-seconds", type=float, default=60.0,
                        help="time cap of the old (re-deal) search per position in part 1")
    parser.add_argument("--quiet", action="store_true", help="part 1: summaries only")
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
    parser.add_argument("--skip-coverage", action="store_true")
    parser.add_argument("--coverage-positions", type=int, default=20,
                        help="part 4a and 4b: positions (per player count in 4a)")
    parser.add_argument("--coverage-seeds", type=int, default=5,
                        help="part 4a and 4b: seeds per position")
    parser.add_argument("--truth-playouts", type=int, default=100_000,
                        help="part 4b: playouts taken as the truth")
    parser.add_argument("--coverage-runs", type=int, default=200,
                        help="part 4c: runs of --coverage-games games")
    parser.add_argument("--coverage-games", type=int, default=2000)
    parser.add_argument("--truth-games", type=int, default=1_000_000,
                        help="part 4c: games taken as the truth")
    args = parser.parse_args()
    if not args.skip_hints:
        hint_figures(args.positions, args.seed, args.old_seconds, not args.quiet)
    if not args.skip_choice:
        choice_figures(args.choice_decisions, args.seed)
    if not args.skip_playouts:
        playout_figures(args.playout_positions, PLAYOUTS, 200, args.seed)
    if not args.skip_games:
        game_figures(args.games, args.hint_games, args.seed, args.workers,
                     args.hint_minutes, args.long_run_games)
    if args.audit_games:
        departure_figures(args.audit_games, args.audit_samples, args.seed)
    if not args.skip_coverage:
        coverage_figures(args)


if __name__ == "__main__":
    main()

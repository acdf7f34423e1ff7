"""Pool Party Stars benchmark: the deduction engine against the plain enumeration, and the hint
bot against random bots.  Prints figures; asserts nothing about time.

1. Posterior updates for 6-player logs of 10, 40 and 80 events (prefixes of seeded games
   played by mixed bots that guess often, read from a random seat): the engine (from the log
   to every player's exact posterior) against the plain enumeration of every assignment of
   the 12 rules, in the same run, with identical posteriors required.  Target: 80 events under 50 ms median and at
   least 20x faster than the plain enumeration.
2. The hint bot in one seat against three random bots (seats rotating), 4 players, at least
   1,000 games: its win rate with a 95% interval (an equal seat wins 25%).
3. The same against three half-hint bots (a stronger baseline than uniform random play,
   which mostly guesses).
4. A hint-bot turn in long games (custom guest decks of 300, 2,000 and 5,000 guests, 4
   players, hint bots against random bots as ``simulate --guest-deck`` plays them): the time
   of a turn early and late in the game, with the evidence kept up to date event by event (the
   game state's summary) against rebuilding it from the whole log every turn (the baseline,
   timed on a sample of the same turns in the same run).  Target: a turn costs the same early
   and late.

Run: ``.venv/bin/python benchmarks/pool_party_stars.py`` (``--games`` and ``--logs`` to
change the sizes; ``--logs 0 --games 0 --mixed-games 0`` runs part 4 alone).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from partysolver.models.pool_party_stars.evidence import Knowledge
from partysolver.models.pool_party_stars.game import GUESTS, Table
from partysolver.models.pool_party_stars.position import DEFAULT_NAMES
from partysolver.models.pool_party_stars.state import TURN, PoolPartyState
from partysolver.models.protocol import CHANCE, TERMINAL, sample_chance
from partysolver.solvers.pool_party_stars.baseline import plain_posterior
from partysolver.solvers.pool_party_stars.deduction import posterior
from partysolver.solvers.pool_party_stars.hints import hint
from partysolver.solvers.pool_party_stars.policies import HintPolicy, MixedPolicy
from partysolver.solvers.simulate import RandomPolicy, simulate

SIZES = (10, 40, 80)


def long_game(seed: int, length: int) -> PoolPartyState | None:
    """A seeded 6-player game by mixed bots, stopped at a decision after ``length`` events
    (``None`` if it ends first)."""
    rng = random.Random(seed)
    state = PoolPartyState.deal(Table(DEFAULT_NAMES[:6]), rng)
    policy = MixedPolicy(0.3, guesses=0.6)
    while state.current_player() != TERMINAL:
        if state.current_player() == CHANCE:
            state = state.apply(sample_chance(state, rng))
        elif len(state.events) >= length and state.phase == TURN:
            return state
        else:
            state = state.apply(policy(state, rng))
    return None


def logs(count: int) -> list[tuple[int, Knowledge, Knowledge, Knowledge]]:
    """``count`` games with 80+ events; for each, a seat and its knowledge at 10, 40, 80."""
    found = []
    seed = 0
    while len(found) < count:
        state = long_game(seed, max(SIZES))
        seed += 1
        if state is None:
            continue
        seat = random.Random(seed).randrange(6)
        views = []
        for size in SIZES:
            events = state.events[:size]
            epochs = 1 + sum(1 for e in events if getattr(e, "right", False)
                             and e.target == seat)
            views.append(Knowledge(state.table, events, seat, state.rules[seat][:epochs],
                                   state.hands[seat]))
        found.append((seed - 1, *views))
    return found


def engine_time(knowledge: Knowledge, repeats: int) -> float:
    """Median seconds for a posterior from a fresh log (epochs, clues, counts)."""
    times = []
    for _ in range(repeats):
        fresh = Knowledge(knowledge.table, knowledge.events, knowledge.seat, knowledge.rules,
                          knowledge.hand)
        start = time.perf_counter()
        posterior(fresh)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def posterior_benchmark(count: int, plain_logs: int) -> None:
    print(f"1. Posterior of 6-player logs ({count} logs per size, a random seat each; "
          f"plain enumeration on {plain_logs} of them)")
    sample = logs(count)
    rows = []
    for k, size in enumerate(SIZES):
        engine = [engine_time(item[1 + k], 15) for item in sample]
        plain, ratios = [], []
        for item, engine_seconds in zip(sample[:plain_logs], engine, strict=False):
            knowledge = item[1 + k]
            start = time.perf_counter()
            total, counts = plain_posterior(knowledge)
            seconds = time.perf_counter() - start
            post = posterior(knowledge)
            if total != post.total or any(list(post.of(p).counts) != counts[p]
                                          for p in range(6)):
                raise SystemExit(f"posteriors differ on game {item[0]} at {size} events")
            plain.append(seconds)
            ratios.append(seconds / engine_seconds)
        worlds = statistics.median(posterior(item[1 + k]).total for item in sample)
        rows.append((size, statistics.median(engine) * 1000, max(engine) * 1000,
                     statistics.median(plain) * 1000, statistics.median(ratios), worlds))
    print(f"   {'events':>6}  {'engine median':>13}  {'engine max':>10}  {'plain median':>12}"
          f"  {'speed-up (median)':>17}  {'consistent assignments (median)':>31}")
    for size, median, worst, plain_ms, ratio, worlds in rows:
        print(f"   {size:>6}  {median:>10.2f} ms  {worst:>7.2f} ms  {plain_ms:>9.0f} ms"
              f"  {ratio:>16.0f}x  {worlds:>31,.0f}")
    print("   identical posteriors: yes (every log checked against the plain enumeration)")


def hint_benchmark(games: int, against: str) -> None:
    others = {"random": RandomPolicy, "mixed": lambda: MixedPolicy(0.5)}[against]
    label = {"random": "three random bots (uniform over the legal actions)",
             "mixed": "three half-hint bots (hint half the time, else a random action)"}
    print(f"\n{'2' if against == 'random' else '3'}. Hint bot against {label[against]}, "
          f"4 players, {games} games (seats rotate; friendly mode)")
    progress = _Progress(games)
    start = time.perf_counter()
    result = simulate(_NewGame(), [HintPolicy(), others(), others(), others()], games, seed=1,
                      rotate=True, progress=progress)
    seconds = time.perf_counter() - start
    print(file=sys.stderr)
    rates = result.policy_rates()
    print(f"   hint bot win rate:   {rates['hint']}   (an equal seat: 25%)")
    print(f"   other bots (each):   {rates[against]}")
    print(f"   {games / seconds:.1f} games per second, {seconds:.0f} s in all")


class _NewGame:
    def __call__(self, rng: random.Random) -> PoolPartyState:
        return PoolPartyState.deal(Table(DEFAULT_NAMES[:4]), rng)


class _Progress:
    def __init__(self, total: int) -> None:
        self.total = total
        self.done = 0

    def __call__(self, k: int) -> None:
        self.done += k
        print(f"\r   playing: {self.done}/{self.total}", end="", file=sys.stderr, flush=True)


def long_game_turns(deck_size: int, baseline_turns: int) -> None:
    """Part 4 for one deck: every hint-bot turn timed, a sample also by the rebuild."""
    deck = tuple(sorted((GUESTS[i % len(GUESTS)] for i in range(deck_size)),
                        key=lambda g: g.id))
    rng = random.Random(deck_size)
    state = PoolPartyState.deal(Table(DEFAULT_NAMES[:4], deck), rng)
    hint_bot, random_bot = HintPolicy(), RandomPolicy()
    turns: list[tuple[int, float, PoolPartyState]] = []
    while state.current_player() != TERMINAL:
        if state.current_player() == CHANCE:
            state = state.apply(sample_chance(state, rng))
            continue
        seat = state.current_player()
        if seat % 2:
            state = state.apply(random_bot(state, rng))
            continue
        start = time.perf_counter()
        move = hint_bot(state, rng)
        turns.append((len(state.events), time.perf_counter() - start, state))
        state = state.apply(move)
    tenth = max(1, len(turns) // 10)
    parts = {"early": turns[:tenth], "late": turns[-tenth:]}
    row = [f"{deck_size:>6,}", f"{len(state.events):>7,}"]
    rebuilt: dict[str, float] = {}
    for name, chosen in parts.items():
        row.append(f"{statistics.median(t for _, t, _ in chosen) * 1000:>8.2f}")
        step = max(1, len(chosen) // baseline_turns)
        times = []
        for _, _, position in chosen[::step]:
            seat = position.current_player()
            known = position.knowledge(seat)
            fresh = Knowledge(known.table, known.events, seat, known.rules, known.hand)
            start = time.perf_counter()
            options = hint(fresh).options
            times.append(time.perf_counter() - start)
            if options[0].move != hint(known).options[0].move:
                raise SystemExit(f"the rebuilt hint differs at {len(position.events)} events")
        rebuilt[name] = statistics.median(times)
        row.append(f"{rebuilt[name] * 1000:>8.2f}")
    late_mine = statistics.median(t for _, t, _ in parts["late"])
    early_mine = statistics.median(t for _, t, _ in parts["early"])
    row += [f"{late_mine / early_mine:>10.2f}", f"{rebuilt['late'] / rebuilt['early']:>10.2f}",
            f"{rebuilt['late'] / late_mine:>8.1f}x"]
    print("   " + "  ".join(row), flush=True)


def long_game_benchmark(decks: list[int], baseline_turns: int) -> None:
    print(f"\n4. A hint-bot turn in one long game per guest deck (4 players, hint bots in "
          f"two seats, random bots in two; median ms per turn over the first and the last "
          f"tenth of the hint turns; the rebuild timed on {baseline_turns} of each tenth's "
          f"positions, same moves checked)")
    print("   (early, late: kept up to date; rebuilt: the baseline on the same positions; "
          "late/early: the growth of a turn's cost over the game)")
    print(f"   {'guests':>6}  {'events':>7}  {'early':>8}  {'rebuilt':>8}  {'late':>8}  "
          f"{'rebuilt':>8}  {'late/early':>10}  {'rebuilt':>10}  {'late gain':>9}")
    for size in decks:
        long_game_turns(size, baseline_turns)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--logs", type=int, default=10, help="logs per size (default 10)")
    parser.add_argument("--plain-logs", type=int, default=5,
                        help="logs per size also solved by the plain enumeration (default 5)")
    parser.add_argument("--games", type=int, default=1000,
                        help="games against random bots (default 1000)")
    parser.add_argument("--mixed-games", type=int, default=400,
                        help="games against half-hint bots (default 400)")
    parser.add_argument("--long-decks", type=int, nargs="*", default=[300, 2000, 5000],
                        help="guest decks of part 4 (default 300 2000 5000; none: skip)")
    parser.add_argument("--baseline-turns", type=int, default=20,
                        help="turns of each tenth the rebuild is timed on (default 20)")
    args = parser.parse_args()
    if args.logs:
        posterior_benchmark(args.logs, min(args.plain_logs, args.logs))
    if args.games:
        hint_benchmark(args.games, "random")
    if args.mixed_games:
        hint_benchmark(args.mixed_games, "mixed")
    if args.long_decks:
        long_game_benchmark(args.long_decks, args.baseline_turns)


if __name__ == "__main__":
    main()

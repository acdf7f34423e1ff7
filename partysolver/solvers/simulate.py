"""Play many games with chosen policies and report win rates with 95% intervals.

Game ``i`` of a run is seeded from ``(seed, i)`` alone, so a run gives the same figures whatever
runs it: this process, worker processes or a Dask cluster (each game is one unit of
:mod:`partysolver.solvers.runner`, which also journals finished games so a killed run resumes).
With ``rotate`` the policies move one seat on every game, so that each policy plays each seat
equally often (policy comparisons free of seat advantage).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..models.protocol import CHANCE, TERMINAL, State, sample_chance
from ..models.registry import get_game
from .budget import Interval
from .runner import Outcome, RunPlan, counted_plan, run
from .stats import figure_interval, wilson_interval


class Policy(Protocol):
    """Chooses an action for the player to act (a picklable object, for worker processes)."""

    name: str

    def __call__(self, state: Any, rng: random.Random) -> Hashable: ...


class RandomPolicy:
    """Uniformly random among the legal actions."""

    name = "random"

    def __call__(self, state: State, rng: random.Random) -> Hashable:
        return rng.choice(list(state.legal_actions()))


NewGame = Callable[[random.Random], State]
"""Makes the initial state of one game (it may draw a random set-up)."""

GameStats = Callable[[Any], dict[str, float]]
"""Game-specific figures of a finished game (say, each seat's score), averaged over the run."""


@dataclass(frozen=True, slots=True)
class Played:
    """A game written down: its initial position's document and every step (actions and
    chance outcomes) in the game's notation, enough to replay and review it."""

    start: dict[str, Any]
    steps: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One finished game: each seat's return, which policy sat where, and extra figures (and,
    when the run writes games down, the game itself)."""

    returns: tuple[float, ...]
    seating: tuple[int, ...]
    """``seating[seat]`` is the index of the policy that played ``seat``."""
    figures: dict[str, float]
    decisions: int
    played: Played | None = None

    def as_json(self) -> dict[str, Any]:
        """The record as JSON data (a unit's result in a run's journal); exact: floats
        round-trip through JSON."""
        data = {"returns": list(self.returns), "seating": list(self.seating),
                "figures": self.figures, "decisions": self.decisions}
        if self.played is not None:
            data["played"] = {"start": self.played.start, "steps": list(self.played.steps)}
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameRecord:
        played = data.get("played")
        return cls(tuple(float(r) for r in data["returns"]), tuple(data["seating"]),
                   {k: float(v) for k, v in data["figures"].items()}, int(data["decisions"]),
                   Played(played["start"], tuple(played["steps"])) if played else None)


class Notation:
    """Writes a game down in the notation of the registered game ``game`` (picklable: only
    the game's key travels to a worker)."""

    __slots__ = ("game",)

    def __init__(self, game: str) -> None:
        self.game = game

    def __reduce__(self) -> tuple[Any, ...]:
        return (Notation, (self.game,))

    def start(self, state: State) -> dict[str, Any]:
        """The position file of ``state`` (JSON data: it travels back from a worker)."""
        data: dict[str, Any] = get_game(self.game).state_to_document(state)
        return json.loads(json.dumps(data))

    def step(self, state: State, action: Hashable) -> str:
        """``action``, legal in ``state``, in the game's notation."""
        return get_game(self.game).notation.format(state, action)


def play_game(state: State, policies: Sequence[Policy], rng: random.Random,
              seat_rngs: Sequence[random.Random] | None = None,
              on_step: Callable[[State, Hashable], None] | None = None) -> tuple[State, int]:
    """Play ``state`` to the end; ``policies[seat]`` acts for ``seat``.  The final state and the
    number of decisions taken.  Chance draws from ``rng``; each seat's policy from its own
    stream in ``seat_rngs`` (default: ``rng`` too).  ``on_step(state, action)`` is told of
    every step before it is taken (it must not draw from the streams)."""
    decisions = 0
    player = state.current_player()
    while player != TERMINAL:
        if player == CHANCE:
            action = sample_chance(state, rng)
        else:
            action = policies[player](state, rng if seat_rngs is None else seat_rngs[player])
            decisions += 1
        if on_step is not None:
            on_step(state, action)
        state = state.apply(action)
        player = state.current_player()
    return state, decisions


def game_seed(seed: int, index: int) -> int:
    return seed * 1_000_003 + index


def stream(seed: int, index: int, source: int) -> random.Random:
    """Game ``index``'s random stream for one source of chance: 0 the set-up, 1 the chance
    nodes, ``2 + seat`` the policy in that seat.  With separate streams, one seed gives every
    run the same set-up and chance draws whatever the policies do with theirs, so policies
    compared on one seed meet the same luck (common random numbers) as far as their choices
    let the games run alike."""
    return random.Random(game_seed(seed, index) * 64 + source)


def _play_one(new_game: NewGame, policies: Sequence[Policy], seed: int, index: int,
              rotate: bool, stats: GameStats | None,
              notation: Notation | None = None) -> GameRecord:
    initial = new_game(stream(seed, index, 0))
    n = initial.num_players
    seating = tuple((seat + index) % len(policies) if rotate else seat % len(policies)
                    for seat in range(n))
    steps: list[str] = []
    on_step = None if notation is None else \
        (lambda state, action: steps.append(notation.step(state, action)))
    final, decisions = play_game(initial, [policies[p] for p in seating], stream(seed, index, 1),
                                 [stream(seed, index, 2 + seat) for seat in range(n)], on_step)
    figures = stats(final) if stats else {}
    played = None if notation is None else Played(notation.start(initial), tuple(steps))
    return GameRecord(tuple(final.returns()), seating, figures, decisions, played)


@dataclass(frozen=True, slots=True)
class PlayGame:
    """One game as a unit of work: ``PlayGame(...)(seed, index)`` plays game ``index`` of the
    run seeded ``seed`` and returns its record as JSON data (picklable: it travels to worker
    processes and Dask workers with the factory, the policies and the figures function)."""

    new_game: NewGame
    policies: tuple[Policy, ...]
    rotate: bool = False
    stats: GameStats | None = None
    notation: Notation | None = None
    """Write each game down in this notation (:attr:`GameRecord.played`)."""

    def __call__(self, seed: int, index: int) -> dict[str, Any]:
        return _play_one(self.new_game, self.policies, seed, index, self.rotate,
                         self.stats, self.notation).as_json()


class GamesFailed(RuntimeError):
    """Every game of a run failed: there are no figures to report."""

    def __init__(self, failures: Sequence[Outcome]) -> None:
        self.failures = tuple(failures)
        first = failures[0].describe("game") if failures else ""
        super().__init__(f"all {len(failures)} games failed; the first: {first}")


@dataclass(frozen=True, slots=True)
class Rate:
    """A win rate (mean share of the win) over ``games`` games with the 95% Wilson interval of
    the expected win share in games like these (not of one game's outcome)."""

    rate: float
    games: int
    interval: Interval

    def as_json(self) -> dict[str, Any]:
        return {"rate": round(self.rate, 6), "games": self.games,
                "interval": [round(self.interval.low, 6), round(self.interval.high, 6)]}

    def __str__(self) -> str:
        return (f"{100 * self.rate:5.1f}%  [{100 * self.interval.low:5.1f}%, "
                f"{100 * self.interval.high:5.1f}%]")


def rate_of(shares: Sequence[float]) -> Rate:
    n = len(shares)
    mean = sum(shares) / n if n else 0.0
    return Rate(mean, n, wilson_interval(mean, n))


@dataclass(frozen=True, slots=True)
class Figure:
    """The mean of a game figure with the 95% interval of its expected value over games like
    these (:func:`~partysolver.solvers.stats.figure_interval`: Wilson's for a figure within
    [0, 1], Student's t otherwise)."""

    mean: float
    interval: Interval

    def as_json(self) -> dict[str, Any]:
        return {"mean": round(self.mean, 6),
                "interval": [round(self.interval.low, 6), round(self.interval.high, 6)]}


@dataclass(frozen=True)
class SimulationResult:
    """Win rates per seat and per policy, and the mean of each game figure."""

    policies: tuple[str, ...]
    records: tuple[GameRecord, ...] = field(repr=False)
    failures: tuple[Outcome, ...] = field(default=(), repr=False)
    """Games that raised (each with its index and seed); the figures leave them out."""
    indices: tuple[int, ...] = field(default=(), repr=False)
    """The index in the run of each game of :attr:`records` (games that failed are not
    there)."""

    @property
    def games(self) -> int:
        return len(self.records)

    @property
    def players(self) -> int:
        return len(self.records[0].returns) if self.records else 0

    def seat_rates(self) -> list[Rate]:
        return [rate_of([r.returns[seat] for r in self.records]) for seat in range(self.players)]

    def policy_rates(self) -> dict[str, Rate]:
        """Each policy's win rate per seat it held, one observation per game it played (its
        mean share over its seats there), over the games it played.  A policy that held every
        seat of every game is left out: its rate is 1/players by construction."""
        rates = {}
        for name in self.policies:
            if name in rates:
                continue
            held = [p for p, other in enumerate(self.policies) if other == name]
            shares = []
            alone = True
            for record in self.records:
                seats = [seat for seat, p in enumerate(record.seating) if p in held]
                if seats:
                    shares.append(sum(record.returns[seat] for seat in seats) / len(seats))
                    alone = alone and len(seats) == len(record.seating)
            if shares and not alone:
                rates[name] = rate_of(shares)
        return rates

    def figures(self, bounds: Mapping[str, tuple[float, float]] | None = None
                ) -> dict[str, Figure]:
        """Each game figure's mean with its interval, cut to the figure's ``bounds`` (the
        values it can take, when given: an interval that covered still covers)."""
        names = list(self.records[0].figures) if self.records else []
        result = {}
        for name in names:
            values = [r.figures[name] for r in self.records]
            interval = figure_interval(values)
            if bounds and name in bounds:
                interval = interval.within(*bounds[name])
            result[name] = Figure(sum(values) / len(values), interval)
        return result


def simulate(new_game: NewGame, policies: Sequence[Policy], games: int, seed: int = 0,
             rotate: bool = False, stats: GameStats | None = None,
             workers: int | RunPlan = 1,
             progress: Callable[[int], None] | None = None,
             notation: Notation | None = None) -> SimulationResult:
    """Play ``games`` games; ``progress(k)`` is called as ``k`` more games finish.  With a
    ``notation``, every game is written down (:attr:`GameRecord.played`); the games and the
    figures are the same either way.

    ``workers`` is a number of local worker processes, or a :class:`RunPlan` (a Dask cluster,
    a journal to resume, listeners).  Outside this process ``new_game``, ``policies`` and
    ``stats`` must be picklable (module-level functions or objects).  A game that raises is
    left out of the figures and listed in ``failures``; :class:`GamesFailed` when all did."""
    if games < 1:
        raise ValueError("simulate needs at least one game")
    plan = counted_plan(workers, progress)
    task = PlayGame(new_game, tuple(policies), rotate, stats, notation)
    result = run(task, games, seed, plan)
    if not result.results:
        raise GamesFailed(result.failures)
    finished = [o for o in result.outcomes if o.ok]
    return SimulationResult(tuple(p.name for p in policies),
                            tuple(GameRecord.from_json(o.result) for o in finished),
                            tuple(result.failures), tuple(o.index for o in finished))

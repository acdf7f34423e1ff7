"""Deduction puzzles: solving them, and generating them with the fewest clues.

A puzzle is a seat log whose events are an excerpt (``complete = false``) and a target player:
"you are Dani, your rule is Monster; from these events, what is Ana's rule now?".  It has a
unique answer when exactly one rule is consistent for the target.

**Generation.** A game is played by :class:`~.policies.MixedPolicy` bots from a seed; from a
random seat, the first moment some other player's rule is certain gives a candidate.  The
clues are then cut to the *fewest* events that still pin the rule down (right guesses stay:
they mark when a player drew a new rule, and the seat's own cards stay), by
:func:`~.conflicts.smallest_set`: a set of events is enough when, for every other rule, the
events plus "the target holds that rule" conflict; a set that is not enough is grown to a
maximal one that is not, whose complement every enough set must meet.  The difficulty is read
from the explanation of the answer:

* ``easy``: the target's own answers suffice;
* ``medium``: it also takes a rule someone else holds at the same time (another player's
  deduced or revealed rule, or the seat's card);
* ``hard``: it takes rules a group of players share between them (a Hall set), or at least two
  other players' rules deduced along the way.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ...models.pool_party_stars.evidence import Knowledge
from ...models.pool_party_stars.game import ATTRIBUTES, Attribute, GuessOutcome, Table
from ...models.pool_party_stars.position import DEFAULT_NAMES, GameLog, Puzzle
from ...models.pool_party_stars.state import PoolPartyState
from ..budget import Budget, Meter
from ..simulate import play_game
from .conflicts import smallest_set
from .deduction import Eliminator, Explanation, Posterior, posterior
from .policies import MixedPolicy

PLAYERS = {"easy": (3, 4), "medium": (4, 5), "hard": (5, 6)}


@dataclass(frozen=True)
class Solution:
    """The answer of a puzzle and the chain that proves it (``rule`` is ``None`` when several
    rules remain; ``possible`` lists them)."""

    target: int
    rule: Attribute | None
    possible: tuple[Attribute, ...]
    explanation: Explanation | None
    total: int


def solve_puzzle(knowledge: Knowledge, target: int, post: Posterior | None = None) -> Solution:
    """Whether ``knowledge`` names ``target``'s rule (``post``: its posterior, if known)."""
    post = post or posterior(knowledge)
    belief = post.of(target)
    explanation = Eliminator(knowledge).explain(target) if belief.certain is not None else None
    return Solution(target, belief.certain, belief.possible, explanation, post.total)


def classify(explanation: Explanation) -> str:
    kinds = explanation.kinds
    if "hall" in kinds or explanation.depth >= 3:
        return "hard"
    if "peer" in kinds:
        return "medium"
    return "easy"


@dataclass(frozen=True)
class Generated:
    log: GameLog
    answer: Attribute
    difficulty: str
    proven_fewest: bool
    """Whether no smaller set of removable events pins the rule down (proven)."""
    seed: int


def generate(difficulty: str, seed: int, budget: Budget | None = None,
             attempts: int = 200) -> Generated | None:
    """A puzzle of ``difficulty`` from games seeded ``seed``, ``seed + 1``, ... (``None`` if
    none of ``attempts`` games gives one)."""
    if difficulty not in PLAYERS:
        raise ValueError(f"difficulty: one of {', '.join(PLAYERS)}")
    for attempt in range(attempts):
        rng = random.Random(seed * 7919 + attempt)
        n = rng.choice(PLAYERS[difficulty])
        state = _play(n, rng)
        seat = rng.randrange(n)
        targets = [p for p in range(n) if p != seat]
        rng.shuffle(targets)
        for target in targets:
            found = _candidate(state, seat, target, budget or Budget(time=20.0))
            if found is not None and found.difficulty == difficulty:
                return Generated(found.log, found.answer, found.difficulty,
                                 found.proven_fewest, seed * 7919 + attempt)
    return None


def _play(n: int, rng: random.Random) -> PoolPartyState:
    state = PoolPartyState.deal(Table(DEFAULT_NAMES[:n]), rng)
    policies = [MixedPolicy(rng.choice((0.3, 0.5, 0.7))) for _ in range(n)]
    final, _ = play_game(state, policies, rng)
    assert isinstance(final, PoolPartyState)
    return final


def _candidate(state: PoolPartyState, seat: int, target: int, budget: Budget
               ) -> Generated | None:
    """The puzzle at the first moment ``seat`` can name ``target``'s rule, if any."""
    events = state.events
    for length in range(1, len(events) + 1):
        prefix = events[:length]
        last = prefix[-1]
        if isinstance(last, GuessOutcome) and last.right:
            continue  # a redraw is pending
        knowledge = _seat_knowledge(state, seat, prefix)
        rule = posterior(knowledge).of(target).certain
        if rule is not None:
            meter = budget.start()
            first = _minimise(knowledge, target, rule, meter)
            if first is None:
                return None
            fewer = _fewer_redraws(first.knowledge, target, rule)
            if len(fewer.events) == len(first.knowledge.events):
                return first.generated
            again = _minimise(fewer, target, rule, meter)
            return None if again is None else again.generated
    return None


def _fewer_redraws(knowledge: Knowledge, target: int, rule: Attribute) -> Knowledge:
    """Drop right guesses (of players other than the seat) that the answer does not need:
    without one, the player's two rules around it read as one; keep the drop when the log
    stays consistent and the answer unique and the same."""
    events = list(knowledge.events)
    for i in range(len(events) - 1, -1, -1):
        event = events[i]
        if not (isinstance(event, GuessOutcome) and event.right) or event.target == \
                knowledge.seat:
            continue
        trial = Knowledge(knowledge.table, tuple(events[:i] + events[i + 1:]), knowledge.seat,
                          knowledge.rules, None, complete=False)
        if posterior(trial).of(target).certain == rule:
            events = events[:i] + events[i + 1:]
    return Knowledge(knowledge.table, tuple(events), knowledge.seat, knowledge.rules, None,
                     complete=False)


def _seat_knowledge(state: PoolPartyState, seat: int, events: Sequence[object]) -> Knowledge:
    epochs = 1 + sum(1 for e in events if isinstance(e, GuessOutcome) and e.right
                     and e.target == seat)
    return Knowledge(state.table, tuple(events), seat,  # type: ignore[arg-type]
                     state.rules[seat][:epochs], None, complete=False)


@dataclass(frozen=True)
class _Minimal:
    knowledge: Knowledge
    generated: Generated


def _minimise(knowledge: Knowledge, target: int, rule: Attribute, meter: Meter
              ) -> _Minimal | None:
    evidence = knowledge.evidence
    timeline = evidence.timeline
    epoch = timeline.current[target]
    events = knowledge.events
    kept = [i for i, e in enumerate(events) if isinstance(e, GuessOutcome) and e.right]
    ground = [i for i in range(len(events)) if i not in kept]
    base = evidence.domains(events=kept)
    others = [r for r in range(len(ATTRIBUTES)) if r != rule]

    def domains(chosen: frozenset[int] | Sequence[int], alternative: int) -> list[int]:
        doms = list(base)
        doms[epoch] &= 1 << alternative
        for i in chosen:
            for e, mask in evidence.event_clues[i]:
                doms[e] &= mask
        return doms

    def enough(chosen: frozenset[int] | Sequence[int]) -> bool:
        return not any(timeline.feasible(domains(chosen, r)) for r in others)

    def correction(chosen: frozenset[int]) -> frozenset[int] | None:
        for alternative in others:
            doms = domains(chosen, alternative)
            if not timeline.feasible(doms):
                continue
            grown = set(chosen)
            for i in ground:
                if i in grown:
                    continue
                trial = list(doms)
                for e, mask in evidence.event_clues[i]:
                    trial[e] &= mask
                if timeline.feasible(trial):
                    doms = trial
                    grown.add(i)
            return frozenset(ground) - grown
        return None

    start = list(ground)
    for i in list(ground):
        trial = [j for j in start if j != i]
        if enough(trial):
            start = trial
    best, proven = smallest_set(ground, correction, frozenset(start), meter)
    chosen = sorted(set(best) | set(kept))
    excerpt = tuple(events[i] for i in chosen)
    puzzle_knowledge = Knowledge(knowledge.table, excerpt, knowledge.seat, knowledge.rules,
                                 None, complete=False)
    solution = solve_puzzle(puzzle_knowledge, target)
    if solution.rule != rule or solution.explanation is None:
        return None
    difficulty = classify(solution.explanation)
    n = knowledge.table.size
    rules = tuple(knowledge.rules if p == knowledge.seat else None for p in range(n))
    log = GameLog(knowledge.table, excerpt, knowledge.seat, rules, (None,) * n, False,
                  Puzzle(target, difficulty))
    return _Minimal(puzzle_knowledge, Generated(log, rule, difficulty, proven, 0))


def clue_is_needed(knowledge: Knowledge, target: int, index: int) -> bool:
    """Whether dropping event ``index`` leaves the target's rule open."""
    events = knowledge.events[:index] + knowledge.events[index + 1:]
    reduced = Knowledge(knowledge.table, events, knowledge.seat, knowledge.rules, None,
                        complete=False)
    return posterior(reduced).of(target).certain is None


__all__ = ["Generated", "Solution", "classify", "clue_is_needed", "generate", "solve_puzzle"]

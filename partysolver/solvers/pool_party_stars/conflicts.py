"""Locating the smallest set of events that cannot all be true.

A log that no assignment of rules satisfies is bad input, and the useful answer names the few
events that conflict.  The search has three steps:

1. **a core** -- CP-SAT with one assumption literal per event (and per card a seat holds):
   ``sufficient_assumptions_for_infeasibility`` returns a subset that is already infeasible;
2. **an irreducible set** -- deletion: drop each member in turn and keep it out when what is
   left still conflicts (feasibility is the exact check of :mod:`.evidence`);
3. **the smallest set** -- implicit hitting-set duality (Ignatiev et al., "Smallest MUS
   extraction with minimal hitting set dualization", 2015): every conflicting set must hit
   the complement of every satisfiable set, so a minimum hitting set of complements collected so
   far (solved by CP-SAT) that conflicts is a smallest conflicting set; when it does not, it
   is grown to a maximal satisfiable set and the complement joins the family.

Step 3 runs within a time budget; when the budget ends first the irreducible set of step 2 is
reported, marked as not proven smallest.

:func:`smallest_set` is the generic loop (puzzle generation uses it too, to find the fewest
clues that pin a rule down).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ...models.pool_party_stars.evidence import Clue, Knowledge
from ...models.pool_party_stars.game import ALL_RULES, GuessOutcome, format_event
from ..budget import Budget, Meter
from .deduction import Eliminator, Item, bits

DEFAULT_TIME = 10.0
"""Seconds the search for the smallest conflicting set may take by default."""


@dataclass(frozen=True)
class Conflict:
    """Events (and cards) that cannot all be true; ``smallest`` when proven smallest."""

    items: tuple[Item, ...]
    labels: tuple[str, ...]
    smallest: bool
    reason: str | None

    @property
    def events(self) -> tuple[int, ...]:
        return tuple(i for kind, i in self.items if kind == "event")

    def text(self) -> str:
        size = "the smallest set" if self.smallest else "an irreducible set (no member can " \
                                                         "be dropped; smallest not proven)"
        lines = [f"no assignment of rules fits the log; {size} of {len(self.items)} that "
                 "conflict:"]
        lines += [f"  {label}" for label in self.labels]
        if self.reason:
            lines.append(f"  ({self.reason})")
        return "\n".join(lines)

    def one_line(self) -> str:
        return "; ".join(self.labels)


# -- the items ------------------------------------------------------------------------------------


def consistency_items(knowledge: Knowledge) -> list[tuple[Item, tuple[Clue, ...]]]:
    """Every event and every card the seat holds, with the clues it brings.

    An answer about a rule known for certain (a card the seat holds, or a rule a right guess
    revealed) is checked directly against that rule (a ``lie`` problem of the log); here it is
    left out (a right guess still fixes the rule it revealed, unless a card does), so that a
    conflict names only what deduction is needed for.
    """
    evidence = knowledge.evidence
    carded = {clue[0] for clue in evidence.fact_clues}
    revealed = {evidence.event_clues[i][0][0] for i, event in enumerate(knowledge.events)
                if isinstance(event, GuessOutcome) and event.right}
    items: list[tuple[Item, tuple[Clue, ...]]] = []
    for i, (event, clues) in enumerate(zip(knowledge.events, evidence.event_clues, strict=True)):
        if isinstance(event, GuessOutcome) and event.right:
            kept = tuple(c for c in clues if c[0] not in carded)
        else:
            kept = tuple(c for c in clues if c[0] not in carded and c[0] not in revealed)
        items.append((("event", i), kept))
    for k, clue in enumerate(evidence.fact_clues):
        items.append((("fact", k), (clue,)))
    return items


def item_label(knowledge: Knowledge, item: Item) -> str:
    kind, index = item
    if kind == "fact":
        player, number, rule = knowledge.evidence.facts[index]
        card = "your card" if len(knowledge.evidence.timeline.by_player[player]) == 1 \
            else f"your card {number + 1}"
        return f"{card}: Forbidden {rule.label}"
    return f"event {index + 1}: {format_event(knowledge.events[index], knowledge.names)}"


# -- the search -----------------------------------------------------------------------------------


def find_conflict(knowledge: Knowledge, budget: Budget | None = None) -> Conflict | None:
    """The smallest set of events (and cards) that conflict, or ``None`` if the log is
    consistent."""
    meter = (budget or Budget(time=DEFAULT_TIME)).start()
    items = consistency_items(knowledge)
    timeline = knowledge.evidence.timeline
    ground = list(range(len(items)))

    def domains(chosen: Sequence[int] | frozenset[int]) -> list[int]:
        doms = [ALL_RULES] * len(timeline)
        for j in chosen:
            for epoch, mask in items[j][1]:
                doms[epoch] &= mask
        return doms

    def conflicting(chosen: Sequence[int] | frozenset[int]) -> bool:
        return not timeline.feasible(domains(chosen))

    if not conflicting(ground):
        return None
    core = _cp_sat_core(knowledge, items, meter) or ground
    irreducible = _shrink(core, conflicting)

    def correction(chosen: frozenset[int]) -> frozenset[int] | None:
        doms = domains(chosen)
        if not timeline.feasible(doms):
            return None
        grown = set(chosen)
        for j in ground:
            if j in grown:
                continue
            trial = list(doms)
            for epoch, mask in items[j][1]:
                trial[epoch] &= mask
            if timeline.feasible(trial):
                doms = trial
                grown.add(j)
        return frozenset(ground) - grown

    best, proven = smallest_set(ground, correction, frozenset(irreducible), meter)
    chosen = sorted(best)
    picked = tuple(items[j][0] for j in chosen)
    events = [i for kind, i in picked if kind == "event"]
    reason = Eliminator(knowledge, events=events).contradiction
    return Conflict(picked, tuple(item_label(knowledge, it) for it in picked), proven, reason)


def _shrink(members: Sequence[int], conflicting: Callable[[Sequence[int]], bool]) -> list[int]:
    """Deletion: an irreducible conflicting subset of ``members`` (which conflict)."""
    kept = list(members)
    for j in list(members):
        trial = [k for k in kept if k != j]
        if conflicting(trial):
            kept = trial
    return kept


def _cp_sat_core(knowledge: Knowledge, items: list[tuple[Item, tuple[Clue, ...]]],
                 meter: Meter) -> list[int] | None:
    """An infeasible subset of the items from CP-SAT's assumptions (``None`` if not found)."""
    from ortools.sat.python import cp_model

    timeline = knowledge.evidence.timeline
    model = cp_model.CpModel()
    rules = [model.new_int_var(0, 11, f"rule_p{e.player}_card{e.number}")
             for e in timeline.epochs]
    for e, peers in enumerate(timeline.peers):
        for f in peers:
            if e < f:
                model.add(rules[e] != rules[f])
    literals = []
    for j, (item, clues) in enumerate(items):
        literal = model.new_bool_var(f"{item[0]}_{item[1]}_{j}")
        for epoch, mask in clues:
            for rule in bits(ALL_RULES & ~mask):
                model.add(rules[epoch] != rule).only_enforce_if(literal)
        literals.append(literal)
    model.add_assumptions(literals)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    left = meter.budget.time
    if left is not None:
        solver.parameters.max_time_in_seconds = max(0.1, left - meter.elapsed)
    if solver.solve(model) != cp_model.INFEASIBLE:
        return None
    index = {literal.index: j for j, literal in enumerate(literals)}
    return sorted(index[i] for i in solver.sufficient_assumptions_for_infeasibility()
                  if i in index)


def smallest_set(ground: Sequence[int],
                 correction: Callable[[frozenset[int]], frozenset[int] | None],
                 start: frozenset[int], meter: Meter) -> tuple[frozenset[int], bool]:
    """The smallest subset ``S`` of ``ground`` with ``correction(S) is None``.

    ``correction(S)`` returns ``None`` when ``S`` is good enough, else a non-empty set disjoint
    from ``S`` that every good set must meet (the complement of a maximal set that is not good;
    being good must be preserved by supersets).  ``start`` is a good set.  Returns the best set
    found and whether it is proven smallest."""
    family: list[frozenset[int]] = []
    best = start
    while not meter.exhausted():
        try:
            hit = _min_hitting_set(ground, family, len(best) - 1, meter)
        except TimeoutError:
            break
        if hit is None:
            return best, True
        missing = correction(hit)
        if missing is None:
            return hit, True
        if not missing:
            raise ValueError("correction() must return a non-empty set for a set not good")
        family.append(missing)
    return best, False


def _min_hitting_set(ground: Sequence[int], family: Sequence[frozenset[int]], upper: int,
                     meter: Meter) -> frozenset[int] | None:
    """A smallest subset of ``ground`` meeting every set of ``family`` with at most ``upper``
    members (``None`` if there is none)."""
    if not family:
        return frozenset() if upper >= 0 else None
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    chosen = {j: model.new_bool_var(f"keep_{j}") for j in ground}
    for members in family:
        model.add_bool_or([chosen[j] for j in members])
    model.add(sum(chosen.values()) <= upper)
    model.minimize(sum(chosen.values()))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    if meter.budget.time is not None:
        solver.parameters.max_time_in_seconds = max(0.1, meter.budget.time - meter.elapsed)
    status = solver.solve(model)
    if status == cp_model.OPTIMAL:
        return frozenset(j for j, var in chosen.items() if solver.value(var))
    if status == cp_model.INFEASIBLE:
        return None
    raise TimeoutError("the hitting-set model ran out of time")

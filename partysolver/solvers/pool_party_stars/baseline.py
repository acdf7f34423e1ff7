"""The plain enumeration: the oracle of the deduction engine and its benchmark baseline.

Every assignment of the twelve rules to the unknown rules of a log is tried in turn and kept
when it breaks no answer and never gives two players the same rule at once -- no propagation,
no counting tricks, and no code shared with :mod:`partysolver.models.pool_party_stars.evidence`
(epochs are recomputed here from the events).  Each answer becomes one check, "the rule held
then by this player is (or is not) among these", tested in the order of the events; an
assignment stops at its first failed check.

The unknown rules are the rules held now by the players other than the seat; a rule that a
right guess revealed is the guessed rule.  With ``reveal=False`` the revealed rules are
enumerated too and the right guesses checked like any answer: slower still, and independent of
how revelations are modelled, for small logs.
"""

from __future__ import annotations

from itertools import product

from ...models.pool_party_stars.evidence import Knowledge
from ...models.pool_party_stars.game import RULE_COUNT, GuessOutcome, Proposal


def _holdings(knowledge: Knowledge) -> tuple[list[list[int]], list[int]]:
    """For each event (and now), which epoch (numbered per player) each player holds, and
    each player's number of epochs."""
    n = knowledge.table.size
    number = [0] * n
    during = []
    for event in knowledge.events:
        during.append(list(number))
        if isinstance(event, GuessOutcome) and event.right:
            number[event.target] += 1
    during.append(list(number))
    return during, [k + 1 for k in number]


def plain_posterior(knowledge: Knowledge, reveal: bool = True
                    ) -> tuple[int, list[list[int]]]:
    """The number of consistent assignments and, per player, how many give each rule to the
    rule held now."""
    n = knowledge.table.size
    events = knowledge.events
    during, epochs = _holdings(knowledge)
    known: dict[tuple[int, int], int] = {}
    if knowledge.seat is not None:
        for k, held in enumerate(knowledge.rules[:epochs[knowledge.seat]]):
            known[(knowledge.seat, k)] = int(held)
    if reveal:
        for i, event in enumerate(events):
            if isinstance(event, GuessOutcome) and event.right:
                known.setdefault((event.target, during[i][event.target]), int(event.rule))
    slots = [(p, k) for p in range(n) for k in range(epochs[p]) if (p, k) not in known]
    where = {slot: i for i, slot in enumerate(slots)}
    total = 0
    counts = [[0] * RULE_COUNT for _ in range(n)]
    checks = _checks(knowledge, during, known, where)
    groups = _groups(knowledge, during, known, where)
    if checks is None or groups is None:
        return total, counts
    now = [(p, epochs[p] - 1) for p in range(n)]
    for values in product(range(RULE_COUNT), repeat=len(slots)):
        if all(allowed >> values[i] & 1 for i, allowed in checks) and \
                all(_distinct(values, fixed, free) for fixed, free in groups):
            total += 1
            for p, slot in enumerate(now):
                counts[p][values[where[slot]] if slot in where else known[slot]] += 1
    return total, counts


def _checks(knowledge: Knowledge, during: list[list[int]], known: dict[tuple[int, int], int],
            where: dict[tuple[int, int], int]) -> list[tuple[int, int]] | None:
    """One ``(slot, rules allowed)`` check per answer about an unknown rule, in event order;
    ``None`` if an answer about a known rule fails."""
    checks = []
    for i, event in enumerate(knowledge.events):
        if isinstance(event, Proposal):
            bars = 0
            for a in event.guest.attributes:
                bars |= 1 << int(a)
            answers = [(answer.seat, bars if answer.bars else ~bars & 4095)
                       for answer in event.answers]
        else:
            bit = 1 << int(event.rule)
            answers = [(event.target, bit if event.right else ~bit & 4095)]
        for player, allowed in answers:
            slot = (player, during[i][player])
            if slot in where:
                checks.append((where[slot], allowed))
            elif not allowed >> known[slot] & 1:
                return None
    return checks


def _groups(knowledge: Knowledge, during: list[list[int]], known: dict[tuple[int, int], int],
            where: dict[tuple[int, int], int]) -> list[tuple[frozenset[int], list[int]]] | None:
    """For every moment a rule changes hands (and the start and now), the rules held then:
    fixed ones, and the slots of unknown ones; ``None`` if fixed ones repeat."""
    moments = {0, len(knowledge.events)} | {
        i + 1 for i, e in enumerate(knowledge.events) if isinstance(e, GuessOutcome) and e.right}
    groups = []
    for m in sorted(moments):
        held = [(p, during[m][p]) for p in range(knowledge.table.size)]
        fixed = [known[slot] for slot in held if slot not in where]
        if len(set(fixed)) != len(fixed):
            return None
        groups.append((frozenset(fixed), [where[slot] for slot in held if slot in where]))
    return groups


def _distinct(values: tuple[int, ...], fixed: frozenset[int], free: list[int]) -> bool:
    seen = set(fixed)
    for i in free:
        if values[i] in seen:
            return False
        seen.add(values[i])
    return True

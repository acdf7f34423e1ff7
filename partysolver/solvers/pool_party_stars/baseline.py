"""The plain enumeration: the oracle of the deduction engine and its benchmark baseline.

Every assignment of the twelve rules to the unknown rules of a log is tried in turn and kept
when it breaks no answer and never gives two players the same rule at once -- no propagation,
no counting tricks, and no code shared with :mod:`partysolver.models.pool_party_stars.evidence`
(epochs are recomputed here from the events).

The unknown rules are the rules held now by the players other than the seat; a rule that a
right guess revealed is the guessed rule.  With ``reveal=False`` the revealed rules are
enumerated too and the right guesses checked like any answer: slower still, and independent of
how revelations are modelled, for small logs.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product

from ...models.pool_party_stars.evidence import Knowledge
from ...models.pool_party_stars.game import RULE_COUNT, GuessOutcome, Proposal


def _holdings(knowledge: Knowledge) -> tuple[list[list[int]], list[int]]:
    """For each event, which epoch (numbered per player) each player holds during it, and
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
    moments = sorted({0, len(events)} | {i + 1 for i, e in enumerate(events)
                                         if isinstance(e, GuessOutcome) and e.right})
    total = 0
    counts = [[0] * RULE_COUNT for _ in range(n)]
    for values in product(range(RULE_COUNT), repeat=len(slots)):
        rule = dict(known)
        rule.update(zip(slots, values, strict=True))
        if _fits(events, during, rule) and _distinct(n, moments, during, rule):
            total += 1
            for p in range(n):
                counts[p][rule[(p, epochs[p] - 1)]] += 1
    return total, counts


def _fits(events: Sequence[object], during: list[list[int]], rule: dict[tuple[int, int], int]
          ) -> bool:
    for i, event in enumerate(events):
        if isinstance(event, Proposal):
            attributes = {int(a) for a in event.guest.attributes}
            for answer in event.answers:
                held = rule[(answer.seat, during[i][answer.seat])]
                if (held in attributes) != answer.bars:
                    return False
        elif isinstance(event, GuessOutcome):
            held = rule[(event.target, during[i][event.target])]
            if (held == int(event.rule)) != event.right:
                return False
    return True


def _distinct(n: int, moments: list[int], during: list[list[int]],
              rule: dict[tuple[int, int], int]) -> bool:
    for m in moments:
        held = [rule[(p, during[m][p])] for p in range(n)]
        if len(set(held)) != n:
            return False
    return True

"""Hints for one seat, and what the other seats can deduce about its rule.

Everything here reads one :class:`~partysolver.models.pool_party_stars.evidence.Knowledge`:
the public events, the seat's own rules and hand -- never another player's rule or hand.

**Hint.** Every consistent assignment of rules is equally likely (see :mod:`.evidence`), so each
option is valued by counting:

* proposing a guest from the hand: the answers stop at the first player who bars it, so the
  outcome is "barred by the k-th player asked" or "let in by all"; counting the assignments
  behind each outcome gives the probability that the guest becomes my VIP (its expected VIPs),
  and the entropy of the outcome is the expected information it reveals (the posterior is
  uniform and the outcome a function of the assignment, so the expected entropy drop of the
  joint posterior equals the outcome's entropy, in bits);
* guessing rule ``r`` for player ``q``: right with the posterior probability of ``r``; right
  wins half the waiting line rounded up, wrong costs a VIP in competitive mode (if I have one).
  The information is the entropy of right/wrong.

Options rank by expected VIPs, then information; guesses that cannot be right are left out.

**Exposure.** For every other player ``q``: what ``q`` can deduce about my rule from the public
events and ``q``'s own rule -- which I do not know, so it is averaged over my posterior of
``q``'s rule.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ...models.pool_party_stars.evidence import Evidence, Knowledge
from ...models.pool_party_stars.game import (
    ALL_RULES,
    ATTRIBUTES,
    Guess,
    Guest,
    Move,
    Propose,
    asked_order,
    rules_text,
)
from ...models.words import plural
from .deduction import Posterior, posterior


@dataclass(frozen=True, slots=True)
class Option:
    """One action for the seat, valued."""

    move: Move
    text: str
    value: float
    """Expected VIPs gained (a wrong guess's loss counted in competitive mode)."""
    info: float
    """Expected information revealed, in bits."""
    probability: float
    """Proposal: the chance nobody bars the guest; guess: the chance it is right."""
    reason: str


@dataclass(frozen=True)
class Hint:
    """The seat's options, best first."""

    knowledge: Knowledge
    posterior: Posterior
    options: tuple[Option, ...]
    impossible_guesses: int
    """Guesses left out because they cannot be right."""
    note: str = ""


def entropy(weights: Sequence[int]) -> float:
    total = sum(weights)
    if not total:
        return 0.0
    return max(0.0, -sum(w / total * math.log2(w / total) for w in weights if w))


def proposal_outcomes(knowledge: Knowledge, domains: Sequence[int], guest: Guest
                      ) -> list[tuple[int | None, int]]:
    """For each way a proposal of ``guest`` by the seat can end -- barred by a player asked,
    or ``None``: let in by all -- the number of consistent assignments leading to it.
    ``domains`` are those of ``knowledge.counting``."""
    assert knowledge.seat is not None
    timeline = knowledge.counting.timeline
    mask = guest.mask
    doms = list(domains)
    found: list[tuple[int | None, int]] = []
    for seat in asked_order(knowledge.seat, knowledge.table.size):
        epoch = timeline.current[seat]
        barred = list(doms)
        barred[epoch] &= mask
        found.append((seat, timeline.count(barred)))
        doms[epoch] &= ALL_RULES & ~mask
    found.append((None, timeline.count(doms)))
    return found


def hint(knowledge: Knowledge, post: Posterior | None = None) -> Hint:
    """Every option of the seat, ranked by expected VIPs, then information."""
    if knowledge.seat is None:
        raise ValueError("a hint is for one seat")
    post = post or posterior(knowledge)
    if not post.consistent:
        raise ValueError("no assignment of rules fits this log")
    me, names = knowledge.seat, knowledge.names
    record = knowledge.public
    hand = knowledge.hand
    if hand is not None and not hand and knowledge.complete:
        return Hint(knowledge, post, (), 0, f"{names[me]} has no guest left: the game is over")
    domains = knowledge.counting.domains()
    options: list[Option] = []
    for guest in dict.fromkeys(hand or ()):
        options.append(_proposal(knowledge, post, domains, guest))
    waiting = len(record.waiting)
    take = (waiting + 1) // 2
    penalty = 1 if knowledge.table.competitive and record.vips[me] else 0
    impossible = 0
    for target in asked_order(me, knowledge.table.size):
        belief = post.of(target)
        for rule in ATTRIBUTES:
            if not belief.counts[rule]:
                impossible += 1
                continue
            p = belief.counts[rule] / post.total
            options.append(Option(
                Guess(target, rule), f"guess {names[target]} is {rule.label}",
                p * take - (1 - p) * penalty, entropy([belief.counts[rule],
                                                       post.total - belief.counts[rule]]),
                p, _guess_reason(names[target], rule.label, p, belief.counts[rule], post.total,
                                 waiting, take, penalty)))
    order = {id(o): i for i, o in enumerate(options)}
    options.sort(key=lambda o: (-round(o.value, 12), -round(o.info, 12), order[id(o)]))
    note = "" if hand is not None else "your hand is not in the log: only guesses are ranked"
    return Hint(knowledge, post, tuple(options), impossible, note)


def _proposal(knowledge: Knowledge, post: Posterior, domains: Sequence[int], guest: Guest
              ) -> Option:
    names = knowledge.names
    outcomes = proposal_outcomes(knowledge, domains, guest)
    total = post.total
    let_in = outcomes[-1][1] / total
    info = entropy([count for _, count in outcomes])
    if let_in == 1:
        reason = "nobody can bar it: a sure VIP"
    else:
        barring = []
        for seat, count in outcomes[:-1]:
            if count and seat is not None:
                possible = _possible(post, seat)
                could = rules_text(guest.mask & possible)
                if guest.mask & possible == possible:  # whatever rule it holds bars the guest
                    barring.append(f"{names[seat]} bars it whenever asked (its rule, {could}, "
                                   f"is on the guest) and is the first to bar in "
                                   f"{count / total:.0%}")
                else:
                    barring.append(f"{names[seat]} is the first to bar it in "
                                   f"{count / total:.0%} (when its rule is {could})")
        reason = f"becomes your VIP with {let_in:.0%}; " + ", ".join(barring)
    return Option(Propose(guest), f"propose {guest}", let_in, info, let_in, reason)


def _possible(post: Posterior, seat: int) -> int:
    return sum(1 << r for r, c in enumerate(post.of(seat).counts) if c)


def _guess_reason(target: str, rule: str, p: float, count: int, total: int, waiting: int,
                  take: int, penalty: int) -> str:
    if p == 1:
        head = f"{target}'s rule is certainly {rule}"
    else:
        head = f"{target} holds {rule} in {count} of {total} consistent cases ({p:.0%})"
    if waiting:
        gain = f"right takes {take} of the {plural(waiting, 'waiting guest')}"
    else:
        gain = "the waiting line is empty: right wins no VIP"
    loss = "; wrong costs you a VIP" if penalty and p < 1 else ""
    return f"{head}: {gain}{loss}"


# -- exposure -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Exposure:
    """What ``player`` can deduce about the seat's current rule (averaged over the seat's
    uncertainty about ``player``'s own rule)."""

    player: int
    expected: float
    """The mean probability ``player`` gives the seat's true rule."""
    certain: float
    """The chance that ``player`` can name the seat's rule for sure."""
    at_least_half: float
    """The chance that ``player`` gives the seat's true rule 50% or more."""
    possible: float
    """The mean number of rules ``player`` still thinks the seat may hold."""


def exposure(knowledge: Knowledge, post: Posterior | None = None
             ) -> tuple[tuple[Exposure, ...], float | None]:
    """Per other player, what they can deduce about the seat's rule; and the probability an
    onlooker (knowing only the public events) gives it.  Nothing while the seat's new rule is
    still to be drawn (its rule was just guessed)."""
    me = knowledge.seat
    if me is None:
        raise ValueError("exposure is about one seat's rule")
    public = Evidence.build(knowledge.table.size, knowledge.events)
    timeline = public.timeline
    if len(knowledge.rules) < len(timeline.by_player[me]):
        return (), None
    post = post or posterior(knowledge)
    mine = int(knowledge.rules[-1])
    my_epoch = timeline.current[me]
    base = public.domains()
    total, counts = timeline.marginals(base)
    onlooker = counts[my_epoch][mine] / total if total else 0.0
    found = []
    for other in range(knowledge.table.size):
        if other == me:
            continue
        expected = certain = half = possible = 0.0
        belief = post.of(other)
        for rule in ATTRIBUTES:
            weight = belief.counts[rule] / post.total
            if not weight:
                continue
            doms = list(base)
            doms[timeline.current[other]] &= 1 << rule
            their_total, their_counts = timeline.marginals(doms)
            view = their_counts[my_epoch]
            p = view[mine] / their_total
            expected += weight * p
            certain += weight * (p == 1)
            half += weight * (p >= 0.5)
            possible += weight * sum(1 for c in view if c)
        found.append(Exposure(other, expected, certain, half, possible))
    return tuple(found), onlooker


def exposure_summary(knowledge: Knowledge, exposures: Sequence[Exposure]) -> str:
    if not exposures:
        return "your new rule is not drawn yet"
    names = knowledge.names
    sharp = [e for e in exposures if e.expected >= 0.5]
    if not sharp:
        head = "nobody can name your rule with 50% or more yet"
    else:
        head = (f"{plural(len(sharp), 'player')} can already name your rule with >= 50%: "
                + ", ".join(names[e.player] for e in sharp))
    return head


__all__ = ["Exposure", "Hint", "Option", "entropy", "exposure", "exposure_summary", "hint",
           "proposal_outcomes"]

"""What a game log says about the secret rules: epochs, clues and consistent assignments.

A player's rule has *epochs*: the rule dealt at the start is epoch 0, and every right guess of
that player's rule ends the current epoch (revealing its rule) and starts the next with a
fresh draw.  An epoch is held during a run of events, ``first`` to ``last`` (the right guess
that ended it), or up to now.  Two epochs of different players that are held during a common
event *overlap*: their rules differ (no two players ever hold the same rule at once), and that
is the only link between epochs; everything a log shows is a *clue* about one epoch:

* a player who lets a guest in holds none of its three attributes;
* a player who bars it holds one of them;
* a wrong guess rules out the guessed rule, a right one fixes it;
* a player's own card (or, for an omniscient log, everyone's) fixes the epochs it covers.

A clue is a bit mask of the rules the epoch may hold; an epoch's *domain* is the AND of its
clues.  Deals and redraws are uniform, and every assignment of rules to epochs that respects
the domains and the overlaps has the same prior probability (the deal and each redraw have a
fixed number of equally likely outcomes), so the exact posterior is a count of consistent
assignments.  :class:`Timeline` counts them, gives every epoch's marginal counts and samples
one uniformly:

* epochs left with one rule remove it from every overlapping epoch (to a fixpoint);
* when the epochs still undecided are all current ones -- always the case for a whole log,
  where every past epoch was revealed by the guess that ended it -- they are held together
  now, so they form one all-different group, counted by a dynamic programme over the twelve
  rules whose state is the set of epochs already given a rule (at most 2**6 states);
* otherwise (a subset of a log's events, as when a conflict is being located) a plain
  depth-first search with forward checking decides.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from .game import (
    ALL_RULES,
    RULE_COUNT,
    Attribute,
    Event,
    GuessOutcome,
    Guest,
    Public,
    Table,
    replay,
)

NOW = 1 << 60
"""The ``end`` of an epoch that is still held."""


@dataclass(frozen=True, slots=True)
class Epoch:
    """One rule a player held: from event ``first`` to event ``last`` (``None``: still held)."""

    player: int
    number: int
    first: int
    last: int | None

    @property
    def end(self) -> int:
        return NOW if self.last is None else self.last

    @property
    def current(self) -> bool:
        return self.last is None

    def overlaps(self, other: Epoch) -> bool:
        return (self.player != other.player and self.first <= other.end
                and other.first <= self.end)


Clue = tuple[int, int]
"""What one observation says about one epoch: ``(epoch, mask of the rules it may hold)``."""


class Timeline:
    """The epochs of a log's players and which of them overlap."""

    __slots__ = ("players", "epochs", "by_player", "current", "peers")

    def __init__(self, players: int, epochs: Sequence[Epoch]) -> None:
        self.players = players
        self.epochs = tuple(epochs)
        by_player: list[list[int]] = [[] for _ in range(players)]
        for index, epoch in enumerate(self.epochs):
            by_player[epoch.player].append(index)
        self.by_player = tuple(tuple(items) for items in by_player)
        self.current = tuple(items[-1] for items in self.by_player)
        self.peers = self._sweep()

    def _sweep(self) -> tuple[tuple[int, ...], ...]:
        """Which epochs overlap, by a sweep in order of their first event: an epoch overlaps
        every epoch of another player that started no later and has not ended before it."""
        peers: list[list[int]] = [[] for _ in self.epochs]
        order = sorted(range(len(self.epochs)), key=lambda e: self.epochs[e].first)
        active: list[int] = []
        for e in order:
            epoch = self.epochs[e]
            active = [f for f in active if self.epochs[f].end >= epoch.first]
            for f in active:
                if self.epochs[f].player != epoch.player:
                    peers[e].append(f)
                    peers[f].append(e)
            active.append(e)
        return tuple(tuple(sorted(items)) for items in peers)

    def __len__(self) -> int:
        return len(self.epochs)

    def epoch_of(self, player: int, number: int) -> int:
        return self.by_player[player][number]

    def cliques(self) -> list[tuple[int, ...]]:
        """The maximal sets of epochs held during a common event (all-different groups)."""
        found: list[frozenset[int]] = []
        for start in sorted({e.first for e in self.epochs}):
            group = frozenset(i for i, e in enumerate(self.epochs) if e.first <= start <= e.end)
            if len(group) > 1:
                found.append(group)
        maximal = [g for g in found if not any(g < other for other in found)]
        return [tuple(sorted(g)) for g in dict.fromkeys(maximal)]

    # -- counting consistent assignments ----------------------------------------------------------

    def settle(self, domains: Sequence[int]) -> list[int] | None:
        """Domains after every decided epoch removed its rule from the overlapping ones;
        ``None`` when some epoch is left without a rule."""
        doms = list(domains)
        if not all(doms):
            return None
        queue = [e for e, d in enumerate(doms) if d & (d - 1) == 0]
        done = set()
        while queue:
            e = queue.pop()
            if e in done:
                continue
            done.add(e)
            bit = doms[e]
            for f in self.peers[e]:
                if doms[f] & bit:
                    left = doms[f] & ~bit
                    if not left:
                        return None
                    doms[f] = left
                    if left & (left - 1) == 0:
                        queue.append(f)
        return doms

    def _undecided(self, doms: Sequence[int]) -> list[int]:
        return [e for e, d in enumerate(doms) if d & (d - 1)]

    def _one_group(self, undecided: Sequence[int]) -> bool:
        return all(self.epochs[e].current for e in undecided)

    def count(self, domains: Sequence[int]) -> int:
        """How many assignments of rules to epochs fit the domains and the overlaps."""
        doms = self.settle(domains)
        if doms is None:
            return 0
        free = self._undecided(doms)
        if self._one_group(free):
            return _forward([doms[e] for e in free])[-1].get((1 << len(free)) - 1, 0)
        return sum(1 for _ in self._search(doms, free))

    def feasible(self, domains: Sequence[int]) -> bool:
        doms = self.settle(domains)
        if doms is None:
            return False
        free = self._undecided(doms)
        if self._one_group(free):
            return bool(_forward([doms[e] for e in free])[-1].get((1 << len(free)) - 1, 0))
        return next(self._search(doms, free), None) is not None

    def marginals(self, domains: Sequence[int]) -> tuple[int, list[list[int]]]:
        """The number of consistent assignments, and for every epoch how many of them give it
        each rule (``counts[epoch][rule]``)."""
        counts = [[0] * RULE_COUNT for _ in self.epochs]
        doms = self.settle(domains)
        if doms is None:
            return 0, counts
        free = self._undecided(doms)
        if not self._one_group(free):
            total = 0
            for solution in self._search(doms, free):
                total += 1
                for e, rule in enumerate(solution):
                    counts[e][rule] += 1
            return total, counts
        sub = [doms[e] for e in free]
        forward, backward = _forward(sub), _backward(sub)
        full = (1 << len(free)) - 1
        total = forward[-1].get(full, 0)
        for e, d in enumerate(doms):
            if d & (d - 1) == 0 and total:
                counts[e][d.bit_length() - 1] = total
        for x, e in enumerate(free):
            bx = 1 << x
            for rule in range(RULE_COUNT):
                if not sub[x] >> rule & 1:
                    continue
                after = backward[rule + 1]
                counts[e][rule] = sum(ways * after.get(full ^ s ^ bx, 0)
                                      for s, ways in forward[rule].items() if not s & bx)
        return total, counts

    def sample(self, domains: Sequence[int], rng: random.Random) -> list[int] | None:
        """One consistent assignment (a rule per epoch) drawn uniformly; ``None`` if none."""
        doms = self.settle(domains)
        if doms is None:
            return None
        free = self._undecided(doms)
        values = [d.bit_length() - 1 if d & (d - 1) == 0 else -1 for d in doms]
        if not self._one_group(free):
            solutions = list(self._search(doms, free))
            return rng.choice(solutions) if solutions else None
        sub = [doms[e] for e in free]
        forward = _forward(sub)
        chosen = (1 << len(free)) - 1
        if not forward[-1].get(chosen, 0):
            return None
        for rule in range(RULE_COUNT - 1, -1, -1):
            # Either no epoch of ``chosen`` takes ``rule``, or one does: weigh each option by
            # the number of ways to give the rest of ``chosen`` the smaller rules.
            ticket = rng.randrange(forward[rule + 1][chosen])
            ticket -= forward[rule].get(chosen, 0)
            if ticket < 0:
                continue
            for x, e in enumerate(free):
                bx = 1 << x
                if chosen & bx and sub[x] >> rule & 1:
                    ticket -= forward[rule].get(chosen ^ bx, 0)
                    if ticket < 0:
                        values[e] = rule
                        chosen ^= bx
                        break
        return values

    def _search(self, doms: list[int], free: Sequence[int]) -> Iterator[list[int]]:
        """Every consistent assignment, by depth-first search with forward checking."""
        values = [d.bit_length() - 1 if d & (d - 1) == 0 else -1 for d in doms]
        order = sorted(free, key=lambda e: (self.epochs[e].first, e))
        live = list(doms)

        def extend(k: int) -> Iterator[list[int]]:
            if k == len(order):
                yield list(values)
                return
            e = order[k]
            options = live[e]
            while options:
                bit = options & -options
                options ^= bit
                touched = [f for f in self.peers[e] if values[f] < 0 and live[f] & bit]
                if any(live[f] == bit for f in touched):
                    continue
                for f in touched:
                    live[f] ^= bit
                values[e] = bit.bit_length() - 1
                yield from extend(k + 1)
                values[e] = -1
                for f in touched:
                    live[f] ^= bit

        return extend(0)


def _forward(doms: Sequence[int]) -> list[dict[int, int]]:
    """``table[r][S]``: ways to give the epochs in the set ``S`` distinct rules below ``r``."""
    return _layers(doms, range(RULE_COUNT))


def _backward(doms: Sequence[int]) -> list[dict[int, int]]:
    """``table[r][S]``: ways to give the epochs in ``S`` distinct rules from ``r`` up."""
    return _layers(doms, range(RULE_COUNT - 1, -1, -1))[::-1]


def _layers(doms: Sequence[int], rules: Iterable[int]) -> list[dict[int, int]]:
    """The subset-count layers after offering each of ``rules`` in turn (first layer: none)."""
    layer = {0: 1}
    tables = [layer]
    for rule in rules:
        holders = [1 << x for x, d in enumerate(doms) if d >> rule & 1]
        following = dict(layer)
        for s, ways in layer.items():
            for h in holders:
                if not s & h:
                    following[s | h] = following.get(s | h, 0) + ways
        layer = following
        tables.append(layer)
    return tables


# -- evidence -------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Evidence:
    """The epochs of a log and every clue, by the event (or known rule) it comes from.

    ``facts[k]`` is the ``k``-th known rule, as ``(player, number, rule)``; its clue is
    ``fact_clues[k]``.
    """

    timeline: Timeline
    event_clues: tuple[tuple[Clue, ...], ...]
    facts: tuple[tuple[int, int, Attribute], ...]
    fact_clues: tuple[Clue, ...]

    @classmethod
    def build(cls, players: int, events: Sequence[Event],
              known: Mapping[int, Sequence[Attribute]] | None = None) -> Evidence:
        """The evidence of ``events``; ``known[p]`` lists player ``p``'s rules by epoch (the
        last may be missing while a redraw is pending)."""
        epochs: list[Epoch] = []
        current = []
        for p in range(players):
            current.append(len(epochs))
            epochs.append(Epoch(p, 0, 0, None))
        event_clues: list[tuple[Clue, ...]] = []
        for index, event in enumerate(events):
            if isinstance(event, GuessOutcome):
                e = current[event.target]
                bit = 1 << event.rule
                event_clues.append(((e, bit if event.right else ALL_RULES & ~bit),))
                if event.right:
                    old = epochs[e]
                    epochs[e] = Epoch(old.player, old.number, old.first, index)
                    current[event.target] = len(epochs)
                    epochs.append(Epoch(old.player, old.number + 1, index + 1, None))
            else:
                mask = event.guest.mask
                event_clues.append(tuple(
                    (current[a.seat], mask if a.bars else ALL_RULES & ~mask)
                    for a in event.answers))
        timeline = Timeline(players, epochs)
        facts, fact_clues = [], []
        for player, rules in sorted((known or {}).items()):
            for number, rule in enumerate(rules[:len(timeline.by_player[player])]):
                facts.append((player, number, rule))
                fact_clues.append((timeline.epoch_of(player, number), rule.bit))
        return cls(timeline, tuple(event_clues), tuple(facts), tuple(fact_clues))

    def domains(self, events: Iterable[int] | None = None,
                facts: Iterable[int] | None = None) -> list[int]:
        """Every epoch's domain from the clues of the chosen events and facts (default all)."""
        doms = [ALL_RULES] * len(self.timeline)
        chosen_events = range(len(self.event_clues)) if events is None else events
        chosen_facts = range(len(self.fact_clues)) if facts is None else facts
        for i in chosen_events:
            for epoch, mask in self.event_clues[i]:
                doms[epoch] &= mask
        for k in chosen_facts:
            epoch, mask = self.fact_clues[k]
            doms[epoch] &= mask
        return doms


# -- the evidence of a whole log, kept up to date ----------------------------------------------


@dataclass(frozen=True, slots=True)
class Summary:
    """What the public events of a *whole* log (every event since the deal) say about the rules
    held now, updated event by event at a cost that does not grow with the log.

    In a whole log every past epoch ended with a right guess, which names its rule: past epochs
    are decided.  Their only bearing on the rules held now is that a decided epoch's rule is
    not the rule of any epoch it overlapped.  So the assignments of a whole log are counted by
    the current epochs alone, each with ``domains[p]`` (the AND of its clues) less
    ``excluded[p]`` (the rules of decided epochs that ended while it was held), provided the
    past itself was consistent (each revealed rule was still possible when it was revealed).
    :meth:`evidence` is that compact :class:`Evidence`: one epoch per player, the same counts,
    marginals and samples of the rules held now as :meth:`Evidence.build` over every event.
    """

    domains: tuple[int, ...]
    excluded: tuple[int, ...]
    firsts: tuple[int, ...]
    """The event each current epoch began at."""
    revealed: tuple[tuple[int, ...], ...]
    """Each player's past rules, by epoch (named by the right guesses that ended them)."""
    consistent: bool
    length: int
    """How many events it has read."""

    @classmethod
    def start(cls, players: int) -> Summary:
        return cls((ALL_RULES,) * players, (0,) * players, (0,) * players, ((),) * players,
                   True, 0)

    @classmethod
    def of(cls, players: int, events: Iterable[Event]) -> Summary:
        summary = cls.start(players)
        for event in events:
            summary = summary.after(event)
        return summary

    def after(self, event: Event) -> Summary:
        """The summary once ``event`` is read too."""
        index = self.length
        domains = list(self.domains)
        if not isinstance(event, GuessOutcome):
            mask = event.guest.mask
            for answer in event.answers:
                domains[answer.seat] &= mask if answer.bars else ALL_RULES & ~mask
            return Summary(tuple(domains), self.excluded, self.firsts, self.revealed,
                           self.consistent, index + 1)
        q, bit = event.target, 1 << event.rule
        if not event.right:
            domains[q] &= ALL_RULES & ~bit
            return Summary(tuple(domains), self.excluded, self.firsts, self.revealed,
                           self.consistent, index + 1)
        # A right guess decides q's epoch: its rule must still have been possible, and no
        # epoch held alongside it (every other player's current one) may hold that rule.
        consistent = self.consistent and bool(domains[q] & ~self.excluded[q] & bit)
        excluded = [mask | bit for mask in self.excluded]
        domains[q], excluded[q] = ALL_RULES, 0
        firsts = list(self.firsts)
        firsts[q] = index + 1
        revealed = list(self.revealed)
        revealed[q] += (int(event.rule),)
        return Summary(tuple(domains), tuple(excluded), tuple(firsts), tuple(revealed),
                       consistent, index + 1)

    def evidence(self, known: Mapping[int, Sequence[Attribute]] | None = None) -> Evidence:
        """The compact evidence of the rules held now (see the class's text); ``known[p]``
        lists player ``p``'s rules by epoch, as for :meth:`Evidence.build`."""
        players = len(self.domains)
        epochs = [Epoch(p, len(self.revealed[p]), self.firsts[p], None) for p in range(players)]
        consistent = self.consistent
        facts, fact_clues = [], []
        for player, rules in sorted((known or {}).items()):
            past = self.revealed[player]
            if tuple(int(rule) for rule in rules[:len(past)]) != past[:len(rules)]:
                consistent = False  # a card of the seat contradicts a right guess
            if len(rules) > len(past):
                rule = rules[len(past)]
                facts.append((player, len(past), rule))
                fact_clues.append((player, rule.bit))
        clues = tuple((p, self.domains[p] & ~self.excluded[p] if consistent else 0)
                      for p in range(players))
        return Evidence(Timeline(players, epochs), (clues,), tuple(facts), tuple(fact_clues))


# -- what one seat knows --------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Knowledge:
    """What one player may know: the table, the public events, their own rule by epoch and
    (when known) their hand.  ``seat is None`` is an onlooker who knows only the events.

    ``complete`` says the events are the whole game since the deal (a deduction puzzle's
    clues are an excerpt: the public record is not replayed from them).
    """

    table: Table
    events: tuple[Event, ...]
    seat: int | None
    rules: tuple[Attribute, ...] = ()
    hand: tuple[Guest, ...] | None = None
    complete: bool = True
    summary: Summary | None = field(default=None, repr=False)
    """The :class:`Summary` of ``events``, when the caller keeps one (a game in play does):
    then :attr:`counting` and :attr:`public` cost nothing that grows with the log."""
    record: Public | None = field(default=None, repr=False)
    """The public record after ``events``, when the caller keeps one."""

    @property
    def names(self) -> tuple[str, ...]:
        return self.table.players

    @cached_property
    def evidence(self) -> Evidence:
        known = {} if self.seat is None else {self.seat: self.rules}
        return Evidence.build(self.table.size, self.events, known)

    @cached_property
    def counting(self) -> Evidence:
        """Evidence for counting the assignments of the rules held *now*: the compact one of
        :class:`Summary` for a whole log whose summary is kept, else :attr:`evidence`.  Its
        epochs are not the log's epochs: index them through ``timeline.current`` only."""
        if self.summary is not None and self.complete and self.summary.length == len(self.events):
            known = {} if self.seat is None else {self.seat: self.rules}
            return self.summary.evidence(known)
        return self.evidence

    @cached_property
    def public(self) -> Public:
        return self.record if self.record is not None else replay(self.table, self.events)

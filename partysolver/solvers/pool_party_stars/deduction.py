"""The deduction engine: exact posteriors, and every certain deduction explained.

:func:`posterior` counts the assignments of rules to epochs consistent with what a seat knows
(:mod:`partysolver.models.pool_party_stars.evidence` does the counting) and reports, per player,
the probability of each rule for the rule held now, the certain deduction and the eliminated
rules.

:class:`Eliminator` explains them, in the style of Norvig's Sudoku solver: two primitives,
*eliminate* (a rule from an epoch) and the fixpoint of three propagation rules, each elimination
recorded with its reason:

1. a *clue*: an event (or a known card) says the epoch cannot hold the rule;
2. a *peer*: an overlapping epoch is known to hold the rule (no two players hold one rule at
   once);
3. a *Hall set*: ``k`` epochs held together are confined to ``k`` rules between them, so no
   other epoch held with all of them can hold one of those rules.

For one all-different group the Hall-set rule removes exactly the rules without support
(generalised arc consistency); in a whole log every epoch still undecided is held now, in one
group, so every rule the count eliminates is eliminated by propagation too, and a certain
deduction always has a chain: :meth:`Eliminator.explain` picks the reasons to cite (the fewest
events covering the eliminations, then the peers and Hall sets needed, recursively) and writes
them as steps in game terms.  A contradiction is a value (:attr:`Eliminator.contradiction`),
not an exception.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations

from ...models.pool_party_stars.evidence import Knowledge, Timeline
from ...models.pool_party_stars.game import (
    ALL_RULES,
    ATTRIBUTES,
    RULE_COUNT,
    Attribute,
    GuessOutcome,
    Proposal,
    rules_text,
)


def bits(mask: int) -> list[int]:
    return [r for r in range(RULE_COUNT) if mask >> r & 1]


def popcount(mask: int) -> int:
    return bin(mask).count("1")


# -- the posterior --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayerPosterior:
    """What is known of one player's current rule: how many consistent assignments give it
    each rule (``counts``) out of ``total``."""

    player: int
    epoch: int
    counts: tuple[int, ...]
    total: int

    @property
    def probabilities(self) -> tuple[float, ...]:
        return tuple(c / self.total if self.total else 0.0 for c in self.counts)

    @property
    def possible(self) -> tuple[Attribute, ...]:
        return tuple(a for a in ATTRIBUTES if self.counts[a])

    @property
    def eliminated(self) -> tuple[Attribute, ...]:
        return tuple(a for a in ATTRIBUTES if not self.counts[a])

    @property
    def certain(self) -> Attribute | None:
        possible = self.possible
        return possible[0] if len(possible) == 1 and self.total else None


@dataclass(frozen=True)
class Posterior:
    """The exact posterior of a seat (``total`` consistent assignments; 0: inconsistent)."""

    knowledge: Knowledge
    total: int
    players: tuple[PlayerPosterior, ...]
    counts: tuple[tuple[int, ...], ...] = field(repr=False)
    """Marginal counts of every epoch of the timeline (``counts[epoch][rule]``)."""

    @property
    def consistent(self) -> bool:
        return self.total > 0

    def of(self, player: int) -> PlayerPosterior:
        return self.players[player]

    def certain(self) -> list[tuple[int, Attribute]]:
        """The players (other than the seat) whose current rule is certain, with the rule."""
        found = []
        for post in self.players:
            rule = post.certain
            if rule is not None and post.player != self.knowledge.seat:
                found.append((post.player, rule))
        return found


def posterior(knowledge: Knowledge) -> Posterior:
    """The exact posterior of what ``knowledge``'s seat knows (of the rules held now: for a
    whole log with its :class:`~.evidence.Summary`, counted from the summary alone)."""
    evidence = knowledge.counting
    timeline = evidence.timeline
    total, counts = timeline.marginals(evidence.domains())
    players = tuple(PlayerPosterior(p, timeline.current[p], tuple(counts[timeline.current[p]]),
                                    total) for p in range(timeline.players))
    return Posterior(knowledge, total, players, tuple(tuple(c) for c in counts))


# -- propagation with reasons ---------------------------------------------------------------------

Item = tuple[str, int]
"""A source of clues: ``("event", index)`` or ``("fact", index)``."""


@dataclass(frozen=True, slots=True)
class Peer:
    """Eliminated because ``epoch`` holds ``rule`` and overlaps."""

    epoch: int
    rule: int


@dataclass(frozen=True, slots=True)
class Hall:
    """Eliminated because ``epochs`` are confined to the rules of ``mask`` between them."""

    epochs: tuple[int, ...]
    mask: int


Derived = Peer | Hall


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a chain of reasoning: its text, the events it cites (0-based) and its
    kind: ``clue`` (an answer or a wrong guess), ``reveal`` (a right guess), ``card`` (a card
    you hold), ``peer`` (a rule someone else holds at the same time), ``hall`` (rules a group
    takes between them) or ``so`` (a conclusion)."""

    text: str
    events: tuple[int, ...] = ()
    kind: str = "clue"

    def as_json(self) -> dict[str, object]:
        return {"text": self.text, "events": [i + 1 for i in self.events], "kind": self.kind}


@dataclass(frozen=True)
class Explanation:
    """Why ``player``'s current rule is ``rule``: a short chain of eliminations."""

    player: int
    rule: Attribute
    steps: tuple[Step, ...]

    @property
    def events(self) -> tuple[int, ...]:
        return tuple(sorted({i for step in self.steps for i in step.events}))

    @property
    def kinds(self) -> set[str]:
        """The kinds of step the chain uses (see :class:`Step`)."""
        return {step.kind for step in self.steps}

    @property
    def depth(self) -> int:
        """How many rules the chain decides on the way (its conclusions)."""
        return sum(step.kind == "so" for step in self.steps)


class Eliminator:
    """Propagation over one seat's evidence, recording why each rule left each epoch."""

    def __init__(self, knowledge: Knowledge, events: Sequence[int] | None = None) -> None:
        """Propagate the clues of every event (or of ``events`` only) and every card held."""
        self.knowledge = knowledge
        self.evidence = knowledge.evidence
        self.timeline: Timeline = self.evidence.timeline
        self.names = knowledge.names
        chosen = range(len(self.evidence.event_clues)) if events is None else events
        self.domains = [ALL_RULES] * len(self.timeline)
        self.clues: dict[tuple[int, int], list[Item]] = {}
        """Every clue eliminating a rule from an epoch, by (epoch, rule)."""
        self.derived: dict[tuple[int, int], Derived] = {}
        self.contradiction: str | None = None
        for i in chosen:
            for epoch, mask in self.evidence.event_clues[i]:
                self._clue(("event", i), epoch, mask)
        for k, (epoch, mask) in enumerate(self.evidence.fact_clues):
            self._clue(("fact", k), epoch, mask)
        self._propagate()

    # -- the primitives -------------------------------------------------------------------------

    def _clue(self, item: Item, epoch: int, mask: int) -> None:
        for rule in bits(ALL_RULES & ~mask):
            self.clues.setdefault((epoch, rule), []).append(item)
        self.domains[epoch] &= mask
        if not self.domains[epoch] and self.contradiction is None:
            self.contradiction = f"{self.epoch_name(epoch)} can be none of the twelve rules"

    def _eliminate(self, epoch: int, rule: int, reason: Derived) -> bool:
        """Remove ``rule`` from ``epoch``; ``False`` if it was not there."""
        if not self.domains[epoch] >> rule & 1:
            return False
        self.domains[epoch] &= ~(1 << rule)
        self.derived[(epoch, rule)] = reason
        if not self.domains[epoch] and self.contradiction is None:
            self.contradiction = f"{self.epoch_name(epoch)} can be none of the twelve rules"
        return True

    def _propagate(self) -> None:
        cliques = self.timeline.cliques()
        changed = True
        while changed and self.contradiction is None:
            changed = False
            for e, d in enumerate(self.domains):
                if d and d & (d - 1) == 0:
                    rule = d.bit_length() - 1
                    for f in self.timeline.peers[e]:
                        changed |= self._eliminate(f, rule, Peer(e, rule))
            if changed:
                continue
            for clique in cliques:
                for size in range(2, len(clique)):
                    for group in combinations(clique, size):
                        changed |= self._hall(clique, group)
                        if self.contradiction:
                            return
                    if changed:
                        break
                if changed:
                    break

    def _hall(self, clique: Sequence[int], group: tuple[int, ...]) -> bool:
        union = 0
        for e in group:
            union |= self.domains[e]
        found = popcount(union)
        if found < len(group):
            names = " and ".join(self.epoch_name(e) for e in group)
            self.contradiction = f"{names} need {len(group)} different rules among {found}"
            return False
        if found > len(group):
            return False
        changed = False
        for f in clique:
            if f not in group:
                for rule in bits(self.domains[f] & union):
                    changed |= self._eliminate(f, rule, Hall(group, union))
        return changed

    # -- words ----------------------------------------------------------------------------------

    def epoch_name(self, epoch: int) -> str:
        e = self.timeline.epochs[epoch]
        who = "your" if e.player == self.knowledge.seat else f"{self.names[e.player]}'s"
        if len(self.timeline.by_player[e.player]) == 1:
            return f"{who} rule"
        if e.number == 0:
            return f"{who} first rule (revealed at event {e.end + 1})"
        drawn = f"{who} rule drawn after event {e.first}"
        return drawn if e.last is None else f"{drawn} (revealed at event {e.last + 1})"

    def _is(self, epoch: int) -> str:
        return "is" if self.timeline.epochs[epoch].current else "was"

    def _item_step(self, item: Item, epoch: int) -> Step:
        """What one clue says about one epoch."""
        kind, index = item
        name = self.epoch_name(epoch)
        if kind == "fact":
            rule = self.evidence.facts[index][2]
            held = "hold" if self.timeline.epochs[epoch].current else "held"
            return Step(f"you {held} the card Forbidden {rule.label}: {name} {self._is(epoch)} "
                        f"{rule.label}", kind="card")
        event = self.knowledge.events[index]
        head = f"#{index + 1}"
        if isinstance(event, GuessOutcome):
            who = self.names[event.guesser]
            if event.right:
                return Step(f"{head} {who} guessed {event.rule.label} right: "
                            f"{name} was {event.rule.label}", (index,), kind="reveal")
            return Step(f"{head} {who} guessed {event.rule.label} wrong: {name} "
                        f"{self._is(epoch)} not {event.rule.label}", (index,))
        assert isinstance(event, Proposal)
        player = self.timeline.epochs[epoch].player
        answer = next(a for a in event.answers if a.seat == player)
        guest = event.guest
        verb = self._is(epoch)
        if answer.bars:
            return Step(f"{head} {self.names[player]} barred {guest}: {name} {verb} "
                        f"{rules_text(guest.mask)}", (index,))
        return Step(f"{head} {self.names[player]} let {guest} in: {name} {verb} not "
                    f"{rules_text(guest.mask)}", (index,))

    # -- explanations -----------------------------------------------------------------------------

    def explain(self, player: int, epoch: int | None = None) -> Explanation | None:
        """The chain proving ``player``'s rule (current epoch by default), if it is decided."""
        e = self.timeline.current[player] if epoch is None else epoch
        d = self.domains[e]
        if self.contradiction is not None or d & (d - 1) or not d:
            return None
        steps: list[Step] = []
        self._justify(e, ALL_RULES & ~d, steps, set())
        rule = ATTRIBUTES[d.bit_length() - 1]
        steps.append(Step(f"so {self.epoch_name(e)} {self._is(e)} {rule.label}", kind="so"))
        return Explanation(player, rule, tuple(steps))

    def _justify(self, epoch: int, mask: int, steps: list[Step],
                 shown: set[tuple[int, int]]) -> None:
        """Append the steps proving that ``epoch`` holds none of the rules in ``mask``.

        Every derived reason was recorded after the eliminations it rests on, so the
        recursion follows the order of propagation and ends."""
        needed = [r for r in bits(mask) if (epoch, r) not in shown]
        if not needed:
            return
        # The clues first: the fewest items covering what they can (greedy set cover).
        left = {r for r in needed if (epoch, r) in self.clues}
        cover: list[Item] = []
        while left:
            candidates: dict[Item, set[int]] = {}
            for r in left:
                for item in self.clues[(epoch, r)]:
                    candidates.setdefault(item, set()).add(r)
            item, covered = max(candidates.items(), key=lambda kv: (len(kv[1]), -kv[0][1]))
            cover.append(item)
            shown.update((epoch, r) for r in covered)
            left -= covered
        for item in sorted(cover, key=lambda it: (it[0] != "fact", it[1])):
            steps.append(self._item_step(item, epoch))
        # Then what propagation derived.
        for r in needed:
            if (epoch, r) in shown:
                continue
            reason = self.derived[(epoch, r)]
            if isinstance(reason, Peer):
                self._decided(reason.epoch, steps, shown)
                label = ATTRIBUTES[reason.rule].label
                steps.append(Step(f"{self.epoch_name(reason.epoch)} {self._is(reason.epoch)} "
                                  f"{label} at the same time, so {self.epoch_name(epoch)} "
                                  f"{self._is(epoch)} not {label}", kind="peer"))
                shown.add((epoch, r))
            else:
                for g in reason.epochs:
                    self._justify(g, ALL_RULES & ~reason.mask, steps, shown)
                group = " and ".join(self.epoch_name(g) for g in reason.epochs)
                hit = [x for x in bits(reason.mask) if self.derived.get((epoch, x)) == reason]
                steps.append(Step(f"{group} take {rules_text(reason.mask)} between them, so "
                                  f"{self.epoch_name(epoch)} {self._is(epoch)} not "
                                  f"{rules_text(sum(1 << x for x in hit))}", kind="hall"))
                shown.update((epoch, x) for x in hit)

    def _decided(self, epoch: int, steps: list[Step], shown: set[tuple[int, int]]) -> None:
        """Append the proof that ``epoch`` holds its one remaining rule (once)."""
        d = self.domains[epoch]
        others = ALL_RULES & ~d
        if all((epoch, r) in shown for r in bits(others)):
            return
        before = len(steps)
        self._justify(epoch, others, steps, shown)
        if len(steps) == before + 1 and steps[-1].kind in ("reveal", "card"):
            return  # one card or one right guess says it all: no conclusion to draw
        steps.append(Step(f"so {self.epoch_name(epoch)} {self._is(epoch)} "
                          f"{ATTRIBUTES[d.bit_length() - 1].label}", kind="so"))


def explain_all(knowledge: Knowledge, post: Posterior | None = None) -> list[Explanation]:
    """An explanation for every certain deduction about the other players' current rules."""
    post = post or posterior(knowledge)
    engine = Eliminator(knowledge)
    found = []
    for player, _ in post.certain():
        explanation = engine.explain(player)
        if explanation is not None:
            found.append(explanation)
    return found

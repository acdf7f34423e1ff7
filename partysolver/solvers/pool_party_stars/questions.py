"""The optimal questions: which proposals identify every other seat's rule in the fewest.

The question (issue 32, pinned down in ``docs/rules.md``, "The questions solitaire"): one seat,
at the start of a game, knows its own rule and its hand.  The other seats' rules are, as the
deduction engine says, every injective assignment of the eleven other rules, all equally
likely.  The seat proposes a guest from its hand; the answers are the game's (asked clockwise
from its left, stopping at the first bar), so a proposal tells it *who barred first, or
nobody*; then it draws a guest, uniformly from the guests it has not seen, while the deck it
draws from has one.  Other seats' turns are not counted and tell it nothing; the seat never
guesses.  How many proposals until exactly one assignment is left?

* :meth:`Search.expected` -- the fewest proposals on average (over the rules and the draws);
* :meth:`Search.worst` -- the fewest that suffice whatever the rules and the draws;
* :meth:`Search.policy_expected` -- the same average for a fixed policy: the hint's (the
  proposal most likely to be let in, then the most informative) or the entropy policy (the
  most informative);
* :meth:`Search.lookahead_expected` -- the same for the *lookahead* policy (the proposal
  that is best if the entropy policy plays on after it): an upper bound of the optimum;
* :class:`FreeSearch` (:func:`free_search`) -- the *free* variant, any guest of the deck at
  every turn (the Mastermind and Wordle form); its values are proven lower bounds of the hand
  game's, and :meth:`Search.lower_bound` raises them by playing the hand game for the first
  few proposals;
* :func:`waiting_bound` -- another proven lower bound, the draws a guest that tells the truth
  from a rival must wait for; :meth:`Search.lower_bound`'s leaves take the larger of the two.

**Belief states.**  A state is the set ``C`` of assignments still consistent (a bit mask over
all the assignments), the hand and the guests it may draw, and the draws left.  Guests are
kept only by their *split* of ``C`` -- the partition of ``C`` by the answer the guest would
get -- because two guests with the same split of ``C`` have the same split of every subset:
they are interchangeable from then on.  A split with one part is *useless* (written ``()``).
The memo key is ``C`` with the sorted splits of the hand and of the pool (with counts): every
symmetry of the deck and of the rules that maps one state to another with the same splits
shares its entry.

**Pruning.**  A proposal costs 1 and leaves parts ``P`` of ``C``, each needing at least the
information-theoretic number of further proposals (:func:`expected_bound`: the least average
depth of a tree whose nodes have at most ``b`` children -- ``b`` the number of answers -- and
for two players, whose "barred" child keeps at most three rules).  Proposals are tried best
bound first, and one whose bound cannot beat the best found is not expanded.  The values are
exact: pruning only skips proposals proven no better.
"""

from __future__ import annotations

import contextlib
import math
import os
import pickle
import random
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, lru_cache, partial
from itertools import combinations, permutations
from math import comb
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ...models.pool_party_stars.game import (
    HAND_SIZE,
    HOUSE_DECK,
    RULE_COUNT,
    Attribute,
    Guest,
)

if TYPE_CHECKING:
    from ...models.pool_party_stars.evidence import Knowledge

Split = tuple[int, ...]
"""A guest's split of a belief state: its part for each answer (bit masks; ``split[k]``: barred
first by the ``k``-th seat asked, the last: let in by all).  Only the partition matters to the
optimal search (:func:`partition`); the hint's policy needs to know which part is "let in"."""

Pool = tuple[tuple[Split, int], ...]
"""The guests that may be drawn, by split, with how many of each (sorted)."""

INF = math.inf


def popcount(mask: int) -> int:
    return mask.bit_count()


# -- the problem ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Problem:
    """One seat's questions: ``players`` at the table, the seat's rule ``mine``, its
    ``hand``, the guests it has not seen (``unseen``: the deck less its hand) and how many it
    will draw at most (``draws``: the deck's stock after the deal).  ``consistent`` (default:
    all) are the assignments still possible, each as the rules of the other seats in the order
    they are asked."""

    players: int
    mine: Attribute
    hand: tuple[Guest, ...]
    unseen: tuple[Guest, ...]
    draws: int
    consistent: tuple[tuple[int, ...], ...] | None = None
    assignments: tuple[tuple[int, ...], ...] = field(init=False, repr=False)
    """Every assignment of rules to the other seats, in the order they are asked (the seat's
    left first): each a tuple of distinct rules, none the seat's own."""

    def __post_init__(self) -> None:
        others = [r for r in range(RULE_COUNT) if r != self.mine]
        object.__setattr__(self, "assignments",
                           tuple(permutations(others, self.players - 1)))
        if self.consistent is not None:
            known = set(self.assignments)
            for assignment in self.consistent:
                if assignment not in known:
                    raise ValueError(f"consistent: {assignment} is not an assignment of "
                                     "distinct rules other than the seat's")

    @classmethod
    def deal(cls, players: int, mine: Attribute, hand: Sequence[Guest],
             deck: Sequence[Guest]) -> Problem:
        """The start of a game: ``hand`` dealt from ``deck`` to a table of ``players``."""
        if not 2 <= players <= 6:
            raise ValueError("players: from 2 to 6")
        if len(deck) < HAND_SIZE * players:
            raise ValueError(f"deck: {len(deck)} guests cannot deal {HAND_SIZE} to each of "
                             f"{players} players")
        left = list(deck)
        for guest in hand:
            if guest not in left:
                raise ValueError(f"hand: {guest} is not in the deck (or is there fewer times)")
            left.remove(guest)
        return cls(players, mine, tuple(hand), tuple(left), len(deck) - HAND_SIZE * players)

    @property
    def all(self) -> int:
        return (1 << len(self.assignments)) - 1

    @property
    def belief(self) -> int:
        """The bit mask of the consistent assignments."""
        if self.consistent is None:
            return self.all
        index = {a: i for i, a in enumerate(self.assignments)}
        return sum(1 << index[a] for a in set(self.consistent))

    def parts(self, guest: Guest) -> tuple[int, ...]:
        """The assignments by the answer ``guest`` gets: ``parts[k]`` barred first by the
        ``k``-th seat asked, the last part let in by all."""
        return _parts(self.players, int(self.mine), guest.mask)

    def split(self, guest: Guest, belief: int) -> Split:
        return _restrict(self.parts(guest), belief)

    def unidentifiable(self) -> Fraction:
        """The exact chance that the guests the seat will ever see (its hand, then its draws)
        cannot tell the true assignment from another one.  It does not depend on the
        proposals: the seat proposes every guest it holds until it is done, and which guests
        it draws does not depend on what it proposed.  So when it is above 0 no policy is
        ever done there, and every expected number of proposals is infinite.

        The guests never drawn are a uniform subset of ``unseen`` (all but ``draws`` of
        them); the assignment is uniform among the consistent ones.  For each, the sets of
        unseen guests that alone tell it from another (no hand guest does) are kept where
        they fit among the never drawn; the chance that one of them is never drawn is
        counted by inclusion and exclusion over their unions (each union that still fits
        counts the subsets holding it).  Its cost grows with the square of the consistent
        assignments and, through the guests never drawn, exponentially: some 0.1 s at a
        4-player deal (990 assignments, 9 never drawn); far more with 5 or 6 players."""
        never = max(0, len(self.unseen) - self.draws)
        members = _bits(self.belief, len(self.assignments)).nonzero()[0]
        if len(members) < 2:
            return Fraction(0)
        # every consistent assignment's answer to every guest (a row each)
        answers = np.array([sum(k * _bits(part, len(self.assignments))[members]
                                for k, part in enumerate(self.parts(guest)))
                            for guest in (*self.hand, *self.unseen)], dtype=np.int8).T
        hand, unseen = answers[:, :len(self.hand)], answers[:, len(self.hand):]
        # a set of unseen guests as a bit mask: in 64-bit integers while they fit
        wide = len(self.unseen) > 62
        weights = 1 << np.arange(len(self.unseen), dtype=object if wide else np.int64)
        count = 0
        # only the assignments the hand cannot tell apart need its draws
        _, group = np.unique(hand, axis=0, return_inverse=True)
        for rows in (np.flatnonzero(group.ravel() == g) for g in range(group.max() + 1)):
            together = unseen[rows]
            for row in range(len(rows)):
                differ = np.delete(together, row, axis=0) != together[row]
                small = differ[differ.sum(axis=1) <= never]
                # Each other's set of telling guests, where all of them may be never drawn
                # (an empty set: no guest tells them apart, never drawn for certain); only
                # the minimal sets matter: a set holding another is never drawn only if that
                # one is.
                masks = [int(weights[d].sum()) for d in small] if wide else \
                    np.unique(small.astype(np.int64) @ weights).tolist()
                sets = sorted(set(masks), key=popcount)
                sets = [a for n, a in enumerate(sets) if not any(b & a == b for b in sets[:n])]
                count += _subsets_holding_one(sets, len(self.unseen), never)
        return Fraction(count, len(members) * comb(len(self.unseen), never))

    def start(self, labelled: bool = False) -> State:
        """The first state.  Guests are kept by their partition (the optimal searches), or
        ``labelled`` by answer (a fixed policy)."""
        c = self.belief
        shape = _restrict if labelled else _partition_of
        hand = tuple(sorted(shape(self.parts(g), c) for g in self.hand))
        return State(c, hand, _pool((shape(self.parts(g), c) for g in self.unseen), c),
                     self.draws, labelled)


def _bits(mask: int, size: int) -> np.ndarray:
    """The ``size`` low bits of ``mask`` as an array of 0 and 1 (bit ``i`` at ``[i]``)."""
    raw = np.frombuffer(mask.to_bytes((size + 7) // 8, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little")[:size]


def _subsets_holding_one(sets: Sequence[int], size: int, never: int) -> int:
    """How many ``never``-subsets of ``size`` items hold at least one of ``sets`` (bit masks,
    each of at most ``never`` items): inclusion and exclusion over the unions that fit."""
    total = 0

    def walk(start: int, union: int, sign: int) -> None:
        nonlocal total
        for k in range(start, len(sets)):
            joined = union | sets[k]
            bits = popcount(joined)
            if bits <= never:
                total += sign * comb(size - bits, never - bits)
                walk(k + 1, joined, -sign)

    walk(0, 0, 1)
    return total


@cache
def _parts(players: int, mine: int, mask: int) -> tuple[int, ...]:
    others = [r for r in range(RULE_COUNT) if r != mine]
    parts = [0] * players
    for index, assignment in enumerate(permutations(others, players - 1)):
        k = next((j for j, r in enumerate(assignment) if mask >> r & 1), players - 1)
        parts[k] |= 1 << index
    return tuple(parts)


def _restrict(parts: Iterable[int], belief: int) -> Split:
    return tuple(p & belief for p in parts)


def partition(split: Split) -> Split:
    """The nonempty parts, sorted; ``()`` when there is one (the guest tells nothing)."""
    found = sorted(p for p in split if p)
    return tuple(found) if len(found) > 1 else ()


def _partition_of(parts: Iterable[int], belief: int) -> Split:
    return partition(_restrict(parts, belief))


def _pool(splits: Iterable[Split], belief: int) -> Pool:
    counts: dict[Split, int] = {}
    for split in splits:
        counts[split] = counts.get(split, 0) + 1
    return tuple(sorted(counts.items()))


@dataclass(frozen=True, slots=True)
class State:
    """A belief state (see the module's text): guests by partition, or ``labelled``."""

    belief: int
    hand: tuple[Split, ...]
    pool: Pool
    draws: int
    labelled: bool = False

    @property
    def key(self) -> tuple[object, ...]:
        return (self.belief, self.hand, self.pool,
                min(self.draws, sum(c for _, c in self.pool)))


def children(state: State, split: Split) -> list[tuple[int, float, list[tuple[float, State]]]]:
    """What proposing a guest of ``split`` from the hand leads to: for each part ``P`` (an
    answer), its probability and the states after the draw, each with its probability."""
    hand = list(state.hand)
    hand.remove(split)
    size = popcount(state.belief)
    shape = _restrict if state.labelled else _partition_of
    labelled = state.labelled
    found = []
    for part in split or (state.belief,):
        if not part:
            continue
        weight = popcount(part) / size
        if popcount(part) == 1:
            found.append((part, weight, [(1.0, State(part, (), (), 0, labelled))]))
            continue
        kept = [shape(s or (state.belief,), part) for s in hand]
        if state.draws > 0 and state.pool:
            counts: dict[Split, int] = {}
            for s, c in state.pool:
                t = shape(s or (state.belief,), part)
                counts[t] = counts.get(t, 0) + c
            pool = tuple(sorted(counts.items()))
            total = sum(counts.values())
            after = []
            for index, (drawn, count) in enumerate(pool):
                # The pool less the guest drawn: slices keep it sorted and share its entries
                # with the siblings' pools (the memo keys hold them).
                rest = pool[:index] + pool[index + 1:] if count == 1 else \
                    (*pool[:index], (drawn, count - 1), *pool[index + 1:])
                after.append((count / total, State(part, tuple(sorted([*kept, drawn])), rest,
                                                   state.draws - 1, labelled)))
            found.append((part, weight, after))
        else:
            found.append((part, weight, [(1.0, State(part, tuple(sorted(kept)), (), 0,
                                                     labelled))]))
    return found


# -- lower bounds ---------------------------------------------------------------------------------


@cache
def depth_sums(answers: int, limit: int, small: int) -> tuple[int, ...]:
    """``sums[k]``: the least total depth of ``k`` leaves in a tree whose nodes have at most
    ``answers`` children; with ``small`` (two players), one child of every node (the "barred"
    one) has at most ``small`` leaves and the other takes the rest.

    Without ``small``: with ``d = ceil(log_b k)``, a tree of least total depth has its leaves
    at depths ``d - 1`` and ``d``; at most ``(b^d - k) // (b - 1)`` of them fit at ``d - 1``
    (each takes the room of ``b`` at ``d``), so the least total is ``k d - that``."""
    sums = [0, 0]
    for k in range(2, limit + 1):
        if small:
            best = min(sums[a] + sums[k - a] for a in range(1, min(small, k - 1) + 1))
            sums.append(k + best)
        else:
            d = 1
            while answers ** d < k:
                d += 1
            sums.append(k * d - (answers ** d - k) // (answers - 1))
    return tuple(sums)


def worst_bounds(answers: int, limit: int, small: int) -> tuple[int, ...]:
    """``bound[k]``: the fewest proposals that can identify one of ``k`` assignments for
    sure (same trees as :func:`depth_sums`)."""
    bound = [0, 0]
    for k in range(2, limit + 1):
        if small:
            bound.append(1 + min(max(bound[a], bound[k - a])
                                 for a in range(1, min(small, k - 1) + 1)))
        else:
            bound.append(math.ceil(math.log(k, answers) - 1e-12))
    return tuple(bound)


@cache
def expected_wait(unseen: int, separating: int, draws: int) -> float:
    """``E[min(p, draws)]``, ``p`` the place of the first of ``separating`` guests in a uniform
    order of ``unseen`` (``p`` past the end when there is none): the sum over ``j < draws`` of
    the chance that the first ``j`` draws all miss them."""
    total, miss = 0.0, 1.0
    for j in range(min(draws, unseen - separating + 1, unseen)):
        total += miss
        miss *= (unseen - separating - j) / (unseen - j)
    return total


WAITING_PAIRS = 4
"""How many of the hardest rivals of each assignment the waiting bound counts together (the
chance that one of them is still waiting is taken by inclusion and exclusion over their
subsets: 2^k terms)."""

WAITING_ARRAYS = 16
"""From how many assignments :func:`waiting_bound` counts over arrays (below, pair by pair is
quicker: ``benchmarks/pool_party_stars_waiting.py``)."""


def waiting_bound(state: State, pairs: int = WAITING_PAIRS) -> float:
    """A proven lower bound of the least expected number of proposals from ``state``: the
    *waiting bound* (issue 32).

    Let ``t`` be the true assignment (uniform over ``C``, as every consistent assignment is
    equally likely).  The seat is done only once, for every other ``c`` in ``C``, it has
    proposed a guest whose answer differs between ``t`` and ``c``, and it can propose only
    guests in its hand.  If no guest of the hand tells ``t`` from ``c``, such a guest must be
    drawn first: at the earliest at draw ``p`` (the first place, in the order of the draws,
    of the ``m`` guests of the pool that tell them apart), then proposed at proposal ``p +
    1``.  Which guests come in which order does not depend on what the seat proposes, so for
    *every* policy and every ``t`` and order, the number of proposals is at least ``1`` (``C``
    has two assignments or more) and at least ``min(p_c, draws) + 1`` for every such ``c``.
    (When no telling guest is ever drawn the seat is never done; in the game
    :func:`spent_lower` bounds, a spent hand not done goes on with the guests never drawn,
    and a telling guest among those comes after the ``draws`` proposals that preceded the
    draws and the last guests of the hand: the bound holds there too.)  Its expectation over
    the order is therefore a lower bound of every policy's, and its average over ``t`` one of
    the optimum's.

    The expectation of the largest ``min(p_c, draws)`` is counted exactly over the ``pairs``
    rivals of ``t`` that the fewest pool guests tell apart from it (a maximum over fewer
    rivals is smaller, so the bound stays proven): by inclusion and exclusion, the chance that
    one of them is still untold after ``j`` draws is a sum over their subsets of the chance
    that the first ``j`` draws miss every guest telling any of the subset from ``t``.

    It complements the free variant's value, which counts information but not waiting: near
    the end of a game, two or three assignments left that only a few guests tell apart, the
    free variant needs one proposal and the hand game must wait for one of those guests.

    Counted over arrays (:func:`waiting_bound_plain`, the same pair by pair, is quicker below
    ``WAITING_ARRAYS`` assignments and answers there): the assignments of ``C`` that the
    hand's answers do not tell apart form groups, every untold pair lies in one, and the
    pool's answers give, for all the pairs at once, how many guests tell each apart."""
    belief = state.belief
    if popcount(belief) < WAITING_ARRAYS:
        return waiting_bound_plain(state, pairs)
    unseen = sum(count for _, count in state.pool)
    draws = min(state.draws, unseen)
    size = belief.bit_length()
    members = _bits(belief, size).nonzero()[0]
    signature = np.zeros(len(members), dtype=np.int64)
    for split in state.hand:
        signature = signature * 8 + _answers(split, size)[members]
    # By their answers to the hand (ties by bit): each group's members in a row of places.
    order = np.argsort(signature, kind="stable")
    signature = signature[order]
    starts = np.flatnonzero(np.r_[True, signature[1:] != signature[:-1]])
    sizes = np.diff(np.r_[starts, len(members)])
    t_at = np.flatnonzero(np.repeat(sizes > 1, sizes))  # the places of the t with rivals
    total = float(len(members) - len(t_at))  # the others: one proposal
    if not len(t_at):
        return total / len(members)
    k = np.repeat(sizes, sizes)[t_at]  # each t's group size
    first = np.repeat(starts, sizes)[t_at]
    # Every pair (t, c) of two members of a group, by t then c.
    t_of = np.repeat(np.arange(len(t_at)), k)
    c_at = np.repeat(first, k) + np.arange(len(t_of)) - np.repeat(np.cumsum(k) - k, k)
    keep = t_at[t_of] != c_at
    t_of, c_at = t_of[keep], c_at[keep]
    if state.pool:
        placed = members[order]
        labels = np.stack([_answers(split, size)[placed] for split, _ in state.pool])
        weights = np.array([count for _, count in state.pool], dtype=np.int64)
    else:
        labels = np.zeros((1, len(members)), dtype=np.int8)
        weights = np.zeros(1, dtype=np.int64)
    tells = labels[:, t_at[t_of]] != labels[:, c_at]  # guests x pairs: tells t from c
    # Each t's hardest rivals: the fewest telling guests, ties by bit.
    ranked = np.lexsort((c_at, weights @ tells, t_of))
    place = np.arange(len(ranked)) - np.repeat(np.cumsum(k - 1) - (k - 1), k - 1)
    rivals = min(pairs, int(k.max()) - 1)
    near = place < rivals
    # A t with fewer rivals: any pair stands in for the missing ones, and every subset
    # holding one is left out below.
    chosen = np.zeros((len(k), rivals), dtype=np.int64)
    chosen[t_of[ranked[near]], place[near]] = ranked[near]
    waits = _waits(unseen, draws)
    wait = np.zeros(len(k))
    for subset in range(1, 1 << rivals):
        picked = [j for j in range(rivals) if subset >> j & 1]
        union = tells[:, chosen[:, picked[0]]]
        for j in picked[1:]:
            union = union | tells[:, chosen[:, j]]
        sign = 1.0 if len(picked) % 2 else -1.0
        wait += np.where(k - 1 > picked[-1], sign * waits[weights @ union], 0.0)
    total += len(k) + float(wait.sum())
    return total / len(members)


@lru_cache(maxsize=1 << 17)
def _answers(split: Split, size: int) -> np.ndarray:
    """Each of the first ``size`` assignments' answer to a guest of ``split``: the index of
    its part (0 for all, a useless guest's ``()``)."""
    answers = np.zeros(size, dtype=np.int8)
    for k, part in enumerate(split):
        answers[_bits(part, size).astype(bool)] = k
    answers.flags.writeable = False  # shared by every caller
    return answers


@cache
def _waits(unseen: int, draws: int) -> np.ndarray:
    """:func:`expected_wait` for every number of separating guests from 0 to ``unseen``."""
    waits = np.array([expected_wait(unseen, m, draws) for m in range(unseen + 1)])
    waits.flags.writeable = False  # shared by every caller
    return waits


def waiting_bound_plain(state: State, pairs: int = WAITING_PAIRS) -> float:
    """:func:`waiting_bound`, pair by pair over bit masks: the plain reference the fast
    one is held equal to (tests, and the baseline of ``benchmarks/pool_party_stars_waiting.py``)."""
    belief = state.belief
    if belief & (belief - 1) == 0:
        return 0.0
    unseen = sum(count for _, count in state.pool)
    draws = min(state.draws, unseen)
    total = 0.0
    for tells, rivals in _untold(belief, state.hand, state.pool):
        if not rivals:
            total += 1.0
            continue
        chosen = [c for _, c in sorted(rivals)[:pairs]]
        wait = 0.0
        for size in range(1, len(chosen) + 1):
            sign = 1.0 if size % 2 else -1.0
            for subset in combinations(chosen, size):
                union = 0
                for c in subset:
                    union |= c
                wait += sign * expected_wait(
                    unseen, sum(count for mask, count in tells if mask & union), draws)
        total += 1.0 + wait
    return total / popcount(belief)


def waiting_worst(belief: int, hand: Iterable[Split], pool: Pool, draws: int,
                  drawn_first: bool = False) -> float:
    """A proven lower bound of the least worst case from a state (``inf``: no policy is sure
    to be done): the waiting bound against draws dealt by an adversary.

    For the true assignment ``t`` and a rival ``c`` that no guest of the hand tells from it,
    the draws can bring the ``u - m`` guests of the pool that do not tell them apart first, so
    the first that does comes at draw ``u - m + 1`` at best, and is proposed after it: at least
    ``u - m + 2`` proposals, whatever the policy (if that draw is past the last, the seat may
    never be done).  The bound is the largest over ``t`` and ``c`` (1 when the hand tells every
    pair: two assignments or more take a proposal).  ``drawn_first``: the state just after a
    proposal, its draw still to come (then ``u - m + 1`` further proposals).  On the house
    deck's 2-player deals it is the least worst case itself (25 on each of 24)."""
    if belief & (belief - 1) == 0:
        return 0.0
    unseen = sum(count for _, count in pool)
    draws = min(draws, unseen)
    best = 1.0
    for _, rivals in _untold(belief, hand, pool):
        for telling, _ in rivals:
            last = unseen - telling + 1
            if last > draws:
                return INF
            best = max(best, last if drawn_first else last + 1)
    return best


def _untold(belief: int, hand: Iterable[Split], pool: Pool
            ) -> Iterator[tuple[list[tuple[int, int]], list[tuple[int, int]]]]:
    """For each assignment ``t`` of ``belief``: its *rivals*, the assignments that no guest of
    the hand tells from it, each as (how many guests of the pool do, its bit); and the pool's
    guests that tell ``t`` from one of those rivals, as (the assignments each tells from
    ``t``, how many such guests).  (The other guests of the pool tell no rival: every count
    over rivals leaves them out, so they are not listed.)"""
    hand = tuple(hand)
    truth = belief
    while truth:
        t = truth & -truth
        truth ^= t
        told = 0
        for split in hand:
            told |= belief & ~_part_of(split, t, belief)
        untold = belief & ~t & ~told
        if not untold:
            yield [], []
            continue
        tells = [(mask, count) for split, count in pool
                 if (mask := belief & ~_part_of(split, t, belief)) & untold]
        rivals = []
        while untold:
            c = untold & -untold
            untold ^= c
            rivals.append((sum(count for mask, count in tells if mask & c), c))
        yield tells, rivals


def _part_of(split: Split, t: int, belief: int) -> int:
    """The part of ``split`` holding the assignment ``t`` (the whole belief for a useless
    guest)."""
    for part in split:
        if part & t:
            return part
    return belief


# -- the search -----------------------------------------------------------------------------------


class Search:
    """Exact values of belief states of one table size, memoized (see the module's text)."""

    def __init__(self, players: int, assignments: int) -> None:
        self.players = players
        small = 3 if players == 2 else 0
        self.sums = depth_sums(players, assignments, small)
        self.bounds = worst_bounds(players, assignments, small)
        self.memo_e: dict[tuple[object, ...], float] = {}
        self.memo_w: dict[tuple[object, ...], float] = {}
        self.memo_p: dict[tuple[object, ...], float] = {}
        self.nodes = 0
        self.deadline: float | None = None
        """A :func:`time.monotonic` time past which the searches raise :class:`TimeUp` (what
        they finished stays in the tables, exact)."""

    def _tick(self) -> None:
        self.nodes += 1
        if self.deadline is not None and self.nodes % 64 == 0 \
                and time.monotonic() > self.deadline:
            raise TimeUp

    def expected_bound(self, belief: int) -> float:
        k = popcount(belief)
        return self.sums[k] / k

    # expected ------------------------------------------------------------------------------

    def expected(self, state: State) -> float:
        """The least expected number of proposals from ``state`` (``inf``: some answers
        and draws leave it unidentified with no guest left)."""
        if state.belief & (state.belief - 1) == 0:
            return 0.0
        key = state.key
        found = self.memo_e.get(key)
        if found is not None:
            return found
        self._tick()
        best = INF
        for _, split in self._candidates(state):
            bound = 1 + sum(popcount(p) * self.expected_bound(p)
                            for p in split or (state.belief,) if p) / popcount(state.belief)
            if bound >= best - 1e-12:
                break
            value = self.after(state, split, self.expected)
            best = min(best, value)
            if best <= self.expected_bound(state.belief) + 1e-12:
                break
        self.memo_e[key] = best
        return best

    def _candidates(self, state: State) -> list[tuple[float, Split]]:
        size = popcount(state.belief)
        scored = []
        seen = set()
        for split in state.hand:
            p = partition(split)
            if p in seen:
                continue
            seen.add(p)
            scored.append((sum(popcount(q) * self.expected_bound(q)
                               for q in split or (state.belief,) if q) / size,
                           split))
        scored.sort()
        return scored

    def after(self, state: State, split: Split, value: Callable[[State], float]) -> float:
        """1 + the expected ``value`` after proposing a guest of ``split``."""
        total = 0.0
        for _, weight, after in children(state, split):
            total += weight * sum(p * value(s) for p, s in after)
        return 1 + total

    def options(self, state: State) -> list[tuple[Split, float]]:
        """Every distinct proposal of the hand with its exact expected value."""
        return [(split, self.after(state, split, self.expected))
                for split in self._distinct(state)]

    @staticmethod
    def _distinct(state: State) -> list[Split]:
        """The hand's guests, one per partition."""
        found: dict[Split, Split] = {}
        for split in state.hand:
            found.setdefault(partition(split), split)
        return list(found.values())

    # worst case ----------------------------------------------------------------------------

    def worst(self, state: State) -> float:
        """The fewest proposals that identify the assignment whatever it is and whatever is
        drawn (``inf``: none do)."""
        if state.belief & (state.belief - 1) == 0:
            return 0
        key = state.key
        found = self.memo_w.get(key)
        if found is not None:
            return found
        self._tick()
        floor = max(self.bounds[popcount(state.belief)],
                    waiting_worst(state.belief, state.hand, state.pool, state.draws))
        best = INF
        scored = sorted((self._worst_bound(state, split), split)
                         for split in self._distinct(state)) if floor < INF else []
        for bound, split in scored:
            if 1 + bound >= best:
                break
            value = self.worst_after(state, split, best)
            best = min(best, value)
            if best <= floor:
                break
        self.memo_w[key] = best
        return best

    def _worst_bound(self, state: State, split: Split) -> float:
        """What the worst case after proposing ``split`` needs at least, less that proposal:
        the information bound and the waiting bound of each part."""
        hand = list(state.hand)
        hand.remove(split)
        return max(max(self.bounds[popcount(p)],
                       waiting_worst(p, hand, state.pool, state.draws, drawn_first=True))
                   for p in split or (state.belief,) if p)

    def policy_worst(self, state: State, choose: Callable[[State], Split], name: str) -> float:
        """The worst case of the policy ``choose`` over the rules and the draws (``inf``: some
        leave it never done): an upper bound of :meth:`worst`, exact for the policy."""
        if state.belief & (state.belief - 1) == 0:
            return 0.0
        key = ("worst", name, *state.key)
        found = self.memo_p.get(key)
        if found is not None:
            return found
        self._tick()
        worst = 0.0
        for _, _, after in children(state, choose(state)):
            for _, s in after:
                worst = max(worst, self.policy_worst(s, choose, name))
        self.memo_p[key] = 1 + worst
        return 1 + worst

    def worst_after(self, state: State, split: Split, cutoff: float = INF) -> float:
        """1 + the worst value after proposing ``split`` (stops once it reaches ``cutoff``)."""
        worst = 0.0
        outcomes = children(state, split)
        outcomes.sort(key=lambda o: -popcount(o[0]))
        for _, _, after in outcomes:
            for _, s in after:
                worst = max(worst, self.worst(s))
                if 1 + worst >= cutoff:
                    return 1 + worst
        return 1 + worst

    def worst_options(self, state: State) -> list[tuple[Split, float]]:
        return [(split, self.worst_after(state, split)) for split in self._distinct(state)]

    # a fixed policy ------------------------------------------------------------------------

    def policy_expected(self, state: State, choose: Callable[[State], Split], name: str,
                        spent: float = INF) -> float:
        """The expected number of proposals when ``choose`` picks every proposal.  A hand
        spent before every rule is certain is never done (``spent`` infinite), or, with
        ``spent`` 0, done with the proposals it made: all of its guests, whatever the policy
        (four players, where every policy has a chance of never being done:
        :meth:`Problem.unidentifiable`)."""
        if state.belief & (state.belief - 1) == 0:
            return 0.0
        key = (name, *state.key) if spent == INF else (name, spent, *state.key)
        found = self.memo_p.get(key)
        if found is not None:
            return found
        self.nodes += 1
        if not state.hand:
            value = spent
        else:
            value = self.after(state, choose(state),
                               lambda s: self.policy_expected(s, choose, name, spent))
        self.memo_p[key] = value
        return value

    def lookahead_expected(self, state: State, spent: float = INF) -> float:
        """The expected number of proposals of the *lookahead* policy (:meth:`lookahead`):
        exact, an upper bound of the optimum never above the entropy policy's (``spent``: as
        :meth:`policy_expected`'s)."""
        return self.policy_expected(state, partial(self.lookahead, spent=spent), "lookahead",
                                    spent)

    def lookahead(self, state: State, spent: float = INF) -> Split:
        """The lookahead policy's proposal: the one whose expected number is least if the
        entropy policy plays every proposal after it (one step of policy improvement over the
        entropy policy, so never worse than it; ties: the smallest partition)."""
        entropy = partial(self.policy_expected, choose=choose_entropy, name="entropy",
                          spent=spent)
        return min(self._distinct(state),
                   key=lambda split: (self.after(state, split, entropy), partition(split)))

    def lower_bound(self, state: State, depth: int, free: FreeSearch,
                    free_depth: int | None = None, waiting: bool = True) -> float:
        """A proven lower bound of the optimum (:meth:`expected`): the hand game for ``depth``
        proposals, then at each leaf the larger of two proven bounds, the free variant
        (``free``, the seat's rule and deck: any guest of the deck, which a hand policy cannot
        beat) and, with ``waiting``, :func:`waiting_bound` (the draws a guest that tells the
        truth from a rival must wait for).  ``depth`` 0 is the root's leaf value.  With
        ``free_depth`` the free variant itself is bounded from below (:meth:`FreeSearch.lower`,
        for four players, where it is out of reach).  Without ``waiting`` the bound only rises
        with ``depth``.  Its table lives for one call: the values depend on ``free``, which the
        states' keys do not name (two rules may share a key, not a free value)."""
        memo: dict[tuple[object, ...], float] = {}

        def leaf(state: State) -> float:
            if not waiting:
                return free_value(state.belief)
            key = (0, *state.key)  # depth 0: the leaves' own entries
            found = memo.get(key)
            if found is None:
                found = memo[key] = max(free_value(state.belief), waiting_bound(state))
            return found

        def free_value(belief: int) -> float:
            return free.expected(belief) if free_depth is None else \
                free.lower(belief, free_depth)

        def bound(state: State, depth: int) -> float:
            if state.belief & (state.belief - 1) == 0:
                return 0.0
            if depth == 0 or not state.hand:
                return leaf(state)
            key = (depth, *state.key)
            found = memo.get(key)
            if found is None:
                self._tick()
                below = partial(bound, depth=depth - 1)
                found = memo[key] = min(self.after(state, split, below)
                                        for split in self._distinct(state))
            return found

        return bound(state, depth)

    # keeping tables ------------------------------------------------------------------------

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(".tmp")
        with temporary.open("wb") as out:
            pickle.dump((TABLE_VERSION, self.players, self.memo_e, self.memo_w, self.memo_p),
                        out, protocol=pickle.HIGHEST_PROTOCOL)
        temporary.replace(path)

    def load(self, path: Path) -> bool:
        """Add the tables kept at ``path``; ``False`` when there are none to use (or they are
        bigger than :data:`LOAD_LIMIT`: loading would cost more than it saves)."""
        try:
            if path.stat().st_size > LOAD_LIMIT:
                return False
            with path.open("rb") as source:
                version, players, e, w, p = pickle.load(source)
        except (OSError, EOFError, pickle.UnpicklingError, ValueError, TypeError):
            return False
        if version != TABLE_VERSION or players != self.players:
            return False
        self.memo_e.update(e)
        self.memo_w.update(w)
        self.memo_p.update(p)
        return True


TABLE_VERSION = 2
"""Tables of another version are not loaded (2: the entropy policy's ties go by partition, so
its values kept by version 1 may differ)."""
LOAD_LIMIT = 256 * 2 ** 20
"""The largest table file loaded (bytes)."""


class TimeUp(Exception):
    """The search's deadline passed."""


# -- the free variant ---------------------------------------------------------------------------


class FreeSearch:
    """The free variant: any guest of ``deck`` may be proposed at every turn (each once; a
    guest already proposed tells nothing more, so the state is the belief alone).  Its values
    are lower bounds of the hand game's: for a fixed sequence of draws, a policy of the hand
    game is a policy of the free one."""

    def __init__(self, players: int, mine: Attribute, deck: Sequence[Guest]) -> None:
        self.players = players
        self.problem = Problem(players, mine, (), tuple(deck), 0)
        self.start = self.problem.belief
        self.parts = sorted({self.problem.parts(g) for g in deck})
        self.bounds = Search(players, len(self.problem.assignments))
        self.memo_e: dict[int, float] = {}
        self.memo_w: dict[int, float] = {}
        self.memo_l: dict[tuple[int, int], tuple[float, bool]] = {}
        self.nodes = 0

    def splits(self, belief: int) -> list[Split]:
        found = {partition(_restrict(parts, belief)) for parts in self.parts}
        found.discard(())
        return list(found)

    def expected(self, belief: int) -> float:
        if belief & (belief - 1) == 0:
            return 0.0
        found = self.memo_e.get(belief)
        if found is not None:
            return found
        self.nodes += 1
        size = popcount(belief)
        floor = self.bounds.expected_bound(belief)
        scored = sorted((sum(popcount(p) * self.bounds.expected_bound(p) for p in split) / size,
                         split) for split in self.splits(belief))
        best = INF
        for bound, split in scored:
            if 1 + bound >= best - 1e-12:
                break
            value = 1 + sum(popcount(p) * self.expected(p) for p in split) / size
            best = min(best, value)
            if best <= floor + 1e-12:
                break
        self.memo_e[belief] = best
        return best

    def lower(self, belief: int, depth: int) -> float:
        """A proven lower bound of :meth:`expected` that rises with ``depth``: the free
        variant played exactly for ``depth`` proposals, then the information bound
        (``Search.expected_bound``).  Where the free variant is out of reach (four players) it
        still bounds the hand game from below."""
        return self.lower_complete(belief, depth)[0]

    def lower_complete(self, belief: int, depth: int) -> tuple[float, bool]:
        """:meth:`lower`, and whether it is :meth:`expected` itself: True when the proposals
        that reach it identify every assignment within ``depth`` (no leaf was cut short), for
        then a free policy achieves the bound (up to 1e-12), and none does better."""
        if belief & (belief - 1) == 0:
            return 0.0, True
        if depth == 0:
            return self.bounds.expected_bound(belief), False
        found = self.memo_l.get((belief, depth))
        if found is not None:
            return found
        self.nodes += 1
        size = popcount(belief)
        scored = sorted((sum(popcount(p) * self.bounds.expected_bound(p) for p in split) / size,
                         split) for split in self.splits(belief))
        best, complete = INF, False
        for bound, split in scored:
            # The bound of depth 0 is the lowest of every depth: a proposal whose bound cannot
            # beat the best (or, for a best not yet complete, tie it) is not expanded.
            if 1 + bound > best + 1e-12 or (complete and 1 + bound >= best - 1e-12):
                break
            total, whole = 0.0, True
            for p in split:
                value, done = self.lower_complete(p, depth - 1)
                total += popcount(p) * value
                whole = whole and done
            value = 1 + total / size
            if value < best - 1e-12 or (whole and not complete and value <= best + 1e-12):
                complete = whole
            best = min(best, value)
        self.memo_l[belief, depth] = best, complete
        return best, complete

    def options(self, belief: int) -> list[tuple[Split, float]]:
        size = popcount(belief)
        return [(split, 1 + sum(popcount(p) * self.expected(p) for p in split) / size)
                for split in self.splits(belief)]

    def worst(self, belief: int) -> float:
        if belief & (belief - 1) == 0:
            return 0
        found = self.memo_w.get(belief)
        if found is not None:
            return found
        self.nodes += 1
        bounds = self.bounds.bounds
        floor = bounds[popcount(belief)]
        scored = sorted((max(bounds[popcount(p)] for p in split), split)
                        for split in self.splits(belief))
        best = INF
        for bound, split in scored:
            if 1 + bound >= best:
                break
            worst = 0.0
            for p in sorted(split, key=popcount, reverse=True):
                worst = max(worst, self.worst(p))
                if 1 + worst >= best:
                    break
            best = min(best, 1 + worst)
            if best <= floor:
                break
        self.memo_w[belief] = best
        return best


@cache
def free_search(players: int, mine: Attribute) -> FreeSearch:
    """The free variant of the house deck for a seat holding ``mine`` (one per process: its
    table is shared by the deals of that rule)."""
    return FreeSearch(players, mine, HOUSE_DECK)


# -- the two greedy policies ----------------------------------------------------------------------


def entropy_of(split: Split) -> float:
    """The entropy of the answer, in bits (the expected information of the proposal)."""
    size = sum(popcount(p) for p in split)
    return max(0.0, -sum(popcount(p) / size * math.log2(popcount(p) / size)
                         for p in split if p))


def let_in(split: Split) -> float:
    """The chance that nobody bars a guest of ``split`` (it becomes the seat's VIP)."""
    return popcount(split[-1]) / sum(popcount(p) for p in split)


def choose_entropy(state: State) -> Split:
    """The most informative proposal (exact ties: the smallest partition, see the docs; so
    the same guests whether the state's splits are labelled or not)."""
    return min(state.hand, key=lambda s: (-round(entropy_of(s), 12), partition(s), s))


def choose_hint(state: State) -> Split:
    """The hint's choice among proposals: the likeliest to be let in, then the most
    informative (exact ties: the smallest split, see the docs)."""
    return min(state.hand, key=lambda s: (-round(let_in(s), 12), -round(entropy_of(s), 12), s))


# -- a deal as a unit of work ----------------------------------------------------------------------

_SEARCHES: dict[int, Search] = {}
"""One search per table size in this process: deals share their tables."""
LOCK = threading.Lock()
"""Held while a search of :data:`_SEARCHES` runs (a server's threads share them)."""


def search_for(players: int, tables: Path | None = None) -> Search:
    """This process's search for ``players`` (loading the tables kept at ``tables``)."""
    search = _SEARCHES.get(players)
    if search is None:
        search = Search(players, len(Problem(players, Attribute(0), (), (), 0).assignments))
        if tables is not None:
            search.load(tables)
        _SEARCHES[players] = search
    return search


def random_deal(players: int, deck: Sequence[Guest], rng: random.Random) -> Problem:
    """A uniform deal: the seat's rule and its hand of three."""
    mine = Attribute(rng.randrange(RULE_COUNT))
    hand = rng.sample(list(deck), HAND_SIZE)
    return Problem.deal(players, mine, hand, deck)


def house_deal(players: int, seed: int, index: int) -> Problem:
    """Deal ``index`` of ``seed`` on the house deck: the deals :class:`DealTask` values (and
    ``docs/results.md`` publishes)."""
    return random_deal(players, HOUSE_DECK,
                       random.Random(f"pool-party-stars questions {seed} {index}"))


def random_play(problem: Problem, games: int, rng: random.Random,
                labelled: bool = False) -> list[State]:
    """Every state with two assignments or more met in ``games`` random games from
    ``problem``'s start (a guest of the hand proposed at random; the answers and the draws at
    random, not by their chances): the beliefs of every size a search meets, for checks and
    timings."""
    found = []
    for _ in range(games):
        state = problem.start(labelled)
        while popcount(state.belief) > 1 and state.hand:
            found.append(state)
            _, _, after = rng.choice(children(state, rng.choice(state.hand)))
            state = rng.choice(after)[1]
    return found


def play_policy(problem: Problem, choose: Callable[[State], Split], rng: random.Random
                ) -> tuple[int, bool]:
    """One game of the questions solitaire played by ``choose`` from ``problem``'s start,
    dealt as the game deals it (a true assignment uniform among the consistent ones, the
    draws a uniform order of the unseen guests), and answered from the guests' own answers
    (:meth:`Problem.parts`), not from the searches' abstract states: the number of proposals
    until one assignment is left, and whether it was (else the hand was spent first, and the
    number is its proposals: the ``spent`` game).  A check of the exact expectations that
    shares only the policy with them; games played with generators of the same seed meet the
    same truth and draws whatever the policy."""
    belief = problem.belief
    truth = rng.choice(_bits(belief, len(problem.assignments)).nonzero()[0].tolist())
    order = rng.sample(problem.unseen, len(problem.unseen))[:problem.draws]
    hand = list(problem.hand)
    proposals = 0
    while belief & (belief - 1):
        if not hand:
            return proposals, False
        splits = [problem.split(guest, belief) for guest in hand]
        guest = hand.pop(splits.index(choose(State(belief, tuple(sorted(splits)), (), 0,
                                                   labelled=True))))
        proposals += 1
        belief &= _part_of(problem.parts(guest), 1 << truth, belief)
        if order:
            hand.append(order.pop())
    return proposals, True


@dataclass(frozen=True)
class DealTask:
    """One unit: deal ``index`` (drawn from ``(seed, index)``) and, on it, the exact expected
    numbers of proposals of the entropy policy and of the lookahead policy (upper bounds of the
    optimum), of the hint's policy (``hint``), the optimum and its first proposals
    (``optimal``), its worst case (``worst``: the least worst case, exact with the optimum,
    else between :func:`waiting_worst` and the entropy policy's worst case), and the lower
    bound of ``depth`` proposals
    (:meth:`Search.lower_bound`; 0: none), its leaves the free variant's value or, with
    ``free_depth``, its lower bound of that depth (four players).  Where the optimum is out of
    reach (three or four players), ``lower`` and ``lookahead`` bracket it; ``policies`` says
    which policies are valued: ``"both"``, ``"entropy"`` (four players: the lookahead is out
    of reach, the entropy policy is the upper bound) or ``"none"``.  ``unidentifiable``: the
    exact chance that no policy is ever done (:meth:`Problem.unidentifiable`; above 0, every
    expected number is infinite).  With ``spent`` the policies count a hand spent before
    every rule is certain as done with all its proposals (:meth:`Search.policy_expected`),
    and the lower bound gives up the guests never drawn times that chance.  With ``waiting``
    (the default) the lower bound's leaves also count the draws a telling guest must wait for
    (:func:`waiting_bound`)."""

    players: int
    worst: bool = True
    tables: str | None = None
    optimal: bool = True
    depth: int = 0
    hint: bool = True
    free_depth: int | None = None
    policies: str = "both"
    spent: bool = False
    first: int = 0
    """The deal of unit 0 (unit ``i`` is deal ``first + i``): a run can start past the deals
    another run did."""
    waiting: bool = True
    """The lower bound's leaves take the larger of the free variant and the waiting bound
    (:func:`waiting_bound`); without it, the free variant alone (the figures before it)."""

    def __call__(self, seed: int, index: int) -> dict[str, object]:
        problem = house_deal(self.players, seed, self.first + index)
        search = search_for(self.players, Path(self.tables) if self.tables else None)
        started = time.process_time()
        state = problem.start()
        best = search.expected(state) if self.optimal else None
        options = first_proposals(problem, search) if self.optimal else []
        spent = 0.0 if self.spent else INF
        entropy_value = search.policy_expected(state, choose_entropy, "entropy", spent) \
            if self.policies != "none" else None
        lookahead = search.lookahead_expected(state, spent) if self.policies == "both" \
            else None
        hint_value = search.policy_expected(problem.start(labelled=True), choose_hint, "hint") \
            if self.hint else None
        lower = search.lower_bound(state, self.depth, free_search(self.players, problem.mine),
                                   self.free_depth, self.waiting) if self.depth else None
        # The least worst case: exact with the optimum; else bracketed between the waiting
        # bound against dealt draws and the entropy policy's own worst case.
        worst_lower = waiting_worst(state.belief, state.hand, state.pool, state.draws) \
            if self.worst else None
        worst_entropy = search.policy_worst(state, choose_entropy, "entropy") \
            if self.worst and not self.optimal else None
        search.memo_p.clear()  # a policy's table is rarely shared between deals
        worst = search.worst(state) if self.worst and self.optimal else None
        never = problem.unidentifiable()
        if self.spent and lower is not None and never:
            lower = spent_lower(problem, lower, never)
        return {"mine": problem.mine.label, "hand": [str(g) for g in problem.hand],
                "unidentifiable": str(never), "optimal": best, "worst": worst,
                "worst_lower": worst_lower, "worst_entropy": worst_entropy, "hint": hint_value,
                "entropy": entropy_value, "lookahead": lookahead, "lower": lower,
                "depth": self.depth or None, "free_depth": self.free_depth,
                "waiting": self.waiting if self.depth else None,
                "spent": self.spent,
                "options": [[str(g), v] for g, v in options],
                "cpu_seconds": round(time.process_time() - started, 3)}


def spent_lower(problem: Problem, lower: float, never: Fraction) -> float | None:
    """A lower bound of the hand game where a spent hand is done with its proposals, from
    ``lower`` (:meth:`Search.lower_bound`) and ``never`` (:meth:`Problem.unidentifiable`):
    a spent hand not done, then its guests never drawn proposed, is a free game that is done
    with at most that many more proposals, and only when never done.  That needs the whole
    deck to tell every consistent assignment apart: so for the house deck (its free variant
    is finite at every table size), and so wherever ``lower`` has the free variant's values
    at its leaves and is finite; with ``free_depth`` (the information bound at the leaves, finite
    even where it is not so) the caller must know it.  None when ``lower`` is infinite."""
    if not math.isfinite(lower):
        return None
    return lower - (len(problem.unseen) - problem.draws) * float(never)


def problem_of(knowledge: Knowledge) -> Problem:
    """The questions of a seat in a game in progress: the assignments it still finds
    consistent (the deduction engine's), its hand, the guests it has not seen and the draws
    the deck has left.  Raises :class:`ValueError` naming what is missing."""
    seat = knowledge.seat
    if seat is None:
        raise ValueError("seat: the questions are one seat's")
    if knowledge.hand is None:
        raise ValueError("hand: the questions are about the seat's hand, which the log lacks")
    evidence = knowledge.counting
    timeline = evidence.timeline
    if len(knowledge.rules) < len(timeline.by_player[seat]):
        raise ValueError("rules: the seat's new rule is not drawn yet")
    players = knowledge.table.size
    mine = knowledge.rules[-1]
    record = knowledge.public
    left = list(knowledge.table.deck)
    for guest in (*knowledge.hand, *record.seen()):
        if guest in left:
            left.remove(guest)
    everything = Problem(players, mine, (), (), 0)
    domains = evidence.domains()
    order = [(seat + k) % players for k in range(1, players)]
    consistent, weights = [], set()
    for assignment in everything.assignments:
        doms = list(domains)
        for player, rule in zip(order, assignment, strict=True):
            doms[timeline.current[player]] &= 1 << rule
        count = timeline.count(doms)
        if count:
            consistent.append(assignment)
            weights.add(count)
    if not consistent:
        raise ValueError("events: no assignment of rules fits this log")
    if len(weights) > 1:
        raise ValueError("events: the rules held now are not equally likely (a past rule is "
                         "still open), which the questions do not model")
    return Problem(players, mine, tuple(knowledge.hand), tuple(left), record.deck_left,
                   tuple(consistent))


def table_path(players: int, user: str = "hint") -> Path:
    """Where the search's tables for ``players`` are kept between runs, for the hint or the
    benchmark (``user``): the user cache directory (``$XDG_CACHE_HOME``, else ``~/.cache``),
    never the repository."""
    root = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    suffix = "" if user == "hint" else f"-{user}"
    return Path(root) / "partysolver" / f"pool-party-stars-questions-{players}p{suffix}.pickle"


KEPT_ENTRIES = 400_000
"""The most entries of the expected-value table kept on disk for the hint (a bigger table
would cost more to load than it saves); past it the table starts again empty."""


def keep_tables(search: Search, path: Path) -> None:
    """Save ``search``'s expected-value table at ``path`` for the next run (the hint's); one
    too big is dropped, on disk and in memory.  A cache that cannot be written is skipped."""
    if len(search.memo_e) > KEPT_ENTRIES:
        search.memo_e.clear()
        search.memo_w.clear()
    search.memo_p.clear()
    with contextlib.suppress(OSError):
        search.save(path)


def free_first_guests(search: FreeSearch) -> list[str]:
    """The guests of the deck that are optimal first proposals in the free variant."""
    best = search.expected(search.start)
    found = []
    for guest in sorted(search.problem.unseen, key=lambda g: g.id):
        split = partition(_restrict(search.problem.parts(guest), search.start))
        size = popcount(search.start)
        value = 1 + sum(popcount(p) * search.expected(p) for p in split or (search.start,)) / size
        if value <= best + 1e-9:
            found.append(str(guest))
    return found


def first_proposals(problem: Problem, search: Search) -> list[tuple[Guest, float]]:
    """Every guest of the hand with the optimal expected number of proposals when it is
    proposed first, best first."""
    state = problem.start()
    values = dict(search.options(state))
    c = problem.belief
    found = [(g, values[partition(_restrict(problem.parts(g), c))]) for g in problem.hand]
    return sorted(found, key=lambda gv: (gv[1], gv[0].id))


__all__ = ["LOCK", "DealTask", "FreeSearch", "INF", "Problem", "Search", "State", "TimeUp",
           "choose_entropy", "choose_hint", "depth_sums", "entropy_of", "first_proposals",
           "free_first_guests", "free_search", "keep_tables", "let_in", "partition", "problem_of", "random_deal",
           "search_for", "spent_lower", "table_path"]

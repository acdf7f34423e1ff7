"""Pool Party Stars move notation, and the positions one plays on from a file.

**Steps of the full game** (a :class:`~.state.PoolPartyState`), canonical spelling first:

* ``propose Plant-Sport-Book`` -- also ``propose plant sport book`` (any attribute order),
  ``propose 2`` (the second guest of the hand as listed), ``Dani proposes ...``;
* ``guess Ben Robot`` -- also ``guess Ben is Robot`` (what ``hint`` printed), ``guess 4 Robot``
  (seat numbers count from 1 in the order of ``players``), ``guess seat 4 is Robot``;
* chance: ``draw Plant-Sport-Book`` (the proposer draws a guest), ``draw rule Plant`` (the
  player whose rule was guessed draws a new one; also ``new rule Plant``).

**Steps of a seat** (a seat log, :class:`SeatPosition`): the seat's own moves as above, and what
the seat *sees*:

* the answers to its own proposal: ``Ben bars`` (everyone asked before Ben let the guest in) or
  ``nobody bars``; also in full, ``Lari in, Ana in, Ben bars`` (``lets in`` and ``barred`` are
  read too), ``everyone in``;
* the outcome of its own guess: ``right`` or ``wrong``;
* another player's turn, as one event: ``Ana proposes Plant-Sport-Book: Ben bars`` or
  ``Ana guesses Ben Robot: right`` (the log's own lines, ``Ana proposes ...: Ben lets in, Dani
  bars``, are read too);
* its own draws: ``draw Plant-Sport-Book``, and after its rule was guessed, ``draw rule Plant``.

Parsing (the shared :class:`~partysolver.models.playable.Spellings` index, for the full game
and for a seat alike) ignores case; ``-``, ``/``, ``:`` and ``,`` count as spaces, ``lets in``
as ``in``, ``barred`` and ``out`` as ``bars``, and ``Forbidden`` is left out, so that every
spelling may be typed with any of them; a guest's three attributes may come in any order when
written in full (this game's :func:`vocabulary`).  Players are named or numbered; every word may
be shortened to an unambiguous prefix (``g b r`` is ``guess Ben Robot``).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from ..errors import InputError, require_no_problems
from ..notation import NotationError, normalise
from ..playable import PlayableGame, Spellings, StatePlayable, StepNotation, Vocabulary
from ..protocol import TERMINAL, Action
from .game import (
    ALL_RULES,
    ATTRIBUTES,
    Answer,
    Attribute,
    DrawGuest,
    DrawRule,
    Guess,
    GuessOutcome,
    Guest,
    Move,
    Proposal,
    Propose,
    answers_for,
    asked_order,
    format_event,
    format_move,
)
from .position import GameLog, load_log, log_to_document
from .state import DRAW_GUEST, DRAW_RULE, PoolPartyState

# -- the seat's observations ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Answers:
    """The answers to the seat's own proposal, clockwise from its left up to the first bar."""

    answers: tuple[Answer, ...]


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether the seat's own guess was right."""

    right: bool


SeatStep = Propose | Guess | Answers | Verdict | Proposal | GuessOutcome | DrawGuest | DrawRule
"""Every step of a seat: its moves, and what it observes."""


# -- spellings --------------------------------------------------------------------------------

_SEPARATORS = r"[-/\u2013\u2014:,;!]+"
_PHRASES = {"lets in": "in", "let in": "in", "barred": "bars", "out": "bars", "bar": "bars",
            "forbidden": ""}
_CATEGORY = {a.label.lower(): a.category for a in ATTRIBUTES}


class _Vocabulary(Vocabulary):
    """Pool Party Stars' rewriting: a guest's three attributes put in one order."""

    __slots__ = ()

    def arrange(self, words: list[str]) -> list[str]:
        if sum(word in _CATEGORY for word in words) >= 3:
            _attributes_in_order(words)
        return words


@lru_cache(maxsize=64)
def vocabulary(names: tuple[str, ...] = ()) -> Vocabulary:
    """How texts are read at a table of ``names`` (see the module docstring): a player's name
    is never rewritten (a phrase starting with one is left out)."""
    kept = {normalise(name) for name in names}
    return _Vocabulary([(phrase, word) for phrase, word in _PHRASES.items()
                        if phrase.split(" ")[0] not in kept], separators=_SEPARATORS)


def _attributes_in_order(words: list[str]) -> None:
    """Three attribute names in a row, one of each category, put in species-outfit-item order."""
    categories = [_CATEGORY.get(w, -1) for w in words]
    for i in range(len(words) - 2):
        found = categories[i:i + 3]
        if found != [0, 1, 2] and sorted(found) == [0, 1, 2]:
            ordered = sorted(zip(found, words[i:i + 3], strict=True))
            words[i:i + 3] = [word for _, word in ordered]
            categories[i:i + 3] = [0, 1, 2]


def _guest_words(guest: Guest) -> str:
    return " ".join(a.label for a in guest.attributes)


def format_answers(answers: Sequence[Answer], names: Sequence[str]) -> str:
    """``Ben bars`` or ``nobody bars``: everyone asked before the bar let the guest in."""
    barred = [a.seat for a in answers if a.bars]
    return f"{names[barred[0]]} bars" if barred else "nobody bars"


def _answers_in_full(answers: Sequence[Answer], names: Sequence[str]) -> str:
    return ", ".join(f"{names[a.seat]} {'bars' if a.bars else 'in'}" for a in answers)


def _answer_variants(answers: Sequence[Answer], names: Sequence[str]) -> list[str]:
    numbers = [str(p + 1) for p in range(len(names))]
    found = [_answers_in_full(answers, names), format_answers(answers, numbers),
             _answers_in_full(answers, numbers)]
    if not any(a.bars for a in answers):
        found += ["everyone in", "all in", "nobody"]
    return found


def format_step(step: Hashable, names: Sequence[str]) -> str:
    """The canonical spelling of a step of the full game or of a seat."""
    if isinstance(step, Propose | Guess):
        return format_move(step, names)
    if isinstance(step, DrawGuest):
        return f"draw {step.guest}"
    if isinstance(step, DrawRule):
        return f"draw rule {step.rule.label}"
    if isinstance(step, Answers):
        return format_answers(step.answers, names)
    if isinstance(step, Verdict):
        return "right" if step.right else "wrong"
    if isinstance(step, Proposal):
        return f"{names[step.proposer]} proposes {step.guest}: " \
               f"{format_answers(step.answers, names)}"
    if isinstance(step, GuessOutcome):
        return (f"{names[step.guesser]} guesses {names[step.target]} {step.rule.label}: "
                f"{'right' if step.right else 'wrong'}")
    raise ValueError(f"not a Pool Party Stars step: {step!r}")


def step_variants(step: Hashable, names: Sequence[str], actor: int,
                  hand: Sequence[Guest] = ()) -> list[str]:
    """More spellings of ``step`` (see :func:`format_step`): what ``hint`` printed, seat
    numbers, the sentences of the log; ``hand`` numbers the actor's guests from 1."""
    who, number = names[actor], str(actor + 1)
    if isinstance(step, Propose):
        return [f"propose {_guest_words(step.guest)}", f"{who} proposes {step.guest}",
                *(f"propose {k}" for k, g in enumerate(hand, 1) if g == step.guest)]
    if isinstance(step, Guess):
        target, rule = names[step.target], step.rule.label
        return [f"guess {target} is {rule}", f"guess {step.target + 1} {rule}",
                f"guess seat {step.target + 1} is {rule}", f"{who} guesses {target} is {rule}",
                f"{who} guesses that {target}'s rule is Forbidden {rule}"]
    if isinstance(step, DrawGuest):
        return [f"{who} draws {step.guest}", f"{number} draws {step.guest}"]
    if isinstance(step, DrawRule):
        rule = step.rule.label
        return [f"new rule {rule}", f"{who} draws rule {rule}",
                f"{who} draws the rule Forbidden {rule}"]
    if isinstance(step, Answers):
        return _answer_variants(step.answers, names)
    if isinstance(step, Verdict):
        return ["correct", "yes"] if step.right else ["incorrect", "no"]
    if isinstance(step, Proposal):
        heads = [f"{names[step.proposer]} proposes {step.guest}",
                 f"{step.proposer + 1} proposes {step.guest}"]
        tails = [format_answers(step.answers, names), *_answer_variants(step.answers, names)]
        return [f"{h}: {t}" for h in heads for t in tails] + [format_event(step, names)]
    if isinstance(step, GuessOutcome):
        said = "right" if step.right else "wrong"
        return [format_event(step, names),
                f"{step.guesser + 1} guesses {step.target + 1} {step.rule.label}: {said}"]
    raise ValueError(f"not a Pool Party Stars step: {step!r}")


def index(steps: Sequence[Hashable], names: tuple[str, ...], actor: int,
          hand: tuple[Guest, ...], what: str) -> Spellings:
    """The index of every spelling of ``steps``, all taken by ``actor`` (``hand``: the guests
    ``propose 2`` numbers)."""
    return Spellings(steps, lambda step: format_step(step, names),
                     lambda step: step_variants(step, names, actor, hand),
                     vocabulary(names), what)


spellings = lru_cache(maxsize=1 << 12)(index)
"""The same, kept (a position's index is built once, and equal positions share it)."""


# -- the full game ----------------------------------------------------------------------------


def _doer(state: PoolPartyState) -> int:
    return state.drawer if state.phase in (DRAW_GUEST, DRAW_RULE) else state.player


class PoolPartyNotation(StepNotation):
    """The notation of the full game's actions and chance outcomes (``GAME.notation``)."""

    def format(self, state: PoolPartyState, step: Action) -> str:
        return format_step(step, state.table.players)

    def variants(self, state: PoolPartyState, step: Action) -> list[str]:
        me = _doer(state)
        return step_variants(step, state.table.players, me, state.hands[me])

    def actor(self, state: PoolPartyState) -> str:
        names = state.table.players
        if state.phase == DRAW_GUEST:
            return f"the guest deck ({names[state.drawer]} draws)"
        if state.phase == DRAW_RULE:
            return f"the rule deck ({names[state.drawer]}'s new rule)"
        if state.current_player() == TERMINAL:
            return "nobody: the game is over"
        return names[state.player]

    def vocabulary(self, state: PoolPartyState) -> Vocabulary:
        return vocabulary(state.table.players)

    def spellings(self, state: PoolPartyState) -> Spellings:
        """The index of the position (kept: see :data:`spellings`)."""
        me = _doer(state)
        return spellings(tuple(self.steps(state)), state.table.players, me, state.hands[me],
                         self.what(state))


NOTATION = PoolPartyNotation()


# -- one seat ---------------------------------------------------------------------------------

MOVE, ANSWERS, VERDICT, DRAW_GUEST_STAGE, DRAW_RULE_STAGE, OBSERVE, OVER = range(7)

OTHERS_PROPOSE = 0.75
"""How often another player proposes (rather than guesses) in :meth:`SeatPosition.random_step`:
a stand-in for their unknown policy, so that simulated games come to an end."""


class SeatPosition:
    """A seat log to play on from its seat: the seat's own moves, and what it observes (the
    answers to its proposals, the outcome of its guesses, the others' turns, its draws).

    Every step keeps the log a valid seat log: the seat's own move waits in ``pending`` until
    its answers (or outcome) are entered.  Observations are listed only when some assignment of
    the secret rules, and some deal of the unseen guests, fits them with what the seat knows.
    """

    __slots__ = ("log", "_stage", "_steps", "_legal", "_spellings", "_domains", "_possible")

    def __init__(self, log: GameLog) -> None:
        if log.seat is None or not log.complete:
            raise ValueError("a seat position needs a whole seat log")
        self.log = log
        self._stage = self._find_stage()
        self._steps: list[SeatStep] | None = None
        self._legal: frozenset[Hashable] | None = None
        self._spellings: Spellings | None = None
        self._domains: list[int] | None = None
        self._possible: list[int] | None = None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SeatPosition) and other.log == self.log

    def __hash__(self) -> int:
        log = self.log
        return hash((log.table, log.events, log.seat, log.rules, log.hands, log.pending))

    def __repr__(self) -> str:
        return f"SeatPosition({self.names[self.seat]}, {len(self.log.events)} events)"

    # -- what the seat knows ------------------------------------------------------------------

    @property
    def seat(self) -> int:
        assert self.log.seat is not None
        return self.log.seat

    @property
    def names(self) -> tuple[str, ...]:
        return self.log.names

    @property
    def hand(self) -> tuple[Guest, ...] | None:
        return self.log.hands[self.seat]

    @property
    def turn(self) -> int:
        return self.log.table.turn_of(len(self.log.events))

    def _find_stage(self) -> int:
        log = self.log
        if isinstance(log.pending, Propose):
            return ANSWERS
        if isinstance(log.pending, Guess):
            return VERDICT
        if log.seat_draws_guest():
            return DRAW_GUEST_STAGE
        if log.seat_draws_rule():
            return DRAW_RULE_STAGE
        if log.public().hand_sizes[self.turn] == 0:
            return OVER
        return MOVE if self.turn == self.seat else OBSERVE

    def unseen(self) -> Counter[Guest]:
        """The guests the seat has not seen: in the others' hands or still in the deck."""
        unseen = Counter(self.log.table.deck)
        unseen.subtract(self.log.public().seen())
        unseen.subtract(self.hand or ())
        return +unseen

    def domains(self) -> list[int]:
        """Every epoch's possible rules from the events and the seat's own rules."""
        if self._domains is None:
            self._domains = self.log.evidence.domains()
        return list(self._domains)

    def possible(self) -> list[int]:
        """Every epoch's rules that some assignment fitting what the seat knows gives it."""
        if self._possible is None:
            _, counts = self.log.evidence.timeline.marginals(self.domains())
            self._possible = [sum(1 << r for r, n in enumerate(c) if n) for c in counts]
        return self._possible

    def _fits(self, clues: Sequence[tuple[int, int]]) -> bool:
        """Whether some assignment of rules fits what the seat knows and ``clues``."""
        possible = self.possible()
        if not all(possible[epoch] & mask for epoch, mask in clues):
            return False
        if len(clues) == 1:
            return True
        doms = self.domains()
        for epoch, mask in clues:
            doms[epoch] &= mask
        return self.log.evidence.timeline.feasible(doms)

    def _outcomes(self, proposer: int, guest: Guest) -> list[tuple[Answer, ...]]:
        """The answers a proposal of ``guest`` may get, given what the seat knows: barred by
        one of the players asked (everyone before let it in), or let in by all."""
        current = self.log.evidence.timeline.current
        asked = asked_order(proposer, len(self.names))
        let_in: list[tuple[int, int]] = []
        found = []
        for k, seat in enumerate(asked):
            if self._fits([*let_in, (current[seat], guest.mask)]):
                found.append(tuple(Answer(s, s == seat) for s in asked[:k + 1]))
            let_in.append((current[seat], ALL_RULES & ~guest.mask))
        if self._fits(let_in):
            found.append(tuple(Answer(s, False) for s in asked))
        return found

    def _guess_fits(self, target: int, rule: Attribute, right: bool) -> bool:
        epoch = self.log.evidence.timeline.current[target]
        return self._fits([(epoch, rule.bit if right else ALL_RULES & ~rule.bit)])

    # -- the protocol -------------------------------------------------------------------------

    def actor(self) -> str:
        names, stage = self.names, self._stage
        me = names[self.seat]
        if stage == ANSWERS:
            return f"the players asked (answering {me}'s proposal)"
        if stage == VERDICT:
            assert isinstance(self.log.pending, Guess)
            return f"{names[self.log.pending.target]} (right or wrong)"
        if stage == DRAW_GUEST_STAGE:
            return f"the guest deck ({me} draws)"
        if stage == DRAW_RULE_STAGE:
            return f"the rule deck ({me}'s new rule)"
        if stage == OVER:
            return "nobody: the game is over"
        return names[self.turn]

    def is_over(self) -> bool:
        return self._stage == OVER

    def awaits_chance(self) -> bool:
        """Whether the seat observes the next step (everything but its own move)."""
        return self._stage not in (MOVE, OVER)

    def legal_steps(self) -> list[SeatStep]:
        if self._steps is None:
            self._steps = self._list_steps()
        return self._steps

    def _list_steps(self) -> list[SeatStep]:
        stage, seat, n = self._stage, self.seat, len(self.names)
        if stage == MOVE:
            mine = self.hand if self.hand is not None else tuple(sorted(
                self.unseen(), key=lambda g: g.id))
            moves: list[SeatStep] = [Propose(g) for g in dict.fromkeys(mine)]
            return moves + [Guess(t, r) for t in asked_order(seat, n) for r in ATTRIBUTES]
        if stage == ANSWERS:
            assert isinstance(self.log.pending, Propose)
            return [Answers(a) for a in self._outcomes(seat, self.log.pending.guest)]
        if stage == VERDICT:
            guess = self.log.pending
            assert isinstance(guess, Guess)
            return [Verdict(right) for right in (False, True)
                    if self._guess_fits(guess.target, guess.rule, right)]
        if stage == DRAW_GUEST_STAGE:
            return [DrawGuest(g) for g in sorted(self.unseen(), key=lambda g: g.id)]
        if stage == DRAW_RULE_STAGE:
            epoch = self.log.evidence.timeline.current[seat]
            return [DrawRule(r) for r in ATTRIBUTES if self._fits([(epoch, r.bit)])]
        if stage == OBSERVE:
            return self._observations()
        return []

    def _observations(self) -> list[SeatStep]:
        """Another player's turn: every proposal of an unseen guest with the answers it may
        get, then every guess with the outcomes it may have."""
        actor, n = self.turn, len(self.names)
        found: list[SeatStep] = []
        for guest in sorted(self.unseen(), key=lambda g: g.id):
            found += [Proposal(actor, guest, a) for a in self._outcomes(actor, guest)]
        for target in asked_order(actor, n):
            for rule in ATTRIBUTES:
                found += [GuessOutcome(actor, target, rule, right) for right in (False, True)
                          if self._guess_fits(target, rule, right)]
        return found

    def _actor(self) -> int:
        """Who takes the next step: the player whose turn is observed, else the seat."""
        return self.turn if self._stage == OBSERVE else self.seat

    def format(self, step: Hashable) -> str:
        self._check(step)
        return format_step(step, self.names)

    def variants(self, step: Hashable) -> list[str]:
        """The other spellings of ``step`` that :meth:`parse` reads."""
        self._check(step)
        return step_variants(step, self.names, self._actor(), self.hand or ())

    def parse(self, text: str) -> Hashable:
        if self.is_over():
            raise NotationError(text, "the game is over: no move is legal")
        if self._spellings is None:
            what = "move" if self._stage == MOVE else "observation"
            self._spellings = index(self.legal_steps(), self.names, self._actor(),
                                    self.hand or (), what)
        return self._spellings.parse(text)

    def _check(self, step: Hashable) -> None:
        if self._legal is None:
            self._legal = frozenset(self.legal_steps())
        if step not in self._legal:
            raise ValueError(f"{step} is not legal here ({self.actor()} to act)")

    def apply(self, step: Hashable) -> SeatPosition:
        self._check(step)
        log, seat = self.log, self.seat
        if isinstance(step, Propose | Guess):
            return SeatPosition(replace(log, pending=step))
        if isinstance(step, Answers):
            assert isinstance(log.pending, Propose)
            guest = log.pending.guest
            hands = log.hands
            if self.hand is not None:
                hand = list(self.hand)
                hand.remove(guest)
                hands = hands[:seat] + (tuple(hand),) + hands[seat + 1:]
            event: Proposal | GuessOutcome = Proposal(seat, guest, step.answers)
            return SeatPosition(replace(log, events=log.events + (event,), hands=hands,
                                        pending=None))
        if isinstance(step, Verdict):
            assert isinstance(log.pending, Guess)
            event = GuessOutcome(seat, log.pending.target, log.pending.rule, step.right)
            return SeatPosition(replace(log, events=log.events + (event,), pending=None))
        if isinstance(step, DrawGuest):
            hands = log.hands[:seat] + ((*(self.hand or ()), step.guest),) + log.hands[seat + 1:]
            return SeatPosition(replace(log, hands=hands))
        if isinstance(step, DrawRule):
            rules = log.rules[:seat] + ((*(log.rules[seat] or ()), step.rule),) \
                + log.rules[seat + 1:]
            return SeatPosition(replace(log, rules=rules))
        assert isinstance(step, Proposal | GuessOutcome)
        return SeatPosition(replace(log, events=log.events + (step,)))

    def random_step(self, rng: random.Random) -> Hashable:
        """An observation drawn from what the seat knows: the secret rules drawn uniformly
        among the assignments that fit (the exact posterior), the unseen guests dealt
        uniformly, and another player's move by a stand-in policy (:data:`OTHERS_PROPOSE`)."""
        if not self.awaits_chance():
            raise ValueError(f"no step to observe here: {self.actor()} is to act")
        stage, seat = self._stage, self.seat
        unseen = sorted(self.unseen().elements(), key=lambda g: g.id)
        if stage == DRAW_GUEST_STAGE:
            return DrawGuest(rng.choice(unseen))
        timeline = self.log.evidence.timeline
        values = timeline.sample(self.domains(), rng)
        assert values is not None, "a seat position fits some assignment of rules"
        rules = [values[timeline.current[p]] for p in range(len(self.names))]
        if stage == DRAW_RULE_STAGE:
            return DrawRule(ATTRIBUTES[rules[seat]])
        pending = self.log.pending
        if stage == ANSWERS:
            assert isinstance(pending, Propose)
            return Answers(answers_for(seat, pending.guest.mask, rules))
        if stage == VERDICT:
            assert isinstance(pending, Guess)
            return Verdict(rules[pending.target] == pending.rule)
        return self._other_move(rng, unseen, rules)

    def _other_move(self, rng: random.Random, unseen: list[Guest], rules: list[int]
                    ) -> Proposal | GuessOutcome:
        actor = self.turn
        if rng.random() < OTHERS_PROPOSE:
            hand = rng.sample(unseen, self.log.public().hand_sizes[actor])
            guest = rng.choice(hand)
            return Proposal(actor, guest, answers_for(actor, guest.mask, rules))
        target = rng.choice(asked_order(actor, len(self.names)))
        rule = rng.choice(ATTRIBUTES)
        return GuessOutcome(actor, target, rule, rules[target] == rule)

    def to_document(self) -> dict[str, Any]:
        return log_to_document(self.log)


# -- from a file ------------------------------------------------------------------------------


def playable(document: Mapping[str, Any], source: str, game: PlayableGame
             ) -> SeatPosition | StatePlayable:
    """The position of a game log to play on: a seat log from its seat, a full omniscient log
    (every rule and hand) as the full game of ``game`` (``GAME``); other logs are refused."""
    log = load_log(document, source)
    require_no_problems(log.problems(), source)
    if not log.complete:
        raise InputError(source, "complete", "a whole game log to play on (an excerpt has no "
                         "turn order)")
    if log.seat is None and log.kind != "omniscient":
        raise InputError(source, "seat", "a seat log (seat = NAME and that player's rules) or an "
                         "omniscient log with every rule and hand, to play on")
    if log.seat is None:
        return StatePlayable(game, log.to_state(source))
    evidence = log.knowledge().evidence
    if not evidence.timeline.feasible(evidence.domains()):
        raise InputError(source, "events", "events that some assignment of secret rules fits "
                         "(verifying the log names the ones that conflict)")
    return SeatPosition(log)


def move_text(move: Move, names: Sequence[str]) -> str:
    """What ``hint`` prints as the ``move`` of a proposal or guess (the canonical spelling)."""
    return format_move(move, names)


__all__ = ["Answers", "NOTATION", "PoolPartyNotation", "SeatPosition", "SeatStep", "Verdict",
           "format_answers", "format_step", "index", "move_text", "playable",
           "spellings", "step_variants", "vocabulary"]

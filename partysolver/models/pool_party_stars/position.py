"""Pool Party Stars game logs: the schema, the loader, the writer and the rule checks.

A game log names the players clockwise (first player first), the mode and the deck, and lists
the public events in order, one line each in the game's notation (see :mod:`.game`).  Three
forms share the schema:

* a **seat log** (``seat = "Dani"``): Dani's rules by epoch, optionally Dani's hand;
* an **omniscient log**: every player's rules by epoch (and, for a full game state, every
  hand);
* a **public log**: the events alone, as an onlooker saw them.

A seat log may end with the seat's own ``pending`` move, made but not yet answered (a proposal
waiting for the answers, a guess for right or wrong): what a player at the table knows between
their move and what it shows.

``complete = false`` marks the events as an excerpt (a deduction puzzle's clues): turn order,
hand sizes and the end of the game are then not checked.  A ``[puzzle]`` table names the player
whose rule is asked for.  See ``docs/formats.md`` for a full example.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Literal, TypeVar

from ..documents import Fields, item_path
from ..errors import InputError, Problem, require_no_problems
from ..words import plural
from .evidence import Evidence, Knowledge
from .game import (
    HAND_SIZE,
    HOUSE_DECK,
    INFO,
    NAME,
    RESERVED_NAMES,
    Attribute,
    Event,
    Guess,
    GuessOutcome,
    Guest,
    Move,
    Proposal,
    Propose,
    Public,
    Table,
    asked_order,
    deck_problems,
    format_event,
    format_move,
    parse_event,
    parse_guest,
    parse_move,
    parse_rule,
)
from .state import DRAW_GUEST, DRAW_RULE, OVER, TURN, PoolPartyState

DEFAULT_NAMES = ("Ana", "Ben", "Cat", "Dani", "Eli", "Fay")
DIFFICULTIES = ("easy", "medium", "hard")
Kind = Literal["omniscient", "seat", "public"]
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Puzzle:
    """A deduction puzzle: whose current rule is to be named."""

    target: int
    difficulty: str | None = None


@dataclass(frozen=True)
class GameLog:
    """A loaded game log, before it is checked against the rules."""

    table: Table
    events: tuple[Event, ...]
    seat: int | None
    rules: tuple[tuple[Attribute, ...] | None, ...]
    """Each player's rules by epoch, or ``None`` where not known."""
    hands: tuple[tuple[Guest, ...] | None, ...]
    """Each player's hand, or ``None`` where not known."""
    complete: bool = True
    puzzle: Puzzle | None = None
    pending: Move | None = None
    """The seat's own move, made but not yet answered (a seat log only)."""

    @property
    def names(self) -> tuple[str, ...]:
        return self.table.players

    @property
    def kind(self) -> Kind:
        if self.seat is not None:
            return "seat"
        return "omniscient" if all(r is not None for r in self.rules) else "public"

    def event_label(self, index: int) -> str:
        return f"event {index + 1} ({format_event(self.events[index], self.names)})"

    @cached_property
    def records(self) -> tuple[Public, ...]:
        """The public record before each event, and after the last one (``records[-1]``)."""
        record = Public.deal(self.table)
        found = [record]
        for event in self.events:
            record = record.after(event, self.table.competitive)
            found.append(record)
        return tuple(found)

    def public(self) -> Public:
        return self.records[-1]

    def known_rules(self) -> dict[int, tuple[Attribute, ...]]:
        return {p: rules for p, rules in enumerate(self.rules) if rules is not None}

    @cached_property
    def evidence(self) -> Evidence:
        return Evidence.build(self.table.size, self.events, self.known_rules())

    def knowledge(self, seat: int | None = None) -> Knowledge:
        """What ``seat`` (default: the log's seat) knows; an omniscient log gives any seat's
        knowledge by forgetting the other players' rules and hands."""
        seat = self.seat if seat is None else seat
        if seat is None:
            return Knowledge(self.table, self.events, None, complete=self.complete)
        rules = self.rules[seat]
        if rules is None:
            raise ValueError(f"the log does not know {self.names[seat]}'s rule")
        return Knowledge(self.table, self.events, seat, rules, self.hands[seat], self.complete)

    # -- rule problems --------------------------------------------------------------------------

    def problems(self) -> list[Problem]:
        """Every way the log breaks the rules, at once (consistency of what is unknown is
        the deduction engine's question, not this one)."""
        found = [Problem("deck", text, "deck") for text in deck_problems(self.table.deck,
                                                                           self.table.size)]
        found += self._event_problems()
        evidence = self.evidence
        found += self._rule_history_problems(evidence)
        found += self._known_rule_problems(evidence)
        found += self._supply_problems()
        if self.complete:
            found += self._hand_problems()
        if self.pending is not None:
            found += self._pending_problems()
        return found

    def _event_problems(self) -> list[Problem]:
        found = []
        names, n = self.names, self.table.size
        for index, event in enumerate(self.events):
            where = item_path("events", index)
            problems: list[tuple[str, str]] = []
            if self.complete:
                turn = self.table.turn_of(index)
                if event.actor != turn:
                    problems.append(("turn-order", f"it is {names[turn]}'s turn, not "
                                                   f"{names[event.actor]}'s"))
                elif self.records[index].hand_sizes[turn] == 0:
                    problems.append(("after-end", f"{names[turn]} has no guest in hand, so the "
                                                  "game was over"))
            if isinstance(event, GuessOutcome):
                if event.target == event.guesser:
                    problems.append(("guess-self", "a player guesses another player's rule, "
                                                   "not their own"))
            else:
                problem = _answer_problem(event, n, names)
                if problem:
                    problems.append(("answers", problem))
            found += [Problem(code, f"{self.event_label(index)}: {text}", where)
                      for code, text in problems]
        return found

    def _rule_history_problems(self, evidence: Evidence) -> list[Problem]:
        found = []
        last = self.events[-1] if self.events else None
        for p, rules in enumerate(self.rules):
            if rules is None:
                continue
            epochs = len(evidence.timeline.by_player[p])
            pending = isinstance(last, GuessOutcome) and last.right and last.target == p
            allowed = (epochs - 1, epochs) if pending else (epochs,)
            if len(rules) not in allowed:
                found.append(Problem(
                    "rule-history", f"{self.names[p]}'s rule was guessed right {epochs - 1} "
                    f"time(s), so the log should list {epochs} rule(s) for them "
                    f"(one per card held), not {len(rules)}", f"rules.{self.names[p]}"))
        return found

    def _known_rule_problems(self, evidence: Evidence) -> list[Problem]:
        """Answers that contradict a rule known for certain (listed in the log, or revealed by
        a right guess), and known rules held twice at once."""
        timeline = evidence.timeline
        known: dict[int, tuple[int, str]] = {}
        for (player, number, rule), clue in zip(evidence.facts, evidence.fact_clues,
                                                strict=True):
            if len(timeline.by_player[player]) == 1:
                words = f"{self.names[player]}'s rule is Forbidden {rule.label}"
            else:
                words = f"{self.names[player]}'s rule then (card {number + 1}) was Forbidden " \
                        f"{rule.label}"
            known[clue[0]] = (rule, words)
        for index, event in enumerate(self.events):
            if isinstance(event, GuessOutcome) and event.right:
                epoch = evidence.event_clues[index][0][0]
                known.setdefault(epoch, (event.rule, f"{self.names[event.target]}'s rule was "
                                         f"Forbidden {event.rule.label}, as revealed at event "
                                         f"{index + 1}"))
        found = []
        for index, (event, clues) in enumerate(zip(self.events, evidence.event_clues,
                                                   strict=True)):
            for epoch, mask in clues:
                if epoch in known and not mask >> known[epoch][0] & 1:
                    said = _answer_words(event, timeline.epochs[epoch].player, self.names)
                    found.append(Problem("lie", f"{self.event_label(index)}: {said}, but "
                                         f"{known[epoch][1]}", item_path("events", index)))
        epochs = timeline.epochs
        for a in known:
            for b in timeline.peers[a]:
                if a < b and b in known and known[a][0] == known[b][0]:
                    found.append(Problem(
                        "same-rule", f"{self.names[epochs[a].player]} and "
                        f"{self.names[epochs[b].player]} would both hold Forbidden "
                        f"{Attribute(known[a][0]).label} at the same time ({known[a][1]}; "
                        f"{known[b][1]})", "rules"))
        return found

    def _supply_problems(self) -> list[Problem]:
        deck = Counter(self.table.deck)
        used: Counter[Guest] = Counter()
        for event in self.events:
            if isinstance(event, Proposal):
                used[event.guest] += 1
        for hand in self.hands:
            used.update(hand or ())
        found = []
        for guest, n in used.items():
            if n > deck[guest]:
                have = (f"is {deck[guest]} time(s) in the deck" if deck[guest]
                        else "is not in the deck")
                found.append(Problem("supply", f"{guest} is proposed or held {n} time(s) but "
                                     f"{have}", "events"))
        return found

    def _hand_problems(self) -> list[Problem]:
        record = self.public()
        pending = self._pending_draw(record)
        found = []
        for p, hand in enumerate(self.hands):
            if hand is None:
                continue
            expected = record.hand_sizes[p] - (1 if p == pending else 0)
            if len(hand) != expected and not (p == pending and len(hand) == expected + 1):
                found.append(Problem("hand-size", f"{self.names[p]} holds {len(hand)} guest(s); "
                                     f"after these events they hold {expected}",
                                     f"hands.{self.names[p]}"))
        return found

    def _pending_problems(self) -> list[Problem]:
        """What keeps the seat's pending move from being its move now."""
        assert self.pending is not None and self.seat is not None
        names, seat, record = self.names, self.seat, self.public()
        turn = self.table.turn_of(len(self.events))
        hand = self.hands[seat]
        problems = []
        if not self.complete:
            problems.append("a pending move needs the whole game (complete = true)")
        elif turn != seat:
            problems.append(f"it is {names[turn]}'s turn, not {names[seat]}'s")
        elif record.hand_sizes[seat] == 0:
            problems.append(f"{names[seat]} has no guest in hand, so the game is over")
        elif self.seat_draws_guest() or self.seat_draws_rule():
            problems.append(f"{names[seat]} draws a new card before the next move")
        if isinstance(self.pending, Propose) and hand is not None \
                and self.pending.guest not in hand:
            problems.append(f"{self.pending.guest} is not in {names[seat]}'s hand")
        if isinstance(self.pending, Guess) and not 0 <= self.pending.target < len(names):
            problems.append("the guess names no player")
        elif isinstance(self.pending, Guess) and self.pending.target == seat:
            problems.append("a player guesses another player's rule, not their own")
        move = format_move(self.pending, names)
        return [Problem("pending", f"pending move ({move}): {text}", "pending")
                for text in problems]

    def seat_draws_guest(self) -> bool:
        """Whether the seat proposed last and is still to draw (its hand is one short)."""
        seat, hand = self.seat, self.hands[self.seat] if self.seat is not None else None
        if seat is None or hand is None or not self.complete:
            return False
        return (self._pending_draw(self.public()) == seat
                and len(hand) < self.public().hand_sizes[seat])

    def seat_draws_rule(self) -> bool:
        """Whether the seat's rule was just guessed right and its new rule is still to come."""
        seat = self.seat
        if seat is None or not self.events:
            return False
        last, rules = self.events[-1], self.rules[seat] or ()
        return (isinstance(last, GuessOutcome) and last.right and last.target == seat
                and len(rules) < len(self.evidence.timeline.by_player[seat]))

    def _pending_draw(self, record: Public) -> int:
        """The last proposer, if a draw was due after the last event (else -1)."""
        if not self.events or not isinstance(self.events[-1], Proposal):
            return -1
        return self.events[-1].proposer if self.records[-2].deck_left > 0 else -1

    # -- the game state -------------------------------------------------------------------------

    def to_state(self, source: str) -> PoolPartyState:
        """The full game state; needs every rule and hand of a complete log."""
        if self.kind != "omniscient" or any(h is None for h in self.hands) or not self.complete:
            raise InputError(source, "hands", "a complete omniscient log with every player's "
                             "rules and hand, to make a game state")
        require_no_problems(self.problems(), source)
        record = self.public()
        rules = tuple(r for r in self.rules if r is not None)
        hands = tuple(h for h in self.hands if h is not None)
        last = self.events[-1] if self.events else None
        pending = self._pending_draw(record)
        if pending >= 0 and len(hands[pending]) < record.hand_sizes[pending]:
            phase = DRAW_GUEST
        elif (isinstance(last, GuessOutcome) and last.right
              and len(rules[last.target]) < len(self.evidence.timeline.by_player[last.target])):
            phase = DRAW_RULE
        else:
            phase = TURN if hands[self.table.turn_of(len(self.events))] else OVER
        try:
            return PoolPartyState.after_events(self.table, self.events, rules, hands, record,
                                               phase)
        except ValueError as error:
            raise InputError(source, "hands", f"a position ({error})") from None


def _answer_problem(event: Proposal, n: int, names: Sequence[str]) -> str | None:
    """What is wrong with a proposal's answers, if anything."""
    order = asked_order(event.proposer, n)
    seats = [a.seat for a in event.answers]
    if event.proposer in seats:
        return f"{names[event.proposer]} proposed the guest and is not asked"
    twice = sorted({names[s] for s in seats if seats.count(s) > 1})
    if twice:
        return f"{', '.join(twice)} answered twice"
    barred = [i for i, a in enumerate(event.answers) if a.bars]
    if barred and barred[0] < len(seats) - 1:
        after = ", ".join(names[s] for s in seats[barred[0] + 1:])
        return (f"asking stops at the first bar ({names[seats[barred[0]]]}), but {after} "
                "answered too")
    expected = list(order[: len(seats)])
    if seats != expected:
        return ("players are asked clockwise from the proposer's left: "
                f"{', '.join(names[s] for s in order)}")
    if not barred and len(seats) < len(order):
        missing = ", ".join(names[s] for s in order[len(seats):])
        return f"nobody barred the guest, so {missing} must be asked too"
    return None


def _answer_words(event: Event, player: int, names: Sequence[str]) -> str:
    who = names[player]
    if isinstance(event, GuessOutcome):
        return f"{who} said {'right' if event.right else 'wrong'} to Forbidden {event.rule.label}"
    bars = next(a.bars for a in event.answers if a.seat == player)
    return f"{who} {'barred' if bars else 'let in'} {event.guest}"


# -- reading ------------------------------------------------------------------------------------


def load_log(document: Mapping[str, Any], source: str) -> GameLog:
    """Parse a game-log document; malformed input raises :class:`InputError`."""
    root = Fields(document, source)
    game = root.text("game")
    if game != INFO.key:
        raise root.error("game", f"{INFO.key!r}", game)
    names = _players(root)
    mode = root.text("mode", "friendly", choices=("friendly", "competitive"))
    deck = _deck(root)  # a deck too small to deal is a rule problem: deck_problems()
    table = Table(names, deck, mode == "competitive")
    seat = _seat(root, "seat", names)
    complete = root.flag("complete", True)
    events = _events(root, names)
    rules = _per_player(root, "rules", names, _rule_list)
    hands = _per_player(root, "hands", names, _guest_list)
    puzzle = _puzzle(root, names, seat)
    pending = _pending(root, names, seat)
    root.done()
    _check_knowledge(root, names, seat, rules, hands)
    return GameLog(table, events, seat, rules, hands, complete, puzzle, pending)


def _players(root: Fields) -> tuple[str, ...]:
    names = root.array("players")
    if not INFO.min_players <= len(names) <= INFO.max_players:
        raise root.error("players", f"{INFO.min_players} to {INFO.max_players} player names",
                         names)
    for i, name in enumerate(names):
        if not isinstance(name, str):
            raise root.error(item_path("players", i), "a name in quotes (a string)", name)
        if not NAME.fullmatch(name) or name.lower() in RESERVED_NAMES or name.isdigit():
            raise root.error(item_path("players", i), "a name without spaces, colons or commas (and "
                             "not 'everyone', 'nobody' or a number)", name)
        if name in names[:i]:
            raise root.error(item_path("players", i), "a name different from the others", name)
    return tuple(names)


def _seat(root: Fields, key: str, names: tuple[str, ...]) -> int | None:
    name = root.text(key, None)
    if name is None:
        return None
    if name not in names:
        raise root.error(key, "one of the players " + ", ".join(map(repr, names)), name)
    return names.index(name)


def _deck(root: Fields, players: int = 0) -> tuple[Guest, ...]:
    """The deck, which must deal a hand of three to each of ``players`` (if given)."""
    value = root.raw("deck", "house")
    if value == "house":
        return HOUSE_DECK
    if not isinstance(value, list):
        raise root.error("deck", "'house' or a list of guests such as 'Animal-Swimsuit-Drink'",
                         value)
    if len(value) < HAND_SIZE * players:
        raise root.error("deck", f"at least {HAND_SIZE * players} guests (a hand of "
                         f"{HAND_SIZE} for each of {players} players)", f"{len(value)} guest(s)")
    return tuple(sorted(_guest_list(root, "deck", value), key=lambda g: g.id))


def _guest_list(fields: Fields, key: str, value: Any) -> tuple[Guest, ...]:
    if not isinstance(value, list):
        raise fields.error(key, "a list of guests such as 'Animal-Swimsuit-Drink'", value)
    return _parsed_items(fields, key, value, "a guest such as 'Animal-Swimsuit-Drink'",
                         parse_guest)


def _rule_list(fields: Fields, key: str, value: Any) -> tuple[Attribute, ...]:
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not items:
        raise fields.error(key, "a rule or a list of rules (one per card held, oldest first)",
                           value)
    return _parsed_items(fields, key, items, "a rule such as 'Animal'", parse_rule)


def _parsed_items(fields: Fields, key: str, items: list[Any], expected: str,
                  parse: Callable[[str], T]) -> tuple[T, ...]:
    """Each string of ``items`` parsed; a bad one is an input error at ``key[i]``."""
    parsed = []
    for i, item in enumerate(items):
        where = item_path(fields.field(key), i)
        if not isinstance(item, str):
            raise InputError(fields.source, where, expected, item)
        try:
            parsed.append(parse(item))
        except ValueError as error:
            raise InputError(fields.source, where, str(error), item) from None
    return tuple(parsed)


def _events(root: Fields, names: tuple[str, ...]) -> tuple[Event, ...]:
    items = root.array("events", [])
    events = []
    for i, item in enumerate(items):
        where = item_path("events", i)
        if not isinstance(item, str):
            raise InputError(root.source, where, "an event written as a string", item)
        try:
            events.append(parse_event(item, names))
        except ValueError as error:
            raise InputError(root.source, where, str(error), item) from None
    return tuple(events)


def _pending(root: Fields, names: tuple[str, ...], seat: int | None) -> Move | None:
    text = root.raw("pending", None)
    if text is None:
        return None
    if seat is None:
        raise root.error("pending", "no pending move outside a seat log (it is the seat's own "
                         "move, awaiting its answers)", text)
    if not isinstance(text, str):
        raise root.error("pending", "the seat's move as 'propose GUEST' or 'guess NAME RULE'",
                         text)
    try:
        return parse_move(text, names)
    except ValueError as error:
        raise root.error("pending", str(error), text) from None


def _per_player(root: Fields, key: str, names: tuple[str, ...], parse: Any
                ) -> tuple[Any, ...]:
    table = root.table(key, None)
    if table is None:
        return (None,) * len(names)
    for other in table.data:
        if other not in names:
            raise table.error(other, "a player name: " + ", ".join(map(repr, names)), other)
    return tuple(parse(table, name, table.raw(name)) if table.has(name) else None
                 for name in names)


def _puzzle(root: Fields, names: tuple[str, ...], seat: int | None) -> Puzzle | None:
    table = root.table("puzzle", None)
    if table is None:
        return None
    target = _seat(table, "target", names)
    if target is None:
        raise table.error("target", "the player whose rule the puzzle asks for")
    if target == seat:
        raise table.error("target", "another player than the seat (you know your own rule)",
                          names[target])
    difficulty = table.text("difficulty", None, choices=DIFFICULTIES)
    table.done()
    return Puzzle(target, difficulty)


def _check_knowledge(root: Fields, names: tuple[str, ...], seat: int | None,
                     rules: tuple[Any, ...], hands: tuple[Any, ...]) -> None:
    known = [names[p] for p, r in enumerate(rules) if r is not None]
    if seat is not None:
        others = [name for name in known if name != names[seat]]
        if others:
            raise root.error(f"rules.{others[0]}", f"only the seat's own rules in a seat log "
                             f"(seat = {names[seat]!r})")
        if rules[seat] is None:
            raise root.error(f"rules.{names[seat]}", "the seat's own rule (a seat log needs it)")
        held = [names[p] for p, h in enumerate(hands) if h is not None and p != seat]
        if held:
            raise root.error(f"hands.{held[0]}", "only the seat's own hand in a seat log")
    elif known and len(known) != len(names):
        missing = [name for name in names if name not in known]
        raise root.error(f"rules.{missing[0]}", "every player's rules (an omniscient log), "
                         "or set 'seat' for a seat log, or no rules for a public log")
    elif not known and any(h is not None for h in hands):
        raise root.error("hands", "no hands in a public log (name the seat to give a hand)")


def load_deck(document: Mapping[str, Any], source: str, players: int = INFO.min_players
              ) -> tuple[Guest, ...]:
    """A deck file: ``game = "pool-party-stars"`` and ``deck = [...]`` (or ``"house"``), with
    enough guests to deal a hand to each of ``players``."""
    root = Fields(document, source)
    game = root.text("game")
    if game != INFO.key:
        raise root.error("game", f"{INFO.key!r}", game)
    if not root.has("deck"):
        raise root.error("deck", "this field (it is required): 'house' or a list of guests")
    deck = _deck(root, players)
    root.done()
    return deck


def load_state(document: Mapping[str, Any], source: str) -> PoolPartyState:
    return load_log(document, source).to_state(source)


# -- writing ------------------------------------------------------------------------------------


def log_to_document(log: GameLog) -> dict[str, Any]:
    """The document of ``log`` (answers written in full)."""
    names = log.names
    doc: dict[str, Any] = {"game": INFO.key, "players": list(names),
                           "mode": "competitive" if log.table.competitive else "friendly",
                           "deck": "house" if log.table.house_deck else
                           [str(g) for g in log.table.deck]}
    if log.seat is not None:
        doc["seat"] = names[log.seat]
    if not log.complete:
        doc["complete"] = False
    doc["events"] = [format_event(e, names) for e in log.events]
    if log.pending is not None:
        doc["pending"] = format_move(log.pending, names)
    rules = {names[p]: [r.label for r in rs] for p, rs in enumerate(log.rules) if rs is not None}
    if rules:
        doc["rules"] = rules
    hands = {names[p]: [str(g) for g in h] for p, h in enumerate(log.hands) if h is not None}
    if hands:
        doc["hands"] = hands
    if log.puzzle is not None:
        puzzle: dict[str, Any] = {"target": names[log.puzzle.target]}
        if log.puzzle.difficulty:
            puzzle["difficulty"] = log.puzzle.difficulty
        doc["puzzle"] = puzzle
    return doc


def state_log(state: PoolPartyState) -> GameLog:
    """The omniscient log of a state (every rule and hand)."""
    return GameLog(state.table, state.events, None, state.rules, state.hands)


def knowledge_log(knowledge: Knowledge) -> GameLog:
    """The seat (or public) log of what one player knows."""
    n = knowledge.table.size
    rules = tuple(knowledge.rules if p == knowledge.seat else None for p in range(n))
    hands = tuple(knowledge.hand if p == knowledge.seat else None for p in range(n))
    return GameLog(knowledge.table, knowledge.events, knowledge.seat, rules, hands,
                   knowledge.complete)


def state_to_document(state: PoolPartyState) -> dict[str, Any]:
    return log_to_document(state_log(state))


def describe_log(log: GameLog) -> str:
    """A few lines on the table and where the game stands."""
    names = log.names
    record = log.public()
    lines = [f"{log.kind} log: {', '.join(names)} "
             f"({'competitive' if log.table.competitive else 'friendly'} mode, "
             f"{'house' if log.table.house_deck else 'custom'} deck of {len(log.table.deck)}), "
             f"{plural(len(log.events), 'event')}" + ("" if log.complete else " (an excerpt)")]
    if log.complete:
        vips = ", ".join(f"{names[p]} {len(v)}" for p, v in enumerate(record.vips))
        lines.append(f"VIPs: {vips}; waiting line: {len(record.waiting)}; "
                     f"deck: {record.deck_left}")
        lines.append(f"next to act: {names[log.table.turn_of(len(log.events))]}")
    if log.pending is not None:
        waiting = "the answers" if isinstance(log.pending, Propose) else "right or wrong"
        lines.append(f"pending: {format_move(log.pending, names)} (waiting for {waiting})")
    return "\n".join(lines)


__all__ = ["DEFAULT_NAMES", "GameLog", "Puzzle", "describe_log", "knowledge_log", "load_deck",
           "load_log",
           "load_state", "log_to_document", "state_log", "state_to_document"]

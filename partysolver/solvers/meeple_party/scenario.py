"""Perfect-information scenarios: can the party be won, or how many photos can be taken?

A scenario fixes the order of the bag and of every deck (``ordered = true``), so every chance
node has one outcome and the party is a puzzle.  The solver is a depth-first search over the
active player's decisions (the clock's between turns included):

* a transposition table on the position's key: a position is searched once;
* dominance pruning: a position that differs from one already searched only by higher stress
  or a later turn can do no better (stress only ever takes options away: a refresh needs a
  roommate below 3, the party is lost at 3 everywhere; a later turn is closer to sunrise), so
  it is skipped;
* move ordering by the turn hint's ranking (:class:`~.turn.TurnSearch`): the hint's line is
  tried first, so a winnable scenario usually answers on its first line; between turns (the
  clock's icon) the choices are tried in the hint's order there too (what each leaves the
  next player before moving).

It returns the winning line; ``unsolvable`` with the most photos any line takes when the search
is exhausted; ``unknown`` (with the best line found) when the budget runs out.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ...models.meeple_party.game import Dealt
from ...models.meeple_party.state import OVER, MeeplePartyState
from ...models.protocol import CHANCE, Action
from ...models.words import plural
from ..budget import Budget, BudgetExhausted, Meter
from .evaluate import Evaluator, rank_key
from .turn import TurnSearch, searchable


@dataclass
class ScenarioResult:
    """What the scenario search established."""

    verdict: str
    """``solvable``, ``unsolvable`` or ``unknown``."""
    status: str
    photos: int
    """Photos taken on the best line (the win's count when solvable)."""
    target: int
    line: list[str]
    stress: tuple[int, ...]
    usage: dict[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {"status": self.status, "verdict": self.verdict,
                "objective": {"photos": self.photos, "target": self.target,
                              "won": self.verdict == "solvable"},
                "solution": {"line": self.line, "stress": list(self.stress)},
                "usage": self.usage}

    def text(self, timings: bool = True) -> str:
        """The verdict, the search's size (and time, unless ``timings`` is off: a seeded run's
        output must not change from run to run) and the line."""
        head = {"solvable": f"solvable: the party is won ({plural(self.photos, 'photo')})",
                "unsolvable": f"unsolvable: no line wins; the most photos any line takes is "
                              f"{self.photos} of {self.target}",
                "unknown": f"unknown: the budget ran out; the best line found takes "
                           f"{self.photos} of {self.target} photos"}[self.verdict]
        usage = f"{self.usage.get('nodes', 0):,} positions" + (
            f", {self.usage.get('seconds', 0):.2f} s" if timings else "")
        lines = [f"{head} ({usage})"]
        if self.line:
            lines.append("line:" if self.verdict == "solvable" else "best line:")
            lines += [f"  {i}. {step}" for i, step in enumerate(self.line, 1)]
        return "\n".join(lines)


class ScenarioSearch:
    """One depth-first search of a scenario."""

    def __init__(self, root: MeeplePartyState, budget: Budget) -> None:
        if not root.setup.ordered:
            raise ValueError("a scenario needs the bag's and the decks' order (ordered = true)")
        self.root = root
        self.meter: Meter = budget.start()
        self.done: dict[Hashable, int] = {}
        """Fully searched positions (no win below them)."""
        self.frontier: dict[Hashable, list[tuple[tuple[int, ...], int]]] = {}
        """Per position without stress and turn: the (stress, turn) pairs searched."""
        self.best_photos = root.taken
        self.best_line: list[tuple[MeeplePartyState, Action]] = []
        self.won: list[tuple[MeeplePartyState, Action]] | None = None
        self.hints: dict[Hashable, TurnSearch] = {}
        self.most: dict[Hashable, int] = {}
        self.first: dict[Hashable, Action] = {}
        """Per decision searched, the action tried first (the turn hint's, where it ranks):
        a won line that plays another one there has proved that this one cannot win."""

    def run(self) -> bool:
        """Search until a win (``True``) or exhaustion (``False``)."""
        return self._search(self.root, [])

    def _settle(self, state: MeeplePartyState, line: list[tuple[MeeplePartyState, Action]]
                ) -> MeeplePartyState:
        """Apply chance nodes (one outcome each in a scenario), recording them in the line."""
        while state.current_player() == CHANCE:
            outcome = state.chance_outcomes()[0][0]
            line.append((state, outcome))
            state = state.apply(outcome)
        return state

    def _search(self, state: MeeplePartyState, line: list[tuple[MeeplePartyState, Action]]
                ) -> bool:
        line = list(line)
        state = self._settle(state, line)
        if state.taken > self.best_photos:
            self.best_photos, self.best_line = state.taken, line
        if state.phase == OVER:
            if state.outcome == "won":
                self.won = line
                return True
            return False
        key = state.key()
        if key in self.done or self._dominated(state):
            return False
        setup = state.setup
        turns_left = setup.turn_limit - state.turn + 1
        if state.taken + 2 * turns_left <= self.best_photos and \
                state.taken + 2 * turns_left < setup.photos_to_win:
            return False  # two photos a turn at most: neither a win nor a better count
        self.meter.node()
        if searchable(state) and state.current_player() >= 0 and (
                turns_left == 1 or state.taken + 2 * turns_left - 2 < setup.photos_to_win):
            # (with turns enough for the target at two photos a turn after this one, no count
            # of this turn's photos can cut: the exact count is not worth its search)
            most = state.taken + self._most_photos(state)
            if most >= setup.photos_to_win and turns_left == 1:
                pass  # this turn can win: search it for the line
            elif turns_left == 1 or (most + 2 * (turns_left - 1) < setup.photos_to_win
                                     and most + 2 * (turns_left - 1) <= self.best_photos):
                if turns_left == 1 and most > self.best_photos:
                    self.best_photos, self.best_line = most, []
                self._finish(key, state)
                return False
        for index, (action, child) in enumerate(self._ordered(state)):
            if index == 0:
                self.first[key] = action
            if self._search(child, line + [(state, action)]):
                return True
        self._finish(key, state)
        return False

    def _most_photos(self, state: MeeplePartyState) -> int:
        """The most photos the rest of this turn can take: exact, from the turn search ranking
        photos first (the decks are ordered, so nothing is left to chance)."""
        key = state.key()
        found = self.most.get(key)
        if found is None:
            value, _ = TurnSearch(state, self._left(), photos_first=True).value(state)
            found = self.most[key] = round(value[0])
        return found

    def _finish(self, key: Hashable, state: MeeplePartyState) -> None:
        self.done[key] = 1
        self._remember(state)

    def _loose_key(self, state: MeeplePartyState) -> Hashable:
        parts = list(state.key())  # type: ignore[call-overload]
        parts[4] = None  # stress
        parts[12] = None  # turn
        return tuple(parts)

    def _dominated(self, state: MeeplePartyState) -> bool:
        for stress, turn in self.frontier.get(self._loose_key(state), ()):
            if turn <= state.turn and all(a <= b for a, b in zip(stress, state.stress,
                                                                 strict=True)):
                return True
        return False

    def _remember(self, state: MeeplePartyState) -> None:
        self.frontier.setdefault(self._loose_key(state), []).append((state.stress, state.turn))

    def _ordered(self, state: MeeplePartyState) -> Iterator[tuple[Action, MeeplePartyState]]:
        """The children, the turn hint's choice first, then by the hint's values (the game's
        order among equals).  The others are valued only when the first did not win (most
        lines that win are the hint's all along)."""
        children = state.children()
        if len(children) < 2:
            yield from children
            return
        if not searchable(state):
            # between turns (the clock's icon): the hint's ranking there, what each choice
            # leaves the next player before moving (ties in the game's order)
            ahead = (state.active + 1) % state.num_players
            valued = [(rank_key(Evaluator(child._with(active=ahead)).plain(child.board,
                                                                             child.stress)),
                       action, child) for action, child in children]
            valued.sort(key=lambda item: item[0], reverse=True)
            yield from ((action, child) for _, action, child in valued)
            return
        search = self._turn_search(state)
        _, choice = search.value(state)
        rest = children
        for action, child in children:
            if action == choice:
                yield action, child
                rest = [(a, c) for a, c in children if a != choice]
                break
        scored = []
        for index, (action, child) in enumerate(rest):
            if searchable(child) and child.turn == state.turn:
                key: tuple[float, ...] = rank_key(search.value(child)[0])
            else:
                key = (-1.0,)
            scored.append((key, -index, action, child))
        scored.sort(key=lambda item: (item[0], item[1]), reverse=True)
        yield from ((action, child) for _, _, action, child in scored)

    def _left(self) -> Budget:
        """What is left of the time budget, for the turn searches inside the scenario search
        (their nodes are not the scenario's positions)."""
        limit = self.meter.budget.time
        return Budget(time=None if limit is None else max(0.0, limit - self.meter.elapsed))

    def _turn_search(self, state: MeeplePartyState) -> TurnSearch:
        key = (state.turn, state.active)
        found = self.hints.get(key)
        if found is None or found.root.turn != state.turn:
            found = TurnSearch(state, self._left())
            self.hints = {key: found}
        return found


def solve_scenario(state: MeeplePartyState, budget: Budget | None = None) -> ScenarioResult:
    """Decide a perfect-information scenario (see the module docstring)."""
    search = ScenarioSearch(state, budget or Budget())
    target = state.setup.photos_to_win
    try:
        won = search.run()
        exhausted = True
    except BudgetExhausted:
        won, exhausted = search.won is not None, False
    usage = search.meter.usage()
    if won and search.won is not None:
        line = search.won
        final = line[-1][0].apply(line[-1][1]) if line else state
        return ScenarioResult("solvable", "optimal", target, target, _words(line),
                              final.stress, usage)
    line = search.best_line
    final = line[-1][0].apply(line[-1][1]) if line else state
    if exhausted:
        return ScenarioResult("unsolvable", "optimal", search.best_photos, target,
                              _words(line), final.stress, usage)
    status = "feasible" if search.best_photos > state.taken else "unknown"
    return ScenarioResult("unknown", status, search.best_photos, target, _words(line),
                          final.stress, usage)


def _words(line: list[tuple[MeeplePartyState, Action]]) -> list[str]:
    """Each step of ``line`` in words; a step that ends a turn also names the photos it takes
    and the party fouls it sets off."""
    words = []
    for state, action in line:
        who = state.setup.players[state.active]
        text = state.describe_action(action) + _turn_end(state, action, state.apply(action))
        if state.current_player() == CHANCE:
            words.append(f"({text})")
        else:
            words.append(f"{who}: {text}")
    return words


def _turn_end(before: MeeplePartyState, action: Action, after: MeeplePartyState) -> str:
    """What the end of the turn in ``action`` (from ``before`` to ``after``) did, as words to
    append: photos taken (by name) and party fouls (by name), or nothing."""
    cards, seat = before.setup.cards, before.active
    said = []
    fouls = [cards.disasters[card].name for card in before.ending_fouls(action)]
    if fouls:  # step 3 comes before the photos
        said.append("party foul: " + ", ".join(f"'{name}'" for name in fouls)
                    + " (every player +1 stress for each)")
    if after.taken > before.taken:
        held = [card for card in before.photos[seat] if card >= 0]
        if isinstance(action, Dealt) and action.deck == "photo":  # a photo dealt just now
            held.append(action.card)
        taken = [cards.photos[card].name for card in held if card not in after.photos[seat]]
        names = " and ".join(f"'{name}'" for name in taken)
        said.append(f"takes {'photos' if len(taken) > 1 else 'photo'} {names}"
                    + (" (both: 1 stress off)" if len(taken) == 2 else ""))
    return "; then " + "; ".join(said) if said else ""

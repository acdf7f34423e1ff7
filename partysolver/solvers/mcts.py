"""Monte Carlo tree search with explicit chance nodes, for n players.

Each tree node keeps the sum of every player's returns through it.  At a decision node the
mover picks the child with the best UCB1 score for *its own* mean; at a chance node an outcome is
drawn with its exact probability.  A leaf is expanded one child at a time and valued by an
evaluator (by default a uniformly random playout).  The budget counts iterations and/or time;
with an iteration budget and a seeded ``random.Random`` the search is reproducible.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable
from typing import Any

from ..models.protocol import CHANCE, TERMINAL, State, sample_chance
from .budget import Budget, MoveValue, SearchResult
from .expectimax import require_chance_protocol
from .stats import wilson_interval

Evaluator = Callable[[Any, random.Random], tuple[float, ...]]
"""Values a non-terminal leaf for every player (e.g. the returns of a playout)."""

Policy = Callable[[Any, random.Random], Hashable]
"""Chooses an action for the player to act."""


def random_policy(state: State, rng: random.Random) -> Hashable:
    return rng.choice(list(state.legal_actions()))


def playout(state: State, rng: random.Random, policy: Policy = random_policy,
            decisions: int | None = None, cutoff: Evaluator | None = None
            ) -> tuple[float, ...]:
    """Play to the end with ``policy`` for every player (chance drawn exactly); the returns.
    With ``decisions`` and ``cutoff``: stop before decision number ``decisions + 1`` and return
    ``cutoff(state, rng)`` instead (a heuristic guess of the returns)."""
    player = state.current_player()
    while player != TERMINAL:
        if player == CHANCE:
            action = sample_chance(state, rng)
        else:
            if decisions is not None and cutoff is not None:
                if decisions == 0:
                    return cutoff(state, rng)
                decisions -= 1
            action = policy(state, rng)
        state = state.apply(action)
        player = state.current_player()
    return tuple(state.returns())


def random_playout(state: State, rng: random.Random) -> tuple[float, ...]:
    return playout(state, rng)


class Node:
    """A tree node: visits, the sum of each player's returns, and its children."""

    __slots__ = ("state", "player", "visits", "totals", "children", "untried")

    def __init__(self, state: State, num_players: int) -> None:
        self.state = state
        self.player = state.current_player()
        self.visits = 0
        self.totals = [0.0] * num_players
        self.children: dict[Hashable, Node] = {}
        self.untried: list[Hashable] = list(state.legal_actions()) if self.player >= 0 else []


class MCTS:
    """One search tree with its settings."""

    def __init__(self, state: State, rng: random.Random, evaluator: Evaluator = random_playout,
                 exploration: float = 1.4) -> None:
        require_chance_protocol(state, "MCTS")
        if state.current_player() < 0:
            raise ValueError("MCTS needs a position where a player is to act")
        self.rng = rng
        self.evaluator = evaluator
        self.exploration = exploration
        self.num_players = state.num_players
        self.root = Node(state, self.num_players)
        self.root_player = self.root.player
        self.rng.shuffle(self.root.untried)

    def iterate(self) -> None:
        """One simulation: select, expand one node, evaluate, back up."""
        node, path = self.root, [self.root]
        # Select: descend through fully expanded decision nodes and through chance nodes.
        while node.player != TERMINAL and not node.untried:
            node = self._descend(node)
            path.append(node)
        # Expand: one untried action of a decision node.
        if node.untried:
            action = node.untried.pop()
            child = self._child(node, action)
            path.append(child)
            node = child
        # Evaluate: a terminal state scores itself, any other leaf asks the evaluator.
        if node.player == TERMINAL:
            values = tuple(node.state.returns())
        else:
            values = self.evaluator(node.state, self.rng)
        # Back up every player's value along the path.
        for visited in path:
            visited.visits += 1
            totals = visited.totals
            for i, v in enumerate(values):
                totals[i] += v

    def _descend(self, node: Node) -> Node:
        if node.player == CHANCE:
            return self._child(node, sample_chance(node.state, self.rng))
        player, log_n = node.player, math.log(node.visits)
        c = self.exploration
        best, best_score = None, -math.inf
        for child in node.children.values():
            score = child.totals[player] / child.visits + c * math.sqrt(log_n / child.visits)
            if score > best_score:
                best, best_score = child, score
        assert best is not None
        return best

    def _child(self, node: Node, action: Hashable) -> Node:
        child = node.children.get(action)
        if child is None:
            child = Node(node.state.apply(action), self.num_players)
            self.rng.shuffle(child.untried)
            node.children[action] = child
        return child

    def root_moves(self) -> tuple[MoveValue, ...]:
        """Every root action, most visited first (the robust choice), with 95% intervals; an
        action the budget never reached comes last with no visits and the interval [0, 1]."""
        legal = self.root.state.legal_actions() if self.root_player >= 0 else []
        order = {action: i for i, action in enumerate(legal)}
        moves = []
        for action in legal:
            child = self.root.children.get(action)
            n = child.visits if child is not None else 0
            if child is None or n == 0:
                moves.append(MoveValue(action, math.nan, (), exact=False, visits=0,
                                       interval=wilson_interval(0.0, 0)))
                continue
            values = tuple(t / n for t in child.totals)
            mean = values[self.root_player]
            moves.append(MoveValue(action, mean, values, exact=False, visits=n,
                                   interval=wilson_interval(mean, n)))
        moves.sort(key=lambda m: (-m.visits, -m.value if m.visits else 0.0, order[m.action]))
        return tuple(moves)


def mcts(state: State, budget: Budget, rng: random.Random, evaluator: Evaluator = random_playout,
         exploration: float = 1.4) -> SearchResult:
    """Search ``state`` within ``budget``; the status is ``feasible`` (an estimate, not a proof)."""
    if budget.iterations is None and budget.time is None:
        raise ValueError("MCTS needs an iteration or time budget")
    search = MCTS(state, rng, evaluator, exploration)
    meter = budget.start()
    while not meter.exhausted():
        search.iterate()
        meter.iterations += 1
    root = search.root
    values = tuple(t / root.visits for t in root.totals) if root.visits else None
    moves = search.root_moves()
    usage: dict[str, Any] = meter.usage()
    searched = bool(moves) and moves[0].visits > 0
    line = (moves[0].action,) if searched else ()
    return SearchResult("feasible" if searched else "unknown", "MCTS", values, moves, line,
                        usage)

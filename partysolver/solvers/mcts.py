"""Monte Carlo tree search with explicit chance nodes and exact subtrees, for n players.

The tree holds decision nodes, chance nodes and leaves.  Every node carries an estimate of
every player's value; a node whose value is proved (a terminal state, a subtree an exact
``solver`` finished, or a node all of whose children are proved) is *solved*, and the search
never goes below it again.

One iteration:

1. **Select.**  From the root, a decision node sends the search to its child with the best
   UCB1 score (the mover's estimate plus an exploration bonus), among the children not yet
   solved; a chance node draws an outcome with its exact probability, among the outcomes not
   yet solved.  On the way, a node visited often enough is offered to the ``solver`` again with
   a node budget that grows with its visits (so the exact frontier rises where the search
   spends its time).
2. **Expand.**  The first untried action of a decision node, or an outcome never drawn before,
   becomes a new leaf: the ``solver`` values it exactly if it can within ``leaf_nodes``,
   otherwise the ``evaluator`` estimates it (by default a uniformly random playout).
3. **Back up.**  Along the path, each node's estimate is recomputed from its children: a chance
   node's is the probability-weighted average of its outcomes' estimates (renormalised over
   the outcomes drawn so far), a decision node's a blend of the visit-weighted average of its
   children's estimates and its best child's, the best child weighing more as visits grow
   (:meth:`MCTS._update_decision`).  A node becomes solved when its value is proved.

The budget counts iterations and/or time; with an iteration budget and a seeded
``random.Random`` the search is reproducible.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable
from typing import Any

from ..models.protocol import CHANCE, TERMINAL, State, sample_chance
from .budget import Budget, MoveValue, SearchResult, Status
from .expectimax import EPSILON, require_chance_protocol

Values = tuple[float, ...]

Evaluator = Callable[[Any, random.Random], Values]
"""Values a non-terminal leaf for every player (e.g. the returns of a playout)."""

Solver = Callable[[Any, int, float], "Values | None"]
"""``solver(state, nodes, deadline)``: every player's exact value of ``state`` if a search of at
most ``nodes`` nodes, stopping at ``time.perf_counter() >= deadline``, finishes; else ``None``."""

Policy = Callable[[Any, random.Random], Hashable]
"""Chooses an action for the player to act."""

EXPLORATION = 1.0
"""UCB1's exploration constant (values are win shares in [0, 1]; suits noisy leaves such as
single playouts: a game with steadier leaf estimates may pass a smaller one)."""
LEAF_NODES = 2_000
"""Nodes the solver may use on a new leaf."""
NODES_PER_VISIT = 200
"""A node offered to the solver again gets this many nodes per visit it has had..."""
RETRY_AFTER = 8
"""...first after this many visits, then each time its visits have doubled."""


def random_policy(state: State, rng: random.Random) -> Hashable:
    return rng.choice(list(state.legal_actions()))


def playout(state: State, rng: random.Random, policy: Policy = random_policy,
            decisions: int | None = None, cutoff: Evaluator | None = None
            ) -> Values:
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


def random_playout(state: State, rng: random.Random) -> Values:
    return playout(state, rng)


class Node:
    """A tree node: its visits, every player's estimate, whether that is proved, and its
    children (a decision's by action; a chance node's in the order of its outcomes)."""

    __slots__ = ("state", "player", "visits", "value", "first", "solved", "children",
                 "untried", "outcomes", "odds", "kids", "retry_at")

    def __init__(self, state: State) -> None:
        self.state = state
        self.player = state.current_player()
        self.visits = 0
        self.value: Values = ()
        self.first: Values = ()
        """The estimate the node had as a leaf (its evaluation)."""
        self.solved = False
        self.children: dict[Hashable, Node] = {}
        self.untried: list[Hashable] = list(state.legal_actions()) if self.player >= 0 else []
        self.outcomes: list[Hashable] = []
        self.odds: list[float] = []
        self.kids: list[Node | None] = []
        if self.player == CHANCE:
            for outcome, p in state.chance_outcomes():
                self.outcomes.append(outcome)
                self.odds.append(float(p))
            self.kids = [None] * len(self.outcomes)
        self.retry_at = RETRY_AFTER

    def prune(self) -> None:
        """Forget the subtree of a solved node."""
        self.children.clear()
        self.untried.clear()
        self.kids = [None] * len(self.kids)


class MCTS:
    """One search tree with its settings (see the module docstring)."""

    def __init__(self, state: State, rng: random.Random, evaluator: Evaluator = random_playout,
                 exploration: float | None = None, solver: Solver | None = None,
                 leaf_nodes: int | None = None, nodes_per_visit: int | None = None,
                 deadline: float = math.inf) -> None:
        require_chance_protocol(state, "MCTS")
        if state.current_player() < 0:
            raise ValueError("MCTS needs a position where a player is to act")
        self.rng = rng
        self.evaluator = evaluator
        self.exploration = EXPLORATION if exploration is None else exploration
        self.solver = solver
        self.leaf_nodes = LEAF_NODES if leaf_nodes is None else leaf_nodes
        self.nodes_per_visit = NODES_PER_VISIT if nodes_per_visit is None else nodes_per_visit
        self.deadline = deadline
        self.num_players = state.num_players
        self.root = Node(state)
        self.root_player = self.root.player
        self.rng.shuffle(self.root.untried)
        self.root.value = (0.0,) * self.num_players
        self.solved_leaves = 0
        self.evaluated_leaves = 0

    # -- one iteration ----------------------------------------------------------------------

    def iterate(self) -> None:
        node, path = self.root, [self.root]
        while not node.solved:
            if self._retry(node):
                break
            if node.player == CHANCE:
                node, new = self._outcome(node)
            elif node.untried:
                action = node.untried.pop()
                child = node.children[action] = self._child(node, action)
                node, new = child, True
            else:
                node, new = self._select(node), False
            path.append(node)
            if new:
                break
        for visited in reversed(path):
            visited.visits += 1
            if visited.player == CHANCE:
                self._update_chance(visited)
            elif visited.children:
                self._update_decision(visited)

    def _retry(self, node: Node) -> bool:
        """Offer a node visited often to the solver again, with a bigger budget (not the
        root: it is solved when its every option is)."""
        if (self.solver is None or node.visits < node.retry_at or node is self.root
                or not self.nodes_per_visit):
            return False
        node.retry_at = 2 * node.visits
        values = self.solver(node.state, self.nodes_per_visit * node.visits, self.deadline)
        if values is None:
            return False
        node.value, node.solved = tuple(values), True
        node.prune()
        return True

    def _outcome(self, node: Node) -> tuple[Node, bool]:
        """Draw an outcome among those not yet solved, with its exact (relative) probability;
        a new child if it was never drawn."""
        kids, odds = node.kids, node.odds
        total = 0.0
        for kid, p in zip(kids, odds, strict=True):
            if kid is None or not kid.solved:
                total += p
        pick = self.rng.random() * total
        last = -1
        for i, kid in enumerate(kids):
            if kid is None or not kid.solved:
                last = i
                pick -= odds[i]
                if pick < 0.0:
                    break
        child = kids[last]
        if child is not None:
            return child, False
        child = kids[last] = self._child(node, node.outcomes[last])
        return child, True

    def _child(self, node: Node, action: Hashable) -> Node:
        """A new node, valued: proved if terminal or solved, else estimated."""
        child = Node(node.state.apply(action))
        self.rng.shuffle(child.untried)
        if child.player == TERMINAL:
            child.value, child.solved = tuple(child.state.returns()), True
            return child
        if self.solver is not None:
            values = self.solver(child.state, self.leaf_nodes, self.deadline)
            if values is not None:
                child.value, child.solved = tuple(values), True
                self.solved_leaves += 1
                return child
        child.value = child.first = tuple(self.evaluator(child.state, self.rng))
        self.evaluated_leaves += 1
        return child

    def _select(self, node: Node) -> Node:
        """UCB1 on the mover's estimates (a solved child is chosen too: a visit to it only
        says that it is the best known, and weighs its value in its parent's)."""
        player, log_n = node.player, math.log(node.visits)
        c = self.exploration
        best, best_score = None, -math.inf
        for child in node.children.values():
            score = child.value[player] + c * math.sqrt(log_n / child.visits)
            if score > best_score:
                best, best_score = child, score
        assert best is not None
        return best

    def _update_chance(self, node: Node) -> None:
        """The odds-weighted average of the outcomes drawn so far; solved when every
        outcome is."""
        total = 0.0
        sums = [0.0] * self.num_players
        solved = True
        for kid, p in zip(node.kids, node.odds, strict=True):
            if kid is None:
                solved = False
                continue
            total += p
            solved = solved and kid.solved
            for i, v in enumerate(kid.value):
                sums[i] += p * v
        if total == 0.0:  # a leaf: no outcome drawn yet
            return
        node.value = tuple(s / total for s in sums)
        if solved:
            node.solved = True
            node.prune()

    def _update_decision(self, node: Node) -> None:
        """A blend of the visit-weighted average of the children's estimates (the node's own
        first estimate counts as one visit) and the mover's best child's estimate, the best
        child weighing ``1 - 1/sqrt(visits)``: the average is steady while few visits make
        the best child's estimate noisy, and the best child is what the node is worth once
        the search has looked at every option enough (the average alone stays dragged down
        by the exploration of worse options).  Solved when every option is, or one wins for
        certain."""
        player, children = node.player, node.children
        sums = list(node.first) if node.first else [0.0] * self.num_players
        weight = 1 if node.first else 0
        every = not node.untried
        won = None
        for child in children.values():
            if not child.solved:
                every = False
            elif child.value[player] >= 1.0 and won is None:
                won = child
            weight += child.visits
            for i, v in enumerate(child.value):
                sums[i] += child.visits * v
        if won is not None:
            node.value, node.solved = won.value, True
        elif every:  # the best option, first of equals in the game's order
            best = None
            for action in node.state.legal_actions():
                child = children[action]
                if best is None or child.value[player] > best.value[player] + EPSILON:
                    best = child
            assert best is not None
            node.value, node.solved = best.value, True
        else:  # from the visit-weighted mean towards the best option as visits grow
            top = max(children.values(), key=lambda c: c.value[player])
            share = 1.0 - 1.0 / math.sqrt(node.visits)
            node.value = tuple(share * t + (1.0 - share) * s / weight
                               for t, s in zip(top.value, sums, strict=True))
        if node.solved and node is not self.root:  # its subtree is no longer needed
            node.prune()

    # -- the answer -------------------------------------------------------------------------

    def root_moves(self) -> tuple[MoveValue, ...]:
        """Every root action, best estimate first (proved values are exact); an action the
        budget never reached comes last with no visits and no value."""
        root = self.root
        legal = root.state.legal_actions()
        order = {action: i for i, action in enumerate(legal)}
        moves = []
        for action in legal:
            child = root.children.get(action)
            if child is None:
                moves.append(MoveValue(action, math.nan, (), exact=False, visits=0))
                continue
            moves.append(MoveValue(action, child.value[self.root_player], child.value,
                                   exact=child.solved, visits=child.visits))
        moves.sort(key=lambda m: (m.visits == 0, -m.value if m.visits else 0.0,
                                  order[m.action]))
        return tuple(moves)


def mcts(state: State, budget: Budget, rng: random.Random, evaluator: Evaluator = random_playout,
         exploration: float | None = None, solver: Solver | None = None,
         min_iterations: int | None = None) -> SearchResult:
    """Search ``state`` within ``budget``: at least ``min_iterations`` iterations (default:
    one per root action, so that every option has an estimate), then until the budget is
    spent or the root is solved.  The status is ``feasible`` (an estimate, not a proof) unless
    every root action is proved (``optimal``)."""
    if budget.iterations is None and budget.time is None:
        raise ValueError("MCTS needs an iteration or time budget")
    meter = budget.start()
    deadline = math.inf if budget.time is None else meter.started + budget.time
    search = MCTS(state, rng, evaluator, exploration, solver, deadline=deadline)
    minimum = len(search.root.untried) if min_iterations is None else min_iterations
    while not search.root.solved and (meter.iterations < minimum or not meter.exhausted()):
        search.iterate()
        meter.iterations += 1
    moves = search.root_moves()
    usage: dict[str, Any] = meter.usage() | {"solved_leaves": search.solved_leaves,
                                             "evaluated_leaves": search.evaluated_leaves}
    searched = bool(moves) and moves[0].visits > 0
    proved = searched and all(m.exact for m in moves)
    line = (moves[0].action,) if searched else ()
    status: Status = "optimal" if proved else "feasible" if searched else "unknown"
    return SearchResult(status, "MCTS", search.root.value if searched else None, moves, line,
                        usage)

"""The shared game protocol every rules engine follows.

A game is declared as data (:class:`GameInfo`) and plugged into the registry as an object
following :class:`Game`.  Its positions are immutable, hashable :class:`State` values.  Chance
is an explicit pseudo-player (:data:`CHANCE`), as in OpenSpiel: at a chance node the state lists
its outcomes with exact probabilities and ``apply`` takes one of them like any action.

Generic solvers (``partysolver.solvers``) see only this protocol, never a concrete game.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from .notation import Playable
    from .playable import StepNotation

CHANCE = -1
"""``current_player()`` of a chance node."""

TERMINAL = -2
"""``current_player()`` of a finished game."""

Action = Hashable
"""A legal action or chance outcome: any hashable value whose ``str`` is its notation."""


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What a game is, as data."""

    key: str
    title: str
    min_players: int
    max_players: int
    chance: bool
    hidden_information: bool
    summary: str
    house_data: str | None = None
    """What this package ships that the publisher has not published (``None``: nothing)."""

    def player_counts(self) -> range:
        return range(self.min_players, self.max_players + 1)


@runtime_checkable
class State(Protocol):
    """An immutable, hashable game position."""

    @property
    def num_players(self) -> int: ...

    def current_player(self) -> int:
        """The player to act, :data:`CHANCE` or :data:`TERMINAL`."""
        ...

    def legal_actions(self) -> Sequence[Action]:
        """The acting player's actions in a fixed, documented order (empty at chance/terminal)."""
        ...

    def chance_outcomes(self) -> Sequence[tuple[Action, Fraction]]:
        """Outcomes of a chance node with exact probabilities summing to 1."""
        ...

    def apply(self, action: Action) -> State:
        """The state after ``action`` (a legal action or a chance outcome)."""
        ...

    def returns(self) -> tuple[float, ...]:
        """At a terminal state, each player's share of the win (ties share equally)."""
        ...

    def key(self) -> Hashable:
        """A canonical key: equal keys mean equal game-theoretic positions."""
        ...

    def view(self, player: int) -> View:
        """What ``player`` may know about this state."""
        ...

    def describe_action(self, action: Action) -> str:
        """A readable sentence for ``action`` in the game's own words."""
        ...


@runtime_checkable
class View(Protocol):
    """A player's information about a state: its key never changes with what is hidden."""

    @property
    def player(self) -> int: ...

    def key(self) -> Hashable: ...

    def sample(self, rng: random.Random) -> State:
        """A full state consistent with this view, drawn from the game's prior."""
        ...


@dataclass(frozen=True, slots=True)
class PerfectInformationView:
    """The view of a perfect-information game: the whole state, and it is the only sample."""

    state: State
    player: int

    def key(self) -> Hashable:
        return self.state.key()

    def sample(self, rng: random.Random) -> State:
        return self.state


class Game(Protocol):
    """A registered game: its declaration, a fresh start, its position-file round trip, its
    move notation and the positions one plays on from a file."""

    info: GameInfo

    @property
    def notation(self) -> StepNotation:
        """The move notation over full states (a
        :class:`~partysolver.models.playable.StepNotation`): what ``hint`` prints, what
        ``simulate --records`` writes, what play-along reads on a full state."""
        ...

    def initial_state(self, num_players: int, rng: random.Random) -> State:
        """A new game for ``num_players`` (random set-up drawn from ``rng``)."""
        ...

    def state_to_document(self, state: State) -> dict[str, Any]:
        """The position file (as a TOML/JSON document) that loads back to ``state``."""
        ...

    def state_from_document(self, document: Mapping[str, Any], source: str) -> State:
        """Load a position document; malformed input raises :class:`InputError`."""
        ...

    def playable(self, document: Mapping[str, Any], source: str) -> Playable:
        """The position of a file to play on (``apply``, ``play``, ``review``): a
        :class:`~partysolver.models.playable.StatePlayable` over a full state, or, for a
        hidden-information game, one seat's view; malformed input raises
        :class:`InputError`."""
        ...


def is_chance(state: State) -> bool:
    return state.current_player() == CHANCE


def is_terminal(state: State) -> bool:
    return state.current_player() == TERMINAL


def sample_chance(state: State, rng: random.Random) -> Action:
    """Draw one chance outcome with its exact probability.

    A state may offer a faster ``sample_outcome(rng)`` with the same distribution (optional
    protocol; the conformance test checks it only returns listed outcomes)."""
    fast = getattr(state, "sample_outcome", None)
    if fast is not None:
        return fast(rng)
    outcomes = state.chance_outcomes()
    if len(outcomes) == 1:
        return outcomes[0][0]
    weights = [float(probability) for _, probability in outcomes]
    return rng.choices([action for action, _ in outcomes], weights)[0]

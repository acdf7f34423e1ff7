"""Playouts to the end of the game, compiled with numba: what a play is worth in the long run.

The hint's expectimax is exact until the player's next turn, but what a play leaves for later
(tokens, the cards kept, where the bottle stands when the turn comes round again) only shows
over the rest of the game.  :func:`long_run` measures it: for each play it deals the unseen
cards from the player's view at random (the spec's information model), carries the play out
and plays the game to its end, every opponent playing greedy and the player their habits
(:func:`~.policies.habit_key`), and counts the strips the player lost.  Sample ``k`` of every
play starts from the same deal and the same random stream (common random numbers); the streams
fall out of step once two plays have drawn different numbers of cards, so the pairing helps
most over the first turns.

The rules are restated here over arrays: ``models/party_time/state.py`` is the reference, and
``tests/party_time/test_party_time_playouts.py`` holds the two equal (the same game, card for
card, when the engine is given the same cards; the same strips lost on average).  The
policies are not restated: their orders are read from :func:`~.policies.greedy_order` and
:func:`~.policies.habit_key` into tables, one row per (bottle, tokens).  The same playouts,
card for card, run without numba in :mod:`.interpreted` (what a hint runs until these are
compiled: no answer waits for the compile).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
from numba import njit

from ...models.party_time.game import STRIPS, Play, Rules
from ...models.party_time.state import PartyTimeState, PartyTimeView
from ...models.protocol import CHANCE, sample_chance
from .. import compiled, notices
from . import arrays
from .arrays import SEED_MASK, LongRun, Tables, inputs, tables
from .deals import Deals

__all__ = ["COMPILE_NOTICE", "SEED_MASK", "LongRun", "Tables", "announce_compile", "games",
           "long_run", "needs_compile", "tables", "warm_kernel", "warm_up"]

_GAIN, _RETURN = arrays.GAIN_SQUARE, arrays.RETURN_SQUARE
_R, _BLACK, _STAR = arrays.R, arrays.BLACK, arrays.STAR
_MAX_CHAIN = arrays.MAX_CHAIN
_BOTTLE, _DIRECTION, _REFILL = arrays.BOTTLE, arrays.DIRECTION, arrays.REFILL
COMPILE_NOTICE = compiled.PARTY_TIME_PLAYOUTS.notice
"""What a front end is told before the playouts compile (:func:`announce_compile`; the
kernel is declared in :mod:`partysolver.solvers.compiled`)."""


# -- the compiled rules ---------------------------------------------------------------------------
# ``s`` holds the scalars: bottle, direction, the player whose hand refills (-1: nobody).


@njit(cache=True)
def _pick(cards: np.ndarray, total: int) -> int:
    """Take one of ``total`` cards, uniform by counts, out of ``cards``; its type."""
    r = np.random.randint(total)
    card = 0
    while r >= cards[card]:
        r -= cards[card]
        card += 1
    cards[card] -= 1
    return card


@njit(cache=True)
def _take(pile: np.ndarray, played: np.ndarray) -> int:
    """The top card of the pile, uniform by counts; an emptied pile is rebuilt at once from the
    played cards (-1 when there is no card at all)."""
    total = 0
    for c in range(pile.shape[0]):
        total += pile[c]
    if total == 0:
        return -1
    card = _pick(pile, total)
    if total == 1:
        for c in range(pile.shape[0]):
            pile[c] = played[c]
            played[c] = 0
    return card


@njit(cache=True)
def _first(table: np.ndarray, bottle: int, tokens: int, hand: np.ndarray, only: int
           ) -> tuple[int, int]:
    """The first play of a policy row whose card is in ``hand`` (or is ``only``, if >= 0)."""
    for i in range(table.shape[2]):
        card = table[bottle, tokens, i, 0]
        if card < 0:
            break
        if (only < 0 and hand[card] > 0) or card == only:
            return card, table[bottle, tokens, i, 1]
    return -1, 0


@njit(cache=True)
def _resolve(squares: np.ndarray, reverse: bool, s: np.ndarray, tokens: np.ndarray,
             strips: np.ndarray, played: np.ndarray, actor: int, card: int, returned: int
             ) -> tuple[int, bool, bool]:
    """Carry out ``card`` (see ``state.resolve``): the next player, whether they must turn over
    the top card (a question mark), and whether the game is over."""
    n = strips.shape[0]
    length = squares.shape[0] - 1
    after = (actor + s[_DIRECTION]) % n
    loser = -1
    reveal = False
    played[card] += 1
    if card < _R:
        steps = card + 1 - returned
        held = tokens[actor] - returned
        if steps > 0:
            bottle = s[_BOTTLE]
            if steps > length - bottle:
                bottle = bottle + steps - length
                loser = actor
            else:
                bottle += steps
            s[_BOTTLE] = bottle
            square = squares[bottle]
            if square == _GAIN:
                held = held + 1 if held < 3 else 0
            elif square == _RETURN and held > 0:
                held -= 1
        tokens[actor] = held
    elif card == _R:
        if reverse:
            s[_DIRECTION] = -s[_DIRECTION]
            after = (actor + s[_DIRECTION]) % n
        else:
            after = (actor - s[_DIRECTION]) % n
    elif card == _BLACK:
        loser = after
    elif card == _STAR:
        s[_BOTTLE] = length
    else:
        reveal = True
    over = False
    if loser >= 0:
        strips[loser] -= 1
        over = strips[loser] == 0
    return after, reveal, over


@njit(cache=True)
def _stuck(squares: np.ndarray, s: np.ndarray, tokens: np.ndarray, hand: np.ndarray, me: int
           ) -> int:
    """1 when every card of ``hand`` crosses the star whatever tokens ``me`` returns."""
    reach = squares.shape[0] - 1 - s[_BOTTLE] + tokens[me]
    for card in range(hand.shape[0]):
        if hand[card] > 0 and (card >= _R or card + 1 <= reach):
            return 0
    return 1


@njit(cache=True)
def _close(window: np.ndarray, strips: np.ndarray, me: int, my_card: int, on_my_turn: int
           ) -> None:
    """End the watched window: ``window[:n]`` held every seat's strips when it opened and now
    holds what each lost in it, less the ``my_card`` strips I lost on a card a question mark
    made me carry out as my next turn; ``window[n]`` is 1 when I lost a strip in it (on the
    others' cards), ``window[n + 1]`` what my next turn's play costs (``on_my_turn``)."""
    n = strips.shape[0]
    for seat in range(n):
        window[seat] = window[seat] - strips[seat]
    window[me] -= my_card
    window[n] = 1 if window[me] > 0 else 0
    window[n + 1] = on_my_turn


@njit(cache=True)
def _carry_on(squares: np.ndarray, greedy: np.ndarray, habits: np.ndarray, reverse: bool,
              s: np.ndarray, tokens: np.ndarray, strips: np.ndarray, hands: np.ndarray,
              pile: np.ndarray, played: np.ndarray, me: int, nxt: int, reveal: bool,
              window: np.ndarray, watch: bool) -> None:
    """Play on to the end of the game from a card just carried out: ``nxt`` is the next player,
    who first turns over the top card if ``reveal``.  ``me`` plays the habits, everyone else
    greedy.  With ``watch``, ``window`` records what happens until my next turn begins (see
    :func:`_close`): the hint's one-turn figures, on the same playout."""
    n = strips.shape[0]
    if watch:
        for seat in range(n):
            window[seat] = strips[seat]
        window[n] = 0
        window[n + 1] = 0
    while True:
        chain = 0
        while reveal:
            chain += 1
            card = _take(pile, played)
            if card < 0 or chain > _MAX_CHAIN:
                if watch:
                    _close(window, strips, me, 0, 0)
                return
            returned = 0
            if card < _R and tokens[nxt] > 0:
                table = habits if nxt == me else greedy
                _, returned = _first(table, s[_BOTTLE], tokens[nxt], hands[nxt], card)
            actor = nxt
            mine = strips[me]
            nxt, reveal, over = _resolve(squares, reverse, s, tokens, strips, played, actor,
                                         card, returned)
            if watch and actor == me:  # a card a question mark makes me carry out: my turn
                _close(window, strips, me, mine - strips[me], mine - strips[me])
                watch = False
            if over:
                if watch:
                    _close(window, strips, me, 0, 0)
                return
        refill = s[_REFILL]
        if refill >= 0:
            card = _take(pile, played)
            if card < 0:
                if watch:
                    _close(window, strips, me, 0, 0)
                return
            hands[refill, card] += 1
            s[_REFILL] = -1
        if watch and nxt == me:  # my next turn: does my hand hold a safe card?
            _close(window, strips, me, 0, _stuck(squares, s, tokens, hands[me], me))
            watch = False
        table = habits if nxt == me else greedy
        card, returned = _first(table, s[_BOTTLE], tokens[nxt], hands[nxt], -1)
        hands[nxt, card] -= 1
        s[_REFILL] = nxt
        nxt, reveal, over = _resolve(squares, reverse, s, tokens, strips, played, nxt, card,
                                     returned)
        if over:
            if watch:
                _close(window, strips, me, 0, 0)
            return


@njit(cache=True)
def _deal(unseen: np.ndarray, hands: np.ndarray, sizes: np.ndarray, pile: np.ndarray) -> None:
    """Deal ``unseen`` at random: ``sizes[seat]`` cards to each hand, the rest to the pile."""
    for c in range(unseen.shape[0]):
        pile[c] = unseen[c]
    total = 0
    for c in range(pile.shape[0]):
        total += pile[c]
    for seat in range(hands.shape[0]):
        for _ in range(sizes[seat]):
            hands[seat, _pick(pile, total)] += 1
            total -= 1


@njit(cache=True)
def _arrays(players: int, types: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                               np.ndarray, np.ndarray]:
    """The working arrays of a playout: the scalars, tokens, strips, hands, pile and played
    cards."""
    return (np.empty(3, dtype=np.int64), np.empty(players, dtype=np.int64),
            np.empty(players, dtype=np.int64), np.empty((players, types), dtype=np.int64),
            np.empty(types, dtype=np.int64), np.empty(types, dtype=np.int64))


@njit(cache=True)
def _start(s: np.ndarray, tokens: np.ndarray, strips: np.ndarray, hands: np.ndarray,
           pile: np.ndarray, played: np.ndarray, scalars: np.ndarray, tokens0: np.ndarray,
           strips0: np.ndarray, played0: np.ndarray, hands0: np.ndarray, pile0: np.ndarray
           ) -> None:
    """Set the working arrays to a position with the hands ``hands0`` and the pile ``pile0``
    (its order is drawn as the cards are taken)."""
    s[:] = scalars
    tokens[:] = tokens0
    strips[:] = strips0
    hands[:, :] = hands0
    played[:] = played0
    pile[:] = pile0


@njit(cache=True)
def _long_run(squares: np.ndarray, greedy: np.ndarray, habits: np.ndarray, reverse: bool,
              scalars: np.ndarray, tokens0: np.ndarray, strips0: np.ndarray,
              hand0: np.ndarray, unseen: np.ndarray, sizes: np.ndarray, hands0: np.ndarray,
              piles0: np.ndarray, played0: np.ndarray, me: int, from_hand: bool,
              plays: np.ndarray, samples: int, seed: int, windows: np.ndarray) -> np.ndarray:
    """Strips ``me`` loses by the end of the game after each of ``plays`` (from hand, or the
    revealed card carried out), ``samples`` paired playouts each: sample ``k`` of every play
    starts from the same deal and the same random stream (seeded ``seed + k``).  The deal is
    ``hands0[k]`` and ``piles0[k]`` when given (the deals used in turn when there are fewer),
    else ``unseen`` dealt at random from the stream (``sizes[seat]`` cards to each hand).
    ``windows[p, k]`` records playout ``k`` of play ``p`` until my next turn (:func:`_close`;
    zeros when the play ends the game)."""
    lost = np.zeros((plays.shape[0], samples), dtype=np.int64)
    s, tokens, strips, hands, pile, played = _arrays(strips0.shape[0], hand0.shape[0])
    deals = piles0.shape[0]
    empty = np.zeros((strips0.shape[0], hand0.shape[0]), dtype=np.int64)
    for k in range(samples):
        for p in range(plays.shape[0]):
            np.random.seed((seed + k) & 0x7FFFFFFF)
            if deals:
                _start(s, tokens, strips, hands, pile, played, scalars, tokens0, strips0,
                       played0, hands0[k % deals], piles0[k % deals])
            else:
                _start(s, tokens, strips, hands, pile, played, scalars, tokens0, strips0,
                       played0, empty, unseen)
                _deal(unseen, hands, sizes, pile)
            hands[me, :] = hand0
            card, returned = plays[p, 0], plays[p, 1]
            if from_hand:
                hands[me, card] -= 1
                s[_REFILL] = me
            nxt, reveal, over = _resolve(squares, reverse, s, tokens, strips, played, me,
                                         card, returned)
            if not over:
                _carry_on(squares, greedy, habits, reverse, s, tokens, strips, hands, pile,
                          played, me, nxt, reveal, windows[p, k], True)
            lost[p, k] = strips0[me] - strips[me]
    return lost


@njit(cache=True)
def _games(squares: np.ndarray, greedy: np.ndarray, habits: np.ndarray, reverse: bool,
           deck: np.ndarray, players: int, me: int, games: int, seed: int) -> np.ndarray:
    """Whole games from the set-up (seat 0 begins), everyone greedy but ``me`` (habits; -1:
    nobody): the strips each seat lost, one row per game.  For tests and benchmarks."""
    lost = np.zeros((games, players), dtype=np.int64)
    s, tokens, strips, hands, pile, played = _arrays(players, deck.shape[0])
    scalars = np.array([0, 1, -1], dtype=np.int64)  # the bottle on the star, clockwise
    zeros = np.zeros(players, dtype=np.int64)
    full = np.full(players, STRIPS, dtype=np.int64)
    sizes = np.full(players, 3, dtype=np.int64)
    nothing = np.zeros(deck.shape[0], dtype=np.int64)
    np.random.seed(seed & 0x7FFFFFFF)
    empty = np.zeros((players, deck.shape[0]), dtype=np.int64)
    unwatched = np.zeros(players + 2, dtype=np.int64)
    for g in range(games):
        _start(s, tokens, strips, hands, pile, played, scalars, zeros, full, nothing, empty,
               nothing)
        _deal(deck, hands, sizes, pile)
        # Seat 0 begins: as if a card had just been carried out with seat 0 next.
        _carry_on(squares, greedy, habits, reverse, s, tokens, strips, hands, pile, played,
                  me, 0, False, unwatched, False)
        for seat in range(players):
            lost[g, seat] = STRIPS - strips[seat]
    return lost


# -- the Python side -------------------------------------------------------------------------


def long_run(view: PartyTimeView, plays: list[Play] | tuple[Play, ...], samples: int,
             seed: int = 0, deals: Deals | None = None) -> LongRun:
    """Strips ``view``'s player loses by the end of the game after each of ``plays``, by
    ``samples`` paired playouts (the opponents greedy, the player their habits after the
    play), and what each playout did until the player's next turn (:attr:`LongRun.windows`).
    Playout ``k`` of every play starts from the same deal of the unseen cards and the same
    random stream (seeded ``seed + k``): ``deals[k]`` when given (the search can read the same
    deals: :mod:`.deals`), else a deal drawn from that stream.  ``view``'s player must be the
    one to act.  Compiled (the first run compiles, announced: :func:`announce_compile`);
    :func:`.interpreted.long_run` gives the same playouts without numba."""
    given = inputs(view, plays, samples, seed, deals)
    announce_compile()
    lost = _long_run(*given.arguments())
    return LongRun(tuple(plays), samples, lost, view.strips[view.player], given.windows)


def games(rules: Rules, players: int, games: int, seed: int = 0, me: int = -1) -> np.ndarray:
    """Strips lost per seat in ``games`` compiled games from the set-up: everyone greedy, or
    seat ``me`` playing the habits."""
    t = tables(rules)
    compiled.before_compiling(compiled.PARTY_TIME_GAMES)
    return _games(t.squares, t.greedy, t.habits, t.reverse, np.array(rules.deck, dtype=np.int64),
                  players, me, games, seed & SEED_MASK)


def needs_compile() -> bool:
    """Whether the next :func:`long_run` compiles the playouts first (no machine code for them
    in this process or numba's cache): the first run after an install."""
    return not compiled.ready(compiled.PARTY_TIME_PLAYOUTS)


def warm_up(new_game: Callable[[random.Random], PartyTimeState]) -> None:
    """Compile the playouts now (or load them from numba's cache), announced when they
    compile: one paired playout from the first decision with a choice of a new game."""
    rng = random.Random(0)
    state = new_game(rng)
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state = state.apply(sample_chance(state, rng))
        elif len(state.legal_actions()) < 2:
            state = state.apply(state.legal_actions()[0])
        else:
            view = state.view(state.turn)
            long_run(view, view.legal_actions(), 1)
            return


def warm_kernel() -> None:
    """Compile the playouts (or load them from numba's cache): :func:`warm_up` on a house
    game of four.  What ``python -m partysolver.solvers.compiled`` runs, in the background
    process a first hint starts (:data:`partysolver.solvers.compiled.PARTY_TIME_PLAYOUTS`)."""
    from ...models.party_time import GAME, HOUSE_RULES

    warm_up(lambda rng: GAME.initial_state(4, rng, HOUSE_RULES))


def announce_compile() -> None:
    """Tell whatever front end listens (:mod:`..notices`), once, that the playouts are about to
    be compiled, when they are."""
    if needs_compile():
        notices.notice(COMPILE_NOTICE)

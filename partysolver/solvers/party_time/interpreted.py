"""The Party-Time playouts without numba: the compiled kernel's playouts, card for card, over numpy.

:func:`long_run` gives what :func:`.playouts.long_run` gives (the same strips lost, the same
windows, for the same seed), with no compile: what a hint runs until the compiled playouts are
ready (``solvers/party_time/hint.py``).  Every playout is a *lane*, and the lanes move in
lockstep, one card per lane per step, by numpy's array operations (indexing by the lanes still
playing); a lane that ends its game drops out.  The rules and the policies are the kernel's
(:mod:`.playouts`: the same tables, :func:`.arrays.tables`), restated over lanes, and
``tests/party_time/test_party_time_interpreted.py`` holds the two equal, playout for playout.

The random numbers are the kernel's too.  Numba's ``np.random.seed(s)`` starts a Mersenne
Twister (MT19937) from ``s`` by the reference initialisation (``init_genrand``), and its
``np.random.randint(n)`` keeps the low bits of each 32-bit output that ``n - 1`` needs and draws
again while the number is ``n`` or more (no draw at all when ``n`` is 1), as NumPy's legacy
generator does.  :class:`Streams` computes those 32-bit outputs for many seeds at once, and
each lane reads its own from the start: playout ``k`` of every play from the stream seeded
``seed + k``, as the kernel reseeds before each playout.
"""

from __future__ import annotations

import numpy as np

from ...models.party_time.game import Play
from ...models.party_time.state import PartyTimeView
from .arrays import (
    BLACK,
    GAIN_SQUARE,
    MAX_CHAIN,
    MAX_PLAYS,
    QUESTION,
    RETURN_SQUARE,
    SEED_MASK,
    STAR,
    TYPES,
    Inputs,
    LongRun,
    R,
    inputs,
)
from .deals import Deals

# -- the Mersenne Twister, many seeds at once ------------------------------------------------------

_N, _M = 624, 397
_UPPER, _LOWER = np.uint32(0x80000000), np.uint32(0x7FFFFFFF)
_MATRIX = np.uint32(0x9908B0DF)


class Streams:
    """The 32-bit outputs of MT19937 started by ``init_genrand(seed)`` (numba's
    ``np.random.seed``), one row per seed: ``raw[row, i]`` is the ``i``-th output of the
    stream of ``seeds[row]``.  It grows by 624 outputs a row (one regeneration of the state)
    when asked (:meth:`reach`)."""

    def __init__(self, seeds: np.ndarray) -> None:
        x = np.asarray(seeds, dtype=np.uint64) & np.uint64(0xFFFFFFFF)
        state = np.empty((len(x), _N), dtype=np.uint64)
        state[:, 0] = x
        for i in range(1, _N):
            x = (np.uint64(1812433253) * (x ^ (x >> np.uint64(30))) + np.uint64(i)) \
                & np.uint64(0xFFFFFFFF)
            state[:, i] = x
        self.state = state.astype(np.uint32)
        self.raw = np.empty((len(x), 0), dtype=np.int64)

    def reach(self, index: int) -> None:
        """Make sure that every row holds output ``index`` (growing at least twofold)."""
        have = self.raw.shape[1]
        if index < have:
            return
        blocks = [self.raw]
        want = max(index, 2 * have - 1)
        while have <= want:
            self._twist()
            blocks.append(_temper(self.state))
            have += _N
        self.raw = np.concatenate(blocks, axis=1)

    def _twist(self) -> None:
        """The next 624 words of every state (the reference regeneration, in four slices: each
        reads only words the reference has, at that point, already or not yet replaced)."""
        mt = self.state

        def step(low: int, high: int, far: np.ndarray, following: np.ndarray) -> None:
            y = (mt[:, low:high] & _UPPER) | (following & _LOWER)
            mt[:, low:high] = far ^ (y >> np.uint32(1)) ^ ((y & np.uint32(1)) * _MATRIX)

        step(0, _N - _M, mt[:, _M:], mt[:, 1:_N - _M + 1])
        step(_N - _M, 2 * (_N - _M), mt[:, :_N - _M], mt[:, _N - _M + 1:2 * (_N - _M) + 1])
        step(2 * (_N - _M), _N - 1, mt[:, _N - _M:_M - 1], mt[:, 2 * (_N - _M) + 1:])
        step(_N - 1, _N, mt[:, _M - 1:_M], mt[:, :1])


def _temper(words: np.ndarray) -> np.ndarray:
    y = words.copy()
    y ^= y >> np.uint32(11)
    y ^= (y << np.uint32(7)) & np.uint32(0x9D2C5680)
    y ^= (y << np.uint32(15)) & np.uint32(0xEFC60000)
    y ^= y >> np.uint32(18)
    return y.astype(np.int64)


# -- the playouts, lane by lane in lockstep ---------------------------------------------------------

LANES = 1 << 14
"""The most playouts run at once: more samples are played in slices of this many lanes (each
lane holds some 2 KB of working arrays)."""


_BITS = np.int64(1) << np.arange(TYPES, dtype=np.int64)
"""A hand's types held, as the bits of one number (``_Choices.from_hand``)."""


class _Choices:
    """The kernel's ``_first`` as tables: the first play of a policy row whose card is in the
    hand depends only on which types the hand holds (``TYPES`` bits), and the play carrying
    out a revealed card only on that card.  ``from_hand[policy, bottle, tokens, held]`` and
    ``revealed[policy, bottle, tokens, card]`` hold (card, tokens returned), (-1, 0) where no
    play fits; policy 0 is greedy, 1 the habits."""

    def __init__(self, greedy: np.ndarray, habits: np.ndarray) -> None:
        padded = np.full(habits.shape, -1, dtype=np.int64)
        padded[:, :, :greedy.shape[2]] = greedy
        rows = np.stack([padded, habits])  # (policy, bottle, tokens, i, card/returned)
        assert rows.shape[3] == MAX_PLAYS
        cards = rows[..., 0]
        held = (np.arange(1 << TYPES)[:, None] & _BITS[None, :]) > 0  # (held, type)
        valid = (cards >= 0)[..., None, :] & \
            np.moveaxis(held[:, np.maximum(cards, 0)], 0, -2)  # (..., held, i)
        self.from_hand = _firsts(rows[..., None, :, :], valid)
        kinds = np.arange(TYPES)
        self.revealed = _firsts(rows[..., None, :, :], cards[..., None, :] == kinds[:, None])


def _firsts(rows: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """Per row, the first (card, returned) where ``valid`` (over the last axis), else
    (-1, 0)."""
    index = valid.argmax(axis=-1)
    found = np.take_along_axis(valid, index[..., None], axis=-1)[..., 0]
    rows = np.broadcast_to(rows, (*valid.shape, 2))
    chosen = np.take_along_axis(rows, index[..., None, None], axis=-2)[..., 0, :]
    return np.where(found[..., None], chosen, np.array([-1, 0]))


class _Lanes:
    """The working state of a slice of playouts (the kernel's ``s``, tokens, strips, hands,
    pile and played cards, one row per lane), and the rules they follow."""

    def __init__(self, given: Inputs, choices: _Choices, rows: np.ndarray, seeds: np.ndarray
                 ) -> None:
        lanes = len(rows)
        n = given.strips0.shape[0]
        self.n, self.me = n, given.me
        self.squares = given.squares
        self.length = given.squares.shape[0] - 1
        self.reverse = given.reverse
        self.choices = choices
        self.masks = np.zeros(0, dtype=np.int64)
        self.streams = Streams(seeds)
        self.row = rows
        self.drawn = np.zeros(lanes, dtype=np.int64)
        self.bottle = np.full(lanes, given.scalars[0], dtype=np.int64)
        self.direction = np.full(lanes, given.scalars[1], dtype=np.int64)
        self.refill = np.full(lanes, given.scalars[2], dtype=np.int64)
        self.tokens = np.tile(given.tokens0, (lanes, 1))
        self.strips = np.tile(given.strips0, (lanes, 1))
        self.played = np.tile(given.played0, (lanes, 1))
        self.hands = np.zeros((lanes, n, TYPES), dtype=np.int64)
        self.pile = np.zeros((lanes, TYPES), dtype=np.int64)
        self.next = np.zeros(lanes, dtype=np.int64)
        self.reveal = np.zeros(lanes, dtype=bool)
        self.chain = np.zeros(lanes, dtype=np.int64)
        self.watch = np.zeros(lanes, dtype=bool)
        self.done = np.zeros(lanes, dtype=bool)
        self.window = np.zeros((lanes, n + 2), dtype=np.int64)

    # -- chance ------------------------------------------------------------------------------

    def randint(self, lanes: np.ndarray, totals: np.ndarray) -> np.ndarray:
        """Numba's ``np.random.randint(total)`` on each lane's stream (see the module)."""
        found = np.zeros(len(lanes), dtype=np.int64)
        waiting = np.flatnonzero(totals > 1)
        if not waiting.size:
            return found
        if int(totals.max()) >= len(self.masks):  # the low bits n - 1 needs, for every n
            below = np.arange(2 * int(totals.max()) + 2)
            self.masks = (np.int64(1) << np.frexp(np.maximum(below - 1, 1))[1]
                          .astype(np.int64)) - 1
        masks = self.masks[totals]
        while waiting.size:
            at = lanes[waiting]
            self.streams.reach(int(self.drawn[at].max()))
            value = self.streams.raw[self.row[at], self.drawn[at]] & masks[waiting]
            self.drawn[at] += 1
            fits = value < totals[waiting]
            found[waiting[fits]] = value[fits]
            waiting = waiting[~fits]
        return found

    def pick(self, lanes: np.ndarray, cards: np.ndarray, totals: np.ndarray) -> np.ndarray:
        """The kernel's ``_pick``: a card type of ``cards`` (the lanes' counts), uniform by
        counts (not taken out here)."""
        r = self.randint(lanes, totals)
        return (np.cumsum(cards, axis=1) <= r[:, None]).sum(axis=1)

    def take(self, lanes: np.ndarray) -> np.ndarray:
        """The kernel's ``_take``: the top card of each lane's pile (-1: no card at all), an
        emptied pile rebuilt at once from the played cards."""
        pile = self.pile[lanes]
        totals = pile.sum(axis=1)
        card = np.full(len(lanes), -1, dtype=np.int64)
        some = totals > 0
        at, totals = lanes[some], totals[some]
        taken = self.pick(at, pile[some], totals)
        self.pile[at, taken] -= 1
        last = at[totals == 1]
        self.pile[last] = self.played[last]
        self.played[last] = 0
        card[some] = taken
        return card

    def deal(self, lanes: np.ndarray, unseen: np.ndarray, sizes: np.ndarray) -> None:
        """The kernel's ``_deal`` on these lanes: ``sizes[seat]`` cards to each hand."""
        self.pile[lanes] = unseen
        total = int(unseen.sum())
        for seat, size in enumerate(sizes):
            for _ in range(int(size)):
                card = self.pick(lanes, self.pile[lanes], np.full(len(lanes), total))
                self.pile[lanes, card] -= 1
                self.hands[lanes, seat, card] += 1
                total -= 1

    # -- the rules -----------------------------------------------------------------------------

    def first(self, lanes: np.ndarray, seat: np.ndarray, only: np.ndarray | None
              ) -> tuple[np.ndarray, np.ndarray]:
        """The kernel's ``_first``: the first play of ``seat``'s policy (the habits for me,
        else greedy) whose card is in its hand (or is ``only``); (-1, 0) when none is."""
        policy = (seat == self.me).astype(np.int64)
        bottle, tokens = self.bottle[lanes], self.tokens[lanes, seat]
        if only is None:
            held = (self.hands[lanes, seat] > 0) @ _BITS
            chosen = self.choices.from_hand[policy, bottle, tokens, held]
        else:
            chosen = self.choices.revealed[policy, bottle, tokens, only]
        return chosen[:, 0], chosen[:, 1]

    def resolve(self, lanes: np.ndarray, actor: np.ndarray, card: np.ndarray,
                returned: np.ndarray) -> np.ndarray:
        """The kernel's ``_resolve``: carry out ``card``; sets the next player and whether
        they turn over the top card, and returns whether the game is over."""
        n, length = self.n, self.length
        direction = self.direction[lanes]
        after = (actor + direction) % n
        self.played[lanes, card] += 1
        number = card < R
        steps = card + 1 - returned
        held = self.tokens[lanes, actor] - returned
        bottle = self.bottle[lanes]
        moving = number & (steps > 0)
        crossing = moving & (steps > length - bottle)
        bottle = np.where(crossing, bottle + steps - length,
                          np.where(moving, bottle + steps, bottle))
        loser = np.where(crossing, actor, -1)
        square = self.squares[bottle]
        held = np.where(moving & (square == GAIN_SQUARE), np.where(held < 3, held + 1, 0), held)
        held -= moving & (square == RETURN_SQUARE) & (held > 0)
        self.tokens[lanes[number], actor[number]] = held[number]
        turned = card == R
        if self.reverse:
            direction = np.where(turned, -direction, direction)
            self.direction[lanes] = direction
            after = np.where(turned, (actor + direction) % n, after)
        else:
            after = np.where(turned, (actor - direction) % n, after)
        loser = np.where(card == BLACK, after, loser)
        self.bottle[lanes] = np.where(card == STAR, length, bottle)
        self.next[lanes] = after
        self.reveal[lanes] = card >= QUESTION
        over = np.zeros(len(lanes), dtype=bool)
        hit = loser >= 0
        at, seat = lanes[hit], loser[hit]
        self.strips[at, seat] -= 1
        over[hit] = self.strips[at, seat] == 0
        return over

    def stuck(self, lanes: np.ndarray) -> np.ndarray:
        """The kernel's ``_stuck``: 1 where every card of my hand crosses the star."""
        reach = self.length - self.bottle[lanes] + self.tokens[lanes, self.me]
        kinds = np.arange(TYPES)
        safe = (self.hands[lanes, self.me] > 0) & \
            ((kinds >= R) | (kinds[None, :] + 1 <= reach[:, None]))
        return (~safe.any(axis=1)).astype(np.int64)

    # -- the window until my next turn -----------------------------------------------------------

    def close(self, lanes: np.ndarray, my_card: np.ndarray | int, on_my_turn: np.ndarray | int
              ) -> None:
        """The kernel's ``_close``, and the lanes stop watching."""
        n, me = self.n, self.me
        window = self.window[lanes]
        window[:, :n] -= self.strips[lanes]
        window[:, me] -= my_card
        window[:, n] = window[:, me] > 0
        window[:, n + 1] = on_my_turn
        self.window[lanes] = window
        self.watch[lanes] = False

    def finish(self, lanes: np.ndarray) -> None:
        """These lanes' games end (their windows closed, if open)."""
        self.close(lanes[self.watch[lanes]], 0, 0)
        self.done[lanes] = True

    # -- the steps of ``_carry_on`` --------------------------------------------------------------

    def reveal_step(self, lanes: np.ndarray) -> None:
        """Each lane's next player turns over the top card and carries it out."""
        self.chain[lanes] += 1
        card = self.take(lanes)
        stop = (card < 0) | (self.chain[lanes] > MAX_CHAIN)
        self.finish(lanes[stop])
        lanes, card = lanes[~stop], card[~stop]
        actor = self.next[lanes]
        returned = np.zeros(len(lanes), dtype=np.int64)
        choose = (card < R) & (self.tokens[lanes, actor] > 0)
        if choose.any():
            returned[choose] = self.first(lanes[choose], actor[choose], card[choose])[1]
        mine = self.strips[lanes, self.me]
        over = self.resolve(lanes, actor, card, returned)
        mine_now = (actor == self.me) & self.watch[lanes]  # a card a question mark made me
        if mine_now.any():                                  # carry out: my next turn
            lost = mine[mine_now] - self.strips[lanes[mine_now], self.me]
            self.close(lanes[mine_now], lost, lost)
        self.finish(lanes[over])

    def play_step(self, lanes: np.ndarray) -> None:
        """Each lane's refill is drawn, then its next player plays from hand."""
        refill = self.refill[lanes]
        drawing = refill >= 0
        if drawing.any():
            at = lanes[drawing]
            card = self.take(at)
            empty = card < 0
            self.finish(at[empty])
            self.hands[at[~empty], refill[drawing][~empty], card[~empty]] += 1
            self.refill[at] = -1
            lanes = lanes[~self.done[lanes]]
        seat = self.next[lanes]
        mine = self.watch[lanes] & (seat == self.me)
        if mine.any():  # my next turn: does my hand hold a safe card?
            self.close(lanes[mine], 0, self.stuck(lanes[mine]))
        card, returned = self.first(lanes, seat, None)
        self.hands[lanes, seat, card] -= 1
        self.refill[lanes] = seat
        over = self.resolve(lanes, seat, card, returned)
        self.chain[lanes] = 0
        self.finish(lanes[over])


def _slice(given: Inputs, choices: _Choices, first: int, count: int
           ) -> tuple[np.ndarray, np.ndarray]:
    """Playouts ``first`` ... ``first + count - 1`` of every play: strips lost and windows,
    one row per play.  Lane ``p * count + k`` plays play ``p`` from sample ``first + k``."""
    plays = given.plays.shape[0]
    rows = np.tile(np.arange(count), plays)
    samples = np.arange(first, first + count)
    lanes = _Lanes(given, choices, rows, (given.seed + samples) & SEED_MASK)
    every = np.arange(len(rows))
    deals = given.piles0.shape[0]
    if deals:
        lanes.hands[:] = given.hands0[samples % deals][rows]
        lanes.pile[:] = given.piles0[samples % deals][rows]
    else:  # every play of a sample deals the same cards: dealt once, on the first play's lanes
        lanes.deal(np.arange(count), given.unseen, given.sizes)
        lanes.hands[:] = lanes.hands[rows]
        lanes.pile[:] = lanes.pile[rows]
        lanes.drawn[:] = lanes.drawn[rows]
    me = given.me
    lanes.hands[:, me] = given.hand0
    card = np.repeat(given.plays[:, 0], count)
    returned = np.repeat(given.plays[:, 1], count)
    if given.from_hand:
        lanes.hands[every, me, card] -= 1
        lanes.refill[:] = me
    over = lanes.resolve(every, np.full(len(rows), me), card, returned)
    live = every[~over]
    lanes.watch[live] = True
    lanes.window[live, :lanes.n] = lanes.strips[live]
    while live.size:
        revealing = lanes.reveal[live]
        if revealing.any():
            lanes.reveal_step(live[revealing])
        if not revealing.all():
            lanes.play_step(live[~revealing])
        live = live[~lanes.done[live]]
    lost = given.strips0[me] - lanes.strips[:, me]
    return lost.reshape(plays, count), lanes.window.reshape(plays, count, -1)


def long_run_arrays(given: Inputs) -> np.ndarray:
    """What the compiled ``_long_run`` returns for these arguments (and writes into
    ``given.windows``), interpreted."""
    plays, samples = given.plays.shape[0], given.samples
    lost = np.zeros((plays, samples), dtype=np.int64)
    if plays == 0 or samples == 0:
        return lost
    choices = _Choices(given.greedy, given.habits)
    step = max(1, LANES // plays)
    for first in range(0, samples, step):
        count = min(step, samples - first)
        lost[:, first:first + count], given.windows[:, first:first + count] = \
            _slice(given, choices, first, count)
    return lost


def long_run(view: PartyTimeView, plays: list[Play] | tuple[Play, ...], samples: int,
             seed: int = 0, deals: Deals | None = None) -> LongRun:
    """:func:`.playouts.long_run`, interpreted: the same playouts, card for card, with no
    compile (and no numba)."""
    given = inputs(view, plays, samples, seed, deals)
    lost = long_run_arrays(given)
    return LongRun(tuple(plays), samples, lost, view.strips[view.player], given.windows,
                   compiled=False)

"""Rules invariants on seeded random playouts, every game (issue 14, section 4).

Each game's conservation laws are checked after every move and chance outcome of many seeded
random games: heroes in Tea Party, one current rule per player and well-formed epochs in Pool
Party Stars, meeples and stress in Meeple Party, tiles and money in Meeple Land, cards in
Party-Time.  The default suite plays ``--random-games`` games per game (1,000), each up to the
game's move cap below (whole games where they are quick; Meeple Land lists its moves slowly,
so its games are short and fewer); ``make bench`` plays 100,000
(``pytest tests/test_invariants.py --random-games 100000``).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from partysolver.models.meeple_party import game as party
from partysolver.models.meeple_party.board import count as room_count
from partysolver.models.pool_party_stars.evidence import Evidence
from partysolver.models.pool_party_stars.state import DRAW_RULE
from partysolver.models.protocol import CHANCE, TERMINAL, Game, State
from partysolver.models.registry import all_games, is_plugin
from partysolver.models.tea_party.state import ONE, unpack

CAPS = {"tea-party": (1.0, 10_000), "party-time": (1.0, 40),
        "pool-party-stars": (1.0, 30), "meeple-party": (1.0, 15), "meeple-land": (1.0, 3)}
"""Per game: the share of ``--random-games`` played (all of them: 1,000 seeded games per game by
default, 100,000 in ``make bench``), and the moves each plays at most.  Whole games of Tea Party
take milliseconds, Party-Time's first 40 moves (about half a game) too; a Pool Party Stars move
rebuilds the log's epochs to check them (0.2 ms), a Meeple Party move costs about 0.4 ms and a
Meeple Land move about 5 ms once each tile's placements are cached (the first game with a tile
lists them: 10 ms a tile), so those games are cut shorter: the suite plays the 5,000 games in
about half a minute."""


# -- the invariants -----------------------------------------------------------------------------


def tea_party(start: Any) -> Callable[[Any], None]:
    """Heroes are conserved: per type, the heroes in play (bag, cups, stomachs, the hand) never
    exceed the set-up's, and a hero out of the game never comes back."""
    def in_play(state: Any) -> tuple[int, ...]:
        # Zones are packed 4-bit counts; no type has more than 15 heroes in all, so the sum of
        # the zones is the packed count of the heroes in play.
        total = state.bag + sum(state.cups) + sum(state.stomachs)
        if state.held >= 0:
            total += ONE[state.held]
        return unpack(total)

    before = [in_play(start)]

    def check(state: Any) -> None:
        now = in_play(state)
        assert all(n <= m for n, m in zip(now, before[0], strict=True)), (now, before[0])
        before[0] = now

    return check


def party_time(start: Any) -> Callable[[Any], None]:
    """Cards are conserved: hands, pile, cards played and the card being revealed make the
    deck, card by card; strips and tokens stay in range."""
    deck = list(start.rules.deck)

    strips = max(start.strips)

    def check(state: Any) -> None:
        total = [sum(column) for column in zip(*state.hands, state.pile, state.played,
                                               strict=True)]
        if state.revealed >= 0 and total != deck:
            total[state.revealed] += 1
        assert total == deck, (total, deck)
        assert min(state.strips) >= 0 and max(state.strips) <= strips
        assert min(state.tokens) >= 0

    return check


def pool_party_stars(start: Any) -> Callable[[Any], None]:
    """One current rule per player, all different, and the epochs of the log well-formed: each
    player's epochs numbered from 0, each beginning right after the guess that ended the last,
    only the last still held, one rule known per epoch (the last pending while it is drawn)."""
    def check(state: Any) -> None:
        n = state.table.size
        timeline = Evidence.build(n, state.events).timeline
        for p in range(n):
            epochs = [timeline.epochs[e] for e in timeline.by_player[p]]
            assert [e.number for e in epochs] == list(range(len(epochs)))
            assert all(e.current == (k == len(epochs) - 1) for k, e in enumerate(epochs))
            for earlier, later in zip(epochs, epochs[1:], strict=False):
                assert earlier.last is not None and later.first == earlier.last + 1
            pending = state.phase == DRAW_RULE and state.drawer == p
            assert len(state.rules[p]) == len(epochs) - pending
        current = [rules[-1] for p, rules in enumerate(state.rules)
                   if not (state.phase == DRAW_RULE and state.drawer == p)]
        assert len(set(current)) == len(current), current
        assert state.summary.length == len(state.events)

    return check


def meeple_party(start: Any) -> Callable[[Any], None]:
    """Meeples are conserved: roommates and pets never leave the board, guests and whites never
    exceed the supply (board, bag and the meeple drawn); stress stays from 0 to 3."""
    def census(state: Any) -> Counter[str]:
        found: Counter[str] = Counter()
        for room in state.board:
            for piece in range(party.PIECES):
                n = room_count(room, piece)
                if n:
                    found[party.piece_key(piece)] += n
        for kind, n in enumerate(state.bag_counts()):
            found[party.BAG_KINDS[kind]] += n
        if state.drawn >= 0:
            found[party.BAG_KINDS[state.drawn]] += 1
        return found

    first = census(start)
    fixed = {key: n for key, n in first.items() if key.startswith("roommate") or
             key in ("cat", "dog")}

    def check(state: Any) -> None:
        now = census(state)
        assert {key: now[key] for key in fixed} == fixed
        for kind in party.PERSONALITY_KEYS:
            assert now[kind] <= party.SUPPLY_GUESTS, (kind, now[kind])
        assert now["white"] <= party.SUPPLY_WHITES
        assert all(0 <= s <= party.MAX_STRESS for s in state.stress)

    return check


def meeple_land(start: Any) -> Callable[[Any], None]:
    """Tiles and money are consistent: no tile is in two places (market, parks, the piles
    not yet seen), the catalogue's tiles are all somewhere, and no park's money is negative."""
    catalogue = start.catalogue

    def check(state: Any) -> None:
        market = state.market
        places = [*market.small, *market.medium, *market.large]
        for park in state.parks:
            places += [p.tile for p in park.placed]
            assert park.money >= 0, park.money
        unseen = [t for pile in state._unseen.values() for t in pile]
        shown = Counter(places + unseen)
        assert all(n == 1 for n in shown.values()), [t for t, n in shown.items() if n > 1]
        assert set(shown) == set(catalogue.tiles), set(catalogue.tiles) ^ set(shown)

    return check


INVARIANTS: dict[str, Callable[[Any], Callable[[Any], None]]] = {
    "tea-party": tea_party, "party-time": party_time, "pool-party-stars": pool_party_stars,
    "meeple-party": meeple_party, "meeple-land": meeple_land}


# -- the playouts ---------------------------------------------------------------------------------


def playout(game: Game, players: int, seed: int, moves: int) -> int:
    """One seeded random game of at most ``moves`` moves, checked after every step."""
    rng = random.Random(seed)
    state: State = game.initial_state(players, rng)
    check = INVARIANTS[game.info.key](state)
    check(state)
    for step in range(moves):
        player = state.current_player()
        if player == TERMINAL:
            return step
        if player == CHANCE:
            fast = getattr(state, "sample_outcome", None)
            if fast is not None:
                action = fast(rng)
            else:
                outcomes = list(state.chance_outcomes())
                action = rng.choices([a for a, _ in outcomes], [float(p) for _, p in outcomes])[0]
        else:
            action = rng.choice(list(state.legal_actions()))
        state = state.apply(action)
        check(state)
    return moves


OWN = sorted(key for key in all_games() if not is_plugin(key))
"""This package's games (a game another package registers checks its invariants in its own
tests: examples/pig's in tests/test_pig_plugin.py)."""


def test_every_game_has_invariants() -> None:
    assert set(INVARIANTS) == set(OWN) == set(CAPS)


@pytest.mark.parametrize("key", OWN)
def test_random_playouts_keep_the_rules_invariants(key: str, request: pytest.FixtureRequest
                                                   ) -> None:
    game = all_games()[key]
    share, moves = CAPS[key]
    games = max(1, round(request.config.getoption("--random-games") * share))
    counts = list(game.info.player_counts())
    steps = 0
    for seed in range(games):
        steps += playout(game, counts[seed % len(counts)], seed, moves)
    assert steps >= games

"""Shared builders for the Meeple Party tests: small decks keep brute-force oracles fast.

Imported by the test modules of this folder (pytest puts the folder on ``sys.path``)."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from partysolver.models.documents import Fields, parse_document
from partysolver.models.meeple_party import MeeplePartyState, new_game
from partysolver.models.meeple_party.board import UNIT
from partysolver.models.meeple_party.cards import Cards, load_cards
from partysolver.models.meeple_party.game import LAID, ROOMMATE
from partysolver.models.meeple_party.state import PLACE

SMALL_CARDS = """
name = "small"
[[photos]]
id = "two-flirts"
clauses = [{ room = "any", flirt = 2 }]
[[photos]]
id = "kitchen-cool"
clauses = [{ room = "kitchen", cool = 1, roommate = 1 }]
[[photos]]
id = "quiet-bath"
clauses = [{ room = "bathroom", mode = "exactly", wallflower = 1 }]
[[photos]]
id = "party-out"
clauses = [{ room = "outside", party_animal = 1 }, { room = "door", jerk = 1 }]
[[photos]]
id = "host"
clauses = [{ room = "living_room", active_roommate = 1, guest = 1 }]
[[photos]]
id = "crowd"
clauses = [{ room = "any", meeple = 3 }]
[[disasters]]
id = "fight-club"
clauses = [{ room = "any", jerk = 2 }]
[[disasters]]
id = "overcrowding"
clauses = [{ room = "any", meeple = 4 }]
[[disasters]]
id = "cool-kitchen"
clauses = [{ room = "kitchen", cool = 2 }]
[[disasters]]
id = "lonely-bedroom"
clauses = [{ room = "bedroom", mode = "exactly", flirt = 1 }]
[[surprises]]
id = "conga-line"
effects = [{ do = "conga" }]
[[surprises]]
id = "fire-fighter"
effects = [{ do = "remove", count = 1, who = "guest", room = "kitchen" }]
[[surprises]]
id = "crashers"
effects = [{ do = "add", count = 1 }]
[[surprises]]
id = "rival"
white = "stay"
effects = [{ do = "stress", amount = 1, who = "active" }]
"""


def small_cards() -> Cards:
    return load_cards(Fields(parse_document(SMALL_CARDS, "small.toml"), "small.toml"))


def place(state: MeeplePartyState, room: int, piece: int, n: int = 1) -> MeeplePartyState:
    """Put ``n`` pieces in a room (guests come out of the bag)."""
    board = list(state.board)
    board[room] += n * UNIT[piece]
    bag = list(state.bag)
    base = piece - LAID if LAID <= piece < ROOMMATE else piece
    if base < 6:
        bag[base] -= n
    return replace(state, board=tuple(board), bag=tuple(bag))


def random_small(seed: int, guests: int = 3, players: int = 2, difficulty: str = "hard",
                 drawn: int | None = None) -> MeeplePartyState:
    """A position with the small decks, a few guests placed at random and a guest drawn."""
    rng = random.Random(seed)
    state = new_game(players, rng, difficulty=difficulty, cards=small_cards())
    for _ in range(guests):
        kind = rng.choice([k for k in range(6) if state.bag[k] > 0])
        piece = kind + (LAID if rng.random() < 0.15 else 0)
        state = place(state, rng.randrange(state.setup.house.size), piece)
    kind = rng.randrange(5) if drawn is None else drawn
    bag = list(state.bag)
    bag[kind] -= 1
    return replace(state, phase=PLACE, drawn=kind, bag=tuple(bag))


def random_ordered(seed: int, guests: int = 4, players: int = 2, taken: int = 11
                   ) -> MeeplePartyState:
    """A perfect-information position (bag and decks in order) with the house decks, one
    photo from the win: refreshes draw a known card, so the brute force stays cheap while the
    refresh logic meets the whole house deck."""
    rng = random.Random(seed)
    state = new_game(players, rng, difficulty="hard")
    for _ in range(guests):
        kind = rng.choice([k for k in range(6) if state.bag[k] > 0])
        state = place(state, rng.randrange(state.setup.house.size), kind)
    kind = rng.choice([k for k in range(5) if state.bag[k] > 0])
    bag = list(state.bag)
    bag[kind] -= 1
    order = [k for k, n in enumerate(bag) for _ in range(n)]
    rng.shuffle(order)
    decks: dict[str, Any] = {}
    for name in ("photo_deck", "disaster_deck", "surprise_deck"):
        cards = list(getattr(state, name))
        rng.shuffle(cards)
        decks[name] = tuple(cards)
    setup = replace(state.setup, ordered=True)
    return replace(state, setup=setup, phase=PLACE, drawn=kind, bag=tuple(order), taken=taken,
                   **decks)

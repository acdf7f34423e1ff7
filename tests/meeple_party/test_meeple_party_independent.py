"""An independent reference for a Meeple Party turn, checked against the engine and the hint.

The reference below is written from the rulebook, the spec and docs/rules.md alone (no code of
the engine): the drawn guest's welcome and its action, the mingle (or standing a meeple up), the
card language (each meeple counts once on a card), steps 3 and 4, and the value the turn hint
ranks by (P(win), P(loss), expected stress added, expected fouls, expected photos; the optional
refresh is a chance over the deck).  Seeded random positions in the three shipped houses, with
laid-down meeples, one to three players, every difficulty, cards drawn from the house decks
(card 0 and seat 0 often in play: first members of enums are real values).
"""
from __future__ import annotations

import itertools
import random
import tomllib
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

import partysolver
from partysolver.models.meeple_party.game import Refresh
from partysolver.models.meeple_party.position import load_state, state_to_document
from partysolver.solvers.meeple_party.turn import turn_hint

DATA = Path(partysolver.__file__).parent / "puzzles" / "meeple-party"
PERSONALITIES = ("flirt", "party_animal", "cool", "wallflower", "jerk")
CARDS = tomllib.loads((DATA / "cards" / "house.toml").read_text())
PHOTOS = [card["id"] for card in CARDS["photos"]]
DISASTERS = [card["id"] for card in CARDS["disasters"]]
BY_ID = {card["id"]: card for card in CARDS["photos"] + CARDS["disasters"]}
CATEGORIES = (*PERSONALITIES, "white", "guest", "roommate", "active_roommate", "meeple",
              *(f"roommate_{p}" for p in PERSONALITIES))


class House:
    """Rooms, walls (from the pairs or the grid) and the rooms two steps away."""

    def __init__(self, name: str) -> None:
        data = tomllib.loads((DATA / "houses" / f"{name}.toml").read_text())
        self.rooms = [room["id"] for room in data["rooms"]]
        self.kind = {room["id"]: room["kind"] for room in data["rooms"]}
        self.no_welcome = {r for r in self.rooms if self.kind[r] in ("hot_tub", "office")}
        self.relieves = {r for r in self.rooms if self.kind[r] == "hot_tub"}
        pairs = data.get("adjacent", [])
        if "grid" in data:
            grid = [row.split() for row in data["grid"]]
            for i, row in enumerate(grid):
                for j, cell in enumerate(row):
                    for other in (row[j + 1] if j + 1 < len(row) else ".",
                                  grid[i + 1][j] if i + 1 < len(grid) else "."):
                        if "." not in (cell, other) and cell != other:
                            pairs.append((cell, other))
        self.adj: dict[str, set[str]] = {r: set() for r in self.rooms}
        for a, b in pairs:
            self.adj[a].add(b)
            self.adj[b].add(a)
        self.two = {r: {c for b in self.adj[r] for c in self.adj[b]} - {r} for r in self.rooms}


HOUSES = {name: House(name) for name in ("easy", "hard", "spa")}

# A board is a frozenset of ((room, kind, laid), count); kind is a personality or "rm_<p>".
Board = frozenset


def _freeze(counts: Counter) -> Board:
    return frozenset((k, n) for k, n in counts.items() if n > 0)


def _move(counts: Counter, kind: str, src: str, dst: str) -> Counter:
    moved = counts.copy()
    moved[(src, kind, False)] -= 1
    moved[(dst, kind, False)] += 1
    return moved


def _standing(counts: Counter, room: str, actor: str | None = None) -> list[str]:
    """Standing kinds in a room (one instance of the actor itself left out)."""
    return [k for (r, k, laid), n in counts.items()
            if r == room and not laid and n - (k == actor) > 0]


def _act(house: House, counts: Counter, actor: str, room: str) -> list[Counter]:
    """Every result of the actor's action (mandatory when a target exists)."""
    kind = actor.removeprefix("rm_")
    found: list[Counter] = []
    if kind in ("flirt", "party_animal"):
        for src in house.adj[room] if kind == "flirt" else house.two[room]:
            found += [_move(counts, k, src, room) for k in _standing(counts, src)]
    elif kind == "cool":
        reach = [(src, k) for src in house.adj[room] for k in _standing(counts, src)
                 for _ in range(min(2, counts[(src, k, False)]))]
        if len(reach) == 1:
            found.append(_move(counts, reach[0][1], reach[0][0], room))
        for (s1, k1), (s2, k2) in itertools.combinations(reach, 2):
            found.append(_move(_move(counts, k1, s1, room), k2, s2, room))
    else:
        for k in _standing(counts, room, actor):
            found += [_move(counts, k, room, dst)
                      for dst in (house.adj[room] if kind == "wallflower" else house.two[room])]
    return found or [counts]


def turn_ends(house: House, board: Board, drawn: str) -> set[Board]:
    """Every distinct board after the welcome of ``drawn`` and the mingle."""
    welcomed = set()
    for room in house.rooms:
        if room not in house.no_welcome:
            counts = Counter(dict(board))
            counts[(room, drawn, False)] += 1
            welcomed |= {_freeze(c) for c in _act(house, counts, drawn, room)}
    ends = set()
    for start in welcomed:
        counts = Counter(dict(start))
        for (room, kind, laid), _ in start:
            if laid:
                up = counts.copy()
                up[(room, kind, True)] -= 1
                up[(room, kind, False)] += 1
                ends.add(_freeze(up))
                continue
            for dst in house.adj[room]:
                ends |= {_freeze(c) for c in _act(house, _move(counts, kind, room, dst), kind, dst)}
    return ends


def _categories(kind: str, active: str) -> set[str]:
    if not kind.startswith("rm_"):
        return {kind, "guest", "meeple"}
    p = kind[3:]
    return {p, "roommate", f"roommate_{p}", "meeple"} | ({"active_roommate"} if p == active else set())


_SEEN: dict[tuple, bool] = {}


def _clause_met(clause: dict, meeples: list[str], active: str) -> bool:
    key = (repr(clause), tuple(sorted(meeples)), active)
    if key not in _SEEN:
        _SEEN[key] = _clause_met_plain(clause, meeples, active)
    return _SEEN[key]


def _clause_met_plain(clause: dict, meeples: list[str], active: str) -> bool:
    """Distinct meeples for every wanted slot (a bipartite matching), nothing absent, and
    nothing else for EXACTLY."""
    cats = [_categories(m, active) for m in meeples]
    if any(a in c for a in clause.get("absent", []) for c in cats):
        return False
    slots = [cat for cat in CATEGORIES for _ in range(int(clause.get(cat, 0)))]
    if clause.get("mode") == "exactly" and len(slots) != len(meeples):
        return False
    owner: dict[int, int] = {}

    def augment(slot: int, seen: set[int]) -> bool:
        for j, c in enumerate(cats):
            if slots[slot] in c and j not in seen:
                seen.add(j)
                if j not in owner or augment(owner[j], seen):
                    owner[j] = slot
                    return True
        return False

    return all(augment(i, set()) for i in range(len(slots)))


def card_met(house: House, card: dict, board: Board, active: str) -> bool:
    """A card over rooms: clauses in different rooms (default) or together in one room, where a
    card counts each meeple once (the clauses are one requirement there)."""
    inside: dict[str, list[str]] = {room: [] for room in house.rooms}
    for (room, kind, _), n in board:
        inside[room] += [kind] * n
    meeples = inside.__getitem__

    def fits(sel: str, room: str) -> bool:
        return sel == "any" or sel == "@" + room or house.kind[room] == sel

    clauses = card["clauses"]
    if card.get("rooms") == "same":
        together = {cat: sum(int(c.get(cat, 0)) for c in clauses) for cat in CATEGORIES}
        together["absent"] = [a for c in clauses for a in c.get("absent", [])]
        together["mode"] = "exactly" if any(c.get("mode") == "exactly" for c in clauses) else ""
        return any(all(fits(c["room"], r) for c in clauses)
                   and _clause_met(together, meeples(r), active) for r in house.rooms)
    rooms = [[r for r in house.rooms if fits(c["room"], r) and _clause_met(c, meeples(r), active)]
             for c in clauses]
    return any(len(set(pick)) == len(pick) for pick in itertools.product(*rooms))


def steps_three_and_four(doc: dict, met: frozenset[str], tubbed: frozenset[int],
                         stress: list[int], cards: dict) -> tuple[int, int, int, int, int]:
    """(won, lost, stress added, fouls, photos) at the end of the turn, from the cards met on
    the board and the seats whose roommate is in a room that relieves stress."""
    seat = [p["name"] for p in doc["players"]].index(doc["active"])
    before = sum(p["stress"] for p in doc["players"])
    if min(stress) >= 3:
        return 0, 1, sum(stress) - before, 0, 0
    fouls = 0
    for card in (cards["disaster"], cards["communal"]):
        if card in met:
            fouls += 1
            stress = [min(3, s + 1) for s in stress]
    if fouls and min(stress) >= 3:
        return 0, 1, sum(stress) - before, fouls, 0
    photos = sum(c in met for c in cards["photos"])
    if photos == 2:
        stress[seat] = max(0, stress[seat] - 1)
    won = doc["photos_taken"] + photos >= 12
    # the Hot Tub relieves at the end of step 4, on a winning turn too (docs/rules.md)
    stress = [max(0, s - 1) if i in tubbed else s for i, s in enumerate(stress)]
    return int(won), 0, sum(stress) - before, fouls, photos


def summary(doc: dict, house: House, board: Board) -> tuple[frozenset[str], frozenset[int]]:
    """What the end of a turn reads of a board: the cards met (the active player's, the
    communal one and the decks'), and the seats whose roommate is in a relieving room."""
    seat = [p["name"] for p in doc["players"]].index(doc["active"])
    mine = doc["players"][seat]
    ids = [*mine["photos"], mine.get("disaster"), doc.get("communal"),
           *doc["decks"]["photos"], *doc["decks"]["disasters"]]
    met = frozenset(c for c in ids if c is not None
                    and card_met(house, BY_ID[c], board, mine["roommate"]))
    tubbed = frozenset(i for i, p in enumerate(doc["players"]) for (r, k, _), _ in board
                       if r in house.relieves and k == "rm_" + p["roommate"])
    return met, tubbed


def turn_value(doc: dict, read: tuple[frozenset[str], frozenset[int]],
               refresh: tuple | None) -> tuple:
    """The hint's ranking vector (win, -loss, -stress, -fouls, photos) of one end and refresh."""
    seat = [p["name"] for p in doc["players"]].index(doc["active"])
    mine = doc["players"][seat]
    stress = [p["stress"] for p in doc["players"]]
    cards = {"photos": list(mine["photos"]), "disaster": mine.get("disaster"),
             "communal": doc.get("communal")}
    outcomes = [cards]
    if refresh is not None:
        stress[seat] += 1
        deck = doc["decks"]["photos" if refresh[0] == "photo" else "disasters"]
        outcomes = []
        for new in deck:
            changed = {**cards, "photos": list(cards["photos"])}
            if refresh[0] == "photo":
                changed["photos"][refresh[1]] = new
            else:
                changed[refresh[0]] = new
            outcomes.append(changed)
    total = [0] * 5
    for cards_now in outcomes:
        for i, x in enumerate(steps_three_and_four(doc, *read, list(stress), cards_now)):
            total[i] += x
    win, loss, added, fouls, photos = (Fraction(t, len(outcomes)) for t in total)
    return (win, -loss, -added, -fouls, photos)


def best_value(doc: dict, house: House, ends: set[Board]) -> tuple:
    """Refreshing another player's card only adds stress: the active player's cards suffice."""
    seat = [p["name"] for p in doc["players"]].index(doc["active"])
    mine = doc["players"][seat]
    refreshes: list[tuple | None] = [None]
    if mine["stress"] < 3:
        if doc["decks"]["photos"]:
            refreshes += [("photo", i) for i in range(len(mine["photos"]))]
        if doc["decks"]["disasters"]:
            refreshes += [(k, 0) for k in ("disaster", "communal")
                          if (mine if k == "disaster" else doc).get(k) is not None]
    reads = {summary(doc, house, end) for end in ends}
    return max(turn_value(doc, read, r) for read in reads for r in refreshes)


def random_position(rng: random.Random) -> dict:
    name = rng.choice(sorted(HOUSES))
    house = HOUSES[name]
    n = rng.randint(1, 3)
    difficulty = rng.choice(["easy", "standard", "hard"])
    roommates = rng.sample(PERSONALITIES, 5)
    photos = rng.sample(PHOTOS, 2 * n + 3)
    disasters = rng.sample(DISASTERS, n + 3)
    if rng.random() < 0.4:  # card 0 at seat 0
        for pool, first in ((photos, PHOTOS[0]), (disasters, DISASTERS[0])):
            if first in pool:
                pool.remove(first)
            pool.insert(0, first)
    players = [{"name": f"P{i}", "roommate": roommates[i], "stress": rng.choice([0, 0, 1, 2, 3]),
                "photos": photos[2 * i:2 * i + 2]} for i in range(n)]
    players[0]["stress"] = min(players[0]["stress"], 2)
    if difficulty != "easy":
        for i, p in enumerate(players):
            p["disaster"] = disasters[i]
    doc = {"game": "meeple-party", "house": name, "cards": "house", "clock": "house",
           "difficulty": difficulty, "length": "casual", "turn": 9,
           "active": f"P{rng.randrange(n) if rng.random() < 0.6 else 0}",
           "photos_taken": rng.choice([0, 5, 10, 11]), "players": players,
           "drawn": rng.choice(PERSONALITIES)}
    spare = disasters[n:]
    if difficulty != "standard":
        doc["communal"] = spare.pop()
    doc["decks"] = {"photos": photos[2 * n:], "disasters": spare, "discards": {
        "photos": [c for c in PHOTOS if c not in photos],
        "disasters": [c for c in DISASTERS if c not in disasters]}}
    rooms: dict[str, dict] = {}
    for p in roommates:
        key = "laid_roommates" if rng.random() < 0.1 else "roommates"
        rooms.setdefault(rng.choice(house.rooms), {}).setdefault(key, []).append(p)
    for _ in range(rng.randint(0, 5)):
        p, room = rng.choice(PERSONALITIES), rooms.setdefault(rng.choice(house.rooms), {})
        table = room.setdefault("laid", {}) if rng.random() < 0.15 else room
        table[p] = table.get(p, 0) + 1
    doc["rooms"] = rooms
    return doc


def board_of(doc: dict) -> Board:
    counts: Counter = Counter()
    for room, table in doc["rooms"].items():
        for key, value in table.items():
            if key in PERSONALITIES:
                counts[(room, key, False)] += value
            elif key == "laid":
                counts.update({(room, k, True): v for k, v in value.items()})
            else:
                assert key in ("roommates", "laid_roommates"), key
                counts.update((room, "rm_" + p, key == "laid_roommates") for p in value)
    return _freeze(counts)


@pytest.mark.parametrize("seed", range(30))
def test_the_engine_and_the_hint_agree_with_an_independent_reference(seed: int) -> None:
    doc = random_position(random.Random(seed))
    house = HOUSES[doc["house"]]
    state = load_state(doc, f"seed {seed}")
    engine_ends = {}
    for welcome in state.legal_actions():
        after = state.apply(welcome)
        for mingle in after.legal_actions():
            end = after.apply(mingle)
            engine_ends[board_of(state_to_document(end))] = end
    ends = turn_ends(house, board_of(doc), doc["drawn"])
    assert set(engine_ends) == ends
    active = doc["players"][[p["name"] for p in doc["players"]].index(doc["active"])]["roommate"]
    for board, end in itertools.islice(engine_ends.items(), 12):
        for i, card in enumerate(CARDS["photos"]):
            assert end.photo_met(i) == card_met(house, card, board, active), (card["id"], board)
        for i, card in enumerate(CARDS["disasters"]):
            assert end.disaster_met(i) == card_met(house, card, board, active), (card["id"], board)
        played = end.apply(Refresh(None))
        expected = turn_value(doc, summary(doc, house, board), None)
        before = sum(p["stress"] for p in doc["players"])
        assert (played.outcome == "won", played.outcome == "lost", sum(played.stress) - before,
                played.taken - doc["photos_taken"]) == (
            expected[0] == 1, expected[1] == -1, -expected[2], expected[4])
    hint = turn_hint(state, top=1)
    assert hint.status == "optimal" and hint.value is not None
    assert hint.value[:5] == pytest.approx([float(x) for x in best_value(doc, house, ends)])

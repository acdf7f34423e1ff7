"""Meeple Party position files: the schema, the loader, the writer and the rule checks.

A position names the house, cards and clock (shipped names, files of the user's, or inline
tables), the party's settings, the players (roommate, stress, photos, disaster), the communal
disaster, whose turn it is and the meeple just drawn, where every meeple is (standing or laid
down), and optionally the bag, the decks and the turn's phase.  Whatever is left out is derived:
the bag from the supply, the decks from the cards not at the table.  See ``docs/formats.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..documents import Fields, item_path
from ..errors import InputError, Problem, require_no_problems
from . import data
from .board import UNIT, Board, count
from .game import (
    BAG_KINDS,
    CAT,
    DIFFICULTIES,
    DOG,
    INFO,
    LAID,
    LAID_ROOMMATE,
    LENGTHS,
    MAX_STRESS,
    PERSONALITY_KEYS,
    ROOMMATE,
    START_TIMES,
    SUPPLY_GUESTS,
    SUPPLY_WHITES,
    TURN_LIMIT,
    VARIANTS,
    WHITE,
    WHITES_IN_BAG,
    Personality,
    Slot,
)
from .setup import Setup
from .state import (
    DRAW,
    NO_WHITE,
    OUTCOMES,
    OVER,
    PHASES,
    PLACE,
    STAGES,
    SURPRISE,
    TURN,
    WELCOMED_WHITE,
    MeeplePartyState,
    photo_pair,
    slot_order,
)

GUEST_KEYS = BAG_KINDS
"""Guest kinds a room or the bag counts: the five personalities and ``white``."""


@dataclass
class Position:
    """A loaded position file, before it is checked against the rules."""

    setup: Setup
    board: Board
    stress: tuple[int, ...]
    photos: tuple[tuple[int, int], ...]
    disasters: tuple[int, ...]
    communal: int
    active: int
    turn: int
    taken: int
    drawn: int
    bag: tuple[int, ...] | None
    by_clock: int | None
    decks: dict[str, tuple[int, ...] | None]
    discards: dict[str, tuple[int, ...]]
    phase: int
    stage: int
    surprise: int = -1
    effect: int = 0
    adding: int = 0
    white: int = NO_WHITE
    pending: tuple[Slot, ...] = ()
    outcome: str = ""
    source: str = ""
    notes: list[Problem] = field(default_factory=list)

    # -- derived parts ----------------------------------------------------------------------

    def house_counts(self) -> list[int]:
        """Guests of each bag kind in the house (standing and laid)."""
        return [sum(count(room, k) + count(room, k + LAID) for room in self.board)
                for k in range(len(BAG_KINDS))]

    def in_hand(self) -> list[int]:
        hand = [0] * len(BAG_KINDS)
        if self.drawn >= 0:
            hand[self.drawn] += 1
        if self.white != NO_WHITE:
            hand[WHITE] += 1
        return hand

    def whites_by_clock(self) -> int:
        if self.by_clock is not None:
            return self.by_clock
        if self.bag is None or self.setup.ordered:
            return SUPPLY_WHITES - WHITES_IN_BAG
        bag_whites = self.bag_counts()[WHITE]
        return SUPPLY_WHITES - bag_whites - self.house_counts()[WHITE] - self.in_hand()[WHITE]

    def bag_counts(self) -> list[int]:
        """The bag's counts: as given, or the supply minus the house and the hand."""
        if self.bag is not None:
            if self.setup.ordered:
                return [self.bag.count(k) for k in range(len(BAG_KINDS))]
            return list(self.bag)
        house, hand = self.house_counts(), self.in_hand()
        counts = [SUPPLY_GUESTS - house[k] - hand[k] for k in range(WHITE)]
        counts.append(SUPPLY_WHITES - self.whites_by_clock() - house[WHITE] - hand[WHITE])
        return counts

    def table_cards(self, deck: str) -> list[int]:
        if deck == "photo":
            return [c for pair in self.photos for c in pair if c >= 0]
        if deck == "disaster":
            return [c for c in (*self.disasters, self.communal) if c >= 0]
        return [self.surprise] if self.surprise >= 0 else []

    def deck(self, name: str) -> tuple[int, ...]:
        """The deck as given (an ordered deck may give only its top: the cards neither at the
        table nor discarded follow in the cards file's order), or every such card."""
        given = self.decks.get(name)
        if given is not None and not self.setup.ordered:
            return tuple(sorted(given))
        used = set(self.table_cards(name)) | set(self.discards.get(name, ()))
        top = given or ()
        used |= set(top)
        return top + tuple(c for c in self.setup.deck_cards(name) if c not in used)

    # -- the rules --------------------------------------------------------------------------

    def problems(self) -> list[Problem]:
        """Every way this position breaks the rules, at once."""
        setup = self.setup
        found = list(self.notes)
        found += setup.house.problems(setup.num_players)
        found += [Problem("clock", text, "clock") for text in setup.clock.problems_text()]
        found += self._meeple_problems()
        found += self._card_problems()
        if setup.variant == "hot-tub" and not setup.house.of_kind("hot_tub"):
            found.append(Problem("hot-tub", "the Hot Tub challenge needs a Hot Tub in the house",
                                 "house"))
        if self.phase != OVER and all(s >= MAX_STRESS for s in self.stress):
            found.append(Problem("stressed-out", "every roommate is at 3 stress: the party "
                                 "is already over (lost)", "players"))
        if (self.phase != OVER and setup.uses_photos
                and self.taken >= setup.photos_to_win):
            found.append(Problem("clock", f"{self.taken} photos taken: the party is already "
                                 f"won (it needs {setup.photos_to_win})", "photos_taken"))
        if self.phase != OVER and self.turn > setup.turn_limit:
            found.append(Problem("turn", f"turn {self.turn} is past the last turn of a party "
                                 f"({setup.turn_limit}, when the sun comes up)", "turn"))
        if self.at_the_start():
            found += self._start_problems()
        return found

    def at_the_start(self) -> bool:
        """Nothing has moved yet: turn 1, no guest in the house, and the first turn has not got
        past its draw (a surprise drawn then may bring roommates together, legally)."""
        return (self.turn == 1 and not any(self.house_counts()) and self.stage == TURN
                and self.phase in (DRAW, PLACE, SURPRISE))

    def _start_problems(self) -> list[Problem]:
        """At the start of the party the roommates stand in different rooms."""
        rooms: dict[int, list[str]] = {}
        for p in range(len(PERSONALITY_KEYS)):
            for r, room in enumerate(self.board):
                if count(room, ROOMMATE + p) or count(room, LAID_ROOMMATE + p):
                    rooms.setdefault(r, []).append(Personality(p).label)
        house = self.setup.house
        return [Problem("roommates", f"{' and '.join(names)} roommates start together in "
                        f"{house.label(r)}; each starts in a different room",
                        f"rooms.{house.rooms[r].id}")
                for r, names in rooms.items() if len(names) > 1]

    def _meeple_problems(self) -> list[Problem]:
        found = []
        house = self.setup.house
        for p in range(len(PERSONALITY_KEYS)):
            where = [house.label(r) for r, room in enumerate(self.board)
                     for _ in range(count(room, ROOMMATE + p) + count(room, LAID_ROOMMATE + p))]
            label = Personality(p).label
            if not where:
                found.append(Problem("roommate-missing", f"the {label} roommate is not in the "
                                     "house (roommates never leave the party)", "rooms"))
            elif len(where) > 1:
                found.append(Problem("roommate-twice", f"the {label} roommate is in "
                                     f"{len(where)} places: {', '.join(where)}", "rooms"))
        for pet, name in ((CAT, "cat"), (DOG, "dog")):
            n = sum(count(room, pet) for room in self.board)
            if n > 1:
                found.append(Problem("supply", f"there is one {name}; the house holds {n}",
                                     "rooms"))
        house_counts, hand = self.house_counts(), self.in_hand()
        bag = self.bag_counts()
        by_clock = self.whites_by_clock()
        for k, key in enumerate(GUEST_KEYS):
            supply = SUPPLY_WHITES if k == WHITE else SUPPLY_GUESTS
            total = house_counts[k] + hand[k] + bag[k] + (by_clock if k == WHITE else 0)
            label = key.replace("_", " ")
            if bag[k] < 0:
                found.append(Problem("supply", f"{house_counts[k] + hand[k]} {label} meeples "
                                     f"are at the party or in hand; the game has {supply}",
                                     f"rooms ({label})"))
            elif total != supply:
                found.append(Problem("supply", f"{total} {label} meeples counted in the "
                                     f"house, the hand, the bag{' and by the clock' if k == WHITE else ''}; "
                                     f"the game has {supply}", f"bag.{key}"))
        if not 0 <= by_clock <= SUPPLY_WHITES - WHITES_IN_BAG:
            found.append(Problem("supply", f"{by_clock} white meeples by the clock; there are 2 "
                                 "at the start and only fewer later", "whites_by_clock"))
        return found

    def _card_problems(self) -> list[Problem]:
        setup = self.setup
        found = []
        names = setup.players
        if not setup.personal_disasters and any(d >= 0 for d in self.disasters):
            found.append(Problem("cards", f"an {setup.difficulty} game deals no personal "
                                 "disasters", "players"))
        if not setup.communal_disaster and self.communal >= 0:
            found.append(Problem("cards", f"a {setup.difficulty} game has no communal disaster",
                                 "communal"))
        if not setup.uses_photos and any(c >= 0 for pair in self.photos for c in pair):
            found.append(Problem("cards", "the Hot Tub challenge takes no photos", "players"))
        pending = set(self.pending)
        deals = self.phase != OVER
        for seat, name in enumerate(names):
            for i in range(2):
                slot = ("photo", seat, i)
                if (deals and setup.uses_photos and self.photos[seat][i] < 0
                        and slot not in pending and self.deck("photo")):
                    found.append(Problem("cards", f"{name} holds fewer than 2 photos while the "
                                         "photo deck still has cards", f"players.{name}.photos"))
                    break
            if (deals and setup.personal_disasters and self.disasters[seat] < 0
                    and ("disaster", seat, 0) not in pending and self.deck("disaster")):
                found.append(Problem("cards", f"{name} has no disaster in a "
                                     f"{setup.difficulty} game", f"players.{name}.disaster"))
        if (deals and setup.communal_disaster and self.communal < 0
                and ("communal", -1, 0) not in pending and self.deck("disaster")):
            found.append(Problem("cards", f"a {setup.difficulty} game has a communal disaster",
                                 "communal"))
        for deck in ("photo", "disaster", "surprise"):
            cards = setup.cards.deck(deck)
            seen: dict[int, int] = {}
            allowed = set(setup.deck_cards(deck))
            for c in [*self.table_cards(deck), *self.deck(deck), *self.discards.get(deck, ())]:
                seen[c] = seen.get(c, 0) + 1
                if c not in allowed:
                    found.append(Problem("cards", f"{deck} {cards[c].id!r} is out of this game "
                                         "(the Hot Tub challenge removes it)", f"{deck}s"))
            for c, n in seen.items():
                if n > 1:
                    found.append(Problem("cards", f"{deck} {cards[c].id!r} is in {n} places "
                                         "(table, deck, discards)", f"{deck}s"))
        for deck, cards in (("photo", setup.cards.photos), ("disaster", setup.cards.disasters)):
            for c in self.table_cards(deck):
                for clause in cards[c].condition.clauses:
                    room = clause.room
                    if room.startswith("@") and not setup.house.has(room[1:]):
                        found.append(Problem("card-room", f"{deck} {cards[c].id!r} names room "
                                             f"{room[1:]!r}, which this house does not have",
                                             f"{deck}s"))
        return found

    # -- the state --------------------------------------------------------------------------

    def to_state(self, source: str | None = None) -> MeeplePartyState:
        """The game state; a position that breaks the rules is bad input."""
        require_no_problems(self.problems(), source or self.source)
        setup = self.setup
        bag = self.bag if self.bag is not None else tuple(self.bag_counts())
        return MeeplePartyState(
            setup, self.board, bag, self.whites_by_clock(), self.stress, self.photos,
            self.disasters, self.communal, self.deck("photo"), self.deck("disaster"),
            self.deck("surprise"), self.taken, self.turn, self.active, self.phase, self.stage,
            self.drawn, self.surprise, self.effect, self.adding, self.white, self.pending,
            self.outcome)


# -- reading ------------------------------------------------------------------------------------


def load_position(document: Mapping[str, Any], source: str) -> Position:
    """Parse a position document; malformed input raises :class:`InputError`."""
    root = Fields(document, source)
    game = root.text("game")
    if game != INFO.key:
        raise root.error("game", f"{INFO.key!r}", game)
    house, house_ref = data.resolve(root, "house", "easy")
    cards, cards_ref = data.resolve(root, "cards", "house")
    clock, clock_ref = data.resolve(root, "clock", "house")
    difficulty = root.text("difficulty", "standard", choices=DIFFICULTIES)
    length = root.text("length", "casual", choices=tuple(LENGTHS))
    start = root.integer("start", 12)
    if start not in START_TIMES:
        raise root.error("start", "a party start of 3, 6, 9 or 12 o'clock", start)
    variant = root.text("variant", "party", choices=VARIANTS)
    ordered = root.flag("ordered", False)
    target = root.integer("photos_to_win", 0, minimum=0, maximum=48)
    turn_limit = root.integer("turn_limit", TURN_LIMIT, minimum=1, maximum=10_000)
    players = root.tables("players")
    if not INFO.min_players <= len(players) <= INFO.max_players:
        raise root.error("players", "1 to 5 players ([[players]] tables)", len(players))
    names: list[str] = []
    roommates: list[int] = []
    for item in players:
        name = item.text("name")
        if not name.strip() or name in names:
            raise item.error("name", "a non-empty name, different for each player", name)
        names.append(name)
        roommate = _personality(item, "roommate", PERSONALITY_KEYS[len(roommates) % 5])
        if roommate in roommates:
            raise item.error("roommate", "a roommate no other player has",
                             PERSONALITY_KEYS[roommate])
        roommates.append(roommate)
    setup = Setup(house, cards, clock, tuple(names), tuple(roommates), difficulty, length,
                  start, variant, ordered, target, turn_limit,
                  (house_ref, cards_ref, clock_ref))
    stress, photos, disasters = [], [], []
    for item in players:
        stress.append(item.integer("stress", 0, minimum=0, maximum=MAX_STRESS))
        ids = item.array("photos", [])
        if len(ids) > 2:
            raise item.error("photos", "at most 2 photo opportunities", ids)
        pair = [_card(item, "photos", i, "photo", cards.photo_ids) for i in ids]
        if len(pair) == 2 and pair[0] == pair[1]:
            raise item.error("photos", "two different photos", ids)
        photos.append(photo_pair(pair))
        disaster = item.text("disaster", None)
        disasters.append(-1 if disaster is None else
                         _card(item, "disaster", disaster, "disaster", cards.disaster_ids))
        item.done()
    communal_id = root.text("communal", None)
    communal = -1 if communal_id is None else _card(root, "communal", communal_id, "disaster",
                                                    cards.disaster_ids)
    active = names.index(_player(root, "active", names, names[0]))
    turn = root.integer("turn", 1, minimum=1)
    taken = root.integer("photos_taken", 0, minimum=0)
    drawn_name = root.text("drawn", None)
    drawn = -1 if drawn_name is None else _bag_kind(root, "drawn", drawn_name)
    board = _rooms(root, house)
    bag = _bag(root, ordered)
    by_clock = root.integer("whites_by_clock", None, minimum=0, maximum=SUPPLY_WHITES)
    decks, discards = _decks(root, cards, ordered)
    position = Position(setup, board, tuple(stress), tuple(photos), tuple(disasters), communal,
                        active, turn, taken, -1, bag, by_clock, decks, discards, DRAW, TURN,
                        source=source)
    _turn(root, position, drawn, names, house)
    root.done()
    if ordered and position.bag is not None:
        position.bag = _complete_order(position)
    return position


def _complete_order(position: Position) -> tuple[int, ...]:
    """An ordered bag may list only its top: the rest of the supply follows in kind order."""
    assert position.bag is not None
    given = position.bag
    house, hand = position.house_counts(), position.in_hand()
    rest = []
    for k in range(len(BAG_KINDS)):
        supply = SUPPLY_WHITES - position.whites_by_clock() if k == WHITE else SUPPLY_GUESTS
        missing = supply - house[k] - hand[k] - given.count(k)
        rest += [k] * max(0, missing)
    return given + tuple(rest)


def _personality(fields: Fields, key: str, default: str) -> int:
    name = fields.text(key, default)
    try:
        return int(Personality.parse(name))
    except KeyError:
        raise fields.error(key, "a personality: " + ", ".join(PERSONALITY_KEYS), name) from None


def _player(fields: Fields, key: str, names: list[str], default: str) -> str:
    name = fields.text(key, default)
    if name not in names:
        raise fields.error(key, "one of the players " + ", ".join(map(repr, names)), name)
    return str(name)


def _bag_kind(fields: Fields, key: str, name: Any) -> int:
    if name not in GUEST_KEYS:
        raise fields.error(key, "a meeple from the bag: " + ", ".join(GUEST_KEYS), name)
    return GUEST_KEYS.index(name)


def _card(fields: Fields, key: str, card_id: Any, deck: str, known: dict[str, int]) -> int:
    if not isinstance(card_id, str) or card_id not in known:
        raise fields.error(key, f"the id of a {deck} card of these cards", card_id)
    return known[card_id]


def _rooms(root: Fields, house: Any) -> Board:
    rooms = [0] * house.size
    table = root.table("rooms", None)
    if table is None:
        return tuple(rooms)
    for room_id in list(table.keys()):
        if not house.has(room_id):
            raise table.error(room_id, "a room id of the house: " +
                              ", ".join(r.id for r in house.rooms), room_id)
        index = house.index(room_id)
        fields = table.table(room_id)
        rooms[index] = _room_contents(fields)
    table.done()
    return tuple(rooms)


def _room_contents(fields: Fields) -> int:
    room = 0
    for k, key in enumerate(GUEST_KEYS):
        n = fields.integer(key, 0, minimum=0, maximum=SUPPLY_GUESTS)
        room += n * UNIT[k]
    laid = fields.table("laid", None)
    if laid is not None:
        for k, key in enumerate(GUEST_KEYS):
            n = laid.integer(key, 0, minimum=0, maximum=SUPPLY_GUESTS)
            room += n * UNIT[k + LAID]
        laid.done()
    for key, base in (("roommates", ROOMMATE), ("laid_roommates", LAID_ROOMMATE)):
        names = fields.array(key, [])
        for name in names:
            try:
                p = int(Personality.parse(name)) if isinstance(name, str) else None
            except KeyError:
                p = None
            if p is None:
                raise fields.error(key, "roommate personalities: " + ", ".join(PERSONALITY_KEYS),
                                   name)
            if count(room, base + p):
                raise fields.error(key, "each roommate once", name)
            room += UNIT[base + p]
    for key, pet in (("cat", CAT), ("dog", DOG)):
        if fields.flag(key, False):
            room += UNIT[pet]
    fields.done()
    return room


def _bag(root: Fields, ordered: bool) -> tuple[int, ...] | None:
    table = root.table("bag", None)
    if table is None:
        if ordered:
            raise root.error("bag", "the bag's order (bag.order) in an ordered scenario")
        return None
    if ordered:
        order = table.array("order")
        kinds = tuple(_bag_kind(table, "order", name) for name in order)
        table.done()
        return kinds
    counts = tuple(table.integer(key, 0, minimum=0, maximum=SUPPLY_GUESTS)
                   for key in GUEST_KEYS)
    table.done()
    return counts


DECK_KEYS = {"photo": "photos", "disaster": "disasters", "surprise": "surprises"}


def _decks(root: Fields, cards: Any, ordered: bool
           ) -> tuple[dict[str, tuple[int, ...] | None], dict[str, tuple[int, ...]]]:
    decks: dict[str, tuple[int, ...] | None] = {d: None for d in DECK_KEYS}
    discards: dict[str, tuple[int, ...]] = {d: () for d in DECK_KEYS}
    table = root.table("decks", None)
    if table is None:
        return decks, discards
    for deck, key in DECK_KEYS.items():
        if table.has(key):
            ids = table.array(key)
            decks[deck] = tuple(_card(table, key, i, deck, cards.ids(deck)) for i in ids)
    dropped = table.table("discards", None)
    if dropped is not None:
        for deck, key in DECK_KEYS.items():
            ids = dropped.array(key, [])
            discards[deck] = tuple(_card(dropped, key, i, deck, cards.ids(deck)) for i in ids)
        dropped.done()
    table.done()
    return decks, discards


def _turn(root: Fields, position: Position, drawn: int, names: list[str], house: Any) -> None:
    """The turn's phase: from ``[progress]`` when given, else from ``drawn``."""
    table = root.table("progress", None)
    if table is None:
        position.drawn = drawn
        if drawn == WHITE:
            position.phase, position.white, position.drawn = SURPRISE, WELCOMED_WHITE, -1
        elif drawn >= 0:
            position.phase = PLACE
        return
    position.phase = PHASES.index(table.text("phase", choices=PHASES))
    position.stage = STAGES.index(table.text("stage", "welcome", choices=STAGES))
    position.drawn = drawn
    surprise = table.text("surprise", None)
    cards = position.setup.cards
    if surprise is not None:
        position.surprise = _card(table, "surprise", surprise, "surprise", cards.surprise_ids)
        effects = cards.surprises[position.surprise].effects
        position.effect = table.integer("effect", 0, minimum=0, maximum=len(effects))
    else:
        position.effect = table.integer("effect", 0, minimum=0, maximum=0)
    position.adding = table.integer("adding", 0, minimum=0, maximum=10)
    white = table.text("white", "none")
    if white == "none":
        position.white = NO_WHITE
    elif white == "hand":
        position.white = WELCOMED_WHITE
    elif house.has(white):
        position.white = house.index(white)
    else:
        raise table.error("white", "'none', 'hand' or the room id a mingled white came to",
                          white)
    pending = []
    for i, text in enumerate(table.array("pending", [])):
        pending.append(_slot(table, item_path("pending", i), text, names))
    position.pending = tuple(pending)
    position.outcome = table.text("outcome", "", choices=("", *OUTCOMES))
    table.done()
    _check_turn(table, position)


def _slot(table: Fields, key: str, text: Any, names: list[str]) -> Slot:
    parts = text.split(":") if isinstance(text, str) else []
    expected = "'photo:<player>:<0 or 1>', 'disaster:<player>' or 'communal'"
    if parts == ["communal"]:
        return ("communal", -1, 0)
    if len(parts) == 2 and parts[0] == "disaster" and parts[1] in names:
        return ("disaster", names.index(parts[1]), 0)
    if len(parts) == 3 and parts[0] == "photo" and parts[1] in names and parts[2] in ("0", "1"):
        return ("photo", names.index(parts[1]), int(parts[2]))
    raise table.error(key, expected, text)


def _check_turn(table: Fields, position: Position) -> None:
    """The phase's own data must be there (malformed otherwise)."""
    phase = PHASES[position.phase]
    if phase == "place" and position.drawn < 0:
        raise table.error("phase", "a drawn meeple (top-level 'drawn') in phase 'place'")
    if phase == "effect" and position.surprise < 0:
        raise table.error("surprise", "the surprise card being resolved in phase 'effect'")
    if phase in ("refresh-draw", "restock") and not position.pending:
        raise table.error("pending", f"the slot(s) waiting for a card in phase {phase!r}")
    if phase == "over" and not position.outcome:
        raise table.error("outcome", "how the party ended in phase 'over'")
    if phase == "effect":
        effects = position.setup.cards.surprises[position.surprise].effects
        if position.effect >= len(effects):
            raise table.error("effect", f"the index of a pending effect (0-{len(effects) - 1})",
                              position.effect)


def load_state(document: Mapping[str, Any], source: str) -> MeeplePartyState:
    return load_position(document, source).to_state(source)


# -- writing ------------------------------------------------------------------------------------


def state_to_document(state: MeeplePartyState) -> dict[str, Any]:
    """A position document that loads back to ``state`` (everything explicit)."""
    setup = state.setup
    names = setup.players
    cards = setup.cards
    doc: dict[str, Any] = {"game": INFO.key}
    for key, ref, value in (("house", setup.refs[0], setup.house),
                            ("cards", setup.refs[1], cards),
                            ("clock", setup.refs[2], setup.clock)):
        doc[key] = ref if ref is not None else value.as_document()
    doc |= {"difficulty": setup.difficulty, "length": setup.length, "start": setup.start,
            "variant": setup.variant}
    if setup.ordered:
        doc["ordered"] = True
    if setup.target:
        doc["photos_to_win"] = setup.target
    if setup.turn_limit != TURN_LIMIT:
        doc["turn_limit"] = setup.turn_limit
    players = []
    for seat, name in enumerate(names):
        player: dict[str, Any] = {"name": name,
                                  "roommate": PERSONALITY_KEYS[setup.roommates[seat]],
                                  "stress": state.stress[seat],
                                  "photos": [cards.photos[c].id for c in state.photos[seat]
                                             if c >= 0]}
        if state.disasters[seat] >= 0:
            player["disaster"] = cards.disasters[state.disasters[seat]].id
        players.append(player)
    doc["players"] = players
    if state.communal >= 0:
        doc["communal"] = cards.disasters[state.communal].id
    doc |= {"active": names[state.active], "turn": state.turn, "photos_taken": state.taken}
    if state.drawn >= 0:
        doc["drawn"] = BAG_KINDS[state.drawn]
    doc["whites_by_clock"] = state.by_clock
    doc["rooms"] = rooms_document(state)
    if setup.ordered:
        doc["bag"] = {"order": [BAG_KINDS[k] for k in state.bag]}
    else:
        doc["bag"] = {key: n for key, n in zip(GUEST_KEYS, state.bag, strict=True)}
    doc["decks"] = {key: [cards.deck(deck)[c].id for c in state.deck(deck)]
                    for deck, key in DECK_KEYS.items()}
    if setup.ordered:  # the loader completes an ordered deck: its discards must be named
        out = {key: [cards.deck(deck)[c].id for c in discarded(state, deck)]
               for deck, key in DECK_KEYS.items()}
        if any(out.values()):
            doc["decks"]["discards"] = {key: ids for key, ids in out.items() if ids}
    doc["progress"] = turn_document(state)
    return doc


def discarded(state: MeeplePartyState, deck: str) -> list[int]:
    """The cards of ``deck`` out of play: in the game, but neither at the table nor in the
    deck (a surprise card resolved, a photo taken, a disaster refreshed away)."""
    if deck == "photo":
        table = {c for pair in state.photos for c in pair}
    elif deck == "disaster":
        table = {*state.disasters, state.communal}
    else:
        table = {state.surprise}
    present = table | set(state.deck(deck))
    return [c for c in state.setup.deck_cards(deck) if c not in present]


def rooms_document(state: MeeplePartyState) -> dict[str, Any]:
    rooms: dict[str, Any] = {}
    house = state.setup.house
    for r, room in enumerate(state.board):
        if not room:
            continue
        entry: dict[str, Any] = {}
        for k, key in enumerate(GUEST_KEYS):
            if count(room, k):
                entry[key] = count(room, k)
        laid = {key: count(room, k + LAID) for k, key in enumerate(GUEST_KEYS)
                if count(room, k + LAID)}
        if laid:
            entry["laid"] = laid
        for key, base in (("roommates", ROOMMATE), ("laid_roommates", LAID_ROOMMATE)):
            names = [PERSONALITY_KEYS[p] for p in range(5) if count(room, base + p)]
            if names:
                entry[key] = names
        if count(room, CAT):
            entry["cat"] = True
        if count(room, DOG):
            entry["dog"] = True
        rooms[house.rooms[r].id] = entry
    return rooms


def turn_document(state: MeeplePartyState) -> dict[str, Any]:
    names = state.setup.players
    house = state.setup.house
    doc: dict[str, Any] = {"phase": PHASES[state.phase], "stage": STAGES[state.stage]}
    if state.surprise >= 0:
        doc["surprise"] = state.setup.cards.surprises[state.surprise].id
        doc["effect"] = state.effect
    if state.adding:
        doc["adding"] = state.adding
    if state.white != NO_WHITE:
        doc["white"] = "hand" if state.white == WELCOMED_WHITE else house.rooms[state.white].id
    if state.pending:
        doc["pending"] = [slot_name(slot, names) for slot in sorted(state.pending,
                                                                      key=slot_order)]
    if state.outcome:
        doc["outcome"] = state.outcome
    return doc


def slot_name(slot: Slot, names: tuple[str, ...]) -> str:
    kind, seat, index = slot
    if kind == "photo":
        return f"photo:{names[seat]}:{index}"
    if kind == "disaster":
        return f"disaster:{names[seat]}"
    return "communal"


def check_document(document: Mapping[str, Any], source: str) -> list[Problem]:
    """Every rule problem of a well-formed document (malformed ones raise InputError)."""
    return load_position(document, source).problems()


__all__ = ["Position", "load_position", "load_state", "state_to_document", "check_document",
           "InputError"]

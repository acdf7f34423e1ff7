"""Tea Party position files: the schema, the loader, the writer and the rule checks.

A position file names the monsters in seat order, whose turn it is, the hero in hand (if one has
been drawn), and the heroes in the bag, each teacup, each stomach and the out-of-game pile.
Either the bag or the out-of-game pile may be left out: it is derived from the supply.
See ``docs/formats.md`` for a full example.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..documents import Fields, item_path
from ..errors import InputError, Problem, require_no_problems
from .game import EMPTY, HEROES, INFO, SUPPLY, Counts, Hero, count_text
from .state import CHOOSE, DRAW, THROW_UP, Table, TeaPartyState, pack


def _add(a: Counts, b: Counts) -> Counts:
    return tuple(x + y for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


def _sub(a: Counts, b: Counts) -> Counts:
    return tuple(x - y for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


def _bump(counts: Counts, hero: int, delta: int) -> Counts:
    changed = list(counts)
    changed[hero] += delta
    return tuple(changed)  # type: ignore[return-value]

DEFAULT_NAMES = ("Blue", "Green", "Orange", "Purple")


@dataclass(frozen=True, slots=True)
class Position:
    """A loaded position file, before it is checked against the rules."""

    players: tuple[str, ...]
    current: int
    drawn: Hero | None
    bag: Counts | None
    cups: tuple[Counts, ...]
    stomachs: tuple[Counts, ...]
    out: Counts | None
    throw_up: int | None = None
    drinking: str = "turn"

    def in_play(self) -> Counts:
        """The heroes in teacups, stomachs and in hand."""
        total = EMPTY
        for counts in self.cups + self.stomachs:
            total = _add(total, counts)
        return _bump(total, self.drawn, 1) if self.drawn is not None else total

    def derived_bag(self) -> Counts:
        """The bag as given, or the supply minus everything else."""
        if self.bag is not None:
            return self.bag
        return _sub(_sub(SUPPLY, self.in_play()), self.out or EMPTY)

    def derived_out(self) -> Counts:
        """The out-of-game pile as given, or the supply minus everything else."""
        if self.out is not None:
            return self.out
        return _sub(_sub(SUPPLY, self.in_play()), self.derived_bag())

    def problems(self) -> list[Problem]:
        """Every way this position breaks the rules, at once."""
        found: list[Problem] = []
        bag, out = self.derived_bag(), self.derived_out()
        in_play = self.in_play()
        for counts, given, other, other_name in ((bag, self.bag, self.out, "out of the game"),
                                                 (out, self.out, self.bag, "bag")):
            if given is not None:
                continue  # a count given is never negative; a derived one may be
            for hero in HEROES:
                if counts[hero] < 0:
                    placed = f"{in_play[hero]} in teacups, stomachs and hand"
                    if other is not None and other[hero]:
                        placed += f", {other[hero]} {other_name}"
                    found.append(Problem(
                        "supply", f"{SUPPLY[hero] - counts[hero]} {hero.label}s are placed "
                        f"({placed}), but the game has only {SUPPLY[hero]}",
                        hero.name.lower()))
        if self.bag is not None and self.out is not None:
            total = _add(_add(bag, out), self.in_play())
            for hero in HEROES:
                if total[hero] != SUPPLY[hero]:
                    found.append(Problem(
                        "supply", f"{total[hero]} {hero.label}s counted in the bag, teacups, "
                        f"stomachs, hand and out of the game; the game has {SUPPLY[hero]}",
                        hero.name.lower()))
        if self.throw_up is not None:
            found.extend(self._throw_up_problems(bag))
        elif self.drinking == "end":
            found.append(Problem("drinking", "drinking = \"end\" describes a pending throw-up "
                                 "at the end of the game: give throw_up too, or leave it out "
                                 "(an empty bag already means the end)", "drinking"))
        return found

    def _throw_up_problems(self, bag: Counts) -> list[Problem]:
        seat = self.throw_up
        assert seat is not None
        name = self.players[seat]
        found = []
        if self.drawn is not None:
            found.append(Problem("throw-up", "a throw-up is pending, so no hero can be in hand",
                                 "drawn"))
        if not self.stomachs[seat][Hero.RANGER]:
            found.append(Problem("throw-up", f"{name} throws up after drinking a Ranger, but "
                                 "their stomach holds no Ranger", f"stomachs.{name}"))
        if self.drinking == "turn" and seat != self.current:
            found.append(Problem("throw-up", f"only the monster whose turn it is drinks during "
                                 f"a turn, not {name}", "throw_up"))
        if self.drinking == "turn" and any(self.cups[seat]):
            found.append(Problem("throw-up", f"{name} throws up after drinking their whole "
                                 "teacup, but it is not empty", f"cups.{name}"))
        if self.drinking == "end":
            if any(bag):
                found.append(Problem("throw-up", "the end-of-game drinking starts only when "
                                     "the bag is empty", "drinking"))
            for before in range(seat + 1):
                if any(self.cups[before]):
                    who = self.players[before]
                    found.append(Problem("throw-up", f"{who} has already drunk at the end, but "
                                         "their teacup is not empty", f"cups.{who}"))
        return found

    def to_state(self, source: str) -> TeaPartyState:
        """The game state; a position that breaks the rules is bad input."""
        require_no_problems(self.problems(), source)
        table = Table(self.players)
        bag, cups = pack(self.derived_bag()), tuple(map(pack, self.cups))
        stomachs = tuple(map(pack, self.stomachs))
        if self.throw_up is not None:
            return TeaPartyState(table, THROW_UP, self.current, -1, bag, cups, stomachs,
                                 self.throw_up, self.drinking == "end")
        if self.drawn is not None:
            return TeaPartyState(table, CHOOSE, self.current, int(self.drawn), bag, cups, stomachs)
        state = TeaPartyState(table, DRAW, self.current, -1, bag, cups, stomachs)
        return state if bag else state._drink_from(0, cups, stomachs)


# -- reading ----------------------------------------------------------------------------------


def load_position(document: Mapping[str, Any], source: str) -> Position:
    """Parse a position document; malformed input raises :class:`InputError`."""
    root = Fields(document, source)
    game = root.text("game")
    if game != INFO.key:
        raise root.error("game", f"{INFO.key!r}", game)
    names = root.array("players", list(DEFAULT_NAMES[:2]))
    players = _players(root, names)
    current = _seat(root, "current", players, players[0])
    drawn = _hero_or_none(root, "drawn")
    bag_table, out_table = root.table("bag", None), root.table("out", None)
    bag = None if bag_table is None else _counts(bag_table)
    out = None if out_table is None else _counts(out_table)
    cups = _per_player(root, "cups", players)
    stomachs = _per_player(root, "stomachs", players)
    throw_up = _seat(root, "throw_up", players, None)
    drinking = root.text("drinking", "turn", choices=("turn", "end"))
    root.done()
    return Position(players, current, drawn, bag, cups, stomachs, out, throw_up, drinking)


def _players(root: Fields, names: list[Any]) -> tuple[str, ...]:
    if not INFO.min_players <= len(names) <= INFO.max_players:
        raise root.error("players", f"{INFO.min_players} to {INFO.max_players} player names",
                         names)
    for i, name in enumerate(names):
        if not isinstance(name, str):
            raise root.error(item_path("players", i), "a name in quotes (a string)", name)
        if not name.strip():
            raise root.error(item_path("players", i), "a non-empty name", name)
        if name in names[:i]:
            raise root.error(item_path("players", i), "a name different from the others", name)
    return tuple(names)


def _seat(root: Fields, key: str, players: tuple[str, ...], default: Any) -> Any:
    name = root.text(key, default)
    if name is None:
        return None
    if name not in players:
        raise root.error(key, "one of the players " + ", ".join(map(repr, players)), name)
    return players.index(name)


def _hero_or_none(root: Fields, key: str) -> Hero | None:
    name = root.text(key, None)
    if name is None:
        return None
    return _hero(root, key, name)


def _hero(fields: Fields, key: str, name: str) -> Hero:
    try:
        return Hero.parse(name)
    except KeyError:
        raise fields.error(key, "a hero: " + ", ".join(h.name.lower() for h in HEROES),
                           name) from None


def _counts(fields: Fields) -> Counts:
    counts = list(EMPTY)
    seen: dict[Hero, str] = {}
    for key in list(fields.keys()):
        hero = _hero(fields, key, key)
        if hero in seen:
            raise fields.error(key, f"each hero once (this table already has {seen[hero]!r})",
                               key)
        seen[hero] = key
        counts[hero] = fields.integer(key, minimum=0, maximum=SUPPLY[hero])
    fields.done()
    return tuple(counts)  # type: ignore[return-value]


def _per_player(root: Fields, key: str, players: tuple[str, ...]) -> tuple[Counts, ...]:
    table = root.table(key, None)
    if table is None:
        return (EMPTY,) * len(players)
    result = []
    for name in players:
        result.append(_counts(table.table(name)) if table.has(name) else EMPTY)
    for other in table.data:
        if other not in players:
            raise table.error(other, "a player name: " + ", ".join(map(repr, players)), other)
    return tuple(result)


def load_state(document: Mapping[str, Any], source: str) -> TeaPartyState:
    return load_position(document, source).to_state(source)


# -- writing ----------------------------------------------------------------------------------


def state_to_document(state: TeaPartyState) -> dict[str, Any]:
    """A position document that loads back to ``state``."""
    players = state.table.players
    doc: dict[str, Any] = {"game": INFO.key, "players": list(players),
                           "current": players[state.player]}
    if state.held_hero is not None:
        doc["drawn"] = state.held_hero.name.lower()
    if state.phase == THROW_UP:
        doc["throw_up"] = players[state.thrower]
        doc["drinking"] = "end" if state.final else "turn"
    doc["bag"] = _counts_doc(state.bag_counts())
    doc["cups"] = {name: _counts_doc(state.cup_counts(i)) for i, name in enumerate(players)}
    doc["stomachs"] = {name: _counts_doc(state.stomach_counts(i))
                       for i, name in enumerate(players)}
    doc["out"] = _counts_doc(state.out_of_game())
    return doc


def _counts_doc(counts: Counts) -> dict[str, int]:
    return {HEROES[h].name.lower(): n for h, n in enumerate(counts) if n}


def describe_position(position: Position) -> str:
    lines = [f"players: {', '.join(position.players)}; {position.players[position.current]} to play"]
    if position.drawn is not None:
        lines.append(f"in hand: {position.drawn.label}")
    lines.append(f"bag: {count_text(position.derived_bag())}")
    for i, name in enumerate(position.players):
        lines.append(f"{name}: teacup {count_text(position.cups[i])}; "
                     f"stomach {count_text(position.stomachs[i])}")
    lines.append(f"out of the game: {count_text(position.derived_out())}")
    return "\n".join(lines)


def check_document(document: Mapping[str, Any], source: str) -> list[Problem]:
    """Every rule problem of a well-formed document (malformed ones raise :class:`InputError`)."""
    return load_position(document, source).problems()


__all__ = ["Position", "load_position", "load_state", "state_to_document", "check_document",
           "describe_position", "InputError"]

"""Property tests of every file format (issue 14, section 4).

For each format a hypothesis strategy makes valid documents (positions reached by seeded random
play through each game's rules, logs, decks, rules files, houses, card decks, catalogues and
puzzles varied within their ranges):

* they round-trip: load, save, format as TOML or JSON, parse, load, save: equal;
* mutations of them (a wrong type, a deleted or unknown field, an out-of-range or huge number,
  NaN, deep nesting, odd unicode, truncation) either load or raise the project's
  :class:`InputError` naming a field (or, for text that no longer parses, the line) -- never
  another exception, and whatever loads can be checked (``problems()``) without one.

The budget is a few seconds per format (``max_examples`` below); with ``CI`` set the examples
are derandomized (see ``conftest.py``).
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from partysolver import puzzles
from partysolver.models.documents import Fields, format_document, parse_document
from partysolver.models.errors import InputError
from partysolver.models.meeple_land import catalogue as land_catalogue
from partysolver.models.meeple_land.position import load_park, park_document
from partysolver.models.meeple_land.puzzle import OBJECTIVES, load_puzzle, puzzle_document
from partysolver.models.meeple_party.cards import load_cards
from partysolver.models.meeple_party.house import load_house
from partysolver.models.party_time.position import load_rules, rules_to_document
from partysolver.models.pool_party_stars.game import GUESTS
from partysolver.models.pool_party_stars.position import load_deck, load_log, log_to_document
from partysolver.models.protocol import CHANCE, TERMINAL, Game
from partysolver.models.registry import all_games

EXAMPLES = 25
"""Valid documents per format and property: a few seconds per format."""


def budget(form: Format) -> settings:
    return settings(max_examples=form.examples, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@dataclass(frozen=True)
class Format:
    """A file format: a strategy of valid documents, its loader and its writer."""

    name: str
    documents: st.SearchStrategy[dict[str, Any]]
    load: Callable[[dict[str, Any], str], Any]
    save: Callable[[Any], dict[str, Any]]
    check: Callable[[Any], Any] = lambda loaded: None
    """What a command does next with a loaded document (``problems()``): it must not raise
    anything but :class:`InputError` either."""
    examples: int = EXAMPLES
    """Examples per property (fewer for the formats that are slow to load)."""


# -- valid documents ----------------------------------------------------------------------------


def played(game: Game, players: int, seed: int, steps: int) -> Any:
    """The state after up to ``steps`` random moves and chance outcomes from a seeded deal."""
    rng = random.Random(seed)
    state = game.initial_state(players, rng)
    for _ in range(steps):
        player = state.current_player()
        if player == TERMINAL:
            break
        if player == CHANCE:
            outcomes = list(state.chance_outcomes())
            state = state.apply(rng.choices([a for a, _ in outcomes],
                                            [float(p) for _, p in outcomes])[0])
        else:
            state = state.apply(rng.choice(list(state.legal_actions())))
    return state


STEPS = {"meeple-land": (0, 4, 12, 30)}
"""Moves played before a position is written, by game (Meeple Land's moves are slow to list:
a few fixed lengths, whose positions are cached for the mutation test)."""


@cache
def played_document(key: str, players: int, seed: int, steps: int) -> dict[str, Any]:
    game = all_games()[key]
    return game.state_to_document(played(game, players, seed, steps))


@st.composite
def positions(draw: st.DrawFn, key: str) -> dict[str, Any]:
    game = all_games()[key]
    players = draw(st.integers(game.info.min_players, game.info.max_players))
    steps = draw(st.sampled_from(STEPS[key]) if key in STEPS else st.integers(0, 150))
    seed = draw(st.integers(0, 4) if key in STEPS else st.integers(0, 10**6))
    return copy.deepcopy(played_document(key, players, seed, steps))


@st.composite
def seat_logs(draw: st.DrawFn) -> dict[str, Any]:
    """A Pool Party Stars log seen from one seat (or an onlooker's public log)."""
    document = draw(positions("pool-party-stars"))
    names = document["players"]
    seat = draw(st.sampled_from([None, *names]))
    if seat is None:
        return {k: v for k, v in document.items() if k not in ("rules", "hands")}
    return document | {"seat": seat, "rules": {seat: document["rules"][seat]},
                       "hands": {seat: document["hands"][seat]}}


GUEST_NAMES = [str(g) for g in GUESTS]
decks = st.lists(st.sampled_from(GUEST_NAMES), min_size=12, max_size=80).map(
    lambda deck: {"game": "pool-party-stars", "deck": deck})

party_rules = st.fixed_dictionaries({
    "board": st.text(".+-", min_size=5, max_size=40).map(lambda track: "*" + track),
    "r_card": st.sampled_from(["right", "reverse"]),
    "deck": st.fixed_dictionaries({card: st.integers(0, 12) for card in
                                   ("1", "2", "3", "4", "5", "R", "black", "star", "?")}),
})


def shipped(game: str, folder: str) -> list[dict[str, Any]]:
    return [parse_document(item.read_text(encoding="utf-8"), f"{name}.toml")
            for name, item in puzzles.files(game, folder).items()]


@st.composite
def reordered(draw: st.DrawFn, documents: list[dict[str, Any]]) -> dict[str, Any]:
    """A shipped document with the order of its top-level lists shuffled."""
    document = copy.deepcopy(draw(st.sampled_from(documents)))
    for key, value in document.items():
        if isinstance(value, list) and len(value) > 1 and not isinstance(value[0], str):
            document[key] = draw(st.permutations(value))
    return document


@st.composite
def land_puzzles(draw: st.DrawFn) -> dict[str, Any]:
    """A shipped Meeple Land puzzle with its budget, objective, visitors and flags varied."""
    document = copy.deepcopy(draw(st.sampled_from(shipped("meeple-land", "puzzles"))))
    document.pop("answer", None)  # a recorded optimum would no longer be true
    document["objective"] = draw(st.sampled_from(OBJECTIVES))
    document["budget"] = draw(st.integers(0, 60))
    document["no_dead_ends"] = draw(st.booleans())
    document["visitors"] = draw(st.dictionaries(
        st.sampled_from(["blue", "green", "pink", "yellow"]), st.integers(0, 6), max_size=4))
    return document


def house_catalogue_documents() -> list[dict[str, Any]]:
    my = parse_document(puzzles.examples("meeple-land")["my-catalogue"].read_text(), "my.toml")
    return [land_catalogue.catalogue_document(land_catalogue.house_catalogue()), my]


def load_catalogue(document: dict[str, Any], source: str) -> Any:
    return land_catalogue.load_catalogue(document, source, source)


def fields_loader(loader: Callable[[Fields], Any]) -> Callable[[dict[str, Any], str], Any]:
    return lambda document, source: loader(Fields(document, source))


def position_format(key: str) -> Format:
    game = all_games()[key]
    return Format(f"{key} position", positions(key), game.state_from_document,
                  game.state_to_document, examples=12 if key in STEPS else EXAMPLES)


def party_rules_load(document: dict[str, Any], source: str) -> Any:
    root = Fields(document, source)
    rules = load_rules(root.table("rules"))
    root.text("game")
    root.done()
    return rules


FORMATS = [
    *(position_format(key) for key in all_games()),
    Format("pool-party-stars seat or public log", seat_logs(), load_log, log_to_document,
           lambda log: log.problems()),
    Format("pool-party-stars deck", decks, load_deck,
           lambda deck: {"game": "pool-party-stars", "deck": sorted(str(g) for g in deck)}),
    Format("party-time rules", party_rules.map(lambda r: {"game": "party-time", "rules": r}),
           party_rules_load,
           lambda rules: {"game": "party-time", "rules": rules_to_document(rules)}),
    Format("meeple-party house", reordered(shipped("meeple-party", "houses")),
           fields_loader(load_house), lambda house: house.as_document()),
    Format("meeple-party cards", reordered(shipped("meeple-party", "cards")),
           fields_loader(load_cards), lambda cards: cards.as_document(), examples=10),
    Format("meeple-land catalogue", reordered(house_catalogue_documents()), load_catalogue,
           land_catalogue.catalogue_document, examples=10),
    Format("meeple-land puzzle", land_puzzles(), load_puzzle, puzzle_document,
           lambda puzzle: puzzle.problems()),
    Format("meeple-land park", reordered(shipped("meeple-land", "examples")[2:3]), load_park,
           park_document, lambda park: park.problems()),
]
IDS = [f.name for f in FORMATS]


def normal(document: Any) -> Any:
    """A document as its text says it (TOML and JSON write the same things)."""
    return parse_document(format_document(document, as_json=True), "n.json")


# -- round trips ---------------------------------------------------------------------------------


@pytest.mark.parametrize("form", FORMATS, ids=IDS)
def test_valid_documents_round_trip(form: Format) -> None:
    @budget(form)
    @given(form.documents, st.booleans())
    def round_trip(document: dict[str, Any], as_json: bool) -> None:
        source = "doc.json" if as_json else "doc.toml"
        first = form.load(parse_document(format_document(document, as_json), source), source)
        saved = form.save(first)
        again = form.load(parse_document(format_document(saved, as_json), source), source)
        assert normal(form.save(again)) == normal(saved)
        key = getattr(first, "key", None)
        if key is not None:
            assert again.key() == first.key()
        form.check(again)

    round_trip()


# -- mutations -----------------------------------------------------------------------------------

ODD_TEXT = ["", "\0", "\ud800", "é", "\u202e", "🎉", "x" * 3000, "inf", "-", "[", "house"]
ODD_VALUES = [-1, 0, 2**63, 2**64, -(10**30), 10**30, math.nan, math.inf, -math.inf, 0.5,
              True, [], {}, [1, "a"], {"a": 1}, "x"]


def paths_of(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if prefix:
        yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths_of(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from paths_of(item, (*prefix, index))


def nest(depth: int) -> Any:
    value: Any = []
    for _ in range(depth):
        value = [value]
    return value


@st.composite
def mutants(draw: st.DrawFn, documents: st.SearchStrategy[dict[str, Any]]
            ) -> tuple[str, str, bool]:
    """(text, source, whether the text still parses as written) of a mutated document."""
    document = copy.deepcopy(draw(documents))
    for _ in range(draw(st.integers(1, 2))):
        places = list(paths_of(document))
        if not places:
            break
        path = draw(st.sampled_from(places))
        parent = document
        for step in path[:-1]:
            parent = parent[step]
        kind = draw(st.sampled_from(["value", "text", "delete", "unknown", "deep"]))
        # Copies of the odd values: the shared lists and tables of ODD_VALUES must not be
        # changed by a later mutation (one put inside itself made a circular document, and
        # every later example different from the one Hypothesis replayed).
        if kind == "value":
            parent[path[-1]] = copy.deepcopy(draw(st.sampled_from(ODD_VALUES)))
        elif kind == "text":
            parent[path[-1]] = draw(st.sampled_from(ODD_TEXT))
        elif kind == "delete":
            del parent[path[-1]]
        elif kind == "unknown" and isinstance(parent, dict):
            parent[draw(st.sampled_from(["zzz", "Game", ""]))] = \
                copy.deepcopy(draw(st.sampled_from(ODD_VALUES)))
        else:
            parent[path[-1]] = nest(draw(st.sampled_from([3, 31, 33, 600])))
    text = format_document(document, as_json=True) if _needs_json(document) else None
    if text is None:
        text = format_document(document, draw(st.booleans()))
    source = "m.json" if text.lstrip().startswith("{") else "m.toml"
    if draw(st.integers(0, 9)) == 0:
        return text[:draw(st.integers(0, len(text)))], source, False
    return text, source, True


def _needs_json(document: Any) -> bool:
    """TOML cannot write NaN keys, empty keys, or nesting past the limit of tomli-w."""
    try:
        format_document(document)
    except (TypeError, ValueError, RecursionError):
        return True
    return False


@pytest.mark.parametrize("form", FORMATS, ids=IDS)
def test_mutations_load_or_fail_with_a_field(form: Format) -> None:
    @budget(form)
    @given(mutants(form.documents))
    def mutated(mutant: tuple[str, str, bool]) -> None:
        text, source, whole = mutant
        try:
            loaded = form.load(parse_document(text, source), source)
            form.check(loaded)
        except InputError as error:
            assert str(error).startswith(source)
            if whole and "valid JSON" not in error.expected and not error.expected.startswith(
                    "a legal position") \
                    and "valid TOML" not in error.expected:
                assert error.field or "nested at most" in error.expected, str(error)

    mutated()

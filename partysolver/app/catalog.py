"""What partysolver ships and offers, whatever the game: the games list and the shipped files
(reports on them; the files themselves are found in :mod:`.shipped`, whose names this module
gives too).

Every game's shipped positions are found by name: ``examples`` first, then the puzzle sets
(Meeple Land and Pool Party Stars ``puzzles``, Meeple Party ``scenarios`` and benchmark
``positions``).  A name is unique across a game's sets, or qualified by its set
(``puzzles/08-impossible-promise``), and a verb's FILE may name one as ``GAME:NAME``.  Other
folders (catalogues, decks, houses, cards, clocks)
are data files that positions refer to, not positions.
"""

from __future__ import annotations

from typing import Any

from ..models.documents import format_document, parse_document
from ..models.errors import InputError
from ..models.registry import all_games, broken_games, game_keys
from .answers import shown
from .base import Report, all_commands, broken_commands
from .shipped import SETS as SETS
from .shipped import Shipped as Shipped
from .shipped import default_example as default_example
from .shipped import find as find
from .shipped import open_document as open_document
from .shipped import reference as reference
from .shipped import shipped as shipped

# -- reports ------------------------------------------------------------------------------------


def games_report(only: str | None = None) -> Report:
    """The games (or the game ``only``), their verbs, their players and the house data each
    ships."""
    rows: list[dict[str, Any]] = []
    for key, game in all_games().items():
        if only is not None and key != only:
            continue
        commands = all_commands().get(key)
        verbs = commands.offered() if commands else []
        info = game.info
        rows.append({"game": key, "title": info.title,
                     "players": [info.min_players, info.max_players], "chance": info.chance,
                     "hidden_information": info.hidden_information, "summary": info.summary,
                     "verbs": ["example", *verbs], "house_data": info.house_data,
                     "examples": [item.name for item in shipped(key) if item.set == "examples"],
                     "shipped": len(shipped(key))})
    lines = []
    for row in rows:
        lines.append(f"{row['game']:<18} {row['title']} ({row['players'][0]}-"
                     f"{row['players'][1]} players): {row['summary']}")
        lines.append(f"{'':<18} verbs: {', '.join(row['verbs'])}")
        if broken := broken_commands().get(row["game"]):
            lines.append(f"{'':<18} unavailable: its commands failed to load ({broken})")
        house = row["house_data"]
        lines.append(f"{'':<18} house data: {house if house else 'none (all components public)'}")
    for key, error in broken_games().items():  # a plugin that does not load: a bug to report
        if only is None or key == only:
            lines.append(f"{key:<18} unavailable: {error}")
    return Report({"games": rows}, "\n".join(lines))


def tiles_report(game: str, source: str | None) -> Report:
    """The components of ``game`` that positions name by code (Meeple Land's tiles: S30 is a
    small tile), from the house data or from the file ``source`` in the same format."""
    commands = all_commands().get(game)
    lister = getattr(commands, "tiles", None)
    if lister is None:
        coded = [key for key, other in all_commands().items() if hasattr(other, "tiles")]
        raise InputError.of_option("tiles", reason=f"{game} has no tile codes to list (only "
                                   f"{' and '.join(coded) or 'no game'} names its tiles by code)")
    report: Report = lister(source)
    return report


def listing_report(game: str | None) -> Report:
    """Every shipped example, puzzle and scenario of ``game`` (of every game when ``None``)."""
    keys = [game] if game else list(game_keys())
    entries = [{"game": item.game, "set": item.set, "name": item.name,
                "description": item.description()} for key in keys for item in shipped(key)]
    lines = []
    indent = "" if game else "  "
    for key in keys:
        mine = [entry for entry in entries if entry["game"] == key]
        if not game:
            lines.append(f"{key} ({len(mine)} shipped):")
        width = max((len(entry["name"]) for entry in mine), default=0) + 2
        for entry in mine:
            tag = "" if entry["set"] == "examples" else f"[{entry['set'][:-1]}] "
            lines.append(f"{indent}{entry['name']:<{width}}{tag}{entry['description']}".rstrip())
    data: dict[str, Any] = {"examples": entries}
    if game:
        data["game"] = game
    return Report(data, "\n".join(lines))


def example_text(game: str, name: str | None, as_json: bool, reveal: bool = False) -> str:
    """The text of a shipped position (``name``, or the game's default example): a puzzle's
    answer kept back unless ``reveal`` (its comments and the fields its kind declares secret,
    as every front end shows it: :func:`.answers.shown`)."""
    item = find(game, name) if name else default_example(game)
    text = item.text(reveal)
    if not reveal:
        text = shown(item.document(), text)["text"]
    if as_json:
        return format_document(parse_document(text, f"{item.name}.toml"), as_json=True)
    return text

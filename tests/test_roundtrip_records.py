"""Game record round trip: a record document loaded and written gives the same document, and
the same text, as TOML and as JSON.

Records are made as ``apply --record`` and ``play``'s ``save`` make them: a start (a shipped
position by name, or an inline table from a new game of any table size played a few random
steps through the rules), then seeded random steps through the game's
:class:`~partysolver.models.notation.Playable` in canonical spelling, some with a comment.
Loading replays every step, so the round trip also says that every canonical spelling still
names a legal step where it stands.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_formats_properties import played
from test_roundtrip_moves import GAMES, shipped_starts

from partysolver.app import catalog, playalong
from partysolver.app.base import document, parse
from partysolver.models.documents import format_document
from partysolver.models.playable import random_walk
from partysolver.models.registry import all_games

COMMENTS = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=30)


def a_record(game: str, choice: int, seed: int, length: int,
             comments: list[str | None]) -> dict[str, Any]:
    """The document of a record of ``length`` random steps from a shipped position or a new
    game (``choice`` picks; inline when past the shipped ones)."""
    rng = random.Random(seed)
    names = shipped_starts(game)
    start: dict[str, Any] | str
    if choice % (len(names) + 2) < len(names):
        start = names[choice % (len(names) + 2)]
        found = catalog.reference(start)
        assert found is not None
        position = playalong.playable(found.document())
    else:
        rules = all_games()[game]
        players = rng.randint(rules.info.min_players, rules.info.max_players)
        start = rules.state_to_document(played(rules, players, seed, seed % 5))
        position = playalong.playable(document(start, "start.toml"))
    position, texts = random_walk(position, length, rng)
    steps = [playalong.Step(i + 1, "", text, comments[i % len(comments)] if comments else None)
             for i, text in enumerate(texts)]
    return playalong.Record(game, start, tuple(steps)).to_document()


@pytest.mark.parametrize("game", GAMES)
def test_a_record_loaded_and_written_is_the_same_document(game: str) -> None:
    @settings(max_examples=8 if game == "meeple-land" else 20, deadline=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(st.integers(0, 30), st.integers(0, 10**6), st.integers(0, 10),
           st.lists(st.none() | COMMENTS, max_size=4), st.booleans())
    def round_trip(choice: int, seed: int, length: int, comments: list[str | None],
                   as_json: bool) -> None:
        written = a_record(game, choice, seed, length, comments)
        text = format_document(written, as_json)
        source = "game.record.json" if as_json else "game.record.toml"
        loaded = playalong.load_record(parse(text, source))
        assert loaded.to_document() == parse(text, source).data
        assert format_document(loaded.to_document(), as_json) == text
        assert [s.number for s in loaded.steps] == list(range(1, len(loaded.steps) + 1))
        other = "game.record.toml" if as_json else "game.record.json"
        again = playalong.load_record(parse(format_document(loaded.to_document(), not as_json),
                                            other))
        assert again.steps == loaded.steps  # TOML leaves out a null: compare as TOML
        assert format_document(again.to_document()) == format_document(loaded.to_document())

    round_trip()


def test_a_record_from_apply_is_written_back_unchanged(tmp_path: Any) -> None:
    """What ``apply --record`` wrote, loaded and written again, is the file's text."""
    from click.testing import CliRunner

    from partysolver.cli.main import cli

    record = tmp_path / "game.record.toml"
    result = CliRunner().invoke(cli, ["apply", "tea-party:default", "cup", "--random",
                                      "--seed", "3", "--record", str(record)])
    assert result.exit_code == 0, result.output
    text = record.read_text(encoding="utf-8")
    loaded = playalong.load_record(parse(text, str(record)))
    assert len(loaded.steps) >= 2 and format_document(loaded.to_document()) == text

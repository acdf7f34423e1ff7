"""The documented file formats: every TOML example in the Meeple Land formats section is a
shipped file, byte for byte, and loads."""

from __future__ import annotations

import re
from pathlib import Path

from partysolver.models.documents import parse_document
from partysolver.models.meeple_land import GAME
from partysolver.models.meeple_land.catalogue import load_catalogue
from partysolver.models.meeple_land.position import document_kind, load_park
from partysolver.models.meeple_land.puzzle import load_puzzle
from partysolver.puzzles import examples

ROOT = Path(__file__).resolve().parents[2]


def formats_section() -> str:
    """The Meeple Land section of ``docs/formats.md``."""
    merged = (ROOT / "docs" / "formats.md").read_text(encoding="utf-8")
    start = merged.index("## Meeple Land (`meeple-land`)")
    end = merged.find("\n## ", start + 1)
    return merged[start:] if end < 0 else merged[start:end]


def test_every_documented_file_is_shipped_and_loads() -> None:
    blocks = re.findall(r"```toml\n(.*?)```", formats_section(), re.S)
    shipped = {item.read_text(encoding="utf-8"): name
               for name, item in examples("meeple-land").items()}
    assert len(blocks) >= 5
    kinds = set()
    for block in blocks:
        assert block in shipped, block[:80]
        name = f"{shipped[block]}.toml"
        data = parse_document(block, name)
        kind = data["kind"] if data.get("kind") == "catalogue" else document_kind(data, name)
        kinds.add(kind)
        if kind == "catalogue":
            assert load_catalogue(data, name, name).tiles
        elif kind == "puzzle":
            assert load_puzzle(data, name).problems() == []
        elif kind == "park":
            assert load_park(data, name).problems() == []
        else:
            assert GAME.state_from_document(data, name) is not None
    assert kinds == {"catalogue", "puzzle", "park", "game"}

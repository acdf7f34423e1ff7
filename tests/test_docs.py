"""The documentation's examples are real: every TOML example in docs/formats.md verifies."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from partysolver.cli.main import cli

DOCS = Path(__file__).resolve().parent.parent / "docs"
BLOCKS = re.findall(r"```toml\n(.*?)```", (DOCS / "formats.md").read_text(), re.S)
POSITIONS = [b for b in BLOCKS if re.search(r'^game = "', b, re.M) and '"..."' not in b]
"""Every complete file in the page (a block with an elided ``"..."`` is a sketch, not a file)."""


def test_the_format_page_has_examples() -> None:
    assert POSITIONS


@pytest.mark.parametrize("block", POSITIONS, ids=lambda b: re.search(r'game = "(.*?)"', b)[1])
def test_every_documented_example_verifies(tmp_path: Path, block: str) -> None:
    path = tmp_path / "example.toml"
    path.write_text(block)
    result = CliRunner().invoke(cli, ["verify", str(path), "--json"])
    assert result.exit_code == 0, result.output
    assert '"valid": true' in result.stdout


def test_the_readme_shows_the_two_commands() -> None:
    readme = (DOCS.parent / "README.md").read_text()
    assert "make run" in readme and "make test" in readme


def test_no_merge_conflict_is_left_in_the_docs() -> None:
    for page in [DOCS.parent / "README.md", *DOCS.glob("*.md")]:
        lines = page.read_text().splitlines()
        assert not [line for line in lines if line.startswith(("<<<<<<< ", ">>>>>>> "))], page

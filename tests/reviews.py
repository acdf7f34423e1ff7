"""``partysolver review`` as the tests of the review's luck and standing run it: through the
CLI, its JSON checked against the published schema."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
from click.testing import CliRunner, Result

from partysolver.app.contract import schema
from partysolver.cli.main import cli


def run(*args: str, expect: int = 0) -> Result:
    """``partysolver ARGS`` with the exit code ``expect`` and no traceback."""
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == expect, result.output
    assert "Traceback" not in result.output
    return result


def reviewed(record: Path, *options: str) -> dict[str, Any]:
    """``partysolver review RECORD --json``'s data, valid against the review schema."""
    data: dict[str, Any] = json.loads(run("review", str(record), "--json", *options).stdout)
    jsonschema.validate(data, schema("review"))
    return data

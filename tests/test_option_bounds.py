"""Counts that size work are bounded before any work (issue 27, what the fuzz benchmark found
after the first round of fixes): a huge ``--playouts`` sized the Party-Time playouts' table
(``ValueError: Maximum allowed dimension exceeded``), a huge ``--games`` made ``simulate`` and
``verify`` run for ever whatever ``--time-limit`` said, and ``review --players ''`` was refused
only after the progress bar had begun (two lines).  Each is now one line, exit code 2, at once.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from partysolver.cli.main import cli

HUGE = "99999999999999999999"


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def one_line_refusal(result: Result, option: str) -> None:
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert f"--{option}: expected an integer from" in lines[0]
    assert "Traceback" not in result.output


@pytest.mark.parametrize("args, option", [
    (("hint", "party-time:default", "--playouts", HUGE, "--time-limit", "0.1"), "playouts"),
    (("hint", "party-time:default", "--playouts", "100001"), "playouts"),
    (("simulate", "party-time", "--games", "2", "--policy", "hint", "--hint-playouts", HUGE),
     "hint-playouts"),
    (("simulate", "tea-party", "--games", HUGE, "--policy", "random"), "games"),
    (("verify", "meeple-party:scenarios/01-last-photo", "--games", HUGE, "--time-limit", "0.1"),
     "games"),
])
def test_a_count_that_sizes_work_is_bounded(args: tuple[str, ...], option: str) -> None:
    one_line_refusal(invoke(*args), option)


def test_the_help_states_the_bounds() -> None:
    assert "at most 100,000" in " ".join(invoke("hint", "--help").output.split())
    assert "at most 10,000,000" in " ".join(invoke("simulate", "--help").output.split())


def test_review_refuses_its_players_before_any_step(tmp_path: Path) -> None:
    record = tmp_path / "r.record.toml"
    made = invoke("apply", "tea-party:default", "cup", "--random", "--seed", "1",
                  "--record", str(record))
    assert made.exit_code == 0, made.output
    for players, expected in (("", "a non-empty text"), ("Zed", "players of")):
        result = invoke("review", str(record), "--players", players)
        assert result.exit_code == 2
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and "--players" in lines[0] and expected in lines[0], lines

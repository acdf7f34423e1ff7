"""Meeple Party's deals decided with perfect information (``simulate --decide``, issue 31) give
the same table in this process, in local worker processes and on a real Dask cluster (a
``dask scheduler`` and two ``dask worker`` processes on 127.0.0.1)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from click.testing import CliRunner
from dask_cluster import Cluster

from partysolver.cli.main import cli


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    started = Cluster(tmp_path_factory.mktemp("dask"), workers=2)
    try:
        yield started
    finally:
        started.stop()


def run(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.stdout


def test_the_deals_table_is_the_same_here_on_processes_and_on_the_cluster(
        cluster: Cluster) -> None:
    args = ["simulate", "meeple-party", "--players", "2", "--decide", "--games", "4",
            "--difficulty", "hard", "--seed", "11", "--json"]
    alone = run(*args)
    deals = json.loads(alone)["deals"]
    assert deals["deals"] == 4 and deals["difficulty"] == "hard"
    assert run(*args, "--workers", "2") == alone
    assert run(*args, "--scheduler", cluster.address) == alone
    text = run(*args[:-1], "--scheduler", cluster.address)
    assert text.splitlines()[0].startswith("4 deals decided with perfect information")

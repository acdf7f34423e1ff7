"""Against a real Dask cluster (a ``dask scheduler`` and two ``dask worker`` processes on
127.0.0.1): every game's ``simulate`` and a batch ``verify`` give the same figures on one
process, four processes and the cluster, and a worker killed mid-run has its units re-run on
the other one, the totals unchanged; Meeple Party's deals decided with perfect information
(``simulate --decide``, issue 31) give the same table here, on processes and on the cluster."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from dask_cluster import Cluster

from partysolver import puzzles
from partysolver.app.tea_party import final_scores, make_policy
from partysolver.cli.main import cli
from partysolver.models.registry import all_games, is_plugin
from partysolver.solvers.runner import DaskCluster, Outcome, Progress, RunPlan
from partysolver.solvers.simulate import simulate
from partysolver.solvers.tea_party.policies import NewGame


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    started = Cluster(tmp_path_factory.mktemp("dask"), workers=2)
    try:
        yield started
    finally:
        started.stop()


def run(*args: str, expect: int = 0, env: dict[str, str] | None = None) -> Result:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False, env=env)
    assert result.exit_code == expect, result.output
    return result


SIMULATIONS = {
    "tea-party": ["--games", "10", "--policy", "greedy", "--policy", "random", "--rotate"],
    "party-time": ["--games", "10", "--policy", "greedy", "--policy", "random", "--rotate"],
    "pool-party-stars": ["--games", "5", "--policy", "random"],
    "meeple-party": ["--games", "4", "--policy", "random"],
    "meeple-land": ["--games", "2", "--policy", "random"],
}


def test_every_game_is_covered() -> None:
    assert set(SIMULATIONS) == {key for key in all_games() if not is_plugin(key)}


@pytest.mark.parametrize("game", sorted(SIMULATIONS))
def test_simulate_gives_the_same_figures_on_one_four_processes_and_the_cluster(
        cluster: Cluster, game: str) -> None:
    args = ["simulate", game, *SIMULATIONS[game], "--seed", "5", "--json"]
    alone = run(*args).stdout
    assert json.loads(alone)["game"] == game
    assert run(*args, "--workers", "4").stdout == alone
    assert run(*args, "--scheduler", cluster.address).stdout == alone


def test_the_variable_names_the_cluster_unless_an_option_says_otherwise(
        cluster: Cluster, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("partysolver.solvers.runner.cluster.CONNECT_SECONDS", 1.0)
    args = ["simulate", "tea-party", "--games", "6", "--seed", "2", "--json"]
    alone = run(*args).stdout
    assert run(*args, env={"PARTYSOLVER_SCHEDULER": cluster.address}).stdout == alone
    nowhere = {"PARTYSOLVER_SCHEDULER": "tcp://127.0.0.1:9"}
    assert "--scheduler: expected" in run(*args, env=nowhere, expect=2).output
    assert run(*args, "--workers", "2", env=nowhere).stdout == alone


def test_batch_verify_gives_the_same_lines_on_one_four_processes_and_the_cluster(
        cluster: Cluster, tmp_path: Path) -> None:
    folder = tmp_path / "setups"
    folder.mkdir()
    for game in ("tea-party", "party-time", "pool-party-stars"):
        for name, path in puzzles.examples(game).items():
            shutil.copy(path, folder / f"{game}-{name}{path.suffix}")
    args = ["verify", str(folder), "--seed", "3", "--json"]
    alone = run(*args, expect=1).stdout  # pool-party-stars' lie.toml has problems
    lines = [json.loads(line) for line in alone.splitlines()]
    assert len(lines) == len(list(folder.iterdir())) and not any("error" in x for x in lines)
    assert run(*args, "--workers", "4", expect=1).stdout == alone
    assert run(*args, "--scheduler", cluster.address, expect=1).stdout == alone


def test_a_worker_killed_mid_run_has_its_units_run_on_the_other(cluster: Cluster) -> None:
    game = NewGame(("Blue", "Green"))
    policies = [make_policy("greedy"), make_policy("random")]
    games = 600
    reference = simulate(game, policies, games, seed=11, rotate=True, stats=final_scores)
    victim = cluster.worker_addresses()["w1"]
    victim_pid = str(cluster.processes["w1"].pid)
    seen: list[Outcome] = []
    busy: list[int] = []

    with cluster.client() as client:  # one connection, asked at every report: no window lost

        def kill_once(progress: Progress) -> None:
            """Kill w1 once, at the first report after it has finished a chunk where it
            holds units in flight (on a loaded machine it may hold none for a while)."""
            if busy or not any(o.worker.endswith(f":{victim_pid}") for o in seen):
                return
            held = len(client.processing(workers=[victim]).get(victim, ()))
            if held and progress.done < games:
                busy.append(held)
                cluster.kill("w1")

        plan = RunPlan(DaskCluster(cluster.address), on_outcome=seen.append,
                       on_progress=kill_once)
        try:
            result = simulate(game, policies, games, seed=11, rotate=True,
                              stats=final_scores, workers=plan)
        finally:
            cluster.start_worker("w1")
            cluster.wait_for_workers(2)
    assert busy and busy[0] > 0, "the killed worker had units in flight"
    assert sorted(o.index for o in seen) == list(range(games)) and all(o.ok for o in seen)
    assert result.records == reference.records and not result.failures
    assert result.seat_rates() == reference.seat_rates()


def test_an_unreachable_scheduler_is_one_line_of_bad_input(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("partysolver.solvers.runner.cluster.CONNECT_SECONDS", 1.0)
    result = run("simulate", "tea-party", "--games", "2", "--scheduler", "tcp://127.0.0.1:9",
                 expect=2)
    assert "--scheduler: expected the address of a running Dask scheduler" in result.output
    assert "Traceback" not in result.output


def test_the_deals_table_is_the_same_here_on_processes_and_on_the_cluster(
        cluster: Cluster) -> None:
    args = ["simulate", "meeple-party", "--players", "2", "--decide", "--games", "4",
            "--difficulty", "hard", "--seed", "11", "--json"]
    alone = run(*args).stdout
    deals = json.loads(alone)["deals"]
    assert deals["deals"] == 4 and deals["difficulty"] == "hard"
    assert run(*args, "--workers", "2").stdout == alone
    assert run(*args, "--scheduler", cluster.address).stdout == alone
    text = run(*args[:-1], "--scheduler", cluster.address).stdout
    assert text.splitlines()[0].startswith("4 deals decided with perfect information")

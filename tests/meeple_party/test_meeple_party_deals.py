"""Random deals decided with perfect information (issue 31): ``simulate meeple-party --decide``
and ``--deal SEED``; the verdicts against a brute force, a won deal's record under ``review``,
resuming a run, and the options' one-line refusals."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner

from partysolver.app.contract import schema
from partysolver.cli.main import cli
from partysolver.models.meeple_party.position import load_state, state_to_document
from partysolver.models.meeple_party.state import OVER, MeeplePartyState
from partysolver.models.protocol import CHANCE
from partysolver.solvers.meeple_party.deals import Blind, deal, deal_seed, decide

DEALS = ["simulate", "meeple-party", "--players", "2", "--decide", "--games", "3", "--seed",
         "4", "--json"]


def run(*args: str, expect: int = 0) -> str:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == expect, result.output
    return result.stdout if expect == 0 else result.output


def brute(state: MeeplePartyState, memo: dict[Any, tuple[bool, int]]) -> tuple[bool, int]:
    """Whether some line wins, and the most photos any line takes: every decision of the
    whole game tree, nothing pruned (positions remembered only to count each once)."""
    key = state.key()
    if key not in memo:
        if state.phase == OVER:
            found = (state.outcome == "won", state.taken)
        elif state.current_player() == CHANCE:  # a deal has one outcome at every chance node
            found = brute(state.apply(state.chance_outcomes()[0][0]), memo)
        else:
            won, most = False, state.taken
            for _, child in state.children():
                child_won, child_most = brute(child, memo)
                won, most = won or child_won, max(most, child_most)
            found = (won, most)
        memo[key] = found
    return memo[key]


def test_a_deal_is_its_seed_with_every_order_fixed_and_its_file_loads_back() -> None:
    state = deal(2, "hard", "serious", 77)
    again = deal(2, "hard", "serious", 77)
    assert state.key() == again.key() and state.setup.ordered
    assert state.key() != deal(2, "hard", "serious", 78).key()
    assert len(state.bag) == 33 and state.setup.photos_to_win == 18
    assert load_state(state_to_document(state), "deal").key() == state.key()
    seen = Blind(state.setup)(state)  # what the policy sees: counts and sets, no order
    assert not seen.setup.ordered and sum(seen.bag) == 33
    assert seen.photo_deck == tuple(sorted(state.photo_deck))
    assert deal_seed(4, 2) == 4 * 1_000_003 + 2


@pytest.mark.parametrize("seed", [1, 4])
def test_cannot_be_won_agrees_with_a_brute_force_on_a_tiny_deal(seed: int) -> None:
    """A party of one turn that needs two photos: no line takes both; the most photos, by
    every line of the game tree, is the solver's."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    state = deal(2, "standard", "casual", seed, target=2, turn_limit=1)
    decided = decide(state, None)
    assert decided.verdict == "lost"
    assert brute(state, {}) == (False, decided.photos) == (False, 1)


def test_won_agrees_with_a_brute_force_on_a_tiny_deal() -> None:
    state = deal(2, "standard", "casual", 8, target=2, turn_limit=1)
    decided = decide(state, None)
    assert decided.verdict == "won" and brute(state, {}) == (True, 2)
    final = decided.line[-1][0].apply(decided.line[-1][1])
    assert final.phase == OVER and final.outcome == "won"


def test_a_won_deal_record_reviews_every_move_as_best_or_within_the_win(
        tmp_path: Path) -> None:
    record = tmp_path / "deal.toml"
    data = json.loads(run("simulate", "meeple-party", "--players", "2", "--deal", "1000003",
                          "--record", str(record), "--json"))
    found = data["deal"]
    assert found["verdict"] == "won" and found["photos"] == found["target"] == 12
    assert found["record"] == str(record) and record.read_text().startswith("# partysolver")
    jsonschema.validate(data, schema("simulate"))
    review = json.loads(run("review", str(record), "--json"))
    assert len(review["steps"]) == len(found["line"]) + 1
    assert review["decisions"]
    for decision in review["decisions"]:
        best = decision["lost"] == 0 and decision["label"] is None and not decision["at_least"]
        within = decision.get("comment", "").startswith("within the win")
        assert best or within, decision
    # the record's last step wins the party
    text = run("apply", str(record))
    assert "won" in text


def test_the_table_of_a_run_and_its_resume_after_a_partial_run(tmp_path: Path) -> None:
    alone = json.loads(run(*DEALS))
    jsonschema.validate(alone, schema("simulate"))  # simulate's contract, and a deals table
    deals = alone["deals"]
    assert deals["deals"] == 3 and deals["players"] == 2
    assert sum(deals[v]["count"] for v in ("won", "lost", "undecided")) == 3
    assert 0 <= deals["won"]["interval"][0] <= deals["won"]["share"] <= \
        deals["won"]["interval"][1] <= 1
    assert deals["policy"]["win"]["count"] == round(alone["seats"][0]["win"]["rate"] * 3)
    journal = tmp_path / "deals.jsonl"
    assert json.loads(run(*DEALS, "--out", str(journal))) == alone
    lines = journal.read_text().splitlines()
    assert len(lines) == 4 and all("verdict" in json.loads(line)["result"]
                                   for line in lines[1:])
    journal.write_text("\n".join(lines[:2]) + "\n" + lines[2][:20])  # killed mid-line
    assert json.loads(run(*DEALS, "--out", str(journal), "--resume")) == alone
    assert sorted(json.loads(line)["index"] for line in journal.read_text().splitlines()[1:]) \
        == [0, 1, 2]
    text = run(*DEALS[:-1])
    assert "cannot be won" in text and "hint policy, order unknown" in text


@pytest.mark.parametrize(("args", "says"), [
    (["--record", "x.toml"], "--record: expected --deal SEED"),
    (["--decide", "--policy", "hint", "--policy", "random"], "--policy: expected one policy"),
    (["--decide", "--variant", "hot-tub"], "--variant: expected party"),
    (["--deal", "5", "--out", "x.jsonl"], "--out: expected no --out with --deal"),
    (["--deal", "-1"], "--deal: expected an integer of at least 0"),
    (["--decide", "--deal-nodes", "0"], "--deal-nodes: expected an integer from 1"),
    (["--decide", "--records", "folder"], "--records: expected no records folder"),
    (["--deal", "2", "--plot", "p.svg"], "--plot: expected no plot"),
])
def test_bad_deal_options_are_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       args: list[str], says: str) -> None:
    monkeypatch.chdir(tmp_path)
    out = run("simulate", "meeple-party", "--players", "2", *args, expect=2)
    assert says in out and len(out.strip().splitlines()) == 1
    assert not list(tmp_path.iterdir())  # nothing written


def test_an_existing_record_is_never_replaced(tmp_path: Path) -> None:
    record = tmp_path / "mine.toml"
    record.write_text("keep me\n")
    out = run("simulate", "meeple-party", "--players", "2", "--deal", "3", "--record",
              str(record), expect=2)
    assert "--record" in out and record.read_text() == "keep me\n"

"""Every verb of Pool Party Stars through the command line, and a golden transcript of one
seeded game."""

from __future__ import annotations

import json
import random
import xml.dom.minidom
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from pps_helpers import EXAMPLES, SHIPPED
from reports import data as report_data
from reports import simulation

from partysolver.app.pool_party_stars import make_policy
from partysolver.cli.main import cli
from partysolver.models.documents import format_document
from partysolver.models.pool_party_stars import GAME
from partysolver.solvers.simulate import play_game

GOLDEN = Path(__file__).with_name("golden-game.toml")


def run(*args: str, code: int = 0) -> str:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == code, result.output
    return result.output


def run_json(*args: str, code: int = 0) -> Any:
    result = CliRunner().invoke(cli, [*args, "--json"])
    assert result.exit_code == code, result.output
    data = json.loads(result.stdout)  # the progress bar of simulate is on stderr
    assert data["game"] == "pool-party-stars"
    return data


def test_games_and_examples() -> None:
    games = json.loads(run("games", "--json"))["games"]
    mine = next(g for g in games if g["game"] == "pool-party-stars")
    assert mine["hidden_information"] and "house" in mine["house_data"]
    assert set(mine["verbs"]) >= {"hint", "solve", "verify", "simulate", "render"}
    listing = run("example", "pool-party-stars", "--list")
    for name in ("default", "full-state", "rulebook", "lie", "conflict", "puzzle"):
        assert name in listing
    assert 'seat = "Dani"' in run("example", "pool-party-stars")


def test_hint_on_the_default_example() -> None:
    text = run("hint", str(EXAMPLES / "default.toml"))
    assert "guess Ben is Robot" in text.splitlines()[3]
    assert "exposure:" in text
    data = report_data("hint", EXAMPLES / "default.toml", top=3)
    assert data["to_move"] == "Dani" and data["status"] == "exact"
    assert len(data["moves"]) == 3
    best = data["moves"][0]
    assert best["move"] == "guess Ben Robot" and best["text"] == "guess Ben is Robot"
    assert best["value"] == 1.0
    assert "certainly Robot" in best["reason"]
    # Ben barred Robot-Swimsuit-Book (9) and Robot-Costume-Drink (15): only Robot is in both.
    assert "deduced from events 9, 15" in best["reason"]
    assert best["figures"]["probability"] == 1.0 and "information_bits" in best["figures"]
    assert {e["player"] for e in data["exposure"]["players"]} == {"Lari", "Ana", "Ben"}


def test_hint_while_the_seats_own_proposal_waits_for_its_answer(tmp_path: Path) -> None:
    """Once the seat has proposed, nothing is for it to choose until the others answer: the
    hint ranks no action again (it ranked the same proposal second) and says what the answer
    may be, with the chances it gave the proposal."""
    before = run_json("hint", "pool-party-stars:default")
    proposal = next(m for m in before["moves"] if m["move"] == "propose Plant-Swimsuit-Drink")
    waiting = tmp_path / "waiting.toml"
    run("apply", "pool-party-stars:default", "propose Plant-Swimsuit-Drink", "-o", str(waiting))
    data = run_json("hint", str(waiting))
    assert data["moves"] == [] and data["status"] == "exact"
    assert data["waiting"] == {"move": "propose Plant-Swimsuit-Drink", "kind": "propose",
                               "value": proposal["value"],
                               "probability": proposal["figures"]["probability"],
                               "reason": proposal["reason"]}
    text = run("hint", str(waiting))
    assert text.startswith("Dani's move 'propose Plant-Swimsuit-Drink' waits for its answer: "
                           "there is nothing for Dani to choose until it is given; enter who "
                           "bars it (or nobody)")


def test_hint_from_any_seat_of_an_omniscient_log() -> None:
    data = report_data("hint", EXAMPLES / "full-state.toml", from_seat="Lari")
    assert data["to_move"] == "Lari" and data["moves"]
    assert report_data("hint", EXAMPLES / "full-state.toml")["to_move"] == "Dani"  # to act
    # the CLI wires the option through
    assert run_json("hint", str(EXAMPLES / "full-state.toml"), "--from-seat",
                    "Lari")["to_move"] == "Lari"


def test_solve_a_puzzle_and_a_log() -> None:
    data = report_data("solve", EXAMPLES / "puzzle.toml")
    assert data["status"] == "optimal" and data["solution"]["rule"] == "Costume"
    assert data["objective"]["value"] == 1 and "Forbidden Costume" in data["verdict"]
    assert data["solution"]["target"] == "Lari"
    assert [step["events"] for step in data["solution"]["chain"]] == [[1], [3], [4], []]
    text = run("solve", str(EXAMPLES / "puzzle.toml"))
    assert text.startswith("Lari's rule is Forbidden Costume")
    data = report_data("solve", EXAMPLES / "rulebook.toml", from_seat="Dani")
    assert data["objective"]["value"] == 80 and data["objective"]["bound"] == 80
    ana = next(p for p in data["solution"]["players"] if p["player"] == "Ana")
    assert ana["probabilities"]["Animal"] == 0.1 and "Monster" in ana["eliminated"]
    assert ana["exact"]["Animal"] == "1/10"  # 8 of the 80 counted assignments
    data = report_data("solve", EXAMPLES / "default.toml")
    ben = next(p for p in data["solution"]["players"] if p["player"] == "Ben")
    assert ben["certain"] == "Robot" and ben["chain"][-1]["text"] == "so Ben's rule is Robot"


def test_verify_lists_lies_conflicts_and_puzzle_verdicts() -> None:
    data = report_data("verify", EXAMPLES / "lie.toml")
    assert not data["valid"] and data["verdict"] == "invalid: 4 problems"
    assert sorted(p["code"] for p in data["problems"]) == ["answers", "lie", "lie", "lie"]
    data = run_json("verify", str(EXAMPLES / "conflict.toml"), code=1)  # exit 1 through the CLI
    assert data["conflict"] == {"events": [1, 2, 4, 5], "smallest": True}
    assert [p["code"] for p in data["problems"]] == ["inconsistent"]
    data = report_data("verify", EXAMPLES / "puzzle.toml")
    assert data["valid"] and data["solvable"] == "solvable"
    for name in ("default", "full-state", "rulebook"):
        assert run_json("verify", str(EXAMPLES / f"{name}.toml"))["valid"]


def test_verify_an_open_puzzle_is_unsolvable(tmp_path: Path) -> None:
    text = (EXAMPLES / "puzzle.toml").read_text(encoding="utf-8")
    text = text.replace('    "Dani guesses Lari is Book: wrong",\n', "")
    path = tmp_path / "open.toml"
    path.write_text(text, encoding="utf-8")
    assert report_data("verify", path)["solvable"] == "unsolvable"
    data = report_data("solve", path)
    assert data["status"] == "feasible" and set(data["solution"]["possible"]) == {"Costume",
                                                                                  "Book"}


def test_simulate_is_reproducible_and_reports_intervals() -> None:
    args = ("simulate", "pool-party-stars", "--players", "3", "--games", "6", "--seed", "4",
            "--policy", "hint", "--policy", "random")
    first = run_json(*args)
    assert first == simulation("pool-party-stars", 6, "hint", "random", players=3, seed=4)
    assert first["players"] == 3 and len(first["seats"]) == 3
    assert set(first["by_policy"]) == {"hint", "random"}
    assert abs(sum(seat["win"]["rate"] for seat in first["seats"]) - 1.0) < 1e-6
    assert "vips" in first["seats"][0]["figures"]
    parallel = run_json(*args, "--workers", "2")
    assert parallel["seats"] == first["seats"] and parallel["figures"] == first["figures"]
    other = simulation("pool-party-stars", 2, competitive=True,
                       guest_deck=str(SHIPPED / "decks" / "house.toml"))
    assert other["competitive"] and other["deck"] == "house" and other["players"] == 4


def test_render_draws_the_table_and_the_hint(tmp_path: Path) -> None:
    out = tmp_path / "table.svg"
    run("render", str(EXAMPLES / "default.toml"), "-o", str(out), "--hint")
    svg = out.read_text(encoding="utf-8")
    xml.dom.minidom.parseString(svg)
    assert "hint: guess Ben is Robot" in svg and "Waiting line" in svg and "marker" in svg
    run("render", str(SHIPPED / "puzzles" / "easy-03.toml"), "-o", str(out))
    assert "Clues (an excerpt of a game): what is Ana's rule?" in out.read_text(encoding="utf-8")
    run("render", str(EXAMPLES / "puzzle.toml"), "-o", str(out))
    svg = out.read_text(encoding="utf-8")
    assert "What is known" in svg and "Waiting line" in svg
    assert "the puzzle (render --hint shows it)" in svg and "answer:" not in svg
    run("render", str(EXAMPLES / "puzzle.toml"), "-o", str(out), "--hint")
    svg = out.read_text(encoding="utf-8")
    assert "answer: Lari's rule is Costume" in svg and "the puzzle (render" not in svg


def test_golden_transcript_of_a_seeded_game() -> None:
    """One 4-player game, hint bot in the first seat and random bots elsewhere, from seed
    2024: its omniscient log is pinned (regenerate deliberately if the rules change)."""
    rng = random.Random(2024)
    state = GAME.initial_state(4, rng)
    final, _ = play_game(state, [make_policy(p) for p in ("hint", "random", "random",
                                                          "random")], rng)
    text = format_document(GAME.state_to_document(final))
    assert text == GOLDEN.read_text(encoding="utf-8")


def test_hint_at_the_end_of_a_game_names_the_winner() -> None:
    data = run_json("hint", str(GOLDEN), "--from-seat", "Ben")
    assert data["over"] and data["moves"] == [] and data["winners"] == ["Ana"]
    assert data["vips"]["Ana"] == 27


def test_generate_writes_puzzles_that_keep_their_answer_unless_revealed(tmp_path: Path) -> None:
    out = tmp_path / "puzzles"
    text = run("generate", "pool-party-stars", "--difficulty", "easy", "--out", str(out),
               "--seed", "3")
    written = out / "easy-01.toml"
    assert f"wrote {written}" in text and "answer" not in text
    solved = run_json("solve", str(written))
    assert solved["status"] == "optimal"
    data = run_json("generate", "pool-party-stars", "--difficulty", "easy", "--out",
                    str(tmp_path / "again"), "--seed", "3", "--reveal")
    assert data["puzzles"][0]["answer"] == solved["solution"]["rule"]
    before = written.read_text()
    again = CliRunner().invoke(cli, ["generate", "pool-party-stars", "--difficulty", "easy",
                                     "--out", str(out), "--seed", "3"])
    assert again.exit_code == 2 and "exists already" in again.output
    assert written.read_text() == before


def test_generate_needs_a_difficulty_and_a_game_that_generates(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["generate", "pool-party-stars", "--out", str(tmp_path)])
    assert result.exit_code == 2 and "--difficulty" in result.output
    assert result.output.count("\n") == 1
    result = CliRunner().invoke(cli, ["generate", "tea-party", "--out", str(tmp_path)])
    assert result.exit_code == 2 and "does not support 'generate'" in result.output


def test_hint_on_a_puzzle_gives_the_next_step_and_keeps_the_answer() -> None:
    data = report_data("hint", EXAMPLES / "puzzle.toml")
    assert data["puzzle"] is True and data["target"] == "Lari" and len(data["moves"]) == 1
    step = data["moves"][0]
    assert step["move"].startswith("deduce: #1 ") and step["figures"]["events"] == [1]
    solved = report_data("solve", EXAMPLES / "puzzle.toml")
    assert solved["solution"]["chain"][0]["text"] in step["move"]
    assert "Costume" not in step["move"] + step["reason"]  # the answer stays hidden


ANIMAL_LOG = '''game = "pool-party-stars"
players = ["Dani", "Lari", "Ana"]
mode = "friendly"
seat = "Dani"
events = [
    "Dani proposes Plant-Swimsuit-Drink: Lari lets in, Ana lets in",
    "Lari proposes Robot-Costume-Drink: Ana bars",
    "Ana proposes Robot-Swimsuit-Gift: Dani bars",
    "Dani proposes Robot-Sport-Gift: Lari lets in, Ana bars",
    "Lari guesses Ana is Sport: wrong",
    "Ana proposes Monster-Sport-Book: Dani lets in, Lari lets in",
    "Dani proposes Plant-Swimsuit-Food: Lari lets in, Ana lets in",
    "Lari proposes Robot-Pajamas-Book: Ana bars",
    "Ana proposes Animal-Swimsuit-Food: Dani lets in, Lari bars",
    "Dani proposes Monster-Costume-Drink: Lari lets in, Ana lets in",
    "Lari proposes Animal-Costume-Book: Ana lets in, Dani lets in",
    "Ana guesses Dani is Pajamas: wrong",
]

[rules]
Dani = ["Gift"]
'''


def test_a_rule_certainly_animal_is_certain(tmp_path: Path) -> None:
    """Animal is the attribute numbered 0: it was once taken for "no rule" (a falsy value),
    so a seat certain to hold it was reported uncertain and an Animal puzzle crashed."""
    log = tmp_path / "animal.toml"
    log.write_text(ANIMAL_LOG)
    solved = run_json("solve", str(log))["solution"]["players"]
    lari = next(p for p in solved if p["player"] == "Lari")
    assert lari["certain"] == "Animal" and lari["exact"] == {"Animal": "1"} and lari["chain"]
    assert "Lari: certainly Animal" in run("solve", str(log))
    puzzle = tmp_path / "animal-puzzle.toml"
    puzzle.write_text(ANIMAL_LOG + '\n[puzzle]\ntarget = "Lari"\n')
    assert "Lari's rule is Forbidden Animal" in run("solve", str(puzzle))
    assert "puzzle: solvable (one answer)" in run("verify", str(puzzle))

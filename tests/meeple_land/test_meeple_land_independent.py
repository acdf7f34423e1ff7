"""An independent restatement of Meeple Land's park rules, checked against the engine.

The reference below is written from the rulebook, the spec and docs/rules.md (geometry, dead
ends, services, variety, seating) and docs/formats.md (the files), not from the engine's code.
On seeded random tiny instances it checks, through the command line's JSON:

- ``verify`` on parks (grown legally, then sometimes broken: a tile moved, turned or added):
  the same rule problems (off-plot, overlap, unreachable), and on legal parks the same
  reputation, dead ends and revenue;
- ``solve --count`` on layout puzzles: the layout returned is legal and scores what it claims
  by the reference, and its status, optimum and number of distinct optimal layouts equal a
  brute force over every connected park.

It fails when a rule is altered: the entrance's path running into a tile not counted as a
dead end (in the park verifier or in the CP-SAT model), or a special space usable without its
service connected.
"""
from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from partysolver.cli.main import cli

COLOURS = ("green", "blue", "pink", "yellow")
VALUE = {"green": 1, "blue": 1, "pink": 2, "yellow": 2}
VARIETY = {7: 2, 8: 6, 9: 10, 10: 15, 11: 20, 12: 25}
STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
CLOCKWISE = {"N": "E", "E": "S", "S": "W", "W": "N"}
TYPES = ("fountain", "carousel", "go-karts", "log-flume", "pirate-ship", "big-top",
         "drop-tower", "ferris-wheel")


# -- the reference ---------------------------------------------------------------------------

def make_tile(rng: random.Random, tile_id: str) -> dict[str, Any]:
    shape = rng.choice(["1x1", "1x1", "1x2", "1x2", "2x2"])
    w, h = {"1x1": (1, 1), "1x2": (2, 1), "2x2": (2, 2)}[shape]
    segments = [f"{s}{i}" for s, n in (("N", w), ("S", w), ("E", h), ("W", h)) for i in range(n)]
    tile: dict[str, Any] = {"id": tile_id, "shape": shape, "cost": rng.randint(1, 5),
                            "paths": rng.sample(segments, rng.randint(1, min(4, len(segments))))}
    if rng.random() < 0.35:
        tile["services"] = rng.sample(["restaurant", "toilets", "boutique"], rng.randint(1, 2))
    else:
        tile["attraction"] = rng.choice(TYPES)
        tile["spaces"] = [rng.choice(["any", f"{rng.choice(COLOURS)}:restaurant",
                                      f"{rng.choice(COLOURS)}:toilets", *COLOURS])
                          for _ in range(rng.randint(1, w * h))]
    return tile


def cells_and_ends(tile: dict[str, Any], at: tuple[int, int], rotation: int
                   ) -> tuple[frozenset, frozenset]:
    """The cells and path ends ((cell, side)) of a tile turned clockwise, top-left at ``at``."""
    w, h = {"1x1": (1, 1), "1x2": (2, 1), "2x2": (2, 2)}[tile["shape"]]
    cells = [(x, y) for x in range(w) for y in range(h)]
    ends = []
    for p in tile["paths"]:
        side, i = p[0], int(p[1:] or 0)
        ends.append({"N": ((i, 0), "N"), "S": ((i, h - 1), "S"),
                     "E": ((w - 1, i), "E"), "W": ((0, i), "W")}[side])
    for _ in range(rotation // 90):  # (x, y) -> (h - 1 - y, x) in a w x h frame
        cells = [(h - 1 - y, x) for x, y in cells]
        ends = [((h - 1 - y, x), CLOCKWISE[d]) for (x, y), d in ends]
        w, h = h, w
    return (frozenset((x + at[0], y + at[1]) for x, y in cells),
            frozenset(((x + at[0], y + at[1]), d) for (x, y), d in ends))


def across(cell: tuple[int, int], side: str) -> tuple[int, int]:
    return cell[0] + STEP[side][0], cell[1] + STEP[side][1]


def entrance_edges(plot: dict[str, Any]) -> list[tuple[tuple[int, int], str]]:
    w, h = plot["width"], plot["height"]
    out = []
    for e in plot["entrances"]:
        k = int(e[1:])
        out.append({"N": ((k, 0), "N"), "S": ((k, h - 1), "S"),
                    "E": ((w - 1, k), "E"), "W": ((0, k), "W")}[e[0]])
    return out


def best_seating(spaces: tuple[tuple[frozenset, bool], ...], visitors: tuple[int, ...]
                 ) -> tuple[int, int, int]:
    """Exhaustively: (reputation of the visitors, revenue, seated), reputation first."""
    @cache
    def best(k: int, left: tuple[int, ...]) -> tuple[int, int, int]:
        if k == len(spaces):
            return (-sum(VALUE[c] * n for c, n in zip(COLOURS, left, strict=True)), 0, 0)
        accepts, special = spaces[k]
        options = [best(k + 1, left)]
        for j, colour in enumerate(COLOURS):
            if colour in accepts and left[j]:
                r, m, s = best(k + 1, left[:j] + (left[j] - 1,) + left[j + 1:])
                options.append((r + VALUE[colour], m + 1 + special, s + 1))
        return max(options)
    return best(0, visitors)


def judge(plot: dict[str, Any], placed: list[tuple[dict, tuple[int, int], int]],
          visitors: dict[str, int]) -> tuple[set[str], dict[str, int]]:
    """The rule problems of a park and its score (rulebook + spec + docs/rules.md)."""
    park = {(x, y) for x in range(plot["width"]) for y in range(plot["height"])}
    problems: set[str] = set()
    owner: dict[tuple[int, int], int] = {}
    pieces = []
    for tile, at, rotation in placed:
        cells, ends = cells_and_ends(tile, at, rotation)
        if not cells <= park:
            problems.add("off-plot")
        elif cells & owner.keys():
            problems.add("overlap")
        else:
            owner.update({c: len(pieces) for c in cells})
            pieces.append((tile, ends))
    links: list[set[int]] = [set() for _ in pieces]
    dead = 0
    for i, (_, ends) in enumerate(pieces):
        for cell, side in ends:
            j = owner.get(across(cell, side))
            if j is not None:
                if (across(cell, side), OPPOSITE[side]) in pieces[j][1]:
                    links[i].add(j)
                else:
                    dead += 1  # a path cut off by another tile
    reached = set()
    for cell, side in entrance_edges(plot):
        if cell in owner:
            if (cell, side) in pieces[owner[cell]][1]:
                reached.add(owner[cell])
            else:
                dead += 1  # the entrance's path runs into a tile
    todo = list(reached)
    while todo:
        for j in links[todo.pop()] - reached:
            reached.add(j)
            todo.append(j)
    if len(reached) < len(pieces):
        problems.add("unreachable")
    spaces = []
    for i, (tile, _) in enumerate(pieces):
        served = {s for j in links[i] for s in pieces[j][0].get("services", ())}
        for space in tile.get("spaces", ()):
            colour, _, service = space.partition(":")
            if not service or service in served:
                spaces.append((frozenset(COLOURS if colour == "any" else [colour]),
                               bool(service)))
    counts = tuple(visitors.get(c, 0) for c in COLOURS)
    people, revenue, seated = best_seating(tuple(spaces), counts)
    types = len({t["attraction"] for t, _ in pieces if "attraction" in t})
    variety = 0 if types < 7 else VARIETY[min(types, 12)]
    return problems, {"reputation": variety + people - 2 * dead, "dead_ends": dead,
                      "revenue": revenue, "types": types, "seated": seated}


def placements(tile: dict[str, Any], plot: dict[str, Any]) -> dict[tuple, tuple]:
    """Distinct placements inside the plot: (cells, ends) -> (at, rotation)."""
    out: dict[tuple, tuple] = {}
    for rotation in (0, 90, 180, 270):
        for x in range(plot["width"]):
            for y in range(plot["height"]):
                cells, ends = cells_and_ends(tile, (x, y), rotation)
                if all(0 <= cx < plot["width"] and 0 <= cy < plot["height"] for cx, cy in cells):
                    out.setdefault((cells, ends), ((x, y), rotation))
    return out


def puzzle_value(puzzle: dict[str, Any], tiles: dict[str, dict], layout: list[tuple]
                 ) -> int | None:
    """The objective of a layout of pool tiles, or None when it breaks a rule or requirement."""
    problems, score = judge(puzzle["plot"], [(tiles[t], at, r) for t, at, r in layout],
                            puzzle["visitors"])
    if problems or sum(tiles[t]["cost"] for t, _, _ in layout) > puzzle.get("budget", 10**9):
        return None
    if puzzle.get("no_dead_ends") and score["dead_ends"]:
        return None
    if puzzle.get("seat_all") and score["seated"] < sum(puzzle["visitors"].values()):
        return None
    return score[{"reputation": "reputation", "variety": "types",
                  "seated": "seated"}[puzzle["objective"]]]


def brute_force(puzzle: dict[str, Any], tiles: dict[str, dict]) -> tuple[int | None, int]:
    """The optimum over every park grown one connecting tile at a time, and the number of
    distinct optimal layouts (copies interchangeable, symmetric turns the same)."""
    plot = puzzle["plot"]
    entrances = set(entrance_edges(plot))
    options = [(t, key, where) for t in sorted(set(puzzle["pool"]))
               for key, where in placements(tiles[t], plot).items()]
    seen: set[frozenset] = {frozenset()}
    todo: list[frozenset] = [frozenset()]
    best, layouts = None, 0
    while todo:
        state = todo.pop()
        layout = [(t, where[0], where[1]) for t, _, where in state]
        value = puzzle_value(puzzle, tiles, layout)
        if value is not None and (best is None or value >= best):
            best, layouts = value, (layouts + 1 if value == best else 1)
        occupied = set().union(*(key[0] for _, key, _ in state))
        ends = set().union(*(key[1] for _, key, _ in state))
        for option in options:
            t, (cells, new_ends), _ = option
            if cells & occupied or sum(o[0] == t for o in state) >= puzzle["pool"].count(t):
                continue
            if not any(e in entrances or (across(*e), OPPOSITE[e[1]]) in ends
                       for e in new_ends):
                continue
            grown = state | {option}
            key_set = frozenset((o[0], o[1]) for o in grown)
            if key_set not in seen:
                seen.add(key_set)
                todo.append(grown)
    return best, layouts


# -- random instances ------------------------------------------------------------------------

def toml_value(value: Any) -> str:
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(value)


def write_file(path: Path, top: dict[str, Any], plot: dict[str, Any],
               tiles: list[dict[str, Any]]) -> None:
    lines = ['game = "meeple-land"'] + [f"{k} = {toml_value(v)}" for k, v in top.items()]
    lines += ["", "[plot]"] + [f"{k} = {toml_value(v)}" for k, v in plot.items()]
    for tile in tiles:
        lines += ["", "[[tile]]"] + [f"{k} = {toml_value(v)}" for k, v in tile.items()]
    path.write_text("\n".join(lines) + "\n")


def random_plot(rng: random.Random, sizes: list[tuple[int, int]], most: int = 2
                ) -> dict[str, Any]:
    w, h = rng.choice(sizes)
    edges = [f"{s}{i}" for s, n in (("N", w), ("S", w), ("E", h), ("W", h)) for i in range(n)]
    return {"width": w, "height": h, "entrances": rng.sample(edges, rng.randint(1, most))}


def random_visitors(rng: random.Random) -> dict[str, int]:
    return {c: n for c in COLOURS if (n := rng.randint(0, 3) * (rng.random() < 0.7))}


def random_puzzle(rng: random.Random, k: int) -> tuple[dict, dict[str, dict]]:
    plot = random_plot(rng, [(2, 2), (2, 3), (3, 2), (3, 3)])
    tiles = {f"X{i}": make_tile(rng, f"X{i}") for i in range(rng.randint(2, 4))}
    pool = list(tiles) + ([rng.choice(list(tiles))] if rng.random() < 0.25 else [])
    puzzle = {"kind": "puzzle", "name": f"random {k}", "pool": pool,
              "objective": rng.choice(["reputation", "reputation", "variety", "seated"]),
              "visitors": random_visitors(rng)}
    if rng.random() < 0.3:
        puzzle["budget"] = rng.randint(2, 9)
    if rng.random() < 0.2:
        puzzle["no_dead_ends"] = True
    if rng.random() < 0.15:
        puzzle["seat_all"] = True
    puzzle["plot"] = plot
    return puzzle, tiles


def random_park(rng: random.Random, k: int) -> tuple[dict, list[tuple[dict, tuple, int]]]:
    """A park grown legally, then in one case out of two broken on purpose."""
    plot = random_plot(rng, [(3, 3), (4, 3), (4, 4)], most=4)
    entrances = set(entrance_edges(plot))
    placed: list[tuple[dict, tuple, int]] = []
    occupied: set = set()
    ends: set = set()
    target = rng.randint(2, 7)
    for i in range(20):
        if len(placed) == target:
            break
        tile = make_tile(rng, f"X{i}")
        fits = list(placements(tile, plot).items())
        rng.shuffle(fits)
        for (cells, new_ends), (at, rotation) in fits:
            if not cells & occupied and any(
                    e in entrances or (across(*e), OPPOSITE[e[1]]) in ends for e in new_ends):
                placed.append((tile, at, rotation))
                occupied |= cells
                ends |= new_ends
                break
    rng.shuffle(placed)
    if placed and rng.random() < 0.3:
        j = rng.randrange(len(placed))
        tile, at, rotation = placed[j]
        placed[j] = (tile, (rng.randint(-1, plot["width"]), rng.randint(-1, plot["height"])),
                     rng.choice([0, 90, 180, 270]))
    return plot, placed


def run(*args: str) -> list[dict[str, Any]]:
    result = CliRunner().invoke(cli, [*args, "--json"])
    assert result.exit_code in (0, 1), result.output
    return [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]


# -- the checks ------------------------------------------------------------------------------

def test_verify_agrees_with_an_independent_reference_on_random_parks(tmp_path: Path) -> None:
    rng = random.Random(20261203)
    parks, tiles = {}, []
    (tmp_path / "parks").mkdir()
    for k in range(24):
        plot, placed = random_park(rng, k)
        visitors = random_visitors(rng)
        for t, _, _ in placed:
            t["id"] = f"P{k}{t['id']}"
        tiles += [t for t, _, _ in placed]
        entries = [{"tile": t["id"], "at": list(at), "rotation": r} for t, at, r in placed]
        path = tmp_path / "parks" / f"park{k:02d}.toml"
        write_file(path, {"kind": "park", "name": f"park {k}", "catalogue": "../tiles.toml",
                          "visitors": visitors, "placed": entries}, plot, [])
        parks[str(path)] = judge(plot, placed, visitors)
    write_file(tmp_path / "tiles.toml", {"kind": "catalogue", "name": "random tiles",
                                         "attraction_types": list(TYPES)}, {}, tiles)
    (tmp_path / "tiles.toml").write_text((tmp_path / "tiles.toml").read_text()
                                         .replace("\n[plot]\n", "\n"))
    legal = 0
    for report in run("verify", str(tmp_path / "parks")):
        problems, score = parks[report["file"]]
        assert {p["code"] for p in report["problems"]} == problems, report["file"]
        if not problems:
            legal += 1
            breakdown = report["breakdown"]
            assert (breakdown["reputation"], len(breakdown["dead_ends"]), report["revenue"]) \
                == (score["reputation"], score["dead_ends"], score["revenue"]), report["file"]
    assert len(parks) == 24 and 6 <= legal < 24


def test_solve_agrees_with_an_independent_brute_force_on_random_puzzles(tmp_path: Path) -> None:
    rng = random.Random(1203)
    puzzles = {}
    for k in range(14):
        puzzle, tiles = random_puzzle(rng, k)
        plot = puzzle.pop("plot")
        path = tmp_path / f"puzzle{k:02d}.toml"
        write_file(path, {**puzzle, "catalogue": "house"}, plot, list(tiles.values()))
        puzzles[str(path)] = ({**puzzle, "plot": plot}, tiles)
    statuses = set()
    for report in run("solve", str(tmp_path), "--seed", "1", "--count"):
        puzzle, tiles = puzzles[report["file"]]
        best, layouts = brute_force(puzzle, tiles)
        statuses.add(report["status"])
        if best is None:
            assert report["status"] == "infeasible", report["file"]
            continue
        solution = report["solution"]
        assert (report["status"], report["objective"]["value"]) == ("optimal", best), \
            report["file"]
        assert solution["count"] == {"layouts": layouts, "complete": True}, report["file"]
        layout = [(p["tile"], tuple(p["at"]), p["rotation"]) for p in solution["placements"]]
        assert puzzle_value(puzzle, tiles, layout) == best, report["file"]
    assert len(statuses) == 2 or statuses == {"optimal"}

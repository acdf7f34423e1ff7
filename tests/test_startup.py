"""Start-up: a command imports what its verb needs and nothing else.

``partysolver --help`` and ``--version`` import no game and no heavy library; a verb on one
game's file (or ``GAME:NAME``) imports that game alone: not the other games' declarations,
options or plugins (the command line parses it with its game's options only).  Each check runs the command in a fresh interpreter and reads ``sys.modules``.
The times themselves are measured by ``benchmarks/startup.py`` (never asserted here).
"""

from __future__ import annotations

import ast
import importlib
import importlib.metadata
import json
import subprocess
import sys
from pathlib import Path

import pytest

import partysolver
from partysolver.models.lazy import LazyNames
from partysolver.models.registry import all_games, game_keys, is_plugin, package_of

HEAVY = ("ortools", "numba", "matplotlib", "networkx", "numpy", "dask", "distributed",
         "resvg_py", "scipy")
GAMES = [key.replace("-", "_") for key in game_keys() if not is_plugin(key)]
"""This package's games, by package name."""
PLUGINS = {key: package_of(key) for key in game_keys() if is_plugin(key)}
"""The games other installed packages register (examples/pig when installed), by key: their
module."""
PACKAGES = [package_of(key) for key in game_keys()]
"""Every game's package (its rules engine's module), this package's and the plugins'."""


def plugin_allowed(key: str) -> set[str]:
    """The modules of a plugin every command may load: its package, its declaration and its
    commands module (the app floor, which every command reads for the options)."""
    package = package_of(key)
    commands = type(importlib.import_module(package).COMMANDS).__module__
    return {package, f"{package}.game", commands}

PROBE = """
import json, sys
from partysolver.cli.main import main
sys.argv = ["partysolver", *json.loads(sys.argv[1])]
try:
    main()
except SystemExit as done:
    code = done.code
else:
    code = 0
with open(OUT, "w") as out:
    json.dump({"code": code, "modules": sorted(sys.modules)}, out)
"""


def imported(tmp_path: Path, *args: str) -> tuple[int, list[str]]:
    """The exit code of ``partysolver ARGS`` run in a fresh interpreter, and every module it
    imported."""
    out = tmp_path / "modules.json"
    script = PROBE.replace("OUT", repr(str(out)))
    subprocess.run([sys.executable, "-c", script, json.dumps(list(args))], cwd=tmp_path,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True,
                   timeout=120)
    found = json.loads(out.read_text())
    return found["code"], found["modules"]


def heavy_in(modules: list[str]) -> list[str]:
    return sorted({name.split(".")[0] for name in modules} & set(HEAVY))


def game_modules(modules: list[str]) -> list[str]:
    """The modules of any game: its models package, app module or solvers."""
    prefixes = [f"partysolver.{layer}.{game}" for layer in ("models", "app", "solvers")
                for game in GAMES] + list(PLUGINS.values())
    return [name for name in modules if name.startswith(tuple(prefixes))]


@pytest.mark.parametrize("args", [["--help"], ["-h"], ["--version"]])
def test_help_and_version_import_no_game_and_no_heavy_library(tmp_path: Path,
                                                              args: list[str]) -> None:
    code, modules = imported(tmp_path, *args)
    assert code == 0
    assert heavy_in(modules) == []
    assert game_modules(modules) == []
    searches = [name for name in modules if name.startswith("partysolver.solvers.")]
    assert searches == ["partysolver.solvers.notices"]  # where a search's notices go


def test_games_reads_each_game_declaration_only(tmp_path: Path) -> None:
    code, modules = imported(tmp_path, "games")
    assert code == 0
    assert heavy_in(modules) == []
    engines = [name for name in game_modules(modules)
               if name.startswith("partysolver.solvers")
               or name.startswith("partysolver.models") and name.count(".") > 2
               and not name.endswith(".game")]
    assert engines == []
    for key, package in PLUGINS.items():
        loaded = {name for name in modules if name.startswith(package + ".")}
        assert loaded <= plugin_allowed(key), key


@pytest.mark.parametrize("form", ["file", "name"])
def test_a_hint_loads_its_own_game_only(tmp_path: Path, form: str) -> None:
    """Not even the other games' declarations, commands (their options) or plugins: the game
    comes from the document (a file, or ``GAME:NAME``)."""
    position = tmp_path / "game.toml"
    position.write_text((Path(partysolver.__file__).parent / "puzzles" / "pool-party-stars"
                         / "examples" / "default.toml").read_text())
    named = str(position) if form == "file" else "pool-party-stars:default"
    code, modules = imported(tmp_path, "hint", named, "--time-limit", "5")
    assert code == 0
    assert heavy_in(modules) == []
    assert any(name.startswith("partysolver.solvers.pool_party_stars") for name in modules)
    others = [game for game in GAMES if game != "pool_party_stars"]
    for game in others:
        mine = tuple(f"partysolver.{layer}.{game}" for layer in ("models", "app", "solvers"))
        assert [name for name in modules if name.startswith(mine)] == [], game
    for key, package in PLUGINS.items():
        assert [name for name in modules if name.split(".")[0] == package] == [], key


def test_a_command_the_one_game_parse_refuses_says_what_every_game_parse_says(
        tmp_path: Path) -> None:
    """An option of another game: refused as before, by the game the file names (the parse
    with every game's options), and a verb's help lists every game's options."""
    code, modules = imported(tmp_path, "hint", "pool-party-stars:default", "--playouts", "3")
    assert code == 2
    assert any(name.startswith("partysolver.app.party_time") for name in modules)
    from click.testing import CliRunner

    from partysolver.cli.main import cli

    refused = CliRunner().invoke(cli, ["hint", "pool-party-stars:default", "--playouts", "3"])
    assert refused.exit_code == 2
    assert refused.output == "Error: --playouts does not apply to pool-party-stars hint\n"
    shown = CliRunner().invoke(cli, ["hint", "pool-party-stars:default", "--help"]).output
    assert "--playouts" in shown and "--mcts-iterations" in shown


def test_the_registry_answers_for_its_own_games_without_the_plugins(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The installed packages' entry points are read only for a key that is not this
    package's (a plugin's, or an unknown one)."""
    from partysolver.models import registry

    def unread() -> dict[str, str]:
        raise AssertionError("the entry points were read")

    monkeypatch.setattr(registry, "plugins", unread)
    for game in GAMES:
        key = game.replace("_", "-")
        assert registry.is_game(key) and not registry.is_plugin(key)
        assert registry.package_of(key) == f"partysolver.models.{game}"
        assert registry.broken_game(key) is None and registry.get_game(key).info.key == key


def test_version_is_the_installed_one() -> None:
    assert partysolver.__version__ == importlib.metadata.version("partysolver")


def test_the_registry_knows_its_keys_without_importing_a_game() -> None:
    assert game_keys() == tuple(all_games())
    for key in game_keys():
        assert importlib.import_module(package_of(key)).INFO.key == key


# -- the lazy packages ----------------------------------------------------------------------------


def type_checking_imports(package: str) -> dict[str, str]:
    """Every name a game package's ``if TYPE_CHECKING:`` block imports from its own
    submodules, with the submodule."""
    source = Path(importlib.import_module(package).__file__ or "").read_text()
    found: dict[str, str] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            for stmt in node.body:
                if isinstance(stmt, ast.ImportFrom) and stmt.level == 1:
                    for alias in stmt.names:
                        found[alias.asname or alias.name] = stmt.module or alias.name
    return found


@pytest.mark.parametrize("package", PACKAGES)
def test_a_game_package_declares_every_name_it_types(package: str) -> None:
    lazy = importlib.import_module(package).__getattr__
    assert isinstance(lazy, LazyNames)
    typed = type_checking_imports(package)
    assert typed == {name: lazy.modules[name] for name in lazy.names()}


@pytest.mark.parametrize("name", PACKAGES)
def test_a_game_package_gives_every_name_from_its_module(name: str) -> None:
    package = importlib.import_module(name)
    for name, module in type_checking_imports(package.__name__).items():
        source = importlib.import_module(f"{package.__name__}.{module}")
        expected = source if name == module else getattr(source, name)
        assert getattr(package, name) is expected, name
    for name in package.__all__:
        assert getattr(package, name) is not None
    with pytest.raises(AttributeError, match="no_such_name"):
        _ = package.no_such_name


def test_importing_a_game_package_imports_its_declaration_only() -> None:
    script = ("import sys, json, partysolver.models.registry as r\n"
              "[__import__(r.package_of(k)) for k in r.game_keys()]\n"
              "print(json.dumps(sorted(sys.modules)))")
    found = json.loads(subprocess.run([sys.executable, "-c", script], capture_output=True,
                                      text=True, check=True).stdout)
    submodules = [name for name in found if name.startswith(tuple(p + "." for p in PACKAGES))]
    assert submodules == sorted(f"{package}.game" for package in PACKAGES)
    assert heavy_in(found) == []


# -- what the app modules state without importing the searches -------------------------------------


def test_option_defaults_stated_by_the_app_are_the_searches_own() -> None:
    from partysolver.app import meeple_party, party_time, pool_party_stars, tea_party
    from partysolver.solvers.meeple_party import policies
    from partysolver.solvers.party_time import hint
    from partysolver.solvers.pool_party_stars import puzzles
    from partysolver.solvers.tea_party import budgets as tea_budgets

    for name, value in tea_party.SOLVER_DEFAULTS.items():
        assert getattr(tea_budgets, name) == value, name
    assert party_time.PLAYOUTS == hint.PLAYOUTS
    assert meeple_party.SIMULATION_NODES == policies.SIMULATION_NODES
    assert pool_party_stars.DIFFICULTY.choices == tuple(puzzles.PLAYERS)


USES = {"meeple-land": set(), "meeple-party": {"numpy"},
        "party-time": {"numpy"}, "pool-party-stars": set(), "tea-party": set(),
        "pig": {"numba", "numpy"}}
"""The heavy libraries each game's default hint uses (issue 30): Meeple Land's seating flow is
the project's own (its game example is valued without CP-SAT), Pig's values are compiled (numba); the Party-Time example's playouts run
interpreted over numpy arrays (a small hint: ``party_time.hint.LEAN_PLAYOUTS``), the Tea
Party example is answered by the interpreted search, without loading a kernel, and so is the
Meeple Party one (a small turn: ``turn.LEAN_NODES``) unless the kernel's machine code loads
without numba (``meeple_party/native.py``: numpy and llvmlite, never numba)."""


@pytest.mark.parametrize("game", [key for key in game_keys() if key in USES])
def test_a_hint_imports_only_the_heavy_libraries_its_game_uses(tmp_path: Path,
                                                                game: str) -> None:
    """No networkx for a Meeple Party or Meeple Land hint (the house is read and the seating
    flow solved without a graph library), no
    plotting, no CP-SAT, no cluster: a hint on each game's default example, in a new process."""
    code, modules = imported(tmp_path, "hint", f"{game}:default")
    assert code == 0
    assert set(heavy_in(modules)) <= USES[game], game

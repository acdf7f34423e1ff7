"""The layers contract, read from the source: every import of every module of the package (at
any level, inside functions too; only those under ``if TYPE_CHECKING:`` are left out, since they
never run) points down ``models < solvers < app < cli, web``; ``click`` is imported only in
``cli/``; and no module imports one that imports it back, directly or round a longer loop.

``partysolver.puzzles`` (the shipped positions, data) sits with the models; ``console`` (the
``partysolver`` command, which gives the command line its web board) and ``__main__`` above
everything.  No new dependency: the graph is built with ``ast``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

import partysolver

ROOT = Path(partysolver.__file__).parent

RANKS = {"models": 0, "puzzles": 0, "solvers": 1, "app": 2, "cli": 3, "web": 3}
"""Each layer's rank: a module imports only modules of its rank or lower; ``cli`` and ``web``
share a rank and import nothing of each other."""
TOP = {"partysolver": 0, "partysolver.console": 4, "partysolver.__main__": 4}
"""Modules outside the layers: the package itself (imports nothing), and above them all the
command's composition root (``console``: the command line with the web board for ``serve``)
and ``__main__``."""


@dataclass(frozen=True)
class Import:
    source: str
    """The importing module."""
    target: str
    """The imported module of the package (or ``click``)."""
    line: int

    def __str__(self) -> str:
        return f"{self.source} (line {self.line}) imports {self.target}"


def module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the package under ``root``, by name."""
    return {module_name(path, root): path for path in sorted(root.rglob("*.py"))}


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _import_nodes(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement under ``node``, at any depth, except the bodies of ``if
    TYPE_CHECKING:`` (their ``else`` counts)."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and _type_checking(child.test):
            for other in child.orelse:
                yield from _import_nodes_of(other)
            continue
        yield from _import_nodes_of(child)


def _import_nodes_of(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    if isinstance(node, ast.Import | ast.ImportFrom):
        yield node
    yield from _import_nodes(node)


def imports(name: str, path: Path, known: dict[str, Path]) -> list[Import]:
    """What module ``name`` imports: modules of the package (``from . import x`` names the
    module ``x`` when there is one, else its package) and ``click``."""
    tree = ast.parse(path.read_text(), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[Import] = []
    for node in _import_nodes(tree):
        targets: list[str]
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[:len(parts) - node.level + 1]
                base = ".".join([*parts, *([node.module] if node.module else [])])
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                       for alias in node.names]
        for target in targets:
            if target == "click" or target.startswith("click."):
                found.append(Import(name, "click", node.lineno))
                continue
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.append(Import(name, target, node.lineno))
    return list(dict.fromkeys(found))


def graph(root: Path = ROOT) -> dict[str, list[Import]]:
    known = modules(root)
    return {name: imports(name, path, known) for name, path in known.items()}


def layer(name: str) -> tuple[str, int]:
    if name in TOP:
        return name, TOP[name]
    part = name.split(".")[1]
    return part, RANKS[part]


def layer_violations(edges: dict[str, list[Import]]) -> list[Import]:
    bad = []
    for name, found in edges.items():
        home, rank = layer(name)
        for item in found:
            if item.target == "click":
                if home != "cli":
                    bad.append(item)
                continue
            other, other_rank = layer(item.target)
            if other_rank > rank or (other_rank == rank == RANKS["cli"] and other != home):
                bad.append(item)
    return bad


def cycles(edges: dict[str, list[Import]]) -> list[list[str]]:
    """The import cycles: every set of two or more modules each reachable from the others
    (Tarjan's strongly connected components, iteratively), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in edges:
        if start in index:
            continue
        work = [(start, iter(edges[start]))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for item in children:
                child = item.target
                if child not in edges:
                    continue
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(edges[child])))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return sorted(found)


def describe(component: list[str], edges: dict[str, list[Import]]) -> str:
    members = set(component)
    return "; ".join(str(item) for name in component for item in edges[name]
                     if item.target in members)


# -- the contract ----------------------------------------------------------------------------------


def test_every_module_belongs_to_a_layer() -> None:
    for name in modules():
        layer(name)  # a KeyError names a module outside every layer


def test_layers_point_one_way_and_click_stays_in_the_command_line() -> None:
    bad = layer_violations(graph())
    assert not bad, "\n".join(map(str, bad))


def test_no_module_imports_one_that_imports_it_back() -> None:
    edges = graph()
    found = cycles(edges)
    assert not found, "\n".join(describe(component, edges) for component in found)


# -- the checks catch what they should ---------------------------------------------------------------


def plant(tmp_path: Path, files: dict[str, str]) -> dict[str, list[Import]]:
    """A package ``partysolver`` with these files, as the contract reads it."""
    root = tmp_path / "partysolver"
    for relative, text in {"__init__.py": "", **files}.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        for folder in path.relative_to(root).parents:
            (root / folder / "__init__.py").touch()
        path.write_text(text)
    return graph(root)


def test_a_planted_upward_import_is_caught(tmp_path: Path) -> None:
    edges = plant(tmp_path, {
        "models/rules.py": "def rule():\n    from ..solvers.search import best\n",
        "solvers/search.py": "best = 1\n"})
    assert [str(item) for item in layer_violations(edges)] == [
        "partysolver.models.rules (line 2) imports partysolver.solvers.search"]


def test_a_planted_sideways_or_click_import_is_caught(tmp_path: Path) -> None:
    edges = plant(tmp_path, {
        "web/app.py": "import click\nfrom partysolver.cli import main\n",
        "cli/main.py": "import click\n",
        "app/base.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                       "    from ..cli import main\n"})
    assert sorted(str(item) for item in layer_violations(edges)) == [
        "partysolver.web.app (line 1) imports click",
        "partysolver.web.app (line 2) imports partysolver.cli.main"]


def test_a_planted_cycle_hidden_in_a_function_is_caught(tmp_path: Path) -> None:
    edges = plant(tmp_path, {
        "app/base.py": "def report():\n    from .records import current\n",
        "app/records.py": "from . import catalog\n",
        "app/catalog.py": "from .base import report\n",
        "app/text.py": "from .base import report\n"})
    assert cycles(edges) == [["partysolver.app.base", "partysolver.app.catalog",
                              "partysolver.app.records"]]


def test_an_import_for_type_checking_only_is_no_cycle(tmp_path: Path) -> None:
    edges = plant(tmp_path, {
        "solvers/a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                        "    from .b import B\nelse:\n    B = None\n",
        "solvers/b.py": "from .a import B\n"})
    assert cycles(edges) == []
    with pytest.raises(AssertionError):
        assert cycles(plant(tmp_path, {"solvers/a.py": "from .b import B\n"})) == []

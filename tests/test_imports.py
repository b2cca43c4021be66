"""Every `cardlab` module imports first, in a fresh interpreter, and no modules import each other in a cycle.

A module that only works when something else was imported before it (or that takes part in a
module-level import cycle) breaks the first user who imports it alone. Modules of an optional extra
(`web`, `fast`, `plots`) are skipped only when that extra's package is genuinely not installed.
"""

from __future__ import annotations

import ast
import importlib.util
import pkgutil
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import cardlab

OPTIONAL_PACKAGES = {"fastapi", "uvicorn", "websockets", "numba", "llvmlite", "jax", "jaxlib", "matplotlib"}
"""Top-level packages of the optional extras (pyproject's `web`, `fast` and `plots`)."""


def _modules() -> dict[str, Path]:
    """Every module of the installed package, by dotted name, with its source file."""
    found = {"cardlab": Path(cardlab.__file__)}
    for info in pkgutil.walk_packages(cardlab.__path__, "cardlab."):
        spec = importlib.util.find_spec(info.name)  # finds the file; runs no module but its packages
        assert spec is not None and spec.origin is not None, info.name
        found[info.name] = Path(spec.origin)
    return found


MODULES = _modules()


def _import_alone(name: str) -> tuple[str, int, str]:
    """Import `name` in a fresh interpreter; a `__main__` module is run instead (importing runs it)."""
    if name.endswith(".__main__"):
        command = [sys.executable, "-m", name.rpartition(".")[0], "--help"]
    else:
        command = [sys.executable, "-c", f"import {name}"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    return name, done.returncode, done.stderr


def _missing_extra(stderr: str) -> str | None:
    """The optional package whose absence made an import fail, if that is the reason."""
    match = re.search(r"ModuleNotFoundError: No module named '([\w.]+)'", stderr)
    if match is None:
        return None
    package = match.group(1).split(".")[0]
    if package in OPTIONAL_PACKAGES and importlib.util.find_spec(package) is None:
        return package
    return None


def test_every_module_imports_first_in_a_fresh_interpreter() -> None:
    assert len(MODULES) > 40, sorted(MODULES)  # the walk found the package's modules
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(_import_alone, sorted(MODULES)))
    failures, skipped = [], []
    for name, returncode, stderr in results:
        if returncode == 0:
            continue
        extra = _missing_extra(stderr)
        if extra is not None:
            skipped.append(f"{name} (needs {extra})")
        else:
            failures.append(f"{name}:\n{stderr.strip()}")
    assert not failures, "modules that fail to import on their own:\n\n" + "\n\n".join(failures)
    if skipped:
        pytest.skip("optional extras not installed: " + ", ".join(skipped))


# -- import cycles ------------------------------------------------------------------------------------------


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _top_level_imports(body: list[ast.stmt]) -> list[ast.Import | ast.ImportFrom]:
    """The imports a module runs when it is imported: not those in functions, nor under `if TYPE_CHECKING:`."""
    found: list[ast.Import | ast.ImportFrom] = []
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        elif isinstance(node, ast.If):
            if not _is_type_checking(node.test):
                found += _top_level_imports(node.body)
            found += _top_level_imports(node.orelse)
        elif isinstance(node, ast.Try | ast.TryStar):
            for block in (node.body, *(handler.body for handler in node.handlers), node.orelse, node.finalbody):
                found += _top_level_imports(block)
        elif isinstance(node, ast.With | ast.AsyncWith | ast.For | ast.AsyncFor | ast.While | ast.ClassDef):
            found += _top_level_imports(node.body)
            found += _top_level_imports(getattr(node, "orelse", []))
    return found


def _internal_imports(name: str, path: Path, inside_functions: bool = False) -> set[str]:
    """The cardlab modules `name` imports at module level (`from a import b`: `a.b` if a module, else `a`),
    and with `inside_functions` those its functions import too."""
    is_package = path.name == "__init__.py"
    package = name if is_package else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in _imports(path, inside_functions=inside_functions):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
            continue
        if node.level:
            base = package.split(".")
            base = base[: len(base) - (node.level - 1)]
            module = ".".join([*base, node.module] if node.module else base)
        else:
            module = node.module or ""
        for alias in node.names:
            submodule = f"{module}.{alias.name}"
            targets.add(submodule if submodule in MODULES else module)
    return {target for target in targets if target in MODULES and target != name}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle through each strongly connected component of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return [_cycle_in(graph, set(component), component[0]) for component in components]


def _cycle_in(graph: dict[str, set[str]], component: set[str], start: str) -> list[str]:
    """A shortest path from `start` back to itself inside `component`."""
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for target in sorted(graph[node] & component):
                if target == start:
                    return [*paths[node], start]
                if target not in paths:
                    paths[target] = [*paths[node], target]
                    following.append(target)
        frontier = following
    raise AssertionError(f"{start} is in no cycle")


def test_no_module_level_import_cycles() -> None:
    graph = {name: _internal_imports(name, path) for name, path in MODULES.items()}
    assert graph["cardlab.cli"], "the parser found none of cli's imports"
    cycles = _cycles(graph)
    assert not cycles, "module-level import cycles:\n" + "\n".join(" -> ".join(cycle) for cycle in cycles)


def test_the_cycle_finder_reports_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}}
    assert _cycles(graph) == [["a", "b", "c", "a"]]


# -- imports inside functions ---------------------------------------------------------------------------------

CORE_PACKAGES = {"rich", "numpy", "platformdirs", "scipy"}
"""pyproject's `dependencies`: any other third-party package belongs to an extra."""


def _imports(path: Path, *, inside_functions: bool) -> list[ast.Import | ast.ImportFrom]:
    """Every import a module runs (`inside_functions`: also those in function bodies), none under
    `if TYPE_CHECKING:`."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    if not inside_functions:
        return _top_level_imports(tree.body)
    skipped = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If) and _is_type_checking(node.test)
               for n in ast.walk(node)}  # fmt: skip
    return [
        node for node in ast.walk(tree) if isinstance(node, ast.Import | ast.ImportFrom) and id(node) not in skipped
    ]


def _third_party(path: Path) -> set[str]:
    """Top-level packages outside cardlab and the standard library that a module imports when it loads."""
    found = set()
    for node in _imports(path, inside_functions=False):
        names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else [node.module or ""]
        for name in names:
            top = name.split(".")[0]
            if not getattr(node, "level", 0) and top and top != "cardlab" and top not in sys.stdlib_module_names:
                found.add(top)
    return found


def _needs_an_extra() -> set[str]:
    """The modules that cannot load without an optional extra (themselves, or a module they import)."""
    graph = {name: _internal_imports(name, path) for name, path in MODULES.items()}
    needs = {name for name, path in MODULES.items() if _third_party(path) - CORE_PACKAGES}
    while True:
        more = {name for name, targets in graph.items() if targets & needs} - needs
        if not more:
            return needs
        needs |= more


def _same_game(a: str, b: str) -> bool:
    parts_a, parts_b = a.split("."), b.split(".")
    return parts_a[:2] == parts_b[:2] == ["cardlab", "games"] and len(parts_a) > 2 and parts_a[2] == parts_b[2:3][0]


def test_no_import_cycles_through_imports_inside_functions() -> None:
    """An import moved into a function to break a module-level cycle still ties the two modules together, and
    so does one of an optional extra's module, loaded only when used (the OpenSpiel agent's search once reached
    the research environments that way, which import the agents). So every import counts, except those
    between the modules of one game's own package (its game, state, position and notation refer to each other
    by nature, and nothing outside the package sees the order)."""
    optional = _needs_an_extra()
    assert "cardlab.games.edelweiss.fast.cpu" in optional and "cardlab.core.game" not in optional
    assert "cardlab.adapters.openspiel" in optional  # counted all the same
    graph = {
        name: {target for target in _internal_imports(name, path, inside_functions=True)
               if not _same_game(name, target)}
        for name, path in MODULES.items()
    }  # fmt: skip
    cycles = _cycles(graph)
    assert not cycles, "import cycles (imports inside functions included):\n" + "\n".join(
        " -> ".join(cycle) for cycle in cycles
    )


def test_the_function_level_check_finds_a_planted_cycle() -> None:
    """The helpers the check is built from: a two-module cycle (the one core.game and core.plugin had) is
    found, and the modules of one game's package are told apart from others'."""
    graph = {"cardlab.core.game": {"cardlab.core.plugin"}, "cardlab.core.plugin": {"cardlab.core.game"}}
    assert _cycles(graph) == [["cardlab.core.game", "cardlab.core.plugin", "cardlab.core.game"]]
    assert _same_game("cardlab.games.aterial.state", "cardlab.games.aterial.explain")
    assert not _same_game("cardlab.games.aterial.state", "cardlab.games.dreadnought.state")
    assert not _same_game("cardlab.core.game", "cardlab.core.plugin")


# -- layers (docs/architecture.md) ------------------------------------------------------------------------------

LAYERS = {"cardlab": 0, "core": 0, "fast": 1, "registry": 3, "adapters": 4, "store": 5, "agents": 5, "envs": 6,
          "sim": 6, "play": 7, "web": 7, "cli_options": 7, "cli": 8,
          "__main__": 9}  # fmt: skip
"""docs/architecture.md's layers, lowest first (`fast`: the game-agnostic pieces of the compiled searches, on
`core`, whose spec errors they raise). A game's package (`cardlab.games.X`, its `fast/` included) is a
layer of its own at 2, between `fast` and the registry (`cardlab.games` itself); `adapters` (every game seen
through an outside library's interface: the OpenSpiel game) stand on the registry, below the agents that
search through them; `envs` (the research interfaces) stand on the agents, which they play as opponents.
No import goes up a layer: there is no exemption."""


def _layer(module: str) -> tuple[str, int]:
    """The layer of a cardlab module and its rank (see `LAYERS`)."""
    parts = module.split(".")
    if len(parts) == 1:
        return "cardlab", LAYERS["cardlab"]
    if parts[1] == "games":
        return ("registry", LAYERS["registry"]) if len(parts) == 2 else (f"games.{parts[2]}", 2)
    return parts[1], LAYERS[parts[1]]


def _crossings(graph: dict[str, set[str]]) -> list[str]:
    """Every import that leaves its layer for one that is not below it (another game's package included)."""
    found = []
    for source, targets in sorted(graph.items()):
        (layer, rank) = _layer(source)
        for target in sorted(targets):
            other, other_rank = _layer(target)
            if other != layer and other_rank >= rank:
                found.append(f"{source} ({layer}) -> {target} ({other})")
    return found


def test_no_import_crosses_a_layer_upward() -> None:
    """An import inside a function counts as one at module level: moving it into a function hides the dependency
    from a reader, not from the layering. `core` imports only `core`, a game only `core` and its own package,
    the registry only `core`; above it, each layer only those below it (docs/architecture.md)."""
    graph = {name: _internal_imports(name, path, inside_functions=True) for name, path in MODULES.items()}
    assert all(_layer(name)[0] in LAYERS or _layer(name)[0].startswith("games.") for name in MODULES)
    crossings = _crossings(graph)
    assert not crossings, "imports that cross a layer upward:\n" + "\n".join(crossings)


def test_the_layer_check_finds_planted_crossings() -> None:
    graph = {
        "cardlab.core.rng": {"cardlab.sim.match"},  # core reaching up
        "cardlab.games.aterial.state": {"cardlab.games.dreadnought.state", "cardlab.core.game"},  # another game
        "cardlab.games.edelweiss.fast.cpu": {"cardlab.games.edelweiss.state", "cardlab.games"},  # the registry
        "cardlab.agents.ismcts": {"cardlab.games", "cardlab.core.game", "cardlab.sim.tasks"},  # a layer above
        "cardlab.cli": {"cardlab.web.app", "cardlab.sim.match", "cardlab.core.game"},  # all downward
    }
    assert _crossings(graph) == [
        "cardlab.agents.ismcts (agents) -> cardlab.sim.tasks (sim)",
        "cardlab.core.rng (core) -> cardlab.sim.match (sim)",
        "cardlab.games.aterial.state (games.aterial) -> cardlab.games.dreadnought.state (games.dreadnought)",
        "cardlab.games.edelweiss.fast.cpu (games.edelweiss) -> cardlab.games (registry)",
    ]

"""The source files a module is built from: its own and those of every module it imports when it loads,
directly or through another, within its package tree.

A compiled kernel is built from more than its own file: numba freezes the globals a jitted function reads
(a table offset imported from `tables`) as constants and compiles its callees into it, yet caches it keyed
on its own file only. The cache guard (`cardlab.fast.search.flush_stale_cache`) and the stored games'
fingerprint (`cardlab.store.fingerprint`) both count the files named here, so the two never disagree on
what a kernel is made of.

The set is read from the import statements with `ast`, not from a loaded module's globals: a constant
imported by name (`from .tables import HEADER`) is a plain int there, which names no module, while its
import statement does; and reading files loads nothing, so the fingerprint counts a kernel's files where
numba is not even installed. Only the imports that run when a module loads count (not those inside
functions, nor under `if TYPE_CHECKING:`): they alone make its globals, the only names numba compiles in,
while a function's lazy import (a game loading its kernels when asked) would tie every kernel to the
whole game, and a recompile of minutes to an edit of a rendering helper.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path


def imported_sources(path: Path, root: Path) -> tuple[Path, ...]:
    """`path` and the source file of every module it imports when it loads, transitively, sorted: relative
    imports wherever the file lies, absolute ones within the package whose folder is `root` (cardlab's).
    `from a import b` counts `a.b` if that is a module, else `a` (a package counts only when a name is
    imported from it, not on the way to one of its modules)."""
    root = root.resolve()
    found: set[Path] = set()
    todo = [path.resolve()]
    while todo:
        file = todo.pop()
        if file not in found:
            found.add(file)
            stat = file.stat()
            todo.extend(_imports(file, root, stat.st_mtime_ns, stat.st_size))
    return tuple(sorted(found))


@cache
def _imports(file: Path, root: Path, mtime_ns: int, size: int) -> tuple[Path, ...]:
    """The source files of the modules `file` imports when it loads (see `imported_sources`); cached per
    version of the file (its time and size), as the kernels of one game share most of their sources."""
    found: list[Path] = []
    for node in _load_time_imports(ast.parse(file.read_bytes(), str(file)).body):
        if isinstance(node, ast.Import):
            for alias in node.names:
                top, *parts = alias.name.split(".")
                module = _source(root, parts) if top == root.name else None
                found += [module] if module is not None else []
            continue
        parts = node.module.split(".") if node.module else []
        if node.level:
            base = file.parents[node.level - 1]
        elif parts[0] == root.name:
            base, parts = root, parts[1:]
        else:
            continue
        for alias in node.names:
            module = _source(base, [*parts, alias.name]) or _source(base, parts)
            found += [module] if module is not None else []
    return tuple(found)


def _load_time_imports(body: list[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
    """The imports a module runs when it loads: not those in functions, nor under `if TYPE_CHECKING:`."""
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.If):
            if not _is_type_checking(node.test):
                yield from _load_time_imports(node.body)
            yield from _load_time_imports(node.orelse)
        elif isinstance(node, ast.Try | ast.TryStar):
            for block in (node.body, *(handler.body for handler in node.handlers), node.orelse, node.finalbody):
                yield from _load_time_imports(block)
        elif isinstance(node, ast.With | ast.AsyncWith | ast.For | ast.AsyncFor | ast.While | ast.ClassDef):
            yield from _load_time_imports(node.body)
            yield from _load_time_imports(getattr(node, "orelse", []))


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _source(base: Path, parts: list[str]) -> Path | None:
    """The file of module `parts` under the folder `base`: a package's `__init__.py`, else `name.py`."""
    folder = base.joinpath(*parts)
    candidates = [folder / "__init__.py", *([folder.with_name(folder.name + ".py")] if parts else [])]
    return next((candidate.resolve() for candidate in candidates if candidate.is_file()), None)

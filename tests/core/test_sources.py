"""`imported_sources`: the files a module is built from, read from its imports (what the numba cache guard and
the stored games' fingerprint count), on a planted package tree."""

from __future__ import annotations

from pathlib import Path

from cardlab.core.sources import imported_sources


def _plant(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")


def test_it_follows_every_kind_of_import_within_the_package_transitively(tmp_path: Path) -> None:
    """Absolute and relative imports, names imported from a module, modules from a package, a cycle."""
    root = tmp_path / "cardlab"
    _plant(root, {
        "__init__.py": "",
        "core/__init__.py": "",
        "core/errors.py": "import numpy\nimport cardlab.core.rng\n",
        "core/rng.py": "from cardlab.game.fast.cpu import KERNEL\n",  # a cycle back: visited once
        "game/__init__.py": "",
        "game/state.py": "from cardlab.core.errors import CardlabError\nW_OVER = 3\n",
        "game/fast/__init__.py": "",
        "game/fast/tables.py": "from ..state import W_OVER\nHEADER = 32\n",
        "game/fast/cpu.py": "import os\nfrom . import tables\nfrom .tables import HEADER\nKERNEL = 1\n",
        "game/unused.py": "",
    })  # fmt: skip
    found = imported_sources(root / "game" / "fast" / "cpu.py", root)
    assert [path.relative_to(root.resolve()).as_posix() for path in found] == [
        "core/errors.py", "core/rng.py", "game/fast/cpu.py", "game/fast/tables.py", "game/state.py",
    ]  # fmt: skip


def test_only_the_imports_that_run_when_the_module_loads_count(tmp_path: Path) -> None:
    """numba compiles in a module's globals, which its load-time imports make: a function's lazy import or
    one for type checking only adds no file (nor the recompile an edit there would cost)."""
    root = tmp_path / "cardlab"
    _plant(root, {
        "lazy.py": "",
        "typing_only.py": "",
        "loaded.py": "",
        "cpu.py": "from typing import TYPE_CHECKING\n"
                  "if TYPE_CHECKING:\n    from cardlab import typing_only\n"
                  "try:\n    from cardlab import loaded\nexcept ImportError:\n    pass\n"
                  "def kernels():\n    from cardlab import lazy\n",
    })  # fmt: skip
    found = imported_sources(root / "cpu.py", root)
    assert [path.name for path in found] == ["cpu.py", "loaded.py"]


def test_an_edited_file_is_read_again(tmp_path: Path) -> None:
    root = tmp_path / "cardlab"
    _plant(root, {"a.py": "", "b.py": "", "cpu.py": "from cardlab import a\n"})
    assert [path.name for path in imported_sources(root / "cpu.py", root)] == ["a.py", "cpu.py"]
    (root / "cpu.py").write_text("from cardlab import a, b  # and b\n", encoding="utf-8")
    assert [path.name for path in imported_sources(root / "cpu.py", root)] == ["a.py", "b.py", "cpu.py"]

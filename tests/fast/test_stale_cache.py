"""No stale machine code: numba caches a jitted function keyed on its own file, yet compiles in the constants
of the modules it imports, so a kernel must be compiled again when one of those changes (`flush_stale_cache`).
Checked for real: on a copy of the source tree, in fresh processes sharing one numba cache."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numba")

SRC = Path(__file__).resolve().parents[2] / "src" / "cardlab"
"""The tree the test copies (a copy, since it edits a constant)."""

PROBE = """
import sys
import numpy as np
import cardlab
from cardlab.games.aterial.fast import cpu

assert cardlab.__file__.startswith(sys.argv[1]), cardlab.__file__  # the copy, not the installed tree
value = cpu._inst(np.arange(4096, dtype=np.int64), 0, 0)  # table[INST_BASE]: INST_BASE = tables.HEADER
print(value, sum(cpu._inst.stats.cache_hits.values()))
"""
"""Calls the smallest jitted function of Aterial's kernel that reads a constant of `tables` (compiled in
a second or two); prints what it returned and whether it came from numba's cache."""


def _probe(root: Path) -> tuple[int, bool]:
    """(the kernel's INST_BASE, whether its machine code was loaded from the cache) in a fresh process."""
    env = {**os.environ, "PYTHONPATH": str(root / "src"), "NUMBA_CACHE_DIR": str(root / "numba-cache"),
           "PYTHONDONTWRITEBYTECODE": "1"}  # fmt: skip
    env.pop("NUMBA_DISABLE_JIT", None)
    done = subprocess.run([sys.executable, "-c", PROBE, str(root / "src")], env=env, capture_output=True, text=True,
                          timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr
    value, hits = done.stdout.split()
    return int(value), int(hits) > 0


def test_a_constant_changed_in_tables_reaches_the_kernel_without_touching_cpu(tmp_path: Path) -> None:
    """`tables.py` once said "after changing a constant here, touch cpu.py": numba would otherwise replay the
    machine code compiled with the old value. Now `cpu`'s cache is keyed on what it imports, so the new
    value reaches the kernel, while an unchanged tree keeps using the cache."""
    shutil.copytree(SRC, tmp_path / "src" / "cardlab", ignore=shutil.ignore_patterns("__pycache__"))
    tables = tmp_path / "src" / "cardlab" / "games" / "aterial" / "fast" / "tables.py"
    cpu = tables.with_name("cpu.py")
    assert _probe(tmp_path) == (32, False)  # compiled, and cached
    assert _probe(tmp_path) == (32, True)  # nothing changed: the cache is used
    kernel_source = cpu.read_bytes(), cpu.stat().st_mtime_ns
    text = tables.read_text(encoding="utf-8")
    assert text.count("\nHEADER = 32\n") == 1
    tables.write_text(text.replace("\nHEADER = 32\n", "\nHEADER = 40\n"), encoding="utf-8")
    assert _probe(tmp_path) == (40, False)  # compiled again with the new constant
    assert _probe(tmp_path) == (40, True)
    assert (cpu.read_bytes(), cpu.stat().st_mtime_ns) == kernel_source  # cpu.py was never touched

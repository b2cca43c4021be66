"""The code base stays ruff-clean, ruff-formatted and mypy-clean (the gates run with the test suite)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PATHS = ["src", "tests", "benchmarks", "examples"]


def _tool(name: str) -> str:
    return shutil.which(name) or str(Path(sys.executable).with_name(name))


def _run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(argv), cwd=ROOT, capture_output=True, text=True)


def test_ruff_is_clean() -> None:
    result = _run(_tool("ruff"), "check", *PATHS)
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_is_clean() -> None:
    result = _run(_tool("ruff"), "format", "--check", *PATHS)
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_is_clean() -> None:
    """mypy over src/cardlab with the project's config (pyproject: unused and code-less ignores are errors)."""
    if not Path(_tool("mypy")).exists():
        pytest.fail("mypy is part of the test extra: pip install -e '.[test]'")
    result = _run(_tool("mypy"), "--no-incremental", "--config-file", "pyproject.toml")
    assert result.returncode == 0, result.stdout + result.stderr


def test_no_blanket_type_ignores() -> None:
    """Every `type: ignore` names its error code, and no module switches checking off wholesale."""
    bare, blanket = [], []
    for path in sorted((ROOT / "src" / "cardlab").rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if "# type: ignore" in line and "# type: ignore[" not in line:
                bare.append(f"{path.relative_to(ROOT)}:{number}")
            if line.strip() in ("# mypy: ignore-errors", "# type: ignore"):
                blanket.append(f"{path.relative_to(ROOT)}:{number}")
    config = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert "ignore_errors" not in config
    assert not bare and not blanket, bare + blanket


def test_the_package_says_it_is_typed() -> None:
    assert (ROOT / "src" / "cardlab" / "py.typed").is_file()
    package_data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert "py.typed" in package_data["package-data"]["*"]  # shipped in the wheel (tests/test_packaging.py)

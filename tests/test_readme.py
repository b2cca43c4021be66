"""The README's Python examples run as written: each ```python block in a fresh interpreter, in an empty
folder (a file it saves lands there), so a snippet that drifts from the library fails here."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCK = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)


def _blocks() -> list[tuple[str, str]]:
    """(the section it stands in, the code) of each Python block."""
    text = README.read_text(encoding="utf-8")
    found = []
    for match in BLOCK.finditer(text):
        headings = re.findall(r"^## (.+)$", text[: match.start()], re.MULTILINE)
        found.append((headings[-1] if headings else "top", match.group(1)))
    return found


def test_the_readme_has_python_examples() -> None:
    sections = [section for section, _ in _blocks()]
    assert "For AI researchers" in sections and "Python API" in sections


@pytest.mark.parametrize(("section", "code"), _blocks(), ids=lambda value: value[:24] if len(value) < 200 else "")
def test_each_python_example_runs(section: str, code: str, tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=600, check=False
    )
    assert result.returncode == 0, f"README ({section}) example failed:\n{code}\n{result.stderr[-3000:]}"

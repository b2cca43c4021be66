"""The README and the docs it sends readers to hold up: each ```python block of README.md and docs/python.md
runs as written, in a fresh interpreter, in an empty folder (a file it saves lands there), so a snippet that
drifts from the library fails here; every `cardlab COMMAND` the README and docs/cli.md show names a real
command; every local link of the README leads to a file."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
PYTHON_DOC = ROOT / "docs" / "python.md"
CLI_DOC = ROOT / "docs" / "cli.md"
BLOCK = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)
BASH = re.compile(r"^```bash\n(.*?)^```", re.DOTALL | re.MULTILINE)


def _blocks() -> list[tuple[str, str]]:
    """(the file and section it stands in, the code) of each Python block."""
    found = []
    for path in (README, PYTHON_DOC):
        text = path.read_text(encoding="utf-8")
        for match in BLOCK.finditer(text):
            headings = re.findall(r"^## (.+)$", text[: match.start()], re.MULTILINE)
            found.append((f"{path.name}: {headings[-1] if headings else 'top'}", match.group(1)))
    return found


def test_the_docs_have_python_examples() -> None:
    sections = [section for section, _ in _blocks()]
    assert "python.md: The game API" in sections
    assert sections.count("python.md: For AI researchers: environments, training, OpenSpiel") >= 2


@pytest.mark.parametrize(("section", "code"), _blocks(), ids=lambda value: value[:40] if len(value) < 200 else "")
def test_each_python_example_runs(section: str, code: str, tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=600, check=False
    )
    assert result.returncode == 0, f"{section} example failed:\n{code}\n{result.stderr[-3000:]}"


def _commands() -> set[str]:
    """The subcommands `cardlab --help` lists."""
    done = subprocess.run([sys.executable, "-m", "cardlab", "--help"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    match = re.search(r"\{([\w,-]+)\}", done.stdout)
    assert match is not None, done.stdout
    return set(match.group(1).split(","))


def test_the_readme_starts_with_its_two_commands() -> None:
    """The main job first, then the test suite, before anything else."""
    text = README.read_text(encoding="utf-8")
    first = BASH.search(text)
    assert first is not None and text[: first.start()].strip() == "# cardlab"
    lines = first.group(1).splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("python3 -m venv .venv") and lines[0].endswith(".venv/bin/cardlab balance edelweiss")
    assert lines[1].startswith("python3 -m venv .venv") and "pytest" in lines[1]


def test_every_command_shown_is_a_cardlab_command() -> None:
    commands, shown = _commands(), 0
    for path in (README, CLI_DOC):
        for block in BASH.findall(path.read_text(encoding="utf-8")):
            for line in block.splitlines():
                for match in re.finditer(r"(?:^|&& |\s)(?:\.venv/bin/)?cardlab (\S+)", line):
                    shown += 1
                    assert match.group(1) in commands | {"--version", "--help"}, f"{path.name}: {line}"
    assert shown >= 25


def test_the_readmes_links_lead_to_files() -> None:
    links = re.findall(r"\]\(([^)#]+)\)", README.read_text(encoding="utf-8"))
    assert len(links) > 10
    for link in links:
        if not link.startswith("http"):
            assert (ROOT / link).is_file(), link

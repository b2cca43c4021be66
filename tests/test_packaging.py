"""Every file a package reads at run time (card data, decks, web assets) ships in the wheel: pyproject's
package data names files by kind, for every package, so a new game's package needs no line of its own."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"


def _patterns() -> dict[str, list[str]]:
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    return setuptools["package-data"]


def _shipped(path: Path, patterns: dict[str, list[str]]) -> bool:
    """Whether a package-data pattern of the file's package (or of every package, "*") names it."""
    for folder in path.parents:
        if not (folder / "__init__.py").is_file():
            continue
        package = ".".join(folder.relative_to(SRC).parts)
        relative = path.relative_to(folder).as_posix()
        if any(_glob(relative, p) for p in patterns.get(package, []) + patterns.get("*", [])):
            return True
    return False


def _glob(relative: str, pattern: str) -> bool:
    """setuptools' glob: `*` stays within one folder (`data/*.toml` is not `data/decks/D1.toml`)."""
    parts, wanted = relative.split("/"), pattern.split("/")
    return len(parts) == len(wanted) and all(fnmatch.fnmatchcase(a, b) for a, b in zip(parts, wanted, strict=True))


def test_every_data_file_is_package_data() -> None:
    patterns = _patterns()
    data = [
        path
        for path in (SRC / "cardlab").rglob("*")
        if path.is_file()
        and path.suffix not in (".py", ".pyc", ".nbi", ".nbc")
        and "__pycache__" not in path.parts
        and not path.name.endswith((".rules-",))
        and ".rules-" not in path.name
    ]
    assert len(data) > 20  # card files, decks, each game's web assets, the app's static files
    missing = [str(path.relative_to(SRC)) for path in data if not _shipped(path, patterns)]
    assert missing == []


def test_no_game_is_named_in_the_package_data() -> None:
    assert not [package for package in _patterns() if package.startswith("cardlab.games.")]


def test_a_new_games_data_would_ship(tmp_path: Path) -> None:
    """The check itself: a card file in a game package nobody listed is found shipped by the "*" patterns."""
    assert _shipped(SRC / "cardlab" / "games" / "aterial" / "data" / "cards.toml", _patterns())
    assert not _shipped(SRC / "cardlab" / "games" / "aterial" / "data" / "cards.yaml", _patterns())
    assert not _shipped(SRC / "cardlab" / "games" / "aterial" / "data" / "decks" / "old" / "D1.toml", _patterns())

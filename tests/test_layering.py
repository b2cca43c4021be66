"""One place per game: outside `cardlab.games` (each game's package, its compiled engines included)
no code names a game, so that a game is added by adding its package and one registry line."""

from __future__ import annotations

import re
from pathlib import Path

from cardlab.games import game_names

SRC = Path(__file__).resolve().parents[1] / "src" / "cardlab"
OWN = ("games",)
"""The folder where game names belong: the game packages."""


def _files(*suffixes: str) -> list[Path]:
    return [
        path for path in sorted(SRC.rglob("*")) if path.suffix in suffixes and path.relative_to(SRC).parts[0] not in OWN
    ]


def _mentions(paths: list[Path]) -> list[str]:
    pattern = re.compile("|".join(game_names()), re.IGNORECASE)
    found = []
    for path in paths:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                found.append(f"{path}:{number}: {line.strip()}")
    return found


def test_no_python_module_outside_the_games_names_a_game() -> None:
    assert _mentions(_files(".py")) == []


def test_the_web_front_end_names_no_game() -> None:
    """Boards, styles and rules pages come from each game's package (`Game.web_assets()`)."""
    assert _mentions(_files(".js", ".html", ".css")) == []


def test_the_check_finds_a_planted_name(tmp_path: Path) -> None:
    planted = tmp_path / "x.py"
    planted.write_text(f'GAME = "{game_names()[0].upper()}"\n', encoding="utf-8")
    assert _mentions([planted]) and not _mentions([SRC / "core" / "game.py"])

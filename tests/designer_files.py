"""A designer's own files for the entrant and card-file tests (issue 33 item 3): one new Aterial card, and
copies of packaged decks to edit."""

from __future__ import annotations

import shutil
from importlib import resources
from pathlib import Path

NEW_CARD = """[[cards]]
type = "subordinate"
id = "S90"
name = "Dawn Herald"
cost = 2
attack = 2
hp = 3
dominance = 1
races = ["human"]
abilities = [{ key = "deploy_draw", amount = 1 }]
"""
"""A valid Aterial subordinate that no packaged card set holds (A4, A17, A21.1)."""


def packaged_deck_copy(game: str, deck_id: str, folder: Path, name: str) -> Path:
    """A copy of a packaged deck file, to edit."""
    source = resources.files(f"cardlab.games.{game}").joinpath("data", "decks", f"{deck_id}.toml")
    with resources.as_file(source) as path:
        return Path(shutil.copy(path, folder / name))

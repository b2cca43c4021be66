"""`SeatDecks`: seat decks are read once per game object and every failure names the config field.

Checked through both deck-building games (A5 for Aterial, D3 for Dreadnought)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from cardlab.core.errors import PositionError
from cardlab.games.aterial import Aterial
from cardlab.games.aterial.game import AterialConfig
from cardlab.games.dreadnought import Dreadnought
from cardlab.games.dreadnought.game import DreadnoughtConfig


def _packaged(package: str, deck_id: str, folder: Path) -> Path:
    with resources.as_file(resources.files(package).joinpath("data", "decks", f"{deck_id}.toml")) as source:
        return Path(shutil.copy(source, folder / f"{deck_id}.toml"))


def test_deck_files_are_read_once_per_game(tmp_path: Path) -> None:
    path = _packaged("cardlab.games.aterial", "D1", tmp_path)
    game = Aterial(AterialConfig(decks=(str(path), "D2")))
    first = game.new_state(1, record_events=False)
    path.unlink()  # a second deal must not need the file again
    second = game.new_state(1, record_events=False)
    assert game.decks is game.decks
    assert second.position() == first.position()


@pytest.mark.parametrize("make", [
    lambda missing: Aterial(AterialConfig(decks=("D1", missing))),
    lambda missing: Dreadnought(DreadnoughtConfig(decks=("ember_spark", missing))),
])  # fmt: skip
def test_a_missing_deck_file_is_a_position_error_naming_the_seat(tmp_path: Path, make: Callable[[str], Any]) -> None:
    game = make(str(tmp_path / "nowhere.toml"))
    with pytest.raises(PositionError) as caught:
        game.new_state(0)
    assert caught.value.field == "config.decks.P2"
    assert "nowhere.toml" in str(caught.value)


def test_a_deck_rule_violation_names_its_rule() -> None:
    """A5.4 through the leader override: a subordinate named as the leader. The override broke the rule, so
    the error names the override's field (issue 12, item 10), not the deck, which is legal as written."""
    game = Aterial(AterialConfig(leaders=("S01", None)))
    with pytest.raises(PositionError, match="A5") as caught:
        game.new_state(0)
    assert caught.value.field == "config.leaders.P1"

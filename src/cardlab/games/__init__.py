"""Registry of the games cardlab plays, so that tools can look a game up by name."""

from __future__ import annotations

from collections.abc import Mapping
from importlib import import_module
from typing import Any

from cardlab.core.errors import PositionError
from cardlab.core.game import Game, State

_GAMES = {
    "edelweiss": "cardlab.games.edelweiss:Edelweiss",
    "aterial": "cardlab.games.aterial:Aterial",
    "dreadnought": "cardlab.games.dreadnought:Dreadnought",
}

GAME_NAMES: tuple[str, ...] = tuple(_GAMES)


def game_class(name: str) -> type[Game]:
    """The Game subclass registered under `name`; imported only when asked for."""
    if name not in GAME_NAMES:  # a tuple, not the dict: a list or object given as the name is unknown, not unhashable
        raise ValueError(f"unknown game {name!r}; known games: {', '.join(GAME_NAMES)}")
    module, attr = _GAMES[name].split(":")
    cls: type[Game] = getattr(import_module(module), attr)
    return cls


def load_position(data: Mapping[str, Any]) -> State:
    """Load a position JSON of any registered game (its `game` field picks the game)."""
    if not isinstance(data, Mapping):
        raise PositionError("position", "expected a JSON object")
    name = data.get("game")
    if name not in GAME_NAMES:
        raise PositionError("game", f"unknown game {name!r}; known games: {', '.join(GAME_NAMES)}")
    return game_class(name)().load_position(data)

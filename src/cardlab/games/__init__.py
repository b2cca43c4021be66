"""The registry of the games cardlab plays: one line per game; tools look games up here by name.

A game outside this package registers itself with `REGISTRY.register(name, "module:Class")`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardlab.core.game import Game, State
from cardlab.core.plugin import GameRegistry

REGISTRY = GameRegistry(
    {
        "edelweiss": "cardlab.games.edelweiss:Edelweiss",
        "aterial": "cardlab.games.aterial:Aterial",
        "dreadnought": "cardlab.games.dreadnought:Dreadnought",
    }
)


def install(games: Mapping[str, str]) -> None:
    """Register games (`name: "module:Class"`) in this process: a worker's initializer, given the
    parent's `REGISTRY.extra()`."""
    REGISTRY.install(games)


def game_names() -> tuple[str, ...]:
    """Every registered game, in registry order."""
    return REGISTRY.names


def game_class(name: str) -> type[Game]:
    """The Game subclass registered under `name`; imported only when asked for."""
    return REGISTRY.game_class(name)


def load_position(data: Mapping[str, Any]) -> State:
    """Load a position JSON of any registered game (its `game` field picks the game)."""
    return REGISTRY.load_position(data)

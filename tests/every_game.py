"""The games a cross-game test runs on: every registered game and the toy games of the test suite
(`tests/toygame`, Kuhn poker), so that a toy game gets every cross-game check it can support.

A toy game is registered only while a test runs (`toy_games_registered`), not for the whole session: the
registry stays the three shipped games for every other test. A check that needs a hook the toy game does
not have (a profile, an encoding) asks the game for it and skips, never compares a name.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from cardlab.core.game import Game
from cardlab.games import REGISTRY, game_class, game_names

TOY_GAMES = {"kuhn": "tests.toygame:Kuhn"}
"""The test suite's own games, registered by `toy_games_registered` (`name: "module:Class"`)."""


def every_game() -> tuple[str, ...]:
    """The registered games, then the toy games not already registered: what cross-game tests parametrize."""
    return (*game_names(), *(name for name in TOY_GAMES if name not in game_names()))


@contextmanager
def toy_games_registered() -> Iterator[None]:
    """The toy games in the registry (and so in worker processes) for the duration, then gone again."""
    added = [name for name in TOY_GAMES if name not in game_names()]
    for name in added:
        REGISTRY.register(name, TOY_GAMES[name])
    try:
        yield
    finally:
        for name in added:
            REGISTRY.unregister(name)


def every_game_class(name: str) -> type[Game]:
    """The class of a game `every_game()` names, registered or toy."""
    with toy_games_registered():
        return game_class(name)

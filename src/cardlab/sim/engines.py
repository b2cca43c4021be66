"""Which engine plays a batch of games: the reference engine, or one of the game's compiled kernels.

A game declares its kernels (`Game.kernels()`, e.g. `cpu` and `gpu`); their sameness with the
reference engine is proven in the test suite. A kernel deals from its own random streams, so a
game is not the reference's game of the same seed, but a batch's deals are shared by both seat
orders (common random numbers), as in the reference lab. Kernel games are stored without their
action lists.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardlab.core.errors import CardlabError
from cardlab.core.plugin import KernelGame, KernelRun, Kernels
from cardlab.games import game_class, game_names

ENGINES = ("reference", "cpu", "gpu")

__all__ = ["ENGINES", "KernelGame", "KernelRun", "check_engine", "kernel_games", "kernel_run"]


def _has_engine(game: str, engine: str) -> bool:
    kernels = game_class(game).kernels()
    return kernels is not None and engine in kernels.engines


def _kernels(game: str, engine: str) -> Kernels:
    kernels = game_class(game).kernels()
    if kernels is None or engine not in kernels.engines:
        playing = [name for name in game_names() if _has_engine(name, engine)]
        raise CardlabError(f"the {engine} engine plays {', '.join(playing) or 'no game'} only, not {game}")
    return kernels


def check_engine(engine: str, game: str, agents: Sequence[str]) -> None:
    """A clear error when `engine` cannot play this request."""
    if engine not in ENGINES:
        raise CardlabError(f"unknown engine {engine!r}; one of {list(ENGINES)}")
    if engine != "reference":
        _kernels(game, engine).check(engine, agents)


def kernel_run(
    game: str, config: Mapping[str, Any], agents: tuple[str, str], games: int, seed: int, engine: str = "cpu"
) -> KernelRun:
    """`games` kernel games of one config with `agents[0]` as P1, and each agent's mean decision time."""
    return _kernels(game, engine).run(config, agents, games, seed, engine)


def kernel_games(
    game: str, config: Mapping[str, Any], agents: tuple[str, str], games: int, seed: int, engine: str = "cpu"
) -> list[KernelGame]:
    """`games` kernel games of one config with `agents[0]` as P1; game i's deal comes from (seed, i)."""
    return kernel_run(game, config, agents, games, seed, engine).games

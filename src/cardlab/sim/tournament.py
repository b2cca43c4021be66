"""Run many games across worker processes, with results independent of the worker count.

Every game is a `GameTask` carrying its own seed (derived from a master seed and the game's
index by the caller), so a task plays the same game in any process; results come back in task
order whatever the number of workers.
"""

from __future__ import annotations

import json
import multiprocessing
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from cardlab.agents import Agent, make_agent
from cardlab.core.game import Game
from cardlab.games import REGISTRY, game_class, install
from cardlab.sim.match import GameRecord, play_match


@dataclass(frozen=True)
class GameTask:
    """One game to play: which game and config, who sits where, its seed, and labels to keep."""

    game: str
    config: Mapping[str, Any]
    agents: tuple[str, str]
    seed: int
    labels: Mapping[str, Any] = field(default_factory=dict)


@dataclass
class TaskResult:
    task: GameTask
    record: GameRecord


@cache
def _game(name: str, config_key: str) -> Game:
    return game_class(name).from_config(json.loads(config_key))


@cache
def _agent(spec: str) -> Agent:
    return make_agent(spec)


def run_task(task: GameTask) -> TaskResult:
    """Play one task; games and agents are built once per process and reused."""
    game = _game(task.game, json.dumps(task.config, sort_keys=True))
    agents = (_agent(task.agents[0]), _agent(task.agents[1]))
    return TaskResult(task, play_match(game, agents, task.seed))


def default_workers() -> int:
    return os.cpu_count() or 1


def run_tasks(
    tasks: Sequence[GameTask],
    workers: int | None = None,
    on_result: Callable[[TaskResult], None] | None = None,
) -> Iterator[TaskResult]:
    """Yield results in task order; `workers=1` plays in this process."""
    workers = workers or default_workers()
    if workers == 1 or len(tasks) <= 1:
        results: Iterator[TaskResult] = map(run_task, tasks)
        yield from _tap(results, on_result)
        return
    chunksize = max(1, min(64, len(tasks) // (workers * 8)))
    # forkserver, not fork: forking a process that runs threads (JAX, numba) can deadlock.
    # Games registered at run time (e.g. a plugin outside cardlab) are registered in every worker too.
    context = multiprocessing.get_context("forkserver")
    extra = REGISTRY.extra()
    with ProcessPoolExecutor(workers, context, initializer=install, initargs=(extra,)) as pool:
        yield from _tap(pool.map(run_task, tasks, chunksize=chunksize), on_result)


def _tap(results: Iterator[TaskResult], on_result: Callable[[TaskResult], None] | None) -> Iterator[TaskResult]:
    for result in results:
        if on_result is not None:
            on_result(result)
        yield result

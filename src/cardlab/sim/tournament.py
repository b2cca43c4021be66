"""Run many games across worker processes, with results independent of the worker count.

Every game is a `GameTask` carrying its own seed (derived from a master seed and the game's
index by the caller), so a task plays the same game in any process; results come back in task
order whatever the number of workers, and whatever plays them: this machine's process pool, or a
Ray cluster (`backend="ray"`, `cardlab.sim.backends`).
"""

from __future__ import annotations

import json
import multiprocessing
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from functools import cache
from typing import Any, overload

from cardlab.agents import Agent, make_agent
from cardlab.core.errors import CardlabError
from cardlab.core.game import Game
from cardlab.games import REGISTRY, game_class, install
from cardlab.sim.backends import import_ray, play_chunks, run_ray, timed_outcomes
from cardlab.sim.interrupt import held, ignore_in_worker, wait_for
from cardlab.sim.match import GameRecord, play_match

BACKENDS = ("process", "ray")
"""What plays the tasks: a process pool on this machine, or a Ray cluster (the `cluster` extra)."""


@dataclass(frozen=True)
class GameTask:
    """One game to play: which game and config, who sits where, its seed, and labels to keep."""

    game: str
    config: Mapping[str, Any]
    agents: tuple[str, str]
    seed: int
    labels: Mapping[str, Any] = field(default_factory=dict)
    keep_actions: bool = True
    """Record every action (to store or replay the game); a tally that only counts results leaves them out."""


@dataclass
class TaskResult:
    task: GameTask
    record: GameRecord


Track = Callable[[str, int], AbstractContextManager[Callable[[int], None]]]
"""Progress for work that is not a list of tasks (kernel batches): `track(label, total_games)` gives a
context whose value is called with each finished batch's game count (the CLI shows it as a bar)."""


@contextmanager
def no_progress(label: str, total: int) -> Iterator[Callable[[int], None]]:
    """A `Track` that shows nothing."""
    yield lambda games: None


Outcome = tuple[Any, ...]
"""A played task as a worker sends it back: its record less what the task already says (see `outcome`)."""


@cache
def _game(name: str, config_key: str) -> Game:
    return game_class(name).from_config(json.loads(config_key))


@cache
def _agent(spec: str) -> Agent:
    return make_agent(spec)


_last_game: list[Any] = [None, None]
"""The config object of the previous task and its game: tasks of one chunk share their config object."""


def run_task(task: GameTask) -> TaskResult:
    """Play one task; games and agents are built once per process and reused."""
    if task.config is not _last_game[0]:
        _last_game[:] = task.config, _game(task.game, json.dumps(task.config, sort_keys=True))
    game: Game = _last_game[1]
    agents = (_agent(task.agents[0]), _agent(task.agents[1]))
    return TaskResult(task, play_match(game, agents, task.seed, task.keep_actions))


def outcome(result: TaskResult) -> Outcome:
    """What a worker sends back for a task: the record without the game, seed, and (when equal) the
    config and agent specs the task carries, so that the pipe carries the result and little else."""
    task, record = result.task, result.record
    config = None if record.config == task.config else record.config
    agents = None if record.agents == task.agents else record.agents
    played = record.actions, record.winner, record.reason, record.turns, record.think_seconds, record.seat_decisions
    return config, agents, *played


def play_outcomes(tasks: Sequence[GameTask]) -> list[Outcome]:
    """Play a chunk of tasks in this process."""
    return [outcome(run_task(task)) for task in tasks]


def task_result(task: GameTask, played: Outcome) -> TaskResult:
    """The full result of `task` from a worker's `outcome`."""
    config, agents, actions, winner, reason, turns, think, seats = played
    record = GameRecord(
        task.game, dict(task.config) if config is None else config, task.seed,
        task.agents if agents is None else agents, actions, winner, reason, turns, think, seats,
    )  # fmt: skip
    return TaskResult(task, record)


def default_workers() -> int:
    return os.cpu_count() or 1


def run_tasks(
    tasks: Sequence[GameTask],
    workers: int | None = None,
    on_result: Callable[[TaskResult], None] | None = None,
    *,
    backend: str = "process",
    address: str | None = None,
) -> Iterator[TaskResult]:
    """Yield results in task order, calling `on_result` on each as it is yielded.

    `backend="process"`: a pool of `workers` processes on this machine (all CPUs by default);
    `workers=1` plays in this process. `backend="ray"`: a Ray cluster, the one at `address`, or a
    local one with `workers` CPUs when no address is given (started once, kept for the process's
    life; a process already connected to Ray uses that). The results are the same on every backend.
    """
    if backend not in BACKENDS:
        raise CardlabError(f"unknown backend {backend!r}; backends: {', '.join(BACKENDS)}")
    if backend == "ray":
        import_ray()  # a missing extra is reported now, not when the first result is asked for
        return _tap(run_ray(tasks, workers, address), on_result)
    if address is not None:
        raise CardlabError("an address (--address) is for the ray backend only")
    return _tap(_run_pool(tasks, workers or default_workers()), on_result)


def _run_pool(tasks: Sequence[GameTask], workers: int) -> Iterator[TaskResult]:
    if workers == 1 or len(tasks) <= 1:
        yield from map(run_task, tasks)
        return
    # forkserver, not fork: forking a process that runs threads (JAX, numba) can deadlock.
    # Games registered at run time (e.g. a plugin outside cardlab) are registered in every worker too.
    # Workers ignore Ctrl-C (it reaches the whole process group): the parent keeps what finished and
    # ends them at once, without waiting for the chunks in flight (a game under search can take minutes).
    context = multiprocessing.get_context("forkserver")
    pool = ProcessPoolExecutor(workers, context, initializer=_start_worker, initargs=(REGISTRY.extra(),))
    try:
        with held():
            yield from play_chunks(tasks, workers, lambda chunk: pool.submit(timed_outcomes, chunk), _outcomes)
    except BaseException:  # Ctrl-C, an error, or the reader stopped early
        _end_workers(pool)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _outcomes(future: Future[tuple[float, list[Outcome]]]) -> tuple[float, list[Outcome]]:
    return wait_for(future.result, TimeoutError)


def _start_worker(extra: Mapping[str, str]) -> None:
    ignore_in_worker()
    install(extra)


def _end_workers(pool: ProcessPoolExecutor) -> None:
    """Stop a pool's workers now, their chunks in flight dropped (`shutdown` alone waits for them)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(timeout=5)


class TaskList(Sequence[GameTask]):
    """`count` tasks, task `i` made by `make(i)` when it is first asked for: a long run's workers start
    on its first chunk while the parent is still making the rest, and it never holds them all."""

    def __init__(self, count: int, make: Callable[[int], GameTask]) -> None:
        self._count, self._make = count, make

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> GameTask: ...

    @overload
    def __getitem__(self, index: slice) -> list[GameTask]: ...

    def __getitem__(self, index: int | slice) -> GameTask | list[GameTask]:
        if isinstance(index, slice):
            return [self._make(i) for i in range(*index.indices(self._count))]
        if not -self._count <= index < self._count:
            raise IndexError(index)
        return self._make(index % self._count)


def _tap(results: Iterator[TaskResult], on_result: Callable[[TaskResult], None] | None) -> Iterator[TaskResult]:
    for result in results:
        if on_result is not None:
            on_result(result)
        yield result

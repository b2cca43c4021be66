"""Where `run_tasks` plays its games: this machine's process pool, or a Ray cluster.

The Ray backend (`pip install -e '.[cluster]'`) sends chunks of tasks to a cluster: the one at
`address`, or a local one started for this process when no address is given (and none is running
yet). Every task carries its seed, so a cluster plays exactly the games the process pool plays, and
results come back in task order. cardlab (and any package a game registered at run time lives in)
must be importable on every node: on a remote cluster, install it there with the same version.
Ray is imported only when this backend runs.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, TypeVar

from cardlab.core.errors import CardlabError
from cardlab.core.extras import needs_extra
from cardlab.games import REGISTRY, install
from cardlab.sim.interrupt import held, wait_for
from cardlab.sim.tasks import default_workers, play_outcomes, task_result

if TYPE_CHECKING:
    from cardlab.sim.tasks import GameTask, Outcome, TaskResult


CHUNK_SECONDS = 2.0
"""About how long one chunk should keep a worker busy: long enough that sending it costs little, short
enough that results (progress, storing, what Ctrl-C keeps) come in steadily even when a game takes minutes."""

Handle = TypeVar("Handle")


def chunk_size(tasks: int, workers: int) -> int:
    """The most tasks sent to a worker at a time: a few chunks per worker, so that the last ones finish together."""
    return max(1, min(256, tasks // (max(1, workers) * 8)))


class ChunkSizer:
    """Chunk sizes from the time games have taken so far in the workers: one task at a time until the
    first results are in, then as many as fill about `CHUNK_SECONDS` of a worker, at most `chunk_size`.

    A count alone cannot size chunks: 256 heuristic games take a second, 256 games under search take
    hours, and a chunk's games come back only when all of them are done.
    """

    def __init__(self, tasks: int, workers: int) -> None:
        self.most = chunk_size(tasks, workers)
        self.finished = 0
        self.seconds = 0.0
        """Worker time the finished tasks took, as the workers measured it (no start-up, no queueing)."""

    def next(self) -> int:
        if not self.finished:
            return 1
        return max(1, min(self.most, round(CHUNK_SECONDS * self.finished / max(self.seconds, 1e-9))))

    def add(self, tasks: int, seconds: float) -> None:
        self.finished += tasks
        self.seconds += seconds


def timed_outcomes(tasks: Sequence[GameTask]) -> tuple[float, list[Outcome]]:
    """Play a chunk of tasks in this worker: the seconds it took, and the outcomes."""
    start = time.perf_counter()
    outcomes = play_outcomes(tasks)
    return time.perf_counter() - start, outcomes


def play_chunks(
    tasks: Sequence[GameTask],
    workers: int,
    submit: Callable[[Sequence[GameTask]], Handle],
    collect: Callable[[Handle], tuple[float, list[Outcome]]],
) -> Iterator[TaskResult]:
    """Yield the results of `tasks` in task order, sent to `workers` workers in chunks by `submit` and read
    back by `collect` (a chunk's `timed_outcomes`). Chunks are taken from `tasks` as they are sent, so the
    workers start on the first while the rest are still being made (a `TaskList` makes its tasks on demand)."""
    sizer = ChunkSizer(len(tasks), workers)
    in_flight = 4 * workers  # chunks ahead of the one being read: every worker busy, memory bounded
    pending: deque[tuple[Sequence[GameTask], Handle]] = deque()
    sent = 0
    while sent < len(tasks) or pending:
        while sent < len(tasks) and len(pending) <= in_flight:
            chunk = tasks[sent : sent + sizer.next()]
            sent += len(chunk)
            pending.append((chunk, submit(chunk)))
        chunk, handle = pending.popleft()
        seconds, outcomes = collect(handle)
        sizer.add(len(chunk), seconds)
        yield from map(task_result, chunk, outcomes)


def play_chunk(extra: Mapping[str, str], tasks: Sequence[GameTask]) -> tuple[float, list[Outcome]]:
    """Play tasks in a Ray worker, after registering the games the caller registered at run time."""
    install(extra)
    return timed_outcomes(tasks)


def import_ray() -> Any:
    """The ray module; a CardlabError naming the extra to install when it is missing."""
    try:
        import ray
    except ImportError as error:
        raise CardlabError(needs_extra("the ray backend", "cluster")) from error
    return ray


@cache
def _remote_chunk() -> Any:
    return import_ray().remote(play_chunk)


def connect_ray(workers: int | None = None, address: str | None = None) -> int:
    """Join the Ray cluster at `address`, or start a local one with `workers` CPUs (all of them by
    default), unless this process is connected already; returns the cluster's CPU count."""
    ray = import_ray()
    if not ray.is_initialized():
        if address is None:
            ray.init(num_cpus=workers or default_workers(), include_dashboard=False, logging_level=logging.ERROR)
        else:
            ray.init(address=address, logging_level=logging.ERROR)
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def run_ray(tasks: Sequence[GameTask], workers: int | None = None, address: str | None = None) -> Iterator[TaskResult]:
    """Yield the results of `tasks` played on Ray, in task order, each as soon as it and those before it are in.

    A task's exception is raised here as itself (its remote traceback chained to it).
    """
    if not tasks:
        return
    ray = import_ray()
    from ray.exceptions import GetTimeoutError, RayTaskError

    cpus = connect_ray(workers, address)
    remote = _remote_chunk()
    extra = ray.put(REGISTRY.extra())

    def collect(ref: Any) -> tuple[float, list[Outcome]]:
        try:
            results: tuple[float, list[Outcome]] = wait_for(lambda wait: ray.get(ref, timeout=wait), GetTimeoutError)
        except RayTaskError as error:
            cause = error.cause
            if isinstance(cause, BaseException) and not isinstance(cause, RayTaskError):
                raise cause from error
            raise
        return results

    # Chunks still in flight when the reader stops (an error, Ctrl-C) are left to finish and be freed,
    # not cancelled: cancelling a task as it completes can abort the driver (Ray 2.60, task_manager.cc).
    with held():  # Ctrl-C comes between two results (`cardlab.sim.interrupt`)
        yield from play_chunks(tasks, cpus, lambda chunk: remote.remote(extra, chunk), collect)

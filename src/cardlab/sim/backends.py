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
from collections.abc import Iterator, Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from cardlab.core.errors import CardlabError
from cardlab.games import REGISTRY, install

if TYPE_CHECKING:
    from cardlab.sim.tournament import GameTask, Outcome, TaskResult

MISSING_RAY = "the ray backend needs the cluster extra: pip install -e '.[cluster]'"


def chunk_size(tasks: int, workers: int) -> int:
    """Tasks sent to a worker at a time: a few chunks per worker, so that per-task overhead stays small."""
    return max(1, min(256, tasks // (max(1, workers) * 8)))


def play_chunk(extra: Mapping[str, str], tasks: Sequence[GameTask]) -> list[Outcome]:
    """Play tasks in this worker, after registering the games the caller registered at run time."""
    from cardlab.sim.tournament import play_outcomes

    install(extra)
    return play_outcomes(tasks)


def import_ray() -> Any:
    """The ray module; a CardlabError naming the extra to install when it is missing."""
    try:
        import ray
    except ImportError as error:
        raise CardlabError(MISSING_RAY) from error
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
            from cardlab.sim.tournament import default_workers

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
    from ray.exceptions import RayTaskError

    from cardlab.sim.tournament import task_result

    cpus = connect_ray(workers, address)
    size = chunk_size(len(tasks), cpus)
    chunks = [tasks[start : start + size] for start in range(0, len(tasks), size)]
    remote = _remote_chunk()
    extra = ray.put(REGISTRY.extra())
    in_flight = 4 * cpus  # chunks submitted ahead of the one being read: every CPU busy, memory bounded
    # Chunks still in flight when the reader stops (an error, Ctrl-C) are left to finish and be freed,
    # not cancelled: cancelling a task as it completes can abort the driver (Ray 2.60, task_manager.cc).
    refs = [remote.remote(extra, chunk) for chunk in chunks[:in_flight]]
    for index in range(len(chunks)):
        if index + in_flight < len(chunks):
            refs.append(remote.remote(extra, chunks[index + in_flight]))
        try:
            results = ray.get(refs[index])
        except RayTaskError as error:
            cause = error.cause
            if isinstance(cause, BaseException) and not isinstance(cause, RayTaskError):
                raise cause from error
            raise
        refs[index] = None
        yield from map(task_result, chunks[index], results)

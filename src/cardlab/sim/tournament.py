"""Run many games across worker processes, with results independent of the worker count.

Every game is a `GameTask` carrying its own seed (derived from a master seed and the game's
index by the caller), so a task plays the same game in any process; results come back in task
order whatever the number of workers, and whatever plays them: this machine's process pool, or a
Ray cluster (`backend="ray"`, `cardlab.sim.backends`).
"""

from __future__ import annotations

import multiprocessing
import signal
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from multiprocessing import forkserver
from multiprocessing.context import BaseContext
from typing import overload

from cardlab.core.errors import CardlabError
from cardlab.games import REGISTRY, install
from cardlab.sim.backends import import_ray, play_chunks, run_ray, timed_outcomes
from cardlab.sim.interrupt import held, ignore_in_worker, wait_for
from cardlab.sim.tasks import GameTask, Outcome, TaskResult, default_workers, run_task

BACKENDS = ("process", "ray")
"""What plays the tasks: a process pool on this machine, or a Ray cluster (the `cluster` extra)."""


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
    context = _worker_context()
    pool = ProcessPoolExecutor(workers, context, initializer=_start_worker, initargs=(REGISTRY.extra(),))
    try:
        with held():
            yield from play_chunks(tasks, workers, lambda chunk: pool.submit(timed_outcomes, chunk), _outcomes)
    except BaseException:  # Ctrl-C, an error, or the reader stopped early
        _end_workers(pool)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _worker_context() -> BaseContext:
    """The forkserver context, its server started with SIGINT ignored: every worker it forks starts ignoring it
    (the server hands its children the disposition it was started with), so a Ctrl-C never reaches a worker,
    not even one still importing before its initializer runs (the pool starts workers as chunks are submitted;
    such a worker died of the KeyboardInterrupt and broke the pool). A Ctrl-C in the few milliseconds the
    server takes to start is lost (a blocked signal is not inherited: the spawn resets the mask)."""
    context = multiprocessing.get_context("forkserver")
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            forkserver.ensure_running()
        finally:
            signal.signal(signal.SIGINT, previous)
    return context


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
    # A worker ended while writing a result leaves half a message in the result pipe, and the pool's manager
    # thread then waits for the rest forever (this process hung at exit). The workers' copies of the pipe's
    # write end died with them; closing this process's own makes that read end (EOF), and the pool close.
    writer = getattr(getattr(pool, "_result_queue", None), "_writer", None)
    if writer is not None:
        writer.close()


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

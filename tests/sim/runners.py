"""Runners for tests of interrupted tables: the pool's games, then Ctrl-C."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from cardlab.sim.compare import Runner
from cardlab.sim.tasks import GameTask, TaskResult
from cardlab.sim.tournament import run_tasks


def stopped_after(results: int) -> Runner:
    """A runner that plays in one worker and raises KeyboardInterrupt after `results` games, as Ctrl-C does."""

    def run(tasks: Sequence[GameTask]) -> Iterator[TaskResult]:
        played = iter(run_tasks(tasks, workers=1))
        for _ in range(results):
            yield next(played)
        raise KeyboardInterrupt

    return run

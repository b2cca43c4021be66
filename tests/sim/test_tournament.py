"""Tournaments: per-game seeds make results independent of the worker count."""

from __future__ import annotations

from cardlab.core.rng import derive_seed
from cardlab.sim.tournament import GameTask, run_tasks


def _tasks(count: int) -> list[GameTask]:
    config = {"deck": "skills", "standard": "symbolic", "characters": None}
    return [GameTask("edelweiss", config, ("heuristic", "random") if i % 2 else ("random", "heuristic"),
                     derive_seed(99, i), {"index": i}) for i in range(count)]  # fmt: skip


def test_same_results_with_one_and_two_workers() -> None:
    tasks = _tasks(60)
    serial = [result.record for result in run_tasks(tasks, workers=1)]
    parallel = [result.record for result in run_tasks(tasks, workers=2)]
    assert serial == parallel
    assert len({tuple(record.actions) for record in serial}) > 50  # distinct games, not one repeated


def test_results_come_back_in_task_order_with_their_labels() -> None:
    tasks = _tasks(20)
    seen: list[int] = []
    results = list(run_tasks(tasks, workers=2, on_result=lambda result: seen.append(result.task.labels["index"])))
    assert [result.task.labels["index"] for result in results] == list(range(20))
    assert seen == list(range(20))
    assert all(result.record.seed == task.seed for result, task in zip(results, tasks, strict=True))

"""The Ray backend (the `cluster` extra) plays exactly the games the process pool plays, on a local
Ray instance started once for this module."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from cardlab.core.rng import derive_seed
from cardlab.games import REGISTRY, game_class
from cardlab.sim.tasks import GameTask, TaskResult
from cardlab.sim.tournament import run_tasks

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module", autouse=True)
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False)
    yield
    ray.shutdown()


def _tasks() -> list[GameTask]:
    edelweiss = {"deck": "skills", "standard": "symbolic", "characters": None}
    aterial = game_class("aterial")().config_json()
    tasks = [
        GameTask("edelweiss", edelweiss, ("heuristic", "random") if i % 2 else ("random", "heuristic"),
                 derive_seed(5, "e", i), {"index": i})
        for i in range(24)
    ] + [
        GameTask("aterial", aterial, ("random", "random"), derive_seed(5, "a", i), {"index": 24 + i})
        for i in range(16)
    ]  # fmt: skip
    return tasks


def _facts(results: list[TaskResult]) -> list[tuple[Any, ...]]:
    return [
        (r.task, r.record.winner, r.record.reason, r.record.actions, r.record.turns, r.record.seed, r.task.labels)
        for r in results
    ]


def test_the_same_records_as_the_process_pool() -> None:
    tasks = _tasks()
    on_ray = list(run_tasks(tasks, backend="ray"))
    assert [r.task for r in on_ray] == tasks
    serial = list(run_tasks(tasks, workers=1))
    assert [r.record for r in on_ray] == [r.record for r in serial]
    assert _facts(on_ray) == _facts(serial) == _facts(list(run_tasks(tasks, workers=2, backend="process")))
    assert len({tuple(r.record.actions) for r in on_ray}) > 35  # distinct games, not one repeated


def test_results_are_reported_in_task_order() -> None:
    tasks = _tasks()
    seen: list[int] = []
    results = list(run_tasks(tasks, backend="ray", on_result=lambda result: seen.append(result.task.labels["index"])))
    assert seen == [result.task.labels["index"] for result in results] == list(range(len(tasks)))


def test_an_error_in_a_task_is_raised_as_itself() -> None:
    tasks = [*_tasks()[:6], GameTask("no-such-game", {}, ("random", "random"), 1)]
    with pytest.raises(ValueError, match="unknown game 'no-such-game'") as raised:
        list(run_tasks(tasks, backend="ray"))
    assert type(raised.value) is ValueError
    with pytest.raises(ValueError, match="unknown game 'no-such-game'"):
        list(run_tasks(tasks, workers=2))


def test_a_game_registered_at_run_time_plays_on_ray_workers() -> None:
    REGISTRY.register("kuhn", "tests.toygame:Kuhn")
    try:
        tasks = [GameTask("kuhn", {}, ("heuristic", "random"), derive_seed(3, i), {"index": i}) for i in range(12)]
        on_ray = [result.record for result in run_tasks(tasks, backend="ray")]
        assert on_ray == [result.record for result in run_tasks(tasks, workers=1)]
        assert all(record.game == "kuhn" and record.winner is not None for record in on_ray)
    finally:
        REGISTRY.unregister("kuhn")

"""Tournaments: per-game seeds make results independent of the worker count."""

from __future__ import annotations

import random
import re
import subprocess
import sys

import pytest

from cardlab.core.errors import CardlabError
from cardlab.core.extras import install_hint
from cardlab.core.rng import derive_seed
from cardlab.sim.tasks import GameTask
from cardlab.sim.tournament import BACKENDS, TaskList, run_tasks
from tests.every_game import every_game, every_game_class


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


def test_a_task_list_makes_each_task_from_its_index_and_slices_like_a_list() -> None:
    tasks = _tasks(7)
    lazy = TaskList(7, tasks.__getitem__)
    assert len(lazy) == 7 and list(lazy) == tasks and lazy[-1] == tasks[-1]
    assert lazy[2:5] == tasks[2:5] and lazy[5:50] == tasks[5:]
    with pytest.raises(IndexError):
        lazy[7]


def test_the_pool_takes_tasks_as_it_sends_them_and_plays_them_as_a_list() -> None:
    """A long run's workers start before its last task is made; the games are the list's."""
    tasks, made = _tasks(400), []

    def make(index: int) -> GameTask:
        made.append(index)
        return tasks[index]

    results = run_tasks(TaskList(400, make), workers=2)
    first = next(results)
    assert first.task == tasks[0] and len(made) < 400  # the first result came before every task was made
    rest = [result.record for result in results]
    assert [first.record, *rest] == [result.record for result in run_tasks(tasks[:], workers=1)]


def test_the_backends_are_checked_when_called() -> None:
    assert BACKENDS == ("process", "ray")
    with pytest.raises(CardlabError, match="unknown backend 'dask'; backends: process, ray"):
        run_tasks(_tasks(2), backend="dask")
    with pytest.raises(CardlabError, match="for the ray backend only"):
        run_tasks(_tasks(2), address="ray://head:10001")


def test_the_ray_backend_without_the_cluster_extra_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now fails as if it were not installed
    expected = f"the ray backend needs the cluster extra: {install_hint('cluster')}"
    with pytest.raises(CardlabError, match=re.escape(expected)):
        run_tasks(_tasks(2), backend="ray")


def test_importing_the_tournament_does_not_import_ray() -> None:
    code = "import sys, cardlab.sim.tournament, cardlab.sim.backends; print('ray' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert done.stdout.strip() == "False"


@pytest.mark.parametrize("name", every_game())
def test_an_agent_choosing_from_the_legal_actions_alone_plays_the_same_game_without_an_infoset(name: str) -> None:
    """`chooser` (the random agent) is a shortcut of the match loop, not another player."""
    from cardlab.agents import RandomAgent
    from cardlab.core.game import InfoSet
    from cardlab.sim.match import play_match

    class ThroughInfoSet:
        spec = "random"

        def act(self, infoset: InfoSet, rng: random.Random) -> object:
            return RandomAgent().act(infoset, rng)

    game = every_game_class(name)()
    for seed in range(3):
        fast = play_match(game, (RandomAgent(), RandomAgent()), seed)
        slow = play_match(game, (ThroughInfoSet(), ThroughInfoSet()), seed)  # type: ignore[arg-type]
        assert (fast.actions, fast.winner, fast.turns) == (slow.actions, slow.winner, slow.turns), name


def test_a_tally_task_plays_the_same_game_without_keeping_its_actions() -> None:
    """`keep_actions=False` (simulate, ladder) changes what comes back, never which game is played."""
    from dataclasses import replace

    tasks = _tasks(40)
    full = [result.record for result in run_tasks(tasks, workers=1)]
    for workers in (1, 2):
        lean = [result.record for result in run_tasks([replace(t, keep_actions=False) for t in tasks], workers)]
        assert [r.actions for r in lean] == [[]] * len(tasks)
        assert [(r.winner, r.reason, r.turns, r.decisions) for r in lean] == [
            (r.winner, r.reason, r.turns, len(r.actions)) for r in full
        ]
        assert [r.seat_decisions for r in lean] == [r.seat_decisions for r in full]
        assert [(r.config, r.agents, r.seed) for r in lean] == [(r.config, r.agents, r.seed) for r in full]

"""Chunking: a chunk's games come back together, so chunks are sized by the time games take, not by count."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from cardlab.core.rng import derive_seed
from cardlab.sim.backends import CHUNK_SECONDS, chunk_size, play_chunks
from cardlab.sim.tasks import GameTask, Outcome, play_outcomes
from cardlab.sim.tournament import run_tasks


def _worker(seconds_per_task: float) -> Callable[[Sequence[GameTask]], tuple[float, list[Outcome]]]:
    """A fake worker's `timed_outcomes`: the real outcomes, reported as taking `seconds_per_task` each."""
    return lambda chunk: (seconds_per_task * len(chunk), play_outcomes(chunk))


def _tasks(count: int) -> list[GameTask]:
    config = {"deck": "skills", "standard": "symbolic", "characters": None}
    return [GameTask("edelweiss", config, ("random", "random"), derive_seed(5, i), {"index": i}) for i in range(count)]


def _chunk_sizes(seconds_per_task: float, tasks: list[GameTask]) -> list[int]:
    sizes: list[int] = []

    def submit(chunk: Sequence[GameTask]) -> Sequence[GameTask]:
        sizes.append(len(chunk))
        return chunk

    results = list(play_chunks(tasks, 2, submit, _worker(seconds_per_task)))
    assert [result.task for result in results] == tasks  # every task, once, in order
    return sizes


def test_games_that_take_minutes_are_sent_one_at_a_time() -> None:
    """Under search a game takes ~20 s: a 256-game chunk would hold its results (and Ctrl-C's) back for hours."""
    tasks = _tasks(600)
    assert chunk_size(len(tasks), 2) > 30  # what a count alone would send
    assert set(_chunk_sizes(20.0, tasks)) == {1}


def test_fast_games_grow_to_chunks_of_about_chunk_seconds() -> None:
    seconds_per_task = 0.05
    sizes = _chunk_sizes(seconds_per_task, _tasks(1000))
    assert sizes[:9] == [1] * 9  # nothing is known before the first results (4 chunks per worker ahead)
    assert set(sizes[9:-1]) == {round(CHUNK_SECONDS / seconds_per_task)}  # then chunks of CHUNK_SECONDS


def test_very_fast_games_are_capped_by_the_count_bound() -> None:
    tasks = _tasks(400)
    sizes = _chunk_sizes(1e-6, tasks)
    assert max(sizes) == chunk_size(len(tasks), 2)


def test_adaptive_chunks_give_the_same_games_as_one_worker() -> None:
    tasks = _tasks(120)
    assert [r.record for r in run_tasks(tasks, workers=2)] == [r.record for r in run_tasks(tasks, workers=1)]

"""One game to play and what comes back: the unit of work every way of running games shares.

A `GameTask` carries its own seed, so it plays the same game in any process; `run_task` plays it
(games and agents built once per process), and a worker sends back an `outcome`, which
`task_result` turns back into the full result. The process pool (`cardlab.sim.tournament`) and the
Ray backend (`cardlab.sim.backends`) both build on this module, so neither imports the other's
internals.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from cardlab.agents import Agent, make_agent
from cardlab.core.game import Game
from cardlab.games import game_class
from cardlab.sim.match import GameRecord, play_match


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

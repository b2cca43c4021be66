"""`cardlab simulate` as a library call: two agents head to head, each deal played twice with the seats
swapped, on the reference engine (tasks the caller runs, in any number of workers) or a compiled kernel
(two batches sharing their seed). The summary is what `cardlab simulate --json` prints."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache, partial
from typing import Any

from cardlab.core.errors import CardlabError
from cardlab.core.game import Game
from cardlab.core.rng import derive_seed
from cardlab.games import game_class
from cardlab.sim.headtohead import HeadToHead
from cardlab.sim.stats import wilson_interval
from cardlab.sim.tasks import GameTask, TaskResult, Track, no_progress
from cardlab.sim.tournament import TaskList, run_tasks

Runner = Callable[[Sequence[GameTask]], Iterable[TaskResult]]


def simulate(
    game: Game,
    agents: tuple[str, str],
    games: int,
    seed: int = 0,
    engine: str = "reference",
    run: Runner | None = None,
    track: Track = no_progress,
) -> dict[str, Any]:
    """Play `games` games of `agents[0]` against `agents[1]`; game 2k and 2k+1 share a deal with the seats
    swapped. `run` plays the reference engine's tasks (default: in this process); a kernel engine plays
    two batches, `track` hearing of their games as they finish."""
    from cardlab.sim.engines import kernel_run

    if games < 1:
        raise CardlabError("--games must be at least 1")
    config = game.config_json()
    start = time.perf_counter()
    tally = HeadToHead(agents, engine)
    if engine != "reference":  # each deal twice, seats swapped: both batches share their seed
        with track(f"{agents[0]} vs {agents[1]}", games) as advance:
            for order, count, swapped in ((agents, (games + 1) // 2, False), (agents[::-1], games // 2, True)):
                if count:
                    tally.add_kernel_run(kernel_run(game.name, config, order, count, seed, engine, advance=advance),
                                         swapped)  # fmt: skip
    else:
        seats, labels = (agents, agents[::-1]), ({"swapped": False}, {"swapped": True})
        deal_seed = lru_cache(maxsize=4)(partial(derive_seed, seed, "simulate"))

        def task(index: int) -> GameTask:
            odd = index % 2
            return GameTask(game.name, config, seats[odd], deal_seed(index // 2), labels[odd], keep_actions=False)

        for result in (run or partial(run_tasks, workers=1))(TaskList(games, task)):
            tally.add_record(result.record, result.task.labels["swapped"])
    elapsed = time.perf_counter() - start
    wins, first_wins, draws = tally.wins, tally.first_wins, tally.draws
    return {
        "game": game.name,
        "config": config,
        "agents": list(agents),
        "games": games,
        "seed": seed,
        "wins": wins,
        "win_rate": [w / games for w in wins],
        "ci95": [list(wilson_interval(w, games)) for w in wins],
        "seat_wins": {"P1": first_wins, "P2": games - first_wins - draws},
        "draws": draws,
        "first_player_win_rate": first_wins / games,
        "first_player_ci95": list(wilson_interval(first_wins, games)),
        "decisions": tally.decisions,
        "seconds": round(elapsed, 3),
        "games_per_second": round(games / elapsed, 1),
        "decision_ms": tally.decision_ms,
        "engine": engine,
    }


def print_simulation(summary: Mapping[str, Any], console: Any) -> None:
    """Each agent's wins with their 95% interval and decision cost, then the wins by seat and the speed."""
    from rich.table import Table

    from cardlab.sim.report import config_words, plus_minus

    cls, games = game_class(summary["game"]), summary["games"]
    table = Table(title=f"{cls.title}: {config_words(summary['config'])}\n{games} games, seats swapped per deal")
    for column in ("agent", "wins", "% ±95%", "ms/decision"):
        table.add_column(column, justify="left" if column == "agent" else "right", overflow="fold")
    for spec, won, ci, ms in zip(
        summary["agents"], summary["wins"], summary["ci95"], summary["decision_ms"], strict=True
    ):
        table.add_row(spec, str(won), plus_minus(won, games, ci), f"{ms:.4g}")
    console.print(table)
    # Where the first player is decided anew every turn, seats are only labels.
    fixed = cls.fixed_first_player
    p1, p2, seat = ("P1 (first)", "P2 (second)", "first player") if fixed else ("P1", "P2", "seat P1")
    per_second = summary["games_per_second"] * summary["decisions"] / games
    console.print(
        f"wins by seat: {p1} {summary['seat_wins']['P1']}, {p2} {summary['seat_wins']['P2']}; "
        f"{seat} wins {summary['first_player_win_rate']:.1%}; "
        f"{summary['games_per_second']} games/s, {per_second:,.0f} decisions/s"
    )

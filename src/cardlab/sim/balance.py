"""The Edelweiss balance table: every character pairing, both seats, with honest statistics.

Seats are swapped with common random numbers: for a pairing A-B, game i with A first and
game i with B first are dealt from the same seed, so deal luck cancels in the pair totals.
Mirror pairings (A-A) play independent deals per seat instead (swapping would replay the
same game). Game seeds derive from the master seed, the standard, the cell and the index,
so results do not depend on the number of workers, and re-runs continue the index sequence.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from cardlab.core.rng import derive_seed
from cardlab.games.edelweiss.cards import CHARACTER_IDS
from cardlab.sim.stats import (
    binomial_test_two_sided,
    bootstrap_bradley_terry,
    bradley_terry,
    first_player_advantage,
    holm_bonferroni,
    wilson_interval,
)
from cardlab.sim.tournament import GameTask, TaskResult
from cardlab.store.games_db import StoredGame

ALPHA = 0.05


@dataclass(frozen=True)
class BalanceSetup:
    standard: str
    agent: str
    games_per_cell: int
    seed: int = 0
    mirrors: bool = False

    @property
    def experiment(self) -> str:
        return f"balance/{self.standard}/{self.agent}/seed={self.seed}"


def pairings(mirrors: bool) -> list[tuple[str, str]]:
    """The 15 pairings in E9 order, then the 6 mirrors when asked for."""
    pairs = list(combinations(CHARACTER_IDS, 2))
    return pairs + [(char, char) for char in CHARACTER_IDS] if mirrors else pairs


def balance_tasks(setup: BalanceSetup, next_index: Callable[[str], int]) -> list[GameTask]:
    """`games_per_cell` new games per pairing and seat, continuing each cell's index sequence."""
    tasks = []
    for a, b in pairings(setup.mirrors):
        cell = f"{a}-{b}"
        start = next_index(cell)
        for index in range(start, start + setup.games_per_cell):
            for seat, (first, second) in enumerate(((a, b), (b, a))):
                labels = ("balance", setup.standard, cell, index) + ((seat,) if a == b else ())
                config = {"deck": "skills", "standard": setup.standard, "characters": {"P1": first, "P2": second}}
                tasks.append(
                    GameTask(
                        "edelweiss",
                        config,
                        (setup.agent, setup.agent),
                        derive_seed(setup.seed, *labels),
                        {"cell": cell, "index": index, "seat": seat, "p1": first, "p2": second},
                    )
                )
    return tasks


def stored_game(result: TaskResult, setup: BalanceSetup) -> StoredGame:
    labels, record = result.task.labels, result.record
    assert record.winner is not None
    return StoredGame(
        game="edelweiss",
        variant=setup.standard,
        agents=setup.agent,
        experiment=setup.experiment,
        cell=labels["cell"],
        game_index=labels["index"],
        seat=labels["seat"],
        p1=labels["p1"],
        p2=labels["p2"],
        seed=record.seed,
        winner=record.winner,
        reason=record.reason,
        turns=record.turns,
        decisions=record.decisions,
        actions=tuple(record.actions),
    )


def _rate(wins: int, games: int) -> dict[str, Any]:
    return {"wins": wins, "games": games, "ci95": list(wilson_interval(wins, games))}


def summarize(games: Iterable[StoredGame], standard: str, agent: str, bootstrap: int = 200) -> dict[str, Any]:
    """The balance report's numbers (the summary.json schema) from stored games."""
    games = list(games)
    cells: dict[tuple[str, str, int], list[int]] = {}
    for game in games:
        a, b = game.cell.split("-")
        wins_games = cells.setdefault((a, b, game.seat), [0, 0])
        first_named_won = (game.winner == 0) == (game.seat == 0)  # seat 0: a sits in P1
        wins_games[0] += first_named_won
        wins_games[1] += 1

    pair_list = [pair for pair in pairings(True) if any((pair[0], pair[1], s) in cells for s in (0, 1))]
    p_values: list[float] = []
    rows = []
    for a, b in pair_list:
        row: dict[str, Any] = {"a": a, "b": b}
        for seat, key in ((0, "a_first"), (1, "a_second")):
            wins, played = cells.get((a, b, seat), [0, 0])
            row[f"{key}_wins"], row[f"{key}_games"] = wins, played
            row[f"{key}_ci95"] = list(wilson_interval(wins, played))
            row[f"{key}_p_value"] = binomial_test_two_sided(wins, played)
            p_values.append(row[f"{key}_p_value"])
        rows.append(row)
    rejected = holm_bonferroni(p_values, ALPHA) if p_values else []
    significant = []
    for index, row in enumerate(rows):
        for offset, key in enumerate(("a_first", "a_second")):
            row[f"{key}_significant"] = rejected[2 * index + offset]
            if row[f"{key}_significant"]:
                significant.append(f"{row['a']} vs {row['b']} ({row['a']} {key.removeprefix('a_')})")

    duels = [game for game in games if game.p1 != game.p2]
    first_wins = sum(1 for game in duels if game.winner == 0)
    totals = {char: [0, 0] for char in CHARACTER_IDS}
    pairwise: dict[tuple[str, str], int] = {}
    outcomes = []
    for game in duels:
        winner, loser = (game.p1, game.p2) if game.winner == 0 else (game.p2, game.p1)
        totals[winner][0] += 1
        totals[winner][1] += 1
        totals[loser][1] += 1
        pairwise[(winner, loser)] = pairwise.get((winner, loser), 0) + 1
        outcomes.append((game.p1, game.p2, winner))
    players = [char for char in CHARACTER_IDS if totals[char][1]]
    strengths = bradley_terry(pairwise, players) if players else {}
    intervals = bootstrap_bradley_terry(outcomes, players, resamples=bootstrap) if players else {}

    return {
        "game": "edelweiss",
        "standard": standard,
        "agent": agent,
        "games_per_cell": min((played for _, played in cells.values()), default=0),
        "total_games": len(games),
        "pairings": [row for row in rows if row["a"] != row["b"]],
        "mirrors": [row for row in rows if row["a"] == row["b"]],
        "first_player": first_player_advantage(first_wins, len(duels)),
        "characters": {char: _rate(*totals[char]) for char in players},
        "bradley_terry": {char: {"strength": strengths[char], "ci95": list(intervals[char])} for char in players},
        "significance": {
            "test": "exact two-sided binomial test of each cell's win rate against 50%",
            "correction": f"Holm-Bonferroni over {len(p_values)} cells",
            "alpha": ALPHA,
            "significant_cells": significant,
        },
        "matrix": win_matrix(rows),
    }


def win_matrix(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Row character's win rate against the column character, both seats pooled (None: not played)."""
    index = {char: i for i, char in enumerate(CHARACTER_IDS)}
    rates: list[list[float | None]] = [[None] * len(CHARACTER_IDS) for _ in CHARACTER_IDS]
    for row in rows:
        wins = row["a_first_wins"] + row["a_second_wins"]
        played = row["a_first_games"] + row["a_second_games"]
        if not played:
            continue
        i, j = index[row["a"]], index[row["b"]]
        rates[i][j] = wins / played
        if i != j:
            rates[j][i] = 1 - wins / played
    return {"characters": list(CHARACTER_IDS), "win_rate": rates}

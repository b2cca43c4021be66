"""Balance tables: every pairing of a game's entrants, both seats, with honest statistics.

Entrants are what a designer balances, e.g. characters or deck-and-leader combinations
(each game's `Game.lab()` lists them). Seats are swapped with common random
numbers: for a pairing A-B, game i with A first and
game i with B first are dealt from the same seed, so deal luck cancels in the pair totals.
Mirror pairings (A-A) play independent deals per seat instead (swapping would replay the
same game). Game seeds derive from the master seed, the variant, the cell and the index,
so results do not depend on the number of workers, and re-runs continue the index sequence.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from cardlab.core.plugin import Matchups
from cardlab.core.rng import derive_seed
from cardlab.games import game_class
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
DRAW = -1
"""Stored as the winner of a drawn game (A15.5): it counts as a game for both, a win for neither."""


FALLBACK_AGENT = "heuristic"


def default_agent(matchups: Matchups) -> tuple[str, str | None]:
    """The agent a table is played by when none is named, and a note when it is not the strong one.

    The game's strong agent where it can run here (the compiled search needs the fast extra),
    else the heuristic, with a note saying what that table reflects.
    """
    from cardlab.agents import AgentSpecError, make_agent

    strong = matchups.strong_agent
    if strong is None:
        return FALLBACK_AGENT, None
    try:
        make_agent(strong, matchups.game)
    except AgentSpecError:
        note = (
            f"this table is played by the {FALLBACK_AGENT} agent, whose tables differ from strong play "
            f"(docs/balance.md); the default strong agent {strong} needs the fast extra: pip install -e '.[fast]'"
        )
        return FALLBACK_AGENT, note
    return strong, None


def matchups_for(game: str, variant: str | None) -> Matchups:
    """The game's own matchups (its `Game.lab()`); `variant` None means the game's default."""
    lab = game_class(game).lab()
    if lab is None:
        raise ValueError(f"no balance matchups for game {game!r}")
    return lab.matchups(variant)


@dataclass(frozen=True)
class BalanceSetup:
    matchups: Matchups
    agent: str
    games_per_cell: int
    seed: int = 0
    mirrors: bool = False

    @property
    def experiment(self) -> str:
        return f"balance/{self.matchups.game}/{self.matchups.variant}/{self.agent}/seed={self.seed}"


def pairings(entrants: Sequence[str], mirrors: bool) -> list[tuple[str, str]]:
    """Every pair in the entrants' order, then the mirrors when asked for."""
    pairs = list(combinations(entrants, 2))
    return pairs + [(entrant, entrant) for entrant in entrants] if mirrors else pairs


def balance_tasks(
    setup: BalanceSetup, next_index: Callable[[str], int], count: Callable[[str], int] | None = None
) -> list[GameTask]:
    """`games_per_cell` new games per pairing and seat, continuing each cell's index sequence.

    `count(cell)`, when given, replaces `games_per_cell` per cell (topping a table up to a level).
    """
    tasks = []
    m = setup.matchups
    for a, b in pairings(m.entrants, setup.mirrors):
        cell = f"{a}-{b}"
        new = setup.games_per_cell if count is None else count(cell)
        if new <= 0:
            continue
        start = next_index(cell)
        for index in range(start, start + new):
            for seat, (first, second) in enumerate(((a, b), (b, a))):
                labels = ("balance", m.variant, cell, index) + ((seat,) if a == b else ())
                tasks.append(
                    GameTask(
                        m.game,
                        m.config(first, second),
                        (setup.agent, setup.agent),
                        derive_seed(setup.seed, *labels),
                        {"cell": cell, "index": index, "seat": seat, "p1": first, "p2": second},
                    )
                )
    return tasks


def kernel_balance(
    setup: BalanceSetup,
    next_index: Callable[[str], int],
    engine: str = "cpu",
    count: Callable[[str], int] | None = None,
) -> list[StoredGame]:
    """The same table played by a compiled kernel (`--engine cpu|gpu`): per cell and seat one batch.

    Both seat orders of a pairing share the batch seed, so they share their deals; game i of a
    batch is the kernel's stream (seed, i - first index). Action lists are not kept. `count` as
    in `balance_tasks`.
    """
    from cardlab.sim.engines import kernel_games

    m = setup.matchups
    experiment = f"{setup.experiment}/engine={engine}"
    stored = []
    for a, b in pairings(m.entrants, setup.mirrors):
        cell = f"{a}-{b}"
        new = setup.games_per_cell if count is None else count(cell)
        if new <= 0:
            continue
        start = next_index(cell)
        for seat, (first, second) in enumerate(((a, b), (b, a))):
            labels = (f"balance-{engine}", m.variant, cell, start) + ((seat,) if a == b else ())
            seed = derive_seed(setup.seed, *labels)
            for i, game in enumerate(
                kernel_games(m.game, m.config(first, second), (setup.agent,) * 2, new, seed, engine)
            ):
                stored.append(
                    StoredGame(
                        game=m.game,
                        variant=m.variant,
                        agents=setup.agent,
                        experiment=experiment,
                        cell=cell,
                        game_index=start + i,
                        seat=seat,
                        p1=first,
                        p2=second,
                        seed=seed,
                        winner=game.winner,
                        reason=game.reason,
                        turns=game.turns,
                        decisions=game.decisions,
                        actions=(),
                    )
                )
    return stored


def stored_game(result: TaskResult, setup: BalanceSetup) -> StoredGame:
    labels, record = result.task.labels, result.record
    return StoredGame(
        game=setup.matchups.game,
        variant=setup.matchups.variant,
        agents=setup.agent,
        experiment=setup.experiment,
        cell=labels["cell"],
        game_index=labels["index"],
        seat=labels["seat"],
        p1=labels["p1"],
        p2=labels["p2"],
        seed=record.seed,
        winner=DRAW if record.winner is None else record.winner,
        reason=record.reason,
        turns=record.turns,
        decisions=record.decisions,
        actions=tuple(record.actions),
    )


def _rate(wins: int, games: int) -> dict[str, Any]:
    return {"wins": wins, "games": games, "ci95": list(wilson_interval(wins, games))}


def summarize(
    games: Iterable[StoredGame],
    matchups: Matchups,
    agent: str,
    bootstrap: int = 200,
    validation: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The balance report's numbers (the summary.json schema) from stored games.

    `validation` is the latest stored comparison of `agent` with another agent (see
    `cardlab.sim.compare.validation_for`), so a report says whether its agent's table was checked.
    """
    games = list(games)
    entrants = matchups.entrants
    cells: dict[tuple[str, str, int], list[int]] = {}  # (a, b, seat) -> [a's wins, games, draws]
    for game in games:
        a, b = game.cell.split("-")
        counts = cells.setdefault((a, b, game.seat), [0, 0, 0])
        counts[0] += game.winner == game.seat  # seat 0: a sits in P1; seat 1: a sits in P2
        counts[1] += 1
        counts[2] += game.winner == DRAW

    pair_list = [pair for pair in pairings(entrants, True) if any((*pair, seat) in cells for seat in (0, 1))]
    p_values: list[float] = []
    rows = []
    for a, b in pair_list:
        row: dict[str, Any] = {"a": a, "b": b, "draws": 0}
        for seat, key in ((0, "a_first"), (1, "a_second")):
            wins, played, draws = cells.get((a, b, seat), [0, 0, 0])
            row["draws"] += draws
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
    totals = {entrant: [0, 0] for entrant in entrants}
    pairwise: dict[tuple[str, str], int] = {}
    outcomes = []
    for game in duels:
        totals[game.p1][1] += 1
        totals[game.p2][1] += 1
        if game.winner == DRAW:
            continue
        winner, loser = (game.p1, game.p2) if game.winner == 0 else (game.p2, game.p1)
        totals[winner][0] += 1
        pairwise[(winner, loser)] = pairwise.get((winner, loser), 0) + 1
        outcomes.append((game.p1, game.p2, winner))
    players = [entrant for entrant in entrants if totals[entrant][1]]
    strengths = bradley_terry(pairwise, players) if players else {}
    intervals = bootstrap_bradley_terry(outcomes, players, resamples=bootstrap) if players else {}

    summary: dict[str, Any] = {"game": matchups.game, "variant": matchups.variant, **matchups.summary_fields}
    summary |= {
        "agent": agent,
        "games_per_cell": min((counts[1] for counts in cells.values()), default=0),
        "total_games": len(games),
        "draws": sum(1 for game in games if game.winner == DRAW),
        "kind": matchups.kind,
        "pairings": [row for row in rows if row["a"] != row["b"]],
        "mirrors": [row for row in rows if row["a"] == row["b"]],
        "first_player": first_player_advantage(first_wins, len(duels)),
        matchups.kind: {entrant: _rate(*totals[entrant]) for entrant in players},
        "bradley_terry": {e: {"strength": strengths[e], "ci95": list(intervals[e])} for e in players},
        "significance": {
            "test": "exact two-sided binomial test of each cell's win rate against 50%",
            "correction": f"Holm-Bonferroni over {len(p_values)} cells",
            "alpha": ALPHA,
            "significant_cells": significant,
        },
        "matrix": win_matrix(rows, entrants),
        "validation": validation,
    }
    return summary


def win_matrix(rows: Sequence[dict[str, Any]], entrants: Sequence[str]) -> dict[str, Any]:
    """Row entrant's win rate against the column entrant, both seats pooled (None: not played)."""
    index = {entrant: i for i, entrant in enumerate(entrants)}
    rates: list[list[float | None]] = [[None] * len(entrants) for _ in entrants]
    for row in rows:
        wins = row["a_first_wins"] + row["a_second_wins"]
        played = row["a_first_games"] + row["a_second_games"]
        if not played:
            continue
        i, j = index[row["a"]], index[row["b"]]
        rates[i][j] = wins / played
        if i != j:
            rates[j][i] = (played - wins - row["draws"]) / played
    return {"entrants": list(entrants), "win_rate": rates}

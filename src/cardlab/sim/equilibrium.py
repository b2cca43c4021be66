"""The metagame of a balance table: the Nash mix of its entrants, with bootstrap intervals, and its 3-cycles.

A win-rate table says who beats whom; a designer also asks which entrants a field that adapts would keep
playing. That is the equilibrium of the symmetric zero-sum game whose payoff for i against j is i's
seat-averaged score against j minus 1/2 (a draw scores half, so the payoffs stay zero-sum; mirrors 0).
Its mix comes from a linear program; its uncertainty from resampling every cell and seat's wins.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

import numpy as np
import numpy.typing as npt
from scipy.optimize import linprog

from cardlab.core.rng import derive_seed
from cardlab.sim.stats import wilson_interval

__all__ = ["RESAMPLES", "SUPPORT_EPSILON", "SHOWN_SUPPORT", "cycles", "equilibrium", "nash_mix", "payoff_matrix"]

FloatArray = npt.NDArray[np.float64]

RESAMPLES = 200
"""Bootstrap resamples of the table: enough for 95% percentile intervals of the weights to settle to ~0.01."""
SUPPORT_EPSILON = 1e-6
"""A weight above this counts as in the mix: the LP's vertices put exact zeros elsewhere, up to rounding."""
SHOWN_SUPPORT = 0.05
"""A report lists an entrant whose support probability reaches this (or whose point weight is positive)."""
METHOD = (
    "Nash equilibrium of the symmetric zero-sum game with payoff = seat-averaged score of row vs column - 0.5 "
    "(draws score 0.5, mirrors 0), by linear programming (scipy.optimize.linprog, HiGHS); 95% percentile "
    f"intervals and support probabilities from {RESAMPLES} parametric bootstrap resamples (each cell and seat's "
    "wins binomial with its observed rate and games); cycles: A beats B beats C beats A, where beats means "
    "the pooled win rate's 95% Wilson interval lies above 50%"
)


def nash_mix(payoff: FloatArray) -> tuple[FloatArray, float]:
    """The row player's maximin mix of a zero-sum game and its value: maximise v subject to x'A >= v for
    every column, x >= 0, sum x = 1. A symmetric game's value is 0, so `value` checks the solve."""
    size = payoff.shape[0]
    objective = np.zeros(size + 1)
    objective[-1] = -1.0  # linprog minimises: -v
    upper = np.hstack([-payoff.T, np.ones((size, 1))])  # v - sum_i x_i A_ij <= 0 for each column j
    equal = np.append(np.ones(size), 0.0)[None, :]
    bounds = [(0.0, None)] * size + [(None, None)]
    result = linprog(objective, A_ub=upper, b_ub=np.zeros(size), A_eq=equal, b_eq=[1.0], bounds=bounds, method="highs")
    if not result.success:
        raise RuntimeError(f"the equilibrium LP failed: {result.message}")
    mix = np.clip(result.x[:size], 0.0, None)
    return mix / mix.sum(), float(result.x[-1])


def _cells(summary: Mapping[str, Any], players: Sequence[str]) -> list[tuple[int, int, list[tuple[int, int]], int]]:
    """Per played pairing of two distinct players: (i, j, [(i's wins, games) per seat], draws)."""
    index = {player: i for i, player in enumerate(players)}
    cells = []
    for row in summary["pairings"]:
        if row["a"] in index and row["b"] in index and row["a"] != row["b"]:
            seats = [(row[f"{key}_wins"], row[f"{key}_games"]) for key in ("a_first", "a_second")]
            if any(games for _, games in seats):
                cells.append((index[row["a"]], index[row["b"]], seats, row["draws"]))
    return cells


def _score(seat_wins: Sequence[float], seat_games: Sequence[int], draws: int) -> float:
    """Seat-averaged win rate plus half the draw rate: what one side scores in a pairing."""
    rates = [wins / games for wins, games in zip(seat_wins, seat_games, strict=True) if games]
    return min(1.0, sum(rates) / len(rates) + draws / (2 * sum(seat_games)))


def payoff_matrix(summary: Mapping[str, Any], players: Sequence[str]) -> FloatArray:
    """The game's payoffs from a balance summary (an unplayed pairing counts as even)."""
    matrix = np.zeros((len(players), len(players)))
    for i, j, seats, draws in _cells(summary, players):
        value = _score([w for w, _ in seats], [g for _, g in seats], draws) - 0.5
        matrix[i, j], matrix[j, i] = value, -value
    return matrix


def _resampled(summary: Mapping[str, Any], players: Sequence[str], rng: np.random.Generator) -> FloatArray:
    """One parametric-bootstrap payoff matrix: each cell and seat's wins drawn anew, its draws kept."""
    matrix = np.zeros((len(players), len(players)))
    for i, j, seats, draws in _cells(summary, players):
        wins = [rng.binomial(games, wins / games) if games else 0 for wins, games in seats]
        value = _score(wins, [g for _, g in seats], draws) - 0.5
        matrix[i, j], matrix[j, i] = value, -value
    return matrix


def beats(summary: Mapping[str, Any], players: Sequence[str]) -> npt.NDArray[np.bool_]:
    """beats[i, j]: i's win rate against j, both seats pooled, has a 95% Wilson interval above 50% (the
    heatmap's outlined cells above 50%): a verdict claims no more than its interval."""
    result = np.zeros((len(players), len(players)), dtype=bool)
    for i, j, seats, draws in _cells(summary, players):
        wins, games = sum(w for w, _ in seats), sum(g for _, g in seats)
        result[i, j] = wilson_interval(wins, games)[0] > 0.5
        result[j, i] = wilson_interval(games - wins - draws, games)[0] > 0.5
    return result


def cycles(summary: Mapping[str, Any], players: Sequence[str]) -> list[list[str]]:
    """Every 3-cycle A beats B beats C beats A, each once, led by its entrant first in the table's order."""
    edge = beats(summary, players)
    found = []
    for a, b, c in combinations(range(len(players)), 3):
        for x, y, z in ((a, b, c), (a, c, b)):
            if edge[x, y] and edge[y, z] and edge[z, x]:
                found.append([players[x], players[y], players[z]])
    return found


def equilibrium(summary: Mapping[str, Any], resamples: int = RESAMPLES, seed: int | None = None) -> dict[str, Any]:
    """The summary.json `equilibrium` section of a balance summary (see docs/balance.md, "The metagame").

    The entrants are those that played another; the bootstrap is seeded from the table (game, variant,
    agent) unless `seed` is given, so `balance` and `report` of the same games agree exactly.
    """
    players = list(summary[summary["kind"]])
    if seed is None:
        seed = derive_seed(0, "equilibrium", summary["game"], summary["variant"], summary["agent"])
    section: dict[str, Any] = {"weights": {}, "value_ci95": [0.0, 0.0], "cycles": [], "resamples": resamples}
    section["method"] = METHOD
    if not players:
        return section
    weights, _ = nash_mix(payoff_matrix(summary, players))
    rng = np.random.default_rng(seed)
    samples = np.empty((resamples, len(players)))
    values = np.empty(resamples)
    for r in range(resamples):
        samples[r], values[r] = nash_mix(_resampled(summary, players, rng))
    low, high = np.quantile(samples, [0.025, 0.975], axis=0)
    support = (samples > SUPPORT_EPSILON).mean(axis=0)
    section["weights"] = {
        player: {
            "weight": float(weights[i]) + 0.0,  # + 0.0: no -0.0 in the JSON
            "ci95": [float(low[i]) + 0.0, float(high[i]) + 0.0],
            "support_probability": float(support[i]),
        }
        for i, player in enumerate(players)
    }
    section["value_ci95"] = [float(v) + 0.0 for v in np.quantile(values, [0.025, 0.975])]
    section["cycles"] = cycles(summary, players)
    return section


def shown(section: Mapping[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The entrants a report lists, heaviest first: in the mix, or in it in at least 5% of resamples."""
    rows = [
        (entrant, w)
        for entrant, w in section["weights"].items()
        if w["weight"] > SUPPORT_EPSILON or w["support_probability"] >= SHOWN_SUPPORT
    ]
    return sorted(rows, key=lambda row: (-row[1]["weight"], -row[1]["support_probability"]))


def cycles_line(section: Mapping[str, Any], limit: int = 10) -> str:
    """The cycles in words: each as `A > B > C > A`, or why none is claimed."""
    found = section["cycles"]
    if not found:
        return (
            "no cycle: no three entrants where each beats the next with a 95% interval above 50% "
            "(A beats B beats C beats A)"
        )
    listed = "; ".join(" > ".join([*cycle, cycle[0]]) for cycle in found[:limit])
    more = f"; and {len(found) - limit} more" if len(found) > limit else ""
    count = f"{len(found)} cycle{'s' if len(found) != 1 else ''}"
    return f"{count} (each beats the next, 95% interval above 50%): {listed}{more}"

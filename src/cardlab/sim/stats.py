"""Statistics for the balance lab: win-rate intervals, exact tests, multiple testing and Bradley-Terry ratings.

Everything here is deterministic (the bootstrap takes an explicit seed) so that lab reports replay exactly.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from statistics import NormalDist
from typing import TypedDict

import numpy as np
import numpy.typing as npt

__all__ = [
    "BT_PSEUDO_WINS",
    "FirstPlayerAdvantage",
    "binomial_test_two_sided",
    "bootstrap_bradley_terry",
    "bootstrap_bradley_terry_counts",
    "bradley_terry",
    "first_player_advantage",
    "games_to_decide",
    "holm_adjusted",
    "holm_bonferroni",
    "newcombe_interval",
    "two_proportion_z_test",
    "wilson_interval",
]

FloatArray = npt.NDArray[np.float64]

# scipy.stats.binomtest treats outcomes within this relative factor of the observed probability as "as likely".
_BINOM_RELATIVE_TOLERANCE = 1 + 1e-7
# A tail sum stops once the rest of the tail is provably below this fraction of what has been summed.
_TAIL_EPSILON = 1e-18
# Pseudo-wins added each way for every pair that met, so that unbeaten or winless players keep a finite MLE.
BT_PSEUDO_WINS = 0.5
# The bootstrap refits from the point estimate, so a looser tolerance than the point fit is plenty.
_BOOTSTRAP_ITERATIONS = 2_000
_BOOTSTRAP_TOL = 1e-8


def _check_counts(wins: int, games: int) -> None:
    if not 0 <= wins <= games:
        raise ValueError(f"need 0 <= wins <= games, got wins={wins}, games={games}")


def wilson_interval(wins: int, games: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a win rate: well-behaved near 0 and 1 and for small samples, unlike Wald."""
    _check_counts(wins, games)
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    if games == 0:
        return 0.0, 1.0
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    rate = wins / games
    z2n = z * z / games
    centre = (rate + z2n / 2) / (1 + z2n)
    half = z / (1 + z2n) * math.sqrt(rate * (1 - rate) / games + z2n / (4 * games))
    # At 0 or all wins the matching bound is exactly 0 or 1; the formula would only round near it.
    return (0.0 if wins == 0 else centre - half), (1.0 if wins == games else centre + half)


def newcombe_interval(
    wins_a: int, games_a: int, wins_b: int, games_b: int, confidence: float = 0.95
) -> tuple[float, float]:
    """Interval for rate_b - rate_a: Newcombe's (1998, method 10) hybrid score interval from two Wilson intervals.

    It inherits Wilson's good behaviour near 0 and 1 and at small samples, where the Wald interval for a
    difference collapses (e.g. to a point at 0/n vs 0/n). Both samples need at least one game.
    """
    if games_a < 1 or games_b < 1:
        raise ValueError(f"need at least one game in each sample, got {games_a} and {games_b}")
    rate_a, rate_b = wins_a / games_a, wins_b / games_b
    low_a, high_a = wilson_interval(wins_a, games_a, confidence)
    low_b, high_b = wilson_interval(wins_b, games_b, confidence)
    diff = rate_b - rate_a
    low = diff - math.sqrt((rate_b - low_b) ** 2 + (high_a - rate_a) ** 2)
    high = diff + math.sqrt((high_b - rate_b) ** 2 + (rate_a - low_a) ** 2)
    return max(-1.0, low), min(1.0, high)


def two_proportion_z_test(wins_a: int, games_a: int, wins_b: int, games_b: int) -> float:
    """Two-sided p-value of the pooled two-proportion z-test of rate_a == rate_b (the chi-square test on a 2x2 table).

    Asymptotic, like the Newcombe interval it is reported with; with no spread in the pooled data (all wins or
    none) the rates are equal and the p-value is 1.
    """
    _check_counts(wins_a, games_a)
    _check_counts(wins_b, games_b)
    if games_a < 1 or games_b < 1:
        raise ValueError(f"need at least one game in each sample, got {games_a} and {games_b}")
    pooled = (wins_a + wins_b) / (games_a + games_b)
    variance = pooled * (1 - pooled) * (1 / games_a + 1 / games_b)
    if variance <= 0:
        return 1.0
    z = (wins_b / games_b - wins_a / games_a) / math.sqrt(variance)
    return min(1.0, 2 * NormalDist().cdf(-abs(z)))


def detectable_difference(games_a: int, games_b: int, tests: int = 1, alpha: float = 0.05) -> float:
    """The smallest difference of two rates (as a fraction) that `two_proportion_z_test` can flag with
    `games_a` and `games_b` games, tested among `tests` cells with Holm-Bonferroni at `alpha`.

    It is the test's critical difference at even odds (both rates near 50%, where the pooled variance
    is largest): `z(1 - alpha / (2 tests)) * sqrt(0.25 (1/games_a + 1/games_b))`, the bound of Holm's
    first and strictest step. No cell whose rates differ by less can be flagged; one that differs by
    exactly this much is flagged about half the time (for 80% power add z(0.8) = 0.84 to z).
    """
    if games_a < 1 or games_b < 1:
        raise ValueError(f"need at least one game in each sample, got {games_a} and {games_b}")
    if tests < 1:
        raise ValueError(f"need at least one test, got {tests}")
    z = NormalDist().inv_cdf(1 - alpha / (2 * tests))
    return z * math.sqrt(0.25 * (1 / games_a + 1 / games_b))


def games_to_decide(games: int, half_width: float, distance: float) -> int | None:
    """Games at which an interval `half_width` wide on one side at `games` would shrink to `distance` (a
    Wilson or Wald interval's half-width scales as 1/sqrt(n)), so that it no longer reaches across a
    threshold that far from the estimate; None when the estimate sits on the threshold (no size decides)."""
    if distance <= 0:
        return None
    return max(games + 1, math.ceil(games * (half_width / distance) ** 2))


def _binom_log_pmf(games: int, p: float) -> Callable[[int], float]:
    """Log pmf of Binomial(games, p) via lgamma, so huge `games` neither overflows nor underflows."""
    log_norm = math.lgamma(games + 1)
    log_p, log_q = math.log(p), math.log1p(-p)
    return lambda k: log_norm - math.lgamma(k + 1) - math.lgamma(games - k + 1) + k * log_p + (games - k) * log_q


def _tail_sum(log_pmf: Callable[[int], float], start: int, stop: int, step: int) -> float:
    """Sum pmf(start), pmf(start + step), ... up to (excluding) stop, walking away from the mode.

    Binomial pmfs are log-concave, so successive ratios only shrink as we walk outwards and the unsummed rest
    is bounded by a geometric series; that lets us stop after O(sqrt(games)) terms instead of touching all of them.
    """
    if start == stop:
        return 0.0
    ref = log_pmf(start)
    total, current = 1.0, 0.0  # terms scaled by exp(-ref): the stopping test works even if the tail underflows
    for k in range(start + step, stop, step):
        following = log_pmf(k) - ref
        term = math.exp(following)
        ratio = math.exp(following - current)
        if ratio < 1 and term / (1 - ratio) < _TAIL_EPSILON * total:
            break
        total += term
        current = following
    return math.exp(ref) * total


def _last_above(log_pmf: Callable[[int], float], threshold: float, lo: int, hi: int, step: int) -> int:
    """Walking from `lo` towards `hi` (where log_pmf is non-increasing), the last k with log_pmf(k) > threshold.

    Returns lo - step when there is none.
    """
    before, after = lo - step, hi + step  # invariant: log_pmf(before) > threshold >= log_pmf(after)
    while abs(after - before) > 1:
        mid = (before + after) // 2
        if log_pmf(mid) > threshold:
            before = mid
        else:
            after = mid
    return before


def binomial_test_two_sided(wins: int, games: int, p: float = 0.5) -> float:
    """Exact two-sided binomial test p-value, as in scipy.stats.binomtest (no scipy dependency).

    Sums the probabilities of all outcomes no more likely than the observed one (within a relative
    tolerance of 1e-7) in log space: no overflow, and ~1e-9 relative accuracy even at a million games.
    """
    _check_counts(wins, games)
    if not 0 < p < 1:
        raise ValueError(f"p must be in (0, 1), got {p}")
    if games == 0:
        return 1.0
    log_pmf = _binom_log_pmf(games, p)
    threshold = log_pmf(wins) + math.log(_BINOM_RELATIVE_TOLERANCE)
    mean = games * p
    if wins == mean:
        return 1.0
    if wins < mean:
        # Everything at or below `wins` is at most as likely; on the far side, count from where pmf drops below.
        near = _tail_sum(log_pmf, wins, -1, -1)
        edge = _last_above(log_pmf, threshold, math.ceil(mean), games, 1)
        far = _tail_sum(log_pmf, edge + 1, games + 1, 1)
    else:
        near = _tail_sum(log_pmf, wins, games + 1, 1)
        edge = _last_above(log_pmf, threshold, math.floor(mean), 0, -1)
        far = _tail_sum(log_pmf, edge - 1, -1, -1)
    return min(1.0, near + far)


def _check_p_values(p_values: Sequence[float]) -> None:
    if any(not 0 <= value <= 1 for value in p_values):
        raise ValueError("p-values must lie in [0, 1]")


def holm_bonferroni(p_values: Sequence[float], alpha: float = 0.05) -> list[bool]:
    """Holm's step-down rejections (input order): controls family-wise error like Bonferroni, with more power."""
    _check_p_values(p_values)
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    count = len(p_values)
    rejected = [False] * count
    for rank, index in enumerate(sorted(range(count), key=lambda i: p_values[i])):
        if p_values[index] > alpha / (count - rank):
            break
        rejected[index] = True
    return rejected


def holm_adjusted(p_values: Sequence[float]) -> list[float]:
    """Holm-adjusted p-values (input order), so a report can show each comparison against any alpha."""
    _check_p_values(p_values)
    count = len(p_values)
    adjusted = [0.0] * count
    running = 0.0
    for rank, index in enumerate(sorted(range(count), key=lambda i: p_values[i])):
        running = max(running, min(1.0, (count - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted


def _components(games: FloatArray) -> npt.NDArray[np.intp]:
    """Connected-component label of each player in the graph of pairs that met."""
    size = games.shape[0]
    labels = np.full(size, -1, dtype=np.intp)
    for root in range(size):
        if labels[root] >= 0:
            continue
        labels[root] = root
        frontier = [root]
        while frontier:
            neighbours = np.flatnonzero((games[frontier].sum(axis=0) > 0) & (labels < 0))
            labels[neighbours] = root
            frontier = neighbours.tolist()
    return labels


def _fit_bt(wins: FloatArray, start: FloatArray, iterations: int, tol: float) -> FloatArray:
    """Hunter's (2004) MM iteration on a raw win matrix; returns strengths with each component's geometric mean 1.

    Pairs that met get BT_PSEUDO_WINS each way, which makes every component strongly connected, so the
    MLE exists and the iteration converges. Players with no games get strength 1: no evidence either way.
    Components are normalised separately because strengths in different components are not comparable.
    """
    games = wins + wins.T
    met = games > 0
    prior_wins = wins + BT_PSEUDO_WINS * met
    pair_games = prior_wins + prior_wins.T
    total_wins = prior_wins.sum(axis=1)
    played = met.any(axis=1)
    labels = _components(games)
    sizes = np.bincount(labels, minlength=len(labels))

    def normalised(log_strengths: FloatArray) -> FloatArray:
        sums = np.bincount(labels, weights=log_strengths, minlength=len(labels))
        return log_strengths - sums[labels] / sizes[labels]

    log_strengths = normalised(np.log(start))
    for _ in range(iterations):
        strengths = np.exp(log_strengths)
        denominators = (pair_games / (strengths[:, None] + strengths[None, :])).sum(axis=1)
        updated = normalised(np.log(np.where(played, total_wins, 1.0) / np.where(played, denominators, 1.0)))
        change = np.max(np.abs(updated - log_strengths), initial=0.0)
        log_strengths = updated
        if change < tol:
            break
    return np.exp(log_strengths)


def _player_index(players: Sequence[str]) -> dict[str, int]:
    index = {player: i for i, player in enumerate(players)}
    if len(index) != len(players):
        raise ValueError("players must be distinct")
    return index


def bradley_terry(
    wins: Mapping[tuple[str, str], int],
    players: Sequence[str],
    iterations: int = 10_000,
    tol: float = 1e-10,
) -> dict[str, float]:
    """Maximum-likelihood Bradley-Terry strengths (P(a beats b) = s_a / (s_a + s_b)), geometric mean 1.

    `wins[(a, b)]` counts games a beat b; missing pairs count 0. Every pair that played at least once gets
    BT_PSEUDO_WINS (0.5) extra wins each way, so a player who never won (or never lost) still gets a finite
    strength; a player with no games gets 1.0. Stops when no log-strength moves by more than `tol`.
    """
    index = _player_index(players)
    matrix = np.zeros((len(players), len(players)))
    for (winner, loser), count in wins.items():
        if winner not in index or loser not in index or winner == loser:
            raise ValueError(f"bad pair {(winner, loser)!r}: need two distinct known players")
        if count < 0:
            raise ValueError(f"negative win count for {(winner, loser)!r}")
        matrix[index[winner], index[loser]] += count
    strengths = _fit_bt(matrix, np.ones(len(players)), iterations, tol)
    return dict(zip(players, strengths.tolist(), strict=True))


def bootstrap_bradley_terry(
    games: Sequence[tuple[str, str, str]],
    players: Sequence[str],
    resamples: int = 200,
    seed: int = 0,
    confidence: float = 0.95,
) -> dict[str, tuple[float, float]]:
    """Percentile-bootstrap intervals for Bradley-Terry strengths, resampling whole games with replacement.

    `games` holds (a, b, winner) with winner in (a, b); see `bootstrap_bradley_terry_counts`.
    """
    index = _player_index(players)
    wins: dict[tuple[str, str], int] = {}
    for a, b, winner in games:
        if a not in index or b not in index or a == b or winner not in (a, b):
            raise ValueError(f"bad game {(a, b, winner)!r}")
        key = (winner, b if winner == a else a)
        wins[key] = wins.get(key, 0) + 1
    return bootstrap_bradley_terry_counts(wins, players, resamples, seed, confidence)


def bootstrap_bradley_terry_counts(
    wins: Mapping[tuple[str, str], int],
    players: Sequence[str],
    resamples: int = 200,
    seed: int = 0,
    confidence: float = 0.95,
) -> dict[str, tuple[float, float]]:
    """Percentile-bootstrap intervals for Bradley-Terry strengths from (winner, loser) -> games.

    Resampling n games with replacement is drawing the counts of each (winner, loser) outcome from a
    multinomial with the observed shares, so the cost does not grow with the number of games. Each
    resample is refitted (warm-started from the full-data fit, with a looser tolerance) under the same
    conventions as `bradley_terry`.
    """
    if resamples < 1:
        raise ValueError("resamples must be at least 1")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    index = _player_index(players)
    size = len(players)
    observed = np.zeros(size * size, dtype=np.int64)
    for (winner, loser), count in wins.items():
        if winner not in index or loser not in index or winner == loser or count < 0:
            raise ValueError(f"bad outcome {(winner, loser)!r}: {count}")
        observed[index[winner] * size + index[loser]] += count
    total = int(observed.sum())
    if not total:
        return {player: (1.0, 1.0) for player in players}
    start = _fit_bt(observed.reshape(size, size).astype(float), np.ones(size), _BOOTSTRAP_ITERATIONS, _BOOTSTRAP_TOL)
    rng = np.random.default_rng(seed)
    shares = observed / total
    samples = np.empty((resamples, size))
    for r in range(resamples):
        resampled = rng.multinomial(total, shares).reshape(size, size).astype(float)
        samples[r] = _fit_bt(resampled, start, _BOOTSTRAP_ITERATIONS, _BOOTSTRAP_TOL)
    tail = (1 - confidence) / 2
    low, high = np.quantile(samples, [tail, 1 - tail], axis=0)
    return {player: (float(low[i]), float(high[i])) for i, player in enumerate(players)}


class FirstPlayerAdvantage(TypedDict):
    """JSON-ready summary of how often the player moving first wins."""

    wins: int
    games: int
    rate: float
    ci95: list[float]
    p_value: float


def first_player_advantage(first_wins: int, games: int) -> FirstPlayerAdvantage:
    """Summarise first-player wins: rate (0.0 with no games, to stay JSON-safe), Wilson 95% CI, exact test vs 1/2."""
    _check_counts(first_wins, games)
    return {
        "wins": first_wins,
        "games": games,
        "rate": first_wins / games if games else 0.0,
        "ci95": list(wilson_interval(first_wins, games)),
        "p_value": binomial_test_two_sided(first_wins, games),
    }

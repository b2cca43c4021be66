"""The lab's statistics agree with known values, independent oracles and the defining equations."""

from __future__ import annotations

import json
import math
import time
from fractions import Fraction
from itertools import pairwise
from statistics import NormalDist

import numpy as np
import pytest

from cardlab.sim.stats import (
    BT_PSEUDO_WINS,
    binomial_test_two_sided,
    bootstrap_bradley_terry,
    bradley_terry,
    detectable_difference,
    first_player_advantage,
    holm_adjusted,
    holm_bonferroni,
    newcombe_interval,
    two_proportion_z_test,
    wilson_interval,
)

Games = list[tuple[str, str, str]]


def simulate_games(strengths: dict[str, float], count: int, seed: int) -> Games:
    """Games between uniformly drawn distinct pairs, won with Bradley-Terry probabilities."""
    names = list(strengths)
    values = np.array([strengths[name] for name in names])
    rng = np.random.default_rng(seed)
    first = rng.integers(0, len(names), size=count)
    second = (first + rng.integers(1, len(names), size=count)) % len(names)
    first_wins = rng.random(count) < values[first] / (values[first] + values[second])
    return [
        (names[a], names[b], names[a] if won else names[b])
        for a, b, won in zip(first.tolist(), second.tolist(), first_wins.tolist(), strict=True)
    ]


def win_counts(games: Games) -> dict[tuple[str, str], int]:
    counts: dict[tuple[str, str], int] = {}
    for a, b, winner in games:
        pair = (winner, b if winner == a else a)
        counts[pair] = counts.get(pair, 0) + 1
    return counts


# --- Wilson interval ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("wins", "games", "expected"),
    [
        (5, 10, (0.2366, 0.7634)),
        (0, 10, (0.0, 0.2775)),
        # By hand: the roots in p of (81/263 - p)^2 = z^2 p (1 - p) / 263 with z = 1.959964.
        (81, 263, (0.2553, 0.3662)),
    ],
)
def test_wilson_known_values(wins: int, games: int, expected: tuple[float, float]) -> None:
    low, high = wilson_interval(wins, games)
    assert low == pytest.approx(expected[0], abs=5e-5)
    assert high == pytest.approx(expected[1], abs=5e-5)


def test_wilson_bounds_solve_the_score_equation() -> None:
    z = NormalDist().inv_cdf(0.995)
    rate = 81 / 263
    for bound in wilson_interval(81, 263, confidence=0.99):
        assert (rate - bound) ** 2 == pytest.approx(z * z * bound * (1 - bound) / 263, rel=1e-12)


def test_wilson_edges_and_symmetry() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(10, 10)[1] == 1.0
    low, high = wilson_interval(3, 17)
    mirror_low, mirror_high = wilson_interval(14, 17)
    assert low == pytest.approx(1 - mirror_high, abs=1e-15)
    assert high == pytest.approx(1 - mirror_low, abs=1e-15)


def test_wilson_widens_with_confidence() -> None:
    narrow = wilson_interval(40, 100, confidence=0.8)
    wide = wilson_interval(40, 100, confidence=0.99)
    assert wide[0] < narrow[0] < 0.4 < narrow[1] < wide[1]


@pytest.mark.parametrize(("wins", "games", "confidence"), [(-1, 10, 0.95), (11, 10, 0.95), (5, 10, 1.0)])
def test_wilson_rejects_bad_input(wins: int, games: int, confidence: float) -> None:
    with pytest.raises(ValueError):
        wilson_interval(wins, games, confidence)


# --- exact binomial test -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("wins", "games", "p", "expected"),
    [
        (5, 10, 0.5, 1.0),
        (0, 10, 0.5, 2 * 0.5**10),
        (10, 10, 0.5, 2 * 0.5**10),
        (0, 1000, 0.5, 2 * 0.5**1000),
        # scipy.stats.binomtest(wins, games, p).pvalue (scipy 1.17.1), computed outside this project:
        (3, 15, 0.1, 0.18406106910639106),
        (7, 20, 0.3, 0.6294979666766769),
        (60, 100, 0.5, 0.05688793364098089),
        (81, 263, 0.25, 0.03260397861373861),
        (520, 1000, 0.5, 0.2174482932041415),
    ],
)
def test_binomial_known_values(wins: int, games: int, p: float, expected: float) -> None:
    assert binomial_test_two_sided(wins, games, p) == pytest.approx(expected, rel=1e-9, abs=1e-9 * (expected > 1e-6))


def exact_binomial_p_value(wins: int, games: int, p: Fraction) -> Fraction:
    """Brute-force oracle in exact rationals: all outcomes at most (1 + 1e-7) times as likely as the observed."""
    pmf = [math.comb(games, k) * p**k * (1 - p) ** (games - k) for k in range(games + 1)]
    threshold = pmf[wins] * (1 + Fraction(1, 10**7))
    return min(Fraction(1), sum(value for value in pmf if value <= threshold))


@pytest.mark.parametrize("games", [1, 2, 7, 20, 33])
@pytest.mark.parametrize("p", [Fraction(1, 2), Fraction(3, 10), Fraction(1, 20), Fraction(4, 5)])
def test_binomial_matches_exact_rational_oracle(games: int, p: Fraction) -> None:
    for wins in range(games + 1):
        expected = float(exact_binomial_p_value(wins, games, p))
        assert binomial_test_two_sided(wins, games, float(p)) == pytest.approx(expected, rel=1e-10, abs=1e-12)


def test_binomial_large_samples_stay_finite_and_symmetric() -> None:
    million = 10**6
    assert binomial_test_two_sided(million // 2, million) == 1.0
    low, high = binomial_test_two_sided(499_000, million), binomial_test_two_sided(501_000, million)
    assert low == pytest.approx(high, rel=1e-12)
    # scipy.stats.binomtest(501_000, 10**6).pvalue; lgamma limits agreement to ~1e-9 at this size.
    assert high == pytest.approx(0.0456082998653896, rel=1e-8)
    assert binomial_test_two_sided(0, million) == 0.0  # 2 * 0.5**1e6 underflows, as it does in scipy


def test_binomial_edges_and_bad_input() -> None:
    assert binomial_test_two_sided(0, 0) == 1.0
    assert binomial_test_two_sided(3, 10, 0.3) == 1.0
    with pytest.raises(ValueError):
        binomial_test_two_sided(3, 10, 1.0)
    with pytest.raises(ValueError):
        binomial_test_two_sided(11, 10)


# --- Holm --------------------------------------------------------------------------------------------------


def test_holm_textbook_example() -> None:
    # Sorted: 0.005 <= 0.05/4 and 0.01 <= 0.05/3 are rejected; 0.03 > 0.05/2 stops the procedure.
    p_values = [0.01, 0.04, 0.03, 0.005]
    assert holm_bonferroni(p_values) == [True, False, False, True]
    # Adjusted: 4 * 0.005, 3 * 0.01, 2 * 0.03, then max(0.06, 1 * 0.04) keeps them monotone.
    assert holm_adjusted(p_values) == pytest.approx([0.03, 0.06, 0.06, 0.02])


def test_holm_stops_at_first_acceptance() -> None:
    # 0.04 would pass its own threshold (0.05 / 1), but 0.02 > 0.05 / 3 already stopped the step-down.
    assert holm_bonferroni([0.02, 0.03, 0.04]) == [False, False, False]
    assert holm_bonferroni([0.02, 0.03, 0.04], alpha=0.1) == [True, True, True]


def test_holm_adjusted_is_monotone_and_capped() -> None:
    assert holm_adjusted([0.02, 0.6, 0.3]) == pytest.approx([0.06, 0.6, 0.6])
    assert holm_adjusted([0.4, 0.5, 0.45]) == [1.0, 1.0, 1.0]
    assert holm_adjusted([]) == []
    assert holm_bonferroni([]) == []


def test_holm_rejections_agree_with_adjusted_p_values() -> None:
    rng = np.random.default_rng(7)
    for _ in range(200):
        p_values = (rng.random(rng.integers(1, 12)) ** 3).tolist()
        adjusted = holm_adjusted(p_values)
        assert holm_bonferroni(p_values) == [value <= 0.05 for value in adjusted]
        ordered = sorted(zip(p_values, adjusted, strict=True))
        assert all(a <= b for (_, a), (_, b) in pairwise(ordered))


def test_holm_rejects_bad_input() -> None:
    with pytest.raises(ValueError):
        holm_bonferroni([0.5, 1.5])
    with pytest.raises(ValueError):
        holm_adjusted([-0.1])


# --- Bradley-Terry -----------------------------------------------------------------------------------------


def test_bradley_terry_two_players_closed_form() -> None:
    strengths = bradley_terry({("a", "b"): 30, ("b", "a"): 10}, ["a", "b"])
    assert strengths["a"] / strengths["b"] == pytest.approx(30.5 / 10.5, rel=1e-9)
    assert strengths["a"] * strengths["b"] == pytest.approx(1.0, rel=1e-12)


def test_bradley_terry_three_players_satisfy_score_equations() -> None:
    players = ["a", "b", "c"]
    wins = {("a", "b"): 20, ("b", "a"): 5, ("b", "c"): 15, ("c", "b"): 8, ("a", "c"): 25, ("c", "a"): 3}
    strengths = bradley_terry(wins, players)
    assert strengths["a"] > strengths["b"] > strengths["c"]
    assert sum(math.log(value) for value in strengths.values()) == pytest.approx(0.0, abs=1e-12)
    for me in players:
        observed = sum(wins[(me, other)] + BT_PSEUDO_WINS for other in players if other != me)
        expected = sum(
            (wins[(me, other)] + wins[(other, me)] + 2 * BT_PSEUDO_WINS)
            * strengths[me]
            / (strengths[me] + strengths[other])
            for other in players
            if other != me
        )
        assert observed == pytest.approx(expected, abs=1e-6)


def test_bradley_terry_recovers_generating_strengths() -> None:
    truth = {"weak": 1.0, "mid": 2.0, "strong": 4.0}
    strengths = bradley_terry(win_counts(simulate_games(truth, 20_000, seed=11)), list(truth))
    assert strengths["mid"] / strengths["weak"] == pytest.approx(2.0, rel=0.05)
    assert strengths["strong"] / strengths["mid"] == pytest.approx(2.0, rel=0.05)


def test_bradley_terry_unbeaten_and_idle_players_stay_finite() -> None:
    strengths = bradley_terry({("a", "b"): 10}, ["a", "b", "idle"])
    assert strengths["a"] / strengths["b"] == pytest.approx(10.5 / 0.5, rel=1e-8)
    assert strengths["idle"] == 1.0
    assert all(math.isfinite(value) and value > 0 for value in strengths.values())


def test_bradley_terry_normalises_each_component() -> None:
    strengths = bradley_terry({("a", "b"): 9, ("b", "a"): 3, ("c", "d"): 1, ("d", "c"): 4}, ["a", "b", "c", "d"])
    assert strengths["a"] * strengths["b"] == pytest.approx(1.0, rel=1e-12)
    assert strengths["c"] * strengths["d"] == pytest.approx(1.0, rel=1e-12)
    assert strengths["d"] / strengths["c"] == pytest.approx(4.5 / 1.5, rel=1e-8)


def test_bradley_terry_without_games_is_neutral() -> None:
    assert bradley_terry({}, ["a", "b"]) == {"a": 1.0, "b": 1.0}


@pytest.mark.parametrize(
    ("wins", "players"),
    [({("a", "a"): 1}, ["a", "b"]), ({("a", "z"): 1}, ["a", "b"]), ({("a", "b"): -1}, ["a", "b"]), ({}, ["a", "a"])],
)
def test_bradley_terry_rejects_bad_input(wins: dict[tuple[str, str], int], players: list[str]) -> None:
    with pytest.raises(ValueError):
        bradley_terry(wins, players)


# --- bootstrap ---------------------------------------------------------------------------------------------

TRUTH = {"weak": 1.0, "mid": 2.0, "strong": 4.0}


def test_bootstrap_contains_point_estimate_and_orders_players() -> None:
    games = simulate_games(TRUTH, 3_000, seed=3)
    point = bradley_terry(win_counts(games), list(TRUTH))
    intervals = bootstrap_bradley_terry(games, list(TRUTH), resamples=200, seed=1)
    for player, (low, high) in intervals.items():
        assert low < point[player] < high
    assert intervals["weak"][1] < intervals["mid"][0]
    assert intervals["mid"][1] < intervals["strong"][0]


def test_bootstrap_shrinks_with_more_games() -> None:
    few = bootstrap_bradley_terry(simulate_games(TRUTH, 1_000, seed=5), list(TRUTH), resamples=100)
    many = bootstrap_bradley_terry(simulate_games(TRUTH, 16_000, seed=5), list(TRUTH), resamples=100)
    for player in TRUTH:
        few_width = few[player][1] - few[player][0]
        many_width = many[player][1] - many[player][0]
        assert many_width < 0.5 * few_width


def test_bootstrap_is_deterministic_per_seed() -> None:
    games = simulate_games(TRUTH, 500, seed=9)
    first = bootstrap_bradley_terry(games, list(TRUTH), resamples=50, seed=42)
    assert bootstrap_bradley_terry(games, list(TRUTH), resamples=50, seed=42) == first
    assert bootstrap_bradley_terry(games, list(TRUTH), resamples=50, seed=43) != first


def test_bootstrap_lower_confidence_nests_inside() -> None:
    games = simulate_games(TRUTH, 2_000, seed=2)
    wide = bootstrap_bradley_terry(games, list(TRUTH), confidence=0.95)
    narrow = bootstrap_bradley_terry(games, list(TRUTH), confidence=0.5)
    for player in TRUTH:
        assert wide[player][0] < narrow[player][0] < narrow[player][1] < wide[player][1]


def test_bootstrap_is_fast_enough_for_lab_reports() -> None:
    truth = {f"p{i}": value for i, value in enumerate([1.0, 1.5, 2.0, 3.0, 4.0, 6.0])}
    games = simulate_games(truth, 10_000, seed=0)
    started = time.perf_counter()
    intervals = bootstrap_bradley_terry(games, list(truth), resamples=200)
    assert time.perf_counter() - started < 5.0
    assert intervals["p0"][1] < intervals["p5"][0]


def test_bootstrap_edges_and_bad_input() -> None:
    assert bootstrap_bradley_terry([], ["a", "b"]) == {"a": (1.0, 1.0), "b": (1.0, 1.0)}
    with pytest.raises(ValueError):
        bootstrap_bradley_terry([("a", "b", "c")], ["a", "b", "c"])
    with pytest.raises(ValueError):
        bootstrap_bradley_terry([("a", "b", "a")], ["a", "b"], resamples=0)


# --- first-player advantage --------------------------------------------------------------------------------


def test_first_player_advantage_report() -> None:
    report = first_player_advantage(60, 100)
    assert report["wins"] == 60
    assert report["games"] == 100
    assert report["rate"] == 0.6
    assert report["ci95"] == list(wilson_interval(60, 100))
    assert report["p_value"] == pytest.approx(0.05688793364098089, rel=1e-9)
    assert json.loads(json.dumps(report)) == report


def test_first_player_advantage_without_games() -> None:
    assert first_player_advantage(0, 0) == {"wins": 0, "games": 0, "rate": 0.0, "ci95": [0.0, 1.0], "p_value": 1.0}


def test_newcombe_interval_is_built_from_both_wilson_intervals() -> None:
    """Newcombe (1998) method 10, example (a): 56/70 vs 48/80 gives 0.0524 to 0.3339 for the difference; each
    bound takes the near arm of one Wilson interval and the far arm of the other."""
    assert newcombe_interval(48, 80, 56, 70) == pytest.approx((0.0524, 0.3339), abs=1e-4)
    low_a, high_a = wilson_interval(48, 80)
    low_b, high_b = wilson_interval(56, 70)
    diff = 56 / 70 - 48 / 80
    assert newcombe_interval(48, 80, 56, 70) == pytest.approx(
        (diff - math.hypot(56 / 70 - low_b, high_a - 48 / 80), diff + math.hypot(high_b - 56 / 70, 48 / 80 - low_a))
    )


def test_two_proportion_z_test_is_two_sided() -> None:
    """15/50 vs 25/50: pooled 0.4, z = 0.2 / sqrt(0.4 * 0.6 * 2 / 50) = 2.0412, p = 2 (1 - Phi(z)) = 0.0412."""
    z = 0.2 / math.sqrt(0.4 * 0.6 * 2 / 50)
    assert two_proportion_z_test(15, 50, 25, 50) == pytest.approx(2 * (1 - NormalDist().cdf(z)))
    assert two_proportion_z_test(15, 50, 25, 50) == pytest.approx(0.04123, abs=1e-5)


def test_detectable_difference_grows_with_the_number_of_tests() -> None:
    """The Bonferroni bound of Holm's first step: z(1 - alpha / (2 tests)) * sqrt(0.25 (1/n_a + 1/n_b))."""
    one = detectable_difference(40, 40)
    thirty = detectable_difference(40, 40, tests=30)
    assert one == pytest.approx(NormalDist().inv_cdf(0.975) * math.sqrt(0.25 * 2 / 40))
    assert thirty == pytest.approx(NormalDist().inv_cdf(1 - 0.05 / 60) * math.sqrt(0.25 * 2 / 40))
    assert thirty > one

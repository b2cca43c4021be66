"""The JAX Edelweiss kernel plays exactly the numba kernel's and the reference engine's game.

All with fixed seeds (deterministic), on whatever device JAX picks (CPU in CI):

1. Step level. `POSITIONS` reference positions are reached by random play over every
   configuration (full, short, and the skills deck with all 36 character pairs under both
   standards, as in `test_edelweiss_cpu`). Their numba rows are stacked into one batch and
   `CONTINUATION_STEPS` random actions are applied through the vmapped `step`, the numba
   `apply_action` and the reference `apply` in lockstep. After every step: the JAX row equals the
   numba row slot for slot, the JAX legal mask equals the reference legal set, `to_position` of the
   JAX row equals the reference position, and at every decision (two or more legal actions) the
   JAX heuristic picks what `heuristic.choose` picks. An illegal action leaves a row unchanged.
   Attack-window positions are also turned into the next turn's draw step and advanced by JAX
   (E3.2 draw, E6.2 deck-out), against the numba loader.
2. Distribution level. One mixed batch of random-vs-random games per configuration (full, short,
   skills under Symbolic and Accel 2, random characters; 2,500 each by default, `JAX_GAMES` in the
   `slow` variant) against `NUMBA_GAMES` numba games each: first-player win rate by a
   two-proportion z-test; win-reason mix, game length (turns) and decisions by chi-square tests of
   homogeneity (sparse bins merged, every expected count >= 5). A smaller heuristic-vs-random batch
   checks the heuristic policy inside `play_one`. Each test must not reject at alpha = 0.001.
   The step-level comparison with numba alone runs 8,000 positions by default, 100,000 when slow.
3. Determinism: the same seed gives the same games; another seed gives others.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np
import pytest

jax = pytest.importorskip("jax")
pytest.importorskip("numba")

import jax.numpy as jnp  # noqa: E402

from cardlab.fast import edelweiss_cpu as k  # noqa: E402
from cardlab.fast import edelweiss_jax as kj  # noqa: E402
from cardlab.games.edelweiss import EdelweissAction, EdelweissConfig  # noqa: E402
from cardlab.games.edelweiss.heuristic import choose  # noqa: E402
from tests.fast.test_edelweiss_cpu import (  # noqa: E402
    homogeneity_p,
    pick,
    random_start,
    ref_legal,
    two_proportion_p,
)

POSITIONS = 300
CONTINUATION_STEPS = 10
JAX_GAMES = 10_000
"""Random-vs-random JAX games per configuration in the full (`slow`) run; the default run plays `CI_JAX_GAMES`."""
CI_JAX_GAMES = 2_500
NUMBA_GAMES = 200_000
HEURISTIC_SIZES = [
    pytest.param((1_000, 20_000), id="ci"),
    pytest.param((2_500, 50_000), id="slow", marks=pytest.mark.slow),
]
"""(JAX games, numba games) per configuration of the heuristic-vs-random check: default run, `slow` run."""
ALPHA = 0.001
DISTRIBUTION_CONFIGS = {
    "full": EdelweissConfig("full"),
    "short": EdelweissConfig("short"),
    "symbolic": EdelweissConfig("skills", "symbolic"),
    "accel2": EdelweissConfig("skills", "accel2"),
}
TURN_LIMITS = {"full": 45, "short": 29, "symbolic": 27, "accel2": 27}  # E6.3


@pytest.fixture(scope="module")
def batched() -> dict[str, Any]:
    """The row-level API, jitted and vmapped once for the module."""
    return {
        "step": jax.jit(jax.vmap(kj.step)),
        "legal": jax.jit(jax.vmap(kj.legal_mask)),
        "heuristic": jax.jit(jax.vmap(kj.heuristic_action)),
        "advance": jax.jit(jax.vmap(kj.advance)),
    }


# -- 1. step level ------------------------------------------------------------------------------


def test_step_level_sameness_with_numba_and_reference(batched: dict[str, Any]) -> None:
    rng = random.Random(20251207)
    states = [random_start(index, rng, long_games=index % 2 == 1) for index in range(POSITIONS)]
    rows = np.stack([k.from_position(state.position(), validate=False) for state in states])
    jax_rows = jnp.asarray(rows[:, : k.CORE_SIZE])
    windows: Counter[str] = Counter()
    decisions = 0
    for step in range(CONTINUATION_STEPS + 1):
        got_rows = np.asarray(jax_rows)
        masks = np.asarray(batched["legal"](jax_rows))
        choices = np.asarray(batched["heuristic"](jax_rows))
        actions, illegal = [], []
        for index, state in enumerate(states):
            where = f"position {index}, step {step}"
            assert np.array_equal(got_rows[index], rows[index][: k.CORE_SIZE]), where
            legal = ref_legal(state)
            assert np.flatnonzero(masks[index]).tolist() == legal, where
            position = state.position()
            assert k.to_position(got_rows[index]) == position, where
            windows[position["window"]] += 1
            if len(legal) >= 2:
                assert choices[index] == int(choose(state, rng)), where
                decisions += 1
            illegal.append(next(a for a in range(k.N_ACTIONS) if a not in legal))
            action = pick(legal, rng, long_games=index % 2 == 1) if legal else 0  # over: any action is a no-op
            actions.append(action)
            if legal and step < CONTINUATION_STEPS:
                state.apply(EdelweissAction(action))
                assert k.apply_action(rows[index], action), where
        if step == CONTINUATION_STEPS:
            break
        unchanged = batched["step"](jax_rows, jnp.asarray(illegal, dtype=jnp.int32))
        assert np.array_equal(np.asarray(unchanged), got_rows), f"illegal actions at step {step}"
        jax_rows = batched["step"](jax_rows, jnp.asarray(actions, dtype=jnp.int32))
    assert set(windows) == {"main", "special_summon", "attack", "intercept", "defense", "counter", "pursuit", "over"}
    assert decisions > 3 * POSITIONS  # heuristic compared at over a thousand decisions


def test_draw_step_and_deck_out_match_the_numba_loader(batched: dict[str, Any]) -> None:
    """Attack-window positions moved to the next turn's draw step: JAX `advance` vs numba `from_position`."""
    rng = random.Random(4)
    raw, expected, deck_outs = [], [], 0
    index = 0
    while len(raw) < 120:
        state = random_start(index, rng, long_games=True)
        index += 1
        position = state.position()
        if position["window"] != "attack":
            continue
        row = k.from_position(position, validate=False)
        row[k.TURN] += 1
        row[k.TURN_PLAYER] = 1 - row[k.TURN_PLAYER]
        row[k.WINDOW] = k.W_DRAW
        variant = dict(position, turn=row[k.TURN].item(), turn_player=("P1", "P2")[row[k.TURN_PLAYER]], window="draw")
        raw.append(row)
        expected.append(k.from_position(variant))
        deck_outs += row[k.DECK_LEN] == 0
    got = np.asarray(batched["advance"](jnp.asarray(np.stack(raw)[:, : k.CORE_SIZE])))
    for index, row in enumerate(expected):
        assert np.array_equal(got[index], row[: k.CORE_SIZE]), f"draw variant {index}"
    assert deck_outs > 0


def test_deal_gives_a_valid_opening_position() -> None:
    """E1: a dealt row converts to a position the reference loader accepts, with the right sizes."""
    deal = jax.jit(jax.vmap(kj.deal, in_axes=(0, None)))
    for name, config in DISTRIBUTION_CONFIGS.items():
        rows = np.asarray(deal(jax.random.split(jax.random.key(1), 8), kj.config_array(config)))
        for row in rows:
            position = k.to_position(row)
            k.from_position(position)  # validates through the reference loader
            cards = len(position["deck"]) + sum(
                len(seat["hand"]) + len(seat["field"]) for seat in position["players"].values()
            )
            assert cards == k.DECK_SIZE_OF_KIND[row[k.DECK_KIND]], name
            assert np.flatnonzero(np.asarray(kj.legal_mask(row))).size >= 2, name


# -- 2. distribution level ----------------------------------------------------------------------


def _mixed_batch(policy_p1: str, policy_p2: str, per_config: int, seed: int) -> dict[str, tuple[np.ndarray, ...]]:
    """One JAX call over all `DISTRIBUTION_CONFIGS` (configs are traced: a single compilation)."""
    codes = jnp.concatenate(
        [jnp.broadcast_to(kj.config_array(config), (per_config, 4)) for config in DISTRIBUTION_CONFIGS.values()]
    )
    keys = jax.random.split(jax.random.key(seed), codes.shape[0])
    results = [np.asarray(values) for values in kj.play_codes(keys, codes, policy_p1, policy_p2)]
    return {
        name: tuple(values[i * per_config : (i + 1) * per_config] for values in results)
        for i, name in enumerate(DISTRIBUTION_CONFIGS)
    }


@pytest.fixture(
    scope="module",
    params=[pytest.param(CI_JAX_GAMES, id="ci"), pytest.param(JAX_GAMES, id="slow", marks=pytest.mark.slow)],
)
def random_games(request: pytest.FixtureRequest) -> dict[str, tuple[np.ndarray, ...]]:
    return _mixed_batch("random", "random", request.param, seed=21)


def _assert_same_distribution(jax_games: tuple[np.ndarray, ...], numba_games: tuple[np.ndarray, ...]) -> None:
    winner, reason, turns, decisions = jax_games
    n_winner, n_reason, n_turns, n_decisions = numba_games
    p_first = two_proportion_p(int((winner == 0).sum()), len(winner), int((n_winner == 0).sum()), len(n_winner))
    assert p_first >= ALPHA, f"P1 win rate {(winner == 0).mean():.4f} vs numba {(n_winner == 0).mean():.4f}"
    for label, mine, theirs in (
        ("reason", reason, n_reason),
        ("turns", turns, n_turns),
        ("decisions", decisions, n_decisions),
    ):
        p = homogeneity_p(Counter(mine.tolist()), Counter(theirs.tolist()))
        assert p >= ALPHA, f"{label}: p = {p:.2g}"


@pytest.mark.parametrize("name", list(DISTRIBUTION_CONFIGS))
def test_random_games_have_the_numba_distribution(name: str, random_games: dict[str, tuple[np.ndarray, ...]]) -> None:
    numba_games = k.play_config(DISTRIBUTION_CONFIGS[name], "random", "random", NUMBA_GAMES, seed=22)
    _assert_same_distribution(random_games[name], numba_games)
    winner, reason, turns, _ = random_games[name]
    assert set(winner.tolist()) <= {0, 1} and set(reason.tolist()) <= {0, 1}
    assert turns.min() >= 1 and turns.max() <= TURN_LIMITS[name]  # E6.3


@pytest.mark.parametrize("sizes", HEURISTIC_SIZES)
def test_heuristic_vs_random_games_have_the_numba_distribution(sizes: tuple[int, int]) -> None:
    jax_games, numba_count = sizes
    games = _mixed_batch("heuristic", "random", jax_games, seed=23)
    for name, config in DISTRIBUTION_CONFIGS.items():
        numba_games = k.play_config(config, "heuristic", "random", numba_count, seed=24)
        _assert_same_distribution(games[name], numba_games)
        assert (games[name][0] == 0).mean() > 0.6, name  # the heuristic really plays P1


# -- 3. determinism -----------------------------------------------------------------------------


def test_play_batch_is_deterministic_per_seed() -> None:
    config = DISTRIBUTION_CONFIGS["accel2"]
    first = kj.play_batch(config, "random", "heuristic", 256, seed=5)
    again = kj.play_batch(config, "random", "heuristic", 256, seed=5)
    other = kj.play_batch(config, "random", "heuristic", 256, seed=6)
    for one, two in zip(first, again, strict=True):
        assert np.array_equal(one, two)
    assert any(not np.array_equal(one, two) for one, two in zip(first, other, strict=True))
    assert [values.dtype for values in first] == [np.int8, np.int8, np.int16, np.int32]


JAX_NUMBA_POSITIONS = 100_000
"""Positions for the large (`slow`) step-level comparison with the numba kernel (itself proven equal to the
reference); the default run compares `CI_JAX_NUMBA_POSITIONS`."""
CI_JAX_NUMBA_POSITIONS = 8_000


@pytest.mark.parametrize(
    "positions",
    [
        pytest.param(CI_JAX_NUMBA_POSITIONS, id="ci"),
        pytest.param(JAX_NUMBA_POSITIONS, id="slow", marks=pytest.mark.slow),
    ],
)
def test_step_level_sameness_with_numba_on_many_positions(batched: dict[str, Any], positions: int) -> None:
    """Positions (100,000 in the `slow` run) dealt and played on by the numba kernel over every deck and
    standard (random characters); five more random steps in both kernels must give identical rows and
    legal masks after every step."""
    rng = np.random.default_rng(2024)
    kinds = [(0, 0), (1, 0), (2, 1), (2, 2)]  # full, short, skills x Symbolic / Accel 2
    rows = np.zeros((positions, k.ROW_SIZE), dtype=np.int64)
    streams = [k.game_rng(77, i) for i in range(positions)]
    for i in range(positions):
        deck_kind, standard = kinds[i % 4]
        row = k.new_row()
        k.deal(row, deck_kind, standard, np.array([-1, -1], dtype=np.int64), streams[i])
        for _ in range(int(rng.integers(0, 40))):
            if k.current_player(row) < 0:
                break
            k.apply_action(row, k.random_action(row, streams[i]))
        rows[i] = row
    assert len({int(r[k.WINDOW]) for r in rows}) >= 8  # every window is represented
    for _ in range(5):
        actions = np.array(
            [k.random_action(r, s) if k.current_player(r) >= 0 else 0 for r, s in zip(rows, streams, strict=True)],
            dtype=np.int32,
        )
        jax_rows = np.asarray(batched["step"](jnp.asarray(rows[:, : k.CORE_SIZE]), jnp.asarray(actions)))
        for row, action in zip(rows, actions, strict=True):
            if k.current_player(row) >= 0:
                k.apply_action(row, int(action))
        np.testing.assert_array_equal(jax_rows, rows[:, : k.CORE_SIZE])
        numba_masks = np.array([k.legal_mask(r) for r in rows])
        np.testing.assert_array_equal(np.asarray(batched["legal"](jnp.asarray(rows[:, : k.CORE_SIZE]))), numba_masks)

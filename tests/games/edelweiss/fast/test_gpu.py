"""The JAX Edelweiss kernel plays exactly the numba kernel's and the reference engine's game.

All with fixed seeds (deterministic), on whatever device JAX picks (CPU in CI):

1. Step level. `POSITIONS` reference positions are reached by random play over every
   configuration (full, short, and the skills deck with all 36 character pairs under both
   standards, as in `test_cpu`). Their numba rows are stacked into one batch and
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
4. Rule options (`test_cpu.RULE_CONFIGS`): the lockstep of 1 over every rule config (with
   states where a field-guard rule changes the defense and boards just before a deck-out), draw steps
   (turn 1 under first_draw, deck-outs under deck_out_tie) against the numba loader, the JAX deal's
   zone sizes, heuristic games' distribution with draws against numba, and the lab's gpu engine; each
   counts the situations the rules change and requires them.
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

from cardlab.games.edelweiss import (  # noqa: E402
    Edelweiss,
    EdelweissAction,
    EdelweissConfig,
)
from cardlab.games.edelweiss.cards import Window  # noqa: E402
from cardlab.games.edelweiss.fast import cpu as k  # noqa: E402
from cardlab.games.edelweiss.fast import gpu as kj  # noqa: E402
from cardlab.games.edelweiss.heuristic import choose  # noqa: E402
from tests.games.edelweiss.fast.test_cpu import (  # noqa: E402
    RULE_CONFIGS,
    draw_variant,
    guard_rule_changes_play,
    homogeneity_p,
    kernel_turn_limit,
    pick,
    random_start,
    ref_legal,
    turn_one_draw_variant,
    two_proportion_p,
    walk,
    without_rules,
)

pytestmark = pytest.mark.xdist_group("edelweiss-jax")
"""One worker runs the whole file (`--dist loadgroup`): the jitted functions and the module's batches are
compiled and played once per process, so spreading the file over workers would compile them twice."""

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
    counts = lockstep(batched, states, [index % 2 == 1 for index in range(POSITIONS)], rng)
    windows = {window for window in counts if window in {str(w) for w in Window}}
    assert windows == {"main", "special_summon", "attack", "intercept", "defense", "counter", "pursuit", "over"}
    assert counts["decisions"] > 3 * POSITIONS  # heuristic compared at over a thousand decisions


def lockstep(batched: dict[str, Any], states: list[Any], long_games: list[bool], rng: random.Random) -> Counter[str]:
    """`CONTINUATION_STEPS` random steps through the vmapped JAX `step`, the numba `apply_action` and the
    reference `apply`, compared after every step (rows, masks, positions, heuristic choices). Returns
    the windows seen, the decisions compared, and the rule situations met: field guards a rule adds
    (played half the time) or removes at a defense window (against the same position without rules),
    and drawn deck-outs."""
    rows = np.stack([k.from_position(state.position(), validate=False) for state in states])
    rows_at_start = rows.copy()
    jax_rows = jnp.asarray(rows[:, : k.CORE_SIZE])
    counts: Counter[str] = Counter()
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
            counts[position["window"]] += 1
            if len(legal) >= 2:
                assert choices[index] == int(choose(state, rng)), where
                counts["decisions"] += 1
            illegal.append(next(a for a in range(k.N_ACTIONS) if a not in legal))
            added: list[int] = []
            if state.window == Window.DEFENSE and state.game.config.rules:  # E8.1 under the field-guard rules
                default = set(ref_legal(state.game.load_position(without_rules(position))))
                added = sorted(set(legal) - default)
                counts["field_guard_added"] += bool(added)
                counts["field_guard_removed"] += bool(default - set(legal))
            if added and rng.random() < 0.5:
                action = rng.choice(added)
                counts["field_guard_played"] += 1
            else:  # over: any action is a no-op
                action = pick(legal, rng, long_games=long_games[index]) if legal else 0
            actions.append(action)
            if legal and step < CONTINUATION_STEPS:
                state.apply(EdelweissAction(action))
                assert k.apply_action(rows[index], action), where
        if step == CONTINUATION_STEPS:
            break
        unchanged = batched["step"](jax_rows, jnp.asarray(illegal, dtype=jnp.int32))
        assert np.array_equal(np.asarray(unchanged), got_rows), f"illegal actions at step {step}"
        jax_rows = batched["step"](jax_rows, jnp.asarray(actions, dtype=jnp.int32))
    final = np.asarray(jax_rows)
    drawn = (final[:, k.WINDOW] == k.W_OVER) & (final[:, k.WINNER] == -1)
    counts["tie_draw"] = int((drawn & (rows_at_start[:, k.WINDOW] != k.W_OVER)).sum())  # drawn by these steps
    return counts


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


def _mixed_batch(
    policy_p1: str, policy_p2: str, per_config: int, seed: int, configs: dict[str, EdelweissConfig] | None = None
) -> dict[str, tuple[np.ndarray, ...]]:
    """One JAX call over all `configs` (`DISTRIBUTION_CONFIGS` by default; configs are traced: a single
    compilation)."""
    configs = DISTRIBUTION_CONFIGS if configs is None else configs
    codes = jnp.concatenate(
        [jnp.broadcast_to(kj.config_array(config), (per_config, kj.N_CODES)) for config in configs.values()]
    )
    keys = jax.random.split(jax.random.key(seed), codes.shape[0])
    results = [np.asarray(values) for values in kj.play_codes(keys, codes, policy_p1, policy_p2)]
    return {
        name: tuple(values[i * per_config : (i + 1) * per_config] for values in results)
        for i, name in enumerate(configs)
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


# -- 4. rule options (issue #17) --------------------------------------------------------------------


def changed_guard_state(game: Edelweiss, rng: random.Random, tries: int = 80) -> Any:
    """A reference state at a defense window where the config's field-guard rules change the legal set
    (against the same position without rules), reached by random play that empties hands; or None."""
    for _ in range(tries):
        state = game.new_state(rng.getrandbits(32), record_events=False)
        for _ in range(300):
            if state.current_player() is None:
                break
            if state.window == Window.DEFENSE:
                default = ref_legal(game.load_position(without_rules(state.position())))
                if default != ref_legal(state):
                    return state
            walk(state, rng, 1, long_games=True, empty_hands=True)
    return None


def rule_start_states(rng: random.Random) -> tuple[list[Any], list[bool]]:
    """`POSITIONS` reference states over every `RULE_CONFIGS` entry (the batch shape of the default test,
    so one compilation serves both): random starts; for the configs whose field-guard rules change play,
    half of them at a defense window where they do; under deck_out_tie=draw, some just before a deck-out."""
    names = list(RULE_CONFIGS)
    states, long_games = [], []
    index = 0
    while len(states) < POSITIONS:
        config = RULE_CONFIGS[names[index % len(names)]]
        game = Edelweiss(config)
        long_game = index % 3 != 0
        found = changed_guard_state(game, rng) if guard_rule_changes_play(config) and index % 2 == 0 else None
        if found is None and config.rule("deck_out_tie") == "draw" and index % 3 == 1:
            found = deck_out_state(game, rng)  # the next draw step is a deck-out, a draw with equal hands
        if found is not None:
            state, long_game = found, True
        else:
            state = game.new_state(rng.getrandbits(32), record_events=False)
            walk(state, rng, rng.randrange(150 if long_game else 45), long_game, empty_hands=index % 3 == 2)
        states.append(state)
        long_games.append(long_game)
        index += 1
    return states, long_games


def test_step_level_sameness_under_rule_options(batched: dict[str, Any]) -> None:
    """Every rule option (`RULE_CONFIGS`: each non-default value, alone and combined) in lockstep with the
    numba kernel and the reference: rows (RULES and OPENING_HAND included), masks, positions (their
    config's rules included) and heuristic choices after every step. Field guards a rule adds (and
    played) or removes, and deck-outs drawn by the JAX steps, must occur."""
    rng = random.Random(20251208)
    states, long_games = rule_start_states(rng)
    counts = lockstep(batched, states, long_games, rng)
    for situation in ("field_guard_added", "field_guard_played", "field_guard_removed", "tie_draw"):
        assert counts[situation] > 0, (situation, counts)
    assert counts["decisions"] > 3 * POSITIONS


def deck_out_state(game: Edelweiss, rng: random.Random) -> Any:
    """A reference state at an attack window with an empty deck (the next draw step is a deck-out)."""
    while True:
        state = game.new_state(rng.getrandbits(32), record_events=False)
        while state.current_player() is not None:
            if state.window == Window.ATTACK and not state.deck:
                return state
            walk(state, rng, 1, long_games=True, empty_hands=False)


def test_draw_steps_under_rule_options_match_the_numba_loader(batched: dict[str, Any]) -> None:
    """Draw steps advanced by JAX against the numba loader under every rule config: each deal moved back
    to turn 1's draw step (skipped under first_draw=no) and, with deck_out_tie=draw, boards whose next
    draw step is a deck-out (drawn with equal hands). Skips and drawn deck-outs must occur."""
    rng = random.Random(6)
    raw, expected, skips, ties = [], [], 0, 0
    names = list(RULE_CONFIGS)
    index = 0
    while len(raw) < 240:
        config = RULE_CONFIGS[names[index % len(names)]]
        game = Edelweiss(config)
        index += 1
        if config.rule("deck_out_tie") == "draw" and index % 2 == 0:
            position = deck_out_state(game, rng).position()
            variant = draw_variant(position)
        else:
            position = game.new_state(rng.getrandbits(32), record_events=False).position()
            if position["turn"] != 1 or position["window"] != "main":
                continue
            variant = turn_one_draw_variant(position)
        row = k.from_position(position, validate=False)  # a resting board, moved to the variant's draw step
        row[k.TURN], row[k.TURN_PLAYER] = variant["turn"], ("P1", "P2").index(variant["turn_player"])
        row[k.WINDOW] = k.W_DRAW
        loaded = k.from_position(variant)
        raw.append(row)
        expected.append(loaded)
        if variant["turn"] == 1 and loaded[k.DECK_LEN] == row[k.DECK_LEN]:
            assert config.rule("first_draw") == "no"
            skips += 1
        ties += loaded[k.WINDOW] == k.W_OVER and loaded[k.WINNER] == -1
    got = np.asarray(batched["advance"](jnp.asarray(np.stack(raw)[:, : k.CORE_SIZE])))
    for index, row in enumerate(expected):
        assert np.array_equal(got[index], row[: k.CORE_SIZE]), f"draw variant {index}"
    assert skips > 0 and ties > 0, (skips, ties)


def test_deal_under_rule_options() -> None:
    """The JAX deal honours opening_hand (E1.4) and first_draw (E3.2): every zone has the size the rules
    give, and the position (with the config's rules) loads in the reference engine."""
    deal = jax.jit(jax.vmap(kj.deal, in_axes=(0, None)))
    for name, config in RULE_CONFIGS.items():
        game = Edelweiss(config)
        draws_before = 0 if config.rule("first_draw") == "no" else 1
        rows = np.asarray(deal(jax.random.split(jax.random.key(2), 8), kj.config_array(config)))
        for row in rows:
            position = k.to_position(row)
            assert position["config"].get("rules") == (dict(config.rules) or None), name
            assert game.load_position(position).position() == position, name
            size = k.DECK_SIZE_OF_KIND[row[k.DECK_KIND]] - 2 * game.opening_hand
            assert len(position["deck"]) == size - (row[k.TURN] - 1 + draws_before), name
            if row[k.TURN] == 1:
                assert len(position["players"]["P2"]["hand"]) == game.opening_hand, name


JAX_RULE_DISTRIBUTION = [
    "deck_out_tie=draw/short",
    "all five/symbolic",
    "tie+guard+hand/accel2",
    "opening_hand=6/accel2",
]
"""Rule configs of the game-level comparison (heuristic play reaches drawn deck-outs in about a quarter of
the games under deck_out_tie=draw)."""


@pytest.fixture(scope="module")
def heuristic_rule_games() -> dict[str, tuple[np.ndarray, ...]]:
    configs = {name: RULE_CONFIGS[name] for name in JAX_RULE_DISTRIBUTION}
    return _mixed_batch("heuristic", "heuristic", CI_JAX_GAMES, seed=25, configs=configs)


@pytest.mark.parametrize("name", JAX_RULE_DISTRIBUTION)
def test_heuristic_games_under_rule_options_have_the_numba_distribution(
    name: str, heuristic_rule_games: dict[str, tuple[np.ndarray, ...]]
) -> None:
    """Heuristic-vs-heuristic games under rule options: the winner mix with draws (winner -1, reason
    deck_out), reasons, lengths and decisions agree with the numba kernel's; E6.3's bound under the rules."""
    config = RULE_CONFIGS[name]
    games = heuristic_rule_games[name]
    numba_games = k.play_config(config, "heuristic", "heuristic", NUMBA_GAMES // 2, seed=26)
    _assert_same_distribution(games, numba_games)
    p = homogeneity_p(Counter(games[0].tolist()), Counter(numba_games[0].tolist()))
    assert p >= ALPHA, f"winner (P1 / P2 / draw): p = {p:.2g}"
    winner, reason, turns, _ = games
    draws = int((winner == -1).sum())
    assert (draws > 100) == (config.rule("deck_out_tie") == "draw"), draws
    assert (reason[winner == -1] == k.REASON_DECK_OUT).all()
    assert turns.min() >= 1 and turns.max() <= kernel_turn_limit(config)


def test_the_lab_gpu_engine_plays_the_configs_rules() -> None:
    """`EdelweissKernels.run(..., "gpu")` passes a config JSON's rules to the JAX kernel: its games are
    `play_batch`'s under those rules, draws reported as winner -1."""
    from cardlab.games.edelweiss.kernels import EdelweissKernels

    config = RULE_CONFIGS["deck_out_tie=draw/short"]
    n = CI_JAX_GAMES * len(JAX_RULE_DISTRIBUTION)  # the batch shape compiled above
    run = EdelweissKernels().run(config.to_json(), ("heuristic", "heuristic"), n, 9, "gpu")
    direct = kj.play_batch(config, "heuristic", "heuristic", n, 9)
    assert np.array_equal(run.winner, direct[0]) and np.array_equal(run.turns, direct[2])
    assert (run.winner == -1).sum() > 100

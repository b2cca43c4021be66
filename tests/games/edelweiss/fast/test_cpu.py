"""The numba Edelweiss kernel plays exactly the reference engine's game.

Three levels of evidence, all with fixed seeds (deterministic):

1. Step level. `SAMENESS_POSITIONS` positions are reached by the reference engine with random
   play over every configuration (full, short, and the skills deck with all 36 character pairs
   under both standards). Each is loaded into the kernel (`from_position` must round-trip through
   `to_position` exactly), then `CONTINUATION_STEPS` random actions are applied to both engines;
   after every step the sorted legal action ids and the whole E14.5 position JSON (hands, field
   order, discard order, attack, winner, win_reason, revealed) must be equal. Positions at the
   attack window are also turned into draw-step positions of the next turn, so loading runs the
   draw step and the deck-out rule (E3.2, E6.2). The kernel's field index must equal the one
   rebuilt from the field entries after every step. The default run checks 3,000 positions;
   the `slow` variant (`pytest -m slow`) 100,000, or `CARDLAB_SAMENESS_POSITIONS` of them.
2. Decisions. The compiled heuristic picks the same action as `heuristic.choose` at every decision
   of lockstep games, and whole heuristic-vs-heuristic games from reference deals end in the
   same final position. The conformance scenarios (E14.6) replay identically.
3. Distribution level. For each deck/standard, kernel games (own deal RNG) and reference games
   (random vs random) are compared: first-player win rate by a two-proportion z-test, the
   win-reason mix and the histograms of game length (turns) and decisions by chi-square tests of
   homogeneity (sparse bins merged so that every expected count is >= 5). Each test must not
   reject at alpha = 0.001. The default run compares 5,000 reference games with 200,000 kernel
   games; the `slow` variant 20,000 with 1,000,000.

4. Rule options (issue #17, `RULE_CONFIGS`: every non-default value of the five options, alone and
   combined). Step level as in 1 (random starts, draw-step variants, and each deal moved back to turn
   1's draw step), counting the situations each rule changes so that no test passes vacuously: turn-1
   draws skipped (first_draw=no), non-standard opening hands, field guards a rule adds (and played)
   or removes against the same position without rules, drawn deck-outs (deck_out_tie=draw). The
   kernel's own deal, whole heuristic games from reference deals (drawn ones included), game-level
   distributions with the winner mix P1 / P2 / draw, E6.3's bound under the rules, and the lab's
   `EdelweissKernels.run` passing a config's rules through.

`play_batch` results are identical with 1 and 2 threads.
"""

from __future__ import annotations

import json
import math
import os
import random
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

numba = pytest.importorskip("numba")

from cardlab.core.scenario import DEALT_KEYS  # noqa: E402
from cardlab.games.edelweiss import Edelweiss, EdelweissAction, EdelweissConfig  # noqa: E402
from cardlab.games.edelweiss.cards import HAND_SIZES, Window  # noqa: E402
from cardlab.games.edelweiss.fast import cpu as k  # noqa: E402
from cardlab.games.edelweiss.heuristic import choose  # noqa: E402
from tests.games.edelweiss.edelweiss_positions import ALL_CONFIGS  # noqa: E402

CONFIGS = ALL_CONFIGS
GAMES = [Edelweiss(config) for config in CONFIGS]

SAMENESS_POSITIONS = int(os.environ.get("CARDLAB_SAMENESS_POSITIONS", "100000"))
"""Start positions of the full (`slow`) step-level test; the default run checks `CI_SAMENESS_POSITIONS`."""
CI_SAMENESS_POSITIONS = 3000
CONTINUATION_STEPS = 10
HEURISTIC_GAMES_PER_CONFIG = 12
DISTRIBUTION_SIZES = [
    pytest.param((5_000, 200_000), id="ci"),
    pytest.param((20_000, 1_000_000), id="slow", marks=pytest.mark.slow),
]
"""(reference games, kernel games) of the distribution test: the default run's, and the `slow` one's."""
ALPHA = 0.001
DISTRIBUTION_CONFIGS = {
    "full": EdelweissConfig("full"),
    "short": EdelweissConfig("short"),
    "symbolic": EdelweissConfig("skills", "symbolic"),
    "accel2": EdelweissConfig("skills", "accel2"),
}
SCENARIOS = sorted((Path(__file__).parent.parent / "games" / "edelweiss" / "scenarios").glob("*.json"))


def ref_legal(state: Any) -> list[int]:
    return sorted(int(action) for action in state.legal_actions())


def field_index(row: np.ndarray) -> np.ndarray:
    """The kernel's field index rebuilt from the field entries (the invariant it must keep)."""
    index = np.zeros(2 * 8, dtype=np.int64)
    for player in range(2):
        for slot in range(row[k.FIELD_LEN + player]):
            entry = row[k.FIELD + k.FIELD_CAP * player + slot]
            index[8 * player + (entry & 7)] |= 1 << slot
    return index


def assert_same(state: Any, row: np.ndarray, where: str) -> None:
    assert k.legal_ids(row) == ref_legal(state), where
    assert k.to_position(row) == state.position(), where
    assert np.array_equal(row[k.FIELD_INDEX :], field_index(row)), where


# -- 1. step level ------------------------------------------------------------------------------


def pick(legal: list[int], rng: random.Random, long_games: bool) -> int:
    """A random legal action; `long_games` never gives up the game (no NO_DEFENSE while avoidable),
    so that late positions, empty decks and deck-outs (E6.2) are reached too."""
    if long_games and len(legal) > 1:
        legal = [action for action in legal if action != EdelweissAction.NO_DEFENSE]
    return rng.choice(legal)


def random_start(index: int, rng: random.Random, long_games: bool) -> Any:
    """A reference state after a random number of random decisions (sometimes finished)."""
    state = GAMES[index % len(GAMES)].new_state(rng.getrandbits(32), record_events=False)
    for _ in range(rng.randrange(150 if long_games else 45)):
        if state.current_player() is None:
            break
        state.apply(EdelweissAction(pick(ref_legal(state), rng, long_games)))
    return state


def draw_variant(position: dict[str, Any]) -> dict[str, Any]:
    """The same board at the next turn's draw step (loading it runs E3.2 / E6.2)."""
    variant = json.loads(json.dumps(position))
    variant["turn"] += 1
    variant["turn_player"] = "P2" if position["turn_player"] == "P1" else "P1"
    variant["window"] = "draw"
    return variant


@pytest.mark.parametrize(
    "positions",
    [
        pytest.param(CI_SAMENESS_POSITIONS, id="ci"),
        pytest.param(SAMENESS_POSITIONS, id="slow", marks=pytest.mark.slow),
    ],
)
def test_step_level_sameness_over_random_positions(positions: int) -> None:
    rng = random.Random(20251130)
    windows: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    for index in range(positions):
        long_games = index % 2 == 1
        state = random_start(index, rng, long_games)
        position = state.position()
        row = k.from_position(position, validate=False)
        assert k.to_position(row) == position, f"round trip of position {index}"
        if position["window"] == "attack":
            variant = draw_variant(position)
            assert_same(state.game.load_position(variant), k.from_position(variant), f"draw variant {index}")
        for step in range(CONTINUATION_STEPS):
            where = f"position {index}, step {step}"
            assert_same(state, row, where)
            windows[state.position()["window"]] += 1
            legal = ref_legal(state)
            if not legal:
                break
            illegal = next(a for a in range(k.N_ACTIONS) if a not in legal)
            before = row.copy()
            assert not k.apply_action(row, illegal), where
            assert np.array_equal(row, before), where
            action = pick(legal, rng, long_games)
            state.apply(EdelweissAction(action))
            assert k.apply_action(row, action), where
        assert_same(state, row, f"position {index}, end")
        reasons[state.win_reason] += 1
    # Every kind of window and both ways to win were exercised.
    assert set(windows) == {"main", "special_summon", "attack", "intercept", "defense", "counter", "pursuit", "over"}
    assert reasons["attack"] and reasons["deck_out"]


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda path: path.stem)
def test_conformance_scenarios_replay_identically(path: Path) -> None:
    data = json.loads(path.read_text())
    position = data["position"]
    if set(position) == DEALT_KEYS:  # a game dealt from a seed (set-up rules): the reference deals it
        state = Edelweiss.from_config(position["config"]).new_state(position["seed"])
        position = state.position()
        if position["turn"] == 1 and position["window"] == "main":  # the kernel runs turn 1's draw step too
            variant = turn_one_draw_variant(position)
            assert_same(state.game.load_position(variant), k.from_position(variant), "turn-1 draw variant")
    state = Edelweiss().load_position(position)
    row = k.from_position(position)
    for index, text in enumerate(data["actions"]):
        assert_same(state, row, f"before action {index}")
        action = EdelweissAction.parse(text)
        state.apply(action)
        assert k.apply_action(row, int(action)), f"action {index} {text}"
    assert_same(state, row, "final")


def test_from_position_rejects_a_malformed_position() -> None:
    position = GAMES[0].new_state(1).position()
    position["players"]["P1"]["field"] = ["5D:U"]
    with pytest.raises(ValueError, match="diamond"):
        k.from_position(position)


# -- 2. decisions -------------------------------------------------------------------------------


def test_heuristic_matches_reference_at_every_decision() -> None:
    """Lockstep games: both heuristics are asked at every decision; half the moves are random to
    reach positions the heuristic itself would avoid."""
    rng = random.Random(7)
    decisions = 0
    for game in GAMES:
        for _ in range(HEURISTIC_GAMES_PER_CONFIG):
            state = game.new_state(rng.getrandbits(32), record_events=False)
            row = k.from_position(state.position(), validate=False)
            while state.current_player() is not None:
                expected = int(choose(state, rng))
                assert k.heuristic_action(row) == expected, state.position()
                decisions += 1
                action = expected if rng.random() < 0.5 else rng.choice(ref_legal(state))
                state.apply(EdelweissAction(action))
                assert k.apply_action(row, action)
                assert_same(state, row, "heuristic lockstep")
    assert decisions > 10 * len(GAMES) * HEURISTIC_GAMES_PER_CONFIG


def test_heuristic_games_from_reference_deals_end_identically() -> None:
    rng = np.zeros(1, dtype=np.uint64)  # unused by the heuristic
    for index, game in enumerate(GAMES):
        for seed in range(3):
            state = game.new_state(1000 * index + seed, record_events=False)
            row = k.from_position(state.position(), validate=False)
            decisions = 0
            while state.current_player() is not None:
                state.apply(choose(state, random.Random()))
                decisions += 1
            assert k.play_from(row, k.POLICY_HEURISTIC, k.POLICY_HEURISTIC, rng) == decisions
            assert k.to_position(row) == state.position()


# -- 3. distribution level ----------------------------------------------------------------------


def chi2_sf(x: float, dof: int) -> float:
    """P(X >= x) for a chi-square variable: the regularized upper incomplete gamma Q(dof/2, x/2)."""
    a, z = dof / 2.0, x / 2.0
    if z <= 0:
        return 1.0
    log_prefix = a * math.log(z) - z - math.lgamma(a)
    if z < a + 1:  # series for P, then Q = 1 - P
        term = total = 1.0 / a
        n = a
        while abs(term) > 1e-15 * abs(total):
            n += 1
            term *= z / n
            total += term
        return max(0.0, 1.0 - total * math.exp(log_prefix))
    b, c, d = z + 1 - a, 1e300, 1 / (z + 1 - a)  # Lentz continued fraction for Q
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(log_prefix) * h


def test_chi2_sf_known_values() -> None:
    assert chi2_sf(3.841458820694124, 1) == pytest.approx(0.05, rel=1e-9)
    assert chi2_sf(16.26623619623813, 3) == pytest.approx(0.001, rel=1e-9)
    assert chi2_sf(2.0, 10) == pytest.approx(0.9963401531726562, rel=1e-9)


def homogeneity_p(a: Counter[int], b: Counter[int]) -> float:
    """Chi-square test that two samples share one distribution; bins merged in key order until each
    merged bin expects >= 5 in both samples. One bin in all: the samples agree trivially (p = 1)."""
    na, nb = sum(a.values()), sum(b.values())
    keys = sorted(set(a) | set(b))
    bins: list[tuple[int, int]] = []
    ca = cb = 0
    for key in keys:
        ca, cb = ca + a[key], cb + b[key]
        if min((ca + cb) * na, (ca + cb) * nb) >= 5 * (na + nb):
            bins.append((ca, cb))
            ca = cb = 0
    if ca or cb:
        if bins:
            last = bins.pop()
            bins.append((last[0] + ca, last[1] + cb))
        else:
            bins.append((ca, cb))
    if len(bins) < 2:
        return 1.0
    stat = 0.0
    for ca, cb in bins:
        total = ca + cb
        ea, eb = total * na / (na + nb), total * nb / (na + nb)
        stat += (ca - ea) ** 2 / ea + (cb - eb) ** 2 / eb
    return chi2_sf(stat, len(bins) - 1)


def two_proportion_p(wins_a: int, n_a: int, wins_b: int, n_b: int) -> float:
    pooled = (wins_a + wins_b) / (n_a + n_b)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n_a + 1 / n_b))
    if se == 0:
        return 1.0
    z = (wins_a / n_a - wins_b / n_b) / se
    return math.erfc(abs(z) / math.sqrt(2))


def reference_games(config: EdelweissConfig, n: int, seed: int) -> dict[str, list[int]]:
    game, rng = Edelweiss(config), random.Random(seed)
    out: dict[str, list[int]] = {"winner": [], "reason": [], "turns": [], "decisions": []}
    for index in range(n):
        state = game.new_state(seed * 1_000_003 + index, record_events=False)
        decisions = 0
        while state.current_player() is not None:
            state.apply(rng.choice(state.legal_actions()))
            decisions += 1
        out["winner"].append(state.winner)
        out["reason"].append(("attack", "deck_out").index(state.win_reason))
        out["turns"].append(state.turn)
        out["decisions"].append(decisions)
    return out


@pytest.mark.parametrize("sizes", DISTRIBUTION_SIZES)
@pytest.mark.parametrize("name", list(DISTRIBUTION_CONFIGS))
def test_random_games_have_the_reference_distribution(name: str, sizes: tuple[int, int]) -> None:
    config = DISTRIBUTION_CONFIGS[name]
    n_ref, n_k = sizes
    ref = reference_games(config, n_ref, seed=11)
    winner, reason, turns, decisions = k.play_config(config, "random", "random", n_k, seed=12)
    p_first = two_proportion_p(ref["winner"].count(0), n_ref, int((winner == 0).sum()), n_k)
    assert p_first >= ALPHA, f"P1 win rate {ref['winner'].count(0) / n_ref:.3f} vs {(winner == 0).mean():.3f}"
    for label, kernel_values in (("reason", reason), ("turns", turns), ("decisions", decisions)):
        p = homogeneity_p(Counter(ref[label]), Counter(int(v) for v in kernel_values))
        assert p >= ALPHA, f"{label}: p = {p:.2g}"


def test_kernel_games_stay_within_the_rules_bounds() -> None:
    """E6.3: at most 45/29/27 turns; every game has a winner and a reason."""
    for name, limit in (("full", 45), ("short", 29), ("symbolic", 27), ("accel2", 27)):
        config = DISTRIBUTION_CONFIGS[name]
        winner, reason, turns, _ = k.play_config(config, "heuristic", "random", 2000, seed=3)
        assert set(winner.tolist()) <= {0, 1} and set(reason.tolist()) <= {0, 1}
        assert turns.min() >= 1 and turns.max() <= limit


# -- threads ------------------------------------------------------------------------------------


def test_play_batch_is_independent_of_the_thread_count() -> None:
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("numba has a single thread here")
    before = numba.get_num_threads()
    try:
        results = []
        for threads in (1, 2):
            numba.set_num_threads(threads)
            results.append(k.play_batch(2, 2, np.array([-1, -1]), 0, 1, 3001, 99))
    finally:
        numba.set_num_threads(before)
    for one, two in zip(*results, strict=True):
        assert np.array_equal(one, two)


# -- 4. rule options (issue #17) ------------------------------------------------------------------


def _rules(**values: str) -> tuple[tuple[str, str], ...]:
    return tuple(values.items())


ALL_RULES = _rules(
    first_draw="no", opening_hand="3", accel2_guardian="symbolic_too", symbolic_field_guard="spades",
    deck_out_tie="draw",
)  # fmt: skip
RULE_CONFIGS = {
    "first_draw=no": EdelweissConfig("full", rules=_rules(first_draw="no")),
    "first_draw=no/accel2": EdelweissConfig("skills", "accel2", ("VERDI", "GARU"), _rules(first_draw="no")),
    "opening_hand=3": EdelweissConfig("short", rules=_rules(opening_hand="3")),
    "opening_hand=4/symbolic": EdelweissConfig("skills", "symbolic", ("ACCELA", "RAIHA"), _rules(opening_hand="4")),
    "opening_hand=5": EdelweissConfig("full", rules=_rules(opening_hand="5")),
    "opening_hand=6/accel2": EdelweissConfig("skills", "accel2", ("EAGLE", "VIRIDIAN"), _rules(opening_hand="6")),
    "accel2_guardian=symbolic_too": EdelweissConfig(
        "skills", "accel2", ("GARU", "RAIHA"), _rules(accel2_guardian="symbolic_too")
    ),
    "accel2_guardian=symbolic_too/viridian": EdelweissConfig(
        "skills", "accel2", ("VIRIDIAN", "GARU"), _rules(accel2_guardian="symbolic_too")
    ),
    "symbolic_field_guard=spades": EdelweissConfig(
        "skills", "symbolic", ("GARU", "RAIHA"), _rules(symbolic_field_guard="spades")
    ),
    "symbolic_field_guard=spades/viridian": EdelweissConfig(
        "skills", "symbolic", ("RAIHA", "VIRIDIAN"), _rules(symbolic_field_guard="spades")
    ),
    "deck_out_tie=draw": EdelweissConfig("full", rules=_rules(deck_out_tie="draw")),
    "deck_out_tie=draw/short": EdelweissConfig("short", rules=_rules(deck_out_tie="draw")),
    "deck_out_tie=draw/symbolic": EdelweissConfig("skills", "symbolic", None, _rules(deck_out_tie="draw")),
    "all five/accel2": EdelweissConfig("skills", "accel2", ("RAIHA", "GARU"), ALL_RULES),
    "all five/symbolic": EdelweissConfig("skills", "symbolic", ("GARU", "VIRIDIAN"), ALL_RULES),
    "accel2_protection=none": EdelweissConfig("skills", "accel2", ("RAIHA", "EAGLE"), _rules(accel2_protection="none")),
    "accel2_protection=club_still_owed": EdelweissConfig(
        "skills", "accel2", ("RAIHA", "EAGLE"), _rules(accel2_protection="club_still_owed")
    ),
    "accel2_protection=defender": EdelweissConfig(
        "skills", "accel2", ("ACCELA", "VIRIDIAN"), _rules(accel2_protection="defender")
    ),
    "accel2_protection=defender/symbolic": EdelweissConfig(
        "skills", "symbolic", ("ACCELA", "VIRIDIAN"), _rules(accel2_protection="defender")
    ),
    "poison_bind_trigger=diamond_guard": EdelweissConfig(
        "skills", "accel2", ("RAIHA", "VIRIDIAN"), _rules(poison_bind_trigger="diamond_guard")
    ),
    "poison_bind_timing=after_counter": EdelweissConfig(
        "skills", "accel2", ("EAGLE", "VIRIDIAN"), _rules(poison_bind_timing="after_counter")
    ),
    "poison_bind both/symbolic": EdelweissConfig(
        "skills",
        "symbolic",
        ("VIRIDIAN", "EAGLE"),
        _rules(poison_bind_trigger="diamond_guard", poison_bind_timing="after_counter"),
    ),
    "tie+guard+hand/accel2": EdelweissConfig(
        "skills",
        "accel2",
        ("GARU", "VIRIDIAN"),
        _rules(accel2_guardian="symbolic_too", deck_out_tie="draw", opening_hand="5", first_draw="no"),
    ),
}
"""Every non-default value of every rule option, alone and combined; the Guardian rules with Guardian on
both seats (GARU, RAIHA, VIRIDIAN), so that field guards are offered to both; the protection rules (E8.5)
with Wizard's upright clubs on both seats (RAIHA, EAGLE), or ACCELA, who has no protection of its own,
against VIRIDIAN, and under Symbolic, where no reading of Accel 2's protection may change anything; the
Poison Bind rules (E8.4) with Poison Bind (VIRIDIAN, EAGLE) and Guardian's field guard (VIRIDIAN)."""
RULE_POSITIONS = 400
"""Start positions per rule config of the step-level test (`CONTINUATION_STEPS` steps from each)."""


def guard_rule_changes_play(config: EdelweissConfig) -> bool:
    """Whether the config's field-guard rules change what E8.1 allows (under Accel 2, symbolic_too with
    spades keeps only the spade guard Accel 2 has anyway)."""
    if config.standard == "symbolic":
        return config.rule("symbolic_field_guard") == "spades"
    kept = config.rule("accel2_guardian") == "symbolic_too" and config.rule("symbolic_field_guard") != "spades"
    return config.standard == "accel2" and kept


def protection_changes_play(config: EdelweissConfig) -> bool:
    """Whether the config reads Accel 2's protection otherwise than the spec (E8.5; Accel 2 only)."""
    return config.standard == "accel2" and config.rule("accel2_protection") != "as_written"


def effects_changed(config: EdelweissConfig) -> set[str]:
    """The windows where the config's rules change what an action does (not only which actions are legal):
    the defense (Poison Bind's trigger and timing, E8.4) and the counter (its timing; club_still_owed, E8.5)."""
    windows = set()
    if config.rule("poison_bind_timing") == "after_counter":
        windows |= {"defense", "counter"}
    if config.rule("poison_bind_trigger") == "diamond_guard":
        windows.add("defense")
    if protection_changes_play(config) and config.rule("accel2_protection") == "club_still_owed":
        windows.add("counter")
    return windows


def expected_situations(config: EdelweissConfig) -> set[str]:
    """The counters of `rule_sameness` that must be positive for this config (no vacuous pass)."""
    expected = {"positions", *(f"{window}_effect_changed" for window in effects_changed(config))}
    if protection_changes_play(config):
        expected |= {
            "none": {"protect_removed"},
            "club_still_owed": {"protect_played", "owed_club_paid", "counter_effect_changed"},
            "defender": {"protect_added", "protect_removed", "protect_played"},
        }[config.rule("accel2_protection")]
    if config.rule("first_draw") == "no":
        expected.add("first_draw_skipped")
    if Edelweiss(config).opening_hand != HAND_SIZES[config.deck]:  # "5" in a skills game is its standard size
        expected.add("opening_hand")
    if config.rule("deck_out_tie") == "draw":
        expected.add("tie_draw")
    if guard_rule_changes_play(config):
        if config.standard == "symbolic":
            expected |= {"field_guard_removed", "spade_field_guard_played"}
        else:
            expected |= {"field_guard_added", "field_guard_played"}
    return expected


def without_rules(position: dict[str, Any]) -> dict[str, Any]:
    config = {key: value for key, value in position["config"].items() if key != "rules"}
    return dict(position, config=config)


def turn_one_draw_variant(position: dict[str, Any]) -> dict[str, Any]:
    """A dealt turn-1 position moved back to its draw step (exactly the deal before it under first_draw=no)."""
    return dict(json.loads(json.dumps(position)), window="draw", attack=None)


def walk(state: Any, rng: random.Random, steps: int, long_games: bool, empty_hands: bool) -> None:
    """Up to `steps` random decisions; `empty_hands` guards with a hand card most of the time it can, so
    that defenders run out of cards (the Symbolic field guard needs an empty hand, E8.1)."""
    for _ in range(steps):
        if state.current_player() is None:
            return
        legal = ref_legal(state)
        guards = [a for a in legal if EdelweissAction.GUARD_S <= a <= EdelweissAction.GUARD_D]
        if empty_hands and guards and rng.random() < 0.8:
            state.apply(EdelweissAction(rng.choice(guards)))
        else:
            state.apply(EdelweissAction(pick(legal, rng, long_games)))


def rule_sameness(config: EdelweissConfig, positions: int, seed: int, check: Any) -> Counter[str]:
    """The step-level sameness test on one rule config; `check(state, row, where)` compares the engines
    (the numba kernel here; the JAX tests pass their own). Returns how often each situation that a rule
    changes was met, so that callers can prove the rules were exercised."""
    game = Edelweiss(config)
    opening = game.opening_hand
    rng = random.Random(seed)
    counts: Counter[str] = Counter()
    for index in range(positions):
        long_games = index % 3 != 0
        state = game.new_state(rng.getrandbits(32), record_events=False)
        dealt = state.position()
        if dealt["turn"] == 1 and dealt["window"] == "main":  # E1.4 and E3.2 at the deal
            counts["opening_hand"] += len(dealt["players"]["P2"]["hand"]) == opening != HAND_SIZES[config.deck]
            variant = turn_one_draw_variant(dealt)
            loaded = game.load_position(variant)
            check(loaded, k.from_position(variant), f"turn-1 draw variant {index}")
            skipped = len(loaded.deck) == len(variant["deck"])
            assert skipped == (config.rule("first_draw") == "no"), index
            counts["first_draw_skipped"] += skipped
        walk(state, rng, rng.randrange(150 if long_games else 45), long_games, empty_hands=index % 3 == 2)
        position = state.position()
        row = k.from_position(position, validate=False)
        assert k.to_position(row) == position, f"round trip of position {index}"
        if position["window"] == "attack":
            variant = draw_variant(position)
            loaded = game.load_position(variant)
            check(loaded, k.from_position(variant), f"draw variant {index}")
            counts["tie_draw"] += loaded.window == Window.OVER and loaded.winner is None
        for step in range(CONTINUATION_STEPS):
            where = f"{config.rules} position {index}, step {step}"
            check(state, row, where)
            legal = ref_legal(state)
            if not legal:
                break
            added: list[int] = []
            # The field-guard rules change only the defense window (E8.1), accel2_protection the counter's (E8.5).
            kind = {Window.DEFENSE: "field_guard", Window.COUNTER: "protect"}.get(state.window)
            plain = None
            if kind is not None:
                plain = game.load_position(without_rules(state.position()))
                default = set(ref_legal(plain))
                added = sorted(set(legal) - default)
                counts[f"{kind}_added"] += bool(added)
                counts[f"{kind}_removed"] += bool(default - set(legal))
            action = rng.choice(added) if added and rng.random() < 0.5 else pick(legal, rng, long_games)
            counts[f"{kind}_played"] += action in added
            if plain is not None and action in default:  # the same action under the default rules: same effect?
                ruled, unruled = state.clone(), plain.clone()
                ruled._do(action)  # the action alone, before automatic steps move on
                unruled._do(action)
                window = "defense" if state.window == Window.DEFENSE else "counter"
                changed = without_rules(ruled.position()) != without_rules(unruled.position())
                counts[f"{window}_effect_changed"] += changed
            counts["spade_field_guard_played"] += action == EdelweissAction.FIELD_GUARD_S
            if action == EdelweissAction.PROTECT and protection_changes_play(config):
                counts["protect_played"] += 1
                probe = state.clone()
                probe._do(action)  # the action alone, before automatic steps move on
                counts["owed_club_paid"] += len(probe.fields[probe.turn_player]) < len(state.fields[state.turn_player])
            illegal = next(a for a in range(k.N_ACTIONS) if a not in legal)
            before = row.copy()
            assert not k.apply_action(row, illegal), where
            assert np.array_equal(row, before), where
            state.apply(EdelweissAction(action))
            assert k.apply_action(row, action), where
        check(state, row, f"{config.rules} position {index}, end")
        counts["tie_draw"] += state.window == Window.OVER and state.winner is None
        counts["positions"] += 1
    return counts


@pytest.mark.parametrize("name", list(RULE_CONFIGS))
def test_step_level_sameness_under_rule_options(name: str) -> None:
    """Every rule option against the reference, step by step: legal sets, positions (their config's
    `rules` included), the field index. The situations each rule changes must occur: a turn-1 draw step
    skipped, non-standard opening hands, field guards the rule adds (played) or removes, drawn deck-outs."""
    config = RULE_CONFIGS[name]
    counts = rule_sameness(config, RULE_POSITIONS, seed=17, check=assert_same)
    for situation in expected_situations(config):
        assert counts[situation] > 0, (situation, counts)
    if config.rule("deck_out_tie") != "draw":
        assert counts["tie_draw"] == 0
    if not guard_rule_changes_play(config):
        assert counts["field_guard_added"] == counts["field_guard_removed"] == 0, counts
    if not protection_changes_play(config):
        assert counts["protect_added"] == counts["protect_removed"] == 0, counts
    if config.rule("accel2_protection") != "club_still_owed":
        assert counts["owed_club_paid"] == 0, counts
    for window in {"defense", "counter"} - effects_changed(config):
        assert counts[f"{window}_effect_changed"] == 0, (window, counts)


def test_rule_options_round_trip_through_the_row() -> None:
    """`to_position(from_position(p)) == p` keeps `config.rules`; the row's RULES / OPENING_HAND slots
    decode to the config's rules (defaults left out), and a drawn deck-out position loads as over."""
    for name, config in RULE_CONFIGS.items():
        state = Edelweiss(config).new_state(3, record_events=False)
        position = state.position()
        row = k.from_position(position)
        assert k.to_position(row) == position, name
        assert position["config"]["rules"] == dict(config.rules), name
        assert k.rules_of(int(row[k.RULES]), int(row[k.OPENING_HAND])) == dict(config.rules), name
        assert k.rule_codes(config) == (row[k.RULES], row[k.OPENING_HAND]), name
    assert k.rule_codes(EdelweissConfig("skills", "accel2")) == (0, 0)
    tie = tie_position({"deck_out_tie": "draw"})
    row = k.from_position(tie)
    assert (row[k.WINDOW], row[k.WINNER], row[k.REASON]) == (k.W_OVER, -1, k.REASON_DECK_OUT)
    drawn = Edelweiss().load_position(tie).position()
    assert drawn["winner"] is None and drawn["win_reason"] == "deck_out"
    assert k.to_position(row) == drawn


def tie_position(rules: dict[str, str]) -> dict[str, Any]:
    """P2 to draw from an empty deck with as many cards in hand as P1 (E6.2)."""
    return {
        "game": "edelweiss", "config": {"deck": "full", "standard": None, "characters": None, "rules": rules},
        "turn": 30, "turn_player": "P2", "window": "draw", "deck": [], "discard": ["2S", "3S"],
        "players": {"P1": {"hand": ["4H"], "field": ["5S:T"]}, "P2": {"hand": ["6C"], "field": ["7H:U"]}},
        "attack": None, "winner": None,
    }  # fmt: skip


def test_a_deck_out_tie_is_p2s_or_a_draw_by_rule() -> None:
    for rules, winner in (({}, 1), ({"deck_out_tie": "draw"}, -1)):
        row = k.from_position(tie_position(rules))
        assert (row[k.WINNER], row[k.REASON]) == (winner, k.REASON_DECK_OUT)
        assert k.current_player(row) == -1 and k.legal_ids(row) == []


@pytest.mark.parametrize("name", list(RULE_CONFIGS))
def test_kernel_deals_under_rule_options(name: str) -> None:
    """The kernel's own deal (E1.4 opening_hand) and first draw step (first_draw): every zone has the
    size the rules give, and the position loads in the reference engine with the config's rules."""
    config = RULE_CONFIGS[name]
    game = Edelweiss(config)
    deck_kind, standard, characters = k.config_codes(config)
    rules, opening_hand = k.rule_codes(config)
    draws_before = 0 if config.rule("first_draw") == "no" else 1  # draw steps taken by turn t: t - 1 + this
    for index in range(100):
        row = k.new_row()
        k.deal(row, deck_kind, standard, characters, k.game_rng(8, index), rules, opening_hand)
        position = k.to_position(row)
        assert position["config"].get("rules") == (dict(config.rules) or None), name
        k.from_position(position)  # the reference loader accepts it
        assert game.load_position(position).position() == position
        expected = k.DECK_SIZE_OF_KIND[deck_kind] - 2 * game.opening_hand - (row[k.TURN] - 1 + draws_before)
        assert len(position["deck"]) == expected, (name, index)
        if row[k.TURN] == 1:
            assert len(position["players"]["P2"]["hand"]) == game.opening_hand


def kernel_turn_limit(config: EdelweissConfig) -> int:
    """E6.3 under the rules: one turn per draw the deck allows after the deal, one for the deck-out, one
    more when turn 1 draws nothing."""
    game = Edelweiss(config)
    after_deal = k.DECK_SIZE_OF_KIND[k.DECK_KINDS.index(config.deck)] - 2 * game.opening_hand
    return after_deal + 1 + (config.rule("first_draw") == "no")


@pytest.mark.parametrize("name", list(RULE_CONFIGS))
def test_kernel_games_under_rule_options_stay_within_bounds(name: str) -> None:
    """`play_config` under the rules: a draw is winner -1 with reason deck_out, and only with
    deck_out_tie=draw (where heuristic games do reach it); E6.3's turn bound with the rules' deal."""
    config = RULE_CONFIGS[name]
    winner, reason, turns, decisions = k.play_config(config, "heuristic", "heuristic", 3000, seed=4)
    assert set(winner.tolist()) <= {-1, 0, 1} and set(reason.tolist()) <= {0, 1}
    assert (reason[winner == -1] == k.REASON_DECK_OUT).all()
    draws = int((winner == -1).sum())
    assert (draws > 0) == (config.rule("deck_out_tie") == "draw"), draws
    assert turns.min() >= 1 and turns.max() <= kernel_turn_limit(config)
    assert decisions.min() >= 1


@pytest.mark.parametrize("name", list(RULE_CONFIGS))
def test_heuristic_games_under_rule_options_end_identically(name: str) -> None:
    """Whole heuristic games from reference deals end in the reference's final position, drawn
    deck-outs included (counted: heuristic play reaches them often)."""
    config = RULE_CONFIGS[name]
    game = Edelweiss(config)
    rng = np.zeros(1, dtype=np.uint64)
    draws = 0
    for seed in range(40):
        state = game.new_state(500 + seed, record_events=False)
        row = k.from_position(state.position(), validate=False)
        decisions = 0
        while state.current_player() is not None:
            state.apply(choose(state, random.Random()))
            decisions += 1
        assert k.play_from(row, k.POLICY_HEURISTIC, k.POLICY_HEURISTIC, rng) == decisions
        assert k.to_position(row) == state.position()
        draws += state.winner is None
    assert (draws > 0) == (config.rule("deck_out_tie") == "draw"), draws


def reference_heuristic_games(config: EdelweissConfig, n: int, seed: int) -> dict[str, list[int]]:
    """Heuristic-vs-heuristic reference games from the reference's own deals; winner -1 for a draw."""
    game = Edelweiss(config)
    out: dict[str, list[int]] = {"winner": [], "reason": [], "turns": [], "decisions": []}
    for index in range(n):
        state = game.new_state(seed * 1_000_003 + index, record_events=False)
        decisions = 0
        while state.current_player() is not None:
            state.apply(choose(state, random.Random()))
            decisions += 1
        out["winner"].append(-1 if state.winner is None else state.winner)
        out["reason"].append(("attack", "deck_out").index(state.win_reason))
        out["turns"].append(state.turn)
        out["decisions"].append(decisions)
    return out


RULE_DISTRIBUTION_CONFIGS = ["first_draw=no", "opening_hand=3", "opening_hand=6/accel2", "deck_out_tie=draw/short",
                             "deck_out_tie=draw/symbolic", "all five/symbolic", "tie+guard+hand/accel2"]  # fmt: skip


@pytest.mark.parametrize("name", RULE_DISTRIBUTION_CONFIGS)
def test_heuristic_games_under_rule_options_have_the_reference_distribution(name: str) -> None:
    """Game level, each engine dealing its own games: the winner mix (P1 / P2 / draw), the win reasons,
    game lengths and decisions of heuristic-vs-heuristic games agree (chi-square, alpha = 0.001)."""
    config = RULE_CONFIGS[name]
    ref = reference_heuristic_games(config, 3000, seed=31)
    kernel = k.play_config(config, "heuristic", "heuristic", 100_000, seed=32)
    for label, values in zip(("winner", "reason", "turns", "decisions"), kernel, strict=True):
        p = homogeneity_p(Counter(ref[label]), Counter(int(v) for v in values))
        assert p >= ALPHA, f"{label}: p = {p:.2g}"
    if config.rule("deck_out_tie") == "draw":
        assert ref["winner"].count(-1) > 100 and (kernel[0] == -1).sum() > 3000


def test_the_lab_kernels_play_the_configs_rules() -> None:
    """`EdelweissKernels.run` (the lab's entry) passes a config JSON's rules to the kernel: the same games
    as `play_config` under those rules, draws reported as winner -1; the agent batch too."""
    from cardlab.games.edelweiss.kernels import EdelweissKernels

    config = RULE_CONFIGS["tie+guard+hand/accel2"]
    kernels = EdelweissKernels()
    run = kernels.run(config.to_json(), ("heuristic", "heuristic"), 2000, 9, "cpu")
    direct = k.play_config(config, "heuristic", "heuristic", 2000, 9)
    assert np.array_equal(run.winner, direct[0]) and np.array_equal(run.turns, direct[2])
    assert (run.winner == -1).sum() > 50 and run.reasons[int(run.reason[run.winner == -1][0])] == "deck_out"
    plain = EdelweissConfig("skills", "accel2", ("GARU", "VIRIDIAN"))
    default = k.play_config(plain, "heuristic", "heuristic", 2000, 9)
    assert not np.array_equal(run.turns, default[2])
    batch = kernels.run(config.to_json(), ("heuristic:epsilon=0", "heuristic"), 2000, 9, "cpu")
    assert np.array_equal(batch.winner, direct[0]) and np.array_equal(batch.decisions, direct[3])

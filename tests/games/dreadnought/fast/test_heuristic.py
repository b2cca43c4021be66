"""The Dreadnought heuristic compiled on the kernel row makes the reference heuristic's choice at every decision
(issue #34 item 2).

Seeded games are played in both engines in lock step (`lockstep.diverges`): heuristic against heuristic, and
the heuristic in either seat against a seeded random agent. At every decision point the legal-action sets must
be equal, and where a heuristic seat decides, `fast.heuristic.heuristic_action` on the kernel row must choose
the action `heuristic.choose` chooses on the reference state; at the end, the results must be equal. Run over
the default config, every non-default rule value, other caster pairs, the sample set's black cards, a
designer's card file and a patched config (`lockstep.other_configs`), and mixed rules. A mismatch names the
config, the seed, the first diverging decision, the window and what was offered. The default run plays a few
hundred games; `pytest -m slow` plays 2,000 on the default config and more on every other config.

Then whole games in the kernel (`play_batch`) and through the lab's hook (`--engine cpu`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from cardlab.core.errors import CardlabError
from cardlab.games.dreadnought.game import Dreadnought

pytest.importorskip("numba")

from cardlab.games.dreadnought.fast import heuristic as fast_heuristic
from tests.games.dreadnought.fast import lockstep
from tests.games.dreadnought.fast.lockstep import RULE_VALUES, diverges, other_configs, write_files

HH = ("heuristic", "heuristic")
HR = ("heuristic", "random")
RH = ("random", "heuristic")


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return write_files(tmp_path_factory.mktemp("decks"))


def _check(name: str, game: Dreadnought, seeds: range, seats: tuple[str, str]) -> None:
    for seed in seeds:
        problem = diverges(f"{name} {seats[0]}-{seats[1]}", game, seed, seats, positions=False)
        assert problem is None, problem


def test_default_config_heuristic_in_lock_step() -> None:
    """The starter decks: 80 heuristic-vs-heuristic games, 40 with the heuristic in each seat against random (the
    `slow` run plays 2,000; these keep CI's time in bounds)."""
    game = Dreadnought()
    _check("default", game, range(80), HH)
    _check("default", game, range(200, 240), HR)
    _check("default", game, range(300, 340), RH)


def test_every_rule_value_heuristic_in_lock_step() -> None:
    """Every non-default value of every rule option (the heuristic reads several: reactions=stack's waiting
    reactions, god draw windows, library_out's HP draws)."""
    for rule, value in RULE_VALUES:
        config = {"decks": {"P1": "tide_grove", "P2": "ember_spark"}, "rules": {rule: value}}
        game = Dreadnought.from_config(config)
        _check(f"rule {rule}={value}", game, range(4), HH)
        _check(f"rule {rule}={value}", game, range(4, 6), RH)


def test_other_decks_designer_cards_and_patches_heuristic_in_lock_step(files: dict[str, str]) -> None:
    """Other casters, the black cards, a designer's card file (arms grants, attach statics, speed-zone abilities,
    PAYMENT reducers) and a patched config (`R05.cost=0`, `B02.bp=200`, a speed shift of 3)."""
    for name, config in other_configs(files):
        game = Dreadnought.from_config(config)
        _check(name, game, range(10), HH)
        _check(name, game, range(10, 14), HR)


def test_mixed_rules_heuristic_in_lock_step() -> None:
    game = Dreadnought.from_config({"rules": dict(RULE_VALUES[::-1])})
    _check("mixed rules", game, range(20), HH)


@pytest.mark.slow
def test_heuristic_lock_step_full_size(files: dict[str, str]) -> None:
    """2,000 games on the default config (1,000 heuristic-vs-heuristic, 500 with the heuristic in each seat
    against random), 60 per rule value, 150 per other config and 100 under mixed rules."""
    game = Dreadnought()
    _check("default", game, range(1000, 2000), HH)
    _check("default", game, range(2000, 2500), HR)
    _check("default", game, range(2500, 3000), RH)
    for rule, value in RULE_VALUES:
        ruled = Dreadnought.from_config({"rules": {rule: value}})
        _check(f"rule {rule}={value}", ruled, range(1000, 1040), HH)
        _check(f"rule {rule}={value}", ruled, range(1040, 1060), HR)
    for name, config in other_configs(files):
        other = Dreadnought.from_config(config)
        _check(name, other, range(1000, 1100), HH)
        _check(name, other, range(1100, 1150), RH)
    _check("mixed rules", Dreadnought.from_config({"rules": dict(RULE_VALUES[::-1])}), range(1000, 1100), HH)


def test_a_mismatch_names_the_seed_and_the_first_diverging_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    """The report a broken kernel heuristic gives: here one that always takes the last legal action."""

    def last(row: np.ndarray, tab: np.ndarray, out: np.ndarray, n: int) -> int:
        return int(out[n - 1])

    monkeypatch.setattr(lockstep, "heuristic_action", last)
    problem = diverges("default", Dreadnought(), 3, HH, positions=False)
    assert problem is not None
    assert problem.startswith("default, seed 3, decision ") and "heuristic chose" in problem, problem
    assert "in the reference" in problem and "in the kernel" in problem and "offered" in problem, problem


# -- whole games in the kernel --------------------------------------------------------------------------


def test_play_batch_heuristic_beats_random_and_depends_on_seed_and_index_only() -> None:
    game = Dreadnought()
    winner, reason, turns, decisions = fast_heuristic.play_game(game, HR, 64, 11)
    assert set(winner.tolist()) <= {-1, 0, 1} and (turns >= 1).all() and (decisions >= 2).all()
    assert (winner == 0).mean() > 0.8  # the heuristic beats random play
    swapped = fast_heuristic.play_game(game, RH, 64, 11)[0]
    assert (swapped == 1).mean() > 0.8
    again = fast_heuristic.play_game(game, HR, 24, 11, first_game=40)
    for column, piece in zip((winner, reason, turns, decisions), again, strict=True):
        assert (column[40:] == piece).all()


def test_a_scratch_reused_for_every_decision_chooses_as_a_fresh_one_would() -> None:
    """`play_batch` keeps one scratch per thread for all its decisions and games (the view's cached BP and shields
    are forgotten by a stamp, the scenario stack and plan cache are refilled); the lock-step tests decide in a
    fresh scratch each time. Replayed decision by decision with fresh scratches, the batch's games are the same."""
    from cardlab.fast.rng import seed_rng
    from cardlab.games.dreadnought.fast import cpu
    from cardlab.games.dreadnought.fast.tables import N_ACTIONS

    game = Dreadnought()
    batch = fast_heuristic.play_game(game, HH, 24, 3)
    tab = cpu.game_table(game)
    row = np.zeros(cpu.ROW_SIZE, dtype=np.int64)
    out = np.zeros(int(tab[N_ACTIONS]), dtype=np.int64)
    rng = np.zeros(1, dtype=np.uint64)
    for index in range(24):
        seed_rng(rng, 3, index)
        n = cpu.deal(row, tab, rng, out)
        count = 0
        while row[cpu.PHASE] != cpu.PH_OVER and n > 0:
            n = cpu.apply(row, tab, fast_heuristic.heuristic_action(row, tab, out, n), rng, out)
            count += 1
        replayed = (row[cpu.WINNER], row[cpu.REASON], row[cpu.TURN], count)
        assert replayed == tuple(int(column[index]) for column in batch), f"game {index}"


def test_an_epsilon_seat_plays_some_random_moves() -> None:
    """`heuristic:epsilon=E`: E = 0 is the heuristic itself, E = 1 is random play."""
    game = Dreadnought()
    plain = fast_heuristic.play_game(game, HH, 16, 5)
    zero = fast_heuristic.play_game(game, HH, 16, 5, epsilons=(0.0, 0.0))
    assert all((a == b).all() for a, b in zip(plain, zero, strict=True))
    random_p1 = fast_heuristic.play_game(game, HH, 64, 5, epsilons=(1.0, 0.0))[0]
    assert (random_p1 == 1).mean() > 0.8


def test_the_kernels_hook_plays_heuristic_seats(tmp_path: Path) -> None:
    """`--engine cpu` plays `heuristic` (and `heuristic:epsilon=E`) seats beside `random`, and refuses the rest."""
    kernels = Dreadnought.kernels()
    assert kernels is not None
    kernels.check("cpu", ("heuristic", "random"))
    kernels.check("cpu", ("heuristic:epsilon=0.1", "heuristic"))
    run = kernels.run(Dreadnought().config_json(), HR, 32, 5, "cpu")
    assert len(run) == 32 and sum(run.seat_decisions) == int(run.decisions.sum())
    assert (run.winner == 0).mean() > 0.7
    with pytest.raises(CardlabError, match="plays the agents \\['random', 'heuristic'\\], not 'ismcts'"):
        kernels.check("cpu", ("ismcts", "heuristic"))
    with pytest.raises(CardlabError, match="epsilon must be between 0 and 1"):
        kernels.check("cpu", ("heuristic:epsilon=2", "random"))
    kernels.check("cpu", ("ismcts:backend=cpu", "heuristic"))  # the search's batch plays heuristic seats too

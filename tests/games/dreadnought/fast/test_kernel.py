"""The numba Dreadnought kernel plays exactly the reference engine's game (issue #34 item 2).

Both engines start from the reference's deal (`cpu.load_state`) and are driven in lock step by a seeded
random agent choosing from the reference's legal actions. At every decision point the legal-action sets must
be equal (the kernel answers in the reference's action ids, read from `tables.build_table`) and so must the
whole position (`cpu.reference_snapshot`: zones in order, HP stacks, field, checked flags, enchants, attached
codes, arms, modifiers, the attack, the trigger queue and the frame stack); at the end, the result (winner,
reason). A mismatch names the config, the seed and the first diverging decision with what both engines offered.

Run over the default config, every value of every rule option, other caster pairs and a black deck
of the sample set, and a designer's card file whose cards use what the sample set does not (negative and
filtered statics, speed-zone abilities and statics, attached statics, an arms' static and trigger, a
PAYMENT reducer on a unit, group damage with a discard cost, trigger ordering). The default run plays a
few hundred games; `pytest -m slow` plays 2,000 on the default config and 100 per other config. A rule
option the kernel does not know, and a card beyond its table's room, are refused with a CardlabError naming it.

The one chance event inside a game, rule mulligan_to=deck's shuffle (R-VD1), the reference seeds with the
cards' ids and the kernel draws from its own stream: the test hands the reference's order to the kernel
(`cpu.force_shuffle`) just before, so the rest of the game stays comparable. The harness and the card files
live in `lockstep.py`, shared with the heuristic's differential test.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from cardlab.core.errors import CardlabError
from cardlab.games.dreadnought.game import Dreadnought
from cardlab.games.dreadnought.state import DreadnoughtState

pytest.importorskip("numba")

from cardlab.games.dreadnought.fast import cpu
from cardlab.games.dreadnought.fast.tables import COMPILED_RULES, R_TOKEN_TO_FIRST
from tests.games.dreadnought.fast.lockstep import (
    DESIGNER_DECK,
    RULE_VALUES,
    diverges,
    other_configs,
    write_files,
)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return write_files(tmp_path_factory.mktemp("decks"))


def _check(name: str, game: Dreadnought, seeds: range) -> None:
    for seed in seeds:
        problem = diverges(name, game, seed)
        assert problem is None, problem


def test_default_config_in_lock_step() -> None:
    """A few hundred seeded games of the starter decks: every decision point and every result equal."""
    _check("default", Dreadnought(), range(250))


@pytest.mark.parametrize(("rule", "value"), RULE_VALUES, ids=[f"{rule}={value}" for rule, value in RULE_VALUES])
def test_every_compiled_rule_value_in_lock_step(rule: str, value: str) -> None:
    config = {"decks": {"P1": "tide_grove", "P2": "ember_spark"}, "rules": {rule: value}}
    _check(f"rule {rule}={value}", Dreadnought.from_config(config), range(10))


def test_other_casters_decks_designer_cards_and_patches_in_lock_step(files: dict[str, str]) -> None:
    for name, config in other_configs(files):
        _check(name, Dreadnought.from_config(config), range(25))


def test_mixed_rules_in_lock_step() -> None:
    rules = dict(RULE_VALUES[::-1])  # the last listed value of each option
    _check("mixed rules", Dreadnought.from_config({"rules": rules}), range(25))


@pytest.mark.slow
def test_lock_step_full_size(files: dict[str, str]) -> None:
    """2,000 games on the default config, 100 on every other config (issue #34)."""
    _check("default", Dreadnought(), range(1000, 3000))
    games = [(f"rule {r}={v}", Dreadnought.from_config({"rules": {r: v}})) for r, v in RULE_VALUES]
    games += [(name, Dreadnought.from_config(config)) for name, config in other_configs(files)]
    for name, game in games:
        _check(name, game, range(1000, 1100))


def test_a_mismatch_names_the_seed_and_the_first_diverging_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    """The report a broken kernel gives: here the kernel is handed a table that forgets a rule option."""
    game = Dreadnought.from_config({"rules": {"token_to": "first"}})
    original = cpu.load_state

    def forgetful(state: DreadnoughtState) -> tuple[np.ndarray, np.ndarray]:
        row, tab = original(state)
        tab[R_TOKEN_TO_FIRST] = 0
        return row, tab

    monkeypatch.setattr(cpu, "load_state", forgetful)
    problems = [diverges("token_to=first", game, seed) for seed in range(5)]
    first = next(problem for problem in problems if problem is not None)
    assert "token_to=first, seed " in first and ", decision " in first and "in the reference" in first


# -- what the kernel refuses ------------------------------------------------------------------------


def test_a_rule_option_the_kernel_does_not_know_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """An option added to `variants.RULE_OPTIONS` but not to the kernel (`tables.COMPILED_RULES`) is refused at
    any value but its default, never played by other rules."""
    monkeypatch.delitem(COMPILED_RULES, "blocker")
    game = Dreadnought.from_config({"rules": {"blocker": "rechosen"}})
    with pytest.raises(CardlabError, match="does not compile the rule value blocker=rechosen"):
        cpu.game_table(game)
    with pytest.raises(CardlabError, match="blocker=rechosen"):
        cpu.load_state(game.new_state(0, record_events=False))
    cpu.game_table(Dreadnought())  # the default value needs nothing


def test_a_card_beyond_the_tables_room_is_refused(files: dict[str, str], tmp_path: Path) -> None:
    """A designer's code of seven effects (the kernel holds six per ability, code or sub-effect)."""
    effects = ", ".join(['"draw(n=1)"'] * 7)
    card = '[[cards]]\nid = "Z99"\nname = "Long Spell"\ntype = "code"\ncluster = []\ncond = []\nspeed = "A"\n'
    card += f'cost = 0\ntiming = ["ACTION"]\neffects = [{effects}]\n'
    (tmp_path / "long.toml").write_text(card, encoding="utf-8")
    deck = DESIGNER_DECK.replace("K03 = 2", "K03 = 1, Z99 = 1")
    (tmp_path / "deck.toml").write_text(deck, encoding="utf-8")
    config = {"decks": {"P1": str(tmp_path / "deck.toml"), "P2": "tide_grove"},
              "cards": [files["cards"], str(tmp_path / "long.toml")]}  # fmt: skip
    with pytest.raises(CardlabError, match="cannot play deck 'zed': card Z99 has 7 effects"):
        cpu.game_table(Dreadnought.from_config(config))


def test_a_game_outgrowing_the_row_stops_with_an_error(files: dict[str, str], tmp_path: Path) -> None:
    """A designer's code of 30 boosts at once outgrows the 24 enchants the row holds per object: the batch is
    refused with a CardlabError instead of counting a game played by other rules."""
    card = '[[cards]]\nid = "Z98"\nname = "Overgrowth"\ntype = "code"\ncluster = []\ncond = []\nspeed = "A"\n'
    card += 'cost = 0\ntiming = ["CAST", "FAST"]\neffects = ["enchant(kind=boost, target=own_unit, count=30)"]\n'
    (tmp_path / "grow.toml").write_text(card, encoding="utf-8")
    (tmp_path / "deck.toml").write_text(DESIGNER_DECK.replace("R05 = 2, R07 = 2", "Z98 = 4"), encoding="utf-8")
    config = {"decks": {"P1": str(tmp_path / "deck.toml"), "P2": "tide_grove"},
              "cards": [files["cards"], str(tmp_path / "grow.toml")]}  # fmt: skip
    with pytest.raises(CardlabError, match="outgrew the cpu engine's room"):
        cpu.play_game(Dreadnought.from_config(config), 200, 1)


# -- whole games in the kernel --------------------------------------------------------------------------


def test_play_batch_games_end_by_the_rules() -> None:
    """Kernel-dealt random games end with a legal result, depend on (seed, index) only, and both seats win."""
    game = Dreadnought()
    winner, reason, turns, decisions = cpu.play_game(game, 300, 7)
    assert set(winner.tolist()) <= {-1, 0, 1} and {0, 1} <= set(winner.tolist())
    assert set(reason.tolist()) <= {0, 1}  # hp, turn_limit (no concession in a kernel game)
    assert (turns >= 1).all() and (turns <= 100).all() and (decisions >= 2).all()
    again = cpu.play_game(game, 100, 7, first_game=200)
    for column, piece in zip((winner, reason, turns, decisions), again, strict=True):
        assert (column[200:] == piece).all()


def test_play_batch_matches_the_reference_distribution() -> None:
    """Random games dealt by the kernel and by the reference: about the same P1 win rate (a z test at alpha
    0.001, so a correct kernel fails one run in a thousand) and the same win reasons."""
    game = Dreadnought()
    kernel_winner, kernel_reason, _, _ = cpu.play_game(game, 4000, 3)
    rng = random.Random(3)
    reference: Counter[tuple[int | None, str]] = Counter()
    for seed in range(400):
        state = game.new_state(seed, record_events=False)
        while state.outcome() is None:
            state.apply(rng.choice(state.legal_actions()))
        outcome = state.outcome()
        assert outcome is not None
        reference[(outcome.winner, outcome.reason)] += 1
    p_ref = sum(count for (winner, _), count in reference.items() if winner == 0) / 400
    p_kernel = float((kernel_winner == 0).mean())
    pooled = (p_ref * 400 + p_kernel * 4000) / 4400
    z = abs(p_ref - p_kernel) / (pooled * (1 - pooled) * (1 / 400 + 1 / 4000)) ** 0.5
    assert z < 3.29, (p_ref, p_kernel)
    assert {cpu.REASON_NAMES[int(r)] for r in set(kernel_reason.tolist())} <= {name for (_, name) in reference} | {
        "turn_limit"
    }


def test_the_kernels_hook_plays_and_refuses(monkeypatch: pytest.MonkeyPatch) -> None:
    """`Dreadnought.kernels()`: `--engine cpu` plays random games of a compiled config and refuses the rest."""
    kernels = Dreadnought.kernels()
    assert kernels is not None and kernels.engines == ("cpu",)
    run = kernels.run(Dreadnought().config_json(), ("random", "random"), 64, 5, "cpu")
    assert len(run) == 64 and run.reasons == cpu.REASON_NAMES and sum(run.seat_decisions) == int(run.decisions.sum())
    with pytest.raises(CardlabError, match="plays the agents \\['random', 'heuristic'\\], not 'mcts'"):
        kernels.check("cpu", ("random", "mcts"))
    monkeypatch.delitem(COMPILED_RULES, "mulligan_to")
    refused = Dreadnought.from_config({"rules": {"mulligan_to": "deck"}}).config_json()
    with pytest.raises(CardlabError, match="does not compile the rule value mulligan_to=deck"):
        kernels.run(refused, ("random", "random"), 4, 5, "cpu")

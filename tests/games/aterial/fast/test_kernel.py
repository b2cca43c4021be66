"""The numba Aterial kernel plays exactly the reference engine's game (issue #34).

Both engines start from the reference's deal (`cpu.load_state`) and are driven in lock step by a seeded
random agent choosing from the reference's legal actions. At every decision point the legal-action sets
must be equal (the kernel uses the reference's action ids, `tables._check_action_ids`) and so must the
whole position (zones in order, units, LP, window, pending choice, trigger queue); at the end, the
result (winner, reason). A mismatch names the config, the seed and the first diverging decision with
what both engines offered.

The one chance event inside a game, a mulligan's shuffle (A6.4), is drawn by each engine from its own
randomness: after a MULLIGAN the test checks that the kernel holds the same cards in that player's deck
and hand (the same hand, under the default redraw_first) and then copies the reference's order over, so
the rest of the game stays comparable.

Run over the default config, every non-default value of every rule option (`variants.RULE_OPTIONS`), other
leaders, card patches and a designer's own card and deck files. The default run plays a few hundred games;
`pytest -m slow` plays 2,000 on the default config and 100 per other config.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cardlab.fast.rng import new_rng
from cardlab.games.aterial import heuristic
from cardlab.games.aterial.game import Aterial
from cardlab.games.aterial.state import AterialState
from cardlab.games.aterial.variants import RULE_OPTIONS
from tests.designer_files import NEW_CARD

pytest.importorskip("numba")

from cardlab.games.aterial.fast import cpu
from cardlab.games.aterial.fast import heuristic as hk
from cardlab.games.aterial.fast.tables import N_ACTIONS

RULE_VALUES = [(option.name, value) for option in RULE_OPTIONS for value in option.values if value != option.default]

DESIGNER_CARDS = (
    NEW_CARD
    + """
[[cards]]
type = "leader"
id = "L90"
name = "Herald of Many"
cost = 2
attack = 2
lp = 18
dominance = 2
races = ["human", "machine"]
abilities = [
  { key = "aura", race = "any", attack = 1, hp = 1 },
  { key = "kinship", race = "human", amount = 1 },
  { key = "tap_snipe", amount = 1 },
  { key = "devour", amount = 1 },
  { key = "nimble" },
]

[[cards]]
type = "subordinate"
id = "S91"
name = "Twin Striker"
cost = 1
attack = 2
hp = 2
dominance = 1
races = ["human", "beast"]
abilities = [
  { key = "deploy_strike", amount = 1 },
  { key = "deploy_strike", amount = 1 },
  { key = "farewell_heal", amount = 2 },
  { key = "farewell_heal", amount = 1 },
  { key = "pierce" },
  { key = "flank", amount = 1 },
]

[[cards]]
type = "subordinate"
id = "S92"
name = "Bulwark Totem"
cost = 0
attack = 0
hp = 3
dominance = 2
races = ["machine"]
abilities = [
  { key = "aura", race = "any", attack = 0, hp = 1 },
  { key = "armor", amount = 1 },
  { key = "armor", amount = 1 },
  { key = "cannot_attack" },
  { key = "wide_reach" },
  { key = "rear_support", amount = 1 },
]

[[cards]]
type = "subordinate"
id = "S93"
name = "Rally Drummer"
cost = 2
attack = 1
hp = 2
dominance = 1
races = ["human"]
abilities = [
  { key = "hand_rally", amount = 2 },
  { key = "hand_cycle" },
  { key = "tap_heal", amount = 1 },
  { key = "tap_snipe", amount = 1 },
  { key = "devour", amount = 1 },
  { key = "deploy_heal", amount = 3 },
  { key = "deploy_draw", amount = 2 },
]

[[cards]]
type = "subordinate"
id = "S94"
name = "Skirmisher"
cost = 2
attack = 3
hp = 1
dominance = 0
races = ["beast"]
abilities = [
  { key = "ranged" },
  { key = "evasive" },
  { key = "nimble" },
  { key = "siege", amount = 2 },
  { key = "kinship", race = "machine", amount = 2 },
]
"""
)
"""A designer's card file: the packaged one's S90 and cards stacking abilities the sample set never combines."""

DESIGNER_DECK = """[[deck]]
id = "DX"
name = "Designer Mix"
leader = "L90"
cards = { S90 = 3, S91 = 4, S92 = 4, S93 = 4, S94 = 4, S01 = 2, S07 = 2, S09 = 1, S18 = 1, S23 = 1, S29 = 1, S30 = 1, \
S33 = 1, S38 = 1 }
"""


# -- lock step ---------------------------------------------------------------------------------------


def _reference_snapshot(state: AterialState) -> dict[str, Any]:
    """Everything that decides the rest of the game, in the kernel's terms (shuffle seed and events aside)."""
    keys = {"": -1} | cpu.SKEY_CODES
    return {
        "turn": state.turn,
        "active": state.active,
        "first": state.first,
        "window": state.window,
        "chooser": state.chooser,
        "selected": state.selected,
        "ability": keys[state.selected_key],
        "pending": state.pending_amount,
        "attack": (state.attacker, state.target, int(state.side)),
        "lost": [int(lost) for lost in state.lost],
        "lp": list(state.lp),
        "leader": list(state.leader),
        "field": [list(field) for field in state.field],
        "zones": [
            [list(pair[p]) for p in (0, 1)] for pair in (state.decks, state.hands, state.discards, state.removed)
        ],
        "units": [
            [int(values[i]) for values in (state.square_of, state.ready, state.damage, state.moves, state.devoured)]
            + [state.temp_attack[i]]
            for i in range(len(state.cards))
        ],
        "triggers": [(t.controller, cpu.KEY[t.key], t.amount, t.source) for t in state.triggers],
    }


def _texts(game: Aterial, actions: list[int]) -> list[str]:
    return [str(game.actions.space[action]) for action in sorted(actions)]


def _diverges(name: str, game: Aterial, seed: int, drivers: tuple[str, str] = ("random", "random")) -> str | None:
    """Play one seeded game in both engines, each seat choosing as its driver (random, or the reference heuristic);
    None if they agree throughout, else where they first differ. With a heuristic driver, the compiled heuristic's
    choice is compared too, at every decision of both seats."""
    state = game.new_state(seed, record_events=False)
    row, tab = cpu.load_state(state)
    out = np.empty(int(tab[N_ACTIONS]), dtype=np.int64)
    n = cpu.legal_actions(row, tab, out)
    agent = random.Random(seed)
    kernel_rng = new_rng(seed)
    count = len(state.cards)
    last = "the deal"
    for decision in range(10_000):
        reference = sorted(int(action) for action in state.legal_actions())
        kernel = sorted(int(action) for action in out[:n])
        where = f"{name}, seed {seed}, decision {decision} (after {last})"
        if reference != kernel:
            return f"{where}: reference offered {_texts(game, reference)}, kernel {_texts(game, kernel)}"
        expected, got = _reference_snapshot(state), cpu.snapshot(row, count)
        if expected != got:
            field = next(key for key in expected if expected[key] != got[key])
            return f"{where}: {field} is {expected[field]} in the reference, {got[field]} in the kernel"
        if state.outcome() is not None:
            outcome = state.outcome()
            assert outcome is not None
            if (outcome.winner, outcome.reason) != cpu.outcome(row):
                return f"{where}: result {outcome.winner, outcome.reason} in the reference, {cpu.outcome(row)} kernel"
            return None
        mover = state.current_player()
        assert mover is not None
        if "heuristic" in drivers:
            expected_choice, kernel_choice = int(heuristic.choose(state, agent)), hk.heuristic_action(row, tab, out, n)
            if expected_choice != kernel_choice:
                choices = _texts(game, [expected_choice]), _texts(game, [kernel_choice])
                return f"{where}: the reference heuristic chose {choices[0]}, the kernel's {choices[1]}"
        legal = state.legal_actions()
        action = heuristic.choose(state, agent) if drivers[mover] == "heuristic" else agent.choice(legal)
        last = f"{'P1' if mover == 0 else 'P2'} {action}"
        state.apply(action)
        n = cpu.apply(row, tab, int(action), kernel_rng, out)
        if action == game.actions.mulligan:  # each engine shuffled from its own randomness (A6.4)
            problem = cpu.sync_mulligan(row, mover, state.decks[mover], state.hands[mover], game.flags.shuffle_first)
            if problem:
                return f"{where}: {problem}"
            n = cpu.legal_actions(row, tab, out)
    return f"{name}, seed {seed}: no end after 10,000 decisions"


def _check(name: str, game: Aterial, seeds: range, drivers: tuple[str, str] = ("random", "random")) -> None:
    for seed in seeds:
        problem = _diverges(name, game, seed, drivers)
        assert problem is None, problem


# -- configs -----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def designer_files(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    folder = tmp_path_factory.mktemp("designer")
    cards, deck = folder / "cards.toml", folder / "dx.toml"
    cards.write_text(DESIGNER_CARDS, encoding="utf-8")
    deck.write_text(DESIGNER_DECK, encoding="utf-8")
    return str(cards), str(deck)


def _designer_games(files: tuple[str, str]) -> list[tuple[str, Aterial]]:
    cards, deck = files
    return [
        ("designer DX-D2", Aterial.from_config({"decks": {"P1": deck, "P2": "D2"}, "cards": [cards]})),
        ("designer D1-DX", Aterial.from_config({"decks": {"P1": "D1", "P2": deck}, "cards": [cards]})),
    ]


OTHER_CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("leaders L02-L05", {"leaders": {"P1": "L02", "P2": "L05"}}),
    ("leaders L03-L01, D2-D1", {"decks": {"P1": "D2", "P2": "D1"}, "leaders": {"P1": "L03", "P2": "L01"}}),
    ("patches", {"patches": ["S14.cost=0", "S19.attack=6", "S17.abilities[0].amount=3", "S20.dominance=3"]}),
    ("all non-default rules", {"rules": dict(RULE_VALUES[::-1])}),
]


def test_default_config_in_lock_step() -> None:
    _check("default", Aterial(), range(150))


@pytest.mark.parametrize(("rule", "value"), RULE_VALUES, ids=[f"{rule}={value}" for rule, value in RULE_VALUES])
def test_every_rule_option_value_in_lock_step(rule: str, value: str) -> None:
    _check(f"rule {rule}={value}", Aterial.from_config({"rules": {rule: value}}), range(12))


@pytest.mark.parametrize(("name", "config"), OTHER_CONFIGS, ids=[name for name, _ in OTHER_CONFIGS])
def test_leaders_patches_and_rule_mixes_in_lock_step(name: str, config: dict[str, Any]) -> None:
    _check(name, Aterial.from_config(config), range(20))


def test_designer_card_file_in_lock_step(designer_files: tuple[str, str]) -> None:
    for name, game in _designer_games(designer_files):
        _check(name, game, range(30))


@pytest.mark.slow
def test_lock_step_full_size(designer_files: tuple[str, str]) -> None:
    """≥ 2,000 games on the default config, 100 on every other config (issue #34)."""
    _check("default", Aterial(), range(1000, 3000))
    games = [(f"rule {r}={v}", Aterial.from_config({"rules": {r: v}})) for r, v in RULE_VALUES]
    games += [(name, Aterial.from_config(config)) for name, config in OTHER_CONFIGS]
    for name, game in games + _designer_games(designer_files):
        _check(name, game, range(1000, 1100))


HEURISTIC_DRIVERS = [("heuristic", "random"), ("random", "heuristic"), ("heuristic", "heuristic")]


@pytest.mark.parametrize("drivers", HEURISTIC_DRIVERS, ids=["-".join(d) for d in HEURISTIC_DRIVERS])
def test_compiled_heuristic_chooses_as_the_reference(drivers: tuple[str, str]) -> None:
    """The compiled heuristic picks the reference heuristic's action at every decision point (issue #34)."""
    _check("default", Aterial(), range(40), drivers)


@pytest.mark.parametrize(("rule", "value"), RULE_VALUES, ids=[f"{rule}={value}" for rule, value in RULE_VALUES])
def test_compiled_heuristic_under_every_rule_option(rule: str, value: str) -> None:
    _check(f"rule {rule}={value}", Aterial.from_config({"rules": {rule: value}}), range(4), ("heuristic", "random"))


def test_compiled_heuristic_on_a_designer_card_file(designer_files: tuple[str, str]) -> None:
    for name, game in _designer_games(designer_files):
        _check(name, game, range(10), ("heuristic", "heuristic"))


def test_heuristic_batch_beats_random() -> None:
    """Whole kernel games with a policy per seat: the heuristic beats random from either seat."""
    game = Aterial()
    for policies, seat in ((("heuristic", "random"), 0), (("random", "heuristic"), 1)):
        winner, _, _, _ = hk.play_game(game, policies, 200, 9)
        assert (winner == seat).mean() > 0.8, policies


def test_a_mismatch_names_the_seed_and_the_first_diverging_decision() -> None:
    """The report a broken kernel gives: here the kernel is handed a table that forgets a rule option."""
    game = Aterial.from_config({"rules": {"leader_attacks": "no"}})
    original = cpu.load_state

    def forgetful(state: AterialState) -> tuple[np.ndarray, np.ndarray]:
        row, tab = original(state)
        tab[cpu.R_LEADER_ATTACKS] = 1
        return row, tab

    problems = []
    cpu.load_state = forgetful
    try:
        problems = [_diverges("leader_attacks=no", game, seed) for seed in range(5)]
    finally:
        cpu.load_state = original
    first = next(problem for problem in problems if problem is not None)
    assert "leader_attacks=no, seed " in first and "decision " in first
    assert "reference offered" in first and "kernel [" in first and "ATTACK F1" in first


# -- whole games in the kernel --------------------------------------------------------------------------


def test_play_batch_games_end_by_the_rules() -> None:
    """Kernel-dealt random games end with a legal result, depend on (seed, index) only, and both seats win."""
    game = Aterial()
    winner, reason, turns, decisions = cpu.play_game(game, 300, 7)
    assert set(winner.tolist()) <= {-1, 0, 1} and {0, 1} <= set(winner.tolist())
    assert set(reason.tolist()) <= set(range(len(cpu.REASON_NAMES)))
    assert (turns >= 1).all() and (decisions >= 2).all()
    again = cpu.play_game(game, 100, 7, first_game=200)
    for column, piece in zip((winner, reason, turns, decisions), again, strict=True):
        assert (column[200:] == piece).all()


def test_play_batch_matches_the_reference_distribution() -> None:
    """Random games dealt by the kernel and by the reference: the same mix of win reasons and about the
    same first-seat win rate (a z test at alpha 0.001, so a correct kernel fails one run in a thousand)."""
    game = Aterial.from_config({"first": "P1"})
    kernel_winner, kernel_reason, _, _ = cpu.play_game(game, 4000, 3)
    rng = random.Random(3)
    reference: Counter[tuple[int | None, str]] = Counter()
    for seed in range(600):
        state = game.new_state(seed, record_events=False)
        while state.outcome() is None:
            state.apply(rng.choice(state.legal_actions()))
        outcome = state.outcome()
        assert outcome is not None
        reference[(outcome.winner, outcome.reason)] += 1
    p_ref = sum(count for (winner, _), count in reference.items() if winner == 0) / 600
    p_kernel = float((kernel_winner == 0).mean())
    pooled = (p_ref * 600 + p_kernel * 4000) / 4600
    z = abs(p_ref - p_kernel) / (pooled * (1 - pooled) * (1 / 600 + 1 / 4000)) ** 0.5
    assert z < 3.29, (p_ref, p_kernel)
    reasons = {name for (_, name) in reference}
    assert {cpu.REASON_NAMES[int(r)] for r in set(kernel_reason.tolist())} <= reasons | {"simultaneous_loss"}


def test_load_state_refuses_a_deal_too_large(tmp_path: Path) -> None:
    from cardlab.core.errors import CardlabError
    from cardlab.games.aterial.fast.tables import build_table

    game = Aterial()
    state = game.new_state(0, record_events=False)
    with pytest.raises(CardlabError, match="at most 64 cards"):
        build_table(game, state.cards * 2)

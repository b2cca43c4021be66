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
(`cpu.force_shuffle`) just before, so the rest of the game stays comparable.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cardlab.core.errors import CardlabError
from cardlab.fast.rng import new_rng
from cardlab.games.dreadnought.game import Dreadnought
from cardlab.games.dreadnought.state import DreadnoughtState
from cardlab.games.dreadnought.variants import RULE_OPTIONS

pytest.importorskip("numba")

from cardlab.games.dreadnought.fast import cpu
from cardlab.games.dreadnought.fast.tables import COMPILED_RULES, N_ACTIONS, R_TOKEN_TO_FIRST

RULE_VALUES = [(option.name, value) for option in RULE_OPTIONS for value in option.values if value != option.default]

DESIGNER_CARDS = """[[cards]]
id = "Z01"
name = "Arc Sentinel"
type = "caster"
cluster = ["red"]
hp = 3
[[cards.abilities]]
kind = "static"
zone = "field"
effects = ["static_bp(target=all_own_units[zone=battle,cluster=red], amount=10)"]
[[cards.abilities]]
kind = "trigger"
event = "end_of_turn"
zone = "field"
effects = ["burst(n=1)"]
[[cards.abilities]]
kind = "activated"
timing = ["REACTION"]
zone = "field"
require = "attack"
cost = { discard = 1 }
effects = ["shield(target=blocker, amount=20)"]

[[cards]]
id = "Z02"
name = "Gloom Warden"
type = "caster"
cluster = ["black"]
hp = 3
hp_value = 40
[[cards.abilities]]
kind = "activated"
timing = ["ACTION"]
zone = "field"
cost = { log = 1, engrave = 1 }
effects = ["hp_break(target=enemy_caster, n=1)"]
[[cards.abilities]]
kind = "trigger"
event = "start_of_action_phase"
zone = "field"
effects = ["normalize(target=own_unit[state=checked])"]

[[cards]]
id = "Z10"
name = "Herald Sprite"
type = "unit"
cluster = ["red"]
cond = []
speed = "A"
cost = 0
size = "S"
bp = 60
[[cards.abilities]]
kind = "activated"
timing = ["SPEED"]
zone = "speed"
cost = { discard = 1 }
effects = ["speed_shift(steps=1)"]
[[cards.abilities]]
kind = "static"
zone = "speed"
effects = ["static_bp(target=all_own_units, amount=10)"]
[[cards.abilities]]
kind = "trigger"
event = "on_speed_reveal"
zone = "speed"
effects = ["draw(n=1)"]

[[cards]]
id = "Z11"
name = "Dread Hound"
type = "unit"
cluster = ["black"]
cond = []
speed = "B"
cost = 0
size = "M"
bp = 90
[[cards.abilities]]
kind = "static"
zone = "battle"
effects = ["static_bp(target=all_enemy_units[bp>=100], amount=-30)"]
[[cards.abilities]]
kind = "trigger"
event = "on_attack"
zone = "battle"
effects = ["enchant(kind=boost, target=attacker, count=1)"]

[[cards]]
id = "Z12"
name = "Hex Brand"
type = "code"
cluster = []
cond = []
speed = "A"
cost = 1
timing = ["ACTION", "REACTION"]
effects = [
  "attach(target=any_unit, statics=[static_bp(target=host, amount=-20), static_shield(target=host, amount=10)])",
]

[[cards]]
id = "Z13"
name = "Firestorm"
type = "code"
cluster = []
cond = []
speed = "C"
cost = 2
extra = { discard = 1 }
timing = ["ACTION"]
effects = ["damage(target=all_enemy_units, amount=60)", "move(target=own_unit)"]

[[cards]]
id = "Z14"
name = "Quick Drill"
type = "code"
cluster = []
cond = []
speed = "A+"
cost = 0
timing = ["FAST", "CAST"]
effects = [
  "bp_mod(target=own_unit[size=S], amount=20)",
  "check(target=enemy_unit[state=normal])",
  "hp_gain(target=own_caster, n=1)",
]

[[cards]]
id = "Z15"
name = "Ward Totem"
type = "idol"
cluster = []
cond = []
speed = "B"
cost = 0
size = "S"
bp = 40
upkeep = 1
[[cards.abilities]]
kind = "activated"
timing = ["REACTION", "ACTION"]
zone = "idol"
cost = { check_self = true, log = 1 }
effects = ["bounce(target=any_unit[name=Herald Sprite])"]
[[cards.abilities]]
kind = "static"
zone = "idol"
effects = ["static_shield(target=all_own_units[zone=battle], amount=10)"]
[[cards.abilities]]
kind = "trigger"
event = "on_break"
zone = "field"
effects = ["engrave(n=2)"]

[[cards]]
id = "Z16"
name = "Spark Bracer"
type = "arms"
cluster = []
cond = []
speed = "A"
cost = 0
[[cards.grants]]
kind = "activated"
timing = ["FAST", "ACTION"]
zone = "field"
cost = { check_self = true }
effects = ["burst(n=1)"]
[[cards.grants]]
kind = "static"
zone = "field"
effects = ["static_bp(target=all_own_units, amount=10)"]
[[cards.grants]]
kind = "trigger"
event = "on_block"
zone = "field"
effects = ["draw(n=1)"]

[[cards]]
id = "Z17"
name = "Rune Adept"
type = "unit"
cluster = []
cond = []
speed = "A"
cost = 0
size = "S"
bp = 70
[cards.sub]
timing = ["CAST", "ACTION"]
cost = { log = 1 }
effects = ["engrave(n=1)", "normalize(target=any_unit)"]

[[cards]]
id = "Z18"
name = "Coin Imp"
type = "unit"
cluster = []
cond = []
speed = "A++"
cost = 0
size = "S"
bp = 50
[cards.sub]
timing = ["PAYMENT"]
cost = {}
effects = ["cost_reduce(n=2)"]

[[cards]]
id = "Z19"
name = "Grave Colossus"
type = "unit"
cluster = []
cond = []
speed = "C"
cost = 2
size = "L"
bp = 150
[[cards.abilities]]
kind = "trigger"
event = "on_cast"
zone = "battle"
effects = ["enchant(kind=weaken, target=all_enemy_units, count=1)"]
[[cards.abilities]]
kind = "trigger"
event = "on_block"
zone = "battle"
effects = ["attack_mod(amount=30)"]
"""
"""A designer's card file using what the sample set does not: a negative and filtered statics (`bp>=`, `zone`,
`cluster`), speed-zone abilities, statics and triggers, an attach with two statics, an arms granting an
activated ability, a static and a trigger, a discard cost on a code and a caster ability, an engrave cost, a
PAYMENT reducer of 2 on a unit, a sub-effect with a log cost, on_break, on_block and start_of_action_phase
triggers on casters, idols and units, `name`, `size` and `state` filters."""

DESIGNER_DECK = """[[deck]]
id = "zed"
name = "Designer Mix"
casters = ["Z01", "Z02"]
cards = { Z10 = 4, Z11 = 4, Z12 = 4, Z13 = 3, Z14 = 4, Z15 = 3, Z16 = 3, Z17 = 4, Z18 = 4, \
 Z19 = 3, R01 = 2, R04 = 2, R05 = 2, R07 = 2, K01 = 2, K02 = 2, K03 = 2 }
"""

BLACK_GROVE = """[[deck]]
id = "black_grove"
name = "Black Grove"
casters = ["X05", "X07"]
cards = { K01 = 4, K02 = 4, K03 = 3, K04 = 4, K05 = 3, K07 = 2, K08 = 2, G01 = 4, G02 = 3, \
 G03 = 2, G05 = 2, G06 = 2, G07 = 3, G08 = 1, G10 = 1, N03 = 2, N04 = 2, N07 = 2, N08 = 4 }
"""
"""The sample set's black cards (K01-K05, K07, K08: on_block, on_break and start_of_action_phase triggers, a
bp filter, a discard cost) with green, behind X05 and X07."""


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("decks")
    written = {}
    for name, text in (("cards", DESIGNER_CARDS), ("zed", DESIGNER_DECK), ("black_grove", BLACK_GROVE)):
        path = folder / f"{name}.toml"
        path.write_text(text, encoding="utf-8")
        written[name] = str(path)
    return written


def _other_configs(files: dict[str, str]) -> list[tuple[str, dict[str, Any]]]:
    cards = [files["cards"]]
    return [
        ("black_grove-ember_spark X02+X03", {"decks": {"P1": files["black_grove"], "P2": "ember_spark"},
                                             "casters": {"P1": None, "P2": ["X02", "X03"]}}),
        ("tide_grove X04+X07-black_grove", {"decks": {"P1": "tide_grove", "P2": files["black_grove"]},
                                            "casters": {"P1": ["X04", "X07"], "P2": None}}),
        ("designer-tide_grove", {"decks": {"P1": files["zed"], "P2": "tide_grove"}, "cards": cards}),
        ("black_grove-designer", {"decks": {"P1": files["black_grove"], "P2": files["zed"]}, "cards": cards}),
        ("patches", {"patches": ["R05.cost=0", "B02.bp=200", "Y06.effects[0]=speed_shift(steps=3)"]}),
    ]  # fmt: skip


# -- lock step ---------------------------------------------------------------------------------------


def _texts(game: Dreadnought, actions: list[int]) -> list[str]:
    return [str(game.actions.space[action]) for action in sorted(actions)]


def _diverges(name: str, game: Dreadnought, seed: int) -> str | None:
    """Play one seeded random game in both engines; None if they agree throughout, else where they first differ."""
    state = game.new_state(seed, record_events=False)
    row, tab = cpu.load_state(state)
    out = np.empty(int(tab[N_ACTIONS]), dtype=np.int64)
    n = cpu.legal_actions(row, tab, out)
    agent = random.Random(seed)
    kernel_rng = new_rng(seed)
    count = len(state.cards)
    last = "the deal"
    for decision in range(100_000):
        reference = sorted(int(action) for action in state.legal_actions())
        kernel = sorted(int(action) for action in out[:n])
        where = f"{name}, seed {seed}, decision {decision} (after {last})"
        if reference != kernel:
            return f"{where}: reference offered {_texts(game, reference)}, kernel {_texts(game, kernel)}"
        expected, got = cpu.reference_snapshot(state), cpu.snapshot(row, count)
        if expected != got:
            field = next(key for key in expected if expected[key] != got[key])
            return f"{where}: {field} is {expected[field]} in the reference, {got[field]} in the kernel"
        outcome = state.outcome()
        if outcome is not None:
            if (outcome.winner, outcome.reason) != cpu.outcome(row):
                return f"{where}: result {outcome.winner, outcome.reason} in the reference, {cpu.outcome(row)} kernel"
            return None
        mover = state.current_player()
        if mover != cpu.current_player(row):
            return f"{where}: {mover} moves in the reference, {cpu.current_player(row)} in the kernel"
        action = agent.choice(state.legal_actions())
        last = f"{'P1' if mover == 0 else 'P2'} {action}"
        _hand_over_the_mulligan_shuffle(state, row, action)
        state.apply(action)
        n = cpu.apply(row, tab, int(action), kernel_rng, out)
    return f"{name}, seed {seed}: no end after 100,000 decisions"


def _hand_over_the_mulligan_shuffle(state: DreadnoughtState, row: np.ndarray, action: Any) -> None:
    """Rule mulligan_to=deck (R-VD1): the reference shuffles the set-aside cards into the deck with Python's
    `random` seeded by the cards' ids, the kernel from its own stream. When `action` ends the mulligan (the last
    KEEP, or setting aside the last hand card, after which KEEP is forced), the kernel is handed the reference's
    order (`cpu.force_shuffle`), so the games stay comparable."""
    stack = state.stack
    if not state.game.mulligan_to_deck or stack[-1][0] != "mull" or stack[-2] != ("mull_done",):
        return
    mover = stack[-1][1]
    last_card = str(action).startswith("MULL") and len(state.hand[mover]) == 1
    if str(action) != "KEEP" and not last_card:
        return
    for p in (0, 1):
        mull = state.mull[p] + (state.hand[p] if p == mover and last_card else [])
        if mull:
            deck = state.deck[p] + mull
            random.Random(",".join(state.cards[i].id for i in deck)).shuffle(deck)
            cpu.force_shuffle(row, p, deck)


def _check(name: str, game: Dreadnought, seeds: range) -> None:
    for seed in seeds:
        problem = _diverges(name, game, seed)
        assert problem is None, problem


def test_default_config_in_lock_step() -> None:
    """A few hundred seeded games of the starter decks: every decision point and every result equal."""
    _check("default", Dreadnought(), range(250))


@pytest.mark.parametrize(("rule", "value"), RULE_VALUES, ids=[f"{rule}={value}" for rule, value in RULE_VALUES])
def test_every_compiled_rule_value_in_lock_step(rule: str, value: str) -> None:
    config = {"decks": {"P1": "tide_grove", "P2": "ember_spark"}, "rules": {rule: value}}
    _check(f"rule {rule}={value}", Dreadnought.from_config(config), range(10))


def test_other_casters_decks_designer_cards_and_patches_in_lock_step(files: dict[str, str]) -> None:
    for name, config in _other_configs(files):
        _check(name, Dreadnought.from_config(config), range(25))


def test_mixed_rules_in_lock_step() -> None:
    rules = dict(RULE_VALUES[::-1])  # the last listed value of each option
    _check("mixed rules", Dreadnought.from_config({"rules": rules}), range(25))


@pytest.mark.slow
def test_lock_step_full_size(files: dict[str, str]) -> None:
    """2,000 games on the default config, 100 on every other config (issue #34)."""
    _check("default", Dreadnought(), range(1000, 3000))
    games = [(f"rule {r}={v}", Dreadnought.from_config({"rules": {r: v}})) for r, v in RULE_VALUES]
    games += [(name, Dreadnought.from_config(config)) for name, config in _other_configs(files)]
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
    problems = [_diverges("token_to=first", game, seed) for seed in range(5)]
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
    with pytest.raises(CardlabError, match="plays the agents \\['random'\\], not 'heuristic'"):
        kernels.check("cpu", ("random", "heuristic"))
    monkeypatch.delitem(COMPILED_RULES, "mulligan_to")
    refused = Dreadnought.from_config({"rules": {"mulligan_to": "deck"}}).config_json()
    with pytest.raises(CardlabError, match="does not compile the rule value mulligan_to=deck"):
        kernels.run(refused, ("random", "random"), 4, 5, "cpu")

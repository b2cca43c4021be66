"""The lock-step harness of the Dreadnought kernel's differential tests (test_kernel.py, test_heuristic.py).

`diverges` plays one seeded game in both engines from the reference's deal (`cpu.load_state`), each seat
`random` (a seeded `random.Random` choosing from the reference's legal actions, the same move in both) or
`heuristic` (the reference's `heuristic.choose` and the kernel's `fast.heuristic.heuristic_action`, which must
agree). At every decision point the legal-action sets must be equal, and with `positions` the whole position
(`cpu.reference_snapshot`); at the end, the result. It returns None, or the first divergence in words: the
config's name, the seed, the decision and what both engines offered or chose.

Also the card files and configs both tests play: a designer's card file using what the sample set does not,
the sample set's black cards, other caster pairs, patches and every non-default rule value.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cardlab.fast.rng import new_rng
from cardlab.games.dreadnought import heuristic
from cardlab.games.dreadnought.game import Dreadnought
from cardlab.games.dreadnought.state import DreadnoughtState
from cardlab.games.dreadnought.variants import RULE_OPTIONS

pytest.importorskip("numba")

from cardlab.games.dreadnought.fast import cpu
from cardlab.games.dreadnought.fast.heuristic import heuristic_action
from cardlab.games.dreadnought.fast.tables import N_ACTIONS

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


def write_files(folder: Path) -> dict[str, str]:
    """The designer's card file and decks written to `folder`: their paths by name (cards, zed, black_grove)."""
    written = {}
    for name, text in (("cards", DESIGNER_CARDS), ("zed", DESIGNER_DECK), ("black_grove", BLACK_GROVE)):
        path = folder / f"{name}.toml"
        path.write_text(text, encoding="utf-8")
        written[name] = str(path)
    return written


def other_configs(files: dict[str, str]) -> list[tuple[str, dict[str, Any]]]:
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


def texts(game: Dreadnought, actions: list[int]) -> list[str]:
    return [str(game.actions.space[action]) for action in sorted(actions)]


SEATS = ("random", "heuristic")
"""What a seat of `diverges` plays."""


def diverges(
    name: str, game: Dreadnought, seed: int, seats: tuple[str, str] = ("random", "random"), *, positions: bool = True
) -> str | None:
    """Play one seeded game in both engines; None if they agree throughout, else where they first differ."""
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
            return f"{where}: reference offered {texts(game, reference)}, kernel {texts(game, kernel)}"
        if positions:
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
        seat = "P1" if mover == 0 else "P2"
        if seats[mover] == "heuristic":
            action = heuristic.choose(state, agent)
            chosen = int(heuristic_action(row, tab, out, n))
            if chosen != int(action):
                window = state.stack[-1][0] if state.stack[-1][0] != "win" else f"{state.stack[-1][2]} window"
                offered = [str(option) for option in state.legal_actions()]
                return (f"{where}: {seat}'s heuristic chose {action} in the reference, {game.actions.space[chosen]} "
                        f"in the kernel ({window}, offered {offered})")  # fmt: skip
        else:
            action = agent.choice(state.legal_actions())
        last = f"{seat} {action}"
        hand_over_the_mulligan_shuffle(state, row, action)
        state.apply(action)
        n = cpu.apply(row, tab, int(action), kernel_rng, out)
    return f"{name}, seed {seed}: no end after 100,000 decisions"


def hand_over_the_mulligan_shuffle(state: DreadnoughtState, row: np.ndarray, action: Any) -> None:
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

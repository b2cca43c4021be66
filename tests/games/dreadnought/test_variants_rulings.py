"""Dreadnought's rulings as rule options (issue #33): one test per value of each option, named after the rule id.

Each test plays one position (or a set-up) under the spec's ruling and under every alternative, so it fails when
the engine ignores the option. The rules travel in the position's config (`test_variants.ruled`). Expectations were
worked out from shared/rules/dreadnought.md (D4.6, D5.5, D6.6, D10.4, D10.7, D22.6) and docs/rulings.md (R-VD1 to
R-VD6). Rulings that are not options are listed, with the reason, in docs/rulings.md (R-VD7).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from cardlab.core.errors import PositionError
from cardlab.games.dreadnought import Dreadnought
from cardlab.games.dreadnought.game import DreadnoughtConfig
from cardlab.games.dreadnought.heuristic import choose
from cardlab.games.dreadnought.variants import RULE_OPTIONS

from .dreadnought_positions import FILLER, GAME, apply_all, enchant, legal, player, rest_of_turn, unit
from .test_variants import CK, hp, load, turn_start

NEW_OPTIONS = ("mulligan_to", "tie_reveals", "trigger_order", "reaction_first", "reactions", "blocker", "bp_filter")
"""The options of issue #33 (the rulings of D24 a player could read otherwise)."""
ALTERNATIVES = [(option.name, value) for option in RULE_OPTIONS if option.name in NEW_OPTIONS
                for value in option.values if value != option.default]  # fmt: skip


def stack_top(state) -> list[Any]:
    top: list[Any] = state.position()["stack"][-1]
    return top


def test_the_new_options_are_declared_with_their_rule_ids() -> None:
    rules = {option.name: (option.rule, option.default, option.values) for option in RULE_OPTIONS}
    assert rules["mulligan_to"] == ("D4.6", "discard", ("discard", "deck"))
    assert rules["tie_reveals"] == ("D6.6", "3", ("3", "0", "1", "no_limit"))
    assert rules["trigger_order"] == ("D5.5", "first", ("first", "second"))
    assert rules["reaction_first"] == ("D10.4", "defender", ("defender", "actor"))
    assert rules["reactions"] == ("D10.4", "immediate", ("immediate", "stack"))
    assert rules["blocker"] == ("D10.7", "fixed", ("fixed", "rechosen"))
    assert rules["bp_filter"] == ("D22.6", "current", ("current", "printed"))
    game = Dreadnought()
    assert not game.mulligan_to_deck and game.tie_reveals == 3 and not game.second_triggers_first
    assert not game.actor_reacts_first and not game.reaction_stack and not game.blocker_rechosen
    assert not game.printed_bp_filters


# ---- D4.6 mulligan_to -------------------------------------------------------------------------


def _mulligan(rules: dict[str, str] | None) -> dict[str, Any]:
    """Seed 5's set-up: P1 sets aside its first two hand cards (R01, Y01), P2 keeps; the position at turn 1."""
    game = Dreadnought(DreadnoughtConfig(rules=tuple((rules or {}).items())))
    state = apply_all(game.new_state(5), "PLACE X01", "PLACE X04")
    assert player(state, "P1")["hand"] == ["R01", "Y01", "R06", "R01", "R04", "R03"]
    apply_all(state, "MULL R01", "MULL Y01", "KEEP", "KEEP")
    position: dict[str, Any] = state.position()
    assert (position["phase"], position["turn"]) == ("speed", 1)
    return position


def test_d4_6_mulligan_to_discard() -> None:
    """D4.6 ruling: the set-aside cards go to the discard; the deck only shrinks (6 HP, 1 burst, 6 + 2 drawn, a speed
    card: 50 - 16 = 34 left)."""
    p1 = _mulligan(None)["players"]["P1"]
    assert Counter(p1["discard"]) == Counter(["R01", "Y01"]) and len(p1["deck"]) == 34


def test_d4_6_mulligan_to_deck() -> None:
    """mulligan_to=deck (R-VD1): the two cards are shuffled back into the deck before the two replacements are
    drawn, so the discard stays empty and the deck keeps them (36 cards); the shuffle is the same every time."""
    position = _mulligan({"mulligan_to": "deck"})
    p1 = position["players"]["P1"]
    assert p1["discard"] == [] and len(p1["deck"]) == 36
    assert len(p1["hand"]) == 6 and Counter(p1["hand"])["R06"] == 1  # kept: R06, R01, R04, R03, and two drawn
    unseen = Counter(p1["deck"]) + Counter(p1["hand"]) + Counter(p1["speed"])
    assert unseen["Y01"] == Counter(GAME.decks[0].card_list())["Y01"]  # every Y01 is back in play
    assert _mulligan({"mulligan_to": "deck"}) == position
    assert GAME.load_position(position).position() == position  # the position carries its rule


# ---- D6.6 tie_reveals -------------------------------------------------------------------------


def _tie(value: str | None):
    """Turn 3: both reveal N01 (B) four times, then P1 reveals Y02 (A) and P2 R03 (C); P2 holds the token."""
    rules = None if value is None else {"tie_reveals": value}
    tail = [FILLER] * 4
    return load(rules, token="P2", p1={"deck": [FILLER] * 4 + ["Y02", *tail], "checked": CK},
                p2={"deck": [FILLER] * 4 + ["R03", *tail], "checked": CK}, **turn_start())  # fmt: skip


@pytest.mark.parametrize(
    ("value", "first", "reveals"),
    [(None, "P2", 4), ("3", "P2", 4), ("0", "P2", 1), ("1", "P2", 2), ("no_limit", "P1", 5)],
)
def test_d6_6_tie_reveals(value: str | None, first: str, reveals: int) -> None:
    """D6.6 ruling: up to 3 re-reveals, then the token holder (P2) is F. tie_reveals=0: the token decides the first
    tie; 1: one re-reveal; no_limit: the fifth reveal breaks the tie by speed (Y02's A beats R03's C), so P1 is F."""
    state = _tie(value)
    assert state.position()["first"] == first
    assert player(state, "P1")["speed"] == [FILLER] * min(reveals, 4) + ["Y02"] * (reveals == 5)
    assert len(player(state, "P2")["speed"]) == reveals


def test_d6_6_no_limit_positions_load_past_three_reveals() -> None:
    """A tie-break past its third re-reveal exists only under tie_reveals=no_limit. With library_out=every_use P1,
    whose deck (5 N01) runs out at the fifth reveal, takes an HP card for the sixth: the position waits there with
    four re-reveals done, and loads only while its config keeps tie_reveals=no_limit."""
    rules = {"tie_reveals": "no_limit", "library_out": "every_use"}
    state = load(rules, token="P2", p1={"deck": [FILLER] * 5, "checked": CK},
                 p2={"deck": [FILLER] * 10, "checked": CK}, **turn_start())  # fmt: skip
    position = state.position()
    assert position["first"] is None and position["stack"][-2:] == [["compare", 4], ["hpdeck", "P1"]]
    assert GAME.load_position(position).position() == position
    del position["config"]["rules"]["tie_reveals"]
    with pytest.raises(PositionError, match=r"stack\[\d+\]\[1\]: the re-reveals so far, 0 to 3 \(D6.6\)"):
        GAME.load_position(position)


# ---- D5.5 trigger_order -----------------------------------------------------------------------


def _abyss_maws(rules: dict[str, str] | None):
    """The action phase begins (F = P1): both players' Abyss Maw (K03) weaken an enemy unit (D10.1). P1 has two
    targets to choose from, P2 one (P1's Abyss Maw)."""
    return load(rules, phase="fast", stack=rest_of_turn("fast"), p1={"ba1": ["K03"], "checked": CK},
                p2={"ba1": ["K03"], "ba2": ["G01"], "checked": CK})  # fmt: skip


def _weakens(state, seat: str) -> int:
    return sum(1 for e in player(state, seat)["BA1"]["units"][0]["enchants"] if e["kind"] == "weaken")


def test_d5_5_trigger_order_first() -> None:
    """D5.5 ruling: F's triggers first: P1 picks its target while its own Abyss Maw is untouched; P2's follows."""
    state = _abyss_maws(None)
    assert stack_top(state)[:2] == ["target", "P1"] and _weakens(state, "P1") == 0
    state.apply("TARGET P2:BA2.U1")
    assert _weakens(state, "P1") == 1 and stack_top(state)[:2] == ["aturn", "P1"]


def test_d5_5_trigger_order_second() -> None:
    """trigger_order=second: S's (P2's) trigger resolves first, so P1's Abyss Maw is already weakened when P1
    chooses its target."""
    state = _abyss_maws({"trigger_order": "second"})
    assert stack_top(state)[:2] == ["target", "P1"] and _weakens(state, "P1") == 1
    state.apply("TARGET P2:BA2.U1")
    assert _weakens(state, "P1") == 1 and stack_top(state)[:2] == ["aturn", "P1"]


# ---- D10.4 reaction_first ---------------------------------------------------------------------


def _flame_burst(rules: dict[str, str] | None):
    """P1's action turn: Flame Burst (ACTION) on P2's Moss Sprite; both players hold a Spark Sprite (REACTION sub)."""
    state = load(rules, phase="action", p1={"hand": ["R05", "Y01"], "bursts": 1, "ba1": ["R02"], "checked": CK},
                 p2={"hand": ["Y01"], "ba1": ["G01"], "checked": CK})  # fmt: skip
    state.apply("PLAY R05")  # the only target and the only log source follow by themselves
    return state


def _attack(rules: dict[str, str] | None):
    """P1 attacks P2's BA1 with Blaze Warden; P2 blocks with Moss Sprite; both hold a Spark Sprite."""
    state = load(rules, phase="action", p1={"hand": ["Y01"], "ba1": ["R02"], "checked": CK},
                 p2={"hand": ["Y01"], "ba1": ["G01"], "checked": CK})  # fmt: skip
    return apply_all(state, "ATTACKER BA1.U1", "ATTACK BA1", "BLOCK BA1.U1")


def test_d10_4_reaction_first_defender() -> None:
    """D10.4: the reaction right goes first to the player who did not act: P2 after the ACTION item, the defender
    (P2) after the block."""
    assert stack_top(_flame_burst(None)) == ["react", "P2", 0]
    assert stack_top(_attack(None)) == ["react", "P2", 0]
    state = _flame_burst(None)
    apply_all(state, "PASS")
    assert stack_top(state) == ["react", "P1", 1]


def test_d10_4_reaction_first_actor() -> None:
    """reaction_first=actor: P1, who played the item or attacked, holds the right first; the other player answers,
    and two passes in a row still close the window."""
    assert stack_top(_flame_burst({"reaction_first": "actor"})) == ["react", "P1", 0]
    assert stack_top(_attack({"reaction_first": "actor"})) == ["react", "P1", 0]
    state = _flame_burst({"reaction_first": "actor"})
    apply_all(state, "PASS")
    assert stack_top(state) == ["react", "P2", 1]
    state.apply("PASS")  # the window closes; Flame Burst resolves: 80 breaks Moss Sprite (70)
    assert player(state, "P2")["BA1"]["units"] == []


# ---- D10.4 reactions --------------------------------------------------------------------------


def _searing_arrow(rules: dict[str, str] | None):
    """P1 attacks P2's BA1 (Mira blocks); in reaction P2 shoots Searing Arrow (60) at P1's Mercenary Blade (BP 60),
    which is not attacking. P1 holds a Spark Sprite (+10 BP to an own unit, a REACTION sub)."""
    state = load(rules, phase="action", p1={"hand": ["Y01"], "ba1": ["R02", "N02"], "checked": CK},
                 p2={"hand": ["R06"], "bursts": 2, "checked": CK})  # fmt: skip
    return apply_all(state, "ATTACKER BA1.U1", "ATTACK BA1", "BLOCK BA1.C", "PLAY R06", "TARGET P1:BA1.U2")


def _p1_units(state) -> list[str]:
    return [u["card"] for u in player(state, "P1")["BA1"]["units"]]


def test_d10_4_reactions_immediate() -> None:
    """D10.4 ruling: each reaction resolves when played: Mercenary Blade is broken before P1 can answer; P1's Spark
    Sprite can then only pump the attacker."""
    state = _searing_arrow(None)
    assert _p1_units(state) == ["R02"] and stack_top(state) == ["react", "P1", 0]
    assert legal(state) == ["PASS", "SUB Y01"]


def test_d10_4_reactions_stack() -> None:
    """reactions=stack (R-VD4): Searing Arrow waits below the window; P1 answers with Spark Sprite on Mercenary
    Blade; when the window closes the last reaction resolves first (60 -> 70 BP), so the arrow's 60 no longer
    breaks it. The attack then deals its damage: Mira loses 100 // 50 = 2 HP."""
    state = _searing_arrow({"reactions": "stack"})
    assert _p1_units(state) == ["R02", "N02"]
    assert [frame[0] for frame in state.position()["stack"][-3:]] == ["attack_damage", "resolve", "react"]
    assert GAME.load_position(state.position()).position() == state.position()
    apply_all(state, "SUB Y01", "TARGET P1:BA1.U2")  # then both pass by themselves: nothing else to play
    units = player(state, "P1")["BA1"]["units"]
    assert [(u["card"], u["bp_mod"]) for u in units] == [("R02", 0), ("N02", 10)]
    assert hp(state, "P2", "BA1") == 1


def test_d10_4_reactions_stack_is_refused_without_its_rule() -> None:
    """A reaction waiting below its window is a stack that only the rule reactions=stack makes."""
    position = _searing_arrow({"reactions": "stack"}).position()
    del position["config"]["rules"]
    with pytest.raises(PositionError, match=r"a resolve step cannot lie on a attack_damage step"):
        GAME.load_position(position)


# ---- D10.7 blocker ----------------------------------------------------------------------------


def _shot_blocker(rules: dict[str, str] | None):
    """P1 attacks P2's BA1 (Seedling Swarm, Moss Sprite, Mira with 3 HP) with Blaze Warden (100); P2 blocks with
    Seedling Swarm (60); P2 passes and P1 breaks the blocker with Searing Arrow (60) in reaction."""
    state = load(rules, phase="action", p1={"hand": ["R06"], "bursts": 2, "ba1": ["R02"], "checked": CK},
                 p2={"ba1": ["G04", "G01"], "checked": CK})  # fmt: skip
    apply_all(state, "ATTACKER BA1.U1", "ATTACK BA1", "BLOCK BA1.U1")
    assert stack_top(state) == ["react", "P1", 1]  # P2 had nothing to play
    return apply_all(state, "PLAY R06", "TARGET P2:BA1.U1")


def test_d10_7_blocker_fixed() -> None:
    """D10.7 ruling: the blocker is fixed; it left, so the attack deals no damage: Moss Sprite and Mira's 3 HP
    stay, and the turn goes on to P2's action turn."""
    state = _shot_blocker(None)
    assert [u["card"] for u in player(state, "P2")["BA1"]["units"]] == ["G01"]
    assert hp(state, "P2", "BA1") == 3 and state.position()["attack"] is None


@pytest.mark.parametrize(("blocker", "hp_left", "units"), [("BA1.C", 1, ["G01"]), ("BA1.U1", 2, [])])
def test_d10_7_blocker_rechosen(blocker: str, hp_left: int, units: list[str]) -> None:
    """blocker=rechosen (R-VD5): P2 chooses again between Moss Sprite and Mira. Mira loses 100 // 50 = 2 HP; Moss
    Sprite (70) is broken, and with BA1 now empty the attack bonus takes 1 HP (D10.8)."""
    state = _shot_blocker({"blocker": "rechosen"})
    assert stack_top(state) == ["block", "P2"] and legal(state) == ["BLOCK BA1.C", "BLOCK BA1.U1"]
    assert state.position()["attack"]["blocker"] is None
    assert GAME.load_position(state.position()).position() == state.position()
    state.apply(f"BLOCK {blocker}")  # a new reaction window: nobody has anything left, so the damage follows
    assert hp(state, "P2", "BA1") == hp_left
    assert [u["card"] for u in player(state, "P2")["BA1"]["units"]] == units


# ---- D22.6 bp_filter --------------------------------------------------------------------------


def _riptide(rules: dict[str, str] | None, target: dict[str, Any]) -> list[str]:
    """P1's action turn with Riptide (bounce enemy_unit[bp<=120]) against one P2 unit."""
    return legal(load(rules, phase="action", p1={"hand": ["B05"], "bursts": 2, "checked": CK},
                      p2={"ba1": [target]}))  # fmt: skip


BOOSTED = unit("R02", enchants=[enchant("boost", "P2")] * 2)
"""Blaze Warden, printed 100, two boosts: 140."""
WEAKENED = unit("B03", enchants=[enchant("weaken", "P1")] * 4)
"""Abyssal Warden, printed 200, four weakens: 120."""


def test_d22_6_bp_filter_current() -> None:
    """D22.6 ruling: bp filters read current BP: the boosted Blaze Warden (140) is out of Riptide's reach, the
    weakened Abyssal Warden (120) in it (D5.3a: no target, no play)."""
    assert "PLAY B05" not in _riptide(None, BOOSTED)
    assert "PLAY B05" in _riptide(None, WEAKENED)


def test_d22_6_bp_filter_printed() -> None:
    """bp_filter=printed: printed BP decides: Blaze Warden (100) can be bounced, Abyssal Warden (200) cannot."""
    assert "PLAY B05" in _riptide({"bp_filter": "printed"}, BOOSTED)
    assert "PLAY B05" not in _riptide({"bp_filter": "printed"}, WEAKENED)


# ---- whole games ------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "value"), ALTERNATIVES)
def test_games_end_under_each_alternative(name: str, value: str) -> None:
    """Random and heuristic games under each new alternative end (no loop), the heuristic answers legally at every
    decision, and positions round-trip along the way."""
    game = Dreadnought(DreadnoughtConfig(rules=((name, value),)))
    assert game.config_json()["rules"] == {name: value}
    for seed in range(4):
        state, rng = game.new_state(seed, record_events=False), random.Random(seed)
        steps = 0
        while state.current_player() is not None:
            action = choose(state, rng)
            assert action in state.legal_actions()
            if seed % 2:
                action = rng.choice(state.legal_actions())
            if steps % 25 == 0:
                assert game.load_position(state.position()).position() == state.position()
            state.apply(action)
            steps += 1
        assert state.outcome() is not None and steps < 20_000


def test_defaults_are_the_spec() -> None:
    """A default config's JSON has no `rules` key, and spelling every new option at its default is the same game
    (the same set-up and the same random game, move for move)."""
    assert "rules" not in Dreadnought().config_json()
    spelled = {option.name: option.default for option in RULE_OPTIONS if option.name in NEW_OPTIONS}
    game = Dreadnought.from_config({**GAME.config_json(), "rules": spelled})
    assert "rules" not in game.config_json() and game.config == GAME.config
    for seed in range(2):
        a, b = GAME.new_state(seed, record_events=False), game.new_state(seed, record_events=False)
        rng_a, rng_b = random.Random(seed), random.Random(seed)
        while a.current_player() is not None:
            assert a.position() == b.position()
            a.apply(rng_a.choice(a.legal_actions()))
            b.apply(rng_b.choice(b.legal_actions()))
        assert a.outcome() == b.outcome()

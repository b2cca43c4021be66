"""One or more tests per rule of shared/rules/dreadnought.md with a visible effect that no scenario covers.

Each test name or docstring cites the rule it checks. Positions come from `make_position`
(dreadnought_positions.py) and are loaded through the public API; the engine then runs every
automatic step and applies every single-option decision (R-D1) up to the first real choice.
Expectations were worked out from the specification, not read off the engine.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path

import pytest

from cardlab.core import IllegalActionError
from cardlab.games.dreadnought import Dreadnought

from .dreadnought_positions import (
    CASTER_HP,
    FILLER,
    apply_all,
    dummy,
    enchant,
    legal,
    load,
    player,
    rest_of_turn,
    seen,
    unit,
    window,
    window_stack,
)

SCENARIOS = Path(__file__).parent / "scenarios"
CK = (True, True)
"""Both casters checked: their abilities and their log are out of the way."""


def last_pass(player_name: str = "P2", count: int = 9) -> list[list]:
    """The stack at the action turn whose pass ends the action phase (the other player passed just before)."""
    return [*rest_of_turn("action"), ["aturn", player_name, 1, count]]


def turn_start() -> dict:
    """Keyword arguments for a position at the very start of turn 3 (the stack holds only the turn frame)."""
    return {"phase": "end", "turn": 2, "first": None, "stack": [["turn"]]}


def units(state, name: str, area: str = "BA1") -> list[str]:
    return [u["card"] for u in player(state, name)[area]["units"]]


def hp(state, name: str, area: str) -> int:
    return len(player(state, name)[area]["hp"])


def start_game(seed: int = 3):
    state = Dreadnought().new_state(seed)
    state.apply("PLACE X01")
    state.apply("PLACE X04")
    return state


# -- D4 set-up ---------------------------------------------------------------------------------


def test_d4_1_owner_chooses_which_caster_goes_to_ba1():
    """D4.1: PLACE names the caster for BA1; the other goes to BA2."""
    state = Dreadnought().new_state(0)
    assert legal(state) == ["PLACE X01", "PLACE X03"]
    state.apply("PLACE X03")
    state.apply("PLACE X06")
    position = state.position()
    assert [position["players"]["P1"][a]["caster"]["card"] for a in ("BA1", "BA2")] == ["X03", "X01"]
    assert [position["players"]["P2"][a]["caster"]["card"] for a in ("BA1", "BA2")] == ["X06", "X04"]


def test_d4_2_shuffle_is_seeded():
    """D4.2: the same seed deals the same decks; different seeds differ."""
    decks = [Dreadnought().new_state(seed).position()["players"]["P1"]["deck"] for seed in (5, 5, 6)]
    assert decks[0] == decks[1]
    assert decks[0] != decks[2]
    assert Counter(decks[0]) == Counter(decks[2])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_d4_3_to_d4_5_setup_counts(seed):
    """D4.3 HP stacks = caster hp; D4.4 one burst each (closed, normal); D4.5 six-card hands; 50 cards in all."""
    state = start_game(seed)
    assert window(state) == "mull"
    for name, casters in (("P1", ("X01", "X03")), ("P2", ("X04", "X06"))):
        seat = player(state, name)
        assert [seat[a]["caster"]["card"] for a in ("BA1", "BA2")] == list(casters)
        assert [len(seat[a]["hp"]) for a in ("BA1", "BA2")] == [CASTER_HP[c] for c in casters]
        assert seat["bursts"] == [{"card": seat["bursts"][0]["card"], "checked": False}]
        assert len(seat["hand"]) == 6
        total = len(seat["deck"]) + len(seat["hand"]) + 1 + sum(len(seat[a]["hp"]) for a in ("BA1", "BA2"))
        assert total == 50


def _mulligan_two(seed: int = 4):
    """P1 sets two cards aside, both keep; returns (state, P1's hand and deck before, the set-aside cards)."""
    state = start_game(seed)
    before = player(state, "P1")
    set_aside = sorted(set(before["hand"]))[:2]
    for card in set_aside:
        state.apply(f"MULL {card}")
    state.apply("KEEP")
    state.apply("KEEP")
    return state, before, set_aside


def test_d4_6_mulligan_cards_go_to_the_discard():
    """D4.6: the set-aside cards go to the discard, not back into the deck."""
    state, before, set_aside = _mulligan_two()
    after = player(state, "P1")
    assert after["discard"] == set_aside
    assert after["mulligan"] == []
    assert len(after["deck"]) < len(before["deck"])


def test_d4_6_mulligan_draws_as_many_before_the_first_turn():
    """D4.6: the player then draws as many cards as were set aside, before the game goes on (D4.8)."""
    state, before, set_aside = _mulligan_two()
    kept = list(before["hand"])
    for card in set_aside:
        kept.remove(card)
    deck = before["deck"]
    after = player(state, "P1")
    assert Counter(after["hand"]) == Counter([*kept, deck[-1], deck[-2]])  # the deck's top card is listed last
    assert after["speed"] == [deck[-3]]  # turn 1 reveals the card under the two drawn


def test_d4_7_token_is_a_fair_coin():
    """D4.7: the tiebreak token of turn 1 is decided by the seed; both players get it for some seed."""
    holders = {Dreadnought().new_state(seed).position()["token"] for seed in range(12)}
    assert holders == {"P1", "P2"}


# -- D5 timing ---------------------------------------------------------------------------------


def test_d5_3a_no_announcement_without_a_target():
    """D5.3a: Flame Burst (damage an enemy unit) is not offered while the enemy has no unit."""
    state = load(phase="action", p1={"hand": ["R05"], "bursts": 2, "checked": CK})
    assert "PLAY R05" not in legal(state)
    state = load(phase="action", p1={"hand": ["R05"], "bursts": 2, "checked": CK}, p2={"ba1": ["G01"]})
    assert "PLAY R05" in legal(state)


def test_d5_3a_trigger_without_target_does_nothing():
    """D5.3a: K03's start_of_action_phase weaken has no enemy unit to target: it does nothing and F acts."""
    state = load(phase="fast", stack=rest_of_turn("fast"), p1={"ba2": ["K03"], "discard": ["R01"]})
    assert state.position()["stack"][-1] == ["aturn", "P1", 0, 0]
    assert player(state, "P1")["discard"] == ["R01"]
    assert state.position()["triggers"] == []


def test_d5_7_speed_area_cards_only_after_first_is_decided():
    """D5.7: in the speed window a speed-area SPEED code (Y06) is not playable; after F is decided the
    speed-area cards are cast and played like hand cards."""
    state = load(phase="speed", first=None, token="P2", to_move="P1", stack=window_stack("speed", "P1"),
                 p1={"speed": ["Y06"], "hand": ["Y06"], "checked": CK}, p2={"speed": [FILLER]})  # fmt: skip
    assert legal(state) == ["DONE", "GEAR Y06", "PLAY Y06"]  # the copy in hand only
    state = load(phase="cast", p1={"speed": ["Y04", "R08"], "ba1": ["R02"], "bursts": 1, "checked": CK})
    assert {"CAST Y04@S", "PLAY R08@S", "DUMMY R08@S BA1"} <= set(legal(state))


def test_d5_7_speed_area_is_not_hand_for_the_hand_limit():
    """D5.7, D11.2: seven hand cards and three speed-area cards: no hand-limit discard."""
    hand = ["R01", "R02", "R03", "R04", "R05", "Y01", "Y02"]
    state = load(phase="action", stack=last_pass(), p1={"hand": hand, "speed": ["Y03", "Y04", "Y05"]})
    assert state.position()["turn"] == 4
    assert Counter(player(state, "P1")["hand"]) == Counter(hand)
    assert player(state, "P1")["discard"] == ["Y03", "Y04", "Y05"]  # the speed area went in the cleanup (D11.3)


# -- D6 speed phase ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("speed", "shift", "grade"),
    [
        ([], 0, -1),  # empty speed area
        ([], 1, 0),  # below C shifted up to C
        (["N01"], 0, 1),  # B
        (["Y04", "R03"], 0, 0),  # the most recently opened card counts (C)
        (["N01"], 2, 3),  # B + 2 = A+
        (["Y04"], 1, 5),  # A+++ is the cap
        (["Y01"], 3, 5),  # A+ + 3 capped
    ],
)
def test_d6_2_current_speed(speed, shift, grade):
    """D6.2: current speed = min(5, index of the newest open speed card (-1 if none) + shifts)."""
    state = load(phase="cast", p1={"speed": speed, "speed_shift": shift, "hand": ["R02"]})
    assert seen(state, "P1")["speed_grade"] == grade
    assert seen(state, "P1", "P2")["speed_grade"] == grade


def test_d6_2_faster_player_acts_first():
    """D6.2-D6.4: P2 reveals A, P1 reveals B: P2's speed window comes first, then P1's."""
    state = load(token="P1", p1={"deck": [FILLER] * 4, "hand": ["R02"]},
                 p2={"deck": [FILLER] * 3 + ["G01"], "hand": ["B01"]}, **turn_start())  # fmt: skip
    assert state.position()["stack"][-1] == ["win", "P2", "speed"]
    state.apply("DONE")
    assert state.position()["stack"][-1] == ["win", "P1", "speed"]


def test_d6_3_one_gear_change_only():
    """D6.3: after one gear change no further GEAR is offered; the card is closed (hidden from the opponent)."""
    state = load(token="P1", p1={"deck": [FILLER] * 4, "hand": ["R02", "Y01"], "checked": CK},
                 p2={"deck": [FILLER] * 4, "hand": ["B01"]}, **turn_start())  # fmt: skip
    assert {"GEAR R02", "GEAR Y01"} <= set(legal(state))
    state.apply("GEAR Y01")
    assert state.position()["stack"][-1] == ["win", "P2", "speed"]  # P1 had nothing else to do
    assert player(state, "P1")["gear"] == ["Y01"]
    assert seen(state, "P1", "P2")["gear"] == 1
    assert seen(state, "P1")["gear"] == ["Y01"]


def test_d6_5_gear_card_sets_speed():
    """D6.5: the gear-changed card opens and, being the newest, sets its owner's speed: Y01 (A+) beats G01 (A)."""
    state = load(token="P1", p1={"deck": [FILLER] * 4, "hand": ["Y01", "R02"], "checked": CK},
                 p2={"deck": [FILLER] * 3 + ["G01"], "hand": ["B01"]}, **turn_start())  # fmt: skip
    apply_all(state, "DONE", "GEAR Y01")  # P2 is faster (A vs B) and acts first
    position = state.position()
    assert position["first"] == "P1"
    assert position["players"]["P1"]["speed"] == [FILLER, "Y01"]


# -- D7 draw phase -----------------------------------------------------------------------------


def test_d7_1_first_draws_one_second_draws_two():
    """D7.1-D7.2: F (P2, faster) draws 1 and S draws 2; then each moves its deck's top card to the burst area."""
    state = load(token="P1", p1={"deck": [FILLER] * 2 + ["R05", "R04", "R03", "R02"], "checked": CK},
                 p2={"deck": [FILLER] * 2 + ["B03", "B02", "B01", "G01"]}, **turn_start())  # fmt: skip
    position = state.position()
    assert position["first"] == "P2"
    assert position["stack"][-1] == ["win", "P2", "cast"]
    p1, p2 = position["players"]["P1"], position["players"]["P2"]
    assert p1["speed"] == ["R02"] and p2["speed"] == ["G01"]
    assert Counter(p2["hand"]) == Counter(["B01"])
    assert Counter(p1["hand"]) == Counter(["R03", "R04"])
    assert p2["bursts"] == [{"card": "B02", "checked": False}]
    assert p1["bursts"] == [{"card": "R05", "checked": False}]


def test_d7_2_no_burst_from_an_empty_deck():
    """D7.2, D20.2: the draw-phase burst is skipped when the deck is empty (it is not a draw)."""
    state = load(token="P1", p1={"deck": ["R03", "Y02"], "checked": CK}, p2={"deck": [FILLER] * 6},
                 **turn_start())  # fmt: skip
    p1 = player(state, "P1")
    assert p1["speed"] == ["Y02"] and p1["hand"] == ["R03"]  # F (A vs B) draws its last card
    assert p1["bursts"] == [] and p1["deck"] == []


# -- D8 cast phase -----------------------------------------------------------------------------


def test_d8_1_first_casts_then_second():
    """D8.1: F's cast window closes before S's opens; S sees F's deployment."""
    state = load(phase="cast", p1={"hand": ["R02"], "checked": CK}, p2={"hand": ["B01"], "checked": CK})
    apply_all(state, "CAST R02", "TO BA1", "DONE")
    assert state.position()["stack"][-1] == ["win", "P2", "cast"]
    assert seen(state, "P1", "P2")["BA1"]["units"][0]["card"] == "R02"


def test_d8_2_unit_enters_normal_and_can_attack_this_turn():
    """D8.2(1): no summoning sickness; the cast unit is open and normal and attacks in the same turn."""
    state = load(phase="cast", p1={"hand": ["R02"], "checked": CK}, p2={"checked": CK})
    apply_all(state, "CAST R02", "TO BA1", "DONE")
    assert state.position()["stack"][-1] == ["aturn", "P1", 0, 0]
    assert "ATTACKER BA1.U1" in legal(state)


def test_d8_2_each_unit_moves_once_per_cast_phase():
    """D8.2(3): a unit moved to the other battle area cannot move again this cast phase."""
    state = load(phase="cast", p1={"ba1": ["Y01"], "hand": ["R02"], "checked": CK})
    assert "MOVE BA1.U1" in legal(state)
    state.apply("MOVE BA1.U1")
    assert units(state, "P1", "BA2") == ["Y01"]
    assert "MOVE BA2.U1" not in legal(state)
    assert player(state, "P1")["BA2"]["units"][0]["moved"] is True


def test_d8_2_remove_is_not_a_break():
    """D8.2(4), D13.3: removing K02 Hollow Knight puts it and its enchant in the discard; on_break does not fire."""
    state = load(phase="cast", p1={"ba1": [unit("K02", enchants=[enchant("boost", "P1", "R01")])], "checked": CK},
                 p2={"ba1": ["G01"]})  # fmt: skip
    state.apply("REMOVE BA1.U1")
    assert Counter(player(state, "P1")["discard"]) == Counter(["K02", "R01"])
    assert state.position()["triggers"] == []
    assert player(state, "P2")["BA1"]["units"][0]["enchants"] == []


def test_d8_2_idol_moves_between_idol_area_and_battle_area():
    """D8.2(3), D19.5: an idol in a battle area may move to the empty idol area."""
    state = load(phase="cast", p1={"ba1": ["Y08"], "hand": ["R02"], "checked": CK})
    state.apply("MOVE BA1.U1")
    assert legal(state) == ["TO BA2", "TO IDOL"]
    state.apply("TO IDOL")
    assert player(state, "P1")["idol"]["card"] == "Y08"
    assert units(state, "P1") == []


def test_d8_4_no_casting_outside_the_cast_phase():
    """D8.4: in the fast window and in an action turn a unit in hand cannot be cast."""
    state = load(phase="fast", p1={"hand": ["R02"], "bursts": 2}, p2={"ba1": ["G01"]})
    assert not any(action.startswith(("CAST", "DUMMY")) for action in legal(state))
    state = load(phase="action", p1={"hand": ["R02"], "bursts": 2})
    assert not any(action.startswith(("CAST", "DUMMY")) for action in legal(state))


# -- D9 fast phase -----------------------------------------------------------------------------


def test_d9_1_fast_windows_first_then_second():
    """D9.1: F's fast window, then S's; then the action phase starts with F."""
    state = load(phase="fast", p1={"hand": ["R11"], "ba1": ["R02"], "checked": (False, True)}, p2={"hand": ["B09"]})
    assert state.position()["stack"][-1] == ["win", "P1", "fast"]
    state.apply("DONE")
    assert state.position()["stack"][-1] == ["win", "P2", "fast"]
    state.apply("DONE")
    assert state.position()["phase"] == "action"


# -- D10 action phase --------------------------------------------------------------------------


def test_d10_1_first_player_takes_the_first_action_turn():
    """D10.1: the action phase starts with F's action turn (here F is P2)."""
    state = load(phase="fast", first="P2", stack=rest_of_turn("fast"), p1={"ba1": ["R02"]}, p2={"ba1": ["G01"]})
    assert state.position()["stack"][-1] == ["aturn", "P2", 0, 0]


def test_d10_3_two_passes_in_a_row_end_the_phase():
    """D10.3: P1 passes, P2 acts, so P1 may act again; then P1 and P2 pass in a row and the phase ends."""
    state = load(phase="action", p1={"ba1": ["R02"], "bursts": 1, "checked": CK},
                 p2={"ba1": ["G01"], "bursts": 1, "checked": CK})  # fmt: skip
    state.apply("PASS")
    assert state.position()["stack"][-1] == ["aturn", "P2", 1, 1]
    apply_all(state, "ATTACKER BA1.U1", "ATTACK BA2", "BLOCK BA2.C", "PASS", "PASS")  # P2 attacks; Oren loses 1 HP
    assert hp(state, "P1", "BA2") == 2
    assert state.position()["stack"][-1] == ["aturn", "P1", 0, 2]  # P2 acted: P1's pass no longer counts
    assert "ATTACKER BA1.U1" in legal(state)
    state.apply("PASS")
    assert state.position()["phase"] == "action"
    state.apply("PASS")
    assert state.position()["turn"] == 4  # the action phase ended and so did the turn


def test_d10_4_reaction_pass_is_not_an_action_pass():
    """D10.4: passing the reaction right does not count as passing the action turn."""
    state = load(phase="action", p1={"ba1": ["R02"], "bursts": 1, "checked": CK},
                 p2={"hand": ["B05"], "bursts": 3, "checked": CK})  # fmt: skip
    apply_all(state, "PASS", "PLAY B05", "PASS", "PASS")  # P1 passes; P2 bounces R02; both pass the reaction right
    assert player(state, "P1")["hand"] == ["R02"]
    assert state.position()["stack"][-1] == ["aturn", "P1", 0, 2]  # P2's action reset the passes


def test_d10_5_attackers_must_be_normal_and_are_checked():
    """D10.5: only normal own battle-area units may attack (not checked ones, not the idol-area idol); the
    attackers are checked as the attack's cost."""
    state = load(phase="action", p1={"ba1": ["R02", unit("Y01", checked=True)], "ba2": ["N02"], "idol": "R09",
                                     "checked": CK}, p2={"ba1": ["B02"], "bursts": 1})  # fmt: skip
    assert legal(state) == ["ATTACKER BA1.U1", "ATTACKER BA2.U1", "PASS"]
    apply_all(state, "ATTACKER BA1.U1", "ATTACKER BA2.U1")
    assert legal(state) == ["ATTACK BA1", "ATTACK BA2"]
    state.apply("ATTACK BA1")
    attack = state.position()["attack"]
    assert attack["attackers"] == ["P1:BA1.U1", "P1:BA2.U1"] and attack["area"] == "BA1"
    assert [u["checked"] for u in player(state, "P1")["BA1"]["units"]] == [True, True]
    assert player(state, "P1")["BA2"]["units"][0]["checked"] is True


def test_d10_5_attack_targets_need_a_unit_or_hp():
    """D10.5(2), D13.5: a battle area whose caster has 0 HP and no unit cannot be attacked."""
    state = load(phase="action", p1={"ba1": ["R02", "N02"], "checked": CK}, p2={"hp": (3, 0)})
    state.apply("ATTACKER BA1.U1")
    assert legal(state) == ["ATTACK BA1", "ATTACKER BA1.U2"]
    state = load(phase="action", p1={"ba1": ["R02", "N02"], "checked": CK}, p2={"hp": (3, 0), "ba2": ["G01"]})
    state.apply("ATTACKER BA1.U1")
    assert legal(state) == ["ATTACK BA1", "ATTACK BA2", "ATTACKER BA1.U2"]


def test_d10_6_blocker_choice_set():
    """D10.6: any unit in the attacked area (checked, dummy or idol too) or its caster with HP >= 1 may block."""
    state = load(phase="action", p1={"ba1": ["R03"], "checked": CK},
                 p2={"ba1": [unit("G01", checked=True), dummy("B05")], "ba2": ["Y08"], "bursts": 1})  # fmt: skip
    apply_all(state, "ATTACKER BA1.U1", "ATTACK BA1")
    assert state.position()["stack"][-1] == ["block", "P2"]
    assert legal(state) == ["BLOCK BA1.C", "BLOCK BA1.U1", "BLOCK BA1.U2", "GODDRAW"]
    state = load(phase="action", p1={"ba1": ["R03"], "checked": CK}, p2={"ba2": ["Y08"], "bursts": 1})
    apply_all(state, "ATTACKER BA1.U1", "ATTACK BA2")
    assert legal(state) == ["BLOCK BA2.C", "BLOCK BA2.U1", "GODDRAW"]


def test_d10_6_on_block_trigger_resolves_before_the_window():
    """D10.6, D5.5: K01 Grave Rat's on_block trigger weakens the attacker before the reaction window."""
    state = load(phase="action", p1={"ba1": ["N02"], "checked": CK}, p2={"ba1": ["K01"], "discard": ["B01"]})
    apply_all(state, "ATTACKER BA1.U1", "ATTACK BA1", "BLOCK BA1.U1")
    attacker = player(state, "P1")["BA1"]["units"][0]
    assert attacker["enchants"] == [enchant("weaken", "P2", "B01")]  # before the window opens
    assert state.position()["stack"][-1] == ["react", "P2", 0]
    state.apply("PASS")
    assert units(state, "P2") == ["K01"]  # N02 (60) weakened to 40 < K01's 70


def test_d10_7_blocker_gone_means_no_damage():
    """D10.7, D10.8: the blocker G04 is broken by a reaction (Searing Arrow) before the window closes: the attack
    deals no damage, and since G04 was not broken by attack damage there is no attack bonus either."""
    state = load(phase="action", p1={"ba1": ["R03"], "hand": ["R06"], "bursts": 2, "checked": CK},
                 p2={"ba1": ["G04"], "bursts": 1, "checked": CK})  # fmt: skip
    apply_all(state, "ATTACKER BA1.U1", "ATTACK BA1", "BLOCK BA1.U1", "PASS", "PLAY R06", "PASS")
    assert units(state, "P2") == []
    assert player(state, "P2")["discard"] == ["G04"]
    assert hp(state, "P2", "BA1") == 3
    assert state.position()["attack"] is None
    assert state.position()["stack"][-1] == ["aturn", "P2", 0, 1]


def test_d10_7_no_damage_when_all_attackers_left():
    """D10.7: the only attacker (G04, BP 60) is broken by the defender's Searing Arrow in the reaction window:
    no attacking unit remains, so Ignis Varga, who blocked, loses no HP."""
    state = load(phase="action", first="P2", p1={"hand": ["R06"], "bursts": 3, "checked": CK},
                 p2={"ba1": ["G04"], "bursts": 1, "checked": CK})  # fmt: skip
    apply_all(state, "ATTACKER BA1.U1", "ATTACK BA1", "BLOCK BA1.C", "PLAY R06", "PASS", "PASS")
    assert player(state, "P2")["discard"] == ["G04"]
    assert hp(state, "P1", "BA1") == 3
    assert state.position()["stack"][-1] == ["aturn", "P1", 0, 1]


def test_d10_7_an_attacker_that_leaves_is_dropped_from_the_attack():
    """D10.7: once the only attacker (G04) is broken in the reaction window, the pending attack names no
    attacker (what the heuristic and every view read), though the attack itself is still in progress."""
    state = load(phase="action", first="P2", p1={"hand": ["R06"], "bursts": 3, "checked": CK},
                 p2={"ba1": ["G04"], "bursts": 1, "checked": CK})  # fmt: skip
    apply_all(state, "ATTACKER BA1.U1", "ATTACK BA1", "BLOCK BA1.C")
    assert len(state.position()["attack"]["attackers"]) == 1
    apply_all(state, "PLAY R06", "PASS")
    assert player(state, "P2")["discard"] == ["G04"]
    assert state.position()["attack"]["attackers"] == []


def test_d10_9_attackers_stay_checked():
    """D10.9: after attacking, a unit stays checked and is not offered as an attacker again this turn."""
    state = load(phase="action", p1={"ba1": ["R02"], "bursts": 1, "checked": CK}, p2={"bursts": 1, "checked": CK})
    apply_all(state, "ATTACKER BA1.U1", "ATTACK BA2", "BLOCK BA2.C", "PASS", "PASS", "PASS")
    assert state.position()["stack"][-1] == ["aturn", "P1", 1, 2]
    assert legal(state) == ["GODDRAW", "PASS"]


# -- D11 end phase -----------------------------------------------------------------------------


def test_d11_1_end_of_turn_triggers_of_both_players():
    """D11.1: after the last pass, both players' G02 Grove Stag end_of_turn triggers add a burst from the deck."""
    state = load(phase="action", first="P2", stack=last_pass("P1"), p1={"ba1": ["G02"], "deck": ["R02", "R01"]},
                 p2={"ba1": ["G02"], "deck": ["B02", "B01"]})  # fmt: skip
    state.apply("PASS")
    assert player(state, "P1")["bursts"] == [{"card": "R01", "checked": False}]
    assert player(state, "P2")["bursts"] == [{"card": "B01", "checked": False}]


def test_d11_5_until_end_of_turn_effects_end():
    """D11.5: bp_mod, shield and speed_shift end with the turn; boosts go with the cleanup; no damage is kept."""
    state = load(phase="action", stack=last_pass(),
                 p1={"ba1": [unit("R01", bp_mod=30, shield=20)], "speed_shift": 2, "caster_shield": (30, 0)},
                 p2={"ba1": [unit("G01", bp_mod=-10)], "speed_shift": 1})  # fmt: skip
    state.apply("PASS")
    position = state.position()
    assert position["turn"] == 4
    p1, p2 = position["players"]["P1"], position["players"]["P2"]
    assert (p1["BA1"]["units"][0]["bp_mod"], p1["BA1"]["units"][0]["shield"]) == (0, 0)
    assert p1["BA1"]["caster"]["shield"] == 0
    assert p2["BA1"]["units"][0]["bp_mod"] == 0
    assert (p1["speed_shift"], p2["speed_shift"]) == (0, 0)
    assert seen(state, "P1")["BA1"]["units"][0]["bp"] == 70


# -- D12 costs ---------------------------------------------------------------------------------


def test_d12_1_log_sources():
    """D12.1: normal bursts, normal engraves, normal casters (even at 0 HP) and the normal idol in the idol area
    pay log; checked bursts and an idol in a battle area do not."""
    state = load(phase="action", p1={"hand": ["K05"], "hp": (0, 3), "ba1": ["Y08"], "idol": "R09",
                                     "bursts": [{"card": FILLER, "checked": True}, {"card": FILLER, "checked": False}],
                                     "engraves": 1}, p2={"ba1": ["G01"], "bursts": 1})  # fmt: skip
    state.apply("PLAY K05")
    assert legal(state) == ["PAY BA1", "PAY BA2", "PAY BURST", "PAY ENGRAVE", "PAY IDOL"]
    apply_all(state, "PAY BA1", "PAY IDOL")
    assert legal(state) == ["PAY BA2", "PAY BURST", "PAY ENGRAVE"]
    state.apply("PAY ENGRAVE")
    p1 = player(state, "P1")
    assert p1["BA1"]["caster"]["checked"] and p1["idol"]["checked"] and p1["engraves"][0]["checked"]
    assert p1["bursts"][1]["checked"] is False and p1["BA2"]["caster"]["checked"] is False


def test_d12_3_check_self_needs_a_normal_source():
    """D12.3, D0.3: a checked caster cannot pay a check_self cost (Ignis Varga's CAST ability is not offered)."""
    state = load(phase="cast", p1={"ba1": ["R02"], "bursts": 2, "hand": ["R02"]})
    assert "USE BA1.C 0" in legal(state)
    state = load(phase="cast", p1={"ba1": ["R02"], "bursts": 2, "hand": ["R02"], "checked": (True, False)})
    assert "USE BA1.C 0" not in legal(state)


def test_d12_3_discard_cost():
    """D12.3: Focus Draw's extra discard 1 is paid with another hand card (not itself), then it draws 2."""
    state = load(phase="cast", p1={"hand": ["N03", "R02", "Y01"], "deck": [FILLER] * 3 + ["R05", "R04"],
                                   "checked": CK})  # fmt: skip
    state.apply("PLAY N03")
    assert legal(state) == ["DISCARD R02", "DISCARD Y01"]
    state.apply("DISCARD Y01")
    p1 = player(state, "P1")
    assert Counter(p1["hand"]) == Counter(["R02", "R04", "R05"])
    assert p1["discard"] == ["Y01", "N03"]


def test_d12_4_unpayable_plays_are_not_offered():
    """D12.4: Soul Reap (3 log) with 2 log, Focus Draw (discard 1) as the only card, Dread Omen (engrave 1)
    without an engrave: none is offered."""
    state = load(phase="action", p1={"hand": ["K05"], "bursts": 1, "checked": (False, True)},
                 p2={"ba1": ["G01"]})  # fmt: skip
    assert "PLAY K05" not in legal(state)
    state = load(phase="action", p1={"hand": ["K05"], "bursts": 2, "checked": (False, True)}, p2={"ba1": ["G01"]})
    assert "PLAY K05" in legal(state)
    state = load(phase="cast", p1={"hand": ["N03"], "checked": CK})
    assert "PLAY N03" not in legal(state)
    state = load(phase="action", p1={"hand": ["K06"], "bursts": 6})
    assert "PLAY K06" not in legal(state)
    state = load(phase="action", p1={"hand": ["K06"], "bursts": 4, "engraves": 1, "checked": CK})
    assert "PLAY K06" in legal(state)


# -- D13 BP, damage, HP ------------------------------------------------------------------------


def test_d13_1_current_bp():
    """D13.1: printed BP (dummy 50) + 20 per boost - 20 per weaken + static_bp + bp_mod, as observations show it."""
    state = load(phase="cast", p1={
        "ba1": [unit("R02", enchants=[enchant("boost", "P1"), enchant("boost", "P1"), enchant("weaken", "P2")],
                     bp_mod=5), dummy(enchants=[enchant("boost", "P1")])],
        "ba2": ["Y08"], "idol": "R09", "hand": ["R01"]})  # fmt: skip
    ba1 = seen(state, "P1")["BA1"]["units"]
    assert [u["bp"] for u in ba1] == [100 + 40 - 20 + 10 + 5, 50 + 20 + 10]
    assert seen(state, "P1")["BA2"]["units"][0]["bp"] == 50 + 30 + 10  # Bolt Shrine's own static + Hearth's
    assert seen(state, "P1")["idol"]["bp"] == 60  # the idol-area idol is not in a battle area


def test_d13_2_damage_does_not_accumulate_in_one_window():
    """D13.2: Searing Arrow (60) as P1's action, answered by P1's own second Searing Arrow as a reaction: two
    60-damage instances against Y02 Thunder Stag (BP 100) do nothing."""
    state = load(phase="action", p1={"hand": ["R06", "R06"], "bursts": 4, "checked": CK},
                 p2={"ba1": ["Y02"], "bursts": 1, "checked": CK})  # fmt: skip
    apply_all(state, "PLAY R06", "PASS", "PLAY R06", "PASS")
    assert state.position()["stack"][-1] == ["aturn", "P2", 0, 1]
    assert units(state, "P2") == ["Y02"]
    assert player(state, "P1")["discard"] == ["R06", "R06"]


def test_d13_2_damage_does_not_carry_over_between_action_turns():
    """D13.2: Searing Arrow (60) in P1's action turn, another in P1's next action turn: Y02 (BP 100) survives."""
    state = load(phase="action", p1={"hand": ["R06", "R06"], "bursts": 4, "checked": CK},
                 p2={"ba1": ["Y02"], "bursts": 1, "checked": CK})  # fmt: skip
    apply_all(state, "PLAY R06", "PASS", "PASS", "PASS")  # P2 and P1 pass the reaction right, then P2 its turn
    assert state.position()["stack"][-1] == ["aturn", "P1", 1, 2]
    apply_all(state, "PLAY R06", "PASS")
    assert units(state, "P2") == ["Y02"]
    assert player(state, "P1")["discard"] == ["R06", "R06"]


def test_d13_3_on_break_trigger():
    """D13.3, D22.4: a broken K02 Hollow Knight's on_break (from the discard) weakens an enemy unit."""
    state = load(phase="action", p1={"hand": ["R05"], "bursts": 1, "checked": CK, "ba1": ["R02"]},
                 p2={"ba1": [unit("K02", enchants=[enchant("weaken", "P1", "R01")])], "discard": ["B01"],
                     "checked": CK})  # fmt: skip
    state.apply("PLAY R05")  # 80 damage against K02's 100 - 20 = 80: broken
    assert player(state, "P2")["discard"] == ["B01", "K02"]
    assert legal(state) == ["MATERIAL B01", "MATERIAL K02"]  # the weaken's material: P2's choice from its discard
    state.apply("MATERIAL B01")
    assert player(state, "P1")["BA1"]["units"][0]["enchants"] == [enchant("weaken", "P2", "B01")]


def test_d13_5_caster_at_zero_hp_cannot_block_but_pays_log():
    """D13.5, D2.4: Fen at 0 HP is not a blocker for its battle area's unit, but a 0-HP caster still pays log."""
    state = load(phase="action", p1={"ba1": ["R03"], "checked": CK}, p2={"hp": (3, 0), "ba2": ["G01"], "bursts": 1})
    apply_all(state, "ATTACKER BA1.U1", "ATTACK BA2")
    assert legal(state) == ["BLOCK BA2.U1", "GODDRAW"]
    state = load(phase="action", p1={"hand": ["R05"], "hp": (0, 3), "checked": (False, True)}, p2={"ba1": ["G01"]})
    assert "PLAY R05" in legal(state)


def test_d13_6_hp_has_no_upper_limit():
    """D13.6: Lifebloom raises Mira Tidewell above her printed 3 HP."""
    state = load(phase="cast", to_move="P2", p2={"hand": ["G09", "G04"], "bursts": 3, "checked": CK})
    apply_all(state, "PLAY G09", "TARGET P2:BA1.C")
    assert hp(state, "P2", "BA1") == 4


def test_d22_2_hp_break_takes_at_most_what_is_left():
    """D22.2 hp_break, D13.4: Dread Omen on a caster with 1 HP removes that card only."""
    state = load(phase="action", p1={"hand": ["K06"], "bursts": 4, "engraves": 1, "checked": CK},
                 p2={"hp": (1, 4), "bursts": 1, "checked": CK})  # fmt: skip
    apply_all(state, "PLAY K06", "TARGET P2:BA1.C", "PASS")
    assert hp(state, "P2", "BA1") == 0
    assert player(state, "P2")["bursts"] == [{"card": FILLER, "checked": False}, {"card": FILLER, "checked": True}]
    assert state.position()["phase"] == "action"


# -- D14 enchants ------------------------------------------------------------------------------


def test_d14_2_no_material_no_enchant():
    """D14.2: with an empty discard and an empty deck, no boost is placed."""
    state = load(phase="cast", p1={"hand": ["R08"], "deck": [], "bursts": 1, "ba1": ["R02"], "checked": CK})
    state.apply("PLAY R08")
    assert player(state, "P1")["BA1"]["units"][0]["enchants"] == []
    assert player(state, "P1")["discard"] == ["R08"]


def test_d14_3_enchants_on_dummies_and_idols():
    """D14.3: boosts and weakens may target dummies and idols (any field zone)."""
    state = load(phase="cast", p1={"hand": ["R08"], "bursts": 1, "ba1": [dummy("R05")], "idol": "R09",
                                   "discard": ["R01"], "checked": CK})  # fmt: skip
    state.apply("PLAY R08")
    assert legal(state) == ["TARGET P1:BA1.U1", "TARGET P1:IDOL"]
    apply_all(state, "TARGET P1:IDOL", "PAY BURST")
    assert [e["kind"] for e in player(state, "P1")["idol"]["enchants"]] == ["boost", "boost"]


# -- D15 dummies -------------------------------------------------------------------------------


def test_d15_1_dummy_is_hidden_from_the_opponent():
    """D15.1, D1.5: the dummy's real card is known to its owner only."""
    state = load(phase="cast", p1={"hand": ["R05", "R02"], "checked": CK})
    state.apply("DUMMY R05 BA1")
    mine = seen(state, "P1")["BA1"]["units"][0]
    theirs = seen(state, "P1", "P2")["BA1"]["units"][0]
    assert (mine["card"], mine["dummy"], mine["checked"], mine["bp"]) == ("R05", True, True, 50)
    assert (theirs["card"], theirs["dummy"], theirs["bp"]) == (None, True, 50)
    assert state.observation(None)["players"]["P1"]["BA1"]["units"][0]["card"] is None


def test_d15_1_dummy_weighs_s():
    """D15.1, D8.3: a dummy counts as an S unit: next to an M unit it fills the battle area."""
    state = load(phase="cast", p1={"hand": ["R05", "N02"], "ba1": ["R02"], "ba2": ["R03"], "checked": CK})
    assert "CAST N02" in legal(state)
    state.apply("DUMMY R05 BA1")
    assert not any(action.startswith(("CAST", "DUMMY")) for action in legal(state))


# -- D16 engraves ------------------------------------------------------------------------------


def test_d16_2_engraves_are_not_bursts():
    """D16.2: an engrave pays log or an engrave cost but cannot be god drawn."""
    state = load(phase="cast", p1={"engraves": 2, "hand": ["R02"], "checked": CK})
    assert "GODDRAW" not in legal(state)


# -- D17 god draw ------------------------------------------------------------------------------


def test_d17_2_god_draw_in_the_reaction_right_and_action_turn():
    """D17.2-D17.3: at the start of an action turn and while holding the reaction right, any number of god draws."""
    state = load(phase="action", p1={"bursts": 3, "hand": ["R07"], "ba1": ["R02"], "checked": CK},
                 p2={"bursts": 1, "ba1": ["G03"], "checked": CK})  # fmt: skip
    state.apply("GODDRAW")
    assert state.position()["stack"][-1] == ["aturn", "P1", 0, 0]
    apply_all(state, "ATTACKER BA1.U1", "ATTACK BA1", "BLOCK BA1.U1", "PASS")
    assert state.position()["stack"][-1] == ["react", "P1", 1]
    state.apply("GODDRAW")
    assert state.position()["stack"][-1] == ["react", "P1", 1]
    assert len(player(state, "P1")["hand"]) == 3


# -- D19 idols ---------------------------------------------------------------------------------


def test_d19_1_idol_cast_into_the_idol_area():
    """D19.1: an idol may be cast into the empty idol area whatever its size; a second idol only into a battle area."""
    state = load(phase="cast", p1={"hand": ["G08", "Y08"], "bursts": 1, "ba1": ["R03"], "ba2": ["R02"],
                                   "checked": CK})  # fmt: skip
    state.apply("CAST G08")  # M: no battle area fits (L; M) so the idol area is the only destination
    assert player(state, "P1")["idol"]["card"] == "G08"
    state.apply("CAST Y08")
    assert units(state, "P1", "BA2") == ["R02", "Y08"]


def test_d19_2_idol_in_the_idol_area_cannot_attack_or_block():
    """D19.2: an idol in the idol area neither attacks nor blocks, and the idol area is never an attack target."""
    state = load(phase="action", p1={"idol": "R09", "ba1": ["R02", "N02"], "checked": CK},
                 p2={"idol": "B08", "hp": (3, 0), "bursts": 1})  # fmt: skip
    assert legal(state) == ["ATTACKER BA1.U1", "ATTACKER BA1.U2", "PASS"]
    state.apply("ATTACKER BA1.U1")
    assert legal(state) == ["ATTACK BA1", "ATTACKER BA1.U2"]  # BA2 (0 HP, no unit) and the idol area are no targets
    state.apply("ATTACK BA1")
    assert legal(state) == ["BLOCK BA1.C", "GODDRAW"]  # B08 in the idol area cannot block


def test_d19_3_idol_ability_works_only_in_its_zone():
    """D19.3: Hearth of Cinders' ACTION ability is tagged `battle`: offered in a battle area, not in the idol area."""
    state = load(phase="action", p1={"ba1": ["R09"], "checked": CK}, p2={"ba1": ["G01"]})
    assert "USE BA1.U1 0" in legal(state)
    state = load(phase="action", p1={"idol": "R09", "checked": CK}, p2={"ba1": ["G01"]})
    assert not any(action.startswith("USE IDOL") for action in legal(state))


# -- D20 library-out ---------------------------------------------------------------------------


def test_d20_1_draw_effect_with_empty_deck_takes_hp():
    """D20.1: a draw effect (Tidal Recall, draw 2) with an empty deck takes HP cards, the player choosing the caster."""
    state = load(phase="cast", to_move="P2", p2={"hand": ["B07"], "deck": [], "bursts": 1, "checked": CK,
                                                 "hp": ([FILLER, "B01"], [FILLER, "G01"])})  # fmt: skip
    state.apply("PLAY B07")
    assert legal(state) == ["HPDRAW BA1", "HPDRAW BA2"]
    apply_all(state, "HPDRAW BA2", "HPDRAW BA2")
    p2 = player(state, "P2")
    assert Counter(p2["hand"]) == Counter(["G01", FILLER])
    assert (len(p2["BA1"]["hp"]), len(p2["BA2"]["hp"])) == (2, 0)


def test_d20_2_hp_gain_with_empty_deck_does_nothing():
    """D20.2: hp_gain with an empty deck does nothing (it is not a draw: no HP card moves)."""
    state = load(phase="cast", to_move="P2", p2={"hand": ["G09", "G04"], "deck": [], "bursts": 3, "checked": CK})
    apply_all(state, "PLAY G09", "TARGET P2:BA2.C")
    assert hp(state, "P2", "BA2") == 4
    assert player(state, "P2")["hand"] == ["G04"]


# -- D21 end of the game -----------------------------------------------------------------------


def test_d21_1_losing_all_hp_ends_the_game():
    """D21.1: an attack that takes the last HP of the second caster ends the game at once."""
    state = load(phase="action", p1={"ba1": ["R03"], "checked": CK}, p2={"hp": (0, 1)})
    state.apply("ATTACKER BA1.U1")  # the only target area (BA2) and the only blocker (Fen) follow by themselves
    position = state.position()
    assert (position["phase"], position["winner"], position["draw"], position["reason"]) == ("over", "P1", False, "hp")
    assert state.legal_actions() == ()
    assert state.outcome().winner == 0
    with pytest.raises(IllegalActionError):
        state.apply("PASS")


def test_d21_1_both_out_at_the_same_rule_check_is_a_draw():
    """D21.1, D21.2: both players draw their last HP card in the one draw step, so both lose their last
    caster at the same rule check: a draw. With two deck cards to draw first, P1 keeps its HP card and wins."""
    scenario = json.loads((SCENARIOS / "d21_1_both_out_is_a_draw.json").read_text(encoding="utf-8"))
    state = load(scenario["position"])
    apply_all(state, *scenario["actions"])
    position = state.position()
    assert (position["phase"], position["winner"], position["draw"], position["reason"]) == ("over", None, True, "hp")
    assert state.outcome().winner is None
    spared = copy.deepcopy(scenario["position"])
    spared["players"]["P1"]["deck"] = ["R03", "R04"]
    state = load(spared)
    apply_all(state, *scenario["actions"])
    position = state.position()
    assert (position["phase"], position["winner"], position["draw"], position["reason"]) == ("over", "P1", False, "hp")


def test_d21_3_turn_cap_is_a_draw():
    """D21.3: a game still running when turn 100 ends is a draw."""
    state = load(phase="action", turn=100, stack=last_pass())
    position = state.position()
    assert (position["phase"], position["draw"], position["winner"], position["reason"]) == (
        "over", True, None, "turn_limit")  # fmt: skip
    state = load(phase="action", turn=99, stack=last_pass())
    assert state.position()["turn"] == 100 and state.position()["phase"] == "speed"


# -- D1.5 hidden information -------------------------------------------------------------------


def test_d1_5_observations_hide_cards():
    """D1.5: bursts and HP cards are unknown to both players; the opponent's hand and closed gear are counts."""
    state = load(phase="cast", p1={"hand": ["R02", "R05"], "bursts": 2, "gear": [], "checked": CK},
                 p2={"hand": ["B01"], "bursts": 1})  # fmt: skip
    mine, theirs = seen(state, "P1"), seen(state, "P2", "P1")
    assert Counter(mine["hand"]) == Counter(["R02", "R05"])
    assert mine["bursts"] == [{"checked": False}, {"checked": False}]
    assert mine["BA1"]["hp"] == 3 and isinstance(mine["deck"], int)
    assert theirs["hand"] == 1 and theirs["bursts"] == [{"checked": False}]
    assert theirs["BA2"]["hp"] == 4
    spectator = state.observation(None)["players"]["P1"]
    assert spectator["hand"] == 2 and spectator["deck"] == 8


# -- D22 effect vocabulary ---------------------------------------------------------------------


def test_d22_6_bp_filter_is_read_when_the_target_is_chosen():
    """D22.6, D5.3: Riptide targets R02 at BP 120 (bp<=120 holds when chosen); P1's Spark Sprite sub-effect then
    raises it to 130. The filter was read at the choice, so R02 is still a legal target and is bounced."""
    state = load(phase="action", first="P2",
                 p1={"ba1": [unit("R02", enchants=[enchant("boost", "P1")])], "hand": ["Y01"], "bursts": 1,
                     "checked": CK},
                 p2={"hand": ["B05"], "bursts": 2, "checked": CK})  # fmt: skip
    apply_all(state, "PLAY B05", "SUB Y01", "PASS")
    assert units(state, "P1") == []
    assert "R02" in player(state, "P1")["hand"]


def test_d22_5_require_enemy_attack():
    """D22.5: Mirror Ward (enemy_attack) is offered in the reaction window of the opponent's attack only; War Cry
    (own_attack) only in the window of the player's own attack."""
    state = load(phase="action", p1={"ba1": ["R02"], "hand": ["N07", "R07"], "bursts": 2, "checked": CK},
                 p2={"ba1": ["G01"], "hand": ["N07", "R07"], "bursts": 2, "checked": CK})  # fmt: skip
    apply_all(state, "ATTACKER BA1.U1", "ATTACK BA1", "BLOCK BA1.U1")
    assert legal(state) == ["GODDRAW", "PASS", "PLAY N07"]  # P2, defending
    state.apply("PASS")
    assert legal(state) == ["GODDRAW", "PASS", "PLAY R07"]  # P1, attacking


def test_d22_6_zone_filter_and_idol_targets():
    """D22.6, D19.2: an idol in the idol area is a unit for Flame Burst, but not for Undertow's zone=battle."""
    state = load(phase="action", p1={"hand": ["R05", "B10"], "bursts": 2, "checked": CK}, p2={"idol": "B08"})
    assert "PLAY R05" in legal(state) and "PLAY B10" not in legal(state)


# -- more on D5.6, D6.5, D14, D15 --------------------------------------------------------------


def test_d5_6_bp_zero_is_broken_at_the_rule_check():
    """D5.6(a), D13.3: two weakens on K07 Bone Altar (BP 40) bring it to 0: it is broken at the rule check."""
    state = load(phase="action", p1={"hand": ["K04"], "bursts": 1, "checked": CK},
                 p2={"ba1": ["K07"], "bursts": 1, "checked": CK})  # fmt: skip
    apply_all(state, "PLAY K04", "PASS")
    assert units(state, "P2") == []
    assert "K07" in player(state, "P2")["discard"]
    assert Counter(player(state, "P1")["discard"]) == Counter(["K04", FILLER, FILLER])  # both weakens came back


def test_d6_5_gear_changed_card_reveal_trigger():
    """D6.5: a gear-changed Y04 opens at the decision, its on_speed_reveal adds a burst, and A+++ makes P1 F."""
    state = load(token="P2", p1={"deck": [FILLER] * 3 + ["R05", FILLER], "hand": ["Y04", "R02"], "checked": CK},
                 p2={"deck": [FILLER] * 3 + ["G04"], "hand": ["B01"]}, **turn_start())  # fmt: skip
    assert state.position()["stack"][-1] == ["win", "P2", "speed"]  # G04 (A+) is faster than N01 (B)
    apply_all(state, "DONE", "GEAR Y04")
    position = state.position()
    assert position["first"] == "P1"
    assert position["players"]["P1"]["speed"] == [FILLER, "Y04"]
    assert position["players"]["P1"]["bursts"][0] == {"card": "R05", "checked": False}


def test_d14_4_enchants_and_attached_codes_leave_with_their_host():
    """D14.4, D14.5, D13.3: Soul Reap breaks G01 carrying P1's weaken and P2's attached Aegis Sigil: each goes to
    its owner's discard."""
    state = load(phase="action", p1={"hand": ["K05"], "bursts": 3, "checked": CK},
                 p2={"ba1": [unit("G01", attached=["B04"], enchants=[enchant("weaken", "P1", "R01")])],
                     "bursts": 1, "checked": CK})  # fmt: skip
    apply_all(state, "PLAY K05", "PASS")
    assert Counter(player(state, "P2")["discard"]) == Counter(["G01", "B04"])
    assert Counter(player(state, "P1")["discard"]) == Counter(["K05", "R01"])


def test_d15_1_dummy_has_no_name():
    """D15.1: a dummy has no name: Ashfang Cub's sub-effect (own unit named Ashfang Cub) has no target when the
    only Ashfang Cub on the field is a dummy's real card."""
    state = load(phase="fast", p1={"hand": ["R01", "R11"], "ba1": [dummy("R01")], "bursts": 1,
                                   "checked": (False, True)})  # fmt: skip
    assert legal(state) == ["DONE", "PLAY R11"]


def test_d12_3_engrave_cost_cannot_also_pay_log():
    """D12.3: Dread Omen needs 4 log and 1 engrave; one engrave and three bursts are not enough (the engrave pays
    the engrave cost and cannot also pay log)."""
    state = load(phase="action", p1={"hand": ["K06"], "bursts": 3, "engraves": 1, "checked": CK})
    assert "PLAY K06" not in legal(state)


# -- D22.4 triggers and grants -----------------------------------------------------------------


def test_d22_4_on_cast_not_for_dummies():
    """D22.4 on_cast: Y03 Storm Roc cast as a unit draws 1; cast as a dummy it has no abilities."""
    state = load(phase="cast", p1={"hand": ["Y03", "Y03"], "deck": [FILLER] * 3 + ["R05"], "checked": CK})
    apply_all(state, "CAST Y03", "TO BA1")
    assert Counter(player(state, "P1")["hand"]) == Counter(["Y03", "R05"])
    state.apply("DUMMY Y03 BA2")
    assert Counter(player(state, "P1")["hand"]) == Counter(["R05"])
    assert len(player(state, "P1")["deck"]) == 3


def test_d22_4_on_attack_trigger():
    """D22.4 on_attack: R04 Ember Lancer (80) adds attack_mod 10 when it attacks: 90 breaks N01 (BP 90)."""
    state = load(phase="action", p1={"ba1": ["R04"], "checked": CK}, p2={"ba1": ["N01"], "bursts": 1, "checked": CK})
    apply_all(state, "ATTACKER BA1.U1", "ATTACK BA1")
    assert state.position()["attack"]["mod"] == 10
    apply_all(state, "BLOCK BA1.U1", "PASS")
    assert units(state, "P2") == []


def test_d2_9_grant_with_engrave_cost():
    """D2.9, D12.3: Bark Mantle's granted REACTION ability costs check_self + 1 engrave: offered to the bearer in
    the reaction window only while a normal engrave is left; using it checks Fen and the engrave."""
    state = load(phase="action", p1={"ba1": ["R02"], "checked": CK},
                 p2={"ba1": ["G01"], "arms": (None, "G10"), "engraves": 1, "discard": ["B01"]})  # fmt: skip
    apply_all(state, "ATTACKER BA1.U1", "ATTACK BA1", "BLOCK BA1.U1")
    assert "USE BA2.C 0" in legal(state)  # Fen has no ability of its own: the grant is index 0
    state.apply("USE BA2.C 0")
    p2 = player(state, "P2")
    assert p2["BA2"]["caster"]["checked"] is True and p2["engraves"] == [{"card": FILLER, "checked": True}]
    assert [e["kind"] for e in p2["BA1"]["units"][0]["enchants"]] == ["boost", "boost"]
    state = load(
        phase="action",
        p1={"ba1": ["R02"], "checked": CK},
        p2={"ba1": ["G01"], "arms": (None, "G10"), "engraves": [{"card": FILLER, "checked": True}]},
    )
    apply_all(state, "ATTACKER BA1.U1", "ATTACK BA1", "BLOCK BA1.U1")
    assert "USE BA2.C 0" not in legal(state)


def test_d13_2_shield_on_a_caster_blocker():
    """D13.2, D10.7: Mirror Ward's shield 50 on Fen, who blocks 160 damage: 110 remain, so Fen loses 2 HP, not 3."""
    state = load(phase="action", p1={"ba1": ["R02", "N02"], "checked": CK},
                 p2={"hand": ["N07"], "bursts": 1, "checked": CK})  # fmt: skip
    apply_all(state, "ATTACKER BA1.U1", "ATTACKER BA1.U2", "ATTACK BA2", "BLOCK BA2.C", "PLAY N07")
    assert hp(state, "P2", "BA2") == 2


def test_d19_4_second_player_upkeep_after_first_players_window():
    """D19.4, D8.1: S's idol upkeep is asked at the start of S's cast window, after F is done."""
    state = load(phase="cast", p1={"hand": ["R02"], "checked": CK}, p2={"ba1": ["Y08"], "bursts": 1, "checked": CK})
    assert state.position()["stack"][-1] == ["win", "P1", "cast"]
    state.apply("DONE")
    assert state.position()["stack"][-1] == ["upkeep_idol", "P2", "P2:BA1.U1"]
    assert legal(state) == ["UPKEEP CHECK", "UPKEEP PAY"]

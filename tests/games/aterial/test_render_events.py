"""Aterial's effects as a player sees them (issue #35 item 3): each line names the unit and its square, the
amount and the outcome, and says the rule a new player would not guess; buffed values are marked."""

from __future__ import annotations

from io import StringIO
from typing import Any

from rich.console import Console

from cardlab.games.aterial import render
from cardlab.games.aterial.cards import load_card_set

from .aterial_positions import apply_all, load, unit


def attack_position(**kwargs: Any):
    """The attack phase of P1's turn 6 (so not turn 1, A12.1)."""
    return load(window="attack", turn=6, **kwargs)


def lines(state, viewer: int | None = None) -> list[str]:
    assert state.events is not None
    return [render.event_text(event) for event in state.events.for_player(viewer)]


def test_a12_7_an_attack_on_a_leader_says_lp_a_to_b_and_that_the_cost_counts() -> None:
    state = attack_position(p1=dict(leader_at="F2", field={"F1": unit("S25", damage=4)}), p2=dict(lp=22))
    state.apply("ATTACK F1")
    assert (
        "P2 loses 3 LP (22 → 19): a leader loses LP equal to the attacker's cost (S25 Iron Paladin: cost 3), "
        "not its ATK (A12.7)." in lines(state)
    )


def test_a17_7_siege_is_named_beside_the_cost() -> None:
    state = attack_position(p1=dict(leader_at="F2", field={"F1": "S27"}), p2=dict(lp=20))
    state.apply("ATTACK F1")
    assert any("(S27 Hellgate Reaver: cost 3 + siege 1)" in line and "(20 → 16)" in line for line in lines(state))


def test_a12_7_damage_names_unit_square_outcome_and_that_nothing_hits_back() -> None:
    """A14.2 armor's share, A14.3 destroyed or survives at N, R9 the target deals no damage back."""
    state = attack_position(p1=dict(field={"F0": "S06"}), p2=dict(field={"F0": "S25"}))
    apply_all(state, "ATTACK F0", "TARGET P2:F0")
    assert (
        "P2's S25 Iron Paladin on F0 takes 1 damage, armor absorbs 1: survives at 4 HP; "
        "the target deals no damage back (A12.7)." in lines(state)
    )
    state = attack_position(p1=dict(field={"F0": "S19"}), p2=dict(field={"F0": "S01"}))
    apply_all(state, "ATTACK F0", "TARGET P2:F0")
    text = lines(state)
    assert "P2's S01 Tin Scout on F0 takes 3 damage: destroyed; the target deals no damage back (A12.7)." in text
    assert "P2's S01 Tin Scout is destroyed (A14.3)." in text


def test_a12_5_a_block_says_the_blocker_takes_a_front_attack() -> None:
    state = attack_position(p1=dict(field={"F0": "S26"}), p2=dict(field={"F0": "S24"}))
    apply_all(state, "ATTACK F0", "TARGET P2:F1", "BLOCK")
    text = lines(state)
    assert "P2 blocks with S24 Elder Stag: it takes the attack, now a front attack (A12.5)." in text
    assert any(line.startswith("P2's S24 Elder Stag on F0 takes 3 damage: survives at 1 HP") for line in text)


def test_a17_18_ability_damage_is_reported_too() -> None:
    state = load(p1=dict(field={"B0": "S23"}), p2=dict(field={"F2": "S01"}))
    apply_all(state, "ACTIVATE B0 tap_snipe")
    assert "P2's S01 Tin Scout on F2 takes 1 damage (tap snipe): destroyed." in lines(state)


def test_a8_1_the_turn_line_says_damage_is_wiped() -> None:
    text = render.event_text({"kind": "turn", "player": "P2", "turn": 7})
    assert "P2's subordinates lose all damage" in text and "(A8.1, A8.2)" in text


def test_a4_6_buffed_and_damaged_values_are_marked_against_the_printed_card() -> None:
    """S11 Quartermaster is 1/2 in hand and 1/3 next to an aura; damage shows as dmg (A14.1)."""
    cards = load_card_set()
    assert render.unit_text({"card": "S11", "attack": 1, "hp": 3, "damage": 0, "ready": True}, False,
                            cards.cards["S11"]) == "S11 1/3 (+0/+1)"  # fmt: skip
    assert render.unit_text({"card": "S14", "attack": 2, "hp": 4, "damage": 2, "ready": False}, False,
                            cards.cards["S14"]) == "S14 2/2 (2 dmg) (acted)"  # fmt: skip
    assert render.unit_text({"card": "S14", "attack": 2, "hp": 4, "damage": 0, "ready": True}, False,
                            cards.cards["S14"]) == "S14 2/4"  # fmt: skip
    state = load(p1=dict(leader="L01", field={"F0": "S11"}))  # L01's aura: other humans get +0/+1 (A17.9)
    board = render.render_board(state.observation(0))
    console = Console(file=StringIO(), width=120, color_system=None)
    console.print(board)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert "S11 1/3 (+0/+1)" in out and "ATK/HP changed from the printed card" in out

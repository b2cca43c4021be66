"""One or more tests per numbered rule and ruling of shared/rules/aterial.md with a visible effect.

Each test name or docstring cites the rule it checks. Positions are built with
`make_position` (defaults filled in) and loaded; the engine then advances through every
automatic step and single-choice window (A7.4) to the first real choice.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from cardlab.core import IllegalActionError, PositionError, canonical_world, sample_world
from cardlab.core.carddata import CardDataError
from cardlab.games.aterial import Aterial, AterialConfig
from cardlab.games.aterial.board import DIAGONAL, ORTHOGONAL, SQUARE_INDEX, SQUARE_NAMES, attack_squares

from .aterial_positions import GAME, apply_all, at, inst_at, kinds, legal, load, make_position, player, unit


def attack_position(**kwargs):
    """The attack phase of P1's turn 6 (so not turn 1, A12.1)."""
    return load(window="attack", turn=6, **kwargs)


def names(squares) -> set[str]:
    return {SQUARE_NAMES[sq] for sq in squares}


# -- A3 The field ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("square", "orthogonal", "diagonal"),
    [
        ("F0", {"F1", "B0"}, {"B1"}),
        ("F1", {"F0", "F2", "B1"}, {"B0", "B2"}),
        ("F2", {"F1", "B2"}, {"B1"}),
        ("B0", {"B1", "F0"}, {"F1"}),
        ("B1", {"B0", "B2", "F1"}, {"F0", "F2"}),
        ("B2", {"B1", "F2"}, {"F1"}),
    ],
)
def test_a3_4_adjacency_table(square, orthogonal, diagonal):
    """A3.4: orthogonal and diagonal adjacency inside one field, exactly as tabled."""
    index = SQUARE_INDEX[square]
    assert names(ORTHOGONAL[index]) == orthogonal
    assert names(DIAGONAL[index]) == diagonal


def test_a3_4_adjacency_seen_through_supply():
    """A3.4/A11.2: a lone dominance-2 unit on B1 supplies its three orthogonal neighbours only."""
    state = load(p1=dict(leader_at="B1"))
    supply = [state.supply(0, sq) for sq in range(6)]
    assert supply == [0, 2, 0, 2, 0, 2]  # F0 F1 F2 B0 B1 B2: F1, B0, B2 are orthogonal to B1


@pytest.mark.parametrize(
    ("column", "facing", "diagonals"), [(0, "E0", {"E1"}), (1, "E1", {"E0", "E2"}), (2, "E2", {"E1"})]
)
def test_a3_5_attack_geometry_table(column, facing, diagonals):
    """A3.5: facing square E c, diagonal squares E c-1 / E c+1, in either engaged row."""
    for row, letter in ((0, "F"), (1, "B")):
        face, diag = attack_squares(column, row)
        assert SQUARE_NAMES[face] == facing.replace("E", letter)
        assert names(diag) == {d.replace("E", letter) for d in diagonals}


def test_a3_5_example_front_and_side_targets():
    """A3.5 example: from P1:F1 with P2's front row full, targets are P2:F1 (front) and P2:F0, P2:F2 (side)."""
    state = attack_position(p2=dict(field={"F0": "S24", "F2": "S24"}))
    state.apply("ATTACK F1")
    assert legal(state) == ["TARGET P2:F0", "TARGET P2:F1", "TARGET P2:F2"]


def test_a3_2_column_c_faces_column_c_for_p2_too():
    """A3.2/R13: global columns: P2's unit on P2:F0 faces P1:F0 (no mirroring)."""
    state = load(window="attack", turn=7, active="P2", p1=dict(leader_at="F2", field={"F0": "S24", "F1": "S24"}),
                 p2=dict(leader_at="B1", field={"F0": "S19", "F2": "S01"}))  # fmt: skip
    state.apply("ATTACK F0")
    assert legal(state) == ["TARGET P1:F0", "TARGET P1:F1"]
    state.apply("TARGET P1:F0")
    assert at(state, "P1", "F0")["damage"] == 3


def test_a3_3_units_never_enter_the_opponent_field():
    """A3.3/A10.2: move destinations are only the mover's own squares (no TARGET, no enemy square)."""
    state = load(window="move", p2=dict(leader_at="F0"))
    state.apply("MOVE F1")
    assert legal(state) == ["TO B1", "TO F0", "TO F2"]


# -- A5 Decks ---------------------------------------------------------------------------------------


def _deck_file(tmp_path: Path, cards: str, leader: str = "L01") -> str:
    path = tmp_path / "deck.toml"
    path.write_text(f'[[deck]]\nid = "X"\nname = "Test"\nleader = "{leader}"\ncards = {{ {cards} }}\n')
    return str(path)


D1_CARDS = "S02 = 2, S05 = 2, S06 = 2, S10 = 2, S11 = 2, S14 = 3, S15 = 2, S16 = 2, S20 = 3, S21 = 1, S25 = 2, S26 = 2, S32 = 1, S37 = 2, S34 = 1"  # noqa: E501


@pytest.mark.parametrize(
    ("cards", "leader", "rule"),
    [
        (D1_CARDS, "L01", "A5.1"),  # 29 cards
        (D1_CARDS + ", S40 = 2", "L01", "A5.1"),  # 31 cards
        (D1_CARDS + ", L02 = 1", "L01", "A5.2"),  # a leader inside the deck
        (D1_CARDS.replace("S14 = 3", "S14 = 5").replace("S20 = 3", "S20 = 1") + ", S40 = 1", "L01", "A5.3"),
        (D1_CARDS + ", S99 = 1", "L01", "A5.5"),  # unknown card id
        (D1_CARDS + ", S40 = 1", "S40", "A5.4"),  # a "leader" that is no leader card
        (D1_CARDS + ", S40 = 1", "L99", "A5.5"),  # unknown leader
    ],
)
def test_a5_engine_refuses_an_illegal_deck(tmp_path, cards, leader, rule):
    """A5.1-A5.5: a game with an illegal deck does not start; the error names the rule."""
    game = Aterial(AterialConfig(decks=(_deck_file(tmp_path, cards, leader), "D2")))
    with pytest.raises(PositionError) as info:
        game.new_state(0)
    assert info.value.field == "config.decks.P1"
    assert rule in info.value.problem


def test_a5_4_any_leader_with_any_legal_deck(tmp_path):
    """A5.4/R20: a legal 30-card deck plays with any leader (override or file)."""
    deck = _deck_file(tmp_path, D1_CARDS + ", S40 = 1", "L03")
    state = Aterial(AterialConfig(decks=(deck, "D1"), leaders=(None, "L05"))).new_state(1)
    position = state.position()
    assert position["players"]["P1"]["field"]["F1"]["card"] == "L03"
    assert position["players"]["P2"]["field"]["F1"]["card"] == "L05"


def test_a5_3_four_copies_is_the_limit(tmp_path):
    """A5.3: exactly 4 copies of a name is legal."""
    cards = D1_CARDS.replace("S14 = 3", "S14 = 4").replace("S20 = 3", "S20 = 2") + ", S40 = 1"
    Aterial(AterialConfig(decks=(_deck_file(tmp_path, cards), "D2"))).new_state(0)


# -- A6 Setting up ----------------------------------------------------------------------------------


def test_a6_2_first_player_from_the_seed_unless_configured():
    """A6.2/R19: the first player is drawn from the seed (both seats occur) or fixed by the config."""
    free = Aterial(AterialConfig(first=None))
    firsts = {free.new_state(seed).position()["first"] for seed in range(20)}
    assert firsts == {"P1", "P2"}
    for first in ("P1", "P2"):
        fixed = Aterial(AterialConfig(first=first))
        assert {fixed.new_state(seed).position()["first"] for seed in range(10)} == {first}


@pytest.mark.parametrize("seed", range(5))
def test_a6_1_a6_3_a6_5_set_up(seed):
    """A6.1 shuffled 30-card decks, A6.3 five cards each, A6.5 leaders ready on F1 at full LP."""
    state = Aterial(AterialConfig(decks=("D1", "D2"))).new_state(seed)
    position = state.position()
    assert position["turn"] == 0 and position["window"] == "mulligan"
    for name, leader, lp in (("P1", "L01", 22), ("P2", "L04", 22)):
        seat = position["players"][name]
        assert len(seat["hand"]) == 5 and len(seat["deck"]) == 25
        assert seat["lp"] == lp
        assert seat["field"]["F1"] == unit(leader)
        assert [sq for sq, u in seat["field"].items() if u is not None] == ["F1"]
    decks = {json.dumps(GAME.new_state(s).position()["players"]["P1"]["deck"]) for s in range(10)}
    assert len(decks) == 10  # A6.1: the order depends on the seed


def test_a6_4_mulligan_order_and_new_hand_from_the_rest():
    """A6.4/R12: the first player decides first; a mulligan's new five are the next five of the
    deck, never the old cards (which are shuffled back in afterwards)."""
    for seed in range(6):
        state = Aterial(AterialConfig(first="P2")).new_state(seed)
        assert state.current_player() == 1 and state.position()["chooser"] == "P2"
        before = state.position()["players"]["P2"]
        state.apply("MULLIGAN")
        after = state.position()["players"]["P2"]
        assert after["hand"] == sorted(before["deck"][:5])
        assert sorted(after["deck"]) == sorted(before["deck"][5:] + before["hand"])
        assert state.current_player() == 0  # then the second player
        state.apply("KEEP")
        assert state.position()["turn"] == 1 and state.position()["active"] == "P2"


def test_a6_4_at_most_one_mulligan_each():
    """A6.4: each player decides once; after both decisions the game is in turn 1."""
    state = GAME.new_state(3)
    state.apply("MULLIGAN")
    state.apply("MULLIGAN")
    position = state.position()
    assert position["turn"] == 1 and position["window"] != "mulligan"
    assert "MULLIGAN" not in legal(state) and "KEEP" not in legal(state)


def test_a6_6_a9_2_turn_one_is_the_first_players_and_they_draw():
    """A6.6/A9.2/R3: turn 1 belongs to the first player, who draws on turn 1 (6 cards)."""
    for first in ("P1", "P2"):
        state = Aterial(AterialConfig(first=first)).new_state(5)
        apply_all(state, "KEEP", "KEEP")
        position = state.position()
        assert (position["turn"], position["active"], position["first"]) == (1, first, first)
        other = "P2" if first == "P1" else "P1"
        assert len(position["players"][first]["hand"]) == 6
        assert len(position["players"][first]["deck"]) == 24
        assert len(position["players"][other]["hand"]) == 5


# -- A7 Turn structure --------------------------------------------------------------------------------


def test_a7_1_phase_order_and_end_actions_always_legal():
    """A7.1/A7.4: move -> action -> attack, each ended by its always-legal END_* decision."""
    state = load(window="move", p1=dict(hand=["S02"]))
    assert "END_MOVE" in legal(state)
    state.apply("END_MOVE")
    assert state.position()["window"] == "action" and "END_ACTION" in legal(state)
    state.apply("END_ACTION")
    assert state.position()["window"] == "attack" and "END_ATTACK" in legal(state)


def test_a7_4_phases_without_a_choice_pass_automatically():
    """A7.4: nothing to deploy or activate: loading at the action phase moves on to the attack phase."""
    state = load(window="action", p1=dict(hand=["S41"]))  # cost 6 fits nowhere
    assert state.position()["window"] == "attack"
    assert legal(state) == ["ATTACK F1", "END_ATTACK"]


def test_a7_3_turn_passes_and_counter_increases():
    """A7.3: after the end phase the other player is active and the turn counter is +1."""
    state = attack_position()
    state.apply("END_ATTACK")
    position = state.position()
    assert (position["turn"], position["active"], position["window"]) == (7, "P2", "move")


def test_a7_2_a16_9_defender_only_decides_the_block():
    """A7.2/A16.9: the non-active player's only decision during the opponent's turn is the block."""
    state = attack_position(p1=dict(field={"F0": "S26"}), p2=dict(field={"F0": "S14"}))
    apply_all(state, "ATTACK F0", "TARGET P2:F1")
    assert state.current_player() == 1
    assert legal(state) == ["BLOCK", "NO_BLOCK"]
    state.apply("NO_BLOCK")
    assert state.current_player() == 0


# -- A8 Recovery, A9 Draw -----------------------------------------------------------------------------


def test_a8_1_a8_2_recovery_affects_only_the_active_player():
    """A8.1: the new active player's damage goes; A8.2: its units ready, move/devour counters reset.
    The other player's units keep damage and acted state."""
    state = attack_position(
        p1=dict(field={"F0": unit("S24", damage=2, ready=False)}),
        p2=dict(
            field={
                "F0": unit("S22", damage=2, ready=False, moves=1, devoured=True),
                "F1": unit("L04", ready=False, moves=1),
            }
        ),
    )
    state.apply("END_ATTACK")
    assert at(state, "P2", "F0") == unit("S22")
    assert at(state, "P2", "F1") == unit("L04")
    assert at(state, "P1", "F0") == unit("S24", damage=2, ready=False)


def test_a8_1_damage_lasts_through_the_opponents_turn():
    """A8.1/A14.1: damage dealt during P1's turn stays on P2's unit for the rest of that turn."""
    state = attack_position(p1=dict(field={"F0": "S01", "F2": "S01"}), p2=dict(field={"F0": "S24", "F2": "S24"}))
    apply_all(state, "ATTACK F0", "TARGET P2:F0", "ATTACK F1", "TARGET P2:F0")
    assert at(state, "P2", "F0")["damage"] == 1 + 2
    state.apply("END_ATTACK")
    assert at(state, "P2", "F0")["damage"] == 0


def test_a9_1_one_card_per_draw_phase():
    """A9.1/R3: exactly one card, from the top of the deck."""
    state = attack_position(p2=dict(hand=[], deck=["S19", "S13", "S17"]))
    state.apply("END_ATTACK")
    assert player(state, "P2")["hand"] == ["S19"]
    assert player(state, "P2")["deck"] == ["S13", "S17"]


def test_a9_3_empty_deck_at_the_draw_loses():
    """A9.3/A15.2: the draw phase with an empty deck loses at once."""
    state = attack_position(p2=dict(deck=[]))
    state.apply("END_ATTACK")
    outcome = state.outcome()
    assert (outcome.winner, outcome.reason) == (0, "deck_out")


# -- A10 Move phase -----------------------------------------------------------------------------------


def test_a10_2_only_orthogonal_steps():
    """A10.2: one step to an orthogonally adjacent own square; no diagonal move."""
    state = load(window="move", p1=dict(leader_at="F2", field={"B0": "S01", "F0": "S01"}))
    state.apply("MOVE B0")  # F0 is taken, F1 is diagonal... B1 only
    assert at(state, "P1", "B1") == unit("S01", moves=1)
    state.apply("MOVE F0")
    assert legal(state) == ["TO B0", "TO F1"]


def test_a10_3_subordinate_never_moves_onto_an_occupied_square():
    """A10.3: a subordinate surrounded by units has no move at all."""
    state = load(window="move", p1=dict(leader_at="F1", field={"F0": "S01", "B0": "S01", "B1": "S01"}))
    assert "MOVE B0" not in legal(state)  # B1 and F0 occupied
    assert "MOVE F0" not in legal(state)  # F1 leader, B0 subordinate


def test_a10_3_nothing_moves_onto_the_leader():
    """A10.3: the leader's square is never a destination."""
    state = load(window="move", p1=dict(field={"B1": "S01"}))
    state.apply("MOVE B1")
    assert legal(state) == ["TO B0", "TO B2"]


def test_a10_3_a14_7_leader_retires_subordinate():
    """A10.3/A14.7: the leader steps onto a friendly subordinate, which is retired (not destroyed:
    no 'destroyed' event, farewell_heal does not fire); not a swap."""
    state = load(window="move", p1=dict(lp=10, field={"B1": "S32", "B2": "S01"}))
    apply_all(state, "MOVE F1", "TO B1")
    seat = player(state, "P1")
    assert seat["field"]["B1"] == unit("L01", moves=1) and seat["field"]["F1"] is None
    assert seat["discard"] == ["S32"] and seat["lp"] == 10
    assert "retired" in kinds(state) and "destroyed" not in kinds(state)


def test_a10_4_one_move_per_unit():
    """A10.4: after one move a non-nimble unit is no longer offered."""
    state = load(window="move", p1=dict(field={"B0": "S01", "B2": "S01"}))
    apply_all(state, "MOVE B0", "TO B1")
    assert "MOVE B1" not in legal(state)


def test_a10_5_moving_keeps_acted_state():
    """A10.5: an acted unit may move and stays acted."""
    state = load(window="move", p1=dict(field={"B0": unit("S01", ready=False), "B2": "S01"}))
    apply_all(state, "MOVE B0", "TO B1")
    assert at(state, "P1", "B1") == unit("S01", ready=False, moves=1)


def test_a10_6_vacated_square_reused():
    """A10.6: after the unit on B0 moves to B1, the unit on F0 may step into B0."""
    state = load(window="move", p1=dict(field={"F0": "S01", "B0": "S04"}))
    assert "MOVE F0" not in legal(state)
    apply_all(state, "MOVE B0")  # B1 is its only free neighbour
    assert at(state, "P1", "B1")["card"] == "S04"
    state.apply("MOVE F0")
    assert at(state, "P1", "B0") == unit("S01", moves=1)


def test_a10_7_leader_in_back_row():
    """A10.7: the leader may move into the back row and stays on the field."""
    state = load(window="move", p1=dict(field={"F0": "S01"}))
    apply_all(state, "MOVE F1", "TO B1")
    assert at(state, "P1", "B1") == unit("L01", moves=1)


def test_a10_8_a_unit_deployed_this_turn_cannot_move():
    """A10.8/R17: deployment comes after the move phase; the next move phase is the owner's next turn."""
    state = load(window="move", p1=dict(hand=["S01"]))
    apply_all(state, "END_MOVE", "DEPLOY S01", "TO F0")
    assert state.position()["window"] == "attack"  # no way back to moving this turn
    assert not any(action.startswith("MOVE") for action in legal(state))


# -- A11 Action phase -----------------------------------------------------------------------------------


def test_a11_2_supply_values_and_r1_leader_supplies():
    """A11.2/R1: supply is the dominance of orthogonal units (+ diagonal wide_reach units); a unit
    never supplies its own square; acted units supply."""
    state = load(p1=dict(field={"B0": unit("S18", ready=False), "B2": "S05"}))
    assert [state.supply(0, sq) for sq in range(6)] == [4, 2, 4, 0, 6, 0]
    # F1 (the leader's square): from B1 (empty) and F0/F2 (empty) plus S18's wide_reach diagonal: 2
    assert state.supply(1, SQUARE_INDEX["F0"]) == 2  # P2's leader on its own field only


def test_a11_3_deploy_needs_hand_card_empty_square_and_supply():
    """A11.3: only cards whose cost some empty square's supply covers are offered, only on such squares."""
    state = load(p1=dict(hand=["S14", "S25", "S41"]))
    assert legal(state) == ["DEPLOY S14", "END_ACTION"]
    state.apply("DEPLOY S14")
    assert legal(state) == ["TO B1", "TO F0", "TO F2"]
    with pytest.raises(IllegalActionError):
        state.apply("TO B0")


def test_a11_4_deployed_unit_ready_and_may_attack():
    """A11.4: enters ready with 0 damage and, in the front row, may attack this turn."""
    state = load(p1=dict(hand=["S14"]))
    apply_all(state, "DEPLOY S14", "TO F0")
    assert at(state, "P1", "F0") == unit("S14")
    assert "ATTACK F0" in legal(state)


def test_a11_5_any_number_of_deployments():
    """A11.5: nothing is consumed: deploy several cards in one phase."""
    state = load(p1=dict(hand=["S02", "S02", "S05", "S14"]))
    apply_all(state, "DEPLOY S02", "TO F0", "DEPLOY S02", "TO F2", "DEPLOY S05", "TO B1", "DEPLOY S14", "TO B0")
    field = player(state, "P1")["field"]
    assert [field[sq]["card"] for sq in ("F0", "F2", "B1", "B0")] == ["S02", "S02", "S05", "S14"]


def test_a11_6_r10_no_upkeep_when_supply_falls():
    """A11.6/R10: a unit stays when the supply to its square later drops below its cost."""
    state = load(window="move", p1=dict(field={"B1": "S25", "F2": "S01"}))  # S25 cost 3 on B1
    apply_all(state, "MOVE F1", "TO F0")  # the leader leaves B1's neighbourhood
    assert state.supply(0, SQUARE_INDEX["B1"]) == 0
    state.apply("END_MOVE")
    assert at(state, "P1", "B1")["card"] == "S25"


def test_a11_7_cost_zero_anywhere_r11():
    """A11.7/R11: a cost-0 card goes to squares with no supply at all."""
    state = load(p1=dict(leader_at="F0", hand=["S03"]))
    state.apply("DEPLOY S03")
    assert legal(state) == ["TO B0", "TO B1", "TO B2", "TO F1", "TO F2"]
    state.apply("TO B2")
    assert state.supply(0, SQUARE_INDEX["B2"]) == 0 and at(state, "P1", "B2") == unit("S03")


def test_a11_8_r2_both_players_deploy_on_their_first_turn():
    """A11.8/R2: turn 1 (first player) and turn 2 (second player) both allow deployment."""
    state = GAME.new_state(2)
    apply_all(state, "KEEP", "KEEP", "END_MOVE")
    assert any(action.startswith("DEPLOY") for action in legal(state))
    state = load(turn=2, active="P2", p2=dict(hand=["S04"]))
    assert "DEPLOY S04" in legal(state)


# -- A12 Attack phase -----------------------------------------------------------------------------------


def test_a12_1_turn_one_has_no_attack_phase():
    """A12.1: on turn 1 the attack phase is skipped; the next turn begins."""
    state = load(turn=1, p1=dict(hand=["S02"]))
    state.apply("END_ACTION")
    position = state.position()
    assert (position["turn"], position["active"]) == (2, "P2")
    assert player(state, "P2")["lp"] == 22


def test_a12_1_turn_two_attacks():
    """A12.1: the second player's first turn has an attack phase."""
    state = load(window="attack", turn=2, active="P2")
    assert legal(state) == ["ATTACK F1", "END_ATTACK"]


def test_a12_2_one_attack_at_a_time_and_a12_3_once_per_turn():
    """A12.2/A12.3: attacks resolve one by one; an attacker becomes acted and cannot attack again."""
    state = attack_position(p1=dict(field={"F0": "S01"}))
    state.apply("ATTACK F0")  # only the leader on P2:F1 is reachable
    assert at(state, "P1", "F0")["ready"] is False
    assert legal(state) == ["ATTACK F1", "END_ATTACK"]


def test_a12_3_eligible_attackers():
    """A12.3/A17.1: ready, no cannot_attack, front row (back row only with ranged); a leader in the
    back row does not attack."""
    state = attack_position(p1=dict(leader_at="B1", field={"F0": unit("S01", ready=False), "F1": "S07",
                                                          "F2": "S01", "B0": "S16", "B2": "S01"}))  # fmt: skip
    assert legal(state) == ["ATTACK B0", "ATTACK F2", "END_ATTACK"]


def test_a12_4_no_target_no_attack():
    """A12.4.3: a unit whose facing and diagonal squares are empty cannot attack."""
    state = attack_position(p1=dict(field={"F0": "S01", "F2": "S01"}), p2=dict(leader_at="F2"))
    # P1:F0 reaches P2:F0/F1 (empty); P1:F1 reaches F2 (leader); P1:F2 faces the leader
    assert legal(state) == ["ATTACK F1", "ATTACK F2", "END_ATTACK"]


def test_a12_4_r6_back_row_out_of_reach_while_front_row_holds_a_unit():
    """A12.4/R6: one unit in P2's front row (on F2) keeps the back row out of reach: the Titan on
    P1:F0 has no target although P2's leader stands on B0, its facing square in the back row."""
    state = attack_position(p1=dict(field={"F0": "S41"}), p2=dict(leader_at="B0", field={"F2": "S01"}))
    assert legal(state) == ["ATTACK F1", "END_ATTACK"]


def test_a12_4_r6_engaged_row_exposes_back_row():
    """A12.4/R6: after P2's only front-row unit is destroyed, P1's next attacker reaches the back row."""
    state = attack_position(p1=dict(leader_at="F2", field={"F0": "S41", "F1": "S01"}),
                            p2=dict(leader_at="B0", field={"F0": "S01"}))  # fmt: skip
    state.apply("ATTACK F1")  # Tin Scout reaches P2:F0 only (diagonal; P2:F1, F2 empty)
    assert at(state, "P2", "F0") is None
    state.apply("ATTACK F0")  # back row now engaged: facing P2:B0 = the leader
    assert player(state, "P2")["lp"] == 22 - 6  # Last Forge Titan's cost


def test_a12_4_side_or_front_by_target_square():
    """A12.4.4: a target on the facing square is a front attack (no block window); diagonal is a side attack."""
    state = attack_position(p1=dict(field={"F0": "S06"}), p2=dict(field={"F0": "S24"}))
    apply_all(state, "ATTACK F0", "TARGET P2:F1")
    assert state.position()["pending"] == {"attacker": "P1:F0", "target": "P2:F1", "side": True}
    state = attack_position(p1=dict(field={"F0": "S06"}), p2=dict(field={"F0": "S24"}))
    apply_all(state, "ATTACK F0", "TARGET P2:F0")
    assert state.position()["window"] == "attack"
    assert at(state, "P2", "F0")["damage"] == 2  # front attack: no flank


@pytest.mark.parametrize(
    ("p1_field", "p2_field", "actions", "block"),
    [
        ({"F0": "S06"}, {"F0": "S24"}, ["ATTACK F0", "TARGET P2:F1"], True),  # side attack, subordinate faces
        ({"F0": "S06"}, {"F0": "S24"}, ["ATTACK F0", "TARGET P2:F0"], False),  # front attack
        ({"F0": "S15"}, {"F0": "S24"}, ["ATTACK F0", "TARGET P2:F1"], False),  # evasive attacker (A17.2)
        ({"F0": "L01", "F1": "S06"}, {"F2": "S24"}, ["ATTACK F1", "TARGET P2:F2"], False),  # leader faces
        ({"F2": "S06"}, {"F0": "S24"}, ["ATTACK F2"], False),  # facing P2:F2 empty (single target: automatic)
    ],
)
def test_a12_5_block_conditions(p1_field, p2_field, actions, block):
    """A12.5: a block needs a side attack, a non-evasive attacker and a subordinate on the facing square."""
    state = attack_position(p1=dict(field=p1_field), p2=dict(field=p2_field))
    apply_all(state, *actions)
    assert (state.position()["window"] == "block") is block
    if block:
        assert state.current_player() == 1
    else:
        assert state.position()["window"] == "attack" and "block" not in kinds(state)


def test_a12_5_block_redirects_r8_front_attack_no_flank():
    """A12.5/R8: the blocker becomes the target and the attack is a front attack: flank does not apply."""
    state = attack_position(p1=dict(field={"F0": "S26"}), p2=dict(field={"F0": "S24"}))
    apply_all(state, "ATTACK F0", "TARGET P2:F1", "BLOCK")
    assert at(state, "P2", "F0")["damage"] == 3  # not 3 + 2
    assert player(state, "P2")["lp"] == 22
    assert "block" in kinds(state)


def test_a12_5_r7_blocker_state_irrelevant_and_unchanged():
    """R7: an acted subordinate may block, stays acted; a ready one stays ready; unlimited blocks."""
    for ready in (True, False):
        state = attack_position(p1=dict(leader_at="F2", field={"F1": "S01", "B1": "S16"}),
                                p2=dict(leader_at="F0", field={"F1": unit("S24", ready=ready)}))  # fmt: skip
        apply_all(state, "ATTACK F1", "TARGET P2:F0", "BLOCK", "ATTACK B1", "TARGET P2:F0", "BLOCK")
        assert at(state, "P2", "F1") == unit("S24", ready=ready, damage=3)


def test_a12_7_leader_target_loses_cost_not_attack():
    """A12.7: attacking the leader removes the attacker's cost in LP, whatever its attack (A14.6
    even when damaged); a cost-0 attacker removes nothing."""
    state = attack_position(p1=dict(leader_at="F2", field={"F0": "S39", "F1": "S01"}), p2=dict(lp=22))
    state.apply("ATTACK F1")
    assert player(state, "P2")["lp"] == 22  # Tin Scout, cost 0
    state = attack_position(p1=dict(leader_at="F2", field={"F1": unit("S25", damage=4)}))
    state.apply("ATTACK F1")
    assert player(state, "P2")["lp"] == 22 - 3  # A14.6: Iron Paladin, cost 3, damaged


def test_a12_7_r9_target_deals_no_damage_back():
    """A12.7/R9: the target never damages the attacker."""
    state = attack_position(p1=dict(field={"F0": "S01"}), p2=dict(field={"F0": "S41"}))
    apply_all(state, "ATTACK F0", "TARGET P2:F0")
    assert at(state, "P1", "F0") == unit("S01", ready=False)


def test_a12_9_end_attack_with_attackers_left():
    """A12.9: the attack phase may end while eligible attackers remain."""
    state = attack_position(p1=dict(field={"F0": "S41"}))
    assert "END_ATTACK" in legal(state)
    state.apply("END_ATTACK")
    assert player(state, "P2")["lp"] == 22 and state.position()["active"] == "P2"


def test_a12_10_r4_leader_attacks_like_a_subordinate():
    """A12.10/R4: a leader deals its attack value to a subordinate and its cost to the enemy leader."""
    state = attack_position(
        p1=dict(leader="L04", field={"F0": "S01"}), p2=dict(leader="L01", leader_at="F2", field={"F1": "S24"})
    )
    assert state.attack_value(inst_at(state, "P1", "F1")) == 3  # its own aura does not apply to it
    apply_all(state, "ATTACK F1", "TARGET P2:F1")
    assert at(state, "P2", "F1")["damage"] == 3
    state = attack_position(p1=dict(leader="L04"), p2=dict(leader="L01"))
    state.apply("ATTACK F1")
    assert player(state, "P2")["lp"] == 22 - 2  # L04 cost 2


# -- A13 End phase ------------------------------------------------------------------------------------


def test_a13_1_a16_6_until_end_of_turn_expires():
    """A13.1/A16.6: hand_rally and devour bonuses expire in the turn-end step."""
    state = attack_position(p1=dict(field={"F0": unit("S22", attack_bonus=3, devoured=True)}))
    state.apply("END_ATTACK")
    assert at(state, "P1", "F0")["attack_bonus"] == 0


def test_a13_2_hand_limit_six_active_player_only():
    """A13.2/A13.3: more than 6 cards: discard down to exactly 6 one by one; exactly 6 is kept;
    the non-active player is never adjusted."""
    state = attack_position(p1=dict(hand=["S02"] * 7 + ["S03"]), p2=dict(hand=["S04"] * 9))
    state.apply("END_ATTACK")
    assert state.position()["window"] == "discard" and legal(state) == ["DISCARD S02", "DISCARD S03"]
    state.apply("DISCARD S02")
    assert state.position()["window"] == "discard"
    state.apply("DISCARD S02")
    assert state.position()["active"] == "P2"
    assert len(player(state, "P1")["hand"]) == 6 and player(state, "P1")["discard"] == ["S02", "S02"]
    assert len(player(state, "P2")["hand"]) == 10
    state = attack_position(p1=dict(hand=["S02"] * 6))
    state.apply("END_ATTACK")
    assert state.position()["active"] == "P2" and len(player(state, "P1")["hand"]) == 6


# -- A14 Damage, destruction and LP --------------------------------------------------------------------------


def test_a14_2_a17_4_armor_reduces_each_event_to_zero_at_least():
    """A14.2/A17.4: armor 2 turns a 2-damage attack into 0 and a 3-damage attack into 1; LP unaffected."""
    state = attack_position(p1=dict(field={"F0": "S06", "F2": "S26"}), p2=dict(leader_at="F2", field={"F1": "S41"}))
    apply_all(state, "ATTACK F0", "ATTACK F2", "TARGET P2:F1")  # Pikeman side (2 + 1), then Valkyrie side (3 + 2)
    assert at(state, "P2", "F1")["damage"] == (3 - 2) + (5 - 2)


def test_a14_3_destroyed_at_damage_equal_hp():
    """A14.3: damage >= effective HP destroys (to the owner's discard pile)."""
    state = attack_position(p1=dict(field={"F0": "S28"}), p2=dict(field={"F0": unit("S24", damage=0)}))
    apply_all(state, "ATTACK F0", "TARGET P2:F0")
    assert at(state, "P2", "F0") is None and player(state, "P2")["discard"] == ["S24"]
    assert "destroyed" in kinds(state)


def test_a14_3_effective_hp_counts():
    """A14.3: effective HP (with L01's aura, 2 + 1 = 3) decides: 4 damage destroys, 2 does not."""
    state = attack_position(p1=dict(field={"F0": "S28"}), p2=dict(leader="L01", field={"F0": "S16"}))
    apply_all(state, "ATTACK F0", "TARGET P2:F0")  # Longbow Ranger HP 2 + 1 aura = 3 <= 4
    assert player(state, "P2")["discard"] == ["S16"]
    state = attack_position(p1=dict(field={"F0": "S06"}), p2=dict(leader="L01", field={"F0": "S16"}))
    apply_all(state, "ATTACK F0", "TARGET P2:F0")  # 2 damage < 3
    assert at(state, "P2", "F0") == unit("S16", damage=2)


def test_a14_4_lp_below_zero_and_heal_cap():
    """A14.4/R14: LP may go below 0; heals never exceed the starting LP."""
    state = attack_position(p1=dict(field={"F0": "S41"}), p2=dict(lp=2))
    state.apply("ATTACK F0")
    assert player(state, "P2")["lp"] == 2 - 6 and state.outcome().winner == 0
    state = load(p1=dict(lp=22, field={"B0": "S02"}))
    state.apply("ACTIVATE B0 tap_heal")
    assert player(state, "P1")["lp"] == 22


def test_a14_5_r5_leader_takes_no_damage_and_is_no_ability_target():
    """A14.5/R5: a leader is never dealt damage nor targeted by subordinate-only abilities."""
    state = attack_position(p1=dict(field={"F0": "S41"}))
    state.apply("ATTACK F0")
    assert at(state, "P2", "F1") == unit("L04")
    state = load(p1=dict(field={"B0": "S23"}, hand=["S12"]))
    assert "ACTIVATE B0 tap_snipe" not in legal(state)  # only the enemy leader: no target
    apply_all(state, "DEPLOY S12", "TO F0")
    assert state.position()["window"] != "trigger_target"  # deploy_strike fizzles (A16.3)


# -- A15 Winning and losing ---------------------------------------------------------------------------------


def test_a15_1_exactly_zero_loses():
    """A15.1: 0 LP loses (reason lp)."""
    state = attack_position(p1=dict(field={"F0": "S14"}), p2=dict(lp=2))
    state.apply("ATTACK F0")
    outcome = state.outcome()
    assert (outcome.winner, outcome.reason) == (0, "lp")
    assert state.legal_actions() == () and state.current_player() is None


def test_a15_2_r16_empty_deck_alone_is_no_loss():
    """A15.2/R16: emptying the deck (even by a deploy_draw) is no loss; only an impossible draw is."""
    state = load(p1=dict(hand=["S11", "S11"], deck=["S25"]))
    apply_all(state, "DEPLOY S11", "TO F0")
    assert state.outcome() is None and player(state, "P1")["deck"] == []
    apply_all(state, "DEPLOY S11", "TO F2")
    assert (state.outcome().winner, state.outcome().reason) == (1, "deck_out")


def test_a15_2_a17_21_hand_cycle_from_empty_deck_loses():
    """A15.2/A16.8/A17.21: hand_cycle's draw is required."""
    state = load(p1=dict(hand=["S03"], deck=[]))
    state.apply("HAND S03 hand_cycle")
    assert (state.outcome().winner, state.outcome().reason) == (1, "deck_out")


def test_a15_3_concede_loses_immediately():
    """A15.3 (ruling R-A1 in docs/rulings.md): `state.concede(p)` ends the game at once, at any
    decision point, even the opponent's; it is never among the legal actions."""
    state = load(window="move")
    assert not any("CONCEDE" in action for action in legal(state))
    state.concede(0)
    assert (state.outcome().winner, state.outcome().reason) == (1, "concede")
    assert state.legal_actions() == ()
    state = attack_position(p1=dict(field={"F0": "S26"}), p2=dict(field={"F0": "S14"}))
    apply_all(state, "ATTACK F0", "TARGET P2:F1")
    state.concede(0)  # the active player concedes while the defender decides the block
    assert state.outcome().winner == 1
    with pytest.raises(IllegalActionError):
        state.concede(1)


def test_a15_4_loss_discards_pending_triggers():
    """A15.4: the state check after combat destroys the Field Surgeon and finds P2 at <= 0 LP (pierce);
    the game ends at once and the queued farewell_heal (which would lift P2 above 0) is discarded."""
    state = attack_position(p1=dict(field={"F0": "S39"}), p2=dict(lp=1, field={"F0": "S32"}))
    apply_all(state, "ATTACK F0", "TARGET P2:F0")  # Ash Wyrm 6 vs HP 4: excess 2
    position = state.position()
    assert position["players"]["P2"]["lp"] == -1 and position["triggers"] == []
    assert (position["winner"], position["reason"]) == ("P1", "lp")


def test_a15_5_r15_simultaneous_loss_is_a_draw():
    """A15.5/R15 (kept for future cards): a state check finding both players lost is a draw. Reached
    here from a position where P1 already stands at 0 LP when P2's LP falls to 0."""
    state = attack_position(p1=dict(lp=0, field={"F0": "S27"}), p2=dict(lp=4))
    state.apply("ATTACK F0")
    outcome = state.outcome()
    assert outcome.winner is None and outcome.reason == "simultaneous_loss"
    assert state.position()["draw"] is True


# -- A16 Abilities: general rules -------------------------------------------------------------------------


def test_a16_2_statics_recomputed_when_values_are_read():
    """A16.2: kinship and aura follow the current field (move away: bonus gone)."""
    state = load(window="move", p1=dict(leader="L05", field={"F0": "S04", "B0": "S24", "B2": "S01"}))
    pup = inst_at(state, "P1", "F0")
    assert state.attack_value(pup) == 2
    state.apply("MOVE B0")  # its only free neighbour is B1 (diagonal to the Pup)
    assert at(state, "P1", "B1")["card"] == "S24"
    assert state.attack_value(pup) == 1


def test_a16_3_deploy_trigger_resolves_before_next_action():
    """A16.3: a deploy_strike waits for its controller's target before anything else; armor applies."""
    state = load(p1=dict(hand=["S36", "S02"], field={"B0": "S13"}), p2=dict(field={"F0": "S09", "F2": "S24"}))
    apply_all(state, "DEPLOY S36", "TO F0")
    assert state.position()["window"] == "trigger_target"
    assert state.position()["triggers"] == [{"player": "P1", "ability": "deploy_strike", "amount": 2,
                                             "source": "S36"}]  # fmt: skip
    assert legal(state) == ["TARGET P2:F0", "TARGET P2:F2"]
    state.apply("TARGET P2:F0")
    assert at(state, "P2", "F0") == unit("S09", damage=1)  # 2 - 1 armor
    assert state.position()["triggers"] == [] and state.position()["window"] == "action"


def test_a16_3_single_target_chosen_automatically():
    """A16.3/A7.4: with one legal target the trigger resolves on it without a decision."""
    state = load(p1=dict(hand=["S12"]), p2=dict(field={"B2": "S01"}))
    apply_all(state, "DEPLOY S12", "TO F0")
    assert player(state, "P2")["discard"] == ["S01"]


def test_a16_4_tap_abilities_need_ready_and_prevent_attacking():
    """A16.4: a tap ability needs a ready source and makes it acted, so it cannot attack later."""
    state = load(p1=dict(field={"F0": "S23", "F2": unit("S02", ready=False)}), p2=dict(field={"F0": "S24"}))
    assert "ACTIVATE F2 tap_heal" not in legal(state)
    apply_all(state, "ACTIVATE F0 tap_snipe")  # single target: P2:F0
    assert at(state, "P2", "F0")["damage"] == 1
    assert state.position()["window"] == "attack"
    assert "ATTACK F0" not in legal(state)


def test_a16_5_hand_ability_card_may_be_deployed_instead():
    """A16.5: a card with a hand ability may be deployed normally; using the ability discards it
    (not a deployment)."""
    state = load(p1=dict(hand=["S21", "S21"]))
    assert {"DEPLOY S21", "HAND S21 hand_rally"} <= set(legal(state))
    apply_all(state, "DEPLOY S21", "TO F0", "HAND S21 hand_rally", "TARGET P1:F0")
    seat = player(state, "P1")
    assert seat["field"]["F0"] == unit("S21", attack_bonus=2)
    assert seat["discard"] == ["S21"] and seat["hand"] == []
    assert "deploy" in kinds(state) and "hand_ability" in kinds(state)


def test_a16_8_ability_draw_is_required():
    """A16.8: deploy_draw from an empty deck loses."""
    state = load(p1=dict(hand=["S30"], field={"B0": "S13"}, deck=[]))
    apply_all(state, "DEPLOY S30", "TO F0")
    assert state.outcome().reason == "deck_out" and state.outcome().winner == 1


# -- A17 Ability vocabulary ----------------------------------------------------------------------------------


def test_a17_1_cannot_attack():
    """A17.1: Gate Warden in the front row, ready, with a target, is never an attacker."""
    state = attack_position(p1=dict(leader_at="B1", field={"F1": "S07"}))
    assert state.position()["players"]["P2"]["lp"] == 22
    assert state.position()["active"] == "P2"  # nothing could attack: the phase ended by itself


def test_a17_2_evasive_never_blocked():
    """A17.2: an evasive side attack opens no block window even with a subordinate on the facing square."""
    state = attack_position(p1=dict(field={"F2": "S40"}), p2=dict(field={"F2": "S14"}))
    apply_all(state, "ATTACK F2", "TARGET P2:F1")
    assert player(state, "P2")["lp"] == 22 - 6  # cost 5 + siege 1
    assert "block" not in kinds(state)


def test_a17_3_ranged_from_the_back_row_uses_its_column():
    """A17.3: a ranged unit on B2 attacks as if from F2 (whether F2 is occupied or not)."""
    state = attack_position(p1=dict(field={"B2": "S16", "F2": "S07"}), p2=dict(field={"F2": "S24"}))
    state.apply("ATTACK B2")
    assert legal(state) == ["TARGET P2:F1", "TARGET P2:F2"]
    state.apply("TARGET P2:F1")
    assert state.position()["window"] == "block"  # P2:F2 holds a subordinate


def test_a17_3_ranged_must_be_ready():
    """A17.3: an acted ranged unit does not attack."""
    state = attack_position(p1=dict(field={"B2": unit("S29", ready=False)}))
    assert "ATTACK B2" not in legal(state)


def test_a17_5_pierce_excess_and_no_excess():
    """A17.5/A20.4: excess = damage dealt (after armor) - HP left; nothing if the target survives."""
    state = attack_position(p1=dict(field={"F0": "S28"}), p2=dict(field={"F0": unit("S14", damage=2)}))
    apply_all(state, "ATTACK F0", "TARGET P2:F0")  # 4 - 1 armor = 3 vs 4 - 2 = 2 left: excess 1
    assert player(state, "P2")["lp"] == 21
    state = attack_position(p1=dict(field={"F0": "S19"}), p2=dict(field={"F0": "S24"}))
    apply_all(state, "ATTACK F0", "TARGET P2:F0")  # 3 vs HP 4: survives
    assert player(state, "P2")["lp"] == 22 and at(state, "P2", "F0")["damage"] == 3


def test_a17_5_pierce_exact_kill_no_lp_loss():
    """A17.5: damage exactly equal to the HP left destroys with excess 0."""
    state = attack_position(p1=dict(field={"F0": "S19"}), p2=dict(field={"F0": "S29"}))
    apply_all(state, "ATTACK F0", "TARGET P2:F0")
    assert player(state, "P2")["discard"] == ["S29"] and player(state, "P2")["lp"] == 22


def test_a17_6_flank_only_on_side_attacks():
    """A17.6: +amount attack on a side attack, none on a front attack."""
    for target, damage in (("TARGET P2:F1", 2 + 1), ("TARGET P2:F0", 2)):
        state = attack_position(p1=dict(leader_at="F2", field={"F0": "S06"}),
                                p2=dict(leader_at="B1", field={"F0": "S24", "F1": "S24"}))  # fmt: skip
        apply_all(state, "ATTACK F0", target)
        if state.position()["window"] == "block":
            state.apply("NO_BLOCK")
        assert at(state, "P2", target[-2:])["damage"] == damage


def test_a17_7_siege_adds_to_leader_attacks_only():
    """A17.7: Siege Golem (cost 4, siege 2) removes 6 LP; against a subordinate siege adds nothing."""
    state = attack_position(p1=dict(field={"F0": "S33"}))
    state.apply("ATTACK F0")
    assert player(state, "P2")["lp"] == 16
    state = attack_position(p1=dict(field={"F0": "S33"}), p2=dict(field={"F0": "S41"}))
    apply_all(state, "ATTACK F0", "TARGET P2:F0")
    assert at(state, "P2", "F0")["damage"] == 4 - 2


@pytest.mark.parametrize(
    ("field", "expected"),
    [
        ({"F0": "S04", "B0": "S24"}, 2),  # another beast orthogonally adjacent
        ({"F0": "S04", "B1": "S24"}, 1),  # only diagonal: no kinship
        ({"F0": "S04"}, 1),  # alone
        ({"F0": "S08", "B0": "S13"}, 3),  # Cinder Hound next to a demon
        ({"F0": "S08", "B0": "S08"}, 3),  # ... another Cinder Hound (beast, demon)
        ({"F0": "S37", "B0": "S14"}, 5),  # Banner Knight next to a human
        ({"F0": "S17", "B0": "S04"}, 3),  # Pack Wolf next to a beast
    ],
)
def test_a17_8_kinship(field, expected):
    """A17.8: +amount while another friendly unit of the race is orthogonally adjacent (P1 leader L05,
    no aura)."""
    state = load(p1=dict(leader="L05", field=field))
    assert state.attack_value(inst_at(state, "P1", "F0")) == expected


def test_a17_8_kinship_with_the_leader():
    """A17.8: the leader counts as the adjacent unit (L04 is a beast); its aura adds +1 as well."""
    state = load(p1=dict(leader="L04", field={"F0": "S04"}))
    assert state.attack_value(inst_at(state, "P1", "F0")) == 1 + 1 + 1


def test_a17_9_aura_other_friendly_subordinates_of_the_race():
    """A17.9: Alpha Direbear gives other friendly beasts +1 attack (not itself, not enemies, not
    non-beasts); Dawn Archon gives angels +1 HP; leader auras too; auras add up (A16.2)."""
    state = load(p1=dict(leader="L04", field={"F0": "S35", "F2": "S35", "B0": "S24", "B1": "S13", "B2": "S34"}),
                 p2=dict(leader="L01", field={"F0": "S24", "F2": "S14"}))  # fmt: skip
    direbear = inst_at(state, "P1", "F0")
    assert state.attack_value(direbear) == 5 + 1 + 1  # L04 + the other Direbear
    assert state.attack_value(inst_at(state, "P1", "B0")) == 1 + 3  # L04 + two Direbears
    assert state.attack_value(inst_at(state, "P1", "B1")) == 0  # demon: no beast aura
    assert state.hp_value(inst_at(state, "P1", "B2")) == 5  # the Archon's own aura not on itself
    assert state.attack_value(inst_at(state, "P2", "F0")) == 1  # enemy beast
    assert state.hp_value(inst_at(state, "P2", "F2")) == 4 + 1  # L01: human +1 HP


def test_a17_10_wide_reach_diagonal_supply():
    """A17.10: Brass Surveyor on B0 supplies F1 diagonally too; a non-wide_reach unit would not."""
    state = load(p1=dict(leader_at="B2", field={"B0": "S18"}))
    assert state.supply(0, SQUARE_INDEX["F1"]) == 2  # no orthogonal unit; the leader on B2 lacks wide_reach
    state = load(p1=dict(leader_at="B2", field={"B0": "S24"}))
    assert state.supply(0, SQUARE_INDEX["F1"]) == 0


def test_a17_10_wide_reach_values():
    """A17.10: L02 on F1 supplies all five other squares with 2."""
    state = load(p1=dict(leader="L02"))
    assert [state.supply(0, sq) for sq in range(6)] == [2, 0, 2, 2, 2, 2]


def test_a17_11_rear_support_only_in_back_row():
    """A17.11: +amount dominance in the back row only (L05 and Halo Mote)."""
    state = load(p1=dict(leader="L05", leader_at="B1", field={"F0": "S05"}))
    assert state.supply(0, SQUARE_INDEX["B0"]) == 3 + 1  # L05 back row 2 + 1; Mote front row 1
    assert state.supply(0, SQUARE_INDEX["F1"]) == 3 + 1


def test_a17_12_nimble_two_moves():
    """A17.12: Pack Wolf makes two moves; a third is refused."""
    state = load(window="move", p1=dict(field={"B0": "S17", "B2": "S01"}))
    apply_all(state, "MOVE B0", "TO B1", "MOVE B1")  # second move: B0 is its only free neighbour
    assert at(state, "P1", "B0") == unit("S17", moves=2)
    assert "MOVE B0" not in legal(state)


def test_a17_13_deploy_draw():
    """A17.13: Sanctum Oracle draws 1 on entering."""
    state = load(p1=dict(hand=["S30"], field={"B0": "S13"}, deck=["S26", "S14"]))
    apply_all(state, "DEPLOY S30", "TO F0")
    assert player(state, "P1")["hand"] == ["S26"]


def test_a17_14_deploy_strike_any_square():
    """A17.14: any enemy subordinate, back row included."""
    state = load(p1=dict(hand=["S36"], field={"B0": "S13", "F2": "S13"}), p2=dict(field={"B0": "S24", "B2": "S24"}))
    apply_all(state, "DEPLOY S36")
    assert legal(state) == ["TO B1", "TO F0"]
    apply_all(state, "TO F0", "TARGET P2:B2")
    assert at(state, "P2", "B2")["damage"] == 2


def test_a17_15_deploy_heal():
    """A17.15: Lantern Cherub heals 2 (capped, A14.4)."""
    state = load(p1=dict(lp=10, hand=["S10"]))
    apply_all(state, "DEPLOY S10", "TO F0")
    assert player(state, "P1")["lp"] == 12


def test_a17_16_farewell_heal_destroyed_not_retired():
    """A17.16: destruction (even in the opponent's turn) fires it; the leader's move retirement does not."""
    state = attack_position(p1=dict(field={"F0": "S28"}), p2=dict(lp=12, field={"F0": "S32"}))
    apply_all(state, "ATTACK F0", "TARGET P2:F0")
    assert player(state, "P2")["lp"] == 14
    state = load(window="move", p1=dict(lp=12, field={"F0": "S32", "B2": "S01"}))
    apply_all(state, "MOVE F1", "TO F0")
    assert player(state, "P1")["lp"] == 12


def test_a17_16_farewell_heal_capped():
    """A17.16/A14.4: farewell_heal at full LP heals nothing."""
    state = attack_position(p1=dict(field={"F0": "S41"}), p2=dict(lp=21, field={"F0": "S32"}))
    apply_all(state, "ATTACK F0", "TARGET P2:F0")
    assert player(state, "P2")["lp"] == 22


def test_a17_17_tap_heal():
    """A17.17: tap: the leader gains amount LP; the source becomes acted."""
    state = load(p1=dict(lp=15, field={"B0": "S02", "B2": "S32"}))
    apply_all(state, "ACTIVATE B0 tap_heal", "ACTIVATE B2 tap_heal")
    assert player(state, "P1")["lp"] == 17
    assert at(state, "P1", "B0")["ready"] is False


def test_a17_18_tap_snipe_needs_a_target():
    """A17.18: no enemy subordinate: not offered; with one: damage amount, armor applies."""
    state = load(p1=dict(field={"B0": "S23"}, hand=["S02"]))
    assert "ACTIVATE B0 tap_snipe" not in legal(state)
    state = load(p1=dict(field={"B0": "S23"}, hand=["S02"]), p2=dict(field={"F2": "S09", "F0": "S01"}))
    apply_all(state, "ACTIVATE B0 tap_snipe")
    assert legal(state) == ["TARGET P2:F0", "TARGET P2:F2"]
    state.apply("TARGET P2:F2")
    assert at(state, "P2", "F2") == unit("S09")  # 1 - 1 armor = 0


def test_a17_19_devour_needs_a_card_once_per_turn():
    """A17.19: no card in discard: not offered; once per turn; no tap; +amount until end of turn."""
    state = load(p1=dict(field={"F0": "S22"}, hand=["S02"]))
    assert "ACTIVATE F0 devour" not in legal(state)
    state = load(p1=dict(field={"F0": "S22", "F2": "S22"}, discard=["S11", "S14", "S25"]))
    apply_all(state, "ACTIVATE F0 devour", "ACTIVATE F2 devour")
    seat = player(state, "P1")
    assert seat["removed"] == ["S11", "S14"] and seat["discard"] == ["S25"]
    assert state.attack_value(inst_at(state, "P1", "F0")) == 3
    assert state.position()["window"] == "attack"  # both used: nothing left to do
    assert {"ATTACK F0", "ATTACK F2"} <= set(legal(state))


def test_a17_20_hand_rally_any_friendly_unit_including_the_leader():
    """A17.20: +amount attack until end of turn on the chosen friendly unit (leader included)."""
    state = load(p1=dict(hand=["S21"], field={"F0": "S01"}))
    state.apply("HAND S21 hand_rally")
    assert legal(state) == ["TARGET P1:F0", "TARGET P1:F1"]
    state.apply("TARGET P1:F1")
    assert state.attack_value(inst_at(state, "P1", "F1")) == 2 + 2


def test_a17_21_hand_cycle():
    """A17.21: discard, draw 1."""
    state = load(p1=dict(hand=["S03"], deck=["S40", "S01"]))
    state.apply("HAND S03 hand_cycle")
    seat = player(state, "P1")
    assert seat["hand"] == ["S40"] and seat["discard"] == ["S03"] and seat["deck"] == ["S01"]


def test_a17_22_leader_with_subordinate_only_key_is_rejected(tmp_path):
    """A17.22/R22: a leader carrying armor is rejected when the card set is loaded."""
    path = tmp_path / "bad.toml"
    path.write_text('[[cards]]\ntype = "leader"\nid = "LX"\nname = "Bad"\nlp = 20\nattack = 1\ncost = 1\n'
                    'dominance = 1\nraces = ["human"]\nabilities = [{ key = "armor", amount = 1 }]\n')  # fmt: skip
    with pytest.raises(CardDataError, match=r"A17\.22"):
        Aterial(AterialConfig(cards=(str(path),)))


EXTRA_CARDS = """
[[cards]]
type = "subordinate"
id = "X01"
name = "Breach Ram"
cost = 2
attack = 5
hp = 3
dominance = 1
races = ["demon"]
abilities = [{ key = "pierce" }, { key = "siege", amount = 2 }]

[[cards]]
type = "subordinate"
id = "X02"
name = "Sapper"
cost = 0
attack = 0
hp = 1
dominance = 0
races = ["human"]
abilities = [{ key = "siege", amount = 1 }]
"""


def _extra_position(tmp_path: Path, **kwargs) -> dict:
    extra = tmp_path / "extra.toml"
    extra.write_text(EXTRA_CARDS)
    data = make_position(window="attack", turn=6, **kwargs)
    data["config"]["cards"] = [str(extra)]  # added to the packaged sample set
    return data


def test_a17_23_r23_siege_never_added_to_pierce(tmp_path):
    """A17.23/R23: a pierce+siege unit's excess is plain (5 - 1 = 4); its attack on the leader is cost + siege."""
    data = _extra_position(tmp_path, p1=dict(leader_at="F2", field={"F0": "X01", "F1": "X01"}),
                           p2=dict(leader_at="F1", field={"F0": "S04"}))  # fmt: skip
    state = GAME.load_position(data)
    apply_all(state, "ATTACK F0", "TARGET P2:F0")
    assert player(state, "P2")["lp"] == 22 - 4
    state.apply("ATTACK F1")  # the leader on P2:F1 is its only target now
    assert player(state, "P2")["lp"] == 22 - 4 - (2 + 2)


def test_a17_7_r23_siege_on_a_cost_zero_attacker(tmp_path):
    """A17.7/R23: siege adds to the leader attack of a cost-0 unit (0 + 1)."""
    state = GAME.load_position(_extra_position(tmp_path, p1=dict(leader_at="F2", field={"F1": "X02"})))
    state.apply("ATTACK F1")
    assert player(state, "P2")["lp"] == 21


# -- A18 Engine interface ------------------------------------------------------------------------------------


def test_a18_2_illegal_decision_rejected_state_unchanged():
    """A18.2: an illegal decision raises IllegalActionError and changes nothing."""
    state = attack_position(p1=dict(field={"F0": "S26"}), p2=dict(field={"F0": "S14"}))
    before = state.position()
    for text in ("TARGET P2:F0", "DEPLOY S14", "BLOCK", "ATTACK B0", "MOVE F1", "NONSENSE"):
        with pytest.raises(IllegalActionError):
            state.apply(text)
        assert state.position() == before


def test_a18_4_observation_hides_hand_and_deck_order():
    """A18.4: the opponent's hand and both decks' order are hidden; counts and states are public."""
    state = load(p1=dict(hand=["S25", "S26"], deck=["S40", "S41", "S11"]),
                 p2=dict(hand=["S35"], deck=["S39"], field={"F0": unit("S24", damage=1, ready=False)}))  # fmt: skip
    observation = state.observation(1)
    assert "shuffle_seed" not in observation
    p1, p2 = observation["players"]["P1"], observation["players"]["P2"]
    assert p1["hand"] is None and p1["hand_size"] == 2 and p1["deck_size"] == 3 and "deck" not in p1
    assert p2["hand"] == ["S35"] and p2["deck_size"] == 1 and "deck" not in p2
    assert p2["field"]["F0"]["damage"] == 1 and p2["field"]["F0"]["ready"] is False
    assert p2["field"]["F0"]["hp"] == 4 and p2["field"]["F0"]["attack"] == 2  # L04's aura
    text = json.dumps(observation)
    for hidden in ("S25", "S26", "S40", "S41", "S11", "S39"):
        assert hidden not in text


def test_a18_4_draw_events_are_private():
    """A18.4: the drawn card's id is in the drawer's event view only."""
    state = attack_position(p2=dict(deck=["S39"]))
    state.apply("END_ATTACK")
    assert "S39" in json.dumps(state.events.for_player(1))
    assert "S39" not in json.dumps(state.events.for_player(0))
    assert "S39" not in json.dumps(state.events.for_player(None))


def test_a18_4_sampled_world_at_deploy_to_is_playable():
    """A18.4: every world sampled for the opponent while a deployment is pending is a consistent state."""
    state = load(p1=dict(hand=["S14", "S02"], deck=["S25", "S26", "S27", "S28", "S29"]))
    state.apply("DEPLOY S14")
    for seed in range(20):
        for world in (sample_world(state, 1, random.Random(seed)), canonical_world(state, 1)):
            world.apply("TO F0")
            assert world.position()["players"]["P1"]["field"]["F0"]["card"] == "S14"


def test_a18_4_worlds_for_the_waiting_player_do_not_leak_the_movers_hand():
    """A18.4: a world built for P2 while P1 acts re-deals P1's hand; its legal actions must follow it."""
    state = load(p1=dict(hand=["S14"], deck=["S02", "S03"]))
    assert legal(state) == ["DEPLOY S14", "END_ACTION"]
    worlds = [canonical_world(state, 1), state.infoset(1).canonical_world]
    worlds += [sample_world(state, 1, random.Random(seed)) for seed in range(10)]
    for world in worlds:
        hand = world.position()["players"]["P1"]["hand"]
        assert legal(world) == legal(GAME.load_position(world.position()))
        assert f"DEPLOY {hand[0]}" in legal(world)  # S14, S02 and S03 all fit F0
        assert all(action == "END_ACTION" or hand[0] in action for action in legal(world))

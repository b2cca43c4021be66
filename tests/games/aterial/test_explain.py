"""Why a refused Aterial choice is illegal, in the rules' words (issue #16), and that the reason is safe to show."""

from __future__ import annotations

import random
import re

import pytest

from cardlab.core import IllegalActionError

from .aterial_positions import GAME, apply_all, load, unit


def refused(state, action: str) -> str:
    """The message of the error `action` raises; the state must not have changed."""
    before = state.position()
    with pytest.raises(IllegalActionError) as caught:
        state.apply(action)
    assert state.position() == before
    return str(caught.value)


def test_a11_3_a_deploy_too_dear_for_every_square_names_cost_and_best_supply() -> None:
    state = load(p1=dict(hand=["S14", "S25", "S41"]))  # the leader on F1 supplies 2 to F0, F2 and B1
    assert "cost 3 > dominance 2 on F0, the best empty square (A11.2, A11.3)" in refused(state, "DEPLOY S25")
    assert "S02 is not in your hand" in refused(state, "DEPLOY S02")
    assert "L02 is not in your hand" in refused(state, "DEPLOY L02")


def test_a11_3_a_square_without_supply_or_taken_is_explained() -> None:
    state = apply_all(load(p1=dict(hand=["S14"])), "DEPLOY S14")
    cost = GAME.card_set.cards["S14"].cost
    assert f"cost {cost} > dominance 0 on B0 (A11.2, A11.3)" in refused(state, "TO B0")
    assert "F1 is occupied: deploy on an empty square (A11.3)" in refused(state, "TO F1")


def test_a10_moves_name_the_step_rule() -> None:
    state = load(window="move", p1=dict(field={"B1": "S01", "F2": unit("S06", moves=1)}))
    assert "the unit on F2 has no move left this turn (A10.4)" in refused(state, "MOVE F2")
    assert "no unit of yours on B2" in refused(state, "MOVE B2")
    state.apply("MOVE B1")  # to B0 or B2
    assert "F0 is not one orthogonal step from B1 (A10.2)" in refused(state, "TO F0")
    assert "F1 is occupied: only the leader may step onto a friendly subordinate (A10.3)" in refused(state, "TO F1")


def test_a12_attacks_name_the_missing_condition() -> None:
    state = load(window="attack", turn=6, p1=dict(field={"F0": unit("S01", ready=False), "B0": "S06"}))
    assert "the unit on F0 is not ready: it has acted this turn (A12.3)" in refused(state, "ATTACK F0")
    assert "B0 is in the back row: only a ranged unit attacks from there (A12.3)" in refused(state, "ATTACK B0")
    assert "you cannot move a unit during the attack phase (A12); now you can attack or end the attack phase" in (
        refused(state, "MOVE F0")
    )
    first_turn = load(window="move", turn=1, p1=dict(field={"F0": "S01"}))
    assert "the first player's first turn has no attack phase (A12.1)" in refused(first_turn, "ATTACK F0")


def test_every_refused_choice_gets_a_reason_that_shows_only_what_the_chooser_may_know() -> None:
    """Over random games: each action not legal at a decision has a reason, and the only card ids in
    it are the action's own and cards the chooser sees (their hand, both fields)."""
    rng = random.Random(5)
    actions = GAME.actions
    for seed in range(12):
        state = GAME.new_state(seed, record_events=False)
        while state.current_player() is not None:
            legal = set(state.legal_actions())
            position = state.position()
            me = position["players"]["P1" if state.current_player() == 0 else "P2"]
            visible = set(me["hand"]) | {
                entry["card"] for p in position["players"].values() for entry in p["field"].values() if entry
            }
            for action in actions.space:
                if action in legal:
                    continue
                reason = state.why_illegal(action)
                assert reason, f"no reason for {action} in window {position['window']}"
                named = set(re.findall(r"\b[LS]\d\d\b", reason)) - {actions.decode(action).card}
                assert named <= visible, (reason, named - visible)
            state.apply(rng.choice(state.legal_actions()))

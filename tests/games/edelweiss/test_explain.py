"""Why a refused Edelweiss choice is illegal, in the rules' words (issue #35 item 3), and that the reason
reads only what the player choosing may know."""

from __future__ import annotations

import random

import pytest

from cardlab.core import IllegalActionError
from cardlab.games.edelweiss import Edelweiss
from cardlab.games.edelweiss.actions import EdelweissAction as A

CONFIGS = [{}, {"deck": "skills", "standard": "symbolic"}, {"deck": "skills", "standard": "accel2"}]


def refused(state, action: str) -> str:
    before = state.position()
    with pytest.raises(IllegalActionError) as caught:
        state.apply(action)
    assert state.position() == before
    return caught.value.reason


def test_the_window_and_the_missing_card_are_named() -> None:
    """E4.1, E5.1: a verb of another window; a suit the hand lacks."""
    state = Edelweiss().new_state(3)  # P1's main step, hand 5H 9S 2D 6D ...
    assert refused(state, "ATTACK") == (
        "you cannot attack with an upright spade during your main step, when you summon (E4.1); "
        "now you can summon a card from your hand"
    )
    assert refused(state, "BLOCK").startswith("you cannot block with an upright heart during your main step")
    assert refused(state, "SUMMON C") == "you have no club in your hand"


@pytest.mark.parametrize("options", CONFIGS)
def test_every_refused_action_has_a_reason_that_depends_only_on_what_the_chooser_knows(options: dict) -> None:
    game = Edelweiss.from_options(options, random.Random(0))
    checked = 0
    for seed in range(20):
        state, rng = game.new_state(seed), random.Random(seed)
        while (player := state.current_player()) is not None:
            legal = set(state.legal_actions())
            world = state.infoset(player).sample_world(rng)
            for action in A:
                if action not in legal:
                    reason = state.why_illegal(action)
                    assert reason, (str(state.window), action)
                    assert world.why_illegal(action) == reason, (str(state.window), action)
                    checked += 1
            state.apply(rng.choice(state.legal_actions()))
    assert checked > 1000


def test_skill_refusals_name_the_skill() -> None:
    """E8.1: a field guard needs Guardian, and under Accel 2 a tapped spade."""
    reasons: dict[str, set[str]] = {"no guardian": set(), "accel2 heart": set()}
    for standard in ("symbolic", "accel2"):
        game = Edelweiss.from_options({"deck": "skills", "standard": standard}, random.Random(0))
        for seed in range(30):
            state, rng = game.new_state(seed), random.Random(seed)
            while (player := state.current_player()) is not None:
                legal = state.legal_actions()
                if str(state.window) == "defense":
                    guardian = state.skills[player] & 1
                    if not guardian:
                        reasons["no guardian"].add(state.why_illegal(A.FIELD_GUARD_S))
                    elif standard == "accel2" and A.FIELD_GUARD_H not in legal:
                        reasons["accel2 heart"].add(state.why_illegal(A.FIELD_GUARD_H))
                state.apply(rng.choice(legal))
    assert reasons["no guardian"] == {"only Guardian may guard with a field card (E8.1)"}
    assert "under Accel 2, Guardian guards with a tapped spade only (E8.1)" in reasons["accel2 heart"]

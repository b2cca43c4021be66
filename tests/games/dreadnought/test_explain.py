"""Why a refused Dreadnought choice is illegal, in the rules' words (issue #35 item 3: `CAST R11` said
nothing), and that the reason reads only what the player choosing may know."""

from __future__ import annotations

import random

import pytest

from cardlab.core import IllegalActionError
from cardlab.games.dreadnought import Dreadnought
from cardlab.games.dreadnought.position import window_name
from cardlab.games.dreadnought.state import DreadnoughtState

GAME = Dreadnought()


def _at_cast_window(seed: int, holding: str) -> DreadnoughtState:
    """A game played at random until P1's cast actions with `holding` (a card type) in hand."""
    state, rng = GAME.new_state(seed), random.Random(seed)
    while state.current_player() is not None:
        at_cast = state.current_player() == 0 and window_name(state) == "cast_window"
        if at_cast and any(state.cards[inst].type == holding for inst in state.hand[0]):
            return state
        state.apply(rng.choice(state.legal_actions()))
    raise AssertionError(f"no cast window with a {holding} in hand for seed {seed}")


def test_an_arms_or_a_code_cannot_be_cast_and_the_reason_says_how_to_play_it() -> None:
    """D2.7, D2.8, D9.2: CAST is for units and idols; an arms is played in the fast actions."""
    state = _at_cast_window(1, "arms")
    arms = next(state.cards[inst] for inst in state.hand[0] if state.cards[inst].type == "arms")
    before = state.position()
    with pytest.raises(IllegalActionError) as caught:
        state.apply(f"CAST {arms.id}")
    assert state.position() == before
    assert (
        caught.value.reason
        == f"{arms.name} is an arms: PLAY it onto one of your casters in your fast actions (D2.8, D9.2)"
    )
    assert state.why_illegal(GAME.parse_action(f"PLAY {arms.id}")) == (
        f"{arms.name} is an arms: it is played in your fast actions (D9.2)"
    )
    assert state.why_illegal(GAME.parse_action("ATTACKER BA1.U1")).startswith(
        "ATTACKER is not a choice during your cast actions (D8.2)"
    )


def test_a_card_not_in_hand_and_a_code_out_of_its_timing() -> None:
    state = _at_cast_window(2, "code")
    code = next(state.cards[inst] for inst in state.hand[0] if state.cards[inst].type == "code")
    missing = next(c for c in GAME.card_set.by_id.values() if c.type == "unit" and c.id not in
                   {state.cards[inst].id for inst in state.hand[0] + state.speed[0]})  # fmt: skip
    assert state.why_illegal(GAME.parse_action(f"CAST {missing.id}")) == f"{missing.id} is not in your hand"
    if "CAST" not in code.timing:
        timing = " or ".join(t.lower() for t in code.timing)
        assert state.why_illegal(GAME.parse_action(f"PLAY {code.id}")) == (
            f"{code.name} is used at {timing} timing, not now (D5.4)"
        )


@pytest.mark.parametrize("seed", range(3))
def test_every_refused_action_has_a_reason_that_depends_only_on_what_the_chooser_knows(seed: int) -> None:
    state, rng = GAME.new_state(seed), random.Random(seed)
    space = list(GAME.actions.space)
    checked = 0
    while (player := state.current_player()) is not None:
        if rng.random() < 0.15:
            legal = set(state.legal_actions())
            world = state.infoset(player).sample_world(rng)
            for action in space:
                if action not in legal:
                    reason = state.why_illegal(action)
                    assert reason, (window_name(state), str(action))
                    assert world.why_illegal(action) == reason, (window_name(state), str(action))
                    checked += 1
        state.apply(rng.choice(state.legal_actions()))
    assert checked > 5000

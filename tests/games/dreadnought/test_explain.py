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
        == f"{arms.name} is an arms: play it onto one of your casters in your fast actions (D2.8, D9.2)"
    )
    assert state.why_illegal(GAME.parse_action(f"PLAY {arms.id}")) == (
        f"{arms.name} is an arms: it is played in your fast actions (D9.2)"
    )
    assert state.why_illegal(GAME.parse_action("ATTACKER BA1.U1")).startswith(
        "you cannot add an attacker during your cast actions (D8.2); now you can "
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


def _at_window(seed: int, window: str) -> DreadnoughtState:
    state, rng = GAME.new_state(seed), random.Random(seed)
    while state.current_player() is not None:
        if state.current_player() == 0 and window_name(state) == window:
            return state
        state.apply(rng.choice(state.legal_actions()))
    raise AssertionError(f"no {window} for P1 with seed {seed}")


def test_a_choice_of_another_decision_says_what_can_be_done_now_in_words() -> None:
    """#51 item 5: not "CAST is not a choice ...: choose GODDRAW, ATTACKER, PLAY, ...", but what the player
    can do now in words, with the rule id (D10.2)."""
    state = _at_window(0, "aturn")
    assert state.why_illegal(GAME.parse_action("CAST R02")) == (
        "you cannot cast a unit or idol during your action turn (D10.2); now you can god draw a burst, "
        "add an attacker, play a code or arms, use an ability, use a sub-effect or pass"
    )


def test_no_refusal_speaks_slot_codes_or_verb_lists() -> None:
    """#51 item 5: a refusal names places as the board does (`BA1 unit 1`, not `BA1.U1`) and never lists verbs."""
    import re

    state, rng = GAME.new_state(4), random.Random(4)
    seen = 0
    while state.current_player() is not None and seen < 3000:
        if rng.random() < 0.1:
            legal = set(state.legal_actions())
            for action in GAME.actions.space:
                if action not in legal:
                    reason = state.why_illegal(action)
                    assert not re.search(r"BA[12]\.(C|U[12])|[A-Z]:BA|choose [A-Z]{3,}", reason), reason
                    seen += 1
        state.apply(rng.choice(state.legal_actions()))
    assert seen > 500


def test_an_ability_out_of_its_zone_says_where_it_works() -> None:
    """#51 item 5, D19.3: an idol whose ability works in a battle area says so, rather than "no legal target
    now, or works only in another zone"."""
    from cardlab.games.dreadnought import explain
    from cardlab.games.dreadnought.frames import IDOL_AREA

    state = _at_window(0, "aturn")
    zoned = [(card_id, k) for card_id, found in GAME.activated.items() for k, (_, ability) in enumerate(found)
             if ability.zone == "battle" and GAME.card_set.by_id[card_id].type != "caster"]  # fmt: skip
    assert zoned, "the card set has an activated ability tied to a battle area"
    card_id, index = zoned[0]
    card = GAME.card_set.by_id[card_id]
    inst = next(i for i, c in enumerate(state.cards) if c.id == card_id)
    old = state.idol[0]
    state.idol[0], state.area_of[inst] = inst, IDOL_AREA
    try:
        reason = explain._use(state, 0, "aturn", "IDOL", "", index)
    finally:
        state.idol[0] = old
    assert reason == (
        f"{card.name}'s ability works only while it stands in a battle area, and it is in your idol area (D19.3)"
    )

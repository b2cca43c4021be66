"""Duel's heuristic: lead the strongest card; answer with the card that gains most over the led one (T3.3)."""

from __future__ import annotations

import random

from cardlab.core.game import Action, State
from tests.toygame.duel.game import ACTIONS, DuelState


def choose(state: State, rng: random.Random) -> Action:
    assert isinstance(state, DuelState)
    player = state.current_player()
    assert player is not None
    hand, cards = state.hands[player], state.game.card_set
    if state.led is None:
        best = max(range(len(hand)), key=lambda i: (cards[hand[i]].power, -i))
    else:
        led = state.led
        best = max(range(len(hand)), key=lambda i: (state.value(hand[i], led) - state.value(led, hand[i]), -i))
    return ACTIONS[best]
